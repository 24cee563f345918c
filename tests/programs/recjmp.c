// SPDX-License-Identifier: GPL-2.0
/*
 * longjmp into an older frame of a recursive function, for the decoder
 * fidelity corpus (docs/fidelity.md): every frame of rec_jump sets a
 * jump buffer; the innermost one jumps to the buffer of the frame two
 * below the top, which then calls work and returns. Every frame's setjmp
 * returns at the same address, and the trace carries no stack pointer:
 * it does not tell which frame the jump lands in (the ground truth does,
 * by the stack pointer at each call). Linked statically. Output is
 * deterministic.
 */
#include <setjmp.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline, noipa))

static jmp_buf bufs[8];

NOINLINE static int work(int x) { return x * 3; }

NOINLINE static int rec_jump(int n, int to)
{
	if (setjmp(bufs[n]))
		return work(n);
	if (n == 0)
		longjmp(bufs[to], 1);
	return rec_jump(n - 1, to) + 1;
}

int main(void)
{
	int b = rec_jump(4, 2);

	printf("b=%d\n", b);
	return 0;
}
