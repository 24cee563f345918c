// SPDX-License-Identifier: GPL-2.0
/*
 * Many threads (issue 20 item 4): finding a thread by (pid, tid) must not
 * cost a scan of the threads seen so far. 100 000 threads of 100 processes,
 * each with one call, then every thread again in reverse order: a scan
 * would look at about N^2 / 2 = 5 * 10^9 entries; the hashed lookup
 * looks at a few slots per event (plus the rehashes as the tables grow,
 * fewer than 2 per entry). The bound asserted, 16 per event, is far from
 * both; it is checked every 1024 events, so that a lookup that scans
 * fails within the first thousands of threads instead of running for
 * minutes. The records still follow writer.h's rules: every thread is named
 * (PROCESS, THREAD) once, before its first slice.
 */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"
#include "timeline/timeline.h"

#define NTHREADS 100000

struct count_sink {
	size_t threads, processes, begins, ends;
	unsigned char *named;	/* per tid - 1000: THREAD seen */
	int order_ok;
};

static int count_emit(void *ctx, const struct pts_tl_rec *r, struct pts_err *err)
{
	struct count_sink *s = ctx;
	size_t i = (size_t)(r->tid - 1000);

	(void)err;
	if (r->type == PTS_TL_PROCESS) {
		s->processes++;
		return 0;
	}
	if (i >= NTHREADS) {
		s->order_ok = 0;
		return 0;
	}
	if (r->type == PTS_TL_THREAD) {
		s->threads++;
		s->named[i] = 1;
	} else if (r->type == PTS_TL_BEGIN || r->type == PTS_TL_END) {
		s->begins += r->type == PTS_TL_BEGIN;
		s->ends += r->type == PTS_TL_END;
		if (!s->named[i])
			s->order_ok = 0;
	}
	return 0;
}

static void feed_call(struct pts_tl *tl, int32_t tid, uint64_t ts)
{
	struct pts_branch b;
	struct pts_err err;

	memset(&b, 0, sizeof(b));
	b.kind = PTS_BR_CALL;
	b.from = 0x401000;
	b.insn_len = 5;
	b.to = 0x402000;
	b.ts_ns = ts;
	b.pid = 1000 + (tid - 1000) % 100;
	b.tid = tid;
	CU_ASSERT_EQUAL_FATAL(pts_tl_feed(tl, &b, &err), 0);
}

/* The bound on the id table's probes, checked as the events go in. */
static void probes_bounded(struct pts_tl *tl, uint64_t events)
{
	if (events && events % 1024 == 0 && pts_tl_id_probes(tl) > 16 * events) {
		fprintf(stderr, "timeline_threads: %llu probes for %llu events\n",
			(unsigned long long)pts_tl_id_probes(tl), (unsigned long long)events);
		CU_FAIL_FATAL("more than 16 id-table probes per event: a scan");
	}
}

static void hundred_thousand_threads_are_found_without_a_scan(void)
{
	struct count_sink s = { .order_ok = 1 };
	struct pts_tl_config c;
	struct pts_tl *tl;
	struct pts_err err;
	uint64_t events = 0;
	int32_t i;

	s.named = calloc(NTHREADS, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s.named);
	memset(&c, 0, sizeof(c));
	c.scope = PTS_SCOPE_USER;
	c.emit = count_emit;
	c.emit_ctx = &s;
	CU_ASSERT_EQUAL_FATAL(pts_tl_new(&c, &tl, &err), 0);
	for (i = 0; i < NTHREADS; i++, events++) {
		probes_bounded(tl, events);
		feed_call(tl, 1000 + i, 10 + (uint64_t)i);
	}
	for (i = NTHREADS - 1; i >= 0; i--, events++) {
		probes_bounded(tl, events);
		feed_call(tl, 1000 + i, 10 + NTHREADS + (uint64_t)(NTHREADS - i));
	}
	CU_ASSERT_EQUAL(pts_tl_finish(tl, &err), 0);
	CU_ASSERT_EQUAL(pts_tl_nr_threads(tl), NTHREADS);
	CU_ASSERT(pts_tl_id_probes(tl) <= 16 * events);
	CU_ASSERT_EQUAL(s.processes, 100);
	CU_ASSERT_EQUAL(s.threads, NTHREADS);
	/* per thread: an [unknown] frame at the first call's site, two calls; all ended */
	CU_ASSERT(s.begins >= 2 * (size_t)NTHREADS);
	CU_ASSERT_EQUAL(s.begins, s.ends);
	CU_ASSERT(s.order_ok);
	pts_tl_free(tl);
	free(s.named);
}

PTS_SUITE(timeline_threads, NULL, NULL,
	  PTS_TEST(hundred_thousand_threads_are_found_without_a_scan));
