// SPDX-License-Identifier: GPL-2.0
/*
 * bench-pingpong: how long one cache line takes to go from one CPU to
 * another and back, this hour. Two threads, pinned to CPUs A and B, pass
 * a counter in one line back and forth; every batch of round trips is
 * timed. The parallel decode moves every event a worker stores to the
 * calling thread's CPU, where two processes share nothing: on a VM whose
 * two vCPUs the host places near each other (one core's threads, one
 * L3) or far apart (another socket) from hour to hour, this is what
 * changes for -j2 and not for two -j1 decodes (docs/performance.md,
 * "What the machine gave a run").
 *
 *   bench-pingpong [A B]     (default CPUs 0 and 1)
 *
 * Prints one line: round trips timed in batches of BATCH, the median,
 * least and greatest batch per round trip in ns:
 *   pingpong_ns median=N min=N max=N cpus=A,B
 * or "pingpong_ns n/a (...)" where the threads cannot be pinned.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH 2000	/* round trips a timing */
#define BATCHES 25

static _Alignas(64) _Atomic uint64_t line;	/* odd: B's turn; even: A's */
static int cpu_b, pin_b;	/* B's CPU, and pin's error there (B answers all the same) */

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* B: answers every odd value with the next even one, until A's last. */
static void *answer(void *arg)
{
	uint64_t last = (uint64_t)BATCH * BATCHES * 2, v;

	(void)arg;
	pin_b = pin(cpu_b);
	for (v = 1; v < last; v += 2) {
		while (atomic_load_explicit(&line, memory_order_acquire) != v)
			;
		atomic_store_explicit(&line, v + 1, memory_order_release);
	}
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int cpu_a = 0, rc;
	uint64_t ns[BATCHES], v = 0;
	pthread_t t;

	if (argc == 3) {
		cpu_a = atoi(argv[1]);
		cpu_b = atoi(argv[2]);
	} else if (argc == 1) {
		cpu_b = 1;
	} else {
		fputs("usage: bench-pingpong [CPU_A CPU_B]\n", stderr);
		return 2;
	}
	rc = pin(cpu_a);
	if (rc) {
		printf("pingpong_ns n/a (CPU %d: %s)\n", cpu_a, strerror(rc));
		return 0;
	}
	rc = pthread_create(&t, NULL, answer, NULL);
	if (rc) {
		printf("pingpong_ns n/a (thread: %s)\n", strerror(rc));
		return 0;
	}
	for (int b = 0; b < BATCHES; b++) {
		uint64_t t0 = now_ns();

		for (int i = 0; i < BATCH; i++) {
			atomic_store_explicit(&line, v + 1, memory_order_release);
			while (atomic_load_explicit(&line, memory_order_acquire) != v + 2)
				;
			v += 2;
		}
		ns[b] = now_ns() - t0;
	}
	pthread_join(t, NULL);
	if (pin_b) {
		printf("pingpong_ns n/a (CPU %d: %s)\n", cpu_b, strerror(pin_b));
		return 0;
	}
	qsort(ns, BATCHES, sizeof(ns[0]), cmp_u64);
	printf("pingpong_ns median=%llu min=%llu max=%llu cpus=%d,%d\n",
	       (unsigned long long)(ns[BATCHES / 2] / BATCH), (unsigned long long)(ns[0] / BATCH),
	       (unsigned long long)(ns[BATCHES - 1] / BATCH), cpu_a, cpu_b);
	return 0;
}
