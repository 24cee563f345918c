/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A decoder's events as a consumer that keeps them in memory stores them
 * (the parallel decode's chunks, session/pardec_int.h), and the part of
 * them the decoder writes there itself (pts_ptdec_config.store).
 *
 * Events are compact records (struct pts_rec). Runs of jumps —
 * consecutive PTS_BR_JUMP events of one thread with nothing else between
 * them (and, unless any_time, of one time) — are one record each, with
 * the bounds of their addresses (struct pts_run) and their jumps in an
 * array of their own. Most branches of a trace are such jumps, nearly all
 * inside the function executing (docs/decode.md, "Parallel decode").
 *
 * The decoder writes into arrays the consumer owns, instead of queueing
 * and handing out the event, when every event before it was handed out
 * and no sideband work is due: a jump that extends the open run (of its
 * thread and time), wherever it is; a jump that begins a run, and a near
 * call or return, at trace positions below `below` (the consumer's say:
 * where an event needs nothing but storing), when there is room. Every
 * other event is queued, or offered to take_jump, as without a store.
 * The consumer reads, moves and reopens the arrays between the decoder's
 * calls and inside take_jump; the decoder touches nothing but this
 * struct's pointers and what they point at. Same thread: no locking.
 */
#ifndef PTS_DECODE_EVSTORE_H
#define PTS_DECODE_EVSTORE_H

#include <stdbool.h>
#include <stdint.h>

#include "branch.h"

/*
 * One event: the fields of struct pts_branch a decoder sets. Its trace
 * position (as pts_ptdec_pos) is kept apart, in an array of the store's
 * parallel to the events (pts_evstore.pnext): the consumer reads every
 * event back, but positions only where it looks for a join, and 8 bytes
 * of the 48 an event had were read for nothing (docs/performance.md,
 * "The hand-out's reads (thirteenth round)").
 */
struct pts_rec {
	uint64_t from, to, ts_ns;
	int32_t pid, tid;
	uint8_t kind, flags, insn_len;
	uint8_t has_x;		/* offset, value or detail set: kept by the consumer at xi */
	uint32_t xi;		/* has_x: the consumer's index; PTS_REC_RUN: the run's (runs[xi]) */
};

#define PTS_REC_RUN 0x80	/* pts_rec.flags: a run of jumps; from/to/ts_ns: its first jump */
/*
 * pts_rec.flags: a jump not in a run, or an event with extra fields (set
 * by the consumer, never by the decoder): one test tells the consumer's
 * hand-out an event it copies as it is (neither bit) from the others.
 */
#define PTS_REC_SLOW 0x40

/* A jump of a run (kind PTS_BR_JUMP, no flags, no insn_len, no offset, value or detail). */
struct pts_jump {
	uint64_t from, to, ts_ns;
};

/*
 * A run of jumps: jumps[j0, j0 + n) of the store. What a consumer needs
 * to drop the run whole is here, so that it reads none of its jumps then
 * (nearly every run: the jumps are written, and read only when a run is
 * handed out jump by jump).
 */
struct pts_run {
	uint64_t lo, hi;	/* least and greatest from/to of its jumps */
	uint64_t last_ts;	/* its last jump's ts_ns */
	uint32_t j0, n;
};

struct pts_evstore {
	struct pts_rec *enext, *eend;	/* room for more events: [enext, eend) */
	uint64_t *pnext;		/* the trace position of the event at enext */
	struct pts_run *runs, *rnext, *rend;
	struct pts_jump *jumps, *jnext, *jend;
	struct pts_run *open;		/* the run a jump may extend (NULL: none) */
	int32_t pid, tid;		/* open's thread */
	uint64_t ts_ns;			/* open's time */
	uint64_t below;			/* events may be stored at trace positions below this */
	bool any_time;			/* a jump of another time extends the run (one CPU) */
};

/*
 * How far ahead of its writes a store asks for the cache lines it will
 * write next (bytes): events, runs and jumps are each written in order,
 * ~100 bytes per byte of trace, into arrays far larger than the caches,
 * and the decoder waited on those lines (docs/performance.md, "The extra
 * CPU of -j2 (twelfth round)"). Past an array's end a prefetch does
 * nothing.
 */
#define PTS_EVSTORE_AHEAD_EVENTS 768
#define PTS_EVSTORE_AHEAD_RUNS 512
#define PTS_EVSTORE_AHEAD_JUMPS 512

/* Ask for the line `ahead` bytes past p, to be written (integers: no pointer past its array). */
static inline void pts_evstore_prefetch(const void *p, uintptr_t ahead)
{
	__builtin_prefetch((const void *)((uintptr_t)p + ahead), 1);
}

/* The same, for a consumer that will read the line (the hand-out of a store's events). */
static inline void pts_evstore_prefetch_read(const void *p, uintptr_t ahead)
{
	__builtin_prefetch((const void *)((uintptr_t)p + ahead), 0);
}

/* Whether a jump of pid/tid at ts_ns extends s's open run, and fits. */
static inline bool pts_evstore_extends(const struct pts_evstore *s, int32_t pid, int32_t tid,
				       uint64_t ts_ns)
{
	return s->open && pid == s->pid && tid == s->tid && (s->any_time || ts_ns == s->ts_ns) &&
	       s->jnext < s->jend;
}

/* Append a jump to the open run (pts_evstore_extends said so). */
static inline void pts_evstore_add_jump(struct pts_evstore *s, uint64_t from, uint64_t to,
					uint64_t ts_ns)
{
	struct pts_run *r = s->open;
	struct pts_jump *j = s->jnext++;

	pts_evstore_prefetch(j, PTS_EVSTORE_AHEAD_JUMPS);
	j->from = from;
	j->to = to;
	j->ts_ns = ts_ns;
	r->last_ts = ts_ns;
	r->n++;
	if (from > to) {
		uint64_t t = from;

		from = to;
		to = t;
	}
	if (from < r->lo)
		r->lo = from;
	if (to > r->hi)
		r->hi = to;
}

/* Whether an event at trace position pos may be stored, and fits (a run: run). */
static inline bool pts_evstore_can(const struct pts_evstore *s, uint64_t pos, bool run)
{
	return pos < s->below && s->enext < s->eend &&
	       (!run || (s->rnext < s->rend && s->jnext < s->jend));
}

/* Store an event but a run (room checked): the open run ends. Its extra fields: none. */
static inline struct pts_rec *pts_evstore_put(struct pts_evstore *s, enum pts_br_kind kind,
					      uint64_t from, uint64_t to, uint64_t ts_ns,
					      uint64_t pos, int32_t pid, int32_t tid)
{
	struct pts_rec *e = s->enext++;

	pts_evstore_prefetch(e, PTS_EVSTORE_AHEAD_EVENTS);
	e->from = from;
	e->to = to;
	e->ts_ns = ts_ns;
	*s->pnext++ = pos;
	e->pid = pid;
	e->tid = tid;
	e->kind = (uint8_t)kind;
	e->flags = 0;
	e->insn_len = 0;
	e->has_x = 0;
	e->xi = 0;
	s->open = NULL;
	return e;
}

/* Store a jump that begins a run (room checked), the open run from now on. */
static inline void pts_evstore_begin_run(struct pts_evstore *s, int32_t pid, int32_t tid,
					 uint64_t from, uint64_t to, uint64_t ts_ns, uint64_t pos)
{
	struct pts_rec *e = pts_evstore_put(s, PTS_BR_JUMP, from, to, ts_ns, pos, pid, tid);
	struct pts_run *r = s->rnext++;

	pts_evstore_prefetch(r, PTS_EVSTORE_AHEAD_RUNS);
	e->flags = PTS_REC_RUN;
	e->xi = (uint32_t)(r - s->runs);
	r->lo = UINT64_MAX;
	r->hi = 0;
	r->j0 = (uint32_t)(s->jnext - s->jumps);
	r->n = 0;
	s->open = r;
	s->pid = pid;
	s->tid = tid;
	s->ts_ns = ts_ns;
	pts_evstore_add_jump(s, from, to, ts_ns);
}

#endif /* PTS_DECODE_EVSTORE_H */
