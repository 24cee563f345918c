// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for the reference encoder: two worker threads (recursion,
 * a function pointer, a mutex) while the main thread waits in
 * pthread_join - context switches, blocking system calls and thread exit.
 */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;

__attribute__((noinline)) static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static long work(long seed, long (*fn)(int))
{
	long v = fn((int)(12 + seed));

	pthread_mutex_lock(&lock);
	total += v;
	pthread_mutex_unlock(&lock);
	return v;
}

static void *worker(void *arg)
{
	return (void *)work((long)arg, fib);
}

int main(void)
{
	pthread_t th[2];
	void *r0, *r1;

	pthread_create(&th[0], NULL, worker, (void *)0L);
	pthread_create(&th[1], NULL, worker, (void *)1L);
	pthread_join(th[0], &r0);
	pthread_join(th[1], &r1);
	printf("total=%ld %ld %ld\n", total, (long)r0, (long)r1);
	return 0;
}
