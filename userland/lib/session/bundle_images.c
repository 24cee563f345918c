// SPDX-License-Identifier: GPL-2.0
/*
 * A bundle's code images: kernel text, kallsyms, and each process's user
 * code over time. A process's maps snapshots are placed in the address
 * space of the program they describe (image.h, "Address spaces over
 * time"): maps_arm before the process's first exec in the sideband,
 * maps_exec[] after the exec each names (exec_tsc 0: before the first),
 * maps_trigger after the last exec. The snapshots of one program are all
 * used, a later one winning where lines overlap, so code unmapped between
 * them (dlclose) still decodes. Every file of user code
 * is checked against what the capture recorded, once per path, and the
 * summary counts and lists them (docs/bundle-format.md 3.11, 3.14).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/param.h>

#include "../capture/elfinfo.h"
#include "../capture/kernel.h"
#include "../capture/procfs.h"
#include "../decode/buildid_cache.h"
#include "../decode/kcore.h"
#include "session_int.h"

/* strdup, noting a failure in *oom. */
static char *dup_or_oom(const char *s, bool *oom)
{
	char *d = strdup(s);

	*oom |= !d;
	return d;
}

/* What was decided about one mapped path (kept for the whole bundle). */
struct objfile {
	const char *path;	/* the maps' path (the bundle's string) */
	char *file;		/* file to read, NULL: none usable (said once) */
};

struct objcache {
	struct objfile *v;
	size_t n;
	const char *buildid_dir;	/* perf's build-id cache, NULL none */
	/* address spaces a snapshot described file code of (exec_files) */
	int32_t *spaces;
	size_t nspaces;
};

/* Note that a snapshot described file code of space. 0 or -ENOMEM. */
static int note_space(struct objcache *c, int32_t space)
{
	int32_t *n;
	size_t i;

	for (i = 0; i < c->nspaces; i++)
		if (c->spaces[i] == space)
			return 0;
	n = realloc(c->spaces, (c->nspaces + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	c->spaces = n;
	c->spaces[c->nspaces++] = space;
	return 0;
}

static bool space_noted(const struct objcache *c, int32_t space)
{
	size_t i;

	for (i = 0; i < c->nspaces; i++)
		if (c->spaces[i] == space)
			return true;
	return false;
}

static void mismatch(struct pts_decode_summary *sum, const char *path, const char *why)
{
	unsigned int i = sum->nr_mismatched++;

	if (i >= PTS_DEC_MAX_MISMATCH)
		return;
	snprintf(sum->mismatched[i].path, sizeof(sum->mismatched[i].path), "%.159s", path);
	snprintf(sum->mismatched[i].why, sizeof(sum->mismatched[i].why), "%.127s", why);
}

/*
 * Whether the host's file host is the one the capture saw (ob): the same
 * build-id, else (none recorded) the same size. 0 it is; 1 it is not (why
 * says how it differs); -1 there is no readable file at host.
 */
static int host_is_captured(const char *host, const struct pts_bundle_object *ob, char *why,
			    size_t len)
{
	long sz = pts_decode_file_size(host, NULL);
	char id[41];

	if (sz < 0)
		return -1;
	why[0] = 0;
	if (ob->build_id[0]) {
		if (pts_elf_build_id(host, id, NULL))
			snprintf(why, len, "no build-id, captured %.40s", ob->build_id);
		else if (strcmp(id, ob->build_id))
			snprintf(why, len, "build-id %.40s, captured %.40s", id, ob->build_id);
	} else if ((uint64_t)sz != ob->size) {
		snprintf(why, len, "%ld bytes, captured %" PRIu64 ", no build-id", sz, ob->size);
	}
	return why[0] ? 1 : 0;
}

/*
 * The bundle's copy of ob has another size than the manifest records (the
 * writer took the size from the copy on disk): a damaged copy of the
 * bundle, cut short or added to, whose bytes are not the captured file's.
 * None of it is read; the file is looked for on this host as an uncopied
 * one is (host, under --sysroot; checked; then perf's build-id cache
 * cache, NULL none), else its code decodes as gaps,
 * as perf decodes a trace whose dso is missing. Said either way, as a
 * damaged input (a notice: said without --summary). NULL: no file.
 */
static char *damaged_copy(const struct pts_bundle_object *ob, const char *host,
			  const char *cache, struct pts_decode_summary *sum, bool *oom)
{
	char head[400], why[128], besides[400] = "", msg[1100];
	char *cached;
	int is;

	sum->objects_damaged++;
	if (ob->copy_missing)
		snprintf(head, sizeof(head), "%.120s is missing from the bundle (a copy that did"
			 " not finish?): %.160s", ob->file, ob->path);
	else if (ob->file_size < ob->size)
		snprintf(head, sizeof(head), "%.120s: %" PRIu64 " of %" PRIu64 " bytes present "
			 "(truncated copy?): %.160s", ob->file, ob->file_size, ob->size, ob->path);
	else
		snprintf(head, sizeof(head), "%.120s: %" PRIu64 " bytes, the manifest says %" PRIu64
			 " (not the captured file): %.160s", ob->file, ob->file_size, ob->size,
			 ob->path);
	is = host_is_captured(host, ob, why, sizeof(why));
	if (!is) {
		snprintf(msg, sizeof(msg), "%s decodes with %.300s, the captured file (same %s)",
			 head, host, ob->build_id[0] ? "build-id" : "size");
		pts_decode_notice(sum, msg);
		sum->objects_checked++;
		return dup_or_oom(host, oom);
	}
	cached = pts_bic_find(cache, ob->build_id, ob->path, PTS_BIC_ELF, false);
	if (cached) {
		snprintf(msg, sizeof(msg), "%s decodes with %.300s, the captured file (perf's "
			 "build-id cache, same build-id)", head, cached);
		pts_decode_notice(sum, msg);
		sum->objects_checked++;
		return cached;
	}
	if (is > 0) {
		/* last: a notice is cut to its slot, and the summary lists it whole */
		snprintf(besides, sizeof(besides), " (%.200s is not the captured file: %s)", host,
			 why);
		mismatch(sum, host, why);
	}
	snprintf(msg, sizeof(msg), "%s decodes as gaps; copy the bundle again, or give "
		 "--sysroot DIR with the original file at 'DIR%.160s'%s", head, ob->path, besides);
	pts_decode_notice(sum, msg);
	return NULL;
}

/*
 * The captured file ob from perf's build-id cache (the capture machine's
 * cache brought over by perf archive, or this one's): the file there of
 * the build-id the capture recorded, as perf report finds a binary
 * (DSO_BINARY_TYPE__BUILD_ID_CACHE). Checked by that build-id, so used
 * as the bundle's copy would be. NULL: none there (or out of memory:
 * then the host's file is looked at as without a cache).
 */
static char *in_cache(const struct pts_bundle_object *ob, const char *cache,
		      struct pts_decode_summary *sum)
{
	char *file = ob ? pts_bic_find(cache, ob->build_id, ob->path, PTS_BIC_ELF, false) : NULL;

	if (file)
		sum->objects_checked++;
	return file;
}

/*
 * The file to read for mapped path: the bundle's copy, else the host's
 * file (under sysroot) when it is the one the capture saw: same build-id,
 * else (none recorded) same size; else, when the host's is missing or
 * another, the one of the recorded build-id in perf's build-id cache. A host file the bundle records nothing
 * about is used but said (never silently). NULL: no file to use (said);
 * *oom set when out of memory.
 */
static char *decide(const struct pts_bundle *b, const char *path, const char *sysroot,
		    const char *cache, struct pts_decode_summary *sum, bool *oom)
{
	const struct pts_bundle_object *ob = NULL;
	char host[4096], why[128], msg[512];
	char *file;
	size_t i;
	int is;

	for (i = 0; i < b->nr_objects; i++)
		if (!strcmp(b->objects[i].path, path))
			ob = &b->objects[i];
	if (ob && ob->file && ob->file_size == ob->size) {
		file = pts_bundle_path(b, ob->file);
		*oom = !file;
		if (file)
			sum->objects_copied++;
		return file;
	}
	snprintf(host, sizeof(host), "%s%s", sysroot ? sysroot : "", path);
	if (ob && ob->file)
		return damaged_copy(ob, host, cache, sum, oom);
	if (ob && ob->not_copied[0]) {
		/*
		 * The capture could not read it (deleted, replaced, unreadable):
		 * nothing to check a file against, and the file at path here
		 * may be the one that replaced it. Only a file the user names
		 * with --sysroot is used.
		 */
		sum->objects_not_copied++;
		if (sysroot && pts_decode_file_size(host, NULL) >= 0) {
			snprintf(msg, sizeof(msg), "%.120s was not copied at capture (%.120s): "
				 "%.120s (--sysroot) is used unchecked", path, ob->not_copied, host);
			pts_decode_warn(sum, msg);
			return dup_or_oom(host, oom);
		}
		snprintf(msg, sizeof(msg), "%.120s was not copied at capture: its code decodes as "
			 "gaps; give --sysroot DIR with the original file at 'DIR%.100s' (%.120s)",
			 path, path, ob->not_copied);
		pts_decode_warn(sum, msg);
		return NULL;
	}
	if (pts_decode_file_size(host, NULL) < 0) {
		file = in_cache(ob, cache, sum);
		return file ? file : dup_or_oom(host, oom);	/* not there: said when added */
	}
	if (!ob) {
		snprintf(msg, sizeof(msg), "%.200s is not in the bundle's objects: the host's file "
			 "%.200s is used unchecked (it may not be the file the capture saw)", path,
			 host);
		pts_decode_warn(sum, msg);
		sum->objects_unchecked++;
		return dup_or_oom(host, oom);
	}
	is = host_is_captured(host, ob, why, sizeof(why));
	if (is > 0 && (file = in_cache(ob, cache, sum)))
		return file;
	if (is > 0) {
		/* the host's file is not the captured one: its bytes would mislead */
		snprintf(msg, sizeof(msg), "%.200s changed since capture (%s): its code decodes "
			 "as gaps", host, why);
		pts_decode_warn(sum, msg);
		mismatch(sum, host, why);
		return NULL;
	}
	if (!is)
		sum->objects_checked++;
	return dup_or_oom(host, oom);
}

/* The decided file for path (decided on first use). -ENOMEM. */
static int objfile(struct objcache *c, const struct pts_bundle *b, const char *path,
		   const char *sysroot, struct pts_decode_summary *sum, const char **file)
{
	struct objfile *n;
	bool oom = false;
	size_t i;

	for (i = 0; i < c->n; i++) {
		if (!strcmp(c->v[i].path, path)) {
			*file = c->v[i].file;
			return 0;
		}
	}
	n = realloc(c->v, (c->n + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	c->v = n;
	n[c->n].path = path;
	n[c->n].file = decide(b, path, sysroot, c->buildid_dir, sum, &oom);
	if (oom)
		return -ENOMEM;
	*file = n[c->n++].file;
	return 0;
}

/* Map one maps line of executable file code into space. 0 or -ENOMEM. */
static int add_line(struct pts_imgset *set, int32_t pid, int32_t space, const char *file,
		    const struct pts_bundle_map *m, struct pts_decode_summary *sum)
{
	struct pts_err e2 = { 0 };
	long sz = pts_decode_file_size(file, &e2);
	int rc;

	if (sz > (long)m->pgoff) {
		uint64_t len = m->end - m->start;

		/* the last page of a mapping may run past the file's end */
		if (len > (uint64_t)sz - m->pgoff)
			len = (uint64_t)sz - m->pgoff;
		rc = pts_imgset_add_file(set, space, file, m->pgoff, len, m->start, m->path, NULL,
					 &e2);
	} else if (sz >= 0) {
		rc = pts_err_set(&e2, ERANGE, "%s is %ld bytes, the mapping starts at offset %"
				 PRIu64, file, sz, m->pgoff);
	} else {
		rc = e2.code;
	}
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		char msg[512];

		/* not fatal: that code decodes as gaps ("no memory mapped") */
		snprintf(msg, sizeof(msg), "pid %d: code of %.200s not available: %.200s", pid,
			 m->path, e2.msg);
		pts_decode_warn(sum, msg);
	}
	return 0;
}

/*
 * The vdso bytes for a [vdso] line: the process's own copy when it was
 * taken at that address, else any copy of the bundle of the line's size
 * (the kernel maps one vdso image per ABI into every process: a process
 * that exited before its vdso was read, or an earlier program of an
 * exec'd one, has the same bytes; so has a process whose copy is missing
 * from a damaged bundle). NULL none.
 */
static const struct pts_bundle_process *vdso_of(const struct pts_bundle *b,
						const struct pts_bundle_process *p,
						const struct pts_bundle_map *m)
{
	size_t i;

	if (p->vdso_file && !p->vdso_missing && p->vdso_addr == m->start &&
	    p->vdso_size == m->end - m->start)
		return p;
	for (i = 0; i < b->nr_processes; i++)
		if (b->processes[i].vdso_file && !b->processes[i].vdso_missing &&
		    b->processes[i].vdso_size == m->end - m->start)
			return &b->processes[i];
	return NULL;
}

static bool same_line(const struct pts_bundle_map *a, const struct pts_bundle_map *c)
{
	return a->start == c->start && a->end == c->end && a->pgoff == c->pgoff &&
	       a->inode == c->inode && !strcmp(a->path ? a->path : "", c->path ? c->path : "");
}

/* Whether line m is in maps[0..n). */
static bool has_line(const struct pts_bundle_map *maps, size_t n, const struct pts_bundle_map *m)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (same_line(&maps[i], m))
			return true;
	return false;
}

/*
 * Executable memory of no file (a JIT's code, a trampoline written at run
 * time): the bundle has its mapping, not its bytes, so the trace through
 * it is a gap, which libipt names "no memory mapped at this address".
 * Said once per line, naming the range, so that such a gap is not taken
 * for a missing file or a damaged trace.
 */
static void anon_code_warning(int32_t pid, const struct pts_bundle_map *m,
			      struct pts_decode_summary *sum)
{
	char msg[320];

	if (!sum)
		return;
	snprintf(msg, sizeof(msg), "pid %d: executable memory of no file at 0x%" PRIx64 "-0x%"
		 PRIx64 " (a JIT's code): its bytes are not in the capture; the trace "
		 "through it decodes as gaps (\"no memory mapped at this address\")", pid, m->start, m->end);
	pts_decode_warn(sum, msg);
}

/* One maps snapshot and the address space of the program it describes. */
struct snap {
	const struct pts_bundle_map *maps;
	size_t n;
	int32_t space;
};

/*
 * Snapshot i's executable lines into its space, oldest snapshot first:
 * a line also in a later snapshot of the same space is left to it (the
 * later one is added after and wins where lines overlap). 0 or -ENOMEM.
 */
static int add_snapshot(const struct pts_bundle *b, const struct pts_bundle_process *p,
			struct pts_imgset *set, const struct snap *sn, size_t nsn, size_t i,
			struct objcache *oc, const char *sysroot, struct pts_decode_summary *sum)
{
	size_t j, k;
	int rc = 0;

	for (j = 0; j < sn[i].n && !rc; j++) {
		const struct pts_bundle_map *m = &sn[i].maps[j];
		const char *file;
		bool later = false;

		if (m->perms[2] != 'x')
			continue;
		for (k = i + 1; k < nsn && !later; k++)
			later = sn[k].space == sn[i].space && has_line(sn[k].maps, sn[k].n, m);
		if (later)
			continue;
		if (!m->path || !m->path[0]) {
			anon_code_warning(p->pid, m, sum);
			continue;
		}
		if (!strcmp(m->path, "[vdso]")) {
			const struct pts_bundle_process *v = vdso_of(b, p, m);
			char *path = v ? pts_bundle_path(b, v->vdso_file) : NULL;

			if (v && !path)
				return -ENOMEM;
			if (path)
				rc = add_line(set, p->pid, sn[i].space, path, &(struct pts_bundle_map){
						.start = m->start, .end = m->end, .path = "[vdso]" },
					      sum);
			free(path);
			continue;
		}
		if (m->path[0] != '/')
			continue;
		rc = note_space(oc, sn[i].space) ?: objfile(oc, b, m->path, sysroot, sum, &file);
		if (!rc && file)
			rc = add_line(set, p->pid, sn[i].space, file, m, sum);
	}
	return rc;
}

/*
 * The vdso of a bundle whose process maps have no [vdso] line at its
 * address (written before the line was kept): at the recorded address.
 */
static int add_vdso_alone(const struct pts_bundle *b, const struct pts_bundle_process *p,
			  struct pts_imgset *set, int32_t space, const struct pts_bundle_map *maps,
			  size_t n, struct pts_err *err)
{
	char *path;
	long sz;
	int rc = 0;
	size_t i;

	if (!p->vdso_file || p->vdso_missing)
		return 0;
	for (i = 0; i < n; i++)
		if (maps[i].start == p->vdso_addr && maps[i].path &&
		    !strcmp(maps[i].path, "[vdso]") && p->vdso_size == maps[i].end - maps[i].start)
			return 0;
	path = pts_bundle_path(b, p->vdso_file);
	if (!path)
		return pts_err_set(err, ENOMEM, "out of memory");
	sz = pts_decode_file_size(path, NULL);
	if (sz > 0)
		rc = pts_imgset_add_file(set, space, path, 0, (uint64_t)sz, p->vdso_addr, "[vdso]",
					 NULL, err);
	free(path);
	return rc;
}

/*
 * The address space started by pid's exec at exactly time_ns, -1 when the
 * sideband has no such exec (lost, or another capture window's).
 */
static int32_t exec_space(const struct pts_imgset *set, int32_t pid, uint64_t time_ns)
{
	int32_t space = pts_imgset_space_at(set, pid, time_ns);

	return time_ns && space != pts_imgset_space_at(set, pid, time_ns - 1) ? space : -1;
}

/*
 * The address space the maps taken at arm describe: the process's first,
 * unless it exec'd before any CPU began tracing (start_ns) and the
 * program that exec started has no snapshot of its own. The sideband
 * records from CONFIGURE on, the arm snapshot is taken before it: an exec
 * between the two is rare (attach), an exec record stamped before the
 * trace from a bundle writer that records the exec it started the
 * process with is not, and there the arm snapshot is the new program's.
 */
static int32_t arm_space(const struct pts_imgset *set, const struct pts_bundle_process *p,
			 const struct pts_timeconv *tc, uint64_t start_ns)
{
	int32_t space = pts_imgset_space_at(set, p->pid, start_ns);
	size_t k;

	if (space == p->pid || (p->nr_maps_trigger &&
				space == pts_imgset_space_at(set, p->pid, UINT64_MAX)))
		return p->pid;
	for (k = 0; k < p->nr_maps_exec; k++)
		if (p->maps_exec[k].exec_tsc &&
		    pts_imgset_space_at(set, p->pid, pts_tc_ns(tc, p->maps_exec[k].exec_tsc)) ==
		    space)
			return p->pid;
	return space;
}

/* One process's user code, each snapshot in the address space of its program. */
static int process_images(const struct pts_bundle *b, const struct pts_bundle_process *p,
			  struct pts_imgset *set, const struct pts_timeconv *tc, uint64_t start_ns,
			  struct objcache *oc, const char *sysroot,
			  struct pts_decode_summary *sum, struct pts_err *err)
{
	int32_t last = pts_imgset_space_at(set, p->pid, UINT64_MAX);
	int32_t arm = arm_space(set, p, tc, start_ns);
	struct snap *sn = calloc(p->nr_maps_exec + 2, sizeof(*sn));
	const struct pts_bundle_map *vmaps;
	size_t k, n = 0, vn;
	int rc = 0;

	if (!sn)
		return pts_err_set(err, ENOMEM, "out of memory");
	if (p->vdso_file && p->vdso_missing) {
		char msg[384];

		snprintf(msg, sizeof(msg), "%.120s is missing from the bundle (a copy that did not "
			 "finish?): pid %d's vdso decodes with another process's copy of its size, "
			 "else as gaps; copy the bundle again", p->vdso_file, p->pid);
		pts_decode_notice(sum, msg);
	}
	/* in time order: at arm, read while armed (per program), at the trigger */
	sn[n++] = (struct snap){ p->maps_arm, p->nr_maps_arm, arm };
	for (k = 0; k < p->nr_maps_exec; k++) {
		const struct pts_bundle_maps_exec *x = &p->maps_exec[k];
		int32_t space = x->exec_tsc ? exec_space(set, p->pid, pts_tc_ns(tc, x->exec_tsc)) :
					      p->pid;

		/* an exec the sideband lost (or never had): nowhere to put it */
		if (space >= 0)
			sn[n++] = (struct snap){ x->maps, x->nr_maps, space };
	}
	sn[n++] = (struct snap){ p->maps_trigger, p->nr_maps_trigger, last };
	for (k = 0; k < n && !rc; k++)
		rc = add_snapshot(b, p, set, sn, n, k, oc, sysroot, sum);
	free(sn);
	if (rc)
		return pts_err_set(err, ENOMEM, "out of memory");
	/* the vdso goes with the snapshot it was read with: the trigger's, else the arm's */
	vmaps = p->nr_maps_trigger ? p->maps_trigger : p->maps_arm;
	vn = p->nr_maps_trigger ? p->nr_maps_trigger : p->nr_maps_arm;
	return add_vdso_alone(b, p, set, p->nr_maps_trigger ? last : arm, vmaps, vn, err);
}

/*
 * Each exec of the sideband starts a new address space of its process
 * (the EXEC record is written once the new program's memory is in place,
 * before it runs: its time splits the old program's code from the new).
 */
static int sideband_execs(const struct pts_sideband *sb, struct pts_imgset *set)
{
	size_t i;

	for (i = 0; i < sb->n; i++) {
		const struct pts_sb_rec *r = &sb->recs[i];

		if (r->type == PTS_SB_EXEC && r->pid > 0 &&
		    pts_imgset_add_exec(set, r->pid, r->time_ns) < 0)
			return -ENOMEM;
	}
	return 0;
}

/*
 * Kernel names from a kallsyms listing: the bundle's (given false) or
 * --kallsyms's. A bundle's listing that names nothing (no kallsyms line,
 * every address 0 under kptr_restrict) is a notice saying what to give;
 * a given one is an error, as in raw mode.
 */
static int kernel_names(struct pts_imgset *set, const char *path, bool given,
			struct pts_decode_summary *sum, struct pts_err *err)
{
	struct pts_kallsyms_stats ks;
	struct pts_err e2 = { 0 };
	int rc = pts_imgset_add_kallsyms(set, path, &ks, &e2);

	if ((rc == -EINVAL || rc == -EACCES) && !given) {
		char msg[700];

		/* the trace does not need the names: decode it, say why they are missing */
		snprintf(msg, sizeof(msg), "%.400s: kernel code is named [unknown]%s", e2.msg,
			 rc == -EACCES ? "; give --kallsyms FILE (a /proc/kallsyms read as root "
			 "with kptr_restrict below 2), --kcore DIR or --vmlinux FILE" : "");
		pts_decode_notice(sum, msg);
		return 0;
	}
	if (rc)
		return pts_err_set(err, rc, "%s", e2.msg);
	if (ks.bad)
		pts_decode_kallsyms_notice(sum, path, &ks);
	return 0;
}

/*
 * --vmlinux FILE: the kernel's ELF, moved by the difference of the
 * bundle's kallsyms _stext and the file's (KASLR); without a usable
 * kallsyms at its link addresses, said. Its code is used where the
 * bundle has no kernel text (added first, the bundle's wins), and its
 * symbols name it.
 */
static int add_vmlinux(const struct pts_bundle *b, struct pts_imgset *set, const char *vmlinux,
		       struct pts_decode_summary *sum, struct pts_err *err)
{
	uint64_t rt_s = 0, rt_e = 0, link_s = 0, size;
	char *text = NULL, *path = NULL, msg[600];
	struct pts_err e2 = { 0 };
	size_t len = 0;
	int is_pie, rc;

	if (pts_elf_symbol(vmlinux, "_stext", &link_s, &size, &is_pie, &e2))
		link_s = 0;
	path = b->kallsyms_file ? pts_bundle_path(b, b->kallsyms_file) : NULL;
	if (path && !pts_read_file(path, &text, &len, &e2) &&
	    pts_kallsyms_text_range(text, len, &rt_s, &rt_e, &e2))
		rt_s = 0;
	free(text);
	free(path);
	if (!link_s || !rt_s) {
		snprintf(msg, sizeof(msg), "--vmlinux %.300s: %s: its code is placed at its link "
			 "addresses (wrong if the kernel was moved, KASLR)", vmlinux,
			 !link_s ? "it has no _stext symbol" :
			 "the bundle's kallsyms gives no _stext");
		pts_decode_notice(sum, msg);
		rt_s = link_s = 0;
	}
	rc = pts_imgset_add_elf_moved(set, PTS_PID_ALL, vmlinux, (int64_t)(rt_s - link_s), &e2);
	/* --raw is for --pt traces: a bundle's kernel is an ELF or the bundle's own text */
	if (rc == -ENOEXEC)
		return pts_err_set(err, EINVAL, "--vmlinux: %s is not an ELF file: give the"
				   " kernel's ELF image, vmlinux (with its symbols, e.g."
				   " /usr/lib/debug/boot/vmlinux-VERSION of the kernel's -dbg"
				   " package), not the compressed vmlinuz", vmlinux);
	return rc ? pts_err_set(err, rc, "--vmlinux: %s", e2.msg) : 0;
}

/*
 * The simulated PT unit emits its user code image in whatever task is
 * current (docs/simulated-unit.md, "The code images"), also in tasks whose
 * maps the capture never read (a program exec'd and gone between two maps
 * reads, a kernel thread): in a simulated bundle that image is part of
 * every address space, as kernel text is. A hardware bundle has no such
 * object; nothing is added there.
 */
static int sim_user_code_everywhere(const struct pts_bundle *b, struct pts_imgset *set,
				    struct pts_err *err)
{
	static const char sim_path[] = "/sys/module/ptscope/sim_user_code";
	const struct pts_bundle_object *o = NULL;
	const struct pts_bundle_map *m = NULL;
	size_t i, k;
	char *path;
	int rc;

	if (b->source != PTS_SOURCE_SIMULATED_UNIT)
		return 0;
	/* a damaged copy is not read (decide() says so where the maps name it) */
	for (i = 0; i < b->nr_objects && !o; i++)
		if (!strcmp(b->objects[i].path, sim_path) && b->objects[i].file &&
		    b->objects[i].file_size == b->objects[i].size)
			o = &b->objects[i];
	for (i = 0; i < b->nr_processes && o && !m; i++)
		for (k = 0; k < b->processes[i].nr_maps_arm && !m; k++)
			if (b->processes[i].maps_arm[k].path &&
			    !strcmp(b->processes[i].maps_arm[k].path, sim_path))
				m = &b->processes[i].maps_arm[k];
	if (!m)
		return 0;
	path = pts_bundle_path(b, o->file);
	if (!path)
		return pts_err_set(err, ENOMEM, "out of memory");
	/* the map's bytes that the copy holds (the map is page-sized, the image is not) */
	rc = m->pgoff < o->size ?
		pts_imgset_add_file(set, PTS_PID_ALL, path, m->pgoff,
				    MIN(m->end - m->start, o->size - m->pgoff), m->start,
				    sim_path, NULL, err) : 0;
	free(path);
	return rc;
}

/*
 * Kernel code the capture saw change (text_poke, livepatch, BPF programs
 * loaded or unloaded): the bundle holds it as it was at the end, so the
 * trace before a change decodes with the later bytes (docs/bundle-format.md
 * 3.10, "Kernel code changed during the capture").
 */
static void ktext_change_warning(const struct pts_bundle *b, struct pts_decode_summary *sum)
{
	char kt[180], msg[256];

	if (!sum || !pts_bundle_ktext_change_text(b, kt, sizeof(kt)))
		return;
	snprintf(msg, sizeof(msg), "kernel code changed during the capture (decoded as at the end): %s",
		 kt);
	pts_decode_warn(sum, msg);
}

/*
 * The bundle's path of the file an exec was given: path itself when
 * absolute, else (relative to a working directory the bundle does not
 * record) the one object whose path ends in it. NULL none.
 */
static const char *exec_path(const struct pts_bundle *b, const char *path)
{
	const char *found = NULL;
	size_t i, n, pl;

	if (path[0] == '/')
		return path;
	while (!strncmp(path, "./", 2))
		path += 2;
	pl = strlen(path);
	for (i = 0; i < b->nr_objects; i++) {
		n = strlen(b->objects[i].path);
		if (n > pl && b->objects[i].path[n - pl - 1] == '/' &&
		    !strcmp(b->objects[i].path + n - pl, path)) {
			if (found)
				return NULL;	/* two candidates: neither is known to be it */
			found = b->objects[i].path;
		}
	}
	return found;
}

/* Programs exec_file could not place: the first said whole, the others counted. */
struct exec_gaps {
	char first[900];
	unsigned int n;
};

static void exec_gap(struct exec_gaps *g, const char *head, const char *why)
{
	if (!g->n++)
		snprintf(g->first, sizeof(g->first), "%.400s: its code decodes as gaps (%.300s)",
			 head, why);
}

/*
 * Where a static PIE (no PT_INTERP) exec'd at r was loaded: execve returns
 * to its entry point (binfmt_elf's start_thread: e_entry plus the load
 * bias), so the bias is that IP less e_entry, page-aligned as the kernel
 * loads ET_DYN. 1 with *base (where its lowest PT_LOAD lies) and the IP;
 * 0 not known, why says why (and what to do); -ENOMEM.
 */
static int static_pie_base(const struct pts_bundle *b, const struct pts_timeconv *tc,
			   const struct pts_sb_rec *r, const struct pts_elf_load *l,
			   uint64_t *base, uint64_t *ip, char *why, size_t len)
{
	int rc = pts_exec_entry_ip(b, tc, r->pid, r->time_ns, ip);

	if (rc <= 0) {
		snprintf(why, len, b->config.syscall_records ?
			 "a static PIE whose execve return is not in the sideband (records lost?): "
			 "no record gives its load address" :
			 "a static PIE: its load address is where execve returned, recorded only "
			 "with --syscalls; capture with --syscalls, or trace it with 'ptscope run'");
		return rc;
	}
	if ((*ip - l->entry) & 4095) {
		snprintf(why, len, "a static PIE whose execve returned at 0x%" PRIx64 ", not its "
			 "entry 0x%" PRIx64 " moved by whole pages: no load address", *ip,
			 l->entry);
		return 0;
	}
	*base = l->low_vaddr + (*ip - l->entry);
	return 1;
}

/*
 * One exec whose program no maps snapshot describes (it ran between two
 * reads of the maps, or they could not be read): its code would decode as
 * gaps. A non-PIE executable is loaded at its link addresses, so the file
 * the exec names, decided as for a maps line (the bundle's copy, checked),
 * is placed there (a summary warning; a notice when its loader and shared
 * objects stay gaps); a static PIE where its execve's return (syscall
 * records) puts it; another PIE's load address is in no record (into g,
 * with what to do). 0 or -ENOMEM.
 */
static int exec_file(const struct pts_bundle *b, const struct pts_timeconv *tc,
		     const struct pts_sb_rec *r, int32_t space, struct pts_imgset *set,
		     struct objcache *oc, const char *sysroot, struct pts_decode_summary *sum,
		     struct exec_gaps *g)
{
	const char *path = exec_path(b, r->name), *file = NULL;
	struct pts_elf_load l;
	struct pts_err e2 = { 0 };
	char msg[900], head[400], why[300], where[160];
	uint64_t base = 0, ip = 0;
	int rc;

	snprintf(head, sizeof(head), "pid %d exec'd %.160s and no maps of it were read (it ran "
		 "between two reads, 100 ms apart, or they failed)", r->pid, r->name);
	rc = path ? objfile(oc, b, path, sysroot, sum, &file) : 0;
	if (rc)
		return rc;
	if (!file) {
		exec_gap(g, head, path ? "its file is not available, said above" :
			 "the bundle has no copy of that file");
		return 0;
	}
	if (pts_elf_load_kind(file, &l, &e2)) {
		exec_gap(g, head, e2.msg);
		return 0;
	}
	if (l.pie && l.interp) {
		exec_gap(g, head, "a PIE with a dynamic loader: no record gives its load address; "
			 "trace it with 'ptscope run', which reads its maps at exec, or build it "
			 "-no-pie");
		return 0;
	}
	if (l.pie) {
		rc = static_pie_base(b, tc, r, &l, &base, &ip, why, sizeof(why));
		if (rc <= 0) {
			if (!rc)
				exec_gap(g, head, why);
			return rc;
		}
	}
	rc = pts_imgset_add_elf(set, space, file, base, &e2);
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		exec_gap(g, head, e2.msg);
		return 0;
	}
	if (l.pie)
		snprintf(where, sizeof(where), "moved by 0x%" PRIx64 " (a static PIE: execve "
			 "returned to its entry, 0x%" PRIx64 ")", ip - l.entry, ip);
	else
		snprintf(where, sizeof(where), "at its link addresses (not a PIE)");
	snprintf(msg, sizeof(msg), "%s: its code is decoded from the file %s%s", head, where,
		 l.interp ? "; no record gives the addresses of its loader and shared objects: "
		 "theirs decodes as gaps" : "");
	(l.interp ? pts_decode_notice : pts_decode_warn)(sum, msg);
	return 0;
}

/*
 * exec_file for every exec of the sideband whose program no snapshot
 * described; those left as gaps said in one notice (a system-wide
 * capture may have many). 0 or -ENOMEM.
 */
static int exec_files(const struct pts_bundle *b, const struct pts_sideband *sb,
		      const struct pts_timeconv *tc, struct pts_imgset *set,
		      struct objcache *oc, const char *sysroot, struct pts_decode_summary *sum)
{
	struct exec_gaps g = { .n = 0 };
	char msg[1000];
	size_t i;
	int rc = 0;

	/* a kernel-only trace runs no program's user code */
	if (!(b->config.scope & PTS_SCOPE_USER))
		return 0;
	for (i = 0; i < sb->n && !rc; i++) {
		const struct pts_sb_rec *r = &sb->recs[i];
		int32_t space;

		if (r->type != PTS_SB_EXEC || r->pid <= 0 || !r->name)
			continue;
		space = exec_space(set, r->pid, r->time_ns);
		if (space < 0 || space_noted(oc, space))
			continue;
		rc = note_space(oc, space) ?: exec_file(b, tc, r, space, set, oc, sysroot, sum, &g);
	}
	if (g.n > 1) {
		snprintf(msg, sizeof(msg), "%.800s; so do %u more programs exec'd without maps",
			 g.first, g.n - 1);
		pts_decode_notice(sum, msg);
	} else if (g.n) {
		pts_decode_notice(sum, g.first);
	}
	return rc;
}

int pts_decode_bundle_images(const struct pts_bundle *b, struct pts_imgset *set,
			     const struct pts_sideband *sb, const struct pts_timeconv *tc,
			     const struct pts_decode_opts *o, struct pts_decode_summary *sum,
			     struct pts_err *err)
{
	const char *sysroot = o ? o->sysroot : NULL;
	struct objcache oc = { .buildid_dir = o ? o->buildid_dir : NULL };
	uint64_t start_tsc = UINT64_MAX;
	size_t i;
	int rc = 0;

	if (o && o->vmlinux)
		rc = add_vmlinux(b, set, o->vmlinux, sum, err);
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
	if (!rc)
		ktext_change_warning(b, sum);
	/* the bundle's names, unless others are given */
	if (!rc && b->kallsyms_file && !(o && (o->kallsyms || o->kcore_dir))) {
		char *path = pts_bundle_path(b, b->kallsyms_file);

		rc = path ? kernel_names(set, path, false, sum, err) :
			    pts_err_set(err, ENOMEM, "out of memory");
		free(path);
	}
	/* kernel text read elsewhere (perf record --kcore): wins where it overlaps */
	if (!rc && o && o->kcore_dir)
		rc = pts_kcore_add(set, o->kcore_dir, err);
	if (!rc && o && o->kallsyms)
		rc = kernel_names(set, o->kallsyms, true, sum, err);
	if (!rc && sideband_execs(sb, set))
		rc = pts_err_set(err, ENOMEM, "out of memory");
	/* the first trace of the capture (a CPU without a recorded start: 0) */
	for (i = 0; i < b->nr_cpus; i++)
		if (b->cpus[i].start_tsc < start_tsc)
			start_tsc = b->cpus[i].start_tsc;
	for (i = 0; i < b->nr_processes && !rc; i++)
		rc = process_images(b, &b->processes[i], set, tc,
				    pts_tc_ns(tc, start_tsc == UINT64_MAX ? 0 : start_tsc), &oc,
				    sysroot, sum, err);
	if (!rc && exec_files(b, sb, tc, set, &oc, sysroot, sum))
		rc = pts_err_set(err, ENOMEM, "out of memory");
	if (!rc)
		rc = sim_user_code_everywhere(b, set, err);
	for (i = 0; i < oc.n; i++)
		free(oc.v[i].file);
	free(oc.v);
	free(oc.spaces);
	return rc;
}
