// SPDX-License-Identifier: GPL-2.0
/*
 * GNU indirect functions and GOT calls for the decoder fidelity corpus
 * (docs/fidelity.md). Built as a PIE with lazy binding
 * (build-programs.sh). checksum is an IFUNC of the executable: the
 * dynamic loader calls its resolver at start-up (an R_X86_64_IRELATIVE
 * relocation) and main calls it through its PLT slot, and through a
 * pointer taken from the GOT. shlib_scale is declared noplt: it is called
 * with `call *shlib_scale@GOTPCREL(%rip)`, bound at load time, no PLT
 * stub; it calls back into the executable. Output is deterministic.
 */
#include <stdio.h>

#define NOINLINE __attribute__((noinline, noipa))

int shlib_scale(int x, int (*fn)(int)) __attribute__((noplt));

NOINLINE static int add_wide(int x) { return x + 1000; }
NOINLINE static int add_narrow(int x) { return x + 10; }

static int (*pick(void))(int)
{
	__builtin_cpu_init();
	/* every x86-64 CPU has SSE2: the resolver always picks add_wide */
	return __builtin_cpu_supports("sse2") ? add_wide : add_narrow;
}

int checksum(int x) __attribute__((ifunc("pick")));

NOINLINE static int twice(int x) { return 2 * x; }

int main(void)
{
	int (*volatile fp)(int) = checksum;
	int a, b, c;

	a = checksum(1) + checksum(2);	/* through the PLT, bound at start-up */
	b = fp(3);			/* the resolved address, from the GOT */
	c = shlib_scale(4, twice) + shlib_scale(5, checksum);	/* GOT calls */
	printf("a=%d b=%d c=%d\n", a, b, c);
	return 0;
}
