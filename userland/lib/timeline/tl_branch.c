// SPDX-License-Identifier: GPL-2.0
/*
 * One event in (pts_tl_feed): the elide window's jumps accounted, the
 * thread found, the branches (call, return, jump, syscall, sysret, iret,
 * interrupt) handled here with one handler each, the other events in
 * tl_events.c, and the window set to the new top frame. Nearly every
 * event is a call or a return of the thread fed last in the common case
 * (call_fast, return_fast): decided in pts_tl_feed itself, which hands
 * the frame to the writer last, as a tail call.
 */
#include <errno.h>
#include <string.h>

#include "tl_elide.h"
#include "tl_events.h"
#include "tl_hidden.h"
#include "tl_left.h"
#include "tl_resume.h"
#include "tl_return.h"
#include "tl_untraced.h"

/*
 * fn, of a role in the unwinder's walk (enum fn_unw), was entered by a
 * call or a jump: t's top frame. An unwinder's entry point begins a
 * count. Its calls of _Unwind_Find_FDE come in walks, each from a
 * function of its own (tl_fn.c, tl_unwinder_role): a walk is the calls
 * made at one depth from frames of one function, two frames below the
 * call (uw_frame_state_for's caller); a call from elsewhere begins the
 * next walk.
 */
static void unwinder_entered(struct thread *t, const struct fn *fn)
{
	const struct frame *by;
	uint32_t depth;

	if (t->excess || !t->n)
		return;
	if (fn->unw != FN_UNW_FIND) {
		t->unw_at = t->n;
		t->unw_walks = 0;
		return;
	}
	depth = t->n - t->unw_at;
	if (!t->unw_at || t->unw_at >= t->n || t->frames[t->unw_at - 1].fn.unw < FN_UNW_RAISE ||
	    depth < 2)
		return;
	by = &t->frames[t->n - 3];
	if (t->unw_walks && depth == t->unw_depth && by->fn.start == t->unw_by) {
		t->unw_finds++;
		return;
	}
	t->unw_walks++;
	t->unw_finds = 1;
	t->unw_depth = depth;
	t->unw_by = by->fn.start;
}

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
	rc = push(tl, t, fn, br->to, br->insn_len ? br->from + br->insn_len : 0, 0,
		  PTS_TLK_CALL, err);
	if (!rc && fn->unw)
		unwinder_entered(t, fn);
	return rc;
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

/*
 * Unknown code (no symbol) is one function per object to same_fn, so a
 * jump into it would unwind to any unnamed frame of that object open
 * deeper, whichever of its functions that frame ran. Two jumps into
 * unknown code are never such an unwind:
 * - out of a PLT (top, a known ".plt" or "NAME@plt"): it goes on with the
 *   call that entered the PLT, to the function called or, binding lazily,
 *   from PLT0 into ld.so's resolver;
 * - from the target's own object (top, known code there: __sigsetjmp's
 *   `jmp __sigjmp_save` in libc): a tail call to one of its unnamed
 *   functions. A longjmp into unnamed code still unwinds: it comes from
 *   libc's __longjmp into another object, or from unnamed code of the
 *   same object, the same function as the target.
 * Without libc6-dbg (ld.so and libc's hidden functions unnamed), the
 * shipped sample decoded 9 returns as jumps, each after such an unwind.
 */
static bool no_unwind_jump(const struct frame *top, const struct fn *fn)
{
	if (fn->known || !top->fn.known || (top->s.flags & PTS_TLF_SYNTHETIC))
		return false;
	return tl_is_plt_name(top->fn.name) ||
	       (top->fn.object == fn->object && top->fn.kernel == fn->kernel);
}

/* f is a call of _Unwind_Resume: the frame below it is being unwound past. */
static bool resumes_unwinding(const struct frame *f)
{
	return f->fn.known && !f->fn.kernel && tl_is_unwind_resume_name(f->fn.name);
}

/* f is a call of __pthread_unwind_next: a C cleanup handler unwinds on. */
static bool resumes_cleanup(const struct frame *f)
{
	return f->fn.known && !f->fn.kernel && tl_is_unwind_next_name(f->fn.name);
}

/*
 * Can a jump into fn's function (a landing pad, a setjmp point) land in
 * frame i, below the top? A frame of that function (either part) that
 * did not call _Unwind_Resume.
 */
static bool landing_frame(const struct thread *t, uint32_t i, const struct fn *fn)
{
	return (same_fn(&t->frames[i], fn) || other_part(&t->frames[i], fn)) &&
	       !resumes_unwinding(&t->frames[i + 1]);
}

static bool older_landing_frame(const struct thread *t, uint32_t i, const struct fn *fn)
{
	while (i--)
		if (landing_frame(t, i, fn))
			return true;
	return false;
}

/*
 * The frame a landing pad of fn is in, when the unwinder jumps there from
 * its top frame, or a cleanup buffer's setjmp point is, when the stop
 * function of _Unwind_ForcedUnwind longjmps there from above the
 * unwinder's frame (glibc's, for C code built without -fexceptions): the
 * frame its last walk reached (tl_unwinder_role), k
 * frames below its own, k its calls of _Unwind_Find_FDE in that walk. The
 * walks must be those of libgcc's unwinder (its own frame, then the
 * search phase and the cleanup phase of _Unwind_RaiseException, or the
 * cleanup phase alone); the frame must be of fn's function, and every
 * frame above it one of a call (its return address known, no signal
 * handler's, none inferred): the frames the walk stepped over, one by
 * one. Else -1: a walk this count does not know (another unwinder, a
 * frame of the trace's making in between), and the innermost frame of
 * fn's function is taken. A throw caught by an older frame of the
 * thrower's own function lands at an address every frame of it shares:
 * this is how the trace tells them apart.
 */
static int64_t walked_frame(const struct thread *t, const struct fn *fn, uint64_t to)
{
	const struct frame *u;
	uint32_t top, k = t->unw_finds, j;

	/* no unwinder's frame open (a thread's first event a jump): nothing walked */
	if (!t->unw_at || t->unw_at > t->n)
		return -1;
	top = t->unw_at - 1;
	u = &t->frames[top];
	if ((t->unw_at != t->n && u->fn.unw != FN_UNW_FORCED) || u->fn.unw < FN_UNW_RAISE ||
	    t->unw_walks != (u->fn.unw == FN_UNW_RAISE ? 3u : 2u))
		return -1;
	if (!k || k > top)
		return -1;
	for (j = top - k + 1; j < top; j++)
		if (!t->frames[j].ret || is_handler(&t->frames[j]) ||
		    (t->frames[j].s.flags & (PTS_TLF_SYNTHETIC | PTS_TLF_INFERRED)))
			return -1;
	if (!same_fn(&t->frames[top - k], fn) && !other_part(&t->frames[top - k], fn))
		return -1;
	/*
	 * The walk reached the frame whose cleanup handler called
	 * __pthread_unwind_next: its second buffer (two cleanups pushed in
	 * one frame), or a frame without unwind info (C built with
	 * -fno-asynchronous-unwind-tables), where the walk ends and the stop
	 * function longjmps to the newest buffer, further down. The trace
	 * does not tell the two apart: the innermost frame, said. But a
	 * buffer is jumped to once (each handler's __pthread_unwind_next
	 * passes on to the one pushed before it): when the unwind's last
	 * longjmp landed in that frame at this same point, its buffer there
	 * is used, and the newest one left is an older frame's. -2 - i:
	 * the innermost frame of fn's function below i, said.
	 */
	if (resumes_cleanup(&t->frames[top - k + 1]))
		return t->cleanup_at == to && t->cleanup_frame == top - k + 1 &&
		       older_landing_frame(t, top - k, fn) ? -2 - (int64_t)(top - k) : -1;
	return top - k;
}

/*
 * A longjmp of a forced unwind (its unwinder's frame still open above
 * frame i) landed in frame i at to: the cleanup buffer there is used.
 */
static void note_cleanup(struct thread *t, uint32_t i, uint64_t to)
{
	if (t->unw_at && t->unw_at <= t->n && t->unw_at - 1 > i &&
	    t->frames[t->unw_at - 1].fn.unw == FN_UNW_FORCED) {
		t->cleanup_frame = i + 1;
		t->cleanup_at = to;
	}
}

/*
 * A stripped object's cold part entered before its function has set up
 * a frame has an FDE that begins with the CIE's rule, as a function's
 * entry does: the hot part's jump to its first byte is taken as a tail
 * call (it can be one: clang -Os emits `jge g` for a conditional tail
 * call). The part then jumps back into its function's middle. With an
 * older frame of that function open (a recursion), that jump looked
 * like a longjmp to it; but a longjmp comes from code the frame called
 * (libc's __longjmp, the unwinder), not from code a jump of the
 * frame's own function entered (GCC and clang call a noreturn
 * function, never tail-jump to it). So the frame that the function's
 * jump gave to an unnamed function goes on in that function when that
 * function's code jumps back into it, a slice of that function as the
 * call's was (entered at its first byte: the call goes on, where a
 * slice named foo+0x27 would be a frame of no function): noted here at
 * the tail jump...
 */
static void note_tail_jump(struct thread *t, const struct fn *from, const struct fn *to)
{
	const struct frame *f = t->n && !t->excess ? &t->frames[t->n - 1] : NULL;

	t->tail_frame = 0;
	if (!f || !from->known || !to->known || to->cold != FN_WHOLE || from->object != to->object ||
	    from->kernel != to->kernel || tl_is_plt_name(from->name) || !tl_is_unnamed_name(to->name))
		return;
	t->tail_frame = t->n;
	t->tail_from = from->start;
	t->tail_to = to->start;
	t->tail_ret = f->ret;
}

/* ...and taken here: a jump from that function into fn's middle. */
static bool back_from_part(const struct thread *t, const struct fn *fn, uint64_t to)
{
	const struct frame *f;

	if (!t->tail_frame || t->tail_frame != t->n || t->excess || !fn->known || to == fn->start)
		return false;
	f = &t->frames[t->n - 1];
	return f->fn.start == t->tail_to && f->ret == t->tail_ret && fn->start == t->tail_from &&
	       f->fn.object == fn->object;
}

/*
 * An unwinder's frame is open (unwinder_entered): its jump, or its stop
 * function's longjmp, goes to a landing pad or a cleanup buffer's setjmp
 * point, never to another stack, even where a call saved that address
 * (GCC puts a pad just after the call of _Unwind_Resume that ends the
 * pad before it, or after a noreturn call of __cxa_throw).
 */
static bool unwinder_open(const struct thread *t)
{
	return t->unw_at && t->unw_at <= t->n && t->frames[t->unw_at - 1].fn.unw >= FN_UNW_RAISE;
}

static int on_jump(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		   struct pts_err *err)
{
	struct fn fn;
	int64_t i, walked;
	int rc;

	rc = ensure_at(tl, t, br->from, &br->from_sym, err);
	if (rc || !br->to)
		return rc;
	if (t->excess)
		return tl_hidden_jump(tl, t, br, err);
	if (in_top_fn(t, br->to))
		return 0;
	lookup(tl, t, br->to, &br->to_sym, &fn);
	if (t->n && same_fn(&t->frames[t->n - 1], &fn))
		return 0;
	/* between a function's hot and cold parts (foo.cold): the same frame */
	if (t->n && other_part(&t->frames[t->n - 1], &fn)) {
		enter_part(&t->frames[t->n - 1], &fn);
		return 0;
	}
	/* `jmp __x86_return_thunk` is the function's `ret`, still to come */
	if (t->n && is_return_thunk(&fn))
		return 0;
	/*
	 * longjmp, stack switching: a jump into the middle of a function
	 * open deeper in the stack (its saved return address, a setjmp
	 * point) unwinds to it. A jump to a function's first byte is a
	 * tail call (irq_exit_rcu's `jmp __irq_exit_rcu` under a nested
	 * interrupt, recursion through a tail call), whatever is open; so
	 * is a jump that no_unwind_jump tells apart.
	 * A frame that called _Unwind_Resume is never the target (the
	 * unwinder resumes below it): in a recursion whose frames each
	 * run a cleanup, the landing pad reached is the next older
	 * frame's, not the innermost frame of that function. A landing
	 * pad in a function's cold part (GCC puts them there) is a jump
	 * into that function's frame.
	 */
	if (is_fn_entry(&fn, br->to) || (t->n && no_unwind_jump(&t->frames[t->n - 1], &fn))) {
		struct fn from = t->n ? t->frames[t->n - 1].fn : fn;

		rc = tl_replace_top(tl, t, &fn, br->to, PTS_TLK_JUMP, err);
		if (!rc && is_fn_entry(&fn, br->to))
			note_tail_jump(t, &from, &fn);
		/* a PLT stub's jump to _Unwind_Find_FDE: its call was counted */
		if (!rc && fn.unw >= FN_UNW_RAISE)
			unwinder_entered(t, &fn);
		return rc;
	}
	if (back_from_part(t, &fn, br->to)) {
		/* the same call of fn goes on: its slice named as the call's */
		t->tail_frame = 0;
		return tl_replace_top(tl, t, &fn, fn.start, PTS_TLK_JUMP, err);
	}
	walked = walked_frame(t, &fn, br->to);
	/*
	 * Not the unwinder's: a jump to where a call saved is a return done
	 * by a jump (a stack switch's `pop %r8; jmp *%r8`), which leaves or
	 * resumes stacks as a `ret` does (tl_left.c).
	 */
	if (walked == -1 && !unwinder_open(t)) {
		rc = tl_left_jump(tl, t, br->to, err);
		if (rc)
			return rc < 0 ? rc : 0;
	}
	if (walked >= 0)
		i = walked;
	else if (walked == -1)
		i = (int64_t)t->n - 2;
	else
		i = -2 - walked - 1;	/* below a frame whose buffer there is used */
	for (; i >= 0; i--) {
		if (!landing_frame(t, (uint32_t)i, &fn))
			continue;
		/* an older frame could be the one: said, not decided (recjmp) */
		if (walked < 0 && older_landing_frame(t, (uint32_t)i, &fn))
			tl->diag[PTS_TLD_UNWIND_GUESSED]++;
		note_cleanup(t, (uint32_t)i, br->to);
		while (!rc && t->n > (uint32_t)i + 1)
			rc = pop(tl, t, PTS_TLK_UNWIND, err);
		if (!rc && !same_fn(&t->frames[i], &fn))
			enter_part(&t->frames[i], &fn);
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
	check_scope_branch(tl, br->from, br->to);
	/* nearly every event: a compare each, not a table's bounds check and jump */
	if (br->kind == PTS_BR_CALL)
		return on_call(tl, t, br, err);
	if (br->kind == PTS_BR_RETURN)
		return on_return(tl, t, br, err);
	t->st.events++;	/* calls and returns are counted as such (struct thread) */
	switch (br->kind) {
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

/* pts_tl_feed, every case: the elided jumps accounted first */
static __attribute__((noinline)) int feed_any(struct pts_tl *tl, const struct pts_branch *br,
					      struct pts_err *err)
{
	struct thread *t;
	int rc;

	account_elided(tl);
	t = thread_of(tl, br);

	if (!t)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	rc = feed(tl, t, br, err);
	set_elide(tl, t);
	return rc;
}

/* a call or return of t, its event taken, the way feed_any does it */
static __attribute__((noinline)) int call_any(struct pts_tl *tl, struct thread *t,
					      const struct pts_branch *br, struct pts_err *err)
{
	int rc = on_call(tl, t, br, err);

	set_elide(tl, t);
	return rc;
}

static __attribute__((noinline)) int return_any(struct pts_tl *tl, struct thread *t,
						const struct pts_branch *br, struct pts_err *err)
{
	int rc = on_return(tl, t, br, err);

	set_elide(tl, t);
	return rc;
}

/*
 * on_call in its common case, to the same effect: from inside the top
 * frame's function (ensure_at has nothing to do, and a return thunk as
 * the target is a call like any other), a target the cache knows, a
 * frame on others with room for it and nothing held (push_below; its
 * BEGIN goes to the writer's frame path, push and put_frame; pts_tl_feed
 * checked there is one). Else call_any.
 */
static inline __attribute__((always_inline)) int call_fast(struct pts_tl *tl, struct thread *t,
							  const struct pts_branch *br,
							  struct pts_err *err)
{
	const struct lcache_ent *c;
	uint32_t n = t->n;
	struct frame *f;

	/*
	 * No symbolizer: no slot of the cache is filled, none matches. The
	 * slot first: the frames' address is not held across its lookup,
	 * which leaves pts_tl_feed a register more (one fewer to save).
	 */
	c = lcache_slot(tl, t->at.pid, br->to);
	if (__builtin_expect(!lcache_holds(c, t->at.pid, br->to) || !br->to || br->to_sym.name ||
			     n >= t->push_below || !in_top_fn(t, br->from), 0))
		return call_any(tl, t, br, err);
	t->st.calls++;
	f = &t->frames[n];
	/* push's frame_set(f, &c->call.fn, br->to, ret, 0): the same fields */
	frame_copy(f, &c->call);
	f->ret = br->insn_len ? br->from + br->insn_len : 0;
	t->n = n + 1;
	/* no excess: only a call at max_depth counts one, and pop ends them first */
	set_elide_n(tl, t, n + 1);
	return tl->wf.begin(tl->w, &t->at, &f->s, PTS_TLK_CALL, err);
}

/*
 * on_return in its common case, to the same effect: from inside the top
 * frame's function, to the address its call saved, nothing held (its END
 * goes to the writer's frame path, return_to, pop and put_frame; checked
 * by pts_tl_feed). Else return_any.
 */
static inline __attribute__((always_inline)) int return_fast(struct pts_tl *tl,
							    struct thread *t,
							    const struct pts_branch *br,
							    struct pts_err *err)
{
	struct frame *f;
	uint32_t n;

	/* no calls beyond max_depth and nothing held: one test of both */
	if (__builtin_expect(!in_top_fn(t, br->from) || (t->excess | t->nbuf) || !br->to ||
			     t->frames[t->n - 1].ret != br->to, 0))
		return return_any(tl, t, br, err);
	t->st.returns++;
	n = t->n - 1;
	t->n = n;
	f = &t->frames[n];
	set_elide_n(tl, t, n);
	return tl->wf.end(tl->w, &t->at, &f->s, PTS_TLK_RETURN, err);
}

/*
 * The thread fed last, if br is its event and no jumps were dropped in
 * another thread's window (elided_other): the case call_fast and
 * return_fast decide; its event taken (take_elided_and) and both ends
 * checked against the scope. Else NULL: feed_any.
 */
static inline struct thread *fast_thread(struct pts_tl *tl, const struct pts_branch *br)
{
	struct thread *t = tl->fast;

	if (!t || pts_pid_tid(&t->at.pid) != pts_pid_tid(&br->pid) || elided_other(tl, t))
		return NULL;
	/* the elided jumps; take_event, the thread announced; feed */
	take_elided_and(tl, t, br);
	check_scope_branch(tl, br->from, br->to);
	return t;
}

/*
 * Nearly every event is a call or a return of the thread fed last, and
 * nearly every one of those is the common case: with a writer's frame
 * path (fxt), decided here, each ends in a tail call (the writer's frame
 * path, or the general case) that leaves the function no registers to
 * save; the window is set before it. Other writers: the general case.
 * A caller that knows the kind calls pts_tl_feed_call or
 * pts_tl_feed_return, without the tests of it here.
 */
int pts_tl_feed(struct pts_tl *tl, const struct pts_branch *br, struct pts_err *err)
{
	struct thread *t;

	if (br->kind > PTS_BR_RETURN || !(t = fast_thread(tl, br)))
		return feed_any(tl, br, err);
	if (br->kind == PTS_BR_CALL)
		return call_fast(tl, t, br, err);
	return return_fast(tl, t, br, err);
}

int pts_tl_feed_call(struct pts_tl *tl, const struct pts_branch *br, struct pts_err *err)
{
	struct thread *t = fast_thread(tl, br);

	return t ? call_fast(tl, t, br, err) : feed_any(tl, br, err);
}

int pts_tl_feed_return(struct pts_tl *tl, const struct pts_branch *br, struct pts_err *err)
{
	struct thread *t = fast_thread(tl, br);

	return t ? return_fast(tl, t, br, err) : feed_any(tl, br, err);
}
