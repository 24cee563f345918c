// SPDX-License-Identifier: GPL-2.0
/*
 * The capture's trigger on the timeline and in the summary, for the
 * shipped sample (samples/demo.ptscope, made by the reference encoder) and
 * copies of it whose manifest names other triggers.
 *
 * By hand, from the sample's manifest and trace: the trigger is "exit" on
 * CPU 0 for pid/tid 7442 at TSC 1000240121; the trace's first TSC packet
 * (the time origin; read here with libipt's packet decoder) is 1000000000;
 * tsc_khz 2100000: the trigger is at 240121 x 10^6 / 2100000 = 114343 ns.
 * The thread's last traced event is at 113628 ns (the exit syscall's
 * TIP.PGD: 238618 ticks), so the trigger comes 715 ns = 0.7 µs after the
 * end of the trace.
 */
#include <intel-pt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "bundle_fixture.h"
#include "fxt_reader.h"
#include "session/session.h"
#include "writer/writer.h"

#define SAMPLE_TRIGGER_TSC 1000240121ULL
#define TSC_KHZ 2100000ULL

/* What the tests look at in a decode: the trigger instants and the time order per thread. */
struct seen {
	unsigned int triggers;
	struct pts_tl_rec trig;
	char detail[200];
	uint64_t last_ts_7442, before, after;	/* 7442's records before/after the trigger */
	bool backwards;
};

static int watch(void *ctx, const struct pts_tl_rec *r, struct pts_err *err)
{
	struct seen *s = ctx;

	(void)err;
	if (r->tid != 7442 || r->type == PTS_TL_PROCESS || r->type == PTS_TL_THREAD)
		return 0;
	if (r->ts_ns < s->last_ts_7442)
		s->backwards = true;
	s->last_ts_7442 = r->ts_ns;
	if (r->type == PTS_TL_INSTANT && !strcmp(r->name, "trigger")) {
		s->triggers++;
		s->trig = *r;
		snprintf(s->detail, sizeof(s->detail), "%s", r->detail ? r->detail : "");
		return 0;
	}
	if (s->triggers)
		s->after++;
	else
		s->before++;
	return 0;
}

static char *sample_dir(void)
{
	static char p[512];

	snprintf(p, sizeof(p), "%s/samples/demo.ptscope", pts_unit_src_dir());
	return p;
}

/* The first TSC packet of the sample's cpu0.pt, by libipt's packet decoder. */
static uint64_t first_tsc(void)
{
	char path[600];
	size_t len = 0;
	uint8_t *buf;
	struct pt_config cfg;
	struct pt_packet_decoder *d;
	struct pt_packet p;
	uint64_t tsc = 0;

	snprintf(path, sizeof(path), "%s/cpu0.pt", sample_dir());
	buf = (uint8_t *)bt_read_file(path, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	pt_config_init(&cfg);
	cfg.begin = buf;
	cfg.end = buf + len;
	d = pt_pkt_alloc_decoder(&cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	if (pt_pkt_sync_forward(d) >= 0)
		while (!tsc && pt_pkt_next(d, &p, sizeof(p)) >= 0)
			if (p.type == ppt_tsc)
				tsc = p.payload.tsc.tsc;
	pt_pkt_free_decoder(d);
	free(buf);
	return tsc;
}

/* The summary's "trigger: ..." line of a decode, in line ("" when none). */
static void trigger_line(const struct pts_decode_summary *sum, char *line, size_t len)
{
	char *text = NULL, *p;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	pts_decode_summary_print(f, sum);
	fclose(f);
	p = strstr(text, "\ntrigger: ");
	snprintf(line, len, "%s", p ? p + 1 : "");
	p = strchr(line, '\n');
	if (p)
		*p = '\0';
	free(text);
}

static void decode_watch(const char *dir, struct seen *s, char *line, size_t len)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };

	memset(s, 0, sizeof(*s));
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(dir, NULL, watch, s, &sum, &err), 0);
	trigger_line(&sum, line, len);
	pts_decode_summary_free(&sum);
	CU_ASSERT_FALSE(s->backwards);
}

static void sample_exit_trigger_is_an_instant_on_the_exiting_thread(void)
{
	uint64_t want = (SAMPLE_TRIGGER_TSC - first_tsc()) * 1000000 / TSC_KHZ;
	struct seen s;
	char line[300];

	CU_ASSERT_EQUAL(want, 114343);
	decode_watch(sample_dir(), &s, line, sizeof(line));
	CU_ASSERT_EQUAL(s.triggers, 1);
	CU_ASSERT_EQUAL(s.trig.pid, 7442);
	CU_ASSERT_EQUAL(s.trig.ts_ns, want);
	CU_ASSERT_STRING_EQUAL(s.detail, "exit on CPU 0, pid 7442");
	CU_ASSERT_STRING_EQUAL(line, "trigger: exit on CPU 0, pid 7442, 0.7 \u00b5s after the end "
			       "of the trace");
}

/* A copy of the sample whose manifest's trigger has reason, detail, tsc and cpu replaced. */
static char *sample_with_trigger(const char *reason, const char *detail, const char *tsc,
				 const char *cpu)
{
	char *dir = bt_tmpdir(), cmd[1200], text[300];

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	snprintf(cmd, sizeof(cmd), "cp -r '%s/.' '%s/'", sample_dir(), dir);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	snprintf(text, sizeof(text), "\"reason\": \"%s\",\n    \"detail\": \"%s\",\n    "
		 "\"tsc\": %s,\n    \"cpu\": %s,", reason, detail, tsc, cpu);
	CU_ASSERT_EQUAL_FATAL(bt_edit(dir, "manifest.json", "\"reason\": \"exit\",\n    "
				      "\"detail\": \"\",\n    \"tsc\": 1000240121,\n    "
				      "\"cpu\": 0,", text), 0);
	return dir;
}

/*
 * A tracepoint trigger 50 µs into the trace (TSC 1000000000 + 105000 =
 * 50000 ns at 2.1 GHz): the instant sits among 7442's records in time
 * order, with records before and after it; 113628 - 50000 = 63628 ns =
 * 63.6 µs before the end of the trace.
 */
static void trigger_inside_the_trace_sits_among_the_threads_events_in_time_order(void)
{
	char *dir = sample_with_trigger("tracepoint", "sched:sched_process_exit", "1000105000",
					"0");
	struct seen s;
	char line[300];

	decode_watch(dir, &s, line, sizeof(line));
	CU_ASSERT_EQUAL(s.triggers, 1);
	CU_ASSERT_EQUAL(s.trig.ts_ns, 50000);
	CU_ASSERT(s.before > 0 && s.after > 0);
	CU_ASSERT_STRING_EQUAL(s.detail, "tracepoint sched:sched_process_exit on CPU 0, pid 7442");
	CU_ASSERT_STRING_EQUAL(line, "trigger: tracepoint sched:sched_process_exit on CPU 0, "
			       "pid 7442, 63.6 \u00b5s before the end of the trace");
	bt_rmtree(dir);
	free(dir);
}

/*
 * A uprobe trigger (reason "uprobe", detail the probed symbol, as ptscope
 * writes it: docs/bundle-format.md 3.6): the same instant on the hitting
 * thread, named after the function.
 */
static void uprobe_trigger_is_an_instant_on_the_hitting_thread(void)
{
	char *dir = sample_with_trigger("uprobe", "probe_main", "1000105000", "0");
	struct seen s;
	char line[300];

	decode_watch(dir, &s, line, sizeof(line));
	CU_ASSERT_EQUAL(s.triggers, 1);
	CU_ASSERT_EQUAL(s.trig.ts_ns, 50000);
	CU_ASSERT_EQUAL(s.trig.tid, 7442);
	CU_ASSERT_STRING_EQUAL(s.detail, "uprobe probe_main on CPU 0, pid 7442");
	CU_ASSERT_STRING_EQUAL(line, "trigger: uprobe probe_main on CPU 0, pid 7442, 63.6 \u00b5s "
			       "before the end of the trace");
	bt_rmtree(dir);
	free(dir);
}

/* No TSC recorded: said in the summary, no instant placed at a made-up time. */
static void trigger_without_a_time_is_said_and_not_placed(void)
{
	char *dir = sample_with_trigger("hotkey", "", "0", "1");
	struct seen s;
	char line[300];

	decode_watch(dir, &s, line, sizeof(line));
	CU_ASSERT_EQUAL(s.triggers, 0);
	CU_ASSERT_STRING_EQUAL(line, "trigger: hotkey on CPU 1, pid 7442 (not on the timeline: "
			       "its time was not recorded)");
	bt_rmtree(dir);
	free(dir);
}

static int write_rec(void *ctx, const struct pts_tl_rec *r, struct pts_err *err)
{
	return pts_writer_emit(ctx, r, err);
}

/* Decode the sample into dir/name in fmt; the file's text. */
static char *decode_to(const char *dir, const char *name, enum pts_format fmt, size_t *len)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct pts_writer *w;
	char path[600];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CU_ASSERT_EQUAL_FATAL(pts_writer_open(path, fmt, &w, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(sample_dir(), NULL, write_rec, w, &sum, &err), 0);
	pts_decode_summary_free(&sum);
	CU_ASSERT_EQUAL_FATAL(pts_writer_close(w, true, &err), 0);
	return bt_read_file(path, len);
}

/*
 * Every writer with a time axis shows it: the .txt line (layout of
 * docs/output-formats.md), the .json "i" event on 7442/7442 at 114.343
 * µs (the first event of its ns there), the .fxt instant read back by the independent reader.
 */
static void every_timed_writer_shows_the_trigger(void)
{
	char *dir = bt_tmpdir(), *text;
	struct fxtr_trace t;
	size_t len, i, n = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	text = decode_to(dir, "d.txt", PTS_FMT_TXT, &len);
	/* "none" padded to 12 characters, one space and two per depth (7): 23 spaces */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n114343 0 7442/7442 7 none                       ! trigger: exit on CPU 0,"
				      " pid 7442 @0x0\n"));
	free(text);
	text = decode_to(dir, "d.json", PTS_FMT_JSON, &len);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{\"ph\":\"i\",\"pid\":7442,\"tid\":7442,\"ts\":114.343000,"
				      "\"name\":\"trigger\""));
	free(text);
	text = decode_to(dir, "d.fxt", PTS_FMT_FXT, &len);
	CU_ASSERT_EQUAL_FATAL(fxtr_read(text, len, &t), 0);
	for (i = 0; i < t.n_points; i++)
		if (t.points[i].event_type == 0 && !strcmp(t.points[i].name, "trigger")) {
			n++;
			CU_ASSERT_EQUAL(t.points[i].pid, 7442);
			CU_ASSERT_EQUAL(t.points[i].tid, 7442);
			CU_ASSERT_EQUAL(t.points[i].ts * 1000000000ULL / t.ticks_per_second, 114343);
		}
	CU_ASSERT_EQUAL(n, 1);
	fxtr_free(&t);
	free(text);
	bt_rmtree(dir);
	free(dir);
}

PTS_SUITE(decode_trigger, NULL, NULL,
	  PTS_TEST(sample_exit_trigger_is_an_instant_on_the_exiting_thread),
	  PTS_TEST(trigger_inside_the_trace_sits_among_the_threads_events_in_time_order),
	  PTS_TEST(trigger_without_a_time_is_said_and_not_placed),
	  PTS_TEST(uprobe_trigger_is_an_instant_on_the_hitting_thread),
	  PTS_TEST(every_timed_writer_shows_the_trigger));
