// SPDX-License-Identifier: GPL-2.0
/*
 * Fibers that switch stacks the way Boost.Context's jump_fcontext and
 * many green-thread libraries do, for the decoder fidelity corpus
 * (docs/fidelity.md, "Stack switches"): a switch saves the callee-saved
 * registers on the running stack, stores the stack pointer, loads the
 * other fiber's, restores its registers and returns to it by an indirect
 * jump: `pop %r8; jmp *%r8` (fx_jump) or `mov (%rsp),%r8; add $8,%rsp;
 * jmp *%r8` (fx_jump2). No `ret` follows a switch: the address the other
 * fiber's switch call saved is reached by a JMP.
 *
 * Two fibers, a and b, each with a stack of its own (an array), run by
 * main four rounds. In each round a serves from two calls deep
 * (rally -> serve) into b, which volleys back from two calls deep
 * (block -> volley); then each yields to main through the same helper
 * (fyield: both wait in its one call of fx_jump2, the same saved
 * address on both stacks), and main resumes the other. A fiber is
 * entered the first time by the switch's jump to its function's first
 * byte (fx_make puts that address where a switch finds its target). The
 * last round's yields end the fibers for good. Linked statically.
 */
#include <stdio.h>

#define ROUNDS 4

void *fx_jump(void **save, void *to);
void *fx_jump2(void **save, void *to);

/*
 * Save rbp, rbx, r12-r15 on the running stack, store the stack pointer
 * in *save, load `to`, restore the other fiber's registers and jump to
 * the address on top of its stack (its switch call's return address).
 */
__asm__(".text\n"
	".globl fx_jump\n"
	".type fx_jump, @function\n"
	"fx_jump:\n"
	"	push %rbp\n"
	"	push %rbx\n"
	"	push %r12\n"
	"	push %r13\n"
	"	push %r14\n"
	"	push %r15\n"
	"	mov %rsp, (%rdi)\n"
	"	mov %rsi, %rsp\n"
	"	pop %r15\n"
	"	pop %r14\n"
	"	pop %r13\n"
	"	pop %r12\n"
	"	pop %rbx\n"
	"	pop %rbp\n"
	"	pop %r8\n"
	"	jmp *%r8\n"
	".size fx_jump, .-fx_jump\n"
	".globl fx_jump2\n"
	".type fx_jump2, @function\n"
	"fx_jump2:\n"
	"	push %rbp\n"
	"	push %rbx\n"
	"	push %r12\n"
	"	push %r13\n"
	"	push %r14\n"
	"	push %r15\n"
	"	mov %rsp, (%rdi)\n"
	"	mov %rsi, %rsp\n"
	"	pop %r15\n"
	"	pop %r14\n"
	"	pop %r13\n"
	"	pop %r12\n"
	"	pop %rbx\n"
	"	pop %rbp\n"
	"	mov (%rsp), %r8\n"
	"	add $8, %rsp\n"
	"	jmp *%r8\n"
	".size fx_jump2, .-fx_jump2\n");

static void *main_sp, *a_sp, *b_sp;
static char a_stack[32768] __attribute__((aligned(16)));
static char b_stack[32768] __attribute__((aligned(16)));
static volatile int score;

/*
 * A new fiber's saved stack pointer: six registers (zero), then fn's
 * address where a switch takes its target, then a zero return address
 * (fn never returns), with the stack pointer 16-byte aligned plus 8 at
 * fn's first byte, as after a call.
 */
static void *fx_make(char *stack, size_t size, void (*fn)(void))
{
	void **top = (void **)(stack + size);

	*--top = NULL;
	*--top = (void *)fn;
	top -= 6;
	for (int i = 0; i < 6; i++)
		top[i] = NULL;
	return top;
}

/* a fiber's way back to main: both fibers wait in this one call */
__attribute__((noinline)) static void fyield(void **save)
{
	fx_jump2(save, main_sp);
}

__attribute__((noinline)) static void serve(int i)
{
	score += i;
	fx_jump(&a_sp, b_sp);
}

__attribute__((noinline)) static void rally(int i)
{
	serve(i);
	score += 1;
}

__attribute__((noinline)) static void fiber_a(void)
{
	int i;

	for (i = 0; i < ROUNDS; i++) {
		rally(i);
		fyield(&a_sp);
	}
	fyield(&a_sp);	/* never resumed */
}

__attribute__((noinline)) static void volley(int i)
{
	score += 2 * i;
	fx_jump2(&b_sp, a_sp);
}

__attribute__((noinline)) static void block(int i)
{
	volley(i);
	score += 2;
}

__attribute__((noinline)) static void fiber_b(void)
{
	int i;

	for (i = 0; i < ROUNDS; i++) {
		block(i);
		fyield(&b_sp);
	}
	fyield(&b_sp);	/* never resumed */
}

/* main's turn of a fiber: until it yields */
__attribute__((noinline)) static void resume(void **sp)
{
	fx_jump(&main_sp, *sp);
}

int main(void)
{
	int i;

	a_sp = fx_make(a_stack, sizeof(a_stack), fiber_a);
	b_sp = fx_make(b_stack, sizeof(b_stack), fiber_b);
	for (i = 0; i < ROUNDS; i++) {
		resume(&a_sp);
		resume(&b_sp);
	}
	/* both fibers yield once more from their last round, then end */
	resume(&a_sp);
	resume(&b_sp);
	printf("score=%d\n", score);
	return 0;
}
