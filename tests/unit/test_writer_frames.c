// SPDX-License-Identifier: GPL-2.0
/*
 * The writers' frame path (writer.h, struct pts_writer_frames): BEGIN and
 * END handed over as a thread's time and a slice instead of a record.
 * Its specification is the record path: the same stream written both
 * ways must give the same file, byte for byte, and a timeline builder
 * given the writer itself as its sink (pts_writer_sink, which takes the
 * frame path) must write what it writes through pts_writer_emit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "tl_branch.h"
#include "tl_sink.h"
#include "writer_testlib.h"
#include "timeline/timeline.h"

/* An open slice of the frame path, kept as the timeline keeps its frames. */
struct open_slice {
	int pid, tid;
	struct pts_tl_slice s;
};

/* The slices given ids so far, as the timeline numbers a call target's. */
static struct pts_tl_slice *ided;
static size_t nided, ided_cap;

static bool same_slice(const struct pts_tl_slice *a, const struct pts_tl_slice *b)
{
	return a->name == b->name && a->object == b->object && a->addr == b->addr &&
	       a->offset == b->offset && a->flags == b->flags;
}

/*
 * An id for s (struct pts_tl_slice): the one of a slice of the same
 * fields, else a new one; none for extra arguments, nor for every
 * fourth new slice, whose BEGINs then take the way of a slice without.
 */
static uint64_t slice_id(const struct pts_tl_slice *s)
{
	size_t i;

	if (s->nargs)
		return 0;
	for (i = 0; i < nided; i++)
		if (same_slice(&ided[i], s))
			return ided[i].id;
	if (nided == ided_cap) {
		ided_cap = ided_cap ? 2 * ided_cap : 64;
		ided = realloc(ided, ided_cap * sizeof(*ided));
		CU_ASSERT_FATAL(ided != NULL);
	}
	ided[nided] = *s;
	ided[nided].id = nided % 4 == 3 ? 0 : 1000 + nided;
	return ided[nided++].id;
}

/* rec written through w's frame path (BEGIN, END) or pts_writer_emit (others). */
static void frames_emit(struct pts_writer *w, const struct pts_tl_rec *rec,
			struct open_slice *stack, size_t *depth)
{
	const struct pts_writer_frames *wf = pts_writer_frames(w);
	const struct pts_tl_at at = { rec->pid, rec->tid, rec->cpu, rec->ts_ns };
	struct pts_err err;
	size_t i;

	if (rec->type == PTS_TL_BEGIN) {
		struct open_slice *o = &stack[(*depth)++];

		o->pid = rec->pid;
		o->tid = rec->tid;
		o->s = (struct pts_tl_slice){ rec->name, rec->object, rec->addr, rec->offset,
					      rec->flags, rec->nargs, rec->args, 0, 0 };
		o->s.id = slice_id(&o->s);
		CU_ASSERT_EQUAL(wf->begin(w, &at, &o->s, rec->kind, &err), 0);
	} else if (rec->type == PTS_TL_END) {
		/* the innermost open slice of the record's thread */
		for (i = *depth; i-- > 0;)
			if (stack[i].pid == rec->pid && stack[i].tid == rec->tid)
				break;
		CU_ASSERT_FATAL(i < *depth);
		CU_ASSERT_EQUAL(wf->end(w, &at, &stack[i].s, rec->kind, &err), 0);
		memmove(&stack[i], &stack[i + 1], (*depth - i - 1) * sizeof(*stack));
		(*depth)--;
	} else {
		wt_emit(w, rec);
	}
}

/* recs to name through the frame path (frames) or the record path; the file's bytes. */
static char *write_both(const char *name, const struct pts_tl_rec *recs, size_t n, bool frames,
			size_t *len)
{
	struct open_slice *stack = calloc(n, sizeof(*stack));
	struct pts_writer *w;
	struct pts_err err;
	size_t i, depth = 0;

	CU_ASSERT_FATAL(stack != NULL);
	CU_ASSERT_EQUAL_FATAL(pts_writer_open(wt_path(name), PTS_FMT_FXT, &w, &err), 0);
	pts_writer_strings_interned(w);
	for (i = 0; i < n; i++) {
		if (frames)
			frames_emit(w, &recs[i], stack, &depth);
		else
			wt_emit(w, &recs[i]);
	}
	CU_ASSERT_EQUAL_FATAL(pts_writer_close(w, true, &err), 0);
	free(stack);
	free(ided);
	ided = NULL;
	nided = ided_cap = 0;
	return bt_read_file(wt_path(name), len);
}

/* Two files' bytes (freed here) are the same. */
static void expect_same_bytes(char *a, size_t la, char *b, size_t lb)
{
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT(la > 1000);	/* slices were written */
	CU_ASSERT_EQUAL(la, lb);
	CU_ASSERT(la == lb && !memcmp(a, b, la));
	free(a);
	free(b);
}

static void expect_same_files(const struct pts_tl_rec *recs, size_t n)
{
	size_t la, lb;
	char *a = write_both("records.fxt", recs, n, false, &la);
	char *b = write_both("frames.fxt", recs, n, true, &lb);

	expect_same_bytes(a, la, b, lb);
}

/*
 * Every kind of slice the builder makes: a symbol with an offset beyond
 * 32 bits, an unnamed one (named by address), code no symbol covers, a
 * synthetic and an inferred one, one with extra arguments, on two
 * threads, with an instant and a counter in between; then so many names
 * that the string table recycles while the outer frames are open (their
 * ENDs look their names up again).
 */
static void frame_path_writes_the_record_paths_bytes_across_string_table_recycling(void)
{
	enum { N = 40000 };
	static const struct pts_tl_arg args[] = {
		{ .name = "syscall", .type = PTS_TLA_STR, .s = "write" },
		{ .name = "ret", .type = PTS_TLA_INT, .i = -4 },
		{ .name = "error_code", .type = PTS_TLA_UINT, .u = 0x1ffffffffULL },
		{ .name = "address", .type = PTS_TLA_PTR, .u = 0x7f0000001000ULL },
	};
	struct pts_tl_rec *recs = calloc(2 * N + 32, sizeof(*recs));
	char (*names)[16] = calloc(N, sizeof(*names));
	size_t i, n = 0;

	CU_ASSERT_FATAL(recs && names);
	recs[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1, 1, 1, 0, "main");
	recs[n].object = "prog";
	recs[n].addr = 0x401000;
	recs[n++].flags = PTS_TLF_INFERRED;
	recs[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 2, 1, 2, 0, "worker");
	recs[n].addr = 0x500000;
	recs[n++].offset = 0x100000000ULL;
	recs[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 3, 1, 1, 1, NULL);
	recs[n++].addr = 0x402000;
	recs[n] = wt_rec(PTS_TL_INSTANT, PTS_TLK_GAP, 4, 1, 1, 2, "gap");
	recs[n++].detail = "overflow";
	recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 5, 1, 1, 1, NULL);
	recs[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_JUMP, 6, 1, 1, 1, "[unknown] 0x403000 (lib.so)");
	recs[n].addr = 0x403000;
	recs[n].object = "lib.so";
	recs[n++].flags = PTS_TLF_UNKNOWN;
	recs[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_SYSCALL, 7, 1, 1, 2, "[syscall write → 4]");
	recs[n].flags = PTS_TLF_SYNTHETIC | PTS_TLF_KERNEL;
	recs[n].args = args;
	recs[n++].nargs = 4;
	recs[n] = wt_rec(PTS_TL_COUNTER, PTS_TLK_NONE, 8, 1, 1, 0, "cpu MHz");
	recs[n++].value = 2100;
	recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_SYSRET, 9, 1, 1, 2, NULL);
	recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 10, 1, 1, 1, NULL);
	for (i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "fn_%zu", i);
		recs[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 11 + 2 * i, 1, 1, 1, names[i]);
		recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 12 + 2 * i, 1, 1, 1, NULL);
	}
	recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 2 * N + 20, 1, 2, 0, NULL);
	recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_END_OF_TRACE, 2 * N + 21, 1, 1, 0, NULL);
	expect_same_files(recs, n);
	free(names);
	free(recs);
}

/*
 * The slices of one call target again and again, as a trace has them,
 * on two threads and CPUs, by several kinds, with the same address
 * standing for other slices too (another name, object, offset or flag)
 * and more ids than the writer keeps BEGINs of (so they take each
 * other's place): each BEGIN is what the record path writes.
 */
static void frame_path_repeats_a_slice_with_its_time_cpu_kind_and_thread(void)
{
	enum { TARGETS = 1500, ROUNDS = 3 };
	static const char *const names[] = { "f", "g", "[unknown] 0x1000 (lib.so)" };
	static const char *const objects[] = { NULL, "prog", "lib.so" };
	static const enum pts_tl_kind kinds[] = { PTS_TLK_CALL, PTS_TLK_JUMP, PTS_TLK_INTERRUPT };
	static const uint32_t flags[] = { 0, PTS_TLF_KERNEL, PTS_TLF_INFERRED, PTS_TLF_UNKNOWN };
	struct pts_tl_rec *recs = calloc(4 * TARGETS * ROUNDS + 8, sizeof(*recs));
	size_t i, r, n = 0;
	unsigned long long ts = 1;

	CU_ASSERT_FATAL(recs != NULL);
	recs[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, ts++, 1, 1, 0, "main");
	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < TARGETS; i++) {
			int tid = 1 + (int)(i % 7 == 0);
			struct pts_tl_rec *b = &recs[n];

			*b = wt_rec(PTS_TL_BEGIN, kinds[(i + r) % 3], ts++, 1, tid, 1,
				    names[i % 5 == 0 ? (i + r) % 3 : 0]);
			/* every 64th address is one slot's, for other slices */
			b->addr = 0x400000 + (i % 64 ? 16 * i : 512 * (i % 4));
			b->object = objects[(i / 3 + r) % 3];
			b->offset = i % 11 == 0 ? 0x100000000ULL + i : i % 32;
			b->flags = flags[(i / 2 + r) % 4];
			b->cpu = (uint32_t)(i + r) % 3;
			n++;
			recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, ts++, 1, tid, 1, NULL);
			recs[n - 1].cpu = b->cpu;
		}
	}
	recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_END_OF_TRACE, ts++, 1, 1, 0, NULL);
	expect_same_files(recs, n);
	free(recs);
}

/*
 * The string table runs short of room for a record's strings (so that
 * the next record recycles it first) in the BEGIN of a new name, twice:
 * the first time followed by the BEGIN of a slice whose template was made
 * long before, the second time by a BEGIN of the same new slice, whose
 * template was made just then. Each is written after the table recycles,
 * where the record path recycles it, and names its strings by their new
 * refs.
 */
static void frame_path_recycles_the_string_table_where_the_record_path_does(void)
{
	enum { N = 70000, SECOND = 49000 };
	struct pts_tl_rec *recs = calloc(4 * N + 16, sizeof(*recs));
	char (*names)[16] = calloc(N, sizeof(*names));
	unsigned long long ts = 1;
	size_t i, n = 0;

	CU_ASSERT_FATAL(recs && names);
	recs[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, ts++, 1, 1, 0, "main");
	for (i = 0; i < N; i++) {
		/* up to the first recycling (after ~32 700 names): hot inside fn_i */
		const char *inner = i < SECOND ? "hot" : names[i];

		snprintf(names[i], sizeof(names[i]), "fn_%zu", i);
		if (i == SECOND) {
			/*
			 * one slice more (no string): the new slice the table runs
			 * short in (at i = 65 453) then has an id (slice_id)
			 */
			recs[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, ts++, 1, 1, 1, "hot");
			recs[n++].addr = 0x402000;
			recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, ts++, 1, 1, 1, NULL);
		}
		recs[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, ts++, 1, 1, 1, names[i]);
		recs[n++].addr = 0x500000 + 16 * i;
		recs[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, ts++, 1, 1, 2, inner);
		recs[n].object = i < SECOND ? "prog" : NULL;
		recs[n++].addr = i < SECOND ? 0x401000 : 0x500000 + 16 * i;
		recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, ts++, 1, 1, 2, NULL);
		recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, ts++, 1, 1, 1, NULL);
	}
	recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_END_OF_TRACE, ts++, 1, 1, 0, NULL);
	expect_same_files(recs, n);
	free(names);
	free(recs);
}

static void only_the_fxt_writer_has_a_frame_path(void)
{
	static const struct {
		const char *name;
		enum pts_format fmt;
		bool frames;
	} cases[] = {
		{ "t.fxt", PTS_FMT_FXT, true }, { "t.json", PTS_FMT_JSON, false },
		{ "t.txt", PTS_FMT_TXT, false }, { "t.folded", PTS_FMT_FOLDED, false },
		{ "t.null", PTS_FMT_NONE, false },
	};
	struct pts_writer *w;
	struct pts_err err;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CU_ASSERT_EQUAL_FATAL(pts_writer_open(wt_path(cases[i].name), cases[i].fmt, &w,
						      &err), 0);
		CU_ASSERT_EQUAL(pts_writer_frames(w) != NULL, cases[i].frames);
		CU_ASSERT_EQUAL(pts_writer_close(w, true, &err), 0);
	}
}

/* A write that fails (/dev/full: ENOSPC) is reported, and again by every later call. */
static void frame_path_reports_a_failed_write_and_keeps_reporting_it(void)
{
	const struct pts_tl_at at = { 1, 1, 0, 0 };
	struct pts_tl_slice s = { "f", NULL, 0x401000, 0, 0, 0, NULL, 0, 1 };
	const struct pts_writer_frames *wf;
	struct pts_writer *w;
	struct pts_err err;
	int i, rc = 0;

	if (pts_writer_open("/dev/full", PTS_FMT_FXT, &w, &err)) {
		CU_PASS("no /dev/full here");
		return;
	}
	wf = pts_writer_frames(w);
	/* the output buffer (256 KiB) fills after some thousands of slices */
	for (i = 0; !rc && i < 1000000; i++)
		rc = wf->begin(w, &at, &s, PTS_TLK_CALL, &err) ?:
		     wf->end(w, &at, &s, PTS_TLK_RETURN, &err);
	CU_ASSERT_EQUAL(rc, -ENOSPC);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "/dev/full"));
	memset(&err, 0, sizeof(err));
	CU_ASSERT_EQUAL(wf->end(w, &at, &s, PTS_TLK_RETURN, &err), -ENOSPC);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "/dev/full"));
	CU_ASSERT_EQUAL(pts_writer_close(w, true, &err), -ENOSPC);
}

/* The record path for a builder: the writer behind a sink that is not pts_writer_sink. */
static int record_sink(void *ctx, const struct pts_tl_rec *rec, struct pts_err *err)
{
	return pts_writer_emit(ctx, rec, err);
}

#define MAIN	0x401000ULL
#define F	0x402000ULL
#define G	0x403000ULL
#define H	0x404000ULL

static const struct tl_fn fns[] = { { "main", MAIN }, { "f", F }, { "g", G }, { "h", H } };
static struct tl_fns syms = { fns, sizeof(fns) / sizeof(fns[0]) };

/* f calls g and h in turn, returns past the known stack into main, and more. */
static void trace_calls_and_returns(struct pts_tl *tl)
{
	int i;

	tl_feed_branch(tl, PTS_BR_ENABLED, 0, 0, F + 0x10, 100, 0, NULL);
	for (i = 0; i < 6; i++) {
		uint64_t t = 200 + 100 * (uint64_t)i;

		tl_feed_branch(tl, PTS_BR_CALL, F + 0x20, 5, i % 2 ? H : G, t, 0, NULL);
		tl_feed_branch(tl, PTS_BR_RETURN, (i % 2 ? H : G) + 0x30, 1, F + 0x25, t + 50, 0,
			       NULL);
	}
	tl_feed_branch(tl, PTS_BR_RETURN, F + 0x40, 1, MAIN + 0x80, 900, 0, NULL);
	tl_feed_branch(tl, PTS_BR_CALL, MAIN + 0x90, 5, G, 950, 0, NULL);
	tl_feed_branch(tl, PTS_BR_JUMP, G + 0x10, 2, H, 960, 0, NULL);
	tl_feed_branch(tl, PTS_BR_SYSCALL, H + 0x10, 2, 0, 970, 0, NULL);
	tl_feed_branch(tl, PTS_BR_ENABLED, 0, 0, H + 0x12, 990, 0, NULL);
	tl_feed_branch(tl, PTS_BR_GAP, H + 0x20, 0, 0, 1000, 0, "overflow");
	tl_feed_branch(tl, PTS_BR_ENABLED, 0, 0, G + 0x20, 1100, 0, NULL);
	tl_feed_branch(tl, PTS_BR_CALL, G + 0x30, 5, F, 1200, 0, NULL);
}

/*
 * The trigger before the thread's first event (it is announced then, with
 * no event's time), then g and h calling each other 13 deep, past the
 * builder's first stack capacities (4, 8) and its max_depth (6), and
 * returning all the way, twice.
 */
static void trace_recursion_past_max_depth(struct pts_tl *tl)
{
	uint64_t t = 100;
	int round, i;

	tl_feed_branch(tl, PTS_BR_TRIGGER, 0, 0, 0, 50, 0, "trigger");
	tl_feed_branch(tl, PTS_BR_ENABLED, 0, 0, G + 0x10, t, 0, NULL);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < 13; i++) {
			uint64_t from = i % 2 ? H : G;

			tl_feed_branch(tl, PTS_BR_CALL, from + 0x20, 5, i % 2 ? G : H, t += 10, 0,
				       NULL);
		}
		for (i = 12; i >= 0; i--) {
			uint64_t from = i % 2 ? G : H, to = i % 2 ? H : G;

			tl_feed_branch(tl, PTS_BR_RETURN, from + 0x30, 1, to + 0x25, t += 10, 0,
				       NULL);
		}
	}
}

/*
 * One trace into a builder writing name through sink (max_depth: the
 * builder's, 0 its default); the file's bytes.
 */
static char *timeline_file(const char *name, pts_tl_emit_fn sink, void (*trace)(struct pts_tl *),
			   uint32_t max_depth, size_t *len)
{
	struct pts_tl_config c;
	struct pts_writer *w;
	struct pts_tl *tl;
	struct pts_err err;

	CU_ASSERT_EQUAL_FATAL(pts_writer_open(wt_path(name), PTS_FMT_FXT, &w, &err), 0);
	pts_writer_strings_interned(w);
	memset(&c, 0, sizeof(c));
	c.scope = PTS_SCOPE_USER;
	c.symbolize = tl_fns_symbolize;
	c.sym_ctx = &syms;
	c.emit = sink;
	c.emit_ctx = w;
	c.segment_cap = 8;	/* held records written out in the middle of the trace */
	c.max_depth = max_depth;
	CU_ASSERT_EQUAL_FATAL(pts_tl_new(&c, &tl, &err), 0);
	CU_ASSERT_EQUAL(pts_tl_set_name(tl, 10, 11, "prog", &err), 0);
	trace(tl);
	CU_ASSERT_EQUAL(pts_tl_finish(tl, &err), 0);
	pts_tl_free(tl);
	CU_ASSERT_EQUAL_FATAL(pts_writer_close(w, true, &err), 0);
	return bt_read_file(wt_path(name), len);
}

static void timeline_into_the_writer_sink_writes_what_it_writes_through_records(void)
{
	size_t la, lb;
	char *a = timeline_file("tl-records.fxt", record_sink, trace_calls_and_returns, 0, &la);
	char *b = timeline_file("tl-frames.fxt", pts_writer_sink, trace_calls_and_returns, 0, &lb);

	expect_same_bytes(a, la, b, lb);
}

static void timeline_into_the_writer_sink_past_stack_capacity_and_max_depth_writes_the_same(void)
{
	size_t la, lb;
	char *a = timeline_file("tl-deep-records.fxt", record_sink,
				trace_recursion_past_max_depth, 6, &la);
	char *b = timeline_file("tl-deep-frames.fxt", pts_writer_sink,
				trace_recursion_past_max_depth, 6, &lb);

	expect_same_bytes(a, la, b, lb);
}

static int cleanup(void)
{
	wt_cleanup();
	return 0;
}

PTS_SUITE(writer_frames, NULL, cleanup,
	  PTS_TEST(frame_path_writes_the_record_paths_bytes_across_string_table_recycling),
	  PTS_TEST(frame_path_repeats_a_slice_with_its_time_cpu_kind_and_thread),
	  PTS_TEST(frame_path_recycles_the_string_table_where_the_record_path_does),
	  PTS_TEST(only_the_fxt_writer_has_a_frame_path),
	  PTS_TEST(frame_path_reports_a_failed_write_and_keeps_reporting_it),
	  PTS_TEST(timeline_into_the_writer_sink_writes_what_it_writes_through_records),
	  PTS_TEST(timeline_into_the_writer_sink_past_stack_capacity_and_max_depth_writes_the_same))
