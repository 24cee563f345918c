// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for the reference encoder: signal handlers in every shape
 * the timeline must nest (issue 13): a signal raised synchronously from a
 * callee, a handler that raises an ignored signal (the system call that
 * delivered its own signal returns normally) and another signal
 * (nested), timer signals
 * arriving asynchronously in a loop and again inside their own handler
 * (SA_NODEFER: nested asynchronous), a handler on an alternate signal
 * stack (SA_ONSTACK, sigaltstack), and a handler that leaves with
 * siglongjmp. Every handler calls work(), so the ground truth has calls
 * inside each handler whose depth the timeline must match. The alternate
 * stack is static (in .bss, below the main stack): the structure check
 * drops released frames by stack pointer. Output is deterministic.
 *
 * An argument sets the timers' period in microseconds (default 2000:
 * the loops below are running when they run out, unless the machine is
 * loaded). With 1 they run out before setitimer returns: each timer
 * signal arrives at that system call's exit, and the second one nests
 * on_alarm in itself there.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "period_arg.h"

#define NOINLINE __attribute__((noinline, noipa))

static sigjmp_buf jb;
static volatile sig_atomic_t n_usr1, n_usr2, n_alarm, n_alt, n_jump;
static char altstack[64 * 1024];
static long period = 2000;	/* of the timers, in microseconds */

NOINLINE static int work(int n)
{
	int s = 0, i;

	for (i = 0; i < 4; i++)
		s += n * i;
	return s;
}

static void on_usr2(int sig)
{
	n_usr2 += work(sig);
}

static void on_usr1(int sig)
{
	n_usr1 += work(sig);
	/*
	 * An ignored signal: raise's system calls return normally, from the
	 * very instruction whose return delivered this handler's signal.
	 */
	raise(SIGCHLD);
	raise(SIGUSR2);		/* nested: delivered inside this handler */
	n_usr1 += work(1);
}

static void arm(long usec)
{
	struct itimerval it;

	memset(&it, 0, sizeof(it));
	it.it_value.tv_usec = usec;
	setitimer(ITIMER_REAL, &it, NULL);
}

static void on_alarm(int sig)
{
	volatile unsigned long spin = 0;

	n_alarm++;
	if (n_alarm == 1) {
		arm(period);
		while (n_alarm < 2)	/* the second SIGALRM arrives in here */
			spin++;
	}
	work(sig);
}

static void on_alt(int sig)
{
	char probe;

	n_alt = &probe >= altstack && &probe < altstack + sizeof(altstack) ? 1 : -1;
	work(sig);
}

static void on_jump(int sig)
{
	n_jump = work(sig);
	siglongjmp(jb, 7);
}

NOINLINE static void raise_from_callee(int sig)
{
	raise(sig);
}

static void handle(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

int main(int argc, char **argv)
{
	volatile unsigned long spin = 0;
	stack_t ss;
	int r;

	if (argc > 1)
		period = period_arg(argv[1]);

	handle(SIGUSR1, on_usr1, 0);
	handle(SIGUSR2, on_usr2, 0);
	raise_from_callee(SIGUSR1);

	handle(SIGALRM, on_alarm, SA_NODEFER);
	arm(period);
	while (n_alarm < 2)	/* the first SIGALRM interrupts this loop */
		spin++;

	memset(&ss, 0, sizeof(ss));
	ss.ss_sp = altstack;
	ss.ss_size = sizeof(altstack);
	sigaltstack(&ss, NULL);
	handle(SIGWINCH, on_alt, SA_ONSTACK);
	raise_from_callee(SIGWINCH);

	handle(SIGURG, on_jump, 0);
	r = sigsetjmp(jb, 1);
	if (r == 0)
		raise_from_callee(SIGURG);
	r += work(2);

	printf("usr1=%d usr2=%d alarm=%d alt=%d jump=%d r=%d\n", n_usr1, n_usr2, n_alarm, n_alt,
	       n_jump, r);
	return 0;
}
