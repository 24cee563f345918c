// SPDX-License-Identifier: GPL-2.0
/*
 * pthread cleanup handlers in C built without -fexceptions, linked into
 * unwind.cc's program (which loads libgcc_s's unwinder anyway): there
 * pthread_cleanup_push is a __sigsetjmp into a buffer of its frame, and
 * pthread_exit's forced unwinding longjmps from its stop function into
 * the newest buffer's frame, whose handler runs and calls
 * __pthread_unwind_next for the next older one. Every frame of `rec`
 * has a buffer at the same address, and the innermost has a second one
 * (two cleanups pushed in one frame): the walk of each unwinding tells
 * which frame (docs/fidelity.md).
 */
#include <pthread.h>
#include <stddef.h>

#define NOINLINE __attribute__((noinline, noipa))

int c_cleaned;

NOINLINE static void undo(void *p)
{
	c_cleaned += (int)(long)p;
}

NOINLINE static void rec(int n)
{
	pthread_cleanup_push(undo, (void *)(long)n);
	if (n == 0) {
		pthread_cleanup_push(undo, (void *)100L);
		pthread_exit(NULL);
		pthread_cleanup_pop(0);
	} else {
		rec(n - 1);
	}
	pthread_cleanup_pop(0);
}

void *c_exit_thread(void *arg)
{
	rec(3);
	return arg;
}
