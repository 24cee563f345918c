// SPDX-License-Identifier: GPL-2.0
/*
 * IP compression (SDM §33.4.2.2, "IP compression"): the encoder picks
 * the shortest form the decoder's last-IP can expand: update-16 when only
 * the low 16 bits differ, update-32 for the low 32, sign-extend-48 after
 * a PSB (last-IP reset); a suppressed IP (IPBytes 000) leaves last-IP
 * unchanged. Expected forms derived by hand from the addresses.
 */
#include "ptsynth_pkts.h"
#include "unit.h"

static struct pkts k;

static void first_ip_after_psb_is_sext48_then_update16_and_update32(void)
{
	struct ptsynth_config c;
	struct ptsynth_enc *e;
	struct ptsynth_insn in;
	int i;

	cfg_plain(&c);
	e = ptsynth_enc_new(&c, NULL, NULL);
	/* jmp *%rax at 0x7f0000401000 -> 0x7f0000401234 (same upper 48 bits) */
	in = insn(0x7f0000401000, 2, PTSYNTH_IC_JMP_INDIRECT, 0x7f0000401234);
	CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
	/* -> 0x7f0000501000: upper 32 bits equal, bits 16..31 differ */
	in = insn(0x7f0000401234, 2, PTSYNTH_IC_JMP_INDIRECT, 0x7f0000501000);
	CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
	CU_ASSERT(pkts_read(e, &k) > 0);

	i = pkts_find(&k, ppt_tip_pge, 0);
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_EQUAL(k.p[i].payload.ip.ipc, pt_ipc_sext_48);
	i = pkts_find(&k, ppt_tip, 0);
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_EQUAL(k.p[i].payload.ip.ipc, pt_ipc_update_16);
	CU_ASSERT_EQUAL(k.p[i].payload.ip.ip, 0x1234);
	i = pkts_find(&k, ppt_tip, (size_t)i + 1);
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_EQUAL(k.p[i].payload.ip.ipc, pt_ipc_update_32);
	CU_ASSERT_EQUAL(k.p[i].payload.ip.ip, 0x00501000);
	ptsynth_enc_free(e);
}

static void suppressed_pgd_keeps_last_ip_for_the_next_pge(void)
{
	struct ptsynth_config c;
	struct ptsynth_enc *e;
	struct ptsynth_insn in;
	int i;

	cfg_plain(&c);
	e = ptsynth_enc_new(&c, NULL, NULL);
	/* syscall at 0x7f0000401000 (to ring 0), returns to 0x7f0000401002 */
	in = insn(0x7f0000401000, 2, PTSYNTH_IC_FAR, 0xffffffff81000000);
	in.next_ring = 0;
	CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
	in = insn(0x7f0000401002, 1, PTSYNTH_IC_OTHER, 0x7f0000401003);
	CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
	CU_ASSERT(pkts_read(e, &k) > 0);
	i = pkts_find(&k, ppt_tip_pgd, 0);
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_EQUAL(k.p[i].payload.ip.ipc, pt_ipc_suppressed);
	/* last-IP is still the first PGE's 0x7f0000401000: update-16 suffices */
	i = pkts_find(&k, ppt_tip_pge, (size_t)i);
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_EQUAL(k.p[i].payload.ip.ipc, pt_ipc_update_16);
	CU_ASSERT_EQUAL(k.p[i].payload.ip.ip, 0x1002);
	ptsynth_enc_free(e);
}

PTS_SUITE(ptsynth_ipc, NULL, NULL,
	  PTS_TEST(first_ip_after_psb_is_sext48_then_update16_and_update32),
	  PTS_TEST(suppressed_pgd_keeps_last_ip_for_the_next_pge));
