// SPDX-License-Identifier: GPL-2.0
/*
 * Returns used otherwise, for the decoder fidelity corpus
 * (docs/fidelity.md), in hand-written functions as hand-written
 * assembly has them: the get-PC idiom (`call 1f; 1: pop %rax`: a CALL
 * whose slot the code pops, no return to it) before a real call, and
 * `push; ret` used as a jump to a function's first byte (a tail call
 * through the stack: the RET consumes the pushed slot, the target
 * returns where the jumper would). Linked statically. Output is
 * deterministic.
 */
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

NOINLINE long leaf(long x)
{
	return x * 3;
}

long getpc_then_call(long x);
long pushret_to_leaf(long x);
__asm__(
	"	.text\n"
	"	.globl getpc_then_call\n"
	"	.type getpc_then_call, @function\n"
	"getpc_then_call:\n"
	"	call 1f\n"
	"1:	pop %rax\n"
	"	sub $8, %rsp\n"
	"	call leaf\n"
	"	add $8, %rsp\n"
	"	ret\n"
	"	.size getpc_then_call, .-getpc_then_call\n"
	"	.globl pushret_to_leaf\n"
	"	.type pushret_to_leaf, @function\n"
	"pushret_to_leaf:\n"
	"	lea leaf(%rip), %rax\n"
	"	push %rax\n"
	"	ret\n"
	"	.size pushret_to_leaf, .-pushret_to_leaf\n");

NOINLINE long outer(long x)
{
	return getpc_then_call(x) + pushret_to_leaf(x + 1) + leaf(2);
}

int main(int argc, char **argv)
{
	long i, sum = 0;

	(void)argv;
	for (i = 0; i < 3; i++)
		sum += outer(argc + i);
	printf("%ld\n", sum);
	return 0;
}
