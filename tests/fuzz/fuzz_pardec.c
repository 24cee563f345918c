// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness: the parallel decode (session/pardec.h) against the serial
 * one. pardec.h promises exactly the serial decoder's events, so the same
 * trace is decoded with jobs 0, then with worker threads and small
 * chunks, then with the chunks decoded last first in the calling thread
 * (the pool's reverse option, pardec_opts.h), and the record streams and
 * summaries (the instruction count among them) must be equal; the first
 * difference aborts. Every decode runs through direct branches, as
 * ptscope decode does at every -j; the serial decode with libipt's block
 * flags (a block ends at every direct branch) must give the same too
 * (FLAGS_AGAINST_THROUGH). The input is 4
 * option bytes, then the trace of CPU 0:
 *   [0] bit 0: raw mode (else bundle mode); bits 1-3: chunk bytes
 *       32 << n; bit 4: 3 workers (else 2); bits 5-6: scope (raw mode);
 *       bit 7: two CPUs, the trace split at [1..2] (raw mode)
 *   [3] CPU model (raw mode)
 * Bundle mode decodes the shipped sample (FUZZ_SAMPLE) with the input's
 * first BUNDLE_TRACE_MAX bytes as its cpu0.pt: its code, sideband and
 * timing make the decoder run the sample's program. Raw mode decodes as
 * fuzz_raw_pt.c, over tests/golden/decode/user.S and kernel.S (FUZZ_DATA).
 * Before the decodes, the CYC scan of the input's trace in parts read in
 * step (session/pardec_cyc.h) must give the answer and the held
 * stretches of the scan in one piece, split where pts_pt_trace_has_cyc
 * splits and at the offset in [1..2]; a difference aborts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <intel-pt.h>

#include "fuzz.h"
#include "decode/pt_cpu.h"
#include "session/pardec_cyc.h"
#include "session/session.h"

#ifndef FUZZ_SAMPLE
#define FUZZ_SAMPLE "samples/demo.ptscope"
#endif

/*
 * The sample's program runs about 9 instructions per byte of its trace,
 * and each input is decoded three times: its whole trace (14 KiB, seven
 * PSBs) took 0.75 s of CPU per input under ASan, and a campaign whose
 * corpus grew from it ran at 2 inputs per second. 1 KiB of it is still
 * hundreds of events between the PSBs an input puts there (joins, refused
 * joins, runs across chunk ends); a raw trace is not cut (its programs
 * are small, its loops end with the TNT bits).
 */
#define BUNDLE_TRACE_MAX 1024

static const struct { uint16_t family; uint8_t model, stepping; } cpus[] = {
	{ 0, 0, 0 }, { 6, 85, 4 }, { 6, 61, 0 }, { 6, 142, 9 }, { 6, 158, 10 },
};

/*
 * The records of one decode as they came, each a struct rec and its
 * strings (compared as bytes; a text line each only for the report: on
 * every record under ASan, vsnprintf took a tenth of the harness's time),
 * and the summary's lines.
 */
struct recs {
	uint8_t *buf;
	size_t len, cap;
	char *txt;
	size_t tlen, tcap;
};

struct rec {
	uint64_t ts_ns, addr, offset;
	double value;
	int32_t pid, tid, type, kind;
	uint32_t cpu, depth, flags;
	uint16_t len[3];	/* name, object, detail: bytes + 1, 0 for NULL */
};

static struct recs serial, parallel;

static void *room(void **p, size_t *cap, size_t need)
{
	if (need > *cap) {
		*cap = need * 2 + 4096;
		*p = realloc(*p, *cap);
		if (!*p)
			abort();
	}
	return *p;
}

static void recs_add(struct recs *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	room((void **)&r->txt, &r->tcap, r->tlen + (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(r->txt + r->tlen, (size_t)n + 1, fmt, ap);
	va_end(ap);
	r->tlen += (size_t)n;
}

static int rec_add(void *ctx, const struct pts_tl_rec *r, struct pts_err *err)
{
	const char *str[3] = { r->name, r->object, r->detail };
	struct recs *out = ctx;
	struct rec b;
	size_t i, need = sizeof(b);

	memset(&b, 0, sizeof(b));	/* the padding too: records compare as bytes */
	b.ts_ns = r->ts_ns;
	b.addr = r->addr;
	b.offset = r->offset;
	b.value = r->value;
	b.pid = r->pid;
	b.tid = r->tid;
	b.type = r->type;
	b.kind = r->kind;
	b.cpu = r->cpu;
	b.depth = r->depth;
	b.flags = r->flags;
	for (i = 0; i < 3; i++) {
		size_t n = str[i] ? strnlen(str[i], UINT16_MAX - 1) : 0;

		b.len[i] = str[i] ? (uint16_t)(n + 1) : 0;
		need += n;
	}
	room((void **)&out->buf, &out->cap, out->len + need);
	memcpy(out->buf + out->len, &b, sizeof(b));
	out->len += sizeof(b);
	for (i = 0; i < 3; i++) {
		if (b.len[i] > 1)
			memcpy(out->buf + out->len, str[i], b.len[i] - 1u);
		out->len += b.len[i] ? b.len[i] - 1u : 0;
	}
	return fuzz_emit(NULL, r, err);
}

/* Bytes of the record at p (struct rec and its strings). */
static size_t rec_size(const uint8_t *p)
{
	struct rec b;
	size_t i, n = sizeof(b);

	memcpy(&b, p, sizeof(b));
	for (i = 0; i < 3; i++)
		n += b.len[i] ? b.len[i] - 1u : 0;
	return n;
}

/* Record number k at p as a line on stderr, after who. */
static void rec_print(const char *who, uint64_t k, const uint8_t *p)
{
	const char *str[3];
	struct rec b;
	size_t i, at = sizeof(b);
	int len[3];

	memcpy(&b, p, sizeof(b));
	for (i = 0; i < 3; i++) {
		str[i] = b.len[i] ? (const char *)p + at : "-";
		len[i] = b.len[i] ? (int)b.len[i] - 1 : 1;
		at += b.len[i] ? b.len[i] - 1u : 0;
	}
	fprintf(stderr, "%s%llu: t%d k%d ts %llu %d/%d cpu %u d %u f %#x %.*s %.*s %#llx+%#llx "
		"%.*s %g\n", who, (unsigned long long)k, b.type, b.kind,
		(unsigned long long)b.ts_ns, b.pid, b.tid, b.cpu, b.depth, b.flags, len[0], str[0],
		len[1], str[1], (unsigned long long)b.addr, (unsigned long long)b.offset, len[2],
		str[2], b.value);
}

static void sum_lines(struct recs *out, int rc, const struct pts_decode_summary *s)
{
	unsigned int k;

	/* not s->blocks: where libipt cuts blocks depends on where a decoder synchronised */
	recs_add(out, "rc %d insns %llu branches %llu events %llu gaps %llu elided %llu "
		 "threads %zu\n", rc, (unsigned long long)s->insns, (unsigned long long)s->branches,
		 (unsigned long long)s->events, (unsigned long long)s->gaps,
		 (unsigned long long)s->elided, s->nr_threads);
	for (k = 0; k < sizeof(s->by_event) / sizeof(s->by_event[0]); k++)
		recs_add(out, "event %u: %llu\n", k, (unsigned long long)s->by_event[k]);
	for (k = 0; k < PTS_TLD_NR; k++)
		recs_add(out, "diagnostic %u: %llu\n", k, (unsigned long long)s->diag[k]);
	for (k = 0; k < s->nr_causes; k++)
		recs_add(out, "cause %s: %llu\n", s->causes[k].cause,
			 (unsigned long long)s->causes[k].count);
}

static const char *bundle_dir(void)
{
	static const char *const links[] = { "manifest.json", "sideband.bin", "objects", "vdso",
					     "ground-truth.txt" };
	static char dir[512];
	char link[600];
	size_t i;

	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "%s/pardec.ptscope", fuzz_dir());
	if (mkdir(dir, 0755))
		abort();
	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		char target[600];

		snprintf(link, sizeof(link), "%s/%s", dir, links[i]);
		snprintf(target, sizeof(target), "%s/%s", FUZZ_SAMPLE, links[i]);
		if (symlink(target, link))
			abort();
	}
	return dir;
}

static void raw_opts(struct pts_decode_opts *o, const uint8_t *data, size_t size)
{
	size_t n = sizeof(cpus) / sizeof(cpus[0]), split = size - 4;

	o->scope = (enum pts_scope)((data[0] >> 5) & 3);
	o->family = cpus[data[3] % n].family;
	o->model = cpus[data[3] % n].model;
	o->stepping = cpus[data[3] % n].stepping;
	o->mtc_freq = 3;
	o->nom_freq = 21;
	o->cpuid_15_eax = 2;
	o->cpuid_15_ebx = 168;
	o->tsc_khz = 1000000;
	o->elf[0].path = FUZZ_USER_ELF;
	o->elf[1].path = FUZZ_KERNEL_ELF;
	o->nr_elf = 2;
	o->raw[0].path = FUZZ_DATA "/spin.bin";
	o->raw[0].vaddr = 0x500000;
	o->nr_raw = 1;
	o->nr_pt = 1;
	if (data[0] & 0x80) {
		split = (size_t)(data[1] | data[2] << 8);
		if (split > size - 4)
			split = size - 4;
		o->pt[1].path = fuzz_file(1, "pardec-cpu1.pt", data + 4 + split, size - 4 - split);
		o->pt[1].cpu = 1;
		o->nr_pt = 2;
	}
	o->pt[0].path = fuzz_file(0, "pardec-cpu0.pt", data + 4, split);
	o->pt[0].cpu = 0;
}

/*
 * The orders a parallel decode is fuzzed in (pts_decode_opts: the default,
 * par_reverse, par_sink, par_workers); FLAGS: the serial decode with
 * libipt's block flags (par_flags), a block at every direct branch.
 */
enum order { POOL, REVERSE, SINK, WORKERS, FLAGS };

static void decode(const uint8_t *data, size_t size, unsigned int jobs, enum order order,
		   struct recs *out)
{
	struct pts_decode_summary sum;
	struct pts_decode_opts o;
	struct pts_err err;
	int rc;

	out->len = 0;
	out->tlen = 0;
	pts_decode_opts_init(&o);
	o.jobs = jobs;
	o.par_reverse = order == REVERSE;
	o.par_sink = order == SINK;
	o.par_workers = order == WORKERS;
	/* through direct branches, as ptscope decode runs at every -j, but FLAGS */
	o.par_flags = order == FLAGS;
	/* the harness's self-test: each join drops an event, which it must report */
	if (jobs && getenv("FUZZ_PARDEC_BREAK_JOINS"))
		o.par_break = PTS_PARDEC_BREAK_JOINS;
	o.chunk_bytes = 32u << ((data[0] >> 1) & 7);
	fuzz_sink_begin(PTS_FMT_NONE);
	if (data[0] & 1) {
		raw_opts(&o, data, size);
		rc = pts_decode_raw(&o, rec_add, out, &sum, &err);
	} else {
		const char *dir = bundle_dir();

		size_t len = size - 4 < BUNDLE_TRACE_MAX ? size - 4 : BUNDLE_TRACE_MAX;

		fuzz_file(0, "pardec.ptscope/cpu0.pt", data + 4, len);
		rc = pts_decode_bundle(dir, &o, rec_add, out, &sum, &err);
	}
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "fuzz: jobs %u%s: %s, %llu joins, %llu refused\n", jobs,
			order == REVERSE ? " reverse" : order == SINK ? " sink" :
			order == WORKERS ? " workers" : order == FLAGS ? " flags" : "",
			rc ? err.msg : "decoded",
			(unsigned long long)sum.par_joins, (unsigned long long)sum.par_refused);
	fuzz_sink_end(!rc);
	sum_lines(out, rc, &sum);
	pts_decode_summary_free(&sum);
}

static bool same(const struct recs *a, const struct recs *b)
{
	return a->len == b->len && a->tlen == b->tlen && (!a->len || !memcmp(a->buf, b->buf, a->len)) &&
	       (!a->tlen || !memcmp(a->txt, b->txt, a->tlen));
}

/*
 * The first record or summary line where parallel (the decode named by
 * @how) differs from serial; aborts.
 */
static void report(const char *how)
{
	const char *a = serial.txt, *b = parallel.txt;
	size_t i = 0, line = 0;
	uint64_t k = 1;

	fprintf(stderr, "fuzz: the decode (%s) differs from the serial one at\n", how);
	while (i < serial.len && i < parallel.len) {
		size_t n = rec_size(serial.buf + i);

		if (n != rec_size(parallel.buf + i) || memcmp(serial.buf + i, parallel.buf + i, n))
			break;
		i += n;
		k++;
	}
	if (i < serial.len || i < parallel.len) {
		if (i < serial.len)
			rec_print("serial:   ", k, serial.buf + i);
		else
			fprintf(stderr, "serial:   %llu records\n", (unsigned long long)k - 1);
		if (i < parallel.len)
			rec_print("parallel: ", k, parallel.buf + i);
		else
			fprintf(stderr, "parallel: %llu records\n", (unsigned long long)k - 1);
		abort();
	}
	for (i = 0; i < serial.tlen && i < parallel.tlen && a[i] == b[i]; i++)
		if (a[i] == '\n')
			line = i + 1;
	fprintf(stderr, "serial:   %.*s\nparallel: %.*s\n",
		(int)strcspn(a + line, "\n"), a + line, (int)strcspn(b + line, "\n"), b + line);
	abort();
}

/* The scan of buf[0, size) in one piece, from its first PSB: the answer, the held stretches in h. */
static bool cyc_whole(const uint8_t *buf, size_t size, const struct pt_errata *errata,
		      struct pts_pt_hold *h)
{
	uint64_t off = pts_pt_psb_from(buf, size, 0), prev = off;

	pts_pt_hold_init(h);
	if (pts_pt_scan_cyc(buf, size, &off, &prev, size, errata, h))
		return true;
	pts_pt_hold_end(h, size);
	return false;
}

static bool same_hold(const struct pts_pt_hold *a, const struct pts_pt_hold *b)
{
	return a->n == b->n && a->nomem == b->nomem &&
	       (!a->n || !memcmp(a->held, b->held, a->n * sizeof(a->held[0])));
}

/* The CYC scan in parts against the scan in one piece (the file's comment). */
static void cyc_parts_as_whole(const uint8_t *data, size_t size)
{
	const uint8_t *buf = data + 4;
	size_t len = size - 4, n = sizeof(cpus) / sizeof(cpus[0]);
	uint64_t split = (uint64_t)(data[1] | data[2] << 8);
	struct pts_pt_cyc_part part[2] = { { .from = 0 }, { .to = len } };
	struct pts_pt_hold whole, h;
	struct pt_errata errata;
	bool cyc, got;

	pts_pt_errata(&errata, cpus[data[3] % n].family, cpus[data[3] % n].model,
		      cpus[data[3] % n].stepping);
	cyc = cyc_whole(buf, len, &errata, &whole);
	pts_pt_hold_init(&h);
	got = pts_pt_trace_has_cyc(buf, len, false, &errata, &h);
	if (got != cyc || (!cyc && !same_hold(&h, &whole))) {
		fprintf(stderr, "fuzz: the CYC scan in parts differs from one scan\n");
		abort();
	}
	pts_pt_hold_free(&h);
	part[0].to = part[1].from = split < len ? split : len;
	pts_pt_cyc_parts_scan(buf, len, false, &errata, part, 2);
	pts_pt_hold_init(&h);
	got = pts_pt_cyc_parts_join(buf, len, false, &errata, part, 2, &h);
	pts_pt_cyc_parts_free(part, 2);
	if (got != cyc || (!cyc && !same_hold(&h, &whole))) {
		fprintf(stderr, "fuzz: the CYC scan in two parts at %llu differs from one scan\n",
			(unsigned long long)split);
		abort();
	}
	pts_pt_hold_free(&h);
	pts_pt_hold_free(&whole);
}

/*
 * The serial decode with the block flags compared too: 1 (0 only while a
 * finding of that comparison is open, as finding 28 was: docs/fuzzing.md)
 */
#define FLAGS_AGAINST_THROUGH 1

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 4)
		return 0;
	cyc_parts_as_whole(data, size);
	decode(data, size, 0, POOL, &serial);
	/*
	 * The serial decode with the block flags: libipt ends its blocks at
	 * every direct branch, and the decoder's pieces of a block through
	 * them must give the same events and counts (docs/decode.md,
	 * "Blocks"; findings 24, 26 and 28).
	 */
	if (FLAGS_AGAINST_THROUGH) {
		decode(data, size, 0, FLAGS, &parallel);
		if (!same(&serial, &parallel))
			report("serial, libipt's block flags");
	}
	/* -j 2 or 3: the calling thread decoding chunks beside 1 or 2 workers */
	decode(data, size, data[0] & 0x10 ? 3 : 2, POOL, &parallel);
	if (!same(&serial, &parallel))
		report(data[0] & 0x10 ? "3 threads" : "2 threads");
	/* 2 or 3 workers, the calling thread handing out only (the schedule before the sixteenth round) */
	decode(data, size, data[0] & 0x10 ? 3 : 2, WORKERS, &parallel);
	if (!same(&serial, &parallel))
		report(data[0] & 0x10 ? "3 worker threads" : "2 worker threads");
	/*
	 * Each chunk decoded after the ones behind it, in this thread: the
	 * libipt block cache the decoders share is then filled in an order
	 * threads take only now and then (pardec_opts.h, reverse)
	 */
	decode(data, size, 2, REVERSE, &parallel);
	if (!same(&serial, &parallel))
		report("chunks in reverse order");
	/*
	 * Every chunk decoded by this thread into the merge's sink, joined
	 * before it is decoded (pardec_opts.h, self, with no worker), every
	 * join between two such chunks: the path of finding 23
	 */
	decode(data, size, 2, SINK, &parallel);
	if (!same(&serial, &parallel))
		report("chunks decoded into the sink");
	return 0;
}
