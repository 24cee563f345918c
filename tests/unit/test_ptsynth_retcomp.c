// SPDX-License-Identifier: GPL-2.0
/*
 * RET compression (SDM §33.4.2.2, "Indirect Transfer Compression for
 * Returns"): a RET to the instruction after its CALL is one taken TNT
 * bit; with DisRETC, or when the CALL is no longer on the 64-entry stack,
 * or came before the last PSB (§33.2.1.2), the RET gets a TIP.
 */
#include "ptsynth_pkts.h"
#include "unit.h"

static struct pkts k;

/* depth nested direct calls from 0x401000 + 16*i to 0x500000 + 16*i, then
 * `depth` returns. */
static struct ptsynth_enc *nest(const struct ptsynth_config *c, unsigned int depth)
{
	struct ptsynth_enc *e = ptsynth_enc_new(c, NULL, NULL);
	struct ptsynth_insn in;
	unsigned int i;

	for (i = 0; i < depth; i++) {
		in = insn(0x401000 + 16 * i, 5, PTSYNTH_IC_CALL_DIRECT, 0x500000 + 16 * i);
		CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
		/* the callee's first instruction is the next call (at the caller
		 * stride) - only the return addresses matter here */
	}
	for (i = depth; i-- > 0;) {
		in = insn(0x600000 + 16 * i, 1, PTSYNTH_IC_RET, 0x401000 + 16 * i + 5);
		CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
	}
	CU_ASSERT_EQUAL(ptsynth_enc_finish(e, 2000), 0);
	return e;
}

static void matched_return_is_one_taken_tnt_bit_not_a_tip(void)
{
	struct ptsynth_config c;
	struct ptsynth_enc *e;
	int i;

	cfg_plain(&c);
	e = nest(&c, 1);
	CU_ASSERT(pkts_read(e, &k) > 0);
	CU_ASSERT_EQUAL(pkts_count(&k, ppt_tip), 0);
	i = pkts_find(&k, ppt_tnt_8, 0);
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_EQUAL(k.p[i].payload.tnt.bit_size, 1);
	CU_ASSERT_EQUAL(k.p[i].payload.tnt.payload, 1);
	CU_ASSERT_EQUAL(ptsynth_enc_stats(e)->ret_compressed, 1);
	ptsynth_enc_free(e);
}

static void disretc_gives_every_return_a_tip(void)
{
	struct ptsynth_config c;
	struct ptsynth_enc *e;

	cfg_plain(&c);
	c.disretc = true;
	e = nest(&c, 3);
	CU_ASSERT(pkts_read(e, &k) > 0);
	CU_ASSERT_EQUAL(pkts_count(&k, ppt_tip), 3);
	CU_ASSERT_EQUAL(pkts_count(&k, ppt_tnt_8), 0);
	ptsynth_enc_free(e);
}

static void return_past_64_nested_calls_is_not_compressed(void)
{
	struct ptsynth_config c;
	struct ptsynth_enc *e;

	cfg_plain(&c);
	c.psb_freq = 15;	/* no PSB in between */
	e = nest(&c, PTSYNTH_RETSTACK_DEPTH + 1);
	CU_ASSERT(pkts_read(e, &k) > 0);
	/* 64 returns find their call; the outermost one was pushed out */
	CU_ASSERT_EQUAL(ptsynth_enc_stats(e)->ret_compressed, PTSYNTH_RETSTACK_DEPTH);
	CU_ASSERT_EQUAL(ptsynth_enc_stats(e)->ret_uncompressed, 1);
	CU_ASSERT_EQUAL(pkts_count(&k, ppt_tip), 1);
	ptsynth_enc_free(e);
}

static void call_to_next_instruction_is_not_a_call_for_compression(void)
{
	struct ptsynth_config c;
	struct ptsynth_enc *e;
	struct ptsynth_insn in;

	cfg_plain(&c);
	e = ptsynth_enc_new(&c, NULL, NULL);
	/* call 0x401005 (displacement 0), pop; a later ret to 0x401005 has no call */
	in = insn(0x401000, 5, PTSYNTH_IC_CALL_DIRECT, 0x401005);
	CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
	in = insn(0x401005, 1, PTSYNTH_IC_RET, 0x401005);
	CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
	CU_ASSERT_EQUAL(ptsynth_enc_stats(e)->ret_uncompressed, 1);
	ptsynth_enc_free(e);
}

PTS_SUITE(ptsynth_retcomp, NULL, NULL,
	  PTS_TEST(matched_return_is_one_taken_tnt_bit_not_a_tip),
	  PTS_TEST(disretc_gives_every_return_a_tip),
	  PTS_TEST(return_past_64_nested_calls_is_not_compressed),
	  PTS_TEST(call_to_next_instruction_is_not_a_call_for_compression));
