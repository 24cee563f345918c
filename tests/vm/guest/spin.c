// SPDX-License-Identifier: GPL-2.0
/*
 * spin MS: a workload for the guest scenarios. Calls a few small
 * functions in a loop and makes a cheap syscall every iteration, so a
 * capture of it has user code, kernel entries and returns, for MS
 * milliseconds of CLOCK_MONOTONIC; then exits (sched_process_exit is
 * the tracepoint trigger of several scenarios). With MS = 0 it waits
 * for one byte (or EOF) on stdin first and then exits at once, so a
 * test can arm the trigger for its pid before it exits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static __attribute__((noinline)) unsigned long leaf(unsigned long x)
{
	return x * 2654435761UL + 1;
}

static __attribute__((noinline)) unsigned long middle(unsigned long x)
{
	return leaf(x) ^ leaf(x >> 3);
}

static unsigned long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_sec * 1000 + (unsigned long)ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	unsigned long ms = argc > 1 ? strtoul(argv[1], NULL, 0) : 0;
	unsigned long end;
	char c;

	if (ms == 0) {
		if (read(0, &c, 1) < 0)
			return 1;
		return 0;
	}
	end = now_ms() + ms;
	while (now_ms() < end) {
		for (int i = 0; i < 1000; i++)
			sink += middle(sink + (unsigned long)i);
		getppid();
	}
	return 0;
}
