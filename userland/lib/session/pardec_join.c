// SPDX-License-Identifier: GPL-2.0
/*
 * Where two chunks' events join, and the statistics taken there
 * (pardec.h, pardec_int.h).
 */
#include "pardec_int.h"

#include <string.h>

void pardec_st_add(struct pts_ptdec_stats *a, const struct pts_ptdec_stats *b,
		   const struct pts_ptdec_stats *minus)
{
	int k;

	a->insns += b->insns - minus->insns;
	a->blocks += b->blocks - minus->blocks;
	a->branches += b->branches - minus->branches;
	a->gaps += b->gaps - minus->gaps;
	a->events += b->events - minus->events;
	a->others += b->others - minus->others;
	for (k = 0; k < PTS_PTEV_MAX; k++)
		a->by_event[k] += b->by_event[k] - minus->by_event[k];
	a->errata_unknown |= b->errata_unknown;
}

const struct pts_ptdec_stats *pardec_snap_at(const struct chunk *c, uint64_t idx)
{
	size_t lo = 0, hi = c->nsnaps;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->snaps[mid].idx < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nsnaps && c->snaps[lo].idx == idx ? &c->snaps[lo].st : NULL;
}

/* The change of thread that c's event i (an index of its array) follows. */
static const struct pts_thr *thread_at(const struct chunk *c, uint64_t i)
{
	size_t lo = 0, hi = c->nthr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->thr[mid].i <= i)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the first event stored is a change: lo > 0 */
	return &c->thr[lo - 1];
}

/* Whether a's event i and b's event j are the same, at the same trace position. */
static bool pev_eq(const struct chunk *a, uint64_t i, const struct chunk *b, uint64_t j)
{
	const struct pts_rec *x = &a->ev[i - a->base], *y = &b->ev[j - b->base];
	const struct pts_thr *ta, *tb;

	if (x->from != y->from || x->to != y->to || x->ts_ns != y->ts_ns ||
	    a->pos[i - a->base] != b->pos[j - b->base] || x->kind != y->kind ||
	    x->flags != y->flags || x->insn_len != y->insn_len || x->has_x != y->has_x)
		return false;
	ta = thread_at(a, i - a->base);
	tb = thread_at(b, j - b->base);
	if (ta->pid != tb->pid || ta->tid != tb->tid)
		return false;
	/*
	 * a run: its bounds, times and count compared above (from, to,
	 * insn_len and has_x: n); with the same lo and first time, the same
	 * stored jumps are the same jumps (evstore.h)
	 */
	if (x->flags & PTS_REC_RUN)
		return !memcmp(&a->jumps[x->xi], &b->jumps[y->xi], x->n * sizeof(*a->jumps));
	if (!x->has_x)
		return true;
	return a->x[x->xi].offset == b->x[y->xi].offset &&
	       a->x[x->xi].value == b->x[y->xi].value &&
	       !strcmp(a->x[x->xi].detail, b->x[y->xi].detail);
}

/*
 * A branch that the decoder completed at the block starting at its target:
 * both decoders have counted every instruction up to the branch when they
 * queue it, and from there on count the same instructions (statistics
 * join there; at a PSB+'s own events, before the first block, the first
 * block of a fresh decoder may differ by where the serial one's block was
 * cut). Not after the block at the target: its length depends on the
 * libipt block cache the decoders share, so on which of them filled it
 * first (pts_ptdec_insns_before); joined after it, the two decoders'
 * counts of that block differed by a few instructions from run to run.
 */
static bool at_block(const struct chunk *c, const struct pts_rec *e)
{
	if (e->flags & PTS_REC_RUN) {	/* the run's first jump */
		uint64_t from, to, ts_ns;

		pts_evstore_jump_at(e, &c->jumps[e->xi], &from, &to, &ts_ns);
		return to != 0;
	}
	switch (e->kind) {
	case PTS_BR_CALL:
	case PTS_BR_RETURN:
	case PTS_BR_JUMP:
	case PTS_BR_SYSCALL:
	case PTS_BR_SYSRET:
	case PTS_BR_IRET:
		return e->to != 0 && !(e->flags & PTS_BRF_TRACE_OFF);
	default:
		return false;
	}
}

/* Whether c's event i (an index of its array) is a gap: its decoder then resynchronised. */
static bool is_gap(const struct chunk *c, uint64_t i)
{
	const struct pts_rec *e = &c->ev[i - c->base];

	return !(e->flags & PTS_REC_RUN) && e->kind == PTS_BR_GAP;
}

/*
 * Where a's events hand over to b's: *ia (index in a) and *jb (in b) with
 * PTS_PAR_MATCH identical events from there, among them two trace
 * positions (pardec.h). false: no join.
 *
 * Not after a gap of either past b's PSB: a decoder that resynchronised
 * after an error emptied libipt's queue of held events (pardec_hold.h),
 * and the other, which met no error there (its state came another way),
 * may still hold one, reported past the join from b's counts but never
 * by the serial decoder (fuzz finding 22: a MODE.Exec after a PSB+ held
 * by b's decoder until a TIP past the next PSB, where a's had
 * resynchronised after a gap; one exec mode event more). A gap of a
 * before b's PSB resynchronises at that PSB at the latest (ptdec.c,
 * lose_sync), where b's decoder starts too.
 */
bool pardec_find_join(const struct chunk *a, uint64_t from, const struct chunk *b, uint64_t *ia,
		      uint64_t *jb)
{
	uint64_t i, j, aend = a->base + a->n, bend = b->base + b->n;

	if (a->over == UINT64_MAX || b->risky || b->base != 0)
		return false;
	for (i = a->over > a->base ? a->over : a->base; i < from && i < aend; i++)
		if (is_gap(a, i))
			return false;
	for (i = a->over > from ? a->over : from; i < aend; i++) {
		if (i > a->over && is_gap(a, i - 1))
			return false;
		for (j = 0; j < PTS_PAR_SKIP && j < bend; j++) {
			if (j > 0 && is_gap(b, j - 1))
				break;
			const uint64_t *pos = &a->pos[i - a->base];
			uint64_t m = 0;
			bool moved = false;

			while (i + m < aend && j + m < bend && pev_eq(a, i + m, b, j + m)) {
				moved |= pos[m] != pos[0];
				m++;
				if (m >= PTS_PAR_MATCH && moved)
					break;
			}
			if (m >= PTS_PAR_MATCH && moved && at_block(a, &a->ev[i - a->base]) &&
			    pardec_snap_at(a, i) &&
			    pardec_snap_at(b, j)) {
				*ia = i;
				*jb = j;
				return true;
			}
		}
	}
	return false;
}
