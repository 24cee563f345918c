// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for the reference encoder: recursion, function pointers,
 * setjmp/longjmp across frames, signal handlers (raised synchronously
 * and from a timer while user code runs) and shared-library calls.
 * Deterministic output apart from the timer's arrival point.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

int shlib_scale(int x, int (*fn)(int));

static jmp_buf env;
static volatile sig_atomic_t got_usr1, got_alarm;

__attribute__((noinline)) static int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static int twice(int x) { return 2 * x; }
__attribute__((noinline)) static int square(int x) { return x * x; }

static int (*const ops[])(int) = { twice, square, fib };

__attribute__((noinline)) static void deep(int n)
{
	if (n == 0)
		longjmp(env, 42);
	deep(n - 1);
	fprintf(stderr, "not reached\n");
}

static void on_usr1(int sig)
{
	got_usr1 = sig;
}

static void on_alarm(int sig)
{
	got_alarm = fib(5) + sig;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int main(void)
{
	struct sigaction sa;
	struct itimerval it;
	int v[8] = { 5, 3, 7, 1, 8, 2, 6, 4 };
	volatile unsigned long spin = 0;
	int i, sum = 0, r;

	sum += fib(12);
	for (i = 0; i < 3; i++)
		sum += ops[i](i + 3);
	sum += shlib_scale(4, square);
	qsort(v, 8, sizeof(v[0]), cmp_int);	/* library calling back into us */

	r = setjmp(env);
	if (r == 0)
		deep(5);
	sum += r;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);

	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	memset(&it, 0, sizeof(it));
	it.it_value.tv_usec = 2000;
	setitimer(ITIMER_REAL, &it, NULL);
	while (!got_alarm)	/* the timer interrupts this loop at some IP */
		spin++;

	printf("sum=%d v0=%d usr1=%d alarm=%d\n", sum, v[0], got_usr1, got_alarm > 0);
	return 0;
}
