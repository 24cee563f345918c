// SPDX-License-Identifier: GPL-2.0
/*
 * libipt's instruction flow decoder over a stretch of code
 * (decode/insn_flow.h), where the decoder walks a block that Zydis cannot
 * (ptdec.c: flow_walk, walk_inner): a block's direct branches, asked for
 * one after another, each stretch starting at the last one's target, are
 * walked in one pass. Each stretch used to start a new trace, whose
 * writing and synchronisation cost a thousand times the decoding of its
 * instructions: a block of tens of thousands of direct jumps, over code
 * mapped at a damaged offset, took 1.7 s of a trace of 192 bytes (fuzz
 * finding 30, docs/fuzzing.md). Seen without a clock: a new trace reads
 * its first instruction's bytes again, so the image's reads count the
 * passes. The answers must be those of a decoder new for each stretch.
 *
 * Code at 0x401000 (decoded by hand): 27 (DAA, invalid in 64-bit mode:
 * one byte for libipt, refused by Zydis), then JUMPS times eb 00 (a jump
 * to the next instruction), then c3 (ret): a block of JUMPS + 2
 * instructions, whose k-th jump lies at 0x401001 + 2k.
 */
#include <stdio.h>
#include <string.h>

#include <intel-pt.h>

#include "unit.h"
#include "decode/insn_flow.h"

#define BASE 0x401000u
#define JUMPS 200

static uint8_t code[1 + 2 * JUMPS + 1];
static unsigned int reads;

static int read_code(uint8_t *buf, size_t size, const struct pt_asid *asid, uint64_t ip,
		     void *ctx)
{
	size_t n;

	if (ip < BASE || ip >= BASE + sizeof(code))
		return -pte_nomap;
	n = BASE + sizeof(code) - ip;
	n = n < size ? n : size;
	memcpy(buf, code + (ip - BASE), n);
	reads++;
	return (int)n;
}

static void a_blocks_direct_jumps_are_walked_in_one_pass(void)
{
	struct pt_image *image = pt_image_alloc("flow");
	struct pts_insn_flow *f = NULL, *fresh = NULL;
	struct pts_flow_branch fb, want;
	uint32_t ninsn = JUMPS + 2, i = 0, k;
	uint64_t ip = BASE;
	unsigned int walk_reads = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(image);
	CU_ASSERT_EQUAL_FATAL(pt_image_set_callback(image, read_code, NULL), 0);
	code[0] = 0x27;
	for (k = 0; k < JUMPS; k++) {
		code[1 + 2 * k] = 0xeb;
		code[2 + 2 * k] = 0x00;
	}
	code[1 + 2 * JUMPS] = 0xc3;
	/* as flow_walk asks: the instructions before the block's last, from each target */
	for (k = 0; k < JUMPS; k++) {
		reads = 0;
		CU_ASSERT_EQUAL_FATAL(pts_insn_flow_branch(&f, image, ptem_64bit, ip, ninsn - 1 - i,
							   &fb), 1);
		walk_reads += reads;
		CU_ASSERT_EQUAL(fb.site, BASE + 1 + 2 * k);
		CU_ASSERT_EQUAL(fb.to, BASE + 3 + 2 * k);
		CU_ASSERT_EQUAL(fb.idx, k ? 0 : 1);
		CU_ASSERT_EQUAL(fb.len, 0);
		/* a decoder new for the stretch gives the same */
		CU_ASSERT_EQUAL(pts_insn_flow_branch(&fresh, image, ptem_64bit, ip, ninsn - 1 - i,
						     &want), 1);
		CU_ASSERT_EQUAL(memcmp(&fb, &want, sizeof(fb)), 0);
		pts_insn_flow_free(fresh);
		fresh = NULL;
		i += fb.idx + 1;
		ip = fb.to;
	}
	CU_ASSERT_EQUAL(ip, BASE + 1 + 2 * JUMPS);
	CU_ASSERT_EQUAL(i + 1, ninsn);
	/* one pass: each instruction read once (DAA, the jumps, the ret as the last target) */
	if (walk_reads > ninsn)
		printf("\n  %u reads of the image for %u instructions\n", walk_reads, ninsn);
	CU_ASSERT(walk_reads <= ninsn);
	/* a stretch elsewhere starts a new trace: the DAA's block again from its start */
	CU_ASSERT_EQUAL(pts_insn_flow_branch(&f, image, ptem_64bit, BASE, ninsn - 1, &fb), 1);
	CU_ASSERT_EQUAL(fb.site, BASE + 1);
	CU_ASSERT_EQUAL(fb.idx, 1);
	pts_insn_flow_free(f);
	pt_image_free(image);
}

PTS_SUITE(decode_insn_flow, NULL, NULL,
	  PTS_TEST(a_blocks_direct_jumps_are_walked_in_one_pass))
