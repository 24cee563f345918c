// SPDX-License-Identifier: GPL-2.0
/*
 * A TIP whose IP is suppressed, at an indirect jump (a damaged trace).
 * libipt 2.0.5 answers differently depending on its block cache: the
 * first decode of the jump's block fails with "no ip", a decode from the
 * cache goes on at the jump itself (pt_blk_proceed_no_event_cached). The
 * cache belongs to the section, shared by every decoder of the image
 * section cache, so a serial decode and chunks decoded in parallel met
 * different answers (fuzz finding 11, docs/fuzzing.md). The decoder must
 * give one answer, the cache's, whatever was decoded before.
 *
 * Code (raw bytes mapped at 0x401000, decoded by hand):
 *   401000 nop            401001 jmp *%rax (ff e0)
 *   401003 ret
 * Streams (libipt's encoder), after PSB+ and TIP.PGE(401000):
 *   damaged: TIP(suppressed) TIP(401003) TIP.PGD(suppressed, at the ret)
 *   warm-up: TIP(401003) TIP.PGD(suppressed): the jump's block decoded,
 *            so in the cache
 * The cache's answer, by hand: the core:bus ratio of the PSB+, tracing
 * enabled at 401000, the jump going to itself (the block after it starts
 * at 401001), then, at its second pass, to 401003; tracing stops at the
 * ret. No gap.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"
#include "code_fixture.h"

CODE_FIXTURE_SUITE(fx, "tipsup", 0x90, 0xff, 0xe0, 0xc3);

static void start(struct pt_gen *g)
{
	gen_init(g);
	gen_psb_plus(g, 1000);
	gen_ip(g, ppt_tip_pge, 0x401000);
}

static void damaged(struct pt_gen *g)
{
	start(g);
	gen_ip_suppressed(g, ppt_tip);
	gen_ip(g, ppt_tip, 0x401003);
	gen_ip_suppressed(g, ppt_tip_pgd);
}

static void warm_up(struct pt_gen *g)
{
	start(g);
	gen_ip(g, ppt_tip, 0x401003);
	gen_ip_suppressed(g, ppt_tip_pgd);
}

/* The events of g's stream decoded over set, as "kind from>to" lines; its gaps counted. */
static void decode(struct pt_gen *g, struct pts_imgset *set, char *out, size_t len,
		   uint64_t *gaps)
{
	struct pts_ptdec_stats st;

	code_fixture_events(g, set, out, len, &st);
	*gaps = st.gaps;
}

static const char expected[] =
	"cbr 0>0\n"
	"enabled 0>401000\n"
	"jump 401001>401001\n"
	"jump 401001>401003\n"
	"disabled 401003>0\n";

/* The damaged stream decoded over set gives the cache's answer, without a gap. */
static void check_damaged(struct pts_imgset *set)
{
	struct pt_gen g;
	char got[512];
	uint64_t gaps;

	damaged(&g);
	decode(&g, set, got, sizeof(got), &gaps);
	CU_ASSERT_STRING_EQUAL(got, expected);
	CU_ASSERT_EQUAL(gaps, 0);
}

static void suppressed_tip_at_a_jump_decoded_first_goes_on_at_the_jump(void)
{
	struct pts_imgset *set = code_fixture_set(&fx);

	check_damaged(set);
	pts_imgset_free(set);
}

static void suppressed_tip_at_a_jump_in_the_block_cache_goes_on_at_the_jump(void)
{
	struct pts_imgset *set = code_fixture_set(&fx);
	struct pt_gen g;
	char got[512];
	uint64_t gaps;

	warm_up(&g);
	decode(&g, set, got, sizeof(got), &gaps);
	CU_ASSERT_STRING_EQUAL(got, "cbr 0>0\nenabled 0>401000\njump 401001>401003\ndisabled 401003>0\n");
	check_damaged(set);
	pts_imgset_free(set);
}

PTS_SUITE(decode_tip_suppressed, suite_init, suite_cleanup,
	  PTS_TEST(suppressed_tip_at_a_jump_decoded_first_goes_on_at_the_jump),
	  PTS_TEST(suppressed_tip_at_a_jump_in_the_block_cache_goes_on_at_the_jump));
