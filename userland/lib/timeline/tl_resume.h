/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Execution back from the kernel or from untraced time: the frame it
 * continues in, the signal handler the kernel diverted it to, the
 * handler that rt_sigreturn ends.
 */
#ifndef PTS_TIMELINE_TL_RESUME_H
#define PTS_TIMELINE_TL_RESUME_H

#include "tl_stack.h"

/* Is any of t's open frames a kernel frame? */
bool tl_kernel_frames_open(const struct thread *t);
/*
 * Scope both: sysret/iret (or an untraced return: tracing resumes) from
 * the kernel to user address addr; one_entry_frame: at a sysret/iret,
 * where only the entry frame should be open (tl_resume.c).
 */
int tl_return_to_user(struct pts_tl *tl, struct thread *t, uint64_t addr,
		      const struct pts_br_sym *hint, enum pts_tl_kind kind, bool one_entry_frame,
		      struct pts_err *err);
/*
 * Tracing resumes at addr; nest: after kernel time that was to return to
 * resume (0 unknown), see tl_resume.c.
 */
int tl_resume_at(struct pts_tl *tl, struct thread *t, uint64_t addr,
		 const struct pts_br_sym *hint, bool nest, uint64_t resume, struct pts_err *err);

#endif /* PTS_TIMELINE_TL_RESUME_H */
