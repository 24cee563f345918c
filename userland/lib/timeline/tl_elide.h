/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The builder's side of the window of jumps a decoder drops
 * (decode/elide.h, pts_tl_elide): set to the top frame of the thread fed
 * last after each event, and the jumps dropped since accounted before the
 * next one. Inline: both run for every event.
 */
#ifndef PTS_TIMELINE_TL_ELIDE_H
#define PTS_TIMELINE_TL_ELIDE_H

#include "tl_thread.h"

/*
 * Jumps a decoder dropped (pts_tl_elide): inside the top frame's function,
 * they change no frame; what a fed one would have changed is its thread's
 * event count, time and CPU.
 */
static inline void account_elided(struct pts_tl *tl)
{
	struct pts_br_elide *el = &tl->elide;
	struct thread *t = tl->last;

	if (!el->dropped)
		return;
	/* the window is the top frame of the thread fed last (set_elide) */
	if (!t || t->at.pid != el->pid || t->at.tid != el->tid)
		t = tl_thread_find(tl, el->pid, el->tid);
	if (t) {
		t->st.events += el->dropped;
		thread_time(tl, t, el->ts_ns, el->cpu);
	}
	el->dropped = 0;
}

/* Point the elide filter at the top frame of t, if it is a function of known extent. */
static inline void set_elide(struct pts_tl *tl, const struct thread *t)
{
	struct pts_br_elide *el = &tl->elide;
	const struct frame *f;

	el->hi = 0;
	if (!t->n || t->excess)
		return;
	f = &t->frames[t->n - 1];
	if (!f->span)
		return;
	el->pid = t->at.pid;
	el->tid = t->at.tid;
	el->lo = f->fn.start;
	el->hi = f->fn.start + f->span;
}

#endif /* PTS_TIMELINE_TL_ELIDE_H */
