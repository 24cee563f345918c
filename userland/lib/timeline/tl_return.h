/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Returns (ret, sysret, iret): which open frame a return ends, a return
 * used as a jump, and the inferred outer frame of a return past the known
 * stack (timeline.h has the semantics).
 */
#ifndef PTS_TIMELINE_TL_RETURN_H
#define PTS_TIMELINE_TL_RETURN_H

#include "tl_stack.h"

/* return_to past its common case */
int tl_return_to_slow(struct pts_tl *tl, struct thread *t, uint64_t addr,
		      const struct pts_br_sym *hint, enum pts_tl_kind kind, struct pts_err *err);
/*
 * A return past the known stack, which is empty now: open an outer frame
 * for fn, entered at addr, that encloses what was seen when it can.
 */
int tl_push_inferred(struct pts_tl *tl, struct thread *t, const struct fn *fn, uint64_t addr,
		     struct pts_err *err);

/*
 * Control returns to addr (kind: ret, sysret, iret). Inline, the common
 * case: the top frame's call saved addr, it ends.
 */
static inline int return_to(struct pts_tl *tl, struct thread *t, uint64_t addr,
			    const struct pts_br_sym *hint, enum pts_tl_kind kind,
			    struct pts_err *err)
{
	if (!t->excess && addr && t->n && t->frames[t->n - 1].ret == addr)
		return pop(tl, t, kind, err);
	return tl_return_to_slow(tl, t, addr, hint, kind, err);
}

#endif /* PTS_TIMELINE_TL_RETURN_H */
