// SPDX-License-Identifier: GPL-2.0
/*
 * Execution back from the kernel (sysret, iret, tracing enabled again):
 * it continues in the frame holding its address; a signal delivered on
 * the way nests a handler on the interrupted frame, and rt_sigreturn
 * (execution back where the handler's signal interrupted) ends it.
 */
#include "tl_resume.h"

#include "tl_return.h"

/*
 * Tracing resumes after kernel time that was to return to resume (0
 * unknown), at addr, the first byte of function fn elsewhere: the kernel
 * delivered a signal (a syscall restart goes back to the syscall, inside
 * a function).
 */
static bool is_delivery(const struct fn *fn, uint64_t addr, uint64_t resume)
{
	return resume && addr != resume && fn->known && addr == fn->start;
}

/*
 * Execution resumes at addr after kernel time that was to return to
 * resume: elsewhere, and a signal handler's frame was opened by a
 * delivery that interrupted addr: rt_sigreturn came back there, that
 * frame and those above it end. True if so. Back at resume itself, the
 * kernel time simply returned (a handler may make the very syscall its
 * signal interrupted).
 */
static bool end_handler_at(struct pts_tl *tl, struct thread *t, uint64_t addr, uint64_t resume,
			   int *rc, struct pts_err *err)
{
	int64_t i;

	if (addr == resume)
		return false;
	for (i = (int64_t)t->n - 1; !t->excess && i >= 0; i--) {
		if (!is_handler(&t->frames[i]) || t->frames[i].resume != addr)
			continue;
		*rc = 0;
		while (!*rc && t->n > (uint32_t)i)
			*rc = pop(tl, t, PTS_TLK_UNWIND, err);
		return true;
	}
	return false;
}

bool tl_kernel_frames_open(const struct thread *t)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		if (t->frames[i].s.flags & PTS_TLF_KERNEL)
			return true;
	return false;
}

/*
 * Scope both: sysret/iret (or an untraced return: tracing resumes) from
 * the kernel to user address addr. The thread's stack is [user frames]
 * [kernel frames of this kernel entry]: end every kernel frame (a kernel
 * frame below a user frame, or at a sysret/iret (one_entry_frame) more
 * than the entry frame open, is an inconsistent stack: counted). Then
 * continue in the user frame holding addr; another function nests on top
 * (the kernel diverted execution: a signal handler); an empty stack
 * infers an outer frame for addr that holds what was seen.
 */
int tl_return_to_user(struct pts_tl *tl, struct thread *t, uint64_t addr,
		      const struct pts_br_sym *hint, enum pts_tl_kind kind, bool one_entry_frame,
		      struct pts_err *err)
{
	struct fn fn;
	uint32_t nk = 0;
	uint64_t resume = 0;
	int64_t i;
	int rc = 0;

	if (t->excess && t->n && (t->frames[t->n - 1].s.flags & PTS_TLF_KERNEL))
		t->excess = 0;
	/* where the kernel entry was to return: what a signal delivered on the way interrupted */
	for (i = (int64_t)t->n - 1; i >= 0 && (t->frames[i].s.flags & PTS_TLF_KERNEL); i--)
		resume = t->frames[i].ret;
	while (!rc && !t->excess && t->n && (t->frames[t->n - 1].s.flags & PTS_TLF_KERNEL))
		rc = pop(tl, t, nk++ ? PTS_TLK_UNWIND : kind, err);
	if (rc)
		return rc;
	for (i = 0; i < (int64_t)t->n; i++)
		if (t->frames[i].s.flags & PTS_TLF_KERNEL)
			break;
	if ((one_entry_frame && nk > 1) || i < (int64_t)t->n)
		tl->diag[PTS_TLD_KERNEL_LEFT_OPEN]++;
	while (!rc && t->n > (uint32_t)i)
		rc = pop(tl, t, PTS_TLK_UNWIND, err);
	if (rc)
		return rc;
	/* rt_sigreturn (or a return to where a handler's signal was delivered) */
	if (nk && end_handler_at(tl, t, addr, resume, &rc, err))
		return rc;
	lookup(tl, t, addr, hint, &fn);
	/* a handler nests, also on a frame of its own function */
	if (nk && is_delivery(&fn, addr, resume))
		return tl_push_handler(tl, t, &fn, addr, resume, PTS_TLK_TRACE_BEGIN, err);
	if (in_top_fn(t, addr))
		return 0;
	if (!t->n && !t->excess) {
		if (!nk)
			return push(tl, t, &fn, addr, 0, 0, PTS_TLK_TRACE_BEGIN, err);
		return tl_push_inferred(tl, t, &fn, addr, err);
	}
	if (t->excess || same_fn(&t->frames[t->n - 1], &fn))
		return 0;
	for (i = (int64_t)t->n - 2; i >= 0; i--) {
		if (!same_fn(&t->frames[i], &fn))
			continue;
		while (!rc && t->n > (uint32_t)i + 1)
			rc = pop(tl, t, PTS_TLK_UNWIND, err);
		return rc;
	}
	return tl_push_handler(tl, t, &fn, addr, nk ? resume : 0, PTS_TLK_TRACE_BEGIN, err);
}

/*
 * Tracing resumes at addr: continue in the frame holding it. nest: tracing
 * was off because the kernel had control (syscall, interrupt); resuming in
 * another function is then the kernel diverting execution (a signal
 * handler), which runs on top of the interrupted frame until it returns
 * into it (sigreturn, then a resume there unwinds the handler).
 */
int tl_resume_at(struct pts_tl *tl, struct thread *t, uint64_t addr,
		 const struct pts_br_sym *hint, bool nest, uint64_t resume, struct pts_err *err)
{
	struct fn fn;
	int64_t i;
	int rc = 0;

	if (!addr || (nest && end_handler_at(tl, t, addr, resume, &rc, err)))
		return rc;
	lookup(tl, t, addr, hint, &fn);
	/* a handler nests, also on a frame of its own function */
	if (nest && is_delivery(&fn, addr, resume))
		return tl_push_handler(tl, t, &fn, addr, resume, PTS_TLK_TRACE_BEGIN, err);
	if (in_top_fn(t, addr))
		return 0;
	if (!t->n)
		return push(tl, t, &fn, addr, 0, 0, PTS_TLK_TRACE_BEGIN, err);
	if (same_fn(&t->frames[t->n - 1], &fn))
		return 0;
	for (i = (int64_t)t->n - 2; i >= 0; i--) {
		if (!same_fn(&t->frames[i], &fn))
			continue;
		rc = 0;
		while (!rc && t->n > (uint32_t)i + 1)
			rc = pop(tl, t, PTS_TLK_UNWIND, err);
		return rc;
	}
	if (nest)
		return tl_push_handler(tl, t, &fn, addr, resume, PTS_TLK_TRACE_BEGIN, err);
	rc = pop(tl, t, PTS_TLK_JUMP, err);
	if (rc)
		return rc;
	return push(tl, t, &fn, addr, 0, 0, PTS_TLK_TRACE_BEGIN, err);
}
