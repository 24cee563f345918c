// SPDX-License-Identifier: GPL-2.0
/*
 * Overflow model (SDM §33.4.2.16 "OVF"): once due, the overflow starts
 * right after an instruction that produced a packet (its TNT is flushed
 * first), the packets of the next ovf_lost traced instructions are
 * dropped and reported as lost, then OVF and FUP with the IP where
 * decoding resumes (last-IP reset: sign-extended 48-bit form).
 */
#include <string.h>

#include "ptsynth_pkts.h"
#include "unit.h"

static struct pkts k;

struct seen {
	char kinds[256];
	uint64_t ip[256];
	int n;
};

static void on_gt(void *ctx, const struct ptsynth_gt_rec *r)
{
	struct seen *s = ctx;

	if (r->kind != PTSYNTH_GT_PSB && s->n < 256) {
		s->kinds[s->n] = (char)r->kind;
		s->ip[s->n++] = r->ip;
	}
}

static void overflow_drops_packets_then_ovf_and_fup_at_resume_ip(void)
{
	struct ptsynth_config c;
	struct ptsynth_enc *e;
	struct seen s;
	uint64_t ip = 0x401000;
	int i, ovf;

	memset(&s, 0, sizeof(s));
	cfg_plain(&c);
	c.ovf_every = 4;
	c.ovf_lost = 3;
	e = ptsynth_enc_new(&c, on_gt, &s);
	/* 10 taken conditional branches, each 2 bytes, each to ip + 0x10 */
	for (i = 0; i < 10; i++) {
		struct ptsynth_insn in = insn(ip, 2, PTSYNTH_IC_JCC, ip + 0x10);

		CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
		ip += 0x10;
	}
	CU_ASSERT_EQUAL(ptsynth_enc_finish(e, 5000), 0);
	/* e, i i i i (the 4th arms the overflow and produced a bit, so the
	 * 5th is the first lost), l l l, o at the 8th, i i i */
	CU_ASSERT_EQUAL(s.n, 1 + 4 + 3 + 1 + 3);
	CU_ASSERT_NSTRING_EQUAL(s.kinds, "eiiiilllo", 9);
	CU_ASSERT_EQUAL(s.ip[8], 0x401070);
	CU_ASSERT_EQUAL(ptsynth_enc_stats(e)->insns_lost, 3);

	CU_ASSERT(pkts_read(e, &k) > 0);
	ovf = pkts_find(&k, ppt_ovf, 0);
	CU_ASSERT_FATAL(ovf > 0);
	/* before it: the 4 bits of the traced branches */
	CU_ASSERT_EQUAL(k.p[ovf - 1].type, ppt_tnt_8);
	CU_ASSERT_EQUAL(k.p[ovf - 1].payload.tnt.bit_size, 4);
	CU_ASSERT_EQUAL(k.p[ovf + 1].type, ppt_fup);
	CU_ASSERT_EQUAL(k.p[ovf + 1].payload.ip.ipc, pt_ipc_sext_48);
	CU_ASSERT_EQUAL(k.p[ovf + 1].payload.ip.ip, 0x401070);
	ptsynth_enc_free(e);
}

PTS_SUITE(ptsynth_ovf, NULL, NULL,
	  PTS_TEST(overflow_drops_packets_then_ovf_and_fup_at_resume_ip));
