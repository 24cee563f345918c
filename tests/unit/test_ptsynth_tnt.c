// SPDX-License-Identifier: GPL-2.0
/*
 * TNT packets (SDM §33.4.2.1): one bit per conditional branch, oldest
 * branch in the most significant payload bit; a short TNT holds at most 6
 * bits (libipt 2.0.5's encoder limit), a long TNT up to 47. Packets are
 * read back with libipt's packet decoder.
 */
#include "ptsynth_pkts.h"
#include "unit.h"

static struct pkts k;

/* Feed n conditional branches at 0x1000, 0x1002, ...; taken when pattern bit i is set. */
static struct ptsynth_enc *branches(const struct ptsynth_config *c, unsigned int n,
				    uint64_t pattern)
{
	struct ptsynth_enc *e = ptsynth_enc_new(c, NULL, NULL);
	uint64_t ip = 0x401000;

	for (unsigned int i = 0; i < n; i++) {
		bool taken = (pattern >> i) & 1;
		struct ptsynth_insn in = insn(ip, 2, PTSYNTH_IC_JCC, taken ? ip + 0x20 : ip + 2);

		CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
		ip = in.next_ip;
	}
	CU_ASSERT_EQUAL(ptsynth_enc_finish(e, 2000), 0);
	return e;
}

static void six_branches_fill_one_short_tnt_oldest_first(void)
{
	struct ptsynth_config c;
	struct ptsynth_enc *e;
	int i;

	cfg_plain(&c);
	/* taken, taken, not, taken, not, not -> payload 110100b = 0x34 */
	e = branches(&c, 6, 0x0b);
	CU_ASSERT(pkts_read(e, &k) > 0);
	CU_ASSERT_EQUAL(pkts_count(&k, ppt_tnt_8), 1);
	i = pkts_find(&k, ppt_tnt_8, 0);
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_EQUAL(k.p[i].payload.tnt.bit_size, 6);
	CU_ASSERT_EQUAL(k.p[i].payload.tnt.payload, 0x34);
	ptsynth_enc_free(e);
}

static void seventh_branch_starts_a_second_short_tnt(void)
{
	struct ptsynth_config c;
	struct ptsynth_enc *e;
	int i;

	cfg_plain(&c);
	e = branches(&c, 7, 0x7f);
	CU_ASSERT(pkts_read(e, &k) > 0);
	CU_ASSERT_EQUAL(pkts_count(&k, ppt_tnt_8), 2);
	i = pkts_find(&k, ppt_tnt_8, 0);
	i = pkts_find(&k, ppt_tnt_8, (size_t)i + 1);
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_EQUAL(k.p[i].payload.tnt.bit_size, 1);
	ptsynth_enc_free(e);
}

static void long_tnt_carries_47_branches_in_one_packet(void)
{
	struct ptsynth_config c;
	struct ptsynth_enc *e;
	int i;

	cfg_plain(&c);
	c.long_tnt = true;
	e = branches(&c, 47, 0x5555555555555ULL);
	CU_ASSERT(pkts_read(e, &k) > 0);
	CU_ASSERT_EQUAL(pkts_count(&k, ppt_tnt_64), 1);
	CU_ASSERT_EQUAL(pkts_count(&k, ppt_tnt_8), 0);
	i = pkts_find(&k, ppt_tnt_64, 0);
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_EQUAL(k.p[i].payload.tnt.bit_size, 47);
	ptsynth_enc_free(e);
}

PTS_SUITE(ptsynth_tnt, NULL, NULL,
	  PTS_TEST(six_branches_fill_one_short_tnt_oldest_first),
	  PTS_TEST(seventh_branch_starts_a_second_short_tnt),
	  PTS_TEST(long_tnt_carries_47_branches_in_one_packet));
