// SPDX-License-Identifier: GPL-2.0
/* The scans before a decode run's decoders start, on the run's threads (prescan.h). */
#include "prescan.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../decode/pt_step.h"
#include "pardec_cyc.h"

/*
 * Trace bytes of a slice of the scope scan: it ends at the first PSB after
 * this many, where the packet scan starts afresh anyway, and its whole
 * pages are dropped once it is scanned (they fault back in from the file
 * when decoded): resident memory does not grow with the trace (check 77).
 * Small, so that the threads end the scans together: with slices of
 * 8 MiB, -j 2 on a 10 MB trace had one thread scan 8 MiB (~11 ms) while
 * the other did the CYC scan and the last 2 MiB (~8 ms) and then waited,
 * the decode not started (docs/performance.md, "The critical path of -j2
 * (twenty-fifth round)"). A slice costs a few µs more than its bytes.
 */
#define PRESCAN_SLICE (1u << 20)

/* A task: CPU cpu's CYC scan, or the slice [from, to) of its scope scan. */
struct task {
	unsigned int cpu;
	bool cyc;
	size_t from, to;
};

struct prescan {
	struct pts_prescan_cpu *cpu;
	struct task *task;
	size_t ntasks;
	pthread_mutex_t mu;		/* next, *ev and rc */
	size_t next;			/* the task the next free thread takes */
	struct pts_scope_evidence *ev;	/* of the slices scanned so far */
	int rc;
};

/* The end of the slice of buf[0, len) that starts at from. */
static size_t slice_end(const uint8_t *buf, size_t len, size_t from)
{
	const uint8_t *hit = NULL;

	if (len - from > PRESCAN_SLICE + sizeof(pts_pt_psb))
		hit = memmem(buf + from + PRESCAN_SLICE, len - from - PRESCAN_SLICE, pts_pt_psb,
			     sizeof(pts_pt_psb));
	return hit ? (size_t)(hit - buf) : len;
}

/* *to += now - before, field by field: what a slice's scan added. */
static void ev_add(struct pts_scope_evidence *to, const struct pts_scope_evidence *now,
		   const struct pts_scope_evidence *before)
{
	to->user_ips += now->user_ips - before->user_ips;
	to->kernel_ips += now->kernel_ips - before->kernel_ips;
	to->pge += now->pge - before->pge;
	to->pgd += now->pgd - before->pgd;
	to->psbs += now->psbs - before->psbs;
}

/*
 * The slice t of the scope scan, from the evidence of the slices done so
 * far, as one thread scans it after them; none once they show both halves.
 */
static int scan_slice(struct prescan *s, const struct task *t)
{
	struct pts_prescan_cpu *c = &s->cpu[t->cpu];
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), lo = t->from / pg * pg, hi = t->to / pg * pg;
	const uint8_t *part[PTS_SCOPE_CHAINS];
	size_t len[PTS_SCOPE_CHAINS];
	uint64_t at[PTS_SCOPE_CHAINS + 1];
	struct pts_scope_evidence before, ev;
	unsigned int i;

	pthread_mutex_lock(&s->mu);
	before = *s->ev;
	pthread_mutex_unlock(&s->mu);
	if (before.user_ips && before.kernel_ips)
		return 0;
	ev = before;
	/* the slice in parts at PSBs, scanned in step (pts_scope_scan_parts) */
	pts_pt_psb_split(c->buf, t->from, t->to, at, PTS_SCOPE_CHAINS);
	for (i = 0; i < PTS_SCOPE_CHAINS; i++) {
		part[i] = c->buf + at[i];
		len[i] = at[i + 1] - at[i];
	}
	if (pts_scope_scan_parts(part, len, PTS_SCOPE_CHAINS, c->errata, &ev))
		return -ENOMEM;
	pthread_mutex_lock(&s->mu);
	ev_add(s->ev, &ev, &before);
	pthread_mutex_unlock(&s->mu);
	/* whole pages before the slice's end (the last page of the file is kept) */
	if (hi > lo)
		madvise(c->buf + lo, hi - lo, MADV_DONTNEED);
	return 0;
}

/* A thread of the scan: tasks in turn until none is left or one failed. */
static void *run_tasks(void *arg)
{
	struct prescan *s = arg;

	for (;;) {
		const struct task *t;
		int rc = 0;

		pthread_mutex_lock(&s->mu);
		t = s->next < s->ntasks && !s->rc ? &s->task[s->next++] : NULL;
		pthread_mutex_unlock(&s->mu);
		if (!t)
			return NULL;
		if (t->cyc)
			s->cpu[t->cpu].cyc = pts_pt_trace_has_cyc(s->cpu[t->cpu].buf,
								 s->cpu[t->cpu].len, true,
								 s->cpu[t->cpu].errata,
								 s->cpu[t->cpu].hold);
		else
			rc = scan_slice(s, t);
		if (rc) {
			pthread_mutex_lock(&s->mu);
			s->rc = rc;
			pthread_mutex_unlock(&s->mu);
		}
	}
}

/* qsort: CYC scans by their traces' lengths, the longest first */
static int longer_first(const void *a, const void *b, void *arg)
{
	const struct pts_prescan_cpu *cpu = arg;
	size_t la = cpu[((const struct task *)a)->cpu].len, lb = cpu[((const struct task *)b)->cpu].len;

	return la < lb ? 1 : la > lb ? -1 : 0;
}

/*
 * The tasks of cpu[0, n) into s->task: the CYC scans first (a whole trace
 * each, the longest, the longest of them first), then the scope scan's
 * slices in the order of the traces: the threads take the long tasks
 * first and the short ones last, and end within a slice of each other.
 * -ENOMEM, or 0.
 */
static int make_tasks(struct prescan *s, unsigned int n, bool scope)
{
	size_t cap = n, from;
	unsigned int i;

	for (i = 0; i < n && scope; i++)
		cap += s->cpu[i].len / PRESCAN_SLICE + 1;
	s->task = calloc(cap ? cap : 1, sizeof(*s->task));
	if (!s->task)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (s->cpu[i].scan_cyc)
			s->task[s->ntasks++] = (struct task){ .cpu = i, .cyc = true };
	qsort_r(s->task, s->ntasks, sizeof(*s->task), longer_first, s->cpu);
	for (i = 0; i < n && scope; i++)
		for (from = 0; from < s->cpu[i].len; from = s->task[s->ntasks++].to)
			s->task[s->ntasks] = (struct task){
				.cpu = i,
				.from = from,
				.to = slice_end(s->cpu[i].buf, s->cpu[i].len, from),
			};
	return 0;
}

int pts_prescan(struct pts_prescan_cpu *cpu, unsigned int n, unsigned int threads,
		struct pts_scope_evidence *ev)
{
	struct prescan s = { .cpu = cpu, .ev = ev };
	pthread_t *tid = NULL;
	size_t i, started = 0;
	int rc = make_tasks(&s, n, ev != NULL);

	if (rc)
		return rc;
	/* a thread per task at most, the calling thread one of them */
	if (threads > s.ntasks)
		threads = (unsigned int)s.ntasks;
	if (threads > 1)
		tid = calloc(threads - 1, sizeof(*tid));
	pthread_mutex_init(&s.mu, NULL);
	/* threads that cannot be had leave their tasks to the others */
	for (i = 0; tid && i < threads - 1; i++)
		if (!pthread_create(&tid[started], NULL, run_tasks, &s))
			started++;
	run_tasks(&s);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	pthread_mutex_destroy(&s.mu);
	free(tid);
	free(s.task);
	return s.rc;
}
