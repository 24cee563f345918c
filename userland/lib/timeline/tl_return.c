// SPDX-License-Identifier: GPL-2.0
/*
 * Returns: the frame a return ends, found by its saved return address or
 * by the function below it; returns used as jumps (retpolines, push+ret,
 * a signal handler's return to its restorer); returns past the known
 * stack, which open an inferred outer frame.
 */
#include "tl_return.h"

#include "tl_hidden.h"
#include "tl_left.h"

#include <errno.h>
#include <stdlib.h>

/*
 * A return past the known stack: open an outer frame for fn. While the
 * segment's first record is still held, the frame begins at the segment
 * start and every held record moves one level deeper; unless the
 * segment's outermost frame is a kernel entry from user mode (scope
 * kernel), which nothing in the kernel encloses: the return cannot have
 * left it for kernel code (the stack is inconsistent: another task's
 * frames after a switch, a confused unwind), and the frame begins at the
 * return like one whose segment was written.
 */
int tl_push_inferred(struct pts_tl *tl, struct thread *t, const struct fn *fn, uint64_t addr,
		     struct pts_err *err)
{
	struct pts_tl_rec r;
	struct frame *f;
	size_t i;

	tl->diag[PTS_TLD_INFERRED]++;
	if (t->bottom_idx < 0 || t->n || t->excess || t->nbuf >= tl->cfg.segment_cap ||
	    t->bottom_user_entry) {
		tl->diag[PTS_TLD_INFERRED_LATE]++;
		return push(tl, t, fn, addr, 0, PTS_TLF_INFERRED, PTS_TLK_RETURN, err);
	}
	/* scope both: a kernel frame never encloses user frames */
	if (fn->kernel && tl->cfg.scope == PTS_SCOPE_BOTH) {
		for (i = (size_t)t->bottom_idx; i < t->nbuf; i++)
			if (t->buf[i].type == PTS_TL_BEGIN && !(t->buf[i].flags & PTS_TLF_KERNEL))
				return push(tl, t, fn, addr, 0, PTS_TLF_INFERRED, PTS_TLK_RETURN, err);
	}
	if (tl_buf_room(tl, t))
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	if (!t->cap && tl_frames_grow(tl, t))
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	f = &t->frames[0];
	frame_set(f, fn, addr, 0, PTS_TLF_INFERRED);
	t->n = 1;
	rec_from_frame(&r, PTS_TL_BEGIN, PTS_TLK_RETURN, f, 0);
	r.pid = t->at.pid;
	r.tid = t->at.tid;
	r.cpu = t->at.cpu;
	r.ts_ns = t->bottom_ts;
	tl_hold_at_bottom(tl, t, &r);
	return 0;
}

/*
 * End frame i (the one the return leaves) and those above it: the top one
 * ends with kind (the instruction executing there returned), the others
 * are unwound.
 */
static int unwind_through(struct pts_tl *tl, struct thread *t, uint32_t i, enum pts_tl_kind kind,
			  struct pts_err *err)
{
	int rc = pop(tl, t, kind, err);

	while (!rc && t->n > i)
		rc = pop(tl, t, PTS_TLK_UNWIND, err);
	return rc;
}

/*
 * Which open frame at index floor or above a return to addr (function fn)
 * ends: the nearest one whose saved return address is addr. by_fn: also,
 * by function, a frame
 * whose return address is unknown (or any frame, if by_fn_everywhere:
 * iret to an exception fixup): it ends when addr lies in the function of
 * the frame below it. -1: none.
 */
static int64_t returning_frame(const struct thread *t, uint32_t floor, uint64_t addr,
			       const struct fn *fn, bool by_fn, bool by_fn_everywhere)
{
	int64_t i;

	for (i = (int64_t)t->n - 1; i >= (int64_t)floor; i--) {
		const struct frame *f = &t->frames[i];

		if (f->ret && f->ret == addr)
			return i;
		if (by_fn && (!f->ret || by_fn_everywhere) && i > (int64_t)floor &&
		    same_fn(&t->frames[i - 1], fn))
			return i;
	}
	return -1;
}

/*
 * A `ret` to no saved return address but into the middle of a function
 * open in a frame below the top one (at index floor or above): the
 * innermost such frame, else -1. OCaml's caml_raise_exn restores the
 * stack pointer of the newest exception handler and returns to the
 * handler's address, which the handler's setup pushed: a longjmp done
 * by `ret`, which lands in the frame as a jump there does (tl_branch.c,
 * on_jump). A target at a function's first byte is being called
 * (push+ret, a retpoline's target), not returned to.
 */
static int64_t ret_landing_frame(const struct thread *t, uint32_t floor, uint64_t addr,
				 const struct fn *fn)
{
	int64_t i;

	if (is_fn_entry(fn, addr))
		return -1;
	for (i = (int64_t)t->n - 2; i >= (int64_t)floor; i--)
		if (same_fn(&t->frames[i], fn) || other_part(&t->frames[i], fn))
			return i;
	return -1;
}

/* ... and it lands there: the frames above end, the top one with kind. */
static int ret_to_landing(struct pts_tl *tl, struct thread *t, uint32_t i, uint32_t floor,
			  const struct fn *fn, enum pts_tl_kind kind, struct pts_err *err)
{
	int rc = unwind_through(tl, t, i + 1, kind, err);
	uint32_t j;

	/* an older frame could be the one: said, not decided (as for a jump) */
	for (j = floor; !rc && j < i; j++)
		if (same_fn(&t->frames[j], fn) || other_part(&t->frames[j], fn)) {
			tl->diag[PTS_TLD_UNWIND_GUESSED]++;
			break;
		}
	if (!rc && !same_fn(&t->frames[i], fn))
		enter_part(&t->frames[i], fn);
	return rc;
}

/*
 * Control returns to addr (ret, sysret, iret): end frames down to the one
 * the return leaves (returning_frame); none: a `ret` out of a frame with a
 * known return address is a return used as a jump (retpoline thunk,
 * push+ret) and its target replaces a frame (see below); otherwise end
 * every frame and infer an outer frame (scope both, within the kernel:
 * end the kernel frames and open an inferred one on the user frames).
 */
int tl_return_to_slow(struct pts_tl *tl, struct thread *t, uint64_t addr,
		      const struct pts_br_sym *hint, enum pts_tl_kind kind, struct pts_err *err)
{
	uint32_t floor = 0;
	struct fn fn;
	bool top_known;
	int64_t i;
	int rc;

	if (t->excess && addr) {
		lookup(tl, t, addr, hint, &fn);
		return tl_hidden_return(tl, t, addr, &fn, kind, err);
	}
	if (t->excess) {
		t->excess--;
		return 0;
	}
	if (!addr) {
		tl->diag[PTS_TLD_UNKNOWN_TARGET]++;
		return pop(tl, t, kind, err);
	}
	/* the common case, a return to where the top frame's call saved: it ends */
	if (t->n && t->frames[t->n - 1].ret == addr)
		return pop(tl, t, kind, err);
	lookup(tl, t, addr, hint, &fn);
	/* scope both: a return within the kernel never ends user frames */
	if (tl->cfg.scope == PTS_SCOPE_BOTH && fn.kernel && t->n &&
	    (t->frames[t->n - 1].s.flags & PTS_TLF_KERNEL)) {
		floor = t->n - 1;
		while (floor && (t->frames[floor - 1].s.flags & PTS_TLF_KERNEL))
			floor--;
	}
	/*
	 * A `ret` out of a frame whose return address is known goes there, or
	 * to another known return address (exceptions, stack switching), or
	 * is not a return at all: a function below the frames of unknown
	 * return address holding the target (the function a retpoline calls)
	 * does not make it one.
	 */
	top_known = kind == PTS_TLK_RETURN && t->n > floor + 1 && t->frames[t->n - 1].ret &&
		    !(t->frames[t->n - 1].s.flags & PTS_TLF_SYNTHETIC);
	i = returning_frame(t, floor, addr, &fn, !top_known, false);
	if (i < 0 && kind != PTS_TLK_RETURN)
		i = returning_frame(t, floor, addr, &fn, true, true);
	if (i >= 0) {
		/* a `ret` to an older frame: a stack switch leaves the frames above */
		if (kind == PTS_TLK_RETURN && (uint32_t)i + 1 < t->n)
			tl_left_keep(t, (uint32_t)i);
		return unwind_through(tl, t, (uint32_t)i, kind, err);
	}
	/*
	 * A signal handler's `ret` goes to the restorer its delivery pushed
	 * (__restore_rt), which no call saved: the handler ends and the
	 * restorer runs in its place until rt_sigreturn resumes the code
	 * the signal interrupted.
	 */
	if (kind == PTS_TLK_RETURN && t->n > floor && is_handler(&t->frames[t->n - 1])) {
		uint64_t resume = t->frames[t->n - 1].resume;

		rc = pop(tl, t, kind, err);
		if (!rc)
			rc = tl_push_handler(tl, t, &fn, addr, resume, kind, err);
		return rc;
	}
	if (top_known) {
		const struct frame *top = &t->frames[t->n - 1];

		/*
		 * The switch back to a stack left before: its frames go on.
		 * Never into a function's first byte: a call that saved one
		 * was a noreturn call ending its function, which nothing
		 * resumes; such a `ret` enters the function (below).
		 */
		if (!is_fn_entry(&fn, addr)) {
			rc = tl_left_resume(tl, t, addr, kind, err);
			if (rc)
				return rc < 0 ? rc : 0;
		}

		/* into the top frame's own function: a jump inside it (below) */
		i = in_top_fn(t, addr) || same_fn(top, &fn) ? -1 : ret_landing_frame(t, floor, addr, &fn);
		if (i >= 0)
			return ret_to_landing(tl, t, (uint32_t)i, floor, &fn, kind, err);
		tl->diag[PTS_TLD_RETURN_AS_JUMP]++;
		/*
		 * The frame of a call to a label inside the caller's own function
		 * (a retpoline thunk's `call 1f`) only planted the return slot
		 * the `ret` consumed: it ends, and the target replaces the frame
		 * below (the thunk), keeping that frame's return address.
		 * Otherwise the slot was pushed in the top frame (push+ret): the
		 * target replaces the top frame.
		 */
		if (top->fn.known && top->s.addr != top->fn.start &&
		    same_fn(&t->frames[t->n - 2], &top->fn)) {
			rc = pop(tl, t, PTS_TLK_JUMP, err);
			if (rc)
				return rc;
		}
		if (in_top_fn(t, addr) || same_fn(&t->frames[t->n - 1], &fn))
			return 0;
		/* no unwinding to a deeper frame: the target is being called, not returned to */
		return tl_replace_top(tl, t, &fn, addr, PTS_TLK_JUMP, err);
	}
	if (floor) {
		/*
		 * Past the kernel frames of this entry: they end, and the target
		 * opens an inferred kernel frame on the user frames, from now.
		 */
		rc = pop(tl, t, kind, err);
		while (!rc && t->n > floor)
			rc = pop(tl, t, PTS_TLK_UNWIND, err);
		if (rc)
			return rc;
		tl->diag[PTS_TLD_INFERRED]++;
		return push(tl, t, &fn, addr, 0, PTS_TLF_INFERRED, PTS_TLK_RETURN, err);
	}
	rc = pop(tl, t, kind, err);
	if (!rc)
		rc = tl_pop_all(tl, t, PTS_TLK_UNWIND, err);
	if (rc)
		return rc;
	return tl_push_inferred(tl, t, &fn, addr, err);
}
