// SPDX-License-Identifier: GPL-2.0
/* Process maps over time while armed (maps_time.h). */
#include "maps_time.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/ptscope.h>

#include "../bundle/maps.h"
#include "procfs.h"

/* Processes refreshed per poll in record (each read is one /proc/PID/maps). */
#define REFRESH_MAX 64

int pts_capture_note_execs(struct pts_capture *c, const uint8_t *buf, size_t len)
{
	size_t off = 0;

	while (off + sizeof(struct ptscope_sb_hdr) <= len) {
		struct ptscope_sb_hdr h;

		memcpy(&h, buf + off, sizeof(h));
		if (h.size < sizeof(h) || h.size % 8 || off + h.size > len)
			break;	/* damaged: the decoder says so; nothing after it is used */
		if (h.type == PTSCOPE_SB_EXEC && h.size >= sizeof(struct ptscope_sb_exec)) {
			struct ptscope_sb_exec r;

			if (c->execs.n == c->execs.cap) {
				size_t n = c->execs.cap ? c->execs.cap * 2 : 64;
				void *v = realloc(c->execs.v, n * sizeof(*c->execs.v));

				if (!v)
					return -ENOMEM;
				c->execs.v = v;
				c->execs.cap = n;
			}
			memcpy(&r, buf + off, sizeof(r));
			c->execs.v[c->execs.n].pid = r.pid;
			c->execs.v[c->execs.n].tsc = h.tsc;
			c->execs.n++;
		}
		off += h.size;
	}
	return 0;
}

size_t pts_capture_exec_count(const struct pts_capture *c, int32_t pid, uint64_t *tsc)
{
	size_t i, n = 0;

	if (tsc)
		*tsc = 0;
	for (i = 0; i < c->execs.n; i++) {
		if (c->execs.v[i].pid != pid)
			continue;
		n++;
		if (tsc)
			*tsc = c->execs.v[i].tsc;
	}
	return n;
}

static bool same_line(const struct pts_bundle_map *a, const struct pts_bundle_map *b)
{
	return a->start == b->start && a->end == b->end && a->pgoff == b->pgoff &&
	       a->inode == b->inode && a->dev_major == b->dev_major &&
	       a->dev_minor == b->dev_minor && !strcmp(a->perms, b->perms) &&
	       !strcmp(a->path ? a->path : "", b->path ? b->path : "");
}

int pts_capture_maps_file(struct pts_capture *c, int32_t pid, uint64_t exec_tsc,
			  const struct pts_bundle_map *maps, size_t nr)
{
	struct pts_capture_proc *p = NULL;
	struct pts_bundle_maps_exec *x = NULL;
	struct pts_bundle_map *nm;
	size_t i, k, add = 0;

	for (i = 0; i < c->nr_procs && !p; i++)
		if (c->procs[i].pid == pid)
			p = &c->procs[i];
	if (!p)
		return 0;	/* a process the capture does not write */
	for (i = 0; i < p->nr_maps_seen && !x; i++)
		if (p->maps_seen[i].exec_tsc == exec_tsc)
			x = &p->maps_seen[i];
	if (!x) {
		void *v = realloc(p->maps_seen, (p->nr_maps_seen + 1) * sizeof(*p->maps_seen));

		if (!v)
			return -ENOMEM;
		p->maps_seen = v;
		x = &p->maps_seen[p->nr_maps_seen++];
		memset(x, 0, sizeof(*x));
		x->exec_tsc = exec_tsc;
	}
	nm = realloc(x->maps, (x->nr_maps + nr + 1) * sizeof(*nm));
	if (!nm)
		return -ENOMEM;
	x->maps = nm;
	for (i = 0; i < nr; i++) {
		for (k = 0; k < x->nr_maps + add && !same_line(&nm[k], &maps[i]); k++)
			;
		if (k < x->nr_maps + add)
			continue;
		nm[x->nr_maps + add] = maps[i];
		nm[x->nr_maps + add].path = strdup(maps[i].path ? maps[i].path : "");
		if (!nm[x->nr_maps + add].path)
			break;
		add++;
	}
	x->nr_maps += add;
	return i < nr ? -ENOMEM : 0;
}

/* One read in flight: the process, its execs before the read, the maps read. */
struct pending {
	int32_t pid;
	size_t execs;
	uint64_t exec_tsc;
	struct pts_bundle_map *maps;
	size_t nr;
};

/* The processes to read now: the target, or record's latest exec'd ones. */
static size_t choose(const struct pts_capture *c, int32_t *pids, size_t max)
{
	size_t i, n = 0, k;

	if (c->target) {
		pids[0] = c->target;
		return 1;
	}
	for (i = c->execs.n; i-- > 0 && n < max;) {
		for (k = 0; k < n && pids[k] != c->execs.v[i].pid; k++)
			;
		if (k == n && c->execs.v[i].pid > 0)
			pids[n++] = c->execs.v[i].pid;
	}
	return n;
}

void pts_capture_refresh_maps(struct pts_capture *c,
			      int (*drain)(struct pts_capture *c, struct pts_err *err))
{
	struct pending pend[REFRESH_MAX];
	int32_t pids[REFRESH_MAX];
	struct pts_err e = { 0 };
	bool drained;
	size_t n, i;

	n = choose(c, pids, REFRESH_MAX);
	for (i = 0; i < n; i++) {
		pend[i].pid = pids[i];
		pend[i].execs = pts_capture_exec_count(c, pids[i], &pend[i].exec_tsc);
		if (pts_proc_read_maps(pids[i], &pend[i].maps, &pend[i].nr, &e)) {
			pend[i].maps = NULL;
			pend[i].nr = 0;
			pend[i].execs = SIZE_MAX;	/* gone: nothing to file */
		}
	}
	/* an exec record that arrives now may have come before a read */
	drained = n && !drain(c, &e);
	for (i = 0; i < n; i++) {
		if (drained && pend[i].execs != SIZE_MAX &&
		    pts_capture_exec_count(c, pend[i].pid, NULL) == pend[i].execs &&
		    pts_capture_maps_file(c, pend[i].pid, pend[i].exec_tsc, pend[i].maps,
					  pend[i].nr))
			pts_capture_error(c, "maps over time: out of memory");
		pts_maps_free(pend[i].maps, pend[i].nr);
	}
}

void pts_capture_maps_time_free(struct pts_capture *c)
{
	size_t i, k;

	for (i = 0; i < c->nr_procs; i++) {
		struct pts_capture_proc *p = &c->procs[i];

		for (k = 0; k < p->nr_maps_seen; k++)
			pts_maps_free(p->maps_seen[k].maps, p->maps_seen[k].nr_maps);
		free(p->maps_seen);
		p->maps_seen = NULL;
		p->nr_maps_seen = 0;
	}
	free(c->execs.v);
	memset(&c->execs, 0, sizeof(c->execs));
}
