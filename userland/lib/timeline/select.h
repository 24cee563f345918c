/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A part of the timeline: the records of one process or thread and of a
 * time window, as perf script's --pid, --tid and --time select samples.
 * It sits between the timeline builder and a writer and keeps the
 * writer's stream rules (writer.h): a slice open when the window starts
 * begins at its start, one still open when it ends ends at its end, and
 * slices wholly outside are left out with everything they hold.
 */
#ifndef PTS_TIMELINE_SELECT_H
#define PTS_TIMELINE_SELECT_H

#include <stdbool.h>
#include <stdint.h>

#include "timeline.h"

struct pts_tl_select_opts {
	int32_t pid, tid;		/* keep only this process / thread; 0: any, */
	bool has_pid, has_tid;		/* unless these say 0 was asked for (the idle task) */
	bool has_start, has_end;	/* the window's bounds given */
	uint64_t start_ns, end_ns;	/* [start, end], on the records' ts_ns */
};

struct pts_tl_select;

/*
 * Parse "START..END" (either side may be empty: "..2ms", "5us..") into
 * o's window; each bound a number with an optional unit ns (default),
 * us, ms or s. 0, or -EINVAL with err saying the accepted form (also for
 * START > END and values past 2^64 ns).
 */
int pts_tl_select_parse_time(const char *s, struct pts_tl_select_opts *o, struct pts_err *err);

/*
 * A selection passing the records it keeps on to emit(ctx, rec, err).
 * 0, or -ENOMEM.
 */
int pts_tl_select_new(const struct pts_tl_select_opts *o, pts_tl_emit_fn emit, void *ctx,
		      struct pts_tl_select **out, struct pts_err *err);

/*
 * The pts_tl_emit_fn to give the timeline builder (ctx: the selection).
 * Returns what emit returned, or -ENOMEM.
 */
int pts_tl_select_emit(void *ctx, const struct pts_tl_rec *rec, struct pts_err *err);

/* Slices, instants and counters kept so far (0: the selection matched nothing). */
uint64_t pts_tl_select_kept(const struct pts_tl_select *s);

void pts_tl_select_free(struct pts_tl_select *s);

#endif
