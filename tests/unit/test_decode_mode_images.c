// SPDX-License-Identifier: GPL-2.0
/*
 * The same code decoded as 64-bit and as 32-bit code (a damaged trace's
 * MODE.Exec, or a compat process). libipt 2.0.5 takes a block from its
 * block cache in the mode it was cached in, whatever its decoder's mode
 * (pt_blk_proceed_no_event_cached); decoding the block itself, it uses
 * its decoder's. The cache is the section's, and the image section
 * cache's sections are shared by every decoder of the image set, so a
 * serial decode and chunks decoded in parallel met different answers
 * (fuzz finding 17, docs/fuzzing.md). The decoder decodes 16- and 32-bit
 * code with images of their own sections (pts_imgset_image_mode): the
 * answer is the decoder's mode's, whatever was decoded before.
 *
 * Code (raw bytes mapped at 0x401000, decoded by hand):
 *   64-bit: 401000 jmp *%rax (48 ff e0, REX.W)      401003 ret
 *   32-bit: 401000 dec %eax (48)  401001 jmp *%eax  401003 ret
 * Streams (libipt's encoder): PSB+ with MODE.Exec of the mode,
 * TIP.PGE(401000), TIP(401003), TIP.PGD (suppressed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"
#include "code_fixture.h"

CODE_FIXTURE_SUITE(fx, "modeimg", 0x48, 0xff, 0xe0, 0xc3);

static void stream(struct pt_gen *g, enum pt_exec_mode mode)
{
	gen_init(g);
	gen_simple(g, ppt_psb);
	gen_tsc(g, 1000);
	gen_cbr(g, 37);
	gen_mode_exec(g, mode);
	gen_ip(g, ppt_fup, 0x401000);
	gen_simple(g, ppt_psbend);
	gen_ip(g, ppt_tip, 0x401003);
	gen_ip_suppressed(g, ppt_tip_pgd);
}

/* g's stream decoded over set: its events as "kind from>to" lines, then its instructions. */
static void decode(struct pt_gen *g, struct pts_imgset *set, char *out, size_t len)
{
	struct pts_ptdec_stats st;
	size_t n;

	code_fixture_events(g, set, out, len, &st);
	n = strlen(out);
	snprintf(out + n, len - n, "insns %llu\n", (unsigned long long)st.insns);
}

static const char as_64[] = "cbr 0>0\njump 401000>401003\ndisabled 401003>0\ninsns 2\n";
static const char as_32[] = "cbr 0>0\njump 401001>401003\ndisabled 401003>0\ninsns 3\n";

/* The stream of mode decoded over set gives want. */
static void check(struct pts_imgset *set, enum pt_exec_mode mode, const char *want)
{
	struct pt_gen g;
	char got[512];

	stream(&g, mode);
	decode(&g, set, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, want);
}

static void code_decoded_as_32_bit_first_is_32_bit_code(void)
{
	struct pts_imgset *set = code_fixture_set(&fx);

	check(set, ptem_32bit, as_32);
	pts_imgset_free(set);
}

static void code_cached_as_64_bit_is_still_decoded_as_32_bit_code(void)
{
	struct pts_imgset *set = code_fixture_set(&fx);

	check(set, ptem_64bit, as_64);
	check(set, ptem_32bit, as_32);
	pts_imgset_free(set);
}

static void code_cached_as_32_bit_is_still_decoded_as_64_bit_code(void)
{
	struct pts_imgset *set = code_fixture_set(&fx);

	check(set, ptem_32bit, as_32);
	check(set, ptem_64bit, as_64);
	pts_imgset_free(set);
}

PTS_SUITE(decode_mode_images, suite_init, suite_cleanup,
	  PTS_TEST(code_decoded_as_32_bit_first_is_32_bit_code),
	  PTS_TEST(code_cached_as_64_bit_is_still_decoded_as_32_bit_code),
	  PTS_TEST(code_cached_as_32_bit_is_still_decoded_as_64_bit_code));
