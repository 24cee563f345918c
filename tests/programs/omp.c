// SPDX-License-Identifier: GPL-2.0
/*
 * OpenMP workers, for the decoder fidelity corpus (docs/fidelity.md):
 * a parallel loop with a reduction over two threads (main runs its share
 * inside GOMP_parallel, the worker in libgomp's thread start), then a
 * parallel region with a critical section, a barrier and a single
 * construct. Each thread's share calls a recursion. Run with
 * OMP_WAIT_POLICY=passive: the threads wait in futex calls, where
 * libgomp's default spins up to 300 000 times first (seconds of
 * single-stepping). libgomp linked statically. Output is deterministic.
 */
#include <omp.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

NOINLINE static long work(long i)
{
	return i * i % 97;
}

NOINLINE static long rec(long n)
{
	return n ? rec(n - 1) + work(n) : 0;
}

int main(void)
{
	long sum = 0, crit = 0;
	int i;

#pragma omp parallel for reduction(+:sum) num_threads(2) schedule(static)
	for (i = 0; i < 16; i++)
		sum += rec(i % 6);
#pragma omp parallel num_threads(2)
	{
#pragma omp critical
		crit += work(omp_get_thread_num() + 3);
#pragma omp barrier
#pragma omp single
		crit += rec(4);
	}
	printf("%ld %ld\n", sum, crit);
	return 0;
}
