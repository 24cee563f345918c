// SPDX-License-Identifier: GPL-2.0
/*
 * Timeline builder: call stacks from branch events, in every scope. Each
 * test feeds hand-written branch events for a made-up address space and
 * states the timeline shape by hand (tl_sink.h rendering):
 *
 *   user:   main 0x1000  foo 0x1100  bar 0x1200  baz 0x1300   (0x100 bytes each)
 *           __restore_rt 0x1400 (the signal restorer: mov $15,%eax; syscall at +7)
 *           _Unwind_Resume 0x1500
 *   kernel: entry_SYSCALL_64 K+0x000  do_syscall_64 K+0x100
 *           asm_exc_page_fault K+0x200  exc_page_fault K+0x300
 *           asm_common_interrupt K+0x400  irq_exit_rcu K+0x500
 *           __irq_exit_rcu K+0x600                (K = 0xffffffff81000000)
 */
#include "unit.h"
#include "tl_feed.h"

#define K 0xffffffff81000000ULL
#define MAIN 0x1000ULL
#define FOO 0x1100ULL
#define BAR 0x1200ULL
#define BAZ 0x1300ULL
#define RESTORER 0x1400ULL
#define UNWIND_RESUME 0x1500ULL
#define ENTRY (K + 0x000)
#define DOSYS (K + 0x100)
#define PGF (K + 0x200)
#define EXCPGF (K + 0x300)
#define IRQ (K + 0x400)
#define IRQEXIT (K + 0x500)
#define IRQEXIT2 (K + 0x600)

static const struct tl_fn fns[] = {
	{ "main", MAIN }, { "foo", FOO }, { "bar", BAR }, { "baz", BAZ },
	{ "__restore_rt", RESTORER }, { "_Unwind_Resume", UNWIND_RESUME },
	{ "entry_SYSCALL_64", ENTRY }, { "do_syscall_64", DOSYS },
	{ "asm_exc_page_fault", PGF }, { "exc_page_fault", EXCPGF },
	{ "asm_common_interrupt", IRQ }, { "irq_exit_rcu", IRQEXIT },
	{ "__irq_exit_rcu", IRQEXIT2 },
};

static void start(enum pts_scope scope, uint32_t segment_cap)
{
	tl_fx_start_fns(scope, TL_FNS(fns), 8, segment_cap);
}

/* One branch event (instruction length unknown); a gap's cause is an overflow. */
static void ev(enum pts_br_kind k, uint64_t from, uint64_t to, uint64_t ts, uint32_t flags)
{
	tl_fx_ev(k, from, 0, to, ts, flags,
		 k == PTS_BR_GAP ? "trace overflow (OVF): packets lost" : NULL);
}

#define finish tl_fx_finish
#define done tl_fx_done
#define rec tl_fx_rec

static void calls_and_returns_give_one_nested_slice_per_function(void)
{
	start(PTS_SCOPE_USER, 0);
	ev(PTS_BR_ENABLED, 0, MAIN, 100, 0);
	ev(PTS_BR_CALL, MAIN + 5, FOO, 110, 0);
	ev(PTS_BR_CALL, FOO + 9, BAR, 120, 0);
	ev(PTS_BR_RETURN, BAR + 4, FOO + 14, 130, 0);
	ev(PTS_BR_RETURN, FOO + 20, MAIN + 10, 140, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|B2 bar|E2 bar|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "bar", 0)->ts_ns, 120);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 0)->ts_ns, 130);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "foo", 0)->kind, PTS_TLK_CALL);
	/* main is ended by the end of the trace, at the thread's last time */
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "main", 0)->kind, PTS_TLK_END_OF_TRACE);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "main", 0)->ts_ns, 140);
	done();
}

static void tail_jump_to_another_function_replaces_the_top_frame(void)
{
	start(PTS_SCOPE_USER, 0);
	ev(PTS_BR_ENABLED, 0, MAIN, 100, 0);
	ev(PTS_BR_CALL, MAIN + 5, FOO, 110, 0);
	ev(PTS_BR_JUMP, FOO + 3, FOO + 40, 115, 0);	/* inside foo: no change */
	ev(PTS_BR_JUMP, FOO + 50, BAR, 120, 0);		/* tail call / PLT stub */
	ev(PTS_BR_RETURN, BAR + 4, MAIN + 10, 130, 0);	/* bar returns to main */
	CU_ASSERT_STRING_EQUAL(finish(), "B0 main|B1 foo|E1 foo|B1 bar|E1 bar|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_JUMP);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "bar", 0)->kind, PTS_TLK_JUMP);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "bar", 0)->ts_ns, 120);
	done();
}

static void longjmp_return_to_a_deeper_frame_unwinds_the_frames_between(void)
{
	start(PTS_SCOPE_USER, 0);
	ev(PTS_BR_ENABLED, 0, MAIN, 100, 0);
	ev(PTS_BR_CALL, MAIN + 5, FOO, 110, 0);
	ev(PTS_BR_CALL, FOO + 5, BAR, 120, 0);
	ev(PTS_BR_CALL, BAR + 5, BAZ, 130, 0);
	/* longjmp: baz "returns" straight into main */
	ev(PTS_BR_RETURN, BAZ + 8, MAIN + 30, 140, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|B2 bar|B3 baz|E3 baz|E2 bar|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "baz", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->ts_ns, 140);
	done();
}

/*
 * A direct jump to the first byte of a function is a tail call, also when
 * an older frame of that function is open (recursion through a tail
 * call): bar's `jmp foo` replaces bar, it does not unwind to the foo
 * below. foo's two returns then end the two foo frames.
 */
static void tail_jump_to_a_function_open_lower_in_the_stack_replaces_the_top_frame(void)
{
	start(PTS_SCOPE_USER, 0);
	ev(PTS_BR_ENABLED, 0, MAIN, 100, 0);
	ev(PTS_BR_CALL, MAIN + 5, FOO, 110, 0);
	ev(PTS_BR_CALL, FOO + 5, BAR, 120, 0);
	ev(PTS_BR_JUMP, BAR + 20, FOO, 130, 0);		/* tail call into foo again */
	ev(PTS_BR_RETURN, FOO + 8, FOO + 10, 140, 0);	/* the inner foo returns */
	ev(PTS_BR_RETURN, FOO + 20, MAIN + 10, 150, 0);	/* the outer foo returns */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|B2 bar|E2 bar|B2 foo|E2 foo|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 0)->kind, PTS_TLK_JUMP);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "foo", 1)->kind, PTS_TLK_JUMP);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->ts_ns, 140);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 1)->ts_ns, 150);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 0);
	done();
}

/*
 * The kernel shape of issue 13: irq_exit_rcu is `jmp __irq_exit_rcu`; a
 * nested interrupt arrives inside __irq_exit_rcu and its own irq_exit_rcu
 * tail-jumps to __irq_exit_rcu again. By hand: the second jump replaces
 * the inner irq_exit_rcu (keeping its return address, IRQ+0x15), whose
 * ret then ends it; the iret ends the nested interrupt; the outer
 * __irq_exit_rcu returns in turn. No frame is unwound, none inferred.
 */
static void tail_jump_under_a_nested_interrupt_keeps_the_interrupted_stack(void)
{
	start(PTS_SCOPE_KERNEL, 0);
	tl_fx_ev(PTS_BR_ENABLED, 0, 0, IRQ, 100, 0, NULL);
	tl_fx_ev(PTS_BR_CALL, IRQ + 0x10, 5, IRQEXIT, 110, 0, NULL);
	tl_fx_ev(PTS_BR_JUMP, IRQEXIT + 4, 0, IRQEXIT2, 120, 0, NULL);
	tl_fx_ev(PTS_BR_INTERRUPT, IRQEXIT2 + 0x20, 0, IRQ, 130, 0, NULL);
	tl_fx_ev(PTS_BR_CALL, IRQ + 0x10, 5, IRQEXIT, 140, 0, NULL);
	tl_fx_ev(PTS_BR_JUMP, IRQEXIT + 4, 0, IRQEXIT2, 150, 0, NULL);
	tl_fx_ev(PTS_BR_RETURN, IRQEXIT2 + 0x30, 0, IRQ + 0x15, 160, 0, NULL);
	tl_fx_ev(PTS_BR_IRET, IRQ + 0x40, 0, IRQEXIT2 + 0x20, 170, 0, NULL);
	tl_fx_ev(PTS_BR_RETURN, IRQEXIT2 + 0x30, 0, IRQ + 0x15, 180, 0, NULL);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 asm_common_interrupt|B1 irq_exit_rcu|E1 irq_exit_rcu|B1 __irq_exit_rcu|"
		"B2 asm_common_interrupt|B3 irq_exit_rcu|E3 irq_exit_rcu|B3 __irq_exit_rcu|"
		"E3 __irq_exit_rcu|E2 asm_common_interrupt|E1 __irq_exit_rcu|"
		"E0 asm_common_interrupt");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "__irq_exit_rcu", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "__irq_exit_rcu", 0)->ts_ns, 160);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "asm_common_interrupt", 0)->kind, PTS_TLK_IRET);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "__irq_exit_rcu", 1)->ts_ns, 180);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 0);
	done();
}

/*
 * A jump into the middle of an open frame's function (longjmp to a setjmp
 * point, in main) still unwinds the frames above it.
 */
static void jump_into_the_middle_of_a_deeper_frames_function_unwinds(void)
{
	start(PTS_SCOPE_USER, 0);
	ev(PTS_BR_ENABLED, 0, MAIN, 100, 0);
	ev(PTS_BR_CALL, MAIN + 5, FOO, 110, 0);
	ev(PTS_BR_CALL, FOO + 5, BAR, 120, 0);
	ev(PTS_BR_JUMP, BAR + 8, MAIN + 30, 130, 0);
	CU_ASSERT_STRING_EQUAL(finish(), "B0 main|B1 foo|B2 bar|E2 bar|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_UNWIND);
	done();
}

/*
 * A C++ exception through a recursion whose frames each run a cleanup:
 * foo calls foo, which calls bar, which throws. The unwinder jumps to the
 * inner foo's landing pad (FOO + 0x40); its cleanup done, the pad calls
 * _Unwind_Resume, which never returns and jumps to the same landing pad
 * of the outer foo: the inner foo is unwound with _Unwind_Resume, and
 * the outer foo's pad calls baz from depth 1, not from the inner foo.
 */
static void unwind_resume_goes_on_to_an_older_frame_of_the_same_function(void)
{
	start(PTS_SCOPE_USER, 0);
	ev(PTS_BR_ENABLED, 0, MAIN, 100, 0);
	ev(PTS_BR_CALL, MAIN + 5, FOO, 110, 0);
	ev(PTS_BR_CALL, FOO + 5, FOO, 120, 0);
	ev(PTS_BR_CALL, FOO + 5, BAR, 130, 0);
	ev(PTS_BR_JUMP, BAR + 8, FOO + 0x40, 140, 0);		/* the inner foo's pad */
	ev(PTS_BR_CALL, FOO + 0x45, UNWIND_RESUME, 150, 0);
	ev(PTS_BR_JUMP, UNWIND_RESUME + 8, FOO + 0x40, 160, 0);	/* the outer foo's pad */
	ev(PTS_BR_CALL, FOO + 0x45, BAZ, 170, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|B2 foo|B3 bar|E3 bar|B3 _Unwind_Resume|E3 _Unwind_Resume|E2 foo|"
		"B2 baz|E2 baz|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "_Unwind_Resume", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->ts_ns, 160);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_UNWIND);
	done();
}

static void return_past_the_known_stack_infers_an_outer_frame_from_the_segment_start(void)
{
	start(PTS_SCOPE_USER, 0);
	/* the trace starts inside foo, which calls bar, then returns twice */
	ev(PTS_BR_CALL, FOO + 5, BAR, 10, 0);
	ev(PTS_BR_RETURN, BAR + 4, FOO + 10, 20, 0);
	ev(PTS_BR_RETURN, FOO + 30, MAIN + 10, 30, 0);
	/*
	 * foo was running from the first event (t=10); the return to main
	 * shows main was its caller: main is inferred and encloses all, from
	 * the segment start t=10.
	 */
	CU_ASSERT_STRING_EQUAL(finish(), "B0 main|B1 foo|B2 bar|E2 bar|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "main", 0)->ts_ns, 10);
	CU_ASSERT(rec(PTS_TL_BEGIN, "main", 0)->flags & PTS_TLF_INFERRED);
	CU_ASSERT(rec(PTS_TL_END, "main", 0)->flags & PTS_TLF_INFERRED);
	CU_ASSERT_FALSE(rec(PTS_TL_BEGIN, "foo", 0)->flags & PTS_TLF_INFERRED);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 1);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED_LATE), 0);
	done();
}

static void inferred_frame_whose_segment_was_already_written_begins_at_the_return(void)
{
	start(PTS_SCOPE_USER, 4);	/* hold at most 4 records per thread */
	ev(PTS_BR_CALL, FOO + 5, BAR, 10, 0);		/* B foo, B bar */
	ev(PTS_BR_RETURN, BAR + 4, FOO + 10, 20, 0);	/* E bar */
	ev(PTS_BR_CALL, FOO + 5, BAZ, 25, 0);		/* B baz: buffer full, written */
	ev(PTS_BR_RETURN, BAZ + 4, FOO + 10, 26, 0);	/* E baz */
	ev(PTS_BR_RETURN, FOO + 30, MAIN + 10, 30, 0);	/* past the stack */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 foo|B1 bar|E1 bar|B1 baz|E1 baz|E0 foo|B0 main|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "main", 0)->ts_ns, 30);
	CU_ASSERT(rec(PTS_TL_BEGIN, "main", 0)->flags & PTS_TLF_INFERRED);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED_LATE), 1);
	done();
}

static void gap_ends_open_frames_leaves_an_instant_and_splices_nothing(void)
{
	start(PTS_SCOPE_USER, 0);
	ev(PTS_BR_ENABLED, 0, MAIN, 100, 0);
	ev(PTS_BR_CALL, MAIN + 5, FOO, 110, 0);
	ev(PTS_BR_GAP, FOO + 7, 0, 150, 0);
	/* after the gap foo returns to main: not the old main (no splicing) */
	ev(PTS_BR_ENABLED, 0, FOO + 20, 200, 0);
	ev(PTS_BR_RETURN, FOO + 30, MAIN + 10, 210, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|E1 foo|E0 main|I gap|B0 main|B1 foo|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_GAP);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->ts_ns, 150);
	CU_ASSERT_EQUAL(rec(PTS_TL_INSTANT, "gap", 0)->ts_ns, 150);
	CU_ASSERT_STRING_EQUAL(rec(PTS_TL_INSTANT, "gap", 0)->detail,
			       "trace overflow (OVF): packets lost");
	/* the second main is inferred from the return and starts with the new segment */
	CU_ASSERT(rec(PTS_TL_BEGIN, "main", 1)->flags & PTS_TLF_INFERRED);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "main", 1)->ts_ns, 200);
	done();
}

static void user_scope_syscall_shows_a_synthetic_syscall_slice(void)
{
	start(PTS_SCOPE_USER, 0);
	ev(PTS_BR_ENABLED, 0, MAIN, 100, 0);
	ev(PTS_BR_CALL, MAIN + 5, FOO, 110, 0);
	ev(PTS_BR_SYSCALL, FOO + 8, 0, 120, PTS_BRF_TRACE_OFF);	/* TIP.PGD, IP suppressed */
	ev(PTS_BR_ENABLED, 0, FOO + 10, 180, PTS_BRF_RESUMED);
	ev(PTS_BR_RETURN, FOO + 12, MAIN + 10, 190, 0);
	CU_ASSERT_STRING_EQUAL(finish(), "B0 main|B1 foo|B2 [syscall]|E2 [syscall]|E1 foo|E0 main");
	CU_ASSERT(rec(PTS_TL_BEGIN, "[syscall]", 0)->flags & PTS_TLF_SYNTHETIC);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "[syscall]", 0)->kind, PTS_TLK_SYSCALL);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "[syscall]", 0)->kind, PTS_TLK_SYSRET);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "[syscall]", 0)->ts_ns - rec(PTS_TL_BEGIN, "[syscall]", 0)->ts_ns, 60);
	done();
}

static void user_scope_asynchronous_disable_shows_an_interrupted_slice(void)
{
	start(PTS_SCOPE_USER, 0);
	ev(PTS_BR_ENABLED, 0, MAIN, 100, 0);
	ev(PTS_BR_DISABLED, MAIN + 4, 0, 105, PTS_BRF_ASYNC);	/* FUP + TIP.PGD */
	ev(PTS_BR_ENABLED, 0, MAIN + 4, 140, PTS_BRF_RESUMED);
	CU_ASSERT_STRING_EQUAL(finish(), "B0 main|B1 [interrupted]|E1 [interrupted]|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "[interrupted]", 0)->kind, PTS_TLK_IRET);
	done();
}

static void user_scope_other_disable_shows_an_untraced_slice_and_a_second_disable_is_counted(void)
{
	start(PTS_SCOPE_USER, 0);
	ev(PTS_BR_ENABLED, 0, MAIN, 100, 0);
	ev(PTS_BR_DISABLED, MAIN + 4, 0, 105, 0);
	ev(PTS_BR_DISABLED, 0, 0, 106, 0);	/* a disable with no enable between */
	ev(PTS_BR_ENABLED, 0, MAIN + 8, 140, 0);
	CU_ASSERT_STRING_EQUAL(finish(), "B0 main|B1 [untraced]|E1 [untraced]|E0 main");
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_DISABLE_WITHOUT_ENABLE), 1);
	done();
}

static void syscall_events_in_user_scope_with_kernel_targets_are_counted_not_fatal(void)
{
	start(PTS_SCOPE_USER, 0);
	ev(PTS_BR_ENABLED, 0, MAIN, 100, 0);
	/* a kernel target cannot be traced in user scope: counted, still shown */
	ev(PTS_BR_SYSCALL, MAIN + 4, ENTRY, 110, 0);
	ev(PTS_BR_SYSRET, ENTRY + 9, MAIN + 6, 120, 0);
	ev(PTS_BR_SYSRET, MAIN + 9, 0, 130, PTS_BRF_TRACE_OFF);	/* sysret from user code */
	CU_ASSERT(pts_tl_diag_count(tl_fx.tl, PTS_TLD_OUT_OF_SCOPE) >= 2);
	finish();
	done();
}

static void kernel_scope_time_in_user_space_is_a_user_slice(void)
{
	start(PTS_SCOPE_KERNEL, 0);
	ev(PTS_BR_ENABLED, 0, ENTRY, 100, 0);
	ev(PTS_BR_CALL, ENTRY + 5, DOSYS, 110, 0);
	ev(PTS_BR_RETURN, DOSYS + 9, ENTRY + 10, 120, 0);
	ev(PTS_BR_SYSRET, ENTRY + 20, 0, 130, PTS_BRF_TRACE_OFF);	/* TIP.PGD */
	ev(PTS_BR_ENABLED, 0, ENTRY, 200, 0);	/* next syscall: TIP.PGE */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 entry_SYSCALL_64|B1 do_syscall_64|E1 do_syscall_64|E0 entry_SYSCALL_64|"
		"B0 [user]|E0 [user]|B0 entry_SYSCALL_64|E0 entry_SYSCALL_64");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "[user]", 0)->ts_ns, 130);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "[user]", 0)->ts_ns, 200);
	CU_ASSERT_FALSE(rec(PTS_TL_BEGIN, "[user]", 0)->flags & PTS_TLF_KERNEL);
	CU_ASSERT(rec(PTS_TL_BEGIN, "do_syscall_64", 0)->flags & PTS_TLF_KERNEL);
	done();
}

static void both_scopes_syscall_nests_kernel_frames_under_the_user_frame_and_sysret_restores_it(void)
{
	start(PTS_SCOPE_BOTH, 0);
	ev(PTS_BR_ENABLED, 0, MAIN, 100, 0);
	ev(PTS_BR_CALL, MAIN + 5, FOO, 110, 0);
	ev(PTS_BR_SYSCALL, FOO + 8, ENTRY, 120, 0);
	ev(PTS_BR_CALL, ENTRY + 5, DOSYS, 125, 0);
	ev(PTS_BR_RETURN, DOSYS + 9, ENTRY + 10, 130, 0);
	ev(PTS_BR_SYSRET, ENTRY + 20, FOO + 10, 140, 0);
	ev(PTS_BR_RETURN, FOO + 12, MAIN + 10, 150, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|B2 entry_SYSCALL_64|B3 do_syscall_64|E3 do_syscall_64|"
		"E2 entry_SYSCALL_64|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "entry_SYSCALL_64", 0)->kind, PTS_TLK_SYSCALL);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "entry_SYSCALL_64", 0)->kind, PTS_TLK_SYSRET);
	CU_ASSERT(rec(PTS_TL_BEGIN, "entry_SYSCALL_64", 0)->flags & PTS_TLF_KERNEL);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_OUT_OF_SCOPE), 0);
	done();
}

static void both_scopes_nested_interrupts_nest_and_iret_returns_to_each_interrupted_frame(void)
{
	start(PTS_SCOPE_BOTH, 0);
	ev(PTS_BR_ENABLED, 0, FOO, 100, 0);
	ev(PTS_BR_INTERRUPT, FOO + 6, IRQ, 110, 0);		/* FUP + TIP */
	ev(PTS_BR_INTERRUPT, IRQ + 3, PGF, 115, 0);		/* nested: fault in the handler */
	ev(PTS_BR_CALL, PGF + 5, EXCPGF, 116, 0);
	ev(PTS_BR_RETURN, EXCPGF + 9, PGF + 10, 117, 0);
	ev(PTS_BR_IRET, PGF + 20, IRQ + 3, 118, 0);
	ev(PTS_BR_IRET, IRQ + 30, FOO + 6, 120, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 foo|B1 asm_common_interrupt|B2 asm_exc_page_fault|B3 exc_page_fault|"
		"E3 exc_page_fault|E2 asm_exc_page_fault|E1 asm_common_interrupt|E0 foo");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "asm_common_interrupt", 0)->kind, PTS_TLK_INTERRUPT);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "asm_exc_page_fault", 0)->kind, PTS_TLK_IRET);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "asm_common_interrupt", 0)->ts_ns, 120);
	done();
}

static void kernel_entry_after_a_gap_nests_under_the_user_frame_the_iret_returns_to(void)
{
	start(PTS_SCOPE_BOTH, 0);
	ev(PTS_BR_ENABLED, 0, FOO, 100, 0);
	ev(PTS_BR_GAP, FOO + 2, 0, 110, 0);
	/* tracing restarts in the page-fault entry; the iret shows whose fault it was */
	ev(PTS_BR_ENABLED, 0, PGF, 120, 0);
	ev(PTS_BR_CALL, PGF + 5, EXCPGF, 121, 0);
	ev(PTS_BR_RETURN, EXCPGF + 9, PGF + 10, 122, 0);
	ev(PTS_BR_IRET, PGF + 20, FOO + 2, 130, 0);
	ev(PTS_BR_RETURN, FOO + 8, MAIN + 10, 140, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 foo|E0 foo|I gap|B0 main|B1 foo|B2 asm_exc_page_fault|B3 exc_page_fault|"
		"E3 exc_page_fault|E2 asm_exc_page_fault|E1 foo|E0 main");
	CU_ASSERT(rec(PTS_TL_BEGIN, "foo", 1)->flags & PTS_TLF_INFERRED);
	CU_ASSERT_FALSE(rec(PTS_TL_BEGIN, "foo", 1)->flags & PTS_TLF_KERNEL);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "foo", 1)->ts_ns, 120);
	CU_ASSERT(rec(PTS_TL_BEGIN, "asm_exc_page_fault", 0)->flags & PTS_TLF_KERNEL);
	done();
}

static void time_going_backwards_on_a_thread_is_clamped_and_counted(void)
{
	start(PTS_SCOPE_USER, 0);
	ev(PTS_BR_ENABLED, 0, MAIN, 100, 0);
	ev(PTS_BR_CALL, MAIN + 5, FOO, 110, 0);
	ev(PTS_BR_RETURN, FOO + 5, MAIN + 10, 90, 0);	/* earlier than 110 */
	finish();
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->ts_ns, 110);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_TIME_BACKWARDS), 1);
	done();
}

/* max_depth 6, between the stack's capacities (4, 8): the sixth frame is the last shown */
static void max_depth_between_stack_capacities_shows_that_many_frames(void)
{
	int i;

	tl_fx_start_fns(PTS_SCOPE_USER, TL_FNS(fns), 6, 0);
	ev(PTS_BR_ENABLED, 0, FOO, 100, 0);
	for (i = 0; i < 10; i++)	/* recursion: foo calls foo */
		ev(PTS_BR_CALL, FOO + 5, FOO, 101 + (uint64_t)i, 0);
	for (i = 0; i < 10; i++)
		ev(PTS_BR_RETURN, FOO + 9, FOO + 10, 120 + (uint64_t)i, 0);
	CU_ASSERT_STRING_EQUAL(finish(), "B0 foo|B1 foo|B2 foo|B3 foo|B4 foo|B5 foo|"
					 "E5 foo|E4 foo|E3 foo|E2 foo|E1 foo|E0 foo");
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_TOO_DEEP), 5);
	done();
}

static void calls_deeper_than_max_depth_are_counted_and_slices_stay_balanced(void)
{
	int i;

	start(PTS_SCOPE_USER, 0);	/* max_depth 8 */
	ev(PTS_BR_ENABLED, 0, FOO, 100, 0);
	for (i = 0; i < 12; i++)	/* recursion: foo calls foo */
		ev(PTS_BR_CALL, FOO + 5, FOO, 101 + (uint64_t)i, 0);
	for (i = 0; i < 12; i++)
		ev(PTS_BR_RETURN, FOO + 9, FOO + 10, 120 + (uint64_t)i, 0);
	finish();
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_TOO_DEEP), 5);
	done();
}

static void user_scope_signal_handler_nests_on_the_interrupted_frame(void)
{
	start(PTS_SCOPE_USER, 0);
	ev(PTS_BR_ENABLED, 0, MAIN, 100, 0);
	ev(PTS_BR_CALL, MAIN + 5, FOO, 110, 0);
	ev(PTS_BR_DISABLED, FOO + 4, 0, 120, PTS_BRF_ASYNC);	/* signal arrives */
	ev(PTS_BR_ENABLED, 0, BAR, 130, 0);			/* the handler runs */
	ev(PTS_BR_SYSCALL, BAR + 9, 0, 140, PTS_BRF_TRACE_OFF);	/* rt_sigreturn */
	ev(PTS_BR_ENABLED, 0, FOO + 4, 150, PTS_BRF_RESUMED);	/* back where it was */
	ev(PTS_BR_RETURN, FOO + 8, MAIN + 10, 160, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|B2 [interrupted]|E2 [interrupted]|B2 bar|B3 [syscall]|"
		"E3 [syscall]|E2 bar|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 0)->ts_ns, 150);
	done();
}

/* One branch event with the length of the instruction at from (returns match saved addresses). */
#define evl tl_fx_br

/*
 * An asynchronous signal (user scope): foo is interrupted at foo+4, the
 * handler bar runs nested there, calls baz, and returns to the restorer
 * its delivery pushed (__restore_rt: no call saved that address);
 * rt_sigreturn resumes foo+4. By hand: bar's ret ends bar and the
 * restorer runs in its place; tracing resuming at foo+4 ends it; foo and
 * main go on unchanged: one main, nothing inferred.
 */
static void handler_return_to_the_restorer_keeps_the_interrupted_stack(void)
{
	start(PTS_SCOPE_USER, 0);
	evl(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	evl(PTS_BR_CALL, MAIN + 5, 5, FOO, 110, 0);
	evl(PTS_BR_DISABLED, FOO + 4, 0, 0, 120, PTS_BRF_ASYNC);
	evl(PTS_BR_ENABLED, 0, 0, BAR, 130, 0);
	evl(PTS_BR_CALL, BAR + 5, 5, BAZ, 135, 0);
	evl(PTS_BR_RETURN, BAZ + 3, 0, BAR + 10, 138, 0);
	evl(PTS_BR_RETURN, BAR + 20, 0, RESTORER, 140, 0);
	evl(PTS_BR_SYSCALL, RESTORER + 7, 2, 0, 145, PTS_BRF_TRACE_OFF);
	evl(PTS_BR_ENABLED, 0, 0, FOO + 4, 150, 0);
	evl(PTS_BR_RETURN, FOO + 8, 0, MAIN + 10, 160, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|B2 [interrupted]|E2 [interrupted]|B2 bar|B3 baz|E3 baz|E2 bar|"
		"B2 __restore_rt|B3 [syscall]|E3 [syscall]|E2 __restore_rt|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "__restore_rt", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "__restore_rt", 0)->ts_ns, 150);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->ts_ns, 160);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 0);
	done();
}

/*
 * Signals raised synchronously, nested: foo (raise) makes the kill
 * syscall at foo+8; the signal's handler bar runs under foo (delivered on
 * the way out of the syscall, which would have returned to foo+10), calls
 * foo again, whose syscall delivers a second signal: baz nests under the
 * inner foo, for the same resume point foo+10. Each handler returns to
 * the restorer, whose rt_sigreturn resumes foo+10: the innermost
 * delivery's frames end first. By hand, every frame ends by its own
 * return or sigreturn; one main.
 */
static void nested_synchronous_signals_end_innermost_first_at_each_sigreturn(void)
{
	start(PTS_SCOPE_USER, 0);
	evl(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	evl(PTS_BR_CALL, MAIN + 5, 5, FOO, 110, 0);
	evl(PTS_BR_SYSCALL, FOO + 8, 2, 0, 120, PTS_BRF_TRACE_OFF);
	evl(PTS_BR_ENABLED, 0, 0, BAR, 130, 0);			/* handler 1 */
	evl(PTS_BR_CALL, BAR + 5, 5, FOO, 140, 0);
	evl(PTS_BR_SYSCALL, FOO + 8, 2, 0, 150, PTS_BRF_TRACE_OFF);
	evl(PTS_BR_ENABLED, 0, 0, BAZ, 160, 0);			/* handler 2 */
	evl(PTS_BR_RETURN, BAZ + 4, 0, RESTORER, 170, 0);
	evl(PTS_BR_SYSCALL, RESTORER + 7, 2, 0, 180, PTS_BRF_TRACE_OFF);
	evl(PTS_BR_ENABLED, 0, 0, FOO + 10, 190, 0);		/* back in the inner foo */
	evl(PTS_BR_RETURN, FOO + 12, 0, BAR + 10, 200, 0);
	evl(PTS_BR_RETURN, BAR + 20, 0, RESTORER, 210, 0);
	evl(PTS_BR_SYSCALL, RESTORER + 7, 2, 0, 220, PTS_BRF_TRACE_OFF);
	evl(PTS_BR_ENABLED, 0, 0, FOO + 10, 230, 0);		/* back in the outer foo */
	evl(PTS_BR_RETURN, FOO + 12, 0, MAIN + 10, 240, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|B2 [syscall]|E2 [syscall]|B2 bar|B3 foo|B4 [syscall]|"
		"E4 [syscall]|B4 baz|E4 baz|B4 __restore_rt|B5 [syscall]|E5 [syscall]|"
		"E4 __restore_rt|E3 foo|E2 bar|B2 __restore_rt|B3 [syscall]|E3 [syscall]|"
		"E2 __restore_rt|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->ts_ns, 200);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 1)->ts_ns, 240);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 1)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 0);
	done();
}

/*
 * A timer signal arriving inside its own handler (SA_NODEFER): bar, the
 * handler, is interrupted at bar+6 and bar runs again, nested on itself
 * (a handler is entered at its first byte: not a resume in the
 * interrupted function). Each returns to the restorer; each sigreturn
 * ends the innermost.
 */
static void signal_inside_its_own_handler_nests_the_handler_again(void)
{
	start(PTS_SCOPE_USER, 0);
	evl(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	evl(PTS_BR_DISABLED, MAIN + 4, 0, 0, 110, PTS_BRF_ASYNC);
	evl(PTS_BR_ENABLED, 0, 0, BAR, 120, 0);
	evl(PTS_BR_DISABLED, BAR + 6, 0, 0, 130, PTS_BRF_ASYNC);
	evl(PTS_BR_ENABLED, 0, 0, BAR, 140, 0);
	evl(PTS_BR_RETURN, BAR + 20, 0, RESTORER, 150, 0);
	evl(PTS_BR_SYSCALL, RESTORER + 7, 2, 0, 160, PTS_BRF_TRACE_OFF);
	evl(PTS_BR_ENABLED, 0, 0, BAR + 6, 170, 0);
	evl(PTS_BR_RETURN, BAR + 20, 0, RESTORER, 180, 0);
	evl(PTS_BR_SYSCALL, RESTORER + 7, 2, 0, 190, PTS_BRF_TRACE_OFF);
	evl(PTS_BR_ENABLED, 0, 0, MAIN + 4, 200, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 [interrupted]|E1 [interrupted]|B1 bar|B2 [interrupted]|"
		"E2 [interrupted]|B2 bar|E2 bar|B2 __restore_rt|B3 [syscall]|E3 [syscall]|"
		"E2 __restore_rt|E1 bar|B1 __restore_rt|B2 [syscall]|E2 [syscall]|"
		"E1 __restore_rt|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 0)->ts_ns, 150);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 1)->ts_ns, 180);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 0);
	done();
}

/*
 * A handler making the very syscall its signal interrupted (both go
 * through foo's syscall at foo+8): that syscall's own return to foo+10
 * is not the sigreturn. By hand: the inner foo returns into bar, bar
 * returns to the restorer, and only the rt_sigreturn back to foo+10 ends
 * the restorer.
 */
static void syscall_return_inside_a_handler_to_its_resume_point_is_not_a_sigreturn(void)
{
	start(PTS_SCOPE_USER, 0);
	evl(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	evl(PTS_BR_CALL, MAIN + 5, 5, FOO, 110, 0);
	evl(PTS_BR_SYSCALL, FOO + 8, 2, 0, 120, PTS_BRF_TRACE_OFF);
	evl(PTS_BR_ENABLED, 0, 0, BAR, 130, 0);
	evl(PTS_BR_CALL, BAR + 5, 5, FOO, 140, 0);
	evl(PTS_BR_SYSCALL, FOO + 8, 2, 0, 150, PTS_BRF_TRACE_OFF);
	evl(PTS_BR_ENABLED, 0, 0, FOO + 10, 160, 0);		/* the syscall returns */
	evl(PTS_BR_RETURN, FOO + 12, 0, BAR + 10, 170, 0);
	evl(PTS_BR_RETURN, BAR + 20, 0, RESTORER, 180, 0);
	evl(PTS_BR_SYSCALL, RESTORER + 7, 2, 0, 190, PTS_BRF_TRACE_OFF);
	evl(PTS_BR_ENABLED, 0, 0, FOO + 10, 200, 0);		/* rt_sigreturn */
	evl(PTS_BR_RETURN, FOO + 12, 0, MAIN + 10, 210, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|B2 [syscall]|E2 [syscall]|B2 bar|B3 foo|B4 [syscall]|"
		"E4 [syscall]|E3 foo|E2 bar|B2 __restore_rt|B3 [syscall]|E3 [syscall]|"
		"E2 __restore_rt|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "bar", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 0);
	done();
}

/*
 * A handler that leaves by siglongjmp: bar calls baz (siglongjmp), whose
 * jump lands in the middle of main (the sigsetjmp point): bar, baz and
 * the interrupted foo are unwound; main calls foo again.
 */
static void handler_leaving_by_longjmp_unwinds_to_the_setjmp_frame(void)
{
	start(PTS_SCOPE_USER, 0);
	evl(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	evl(PTS_BR_CALL, MAIN + 5, 5, FOO, 110, 0);
	evl(PTS_BR_DISABLED, FOO + 4, 0, 0, 120, PTS_BRF_ASYNC);
	evl(PTS_BR_ENABLED, 0, 0, BAR, 130, 0);
	evl(PTS_BR_CALL, BAR + 5, 5, BAZ, 140, 0);
	evl(PTS_BR_JUMP, BAZ + 9, 0, MAIN + 30, 150, 0);
	evl(PTS_BR_CALL, MAIN + 35, 5, FOO, 160, 0);
	evl(PTS_BR_RETURN, FOO + 8, 0, MAIN + 40, 170, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|B2 [interrupted]|E2 [interrupted]|B2 bar|B3 baz|E3 baz|E2 bar|"
		"E1 foo|B1 foo|E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 0);
	done();
}

/*
 * Scope both: the kernel delivers a signal on its way back from an
 * interrupt of foo+4: the iret goes to the handler bar, which nests on
 * foo; bar returns to the restorer, whose rt_sigreturn (a traced syscall)
 * returns to foo+4 (what the interrupt's entry saved): the restorer ends
 * there and foo goes on.
 */
static void both_scopes_handler_delivered_at_an_iret_ends_at_the_sigreturn(void)
{
	start(PTS_SCOPE_BOTH, 0);
	evl(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	evl(PTS_BR_CALL, MAIN + 5, 5, FOO, 110, 0);
	evl(PTS_BR_INTERRUPT, FOO + 4, 0, IRQ, 120, 0);
	evl(PTS_BR_IRET, IRQ + 0x40, 0, BAR, 130, 0);
	evl(PTS_BR_RETURN, BAR + 20, 0, RESTORER, 140, 0);
	evl(PTS_BR_SYSCALL, RESTORER + 7, 2, ENTRY, 150, 0);
	evl(PTS_BR_SYSRET, ENTRY + 0x40, 0, FOO + 4, 160, 0);
	evl(PTS_BR_RETURN, FOO + 8, 0, MAIN + 10, 170, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|B2 asm_common_interrupt|E2 asm_common_interrupt|B2 bar|E2 bar|"
		"B2 __restore_rt|B3 entry_SYSCALL_64|E3 entry_SYSCALL_64|E2 __restore_rt|"
		"E1 foo|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 0);
	done();
}

static void full_buffer_writes_only_records_before_the_outermost_frame(void)
{
	start(PTS_SCOPE_KERNEL, 6);	/* hold at most 6 records */
	ev(PTS_BR_ENABLED, 0, ENTRY, 100, 0);			/* 0 B entry */
	ev(PTS_BR_SYSRET, ENTRY + 20, 0, 110, PTS_BRF_TRACE_OFF);	/* 1 E entry, 2 B [user] */
	ev(PTS_BR_ENABLED, 0, DOSYS, 120, 0);			/* 3 E [user], 4 B do_syscall_64 */
	ev(PTS_BR_CALL, DOSYS + 5, EXCPGF, 130, 0);		/* 5 B exc_page_fault: full */
	/* full: records 0-3 are written, do_syscall_64's BEGIN stays held */
	ev(PTS_BR_RETURN, EXCPGF + 9, DOSYS + 10, 140, 0);
	ev(PTS_BR_RETURN, DOSYS + 20, ENTRY + 10, 150, 0);	/* past the known stack */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 entry_SYSCALL_64|E0 entry_SYSCALL_64|B0 [user]|E0 [user]|B0 entry_SYSCALL_64|"
		"B1 do_syscall_64|B2 exc_page_fault|E2 exc_page_fault|E1 do_syscall_64|"
		"E0 entry_SYSCALL_64");
	CU_ASSERT(rec(PTS_TL_BEGIN, "entry_SYSCALL_64", 1)->flags & PTS_TLF_INFERRED);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "entry_SYSCALL_64", 1)->ts_ns, 120);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED_LATE), 0);
	done();
}

static void exec_ends_the_old_program_frames_and_the_new_one_starts_empty(void)
{
	start(PTS_SCOPE_USER, 0);
	ev(PTS_BR_EXEC, 0, 0, 50, 0);			/* before any frame: nothing to show */
	ev(PTS_BR_ENABLED, 0, MAIN, 100, 0);
	ev(PTS_BR_CALL, MAIN + 5, FOO, 110, 0);
	ev(PTS_BR_SYSCALL, FOO + 8, 0, 120, PTS_BRF_TRACE_OFF);	/* execve */
	ev(PTS_BR_EXEC, 0, 0, 130, 0);
	ev(PTS_BR_ENABLED, 0, BAR, 140, 0);		/* the new program's entry */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 foo|B2 [syscall]|E2 [syscall]|E1 foo|E0 main|I exec|B0 bar|E0 bar");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "main", 0)->kind, PTS_TLK_TRACE_END);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "main", 0)->ts_ns, 130);
	done();
}

PTS_SUITE(timeline_stack, NULL, NULL,
	  PTS_TEST(calls_and_returns_give_one_nested_slice_per_function),
	  PTS_TEST(tail_jump_to_another_function_replaces_the_top_frame),
	  PTS_TEST(longjmp_return_to_a_deeper_frame_unwinds_the_frames_between),
	  PTS_TEST(tail_jump_to_a_function_open_lower_in_the_stack_replaces_the_top_frame),
	  PTS_TEST(tail_jump_under_a_nested_interrupt_keeps_the_interrupted_stack),
	  PTS_TEST(jump_into_the_middle_of_a_deeper_frames_function_unwinds),
	  PTS_TEST(unwind_resume_goes_on_to_an_older_frame_of_the_same_function),
	  PTS_TEST(return_past_the_known_stack_infers_an_outer_frame_from_the_segment_start),
	  PTS_TEST(inferred_frame_whose_segment_was_already_written_begins_at_the_return),
	  PTS_TEST(gap_ends_open_frames_leaves_an_instant_and_splices_nothing),
	  PTS_TEST(user_scope_syscall_shows_a_synthetic_syscall_slice),
	  PTS_TEST(user_scope_asynchronous_disable_shows_an_interrupted_slice),
	  PTS_TEST(user_scope_other_disable_shows_an_untraced_slice_and_a_second_disable_is_counted),
	  PTS_TEST(syscall_events_in_user_scope_with_kernel_targets_are_counted_not_fatal),
	  PTS_TEST(kernel_scope_time_in_user_space_is_a_user_slice),
	  PTS_TEST(both_scopes_syscall_nests_kernel_frames_under_the_user_frame_and_sysret_restores_it),
	  PTS_TEST(both_scopes_nested_interrupts_nest_and_iret_returns_to_each_interrupted_frame),
	  PTS_TEST(kernel_entry_after_a_gap_nests_under_the_user_frame_the_iret_returns_to),
	  PTS_TEST(time_going_backwards_on_a_thread_is_clamped_and_counted),
	  PTS_TEST(calls_deeper_than_max_depth_are_counted_and_slices_stay_balanced),
	  PTS_TEST(max_depth_between_stack_capacities_shows_that_many_frames),
	  PTS_TEST(user_scope_signal_handler_nests_on_the_interrupted_frame),
	  PTS_TEST(handler_return_to_the_restorer_keeps_the_interrupted_stack),
	  PTS_TEST(nested_synchronous_signals_end_innermost_first_at_each_sigreturn),
	  PTS_TEST(signal_inside_its_own_handler_nests_the_handler_again),
	  PTS_TEST(syscall_return_inside_a_handler_to_its_resume_point_is_not_a_sigreturn),
	  PTS_TEST(handler_leaving_by_longjmp_unwinds_to_the_setjmp_frame),
	  PTS_TEST(both_scopes_handler_delivered_at_an_iret_ends_at_the_sigreturn),
	  PTS_TEST(full_buffer_writes_only_records_before_the_outermost_frame),
	  PTS_TEST(exec_ends_the_old_program_frames_and_the_new_one_starts_empty));
