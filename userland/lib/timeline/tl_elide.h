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
 * Jumps a decoder dropped (pts_tl_elide): inside the top frame's function
 * of the thread the window is of, they change no frame; what a fed one
 * would have changed is that thread's event count, time and CPU.
 */
static inline void account_elided(struct pts_tl *tl)
{
	struct pts_br_elide *el = &tl->elide;
	struct thread *t = tl->elide_t;

	if (!el->dropped)
		return;
	t->st.events += el->dropped;
	thread_time(tl, t, el->ts_ns, el->cpu);
	el->dropped = 0;
}

/*
 * Jumps dropped in the window of a thread other than t, which
 * take_elided_and leaves to account_elided: nearly always the window is
 * the thread fed last's.
 */
static inline bool elided_other(const struct pts_tl *tl, const struct thread *t)
{
	return tl->elide.dropped && tl->elide_t != t;
}

/*
 * account_elided of jumps that are t's, if any (!elided_other), then
 * the time of event br of t taken, as take_event does for an announced
 * thread that has had an event (tl->fast: thread_time_next); a call or a
 * return, it is counted in st.calls or st.returns (struct thread).
 * With jumps, t's time is taken from the last one's and the event's in a
 * row, without the stores between.
 */
static inline void take_elided_and(struct pts_tl *tl, struct thread *t,
				   const struct pts_branch *br)
{
	struct pts_br_elide *el = &tl->elide;

	if (!el->dropped) {
		thread_time_next(tl, t, br->ts_ns, br->cpu);
		return;
	}
	t->st.events += el->dropped;
	el->dropped = 0;
	t->at.ts_ns = time_after(tl, time_after(tl, t->at.ts_ns, el->ts_ns), br->ts_ns);
	t->at.cpu = br->cpu;
}

/*
 * set_elide of t with no calls beyond max_depth and n frames, which the
 * caller knows: the common call and return would load both again, after
 * stores the compiler cannot tell apart from them. A frame of span 0 (of
 * unknown extent, synthetic; with none, the frame before them:
 * tl_no_frames) gives the window [start, start), which holds no address
 * (decode/elide.h: a jump is dropped when from and to lie in [lo, hi)),
 * as hi 0 would, without a test.
 */
static inline void set_elide_n(struct pts_tl *tl, struct thread *t, uint32_t n)
{
	struct pts_br_elide *el = &tl->elide;
	const struct frame *f = t->frames + n - 1;

	tl->elide_t = t;
	pid_tid_set(&el->pid, pts_pid_tid(&t->at.pid));
	el->lo = f->fn.start;
	el->hi = f->fn.start + f->span;
}

/*
 * Point the elide filter at the top frame of t: its function, if of
 * known extent (else an empty window).
 */
static inline void set_elide(struct pts_tl *tl, struct thread *t)
{
	set_elide_n(tl, t, t->excess ? 0 : t->n);
}

#endif /* PTS_TIMELINE_TL_ELIDE_H */
