// SPDX-License-Identifier: GPL-2.0
/*
 * A PSB+ without MODE.Exec (a damaged trace): libipt's decoder does not
 * know the execution mode until the next exec mode event. libipt 2.0.5
 * answers differently depending on its block cache: decoding the first
 * block itself, it fails at its first instruction ("unknown
 * instruction"); from the cache it goes on in the mode the block was
 * cached in (pt_blk_proceed_no_event_cached). The cache belongs to the
 * section, shared by every decoder of the image section cache, so a
 * serial decode and chunks decoded in parallel met different answers
 * (fuzz finding 16, docs/fuzzing.md). The decoder must give one answer,
 * the first, whatever was decoded before.
 *
 * Code (raw bytes mapped at 0x401000, decoded by hand):
 *   401000 nop            401001 jmp *%rax (ff e0)
 *   401003 ret
 * Streams (libipt's encoder):
 *   damaged: PSB TSC CBR FUP(401000) PSBEND, TIP(401003), TIP.PGD
 *            (suppressed): tracing on at 401000, the mode unknown
 *   warm-up: PSB+ with MODE.Exec 64-bit, TIP.PGE(401000), TIP(401003),
 *            TIP.PGD (suppressed): the jump's block decoded in 64-bit
 *            mode, so in the cache
 * The first answer, by hand: the core:bus ratio of the PSB+, then a gap
 * at the first instruction, at the trace offset after the PSB+ (nothing
 * of the TIPs consumed); no other PSB to go on from.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"
#include "code_fixture.h"

CODE_FIXTURE_SUITE(fx, "modeunk", 0x90, 0xff, 0xe0, 0xc3);

/* The damaged stream; *after_psb: the trace offset after its PSB+. */
static void damaged(struct pt_gen *g, uint64_t *after_psb)
{
	gen_init(g);
	gen_simple(g, ppt_psb);
	gen_tsc(g, 1000);
	gen_cbr(g, 37);
	gen_ip(g, ppt_fup, 0x401000);
	gen_simple(g, ppt_psbend);
	*after_psb = gen_len(g);
	gen_ip(g, ppt_tip, 0x401003);
	gen_ip_suppressed(g, ppt_tip_pgd);
}

static void warm_up(struct pt_gen *g)
{
	gen_init(g);
	gen_psb_plus(g, 1000);
	gen_ip(g, ppt_tip_pge, 0x401000);
	gen_ip(g, ppt_tip, 0x401003);
	gen_ip_suppressed(g, ppt_tip_pgd);
}

/* The damaged stream decoded over set gives the first answer: a gap after the PSB+. */
static void check_damaged(struct pts_imgset *set)
{
	struct pt_gen g;
	uint64_t after_psb;
	char got[512], want[256];

	damaged(&g, &after_psb);
	snprintf(want, sizeof(want), "cbr 0>0\ngap 0>0 unknown instruction @%llu\n",
		 (unsigned long long)after_psb);
	code_fixture_events(&g, set, got, sizeof(got), NULL);
	CU_ASSERT_STRING_EQUAL(got, want);
}

static void psb_without_mode_decoded_first_is_a_gap_at_the_first_instruction(void)
{
	struct pts_imgset *set = code_fixture_set(&fx);

	check_damaged(set);
	pts_imgset_free(set);
}

static void psb_without_mode_in_the_block_cache_is_a_gap_at_the_first_instruction(void)
{
	struct pts_imgset *set = code_fixture_set(&fx);
	struct pt_gen g;
	char got[512];

	warm_up(&g);
	code_fixture_events(&g, set, got, sizeof(got), NULL);
	CU_ASSERT_STRING_EQUAL(got, "cbr 0>0\nenabled 0>401000\njump 401001>401003\n"
				    "disabled 401003>0\n");
	check_damaged(set);
	pts_imgset_free(set);
}

PTS_SUITE(decode_mode_unknown, suite_init, suite_cleanup,
	  PTS_TEST(psb_without_mode_decoded_first_is_a_gap_at_the_first_instruction),
	  PTS_TEST(psb_without_mode_in_the_block_cache_is_a_gap_at_the_first_instruction));
