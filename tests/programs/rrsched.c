// SPDX-License-Identifier: GPL-2.0
/*
 * A round-robin scheduler of swapcontext coroutines for the decoder
 * fidelity corpus (docs/fidelity.md, "Stack switches"): three tasks,
 * each switching back to main through the same helper (yield), one of
 * them from a call deeper; main runs them in turn, five rounds, so that
 * each switch back goes into the stack left longest ago. Every task
 * waits in yield's one call of swapcontext: the address a switch back
 * returns to is the same on every stack (only yield's own return tells
 * the tasks apart). The stacks are arrays of their own. Linked
 * statically.
 */
#include <stdio.h>
#include <ucontext.h>

#define ROUNDS 4

static ucontext_t main_ctx, a_ctx, b_ctx, c_ctx;
static ucontext_t *running;
static char a_stack[32768], b_stack[32768], c_stack[32768];
static volatile int score;

__attribute__((noinline)) static void yield(void)
{
	swapcontext(running, &main_ctx);
}

__attribute__((noinline)) static void task_a(void)
{
	int i;

	for (i = 0; i < ROUNDS; i++) {
		score += 1;
		yield();
	}
}

__attribute__((noinline)) static void step(int i)
{
	score += i;
	yield();
}

__attribute__((noinline)) static void task_b(void)
{
	int i;

	for (i = 0; i < ROUNDS; i++)
		step(i);
}

__attribute__((noinline)) static void task_c(void)
{
	int i;

	for (i = 0; i < ROUNDS; i++) {
		score += 3;
		yield();
	}
}

static void make(ucontext_t *ctx, char *stack, size_t size, void (*fn)(void))
{
	getcontext(ctx);
	ctx->uc_stack.ss_sp = stack;
	ctx->uc_stack.ss_size = size;
	ctx->uc_link = &main_ctx;
	makecontext(ctx, fn, 0);
}

/* one turn of task ctx: until it yields, or ends (uc_link) */
__attribute__((noinline)) static void run(ucontext_t *ctx)
{
	running = ctx;
	swapcontext(&main_ctx, ctx);
}

int main(void)
{
	int i;

	make(&a_ctx, a_stack, sizeof(a_stack), task_a);
	make(&b_ctx, b_stack, sizeof(b_stack), task_b);
	make(&c_ctx, c_stack, sizeof(c_stack), task_c);
	/* the last round finds every task ending: uc_link back to main */
	for (i = 0; i <= ROUNDS; i++) {
		run(&a_ctx);
		run(&b_ctx);
		run(&c_ctx);
	}
	printf("score=%d\n", score);
	return 0;
}
