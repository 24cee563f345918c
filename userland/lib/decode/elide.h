/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The window of jumps a consumer of branch events has no use for.
 *
 * Most branches of a trace are jumps inside the function executing (loops,
 * ifs: 58 % of the events of the synthetic benchmark trace) and change no
 * call stack. The timeline builder (pts_tl_elide) keeps the window set to
 * the function on top of the stack of the thread it was last fed; whoever
 * hands it events (a decoder, or the session handing out events decoded
 * ahead by worker threads) drops a PTS_BR_JUMP of that thread whose from
 * and to both lie in [lo, hi), counting it here. The builder then accounts
 * the dropped jumps as if fed (event count, time, CPU) before its next
 * event. Dropping is exact only when every event before the jump has been
 * fed: the window is the one of the stack after them. A run of jumps with
 * nothing fed between them can be dropped at once (dropped += n, the last
 * one's time) when all their addresses lie in the window: the window
 * would not move between them (session/pardec.c).
 */
#ifndef PTS_DECODE_ELIDE_H
#define PTS_DECODE_ELIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct pts_br_elide {
	int32_t pid, tid;	/* the thread the range belongs to */
	uint64_t lo, hi;	/* function [lo, hi); hi == 0: drop nothing */
	uint64_t dropped;	/* jumps dropped since the consumer last looked */
	uint64_t ts_ns;		/* time of the last jump dropped */
	uint32_t cpu;		/* CPU of the last jump dropped */
};

/*
 * pid and tid, side by side (struct pts_br_elide, struct pts_branch, the
 * decoder's thread), as one word: a thread is one compare.
 */
static inline uint64_t pts_pid_tid(const int32_t *pid)
{
	uint64_t v;

	memcpy(&v, pid, sizeof(v));
	return v;
}

_Static_assert(offsetof(struct pts_br_elide, tid) == offsetof(struct pts_br_elide, pid) + 4,
	       "pts_pid_tid: pid and tid side by side");

/*
 * True when a jump of thread pid_tid (pts_pid_tid) from -> to (at ts_ns
 * on cpu) lies inside the window: it is counted in el and must be
 * dropped. Inline: it runs for every jump of a trace.
 */
static inline bool pts_br_elide_drop_thread(struct pts_br_elide *el, uint64_t pid_tid,
					    uint64_t from, uint64_t to, uint64_t ts_ns,
					    uint32_t cpu)
{
	uint64_t span = el->hi - el->lo;

	if (!el->hi || pid_tid != pts_pid_tid(&el->pid) || from - el->lo >= span ||
	    to - el->lo >= span)
		return false;
	el->dropped++;
	el->ts_ns = ts_ns;
	el->cpu = cpu;
	return true;
}

/* pts_br_elide_drop_thread of thread pid/tid. */
static inline bool pts_br_elide_drop(struct pts_br_elide *el, int32_t pid, int32_t tid,
				     uint64_t from, uint64_t to, uint64_t ts_ns, uint32_t cpu)
{
	int32_t thread[2] = { pid, tid };

	return pts_br_elide_drop_thread(el, pts_pid_tid(thread), from, to, ts_ns, cpu);
}

#endif /* PTS_DECODE_ELIDE_H */
