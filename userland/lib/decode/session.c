// SPDX-License-Identifier: GPL-2.0
/* A whole decode: inputs -> decoders -> time merge -> timeline builder. */
#include "session.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "image.h"
#include "kcore.h"
#include "perfscript.h"
#include "ptdec.h"
#include "sideband.h"
#include "timeconv.h"

void pts_decode_opts_init(struct pts_decode_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->scope = PTS_SCOPE_USER;
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

static int read_file(const char *path, uint8_t **buf, size_t *len, struct pts_err *err)
{
	FILE *f = fopen(path, "rb");
	long sz;

	if (!f)
		return pts_err_set(err, errno, "cannot open trace file %s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (sz = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return pts_err_set(err, EIO, "cannot read %s", path);
	}
	*len = (size_t)sz;
	*buf = malloc(*len ? *len : 1);
	if (!*buf) {
		fclose(f);
		return pts_err_set(err, ENOMEM, "out of memory reading %s", path);
	}
	if (fread(*buf, 1, *len, f) != *len) {
		free(*buf);
		fclose(f);
		return pts_err_set(err, EIO, "cannot read %s", path);
	}
	fclose(f);
	return 0;
}

static int finish_summary(struct pts_tl *tl, struct pts_decode_summary *sum, struct pts_err *err)
{
	size_t i, n = pts_tl_nr_threads(tl);
	int d;

	for (d = 0; d < PTS_TLD_NR; d++)
		sum->diag[d] = pts_tl_diag_count(tl, (enum pts_tl_diag)d);
	sum->threads = calloc(n ? n : 1, sizeof(*sum->threads));
	if (!sum->threads)
		return pts_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		pts_tl_thread_stats(tl, i, &sum->threads[i]);
		if (sum->threads[i].name)
			sum->threads[i].name = strdup(sum->threads[i].name);
	}
	sum->nr_threads = n;
	return 0;
}

/* Executable file mappings of the sideband, found under sysroot. */
static int add_sideband_maps(struct pts_imgset *set, const struct pts_sideband *sb,
			     const char *sysroot, struct pts_err *err)
{
	size_t i;

	for (i = 0; i < sb->n; i++) {
		const struct pts_sb_rec *r = &sb->recs[i];
		char path[4096];
		struct pts_err e2;
		int rc;

		if (r->type != PTS_SB_MMAP || !r->name || r->name[0] != '/')
			continue;
		if (r->prot && !(r->prot & PROT_EXEC))
			continue;
		snprintf(path, sizeof(path), "%s%s", sysroot, r->name);
		rc = pts_imgset_add_file(set, r->pid, path, r->pgoff, r->len, r->start, r->name,
					 NULL, &e2);
		if (rc == -ERANGE) {
			/* the mapping may run past the file's end: map what exists */
			FILE *f = fopen(path, "rb");
			long sz = -1;

			if (f && !fseek(f, 0, SEEK_END))
				sz = ftell(f);
			if (f)
				fclose(f);
			if (sz > (long)r->pgoff)
				rc = pts_imgset_add_file(set, r->pid, path, r->pgoff,
							 (uint64_t)sz - r->pgoff, r->start, r->name,
							 NULL, &e2);
		}
		if (rc && rc != -ENOENT && rc != -ERANGE)
			return pts_err_set(err, rc, "%s", e2.msg);
		/* a missing file: its code becomes gaps ("no memory mapped") */
	}
	return 0;
}

int pts_decode_raw(const struct pts_decode_opts *o, pts_tl_emit_fn emit, void *emit_ctx,
		   struct pts_decode_summary *sum, struct pts_err *err)
{
	struct pts_ptdec *dec[PTS_DEC_MAX_INPUTS] = { 0 };
	uint8_t *bufs[PTS_DEC_MAX_INPUTS] = { 0 };
	size_t lens[PTS_DEC_MAX_INPUTS] = { 0 };
	struct pts_sideband sb = { 0 };
	struct pts_imgset *set = NULL;
	struct pts_timeconv tc = { 0 };
	struct pts_tl *tl = NULL;
	struct pts_tl_config tcfg;
	uint64_t origin = UINT64_MAX;
	unsigned int i;
	int rc;

	memset(sum, 0, sizeof(*sum));
	sum->scope = o->scope;
	sum->source = "raw PT files (origin of the bytes not recorded)";
	if (!o->nr_pt)
		return pts_err_set(err, EINVAL, "no trace given: use --pt FILE (or a bundle)");
	rc = pts_imgset_new(&set, err);
	if (rc)
		return rc;
	for (i = 0; i < o->nr_elf && !rc; i++)
		rc = pts_imgset_add_elf(set, PTS_PID_ALL, o->elf[i].path, o->elf[i].base, err);
	for (i = 0; i < o->nr_raw && !rc; i++) {
		FILE *f = fopen(o->raw[i].path, "rb");
		long sz = -1;

		if (f && !fseek(f, 0, SEEK_END))
			sz = ftell(f);
		if (f)
			fclose(f);
		if (sz < 0 || (uint64_t)sz < o->raw[i].offset)
			rc = pts_err_set(err, ENOENT, "--raw %s: cannot read it, or offset past its end",
					 o->raw[i].path);
		else
			rc = pts_imgset_add_file(set, PTS_PID_ALL, o->raw[i].path, o->raw[i].offset,
						 (uint64_t)sz - o->raw[i].offset, o->raw[i].vaddr,
						 NULL, NULL, err);
	}
	if (!rc && o->kcore_dir)
		rc = pts_kcore_add(set, o->kcore_dir, err);
	if (!rc && o->kallsyms)
		rc = pts_imgset_add_kallsyms(set, o->kallsyms, err);
	for (i = 0; i < o->nr_pevent && !rc; i++)
		rc = pts_pevent_load(&sb, o->pevent[i], o->pevent_sample_type, err);
	if (rc)
		goto out;
	pts_sb_sort(&sb);
	if (o->sysroot) {
		rc = add_sideband_maps(set, &sb, o->sysroot, err);
		if (rc)
			goto out;
	}

	if (o->have_perf_time) {
		tc.mode = PTS_TC_PERF;
		tc.time_shift = o->time_shift;
		tc.time_mult = o->time_mult;
		tc.time_zero = o->time_zero;
	} else if (o->tsc_khz) {
		tc.mode = PTS_TC_KHZ;
		tc.tsc_khz = o->tsc_khz;
	} else if (o->nom_freq) {
		/* invariant TSC runs at the nominal (max non-turbo) ratio x 100 MHz */
		tc.mode = PTS_TC_KHZ;
		tc.tsc_khz = (uint64_t)o->nom_freq * 100000;
	}

	for (i = 0; i < o->nr_pt; i++) {
		uint64_t tsc;

		rc = read_file(o->pt[i].path, &bufs[i], &lens[i], err);
		if (rc)
			goto out;
		if (!pts_pt_first_tsc(bufs[i], lens[i], &tsc) && pts_tc_ns(&tc, tsc) < origin)
			origin = pts_tc_ns(&tc, tsc);
	}
	if (origin == UINT64_MAX)
		origin = 0;

	memset(&tcfg, 0, sizeof(tcfg));
	tcfg.scope = o->scope;
	tcfg.symbolize = pts_imgset_symbolize;
	tcfg.sym_ctx = set;
	tcfg.emit = emit;
	tcfg.emit_ctx = emit_ctx;
	tcfg.segment_cap = o->segment_cap;
	rc = pts_tl_new(&tcfg, &tl, err);
	if (rc)
		goto out;
	/* without sideband each CPU is one track: pid 0, tid = CPU */
	for (i = 0; i < o->nr_pt && !rc && !o->nr_pevent && o->pid < 0; i++) {
		char name[32];

		snprintf(name, sizeof(name), "cpu %u", o->pt[i].cpu);
		rc = pts_tl_set_name(tl, 0, (int32_t)o->pt[i].cpu, name, err);
	}
	for (i = 0; i < sb.n && !rc; i++)
		if (sb.recs[i].type == PTS_SB_COMM && sb.recs[i].name)
			rc = pts_tl_set_name(tl, sb.recs[i].pid, sb.recs[i].tid, sb.recs[i].name,
					     err);
	if (rc)
		goto out;

	for (i = 0; i < o->nr_pt; i++) {
		struct pts_ptdec_config dc;

		memset(&dc, 0, sizeof(dc));
		dc.buf = bufs[i];
		dc.size = lens[i];
		dc.cpu = o->pt[i].cpu;
		dc.family = o->family;
		dc.model = o->model;
		dc.stepping = o->stepping;
		dc.mtc_freq = o->mtc_freq;
		dc.nom_freq = o->nom_freq;
		dc.cpuid_15_eax = o->cpuid_15_eax;
		dc.cpuid_15_ebx = o->cpuid_15_ebx;
		dc.images = set;
		dc.tc = tc;
		dc.origin_ns = origin;
		dc.sb = &sb;
		/* no sideband thread yet: one track per CPU (pid 0, tid = CPU) */
		dc.pid = o->pid >= 0 ? o->pid : 0;
		dc.tid = o->tid >= 0 ? o->tid : (o->pid >= 0 ? o->pid : (int32_t)o->pt[i].cpu);
		dc.on_insn = o->on_insn;
		dc.insn_ctx = o->insn_ctx;
		rc = pts_ptdec_new(&dc, &dec[i], err);
		if (rc)
			goto out;
	}

	for (;;) {
		struct pts_branch br;
		uint64_t best = UINT64_MAX, t;
		int bi = -1;

		/* the CPU whose next event is earliest; ties: lowest index */
		for (i = 0; i < o->nr_pt; i++) {
			t = pts_ptdec_peek_time(dec[i]);
			if (t < best) {
				best = t;
				bi = (int)i;
			}
		}
		if (bi < 0)
			break;
		if (!pts_ptdec_next(dec[bi], &br))
			continue;
		if (br.kind == PTS_BR_GAP)
			pts_decode_summary_gap(sum, br.detail);
		rc = pts_tl_feed(tl, &br, err);
		if (rc)
			goto out;
	}
	rc = pts_tl_finish(tl, err);
	if (rc)
		goto out;
	for (i = 0; i < o->nr_pt; i++) {
		struct pts_ptdec_stats st;

		pts_ptdec_stats(dec[i], &st);
		sum->insns += st.insns;
		sum->blocks += st.blocks;
		sum->branches += st.branches;
		sum->events += st.events;
		sum->errata_unknown |= st.errata_unknown;
	}
	rc = finish_summary(tl, sum, err);
out:
	for (i = 0; i < PTS_DEC_MAX_INPUTS; i++) {
		pts_ptdec_free(dec[i]);
		free(bufs[i]);
	}
	pts_tl_free(tl);
	pts_sb_free(&sb);
	pts_imgset_free(set);
	return rc;
}

struct ps_ctx {
	struct pts_tl *tl;
	struct pts_decode_summary *sum;
};

static int ps_feed(void *ctx, const struct pts_branch *br, struct pts_err *err)
{
	struct ps_ctx *c = ctx;

	if (br->kind == PTS_BR_GAP)
		pts_decode_summary_gap(c->sum, br->detail);
	else
		c->sum->branches++;
	return pts_tl_feed(c->tl, br, err);
}

int pts_decode_perfscript(const char *path, enum pts_scope scope, pts_tl_emit_fn emit,
			  void *emit_ctx, struct pts_decode_summary *sum, struct pts_err *err)
{
	struct pts_perfscript_stats st;
	struct pts_tl_config tcfg;
	struct pts_tl *tl = NULL;
	struct ps_ctx c;
	FILE *f;
	int rc;

	memset(sum, 0, sizeof(*sum));
	sum->scope = scope;
	sum->source = "perf script text (decoded by perf from a recording elsewhere)";
	f = fopen(path, "re");
	if (!f)
		return pts_err_set(err, errno, "cannot open perf script file %s: %s", path,
				   strerror(errno));
	memset(&tcfg, 0, sizeof(tcfg));
	tcfg.scope = scope;
	tcfg.emit = emit;
	tcfg.emit_ctx = emit_ctx;
	rc = pts_tl_new(&tcfg, &tl, err);
	if (rc) {
		fclose(f);
		return rc;
	}
	c.tl = tl;
	c.sum = sum;
	rc = pts_perfscript_parse(f, ps_feed, &c, &st, err);
	fclose(f);
	if (!rc)
		rc = pts_tl_finish(tl, err);
	if (!rc)
		rc = finish_summary(tl, sum, err);
	sum->perfscript_skipped = st.skipped;
	pts_tl_free(tl);
	return rc;
}

void pts_decode_summary_print(FILE *f, const struct pts_decode_summary *s)
{
	unsigned int i;
	size_t t;
	int d;

	fprintf(f, "source: %s\n", s->source ? s->source : "unknown");
	fprintf(f, "scope: %s\n", s->scope == PTS_SCOPE_KERNEL ? "kernel" :
		s->scope == PTS_SCOPE_BOTH ? "both" : "user");
	fprintf(f, "instructions: %" PRIu64 "\n", s->insns);
	fprintf(f, "branches: %" PRIu64 "\n", s->branches);
	fprintf(f, "gaps: %" PRIu64 "\n", s->gaps);
	for (i = 0; i < s->nr_causes; i++)
		fprintf(f, "  %" PRIu64 " x %s\n", s->causes[i].count, s->causes[i].cause);
	if (s->errata_unknown)
		fprintf(f, "note: libipt knows no errata for this CPU model (decoded without errata workarounds)\n");
	if (s->perfscript_skipped)
		fprintf(f, "note: %" PRIu64 " perf script lines not understood (skipped)\n",
			s->perfscript_skipped);
	for (d = 0; d < PTS_TLD_NR; d++)
		if (s->diag[d])
			fprintf(f, "diagnostic: %" PRIu64 " x %s\n", s->diag[d],
				pts_tl_diag_name((enum pts_tl_diag)d));
	fprintf(f, "threads: %zu\n", s->nr_threads);
	for (t = 0; t < s->nr_threads; t++) {
		const struct pts_tl_thread_stats *th = &s->threads[t];

		fprintf(f, "  %d/%d %s: %" PRIu64 " ns traced (%" PRIu64 " .. %" PRIu64
			" ns), %" PRIu64 " calls, %" PRIu64 " gaps\n",
			th->pid, th->tid, th->name ? th->name : "-", th->last_ns - th->first_ns,
			th->first_ns, th->last_ns, th->calls, th->gaps);
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
