// SPDX-License-Identifier: GPL-2.0
/*
 * User-only scope (RTIT_CTL.User, pt-facts §5): a SYSCALL is a TIP.PGD
 * with the IP suppressed, the next user instruction MODE.Exec + TIP.PGE
 * at its IP; an asynchronous transfer (signal, interrupt) is FUP at the
 * interrupted IP + TIP.PGD; with both rings traced the same transfer is
 * FUP + TIP to the target.
 */
#include "ptsynth_pkts.h"
#include "unit.h"

static struct pkts k;

static void syscall_is_suppressed_pgd_and_return_is_mode_exec_then_pge(void)
{
	struct ptsynth_config c;
	struct ptsynth_enc *e;
	struct ptsynth_insn in;
	int i;

	cfg_plain(&c);
	e = ptsynth_enc_new(&c, NULL, NULL);
	in = insn(0x401000, 2, PTSYNTH_IC_FAR, 0);
	in.next_ring = 0;
	CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
	CU_ASSERT_FALSE(ptsynth_enc_packet_en(e));
	in = insn(0x401002, 1, PTSYNTH_IC_OTHER, 0x401003);
	CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
	CU_ASSERT(pkts_read(e, &k) > 0);
	i = pkts_find(&k, ppt_tip_pgd, 0);
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_EQUAL(k.p[i].payload.ip.ipc, pt_ipc_suppressed);
	CU_ASSERT_EQUAL(k.p[i + 1].type, ppt_mode);
	CU_ASSERT_EQUAL(k.p[i + 1].payload.mode.leaf, pt_mol_exec);
	CU_ASSERT_EQUAL(k.p[i + 2].type, ppt_tip_pge);
	CU_ASSERT_EQUAL(k.p[i + 2].payload.ip.ip & 0xffff, 0x1002);
	ptsynth_enc_free(e);
}

static void signal_in_user_scope_is_fup_at_interrupted_ip_then_pgd(void)
{
	struct ptsynth_config c;
	struct ptsynth_enc *e;
	struct ptsynth_insn in;
	int i;

	cfg_plain(&c);
	e = ptsynth_enc_new(&c, NULL, NULL);
	in = insn(0x401000, 3, PTSYNTH_IC_OTHER, 0x401003);
	CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
	CU_ASSERT_EQUAL(ptsynth_enc_async(e, 0x401003, 0, 0, 1100), 0);
	CU_ASSERT(pkts_read(e, &k) > 0);
	i = pkts_find(&k, ppt_fup, 0);
	/* the PSB+ at the start has no FUP: tracing was not yet enabled */
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_EQUAL(k.p[i].payload.ip.ip & 0xffff, 0x1003);
	CU_ASSERT_EQUAL(k.p[i + 1].type, ppt_tip_pgd);
	CU_ASSERT_EQUAL(k.p[i + 1].payload.ip.ipc, pt_ipc_suppressed);
	ptsynth_enc_free(e);
}

static void signal_with_both_rings_traced_is_fup_then_tip(void)
{
	struct ptsynth_config c;
	struct ptsynth_enc *e;
	struct ptsynth_insn in;
	int i;

	cfg_plain(&c);
	c.trace_os = true;
	e = ptsynth_enc_new(&c, NULL, NULL);
	in = insn(0x401000, 3, PTSYNTH_IC_OTHER, 0x401003);
	CU_ASSERT_EQUAL(ptsynth_enc_insn(e, &in), 0);
	CU_ASSERT_EQUAL(ptsynth_enc_async(e, 0x401003, 0xffffffff81000000, 0, 1100), 0);
	CU_ASSERT(pkts_read(e, &k) > 0);
	i = pkts_find(&k, ppt_fup, 0);
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_EQUAL(k.p[i + 1].type, ppt_tip);
	CU_ASSERT_EQUAL(pkts_count(&k, ppt_tip_pgd), 0);
	CU_ASSERT_TRUE(ptsynth_enc_packet_en(e));
	ptsynth_enc_free(e);
}

PTS_SUITE(ptsynth_scope, NULL, NULL,
	  PTS_TEST(syscall_is_suppressed_pgd_and_return_is_mode_exec_then_pge),
	  PTS_TEST(signal_in_user_scope_is_fup_at_interrupted_ip_then_pgd),
	  PTS_TEST(signal_with_both_rings_traced_is_fup_then_tip));
