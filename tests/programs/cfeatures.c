// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for the reference encoder: recursion, function pointers,
 * setjmp/longjmp across frames, signal handlers (raised synchronously
 * and from a timer while user code runs) and shared-library calls.
 * Deterministic output apart from the timer's arrival point. An
 * argument sets the timer's first period in microseconds (default 2000);
 * with 1 it runs out before setitimer returns, so the signal arrives at
 * that system call's exit, until wait_for_alarm's doubling reaches the
 * loop.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>

#include "period_arg.h"

int shlib_scale(int x, int (*fn)(int));

static jmp_buf env;
static volatile sig_atomic_t got_usr1, got_alarm;
static volatile unsigned long alarm_ip;	/* where the timer signal arrived */
extern const char __executable_start[], etext[];	/* this program's code */

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

static void on_alarm(int sig, siginfo_t *si, void *ucontext)
{
	const ucontext_t *uc = ucontext;

	(void)si;
	alarm_ip = uc->uc_mcontext.gregs[REG_RIP];
	got_alarm = fib(5) + sig;
}

/* The interrupted IP lies in this program's code: the loop below. */
static int alarm_hit_loop(void)
{
	return alarm_ip >= (unsigned long)__executable_start &&
	       alarm_ip < (unsigned long)etext;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/*
 * The checks need the timer to interrupt user code (an asynchronous
 * disable). On a loaded machine the timer can run out before setitimer
 * returns: the signal then arrives at its system call's exit, inside
 * libc. Arm again, each time twice as long, until it interrupts the loop.
 */
static void wait_for_alarm(long usec, volatile unsigned long *spin)
{
	struct itimerval it;

	memset(&it, 0, sizeof(it));
	do {
		it.it_value.tv_usec = usec;
		got_alarm = 0;
		setitimer(ITIMER_REAL, &it, NULL);
		while (!got_alarm)	/* the timer interrupts this loop */
			(*spin)++;
		usec *= 2;
	} while (!alarm_hit_loop() && usec < 1000000);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	int v[8] = { 5, 3, 7, 1, 8, 2, 6, 4 };
	volatile unsigned long spin = 0;
	long usec = argc > 1 ? period_arg(argv[1]) : 2000;
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

	sa.sa_handler = NULL;
	sa.sa_sigaction = on_alarm;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGALRM, &sa, NULL);
	wait_for_alarm(usec, &spin);

	printf("sum=%d v0=%d usr1=%d alarm=%d\n", sum, v[0], got_usr1, got_alarm > 0);
	return 0;
}
