// SPDX-License-Identifier: GPL-2.0
/*
 * A TIP whose IP is suppressed (a damaged trace) at a call and a jump
 * that read their targets through a RIP-relative operand (PLT/GOT code,
 * -fno-plt builds). They are indirect branches (SDM §33.2.1): libipt
 * 2.0.5 asks the trace for their targets, and the first decode of their
 * blocks fails with "no ip" where its block cache would go on at the
 * branch itself (test_decode_tip_suppressed.c says why the decoder gives
 * the cache's answer). Zydis marks the RIP-relative memory operand
 * "relative" as it does a direct branch's displacement: a decoder that
 * took that mark for "needs no TIP" reported a gap here.
 *
 * Code (raw bytes mapped at 0x401000, decoded by hand):
 *   401000 nop                 90
 *   401001 call *0x0(%rip)     ff 15 00 00 00 00
 *   401007 jmp *0x0(%rip)      ff 25 00 00 00 00
 *   40100d ret                 c3
 * Stream (libipt's encoder), after PSB+ and TIP.PGE(401000):
 *   TIP(suppressed) TIP(40100d)   the call, twice: to the ret
 *   TIP(401007)                   the ret, back to the jump
 *   TIP(suppressed) TIP(40100d)   the jump, twice
 *   TIP.PGD(suppressed)           tracing stops at the ret
 * The cache's answer, by hand: each branch goes to itself, then, at its
 * second pass, to the TIP's target; no gap. (The call's target is not
 * its fall-through, which the decoder does not list as a call.)
 */
#include <stdio.h>

#include "unit.h"
#include "code_fixture.h"

CODE_FIXTURE_SUITE(fx, "tipsuprip", 0x90, 0xff, 0x15, 0x00, 0x00, 0x00, 0x00,
		   0xff, 0x25, 0x00, 0x00, 0x00, 0x00, 0xc3);

static void suppressed_tips_at_rip_relative_indirect_branches_go_on_at_the_branch(void)
{
	struct pts_imgset *set = code_fixture_set(&fx);
	struct pts_ptdec_stats st;
	struct pt_gen g;
	char got[512];

	gen_init(&g);
	gen_psb_plus(&g, 1000);
	gen_ip(&g, ppt_tip_pge, 0x401000);
	gen_ip_suppressed(&g, ppt_tip);
	gen_ip(&g, ppt_tip, 0x40100d);
	gen_ip(&g, ppt_tip, 0x401007);
	gen_ip_suppressed(&g, ppt_tip);
	gen_ip(&g, ppt_tip, 0x40100d);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	code_fixture_events(&g, set, got, sizeof(got), &st);
	CU_ASSERT_STRING_EQUAL(got,
			       "cbr 0>0\n"
			       "enabled 0>401000\n"
			       "call 401001>401001\n"
			       "call 401001>40100d\n"
			       "return 40100d>401007\n"
			       "jump 401007>401007\n"
			       "jump 401007>40100d\n"
			       "disabled 40100d>0\n");
	CU_ASSERT_EQUAL(st.gaps, 0);
	pts_imgset_free(set);
}

PTS_SUITE(decode_tip_suppressed_riprel, suite_init, suite_cleanup,
	  PTS_TEST(suppressed_tips_at_rip_relative_indirect_branches_go_on_at_the_branch));
