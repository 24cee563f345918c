// SPDX-License-Identifier: GPL-2.0
/*
 * Folded stacks (.folded) for flame graphs (flamegraph.pl, speedscope,
 * inferno): one line per distinct stack,
 *
 *   ROOT;OUTER;...;INNER COUNT
 *
 * COUNT is the self time of INNER in that stack, in ns, summed over the
 * whole trace. ROOT is the process name from the PROCESS record ("pid N"
 * when the process has no name), so the threads of one process merge
 * as in perf's folded output. Kernel frames carry the suffix "_[k]" that
 * flamegraph.pl colours as kernel. A ';' in a name becomes ':' and a
 * newline a space, so names cannot break the line format. Lines are
 * sorted by stack (byte order) so equal traces give equal files.
 *
 * Memory: one entry per distinct stack plus the open stacks, never the
 * trace itself.
 */
#include "writer_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct folded {
	struct pts_hmap stacks;		/* path -> ns of self time */
	struct pts_hmap procs;		/* pid -> process name (owned) */
};

static int path_add(struct pts_writer *w, struct pts_wthread *t, const char *s, size_t n)
{
	if (t->path_len + n + 1 > t->path_cap) {
		size_t cap = t->path_cap ? t->path_cap : 256;
		char *p;

		while (t->path_len + n + 1 > cap)
			cap *= 2;
		p = realloc(t->path, cap);
		if (!p)
			return pts_wfail(w, ENOMEM, "out of memory: folded stack of thread %d/%d",
					 t->pid, t->tid);
		t->path = p;
		t->path_cap = cap;
	}
	memcpy(t->path + t->path_len, s, n);
	t->path_len += n;
	t->path[t->path_len] = '\0';
	return 0;
}

/* Append a frame name with ';' and newlines made harmless. */
static int path_frame(struct pts_writer *w, struct pts_wthread *t, const char *name)
{
	size_t start = t->path_len, i;
	int rc = path_add(w, t, name, strlen(name));

	for (i = start; !rc && i < t->path_len; i++) {
		if (t->path[i] == ';')
			t->path[i] = ':';
		else if (t->path[i] == '\n' || t->path[i] == '\r')
			t->path[i] = ' ';
	}
	return rc;
}

/* Self time since the thread's last event goes to its current stack. */
static int account(struct pts_writer *w, struct pts_wthread *t, uint64_t from, uint64_t to)
{
	struct folded *f = w->state;
	struct pts_hent *e;
	bool created;

	if (!t->depth || to <= from)
		return 0;
	e = pts_hmap_get(&f->stacks, t->path, t->path_len, &created);
	if (!e)
		return pts_wfail(w, ENOMEM, "out of memory: folded stacks");
	e->v.u += to - from;
	return 0;
}

static int root(struct pts_writer *w, struct pts_wthread *t)
{
	struct folded *f = w->state;
	struct pts_hent *e = pts_hmap_find(&f->procs, &t->pid, sizeof(t->pid));
	char buf[32];

	t->path_len = 0;
	if (e)
		return path_frame(w, t, e->v.p);
	snprintf(buf, sizeof(buf), "pid %d", t->pid);
	return path_add(w, t, buf, strlen(buf));
}

/*
 * A stripped object's function that only its FDE bounds is named by its
 * start, "[unknown] 0xSTART", its object in a field of its own (as
 * perf prints it). A flame graph has no such field: the object follows
 * the name, as it does in the name of code no FDE covers, so that the
 * frame says which object it is in (FlameGraph's stackcollapse-perf.pl
 * names perf's "[unknown]" by its object likewise).
 */
static bool unnamed_function(const struct pts_tl_rec *rec)
{
	return rec->object && rec->object[0] && rec->name &&
	       !(rec->flags & (PTS_TLF_UNKNOWN | PTS_TLF_SYNTHETIC)) &&
	       !strncmp(rec->name, "[unknown] 0x", 12);
}

static int folded_emit(struct pts_writer *w, const struct pts_tl_rec *rec)
{
	struct folded *f = w->state;
	struct pts_wthread *t;
	struct pts_hent *e;
	uint64_t prev;
	bool created;
	char buf[64];
	int rc;

	switch (rec->type) {
	case PTS_TL_PROCESS:
		if (!rec->name || !rec->name[0])
			return 0;	/* stays "pid N" */
		e = pts_hmap_get(&f->procs, &rec->pid, sizeof(rec->pid), &created);
		if (!e)
			return pts_wfail(w, ENOMEM, "out of memory: process names");
		free(e->v.p);
		e->v.p = strdup(rec->name);
		return e->v.p ? 0 : pts_wfail(w, ENOMEM, "out of memory: process names");
	case PTS_TL_BEGIN:
	case PTS_TL_END:
		t = pts_wthread_get(w, rec->pid, rec->tid);
		if (!t)
			return w->error;
		prev = t->last_ts;
		rc = pts_wthread_check(w, t, rec) ?: account(w, t, prev, rec->ts_ns);
		if (rc)
			return rc;
		if (rec->type == PTS_TL_END) {
			t->path_len = t->frames[t->depth - 1].path_len;
			t->path[t->path_len] = '\0';
			pts_wthread_pop(t);
			return 0;
		}
		if (!t->depth && (rc = root(w, t)))
			return rc;
		rc = pts_wthread_push(w, t, rec) ?:
		     path_add(w, t, ";", 1) ?: path_frame(w, t, pts_wname(rec, buf, sizeof(buf)));
		if (!rc && unnamed_function(rec))
			rc = path_add(w, t, " (", 2) ?: path_frame(w, t, rec->object) ?:
			     path_add(w, t, ")", 1);
		if (!rc && (rec->flags & PTS_TLF_KERNEL))
			rc = path_add(w, t, "_[k]", 4);
		return rc;
	case PTS_TL_THREAD:
	case PTS_TL_INSTANT:
	case PTS_TL_COUNTER:
		return 0;
	}
	return pts_wfail(w, EINVAL, "unknown timeline record type %d", (int)rec->type);
}

static int cmp_key(const void *a, const void *b)
{
	const struct pts_hent *x = *(const struct pts_hent *const *)a;
	const struct pts_hent *y = *(const struct pts_hent *const *)b;

	return strcmp(x->key, y->key);
}

static int folded_finish(struct pts_writer *w)
{
	struct folded *f = w->state;
	struct pts_hent **v;
	size_t i, n = 0;
	int rc = 0;

	v = malloc((f->stacks.n ? f->stacks.n : 1) * sizeof(*v));
	if (!v)
		return pts_wfail(w, ENOMEM, "out of memory sorting folded stacks");
	for (i = 0; i < f->stacks.cap; i++)
		if (f->stacks.slots[i] && f->stacks.slots[i]->v.u)
			v[n++] = f->stacks.slots[i];
	qsort(v, n, sizeof(*v), cmp_key);
	for (i = 0; !rc && i < n; i++)
		rc = pts_wprintf(w, "%s %" PRIu64 "\n", v[i]->key, v[i]->v.u);
	free(v);
	return rc;
}

static void free_name(struct pts_hent *e)
{
	free(e->v.p);
}

static void folded_free(struct pts_writer *w)
{
	struct folded *f = w->state;

	if (!f)
		return;
	pts_hmap_clear(&f->stacks, NULL);
	free(f->stacks.slots);
	pts_hmap_clear(&f->procs, free_name);
	free(f->procs.slots);
}

const struct pts_writer_ops pts_writer_folded_ops = {
	.name = "folded",
	.state_size = sizeof(struct folded),
	.emit = folded_emit,
	.finish = folded_finish,
	.free = folded_free,
};
