// SPDX-License-Identifier: GPL-2.0
/*
 * Chrome trace JSON, checked by parsing it with json-c and walking the
 * events: every B has its E on the same thread, and that E carries the
 * B's name, cat and args (speedscope keys a slice by name and args and
 * refuses an E that does not match the open slice; catapult wants the
 * name), no duration is negative, time never goes back on a thread, and
 * every process and thread with events is named by "M" metadata. Escaping is checked by what json-c
 * reads back, not by the bytes the writer chose.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "writer_testlib.h"
#include "session/session.h"

struct jthread {
	long long pid, tid;
	double last_ts;
	double open[64];
	json_object *open_ev[64];	/* the B events of the open slices */
	int depth, named;
};

struct jcheck {
	struct jthread th[16];
	int n_th;
	long long named_pids[16];
	int n_named_pids;
	int begins, ends, instants, counters;
};

static struct jthread *jthread(struct jcheck *c, long long pid, long long tid)
{
	int i;

	for (i = 0; i < c->n_th; i++)
		if (c->th[i].pid == pid && c->th[i].tid == tid)
			return &c->th[i];
	CU_ASSERT_FATAL(c->n_th < 16);
	c->th[c->n_th] = (struct jthread){ .pid = pid, .tid = tid, .last_ts = -1 };
	return &c->th[c->n_th++];
}

static const char *sfield(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* An E names the slice it ends: its B's name, cat and args, exactly. */
static void expect_same_slice(json_object *b, json_object *e)
{
	static const char *const keys[] = { "name", "cat", "args" };
	size_t i;

	for (i = 0; i < 3; i++) {
		json_object *vb = NULL, *ve = NULL;

		json_object_object_get_ex(b, keys[i], &vb);
		CU_ASSERT_PTR_NOT_NULL(vb);
		if (!json_object_object_get_ex(e, keys[i], &ve) || !json_object_equal(vb, ve)) {
			fprintf(stderr, "\n    E %s differs from its B: %s vs %s\n", keys[i],
				ve ? json_object_to_json_string(ve) : "(none)",
				vb ? json_object_to_json_string(vb) : "(none)");
			CU_FAIL("an E does not carry its B's name, cat and args");
		}
	}
}

/* Parse path and check the structure; returns the parsed root (caller puts it). */
static json_object *check_json(const char *path, struct jcheck *c)
{
	json_object *root = json_object_from_file(path), *events, *v;
	size_t i, n;
	int k;

	memset(c, 0, sizeof(*c));
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	CU_ASSERT_FATAL(json_object_object_get_ex(root, "traceEvents", &events));
	CU_ASSERT_FATAL(json_object_is_type(events, json_type_array));
	n = json_object_array_length(events);
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(events, i);
		const char *ph = sfield(e, "ph");
		long long pid, tid;
		double ts = 0;
		struct jthread *t;

		CU_ASSERT_PTR_NOT_NULL_FATAL(ph);
		CU_ASSERT_FATAL(json_object_object_get_ex(e, "pid", &v));
		pid = json_object_get_int64(v);
		CU_ASSERT_FATAL(json_object_object_get_ex(e, "tid", &v));
		tid = json_object_get_int64(v);
		t = jthread(c, pid, tid);
		if (!strcmp(ph, "M")) {
			const char *what = sfield(e, "name");

			CU_ASSERT_PTR_NOT_NULL_FATAL(what);
			if (!strcmp(what, "thread_name"))
				t->named = 1;
			else if (!strcmp(what, "process_name"))
				c->named_pids[c->n_named_pids++] = pid;
			else
				CU_FAIL("unknown metadata event");
			continue;
		}
		CU_ASSERT_FATAL(json_object_object_get_ex(e, "ts", &v));
		ts = json_object_get_double(v);
		if (strcmp(ph, "C")) {
			CU_ASSERT(ts >= t->last_ts);	/* monotonic per thread */
			t->last_ts = ts;
		}
		if (!strcmp(ph, "B")) {
			CU_ASSERT_PTR_NOT_NULL(sfield(e, "name"));
			CU_ASSERT_FATAL(t->depth < 64);
			t->open_ev[t->depth] = e;
			t->open[t->depth++] = ts;
			c->begins++;
		} else if (!strcmp(ph, "E")) {
			CU_ASSERT_FATAL(t->depth > 0);	/* every E closes a B */
			t->depth--;
			CU_ASSERT(ts - t->open[t->depth] >= 0);	/* no negative durations */
			expect_same_slice(t->open_ev[t->depth], e);
			c->ends++;
		} else if (!strcmp(ph, "i")) {
			CU_ASSERT_STRING_EQUAL(sfield(e, "s"), "t");
			c->instants++;
		} else if (!strcmp(ph, "C")) {
			c->counters++;
		} else {
			CU_FAIL("unexpected phase");
		}
	}
	for (k = 0; k < c->n_th; k++) {
		struct jthread *t = &c->th[k];
		int p, named = 0;

		CU_ASSERT_EQUAL(t->depth, 0);	/* every B has its E */
		if (t->last_ts < 0)
			continue;	/* metadata or counters only */
		CU_ASSERT(t->named);
		for (p = 0; p < c->n_named_pids; p++)
			named |= c->named_pids[p] == t->pid;
		CU_ASSERT(named);
	}
	return root;
}

static void write_json(const char *path, const struct pts_tl_rec *r, size_t n)
{
	struct pts_writer *w;
	struct pts_err err;
	size_t i;

	CU_ASSERT_EQUAL_FATAL(pts_writer_open(path, PTS_FMT_JSON, &w, &err), 0);
	for (i = 0; i < n; i++)
		wt_emit(w, &r[i]);
	CU_ASSERT_EQUAL_FATAL(pts_writer_close(w, true, &err), 0);
}

static size_t sample(struct pts_tl_rec *r)
{
	size_t n = 0;

	r[n++] = wt_rec(PTS_TL_PROCESS, PTS_TLK_NONE, 0, 100, 0, 0, "hello");
	r[n++] = wt_rec(PTS_TL_THREAD, PTS_TLK_NONE, 0, 100, 101, 0, "hello");
	r[n++] = wt_rec(PTS_TL_THREAD, PTS_TLK_NONE, 0, 100, 102, 0, "worker");
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1000, 100, 101, 0, "main");
	r[n].addr = 0x401000;
	r[n++].object = "/bin/hello";
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1100, 100, 102, 0, "worker_fn");
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_SYSCALL, 1234567, 100, 101, 1, "sys_write");
	r[n++].flags = PTS_TLF_KERNEL;
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_SYSRET, 1234567, 100, 101, 1, NULL);
	r[n] = wt_rec(PTS_TL_INSTANT, PTS_TLK_GAP, 1300000, 100, 101, 0, "gap");
	r[n++].detail = "overflow";
	r[n] = wt_rec(PTS_TL_COUNTER, PTS_TLK_NONE, 1300000, 100, 0, 0, "cpu_freq");
	r[n++].value = 2400;
	r[n] = wt_rec(PTS_TL_COUNTER, PTS_TLK_NONE, 1300001, 100, 0, 0, "cpu_freq");
	r[n++].value = NAN;	/* JSON cannot hold it: left out */
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 1900000, 100, 102, 0, NULL);
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 2000001, 100, 101, 0, NULL);
	return n;
}

static void every_begin_has_its_end_and_every_thread_is_named(void)
{
	struct pts_tl_rec r[16];
	struct jcheck c;
	json_object *root;

	write_json(wt_path("a.json"), r, sample(r));
	root = check_json(wt_path("a.json"), &c);
	CU_ASSERT_EQUAL(c.begins, 3);
	CU_ASSERT_EQUAL(c.ends, 3);
	CU_ASSERT_EQUAL(c.instants, 1);
	CU_ASSERT_EQUAL(c.counters, 1);
	json_object_put(root);
}

static void timestamps_are_microseconds_with_exact_nanosecond_decimals(void)
{
	struct pts_tl_rec r[16];
	char *text;

	write_json(wt_path("ts.json"), r, sample(r));
	text = bt_read_file(wt_path("ts.json"), NULL);
	CU_ASSERT_FATAL(text != NULL);
	/* 1234567 ns = 1234.567000 us; 2000001 ns = 2000.001000 us */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"ts\":1234.567000,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"ts\":2000.001000,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"addr\":\"0x401000\""));
	free(text);
}

/*
 * Slices that begin, or begin and end, in one nanosecond: f and g begin
 * at 5000 ns, g ends there too, f at 6000. Viewers sort a thread's events
 * by time (speedscope puts an E before a B of the same time, which would
 * end g before f began), so events of one ns are written 1 ps apart, in
 * their order: 5.000000, 5.000001, 5.000002, then 6.000000; and on
 * another thread the same ns is 5.000000 again.
 */
static void events_sharing_a_nanosecond_keep_their_order_1_ps_apart(void)
{
	struct pts_tl_rec r[8];
	size_t n = 0;
	char *text;

	r[n++] = wt_rec(PTS_TL_PROCESS, PTS_TLK_NONE, 0, 100, 0, 0, "p");
	r[n++] = wt_rec(PTS_TL_THREAD, PTS_TLK_NONE, 0, 100, 101, 0, "p");
	r[n++] = wt_rec(PTS_TL_THREAD, PTS_TLK_NONE, 0, 100, 102, 0, "q");
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 5000, 100, 101, 0, "f");
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 5000, 100, 101, 1, "g");
	r[n++] = wt_rec(PTS_TL_INSTANT, PTS_TLK_NONE, 5000, 100, 102, 0, "x");
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 5000, 100, 101, 1, NULL);
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 6000, 100, 101, 0, NULL);
	write_json(wt_path("tie.json"), r, n);
	text = bt_read_file(wt_path("tie.json"), NULL);
	CU_ASSERT_FATAL(text != NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{\"ph\":\"B\",\"pid\":100,\"tid\":101,\"ts\":5.000000,"
				      "\"name\":\"f\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{\"ph\":\"B\",\"pid\":100,\"tid\":101,\"ts\":5.000001,"
				      "\"name\":\"g\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{\"ph\":\"i\",\"pid\":100,\"tid\":102,\"ts\":5.000000,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{\"ph\":\"E\",\"pid\":100,\"tid\":101,\"ts\":5.000002,"
				      "\"name\":\"g\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{\"ph\":\"E\",\"pid\":100,\"tid\":101,\"ts\":6.000000,"
				      "\"name\":\"f\""));
	/* how a slice ended: the E's own field, after the args that match its B's */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"kind\":\"call\",\"cpu\":0},\"end_kind\":\"return\"}"));
	free(text);
}

static void awkward_names_survive_a_json_parser(void)
{
	/* quote, backslash, newline, a control byte, UTF-8 é, and a stray 0xff */
	static const char name[] = "a\"b\\c\nd\x01" "e\xc3\xa9\xff";
	/* what a JSON reader must get back: 0xff is not UTF-8, so U+FFFD */
	static const char want[] = "a\"b\\c\nd\x01" "e\xc3\xa9\xef\xbf\xbd";
	struct pts_tl_rec r[3];
	json_object *root, *events, *b;

	r[0] = wt_rec(PTS_TL_PROCESS, PTS_TLK_NONE, 0, 1, 0, 0, name);
	r[1] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1, 1, 1, 0, name);
	r[2] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 2, 1, 1, 0, NULL);
	write_json(wt_path("esc.json"), r, 3);
	root = json_object_from_file(wt_path("esc.json"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	CU_ASSERT_FATAL(json_object_object_get_ex(root, "traceEvents", &events));
	b = json_object_array_get_idx(events, 1);
	CU_ASSERT_STRING_EQUAL(sfield(b, "name"), want);
	json_object_put(root);
}

static void dash_writes_the_document_to_standard_output(void)
{
	struct pts_tl_rec r[16];
	struct jcheck c;
	json_object *root;
	int saved = dup(STDOUT_FILENO);
	int fd = open(wt_path("stdout.json"), O_WRONLY | O_CREAT | O_TRUNC, 0644);

	CU_ASSERT_FATAL(saved >= 0 && fd >= 0);
	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	write_json("-", r, sample(r));
	dup2(saved, STDOUT_FILENO);
	close(saved);
	root = check_json(wt_path("stdout.json"), &c);
	CU_ASSERT_EQUAL(c.begins, 3);
	json_object_put(root);
}

/*
 * Code no symbol covers (PTS_TLF_UNKNOWN): by the BEGIN row of
 * docs/output-formats.md its event has the name but no "symbol" or
 * "offset" argument (they are only for a symbol); the object stays an
 * argument. The args in the documented order, written by hand: for the
 * symbol main at 0x401000, addr, symbol, offset, object, kind, cpu; for
 * the unknown code at 0x1000 in obj, the same without symbol and offset.
 */
static void code_without_a_symbol_has_no_symbol_or_offset_argument(void)
{
	static const char sym_args[] =
		"\"args\":{\"addr\":\"0x401000\",\"symbol\":\"main\",\"offset\":\"0x0\","
		"\"object\":\"/bin/hello\",\"kind\":\"call\",\"cpu\":0}";
	static const char unk_args[] =
		"\"args\":{\"addr\":\"0x1000\",\"object\":\"obj\",\"kind\":\"call\",\"cpu\":0}";
	struct pts_tl_rec r[6];
	json_object *root, *events, *b, *args, *v;
	struct jcheck c;
	size_t n = 0;
	char *text;

	r[n++] = wt_rec(PTS_TL_PROCESS, PTS_TLK_NONE, 0, 100, 0, 0, "hello");
	r[n++] = wt_rec(PTS_TL_THREAD, PTS_TLK_NONE, 0, 100, 101, 0, "hello");
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1000, 100, 101, 0, "main");
	r[n].addr = 0x401000;
	r[n++].object = "/bin/hello";
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1100, 100, 101, 1, "[unknown] 0x1000 (obj)");
	r[n].addr = 0x1000;
	r[n].object = "obj";
	r[n++].flags = PTS_TLF_UNKNOWN;
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 1200, 100, 101, 1, NULL);
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 1300, 100, 101, 0, NULL);
	write_json(wt_path("unknown.json"), r, n);

	text = bt_read_file(wt_path("unknown.json"), NULL);
	CU_ASSERT_FATAL(text != NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, sym_args));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, unk_args));
	/* each E repeats its B's name, cat and args, written by hand */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{\"ph\":\"E\",\"pid\":100,\"tid\":101,\"ts\":1.200000,"
				      "\"name\":\"[unknown] 0x1000 (obj)\",\"cat\":\"user\","));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{\"ph\":\"E\",\"pid\":100,\"tid\":101,\"ts\":1.300000,"
				      "\"name\":\"main\",\"cat\":\"user\","));
	free(text);

	root = check_json(wt_path("unknown.json"), &c);
	CU_ASSERT_EQUAL(c.begins, 2);
	CU_ASSERT_FATAL(json_object_object_get_ex(root, "traceEvents", &events));
	b = json_object_array_get_idx(events, 3);	/* after 2 metadata events and main */
	CU_ASSERT_STRING_EQUAL(sfield(b, "ph"), "B");
	CU_ASSERT_STRING_EQUAL(sfield(b, "name"), "[unknown] 0x1000 (obj)");
	CU_ASSERT_STRING_EQUAL(sfield(b, "cat"), "user");
	CU_ASSERT_FATAL(json_object_object_get_ex(b, "args", &args));
	CU_ASSERT_FALSE(json_object_object_get_ex(args, "symbol", &v));
	CU_ASSERT_FALSE(json_object_object_get_ex(args, "offset", &v));
	CU_ASSERT_FALSE(json_object_object_get_ex(args, "inferred", &v));
	CU_ASSERT_FALSE(json_object_object_get_ex(args, "synthetic", &v));
	CU_ASSERT_STRING_EQUAL(sfield(args, "object"), "obj");
	json_object_put(root);
}

static int cleanup(void)
{
	wt_cleanup();
	return 0;
}

static int write_rec(void *ctx, const struct pts_tl_rec *r, struct pts_err *err)
{
	return pts_writer_emit(ctx, r, err);
}

/*
 * A real timeline (the shipped sample, 1458 calls on one thread, slices
 * ended by returns, jumps and the end of the trace): every E names the
 * slice it ends, as check_json requires of each one.
 */
static void every_end_of_a_real_decode_names_the_slice_it_ends(void)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct pts_writer *w;
	struct jcheck c;
	json_object *root;
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/samples/demo.ptscope", pts_unit_src_dir());
	CU_ASSERT_EQUAL_FATAL(pts_writer_open(wt_path("demo.json"), PTS_FMT_JSON, &w, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(dir, NULL, write_rec, w, &sum, &err), 0);
	pts_decode_summary_free(&sum);
	CU_ASSERT_EQUAL_FATAL(pts_writer_close(w, true, &err), 0);
	root = check_json(wt_path("demo.json"), &c);
	CU_ASSERT(c.ends > 1000);
	CU_ASSERT_EQUAL(c.ends, c.begins);
	json_object_put(root);
}

PTS_SUITE(writer_json, NULL, cleanup,
	  PTS_TEST(every_begin_has_its_end_and_every_thread_is_named),
	  PTS_TEST(timestamps_are_microseconds_with_exact_nanosecond_decimals),
	  PTS_TEST(events_sharing_a_nanosecond_keep_their_order_1_ps_apart),
	  PTS_TEST(awkward_names_survive_a_json_parser),
	  PTS_TEST(dash_writes_the_document_to_standard_output),
	  PTS_TEST(code_without_a_symbol_has_no_symbol_or_offset_argument),
	  PTS_TEST(every_end_of_a_real_decode_names_the_slice_it_ends))
