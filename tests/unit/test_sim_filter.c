// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated PT unit's filtering and loss, judged by libipt: CR3
 * filtering and PIP (SDM vol. 3C 33.2.4.2, 33.4.2.7), IP filter ranges
 * with TIP.PGE/PGD at their boundaries and TraceStop (33.2.4.3,
 * 33.2.5.5, 33.4.2.10), and the overflow injection's OVF (33.4.2.16).
 * The expected instruction sequences are hand-derived from the code
 * image listing (docs/simulated-unit.md, "The code images").
 */
#include "unit.h"
#include "sim_harness.h"
#include "../../kmod/pure/pts_pure.h"

#define TSC0	0x1000000ULL
/* Two processes' kernel page-table roots (8 KiB aligned, as with KPTI). */
#define CR3_A	0x12344000ULL
#define CR3_B	0x0abcc000ULL
/* KPTI: the user root is the page after the kernel root. */
#define KPTI_USER(cr3)	((cr3) | (1ULL << PTS_CR3_PTI_USER_BIT))

static u64 want[4000];

static void set_ctx(struct simt *t, u64 kcr3, u64 ucr3, bool no_user)
{
	struct pts_sim_ctx x = { .kernel_cr3 = kcr3, .user_cr3 = ucr3, .no_user = no_user };

	pts_sim_set_ctx(&t->cpu, &x);
}

/* Configure CR3_MATCH and ADDRn (TraceEn clear), then arm with ctl. */
static void arm_filtered(struct simt *t, u64 ctl, u64 cr3_match, const u64 *addr,
			 unsigned int naddr)
{
	unsigned int i;

	simt_ring(t, 16, 0, 0);
	if (ctl & RTIT_CTL_CR3FILTER)
		CU_ASSERT_EQUAL_FATAL(pts_sim_wrmsr(&t->cpu, RTIT_MSR_CR3_MATCH, cr3_match, 0), 0);
	for (i = 0; i < naddr; i++)
		CU_ASSERT_EQUAL_FATAL(pts_sim_wrmsr(&t->cpu, RTIT_MSR_ADDR_A(0) + i, addr[i], 0), 0);
	CU_ASSERT_EQUAL_FATAL(simt_arm(t, ctl, TSC0), 0);
}

static u64 g_tsc = TSC0;

static void tick(struct simt *t)
{
	g_tsc += 1000;
	pts_sim_tick(&t->cpu, g_tsc);
}

struct pkt_counts {
	int pip, stop, ovf, psb;
	u64 pip_cr3[64];
};

/* libipt's packet decoder over buf: PIPs (with their CR3), TraceStop, OVF, PSB. */
static void count_packets(const u8 *buf, size_t len, struct pkt_counts *k)
{
	struct pt_packet_decoder *pd;
	struct pt_config cfg;
	struct pt_packet pkt;

	memset(k, 0, sizeof(*k));
	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	pd = pt_pkt_alloc_decoder(&cfg);
	CU_ASSERT_FATAL(pd != NULL);
	if (pt_pkt_sync_set(pd, 0) < 0)
		goto out;
	while (pt_pkt_next(pd, &pkt, sizeof(pkt)) > 0) {
		switch (pkt.type) {
		case ppt_pip:
			if (k->pip < 64)
				k->pip_cr3[k->pip] = pkt.payload.pip.cr3;
			k->pip++;
			break;
		case ppt_stop:
			k->stop++;
			break;
		case ppt_ovf:
			k->ovf++;
			break;
		case ppt_psb:
			k->psb++;
			break;
		default:
			break;
		}
	}
out:
	pt_pkt_free_decoder(pd);
}

/* One capture of the simulated unit, decoded by libipt, its packets counted. */
struct run {
	struct simt t;
	struct simt_decoded d;
	struct pkt_counts k;
	u8 *buf;
	size_t len;
};

/* The unit of a CPU running process A (no KPTI: one root), not armed yet. */
static void run_init(struct run *r)
{
	memset(r, 0, sizeof(*r));
	simt_init(&r->t);
	set_ctx(&r->t, CR3_A, CR3_A, false);
}

/* A tick in each process of cr3[] in turn (no KPTI: kernel and user root the same). */
static void ticks_in(struct run *r, const u64 *cr3, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		set_ctx(&r->t, cr3[i], cr3[i], false);
		tick(&r->t);
	}
}

static void ticks(struct run *r, unsigned int n)
{
	while (n--)
		tick(&r->t);
}

/* Stop, decode the whole ring (no wrap) and count its packets; libipt saw no error. */
static void run_stop(struct run *r)
{
	simt_stop(&r->t);
	r->buf = simt_linear(&r->t, false, &r->len);
	simt_decode(r->buf, r->len, &r->d);
	count_packets(r->buf, r->len, &r->k);
	CU_ASSERT_EQUAL(r->d.error, 0);
}

static void run_free(struct run *r)
{
	free(r->buf);
	simt_decoded_free(&r->d);
	simt_fini(&r->t);
}

/* Instructions decoded: exactly `rounds` rounds of the code image of scope, in order. */
static void expect_rounds(const struct run *r, const char *scope, size_t rounds)
{
	size_t n = simt_expect(scope, rounds, want);

	CU_ASSERT_EQUAL(r->d.n, n);
	CU_ASSERT(simt_matches_at(&r->d, want, n, 0));
}

/* As many instructions as `rounds` rounds (the order is not asserted). */
static void expect_count_of_rounds(const struct run *r, const char *scope, size_t rounds)
{
	CU_ASSERT_EQUAL(r->d.n, simt_expect(scope, rounds, want));
}

static void user_scope_cr3_filter_traces_only_ticks_in_the_matching_process(void)
{
	static const u64 order[] = { CR3_A, CR3_B, CR3_B, CR3_A, CR3_B, CR3_A, CR3_A };
	struct run r;

	run_init(&r);
	arm_filtered(&r.t, SIMT_CTL_USER | RTIT_CTL_CR3FILTER, CR3_A, NULL, 0);
	ticks_in(&r, order, sizeof(order) / sizeof(order[0]));
	run_stop(&r);
	/* 4 of the 7 ticks ran in process A: 4 rounds, nothing of B */
	expect_rounds(&r, "user", 4);
	CU_ASSERT_EQUAL(r.d.enabled, 4);
	CU_ASSERT_EQUAL(r.d.disabled, 4);
	/* User only: no PIP (it needs OS = 1) */
	CU_ASSERT_EQUAL(r.k.pip, 0);
	run_free(&r);
}

static void cr3_filter_with_kpti_matches_the_user_root_only(void)
{
	struct run r;

	run_init(&r);
	set_ctx(&r.t, CR3_A | 3, KPTI_USER(CR3_A) | 3, false);
	/* the module's plan for user scope under KPTI: the user root */
	arm_filtered(&r.t, SIMT_CTL_USER | RTIT_CTL_CR3FILTER, KPTI_USER(CR3_A), NULL, 0);
	ticks(&r, 2);
	set_ctx(&r.t, CR3_B | 4, KPTI_USER(CR3_B) | 4, false);
	tick(&r.t);
	run_stop(&r);
	expect_count_of_rounds(&r, "user", 2);
	run_free(&r);
}

static void cr3_filter_ticks_in_a_kernel_thread_trace_nothing(void)
{
	struct run r;

	run_init(&r);
	arm_filtered(&r.t, SIMT_CTL_USER | RTIT_CTL_CR3FILTER, CR3_A, NULL, 0);
	tick(&r.t);
	/* a kernel thread that kept A's page tables loaded (lazy TLB) */
	set_ctx(&r.t, CR3_A, CR3_A, true);
	ticks(&r, 2);
	run_stop(&r);
	expect_count_of_rounds(&r, "user", 1);
	run_free(&r);
}

static void kernel_scope_writes_pip_at_each_context_switch(void)
{
	static const u64 order[] = { CR3_A, CR3_A, CR3_B, CR3_A };
	struct run r;

	run_init(&r);
	arm_filtered(&r.t, SIMT_CTL_KERNEL, 0, NULL, 0);
	ticks_in(&r, order, 4);
	run_stop(&r);
	/* PSB+ at enable (A), then the switches to B and back to A */
	CU_ASSERT_EQUAL(r.k.pip, 3);
	CU_ASSERT_EQUAL(r.k.pip_cr3[0], CR3_A);
	CU_ASSERT_EQUAL(r.k.pip_cr3[1], CR3_B);
	CU_ASSERT_EQUAL(r.k.pip_cr3[2], CR3_A);
	expect_rounds(&r, "kernel", 4);
	run_free(&r);
}

static void kernel_scope_cr3_filter_has_no_pip_or_round_of_another_process(void)
{
	static const u64 order[] = { CR3_A, CR3_B, CR3_B, CR3_A };
	struct run r;
	size_t i;

	run_init(&r);
	arm_filtered(&r.t, SIMT_CTL_KERNEL | RTIT_CTL_CR3FILTER, CR3_A, NULL, 0);
	ticks_in(&r, order, 4);
	run_stop(&r);
	expect_count_of_rounds(&r, "kernel", 2);
	/* PIP(A) in the PSB+ and at the switch back; B's CR3 never appears */
	CU_ASSERT_EQUAL(r.k.pip, 2);
	for (i = 0; i < (size_t)r.k.pip && i < 64; i++)
		CU_ASSERT_EQUAL(r.k.pip_cr3[i], CR3_A);
	run_free(&r);
}

static void both_scopes_with_kpti_pip_at_ring_changes_and_same_instructions(void)
{
	struct run r;

	run_init(&r);
	set_ctx(&r.t, CR3_A, KPTI_USER(CR3_A), false);
	arm_filtered(&r.t, SIMT_CTL_BOTH, 0, NULL, 0);
	ticks(&r, 2);
	run_stop(&r);
	expect_rounds(&r, "both", 2);
	/* PSB+ (kernel root), then per round: to user (first round), to kernel, to user */
	CU_ASSERT_EQUAL(r.k.pip, 6);
	CU_ASSERT_EQUAL(r.k.pip_cr3[0], CR3_A);
	CU_ASSERT_EQUAL(r.k.pip_cr3[1], KPTI_USER(CR3_A));
	CU_ASSERT_EQUAL(r.k.pip_cr3[2], CR3_A);
	run_free(&r);
}

static void both_scopes_context_switch_leaves_and_reenters_the_images(void)
{
	static const u64 order[] = { CR3_A, CR3_A, CR3_B, CR3_A };
	struct run r;

	run_init(&r);
	arm_filtered(&r.t, SIMT_CTL_BOTH, 0, NULL, 0);
	ticks_in(&r, order, 4);
	run_stop(&r);
	expect_rounds(&r, "both", 4);
	/* each switch: async disable at the resume point, PIP, TIP.PGE there */
	CU_ASSERT_EQUAL(r.d.enabled, 3);
	CU_ASSERT_EQUAL(r.d.async_disabled, 3);
	CU_ASSERT_EQUAL(r.k.pip, 3);
	CU_ASSERT_EQUAL(r.k.pip_cr3[1], CR3_B);
	run_free(&r);
}

static void both_scopes_cr3_filter_traces_only_the_matching_process(void)
{
	static const u64 order[] = { CR3_A, CR3_B, CR3_B, CR3_A };
	struct run r;

	run_init(&r);
	arm_filtered(&r.t, SIMT_CTL_BOTH | RTIT_CTL_CR3FILTER, CR3_A, NULL, 0);
	ticks_in(&r, order, 4);
	run_stop(&r);
	expect_count_of_rounds(&r, "both", 2);
	run_free(&r);
}

/* The instructions decoded that lie in [lo, hi]. */
static size_t decoded_in(const struct run *r, u64 lo, u64 hi)
{
	size_t i, in = 0;

	for (i = 0; i < r->d.n; i++)
		in += r->d.ip[i] >= lo && r->d.ip[i] <= hi;
	return in;
}

static void ip_filter_range_on_the_leaf_traces_only_the_leaf(void)
{
	const u64 leaf = PTS_SIM_USER_BASE + PTS_SIM_OFF_LEAF;
	const u64 addr[2] = { leaf, leaf + 3 };
	struct run r;

	run_init(&r);
	arm_filtered(&r.t, SIMT_CTL_USER | ((u64)RTIT_ADDR_CFG_FILTER << RTIT_CTL_ADDR_CFG_SHIFT(0)),
		     0, addr, 2);
	ticks(&r, 5);
	/* FilterEn follows the last branch target: outside the leaf now */
	CU_ASSERT_FALSE(simt_rd(&r.t, RTIT_MSR_STATUS) & RTIT_STATUS_FILTEREN);
	run_stop(&r);
	/* each call enters the range (TIP.PGE), each ret leaves it (TIP.PGD) */
	CU_ASSERT_EQUAL(r.d.n, 5 * 3 * 2);
	CU_ASSERT_EQUAL(r.d.enabled, 5 * 3);
	CU_ASSERT_EQUAL(r.d.disabled, 5 * 3);
	CU_ASSERT_EQUAL(decoded_in(&r, addr[0], addr[1]), r.d.n);
	CU_ASSERT_EQUAL(r.d.ip[0], leaf);
	CU_ASSERT_EQUAL(r.d.ip[1], leaf + 2);
	CU_ASSERT_EQUAL(r.d.first_enabled_ip, leaf);
	run_free(&r);
}

static void ip_filter_range_on_main_leaves_at_calls_and_reenters_at_returns(void)
{
	const u64 base = PTS_SIM_USER_BASE;
	const u64 addr[2] = { base, base + PTS_SIM_OFF_LEAF - 1 };
	struct run r;

	run_init(&r);
	arm_filtered(&r.t, SIMT_CTL_USER | ((u64)RTIT_ADDR_CFG_FILTER << RTIT_CTL_ADDR_CFG_SHIFT(0)),
		     0, addr, 2);
	ticks(&r, 2);
	run_stop(&r);
	/* main without the leaf: endbr, mov, 3 x (call, dec, jnz), lea, jmp */
	CU_ASSERT_EQUAL(r.d.n, 2 * 13);
	CU_ASSERT_EQUAL(decoded_in(&r, addr[0], addr[1]), r.d.n);
	run_free(&r);
}

static void tracestop_range_sets_stopped_and_writes_tracestop(void)
{
	const u64 base = PTS_SIM_USER_BASE;
	/* ADDR0: filter on the leaf; ADDR1: TraceStop on the exit stub */
	const u64 addr[4] = { base + PTS_SIM_OFF_LEAF, base + PTS_SIM_OFF_LEAF + 3,
			      base + PTS_SIM_OFF_EXIT, base + PTS_SIM_OFF_FAR + 1 };
	u64 ctl = SIMT_CTL_USER | ((u64)RTIT_ADDR_CFG_FILTER << RTIT_CTL_ADDR_CFG_SHIFT(0)) |
		  ((u64)RTIT_ADDR_CFG_STOP << RTIT_CTL_ADDR_CFG_SHIFT(1));
	struct run r;
	size_t head;
	u64 st;

	run_init(&r);
	arm_filtered(&r.t, ctl, 0, addr, 4);
	tick(&r.t);
	st = simt_rd(&r.t, RTIT_MSR_STATUS);
	CU_ASSERT(st & RTIT_STATUS_STOPPED);
	CU_ASSERT_FALSE(st & (RTIT_STATUS_TRIGGEREN | RTIT_STATUS_ERROR));
	/* nothing more is written until software clears Stopped */
	head = simt_head(&r.t);
	ticks(&r, 2);
	CU_ASSERT_EQUAL(simt_head(&r.t), head);
	/* what the module concludes at stop (kmod/pure/stopped.c) */
	CU_ASSERT_EQUAL(pts_stopped_cause(st, ctl | RTIT_CTL_TRACEEN, PTSCOPE_MODE_SNAPSHOT,
					  head, 16 * 4096), PTS_STOPPED_TRACESTOP);
	run_stop(&r);
	CU_ASSERT_EQUAL(r.k.stop, 1);
	/* the leaf's inc and ret, three times, then the jump into the stop range */
	CU_ASSERT_EQUAL(r.d.n, 3 * 2);
	run_free(&r);
}

static void tracestop_while_tracing_writes_pgd_with_the_target_first(void)
{
	const u64 base = PTS_SIM_USER_BASE;
	const u64 addr[2] = { base + PTS_SIM_OFF_EXIT, base + PTS_SIM_OFF_FAR + 1 };
	struct run r;
	size_t n;

	run_init(&r);
	arm_filtered(&r.t, SIMT_CTL_USER | ((u64)RTIT_ADDR_CFG_STOP << RTIT_CTL_ADDR_CFG_SHIFT(0)),
		     0, addr, 2);
	tick(&r.t);
	CU_ASSERT(simt_rd(&r.t, RTIT_MSR_STATUS) & RTIT_STATUS_STOPPED);
	run_stop(&r);
	CU_ASSERT_EQUAL(r.k.stop, 1);
	/* one round up to the jmp *%rax: the stub itself is never traced */
	n = simt_expect("user", 1, want);
	CU_ASSERT_EQUAL(r.d.n, n - 2);
	CU_ASSERT(simt_matches_at(&r.d, want, n, 0));
	CU_ASSERT_EQUAL(r.d.disabled, 1);
	run_free(&r);
}

static void overflow_injection_loses_rounds_and_writes_one_ovf(void)
{
	struct run r;

	run_init(&r);
	arm_filtered(&r.t, SIMT_CTL_USER, 0, NULL, 0);
	ticks(&r, 2);
	pts_sim_inject_overflow(&r.t.cpu, 3);
	ticks(&r, 5);
	CU_ASSERT_EQUAL(r.t.cpu.overflows, 1);
	run_stop(&r);
	CU_ASSERT_EQUAL(r.k.ovf, 1);
	CU_ASSERT_EQUAL(r.d.overflow, 1);
	/* 7 ticks, 3 of them lost */
	expect_count_of_rounds(&r, "user", 4);
	run_free(&r);
}

static void overflow_while_tracing_both_rings_resumes_with_a_fup(void)
{
	struct run r;

	run_init(&r);
	arm_filtered(&r.t, SIMT_CTL_BOTH, 0, NULL, 0);
	tick(&r.t);
	pts_sim_inject_overflow(&r.t.cpu, 1);
	ticks(&r, 3);
	run_stop(&r);
	CU_ASSERT_EQUAL(r.d.overflow, 1);
	/* 3 rounds of 43 reach the output; the decoder resumes at the FUP */
	expect_count_of_rounds(&r, "both", 3);
	run_free(&r);
}

static void overflow_from_the_first_user_round_decodes_after_the_ovf(void)
{
	struct run r;

	run_init(&r);
	/* injected before the enable: the first rounds ever are lost */
	pts_sim_inject_overflow(&r.t.cpu, 2);
	arm_filtered(&r.t, SIMT_CTL_USER, 0, NULL, 0);
	ticks(&r, 4);
	run_stop(&r);
	CU_ASSERT_EQUAL(r.d.overflow, 1);
	/* the next TIP.PGE carries the MODE.Exec that went out with the lost rounds */
	expect_count_of_rounds(&r, "user", 2);
	run_free(&r);
}

PTS_SUITE(sim_filter, NULL, NULL,
	  PTS_TEST(user_scope_cr3_filter_traces_only_ticks_in_the_matching_process),
	  PTS_TEST(cr3_filter_with_kpti_matches_the_user_root_only),
	  PTS_TEST(cr3_filter_ticks_in_a_kernel_thread_trace_nothing),
	  PTS_TEST(kernel_scope_writes_pip_at_each_context_switch),
	  PTS_TEST(kernel_scope_cr3_filter_has_no_pip_or_round_of_another_process),
	  PTS_TEST(both_scopes_with_kpti_pip_at_ring_changes_and_same_instructions),
	  PTS_TEST(both_scopes_context_switch_leaves_and_reenters_the_images),
	  PTS_TEST(both_scopes_cr3_filter_traces_only_the_matching_process),
	  PTS_TEST(ip_filter_range_on_the_leaf_traces_only_the_leaf),
	  PTS_TEST(ip_filter_range_on_main_leaves_at_calls_and_reenters_at_returns),
	  PTS_TEST(tracestop_range_sets_stopped_and_writes_tracestop),
	  PTS_TEST(tracestop_while_tracing_writes_pgd_with_the_target_first),
	  PTS_TEST(overflow_injection_loses_rounds_and_writes_one_ovf),
	  PTS_TEST(overflow_while_tracing_both_rings_resumes_with_a_fup),
	  PTS_TEST(overflow_from_the_first_user_round_decodes_after_the_ovf))
