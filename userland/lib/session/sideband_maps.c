// SPDX-License-Identifier: GPL-2.0
/* A raw trace's sideband mappings, checked by their build-ids (sideband_maps.h). */
#include "sideband_maps.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/param.h>

#include "../capture/elfinfo.h"
#include "../decode/buildid_cache.h"
#include "../util/hmap.h"
#include "session_int.h"

/*
 * The file to read for mapping r, which records a build-id: its path
 * under sysroot (NULL: not looked at) when that file has the build-id,
 * else the cache's file of it. A file at the path of another build-id, or
 * of none, is said. NULL: no file (*oom when out of memory).
 */
static char *by_build_id(const struct pts_sb_rec *r, const char *sysroot, const char *cache,
			 struct pts_decode_summary *sum, bool *oom)
{
	char host[4096], id[41], why[100], msg[800];
	char *file;
	int rc = -ENOENT;

	if (sysroot) {
		snprintf(host, sizeof(host), "%s%s", sysroot, r->name);
		if (pts_decode_file_size(host, NULL) < 0)
			sysroot = NULL;		/* nothing there: nothing to say */
		else
			rc = pts_elf_build_id(host, id, NULL);
		if (!rc && !strcmp(id, r->build_id)) {
			file = strdup(host);
			*oom = !file;
			return file;
		}
	}
	file = pts_bic_find(cache, r->build_id, r->name, PTS_BIC_ELF, false);
	if (file || !sysroot)
		return file;
	snprintf(why, sizeof(why), rc ? "no build-id" : "build-id %.40s", id);
	snprintf(msg, sizeof(msg), "%.300s: %s, the sideband's MMAP2 records %.40s: not the mapped "
		 "file, its code decodes as gaps; give --sysroot DIR with that file at 'DIR%.160s', "
		 "or perf's build-id cache holding it (--buildid-dir)", host, why, r->build_id,
		 r->name);
	pts_decode_warn(sum, msg);
	return NULL;
}

/*
 * The file for r, decided once per path and build-id (a library is
 * mapped by every process: its file is read and said once). NULL: none
 * (*oom when out of memory). The map owns the strings.
 */
static const char *decided(struct pts_hmap *seen, const struct pts_sb_rec *r, const char *sysroot,
			   const char *cache, struct pts_decode_summary *sum, bool *oom)
{
	size_t nlen = strlen(r->name), klen = nlen + 1 + strlen(r->build_id);
	char *key = malloc(klen + 1);
	struct pts_hent *e;
	bool created;

	if (!key) {
		*oom = true;
		return NULL;
	}
	memcpy(key, r->name, nlen + 1);		/* name, NUL, build-id */
	memcpy(key + nlen + 1, r->build_id, klen - nlen);
	e = pts_hmap_get(seen, key, klen, &created);
	free(key);
	if (!e) {
		*oom = true;
		return NULL;
	}
	if (created)
		e->v.p = by_build_id(r, sysroot, cache, sum, oom);
	return e->v.p;
}

static void free_file(struct pts_hent *e)
{
	free(e->v.p);
}

/* Map r from path, or what of it lies inside the file (a mapping may run past its end). */
static int add_one(struct pts_imgset *set, const struct pts_sb_rec *r, const char *path,
		   struct pts_err *err)
{
	struct pts_err e2;
	int rc = pts_imgset_add_file(set, r->pid, path, r->pgoff, r->len, r->start, r->name, NULL,
				     &e2);

	if (rc == -ERANGE) {
		long sz = pts_decode_file_size(path, NULL);

		if (sz > (long)r->pgoff)
			rc = pts_imgset_add_file(set, r->pid, path, r->pgoff,
						 (uint64_t)sz - r->pgoff, r->start, r->name, NULL,
						 &e2);
	}
	if (rc && rc != -ENOENT && rc != -ERANGE)
		return pts_err_set(err, rc, "%s", e2.msg);
	return 0;	/* a missing file: its code becomes gaps ("no memory mapped") */
}

int pts_sideband_maps_add(struct pts_imgset *set, const struct pts_sideband *sb,
			  const char *sysroot, const char *cache, struct pts_decode_summary *sum,
			  struct pts_err *err)
{
	struct pts_hmap seen = { 0 };
	char path[4096];
	const char *file;
	bool oom = false;
	int rc = 0;
	size_t i;

	for (i = 0; i < sb->n && !rc; i++) {
		const struct pts_sb_rec *r = &sb->recs[i];

		if (r->type != PTS_SB_MMAP || !r->name || r->name[0] != '/')
			continue;
		if (r->prot && !(r->prot & PROT_EXEC))
			continue;
		if (r->build_id) {
			file = decided(&seen, r, sysroot, cache, sum, &oom);
		} else if (sysroot) {
			snprintf(path, sizeof(path), "%s%s", sysroot, r->name);
			file = path;
		} else {
			continue;
		}
		if (oom)
			rc = pts_err_set(err, ENOMEM, "out of memory");
		else if (file)
			rc = add_one(set, r, file, err);
	}
	pts_hmap_free(&seen, free_file);
	return rc;
}

/* A mapping that can hold a program's code: a file, executable or of unknown protection. */
static bool maps_code(const struct pts_sb_rec *r)
{
	return r->type == PTS_SB_MMAP && r->name && r->name[0] == '/' &&
	       (!r->prot || (r->prot & PROT_EXEC));
}

/* Per process: its latest exec (index + 1 into sb), whether a file is mapped since. */
#define EXEC_MAPPED (1ULL << 63)

int pts_sideband_exec_unmapped(const struct pts_sideband *sb, struct pts_decode_summary *sum)
{
	struct pts_hmap last = { 0 };
	size_t i, first = SIZE_MAX, n = 0;
	char msg[400], more[64] = "";

	for (i = 0; i < sb->n; i++) {
		const struct pts_sb_rec *r = &sb->recs[i];
		struct pts_hent *e;
		bool created;

		if (r->type != PTS_SB_EXEC && !maps_code(r))
			continue;
		e = r->type == PTS_SB_EXEC ? pts_hmap_get(&last, &r->pid, sizeof(r->pid), &created) :
		    pts_hmap_find(&last, &r->pid, sizeof(r->pid));
		if (!e && r->type == PTS_SB_EXEC) {
			pts_hmap_free(&last, NULL);
			return -ENOMEM;
		}
		if (!e)
			continue;	/* a mapping before any exec of its process */
		if (r->type != PTS_SB_EXEC) {
			e->v.u |= EXEC_MAPPED;
			continue;
		}
		/* a new program: the one before it is decided */
		if (!created && !(e->v.u & EXEC_MAPPED)) {
			n++;
			first = MIN(first, e->v.u - 1);
		}
		e->v.u = i + 1;
	}
	for (i = 0; i < last.cap; i++) {
		if (!last.slots[i] || (last.slots[i]->v.u & EXEC_MAPPED))
			continue;
		n++;
		first = MIN(first, last.slots[i]->v.u - 1);
	}
	pts_hmap_free(&last, NULL);
	if (!n)
		return 0;
	if (n > 1)
		snprintf(more, sizeof(more), " (the first of %zu such programs)", n);
	/* at most 383 bytes: a notice's slot (session.h) */
	snprintf(msg, sizeof(msg), "perf sideband: pid %d (%.16s) exec'd at %" PRIu64 " ns%s and "
		 "no MMAP record after it maps its program's file (perf records no path at an "
		 "exec): its code decodes as gaps; give it with --elf FILE (non-PIE: at its link "
		 "addresses) or --elf FILE:BASE (PIE: BASE its load address, from /proc/PID/maps "
		 "where it ran)", sb->recs[first].pid,
		 sb->recs[first].name ? sb->recs[first].name : "?", sb->recs[first].time_ns, more);
	pts_decode_notice(sum, msg);
	return 0;
}
