/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A branch source: where a decode run's branch events come from, as one
 * iterator whatever the input. Three kinds implement it:
 *   - one CPU's raw PT decoded in this thread (decode/ptdec_src.h), for
 *     raw --pt files and for a capture bundle's per-CPU traces alike;
 *   - one CPU's raw PT decoded in chunks by worker threads
 *     (session/pardec_src.h), handing out the same events;
 *   - perf script text (decode/perfscript.h), whose lines are already
 *     one time-ordered stream of every CPU's events.
 * The session merges sources by the time of their next event
 * (session/merge.h) and feeds the timeline; neither cares which kind a
 * source is.
 *
 * Contract of every source (the session relies on it):
 *   - events come in the source's own time order (ts_ns, ns since the
 *     run's origin) and are handed out in place: *out and its strings
 *     stay valid until the next call of next or peek on that source;
 *   - peek may decode ahead; it never hands an event out;
 *   - after next or peek reported an error, the source is only closed.
 * Threads: a source is used by one thread at a time.
 */
#ifndef PTS_DECODE_BRSRC_H
#define PTS_DECODE_BRSRC_H

#include <stdbool.h>
#include <stdint.h>

#include "../util/err.h"
#include "branch.h"

/* The numbers a source adds to the --summary, complete once next returned 0. */
struct pts_brsrc_stats {
	uint64_t insns, blocks;		/* instructions and basic blocks decoded */
	uint64_t branches;		/* branch events, elided ones included */
	uint64_t elided;		/* jumps inside the current function, not handed out */
	uint64_t events;		/* trace events (PT: libipt events) */
	uint64_t by_event[32];		/* of events, by libipt event type (pts_ptev_name) */
	uint64_t joins, refused;	/* chunked decode: chunks joined, joins refused */
	uint64_t skipped;		/* text input: lines not understood */
	bool errata_unknown;		/* PT: libipt knows no errata of the CPU */
};

struct pts_brsrc;

/* What next and next_before return when they do not fail (negative errno). */
enum pts_brsrc_got {
	PTS_BRSRC_END = 0,	/* no event left */
	PTS_BRSRC_EVENT = 1,	/* *out is the next event */
	PTS_BRSRC_DROPPED = 2,	/* the next event was dropped by the source: ask again */
	PTS_BRSRC_LATER = 3,	/* next_before: the next event is not before the bound */
};

/* An event of source idx (valid during the call); nonzero (negative): stop. */
typedef int (*pts_brsrc_event_fn)(void *ctx, unsigned int idx, const struct pts_branch *br,
				  struct pts_err *err);

/*
 * Where a source hands its events itself (pts_brsrc_ops.emit). A source
 * that knows an event is a near call or a near return without a test of
 * its kind (the PT decoder's block loop, which resolves the branch by its
 * class) may hand it to call or ret instead of event, to the same effect:
 * the consumer then skips its own test of the kind. All three are set
 * (call and ret to event where the consumer has no entry of its own):
 * the source calls them without a test.
 */
struct pts_brsrc_to {
	pts_brsrc_event_fn event;	/* any event; a nonzero return stops the source */
	void *ctx;
	unsigned int idx;		/* passed to event, call and ret */
	pts_brsrc_event_fn call;	/* a PTS_BR_CALL only */
	pts_brsrc_event_fn ret;		/* a PTS_BR_RETURN only */
};

struct pts_brsrc_ops {
	/*
	 * The next event: 1 and *out; 0 at the end; 2 when the next event
	 * was dropped by the source (a jump inside the current function,
	 * decode/elide.h: nothing handed out, ask again); negative errno
	 * with err filled on an error (-ENOMEM, -EIO, -EINVAL).
	 */
	int (*next)(struct pts_brsrc *s, const struct pts_branch **out, struct pts_err *err);
	/*
	 * optional: as next while the next event's time is before until_ns;
	 * 3 (nothing handed out) when it is not. A merge hands out the
	 * leading source's events with it, one compare each inside the
	 * source instead of a peek per event (pts_brsrc_next_before), and
	 * asks again after a 2 with the same bound, nothing fed between: a
	 * source may drop events before until_ns and go on to the next in
	 * the same call, before a 1 or a 3, as if asked again.
	 */
	int (*next_before)(struct pts_brsrc *s, uint64_t until_ns, const struct pts_branch **out,
			   struct pts_err *err);
	/*
	 * optional: the events next_before would hand out (bounded false:
	 * next, every one), each to to->event in turn, in one call: 0 at the
	 * end, 3 at an event not before until_ns, negative errno on an error
	 * (err filled), or to->event's nonzero return. A merge hands a run of
	 * the leading source's events so, without a call and a return through
	 * this interface per event.
	 */
	int (*emit)(struct pts_brsrc *s, bool bounded, uint64_t until_ns,
		    const struct pts_brsrc_to *to, struct pts_err *err);
	/*
	 * The time (ns since the origin) of the event next will return: 1
	 * and *ns; 0 at the end; negative errno with err filled.
	 */
	int (*peek)(struct pts_brsrc *s, uint64_t *ns, struct pts_err *err);
	/*
	 * optional: the consumer's promise that the source's events before
	 * until_ns (ns since the origin) come next, each consumed before it
	 * asks again, until it says otherwise: jumps among them may be
	 * dropped as they are decoded (decode/elide.h) rather than handed
	 * out one by one. 0: no promise (the start).
	 */
	void (*lead)(struct pts_brsrc *s, uint64_t until_ns);
	/* Input bytes consumed so far (progress; 0 if the source cannot tell). */
	uint64_t (*done)(const struct pts_brsrc *s);
	/* Summary numbers so far (zeroed first by the caller's helper). */
	void (*stats)(const struct pts_brsrc *s, struct pts_brsrc_stats *st);
	/* Release everything the source owns, s included. */
	void (*close)(struct pts_brsrc *s);
};

/* Marks a source whose events carry several CPUs (each event's own cpu field). */
#define PTS_BRSRC_CPUS UINT32_MAX

/* Embedded first in each implementation's state. */
struct pts_brsrc {
	const struct pts_brsrc_ops *ops;
	uint32_t cpu;			/* the CPU of every event, or PTS_BRSRC_CPUS */
};

static inline int pts_brsrc_next(struct pts_brsrc *s, const struct pts_branch **out,
				 struct pts_err *err)
{
	return s->ops->next(s, out, err);
}

static inline int pts_brsrc_peek(struct pts_brsrc *s, uint64_t *ns, struct pts_err *err)
{
	return s->ops->peek(s, ns, err);
}

/*
 * The next event if its time is before until_ns (PTS_BRSRC_EVENT or
 * PTS_BRSRC_DROPPED), PTS_BRSRC_LATER if not, PTS_BRSRC_END at the end,
 * negative errno on an error: the source's next_before, or peek and next.
 */
static inline int pts_brsrc_next_before(struct pts_brsrc *s, uint64_t until_ns,
					const struct pts_branch **out, struct pts_err *err)
{
	uint64_t ns;
	int rc;

	if (s->ops->next_before)
		return s->ops->next_before(s, until_ns, out, err);
	rc = pts_brsrc_peek(s, &ns, err);
	if (rc <= 0)
		return rc;
	return ns < until_ns ? pts_brsrc_next(s, out, err) : PTS_BRSRC_LATER;
}

static inline void pts_brsrc_lead(struct pts_brsrc *s, uint64_t until_ns)
{
	if (s->ops->lead)
		s->ops->lead(s, until_ns);
}

static inline uint64_t pts_brsrc_done(const struct pts_brsrc *s)
{
	return s->ops->done ? s->ops->done(s) : 0;
}

static inline void pts_brsrc_stats(const struct pts_brsrc *s, struct pts_brsrc_stats *st)
{
	*st = (struct pts_brsrc_stats){ 0 };
	if (s->ops->stats)
		s->ops->stats(s, st);
}

/* Close s (NULL: nothing). */
static inline void pts_brsrc_close(struct pts_brsrc *s)
{
	if (s)
		s->ops->close(s);
}

#endif /* PTS_DECODE_BRSRC_H */
