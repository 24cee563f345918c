// SPDX-License-Identifier: GPL-2.0
/*
 * PSB+ (SDM §33.4.2.17/18): the stream opens with PSB+; another follows
 * once 2 KiB << PSBFreq bytes were written since the last PSB, at an
 * instruction boundary: PSB, TSC, TMA, CBR, MODE.Exec, FUP(the IP of the
 * next instruction), PSBEND. MTC payloads are ART[MTCFreq+7:MTCFreq]
 * (§33.4.2.12).
 */
#include "ptsynth_pkts.h"
#include "unit.h"

static struct pkts k;

struct psb_seen {
	uint64_t off[64];
	uint64_t ip[64];
	int n;
};

static void on_gt(void *ctx, const struct ptsynth_gt_rec *r)
{
	struct psb_seen *s = ctx;

	if (r->kind == PTSYNTH_GT_PSB && s->n < 64) {
		s->off[s->n] = r->offset;
		s->ip[s->n++] = r->ip;
	}
}

static void psb_plus_repeats_every_2k_with_fup_at_next_instruction(void)
{
	struct ptsynth_config c;
	struct ptsynth_enc *e;
	struct psb_seen seen = { .n = 0 };
	uint64_t ip = 0x401000;
	int i, psb2;

	ptsynth_config_default(&c);		/* TSC + MTC on */
	e = ptsynth_enc_new(&c, on_gt, &seen);
	/* indirect jumps far apart: each TIP costs 7 bytes (sext-48 impossible
	 * to avoid? no: update-32), enough to pass 2 KiB quickly */
	for (i = 0; i < 1000; i++) {
		struct ptsynth_insn in = insn(ip, 2, PTSYNTH_IC_JMP_INDIRECT,
					      ip + 0x10000 * (i % 2 ? 1 : 3));

		in.tsc = 1000 + 10 * (uint64_t)i;
		CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
		ip = in.next_ip;
	}
	CU_ASSERT(pkts_read(e, &k) > 0);
	CU_ASSERT_EQUAL(k.p[0].type, ppt_psb);
	CU_ASSERT(seen.n >= 2);
	CU_ASSERT_EQUAL(seen.off[0], 0);
	CU_ASSERT_EQUAL(seen.ip[0], 0);		/* not yet enabled: no FUP */
	psb2 = pkts_find(&k, ppt_psb, 1);
	CU_ASSERT_FATAL(psb2 > 0);
	CU_ASSERT_EQUAL(k.off[psb2], seen.off[1]);
	CU_ASSERT(seen.off[1] >= 2048 && seen.off[1] < 2048 + 32);
	CU_ASSERT_EQUAL(k.p[psb2 + 1].type, ppt_tsc);
	CU_ASSERT_EQUAL(k.p[psb2 + 2].type, ppt_tma);
	CU_ASSERT_EQUAL(k.p[psb2 + 3].type, ppt_cbr);
	CU_ASSERT_EQUAL(k.p[psb2 + 3].payload.cbr.ratio, 21);
	CU_ASSERT_EQUAL(k.p[psb2 + 4].type, ppt_mode);
	CU_ASSERT_EQUAL(k.p[psb2 + 5].type, ppt_fup);
	CU_ASSERT_EQUAL(k.p[psb2 + 5].payload.ip.ipc, pt_ipc_sext_48);	/* last-IP reset */
	CU_ASSERT_EQUAL(k.p[psb2 + 5].payload.ip.ip, seen.ip[1]);
	CU_ASSERT_EQUAL(k.p[psb2 + 6].type, ppt_psbend);
	ptsynth_enc_free(e);
}

static void mtc_payload_is_art_bits_at_mtcfreq(void)
{
	struct ptsynth_config c;
	struct ptsynth_enc *e;
	struct ptsynth_insn in;
	int i;

	ptsynth_config_default(&c);
	e = ptsynth_enc_new(&c, NULL, NULL);
	/* ART = TSC * 2 / 168; MTCFreq 3: one MTC per 8 ART ticks = 672 TSC
	 * ticks. From TSC 0 to 672*5 + 1 the period index goes 0 -> 5. */
	in = insn(0x401000, 1, PTSYNTH_IC_OTHER, 0x401001);
	in.tsc = 0;
	CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
	CU_ASSERT_EQUAL(ptsynth_enc_advance(e, 672 * 5 + 1), 0);
	CU_ASSERT(pkts_read(e, &k) > 0);
	CU_ASSERT_EQUAL(pkts_count(&k, ppt_mtc), 5);
	i = pkts_find(&k, ppt_mtc, 0);
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_EQUAL(k.p[i].payload.mtc.ctc, 1);
	ptsynth_enc_free(e);
}

static void with_cyc_every_mtc_follows_a_cyc_up_to_its_period_boundary(void)
{
	struct ptsynth_config c;
	struct ptsynth_enc *e;
	struct ptsynth_insn in;
	uint64_t cycles = 0;
	size_t i;

	ptsynth_config_default(&c);
	c.cyc_en = true;
	e = ptsynth_enc_new(&c, NULL, NULL);
	/* start at TSC 100, then 3 periods of 672 ticks go by in the kernel */
	in = insn(0x401000, 1, PTSYNTH_IC_OTHER, 0x401001);
	in.tsc = 100;
	CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
	CU_ASSERT_EQUAL(ptsynth_enc_advance(e, 672 * 3 + 10), 0);
	CU_ASSERT(pkts_read(e, &k) > 0);
	CU_ASSERT_EQUAL(pkts_count(&k, ppt_mtc), 3);
	for (i = 1; i < k.n; i++) {
		if (k.p[i].type == ppt_cyc)
			cycles += k.p[i].payload.cyc.value;
		if (k.p[i].type != ppt_mtc)
			continue;
		CU_ASSERT_EQUAL(k.p[i - 1].type, ppt_cyc);
		/* the cycles so far end exactly at this period's boundary */
		CU_ASSERT_EQUAL(100 + cycles, 672 * (uint64_t)k.p[i].payload.mtc.ctc);
	}
	ptsynth_enc_free(e);
}

PTS_SUITE(ptsynth_psb, NULL, NULL,
	  PTS_TEST(with_cyc_every_mtc_follows_a_cyc_up_to_its_period_boundary),
	  PTS_TEST(psb_plus_repeats_every_2k_with_fup_at_next_instruction),
	  PTS_TEST(mtc_payload_is_art_bits_at_mtcfreq));
