// SPDX-License-Identifier: GPL-2.0
/*
 * Writing a capture bundle (docs/bundle-format.md) from a stopped
 * session: per-CPU rings linearised oldest first, the sideband, process
 * maps and vdso bytes, kernel text from /proc/kcore with kallsyms and the
 * module list, the mapped executables (or their build-ids), CPU identity,
 * timing inputs, the exact configuration and RTIT values, per-CPU status
 * and time-correlation pairs. Data files first, manifest last; whatever
 * cannot be written marks the bundle incomplete with the reason.
 */
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include <ptscope/rtit.h>

#include "../bundle/ring.h"
#include "../util/version.h"
#include "device.h"
#include "elfinfo.h"
#include "filter_scope.h"
#include "kernel.h"
#include "ktext_hash.h"
#include "ktext_plan.h"
#include "procfs.h"
#include "sbmerge.h"

#define PTS_PRODUCER "ptscope " PTS_VERSION

struct writer {
	struct pts_capture *c;
	const char *dir;
	struct pts_bundle *b;
	bool aborted;
};

static bool aborting(struct writer *w)
{
	if (!w->aborted && w->c->abort_flag && *w->c->abort_flag >= 2) {
		w->aborted = true;
		if (w->b->complete) {
			w->b->complete = false;
			snprintf(w->b->incomplete_reason, sizeof(w->b->incomplete_reason),
				 "aborted by a second Ctrl-C while writing");
		}
	}
	return w->aborted;
}

/* First failure wins the incomplete_reason; all go to the summary. */
static void incomplete(struct writer *w, const char *what, const struct pts_err *e)
{
	if (w->b->complete) {
		w->b->complete = false;
		snprintf(w->b->incomplete_reason, sizeof(w->b->incomplete_reason), "%.80s: %.170s",
			 what, e->msg);
	}
	pts_capture_error(w->c, "%.80s: %.170s", what, e->msg);
}

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

static struct pts_bundle_map *maps_dup(const struct pts_bundle_map *m, size_t n)
{
	struct pts_bundle_map *v;
	size_t i;

	if (!n)
		return NULL;
	v = calloc(n, sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < n; i++) {
		v[i] = m[i];
		v[i].path = xstrdup(m[i].path ? m[i].path : "");
	}
	return v;
}

/* The maps read while armed, per program, as processes[].maps_exec. */
static void maps_exec_dup(struct pts_bundle_process *bp, const struct pts_capture_proc *p)
{
	size_t k;

	if (!p->nr_maps_seen)
		return;
	bp->maps_exec = calloc(p->nr_maps_seen, sizeof(*bp->maps_exec));
	if (!bp->maps_exec)
		return;
	for (k = 0; k < p->nr_maps_seen; k++) {
		struct pts_bundle_maps_exec *x = &bp->maps_exec[bp->nr_maps_exec];

		x->maps = maps_dup(p->maps_seen[k].maps, p->maps_seen[k].nr_maps);
		if (!x->maps)
			continue;
		x->nr_maps = p->maps_seen[k].nr_maps;
		x->exec_tsc = p->maps_seen[k].exec_tsc;
		bp->nr_maps_exec++;
	}
}

static void fill_cpu_id(struct pts_bundle *b, const struct ptscope_caps *caps)
{
	struct pts_bundle_cpu_id *id = &b->cpu_id;

	memcpy(id->vendor, caps->vendor, sizeof(id->vendor));
	id->vendor[sizeof(id->vendor) - 1] = '\0';
	id->family = caps->family;
	id->model = caps->model;
	id->stepping = caps->stepping;
	id->max_phys_addr = caps->max_phys_addr;
	memcpy(id->cpuid_14_0, caps->cpuid_14_0, sizeof(id->cpuid_14_0));
	memcpy(id->cpuid_14_1, caps->cpuid_14_1, sizeof(id->cpuid_14_1));
	memcpy(id->cpuid_15, caps->cpuid_15, sizeof(id->cpuid_15));
	id->nom_freq = caps->nom_freq;
	id->tsc_khz = caps->tsc_khz;
}

static void fill_config(struct pts_bundle *b, const struct pts_capture *c,
			const struct ptscope_state *st)
{
	const struct ptscope_config *cfg = &c->o->cfg;
	struct pts_bundle_config *bc = &b->config;
	uint32_t i;

	bc->scope = (enum pts_scope)cfg->scope;
	bc->snapshot = cfg->mode == PTSCOPE_MODE_SNAPSHOT;
	bc->rtit_ctl = st->rtit_ctl;		/* exactly what the module wrote */
	bc->cr3_match = st->cr3_match;
	bc->nr_addr = cfg->nr_addr_ranges;
	for (i = 0; i < cfg->nr_addr_ranges && i < PTSCOPE_MAX_ADDR_RANGES; i++) {
		bc->addr[i].a = st->addr_a[i];
		bc->addr[i].b = st->addr_b[i];
		bc->addr[i].cfg = cfg->addr[i].cfg;
	}
	bc->buffer_size = cfg->buffer_size;
	bc->filter_pid = (cfg->flags & PTSCOPE_CFG_CR3_FILTER) ? cfg->cr3_pid : 0;
	/* as given, cut at the manifest field's size (a long uprobe path) */
	snprintf(bc->trigger_spec, sizeof(bc->trigger_spec), "%.*s",
		 (int)sizeof(bc->trigger_spec) - 1, c->o->trigger_text);
	bc->post_trigger_us = cfg->trigger.post_trigger_us;
	bc->cr3_partial = !!(st->flags & PTSCOPE_STATEF_CR3_PARTIAL);
	bc->syscall_records = !!(cfg->flags & PTSCOPE_CFG_SYSREC);
}

static void add_time_pair(struct pts_bundle *b, const char *when, uint64_t tsc,
			  uint64_t rt, uint64_t mono)
{
	struct pts_bundle_time_pair *v;

	if (!tsc)
		return;
	v = realloc(b->time_pairs, (b->nr_time_pairs + 1) * sizeof(*v));
	if (!v)
		return;
	b->time_pairs = v;
	memset(&v[b->nr_time_pairs], 0, sizeof(*v));
	snprintf(v[b->nr_time_pairs].when, sizeof(v->when), "%s", when);
	v[b->nr_time_pairs].tsc = tsc;
	v[b->nr_time_pairs].realtime_ns = rt;
	v[b->nr_time_pairs].monotonic_ns = mono;
	b->nr_time_pairs++;
}

/* A pair read here, in user space: rdtsc between two clock reads. */
static void add_user_time_pair(struct pts_bundle *b)
{
	struct timespec rt, mono;
	uint64_t tsc;

	clock_gettime(CLOCK_MONOTONIC, &mono);
	tsc = __rdtsc();
	clock_gettime(CLOCK_REALTIME, &rt);
	add_time_pair(b, "write", tsc, (uint64_t)rt.tv_sec * 1000000000ULL + (uint64_t)rt.tv_nsec,
		      (uint64_t)mono.tv_sec * 1000000000ULL + (uint64_t)mono.tv_nsec);
}

static void fill_trigger(struct pts_bundle *b, struct pts_capture *c,
			 const struct ptscope_state *st)
{
	struct pts_bundle_trigger *t = &b->trigger;

	t->cpu = t->pid = t->tid = -1;
	if (st->trigger_reason != PTSCOPE_TRIGGER_NONE) {
		/* the module saw it: its reason, place and time are exact */
		snprintf(t->reason, sizeof(t->reason), "%s",
			 pts_trigger_reason_text(st->trigger_reason));
		if (st->trigger_reason == PTSCOPE_TRIGGER_TRACEPOINT)
			snprintf(t->detail, sizeof(t->detail), "%s", c->o->cfg.trigger.tracepoint);
		else if (st->trigger_reason == PTSCOPE_TRIGGER_IOCTL)
			snprintf(t->detail, sizeof(t->detail), "ptscope trigger");
		else if (st->trigger_reason == PTSCOPE_TRIGGER_UPROBE)
			snprintf(t->detail, sizeof(t->detail), "%.*s",
				 (int)sizeof(t->detail) - 1, c->o->uprobe_symbol);
		t->tsc = st->trigger_tsc;
		t->cpu = (int32_t)st->trigger_cpu;
		t->pid = st->trigger_pid;
		t->tid = st->trigger_tid;
	} else {
		snprintf(t->reason, sizeof(t->reason), "%s",
			 c->trig_reason[0] ? c->trig_reason : "none");
		snprintf(t->detail, sizeof(t->detail), "%s", c->trig_detail);
		t->tsc = st->time_at_stop.tsc;
	}
}

static uint32_t cpu_flags(uint32_t f)
{
	uint32_t out = 0;

	if (f & PTSCOPE_CPUF_ERROR)
		out |= PTS_CPUF_ERROR;
	if (f & PTSCOPE_CPUF_STOPPED)
		out |= PTS_CPUF_STOPPED;
	if (f & PTSCOPE_CPUF_CLOBBERED)
		out |= PTS_CPUF_CLOBBERED;
	if (f & PTSCOPE_CPUF_OFFLINED)
		out |= PTS_CPUF_OFFLINED;
	if (f & PTSCOPE_CPUF_MSR_FAULT)
		out |= PTS_CPUF_MSR_FAULT;
	if (f & PTSCOPE_CPUF_CONFLICT)
		out |= PTS_CPUF_CONFLICT;
	if (f & PTSCOPE_CPUF_TRACESTOP)
		out |= PTS_CPUF_TRACESTOP;
	if (f & PTSCOPE_CPUF_VMX)
		out |= PTS_CPUF_VMX;
	return out;
}

static void write_cpus(struct writer *w, const struct ptscope_state *st)
{
	struct pts_capture *c = w->c;
	struct pts_bundle *b = w->b;
	const __u64 *mask = c->o->cfg.cpu_mask;
	uint32_t cpu;

	b->cpus = calloc(pts_cpu_mask_count(mask) + 1, sizeof(*b->cpus));
	if (!b->cpus)
		return;
	for (cpu = 0; cpu < PTSCOPE_MAX_CPUS; cpu++) {
		struct ptscope_cpu_status cs;
		struct pts_bundle_cpu *bc;
		struct iovec iov[2];
		struct pts_err e;
		const void *ring;
		char what[64];
		int n;

		if (!(mask[cpu / 64] & (1ULL << (cpu % 64))))
			continue;
		if (aborting(w))
			return;
		snprintf(what, sizeof(what), "cpu%u.pt", cpu);
		if (pts_dev_get_cpu_status(c->fd, cpu, &cs, &e)) {
			incomplete(w, what, &e);
			continue;
		}
		bc = &b->cpus[b->nr_cpus];
		memset(bc, 0, sizeof(*bc));
		bc->cpu = cpu;
		snprintf(bc->file, sizeof(bc->file), "%s", what);
		bc->buffer_size = cs.buffer_size;
		bc->head = cs.head;
		bc->rtit_status = cs.rtit_status;
		bc->flags = cpu_flags(cs.flags);
		/* RTIT_STATUS read at stop says it too (SDM 33.2.8.4) */
		if (cs.rtit_status & RTIT_STATUS_ERROR)
			bc->flags |= PTS_CPUF_ERROR;
		if (cs.rtit_status & RTIT_STATUS_STOPPED)
			bc->flags |= PTS_CPUF_STOPPED;
		bc->start_tsc = cs.start_tsc;
		bc->stop_tsc = cs.stop_tsc;
		if (!cs.buffer_size) {
			/* selected but never allocated (offline at configure) */
			pts_capture_error(c, "CPU %u has no buffer (offline at arm?)", cpu);
			continue;
		}
		ring = pts_dev_map_cpu(c->fd, cpu, cs.buffer_size, &e);
		if (!ring) {
			incomplete(w, what, &e);
			continue;
		}
		/* the module's wrap count first; the byte test catches the rest */
		bc->wrapped = (cs.flags & PTSCOPE_CPUF_WRAPPED) ||
			      pts_ring_wrapped(ring, cs.buffer_size, cs.head, cs.wrap_count);
		n = pts_ring_iov(ring, cs.buffer_size, cs.head, bc->wrapped, iov);
		if (n < 0) {
			pts_err_set(&e, EINVAL, "head %" PRIu64 " beyond the ring of %" PRIu64
				    " bytes", (uint64_t)cs.head, (uint64_t)cs.buffer_size);
			incomplete(w, what, &e);
		} else if (pts_bundle_write_filev(w->dir, what, iov, n, &e)) {
			incomplete(w, what, &e);
		} else {
			bc->size = pts_ring_linear_size(cs.buffer_size, cs.head, bc->wrapped);
			b->nr_cpus++;
		}
		munmap((void *)ring, cs.buffer_size);
	}
}

static void write_sideband(struct writer *w, const struct ptscope_state *st)
{
	struct pts_capture *c = w->c;
	struct pts_err e;
	long long merged;

	if (pts_capture_drain_sideband(c, &e))
		pts_capture_error(c, "sideband: %s", e.msg);
	w->b->sideband_lost = c->sb_lost > st->sideband_lost ? c->sb_lost : st->sideband_lost;
	if (aborting(w))
		return;
	/* the module's per-CPU streams as one, in TSC order (docs/abi.md) */
	merged = c->sb ? pts_sb_merge(c->sb, c->sb_len) : 0;
	if (merged < 0)
		pts_capture_error(c, "sideband: out of memory merging the CPUs' records: "
				  "written as read, not in TSC order");
	else if ((size_t)merged < c->sb_len)
		pts_capture_error(c, "sideband: a damaged record at byte %lld: the records "
				  "from there on are not merged", merged);
	if (pts_bundle_write_file(w->dir, "sideband.bin", c->sb ? (const void *)c->sb : "",
				  c->sb_len, &e)) {
		incomplete(w, "sideband.bin", &e);
		return;
	}
	w->b->sideband_file = strdup("sideband.bin");
	w->b->sideband_size = c->sb_len;
}

static void write_processes(struct writer *w)
{
	struct pts_capture *c = w->c;
	struct pts_bundle *b = w->b;
	size_t i;

	b->processes = calloc(c->nr_procs + 1, sizeof(*b->processes));
	if (!b->processes)
		return;
	for (i = 0; i < c->nr_procs; i++) {
		const struct pts_capture_proc *p = &c->procs[i];
		struct pts_bundle_process *bp;

		/* record: only processes the sideband named (or the target) */
		if (!c->target ? !p->seen : p->pid != c->target)
			continue;
		if (aborting(w))
			return;
		bp = &b->processes[b->nr_processes++];
		bp->pid = p->pid;
		memcpy(bp->comm, p->comm, sizeof(bp->comm));
		bp->exe = xstrdup(p->exe);
		bp->maps_arm = maps_dup(p->maps_arm, p->nr_maps_arm);
		bp->nr_maps_arm = bp->maps_arm ? p->nr_maps_arm : 0;
		bp->maps_trigger = maps_dup(p->maps_trigger, p->nr_maps_trigger);
		bp->nr_maps_trigger = bp->maps_trigger ? p->nr_maps_trigger : 0;
		maps_exec_dup(bp, p);
		if (p->nr_tids) {
			bp->tids = malloc(p->nr_tids * sizeof(*bp->tids));
			if (bp->tids) {
				memcpy(bp->tids, p->tids, p->nr_tids * sizeof(*bp->tids));
				bp->nr_tids = p->nr_tids;
			}
		}
		if (p->vdso) {
			char name[64];
			struct pts_err e;

			snprintf(name, sizeof(name), "vdso/%d.so", (int)p->pid);
			if (pts_bundle_write_file(w->dir, name, p->vdso, p->vdso_len, &e)) {
				incomplete(w, name, &e);
			} else {
				bp->vdso_file = strdup(name);
				bp->vdso_addr = p->vdso_addr;
			}
		}
	}
}

static void add_ktext(struct writer *w, const char *name, const char *file,
		      uint64_t vaddr, uint64_t size, uint32_t crc)
{
	struct pts_bundle *b = w->b;
	struct pts_bundle_ktext *v = realloc(b->ktext, (b->nr_ktext + 1) * sizeof(*v));

	if (!v)
		return;
	b->ktext = v;
	memset(&v[b->nr_ktext], 0, sizeof(*v));
	snprintf(v[b->nr_ktext].name, sizeof(v->name), "%s", name);
	v[b->nr_ktext].file = strdup(file);
	v[b->nr_ktext].vaddr = vaddr;
	v[b->nr_ktext].size = size;
	v[b->nr_ktext].has_crc32 = true;
	v[b->nr_ktext].crc32 = crc;
	b->nr_ktext++;
}

/* Copy /proc text file src into the bundle as name; returns the bytes or -1. */
static int copy_proc_file(struct writer *w, const char *src, const char *name,
			  char **text, size_t *len)
{
	struct pts_err e;

	if (pts_read_file(src, text, len, &e)) {
		incomplete(w, name, &e);
		return -1;
	}
	if (pts_bundle_write_file(w->dir, name, *text, *len, &e)) {
		incomplete(w, name, &e);
		free(*text);
		*text = NULL;
		return -1;
	}
	return 0;
}

/*
 * Copy one range of kernel code. Code outside the text sections (BPF,
 * trampolines, kprobe slots) that cannot be read is said, and the bundle
 * stays complete (a decode shows a gap there, as it would without the
 * copy); vmlinux or module text that cannot be read makes it incomplete.
 */
static void ktext_copy(struct writer *w, struct pts_kcore *kc, const struct pts_ktext_range *r)
{
	struct pts_err e;
	uint64_t len;
	void *buf;

	if (pts_ktext_read(kc, r, &buf, &len, &e)) {
		if (r->extra)
			pts_capture_error(w->c, "kernel code %s at 0x%" PRIx64 " not copied: %s",
					  r->name, r->vaddr, e.msg);
		else
			incomplete(w, r->file, &e);
		return;
	}
	if (pts_bundle_write_file(w->dir, r->file, buf, len, &e))
		incomplete(w, r->file, &e);
	else
		add_ktext(w, r->name, r->file, r->vaddr, len, pts_ktext_crc32(buf, len));
	free(buf);
}

/*
 * Compare the copies with the code hashed at arm (ktext_hash.h), and keep
 * the copies' hashes as the next window's arm hashes (a re-arm follows
 * the bundle at once).
 */
static void ktext_changes(struct writer *w)
{
	struct pts_capture *c = w->c;
	struct pts_ktext_sum *v;
	size_t i;

	if (c->kt_arm && pts_ktext_compare(w->b, c->kt_arm, c->nr_kt_arm))
		return;
	v = calloc(w->b->nr_ktext ? w->b->nr_ktext : 1, sizeof(*v));
	if (!v)
		return;
	for (i = 0; i < w->b->nr_ktext; i++) {
		memcpy(v[i].name, w->b->ktext[i].name, sizeof(v[i].name));
		v[i].vaddr = w->b->ktext[i].vaddr;
		v[i].size = w->b->ktext[i].size;
		v[i].crc32 = w->b->ktext[i].crc32;
	}
	free(c->kt_arm);
	c->kt_arm = v;
	c->nr_kt_arm = w->b->nr_ktext;
}

static void write_kernel(struct writer *w)
{
	struct pts_ktext_range *plan = NULL;
	char *ks = NULL, *mt = NULL;
	size_t kslen = 0, mtlen = 0, np = 0, i;
	struct pts_kcore *kc = NULL;
	struct pts_err e;

	if (aborting(w))
		return;
	if (pts_read_file(pts_ktext_live.kallsyms, &ks, &kslen, &e)) {
		incomplete(w, "kernel/kallsyms", &e);
	} else if (pts_kallsyms_zeroed(ks, kslen)) {
		/* one symbol at 0 for the whole kernel would name everything wrong */
		char why[160];

		/* the same reader of an int, for either sysctl */
		pts_kallsyms_hidden_why(pts_kptr_restrict("/proc/sys/kernel/kptr_restrict"),
					pts_kptr_restrict("/proc/sys/kernel/perf_event_paranoid"),
					why, sizeof(why));
		pts_err_set(&e, EACCES, "every address reads as 0 (%s): no kernel "
			    "names or text in the bundle; decode with --kallsyms, --kcore or "
			    "--vmlinux", why);
		incomplete(w, "kernel/kallsyms", &e);
		free(ks);
		ks = NULL;
	} else if (pts_bundle_write_file(w->dir, "kernel/kallsyms", ks, kslen, &e)) {
		incomplete(w, "kernel/kallsyms", &e);
		free(ks);
		ks = NULL;
	} else {
		w->b->kallsyms_file = strdup("kernel/kallsyms");
	}
	if (!copy_proc_file(w, pts_ktext_live.modules, "kernel/modules", &mt, &mtlen)) {
		w->b->modules_file = strdup("kernel/modules");
	}
	if (pts_kcore_open(pts_ktext_live.kcore, &kc, &e)) {
		incomplete(w, "kernel text", &e);
		goto out;
	}
	if (!ks || pts_ktext_plan(ks, kslen, mt, mtlen, &pts_ktext_live.src, &plan, &np, &e)) {
		if (ks)
			incomplete(w, "kernel text range", &e);
		goto out;
	}
	for (i = 0; i < np && !aborting(w); i++)
		ktext_copy(w, kc, &plan[i]);
	if (!aborting(w))
		ktext_changes(w);
out:
	pts_kcore_close(kc);
	free(plan);
	free(ks);
	free(mt);
}

/*
 * The simulated PT unit traces a 40-byte user code image that no process
 * maps; the module publishes it in sysfs and it belongs at this address
 * in the process the capture is about (docs/simulated-unit.md, "The code
 * images"). A simulated capture carries it as an object plus a map line
 * in each process, so a decoder needs nothing special to find the code.
 */
#define PTS_SIM_USER_CODE	"/sys/module/ptscope/sim_user_code"
#define PTS_SIM_USER_BASE	0x7f5100000000ULL

static void append_map(struct pts_bundle_map **maps, size_t *nr, const struct pts_bundle_map *m)
{
	struct pts_bundle_map *v = realloc(*maps, (*nr + 1) * sizeof(*v));

	if (!v)
		return;
	v[*nr] = *m;
	v[*nr].path = strdup(m->path);
	if (!v[*nr].path) {
		*maps = v;
		return;
	}
	*maps = v;
	(*nr)++;
}

static void write_sim_user_code(struct writer *w)
{
	static const char name[] = "objects" PTS_SIM_USER_CODE;
	struct pts_bundle *b = w->b;
	struct pts_bundle_object *v;
	struct pts_bundle_map m;
	struct pts_err e;
	const char *src;
	char *code;
	size_t len, i;

	if (b->source != PTS_SOURCE_SIMULATED_UNIT || w->c->o->cfg.scope == PTSCOPE_SCOPE_KERNEL)
		return;
	/* $PTSCOPE_SIM_USER_CODE: another source file, for tests without the module */
	src = getenv("PTSCOPE_SIM_USER_CODE");
	if (!src || !*src)
		src = PTS_SIM_USER_CODE;
	if (pts_read_file(src, &code, &len, &e)) {
		pts_capture_error(w->c, "simulated unit's user code image: %s", e.msg);
		return;
	}
	if (pts_bundle_write_file(w->dir, name, code, len, &e)) {
		incomplete(w, name, &e);
		free(code);
		return;
	}
	free(code);
	v = realloc(b->objects, (b->nr_objects + 1) * sizeof(*v));
	if (!v)
		return;
	b->objects = v;
	memset(&v[b->nr_objects], 0, sizeof(*v));
	v[b->nr_objects].path = strdup(PTS_SIM_USER_CODE);
	v[b->nr_objects].file = strdup(name);
	v[b->nr_objects].size = len;
	b->nr_objects++;

	memset(&m, 0, sizeof(m));
	m.start = PTS_SIM_USER_BASE;
	m.end = PTS_SIM_USER_BASE + 4096;
	memcpy(m.perms, "r-xp", 5);
	m.path = (char *)PTS_SIM_USER_CODE;
	for (i = 0; i < b->nr_processes; i++) {
		struct pts_bundle_process *p = &b->processes[i];
		size_t k;

		append_map(&p->maps_arm, &p->nr_maps_arm, &m);
		if (p->nr_maps_trigger)
			append_map(&p->maps_trigger, &p->nr_maps_trigger, &m);
		/* the unit's code is in every address space, also after an exec */
		for (k = 0; k < p->nr_maps_exec; k++)
			append_map(&p->maps_exec[k].maps, &p->maps_exec[k].nr_maps, &m);
	}
	/*
	 * The unit emits its user rounds whatever task is current, mostly the
	 * idle task (pid 0), which has no maps of its own: give it the image
	 * too, so those rounds decode instead of becoming gaps.
	 */
	for (i = 0; i < b->nr_processes && b->processes[i].pid != 0; i++)
		;
	if (i == b->nr_processes) {
		struct pts_bundle_process *np;

		np = realloc(b->processes, (b->nr_processes + 1) * sizeof(*np));
		if (!np)
			return;
		b->processes = np;
		np = &b->processes[b->nr_processes];
		memset(np, 0, sizeof(*np));
		snprintf(np->comm, sizeof(np->comm), "swapper");
		append_map(&np->maps_arm, &np->nr_maps_arm, &m);
		b->nr_processes++;
	}
}

static bool object_known(const struct pts_bundle *b, const char *path)
{
	size_t i;

	for (i = 0; i < b->nr_objects; i++)
		if (!strcmp(b->objects[i].path, path))
			return true;
	return false;
}

/*
 * The file mapping m of process pid maps, open for copying (procfs.h,
 * pts_proc_open_mapped: the mapped file itself, or the path in the
 * process's mount namespace checked against the maps line's inode), else,
 * the process being gone, the path here if it is still the mapped inode.
 * A file replaced since it was mapped, or not reachable, is not copied
 * (its bytes would decode another program): -1, with why in why.
 */
static int open_object(int32_t pid, const struct pts_bundle_map *m, char *why, size_t len)
{
	struct pts_err e = { 0 };
	struct stat st;
	int fd = pid > 0 ? pts_proc_open_mapped(pid, m, &e) : -ENOENT;

	if (fd >= 0 || fd == -ESTALE || strstr(m->path, " (deleted)")) {
		if (fd < 0)
			snprintf(why, len, "%.250s", e.msg[0] ? e.msg : "deleted while mapped");
		return fd < 0 ? -1 : fd;
	}
	fd = open(m->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "cannot open %s: %s", m->path, strerror(errno));
		return -1;
	}
	if (m->inode && (fstat(fd, &st) || st.st_ino != m->inode)) {
		snprintf(why, len, "%s is not the file mapped (inode %llu, mapped inode %llu): "
			 "replaced since it was mapped", m->path, (unsigned long long)st.st_ino,
			 (unsigned long long)m->inode);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * A mapped file the capture could not read: recorded without a copy, size
 * or build-id, with why (the bundle is still complete: the trace is all
 * there; that file's code decodes as gaps unless --sysroot gives it).
 */
static void add_not_copied(struct writer *w, const char *path, const char *why)
{
	struct pts_bundle *b = w->b;
	struct pts_bundle_object *v, *o;

	v = realloc(b->objects, (b->nr_objects + 1) * sizeof(*v));
	if (!v)
		return;
	b->objects = v;
	o = &v[b->nr_objects];
	memset(o, 0, sizeof(*o));
	o->path = strdup(path);
	if (!o->path)
		return;
	snprintf(o->not_copied, sizeof(o->not_copied), "%s", why);
	b->nr_objects++;
}

static void add_object(struct writer *w, int32_t pid, const struct pts_bundle_map *m)
{
	struct pts_bundle *b = w->b;
	struct pts_bundle_object *v, *o;
	const char *path = m->path;
	struct pts_err e;
	struct stat stt;
	char name[4200], src[32], why[256];
	int fd;

	if (!path || path[0] != '/' || object_known(b, path))
		return;
	fd = open_object(pid, m, why, sizeof(why));
	if (fd < 0) {
		add_not_copied(w, path, why);
		return;
	}
	if (fstat(fd, &stt) || !S_ISREG(stt.st_mode)) {
		close(fd);
		return;
	}
	/* the open file by name: its path may hold another file by now */
	snprintf(src, sizeof(src), "/proc/self/fd/%d", fd);
	v = realloc(b->objects, (b->nr_objects + 1) * sizeof(*v));
	if (!v) {
		close(fd);
		return;
	}
	b->objects = v;
	o = &v[b->nr_objects];
	memset(o, 0, sizeof(*o));
	o->path = strdup(path);
	o->size = (uint64_t)stt.st_size;
	if (pts_elf_build_id(src, o->build_id, &e))
		o->build_id[0] = '\0';
	b->nr_objects++;
	if (!w->c->o->no_copy) {
		snprintf(name, sizeof(name), "objects%s", path);
		if (pts_bundle_copy_file(w->dir, name, src, NULL, &e))
			incomplete(w, name, &e);
		else
			o->file = strdup(name);
	}
	close(fd);
}

static void write_objects(struct writer *w)
{
	struct pts_bundle *b = w->b;
	size_t i, j, k;

	for (i = 0; i < b->nr_processes && !aborting(w); i++) {
		const struct pts_bundle_process *p = &b->processes[i];

		for (j = 0; j < p->nr_maps_trigger && !aborting(w); j++)
			if (p->maps_trigger[j].perms[2] == 'x')
				add_object(w, p->pid, &p->maps_trigger[j]);
		for (j = 0; j < p->nr_maps_arm && !aborting(w); j++)
			if (p->maps_arm[j].perms[2] == 'x')
				add_object(w, p->pid, &p->maps_arm[j]);
		/* the programs before an exec, and what was unmapped before the trigger */
		for (k = 0; k < p->nr_maps_exec && !aborting(w); k++)
			for (j = 0; j < p->maps_exec[k].nr_maps && !aborting(w); j++)
				if (p->maps_exec[k].maps[j].perms[2] == 'x')
					add_object(w, p->pid, &p->maps_exec[k].maps[j]);
	}
}

int pts_tsc_to_wallclock(const struct pts_bundle *b, uint64_t tsc, char *buf, size_t len)
{
	const struct pts_bundle_time_pair *p = NULL;
	uint64_t ns, khz = b->tsc_khz ? b->tsc_khz : b->cpu_id.tsc_khz;
	struct tm tm;
	time_t sec;
	size_t i;

	for (i = 0; i < b->nr_time_pairs; i++)
		if (!strcmp(b->time_pairs[i].when, "start"))
			p = &b->time_pairs[i];
	if (!p || !khz || tsc < p->tsc)
		return -EINVAL;
	/* ticks / (kHz * 1000) seconds = ticks * 10^6 / kHz nanoseconds */
	ns = p->realtime_ns + (uint64_t)((unsigned __int128)(tsc - p->tsc) * 1000000u / khz);
	sec = (time_t)(ns / 1000000000u);
	if (!localtime_r(&sec, &tm))
		return -EINVAL;
	i = strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
	if (!i)
		return -EINVAL;
	snprintf(buf + i, len - i, ".%06llu", (unsigned long long)(ns % 1000000000u / 1000));
	return 0;
}

static void print_summary(const struct pts_capture *c, const struct pts_bundle *b,
			  const char *dir, FILE *out)
{
	size_t i;
	char sz[32];

	fprintf(out, "ptscope: bundle %s%s\n", dir, b->complete ? "" : " (INCOMPLETE)");
	fprintf(out, "  source    %s\n", pts_source_name(b->source));
	for (i = 0; i < b->nr_cpus; i++) {
		const struct pts_bundle_cpu *bc = &b->cpus[i];

		pts_format_size(bc->buffer_size, sz, sizeof(sz));
		fprintf(out, "  cpu%-3u    %10" PRIu64 " bytes of %s%s%s%s\n", bc->cpu, bc->size, sz,
			bc->wrapped ? ", wrapped (oldest data overwritten)" : ", not wrapped",
			bc->flags & PTS_CPUF_ERROR ? ", RTIT_STATUS.Error" : "",
			bc->flags & PTS_CPUF_CLOBBERED ? ", RTIT_CTL clobbered" : "");
	}
	fprintf(out, "  sideband  %" PRIu64 " bytes, %" PRIu64 " records lost%s", b->sideband_size,
		b->sideband_lost,
		b->sideband_lost ? " (use --sideband-size to enlarge each CPU's ring)" : "");
	if (c->sb_folded)
		fprintf(out, ", %" PRIu64 " older records folded (--sideband-keep)", c->sb_folded);
	fputc('\n', out);
	fprintf(out, "  trigger   %s%s%s%s", b->trigger.reason, b->trigger.detail[0] ? " (" : "",
		b->trigger.detail, b->trigger.detail[0] ? ")" : "");
	if (b->trigger.tsc) {
		char when[48];

		fprintf(out, " at TSC %" PRIu64, b->trigger.tsc);
		if (!pts_tsc_to_wallclock(b, b->trigger.tsc, when, sizeof(when)))
			fprintf(out, " (%s)", when);
	}
	if (b->trigger.cpu >= 0)
		fprintf(out, " on CPU %d", b->trigger.cpu);
	if (b->trigger.pid > 0)
		fprintf(out, " in pid %d tid %d", b->trigger.pid, b->trigger.tid);
	fprintf(out, "\n");
	fprintf(out, "  processes %zu, objects %zu%s, kernel text %zu\n", b->nr_processes,
		b->nr_objects, c->o->no_copy ? " (not copied: --no-copy)" : "", b->nr_ktext);
	{
		char kt[512];

		if (pts_bundle_ktext_change_text(b, kt, sizeof(kt)))
			fprintf(out, "  warning   kernel code changed during the capture (hashed at "
				"arm and at the end; the bundle has it as at the end): %s\n", kt);
	}
	{
		char fr[400];

		/* said at arm too, but that line scrolled away during the capture */
		if (pts_bundle_filters_outside_scope(&b->config, fr, sizeof(fr)))
			fprintf(out, "  warning   %s: nothing inside it was traced\n", fr);
	}
	if (!b->complete)
		fprintf(out, "  incomplete: %s\n", b->incomplete_reason);
	/* what is lost and what to do, once per file (the bundle records each) */
	for (i = 0; i < b->nr_objects; i++)
		if (b->objects[i].not_copied[0])
			fprintf(out, "  warning   %s not copied (%s): its code decodes as gaps "
				"([unknown]); to decode it, give --sysroot DIR with the original file "
				"at 'DIR%s' (--sysroot / once it is back in place)\n",
				b->objects[i].path, b->objects[i].not_copied, b->objects[i].path);
	for (i = 0; i < c->nr_errors; i++)
		fprintf(out, "  error     %s\n", c->errors[i]);
}

void pts_capture_decode_hint(const char *dir, char *buf, size_t len)
{
	size_t n = strlen(dir);
	const char *suf = ".ptscope";
	size_t sl = strlen(suf);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n > sl && !strncmp(dir + n - sl, suf, sl))
		snprintf(buf, len, "ptscope decode %.*s -o %.*s.fxt", (int)n, dir,
			 (int)(n - sl), dir);
	else
		snprintf(buf, len, "ptscope decode %.*s -o %.*s.fxt", (int)n, dir, (int)n, dir);
}

int pts_capture_write_bundle(struct pts_capture *c, const char *dir, bool *complete,
			     FILE *out, struct pts_err *err)
{
	struct ptscope_state st;
	struct utsname un;
	struct writer w;
	struct pts_err e;
	int ret;

	if (mkdir(dir, 0755))
		return pts_err_set(err, errno, "cannot create the bundle directory %s: %s%s",
				   dir, strerror(errno),
				   errno == EEXIST ? " (choose another -o name)" : "");
	memset(&w, 0, sizeof(w));
	w.c = c;
	w.dir = dir;
	w.b = pts_bundle_new();
	if (!w.b)
		return pts_err_set(err, ENOMEM, "out of memory");
	w.b->source = (c->caps.flags & PTSCOPE_CAPS_SIMULATED) ? PTS_SOURCE_SIMULATED_UNIT
							       : PTS_SOURCE_HARDWARE;
	snprintf(w.b->producer, sizeof(w.b->producer), "%s", PTS_PRODUCER);
	if (!uname(&un)) {
		snprintf(w.b->hostname, sizeof(w.b->hostname), "%.63s", un.nodename);
		snprintf(w.b->kernel_release, sizeof(w.b->kernel_release), "%s", un.release);
	}
	fill_cpu_id(w.b, &c->caps);
	if (pts_dev_get_state(c->fd, &st, &e)) {
		/* without the RTIT values the trace cannot be decoded faithfully */
		incomplete(&w, "GET_STATE", &e);
		memset(&st, 0, sizeof(st));
	}
	if (st.flags & PTSCOPE_STATEF_SIMULATED)
		w.b->source = PTS_SOURCE_SIMULATED_UNIT;
	fill_config(w.b, c, &st);
	w.b->tsc_khz = st.tsc_khz ? st.tsc_khz : c->caps.tsc_khz;
	add_time_pair(w.b, "start", st.time_at_start.tsc, st.time_at_start.realtime_ns,
		      st.time_at_start.monotonic_ns);
	add_time_pair(w.b, "stop", st.time_at_stop.tsc, st.time_at_stop.realtime_ns,
		      st.time_at_stop.monotonic_ns);
	add_user_time_pair(w.b);
	fill_trigger(w.b, c, &st);

	write_cpus(&w, &st);
	write_sideband(&w, &st);
	write_processes(&w);
	if (c->o->cfg.scope != PTSCOPE_SCOPE_USER)
		write_kernel(&w);
	write_sim_user_code(&w);	/* before write_objects: it owns that path */
	write_objects(&w);

	ret = pts_bundle_write_manifest(dir, w.b, err);
	if (ret) {
		fprintf(out, "ptscope: %s: the manifest could not be written (%s): %s is NOT a "
			"usable bundle\n", dir, err->msg, dir);
	} else {
		print_summary(c, w.b, dir, out);
		if (w.b->nr_cpus) {
			char hint[8500];

			pts_capture_decode_hint(dir, hint, sizeof(hint));
			fprintf(out, "next: %s\n", hint);
		}
	}
	if (complete)
		*complete = !ret && w.b->complete;
	pts_bundle_free(w.b);
	return ret;
}
