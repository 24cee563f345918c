// SPDX-License-Identifier: GPL-2.0
/* Time merge of branch sources (merge.h). */
#include "merge.h"

#include <errno.h>

#include "cpuheap.h"

/*
 * Put source i in the heap at the time of its next event (is_top: it is
 * the top, whose key moves on); a source that has ended leaves it, and is
 * reported then: its last event was the earliest of all.
 */
static int place(struct pts_cpuheap *h, struct pts_brsrc *s, unsigned int i, bool is_top,
		 const struct pts_merge_sink *sink, struct pts_err *err)
{
	uint64_t t;
	int rc = pts_brsrc_peek(s, &t, err);

	if (rc < 0)
		return rc;
	if (rc) {
		if (is_top)
			pts_cpuheap_update_top(h, t);
		else
			pts_cpuheap_push(h, t, i);
		return 0;
	}
	if (is_top)
		pts_cpuheap_pop(h);
	return sink->ended ? sink->ended(sink->ctx, i, err) : 0;
}

/* Where source idx hands its events itself (pts_brsrc_ops.emit): sink's entries. */
static struct pts_brsrc_to to_of(const struct pts_merge_sink *sink, unsigned int idx)
{
	return (struct pts_brsrc_to){ .event = sink->event,
				      .ctx = sink->ctx,
				      .idx = idx,
				      .call = sink->call ?: sink->event,
				      .ret = sink->ret ?: sink->event };
}

/*
 * The time before which the top source's events come next: the next
 * source's key, which the top's events may equal when its index is the
 * lower (the heap's order). UINT64_MAX: no other source.
 */
static uint64_t lead_until(const struct pts_cpuheap *h)
{
	const struct pts_cpuheap_ent *top = pts_cpuheap_top(h), *o = pts_cpuheap_second(h);

	if (!o)
		return UINT64_MAX;
	if (top->idx < o->idx && o->key < UINT64_MAX)
		return o->key + 1;
	return o->key;
}

/*
 * The top source's events while they come before every other source's
 * (lead_until): one time compare each, no heap operation, since only the
 * top source is decoded and the others' keys stay put meanwhile. Then its
 * key moves to its next event (another source is on top then) or, at its
 * end, it leaves the heap. The source is told the bound first
 * (pts_brsrc_lead): its promise holds for the whole run of events.
 */
static int run_lead(struct pts_cpuheap *h, struct pts_brsrc *const *src,
		    const struct pts_merge_sink *sink, struct pts_err *err)
{
	unsigned int idx = pts_cpuheap_top(h)->idx;
	uint64_t until = lead_until(h);
	struct pts_brsrc *s = src[idx];

	pts_brsrc_lead(s, until);
	if (s->ops->emit) {
		const struct pts_brsrc_to to = to_of(sink, idx);
		int got = s->ops->emit(s, true, until, &to, err);

		if (got != PTS_BRSRC_LATER && got != PTS_BRSRC_END)
			return got;
		/* its next time, or its end said again by peek */
		return place(h, s, idx, true, sink, err);
	}
	for (;;) {
		const struct pts_branch *br;
		int got = pts_brsrc_next_before(s, until, &br, err), rc;

		if (got == PTS_BRSRC_EVENT) {
			rc = sink->event(sink->ctx, idx, br, err);
			if (rc)
				return rc;
		} else if (got == PTS_BRSRC_LATER || got == PTS_BRSRC_END) {
			/* its next time, or its end said again by peek */
			return place(h, s, idx, true, sink, err);
		} else if (got < 0) {
			return got;
		}
	}
}

/* run_one of a source that hands its events itself (pts_brsrc_ops.emit). */
static int emit_one(struct pts_brsrc *s, const struct pts_merge_sink *sink, struct pts_err *err)
{
	const struct pts_brsrc_to to = to_of(sink, 0);
	int rc = s->ops->emit(s, false, 0, &to, err);

	if (rc)
		return rc;
	return sink->ended ? sink->ended(sink->ctx, 0, err) : 0;
}

/* One source: its events in its order, nothing to compare. */
static int run_one(struct pts_brsrc *s, const struct pts_merge_sink *sink, struct pts_err *err)
{
	for (;;) {
		const struct pts_branch *br;
		int rc = pts_brsrc_next(s, &br, err);

		if (rc < 0)
			return rc;
		if (rc == PTS_BRSRC_DROPPED)	/* nothing handed out */
			continue;
		if (rc == PTS_BRSRC_END)
			return sink->ended ? sink->ended(sink->ctx, 0, err) : 0;
		rc = sink->event(sink->ctx, 0, br, err);
		if (rc)
			return rc;
	}
}

int pts_merge_run(struct pts_brsrc *const *src, unsigned int n, const struct pts_merge_sink *sink,
		  struct pts_err *err)
{
	struct pts_cpuheap h;
	unsigned int i;
	int rc = 0;

	if (n == 1)
		return src[0]->ops->emit ? emit_one(src[0], sink, err) : run_one(src[0], sink, err);
	if (pts_cpuheap_init(&h, n))
		return pts_err_set(err, ENOMEM, "out of memory for merging %u CPUs", n);
	for (i = 0; i < n && !rc; i++)
		rc = place(&h, src[i], i, false, sink, err);
	while (!rc && pts_cpuheap_top(&h))
		rc = run_lead(&h, src, sink, err);
	pts_cpuheap_free(&h);
	return rc;
}
