// SPDX-License-Identifier: GPL-2.0
/*
 * Indirect jumps for the decoder fidelity corpus (docs/fidelity.md),
 * built with optimisation and sibling calls on (build-programs.sh):
 * switch statements compiled to jump tables (an indirect jmp inside the
 * function, to a case that calls, or that tail-calls), a computed-goto
 * interpreter (`goto *label`, an indirect jmp per opcode), an indirect
 * tail call through a table of functions (`jmp *table(,%rdi,8)` to a
 * function's first byte), a function's cold part (a symbol of its own,
 * reached by a conditional branch, calling out and jumping back), and a hand-written function that ends with a
 * jump into the middle of another function that is not open. Linked
 * statically. Output is deterministic.
 */
#include <stdio.h>

#define NOINLINE __attribute__((noinline, noipa))

NOINLINE int op_add(int x) { return x + 3; }
NOINLINE int op_mul(int x) { return x * 5; }
NOINLINE int op_neg(int x) { return -x; }
NOINLINE int op_sq(int x) { return x * x; }
NOINLINE int op_half(int x) { return x / 2; }
NOINLINE int op_xor(int x) { return x ^ 0x55; }

/* A jump table whose cases call: the calls come from the middle of
 * dispatch, reached by an indirect jmp that stays inside it. */
NOINLINE int dispatch(int op, int x)
{
	int r;

	switch (op) {
	case 0: r = op_add(x); break;
	case 1: r = op_mul(x); break;
	case 2: r = op_neg(x); break;
	case 3: r = op_sq(x); break;
	case 4: r = op_half(x); break;
	case 5: r = op_xor(x); break;
	default: r = 0; break;
	}
	return r + 1;
}

/* A jump table whose cases are tail calls: an indirect jmp inside the
 * function, then a jmp to the callee's first byte. */
NOINLINE int dispatch_tail(int op, int x)
{
	switch (op) {
	case 0: return op_add(x);
	case 1: return op_mul(x);
	case 2: return op_neg(x);
	case 3: return op_sq(x);
	case 4: return op_half(x);
	case 5: return op_xor(x);
	default: return -1;
	}
}

/* An indirect tail call: jmp *table(,%rdi,8), to a function's entry. */
static int (*const table[])(int) = { op_add, op_mul, op_neg, op_sq, op_half, op_xor };

NOINLINE int via_table(unsigned int i, int x)
{
	return table[i % 6](x);
}

/* A computed-goto interpreter: an indirect jmp per opcode, inside the
 * function, one opcode calling out (dispatch) and one tail-calling out. */
enum { ADD, MUL, CALL, HALT, TAIL };

NOINLINE int interp(const unsigned char *pc, int acc)
{
	static void *const labels[] = { &&l_add, &&l_mul, &&l_call, &&l_halt, &&l_tail };

	goto *labels[*pc++];
l_add:
	acc += *pc++;
	goto *labels[*pc++];
l_mul:
	acc *= *pc++;
	goto *labels[*pc++];
l_call:
	acc = dispatch(*pc++, acc);
	goto *labels[*pc++];
l_tail:
	return via_table(*pc, acc);
l_halt:
	return acc;
}

/*
 * Hot and cold parts: the unlikely branch of checked is moved to
 * checked.cold (a symbol of its own), which calls report and jumps back
 * into the middle of checked, which then calls op_sq.
 */
static volatile int reported;

__attribute__((noinline, noipa, cold)) void report(int x) { reported += x; }

NOINLINE int checked(int x)
{
	if (__builtin_expect(x < 0, 0)) {
		report(x);
		x = -x;
	}
	return op_sq(x) + 1;
}

/*
 * mid_target is an ordinary function; enters_mid ends with a jump to its
 * middle (after its first instruction), as hand-written code sharing a
 * tail does: the code from there on, and its call of op_sq, run in
 * enters_mid's frame, with mid_target's bytes.
 */
int mid_target(int x);
int enters_mid(int x);
__asm__(
	"	.text\n"
	"	.globl mid_target\n"
	"	.type mid_target, @function\n"
	"mid_target:\n"
	"	lea 7(%rdi), %edi\n"
	".Lmid_target_body:\n"
	"	sub $8, %rsp\n"
	"	call op_sq\n"
	"	add $8, %rsp\n"
	"	add $1, %eax\n"
	"	ret\n"
	"	.size mid_target, .-mid_target\n"
	"	.globl enters_mid\n"
	"	.type enters_mid, @function\n"
	"enters_mid:\n"
	"	imul $3, %edi, %edi\n"
	"	jmp .Lmid_target_body\n"
	"	.size enters_mid, .-enters_mid\n");

int main(void)
{
	static const unsigned char prog[] = {
		ADD, 4, MUL, 3, CALL, 1, CALL, 3, ADD, 2, CALL, 5, HALT,
	};
	static const unsigned char prog_tail[] = { ADD, 1, CALL, 4, TAIL, 2 };
	int a = 0, b = 0, c = 0, i;

	for (i = 0; i < 7; i++) {
		a += dispatch(i, i + 10);
		b += dispatch_tail(i, i + 10);
		c += via_table(i, i + 10);
	}
	a += interp(prog, 1);
	b += interp(prog_tail, 5);
	c += mid_target(2) + enters_mid(2) + mid_target(1);
	c += checked(3) + checked(-4) + reported;
	printf("a=%d b=%d c=%d\n", a, b, c);
	return 0;
}
