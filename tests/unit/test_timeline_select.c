// SPDX-License-Identifier: GPL-2.0
/*
 * A part of the timeline (timeline/select.c): a thread, and a time
 * window cut at its edges. The stream and the expected shapes are written
 * by hand from select.h: a slice open at the window's start begins there,
 * one still open at its end ends there, and the result keeps writer.h's
 * rules (tl_sink_well_formed).
 */
#include "unit.h"

#include <errno.h>
#include <string.h>

#include "tl_sink.h"
#include "timeline/select.h"
#include "writer_testlib.h"

/* pid 100: thread 101 main{ a, b{ c }, late }, thread 102 other{ gap } */
static size_t stream(struct pts_tl_rec *r)
{
	size_t n = 0;

	r[n++] = wt_rec(PTS_TL_PROCESS, PTS_TLK_NONE, 0, 100, 0, 0, "prog");
	r[n++] = wt_rec(PTS_TL_THREAD, PTS_TLK_NONE, 0, 100, 101, 0, "t1");
	r[n++] = wt_rec(PTS_TL_THREAD, PTS_TLK_NONE, 0, 100, 102, 0, "t2");
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 10, 100, 101, 0, "main");
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 15, 100, 102, 0, "other");
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 20, 100, 101, 1, "a");
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 30, 100, 101, 1, "a");
	r[n++] = wt_rec(PTS_TL_INSTANT, PTS_TLK_GAP, 35, 100, 102, 1, "gap");
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 40, 100, 101, 1, "b");
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 50, 100, 101, 2, "c");
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 60, 100, 101, 2, "c");
	r[n++] = wt_rec(PTS_TL_COUNTER, PTS_TLK_NONE, 62, 100, 0, 0, "freq");
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 70, 100, 101, 1, "b");
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 80, 100, 102, 0, "other");
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 85, 100, 101, 1, "late");
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 88, 100, 101, 1, "late");
	r[n++] = wt_rec(PTS_TL_COUNTER, PTS_TLK_NONE, 89, 100, 0, 0, "freq");
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_END_OF_TRACE, 90, 100, 101, 0, "main");
	return n;
}

static void run(const struct pts_tl_select_opts *o, struct tl_sink *sink)
{
	struct pts_tl_rec r[32];
	struct pts_tl_select *s;
	struct pts_err err;
	size_t n = stream(r), i;

	CU_ASSERT_EQUAL_FATAL(pts_tl_select_new(o, tl_sink_emit, sink, &s, &err), 0);
	for (i = 0; i < n; i++)
		CU_ASSERT_EQUAL(pts_tl_select_emit(s, &r[i], &err), 0);
	pts_tl_select_free(s);
}

static uint64_t ts_of(const struct tl_sink *s, enum pts_tl_type t, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->recs[i].r.type == t && !strcmp(s->recs[i].name, name))
			return s->recs[i].r.ts_ns;
	return UINT64_MAX;
}

static void tid_keeps_that_thread_and_its_process(void)
{
	struct pts_tl_select_opts o = { .tid = 102 };
	struct tl_sink sink = { 0 };
	char shape[512], why[128];
	size_t i, procs = 0, threads = 0;

	run(&o, &sink);
	CU_ASSERT_STRING_EQUAL(tl_sink_shape(&sink, shape, sizeof(shape)), "B0 other|I gap|E0 other");
	for (i = 0; i < sink.n; i++) {
		procs += sink.recs[i].r.type == PTS_TL_PROCESS;
		threads += sink.recs[i].r.type == PTS_TL_THREAD;
		if (sink.recs[i].r.type == PTS_TL_THREAD)
			CU_ASSERT_EQUAL(sink.recs[i].r.tid, 102);
	}
	CU_ASSERT_EQUAL(procs, 1);
	CU_ASSERT_EQUAL(threads, 1);
	CU_ASSERT(tl_sink_well_formed(&sink, why, sizeof(why)));
	tl_sink_free(&sink);
}

static void window_cuts_open_slices_at_its_edges_and_drops_the_rest(void)
{
	struct pts_tl_select_opts o = { .has_start = true, .has_end = true,
					.start_ns = 35, .end_ns = 65 };
	struct tl_sink sink = { 0 };
	char shape[512], why[128];

	run(&o, &sink);
	/* a (20..30) and late (85..88) are outside; main, other held from before 35 */
	CU_ASSERT_STRING_EQUAL(tl_sink_shape(&sink, shape, sizeof(shape)),
			       "B0 other|I gap|B0 main|B1 b|B2 c|E2 c|E1 b|E0 other|E0 main");
	CU_ASSERT_EQUAL(ts_of(&sink, PTS_TL_BEGIN, "main"), 35);
	CU_ASSERT_EQUAL(ts_of(&sink, PTS_TL_BEGIN, "other"), 35);
	CU_ASSERT_EQUAL(ts_of(&sink, PTS_TL_BEGIN, "b"), 40);
	CU_ASSERT_EQUAL(ts_of(&sink, PTS_TL_END, "b"), 65);
	CU_ASSERT_EQUAL(ts_of(&sink, PTS_TL_END, "main"), 65);
	CU_ASSERT_EQUAL(ts_of(&sink, PTS_TL_COUNTER, "freq"), 62);	/* 89 is outside */
	CU_ASSERT(tl_sink_well_formed(&sink, why, sizeof(why)));
	tl_sink_free(&sink);
}

static void time_window_forms_and_refusals(void)
{
	struct pts_tl_select_opts o;
	struct pts_err err;

	memset(&o, 0, sizeof(o));
	CU_ASSERT_EQUAL(pts_tl_select_parse_time("1ms..2ms", &o, &err), 0);
	CU_ASSERT(o.has_start && o.has_end);
	CU_ASSERT_EQUAL(o.start_ns, 1000000);
	CU_ASSERT_EQUAL(o.end_ns, 2000000);
	memset(&o, 0, sizeof(o));
	CU_ASSERT_EQUAL(pts_tl_select_parse_time("5000..", &o, &err), 0);
	CU_ASSERT(o.has_start && !o.has_end);
	CU_ASSERT_EQUAL(o.start_ns, 5000);
	memset(&o, 0, sizeof(o));
	CU_ASSERT_EQUAL(pts_tl_select_parse_time("..3us", &o, &err), 0);
	CU_ASSERT(!o.has_start && o.has_end);
	CU_ASSERT_EQUAL(o.end_ns, 3000);
	CU_ASSERT_EQUAL(pts_tl_select_parse_time("2s..1s", &o, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "after the end"));
	CU_ASSERT_EQUAL(pts_tl_select_parse_time("1h..2h", &o, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "START..END"));
	CU_ASSERT_EQUAL(pts_tl_select_parse_time("..", &o, &err), -EINVAL);
	CU_ASSERT_EQUAL(pts_tl_select_parse_time("18446744073709551615s..", &o, &err), -EINVAL);
}

static void a_fraction_of_a_unit_is_taken_in_whole_nanoseconds(void)
{
	struct pts_tl_select_opts o;
	struct pts_err err;

	/* as perf script and readers of the .txt write times */
	memset(&o, 0, sizeof(o));
	CU_ASSERT_EQUAL(pts_tl_select_parse_time("1.5us..0.25ms", &o, &err), 0);
	CU_ASSERT_EQUAL(o.start_ns, 1500);
	CU_ASSERT_EQUAL(o.end_ns, 250000);
	CU_ASSERT_EQUAL(pts_tl_select_parse_time("0.000000001s..2.000000000s", &o, &err), 0);
	CU_ASSERT_EQUAL(o.start_ns, 1);
	CU_ASSERT_EQUAL(o.end_ns, 2000000000);
	/* 2^64 - 1 ns is the last time there is; one more is none */
	CU_ASSERT_EQUAL(pts_tl_select_parse_time("18446744073.709551615s..", &o, &err), 0);
	CU_ASSERT_EQUAL(o.start_ns, UINT64_MAX);
	CU_ASSERT_EQUAL(pts_tl_select_parse_time("18446744073.709551616s..", &o, &err), -EINVAL);
	/* finer than a nanosecond, or no digit on one side of the point */
	CU_ASSERT_EQUAL(pts_tl_select_parse_time("1.0005us..", &o, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "whole nanoseconds"));
	CU_ASSERT_EQUAL(pts_tl_select_parse_time("1.5..", &o, &err), -EINVAL);
	CU_ASSERT_EQUAL(pts_tl_select_parse_time(".5us..", &o, &err), -EINVAL);
	CU_ASSERT_EQUAL(pts_tl_select_parse_time("1.us..", &o, &err), -EINVAL);
	CU_ASSERT_EQUAL(pts_tl_select_parse_time("1.0000000001s..", &o, &err), -EINVAL);
}

static void a_start_after_the_end_is_said_in_ns(void)
{
	struct pts_tl_select_opts o;
	struct pts_err err;

	/* a time without a unit is ns: "1ms..2" ends before it starts */
	memset(&o, 0, sizeof(o));
	CU_ASSERT_EQUAL(pts_tl_select_parse_time("1ms..2", &o, &err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err.msg, "--time 1ms..2: the start (1000000 ns) is after the end "
			       "(2 ns; a time without a unit is ns)");
}

PTS_SUITE(timeline_select, NULL, NULL,
	  PTS_TEST(tid_keeps_that_thread_and_its_process),
	  PTS_TEST(window_cuts_open_slices_at_its_edges_and_drops_the_rest),
	  PTS_TEST(time_window_forms_and_refusals),
	  PTS_TEST(a_fraction_of_a_unit_is_taken_in_whole_nanoseconds),
	  PTS_TEST(a_start_after_the_end_is_said_in_ns))
