// SPDX-License-Identifier: GPL-2.0
/*
 * GCC's own retpolines, for the decoder fidelity corpus
 * (docs/fidelity.md): built with -mindirect-branch=thunk
 * -mfunction-return=thunk, as kernels and hardened programs are. Every
 * indirect call and jump goes through __x86_indirect_thunk_REG (`call
 * 1f; pause; lfence; jmp; 1: mov %REG,(%rsp); ret`), and every function
 * of this file returns by `jmp __x86_return_thunk` (`call 1f; ...; 1:
 * lea 8(%rsp),%rsp; ret`): its RET goes to the return address of the
 * function's own call. Shapes: calls through a table of function
 * pointers in a recursion, an indirect tail call, a switch (its jump
 * table reached through the thunk), a qsort comparator (libc calls it;
 * it returns through the thunk). Linked statically (libc's own code has
 * no thunks). Output is deterministic.
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

typedef long (*op_fn)(long);

NOINLINE static long add1(long x) { return x + 1; }
NOINLINE static long twice(long x) { return x * 2; }
NOINLINE static long square(long x) { return x * x % 1000; }

static op_fn ops[] = { add1, twice, square };
static volatile int pick = 2;

/* an indirect call and the return after it */
NOINLINE long apply(int i, long x)
{
	return ops[i % 3](x) + 1;
}

/* an indirect tail call: `jmp __x86_indirect_thunk_rax` */
NOINLINE long forward(int i, long x)
{
	return ops[(i + pick) % 3](x);
}

NOINLINE long rec(long n)
{
	if (n == 0)
		return 1;
	return apply((int)n, rec(n - 1)) + forward((int)n, n);
}

/* a switch: its jump table is reached through the thunk */
NOINLINE long classify(long v)
{
	switch (v % 7) {
	case 0: return add1(v);
	case 1: return twice(v) + 3;
	case 2: return square(v) - 1;
	case 3: return v ^ 0x55;
	case 4: return twice(add1(v));
	case 5: return v / 3;
	default: return -v;
	}
}

NOINLINE static int cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long v[12], sum = 0;
	int i;

	(void)argv;
	for (i = 0; i < 12; i++)
		v[i] = classify(rec(i % 5 + argc) + i);
	qsort(v, 12, sizeof(v[0]), cmp);
	for (i = 0; i < 12; i++)
		sum += v[i];
	printf("%ld %ld %ld\n", v[0], v[11], sum);
	return 0;
}
