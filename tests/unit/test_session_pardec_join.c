// SPDX-License-Identifier: GPL-2.0
/*
 * Where two chunks' events join (pardec_find_join, session/pardec_join.c),
 * on chunks built by hand: a, whose decoder went on past b's PSB, and b,
 * whose decoder started there.
 *
 * A decoder that resynchronised after a gap emptied libipt's queue of
 * held events; the other decoder, which met no error there, may still
 * hold one (a MODE.Exec waiting for its TIP past the next PSB) and report
 * it past the join, from b's counts, where the serial decoder never does:
 * the summary had one exec mode event more (fuzz finding 22). So no join
 * is made after a gap of either decoder past b's PSB.
 *
 * The chunks: a has BEFORE events before b's PSB (at trace position
 * PSB), then one event of its own past it, then MATCH events that b has
 * too, b after OWN events of its own. By hand, with a's own event a jump
 * (no gap), they join at a's first shared event (index BEFORE + 1) and b's
 * (OWN); with that event a gap, or b's last own event a gap, they do not.
 * A gap of a before b's PSB (a's last event there) is no reason not to
 * join: a's decoder resynchronised at that PSB at the latest, where b's
 * started, both with nothing held.
 */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "session/pardec_int.h"

#define BEFORE 4u	/* a's events before b's PSB */
#define OWN 3u		/* b's events before those it shares with a */
#define MATCH (PTS_PAR_MATCH + 4)	/* events both have, past the gap */
#define PSB 1000u	/* b's PSB: a's events from BEFORE on are past it */

/* A chunk's arrays, big enough for either chunk; snapshots at every index. */
struct hand_chunk {
	struct chunk c;
	struct pts_rec ev[BEFORE + 1 + MATCH];
	uint64_t pos[BEFORE + 1 + MATCH];
	struct pts_thr thr[1];
	struct snap snaps[BEFORE + 1 + MATCH];
};

/* A taken jump from..to at trace position pos: what both decoders saw alike. */
static void jump(struct hand_chunk *h, uint64_t from, uint64_t to, uint64_t pos)
{
	size_t i = h->c.n++;

	h->ev[i] = (struct pts_rec){ .from = from, .to = to, .ts_ns = pos, .kind = PTS_BR_JUMP,
				     .insn_len = 2 };
	h->pos[i] = pos;
}

/* A gap (decode error) at pos: the decoder resynchronised at the next PSB. */
static void gap(struct hand_chunk *h, uint64_t pos)
{
	size_t i = h->c.n++;

	h->ev[i] = (struct pts_rec){ .from = 0x401069, .ts_ns = pos, .kind = PTS_BR_GAP };
	h->pos[i] = pos;
}

static void hand_init(struct hand_chunk *h)
{
	size_t i;

	memset(h, 0, sizeof(*h));
	h->c.ev = h->ev;
	h->c.pos = h->pos;
	h->c.thr = h->thr;
	h->c.nthr = 1;
	h->thr[0] = (struct pts_thr){ .i = 0, .pid = 100, .tid = 101 };
	h->c.snaps = h->snaps;
	for (i = 0; i < sizeof(h->snaps) / sizeof(h->snaps[0]); i++)
		h->snaps[i].idx = i;
	h->c.nsnaps = sizeof(h->snaps) / sizeof(h->snaps[0]);
	h->c.over = UINT64_MAX;
}

/* The MATCH events both decoders have, past b's PSB: a jump every 10 bytes of trace. */
static void shared(struct hand_chunk *h)
{
	unsigned int k;

	for (k = 0; k < MATCH; k++)
		jump(h, 0x401005, 0x401000, PSB + 100 + 10 * k);
}

/* Where the chunks have a gap (build) */
enum gaps {
	NO_GAP = 0,
	A_GAP_BEFORE_PSB = 1,	/* a's last event before b's PSB */
	A_GAP_PAST_PSB = 2,	/* a's own event past b's PSB */
	B_GAP = 4,		/* b's last own event */
};

/*
 * a: BEFORE events (the last a gap with A_GAP_BEFORE_PSB), then past b's
 * PSB one event (a gap with A_GAP_PAST_PSB, else a jump of a's own), then
 * the shared ones. b: OWN events (the last a gap with B_GAP), then the
 * shared ones.
 */
static void build(struct hand_chunk *a, struct hand_chunk *b, unsigned int gaps)
{
	unsigned int k;

	hand_init(a);
	for (k = 0; k < BEFORE; k++) {
		if ((gaps & A_GAP_BEFORE_PSB) && k == BEFORE - 1)
			gap(a, PSB - 40 + 10 * k);
		else
			jump(a, 0x401005, 0x401000, PSB - 40 + 10 * k);
	}
	a->c.over = a->c.n;	/* its first event past b's PSB */
	if (gaps & A_GAP_PAST_PSB)
		gap(a, PSB + 50);
	else
		jump(a, 0x401008, 0x401002, PSB + 50);
	shared(a);

	hand_init(b);
	for (k = 0; k < OWN; k++) {
		if ((gaps & B_GAP) && k == OWN - 1)
			gap(b, PSB + 20 + 10 * k);
		else
			jump(b, 0x401008, 0x401000 + k, PSB + 20 + 10 * k);
	}
	shared(b);
}

/*
 * Whether a and b, built with gaps, join (*ia, *jb: where); the search
 * from a's first event past b's PSB, or with from_past_gap from the event
 * after a's own one (a later call of the consumer's)
 */
static bool joins(unsigned int gaps, bool from_past_gap, uint64_t *ia, uint64_t *jb)
{
	struct hand_chunk *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	bool found;

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	build(a, b, gaps);
	found = pardec_find_join(&a->c, from_past_gap ? BEFORE + 1 : a->c.over, &b->c, ia, jb);
	free(a);
	free(b);
	return found;
}

static void chunks_without_a_gap_join_at_their_first_shared_event(void)
{
	uint64_t ia = 0, jb = 0;

	CU_ASSERT_TRUE(joins(NO_GAP, false, &ia, &jb));
	CU_ASSERT_EQUAL(ia, BEFORE + 1);
	CU_ASSERT_EQUAL(jb, OWN);
	CU_ASSERT_TRUE(joins(NO_GAP, true, &ia, &jb));
}

/* the gap rule's boundary: a's last event before b's PSB */
static void chunks_join_after_a_gap_of_the_predecessor_before_the_successors_psb(void)
{
	uint64_t ia = 0, jb = 0;

	CU_ASSERT_TRUE(joins(A_GAP_BEFORE_PSB, false, &ia, &jb));
	CU_ASSERT_EQUAL(ia, BEFORE + 1);
	CU_ASSERT_EQUAL(jb, OWN);
	ia = jb = 0;
	CU_ASSERT_TRUE(joins(A_GAP_BEFORE_PSB, true, &ia, &jb));
	CU_ASSERT_EQUAL(ia, BEFORE + 1);
	CU_ASSERT_EQUAL(jb, OWN);
}

static void no_join_after_a_gap_of_the_predecessor_past_the_successors_psb(void)
{
	uint64_t ia, jb;

	CU_ASSERT_FALSE(joins(A_GAP_PAST_PSB, false, &ia, &jb));
	CU_ASSERT_FALSE(joins(A_GAP_PAST_PSB, true, &ia, &jb));
}

static void no_join_after_a_gap_of_the_successor(void)
{
	uint64_t ia, jb;

	CU_ASSERT_FALSE(joins(B_GAP, false, &ia, &jb));
}

PTS_SUITE(session_pardec_join, NULL, NULL,
	  PTS_TEST(chunks_without_a_gap_join_at_their_first_shared_event),
	  PTS_TEST(chunks_join_after_a_gap_of_the_predecessor_before_the_successors_psb),
	  PTS_TEST(no_join_after_a_gap_of_the_predecessor_past_the_successors_psb),
	  PTS_TEST(no_join_after_a_gap_of_the_successor));
