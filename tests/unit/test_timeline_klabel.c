// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall and page-fault labels (userland/lib/timeline/klabel.h): the
 * matching rule on hand-made records (thread, order, time, IP), the label
 * text (the x86-64 syscall table, errno names, the #PF error code's bits
 * per SDM vol. 3A 4.7), and the timeline builder naming its untraced
 * stretches with them. Every expected label is written out by hand.
 */
#include "unit.h"
#include "tl_feed.h"

#include <errno.h>

#include "timeline/klabel.h"
#include "util/sysnames.h"

#define MAIN	0x401000ULL

/* main 0x401000..0x401100, the rest unknown */
static const struct tl_fn fns[] = { { "main", MAIN } };

#define ev tl_fx_br

/* The table comes from the system's headers: the x86-64 numbers are ABI. */
static void syscall_table_names_x86_64_numbers(void)
{
	CU_ASSERT_STRING_EQUAL(pts_syscall_name(0), "read");
	CU_ASSERT_STRING_EQUAL(pts_syscall_name(1), "write");
	CU_ASSERT_STRING_EQUAL(pts_syscall_name(39), "getpid");
	CU_ASSERT_STRING_EQUAL(pts_syscall_name(60), "exit");
	CU_ASSERT_STRING_EQUAL(pts_syscall_name(231), "exit_group");
	CU_ASSERT_STRING_EQUAL(pts_syscall_name(257), "openat");
	CU_ASSERT_PTR_NULL(pts_syscall_name(-1));
	CU_ASSERT_PTR_NULL(pts_syscall_name(100000));
	CU_ASSERT(pts_syscall_names_count() >= 300);
}

static struct pts_kl_rec sc(int64_t nr, bool has_exit, int64_t ret)
{
	struct pts_kl_rec r = { .kind = PTS_KL_SYSCALL, .nr = nr, .has_exit = has_exit,
				.ret = ret };
	return r;
}

static struct pts_kl_rec pf(uint64_t addr, uint64_t ec)
{
	struct pts_kl_rec r = { .kind = PTS_KL_FAULT, .addr = addr, .error_code = ec };
	return r;
}

static void labels_say_name_return_and_fault_bits(void)
{
	struct pts_kl_rec r;
	char b[128];

	r = sc(1, true, 4096);
	CU_ASSERT_STRING_EQUAL(pts_kl_label(&r, true, b, sizeof(b)), "[syscall write \u2192 4096]");
	CU_ASSERT_STRING_EQUAL(pts_kl_label(&r, false, b, sizeof(b)), "syscall write \u2192 4096");
	r = sc(257, true, -ENOENT);
	CU_ASSERT_STRING_EQUAL(pts_kl_label(&r, true, b, sizeof(b)),
			       "[syscall openat \u2192 -ENOENT]");
	r = sc(9, true, 0x7f3a12345000LL);	/* mmap: an address */
	CU_ASSERT_STRING_EQUAL(pts_kl_label(&r, true, b, sizeof(b)),
			       "[syscall mmap \u2192 0x7f3a12345000]");
	r = sc(231, false, 0);
	CU_ASSERT_STRING_EQUAL(pts_kl_label(&r, true, b, sizeof(b)), "[syscall exit_group]");
	r = sc(100000, true, 0);
	CU_ASSERT_STRING_EQUAL(pts_kl_label(&r, true, b, sizeof(b)), "[syscall 100000 \u2192 0]");
	/* error code 6: not present, write, user (SDM vol. 3A 4.7) */
	r = pf(0x7f3a12345678ULL, 0x6);
	CU_ASSERT_STRING_EQUAL(pts_kl_label(&r, true, b, sizeof(b)),
			       "[page fault 0x7f3a12345678 write]");
	r = pf(0x1000, 0x4);	/* read of a missing page */
	CU_ASSERT_STRING_EQUAL(pts_kl_label(&r, true, b, sizeof(b)), "[page fault 0x1000 read]");
	r = pf(0x401000, 0x15);	/* instruction fetch, present (NX), user */
	CU_ASSERT_STRING_EQUAL(pts_kl_label(&r, true, b, sizeof(b)),
			       "[page fault 0x401000 fetch present]");
	r = pf(0x2000, 0x27);	/* present, write, user, protection key */
	CU_ASSERT_STRING_EQUAL(pts_kl_label(&r, true, b, sizeof(b)),
			       "[page fault 0x2000 write present pkey]");
	r = pf(0x3000, 0x2);	/* kernel mode (no U/S) */
	CU_ASSERT_STRING_EQUAL(pts_kl_label(&r, true, b, sizeof(b)),
			       "[page fault 0x3000 write kernel]");
}

/*
 * Per thread, in order: a stretch takes its thread's first record of its
 * kind stamped at or after it, if the IPs agree; other threads' records,
 * earlier records and records of the other kind are never taken for it.
 */
static void match_takes_the_threads_next_record_with_the_same_ip(void)
{
	struct pts_klabels *kl = pts_kl_new();
	const struct pts_kl_rec *r;
	struct pts_kl_stats st;

	CU_ASSERT_PTR_NOT_NULL_FATAL(kl);
	/* added out of order, as merged sidebands of two threads come */
	CU_ASSERT_EQUAL(pts_kl_add_exit(kl, 1, 2, 1300, 0, 17, 0x500), 0);
	CU_ASSERT_EQUAL(pts_kl_add_enter(kl, 1, 2, 1200, 0, 0x500), 0);
	CU_ASSERT_EQUAL(pts_kl_add_enter(kl, 1, 3, 1250, 1, 0x500), 0);	/* thread 3 */
	CU_ASSERT_EQUAL(pts_kl_add_fault(kl, 1, 2, 1400, 0xdead000, 6, 0x600), 0);
	CU_ASSERT_EQUAL(pts_kl_add_enter(kl, 1, 2, 900, 1, 0x500), 0);	/* before the stretch */
	CU_ASSERT_EQUAL(pts_kl_prepare(kl, 1000), 0);	/* timeline 0 = 1000 ns */
	/* a stretch of thread 2 at timeline 100 (1100 ns) returning to 0x500 */
	CU_ASSERT_PTR_NULL(pts_kl_match(kl, PTS_KL_SYSCALL, 2, 100, 0x502));	/* other IP */
	r = pts_kl_match(kl, PTS_KL_SYSCALL, 2, 100, 0x500);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->nr, 0);
	CU_ASSERT_EQUAL(r->ret, 17);
	CU_ASSERT_TRUE(r->has_exit);
	/* taken once only; thread 3's record is not thread 2's */
	CU_ASSERT_PTR_NULL(pts_kl_match(kl, PTS_KL_SYSCALL, 2, 100, 0x500));
	/* a fault stretch after the record: not taken (stamped before it) */
	CU_ASSERT_PTR_NULL(pts_kl_match(kl, PTS_KL_FAULT, 2, 450, 0x600));
	r = pts_kl_match(kl, PTS_KL_FAULT, 2, 350, 0x600);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->addr, 0xdead000);
	pts_kl_stats(kl, NULL, NULL, &st);
	CU_ASSERT_EQUAL(st.records, 4);
	CU_ASSERT_EQUAL(st.matched, 2);
	CU_ASSERT_EQUAL(st.outside, 2);	/* no thread span given: not traced */
	pts_kl_free(kl);
}

/*
 * The builder names "[syscall]" and "[interrupted]" stretches of user
 * scope with the records that fit, and leaves the others (a timer
 * interrupt: no fault record at its IP) as they were.
 */
static void builder_names_syscall_and_fault_stretches(void)
{
	struct pts_klabels *kl = pts_kl_new();

	CU_ASSERT_PTR_NOT_NULL_FATAL(kl);
	/* write (1) at MAIN+8 returning 4096; a fault at MAIN+0x20; origin 0 */
	CU_ASSERT_EQUAL(pts_kl_add_enter(kl, 10, 11, 160, 1, MAIN + 0xa), 0);
	CU_ASSERT_EQUAL(pts_kl_add_exit(kl, 10, 11, 190, 1, 4096, MAIN + 0xa), 0);
	CU_ASSERT_EQUAL(pts_kl_add_fault(kl, 10, 11, 320, 0x7f3a00001000ULL, 6, MAIN + 0x20), 0);
	CU_ASSERT_EQUAL(pts_kl_prepare(kl, 0), 0);
	tl_fx.labels = kl;
	tl_fx_start_fns(PTS_SCOPE_USER, TL_FNS(fns), 0, 0);
	tl_fx.labels = NULL;
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	ev(PTS_BR_SYSCALL, MAIN + 8, 2, 0, 150, PTS_BRF_TRACE_OFF);
	ev(PTS_BR_ENABLED, 0, 0, MAIN + 0xa, 200, PTS_BRF_RESUMED);
	ev(PTS_BR_DISABLED, MAIN + 0x10, 0, 0, 250, PTS_BRF_ASYNC);	/* a timer */
	ev(PTS_BR_ENABLED, 0, 0, MAIN + 0x10, 280, PTS_BRF_RESUMED);
	ev(PTS_BR_DISABLED, MAIN + 0x20, 0, 0, 300, PTS_BRF_ASYNC);	/* the fault */
	ev(PTS_BR_ENABLED, 0, 0, MAIN + 0x20, 400, PTS_BRF_RESUMED);
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(),
		"B0 main|B1 [syscall write \u2192 4096]|E1 [syscall write \u2192 4096]|"
		"B1 [interrupted]|E1 [interrupted]|"
		"B1 [page fault 0x7f3a00001000 write]|E1 [page fault 0x7f3a00001000 write]|E0 main");
	/* the labelled stretches still end as a syscall's and an exception's do */
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[syscall write \u2192 4096]", 0)->kind,
			PTS_TLK_SYSRET);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[page fault 0x7f3a00001000 write]", 0)->kind,
			PTS_TLK_IRET);
	tl_fx_done();
	pts_kl_free(kl);
}

PTS_SUITE(timeline_klabel, NULL, NULL,
	  PTS_TEST(syscall_table_names_x86_64_numbers),
	  PTS_TEST(labels_say_name_return_and_fault_bits),
	  PTS_TEST(match_takes_the_threads_next_record_with_the_same_ip),
	  PTS_TEST(builder_names_syscall_and_fault_stretches))
