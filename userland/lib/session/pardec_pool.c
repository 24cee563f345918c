// SPDX-License-Identifier: GPL-2.0
/* The worker threads of the parallel decode (pardec.h): they take chunks off the pool's queue. */
#include "pardec_int.h"

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

static void *worker(void *arg)
{
	struct pts_pool *pool = arg;
	struct pts_imgview *view = NULL;

	pts_imgview_new(pool->set, &view);	/* NULL: every chunk fails, the consumer decodes */
	pthread_mutex_lock(&pool->mu);
	for (;;) {
		struct chunk *c;
		int rc;

		while (!pool->qhead && !pool->stop)
			pthread_cond_wait(&pool->work, &pool->mu);
		if (pool->stop)
			break;
		c = pool->qhead;
		pool->qhead = c->qnext;
		if (!pool->qhead)
			pool->qtail = NULL;
		c->state = CH_RUNNING;
		pthread_mutex_unlock(&pool->mu);
		rc = view ? pardec_decode_chunk(c, view) : -ENOMEM;
		pthread_mutex_lock(&pool->mu);
		c->state = rc ? CH_FAILED : CH_DONE;
		pthread_cond_broadcast(&pool->done);
	}
	pool->worker_cpu_ns += thread_cpu_ns();
	pthread_mutex_unlock(&pool->mu);
	pts_imgview_free(view);
	return NULL;
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
	if (pool->reverse)
		n = 0;
	for (i = 0; i < n; i++) {
		int e = pthread_create(&pool->th[i], NULL, worker, pool);

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
	}
	pthread_cond_destroy(&pool->work);
	pthread_cond_destroy(&pool->done);
	pthread_mutex_destroy(&pool->mu);
	free(pool->th);
	free(pool);
}
