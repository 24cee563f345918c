// SPDX-License-Identifier: GPL-2.0
/* A whole decode: inputs -> decoders -> time merge -> timeline builder. */
#include "session.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../bundle/sideband.h"
#include "image.h"
#include "kcore.h"
#include "perfscript.h"
#include "ptdec.h"
#include "sideband.h"
#include "../capture/elfinfo.h"
#include "symtab.h"
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

/*
 * Map a trace file read-only with zero padding after its end: an anonymous
 * reservation one page longer than the file, the file mapped over its
 * start (bytes after the end of the file in its last page read as zero, and
 * the extra page is zero). Memory is the page cache, not a copy.
 */
static int map_trace(const char *path, uint8_t **buf, size_t *len, size_t *maplen,
		     struct pts_err *err)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct stat st;
	void *res;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return pts_err_set(err, errno, "cannot open trace file %s: %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		close(fd);
		return pts_err_set(err, errno, "cannot read %s: %s", path, strerror(errno));
	}
	*len = (size_t)st.st_size;
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
	*buf = res;
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

/* Everything one decode run needs, however it was given. */
struct run_in {
	struct pts_imgset *set;
	struct pts_sideband sb;
	unsigned int nr_pt;
	uint8_t *bufs[PTS_DEC_MAX_INPUTS];
	size_t lens[PTS_DEC_MAX_INPUTS];
	size_t maplens[PTS_DEC_MAX_INPUTS];
	uint32_t cpus[PTS_DEC_MAX_INPUTS];
	uint16_t family;
	uint8_t model, stepping, mtc_freq, nom_freq;
	uint32_t cpuid_15_eax, cpuid_15_ebx;
	struct pts_timeconv tc;
	enum pts_scope scope;
	int32_t pid, tid;
	bool per_cpu_names;
	void (*on_insn)(void *ctx, uint32_t cpu, uint64_t ip);
	void *insn_ctx;
	uint32_t segment_cap;
	FILE *progress;
};

static void run_in_free(struct run_in *in)
{
	unsigned int i;

	for (i = 0; i < PTS_DEC_MAX_INPUTS; i++)
		if (in->bufs[i])
			munmap(in->bufs[i], in->maplens[i]);
	pts_sideband_free(&in->sb);
	pts_imgset_free(in->set);
}

/* "decode: NN%" on the terminal, when the percentage moved. */
static void show_progress(const struct run_in *in, struct pts_ptdec **dec, int *shown)
{
	uint64_t done = 0, total = 0;
	unsigned int i;
	int pct;

	for (i = 0; i < in->nr_pt; i++) {
		done += pts_ptdec_done(dec[i]);
		total += in->lens[i];
	}
	pct = total ? (int)(done * 100 / total) : 100;
	if (pct == *shown)
		return;
	*shown = pct;
	fprintf(in->progress, "\rdecode: %3d%%", pct);
	fflush(in->progress);
}

static int run(struct run_in *in, pts_tl_emit_fn emit, void *emit_ctx,
	       struct pts_decode_summary *sum, struct pts_err *err)
{
	struct pts_ptdec *dec[PTS_DEC_MAX_INPUTS] = { 0 };
	struct pts_tl *tl = NULL;
	struct pts_tl_config tcfg;
	uint64_t origin = UINT64_MAX, nev = 0;
	unsigned int i;
	int rc = 0, shown = -1;

	pts_sideband_sort(&in->sb);
	for (i = 0; i < in->nr_pt; i++) {
		uint64_t tsc;

		if (!pts_pt_first_tsc(in->bufs[i], in->lens[i], &tsc) &&
		    pts_tc_ns(&in->tc, tsc) < origin)
			origin = pts_tc_ns(&in->tc, tsc);
	}
	if (origin == UINT64_MAX)
		origin = 0;

	memset(&tcfg, 0, sizeof(tcfg));
	tcfg.scope = in->scope;
	tcfg.symbolize = pts_imgset_symbolize;
	tcfg.sym_ctx = in->set;
	tcfg.emit = emit;
	tcfg.emit_ctx = emit_ctx;
	tcfg.segment_cap = in->segment_cap;
	rc = pts_tl_new(&tcfg, &tl, err);
	if (rc)
		return rc;
	/* without sideband each CPU is one track: pid 0, tid = CPU */
	for (i = 0; i < in->nr_pt && !rc && in->per_cpu_names; i++) {
		char name[32];

		snprintf(name, sizeof(name), "cpu %u", in->cpus[i]);
		rc = pts_tl_set_name(tl, 0, (int32_t)in->cpus[i], name, err);
	}
	for (i = 0; i < in->sb.n && !rc; i++)
		if (in->sb.recs[i].type == PTS_SB_COMM && in->sb.recs[i].name)
			rc = pts_tl_set_name(tl, in->sb.recs[i].pid, in->sb.recs[i].tid,
					     in->sb.recs[i].name, err);
	if (rc)
		goto out;

	for (i = 0; i < in->nr_pt; i++) {
		struct pts_ptdec_config dc;

		memset(&dc, 0, sizeof(dc));
		dc.buf = in->bufs[i];
		dc.size = in->lens[i];
		dc.padded = true;
		dc.cpu = in->cpus[i];
		dc.family = in->family;
		dc.model = in->model;
		dc.stepping = in->stepping;
		dc.mtc_freq = in->mtc_freq;
		dc.nom_freq = in->nom_freq;
		dc.cpuid_15_eax = in->cpuid_15_eax;
		dc.cpuid_15_ebx = in->cpuid_15_ebx;
		dc.images = in->set;
		dc.tc = in->tc;
		dc.origin_ns = origin;
		dc.sb = &in->sb;
		dc.pid = in->pid >= 0 ? in->pid : 0;
		dc.tid = in->tid >= 0 ? in->tid : (in->pid >= 0 ? in->pid : (int32_t)in->cpus[i]);
		dc.on_insn = in->on_insn;
		dc.insn_ctx = in->insn_ctx;
		dc.images_by_pid = in->scope == PTS_SCOPE_USER;
		rc = pts_ptdec_new(&dc, &dec[i], err);
		if (rc)
			goto out;
	}

	for (;;) {
		struct pts_branch br;
		uint64_t best = UINT64_MAX, t;
		int bi = -1;

		/* the CPU whose next event is earliest; ties: the lowest index */
		for (i = 0; i < in->nr_pt; i++) {
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
		if (in->progress && !(++nev & 0xffff))
			show_progress(in, dec, &shown);
		if (br.kind == PTS_BR_GAP)
			pts_decode_summary_gap(sum, br.detail);
		rc = pts_tl_feed(tl, &br, err);
		if (rc)
			goto out;
	}
	if (in->progress && shown >= 0)
		fprintf(in->progress, "\r%*s\r", 40, "");
	rc = pts_tl_finish(tl, err);
	if (rc)
		goto out;
	for (i = 0; i < in->nr_pt; i++) {
		struct pts_ptdec_stats st;

		pts_ptdec_stats(dec[i], &st);
		sum->insns += st.insns;
		sum->blocks += st.blocks;
		sum->branches += st.branches;
		sum->events += st.events;
		for (int k = 0; k < PTS_PTEV_MAX && k < 32; k++)
			sum->by_event[k] += st.by_event[k];
		sum->errata_unknown |= st.errata_unknown;
	}
	rc = finish_summary(tl, sum, err);
out:
	for (i = 0; i < PTS_DEC_MAX_INPUTS; i++)
		pts_ptdec_free(dec[i]);
	pts_tl_free(tl);
	return rc;
}

int pts_decode_raw(const struct pts_decode_opts *o, pts_tl_emit_fn emit, void *emit_ctx,
		   struct pts_decode_summary *sum, struct pts_err *err)
{
	struct run_in in;
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
	if (o->sysroot && pts_imgset_set_sysroot(in.set, o->sysroot))
		rc = pts_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < o->nr_elf && !rc; i++)
		rc = pts_imgset_add_elf(in.set, PTS_PID_ALL, o->elf[i].path, o->elf[i].base, err);
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
			rc = pts_imgset_add_file(in.set, PTS_PID_ALL, o->raw[i].path,
						 o->raw[i].offset, (uint64_t)sz - o->raw[i].offset,
						 o->raw[i].vaddr, NULL, NULL, err);
	}
	if (!rc && o->kcore_dir)
		rc = pts_kcore_add(in.set, o->kcore_dir, err);
	if (!rc && o->kallsyms)
		rc = pts_imgset_add_kallsyms(in.set, o->kallsyms, err);
	for (i = 0; i < o->nr_pevent && !rc; i++)
		rc = pts_pevent_load(&in.sb, o->pevent[i], o->pevent_sample_type, err);
	if (!rc && o->sysroot) {
		pts_sideband_sort(&in.sb);
		rc = add_sideband_maps(in.set, &in.sb, o->sysroot, err);
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
	for (i = 0; i < o->nr_pt && !rc; i++) {
		rc = map_trace(o->pt[i].path, &in.bufs[i], &in.lens[i], &in.maplens[i], err);
		in.cpus[i] = o->pt[i].cpu;
	}
	if (rc)
		goto out;
	in.nr_pt = o->nr_pt;
	in.family = o->family;
	in.model = o->model;
	in.stepping = o->stepping;
	in.mtc_freq = o->mtc_freq;
	in.nom_freq = o->nom_freq;
	in.cpuid_15_eax = o->cpuid_15_eax;
	in.cpuid_15_ebx = o->cpuid_15_ebx;
	in.scope = o->scope;
	in.pid = o->pid;
	in.tid = o->tid;
	in.per_cpu_names = !o->nr_pevent && o->pid < 0;
	in.on_insn = o->on_insn;
	in.insn_ctx = o->insn_ctx;
	in.segment_cap = o->segment_cap;
	in.progress = o->progress;
	rc = run(&in, emit, emit_ctx, sum, err);
out:
	run_in_free(&in);
	return rc;
}

/*
 * The user binary to read for a mapped path: the bundle's copy, else the
 * host's file (under sysroot); *build_id: the build-id recorded at capture
 * that a host file must have (NULL for a bundle copy or when none known).
 */
static char *object_file(const struct pts_bundle *b, const char *path, const char *sysroot,
			 const char **build_id)
{
	char buf[4096];
	size_t i;

	*build_id = NULL;
	for (i = 0; i < b->nr_objects; i++) {
		if (strcmp(b->objects[i].path, path))
			continue;
		if (b->objects[i].file)
			return pts_bundle_path(b, b->objects[i].file);
		*build_id = b->objects[i].build_id;
	}
	snprintf(buf, sizeof(buf), "%s%s", sysroot ? sysroot : "", path);
	return strdup(buf);
}

static long file_size(const char *path)
{
	FILE *f = path ? fopen(path, "rb") : NULL;
	long sz = -1;

	if (f && !fseek(f, 0, SEEK_END))
		sz = ftell(f);
	if (f)
		fclose(f);
	return sz;
}

static void warn(struct pts_decode_summary *sum, const char *msg)
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

static int bundle_images(const struct pts_bundle *b, struct pts_imgset *set, const char *sysroot,
			 struct pts_decode_summary *sum, struct pts_err *err)
{
	size_t i, j;
	int rc = 0;

	for (i = 0; i < b->nr_ktext && !rc; i++) {
		char *path = pts_bundle_path(b, b->ktext[i].file);

		if (!path)
			return pts_err_set(err, ENOMEM, "out of memory");
		rc = pts_imgset_add_file(set, PTS_PID_ALL, path, 0, b->ktext[i].size,
					 b->ktext[i].vaddr,
					 !strcmp(b->ktext[i].name, "vmlinux") ? "[kernel.kallsyms]" :
					 b->ktext[i].name, NULL, err);
		free(path);
	}
	if (!rc && b->kallsyms_file) {
		char *path = pts_bundle_path(b, b->kallsyms_file);

		rc = path ? pts_imgset_add_kallsyms(set, path, err) :
			    pts_err_set(err, ENOMEM, "out of memory");
		free(path);
	}
	for (i = 0; i < b->nr_processes && !rc; i++) {
		const struct pts_bundle_process *p = &b->processes[i];
		const struct pts_bundle_map *maps = p->nr_maps_trigger ? p->maps_trigger : p->maps_arm;
		size_t n = p->nr_maps_trigger ? p->nr_maps_trigger : p->nr_maps_arm;

		for (j = 0; j < n && !rc; j++) {
			const struct pts_bundle_map *m = &maps[j];
			struct pts_err e2 = { 0 };
			const char *want_id = NULL;
			char *file;
			long sz;

			if (m->perms[2] != 'x' || !m->path || m->path[0] != '/')
				continue;
			file = object_file(b, m->path, sysroot, &want_id);
			if (!file)
				return pts_err_set(err, ENOMEM, "out of memory");
			if (want_id && want_id[0]) {
				char id[41];

				/* the host's file is not the captured one: its bytes would mislead */
				if (pts_elf_build_id(file, id, NULL) || strcmp(id, want_id)) {
					char msg[600];

					snprintf(msg, sizeof(msg),
						 "pid %d: %.200s changed since capture (build-id %.40s, captured %.40s): its code decodes as gaps",
						 p->pid, file, pts_elf_build_id(file, id, NULL) ? "none" : id,
						 want_id);
					warn(sum, msg);
					free(file);
					continue;
				}
			}
			sz = file_size(file);
			if (sz > (long)m->pgoff) {
				uint64_t len = m->end - m->start;

				/* the last page of a mapping may run past the file's end */
				if (len > (uint64_t)sz - m->pgoff)
					len = (uint64_t)sz - m->pgoff;
				rc = pts_imgset_add_file(set, p->pid, file, m->pgoff, len, m->start,
							 m->path, NULL, &e2);
			} else {
				rc = pts_err_set(&e2, ENOENT, "cannot read %s", file);
			}
			if (rc) {
				char msg[512];

				/* not fatal: that code decodes as gaps ("no memory mapped") */
				snprintf(msg, sizeof(msg), "pid %d: code of %.200s not available: %.200s",
					 p->pid, m->path, e2.msg);
				warn(sum, msg);
				rc = 0;
			}
			free(file);
		}
		if (!rc && p->vdso_file) {
			char *path = pts_bundle_path(b, p->vdso_file);
			long sz = file_size(path);

			if (sz > 0)
				rc = pts_imgset_add_file(set, p->pid, path, 0, (uint64_t)sz,
							 p->vdso_addr, "[vdso]", NULL, err);
			free(path);
		}
	}
	return rc;
}

/* ptscope sideband records (include/uapi/ptscope.h) as decoder sideband. */
static int bundle_sideband(const struct pts_bundle *b, const struct pts_timeconv *tc,
			   struct pts_sideband *sb, struct pts_decode_summary *sum,
			   struct pts_err *err)
{
	const struct ptscope_sb_hdr *h;
	struct pts_sb_reader rd;
	struct pts_err e2 = { 0 };
	void *buf = NULL;
	size_t len = 0, i;
	int rc;

	/* process names first: the sideband may not see every process start */
	for (i = 0; i < b->nr_processes; i++) {
		struct pts_sb_rec r;
		char comm[sizeof(b->processes[i].comm) + 1];

		if (!b->processes[i].comm[0])
			continue;
		snprintf(comm, sizeof(comm), "%s", b->processes[i].comm);
		memset(&r, 0, sizeof(r));
		r.type = PTS_SB_COMM;
		r.pid = r.tid = b->processes[i].pid;
		r.cpu = UINT32_MAX;
		r.name = comm;
		if (pts_sideband_add(sb, &r))
			return pts_err_set(err, ENOMEM, "out of memory");
	}
	rc = pts_sb_load(b, &buf, &len, err);
	if (rc || !buf)
		return rc;
	pts_sb_reader_init(&rd, buf, len);
	while ((rc = pts_sb_next(&rd, &h, &e2)) == 1) {
		struct pts_sb_rec r;
		char comm[PTSCOPE_COMM_LEN + 1];

		memset(&r, 0, sizeof(r));
		r.time_ns = pts_tc_ns(tc, h->tsc);
		r.cpu = h->cpu;
		if (h->type == PTSCOPE_SB_SCHED_SWITCH) {
			const struct ptscope_sb_switch *sw = (const void *)h;

			r.type = PTS_SB_SWITCH;
			r.pid = sw->next_pid;
			r.tid = sw->next_tid;
			rc = pts_sideband_add(sb, &r);
			if (!rc && sw->next_comm[0]) {
				snprintf(comm, sizeof(comm), "%.*s", PTSCOPE_COMM_LEN, sw->next_comm);
				r.type = PTS_SB_COMM;
				r.name = comm;
				rc = pts_sideband_add(sb, &r);
			}
		} else if (h->type == PTSCOPE_SB_EXEC) {
			const struct ptscope_sb_exec *ex = (const void *)h;

			snprintf(comm, sizeof(comm), "%.*s", PTSCOPE_COMM_LEN, ex->comm);
			r.type = PTS_SB_COMM;
			r.pid = ex->pid;
			r.tid = ex->tid;
			r.name = comm;
			rc = pts_sideband_add(sb, &r);
		} else {
			continue;
		}
		if (rc) {
			free(buf);
			return pts_err_set(err, ENOMEM, "out of memory");
		}
	}
	free(buf);
	if (rc < 0) {
		char msg[512];

		/* a corrupt record: what came before it is used */
		snprintf(msg, sizeof(msg), "sideband: %.400s (records before it used)", e2.msg);
		warn(sum, msg);
	}
	return 0;
}

int pts_decode_bundle(const char *dir, const struct pts_decode_opts *o, pts_tl_emit_fn emit,
		      void *emit_ctx, struct pts_decode_summary *sum, struct pts_err *err)
{
	struct pts_bundle *b = NULL;
	struct run_in in;
	size_t i;
	int rc;

	memset(sum, 0, sizeof(*sum));
	memset(&in, 0, sizeof(in));
	rc = pts_bundle_read(dir, &b, err);
	if (rc)
		return rc;
	sum->scope = b->config.scope;
	switch (b->source) {
	case PTS_SOURCE_HARDWARE:
		sum->source = "hardware (a real Intel PT unit)";
		break;
	case PTS_SOURCE_SIMULATED_UNIT:
		sum->source = "simulated PT unit of ptscope.ko (not a hardware trace)";
		break;
	case PTS_SOURCE_REFERENCE_ENCODER:
		sum->source = "reference encoder, ptsynth (not a hardware trace)";
		break;
	default:
		sum->source = "imported raw PT (origin as recorded in the bundle)";
		break;
	}
	if (!b->complete) {
		char msg[512];

		snprintf(msg, sizeof(msg), "bundle incomplete: %.250s (decoding what is there)",
			 b->incomplete_reason);
		warn(sum, msg);
	}
	if (!b->nr_cpus || b->nr_cpus > PTS_DEC_MAX_INPUTS) {
		rc = pts_err_set(err, b->nr_cpus ? E2BIG : ENOENT,
				 "%s: the bundle holds %zu CPU traces (1 to %d can be decoded)", dir,
				 b->nr_cpus, PTS_DEC_MAX_INPUTS);
		goto out;
	}
	rc = pts_imgset_new(&in.set, err);
	if (!rc && o && o->sysroot && pts_imgset_set_sysroot(in.set, o->sysroot))
		rc = pts_err_set(err, ENOMEM, "out of memory");
	for (i = 0; !rc && i < b->nr_processes; i++)
		if (b->processes[i].cr3 &&
		    pts_imgset_set_cr3(in.set, b->processes[i].pid, b->processes[i].cr3))
			rc = pts_err_set(err, ENOMEM, "out of memory");
	if (!rc)
		rc = bundle_images(b, in.set, o ? o->sysroot : NULL, sum, err);
	if (rc)
		goto out;
	in.family = (uint16_t)b->cpu_id.family;
	in.model = (uint8_t)b->cpu_id.model;
	in.stepping = (uint8_t)b->cpu_id.stepping;
	in.mtc_freq = (uint8_t)((b->config.rtit_ctl >> 14) & 0xf);	/* RTIT_CTL.MTCFreq, bits 17:14 */
	in.nom_freq = (uint8_t)b->cpu_id.nom_freq;
	in.cpuid_15_eax = b->cpu_id.cpuid_15[0];
	in.cpuid_15_ebx = b->cpu_id.cpuid_15[1];
	in.tc.tsc_khz = b->tsc_khz ? b->tsc_khz : b->cpu_id.tsc_khz;
	in.tc.mode = in.tc.tsc_khz ? PTS_TC_KHZ : PTS_TC_NONE;
	in.scope = b->config.scope;
	in.pid = o && o->pid >= 0 ? o->pid : -1;
	in.tid = o && o->tid >= 0 ? o->tid : -1;
	if (o) {
		in.on_insn = o->on_insn;
		in.insn_ctx = o->insn_ctx;
		in.segment_cap = o->segment_cap;
		in.progress = o->progress;
	}
	rc = bundle_sideband(b, &in.tc, &in.sb, sum, err);
	if (rc)
		goto out;
	in.per_cpu_names = !b->sideband_file;
	for (i = 0; i < b->nr_cpus && !rc; i++) {
		char *path = pts_bundle_path(b, b->cpus[i].file);

		if (!path) {
			rc = pts_err_set(err, ENOMEM, "out of memory");
			break;
		}
		rc = map_trace(path, &in.bufs[i], &in.lens[i], &in.maplens[i], err);
		in.cpus[i] = b->cpus[i].cpu;
		free(path);
	}
	if (rc)
		goto out;
	in.nr_pt = (unsigned int)b->nr_cpus;
	for (i = 0; i < b->nr_cpus; i++) {
		static const struct { uint32_t flag; const char *what; } f[] = {
			{ PTS_CPUF_ERROR, "RTIT_STATUS.Error was set at stop: tracing stopped on an output error, the trace may end early" },
			{ PTS_CPUF_STOPPED, "the buffer filled (RTIT_STATUS.Stopped): tracing stopped before the end of the capture" },
			{ PTS_CPUF_CLOBBERED, "RTIT_CTL was changed by someone else while tracing: the trace is partial" },
			{ PTS_CPUF_OFFLINED, "the CPU went offline while tracing" },
			{ PTS_CPUF_MSR_FAULT, "an RTIT MSR access faulted: the trace may be incomplete" },
		};
		char msg[256];
		size_t k;

		for (k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
			if (!(b->cpus[i].flags & f[k].flag))
				continue;
			snprintf(msg, sizeof(msg), "cpu %u: %s", b->cpus[i].cpu, f[k].what);
			warn(sum, msg);
		}
		if (b->cpus[i].wrapped) {
			snprintf(msg, sizeof(msg),
				 "cpu %u: the ring wrapped: older trace was overwritten, decoding starts at the first whole PSB",
				 b->cpus[i].cpu);
			warn(sum, msg);
		}
	}
	if (b->sideband_lost) {
		char msg[128];

		snprintf(msg, sizeof(msg), "%llu sideband records were lost: thread attribution may be wrong in places",
			 (unsigned long long)b->sideband_lost);
		warn(sum, msg);
	}
	rc = run(&in, emit, emit_ctx, sum, err);
out:
	run_in_free(&in);
	pts_bundle_free(b);
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
	if (s->events) {
		fprintf(f, "trace events: %" PRIu64 " (", s->events);
		for (d = 0, i = 0; d < 32; d++)
			if (s->by_event[d])
				fprintf(f, "%s%s %" PRIu64, i++ ? ", " : "", pts_ptev_name(d),
					s->by_event[d]);
		fprintf(f, ")\n");
	}
	fprintf(f, "gaps: %" PRIu64 "\n", s->gaps);
	for (i = 0; i < s->nr_causes; i++)
		fprintf(f, "  %" PRIu64 " x %s\n", s->causes[i].count, s->causes[i].cause);
	for (i = 0; i < s->nr_warnings && i < PTS_DEC_MAX_WARNINGS; i++)
		fprintf(f, "warning: %s\n", s->warnings[i]);
	if (s->nr_warnings > PTS_DEC_MAX_WARNINGS)
		fprintf(f, "warning: ... %u more\n", s->nr_warnings - PTS_DEC_MAX_WARNINGS);
	if (s->errata_unknown)
		fprintf(f, "note: libipt knows no errata for this CPU model (decoded without errata workarounds)\n");
	if (s->perfscript_skipped)
		fprintf(f, "note: %" PRIu64 " perf script lines not understood (skipped)\n",
			s->perfscript_skipped);
	for (d = 0; d < PTS_TLD_NR; d++)
		if (s->diag[d])
			fprintf(f, "diagnostic: %" PRIu64 " x %s\n", s->diag[d],
				pts_tl_diag_name((enum pts_tl_diag)d));
	for (t = 0, i = 0; t < s->nr_threads; t++)
		i += s->threads[t].events > 0;
	fprintf(f, "threads: %u\n", i);
	for (t = 0; t < s->nr_threads; t++) {
		const struct pts_tl_thread_stats *th = &s->threads[t];

		/* named by the sideband but never seen in the trace */
		if (!th->events)
			continue;

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
