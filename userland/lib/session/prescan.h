/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scans of a decode run before any of its decoders start (session.c):
 * the scope evidence of raw traces whose scope is read from the trace
 * (decode/scope_infer.h), and, for each trace decoded in chunks, whether
 * it holds a CYC packet (pardec_cyc.h: such a trace is never joined), and
 * where the serial decoder holds an event across a PSB (pardec_hold.h).
 * Both read a whole trace of user-space code without CYC (30 and 21 ms of
 * a 10 MB one): time before the first chunk is decoded, one CPU busy.
 *
 * They run as tasks, each CPU's CYC scan one and each slice of its scope
 * scan one, taken in turn by up to `threads` threads (the calling one
 * among them): with -j2 the two scans of a CPU run at once. The answers
 * are those of one thread taking the tasks in order: a CYC scan is the
 * CPU's whole trace (read as parts in step, pts_pt_trace_has_cyc); the
 * scope scan's slices end at the same PSBs (PRESCAN_SLICE) whatever the
 * threads, each read as parts split at PSBs in step
 * (pts_scope_scan_parts), and their evidence adds up.
 * A slice scan stops where its evidence, with what the slices done before
 * it had found, shows both halves (pts_scope_scan); slices run at once
 * each stop on their own, and their sum then shows both halves too: the
 * scope decided is the same, and where it is not both, every slice was
 * scanned to its end, as one thread would, and the counts are equal.
 */
#ifndef PTS_SESSION_PRESCAN_H
#define PTS_SESSION_PRESCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../decode/scope_infer.h"
#include "pardec_hold.h"

struct pt_errata;

/* One CPU's trace to scan. */
struct pts_prescan_cpu {
	uint8_t *buf;		/* mapped: the pages scanned are dropped behind */
	size_t len;
	bool scan_cyc;		/* in: scan it for CYC */
	/* in: the recording CPU's, for both scans (NULL: none; pardec_cyc.h, scope_infer.h) */
	const struct pt_errata *errata;
	bool cyc;		/* out: it holds one (pts_pt_trace_has_cyc) */
	struct pts_pt_hold *hold;	/* where scan_cyc: initialised, the scan's held events */
};

/*
 * Scan the n traces of cpu: for the scope when ev is not NULL (its
 * evidence added to *ev), for CYC where scan_cyc says, on up to threads
 * threads (fewer when some cannot be started). Errors: -ENOMEM (libipt's
 * packet decoder cannot be allocated).
 */
int pts_prescan(struct pts_prescan_cpu *cpu, unsigned int n, unsigned int threads,
		struct pts_scope_evidence *ev);

#endif /* PTS_SESSION_PRESCAN_H */
