/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Frames beyond max_depth: not shown (their calls are counted,
 * PTS_TLD_TOO_DEEP), but kept, so that a return, a longjmp or a raise
 * out of them is told from a jump inside them (timeline.h).
 */
#ifndef PTS_TIMELINE_TL_HIDDEN_H
#define PTS_TIMELINE_TL_HIDDEN_H

#include "tl_stack.h"

/* Keep the frame of a call beyond max_depth (t->excess not counted yet). */
void tl_hidden_push(struct thread *t, const struct fn *fn, uint64_t addr, uint64_t ret);
/* The top hidden frame's saved return address, 0 unknown. */
uint64_t tl_hidden_ret(const struct thread *t);
/* A jump to br->to with frames beyond max_depth open (on_jump's case). */
int tl_hidden_jump(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		   struct pts_err *err);
/* A return to addr (fn: its function) with frames beyond max_depth open. */
int tl_hidden_return(struct pts_tl *tl, struct thread *t, uint64_t addr, const struct fn *fn,
		     enum pts_tl_kind kind, struct pts_err *err);
void tl_hidden_free(struct thread *t);

#endif /* PTS_TIMELINE_TL_HIDDEN_H */
