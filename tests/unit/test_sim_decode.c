// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated PT unit writes a valid packet stream: libipt (not a
 * parser of ours) decodes what it wrote, over the documented code images,
 * to exactly the documented instruction sequence (docs/simulated-unit.md,
 * "Timeline"; the expected sequences are hand-derived from the listing in
 * kmod/pure/sim_code.c by sim_harness.h).
 */
#include "unit.h"
#include "sim_harness.h"

#define TSC0 0x123456789aULL

static u64 *want;

static int sim_decode_init(void)
{
	want = calloc(SIMT_MAX_INSNS, sizeof(*want));
	return want ? 0 : 1;
}

static int sim_decode_cleanup(void)
{
	free(want);
	return 0;
}

/* Arm with ctl, run `ticks` ticks, stop, decode [0, head). */
static void run_and_decode(u64 ctl, unsigned int ticks, struct simt_decoded *d)
{
	struct simt t;
	size_t len;
	u8 *buf;

	simt_init(&t);
	simt_ring(&t, 16, 0, 0);
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, ctl, TSC0), 0);
	simt_ticks(&t, ticks, TSC0);
	CU_ASSERT_EQUAL(simt_stop(&t), 0);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_STATUS) & (RTIT_STATUS_ERROR | RTIT_STATUS_STOPPED), 0);
	buf = simt_linear(&t, false, &len);
	CU_ASSERT(len > 0);
	simt_decode(buf, len, d);
	free(buf);
	simt_fini(&t);
}

static void user_scope_ticks_decode_to_documented_sequence(void)
{
	struct simt_decoded d;
	size_t n = simt_expect("user", 5, want);

	run_and_decode(SIMT_CTL_USER, 5, &d);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(n, 5 * 22);
	CU_ASSERT_EQUAL(d.n, n);
	CU_ASSERT(simt_matches_at(&d, want, n, 0));
	/* each tick: TIP.PGE at the resume point, TIP.PGD at the syscall */
	CU_ASSERT_EQUAL(d.enabled, 5);
	CU_ASSERT_EQUAL(d.disabled, 5);
	CU_ASSERT_EQUAL(d.first_enabled_ip, PTS_SIM_USER_BASE + PTS_SIM_OFF_RESUME);
	simt_decoded_free(&d);
}

static void kernel_scope_ticks_decode_to_documented_sequence(void)
{
	struct simt_decoded d;
	size_t n = simt_expect("kernel", 4, want);

	run_and_decode(SIMT_CTL_KERNEL, 4, &d);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(n, 4 * 21);
	CU_ASSERT_EQUAL(d.n, n);
	CU_ASSERT(simt_matches_at(&d, want, n, 0));
	CU_ASSERT_EQUAL(d.enabled, 4);
	CU_ASSERT_EQUAL(d.disabled, 4);
	CU_ASSERT_EQUAL(d.first_enabled_ip, SIMT_KERNEL_BASE);
	simt_decoded_free(&d);
}

static void both_scope_is_one_enable_with_syscall_and_sysret_tips(void)
{
	struct simt_decoded d;
	size_t n = simt_expect("both", 6, want);

	run_and_decode(SIMT_CTL_BOTH, 6, &d);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(n, 6 * 43);
	CU_ASSERT_EQUAL(d.n, n);
	CU_ASSERT(simt_matches_at(&d, want, n, 0));
	/* enabled once; the stop shows as an asynchronous disable (FUP + TIP.PGD) */
	CU_ASSERT_EQUAL(d.enabled, 1);
	CU_ASSERT_EQUAL(d.disabled, 0);
	CU_ASSERT_EQUAL(d.async_disabled, 1);
	simt_decoded_free(&d);
}

static void disretc_returns_as_tips_decode_to_the_same_sequence(void)
{
	struct simt_decoded d;
	size_t n = simt_expect("both", 3, want);

	run_and_decode(SIMT_CTL_BOTH | RTIT_CTL_DISRETC, 3, &d);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(d.n, n);
	CU_ASSERT(simt_matches_at(&d, want, n, 0));
	simt_decoded_free(&d);
}

static void last_tsc_is_the_tsc_of_the_last_tick(void)
{
	struct simt_decoded d;

	run_and_decode(SIMT_CTL_USER, 7, &d);
	CU_ASSERT_EQUAL(d.error, 0);
	/* simt_ticks uses TSC0 + 1000 * k for tick k (1-based) */
	CU_ASSERT_EQUAL(d.last_tsc, TSC0 + 7000);
	simt_decoded_free(&d);
}

static void no_tsc_packets_without_tscen(void)
{
	struct simt_decoded d;

	run_and_decode(SIMT_CTL_USER & ~RTIT_CTL_TSCEN, 3, &d);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(d.n, simt_expect("user", 3, want));
	CU_ASSERT_EQUAL(d.last_tsc, 0);
	simt_decoded_free(&d);
}

/* Offsets of every PSB, found by libipt's packet decoder. */
static size_t psb_offsets(const u8 *buf, size_t len, u64 *off, size_t max, int *types_seen)
{
	struct pt_packet_decoder *dec;
	struct pt_config cfg;
	size_t n = 0;

	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	dec = pt_pkt_alloc_decoder(&cfg);
	if (pt_pkt_sync_set(dec, 0) < 0)
		return 0;
	for (;;) {
		struct pt_packet pkt;
		uint64_t o;

		if (pt_pkt_get_offset(dec, &o) < 0 || pt_pkt_next(dec, &pkt, sizeof(pkt)) < 0)
			break;
		if (types_seen && (unsigned int)pkt.type < 64)
			types_seen[pkt.type]++;
		if (pkt.type == ppt_psb && n < max)
			off[n++] = o;
	}
	pt_pkt_free_decoder(dec);
	return n;
}

static void psb_every_psbfreq_bytes_and_each_psb_is_a_sync_point(void)
{
	u64 ctl = SIMT_CTL_BOTH | (1ULL << RTIT_CTL_PSBFREQ_SHIFT);	/* 4 KiB */
	size_t len, n, i, nwant = simt_expect("both", 1000, want);
	u64 off[64];
	struct simt t;
	u8 *buf;

	simt_init(&t);
	simt_ring(&t, 16, 0, 0);
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, ctl, TSC0), 0);
	simt_ticks(&t, 1000, TSC0);
	simt_stop(&t);
	buf = simt_linear(&t, false, &len);
	n = psb_offsets(buf, len, off, 64, NULL);
	CU_ASSERT(n >= 4);
	CU_ASSERT_EQUAL(off[0], 0);	/* full PSB+ at enable after STATUS = 0 */
	for (i = 1; i < n; i++) {
		/* due at 4 KiB since the last PSB, placed at the next packet */
		CU_ASSERT(off[i] - off[i - 1] >= 4096);
		CU_ASSERT(off[i] - off[i - 1] < 4096 + 64);
	}
	/* a decoder may start at any PSB: from there it sees a tail of the sequence */
	for (i = 1; i < n; i++) {
		struct simt_decoded d;

		simt_decode(buf + off[i], len - off[i], &d);
		CU_ASSERT_EQUAL(d.error, 0);
		CU_ASSERT(d.n > 0);
		CU_ASSERT(simt_matches_at(&d, want, nwant, nwant - d.n));
		simt_decoded_free(&d);
	}
	free(buf);
	simt_fini(&t);
}

static void wrapped_ring_decodes_from_first_psb_to_the_end(void)
{
	size_t len, nwant = simt_expect("user", 1000, want);
	struct simt_decoded d;
	struct simt t;
	int blk_err;
	long blk;
	u8 *buf;

	simt_init(&t);
	simt_ring(&t, 2, 0, 0);		/* 8 KiB ring, about 36 KiB written */
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, SIMT_CTL_USER, TSC0), 0);
	simt_ticks(&t, 1000, TSC0);
	simt_stop(&t);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_STATUS) & RTIT_STATUS_ERROR, 0);
	buf = simt_linear(&t, true, &len);
	CU_ASSERT_EQUAL(len, 8192);
	simt_decode(buf, len, &d);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT(d.n > 22 * 50);
	CU_ASSERT(simt_matches_at(&d, want, nwant, nwant - d.n));
	blk = simt_blk_count(buf, len, &blk_err);
	CU_ASSERT_EQUAL(blk_err, 0);
	CU_ASSERT_EQUAL((size_t)blk, d.n);
	simt_decoded_free(&d);
	free(buf);
	simt_fini(&t);
}

static void block_decoder_agrees_with_instruction_decoder(void)
{
	u64 ctls[] = { SIMT_CTL_USER, SIMT_CTL_KERNEL, SIMT_CTL_BOTH,
		       SIMT_CTL_BOTH | RTIT_CTL_DISRETC };
	unsigned int i;

	for (i = 0; i < 4; i++) {
		struct simt_decoded d;
		struct simt t;
		int blk_err;
		size_t len;
		long blk;
		u8 *buf;

		simt_init(&t);
		simt_ring(&t, 16, 0, 0);
		CU_ASSERT_EQUAL_FATAL(simt_arm(&t, ctls[i], TSC0), 0);
		simt_ticks(&t, 200, TSC0);
		simt_stop(&t);
		buf = simt_linear(&t, false, &len);
		simt_decode(buf, len, &d);
		blk = simt_blk_count(buf, len, &blk_err);
		CU_ASSERT_EQUAL(d.error, 0);
		CU_ASSERT_EQUAL(blk_err, 0);
		CU_ASSERT_EQUAL((size_t)blk, d.n);
		simt_decoded_free(&d);
		free(buf);
		simt_fini(&t);
	}
}

static void mtc_stream_with_tma_decodes_with_timing_config(void)
{
	u64 ctl = SIMT_CTL_USER | RTIT_CTL_MTCEN | (3ULL << RTIT_CTL_MTCFREQ_SHIFT);
	struct pt_insn_decoder *dec;
	int types[64] = { 0 };
	struct pt_config cfg;
	struct simt t;
	size_t len, n = 0;
	u64 off[8];
	int status;
	u8 *buf;

	simt_init(&t);
	simt_ring(&t, 4, 0, 0);
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, ctl, TSC0), 0);
	simt_ticks(&t, 5, TSC0);
	simt_stop(&t);
	buf = simt_linear(&t, false, &len);
	psb_offsets(buf, len, off, 8, types);
	CU_ASSERT_EQUAL(types[ppt_tma], 1);	/* in the PSB+ */
	CU_ASSERT_EQUAL(types[ppt_mtc], 5);	/* one per tick */
	/* decode with the timing inputs a capture records (pt-facts section 1) */
	pt_config_init(&cfg);
	cfg.begin = buf;
	cfg.end = buf + len;
	cfg.cpuid_0x15_eax = pts_sim_model_skx.leaf15[0];
	cfg.cpuid_0x15_ebx = pts_sim_model_skx.leaf15[1];
	cfg.mtc_freq = 3;
	cfg.nom_freq = pts_sim_model_skx.nom_ratio;
	dec = pt_insn_alloc_decoder(&cfg);
	pt_image_set_callback(pt_insn_get_image(dec), simt_read_image, NULL);
	status = pt_insn_sync_forward(dec);
	while (status >= 0) {
		struct pt_insn insn;

		while (status >= 0 && (status & pts_event_pending)) {
			struct pt_event ev;

			status = pt_insn_event(dec, &ev, sizeof(ev));
		}
		if (status < 0)
			break;
		status = pt_insn_next(dec, &insn, sizeof(insn));
		if (status >= 0)
			n++;
	}
	CU_ASSERT_EQUAL(status, -pte_eos);
	CU_ASSERT_EQUAL(n, simt_expect("user", 5, want));
	pt_insn_free_decoder(dec);
	free(buf);
	simt_fini(&t);
}

static void branchen_clear_writes_only_psb_and_timing_packets(void)
{
	struct simt_decoded d;
	int types[64] = { 0 };
	struct simt t;
	size_t len;
	u64 off[8];
	u8 *buf;

	simt_init(&t);
	simt_ring(&t, 4, 0, 0);
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, SIMT_CTL_USER & ~RTIT_CTL_BRANCHEN, TSC0), 0);
	simt_ticks(&t, 5, TSC0);
	simt_stop(&t);
	buf = simt_linear(&t, false, &len);
	psb_offsets(buf, len, off, 8, types);
	CU_ASSERT_EQUAL(types[ppt_psb], 1);
	CU_ASSERT_EQUAL(types[ppt_tsc], 6);	/* PSB+ and one per tick */
	CU_ASSERT_EQUAL(types[ppt_tnt_8] + types[ppt_tip] + types[ppt_tip_pge] +
			types[ppt_tip_pgd] + types[ppt_fup], 0);
	simt_decode(buf, len, &d);
	CU_ASSERT_EQUAL(d.error, 0);
	CU_ASSERT_EQUAL(d.n, 0);
	simt_decoded_free(&d);
	free(buf);
	simt_fini(&t);
}

static void enable_with_nonzero_packet_byte_cnt_writes_no_psb_first(void)
{
	struct pt_packet_decoder *dec;
	struct pt_packet pkt;
	struct pt_config cfg;
	struct simt t;
	size_t len;
	u8 *buf;

	simt_init(&t);
	simt_ring(&t, 4, 0, 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_OUTPUT_BASE, t.table, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_OUTPUT_MASK_PTRS, 0x7f, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_STATUS,
				      100ULL << RTIT_STATUS_BYTECNT_SHIFT, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL,
				      SIMT_CTL_USER | RTIT_CTL_TRACEEN, TSC0), 0);
	simt_ticks(&t, 1, TSC0);
	simt_stop(&t);
	buf = simt_linear(&t, false, &len);
	pt_config_init(&cfg);
	cfg.begin = buf;
	cfg.end = buf + len;
	dec = pt_pkt_alloc_decoder(&cfg);
	CU_ASSERT_EQUAL(pt_pkt_sync_set(dec, 0), 0);
	CU_ASSERT(pt_pkt_next(dec, &pkt, sizeof(pkt)) > 0);
	/* SDM 33.2.7.3: no PSB+, only the timing packets (TSC, CBR) at enable */
	CU_ASSERT_EQUAL(pkt.type, ppt_tsc);
	CU_ASSERT(pt_pkt_next(dec, &pkt, sizeof(pkt)) > 0);
	CU_ASSERT_EQUAL(pkt.type, ppt_cbr);
	pt_pkt_free_decoder(dec);
	{
		int types[64] = { 0 };
		u64 off[4];

		psb_offsets(buf, len, off, 4, types);
		CU_ASSERT_EQUAL(types[ppt_psb], 0);
	}
	free(buf);
	simt_fini(&t);
}

PTS_SUITE(sim_decode, sim_decode_init, sim_decode_cleanup,
	  PTS_TEST(user_scope_ticks_decode_to_documented_sequence),
	  PTS_TEST(kernel_scope_ticks_decode_to_documented_sequence),
	  PTS_TEST(both_scope_is_one_enable_with_syscall_and_sysret_tips),
	  PTS_TEST(disretc_returns_as_tips_decode_to_the_same_sequence),
	  PTS_TEST(last_tsc_is_the_tsc_of_the_last_tick),
	  PTS_TEST(no_tsc_packets_without_tscen),
	  PTS_TEST(psb_every_psbfreq_bytes_and_each_psb_is_a_sync_point),
	  PTS_TEST(wrapped_ring_decodes_from_first_psb_to_the_end),
	  PTS_TEST(block_decoder_agrees_with_instruction_decoder),
	  PTS_TEST(mtc_stream_with_tma_decodes_with_timing_config),
	  PTS_TEST(branchen_clear_writes_only_psb_and_timing_packets),
	  PTS_TEST(enable_with_nonzero_packet_byte_cnt_writes_no_psb_first))
