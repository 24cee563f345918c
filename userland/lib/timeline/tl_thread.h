/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The builder's threads (timeline_int.h): found by (pid, tid), the one fed
 * last remembered; announced with their process before their first
 * record; their time, which never goes back; every event's scope check.
 */
#ifndef PTS_TIMELINE_TL_THREAD_H
#define PTS_TIMELINE_TL_THREAD_H

#include "timeline_int.h"

/* The thread pid/tid, or NULL if it has had no event or name yet. */
struct thread *tl_thread_find(struct pts_tl *tl, int32_t pid, int32_t tid);
/* The thread pid/tid, created if new; NULL on -ENOMEM. */
struct thread *tl_thread_add(struct pts_tl *tl, int32_t pid, int32_t tid);
void tl_thread_free(struct thread *t);
/* announce, for a thread not announced yet */
int tl_announce_slow(struct pts_tl *tl, struct thread *t, struct pts_err *err);
/* thread_time of t's first event, at ts */
void tl_thread_first_time(struct pts_tl *tl, struct thread *t, uint64_t ts);
/* The events of t, its calls and returns included (struct thread, st). */
static inline uint64_t thread_events(const struct thread *t)
{
	return t->st.events + t->st.calls + t->st.returns;
}

/* The time of t's last event (its stats' last_ns: struct thread), 0 if none. */
uint64_t tl_thread_last_ns(const struct thread *t);
/* The trigger moves t's time to ts, which is no event's (on_trigger). */
void tl_thread_trigger_time(struct thread *t, uint64_t ts);

/* The thread pid/tid, created if new; NULL on -ENOMEM. Inline: nearly always the last one. */
static inline struct thread *thread_get(struct pts_tl *tl, int32_t pid, int32_t tid)
{
	struct thread *t = tl->last;

	if (t && t->at.tid == tid && t->at.pid == pid)
		return t;
	return tl_thread_add(tl, pid, tid);
}

/* thread_get of the event br's thread: the compare of one word */
static inline struct thread *thread_of(struct pts_tl *tl, const struct pts_branch *br)
{
	struct thread *t = tl->last;

	if (t && pts_pid_tid(&t->at.pid) == pts_pid_tid(&br->pid))
		return t;
	return tl_thread_add(tl, br->pid, br->tid);
}

/*
 * Write t's PTS_TL_THREAD record, and its process's PTS_TL_PROCESS record
 * the first time, unless done. Inline: every event asks.
 */
static inline int announce(struct pts_tl *tl, struct thread *t, struct pts_err *err)
{
	if (t->announced)
		return 0;
	return tl_announce_slow(tl, t, err);
}

/*
 * A thread's time after an event at ts, from cur: never earlier (an
 * earlier ts is clamped and counted). The rare case out of the way.
 */
static inline uint64_t time_after(struct pts_tl *tl, uint64_t cur, uint64_t ts)
{
	if (__builtin_expect(ts < cur, 0)) {
		tl->diag[PTS_TLD_TIME_BACKWARDS]++;
		return cur;
	}
	return ts;
}

/*
 * thread_time of a thread that has had an event (have_ts), as every
 * thread pts_tl_feed decides itself has (tl->fast): no test of it.
 */
static inline void thread_time_next(struct pts_tl *tl, struct thread *t, uint64_t ts,
				    uint32_t cpu)
{
	t->at.ts_ns = time_after(tl, t->at.ts_ns, ts);
	t->at.cpu = cpu;
}

/* The thread time bookkeeping of one event at ts on cpu (time_after). */
static inline void thread_time(struct pts_tl *tl, struct thread *t, uint64_t ts, uint32_t cpu)
{
	if (__builtin_expect(!t->have_ts, 0))
		tl_thread_first_time(tl, t, ts);
	thread_time_next(tl, t, ts, cpu);
}

static inline void check_scope(struct pts_tl *tl, uint64_t addr)
{
	if (addr - tl->oos_lo < tl->oos_len)
		tl->diag[PTS_TLD_OUT_OF_SCOPE]++;
}

/*
 * check_scope of a branch's two ends: one test when both are below
 * in_scope_below (nearly every branch in scope user or both).
 */
static inline void check_scope_branch(struct pts_tl *tl, uint64_t from, uint64_t to)
{
	if (__builtin_expect((from | to) < tl->in_scope_below, 1))
		return;
	check_scope(tl, from);
	check_scope(tl, to);
}

/*
 * What every event but the trigger does first: its thread announced and
 * its time taken (the caller counts it, in st.events or, a call or a
 * return, st.calls or st.returns: struct thread; and checks its
 * addresses against the scope).
 */
static inline int take_event(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
			     struct pts_err *err)
{
	int rc;

	rc = announce(tl, t, err);
	if (rc)
		return rc;
	thread_time(tl, t, br->ts_ns, br->cpu);
	return 0;
}

#endif /* PTS_TIMELINE_TL_THREAD_H */
