// SPDX-License-Identifier: GPL-2.0
/*
 * Timeline builder, kernel-only scope: a kernel entry from user mode (TIP.PGE
 * at the first byte of an entry point, or at an external-interrupt vector
 * stub) is the outermost kernel frame of its stretch, so a later return past
 * the known stack opens its inferred frame at the return instead of
 * enclosing the entry; tracing that resumes mid-function is still enclosed.
 * Each test feeds hand-written branch events for a made-up kernel (functions
 * 0x100 bytes each, K = 0xffffffff81000000) and states the records by hand
 * (tl_sink.h rendering):
 *
 *   entry_SYSCALL_64 K+0x000  do_syscall_64 K+0x100  ksys_write K+0x200
 *   handle_softirqs K+0x300  asm_exc_page_fault K+0x400  exc_page_fault K+0x500
 *   __irqentry_text_start K+0x600 (external-interrupt vector stubs, 8 bytes each)
 *   asm_common_interrupt K+0x700  common_interrupt K+0x800
 *   _raw_spin_unlock_irqrestore K+0x900  __switch_to_asm K+0xa00
 *   __switch_to K+0xb00  __schedule K+0xc00
 */
#include "unit.h"
#include "tl_feed.h"

#define K 0xffffffff81000000ULL
#define ENTRY (K + 0x000)
#define DOSYS (K + 0x100)
#define KSYS_WRITE (K + 0x200)
#define SOFTIRQ (K + 0x300)
#define PGF (K + 0x400)
#define EXCPGF (K + 0x500)
#define IRQSTUBS (K + 0x600)
#define ASM_CI (K + 0x700)
#define CI (K + 0x800)
#define UNLOCK (K + 0x900)
#define SWITCH_ASM (K + 0xa00)
#define SWITCH_TO (K + 0xb00)
#define SCHED (K + 0xc00)

static const struct tl_fn fns[] = {
	{ "entry_SYSCALL_64", ENTRY }, { "do_syscall_64", DOSYS },
	{ "ksys_write", KSYS_WRITE }, { "handle_softirqs", SOFTIRQ },
	{ "asm_exc_page_fault", PGF }, { "exc_page_fault", EXCPGF },
	{ "__irqentry_text_start", IRQSTUBS }, { "asm_common_interrupt", ASM_CI },
	{ "common_interrupt", CI }, { "_raw_spin_unlock_irqrestore", UNLOCK },
	{ "__switch_to_asm", SWITCH_ASM }, { "__switch_to", SWITCH_TO },
	{ "__schedule", SCHED },
};

static void start(void)
{
	tl_fx_start_fns(PTS_SCOPE_KERNEL, TL_FNS(fns), 8, 0);
}

/* One branch event; len: bytes of the instruction at from (0 unknown). */
#define ev tl_fx_br
#define finish tl_fx_finish
#define done tl_fx_done
#define rec tl_fx_rec

static void return_past_a_syscall_entry_from_user_mode_opens_the_inferred_frame_at_the_return(void)
{
	start();
	/*
	 * A sysret to user space (tracing off): the stretch before it is only
	 * this one frame (ensure_at of the sysret's IP), then [user].
	 */
	ev(PTS_BR_SYSRET, ENTRY + 0x20, 3, 0, 100, PTS_BRF_TRACE_OFF);
	/* TIP.PGE at entry_SYSCALL_64+0: the next syscall, from user mode */
	ev(PTS_BR_ENABLED, 0, 0, ENTRY, 200, 0);
	ev(PTS_BR_CALL, ENTRY + 0x10, 0, DOSYS, 210, 0);
	ev(PTS_BR_CALL, DOSYS + 0x08, 0, KSYS_WRITE, 220, 0);
	/*
	 * A return into handle_softirqs, which no open frame is in and no
	 * frame's caller is (return addresses unknown: matched by function):
	 * past the known stack. By hand: ksys_write ends (return), do_syscall_64
	 * and entry_SYSCALL_64 are unwound at 230, and handle_softirqs opens,
	 * inferred, at 230 at depth 0: the entry began the kernel stretch and
	 * nothing in the kernel ran below it, so it is not enclosed (before
	 * the rule, handle_softirqs began at 200 with the entry at depth 1).
	 */
	ev(PTS_BR_RETURN, KSYS_WRITE + 0x30, 0, SOFTIRQ + 0x40, 230, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 entry_SYSCALL_64|E0 entry_SYSCALL_64|B0 [user]|E0 [user]|"
		"B0 entry_SYSCALL_64|B1 do_syscall_64|B2 ksys_write|E2 ksys_write|"
		"E1 do_syscall_64|E0 entry_SYSCALL_64|B0 handle_softirqs|E0 handle_softirqs");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "entry_SYSCALL_64", 1)->ts_ns, 200);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "entry_SYSCALL_64", 1)->kind, PTS_TLK_TRACE_BEGIN);
	CU_ASSERT_FALSE(rec(PTS_TL_BEGIN, "entry_SYSCALL_64", 1)->flags & PTS_TLF_INFERRED);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "entry_SYSCALL_64", 1)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "entry_SYSCALL_64", 1)->ts_ns, 230);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "handle_softirqs", 0)->ts_ns, 230);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "handle_softirqs", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "handle_softirqs", 0)->flags,
			PTS_TLF_INFERRED | PTS_TLF_KERNEL);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "handle_softirqs", 0)->addr, SOFTIRQ + 0x40);
	/* one return past the known stack, opened at the return */
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 1);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED_LATE), 1);
	done();
}

static void vector_stub_entry_replaced_by_a_jump_is_not_enclosed_by_an_iret_past_it(void)
{
	start();
	/*
	 * The trace starts in user mode: its first event is TIP.PGE at the
	 * sixth external-interrupt vector stub (+0x28, kallsyms' name for
	 * irq_entries_start), which pushes the vector and jumps to
	 * asm_common_interrupt: the jump replaces the entry frame (the
	 * stretch's outermost frame all the same).
	 */
	ev(PTS_BR_ENABLED, 0, 0, IRQSTUBS + 0x28, 100, 0);
	ev(PTS_BR_JUMP, IRQSTUBS + 0x2a, 0, ASM_CI, 110, 0);
	ev(PTS_BR_CALL, ASM_CI + 0x10, 5, CI, 120, 0);		/* saves ASM_CI + 0x15 */
	ev(PTS_BR_RETURN, CI + 0x30, 0, ASM_CI + 0x15, 130, 0);
	/*
	 * An iret to kernel code in no open frame (the interrupt came from
	 * user mode: inconsistent). By hand: asm_common_interrupt ends (iret)
	 * at 140 and _raw_spin_unlock_irqrestore opens, inferred, at 140 at
	 * depth 0 (before the rule: at 100, enclosing the stub at depth 1).
	 */
	ev(PTS_BR_IRET, ASM_CI + 0x50, 2, UNLOCK + 0x19, 140, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 __irqentry_text_start|E0 __irqentry_text_start|B0 asm_common_interrupt|"
		"B1 common_interrupt|E1 common_interrupt|E0 asm_common_interrupt|"
		"B0 _raw_spin_unlock_irqrestore|E0 _raw_spin_unlock_irqrestore");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "asm_common_interrupt", 0)->kind, PTS_TLK_IRET);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "_raw_spin_unlock_irqrestore", 0)->ts_ns, 140);
	CU_ASSERT(rec(PTS_TL_BEGIN, "_raw_spin_unlock_irqrestore", 0)->flags & PTS_TLF_INFERRED);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 1);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED_LATE), 1);
	done();
}

static void task_resumed_mid_function_after_user_is_still_enclosed(void)
{
	start();
	/*
	 * The task is switched out in __switch_to_asm (FUP + TIP.PGD): the
	 * frame the disable's IP gives ends, then [user] (kernel scope shows
	 * every untraced time so).
	 */
	ev(PTS_BR_DISABLED, SWITCH_ASM + 0x20, 0, 0, 100, 0);
	/* switched back in: tracing resumes mid-function, not at an entry */
	ev(PTS_BR_ENABLED, 0, 0, SWITCH_ASM + 0x24, 200, 0);
	ev(PTS_BR_JUMP, SWITCH_ASM + 0x40, 0, SWITCH_TO, 210, 0);
	/*
	 * __switch_to returns into __schedule: past the known stack. By hand:
	 * __switch_to ends (return) at 220; __schedule was running below what
	 * was seen since the resume, so it begins, inferred, at 200, where the
	 * resumed __switch_to_asm (replaced by __switch_to) began, and both
	 * move to depth 1.
	 */
	ev(PTS_BR_RETURN, SWITCH_TO + 0x80, 0, SCHED + 0x30, 220, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 __switch_to_asm|E0 __switch_to_asm|B0 [user]|E0 [user]|B0 __schedule|"
		"B1 __switch_to_asm|E1 __switch_to_asm|B1 __switch_to|E1 __switch_to|E0 __schedule");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "__schedule", 0)->ts_ns, 200);
	CU_ASSERT(rec(PTS_TL_BEGIN, "__schedule", 0)->flags & PTS_TLF_INFERRED);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 1);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED_LATE), 0);
	done();
}

static void entry_stub_past_its_first_byte_or_a_resume_at_it_is_still_enclosed(void)
{
	start();
	/* the trace starts inside asm_exc_page_fault (+0x10): not its first byte */
	ev(PTS_BR_ENABLED, 0, 0, PGF + 0x10, 100, 0);
	ev(PTS_BR_CALL, PGF + 0x20, 0, EXCPGF, 110, 0);
	/* by hand: past the known stack; handle_softirqs encloses both from 100 */
	ev(PTS_BR_RETURN, EXCPGF + 0x30, 0, SOFTIRQ + 0x40, 120, 0);
	ev(PTS_BR_IRET, SOFTIRQ + 0x50, 2, 0, 130, PTS_BRF_TRACE_OFF);
	/*
	 * Tracing resumes (libipt: at the IP where it stopped) at
	 * entry_SYSCALL_64+0: a resume, not an entry; by hand handle_softirqs
	 * encloses the stretch from 200.
	 */
	ev(PTS_BR_ENABLED, 0, 0, ENTRY, 200, PTS_BRF_RESUMED);
	ev(PTS_BR_CALL, ENTRY + 0x10, 0, DOSYS, 210, 0);
	ev(PTS_BR_RETURN, DOSYS + 0x30, 0, SOFTIRQ + 0x40, 220, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 handle_softirqs|B1 asm_exc_page_fault|B2 exc_page_fault|E2 exc_page_fault|"
		"E1 asm_exc_page_fault|E0 handle_softirqs|B0 [user]|E0 [user]|"
		"B0 handle_softirqs|B1 entry_SYSCALL_64|B2 do_syscall_64|E2 do_syscall_64|"
		"E1 entry_SYSCALL_64|E0 handle_softirqs");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "handle_softirqs", 0)->ts_ns, 100);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "handle_softirqs", 1)->ts_ns, 200);
	CU_ASSERT(rec(PTS_TL_BEGIN, "handle_softirqs", 1)->flags & PTS_TLF_INFERRED);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 2);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED_LATE), 0);
	done();
}

PTS_SUITE(timeline_kentry, NULL, NULL,
	  PTS_TEST(return_past_a_syscall_entry_from_user_mode_opens_the_inferred_frame_at_the_return),
	  PTS_TEST(vector_stub_entry_replaced_by_a_jump_is_not_enclosed_by_an_iret_past_it),
	  PTS_TEST(task_resumed_mid_function_after_user_is_still_enclosed),
	  PTS_TEST(entry_stub_past_its_first_byte_or_a_resume_at_it_is_still_enclosed));
