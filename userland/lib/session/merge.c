// SPDX-License-Identifier: GPL-2.0
/* Time merge of branch sources (merge.h). */
#include "merge.h"

#include <errno.h>
#include <limits.h>

#include "cpuheap.h"

/*
 * Put source i (back) in the heap at the time of its next event; a source
 * that has ended leaves it, and is reported then: its last event was the
 * earliest of all. The top source with its next event before until (ns,
 * lead_until) stays on top: its key is set without reordering.
 */
static int place(struct pts_cpuheap *h, struct pts_brsrc *s, unsigned int i, bool is_top,
		 uint64_t until, const struct pts_merge_sink *sink, struct pts_err *err)
{
	uint64_t t;
	int rc = pts_brsrc_peek(s, &t, err);

	if (rc < 0)
		return rc;
	if (rc) {
		if (is_top && t < until)
			h->v[0].key = t;
		else if (is_top)
			pts_cpuheap_update_top(h, t);
		else
			pts_cpuheap_push(h, t, i);
		return 0;
	}
	if (is_top)
		pts_cpuheap_pop(h);
	return sink->ended ? sink->ended(sink->ctx, i, err) : 0;
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

/* One source: its events in its order, nothing to compare. */
static int run_one(struct pts_brsrc *s, const struct pts_merge_sink *sink, struct pts_err *err)
{
	for (;;) {
		const struct pts_branch *br;
		int rc = pts_brsrc_next(s, &br, err);

		if (rc < 0)
			return rc;
		if (rc == 2)	/* dropped by the source: nothing handed out */
			continue;
		if (!rc)
			return sink->ended ? sink->ended(sink->ctx, 0, err) : 0;
		rc = sink->event(sink->ctx, 0, br, err);
		if (rc)
			return rc;
	}
}

int pts_merge_run(struct pts_brsrc *const *src, unsigned int n, const struct pts_merge_sink *sink,
		  struct pts_err *err)
{
	const struct pts_cpuheap_ent *top;
	struct pts_cpuheap h;
	bool moved = false;	/* the top source handed out an event: its key is stale */
	unsigned int i, led = UINT_MAX;	/* the source last told it leads (pts_brsrc_lead) */
	uint64_t until = 0;	/* ... up to when (lead_until) */
	int rc = 0;

	if (n == 1)
		return run_one(src[0], sink, err);
	if (pts_cpuheap_init(&h, n))
		return pts_err_set(err, ENOMEM, "out of memory for merging %u CPUs", n);
	for (i = 0; i < n && !rc; i++)
		rc = place(&h, src[i], i, false, 0, sink, err);
	while (!rc) {
		const struct pts_branch *br;
		unsigned int idx;
		int got;

		/* the key is read only now: peeking would overwrite the event handed out */
		if (moved) {
			moved = false;
			rc = place(&h, src[led], led, true, until, sink, err);
			if (rc)
				break;
		}
		top = pts_cpuheap_top(&h);
		if (!top)
			break;
		idx = top->idx;
		/*
		 * Only the top source is decoded, so the others' keys stay
		 * put while it stays on top: its promise holds until then,
		 * and one made to an earlier top is renewed before it is
		 * asked again.
		 */
		if (idx != led) {
			until = lead_until(&h);
			pts_brsrc_lead(src[idx], until);
			led = idx;
		}
		moved = true;
		got = pts_brsrc_next(src[idx], &br, err);
		if (got < 0) {
			rc = got;
			break;
		}
		/* 2: dropped by the source; 0: ended (said by its next peek) */
		if (got == 1)
			rc = sink->event(sink->ctx, idx, br, err);
	}
	pts_cpuheap_free(&h);
	return rc;
}
