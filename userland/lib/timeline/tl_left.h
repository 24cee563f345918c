/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stacks a thread left by a stack switch (swapcontext, a coroutine
 * library's or a runtime's own switch), kept so that the switch back
 * resumes their frames (tl_left.c; timeline.h has the semantics).
 */
#ifndef PTS_TIMELINE_TL_LEFT_H
#define PTS_TIMELINE_TL_LEFT_H

#include "tl_stack.h"

/* Stacks kept per thread, the oldest forgotten first. */
#define TL_LEFT_MAX 8
/* Frames kept per stack: a deeper one is not kept (its frames end as before). */
#define TL_LEFT_DEPTH 64

/*
 * A `ret` (kind PTS_TLK_RETURN) is about to end frames i .. n - 1 of t,
 * i below the top one: keep them, unless one is of no call (its return
 * address unknown), synthetic, kernel or a signal handler's, or they are
 * more than TL_LEFT_DEPTH (or out of memory: then nothing is kept, and
 * nothing else changes).
 */
void tl_left_keep(struct thread *t, uint32_t i);

/*
 * A `ret` to addr, which no open frame of t saved, from a top frame of
 * known return address: if a kept stack has a frame above its first
 * whose call saved addr, the top frame ends (kind: a return) and the
 * frames of that stack below that one begin again on the frame under it
 * (PTS_TLK_RETURN), the first returning where the ended one would;
 * execution goes on in the last of them. 1: resumed, 0: no kept stack
 * holds addr, or another kept frame that saved addr would resume other
 * frames (undecided: nothing changes), else a negative errno from the
 * output (-ENOMEM).
 */
int tl_left_resume(struct pts_tl *tl, struct thread *t, uint64_t addr, enum pts_tl_kind kind,
		   struct pts_err *err);

/*
 * A jump to addr, at no function's first byte and out of the top frame's
 * function, a return done by a jump if a call saved addr (a switch that
 * ends `pop %r8; jmp *%r8`: Boost.Context's jump_fcontext): to the
 * newest open frame of a user call whose call saved it, that frame and
 * those above end (kind PTS_TLK_UNWIND, as at any jump into a deeper
 * frame), kept as tl_left_keep keeps them; else, from a top frame of a
 * user call, as tl_left_resume with kind PTS_TLK_JUMP (the top frame,
 * the switch call, ends by its jump). 1:
 * done, 0: neither (nothing changes), else a negative errno from the
 * output (-ENOMEM).
 */
int tl_left_jump(struct pts_tl *tl, struct thread *t, uint64_t addr, struct pts_err *err);

/* Forget t's kept stacks (a gap, an exec, a return past the known stack). */
void tl_left_forget(struct thread *t);
void tl_left_free(struct thread *t);

#endif /* PTS_TIMELINE_TL_LEFT_H */
