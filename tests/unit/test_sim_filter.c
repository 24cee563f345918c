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

/* Stop and decode the whole ring (no wrap). */
static u8 *stop_and_decode(struct simt *t, struct simt_decoded *d, size_t *lenp)
{
	size_t len;
	u8 *buf;

	simt_stop(t);
	buf = simt_linear(t, false, &len);
	simt_decode(buf, len, d);
	if (lenp)
		*lenp = len;
	return buf;
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

static void user_scope_cr3_filter_traces_only_ticks_in_the_matching_process(void)
{
	static const u64 order[] = { CR3_A, CR3_B, CR3_B, CR3_A, CR3_B, CR3_A, CR3_A };
	struct simt_decoded d;
	struct pkt_counts k;
	struct simt t;
	size_t i, n, len;
	u8 *buf;

	simt_init(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	arm_filtered(&t, SIMT_CTL_USER | RTIT_CTL_CR3FILTER, CR3_A, NULL, 0);
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		set_ctx(&t, order[i], order[i], false);
		tick(&t);
	}
	buf = stop_and_decode(&t, &d, &len);
	n = simt_expect("user", 4, want);
	CU_ASSERT_EQUAL(d.error, 0);
	/* 4 of the 7 ticks ran in process A: 4 rounds, nothing of B */
	CU_ASSERT_EQUAL(d.n, n);
	CU_ASSERT(simt_matches_at(&d, want, n, 0));
	CU_ASSERT_EQUAL(d.enabled, 4);
	CU_ASSERT_EQUAL(d.disabled, 4);
	/* User only: no PIP (it needs OS = 1) */
	count_packets(buf, len, &k);
	CU_ASSERT_EQUAL(k.pip, 0);
	free(buf);
	simt_decoded_free(&d);
	simt_fini(&t);
}

static void cr3_filter_with_kpti_matches_the_user_root_only(void)
{
	struct simt_decoded d;
	struct simt t;
	u8 *buf;

	simt_init(&t);
	set_ctx(&t, CR3_A | 3, KPTI_USER(CR3_A) | 3, false);
	/* the module's plan for user scope under KPTI: the user root */
	arm_filtered(&t, SIMT_CTL_USER | RTIT_CTL_CR3FILTER, KPTI_USER(CR3_A), NULL, 0);
	tick(&t);
	tick(&t);
	set_ctx(&t, CR3_B | 4, KPTI_USER(CR3_B) | 4, false);
	tick(&t);
	buf = stop_and_decode(&t, &d, NULL);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(d.n, simt_expect("user", 2, want));
	free(buf);
	simt_decoded_free(&d);
	simt_fini(&t);
}

static void cr3_filter_ticks_in_a_kernel_thread_trace_nothing(void)
{
	struct simt_decoded d;
	struct simt t;
	u8 *buf;

	simt_init(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	arm_filtered(&t, SIMT_CTL_USER | RTIT_CTL_CR3FILTER, CR3_A, NULL, 0);
	tick(&t);
	/* a kernel thread that kept A's page tables loaded (lazy TLB) */
	set_ctx(&t, CR3_A, CR3_A, true);
	tick(&t);
	tick(&t);
	buf = stop_and_decode(&t, &d, NULL);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(d.n, simt_expect("user", 1, want));
	free(buf);
	simt_decoded_free(&d);
	simt_fini(&t);
}

static void kernel_scope_writes_pip_at_each_context_switch(void)
{
	struct simt_decoded d;
	struct pkt_counts k;
	struct simt t;
	size_t len, n;
	u8 *buf;

	simt_init(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	arm_filtered(&t, SIMT_CTL_KERNEL, 0, NULL, 0);
	tick(&t);
	tick(&t);
	set_ctx(&t, CR3_B, CR3_B, false);
	tick(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	tick(&t);
	buf = stop_and_decode(&t, &d, &len);
	count_packets(buf, len, &k);
	/* PSB+ at enable (A), then the switches to B and back to A */
	CU_ASSERT_EQUAL(k.pip, 3);
	CU_ASSERT_EQUAL(k.pip_cr3[0], CR3_A);
	CU_ASSERT_EQUAL(k.pip_cr3[1], CR3_B);
	CU_ASSERT_EQUAL(k.pip_cr3[2], CR3_A);
	n = simt_expect("kernel", 4, want);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(d.n, n);
	CU_ASSERT(simt_matches_at(&d, want, n, 0));
	free(buf);
	simt_decoded_free(&d);
	simt_fini(&t);
}

static void kernel_scope_cr3_filter_has_no_pip_or_round_of_another_process(void)
{
	struct simt_decoded d;
	struct pkt_counts k;
	struct simt t;
	size_t len, i;
	u8 *buf;

	simt_init(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	arm_filtered(&t, SIMT_CTL_KERNEL | RTIT_CTL_CR3FILTER, CR3_A, NULL, 0);
	tick(&t);
	set_ctx(&t, CR3_B, CR3_B, false);
	tick(&t);
	tick(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	tick(&t);
	buf = stop_and_decode(&t, &d, &len);
	count_packets(buf, len, &k);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(d.n, simt_expect("kernel", 2, want));
	/* PIP(A) in the PSB+ and at the switch back; B's CR3 never appears */
	CU_ASSERT_EQUAL(k.pip, 2);
	for (i = 0; i < (size_t)k.pip && i < 64; i++)
		CU_ASSERT_EQUAL(k.pip_cr3[i], CR3_A);
	free(buf);
	simt_decoded_free(&d);
	simt_fini(&t);
}

static void both_scopes_with_kpti_pip_at_ring_changes_and_same_instructions(void)
{
	struct simt_decoded d;
	struct pkt_counts k;
	struct simt t;
	size_t len, n;
	u8 *buf;

	simt_init(&t);
	set_ctx(&t, CR3_A, KPTI_USER(CR3_A), false);
	arm_filtered(&t, SIMT_CTL_BOTH, 0, NULL, 0);
	tick(&t);
	tick(&t);
	buf = stop_and_decode(&t, &d, &len);
	n = simt_expect("both", 2, want);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(d.n, n);
	CU_ASSERT(simt_matches_at(&d, want, n, 0));
	count_packets(buf, len, &k);
	/* PSB+ (kernel root), then per round: to user (first round), to kernel, to user */
	CU_ASSERT_EQUAL(k.pip, 6);
	CU_ASSERT_EQUAL(k.pip_cr3[0], CR3_A);
	CU_ASSERT_EQUAL(k.pip_cr3[1], KPTI_USER(CR3_A));
	CU_ASSERT_EQUAL(k.pip_cr3[2], CR3_A);
	free(buf);
	simt_decoded_free(&d);
	simt_fini(&t);
}

static void both_scopes_context_switch_leaves_and_reenters_the_images(void)
{
	struct simt_decoded d;
	struct pkt_counts k;
	struct simt t;
	size_t len, n;
	u8 *buf;

	simt_init(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	arm_filtered(&t, SIMT_CTL_BOTH, 0, NULL, 0);
	tick(&t);
	tick(&t);
	set_ctx(&t, CR3_B, CR3_B, false);
	tick(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	tick(&t);
	buf = stop_and_decode(&t, &d, &len);
	n = simt_expect("both", 4, want);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(d.n, n);
	CU_ASSERT(simt_matches_at(&d, want, n, 0));
	/* each switch: async disable at the resume point, PIP, TIP.PGE there */
	CU_ASSERT_EQUAL(d.enabled, 3);
	CU_ASSERT_EQUAL(d.async_disabled, 3);
	count_packets(buf, len, &k);
	CU_ASSERT_EQUAL(k.pip, 3);
	CU_ASSERT_EQUAL(k.pip_cr3[1], CR3_B);
	free(buf);
	simt_decoded_free(&d);
	simt_fini(&t);
}

static void both_scopes_cr3_filter_traces_only_the_matching_process(void)
{
	struct simt_decoded d;
	struct simt t;
	u8 *buf;

	simt_init(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	arm_filtered(&t, SIMT_CTL_BOTH | RTIT_CTL_CR3FILTER, CR3_A, NULL, 0);
	tick(&t);
	set_ctx(&t, CR3_B, CR3_B, false);
	tick(&t);
	tick(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	tick(&t);
	buf = stop_and_decode(&t, &d, NULL);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(d.n, simt_expect("both", 2, want));
	free(buf);
	simt_decoded_free(&d);
	simt_fini(&t);
}

static void ip_filter_range_on_the_leaf_traces_only_the_leaf(void)
{
	const u64 leaf = PTS_SIM_USER_BASE + PTS_SIM_OFF_LEAF;
	const u64 addr[2] = { leaf, leaf + 3 };
	struct simt_decoded d;
	struct simt t;
	size_t i, in = 0;
	u8 *buf;

	simt_init(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	arm_filtered(&t, SIMT_CTL_USER | ((u64)RTIT_ADDR_CFG_FILTER << RTIT_CTL_ADDR_CFG_SHIFT(0)),
		     0, addr, 2);
	for (i = 0; i < 5; i++)
		tick(&t);
	/* FilterEn follows the last branch target: outside the leaf now */
	CU_ASSERT_FALSE(simt_rd(&t, RTIT_MSR_STATUS) & RTIT_STATUS_FILTEREN);
	buf = stop_and_decode(&t, &d, NULL);
	CU_ASSERT_EQUAL(d.error, 0);
	/* each call enters the range (TIP.PGE), each ret leaves it (TIP.PGD) */
	CU_ASSERT_EQUAL(d.n, 5 * 3 * 2);
	CU_ASSERT_EQUAL(d.enabled, 5 * 3);
	CU_ASSERT_EQUAL(d.disabled, 5 * 3);
	for (i = 0; i < d.n; i++)
		in += d.ip[i] >= addr[0] && d.ip[i] <= addr[1];
	CU_ASSERT_EQUAL(in, d.n);
	CU_ASSERT_EQUAL(d.ip[0], leaf);
	CU_ASSERT_EQUAL(d.ip[1], leaf + 2);
	CU_ASSERT_EQUAL(d.first_enabled_ip, leaf);
	free(buf);
	simt_decoded_free(&d);
	simt_fini(&t);
}

static void ip_filter_range_on_main_leaves_at_calls_and_reenters_at_returns(void)
{
	const u64 base = PTS_SIM_USER_BASE;
	const u64 addr[2] = { base, base + PTS_SIM_OFF_LEAF - 1 };
	struct simt_decoded d;
	struct simt t;
	size_t i, in = 0;
	u8 *buf;

	simt_init(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	arm_filtered(&t, SIMT_CTL_USER | ((u64)RTIT_ADDR_CFG_FILTER << RTIT_CTL_ADDR_CFG_SHIFT(0)),
		     0, addr, 2);
	tick(&t);
	tick(&t);
	buf = stop_and_decode(&t, &d, NULL);
	CU_ASSERT_EQUAL(d.error, 0);
	/* main without the leaf: endbr, mov, 3 x (call, dec, jnz), lea, jmp */
	CU_ASSERT_EQUAL(d.n, 2 * 13);
	for (i = 0; i < d.n; i++)
		in += d.ip[i] >= addr[0] && d.ip[i] <= addr[1];
	CU_ASSERT_EQUAL(in, d.n);
	free(buf);
	simt_decoded_free(&d);
	simt_fini(&t);
}

static void tracestop_range_sets_stopped_and_writes_tracestop(void)
{
	const u64 base = PTS_SIM_USER_BASE;
	/* ADDR0: filter on the leaf; ADDR1: TraceStop on the exit stub */
	const u64 addr[4] = { base + PTS_SIM_OFF_LEAF, base + PTS_SIM_OFF_LEAF + 3,
			      base + PTS_SIM_OFF_EXIT, base + PTS_SIM_OFF_FAR + 1 };
	u64 ctl = SIMT_CTL_USER | ((u64)RTIT_ADDR_CFG_FILTER << RTIT_CTL_ADDR_CFG_SHIFT(0)) |
		  ((u64)RTIT_ADDR_CFG_STOP << RTIT_CTL_ADDR_CFG_SHIFT(1));
	struct simt_decoded d;
	struct pkt_counts k;
	struct simt t;
	size_t len, head;
	u64 st;
	u8 *buf;

	simt_init(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	arm_filtered(&t, ctl, 0, addr, 4);
	tick(&t);
	st = simt_rd(&t, RTIT_MSR_STATUS);
	CU_ASSERT(st & RTIT_STATUS_STOPPED);
	CU_ASSERT_FALSE(st & (RTIT_STATUS_TRIGGEREN | RTIT_STATUS_ERROR));
	/* nothing more is written until software clears Stopped */
	head = simt_head(&t);
	tick(&t);
	tick(&t);
	CU_ASSERT_EQUAL(simt_head(&t), head);
	/* what the module concludes at stop (kmod/pure/stopped.c) */
	CU_ASSERT_EQUAL(pts_stopped_cause(st, ctl | RTIT_CTL_TRACEEN, PTSCOPE_MODE_SNAPSHOT,
					  head, 16 * 4096), PTS_STOPPED_TRACESTOP);
	buf = stop_and_decode(&t, &d, &len);
	count_packets(buf, len, &k);
	CU_ASSERT_EQUAL(k.stop, 1);
	CU_ASSERT_EQUAL(d.error, 0);
	/* the leaf's inc and ret, three times, then the jump into the stop range */
	CU_ASSERT_EQUAL(d.n, 3 * 2);
	free(buf);
	simt_decoded_free(&d);
	simt_fini(&t);
}

static void tracestop_while_tracing_writes_pgd_with_the_target_first(void)
{
	const u64 base = PTS_SIM_USER_BASE;
	const u64 addr[2] = { base + PTS_SIM_OFF_EXIT, base + PTS_SIM_OFF_FAR + 1 };
	struct simt_decoded d;
	struct pkt_counts k;
	struct simt t;
	size_t len, n;
	u8 *buf;

	simt_init(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	arm_filtered(&t, SIMT_CTL_USER | ((u64)RTIT_ADDR_CFG_STOP << RTIT_CTL_ADDR_CFG_SHIFT(0)),
		     0, addr, 2);
	tick(&t);
	CU_ASSERT(simt_rd(&t, RTIT_MSR_STATUS) & RTIT_STATUS_STOPPED);
	buf = stop_and_decode(&t, &d, &len);
	count_packets(buf, len, &k);
	CU_ASSERT_EQUAL(k.stop, 1);
	CU_ASSERT_EQUAL(d.error, 0);
	/* one round up to the jmp *%rax: the stub itself is never traced */
	n = simt_expect("user", 1, want);
	CU_ASSERT_EQUAL(d.n, n - 2);
	CU_ASSERT(simt_matches_at(&d, want, n, 0));
	CU_ASSERT_EQUAL(d.disabled, 1);
	free(buf);
	simt_decoded_free(&d);
	simt_fini(&t);
}

static void overflow_injection_loses_rounds_and_writes_one_ovf(void)
{
	struct simt_decoded d;
	struct pkt_counts k;
	struct simt t;
	size_t len, i;
	u8 *buf;

	simt_init(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	arm_filtered(&t, SIMT_CTL_USER, 0, NULL, 0);
	tick(&t);
	tick(&t);
	pts_sim_inject_overflow(&t.cpu, 3);
	for (i = 0; i < 5; i++)
		tick(&t);
	CU_ASSERT_EQUAL(t.cpu.overflows, 1);
	buf = stop_and_decode(&t, &d, &len);
	count_packets(buf, len, &k);
	CU_ASSERT_EQUAL(k.ovf, 1);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(d.overflow, 1);
	/* 7 ticks, 3 of them lost */
	CU_ASSERT_EQUAL(d.n, simt_expect("user", 4, want));
	free(buf);
	simt_decoded_free(&d);
	simt_fini(&t);
}

static void overflow_while_tracing_both_rings_resumes_with_a_fup(void)
{
	struct simt_decoded d;
	struct simt t;
	size_t n;
	u8 *buf;

	simt_init(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	arm_filtered(&t, SIMT_CTL_BOTH, 0, NULL, 0);
	tick(&t);
	pts_sim_inject_overflow(&t.cpu, 1);
	tick(&t);
	tick(&t);
	tick(&t);
	buf = stop_and_decode(&t, &d, NULL);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(d.overflow, 1);
	/* 3 rounds of 43 reach the output; the decoder resumes at the FUP */
	n = simt_expect("both", 3, want);
	CU_ASSERT_EQUAL(d.n, n);
	free(buf);
	simt_decoded_free(&d);
	simt_fini(&t);
}

static void overflow_from_the_first_user_round_decodes_after_the_ovf(void)
{
	struct simt_decoded d;
	struct simt t;
	u8 *buf;

	simt_init(&t);
	set_ctx(&t, CR3_A, CR3_A, false);
	/* injected before the enable: the first rounds ever are lost */
	pts_sim_inject_overflow(&t.cpu, 2);
	arm_filtered(&t, SIMT_CTL_USER, 0, NULL, 0);
	tick(&t);
	tick(&t);
	tick(&t);
	tick(&t);
	buf = stop_and_decode(&t, &d, NULL);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(d.overflow, 1);
	/* the next TIP.PGE carries the MODE.Exec that went out with the lost rounds */
	CU_ASSERT_EQUAL(d.n, simt_expect("user", 2, want));
	free(buf);
	simt_decoded_free(&d);
	simt_fini(&t);
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
