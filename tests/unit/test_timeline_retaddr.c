// SPDX-License-Identifier: GPL-2.0
/*
 * Timeline builder: returns matched by the return address the call saved
 * (from + insn_len), returns used as jumps (retpolines, push+ret), the
 * kernel's return thunks, and the kernel/user stack order at returns to
 * user mode. Each test feeds hand-written branch events for a made-up
 * address space (functions 0x100 bytes each) and states the timeline
 * shape by hand (tl_sink.h rendering):
 *
 *   user:   main 0x1000  foo 0x1100  bar 0x1200  uthunk 0x1300
 *           __x86_return_thunk 0x1400 (GCC's, -mfunction-return=thunk)
 *           caml_raise_exn 0x1500 (OCaml's runtime)
 *   kernel (K = 0xffffffff81000000):
 *     entry_SYSCALL_64 K+0x000  do_syscall_64 K+0x100  hrtimer_interrupt K+0x200
 *     __hrtimer_run_queues K+0x300  __x86_indirect_thunk_rbx K+0x400
 *     tick_sched_timer K+0x500  __x86_return_thunk K+0x600
 *     srso_return_thunk K+0x700  srso_safe_ret K+0x800
 *
 * A retpoline thunk (__x86_indirect_thunk_rbx, uthunk) is
 *   +0x0: call +0xc   (5 bytes: saves +0x5)
 *   +0x5: pause; lfence; jmp +0x5
 *   +0xc: mov %rbx,(%rsp); ret   (the ret at +0x10 goes to the target)
 */
#include "unit.h"
#include "tl_feed.h"

#define K 0xffffffff81000000ULL
#define MAIN 0x1000ULL
#define FOO 0x1100ULL
#define BAR 0x1200ULL
#define UTHUNK 0x1300ULL
#define URETTHUNK 0x1400ULL
#define RAISE 0x1500ULL
#define ENTRY (K + 0x000)
#define DOSYS (K + 0x100)
#define HRTI (K + 0x200)
#define HRQ (K + 0x300)
#define THUNK (K + 0x400)
#define TICK (K + 0x500)
#define RETTHUNK (K + 0x600)
#define SRSO_RT (K + 0x700)
#define SRSO_SAFE (K + 0x800)

static const struct tl_fn fns[] = {
	{ "main", MAIN }, { "foo", FOO }, { "bar", BAR }, { "uthunk", UTHUNK },
	{ "entry_SYSCALL_64", ENTRY }, { "do_syscall_64", DOSYS },
	{ "hrtimer_interrupt", HRTI }, { "__hrtimer_run_queues", HRQ },
	{ "__x86_indirect_thunk_rbx", THUNK }, { "tick_sched_timer", TICK },
	{ "__x86_return_thunk", RETTHUNK }, { "srso_return_thunk", SRSO_RT },
	{ "srso_safe_ret", SRSO_SAFE }, { "__x86_return_thunk", URETTHUNK },
	{ "caml_raise_exn", RAISE },
};

static void start(enum pts_scope scope)
{
	tl_fx_start_fns(scope, TL_FNS(fns), 8, 0);
}

/* One branch event; len: bytes of the instruction at from (0 unknown). */
#define ev tl_fx_br
#define finish tl_fx_finish
#define done tl_fx_done
#define rec tl_fx_rec

static void retpoline_ret_to_the_target_replaces_the_thunk_frame_under_the_caller(void)
{
	start(PTS_SCOPE_KERNEL);
	ev(PTS_BR_ENABLED, 0, 0, HRTI, 100, 0);			/* B0 hrtimer_interrupt */
	ev(PTS_BR_CALL, HRTI + 0x10, 5, HRQ, 110, 0);		/* B1, saves HRTI+0x15 */
	ev(PTS_BR_CALL, HRQ + 0x20, 5, THUNK, 120, 0);		/* B2 thunk, saves HRQ+0x25 */
	ev(PTS_BR_CALL, THUNK, 5, THUNK + 0xc, 121, 0);		/* B3 thunk, saves THUNK+5 */
	/*
	 * ret to tick_sched_timer: no open frame saved that address. The
	 * inner thunk frame (a call to a label in its own function) ends, and
	 * tick_sched_timer replaces the outer thunk frame at depth 2, under
	 * __hrtimer_run_queues, returning where the thunk would (HRQ+0x25).
	 */
	ev(PTS_BR_RETURN, THUNK + 0x10, 0, TICK, 122, 0);
	ev(PTS_BR_RETURN, TICK + 0x30, 0, HRQ + 0x25, 130, 0);	/* E2 tick_sched_timer */
	ev(PTS_BR_RETURN, HRQ + 0x40, 0, HRTI + 0x15, 140, 0);	/* E1 __hrtimer_run_queues */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 hrtimer_interrupt|B1 __hrtimer_run_queues|B2 __x86_indirect_thunk_rbx|"
		"B3 __x86_indirect_thunk_rbx|E3 __x86_indirect_thunk_rbx|"
		"E2 __x86_indirect_thunk_rbx|B2 tick_sched_timer|E2 tick_sched_timer|"
		"E1 __hrtimer_run_queues|E0 hrtimer_interrupt");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "tick_sched_timer", 0)->ts_ns, 122);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "tick_sched_timer", 0)->kind, PTS_TLK_JUMP);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "tick_sched_timer", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "__hrtimer_run_queues", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "__hrtimer_run_queues", 0)->ts_ns, 140);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "hrtimer_interrupt", 0)->kind, PTS_TLK_END_OF_TRACE);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_RETURN_AS_JUMP), 1);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 0);
	done();
}

static void retpoline_target_already_lower_in_the_stack_is_called_not_returned_to(void)
{
	start(PTS_SCOPE_USER);
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);			/* B0 main (return unknown) */
	ev(PTS_BR_DISABLED, MAIN + 4, 0, 0, 105, PTS_BRF_ASYNC);	/* B1 [interrupted] */
	/* a signal handler: foo nests on main, its return address unknown */
	ev(PTS_BR_ENABLED, 0, 0, FOO, 110, 0);			/* E1 [interrupted], B1 foo */
	ev(PTS_BR_CALL, FOO + 5, 5, UTHUNK, 120, 0);		/* B2 uthunk, saves FOO+10 */
	ev(PTS_BR_CALL, UTHUNK, 5, UTHUNK + 0xc, 121, 0);	/* B3 uthunk, saves UTHUNK+5 */
	/*
	 * The thunk goes to main (called through a pointer). foo's return
	 * address is unknown and main is the function below it, but the top
	 * frame's saved address is known and differs: not a return into
	 * main. main replaces the outer thunk frame at depth 2.
	 */
	ev(PTS_BR_RETURN, UTHUNK + 0x10, 0, MAIN, 122, 0);
	ev(PTS_BR_RETURN, MAIN + 0x20, 0, FOO + 10, 130, 0);	/* E2 main: back in foo */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 [interrupted]|E1 [interrupted]|B1 foo|B2 uthunk|B3 uthunk|"
		"E3 uthunk|E2 uthunk|B2 main|E2 main|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "main", 0)->ts_ns, 130);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_END_OF_TRACE);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 0);
	done();
}

static void jump_to_the_return_thunk_and_its_ret_are_the_function_return(void)
{
	start(PTS_SCOPE_KERNEL);
	ev(PTS_BR_ENABLED, 0, 0, HRTI, 100, 0);			/* B0 hrtimer_interrupt */
	ev(PTS_BR_CALL, HRTI + 0x10, 5, HRQ, 110, 0);		/* B1, saves HRTI+0x15 */
	/* RETHUNK: `jmp __x86_return_thunk` stands for __hrtimer_run_queues' ret */
	ev(PTS_BR_JUMP, HRQ + 0x40, 0, RETTHUNK, 120, 0);
	ev(PTS_BR_RETURN, RETTHUNK, 0, HRTI + 0x15, 121, 0);	/* E1 at 121, as a return */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 hrtimer_interrupt|B1 __hrtimer_run_queues|E1 __hrtimer_run_queues|"
		"E0 hrtimer_interrupt");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "__hrtimer_run_queues", 0)->ts_ns, 121);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "__hrtimer_run_queues", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_FELL_THROUGH), 0);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_RETURN_AS_JUMP), 0);
	done();
}

static void srso_return_thunk_calling_srso_safe_ret_is_the_function_return(void)
{
	start(PTS_SCOPE_KERNEL);
	ev(PTS_BR_ENABLED, 0, 0, HRTI, 100, 0);			/* B0 hrtimer_interrupt */
	ev(PTS_BR_CALL, HRTI + 0x10, 5, HRQ, 110, 0);		/* B1, saves HRTI+0x15 */
	ev(PTS_BR_JUMP, HRQ + 0x40, 0, SRSO_RT, 120, 0);
	/* srso_return_thunk: call srso_safe_ret, which drops that return address */
	ev(PTS_BR_CALL, SRSO_RT, 5, SRSO_SAFE, 121, 0);
	ev(PTS_BR_RETURN, SRSO_SAFE + 5, 0, HRTI + 0x15, 122, 0);	/* E1 at 122 */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 hrtimer_interrupt|B1 __hrtimer_run_queues|E1 __hrtimer_run_queues|"
		"E0 hrtimer_interrupt");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "__hrtimer_run_queues", 0)->ts_ns, 122);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "__hrtimer_run_queues", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_FELL_THROUGH), 0);
	done();
}

/*
 * GCC's -mfunction-return=thunk in a user program: foo ends in `jmp
 * __x86_return_thunk`; the thunk (GCC's own, in the program) is `call
 * 1f` (5 bytes, to +0xc), `lea 8(%rsp),%rsp; ret` (the ret at +0x11,
 * to the address main's call saved). foo's slice ends at that ret, as
 * a return, as if foo had returned itself: neither the jump nor the
 * thunk's call opens a slice.
 */
static void user_return_thunk_of_gcc_is_the_function_return(void)
{
	start(PTS_SCOPE_USER);
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);			/* B0 main */
	ev(PTS_BR_CALL, MAIN + 0x10, 5, FOO, 110, 0);		/* B1 foo, saves MAIN+0x15 */
	ev(PTS_BR_JUMP, FOO + 0x40, 0, URETTHUNK, 120, 0);
	ev(PTS_BR_CALL, URETTHUNK, 5, URETTHUNK + 0xc, 121, 0);
	ev(PTS_BR_RETURN, URETTHUNK + 0x11, 0, MAIN + 0x15, 122, 0);	/* E1 at 122 */
	ev(PTS_BR_CALL, MAIN + 0x20, 5, BAR, 130, 0);		/* B1 bar: under main */
	CU_ASSERT_STRING_EQUAL(finish(), "B0 main|B1 foo|E1 foo|B1 bar|E1 bar|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->ts_ns, 122);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_FELL_THROUGH), 0);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_RETURN_AS_JUMP), 0);
	done();
}

static void push_ret_trampoline_replaces_the_frame_that_pushed(void)
{
	start(PTS_SCOPE_USER);
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);			/* B0 main */
	ev(PTS_BR_CALL, MAIN + 5, 5, FOO, 110, 0);		/* B1 foo, saves MAIN+10 */
	/*
	 * foo: push $bar; ret. The ret consumed the slot foo pushed, not foo's
	 * own: bar replaces foo (depth 1) and returns where foo would.
	 */
	ev(PTS_BR_RETURN, FOO + 0x21, 0, BAR, 120, 0);
	ev(PTS_BR_RETURN, BAR + 0x8, 0, MAIN + 10, 130, 0);	/* E1 bar: back in main */
	CU_ASSERT_STRING_EQUAL(finish(), "B0 main|B1 foo|E1 foo|B1 bar|E1 bar|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_JUMP);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 0)->ts_ns, 130);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "main", 0)->kind, PTS_TLK_END_OF_TRACE);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_RETURN_AS_JUMP), 1);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 0);
	done();
}

static void return_to_a_deeper_saved_address_unwinds_the_frames_between(void)
{
	start(PTS_SCOPE_USER);
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);			/* B0 main */
	ev(PTS_BR_CALL, MAIN + 5, 5, FOO, 110, 0);		/* B1 foo, saves MAIN+10 */
	ev(PTS_BR_CALL, FOO + 5, 5, BAR, 120, 0);		/* B2 bar, saves FOO+10 */
	ev(PTS_BR_CALL, BAR + 5, 5, UTHUNK + 0x40, 130, 0);	/* B3 uthunk, saves BAR+10 */
	/* an exception unwinder's ret to main+10: what foo's call saved */
	ev(PTS_BR_RETURN, UTHUNK + 0x50, 0, MAIN + 10, 140, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|B2 bar|B3 uthunk|E3 uthunk|E2 bar|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "uthunk", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->ts_ns, 140);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "main", 0)->kind, PTS_TLK_END_OF_TRACE);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_RETURN_AS_JUMP), 0);
	done();
}

static void ret_into_an_older_frames_function_lands_there(void)
{
	start(PTS_SCOPE_USER);
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);			/* B0 main */
	ev(PTS_BR_CALL, MAIN + 5, 5, FOO, 110, 0);		/* B1 foo, saves MAIN+10 */
	ev(PTS_BR_CALL, FOO + 5, 5, BAR, 120, 0);		/* B2 bar, saves FOO+10 */
	ev(PTS_BR_CALL, BAR + 5, 5, RAISE, 130, 0);		/* B3 caml_raise_exn */
	/*
	 * caml_raise_exn: mov handler_sp,%rsp; pop; ret. The ret goes to
	 * foo's handler (foo+0x40, which foo pushed when it set the handler
	 * up), no call's return address: bar's frame is gone, foo goes on.
	 */
	ev(PTS_BR_RETURN, RAISE + 0x15, 0, FOO + 0x40, 140, 0);
	ev(PTS_BR_RETURN, FOO + 0x50, 0, MAIN + 10, 150, 0);	/* E1 foo */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|B2 bar|B3 caml_raise_exn|E3 caml_raise_exn|E2 bar|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "caml_raise_exn", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 0)->ts_ns, 140);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->ts_ns, 150);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_RETURN_AS_JUMP), 0);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_UNWIND_GUESSED), 0);
	done();
}

static void ret_into_a_recursions_function_lands_in_the_innermost_frame_and_says_so(void)
{
	start(PTS_SCOPE_USER);
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);			/* B0 main */
	ev(PTS_BR_CALL, MAIN + 5, 5, FOO, 110, 0);		/* B1 foo, saves MAIN+10 */
	ev(PTS_BR_CALL, FOO + 5, 5, FOO, 120, 0);		/* B2 foo, saves FOO+10 */
	ev(PTS_BR_CALL, FOO + 5, 5, RAISE, 130, 0);		/* B3 caml_raise_exn */
	/* either foo's handler: the trace carries no stack pointer to tell */
	ev(PTS_BR_RETURN, RAISE + 0x15, 0, FOO + 0x40, 140, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|B2 foo|B3 caml_raise_exn|E3 caml_raise_exn|E2 foo|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_END_OF_TRACE);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_UNWIND_GUESSED), 1);
	done();
}

static void return_past_the_stack_of_unknown_return_address_still_infers(void)
{
	start(PTS_SCOPE_USER);
	ev(PTS_BR_ENABLED, 0, 0, FOO + 3, 100, 0);		/* B0 foo, return unknown */
	ev(PTS_BR_CALL, FOO + 5, 5, BAR, 110, 0);		/* B1 bar, saves FOO+10 */
	ev(PTS_BR_RETURN, BAR + 4, 0, FOO + 10, 120, 0);	/* E1 bar */
	/* foo returns: nothing is known below it: main is inferred from t=100 */
	ev(PTS_BR_RETURN, FOO + 30, 0, MAIN + 10, 130, 0);
	CU_ASSERT_STRING_EQUAL(finish(), "B0 main|B1 foo|B2 bar|E2 bar|E1 foo|E0 main");
	CU_ASSERT(rec(PTS_TL_BEGIN, "main", 0)->flags & PTS_TLF_INFERRED);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "main", 0)->ts_ns, 100);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 1);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_RETURN_AS_JUMP), 0);
	done();
}

static void both_scopes_sysret_after_a_kernel_start_puts_user_frames_below_kernel_frames(void)
{
	start(PTS_SCOPE_BOTH);
	/* the trace starts inside a syscall */
	ev(PTS_BR_ENABLED, 0, 0, DOSYS + 3, 100, 0);		/* B0 do_syscall_64 */
	ev(PTS_BR_RETURN, DOSYS + 9, 0, ENTRY + 10, 110, 0);	/* entry_SYSCALL_64 inferred */
	/* sysret to foo: the kernel frame ends; foo is inferred around it */
	ev(PTS_BR_SYSRET, ENTRY + 20, 0, FOO + 10, 120, 0);
	ev(PTS_BR_RETURN, FOO + 12, 0, MAIN + 10, 130, 0);	/* main inferred around all */
	/* the next syscall nests one level under main, no kernel frame below */
	ev(PTS_BR_SYSCALL, MAIN + 20, 2, ENTRY, 140, 0);	/* B1 entry_SYSCALL_64 */
	ev(PTS_BR_SYSRET, ENTRY + 20, 0, MAIN + 22, 150, 0);	/* E1 */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|B2 entry_SYSCALL_64|B3 do_syscall_64|E3 do_syscall_64|"
		"E2 entry_SYSCALL_64|E1 foo|B1 entry_SYSCALL_64|E1 entry_SYSCALL_64|E0 main");
	CU_ASSERT(rec(PTS_TL_BEGIN, "foo", 0)->flags & PTS_TLF_INFERRED);
	CU_ASSERT_FALSE(rec(PTS_TL_BEGIN, "foo", 0)->flags & PTS_TLF_KERNEL);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "foo", 0)->ts_ns, 100);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "entry_SYSCALL_64", 0)->kind, PTS_TLK_SYSRET);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "entry_SYSCALL_64", 1)->kind, PTS_TLK_SYSRET);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_KERNEL_LEFT_OPEN), 0);
	done();
}

static void both_scopes_sysret_closes_every_kernel_frame_still_open(void)
{
	start(PTS_SCOPE_BOTH);
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);			/* B0 main */
	ev(PTS_BR_SYSCALL, MAIN + 5, 2, ENTRY, 110, 0);		/* B1 entry, saves MAIN+7 */
	ev(PTS_BR_CALL, ENTRY + 5, 5, DOSYS, 115, 0);		/* B2 do_syscall_64 */
	ev(PTS_BR_CALL, DOSYS + 5, 5, ENTRY + 0x40, 116, 0);	/* B3 entry (a stale frame) */
	/*
	 * sysret with do_syscall_64 never seen returning: every kernel frame
	 * ends at the sysret (the top one as the sysret, the others
	 * unwound); main continues at depth 0. Counted as inconsistent.
	 */
	ev(PTS_BR_SYSRET, ENTRY + 0x50, 0, MAIN + 7, 120, 0);
	ev(PTS_BR_CALL, MAIN + 9, 5, FOO, 130, 0);		/* B1 foo: a user frame at 1 */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 entry_SYSCALL_64|B2 do_syscall_64|B3 entry_SYSCALL_64|"
		"E3 entry_SYSCALL_64|E2 do_syscall_64|E1 entry_SYSCALL_64|B1 foo|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "entry_SYSCALL_64", 0)->kind, PTS_TLK_SYSRET);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "do_syscall_64", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "do_syscall_64", 0)->ts_ns, 120);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_KERNEL_LEFT_OPEN), 1);
	done();
}

static void both_scopes_untraced_return_to_user_closes_kernel_frames_before_a_handler_nests(void)
{
	start(PTS_SCOPE_BOTH);
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);			/* B0 main */
	ev(PTS_BR_SYSCALL, MAIN + 5, 2, ENTRY, 110, 0);		/* B1 entry_SYSCALL_64 */
	ev(PTS_BR_CALL, ENTRY + 5, 5, DOSYS, 115, 0);		/* B2 do_syscall_64 */
	ev(PTS_BR_DISABLED, DOSYS + 3, 0, 0, 120, PTS_BRF_ASYNC);	/* B3 [interrupted] */
	/*
	 * Tracing resumes in user space in foo (a signal handler): the kernel
	 * returned untraced, so its frames end at 200 and foo nests on main
	 * at depth 1, not on top of the kernel frames.
	 */
	ev(PTS_BR_ENABLED, 0, 0, FOO, 200, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 entry_SYSCALL_64|B2 do_syscall_64|B3 [interrupted]|E3 [interrupted]|"
		"E2 do_syscall_64|E1 entry_SYSCALL_64|B1 foo|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "entry_SYSCALL_64", 0)->ts_ns, 200);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_KERNEL_LEFT_OPEN), 0);
	done();
}

static void both_scopes_kernel_return_past_the_kernel_frames_leaves_the_user_frames_open(void)
{
	start(PTS_SCOPE_BOTH);
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);			/* B0 main */
	ev(PTS_BR_SYSCALL, MAIN + 5, 2, ENTRY, 110, 0);		/* B1 entry, saves MAIN+7 */
	ev(PTS_BR_CALL, ENTRY + 5, 5, DOSYS, 115, 0);		/* B2 do_syscall_64 */
	/*
	 * An iret to hrtimer_interrupt, which no open frame holds or saved:
	 * the kernel frames end, main stays open, and hrtimer_interrupt is an
	 * inferred kernel frame on main from the iret (t=120) - not an outer
	 * frame enclosing main.
	 */
	ev(PTS_BR_IRET, DOSYS + 9, 0, HRTI + 0x20, 120, 0);
	ev(PTS_BR_SYSRET, HRTI + 0x30, 0, MAIN + 7, 130, 0);	/* E1 hrtimer_interrupt */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 entry_SYSCALL_64|B2 do_syscall_64|E2 do_syscall_64|"
		"E1 entry_SYSCALL_64|B1 hrtimer_interrupt|E1 hrtimer_interrupt|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "hrtimer_interrupt", 0)->ts_ns, 120);
	CU_ASSERT(rec(PTS_TL_BEGIN, "hrtimer_interrupt", 0)->flags & PTS_TLF_INFERRED);
	CU_ASSERT(rec(PTS_TL_BEGIN, "hrtimer_interrupt", 0)->flags & PTS_TLF_KERNEL);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "main", 0)->kind, PTS_TLK_END_OF_TRACE);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 1);
	done();
}

static void kernel_scope_entry_from_user_starts_at_depth_0_after_a_too_deep_stack(void)
{
	int i;

	start(PTS_SCOPE_KERNEL);	/* max_depth 8 */
	ev(PTS_BR_ENABLED, 0, 0, ENTRY, 100, 0);			/* B0 entry_SYSCALL_64 */
	/* 10 nested calls: 7 shown (depths 1..7), 3 beyond max_depth */
	ev(PTS_BR_CALL, ENTRY + 5, 5, DOSYS, 110, 0);
	for (i = 1; i < 10; i++)
		ev(PTS_BR_CALL, DOSYS + 5, 5, DOSYS, 110 + i, 0);
	/* back to user: every kernel frame ends, the counted ones too */
	ev(PTS_BR_SYSRET, DOSYS + 0x20, 0, 0, 200, PTS_BRF_TRACE_OFF);
	ev(PTS_BR_ENABLED, 0, 0, HRTI, 300, 0);			/* interrupt from user */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 entry_SYSCALL_64|B1 do_syscall_64|B2 do_syscall_64|B3 do_syscall_64|"
		"B4 do_syscall_64|B5 do_syscall_64|B6 do_syscall_64|B7 do_syscall_64|"
		"E7 do_syscall_64|E6 do_syscall_64|E5 do_syscall_64|E4 do_syscall_64|"
		"E3 do_syscall_64|E2 do_syscall_64|E1 do_syscall_64|E0 entry_SYSCALL_64|"
		"B0 [user]|E0 [user]|B0 hrtimer_interrupt|E0 hrtimer_interrupt");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "entry_SYSCALL_64", 0)->ts_ns, 200);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "hrtimer_interrupt", 0)->ts_ns, 300);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_TOO_DEEP), 3);
	done();
}

PTS_SUITE(timeline_retaddr, NULL, NULL,
	  PTS_TEST(retpoline_ret_to_the_target_replaces_the_thunk_frame_under_the_caller),
	  PTS_TEST(retpoline_target_already_lower_in_the_stack_is_called_not_returned_to),
	  PTS_TEST(jump_to_the_return_thunk_and_its_ret_are_the_function_return),
	  PTS_TEST(srso_return_thunk_calling_srso_safe_ret_is_the_function_return),
	  PTS_TEST(user_return_thunk_of_gcc_is_the_function_return),
	  PTS_TEST(push_ret_trampoline_replaces_the_frame_that_pushed),
	  PTS_TEST(return_to_a_deeper_saved_address_unwinds_the_frames_between),
	  PTS_TEST(ret_into_an_older_frames_function_lands_there),
	  PTS_TEST(ret_into_a_recursions_function_lands_in_the_innermost_frame_and_says_so),
	  PTS_TEST(return_past_the_stack_of_unknown_return_address_still_infers),
	  PTS_TEST(both_scopes_sysret_after_a_kernel_start_puts_user_frames_below_kernel_frames),
	  PTS_TEST(both_scopes_sysret_closes_every_kernel_frame_still_open),
	  PTS_TEST(both_scopes_untraced_return_to_user_closes_kernel_frames_before_a_handler_nests),
	  PTS_TEST(both_scopes_kernel_return_past_the_kernel_frames_leaves_the_user_frames_open),
	  PTS_TEST(kernel_scope_entry_from_user_starts_at_depth_0_after_a_too_deep_stack));
