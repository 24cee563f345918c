// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated PT unit across TraceEn transitions: ticks write only
 * while TraceEn is set, STATUS's enable bits follow the SDM's meaning
 * (TriggerEn, ContextEn; SDM vol. 3C 33.2.8.4), and a second capture
 * after a stop is a stream of its own that libipt decodes.
 */
#include "unit.h"
#include "sim_harness.h"

static u64 want[2000 * 22];

static void tick_without_traceen_writes_nothing(void)
{
	struct simt t;
	size_t k, nz = 0;
	u8 *r;

	simt_init(&t);
	simt_ring(&t, 2, 0, 0);
	CU_ASSERT_FALSE(pts_sim_tick(&t.cpu, 5));
	/* configured but not enabled */
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_OUTPUT_BASE, t.table, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, SIMT_CTL_USER, 0), 0);
	CU_ASSERT_FALSE(pts_sim_tick(&t.cpu, 5));
	r = simt_map(&t, t.region_pa[0], 8192);
	for (k = 0; k < 8192; k++)
		nz += r[k] != 0;
	CU_ASSERT_EQUAL(nz, 0);
	CU_ASSERT_EQUAL(t.cpu.rounds, 0);
	simt_fini(&t);
}

static void status_enable_bits_follow_tracing(void)
{
	struct simt t;
	u64 st;

	simt_init(&t);
	simt_ring(&t, 2, 0, 0);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_STATUS), 0);
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, SIMT_CTL_BOTH, 1), 0);
	/* enabled, but the simulated program has not entered traced code yet */
	st = simt_rd(&t, RTIT_MSR_STATUS);
	CU_ASSERT(st & RTIT_STATUS_TRIGGEREN);
	CU_ASSERT_FALSE(st & RTIT_STATUS_CONTEXTEN);
	/* PacketByteCnt counts the PSB+ written at enable */
	CU_ASSERT(rtit_status_bytecnt(st) > 16);
	simt_ticks(&t, 1, 1);
	/* both rings traced: it stays inside traced code between ticks */
	CU_ASSERT(simt_rd(&t, RTIT_MSR_STATUS) & RTIT_STATUS_CONTEXTEN);
	CU_ASSERT_EQUAL(simt_stop(&t), 0);
	st = simt_rd(&t, RTIT_MSR_STATUS);
	CU_ASSERT_FALSE(st & (RTIT_STATUS_TRIGGEREN | RTIT_STATUS_CONTEXTEN));
	simt_fini(&t);
}

static void second_capture_after_stop_decodes_on_its_own(void)
{
	struct simt_decoded d;
	struct simt t;
	size_t len, n;
	u8 *buf;

	simt_init(&t);
	simt_ring(&t, 4, 0, 0);
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, SIMT_CTL_KERNEL, 1), 0);
	simt_ticks(&t, 3, 1);
	CU_ASSERT_EQUAL(simt_stop(&t), 0);
	/* clear the ring and arm again from the start, as the module does */
	memset(simt_map(&t, t.region_pa[0], 4 * 4096), 0, 4 * 4096);
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, SIMT_CTL_USER, 100000), 0);
	simt_ticks(&t, 4, 100000);
	CU_ASSERT_EQUAL(simt_stop(&t), 0);
	buf = simt_linear(&t, false, &len);
	simt_decode(buf, len, &d);
	n = simt_expect("user", 4, want);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(d.n, n);
	CU_ASSERT(simt_matches_at(&d, want, n, 0));
	CU_ASSERT_EQUAL(d.last_tsc, 100000 + 4000);
	simt_decoded_free(&d);
	free(buf);
	simt_fini(&t);
}

static void psb_plus_has_a_fup_only_while_inside_traced_code(void)
{
	u64 ctl = SIMT_CTL_USER;	/* PSBFreq 0: 2 KiB */
	struct pt_packet_decoder *pd;
	struct pt_config cfg;
	struct simt t;
	size_t len, nwant = simt_expect("user", 2000, want);
	int psbs = 0, fups = 0, first_fups = 0, bad_fups = 0, in_psb = 0;
	u8 *buf;

	simt_init(&t);
	simt_ring(&t, 16, 0, 0);
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, ctl, 1), 0);
	simt_ticks(&t, 2000, 1);	/* about 32 KiB: many PSB+ at varied points */
	simt_stop(&t);
	buf = simt_linear(&t, false, &len);
	pt_config_init(&cfg);
	cfg.begin = buf;
	cfg.end = buf + len;
	pd = pt_pkt_alloc_decoder(&cfg);
	CU_ASSERT_EQUAL(pt_pkt_sync_set(pd, 0), 0);
	for (;;) {
		struct pt_packet pkt;

		if (pt_pkt_next(pd, &pkt, sizeof(pkt)) < 0)
			break;
		if (pkt.type == ppt_psb) {
			psbs++;
			in_psb = 1;
		} else if (pkt.type == ppt_psbend) {
			in_psb = 0;
		} else if (pkt.type == ppt_fup && in_psb) {
			fups++;
			first_fups += psbs == 1;
			/* first IP after a PSB: uncompressed, inside the user image */
			bad_fups += pkt.payload.ip.ipc != pt_ipc_sext_48 ||
				    pkt.payload.ip.ip < PTS_SIM_USER_BASE ||
				    pkt.payload.ip.ip >= PTS_SIM_USER_BASE + PTS_SIM_CODE_SIZE;
		}
	}
	pt_pkt_free_decoder(pd);
	CU_ASSERT(psbs > 10);
	/* at enable the program is outside traced code (PacketEn = 0): no FUP */
	CU_ASSERT_EQUAL(first_fups, 0);
	/* later PSBs fall both inside a round (FUP) and between rounds (none) */
	CU_ASSERT(fups > 0 && fups < psbs - 1);
	CU_ASSERT_EQUAL(bad_fups, 0);
	{
		struct simt_decoded d;

		simt_decode(buf, len, &d);
		CU_ASSERT_EQUAL(d.error, 0);
		CU_ASSERT_EQUAL(d.n, nwant);
		simt_decoded_free(&d);
	}
	free(buf);
	simt_fini(&t);
}

PTS_SUITE(sim_lifecycle, NULL, NULL,
	  PTS_TEST(tick_without_traceen_writes_nothing),
	  PTS_TEST(status_enable_bits_follow_tracing),
	  PTS_TEST(second_capture_after_stop_decodes_on_its_own),
	  PTS_TEST(psb_plus_has_a_fup_only_while_inside_traced_code))
