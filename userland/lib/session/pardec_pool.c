// SPDX-License-Identifier: GPL-2.0
/*
 * The worker threads of the parallel decode (pardec.h), and which chunks
 * they decode first: the merge of several CPUs needs their chunks in the
 * order of their start times (key: its PSB's time), each CPU's own in
 * turn. The pool queues chunks by key and keeps pool->chunks of them live
 * across the CPUs: the two a join needs of each (the one in use and the
 * next), and the rest where the merge goes next. With a fixed share per
 * CPU, a CPU whose trace goes on after the others' had one chunk decoded
 * ahead: one worker busy, the other and the calling thread waiting.
 */
#include "pardec_int.h"

#include "../decode/deep.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CPU time of the calling thread, ns (0 if the clock is missing). */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Wall clock, ns: the idle times of pts_pool_cpu. */
static uint64_t wall_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The queued chunk a worker takes, or NULL (pool->mu held). Without the
 * calling thread decoding (self), the first: the one the merge needs
 * soonest. With it, one worker takes the last, the one the merge needs
 * latest: the calling thread decodes from the front of the window, the
 * worker from its back, and the calling thread meets a chunk the worker
 * is still decoding only where the two meet. Taking the second (the
 * first left to the calling thread, the fifteenth round's rule), the worker
 * decoded chunks the merge needed soon after: with several CPUs the merge
 * needs their chunks in close turn, and the calling thread waited for it
 * (docs/performance.md, "The calling thread's schedule (sixteenth
 * round)"). Several workers take the second: together they keep ahead of
 * the calling thread, which decodes the first when no worker is free.
 */
static struct chunk *pick(struct pts_pool *pool)
{
	struct chunk *c = pool->qhead;

	if (!c || !pool->self)
		return c;
	if (pool->n > 1)
		return c->qnext;
	while (c->qnext)
		c = c->qnext;
	return c;
}

/* Whatever the calling thread waits for is decoded: the caller holds pool->mu. */
static bool awaited_done(const struct pts_pool *pool)
{
	return pool->awaited->state != CH_RUNNING &&
	       (!pool->awaited2 || pool->awaited2->state != CH_RUNNING);
}

static void *worker(void *arg)
{
	struct pts_pool *pool = arg;
	struct pts_imgview *view = NULL;
	struct pts_ptdec *spare = NULL;		/* its last chunk's decoder */

	pts_imgview_new(pool->set, &view);	/* NULL: every chunk fails, the consumer decodes */
	pthread_mutex_lock(&pool->mu);
	for (;;) {
		struct chunk *c;
		int rc;

		if (!(c = pick(pool)) && !pool->stop) {
			uint64_t t0 = wall_ns();

			while (!(c = pick(pool)) && !pool->stop)
				pthread_cond_wait(&pool->work, &pool->mu);
			if (pool->stop)
				break;
			pool->worker_idles++;
			pool->worker_idle_ns += wall_ns() - t0;
		}
		if (pool->stop)
			break;
		pardec_pool_take(pool, c, true);
		c->state = CH_RUNNING;
		pthread_mutex_unlock(&pool->mu);
		rc = view ? pardec_decode_chunk(c, view, &spare) : -ENOMEM;
		pthread_mutex_lock(&pool->mu);
		c->state = rc ? CH_FAILED : CH_DONE;
		if ((pool->awaited == c || pool->awaited2 == c) && awaited_done(pool)) {
			/*
			 * Woken after our unlock: woken while we hold the
			 * lock, the calling thread would sleep again on it.
			 */
			pthread_mutex_unlock(&pool->mu);
			pthread_cond_signal(&pool->done);
			pthread_mutex_lock(&pool->mu);
		}
	}
	pool->worker_cpu_ns += thread_cpu_ns();
	pthread_mutex_unlock(&pool->mu);
	pts_ptdec_free(spare);
	pts_imgview_free(view);
	return NULL;
}

void pardec_pool_queue(struct pts_pool *pool, struct chunk *c)
{
	struct chunk **pp = &pool->qhead;

	pthread_mutex_lock(&pool->mu);
	/* after the chunks of its key: the chunks of one CPU, and without timing all, in order */
	while (*pp && (*pp)->key <= c->key)
		pp = &(*pp)->qnext;
	c->qnext = *pp;
	*pp = c;
	c->state = CH_QUEUED;
	pool->queued++;
	pthread_cond_signal(&pool->work);
	pthread_mutex_unlock(&pool->mu);
}

void pardec_pool_await(struct pts_pool *pool, struct chunk *c)
{
	/*
	 * c and the next chunk both being decoded (by the two workers of
	 * -j2): wait for both, once. The calling thread, faster than the
	 * workers, waited for nearly every chunk, each a sleep and a wake-up
	 * (a futex call on each side, an interrupt to the sleeper's CPU, an
	 * exit of the VM) and a worker put off its CPU; every wait lasted
	 * hundreds of µs or more, so spinning would not have saved them
	 * (docs/performance.md, "The kernel's share of -j2 (fifteenth round)").
	 */
	struct chunk *d = c->state == CH_RUNNING && c->next && c->next->state == CH_RUNNING ?
				  c->next : NULL;

	pool->awaited = c;
	pool->awaited2 = d;
	if (!awaited_done(pool)) {
		uint64_t t0 = wall_ns();

		while (!awaited_done(pool))
			pthread_cond_wait(&pool->done, &pool->mu);
		pool->caller_waits++;
		pool->caller_wait_ns += wall_ns() - t0;
	}
	pool->awaited = NULL;
	pool->awaited2 = NULL;
}

void pardec_pool_unqueue(struct pts_pool *pool, struct chunk *c)
{
	struct chunk **pp = &pool->qhead;

	while (*pp != c)
		pp = &(*pp)->qnext;
	*pp = c->qnext;
}

/* The arrays of chunks a and b, and what they held (hot), traded. */
static void swap_arrays(struct chunk *a, struct chunk *b)
{
#define SWAP(f)                           \
	do {                              \
		__typeof__(a->f) t = a->f; \
		a->f = b->f;              \
		b->f = t;                 \
	} while (0)
	SWAP(ev);
	SWAP(cap);
	SWAP(pos);
	SWAP(cappos);
	SWAP(thr);
	SWAP(capthr);
	SWAP(x);
	SWAP(capx);
	SWAP(snaps);
	SWAP(capsnaps);
	SWAP(jumps);
	SWAP(capjumps);
	SWAP(hot);
#undef SWAP
}

void pardec_pool_take(struct pts_pool *pool, struct chunk *c, bool fill)
{
	struct chunk *q, *best = c;

	pardec_pool_unqueue(pool, c);
	for (q = pool->qhead; q; q = q->qnext)
		if (fill ? q->hot > best->hot : q->hot < best->hot)
			best = q;
	if (best != c)
		swap_arrays(c, best);
}

int pardec_pool_fill(struct pts_pool *pool)
{
	while (pool->live < pool->chunks) {
		struct pts_pcpu *p, *best = NULL;

		for (p = pool->cpus; p; p = p->pnext)
			if (p->tail && p->tail->end < p->cfg.size &&
			    (!best || p->next_key < best->next_key))
				best = p;
		if (!best)
			break;
		if (pardec_add_chunk(best))
			return -ENOMEM;
	}
	return 0;
}

int pts_pool_new(const struct pts_pool_options *opt, struct pts_imgset *set,
		 struct pts_pool **out, struct pts_err *err)
{
	struct pts_pool *pool = calloc(1, sizeof(*pool));
	unsigned int i, n = opt->threads;

	if (!pool || !(pool->th = calloc(n ? n : 1, sizeof(*pool->th)))) {
		free(pool);
		return pts_err_set(err, ENOMEM, "out of memory for %u decoder threads", n);
	}
	pthread_mutex_init(&pool->mu, NULL);
	pthread_cond_init(&pool->work, NULL);
	pthread_cond_init(&pool->done, NULL);
	pool->set = set;
	pool->reverse = opt->reverse;
	pool->brk = opt->brk;
	pool->chunks = opt->chunks;
	pool->self = opt->self && !opt->reverse;
	pool->deep = opt->deep;
	if (pool->reverse)
		n = 0;
	for (i = 0; i < n; i++) {
		pthread_attr_t at;
		int e = -1;

		/*
		 * A stack for libipt's recursion through direct branches
		 * (decode/deep.h: virtual memory, its pages touched only as
		 * deep as a decode goes), else the default one and every
		 * decoder of the pool with the block flags: the same output.
		 * No chunk is queued before the pool is made.
		 */
		if (pool->deep && !pts_deep_attr_init(&at)) {
			e = pthread_create(&pool->th[i], &at, worker, pool);
			pthread_attr_destroy(&at);
		}
		if (e) {
			pool->deep = false;
			e = pthread_create(&pool->th[i], NULL, worker, pool);
		}
		if (e) {
			pool->n = i;
			pts_pool_free(pool, NULL);
			return pts_err_set(err, e, "cannot start decoder thread %u: %s", i, strerror(e));
		}
	}
	pool->n = n;
	*out = pool;
	return 0;
}

void pts_pool_free(struct pts_pool *pool, struct pts_pool_cpu *cpu)
{
	struct chunk *c;
	unsigned int i;

	if (!pool)
		return;
	pthread_mutex_lock(&pool->mu);
	pool->stop = true;
	pthread_cond_broadcast(&pool->work);
	pthread_mutex_unlock(&pool->mu);
	for (i = 0; i < pool->n; i++)
		pthread_join(pool->th[i], NULL);
	/*
	 * How the CPU time divided (tools/bench/parallel.sh): the calling
	 * thread's bounds the wall time however many cores there are.
	 */
	if (cpu) {
		cpu->calling_ns = thread_cpu_ns();
		cpu->workers_ns = pool->worker_cpu_ns;
		cpu->workers = pool->n;
		cpu->chunks = pool->queued;
		cpu->sunk = pool->sunk;
		cpu->caller_waits = pool->caller_waits;
		cpu->caller_wait_ns = pool->caller_wait_ns;
		cpu->worker_idles = pool->worker_idles;
		cpu->worker_idle_ns = pool->worker_idle_ns;
	}
	while ((c = pool->spare)) {
		pool->spare = c->next;
		pardec_chunk_free_data(c);
		free(c);
	}
	pts_ptdec_free(pool->caller_dec);
	pthread_cond_destroy(&pool->work);
	pthread_cond_destroy(&pool->done);
	pthread_mutex_destroy(&pool->mu);
	free(pool->th);
	free(pool);
}
