// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness: the parallel decode (session/pardec.h) against the serial
 * one. pardec.h promises exactly the serial decoder's events, so the same
 * trace is decoded with jobs 0, then with worker threads and small
 * chunks, then with the chunks decoded last first in the calling thread
 * (the pool's reverse option, pardec_opts.h), and the record streams and
 * summaries (the instruction count among them) must be equal; the first
 * difference aborts. The input is 4 option bytes, then the
 * trace of CPU 0:
 *   [0] bit 0: raw mode (else bundle mode); bits 1-3: chunk bytes
 *       32 << n; bit 4: 3 workers (else 2); bits 5-6: scope (raw mode);
 *       bit 7: two CPUs, the trace split at [1..2] (raw mode)
 *   [3] CPU model (raw mode)
 * Bundle mode decodes the shipped sample (FUZZ_SAMPLE) with the input as
 * its cpu0.pt: its code, sideband and timing make the decoder run the
 * sample's program. Raw mode decodes as fuzz_raw_pt.c, over
 * tests/golden/decode/user.S and kernel.S (FUZZ_DATA).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "session/session.h"

#ifndef FUZZ_SAMPLE
#define FUZZ_SAMPLE "samples/demo.ptscope"
#endif

static const struct { uint16_t family; uint8_t model, stepping; } cpus[] = {
	{ 0, 0, 0 }, { 6, 85, 4 }, { 6, 61, 0 }, { 6, 142, 9 }, { 6, 158, 10 },
};

/* The records of one decode, one text line each. */
struct recs {
	char *buf;
	size_t len, cap;
	uint64_t n;
};

static struct recs serial, parallel;

static void recs_add(struct recs *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		if (r->cap - r->len < 2) {
			r->cap = r->cap * 2 + 4096;
			r->buf = realloc(r->buf, r->cap);
			if (!r->buf)
				abort();
		}
		va_start(ap, fmt);
		n = vsnprintf(r->buf + r->len, r->cap - r->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			abort();
		if ((size_t)n < r->cap - r->len)
			break;
		r->cap = r->cap * 2 + (size_t)n + 256;
		r->buf = realloc(r->buf, r->cap);
		if (!r->buf)
			abort();
	}
	r->len += (size_t)n;
}

static int rec_line(void *ctx, const struct pts_tl_rec *r, struct pts_err *err)
{
	struct recs *out = ctx;

	out->n++;
	recs_add(out, "%llu: t%d k%d ts %llu %d/%d cpu %u d %u f %#x %s %s %#llx+%#llx %s %g\n",
		 (unsigned long long)out->n, r->type, r->kind, (unsigned long long)r->ts_ns,
		 r->pid, r->tid, r->cpu, r->depth, r->flags, r->name ? r->name : "-",
		 r->object ? r->object : "-", (unsigned long long)r->addr,
		 (unsigned long long)r->offset, r->detail ? r->detail : "-", r->value);
	return fuzz_emit(NULL, r, err);
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

static void decode(const uint8_t *data, size_t size, unsigned int jobs, bool reverse,
		   struct recs *out)
{
	struct pts_decode_summary sum;
	struct pts_decode_opts o;
	struct pts_err err;
	int rc;

	out->len = 0;
	out->n = 0;
	if (out->buf)
		out->buf[0] = 0;
	pts_decode_opts_init(&o);
	o.jobs = jobs;
	o.par_reverse = reverse;
	o.chunk_bytes = 32u << ((data[0] >> 1) & 7);
	fuzz_sink_begin(PTS_FMT_NONE);
	if (data[0] & 1) {
		raw_opts(&o, data, size);
		rc = pts_decode_raw(&o, rec_line, out, &sum, &err);
	} else {
		const char *dir = bundle_dir();

		fuzz_file(0, "pardec.ptscope/cpu0.pt", data + 4, size - 4);
		rc = pts_decode_bundle(dir, &o, rec_line, out, &sum, &err);
	}
	if (rc && getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "fuzz: jobs %u: %s\n", jobs, err.msg);
	fuzz_sink_end(!rc);
	sum_lines(out, rc, &sum);
	pts_decode_summary_free(&sum);
}

static void report(void)
{
	const char *a = serial.buf, *b = parallel.buf;
	size_t i = 0, line = 0;

	while (a[i] && a[i] == b[i])
		if (a[i++] == '\n')
			line = i;
	fprintf(stderr, "fuzz: the parallel decode differs from the serial one at\n"
		"serial:   %.*s\nparallel: %.*s\n", (int)strcspn(a + line, "\n"), a + line,
		(int)strcspn(b + line, "\n"), b + line);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 4)
		return 0;
	decode(data, size, 0, false, &serial);
	decode(data, size, data[0] & 0x10 ? 3 : 2, false, &parallel);
	if (serial.len != parallel.len || memcmp(serial.buf, parallel.buf, serial.len))
		report();
	/*
	 * Each chunk decoded after the ones behind it, in this thread: the
	 * libipt block cache the decoders share is then filled in an order
	 * threads take only now and then (pardec_opts.h, reverse)
	 */
	decode(data, size, 2, true, &parallel);
	if (serial.len != parallel.len || memcmp(serial.buf, parallel.buf, serial.len))
		report();
	return 0;
}
