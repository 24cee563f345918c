// SPDX-License-Identifier: GPL-2.0
/*
 * ptscope decode: traces -> timelines (.fxt, .json, .txt, .folded).
 *
 * Exit status: 0 decoded without gaps; 3 decoded, with gaps (the
 * timeline marks each with its cause; --summary counts them) or from a
 * damaged input of which a part could not be used; 1 error
 * (unreadable input, output not written); 2 usage error (commands.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "decode_out.h"
#include "session/decode_options.h"
#include "session/session.h"
#include "timeline/select.h"
#include "writer/writer.h"

/*
 * Damaged inputs decoded anyway (a truncated trace file, a damaged
 * sideband, kallsyms lines that do not parse) are said even without
 * --summary: the user must know the timeline is built from part of them.
 */
static void print_notices(const struct pts_decode_summary *sum)
{
	unsigned int i;

	for (i = 0; i < sum->nr_notices && i < PTS_DEC_MAX_NOTICES; i++)
		fprintf(stderr, "ptscope decode: warning: %s\n", sum->notices[i]);
	if (sum->nr_notices > PTS_DEC_MAX_NOTICES)
		fprintf(stderr, "ptscope decode: warning: ... %u more damaged inputs (see --summary)\n",
			sum->nr_notices - PTS_DEC_MAX_NOTICES);
}

/*
 * The parallel decode's test knobs (session/pardec_opts.h) from the
 * environment, for scripted checks (tests/check.d/76-parallel-identical.sh):
 * PTS_PARDEC_ORDER=reverse, sink or workers; PTS_PARDEC_BREAK=1 (joins), run or time.
 */
static void pardec_test_knobs(struct pts_decode_opts *o)
{
	const char *order = getenv("PTS_PARDEC_ORDER"), *brk = getenv("PTS_PARDEC_BREAK");

	o->par_reverse = order && !strcmp(order, "reverse");
	o->par_sink = order && !strcmp(order, "sink");
	o->par_workers = order && !strcmp(order, "workers");
	if (!brk)
		return;
	if (!strcmp(brk, "1"))
		o->par_break = PTS_PARDEC_BREAK_JOINS;
	else if (!strcmp(brk, "run"))
		o->par_break = PTS_PARDEC_BREAK_RUNS;
	else if (!strcmp(brk, "time"))
		o->par_break = PTS_PARDEC_BREAK_TIME;
}

static void insn_out(void *ctx, uint32_t cpu, uint64_t ip)
{
	fprintf(ctx, "%" PRIx64 "\n", ip);
}

/*
 * A selection that kept nothing: what there was to select, the first
 * threads the trace has events of (as --summary lists them) with their
 * traced times: the numbers --pid, --tid and --time take.
 */
static void nothing_selected(const struct pts_decode_summary *sum)
{
	size_t i, shown = 0, traced = 0;

	fprintf(stderr, "ptscope decode: warning: nothing in the trace matches the"
		" --pid/--tid/--time selection: --summary lists the trace's threads"
		" (pid/tid) and the times each was traced");
	for (i = 0; i < sum->nr_threads; i++) {
		const struct pts_tl_thread_stats *t = &sum->threads[i];

		/* named by the sideband but never seen in the trace: nothing to select */
		if (!t->events || traced++ >= 4)
			continue;
		fprintf(stderr, "%s%d/%d%s%s, traced %" PRIu64 " .. %" PRIu64 " ns",
			shown++ ? "; " : " (", t->pid, t->tid, t->name ? " " : "",
			t->name ? t->name : "", t->first_ns, t->last_ns);
	}
	if (traced > shown)
		fprintf(stderr, "; %zu more", traced - shown);
	fprintf(stderr, "%s\n", shown ? ")" : "");
}

/* The output opened, the decode run, the outputs closed: exit 0, 1 or 3 (file comment). */
static int run(struct pts_decode_req *r)
{
	struct pts_decode_opts *o = &r->o;
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct insn_file il = { 0 };
	struct pts_writer *w = NULL;
	struct pts_tl_select *selp = NULL;
	/* the writer itself as the timeline's sink: BEGIN and END go to its frame path */
	pts_tl_emit_fn emit = pts_writer_sink;
	void *emit_ctx;
	bool insn_bad = false;
	sigset_t held;
	int rc;

	/* streaming progress on a terminal only (item 8) */
	if (isatty(STDERR_FILENO) && !getenv("PTSCOPE_NO_PROGRESS"))
		o->progress = stderr;
	pardec_test_knobs(o);
	/* from here on outputs exist under temporary names: a signal removes them */
	decode_out_catch_signals();
	if (r->insn_list) {
		if (insn_file_open(&il, r->insn_list))
			return 1;
		o->on_insn = insn_out;
		o->insn_ctx = il.f;
	}
	decode_out_hold_signals(&held);
	rc = pts_writer_open(r->out ? r->out : "/dev/null", (enum pts_format)r->fmt, &w, &err);
	if (!rc && pts_writer_tmp_path(w) && decode_out_register(pts_writer_tmp_path(w))) {
		pts_writer_close(w, false, NULL);
		rc = pts_err_set(&err, ENOMEM, "out of memory");
	}
	decode_out_release_signals(&held);
	if (rc) {
		fprintf(stderr, "ptscope decode: %s\n", err.msg);
		insn_file_end(&il, false);
		decode_out_forget();
		return 1;
	}
	/* every record comes from the timeline builder, whose strings are interned */
	pts_writer_strings_interned(w);
	emit_ctx = w;
	if (r->sel.has_pid || r->sel.has_tid || r->time_given) {
		rc = pts_tl_select_new(&r->sel, pts_writer_sink, w, &selp, &err);
		emit = pts_tl_select_emit;
		emit_ctx = selp;
	}
	if (!rc && r->bundle)
		rc = pts_decode_bundle(r->bundle, o, emit, emit_ctx, &sum, &err);
	else if (!rc && r->perf_script)
		rc = pts_decode_perfscript(r->perf_script, o->scope, emit, emit_ctx, &sum, &err);
	else if (!rc)
		rc = pts_decode_raw(o, emit, emit_ctx, &sum, &err);
	if (!rc && selp && !pts_tl_select_kept(selp))
		nothing_selected(&sum);
	pts_tl_select_free(selp);
	if (rc) {
		struct pts_err e2 = { 0 };

		fprintf(stderr, "ptscope decode: %s\n", err.msg);
		pts_writer_close(w, false, &e2);
		insn_file_end(&il, false);
		decode_out_forget();
		pts_decode_summary_free(&sum);
		return 1;
	}
	/*
	 * Exit 1 says the output is not written: a failed instruction list
	 * keeps the timeline from being renamed into place too, and a failed
	 * timeline the list (a streamed -o - cannot be taken back).
	 */
	insn_bad = insn_file_close(&il, r->out && strcmp(r->out, "-") &&
					pts_writer_tmp_path(w) ? r->out : NULL) != 0;
	rc = pts_writer_close(w, !insn_bad, &err);
	if (rc)
		fprintf(stderr, "ptscope decode: %s\n", err.msg);
	if (insn_file_end(&il, !rc && !insn_bad))
		rc = -1;
	decode_out_forget();
	if (rc || insn_bad) {
		pts_decode_summary_free(&sum);
		return 1;
	}
	if (r->summary)
		pts_decode_summary_print(r->out && !strcmp(r->out, "-") ? stderr : stdout, &sum);
	else
		print_notices(&sum);
	/*
	 * How the parallel decode went (tests/check.d/76-parallel-identical.sh)
	 * and how its CPU time divided (tools/bench/parallel.sh): the calling
	 * thread's bounds the wall time however many cores there are.
	 */
	if (getenv("PTS_PARDEC_STATS") && sum.par_cpu.workers)
		fprintf(stderr, "pardec: CPU s: calling thread %.3f, %u workers %.3f\n",
			(double)sum.par_cpu.calling_ns / 1e9, sum.par_cpu.workers,
			(double)sum.par_cpu.workers_ns / 1e9);
	if (getenv("PTS_PARDEC_STATS") && sum.par_cpu.chunks)
		fprintf(stderr, "pardec: %" PRIu64 " chunks, %" PRIu64 " into the sink;"
			" calling thread waited %" PRIu64 " times %.3f s, workers idle %" PRIu64
			" times %.3f s\n", sum.par_cpu.chunks, sum.par_cpu.sunk,
			sum.par_cpu.caller_waits, (double)sum.par_cpu.caller_wait_ns / 1e9,
			sum.par_cpu.worker_idles, (double)sum.par_cpu.worker_idle_ns / 1e9);
	if (getenv("PTS_PARDEC_STATS"))
		fprintf(stderr, "pardec: %" PRIu64 " joins, %" PRIu64 " refused\n",
			sum.par_joins, sum.par_refused);
	/* a damaged input decoded in part is "decoded with gaps" even without a trace gap */
	rc = sum.gaps || sum.lost ? 3 : 0;
	if (sum.gaps && !r->summary)
		fprintf(stderr, "ptscope decode: %" PRIu64 " gap(s) in the trace (see --summary)\n",
			sum.gaps);
	if (sum.perfscript_skipped && !r->summary)
		fprintf(stderr, "ptscope decode: %" PRIu64 " perf script line(s) not understood,"
			" skipped (see --summary)\n", sum.perfscript_skipped);
	pts_decode_summary_free(&sum);
	return rc;
}

/*
 * Parse, validate, run: every refusal is said before any file is opened
 * for writing or any trace read (session/decode_options.h).
 */
int cmd_decode(int argc, char **argv)
{
	struct pts_decode_req *r = malloc(sizeof(*r));
	struct pts_err err = { 0 };
	int rc;

	if (!r) {
		fprintf(stderr, "ptscope decode: out of memory\n");
		return 1;
	}
	/* the online CPUs (sysconf: those the scheduler may use now) are the default -j */
	if (pts_decode_req_parse(argc, argv, sysconf(_SC_NPROCESSORS_ONLN), r, &err)) {
		fprintf(stderr, "ptscope decode: %s\n", err.msg);
		free(r);
		return 2;
	}
	if (r->help) {
		pts_decode_usage(stdout);
		free(r);
		return 0;
	}
	rc = pts_decode_req_validate(r, &err);
	if (!rc)
		rc = pts_decode_req_inputs_readable(r, &err);
	if (rc) {
		fprintf(stderr, "ptscope decode: %s\n", err.msg);
		if (r->show_usage)
			pts_decode_usage(stderr);
		free(r);
		/* an input that is no bundle or no file is an input error, as unreadable ones */
		return rc == -EINVAL ? 2 : 1;
	}
	rc = run(r);
	free(r);
	return rc;
}
