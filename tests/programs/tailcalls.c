// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for the reference encoder: tail calls, built with
 * sibling-call optimisation on (tests/ptsynth/build-programs.sh), so the
 * calls in return position below are `jmp` to the callee's first byte.
 * Chains of tail calls, mutual recursion through tail calls, and a tail
 * call into a function that has an older frame open (f calls g, g
 * tail-calls f: the second f replaces g, it does not return into the
 * first f). Output is deterministic.
 */
#include <stdio.h>

#define NOINLINE __attribute__((noinline, noipa))

NOINLINE int leaf(int x)
{
	return x * 3 + 1;
}

NOINLINE int tail_one(int x)
{
	return leaf(x + 1);
}

NOINLINE int tail_chain(int x)
{
	return tail_one(x * 2);
}

NOINLINE int is_odd(int n);

NOINLINE int is_even(int n)
{
	return n ? is_odd(n - 1) : 1;
}

NOINLINE int is_odd(int n)
{
	return n ? is_even(n - 1) : 0;
}

NOINLINE int f(int n);

NOINLINE int g(int n)
{
	return f(n - 1);	/* tail call while the caller f is open */
}

NOINLINE int f(int n)
{
	int r;

	if (n <= 0)
		return leaf(n);
	r = g(n);		/* not a tail call: r + n follows */
	return r + n;
}

int main(void)
{
	int a = tail_chain(5), b = is_even(7), c = f(4);

	printf("chain=%d even=%d f=%d\n", a, b, c);
	return 0;
}
