// SPDX-License-Identifier: GPL-2.0
/*
 * The .fxt writer, checked two ways: bytes of fixed records against
 * values worked out by hand from the Fuchsia trace format reference, and
 * whole traces read back by the independent reader in fxt_reader.c
 * (written from the reference, sharing nothing with the writer).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxt_reader.h"
#include "unit.h"
#include "writer_testlib.h"

/* Write recs to name.fxt and read the file back; asserts both succeed. */
static char *write_fxt(const char *name, const struct pts_tl_rec *recs, size_t n, size_t *len)
{
	struct pts_writer *w;
	struct pts_err err;
	size_t i;

	CU_ASSERT_EQUAL_FATAL(pts_writer_open(wt_path(name), PTS_FMT_FXT, &w, &err), 0);
	for (i = 0; i < n; i++)
		wt_emit(w, &recs[i]);
	CU_ASSERT_EQUAL_FATAL(pts_writer_close(w, true, &err), 0);
	return bt_read_file(wt_path(name), len);
}

static void read_back(const char *name, struct fxtr_trace *t)
{
	int rc = fxtr_read_file(wt_path(name), t);

	if (rc)
		fprintf(stderr, "fxt reader: %s\n", t->error);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
}

static void empty_trace_starts_with_magic_provider_and_init_records_derived_by_hand(void)
{
	/*
	 * Magic number record: the reference gives its little-endian bytes,
	 * 10 00 04 46 78 54 16 00.
	 * Provider info (metadata type 1): [0..3] type 0, [4..15] size 2
	 * words -> 0x20; [16..19] 1 -> 0x10000; [20..51] provider id 1 ->
	 * 0x100000; [52..59] name length 7 -> 0x0070000000000000. Word
	 * 0x0070000000110020, then "ptscope" padded with one zero byte.
	 * Initialization: [0..3] 1, [4..15] 2 -> 0x21; then ticks per second
	 * 10^9 = 0x3b9aca00 (1 tick = 1 ns).
	 */
	static const unsigned char want[] = {
		0x10, 0x00, 0x04, 0x46, 0x78, 0x54, 0x16, 0x00,
		0x20, 0x00, 0x11, 0x00, 0x00, 0x00, 0x70, 0x00,
		'p', 't', 's', 'c', 'o', 'p', 'e', 0x00,
		0x21, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0xca, 0x9a, 0x3b, 0x00, 0x00, 0x00, 0x00,
	};
	size_t len;
	char *buf = write_fxt("empty.fxt", NULL, 0, &len);

	CU_ASSERT_FATAL(buf != NULL);
	CU_ASSERT_FATAL(len >= sizeof(want));
	CU_ASSERT_EQUAL(len % 8, 0);
	CU_ASSERT_EQUAL(memcmp(buf, want, sizeof(want)), 0);
	free(buf);
}

static void first_thread_gets_thread_record_index_1_with_hand_derived_bytes(void)
{
	/*
	 * Thread record: [0..3] type 3, [4..15] size 3 words -> 0x33,
	 * [16..23] thread index 1 -> 0x10000: word 0x0000000000010033; then
	 * the process koid word (100 = 0x64) and the thread koid word
	 * (101 = 0x65), all little-endian.
	 */
	static const unsigned char want[] = {
		0x33, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x65, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	struct pts_tl_rec recs[] = {
		wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 10, 100, 101, 0, "main"),
		wt_rec(PTS_TL_END, PTS_TLK_RETURN, 20, 100, 101, 0, NULL),
	};
	size_t len;
	char *buf = write_fxt("thread.fxt", recs, 2, &len);

	CU_ASSERT_FATAL(buf != NULL);
	CU_ASSERT_PTR_NOT_NULL(memmem(buf, len, want, sizeof(want)));
	free(buf);
}

static void string_record_header_carries_length_in_bits_32_to_46(void)
{
	/*
	 * A string record for "hello": [0..3] type 2 and [4..15] size 2 words
	 * (header + 5 bytes padded to 8) -> low byte 0x22; [32..46] length 5
	 * -> bytes 4..7 are 05 00 00 00; bit 31 is zero.
	 */
	struct pts_tl_rec rec = wt_rec(PTS_TL_PROCESS, PTS_TLK_NONE, 0, 100, 0, 0, "hello");
	size_t len, off;
	char *buf = write_fxt("string.fxt", &rec, 1, &len);
	const unsigned char *p = (const unsigned char *)buf;
	int found = 0;

	CU_ASSERT_FATAL(buf != NULL);
	for (off = 8; off + 16 <= len; off += 8) {
		if (memcmp(p + off + 8, "hello\0\0\0", 8))
			continue;
		found = 1;
		CU_ASSERT_EQUAL(p[off], 0x22);
		CU_ASSERT_EQUAL(p[off + 1], 0x00);
		CU_ASSERT_EQUAL(p[off + 3] & 0x80, 0);
		CU_ASSERT_EQUAL(memcmp(p + off + 4, "\x05\x00\x00\x00", 4), 0);
	}
	CU_ASSERT(found);
	free(buf);
}

static void nested_slices_names_args_instants_and_counters_read_back_independently(void)
{
	struct pts_tl_rec recs[16];
	struct fxtr_trace t;
	const struct fxtr_arg *a;
	size_t n = 0;

	recs[n++] = wt_rec(PTS_TL_PROCESS, PTS_TLK_NONE, 0, 100, 0, 0, "hello");
	recs[n++] = wt_rec(PTS_TL_THREAD, PTS_TLK_NONE, 0, 100, 101, 0, "hello");
	recs[n++] = wt_rec(PTS_TL_THREAD, PTS_TLK_NONE, 0, 100, 102, 0, "worker");
	recs[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1000, 100, 101, 0, "main");
	recs[n].addr = 0x401000;
	recs[n++].object = "/bin/hello";
	recs[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1100, 100, 102, 0, "worker_fn");
	recs[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1500, 100, 101, 1, "foo");
	recs[n++].offset = 0x10;
	recs[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_SYSCALL, 1600, 100, 101, 2, "sys_write");
	recs[n].flags = PTS_TLF_KERNEL;
	recs[n++].addr = 0xffffffff81000000ULL;
	recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_SYSRET, 1700, 100, 101, 2, NULL);
	recs[n] = wt_rec(PTS_TL_INSTANT, PTS_TLK_GAP, 1750, 100, 101, 1, "gap");
	recs[n++].detail = "overflow";
	recs[n] = wt_rec(PTS_TL_COUNTER, PTS_TLK_NONE, 1750, 100, 0, 0, "cpu_freq");
	recs[n].cpu = 3;
	recs[n++].value = 2400.0;
	recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 1800, 100, 101, 1, NULL);
	recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 1900, 100, 102, 0, NULL);
	recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_END_OF_TRACE, 2001, 100, 101, 0, NULL);
	free(write_fxt("roundtrip.fxt", recs, n, NULL));
	read_back("roundtrip.fxt", &t);

	CU_ASSERT_EQUAL(t.ticks_per_second, 1000000000ULL);
	CU_ASSERT_STRING_EQUAL(t.provider_name, "ptscope");
	CU_ASSERT_STRING_EQUAL(fxtr_kobj_name(&t, 1, 100), "hello");
	CU_ASSERT_STRING_EQUAL(fxtr_kobj_name(&t, 2, 101), "hello");
	CU_ASSERT_STRING_EQUAL(fxtr_kobj_name(&t, 2, 102), "worker");
	CU_ASSERT_EQUAL(t.kobjs[2].process, 100);

	/* slices come out in the order of their ends */
	CU_ASSERT_EQUAL_FATAL(t.n_slices, 4);
	CU_ASSERT_STRING_EQUAL(t.slices[0].name, "sys_write");
	CU_ASSERT_STRING_EQUAL(t.slices[0].category, "kernel");
	CU_ASSERT_EQUAL(t.slices[0].begin, 1600);
	CU_ASSERT_EQUAL(t.slices[0].end, 1700);
	CU_ASSERT_EQUAL(t.slices[0].depth, 2);
	a = fxtr_arg(&t.slices[0].args, "addr");
	CU_ASSERT_FATAL(a != NULL);
	CU_ASSERT_EQUAL(a->type, FXTR_POINTER);
	CU_ASSERT_EQUAL(a->u, 0xffffffff81000000ULL);
	a = fxtr_arg(&t.slices[0].end_args, "end_kind");
	CU_ASSERT_FATAL(a != NULL);
	CU_ASSERT_STRING_EQUAL(a->s, "sysret");

	CU_ASSERT_STRING_EQUAL(t.slices[1].name, "foo");
	CU_ASSERT_STRING_EQUAL(t.slices[1].category, "user");
	CU_ASSERT_EQUAL(t.slices[1].depth, 1);
	a = fxtr_arg(&t.slices[1].args, "offset");
	CU_ASSERT_FATAL(a != NULL);
	CU_ASSERT_EQUAL(a->u, 0x10);

	CU_ASSERT_STRING_EQUAL(t.slices[2].name, "worker_fn");
	CU_ASSERT_EQUAL(t.slices[2].tid, 102);
	CU_ASSERT_EQUAL(t.slices[2].begin, 1100);
	CU_ASSERT_EQUAL(t.slices[2].end, 1900);

	CU_ASSERT_STRING_EQUAL(t.slices[3].name, "main");
	CU_ASSERT_EQUAL(t.slices[3].pid, 100);
	CU_ASSERT_EQUAL(t.slices[3].tid, 101);
	CU_ASSERT_EQUAL(t.slices[3].begin, 1000);
	CU_ASSERT_EQUAL(t.slices[3].end, 2001);
	CU_ASSERT_EQUAL(t.slices[3].depth, 0);
	a = fxtr_arg(&t.slices[3].args, "symbol");
	CU_ASSERT_FATAL(a != NULL);
	CU_ASSERT_EQUAL(a->type, FXTR_STRING);
	CU_ASSERT_STRING_EQUAL(a->s, "main");
	a = fxtr_arg(&t.slices[3].args, "object");
	CU_ASSERT_FATAL(a != NULL);
	CU_ASSERT_STRING_EQUAL(a->s, "/bin/hello");
	a = fxtr_arg(&t.slices[3].args, "addr");
	CU_ASSERT_FATAL(a != NULL);
	CU_ASSERT_EQUAL(a->u, 0x401000);

	CU_ASSERT_EQUAL_FATAL(t.n_points, 2);
	CU_ASSERT_EQUAL(t.points[0].event_type, 0);
	CU_ASSERT_STRING_EQUAL(t.points[0].name, "gap");
	CU_ASSERT_EQUAL(t.points[0].ts, 1750);
	a = fxtr_arg(&t.points[0].args, "cause");
	CU_ASSERT_FATAL(a != NULL);
	CU_ASSERT_STRING_EQUAL(a->s, "overflow");
	CU_ASSERT_EQUAL(t.points[1].event_type, 1);
	CU_ASSERT_STRING_EQUAL(t.points[1].name, "cpu_freq");
	CU_ASSERT_EQUAL(t.points[1].counter_id, 3);
	a = fxtr_arg(&t.points[1].args, "value");
	CU_ASSERT_FATAL(a != NULL);
	CU_ASSERT_EQUAL(a->type, FXTR_DOUBLE);
	CU_ASSERT_DOUBLE_EQUAL(a->d, 2400.0, 0.0);
	fxtr_free(&t);
}

static void three_hundred_threads_keep_their_identity_past_255_thread_refs(void)
{
	enum { N = 300 };
	struct pts_tl_rec *recs = calloc(2 * N, sizeof(*recs));
	static char names[N][16];
	struct fxtr_trace t;
	size_t i;

	/* all open at once, so every thread ref is live when reused */
	for (i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "t%zu", i);
		recs[i] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, i, 7, (int)(1000 + i), 0, names[i]);
		recs[N + i] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 1000 + i, 7, (int)(1000 + i), 0,
				     NULL);
	}
	free(write_fxt("threads.fxt", recs, 2 * N, NULL));
	read_back("threads.fxt", &t);
	CU_ASSERT(t.thread_records > 255);
	CU_ASSERT_EQUAL_FATAL(t.n_slices, N);
	for (i = 0; i < N; i++) {
		CU_ASSERT_EQUAL(t.slices[i].tid, 1000 + i);
		CU_ASSERT_EQUAL(t.slices[i].pid, 7);
		CU_ASSERT_STRING_EQUAL(t.slices[i].name, names[i]);
		CU_ASSERT_EQUAL(t.slices[i].begin, i);
	}
	fxtr_free(&t);
	free(recs);
}

static void forty_thousand_names_recycle_the_string_table_and_keep_an_outer_name(void)
{
	enum { N = 40000 };
	struct pts_tl_rec *recs = calloc(2 * N + 2, sizeof(*recs));
	char (*names)[16] = calloc(N, sizeof(*names));
	struct fxtr_trace t;
	size_t i, n = 0;

	recs[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 0, 1, 1, 0, "outer");
	for (i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "fn_%zu", i);
		recs[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1 + 2 * i, 1, 1, 1, names[i]);
		recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 2 + 2 * i, 1, 1, 1, NULL);
	}
	recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 2 * N + 5, 1, 1, 0, NULL);
	free(write_fxt("strings.fxt", recs, n, NULL));
	read_back("strings.fxt", &t);
	CU_ASSERT(t.string_records > 0x7fff);
	CU_ASSERT_EQUAL_FATAL(t.n_slices, N + 1);
	for (i = 0; i < N; i++)
		CU_ASSERT_STRING_EQUAL(t.slices[i].name, names[i]);
	CU_ASSERT_STRING_EQUAL(t.slices[N].name, "outer");
	CU_ASSERT_EQUAL(t.slices[N].end, 2 * N + 5);
	fxtr_free(&t);
	free(names);
	free(recs);
}

/*
 * With pts_writer_strings_interned, strings are known by pointer; names
 * the writer formats itself (an unnamed frame is "[unknown] 0xADDR", in a
 * buffer of the writer's that has the same address each time) must not
 * be. By hand: unnamed frames at 0x1000 and 0x2000, then a named "f" at
 * depth 0 twice from one pointer, read back as those three names.
 */
static void interned_strings_still_name_unnamed_frames_by_address(void)
{
	static const char f[] = "f";
	struct pts_tl_rec recs[8];
	struct pts_writer *w;
	struct pts_err err;
	struct fxtr_trace t;
	size_t i;

	recs[0] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1, 1, 1, 0, NULL);
	recs[0].addr = 0x1000;
	recs[1] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 2, 1, 1, 0, NULL);
	recs[2] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 3, 1, 1, 0, NULL);
	recs[2].addr = 0x2000;
	recs[3] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 4, 1, 1, 0, NULL);
	recs[4] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 5, 1, 1, 0, f);
	recs[5] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 6, 1, 1, 0, NULL);
	recs[6] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 7, 1, 1, 0, f);
	recs[7] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 8, 1, 1, 0, NULL);
	CU_ASSERT_EQUAL_FATAL(pts_writer_open(wt_path("interned.fxt"), PTS_FMT_FXT, &w, &err), 0);
	pts_writer_strings_interned(w);
	for (i = 0; i < 8; i++)
		wt_emit(w, &recs[i]);
	CU_ASSERT_EQUAL_FATAL(pts_writer_close(w, true, &err), 0);
	read_back("interned.fxt", &t);
	CU_ASSERT_EQUAL_FATAL(t.n_slices, 4);
	CU_ASSERT_STRING_EQUAL(t.slices[0].name, "[unknown] 0x1000");
	CU_ASSERT_STRING_EQUAL(t.slices[1].name, "[unknown] 0x2000");
	CU_ASSERT_STRING_EQUAL(t.slices[2].name, "f");
	CU_ASSERT_STRING_EQUAL(t.slices[3].name, "f");
	fxtr_free(&t);
}

/* The arguments' names in order, joined by ' ', into buf. */
static const char *arg_names(const struct fxtr_args *a, char *buf, size_t size)
{
	size_t o = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < a->n && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? " " : "", a->v[i].name);
	return buf;
}

/*
 * Code no symbol covers (PTS_TLF_UNKNOWN): by the begin row of the
 * arguments table in docs/output-formats.md, `symbol` and `offset` are
 * only for a symbol, so its begin has addr, object (when known), kind,
 * cpu, and inferred for PTS_TLF_INFERRED, in that order; the name is the
 * slice's name and the category follows PTS_TLF_KERNEL as for any slice.
 * The symbol main beside it keeps all six.
 */
static void code_without_a_symbol_has_no_symbol_or_offset_argument(void)
{
	struct pts_tl_rec recs[6];
	struct fxtr_trace t;
	const struct fxtr_arg *a;
	char names[128];
	size_t n = 0;

	recs[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1000, 100, 101, 0, "main");
	recs[n].addr = 0x401000;
	recs[n++].object = "/bin/hello";
	recs[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1100, 100, 101, 1, "[unknown] 0x1000 (obj)");
	recs[n].addr = 0x1000;
	recs[n].object = "obj";
	recs[n++].flags = PTS_TLF_UNKNOWN;
	recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 1200, 100, 101, 1, NULL);
	recs[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_RETURN, 1300, 100, 101, 1,
			 "[unknown] 0xffffffff81000000");
	recs[n].addr = 0xffffffff81000000ULL;
	recs[n++].flags = PTS_TLF_UNKNOWN | PTS_TLF_KERNEL | PTS_TLF_INFERRED;
	recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 1400, 100, 101, 1, NULL);
	recs[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 1500, 100, 101, 0, NULL);
	free(write_fxt("unknown.fxt", recs, n, NULL));
	read_back("unknown.fxt", &t);

	/* slices come out in the order of their ends */
	CU_ASSERT_EQUAL_FATAL(t.n_slices, 3);
	CU_ASSERT_STRING_EQUAL(t.slices[0].name, "[unknown] 0x1000 (obj)");
	CU_ASSERT_STRING_EQUAL(t.slices[0].category, "user");
	CU_ASSERT_STRING_EQUAL(arg_names(&t.slices[0].args, names, sizeof(names)),
			       "addr object kind cpu");
	a = fxtr_arg(&t.slices[0].args, "addr");
	CU_ASSERT_FATAL(a != NULL);
	CU_ASSERT_EQUAL(a->type, FXTR_POINTER);
	CU_ASSERT_EQUAL(a->u, 0x1000);
	a = fxtr_arg(&t.slices[0].args, "object");
	CU_ASSERT_FATAL(a != NULL);
	CU_ASSERT_STRING_EQUAL(a->s, "obj");

	CU_ASSERT_STRING_EQUAL(t.slices[1].name, "[unknown] 0xffffffff81000000");
	CU_ASSERT_STRING_EQUAL(t.slices[1].category, "kernel");
	CU_ASSERT_STRING_EQUAL(arg_names(&t.slices[1].args, names, sizeof(names)),
			       "addr kind cpu inferred");

	CU_ASSERT_STRING_EQUAL(t.slices[2].name, "main");
	CU_ASSERT_STRING_EQUAL(arg_names(&t.slices[2].args, names, sizeof(names)),
			       "addr symbol offset object kind cpu");
	fxtr_free(&t);
}

static void long_name_is_cut_to_32000_bytes_without_splitting_a_utf8_character(void)
{
	enum { LEN = 40001 };
	char *name = malloc(LEN + 1);
	struct pts_tl_rec recs[2];
	struct fxtr_trace t;
	size_t i, got;

	/* 'x' then "é" (c3 a9) repeated: byte 32000 is a continuation byte */
	name[0] = 'x';
	for (i = 1; i < LEN; i += 2) {
		name[i] = (char)0xc3;
		name[i + 1] = (char)0xa9;
	}
	name[LEN] = '\0';
	recs[0] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1, 1, 1, 0, name);
	recs[1] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 2, 1, 1, 0, NULL);
	free(write_fxt("long.fxt", recs, 2, NULL));
	read_back("long.fxt", &t);
	CU_ASSERT_EQUAL_FATAL(t.n_slices, 1);
	got = strlen(t.slices[0].name);
	CU_ASSERT(got <= 32000 && got > 31990);
	CU_ASSERT_EQUAL(got % 2, 1);	/* 'x' + whole 2-byte characters */
	CU_ASSERT_EQUAL(memcmp(t.slices[0].name, name, got), 0);
	fxtr_free(&t);
	free(name);
}

static void end_without_begin_is_refused_with_a_message(void)
{
	struct pts_tl_rec rec = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 5, 1, 2, 0, NULL);
	struct pts_writer *w;
	struct pts_err err;

	CU_ASSERT_EQUAL_FATAL(pts_writer_open(wt_path("bad.fxt"), PTS_FMT_FXT, &w, &err), 0);
	CU_ASSERT_EQUAL(pts_writer_emit(w, &rec, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "END without an open BEGIN"));
	/* the failure sticks: closing with ok=true reports it and leaves no file */
	CU_ASSERT_EQUAL(pts_writer_close(w, true, &err), -EINVAL);
	CU_ASSERT_PTR_NULL(bt_read_file(wt_path("bad.fxt"), NULL));
}

static void fxt_to_standard_output_is_refused(void)
{
	struct pts_writer *w;
	struct pts_err err;

	CU_ASSERT_EQUAL(pts_writer_open("-", PTS_FMT_FXT, &w, &err), -EINVAL);
	CU_ASSERT_PTR_NULL(w);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "binary"));
}

static int cleanup(void)
{
	wt_cleanup();
	return 0;
}

PTS_SUITE(writer_fxt, NULL, cleanup,
	  PTS_TEST(empty_trace_starts_with_magic_provider_and_init_records_derived_by_hand),
	  PTS_TEST(first_thread_gets_thread_record_index_1_with_hand_derived_bytes),
	  PTS_TEST(string_record_header_carries_length_in_bits_32_to_46),
	  PTS_TEST(nested_slices_names_args_instants_and_counters_read_back_independently),
	  PTS_TEST(three_hundred_threads_keep_their_identity_past_255_thread_refs),
	  PTS_TEST(forty_thousand_names_recycle_the_string_table_and_keep_an_outer_name),
	  PTS_TEST(interned_strings_still_name_unnamed_frames_by_address),
	  PTS_TEST(code_without_a_symbol_has_no_symbol_or_offset_argument),
	  PTS_TEST(long_name_is_cut_to_32000_bytes_without_splitting_a_utf8_character),
	  PTS_TEST(end_without_begin_is_refused_with_a_message),
	  PTS_TEST(fxt_to_standard_output_is_refused))
