/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A decoder's events as a consumer that keeps them in memory stores them
 * (the parallel decode's chunks, session/pardec_int.h), and the part of
 * them the decoder writes there itself (pts_ptdec_config.store).
 *
 * Events are compact records (struct pts_rec). Runs of jumps —
 * consecutive PTS_BR_JUMP events of one thread with nothing else between
 * them (and, unless any_time, of one time) — are one record each, with
 * the bounds of their addresses and times, their jumps in an array of
 * their own. Most branches of a trace are such jumps, nearly all
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
#include <stddef.h>
#include <stdint.h>

#include "branch.h"
#include "elide.h"

/*
 * One event: the fields of struct pts_branch a decoder sets, or a run of
 * jumps (PTS_REC_RUN) with what the consumer needs to drop it whole, so
 * that it reads nothing else then (nearly every run: its jumps are
 * written, and read only when the run is handed out jump by jump). The
 * consumer reads every event back, and what it reads seldom is kept
 * apart (docs/performance.md, "The hand-out's reads (thirteenth round)"):
 * its trace position (as pts_ptdec_pos), read only where a join is looked
 * for, in an array parallel to the events (pnext); its thread, which
 * changes a few times in thousands of events, where it changes (struct
 * pts_thr).
 */
struct pts_rec {
	uint64_t from;			/* a run: lo, the least from/to of its jumps */
	union {
		uint64_t to;
		struct {
			uint32_t span;	/* its greatest from/to - lo */
			uint32_t dts;	/* its last jump's ts_ns - its first's */
		} run;
	};
	uint64_t ts_ns;			/* a run: its first jump's */
	uint8_t kind, flags;
	union {
		struct {
			uint8_t insn_len;
			uint8_t has_x;	/* offset, value or detail set: kept by the consumer at xi */
		};
		uint16_t n;		/* a run: its jumps, jumps[xi, xi + n) of the store */
	};
	uint32_t xi;			/* has_x: the consumer's index; a run: its first jump's */
};

_Static_assert(sizeof(struct pts_rec) == 32, "an event is 32 bytes (the hand-out reads them all)");

/* The store's events from index i on (in its array) are of pid/tid, up to the next change. */
struct pts_thr {
	uint64_t i;
	int32_t pid, tid;
};

/*
 * The store compares a thread for every event and jump: pid and tid side
 * by side (here and in struct pts_run_bounds), one word, one compare
 * (pts_pid_tid).
 */
_Static_assert(offsetof(struct pts_thr, tid) == offsetof(struct pts_thr, pid) + 4,
	       "pts_pid_tid: pid and tid side by side");

/*
 * pid/tid as the word pts_pid_tid reads, made with shifts, which the
 * compiler can fold into one load where a caller's pid and tid lie side
 * by side (an array of the two, as elide.h makes, took more instructions
 * here: docs/performance.md, "The work of -j2 per chunk").
 */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "pts_pid_tid: pid in the low half");

static inline uint64_t pts_evstore_thread(int32_t pid, int32_t tid)
{
	return (uint64_t)(uint32_t)pid | (uint64_t)(uint32_t)tid << 32;
}

#define PTS_REC_RUN 0x80	/* pts_rec.flags: a run of jumps */
/*
 * pts_rec.flags: a jump not in a run, or an event with extra fields: one
 * test tells the consumer's hand-out an event it copies as it is (neither
 * bit) from the others.
 */
#define PTS_REC_SLOW 0x40

/*
 * A jump of a run (kind PTS_BR_JUMP, no flags, no insn_len, no offset,
 * value or detail), in 12 bytes: its run's event holds the rest. Every
 * from and to of a run lies in [lo, lo + span] (its event's from and
 * run.span, span < 2^32), so the low 32 bits of an address and lo give
 * it back (pts_evstore_jump_at); its time is its run's first jump's
 * (the event's ts_ns) plus dts (< 2^32, pts_run_add). Half the 24 bytes
 * of three whole words: a chunk's jumps are ~a third of the memory the
 * parallel decode first touches, and of what its store writes
 * (docs/performance.md, "The kernel's share of -j2 (fifteenth round)").
 */
struct pts_jump {
	uint32_t from32, to32;	/* the low halves of from and to */
	uint32_t dts;		/* ts_ns - the run's first jump's */
};

_Static_assert(sizeof(struct pts_jump) == 12, "a jump is three words of 32 bits, no padding");

/* Jump j of run e, whole: its from, to and time. */
static inline void pts_evstore_jump_at(const struct pts_rec *e, const struct pts_jump *j,
				       uint64_t *from, uint64_t *to, uint64_t *ts_ns)
{
	*from = e->from + (uint32_t)(j->from32 - (uint32_t)e->from);
	*to = e->from + (uint32_t)(j->to32 - (uint32_t)e->from);
	*ts_ns = e->ts_ns + j->dts;
}

/*
 * The bounds of a run, as its jumps come: a jump of another thread (or,
 * unless any_time, of another time), or one that would take the run past
 * what its event holds (2^16 - 1 jumps, addresses 2^32 apart, times
 * 2^32 ns apart), begins another. A jump whose own from and to are 2^32
 * or more apart is no run: an event of its own (PTS_REC_SLOW). Where runs
 * end depends on the jumps alone, not on where they are stored.
 */
struct pts_run_bounds {
	int32_t pid, tid;
	uint64_t ts_ns;		/* the first jump's */
	uint64_t lo, hi;
	uint32_t n;
};

_Static_assert(offsetof(struct pts_run_bounds, tid) == offsetof(struct pts_run_bounds, pid) + 4,
	       "pts_pid_tid: pid and tid side by side");

#define PTS_RUN_MAX UINT16_MAX

/* Begin bounds r with a jump: false when it is too wide to be a run. */
static inline bool pts_run_begin(struct pts_run_bounds *r, int32_t pid, int32_t tid,
				 uint64_t from, uint64_t to, uint64_t ts_ns)
{
	r->pid = pid;
	r->tid = tid;
	r->ts_ns = ts_ns;
	r->lo = from < to ? from : to;
	r->hi = from < to ? to : from;
	r->n = 1;
	return r->hi - r->lo <= UINT32_MAX;
}

/*
 * Add a jump of pid/tid at ts_ns to the run of bounds r (any_time: a jump
 * of another time may extend it): true, or false when it begins another
 * (r unchanged).
 */
static inline bool pts_run_add(struct pts_run_bounds *r, bool any_time, int32_t pid, int32_t tid,
			       uint64_t from, uint64_t to, uint64_t ts_ns)
{
	uint64_t lo = from < to ? from : to, hi = from < to ? to : from;

	if (pts_evstore_thread(pid, tid) != pts_pid_tid(&r->pid) || r->n >= PTS_RUN_MAX ||
	    (any_time ? ts_ns - r->ts_ns > UINT32_MAX : ts_ns != r->ts_ns))
		return false;
	if (lo < r->lo || hi > r->hi) {
		if (lo > r->lo)
			lo = r->lo;
		if (hi < r->hi)
			hi = r->hi;
		if (hi - lo > UINT32_MAX)
			return false;
		r->lo = lo;
		r->hi = hi;
	}
	r->n++;
	return true;
}

struct pts_evstore {
	struct pts_rec *ev;		/* the events' array */
	struct pts_rec *enext, *eend;	/* room for more events: [enext, eend) */
	uint64_t *pnext;		/* the trace position of the event at enext */
	/*
	 * Changes of thread, the next at tnext: the consumer sets eend so that
	 * there is room for a change with every event stored.
	 */
	struct pts_thr *thr, *tnext;
	struct pts_jump *jumps, *jnext, *jend;
	struct pts_rec *open;		/* the run a jump may extend (NULL: none) */
	struct pts_run_bounds run;	/* open's */
	uint64_t below;			/* events may be stored at trace positions below this */
	bool any_time;			/* a jump of another time extends the run (one CPU) */
};

/*
 * How far ahead of its writes a store asks for the cache lines it will
 * write next (bytes): events, positions and jumps are each written in
 * order, ~65 bytes per byte of trace, into arrays far larger than the
 * caches, and the decoder waited on those lines (docs/performance.md,
 * "The extra CPU of -j2 (twelfth round)"). Past an array's end a
 * prefetch does nothing.
 */
#define PTS_EVSTORE_AHEAD_EVENTS 768
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

/* Append a jump to the open run's jumps; its event takes s->run's bounds. */
static inline void pts_evstore_jump(struct pts_evstore *s, uint64_t from, uint64_t to,
				    uint64_t ts_ns)
{
	struct pts_rec *e = s->open;
	struct pts_jump *j = s->jnext++;

	uint32_t dts = (uint32_t)(ts_ns - s->run.ts_ns);

	pts_evstore_prefetch(j, PTS_EVSTORE_AHEAD_JUMPS);
	j->from32 = (uint32_t)from;
	j->to32 = (uint32_t)to;
	j->dts = dts;
	e->from = s->run.lo;
	e->run.span = (uint32_t)(s->run.hi - s->run.lo);
	e->run.dts = dts;
	e->n = (uint16_t)s->run.n;
}

/*
 * A jump of pid/tid at ts_ns that extends s's open run, and fits, is
 * appended to it: true. false: nothing stored.
 */
static inline bool pts_evstore_add_jump(struct pts_evstore *s, int32_t pid, int32_t tid,
					uint64_t from, uint64_t to, uint64_t ts_ns)
{
	if (!s->open || s->jnext >= s->jend ||
	    !pts_run_add(&s->run, s->any_time, pid, tid, from, to, ts_ns))
		return false;
	pts_evstore_jump(s, from, to, ts_ns);
	return true;
}

/* Whether an event at trace position pos may be stored, and fits (a run: and a jump). */
static inline bool pts_evstore_can(const struct pts_evstore *s, uint64_t pos, bool run)
{
	return pos < s->below && s->enext < s->eend && (!run || s->jnext < s->jend);
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
	if (s->tnext == s->thr || pts_pid_tid(&s->tnext[-1].pid) != pts_evstore_thread(pid, tid)) {
		s->tnext->i = (uint64_t)(e - s->ev);
		s->tnext->pid = pid;
		s->tnext->tid = tid;
		s->tnext++;
	}
	e->kind = (uint8_t)kind;
	e->flags = 0;
	e->insn_len = 0;
	e->has_x = 0;
	e->xi = 0;
	s->open = NULL;
	return e;
}

/*
 * Store a jump that begins a run (room checked), the open run from now
 * on; or, too wide to be a run, a jump of its own (no run open).
 */
static inline void pts_evstore_begin_run(struct pts_evstore *s, int32_t pid, int32_t tid,
					 uint64_t from, uint64_t to, uint64_t ts_ns, uint64_t pos)
{
	struct pts_rec *e = pts_evstore_put(s, PTS_BR_JUMP, from, to, ts_ns, pos, pid, tid);

	if (!pts_run_begin(&s->run, pid, tid, from, to, ts_ns)) {
		e->flags = PTS_REC_SLOW;
		return;
	}
	e->flags = PTS_REC_RUN;
	e->xi = (uint32_t)(s->jnext - s->jumps);
	s->open = e;
	pts_evstore_jump(s, from, to, ts_ns);
}

#endif /* PTS_DECODE_EVSTORE_H */
