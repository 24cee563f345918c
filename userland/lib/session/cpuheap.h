/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPUs of a decode ordered by the time of their next event: a binary
 * min-heap of (time, CPU index), so that merging N CPUs costs O(log N) per
 * event, not a scan of every CPU (perf merges its queues the same way,
 * auxtrace_heap). Equal times: the lower index first, so that a merge is
 * the same every run.
 */
#ifndef PTS_SESSION_CPUHEAP_H
#define PTS_SESSION_CPUHEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pts_cpuheap_ent {
	uint64_t key;		/* ns of the CPU's next event */
	unsigned int idx;	/* the CPU's index in the run */
};

struct pts_cpuheap {
	struct pts_cpuheap_ent *v;
	unsigned int n, cap;
};

/* Room for cap entries. Errors: -ENOMEM. */
int pts_cpuheap_init(struct pts_cpuheap *h, unsigned int cap);
void pts_cpuheap_free(struct pts_cpuheap *h);

/* Add idx with key (at most cap entries in all). */
void pts_cpuheap_push(struct pts_cpuheap *h, uint64_t key, unsigned int idx);

/* The entry with the least (key, idx); NULL when empty. */
static inline const struct pts_cpuheap_ent *pts_cpuheap_top(const struct pts_cpuheap *h)
{
	return h->n ? &h->v[0] : NULL;
}

/*
 * The entry with the least (key, idx) but the top: the CPU that comes
 * next once the top one's events are later than its own; NULL with fewer
 * than two entries.
 */
const struct pts_cpuheap_ent *pts_cpuheap_second(const struct pts_cpuheap *h);

/* Give the top entry a new key (its CPU moved on) and restore the order. */
void pts_cpuheap_update_top(struct pts_cpuheap *h, uint64_t key);

/* Remove the top entry (its CPU ended). */
void pts_cpuheap_pop(struct pts_cpuheap *h);

#endif
