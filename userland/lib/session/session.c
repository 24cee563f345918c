// SPDX-License-Identifier: GPL-2.0
/*
 * A whole decode: inputs -> decoders -> time merge -> timeline builder.
 * Raw PT and perf script inputs here; bundles in bundle_input.c.
 */
#include "session_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../decode/deep.h"
#include "../decode/kcore.h"
#include "../decode/perfscript.h"
#include "../decode/pt_cpu.h"
#include "../decode/ptdec_src.h"
#include "../decode/scope_infer.h"
#include "../decode/sideband_cpus.h"
#include "../util/bytes.h"
#include "../util/file.h"
#include "merge.h"
#include "pardec_src.h"
#include "prescan.h"
#include "sideband_maps.h"
#include "trigger.h"

void pts_decode_opts_init(struct pts_decode_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->pid = -1;
	o->tid = -1;
}

void pts_decode_summary_gap(struct pts_decode_summary *sum, const char *cause)
{
	unsigned int i;

	sum->gaps++;
	if (!cause)
		cause = "decode error";
	for (i = 0; i < sum->nr_causes; i++) {
		if (!strcmp(sum->causes[i].cause, cause)) {
			sum->causes[i].count++;
			return;
		}
	}
	if (sum->nr_causes == PTS_DEC_MAX_CAUSES)
		i = PTS_DEC_MAX_CAUSES - 1;	/* last slot collects the rest */
	else
		i = sum->nr_causes++;
	if (i == PTS_DEC_MAX_CAUSES - 1 && sum->causes[i].count)
		snprintf(sum->causes[i].cause, sizeof(sum->causes[i].cause), "other causes");
	else
		snprintf(sum->causes[i].cause, sizeof(sum->causes[i].cause), "%s", cause);
	sum->causes[i].count++;
}

/*
 * Map a trace file read-only with zero padding after its end: an anonymous
 * reservation one page longer than the file, the file mapped over its
 * start (bytes after the end of the file in its last page read as zero, and
 * the extra page is zero). Memory is the page cache, not a copy. With a
 * limit below the file's size, the bytes after the limit in its last page
 * are zeroed in a private copy of that page (the file is not written): the
 * decoder never sees them.
 */
int pts_decode_map_trace(const char *path, uint64_t limit, uint8_t **buf, size_t *len,
			 size_t *maplen, struct pts_err *err)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct stat st;
	void *res;
	/* A pipe or device has no size to map: it would read as 0 bytes of
	 * trace and its data would be lost without a word. */
	int fd = pts_file_open(path, "trace file", &st, err);

	if (fd < 0)
		return fd;
	*len = (size_t)st.st_size;
	if ((uint64_t)*len > limit)
		*len = (size_t)limit;
	*maplen = ((*len + (size_t)pg - 1) / (size_t)pg + 1) * (size_t)pg;
	res = mmap(NULL, *maplen, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED) {
		close(fd);
		return pts_err_set(err, ENOMEM, "cannot map %s: out of address space", path);
	}
	if (*len && mmap(res, *len, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
		int e = errno;

		munmap(res, *maplen);
		close(fd);
		return pts_err_set(err, e, "cannot map %s: %s", path, strerror(e));
	}
	close(fd);
	if ((uint64_t)st.st_size > *len && *len % (size_t)pg) {
		uint8_t *page = (uint8_t *)res + *len / (size_t)pg * (size_t)pg;
		size_t keep = *len % (size_t)pg;

		if (mprotect(page, (size_t)pg, PROT_READ | PROT_WRITE)) {
			int e = errno;

			munmap(res, *maplen);
			return pts_err_set(err, e, "cannot map %s: %s", path, strerror(e));
		}
		memset(page + keep, 0, (size_t)pg - keep);
		mprotect(page, (size_t)pg, PROT_READ);
	}
	*buf = res;
	return 0;
}

int pts_decode_finish_summary(struct pts_tl *tl, struct pts_decode_summary *sum, struct pts_err *err)
{
	size_t i, n = pts_tl_nr_threads(tl);
	int d;

	for (d = 0; d < PTS_TLD_NR; d++) {
		sum->diag[d] = pts_tl_diag_count(tl, (enum pts_tl_diag)d);
		pts_tl_diag_first(tl, (enum pts_tl_diag)d, sum->diag_first[d],
				  sizeof(sum->diag_first[d]));
	}
	sum->threads = calloc(n ? n : 1, sizeof(*sum->threads));
	if (!sum->threads)
		return pts_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		pts_tl_thread_stats(tl, i, &sum->threads[i]);
		if (sum->threads[i].name)
			sum->threads[i].name = strdup(sum->threads[i].name);
		/* the end of the trace: the last event of any thread */
		if (sum->threads[i].events && sum->threads[i].last_ns > sum->end_ns)
			sum->end_ns = sum->threads[i].last_ns;
	}
	sum->nr_threads = n;
	return 0;
}

int pts_decode_run_alloc(struct pts_run_in *in, unsigned int n, struct pts_err *err)
{
	in->pt = calloc(n ? n : 1, sizeof(*in->pt));
	if (!in->pt)
		return pts_err_set(err, ENOMEM, "out of memory for %u CPU traces", n);
	in->pt_cap = n;
	return 0;
}

void pts_decode_run_free(struct pts_run_in *in)
{
	unsigned int i;

	for (i = 0; i < in->pt_cap; i++) {
		if (in->pt[i].buf)
			munmap(in->pt[i].buf, in->pt[i].maplen);
		pts_pt_hold_free(&in->pt[i].scan.hold);
	}
	free(in->pt);
	in->pt = NULL;
	in->pt_cap = 0;
	pts_sideband_free(&in->sb);
	pts_imgset_free(in->set);
	pts_kl_free(in->labels);
	in->labels = NULL;
}

/*
 * What the merged events go through on their way to the timeline builder
 * (merge.h's sink): the summary's gap count, the trigger placed among
 * them, a selection of one process, names by time, progress, and the gap
 * that ends a truncated trace. The sources are any branch sources
 * (decode/brsrc.h): PT decoders, serial or chunked, or perf script text.
 */
struct feed {
	struct pts_tl *tl;
	struct pts_decode_summary *sum;
	struct pts_brsrc **src;		/* nr sources, index = the run's CPU index */
	unsigned int nr;
	const struct pts_run_cpu *pt;	/* each source's trace (truncated tails, progress), or NULL */
	struct pts_branch *last;	/* each CPU's last event (a truncated trace's tail gap) */
	struct pts_imgset *set;		/* the images the timeline names code by, or NULL */
	/*
	 * The time of the event fed last, which feed_symbolize names code
	 * at: one store per event, and the images' naming time
	 * (pts_imgset_sym_time) written only when a name is looked up.
	 * Before the first event, UINT64_MAX - origin: the images' latest.
	 */
	uint64_t ts;
	uint64_t origin;		/* ns of the run's time 0 on the images' clock */
	int32_t only_pid;		/* > 0: other processes' events are left out */
	struct pts_branch trig;		/* the capture's trigger, while trig_pending */
	bool trig_pending;
	FILE *progress;
	uint64_t nev;
	int shown;
	bool plain;			/* none of the above to do per event (feed_plain) */
};

/*
 * Whether an event needs nothing of feed_event's but the timeline (a gap
 * aside): no truncated trace, no progress, no process left out, no
 * trigger pending. Most runs: one test per event instead of five.
 */
static bool feed_plain(const struct feed *f)
{
	unsigned int i;

	if (f->progress || f->only_pid > 0 || f->trig_pending)
		return false;
	for (i = 0; f->pt && i < f->nr; i++)
		if (f->pt[i].missing)
			return false;
	return true;
}

/* "decode: NN%" on the terminal, when the percentage moved. */
static void show_progress(struct feed *f)
{
	uint64_t done = 0, total = 0;
	unsigned int i;
	int pct;

	for (i = 0; i < f->nr; i++) {
		done += pts_brsrc_done(f->src[i]);
		total += f->pt[i].len;
	}
	pct = total ? (int)(done * 100 / total) : 100;
	if (pct == f->shown)
		return;
	f->shown = pct;
	fprintf(f->progress, "\rdecode: %3d%%", pct);
	fflush(f->progress);
}

/*
 * The end of a truncated trace file: a gap on the thread that ran last on
 * that CPU, at the time of its last event, so that the timeline shows where
 * the trace stops early and ends the slices open there (the rest of them
 * is in the missing bytes).
 */
static int feed_ended(void *ctx, unsigned int i, struct pts_err *err)
{
	struct feed *f = ctx;
	const struct pts_branch *last;
	struct pts_branch br;
	char cause[96];

	if (!f->pt || !f->pt[i].missing)
		return 0;
	last = &f->last[i];
	memset(&br, 0, sizeof(br));
	br.kind = PTS_BR_GAP;
	br.cpu = f->pt[i].cpu;
	br.pid = last->pid;
	br.tid = last->tid;
	br.ts_ns = last->ts_ns;
	br.from = last->to;
	br.offset = f->pt[i].len;
	snprintf(cause, sizeof(cause), "trace file truncated (%" PRIu64 " byte%s missing)",
		 f->pt[i].missing, f->pt[i].missing == 1 ? "" : "s");
	br.detail = cause;
	pts_decode_summary_gap(f->sum, cause);
	return pts_tl_feed(f->tl, &br, err);
}

/* The timeline's part of feed_event. */
static inline int feed_tl(struct feed *f, const struct pts_branch *br, struct pts_err *err)
{
	f->ts = br->ts_ns;
	return pts_tl_feed(f->tl, br, err);
}

/*
 * The timeline's symbolizer (pts_tl_symbolize_fn; ctx: the feed): names
 * in the program the process runs at the time of the event fed last.
 */
static int feed_symbolize(void *ctx, int32_t pid, uint64_t addr, struct pts_sym_info *out)
{
	struct feed *f = ctx;

	*pts_imgset_sym_time(f->set) = f->ts + f->origin;
	return pts_imgset_symbolize(f->set, pid, addr, out);
}

/* feed_event of an event that is not plain (feed_plain) or is a gap. */
static __attribute__((noinline)) int feed_checked(struct feed *f, unsigned int bi,
						  const struct pts_branch *br, struct pts_err *err)
{
	int rc;

	if (f->pt && f->pt[bi].missing)	/* only a truncated trace needs its last event */
		f->last[bi] = *br;
	if (f->progress && !(++f->nev & 0xffff))
		show_progress(f);
	/* every process was traced (no CR3 filter): only the traced one is shown */
	if (f->only_pid > 0 && br->pid != f->only_pid) {
		f->sum->other_events++;
		return 0;
	}
	if (br->kind == PTS_BR_GAP)
		pts_decode_summary_gap(f->sum, br->detail);
	/* the trigger goes after every event up to its time */
	if (f->trig_pending && br->ts_ns > f->trig.ts_ns) {
		f->trig_pending = false;
		f->plain = feed_plain(f);
		rc = pts_tl_feed(f->tl, &f->trig, err);
		if (rc)
			return rc;
	}
	return feed_tl(f, br, err);
}

static int feed_event(void *ctx, unsigned int bi, const struct pts_branch *br,
		      struct pts_err *err)
{
	struct feed *f = ctx;

	if (__builtin_expect(!f->plain || br->kind == PTS_BR_GAP, 0))
		return feed_checked(f, bi, br, err);
	return feed_tl(f, br, err);
}

/*
 * feed_event of a near call and of a near return, where the source knows
 * the kind (merge.h's sink: call, ret): not a gap, and the timeline's
 * entry for the kind, which does not test it either.
 */
static int feed_call(void *ctx, unsigned int bi, const struct pts_branch *br,
		     struct pts_err *err)
{
	struct feed *f = ctx;

	if (__builtin_expect(!f->plain, 0))
		return feed_checked(f, bi, br, err);
	f->ts = br->ts_ns;
	return pts_tl_feed_call(f->tl, br, err);
}

static int feed_return(void *ctx, unsigned int bi, const struct pts_branch *br,
		       struct pts_err *err)
{
	struct feed *f = ctx;

	if (__builtin_expect(!f->plain, 0))
		return feed_checked(f, bi, br, err);
	f->ts = br->ts_ns;
	return pts_tl_feed_return(f->tl, br, err);
}

/*
 * Merge f's sources into the timeline and finish it; the sources' numbers
 * into the summary. Errors: the sources', the timeline's, -ENOMEM.
 */
static int feed_run(struct feed *f, struct pts_err *err)
{
	const struct pts_merge_sink sink = { feed_event, feed_ended, f, feed_call, feed_return };
	struct pts_decode_summary *sum = f->sum;
	unsigned int i;
	int rc;

	f->shown = -1;
	f->plain = feed_plain(f);
	rc = pts_merge_run(f->src, f->nr, &sink, err);
	if (rc)
		return rc;
	if (f->progress && f->shown >= 0)
		fprintf(f->progress, "\r%*s\r", 40, "");
	rc = f->trig_pending ? pts_tl_feed(f->tl, &f->trig, err) : 0;
	if (!rc)
		rc = pts_tl_finish(f->tl, err);
	if (rc)
		return rc;
	for (i = 0; i < f->nr; i++) {
		struct pts_brsrc_stats st;

		pts_brsrc_stats(f->src[i], &st);
		sum->par_joins += st.joins;
		sum->par_refused += st.refused;
		sum->insns += st.insns;
		sum->blocks += st.blocks;
		sum->branches += st.branches;
		sum->elided += st.elided;
		sum->events += st.events;
		for (int k = 0; k < 32; k++)
			sum->by_event[k] += st.by_event[k];
		sum->errata_unknown |= st.errata_unknown;
		sum->perfscript_skipped += st.skipped;
	}
	return 0;
}

/* Each object whose symbol names could be read only in part: said once. */
static void sym_damage_notices(const struct pts_imgset *set, struct pts_decode_summary *sum)
{
	const char *path, *why;
	size_t i;

	for (i = 0; (path = pts_imgset_sym_damage(set, i, &why)); i++) {
		char msg[384];

		snprintf(msg, sizeof(msg), "%.180s: %s: its functions may be named [unknown]",
			 path, why);
		pts_decode_notice(sum, msg);
	}
}

/* Each object named without a symbol table or debug file, for the summary. */
static void names_missing(const struct pts_imgset *set, struct pts_decode_summary *sum)
{
	const char *object, *looked;
	size_t i;

	for (i = 0; (object = pts_imgset_names_missing(set, i, &looked)); i++) {
		if (sum->nr_unnamed < PTS_DEC_MAX_UNNAMED) {
			snprintf(sum->unnamed[sum->nr_unnamed].object,
				 sizeof(sum->unnamed[0].object), "%s", object);
			snprintf(sum->unnamed[sum->nr_unnamed].looked,
				 sizeof(sum->unnamed[0].looked), "%s", looked);
		}
		sum->nr_unnamed++;
	}
}

/*
 * A thread's traced time (timeline ns) from the summary's thread stats,
 * for pts_kl_stats(): 0, or -1 when the thread made no event.
 */
static int thread_span(void *ctx, int32_t tid, uint64_t *first, uint64_t *last)
{
	const struct pts_decode_summary *sum = ctx;
	size_t i;

	for (i = 0; i < sum->nr_threads; i++)
		if (sum->threads[i].tid == tid && sum->threads[i].events) {
			*first = sum->threads[i].first_ns;
			*last = sum->threads[i].last_ns;
			return 0;
		}
	return -1;
}

/*
 * CPU i's branch source: its trace decoded in this thread, or, with a
 * worker pool and a trace longer than one chunk, in chunks by the pool.
 */
static int open_pt_source(struct pts_run_in *in, unsigned int i, struct pts_pool *pool,
			  struct pts_tl *tl, uint64_t origin, bool through, struct pts_brsrc **out,
			  struct pts_err *err)
{
	struct pts_ptdec_config dc;
	size_t chunk = in->chunk_bytes ? in->chunk_bytes : PTS_DEC_CHUNK_BYTES;

	memset(&dc, 0, sizeof(dc));
	dc.buf = in->pt[i].buf;
	dc.size = in->pt[i].len;
	dc.padded = true;
	dc.mapped = true;
	dc.cpu = in->pt[i].cpu;
	dc.family = in->family;
	dc.model = in->model;
	dc.stepping = in->stepping;
	dc.mtc_freq = in->mtc_freq;
	dc.nom_freq = in->nom_freq;
	dc.cpuid_15_eax = in->cpuid_15_eax;
	dc.cpuid_15_ebx = in->cpuid_15_ebx;
	dc.addr_filter = in->addr_filter;
	dc.images = in->set;
	dc.tc = in->tc;
	dc.origin_ns = origin;
	dc.sb = &in->sb;
	dc.pid = in->pid >= 0 ? in->pid : 0;
	dc.tid = in->tid >= 0 ? in->tid : (in->pid >= 0 ? in->pid : (int32_t)in->pt[i].cpu);
	/*
	 * A truncated trace's tail gap takes the time of the last event
	 * handed out: no jump may be elided after it.
	 */
	dc.elide = in->pt[i].missing ? NULL : pts_tl_elide(tl);
	dc.elide_queued = dc.elide && in->nr_pt == 1;
	dc.on_insn = in->on_insn;
	dc.insn_ctx = in->insn_ctx;
	dc.through = through;
	/*
	 * Every scope: the sideband's switches and, with OS tracing, PIP
	 * packets name the process, whose own image is then used (its
	 * sections and the kernel's), not the union of every process's.
	 */
	dc.images_by_pid = true;
	dc.switch_at_pip = in->scope != PTS_SCOPE_USER;
	if (pool && in->pt[i].len > chunk)
		return pts_pardec_src_new(pool, &dc, chunk, in->pt[i].scanned ? &in->pt[i].scan : NULL,
					  out, err);
	return pts_ptdec_src_new(&dc, out, err);
}

/* The run decodes in parallel: not for the instruction listing (in order, one call per instruction). */
static bool run_parallel(const struct pts_run_in *in)
{
	return in->jobs > 1 && !in->on_insn;
}

/*
 * The scans before the decoders start, on the run's threads (prescan.h):
 * the scope of raw traces read from them (in->scope_from_trace), and for
 * each trace the pool decodes in chunks (open_pt_source) its CYC packets.
 * Both read the packets the decoders read: with their errata.
 */
static int prescan(struct pts_run_in *in, const struct pt_errata *errata,
		   struct pts_decode_summary *sum, struct pts_err *err)
{
	size_t chunk = in->chunk_bytes ? in->chunk_bytes : PTS_DEC_CHUNK_BYTES;
	struct pts_prescan_cpu *pc = calloc(in->nr_pt ? in->nr_pt : 1, sizeof(*pc));
	struct pts_scope_evidence ev;
	unsigned int i;
	int rc;

	if (!pc)
		return pts_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < in->nr_pt; i++) {
		pc[i].buf = in->pt[i].buf;
		pc[i].len = in->pt[i].len;
		pc[i].scan_cyc = run_parallel(in) && in->pt[i].len > chunk;
		pc[i].errata = errata;
		pts_pt_hold_init(&in->pt[i].scan.hold);
		pc[i].hold = &in->pt[i].scan.hold;
	}
	memset(&ev, 0, sizeof(ev));
	rc = pts_prescan(pc, in->nr_pt, in->jobs ? in->jobs : 1, in->scope_from_trace ? &ev : NULL);
	for (i = 0; i < in->nr_pt; i++) {
		in->pt[i].scanned = pc[i].scan_cyc;
		in->pt[i].scan.cyc = pc[i].cyc;
	}
	free(pc);
	if (rc)
		return pts_err_set(err, ENOMEM, "out of memory");
	if (in->scope_from_trace) {
		pts_scope_decide(&ev, &in->scope, sum->scope_why, sizeof(sum->scope_why));
		sum->scope = in->scope;
	}
	return 0;
}

/*
 * Chunks decoded ahead by a pool (pardec_opts.h): the two a join needs of
 * each CPU and one per worker; at least two per worker beside one CPU's
 * two, so that a worker done before the chunk the merge waits for finds
 * another (with one per worker and one CPU, the workers found none 60
 * times on a 10 MB trace). Where the calling thread decodes chunks too
 * (self), two more: a worker goes on decoding ahead while the calling
 * thread decodes a chunk itself (~3 ms), where the window held back the
 * workers of the fifteenth round (docs/performance.md, "The calling
 * thread's schedule (sixteenth round)").
 */
static unsigned int pool_chunks(unsigned int cpus, unsigned int jobs, bool self)
{
	unsigned int n = 2 * cpus + jobs;

	if (n < 2 + 2 * jobs)
		n = 2 + 2 * jobs;
	return self ? n + 2 : n;
}

/*
 * through: this thread's stack holds libipt's recursion (pts_decode_run):
 * the decoders run through direct branches, the workers' too on stacks
 * of the same size
 */
static int decode_run(struct pts_run_in *in, pts_tl_emit_fn emit, void *emit_ctx,
		      struct pts_decode_summary *sum, struct pts_err *err, bool through)
{
	struct pts_pool *pool = NULL;	/* worker threads, or NULL: every CPU decoded serially */
	struct pts_tl_config tcfg;
	struct pt_errata errata;	/* the decoders': for every reader of the traces */
	struct feed f;
	uint64_t origin = UINT64_MAX;
	unsigned int i;
	int rc = 0;

	memset(&f, 0, sizeof(f));
	f.nr = in->nr_pt;
	f.src = calloc(in->nr_pt ? in->nr_pt : 1, sizeof(*f.src));
	f.last = calloc(in->nr_pt ? in->nr_pt : 1, sizeof(*f.last));
	if (!f.src || !f.last) {
		rc = pts_err_set(err, ENOMEM, "out of memory for %u CPU decoders", in->nr_pt);
		goto out;
	}
	pts_pt_errata(&errata, in->family, in->model, in->stepping);
	rc = prescan(in, &errata, sum, err);
	if (rc)
		goto out;
	pts_sideband_sort(&in->sb);
	for (i = 0; i < in->nr_pt; i++) {
		uint64_t tsc;

		if (!pts_pt_first_tsc(in->pt[i].buf, in->pt[i].len, &errata, &tsc) &&
		    pts_tc_ns(&in->tc, tsc) < origin)
			origin = pts_tc_ns(&in->tc, tsc);
	}
	if (origin == UINT64_MAX)
		origin = 0;
	f.trig_pending = pts_trigger_branch(in, origin, &f.trig, sum);
	if (in->labels && pts_kl_prepare(in->labels, origin)) {
		rc = pts_err_set(err, ENOMEM, "out of memory");
		goto out;
	}

	f.set = in->set;
	memset(&tcfg, 0, sizeof(tcfg));
	tcfg.scope = in->scope;
	tcfg.symbolize = in->set ? feed_symbolize : pts_imgset_symbolize;
	tcfg.sym_ctx = in->set ? (void *)&f : NULL;
	tcfg.emit = emit;
	tcfg.emit_ctx = emit_ctx;
	tcfg.segment_cap = in->segment_cap;
	tcfg.labels = in->labels;
	rc = pts_tl_new(&tcfg, &f.tl, err);
	if (rc)
		goto out;
	/* without sideband each CPU is one track: pid 0, tid = CPU */
	for (i = 0; i < in->nr_pt && !rc && in->per_cpu_names; i++) {
		char name[32];

		snprintf(name, sizeof(name), "cpu %u", in->pt[i].cpu);
		rc = pts_tl_set_name(f.tl, 0, (int32_t)in->pt[i].cpu, name, err);
	}
	for (i = 0; i < in->sb.n && !rc; i++)
		if (in->sb.recs[i].type == PTS_SB_COMM && in->sb.recs[i].name)
			rc = pts_tl_set_name(f.tl, in->sb.recs[i].pid, in->sb.recs[i].tid,
					     in->sb.recs[i].name, err);
	if (rc)
		goto out;
	if (run_parallel(in)) {
		/*
		 * -j N: N threads decode, N - 1 workers and the calling thread,
		 * which decodes each chunk no worker has started when it needs
		 * it into the sink itself (pardec.h, pts_pool_options.self) as
		 * -j 1 does, neither stored nor read back: -j 2 runs two busy
		 * threads on two CPUs, not three (docs/performance.md, "The
		 * calling thread's schedule (sixteenth round)"). The tests'
		 * orders: par_workers N workers, the calling thread handing out
		 * only (the schedule before); par_sink no worker.
		 */
		bool self = !in->par_reverse && !in->par_workers;
		struct pts_pool_options po = {
			.threads = in->par_sink ? 0 : self ? in->jobs - 1 : in->jobs,
			.chunks = pool_chunks(in->nr_pt, in->jobs, self),
			.reverse = in->par_reverse,
			.self = self,
			.deep = through,
			.brk = in->par_break,
		};

		rc = pts_pool_new(&po, in->set, &pool, err);
		if (rc)
			goto out;
	}
	for (i = 0; i < in->nr_pt; i++) {
		rc = open_pt_source(in, i, pool, f.tl, origin, through, &f.src[i], err);
		if (rc)
			goto out;
		/* a CPU with no event at all: its tail gap goes on its first thread */
		memset(&f.last[i], 0, sizeof(f.last[i]));
		f.last[i].pid = in->pid >= 0 ? in->pid : 0;
		f.last[i].tid = in->tid >= 0 ? in->tid :
				(in->pid >= 0 ? in->pid : (int32_t)in->pt[i].cpu);
		sum->trace_bytes += in->pt[i].len;
		sum->trace_bytes_missing += in->pt[i].missing;
	}
	f.sum = sum;
	f.pt = in->pt;
	f.origin = origin;
	f.ts = UINT64_MAX - origin;	/* + origin: UINT64_MAX */
	f.only_pid = in->only_pid;
	f.progress = in->progress;
	rc = feed_run(&f, err);
	if (rc)
		goto out;
	sym_damage_notices(in->set, sum);
	names_missing(in->set, sum);
	rc = pts_decode_finish_summary(f.tl, sum, err);
	if (!rc && in->labels && pts_kl_count(in->labels)) {
		sum->have_labels = true;
		pts_kl_stats(in->labels, thread_span, sum, &sum->labels);
	}
out:
	for (i = 0; f.src && i < f.nr; i++)
		pts_brsrc_close(f.src[i]);
	free(f.src);
	pts_pool_free(pool, &sum->par_cpu);
	free(f.last);
	pts_tl_free(f.tl);
	return rc;
}

/* decode_run's arguments and result, for the thread that runs it (run_deep) */
struct deep_run {
	struct pts_run_in *in;
	pts_tl_emit_fn emit;
	void *emit_ctx;
	struct pts_decode_summary *sum;
	struct pts_err *err;
	int rc;
};

static void run_deep(void *p)
{
	struct deep_run *r = p;

	r->rc = decode_run(r->in, r->emit, r->emit_ctx, r->sum, r->err, true);
}

/*
 * A run (not the instruction listing, which takes every block as libipt
 * ends it) decodes through direct branches (pts_ptdec_config.through:
 * ~7.5 % fewer instructions), on a thread of its own whose stack holds
 * libipt's recursion without the block flags (deep.h), this one waiting:
 * -j 1's decoders, and with -j N the chunks this thread decodes itself,
 * beside workers with stacks of the same size (pts_pool_options.deep).
 * Where no such thread can be made, here with the flags: the same output.
 */
int pts_decode_run(struct pts_run_in *in, pts_tl_emit_fn emit, void *emit_ctx,
		   struct pts_decode_summary *sum, struct pts_err *err)
{
	if (!in->on_insn && !in->par_flags) {
		struct deep_run r = { in, emit, emit_ctx, sum, err, 0 };

		if (!pts_deep_run(run_deep, &r))
			return r.rc;
	}
	return decode_run(in, emit, emit_ctx, sum, err, false);
}

/*
 * A trace file is one CPU's trace: the same file given for two CPUs (by
 * any name) would be decoded as two, every instruction and thread twice.
 */
static int one_file_per_cpu(const struct pts_decode_opts *o, struct pts_err *err)
{
	const char *paths[PTS_DEC_MAX_INPUTS];
	size_t i, a = 0, b = 0;
	int rc;

	for (i = 0; i < o->nr_pt; i++)
		paths[i] = o->pt[i].path;
	rc = pts_file_find_same(paths, o->nr_pt, &a, &b);
	if (rc < 0)
		return pts_err_set(err, ENOMEM, "out of memory");
	if (rc)
		return pts_err_set(err, EINVAL, "--pt %s (CPU %u) and --pt %s (CPU %u) are one "
				   "file: a trace file holds one CPU's trace; give each CPU's own "
				   "file once", o->pt[a].path, o->pt[a].cpu, o->pt[b].path,
				   o->pt[b].cpu);
	return 0;
}

/*
 * A perf sideband that names no thread on a trace's CPU (a wrong --cpu or
 * --pevent-sample-type) leaves that trace one track of an unknown thread:
 * said even without --summary, or the track passes for the program's.
 */
static void pevent_cpus_notice(const struct pts_decode_opts *o, const struct pts_sideband *sb,
			       struct pts_decode_summary *sum)
{
	uint32_t cpus[PTS_DEC_MAX_INPUTS];
	char msg[sizeof(sum->notices[0])];
	size_t i;

	for (i = 0; i < o->nr_pt; i++)
		cpus[i] = o->pt[i].cpu;
	if (pts_sideband_cpus_check(sb, cpus, o->nr_pt, o->pevent_sample_type, msg, sizeof(msg)))
		pts_decode_notice(sum, msg);
}

/*
 * A --scope the trace contradicts (kernel addresses in a user-only scope,
 * user ones in a kernel-only one): the timeline names the untraced
 * stretches after the scope given ("[syscall]" or "[user]"), so a wrong
 * one mislabels them. Counted in --summary's diagnostics; said on stderr
 * too, as the scope was the user's choice, not the trace's.
 */
static void scope_given_notice(enum pts_scope given, struct pts_decode_summary *sum)
{
	uint64_t n = sum->diag[PTS_TLD_OUT_OF_SCOPE];
	char msg[sizeof(sum->notices[0])];

	if (!given || !n)
		return;
	snprintf(msg, sizeof(msg), "--scope %s: %" PRIu64 " event%s of the trace %s impossible in "
		 "it (%s addresses): give the scope the trace was recorded with, or leave "
		 "--scope out (a raw trace's is read from it; perf script text is taken as both)",
		 pts_scope_name(given), n, n == 1 ? "" : "s", n == 1 ? "is" : "are",
		 given == PTS_SCOPE_KERNEL ? "user-space" : "kernel");
	pts_decode_notice(sum, msg);
}

/*
 * The scope of raw traces: --scope when given, else what the traces show,
 * read by pts_decode_run (scope_infer.h): assuming one would make a wrong
 * timeline of a trace recorded in another.
 */
static void raw_scope(const struct pts_decode_opts *o, struct pts_run_in *in,
		      struct pts_decode_summary *sum)
{
	in->scope = o->scope;
	in->scope_from_trace = !o->scope;
	if (o->scope)
		snprintf(sum->scope_why, sizeof(sum->scope_why), "given with --scope");
}

/*
 * A raw trace does not say which CPU wrote it, and libipt applies a CPU's
 * errata workarounds only when told the CPU: decoded without --cpu-model,
 * a trace of an affected CPU can fail or mislead where an erratum applies
 * (SKZ84: tests/check.d/69-decode-scope-skz84.sh). perf reads the CPU from
 * perf.data and a bundle records it; here it is said once, with what to give.
 */
static void raw_cpu_notice(const struct pts_decode_opts *o, struct pts_decode_summary *sum)
{
	if (o->family)
		return;
	pts_decode_notice(sum, "no --cpu-model: a raw trace does not record the CPU that wrote "
			  "it, so it is decoded without any CPU's errata workarounds; give "
			  "--cpu-model FAMILY/MODEL/STEPPING of the recording machine (its "
			  "/proc/cpuinfo's 'cpu family', 'model' and 'stepping': 6/85/4 for a "
			  "Skylake server)");
}

int pts_decode_raw(const struct pts_decode_opts *o, pts_tl_emit_fn emit, void *emit_ctx,
		   struct pts_decode_summary *sum, struct pts_err *err)
{
	struct pts_run_in in;
	unsigned int i;
	int rc;

	memset(sum, 0, sizeof(*sum));
	memset(&in, 0, sizeof(in));
	sum->scope = o->scope;
	sum->source = "raw PT files (origin of the bytes not recorded)";
	if (!o->nr_pt)
		return pts_err_set(err, EINVAL, "no trace given: use --pt FILE (or a bundle)");
	rc = pts_imgset_new(&in.set, err);
	if (rc)
		return rc;
	if ((o->sysroot && pts_imgset_set_sysroot(in.set, o->sysroot)) ||
	    (o->buildid_dir && pts_imgset_set_buildid_dir(in.set, o->buildid_dir)))
		rc = pts_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < o->nr_elf && !rc; i++) {
		rc = pts_imgset_add_elf(in.set, PTS_PID_ALL, o->elf[i].path, o->elf[i].base, err);
		if (rc == -ENOEXEC)
			rc = pts_err_set(err, EINVAL, "%s is not an ELF file: give raw code with"
					 " --raw FILE:OFFSET:VADDR", o->elf[i].path);
	}
	for (i = 0; i < o->nr_raw && !rc; i++) {
		struct stat st;
		long sz = -1;

		if (stat(o->raw[i].path, &st))
			rc = pts_err_set(err, errno, "--raw %s: cannot read it: %s",
					 o->raw[i].path, strerror(errno));
		else if (!S_ISREG(st.st_mode))
			rc = pts_err_set(err, EINVAL, "--raw %s: not a regular file; give a file"
					 " of code bytes", o->raw[i].path);
		else if ((uint64_t)(sz = (long)st.st_size) < o->raw[i].offset)
			/* decimal as the file size is, hex as an OFFSET is often given */
			rc = pts_err_set(err, EINVAL, "--raw %s: OFFSET %" PRIu64 " (0x%" PRIx64
					 ") is past its end (%ld bytes)", o->raw[i].path,
					 o->raw[i].offset, o->raw[i].offset, sz);
		else
			rc = pts_imgset_add_file(in.set, PTS_PID_ALL, o->raw[i].path,
						 o->raw[i].offset, (uint64_t)sz - o->raw[i].offset,
						 o->raw[i].vaddr, NULL, NULL, err);
	}
	if (!rc && o->kcore_dir)
		rc = pts_kcore_add(in.set, o->kcore_dir, err);
	if (!rc && o->kallsyms) {
		struct pts_kallsyms_stats ks;

		rc = pts_imgset_add_kallsyms(in.set, o->kallsyms, &ks, err);
		if (!rc && ks.bad)
			pts_decode_kallsyms_notice(sum, o->kallsyms, &ks);
	}
	for (i = 0; i < o->nr_pevent && !rc; i++)
		rc = pts_pevent_load(&in.sb, o->pevent[i], o->pevent_sample_type, err);
	if (!rc && o->nr_pevent) {
		pts_sideband_sort(&in.sb);
		rc = pts_sideband_maps_add(in.set, &in.sb, o->sysroot, o->buildid_dir, sum, err);
	}
	if (o->have_perf_time) {
		in.tc.mode = PTS_TC_PERF;
		in.tc.time_shift = o->time_shift;
		in.tc.time_mult = o->time_mult;
		in.tc.time_zero = o->time_zero;
	} else if (o->tsc_khz) {
		in.tc.mode = PTS_TC_KHZ;
		in.tc.tsc_khz = o->tsc_khz;
	} else if (o->nom_freq) {
		/* an invariant TSC runs at the nominal (max non-turbo) ratio x 100 MHz */
		in.tc.mode = PTS_TC_KHZ;
		in.tc.tsc_khz = (uint64_t)o->nom_freq * 100000;
	}
	if (!rc)
		rc = one_file_per_cpu(o, err);
	if (!rc && o->nr_pevent && o->pid < 0 && o->tid < 0)
		pevent_cpus_notice(o, &in.sb, sum);
	/*
	 * perf's records carry perf's clock; without its conversion the trace's
	 * TSC is compared with them as it is, and a switch lands anywhere
	 */
	if (o->nr_pevent && !o->have_perf_time)
		pts_decode_notice(sum, "perf sideband without --pevent-time-shift/-mult/-zero: "
				  "its records' times (perf's clock) cannot be matched with the "
				  "trace's TSC, so which thread ran when may be wrong; give perf's "
				  "conversion (perf report -D prints it in the AUXTRACE_INFO record: "
				  "time shift, multiplier, zero)");
	/*
	 * an exec'd program the sideband maps no file of: gaps that --elf fills
	 * (said when code is given otherwise: else the notice below says it)
	 */
	if (!rc && o->nr_pevent && !o->nr_elf && !o->nr_raw && (o->kcore_dir || o->sysroot) &&
	    pts_sideband_exec_unmapped(&in.sb, sum))
		rc = pts_err_set(err, ENOMEM, "out of memory");
	/* without code bytes libipt follows no branch: every block is a gap */
	if (!o->nr_elf && !o->nr_raw && !o->kcore_dir && !(o->nr_pevent && o->sysroot))
		pts_decode_notice(sum, "no code given: the decoder needs the traced code's bytes "
				  "to follow its branches, so the trace decodes as gaps (\"no "
				  "memory mapped at this address\"); give the program with --elf "
				  "FILE[:BASE] (each shared object at its BASE), --raw "
				  "FILE:OFFSET:VADDR or, for kernel code, --kcore DIR");
	if (!rc)
		rc = pts_decode_run_alloc(&in, o->nr_pt, err);
	for (i = 0; i < o->nr_pt && !rc; i++) {
		rc = pts_decode_map_trace(o->pt[i].path, UINT64_MAX, &in.pt[i].buf, &in.pt[i].len,
					  &in.pt[i].maplen, err);
		in.pt[i].cpu = o->pt[i].cpu;
		/* without --summary the one gap it decodes to would not say why */
		if (!rc && !in.pt[i].len) {
			char msg[256];

			snprintf(msg, sizeof(msg), "--pt %.200s is empty (0 bytes): no trace of cpu %u "
				 "to decode", o->pt[i].path, o->pt[i].cpu);
			pts_decode_notice(sum, msg);
		}
	}
	if (rc)
		goto out;
	in.nr_pt = o->nr_pt;
	raw_scope(o, &in, sum);
	in.family = o->family;
	in.model = o->model;
	in.stepping = o->stepping;
	raw_cpu_notice(o, sum);
	pts_decode_cpu_notice(&in, sum);
	in.mtc_freq = o->mtc_freq;
	in.nom_freq = o->nom_freq;
	in.cpuid_15_eax = o->cpuid_15_eax;
	in.cpuid_15_ebx = o->cpuid_15_ebx;
	/* --tid alone: its process is taken to be the thread's own, as for perf script text */
	in.pid = o->pid >= 0 ? o->pid : o->tid;
	in.tid = o->tid;
	in.per_cpu_names = !o->nr_pevent && in.pid < 0;
	in.on_insn = o->on_insn;
	in.insn_ctx = o->insn_ctx;
	in.segment_cap = o->segment_cap;
	in.progress = o->progress;
	in.jobs = o->jobs;
	in.chunk_bytes = o->chunk_bytes;
	in.par_reverse = o->par_reverse;
	in.par_sink = o->par_sink;
	in.par_workers = o->par_workers;
	in.par_flags = o->par_flags;
	in.par_break = o->par_break;
	rc = pts_decode_run(&in, emit, emit_ctx, sum, err);
	if (!rc)
		scope_given_notice(o->scope, sum);
out:
	pts_decode_run_free(&in);
	return rc;
}

long pts_decode_file_size(const char *path, struct pts_err *err)
{
	struct stat st;
	int fd = path ? pts_file_open(path, "code file", &st, err) : -1;

	if (fd < 0)
		return -1;
	close(fd);
	return (long)st.st_size;
}

void pts_decode_notice(struct pts_decode_summary *sum, const char *msg)
{
	if (sum->nr_notices < PTS_DEC_MAX_NOTICES) {
		char *w = sum->notices[sum->nr_notices];
		size_t n = strlen(msg);

		/* long messages are cut to the slot */
		if (n >= sizeof(sum->notices[0]))
			n = sizeof(sum->notices[0]) - 1;
		memcpy(w, msg, n);
		w[n] = '\0';
	}
	sum->nr_notices++;
}

void pts_decode_cpu_notice(const struct pts_run_in *in, struct pts_decode_summary *sum)
{
	struct pt_errata errata;
	struct pt_cpu cpu;
	char msg[320];

	if (!in->family)
		return;
	memset(&cpu, 0, sizeof(cpu));
	cpu.vendor = pcv_intel;
	cpu.family = in->family;
	cpu.model = in->model;
	cpu.stepping = in->stepping;
	if (pt_cpu_errata(&errata, &cpu) != -pte_bad_cpu)
		return;
	snprintf(msg, sizeof(msg), "CPU %u/%u/%u (family/model/stepping) is unknown to libipt %u.%u: "
		 "decoded without its errata workarounds; give --cpu-model with the nearest model "
		 "libipt knows to apply theirs", in->family, in->model, in->stepping,
		 pt_library_version().major, pt_library_version().minor);
	pts_decode_notice(sum, msg);
}

void pts_decode_kallsyms_notice(struct pts_decode_summary *sum, const char *path,
				const struct pts_kallsyms_stats *ks)
{
	char msg[400];

	snprintf(msg, sizeof(msg), "%.200s: %" PRIu64 " of %" PRIu64 " lines are not kallsyms "
		 "lines, skipped (the first: line %" PRIu64 ": '%s')", path, ks->bad, ks->lines,
		 ks->first_bad, ks->first_bad_text);
	pts_decode_notice(sum, msg);
}

void pts_decode_lost(struct pts_decode_summary *sum, const char *msg)
{
	pts_decode_notice(sum, msg);
	sum->lost++;
}

void pts_decode_warn(struct pts_decode_summary *sum, const char *msg)
{
	if (sum->nr_warnings < PTS_DEC_MAX_WARNINGS) {
		char *w = sum->warnings[sum->nr_warnings];
		size_t n = strlen(msg);

		/* long messages are cut to the slot */
		if (n >= sizeof(sum->warnings[0]))
			n = sizeof(sum->warnings[0]) - 1;
		memcpy(w, msg, n);
		w[n] = '\0';
	}
	sum->nr_warnings++;
}

int pts_decode_perfscript(const char *path, enum pts_scope scope, pts_tl_emit_fn emit,
			  void *emit_ctx, struct pts_decode_summary *sum, struct pts_err *err)
{
	/* perf script text has no record of the scope: both fits every trace */
	const char *scope_why = scope ? "given with --scope" : "not recorded in perf script "
				"text: both assumed (--scope to say otherwise)";
	struct pts_brsrc *src = NULL;
	struct pts_tl_config tcfg;
	struct feed f;
	FILE *file;
	int rc;

	memset(sum, 0, sizeof(*sum));
	memset(&f, 0, sizeof(f));
	sum->scope = scope ? scope : PTS_SCOPE_BOTH;
	snprintf(sum->scope_why, sizeof(sum->scope_why), "%s", scope_why);
	sum->source = "perf script text (decoded by perf from a recording elsewhere)";
	rc = pts_file_fopen_text(path, "perf script file", &file, err);
	if (rc)
		return rc;
	memset(&tcfg, 0, sizeof(tcfg));
	tcfg.scope = sum->scope;
	tcfg.emit = emit;
	tcfg.emit_ctx = emit_ctx;
	rc = pts_tl_new(&tcfg, &f.tl, err) ?: pts_perfscript_src_new(file, path, &src, err);
	if (rc)
		goto out;
	/* one source for every CPU: symbols from the text, no images, no trigger */
	f.src = &src;
	f.nr = 1;
	f.sum = sum;
	rc = feed_run(&f, err) ?: pts_decode_finish_summary(f.tl, sum, err);
	if (!rc)
		scope_given_notice(scope, sum);
out:
	pts_brsrc_close(src);
	fclose(file);
	pts_tl_free(f.tl);
	return rc;
}

/*
 * Objects named without a symbol table or debug file: where their debug
 * files were looked for, and what to install or point to.
 */
static void print_unnamed(FILE *f, const struct pts_decode_summary *s)
{
	unsigned int i;

	if (!s->nr_unnamed)
		return;
	fprintf(f, "names: %u object%s without a symbol table or debug file (functions by their"
		" exported names, else [unknown]):\n", s->nr_unnamed, s->nr_unnamed == 1 ? "" : "s");
	for (i = 0; i < s->nr_unnamed && i < PTS_DEC_MAX_UNNAMED; i++)
		fprintf(f, "  %s: %s\n", s->unnamed[i].object, s->unnamed[i].looked);
	if (s->nr_unnamed > PTS_DEC_MAX_UNNAMED)
		fprintf(f, "  ... %u more\n", s->nr_unnamed - PTS_DEC_MAX_UNNAMED);
	fprintf(f, "  to name them: install the capture machine's debug symbols here (Debian: its"
		" packages' -dbgsym, libc6-dbg for libc; the build-ids must match), give"
		" --sysroot DIR with its /usr/lib/debug under DIR, or bring its perf build-id"
		" cache here (perf archive; --buildid-dir DIR, default $HOME/.debug)\n");
}

void pts_decode_summary_print(FILE *f, const struct pts_decode_summary *s)
{
	unsigned int i;
	size_t t;
	int d;

	fprintf(f, "source: %s\n", s->source ? s->source : "unknown");
	fprintf(f, "scope: %s", s->scope == PTS_SCOPE_KERNEL ? "kernel" :
		s->scope == PTS_SCOPE_BOTH ? "both" : "user");
	fprintf(f, s->scope_why[0] ? " (%s)\n" : "\n", s->scope_why);
	pts_trigger_print(f, s);
	fprintf(f, "instructions: %" PRIu64 "\n", s->insns);
	fprintf(f, "branches: %" PRIu64, s->branches);
	if (s->elided)
		fprintf(f, " (%" PRIu64 " jumps inside the function executing: no timeline change)",
			s->elided);
	fputc('\n', f);
	if (s->events) {
		fprintf(f, "trace events: %" PRIu64 " (", s->events);
		for (d = 0, i = 0; d < 32; d++)
			if (s->by_event[d])
				fprintf(f, "%s%s %" PRIu64, i++ ? ", " : "", pts_ptev_name(d),
					s->by_event[d]);
		fprintf(f, ")\n");
	}
	if (s->trace_bytes || s->trace_bytes_missing) {
		char have[PTS_BYTES_TEXT_LEN], miss[PTS_BYTES_TEXT_LEN];

		fprintf(f, "trace: %s", pts_bytes_text(s->trace_bytes, have, sizeof(have)));
		if (s->trace_bytes_missing)
			fprintf(f, "; %s missing (truncated copy)",
				pts_bytes_text(s->trace_bytes_missing, miss, sizeof(miss)));
		fprintf(f, "\n");
	}
	if (s->nr_stops) {
		fprintf(f, "stopped after the trigger:");
		for (i = 0; i < s->nr_stops; i++)
			fprintf(f, "%s cpu %u %+.3f us", i ? "," : "", s->stops[i].cpu,
				(double)s->stops[i].ns / 1000.0);
		fputc('\n', f);
	}
	fprintf(f, "gaps: %" PRIu64 "\n", s->gaps);
	for (i = 0; i < s->nr_causes; i++)
		fprintf(f, "  %" PRIu64 " x %s\n", s->causes[i].count, s->causes[i].cause);
	for (i = 0; i < s->nr_notices && i < PTS_DEC_MAX_NOTICES; i++)
		fprintf(f, "warning: %s\n", s->notices[i]);
	if (s->nr_notices > PTS_DEC_MAX_NOTICES)
		fprintf(f, "warning: ... %u more damaged inputs\n", s->nr_notices - PTS_DEC_MAX_NOTICES);
	for (i = 0; i < s->nr_warnings && i < PTS_DEC_MAX_WARNINGS; i++)
		fprintf(f, "warning: %s\n", s->warnings[i]);
	if (s->nr_warnings > PTS_DEC_MAX_WARNINGS)
		fprintf(f, "warning: ... %u more\n", s->nr_warnings - PTS_DEC_MAX_WARNINGS);
	if (s->other_events)
		fprintf(f, "left out: %" PRIu64 " events of other processes (the capture traced "
			"every process: its CR3 filter could not be used)\n", s->other_events);
	if (s->objects_copied || s->objects_checked || s->objects_unchecked || s->nr_mismatched ||
	    s->objects_not_copied || s->objects_damaged) {
		fprintf(f, "code files: %u copied in the bundle, %u host file%s checked against the "
			"capture, %u host file%s unchecked, %u not matching the capture",
			s->objects_copied, s->objects_checked, s->objects_checked == 1 ? "" : "s",
			s->objects_unchecked, s->objects_unchecked == 1 ? "" : "s", s->nr_mismatched);
		if (s->objects_not_copied)
			fprintf(f, ", %u the capture could not read", s->objects_not_copied);
		if (s->objects_damaged)
			fprintf(f, ", %u damaged cop%s in the bundle (missing or not of the recorded size)",
				s->objects_damaged, s->objects_damaged == 1 ? "y" : "ies");
		fputc('\n', f);
		for (i = 0; i < s->nr_mismatched && i < PTS_DEC_MAX_MISMATCH; i++)
			fprintf(f, "  not matching (decoded as gaps): %s: %s\n", s->mismatched[i].path,
				s->mismatched[i].why);
		if (s->nr_mismatched > PTS_DEC_MAX_MISMATCH)
			fprintf(f, "  ... %u more not matching\n",
				s->nr_mismatched - PTS_DEC_MAX_MISMATCH);
	}
	print_unnamed(f, s);
	if (s->have_labels) {
		const struct pts_kl_stats *l = &s->labels;

		/* user scope names untraced stretches; the others give entry slices arguments */
		fprintf(f, "syscall and page-fault records: %" PRIu64 " %s, "
			"%" PRIu64 " unmatched within their thread's traced time, %" PRIu64
			" outside it", l->matched,
			s->scope == PTS_SCOPE_USER ? "naming an untraced stretch" :
						     "as a kernel entry slice's arguments",
			l->unmatched, l->outside);
		if (l->unpaired_exits)
			fprintf(f, "; %" PRIu64 " syscall exit%s without %s entry", l->unpaired_exits,
				l->unpaired_exits == 1 ? "" : "s", l->unpaired_exits == 1 ? "its" : "their");
		fputc('\n', f);
	}
	if (s->errata_unknown)
		fprintf(f, "note: libipt knows no errata for this CPU model (decoded without errata workarounds)\n");
	if (s->perfscript_skipped)
		fprintf(f, "note: %" PRIu64 " perf script lines not understood (skipped)\n",
			s->perfscript_skipped);
	for (d = 0; d < PTS_TLD_NR; d++)
		if (s->diag[d])
			fprintf(f, "diagnostic: %" PRIu64 " x %s%s%s\n", s->diag[d],
				pts_tl_diag_name((enum pts_tl_diag)d),
				s->diag_first[d][0] ? ": first " : "", s->diag_first[d]);
	for (t = 0, i = 0; t < s->nr_threads; t++)
		i += s->threads[t].events > 0;
	fprintf(f, "threads: %u\n", i);
	for (t = 0; t < s->nr_threads; t++) {
		const struct pts_tl_thread_stats *th = &s->threads[t];

		/* named by the sideband but never seen in the trace */
		if (!th->events)
			continue;

		/* a thread the sideband never named is called by its ids only */
		fprintf(f, "  %d/%d%s%s: %" PRIu64 " ns traced (%" PRIu64 " .. %" PRIu64
			" ns), %" PRIu64 " call%s, %" PRIu64 " gap%s\n",
			th->pid, th->tid, th->name ? " " : "", th->name ? th->name : "",
			th->last_ns - th->first_ns, th->first_ns, th->last_ns, th->calls,
			th->calls == 1 ? "" : "s", th->gaps, th->gaps == 1 ? "" : "s");
	}
}

void pts_decode_summary_free(struct pts_decode_summary *s)
{
	size_t i;

	for (i = 0; i < s->nr_threads; i++)
		free((char *)s->threads[i].name);
	free(s->threads);
	s->threads = NULL;
	s->nr_threads = 0;
}
