/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Branch sources (decode/brsrc.h) merged into one stream by the time of
 * their next event: each source's events in its own order, across sources
 * the earliest next event first, equal times from the lower source index
 * (cpuheap.h), so that a merge is the same every run. One source is
 * handed through without peeking (its events are in order already).
 *
 * Each event goes to sink->event before the next source is chosen; a
 * source whose events have all been handed out is reported once to
 * sink->ended, at the moment it is found to be at its end (for several
 * sources: when its next time is asked for, before any later event of
 * another source; for one source: after its last event).
 */
#ifndef PTS_SESSION_MERGE_H
#define PTS_SESSION_MERGE_H

#include "../decode/brsrc.h"

struct pts_merge_sink {
	/* An event of source idx (valid during the call). A negative return stops the merge. */
	int (*event)(void *ctx, unsigned int idx, const struct pts_branch *br,
		     struct pts_err *err);
	/* Source idx has ended (may be NULL). A negative return stops the merge. */
	int (*ended)(void *ctx, unsigned int idx, struct pts_err *err);
	void *ctx;
	/*
	 * optional: event, for a PTS_BR_CALL or a PTS_BR_RETURN alone, where
	 * the source knows the kind (decode/brsrc.h, struct pts_brsrc_to);
	 * NULL: event.
	 */
	pts_brsrc_event_fn call, ret;
};

/*
 * Merge n sources into sink until every one has ended (n 0: nothing, a
 * bundle whose every ring was empty). Errors: a
 * source's (next or peek), the sink's, -ENOMEM; the sources stay open (the
 * caller closes them).
 */
int pts_merge_run(struct pts_brsrc *const *src, unsigned int n, const struct pts_merge_sink *sink,
		  struct pts_err *err);

#endif /* PTS_SESSION_MERGE_H */
