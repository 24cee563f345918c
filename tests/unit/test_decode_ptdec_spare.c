// SPDX-License-Identifier: GPL-2.0
/*
 * A decoder made of a spare one (pts_ptdec_config.spare, pts_ptdec_free_to:
 * the parallel decode recycles a thread's decoder from chunk to chunk)
 * decodes as a fresh one: it keeps only its classification cache, whose
 * entries hold for the images it was made for, and a spare of other
 * images is not taken over.
 *
 * Two programs at the same addresses, one trace valid for both: a loop
 * ended by an indirect branch through %rax, a jump in one and a call in
 * the other (both two bytes, both take the trace's TIP). A decoder that
 * classified the jump and then decoded the other program's trace with
 * what it cached would hand out jumps where the calls are.
 *
 *   401000 nop             _start
 *   401001 nop
 *   401002 nop
 *   401003 test %ecx, %ecx
 *   401005 jnz _start
 *   401007 jmp *%rax       (the other program: call *%rax)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "asm_elf.h"
#include "bundle_fixture.h"
#include "pt_gen.h"
#include "decode/image.h"
#include "decode/ptdec.h"

#define START 0x401000ULL
#define ITERS 10u

static char *dir, *jump_elf, *call_elf;
static struct pt_gen gen;

static int suite_init(void)
{
	static const char head[] = "\t.text\n\t.globl _start\n_start:\n"
				   "\tnop\n\tnop\n\tnop\n\ttest %ecx, %ecx\n\tjnz _start\n";
	char prog[256];

	dir = bt_tmpdir();
	if (!dir)
		return 1;
	snprintf(prog, sizeof(prog), "%s\tjmp *%%rax\n", head);
	jump_elf = asm_elf_build_text(dir, "jump.elf", prog, "-static -Ttext=0x401000 -e _start");
	snprintf(prog, sizeof(prog), "%s\tcall *%%rax\n", head);
	call_elf = asm_elf_build_text(dir, "call.elf", prog, "-static -Ttext=0x401000 -e _start");
	return jump_elf && call_elf ? 0 : 1;
}

static int suite_cleanup(void)
{
	free(jump_elf);
	free(call_elf);
	bt_rmtree(dir);
	free(dir);
	return 0;
}

/*
 * The trace in gen: ITERS passes of the loop (jnz taken twice, then not),
 * each ended by the indirect branch back to _start, and a last pass that
 * ends in tracing off instead.
 */
static void write_trace(void)
{
	unsigned int left = ITERS;

	gen_init(&gen);
	gen_psb_plus(&gen, 0x1000);
	gen_ip(&gen, ppt_tip_pge, START);
	do {
		gen_tnt(&gen, "TTN");
		if (left)
			gen_ip(&gen, ppt_tip, START);
	} while (left--);
	gen_ip_suppressed(&gen, ppt_tip_pgd);
}

static struct pts_imgset *images_of(const char *elf)
{
	struct pts_imgset *set = NULL;
	struct pts_err err = { 0 };

	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_add_elf(set, PTS_PID_ALL, elf, 0, &err), 0);
	return set;
}

/*
 * The trace decoded with set (spare: pts_ptdec_config.spare, and where
 * the decoder goes after): its events' kinds in order, one letter each
 * (c call, r return, j jump, o other), in out.
 */
static void decode(struct pts_imgset *set, struct pts_ptdec **spare, char *out, size_t size)
{
	struct pts_ptdec_config cfg;
	const struct pts_branch *br;
	struct pts_ptdec *d;
	struct pts_err err = { 0 };
	size_t n = 0;

	memset(&cfg, 0, sizeof(cfg));
	cfg.buf = gen.buf;
	cfg.size = gen_len(&gen);
	cfg.padded = true;
	cfg.nom_freq = 37;
	cfg.pid = 100;
	cfg.tid = 101;
	cfg.images = set;
	cfg.spare = spare;
	CU_ASSERT_EQUAL_FATAL(pts_ptdec_new(&cfg, &d, &err), 0);
	if (spare)
		CU_ASSERT_PTR_NULL(*spare);
	while (pts_ptdec_next(d, &br) == 1 && n + 1 < size)
		out[n++] = br->kind == PTS_BR_CALL ? 'c' : br->kind == PTS_BR_RETURN ? 'r' :
			   br->kind == PTS_BR_JUMP ? 'j' : 'o';
	out[n] = '\0';
	pts_ptdec_free_to(d, spare);
}

static void recycled_decoder_decodes_as_a_fresh_one(void)
{
	struct pts_imgset *set = images_of(call_elf);
	struct pts_ptdec *spare = NULL;
	char fresh[256], again[256];

	write_trace();
	decode(set, NULL, fresh, sizeof(fresh));
	CU_ASSERT_PTR_NOT_NULL(strchr(fresh, 'c'));
	decode(set, &spare, again, sizeof(again));
	CU_ASSERT_PTR_NOT_NULL_FATAL(spare);	/* kept for the next */
	decode(set, &spare, again, sizeof(again));
	CU_ASSERT_STRING_EQUAL(again, fresh);
	pts_ptdec_free(spare);
	pts_imgset_free(set);
	gen_done(&gen);
}

static void spare_of_other_images_classifies_nothing_from_them(void)
{
	struct pts_imgset *jumps = images_of(jump_elf), *calls = images_of(call_elf);
	struct pts_ptdec *spare = NULL;
	char fresh[256], after[256], of_jumps[256];

	write_trace();
	decode(calls, NULL, fresh, sizeof(fresh));
	decode(jumps, &spare, of_jumps, sizeof(of_jumps));
	/* the jump classified and cached: no call */
	CU_ASSERT_PTR_NULL(strchr(of_jumps, 'c'));
	CU_ASSERT_PTR_NOT_NULL_FATAL(spare);
	decode(calls, &spare, after, sizeof(after));
	CU_ASSERT_STRING_EQUAL(after, fresh);
	pts_ptdec_free(spare);
	pts_imgset_free(jumps);
	pts_imgset_free(calls);
	gen_done(&gen);
}

PTS_SUITE(decode_ptdec_spare, suite_init, suite_cleanup,
	  PTS_TEST(recycled_decoder_decodes_as_a_fresh_one),
	  PTS_TEST(spare_of_other_images_classifies_nothing_from_them));
