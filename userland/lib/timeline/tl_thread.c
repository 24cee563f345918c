// SPDX-License-Identifier: GPL-2.0
/*
 * The builder's threads: a hash of (pid, tid), a list in order of first
 * event (pts_tl_thread_stats), and the process and thread records that
 * name each before its first event's.
 */
#include "tl_thread.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tl_out.h"
#include "tl_stack.h"

/* t is the thread fed last now (tl->last, and tl->fast when it qualifies). */
static struct thread *set_last(struct pts_tl *tl, struct thread *t)
{
	tl->last = t;
	tl->fast = tl->w && t->announced && t->have_ts ? t : NULL;
	return t;
}

struct thread *tl_thread_find(struct pts_tl *tl, int32_t pid, int32_t tid)
{
	int32_t key[2] = { pid, tid };
	struct pts_hent *e;

	if (tl->last && tl->last->at.tid == tid && tl->last->at.pid == pid)
		return tl->last;
	e = pts_hmap_find(&tl->by_id, key, sizeof(key));
	return e ? set_last(tl, e->v.p) : NULL;
}

struct thread *tl_thread_add(struct pts_tl *tl, int32_t pid, int32_t tid)
{
	int32_t key[2] = { pid, tid };
	struct thread *t = tl_thread_find(tl, pid, tid);
	struct pts_hent *e;
	bool created;

	if (t)
		return t;
	if (tl->nth == tl->capth) {
		size_t nc = tl->capth ? tl->capth * 2 : 16;
		struct thread **nt = realloc(tl->th, nc * sizeof(*nt));

		if (!nt)
			return NULL;
		tl->th = nt;
		tl->capth = nc;
	}
	t = calloc(1, sizeof(*t));
	e = t ? pts_hmap_get(&tl->by_id, key, sizeof(key), &created) : NULL;
	if (!e) {
		free(t);
		return NULL;
	}
	e->v.p = t;
	t->at.pid = pid;
	t->at.tid = tid;
	t->st.pid = pid;
	t->st.tid = tid;
	t->bottom_idx = -1;
	t->frames = (struct frame *)tl_no_frames + 1;
	tl->th[tl->nth++] = t;
	return set_last(tl, t);
}

void tl_thread_free(struct thread *t)
{
	tl_frames_free(t);
	free(t->buf);
	free(t);
}

void tl_thread_first_time(struct pts_tl *tl, struct thread *t, uint64_t ts)
{
	t->have_ts = true;
	t->st.first_ns = ts;
	t->at.ts_ns = ts;
	if (tl->last == t)
		set_last(tl, t);
}

uint64_t tl_thread_last_ns(const struct thread *t)
{
	return t->trig_moved && thread_events(t) == t->trig_events ? t->trig_last_ns : t->at.ts_ns;
}

void tl_thread_trigger_time(struct thread *t, uint64_t ts)
{
	t->trig_last_ns = tl_thread_last_ns(t);
	t->trig_events = thread_events(t);
	t->trig_moved = true;
	t->at.ts_ns = ts;
}

int tl_announce_slow(struct pts_tl *tl, struct thread *t, struct pts_err *err)
{
	struct pts_tl_rec r;
	bool created;
	int rc;

	if (!pts_hmap_get(&tl->pids, &t->at.pid, sizeof(t->at.pid), &created))
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	if (created) {
		struct thread *leader = tl_thread_find(tl, t->at.pid, t->at.pid);

		memset(&r, 0, sizeof(r));
		r.type = PTS_TL_PROCESS;
		r.pid = t->at.pid;
		r.tid = t->at.pid;
		r.name = leader && leader->name ? leader->name : t->name;
		rc = emit(tl, &r, err);
		if (rc)
			return rc;
		set_last(tl, t);
	}
	memset(&r, 0, sizeof(r));
	r.type = PTS_TL_THREAD;
	r.pid = t->at.pid;
	r.tid = t->at.tid;
	r.name = t->name;
	t->announced = true;
	if (tl->last == t)
		set_last(tl, t);
	return emit(tl, &r, err);
}
