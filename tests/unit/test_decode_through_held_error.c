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
	struct pts_ptdec_config dc = { 0 };
	struct pts_imgset *set = code_fixture_set(&fx);
	const struct pts_branch *br;
	struct pts_err err = { 0 };
	struct pts_ptdec *d;
	struct pt_gen g;
	size_t n = 0;
	int rc;

	stream(&g);
	dc.buf = g.buf;
	dc.size = gen_len(&g);
	dc.images = set;
	dc.pid = CODE_FIXTURE_PID;
	dc.tid = CODE_FIXTURE_PID;
	dc.through = s->through;
	dc.elide = &el;
	dc.elide_queued = true;
	CU_ASSERT_EQUAL_FATAL(pts_ptdec_new(&dc, &d, &err), 0);
	s->events[0] = '\0';
	while ((rc = pts_ptdec_next(d, &br)) != 0 && n < sizeof(s->events)) {
		if (rc != 1)
			continue;	/* a jump the window dropped */
		n += (size_t)snprintf(s->events + n, sizeof(s->events) - n, "%s %llx>%llx",
				      pts_br_kind_name(br->kind), (unsigned long long)br->from,
				      (unsigned long long)br->to);
		if (n < sizeof(s->events) && br->kind == PTS_BR_GAP)
			n += (size_t)snprintf(s->events + n, sizeof(s->events) - n, " %s @%llu",
					      br->detail, (unsigned long long)br->offset);
		if (n < sizeof(s->events))
			n += (size_t)snprintf(s->events + n, sizeof(s->events) - n, "\n");
	}
	pts_ptdec_stats(d, &s->st);
	pts_ptdec_free(d);
	gen_done(&g);
	pts_imgset_free(set);
}

/*
 * The oracle: libipt's instruction flow decoder (pt_insn_*, which has no
 * blocks to hold) on the same bytes and code, resynchronising after an
 * error: the instructions it lists (one returned with an error counted,
 * as tests/unit/ipt_ref.h counts them) and its errors, the first one's
 * trace offset in *err_off.
 */
static void libipt_insns(uint64_t *insns, uint64_t *errors, uint64_t *err_off)
{
	struct pt_insn_decoder *dec;
	struct pt_config cfg;
	struct pt_gen g;
	int st;

	*insns = *errors = 0;
	*err_off = UINT64_MAX;
	stream(&g);
	pt_config_init(&cfg);
	cfg.begin = g.buf;
	cfg.end = g.buf + gen_len(&g);
	dec = pt_insn_alloc_decoder(&cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dec);
	CU_ASSERT_FATAL(pt_image_add_file(pt_insn_get_image(dec), fx.code, 0, fx.n, NULL,
					  CODE_FIXTURE_BASE) >= 0);
	while ((st = pt_insn_sync_forward(dec)) >= 0) {
		for (;;) {
			struct pt_insn insn;

			while (st >= 0 && (st & pts_event_pending)) {
				struct pt_event ev;

				st = pt_insn_event(dec, &ev, sizeof(ev));
			}
			memset(&insn, 0, sizeof(insn));	/* ptic_error: none */
			if (st >= 0)
				st = pt_insn_next(dec, &insn, sizeof(insn));
			if (insn.iclass != ptic_error)
				(*insns)++;
			if (st < 0) {
				if (st != -pte_eos && !(*errors)++)
					pt_insn_get_offset(dec, err_off);
				break;
			}
		}
	}
	pt_insn_free_decoder(dec);
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
	uint64_t insns, errors, err_off;
	char gap[96];

	flags.through = false;
	decode_seen(&flags);
	through.through = true;
	CU_ASSERT_EQUAL_FATAL(pts_deep_run(decode_seen, &through), 0);
	libipt_insns(&insns, &errors, &err_off);
	/* the oracle: 9 instructions, the error at the damaged byte */
	CU_ASSERT_EQUAL(insns, 9);
	CU_ASSERT_EQUAL(errors, 1);
	CU_ASSERT_EQUAL(err_off, damage_at);
	/* the flags' decode: the oracle's, and the events by hand (the file's comment) */
	snprintf(gap, sizeof(gap), "gap 40100a>0 unknown opcode @%llu\n",
		 (unsigned long long)err_off);
	CU_ASSERT_PTR_NOT_NULL(strstr(flags.events, gap));
	CU_ASSERT_PTR_NOT_NULL(strstr(flags.events, "disabled 40100c>0\n"));
	CU_ASSERT_EQUAL(flags.st.gaps, errors);
	CU_ASSERT_EQUAL(flags.st.insns, insns);
	/* through direct branches: the same */
	CU_ASSERT_STRING_EQUAL(through.events, flags.events);
	CU_ASSERT_EQUAL(through.st.gaps, errors);
	CU_ASSERT_EQUAL(through.st.insns, insns);
	CU_ASSERT_EQUAL(through.st.branches, flags.st.branches);
	CU_ASSERT_EQUAL(through.st.elided, flags.st.elided);
	if (strcmp(through.events, flags.events))
		fprintf(stderr, "through:\n%s\nflags:\n%s\n", through.events, flags.events);
}

PTS_SUITE(decode_through_held_error, suite_init, suite_cleanup,
	  PTS_TEST(held_block_with_an_error_ends_in_a_gap_as_with_the_flags));
