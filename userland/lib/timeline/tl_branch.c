// SPDX-License-Identifier: GPL-2.0
/*
 * One event in (pts_tl_feed): the elide window's jumps accounted, the
 * thread found, the branches (call, return, jump, syscall, sysret, iret,
 * interrupt) handled here with one handler each, the other events in
 * tl_events.c, and the window set to the new top frame. Nearly every
 * event is a call or a return: their path is inline from here down.
 */
#include <errno.h>
#include <string.h>

#include "tl_elide.h"
#include "tl_events.h"
#include "tl_resume.h"
#include "tl_return.h"
#include "tl_untraced.h"

static int on_call(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		   struct pts_err *err)
{
	struct fn buf;
	const struct fn *fn;
	int rc;

	t->st.calls++;
	rc = ensure_at(tl, t, br->from, &br->from_sym, err);
	if (rc)
		return rc;
	if (!br->to) {
		tl->diag[PTS_TLD_UNKNOWN_TARGET]++;
		return 0;
	}
	fn = lookup_ref(tl, t, br->to, &br->to_sym, &buf);
	/* srso_return_thunk calls srso_safe_ret: still the function's return */
	if (is_return_thunk(fn) && t->n && !in_top_fn(t, br->from)) {
		struct fn from_fn;

		fn_copy(&buf, fn);	/* the next lookup may take fn's slot */
		fn = &buf;
		lookup(tl, t, br->from, &br->from_sym, &from_fn);
		if (is_return_thunk(&from_fn))
			return 0;
	}
	return push(tl, t, fn, br->to, br->insn_len ? br->from + br->insn_len : 0, 0,
		    PTS_TLK_CALL, err);
}

static int on_return(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		     struct pts_err *err)
{
	int rc;

	t->st.returns++;
	rc = ensure_at(tl, t, br->from, &br->from_sym, err);
	if (rc)
		return rc;
	return return_to(tl, t, br->to, &br->to_sym, PTS_TLK_RETURN, err);
}

static int on_jump(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		   struct pts_err *err)
{
	struct fn fn;
	int64_t i;
	int rc;

	rc = ensure_at(tl, t, br->from, &br->from_sym, err);
	if (rc || !br->to || in_top_fn(t, br->to))
		return rc;
	lookup(tl, t, br->to, &br->to_sym, &fn);
	if (t->n && !t->excess && same_fn(&t->frames[t->n - 1], &fn))
		return 0;
	/* `jmp __x86_return_thunk` is the function's `ret`, still to come */
	if (t->n && is_return_thunk(&fn))
		return 0;
	/*
	 * longjmp, stack switching: a jump into the middle of a function
	 * open deeper in the stack (its saved return address, a setjmp
	 * point) unwinds to it. A jump to a function's first byte is a
	 * tail call (irq_exit_rcu's `jmp __irq_exit_rcu` under a nested
	 * interrupt, recursion through a tail call), whatever is open.
	 */
	for (i = (int64_t)t->n - 2; !t->excess && !is_fn_entry(&fn, br->to) && i >= 0; i--) {
		if (!same_fn(&t->frames[i], &fn))
			continue;
		while (!rc && t->n > (uint32_t)i + 1)
			rc = pop(tl, t, PTS_TLK_UNWIND, err);
		return rc;
	}
	return tl_replace_top(tl, t, &fn, br->to, PTS_TLK_JUMP, err);
}

static int on_syscall(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		      struct pts_err *err)
{
	const struct pts_kl_rec *label = NULL;
	struct fn fn;
	int rc;

	rc = ensure_at(tl, t, br->from, &br->from_sym, err);
	if (rc)
		return rc;
	if (!br->to || (br->flags & PTS_BRF_TRACE_OFF))
		/* syscall, sysenter and int 0x80 are 2 bytes long */
		return tl_push_synthetic(tl, t, "[syscall]", br->from,
					 br->from + (br->insn_len ? br->insn_len : 2),
					 PTS_TLK_SYSCALL, err);
	lookup(tl, t, br->to, &br->to_sym, &fn);
	/*
	 * scope both: the entry slice carries the syscall record the user IP
	 * fits; not a compat entry (entry_INT80_compat, ...: its number is of
	 * the i386 table, which the x86-64 names would misread)
	 */
	if (tl->cfg.labels && tl->cfg.scope == PTS_SCOPE_BOTH && !pts_addr_is_kernel(br->from) &&
	    !(fn.known && strstr(fn.name, "_compat")))
		label = pts_kl_match(tl->cfg.labels, PTS_KL_SYSCALL, t->at.tid, t->at.ts_ns,
				     br->from + (br->insn_len ? br->insn_len : 2));
	return tl_push_labelled(tl, t, &fn, br->to, br->insn_len ? br->from + br->insn_len : 0, 0,
				PTS_TLK_SYSCALL, label, err);
}

/* sysret, sysexit, iret, far return */
static int on_kernel_exit(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
			  struct pts_err *err)
{
	enum pts_tl_kind k = br->kind == PTS_BR_SYSRET ? PTS_TLK_SYSRET : PTS_TLK_IRET;
	int rc;

	rc = ensure_at(tl, t, br->from, &br->from_sym, err);
	if (rc)
		return rc;
	if (!br->to || (br->flags & PTS_BRF_TRACE_OFF)) {
		/*
		 * kernel-only scope: back to untraced user space. Every
		 * frame is a kernel frame of this entry: the next entry
		 * starts on an empty stack.
		 */
		if (t->n && !t->excess)
			rc = pop(tl, t, k, err);
		if (!rc)
			rc = tl_pop_all(tl, t, PTS_TLK_UNWIND, err);
		if (rc)
			return rc;
		return tl_push_synthetic(tl, t, "[user]", br->from, 0, k, err);
	}
	if (tl->cfg.scope == PTS_SCOPE_BOTH && !pts_addr_is_kernel(br->to))
		return tl_return_to_user(tl, t, br->to, &br->to_sym, k, true, err);
	return return_to(tl, t, br->to, &br->to_sym, k, err);
}

static int on_interrupt(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
			struct pts_err *err)
{
	const struct pts_kl_rec *label = NULL;
	struct fn fn;
	int rc;

	rc = ensure_at(tl, t, br->from, &br->from_sym, err);
	if (rc)
		return rc;
	if (!br->to) {
		tl->diag[PTS_TLD_UNKNOWN_TARGET]++;
		return 0;
	}
	lookup(tl, t, br->to, &br->to_sym, &fn);
	/*
	 * scope both: a page fault's entry slice carries the fault record of
	 * the faulting IP (the FUP); only the page-fault entry, so that a
	 * timer interrupt at that instruction never takes the fault's record
	 */
	if (tl->cfg.labels && tl->cfg.scope == PTS_SCOPE_BOTH && !pts_addr_is_kernel(br->from) &&
	    fn.known && !strcmp(fn.name, "asm_exc_page_fault"))
		label = pts_kl_match(tl->cfg.labels, PTS_KL_FAULT, t->at.tid, t->at.ts_ns, br->from);
	/*
	 * The trace does not tell a fault from an interrupt (both are
	 * FUP + TIP); Linux names its exception entries asm_exc_*.
	 */
	return tl_push_labelled(tl, t, &fn, br->to, br->from, 0,
				fn.known && !strncmp(fn.name, "asm_exc_", 8) ? PTS_TLK_EXCEPTION :
									     PTS_TLK_INTERRUPT,
				label, err);
}

_Static_assert(PTS_BR_INTERRUPT + 1 == PTS_BR_ENABLED && PTS_BR_TRIGGER > PTS_BR_ENABLED,
	       "feed: the branches come first in enum pts_br_kind");

/* One event: the branches (CALL ... INTERRUPT) with one compare, the rest in tl_feed_other. */
static int feed(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		struct pts_err *err)
{
	int rc;

	if (br->kind >= PTS_BR_ENABLED)
		return tl_feed_other(tl, t, br, err);
	rc = take_event(tl, t, br, err);
	if (rc)
		return rc;
	check_scope(tl, br->to);
	switch (br->kind) {
	case PTS_BR_CALL:
		return on_call(tl, t, br, err);
	case PTS_BR_RETURN:
		return on_return(tl, t, br, err);
	case PTS_BR_JUMP:
		return on_jump(tl, t, br, err);
	case PTS_BR_SYSCALL:
		return on_syscall(tl, t, br, err);
	case PTS_BR_SYSRET:
	case PTS_BR_IRET:
		return on_kernel_exit(tl, t, br, err);
	case PTS_BR_INTERRUPT:
		return on_interrupt(tl, t, br, err);
	default:
		return 0;	/* not a branch: tl_feed_other */
	}
}

int pts_tl_feed(struct pts_tl *tl, const struct pts_branch *br, struct pts_err *err)
{
	struct thread *t;
	int rc;

	account_elided(tl);
	t = thread_get(tl, br->pid, br->tid);
	if (!t)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	rc = feed(tl, t, br, err);
	set_elide(tl, t);
	return rc;
}
