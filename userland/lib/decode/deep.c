// SPDX-License-Identifier: GPL-2.0
/* A thread with a deep stack, waited for (deep.h). */
#include "deep.h"

#include <pthread.h>

struct deep_call {
	void (*fn)(void *arg);
	void *arg;
};

static void *deep_main(void *p)
{
	struct deep_call *c = p;

	c->fn(c->arg);
	return NULL;
}

int pts_deep_attr_init(pthread_attr_t *at)
{
	if (pthread_attr_init(at))
		return -1;
	if (pthread_attr_setstacksize(at, PTS_DEEP_STACK)) {
		pthread_attr_destroy(at);
		return -1;
	}
	return 0;
}

int pts_deep_run(void (*fn)(void *arg), void *arg)
{
	struct deep_call c = { fn, arg };
	pthread_attr_t at;
	pthread_t th;
	int e;

	if (pts_deep_attr_init(&at))
		return -1;
	e = pthread_create(&th, &at, deep_main, &c);
	pthread_attr_destroy(&at);
	if (e)
		return -1;
	pthread_join(th, NULL);
	return 0;
}
