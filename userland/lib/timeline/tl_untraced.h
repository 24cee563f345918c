/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Untraced time as a frame: a PTS_TLF_SYNTHETIC slice "[syscall]",
 * "[interrupted]", "[untraced]" (scope user) or "[user]" (scope kernel),
 * named by its syscall or page-fault record when the capture has one that
 * fits (klabel.h).
 */
#ifndef PTS_TIMELINE_TL_UNTRACED_H
#define PTS_TIMELINE_TL_UNTRACED_H

#include "tl_stack.h"

/*
 * Open the slice name, entered at addr; resume: where the kernel returns
 * to normally (struct frame), 0 unknown.
 */
int tl_push_synthetic(struct pts_tl *tl, struct thread *t, const char *name, uint64_t addr,
		      uint64_t resume, enum pts_tl_kind kind, struct pts_err *err);
/* End an open synthetic slice; the kind says what ended it. */
int tl_close_synthetic(struct pts_tl *tl, struct thread *t, struct pts_err *err);

#endif /* PTS_TIMELINE_TL_UNTRACED_H */
