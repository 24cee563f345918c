// SPDX-License-Identifier: GPL-2.0
/*
 * A block libipt returns together with an error (pt_blk_next: the
 * instructions up to a query that failed, and the query's error), read
 * through direct branches (pts_ptdec_config.through) and held for its
 * pieces (ptdec.c, hold) where an event is queued after one of them. The
 * rule: the block is used to its end, and then the error is a gap where
 * libipt's decoders report it, whichever loop hands out its last pieces
 * (step's step_piece, or the block loop resuming the held block,
 * one_block): the events, counts and gaps of the decode with the block
 * flags, which ends a block at every direct branch. The block loop, after
 * resuming pieces that it did not have to hold again (a jump the elide
 * window drops), took the block's rest as a block without an error and the
 * error (negative: every status bit set, pts_eos among them) as libipt's
 * status: the trace was taken as used up, and the next error as its end
 * (no gap, the trace after the damage not decoded), one jump and one
 * instruction counted as decoded beside (fuzz finding 27; finding 26 is
 * the same, met by the serial decode).
 *
 * Code (raw bytes mapped at 0x401000, decoded by hand):
 *   401000 call 401006 (e8 01 00 00 00)  401005 nop (never run)
 *   401006 jmp 401008 (eb 00)            401008 jmp 40100a (eb 00)
 *   40100a je 40100a (74 fe)             40100c ret
 * Through direct branches, libipt's block from 401000 runs over the call
 * and both jumps to the je, whose bit it asks for.
 * Stream (libipt's encoder): PSB+, TIP.PGE(401000), TNT(N), then a byte
 * that is no packet (0x05: "unknown opcode"): libipt's query decoder
 * reads ahead past the TNT packet it takes the je's bit from, and fails
 * that query; then PSB+, TIP.PGE(401000), TNT(N), TIP.PGD(suppressed)
 * at the ret. The thread's jumps inside [0x401000, 0x402000) are dropped
 * by the elide window, as the timeline's would be.
 *
 * By hand: tracing enabled at 401000, the call 401000>401006, the gap
 * "unknown opcode" at the je, at the damaged byte's offset; tracing
 * enabled at 401000 again, the call, tracing disabled at the ret. The
 * oracle, libipt's instruction flow decoder on the same bytes: 9
 * instructions (call, jmp, jmp and the je that failed; call, jmp, jmp, je
 * and ret), 1 error, at the damaged byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "code_fixture.h"
#include "ipt_ref.h"
#include "decode/deep.h"

CODE_FIXTURE_SUITE(fx, "heldErr", 0xe8, 0x01, 0x00, 0x00, 0x00, 0x90, 0xeb, 0x00, 0xeb, 0x00,
		   0x74, 0xfe, 0xc3);

/* Where the damaged byte lies in the stream (its trace offset). */
static uint64_t damage_at;

static void stream(struct pt_gen *g)
{
	gen_init(g);
	gen_psb_plus(g, 1000);
	gen_ip(g, ppt_tip_pge, 0x401000);
	gen_tnt(g, "N");
	damage_at = gen_len(g);
	g->buf[damage_at] = 0x05;
	CU_ASSERT_EQUAL_FATAL(pt_enc_sync_set(g->enc, damage_at + 1), 0);
	gen_psb_plus(g, 2000);
	gen_ip(g, ppt_tip_pge, 0x401000);
	gen_tnt(g, "N");
	gen_ip_suppressed(g, ppt_tip_pgd);
}

struct seen {
	bool through;
	char events[2048];
	struct pts_ptdec_stats st;
};

/* The stream decoded serially, the jumps in the window dropped: its events as lines, its counts. */
static void decode_seen(void *p)
{
	struct seen *s = p;
	struct pts_br_elide el = { .pid = CODE_FIXTURE_PID, .tid = CODE_FIXTURE_PID,
				   .lo = CODE_FIXTURE_BASE, .hi = CODE_FIXTURE_BASE + 0x1000 };
	struct pts_imgset *set = code_fixture_set(&fx);
	struct pt_gen g;

	stream(&g);
	code_fixture_events_elide(&g, set, s->through, &el, s->events, sizeof(s->events), &s->st);
	pts_imgset_free(set);
}

/*
 * The oracle: libipt's instruction flow decoder (pt_insn_*, which has no
 * blocks to hold) on the same bytes and code, resynchronising after an
 * error (ipt_ref.h): the instructions it lists (one returned with an
 * error counted), its errors (one met draining events among them) and
 * the first one's trace offset.
 */
static void libipt_insns(struct ipt_ref_result *r)
{
	struct ipt_ref_raw code = { fx.code, fx.n, CODE_FIXTURE_BASE };
	struct pt_gen g;

	stream(&g);
	CU_ASSERT_EQUAL_FATAL(ipt_ref_run(g.buf, gen_len(&g), ipt_ref_add_raw, &code, NULL, 0, r),
			      0);
	gen_done(&g);
}

/*
 * Through direct branches, the block from 401000 comes with the failed
 * query's error and is held after its call (queued); the block loop
 * resumes it, the jump after the call dropped by the window, and reaches
 * its rest: the gap comes there, and the trace after the damage is
 * decoded, as with the flags.
 */
static void held_block_with_an_error_ends_in_a_gap_as_with_the_flags(void)
{
	static struct seen flags, through;
	struct ipt_ref_result ref;
	char gap[96];

	flags.through = false;
	decode_seen(&flags);
	through.through = true;
	CU_ASSERT_EQUAL_FATAL(pts_deep_run(decode_seen, &through), 0);
	libipt_insns(&ref);
	/* the oracle: 9 instructions, the error at the damaged byte */
	CU_ASSERT_EQUAL(ref.insns, 9);
	CU_ASSERT_EQUAL(ref.errors, 1);
	CU_ASSERT_EQUAL(ref.err_off, damage_at);
	/* the flags' decode: the oracle's, and the events by hand (the file's comment) */
	snprintf(gap, sizeof(gap), "gap 40100a>0 unknown opcode @%llu\n",
		 (unsigned long long)ref.err_off);
	CU_ASSERT_PTR_NOT_NULL(strstr(flags.events, gap));
	CU_ASSERT_PTR_NOT_NULL(strstr(flags.events, "disabled 40100c>0\n"));
	CU_ASSERT_EQUAL(flags.st.gaps, (uint64_t)ref.errors);
	CU_ASSERT_EQUAL(flags.st.insns, (uint64_t)ref.insns);
	/* through direct branches: the same */
	CU_ASSERT_STRING_EQUAL(through.events, flags.events);
	CU_ASSERT_EQUAL(through.st.gaps, (uint64_t)ref.errors);
	CU_ASSERT_EQUAL(through.st.insns, (uint64_t)ref.insns);
	CU_ASSERT_EQUAL(through.st.branches, flags.st.branches);
	CU_ASSERT_EQUAL(through.st.elided, flags.st.elided);
	if (strcmp(through.events, flags.events))
		fprintf(stderr, "through:\n%s\nflags:\n%s\n", through.events, flags.events);
}

PTS_SUITE(decode_through_held_error, suite_init, suite_cleanup,
	  PTS_TEST(held_block_with_an_error_ends_in_a_gap_as_with_the_flags));
