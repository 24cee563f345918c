// SPDX-License-Identifier: GPL-2.0
/*
 * Coroutines that switch stacks (swapcontext, makecontext) for the
 * decoder fidelity corpus (docs/fidelity.md), each switch made from
 * inside nested calls:
 *  - a generator resumed four times by main from inside drive(), each
 *    time yielding from three calls deep (produce -> step -> gen_yield);
 *  - two coroutines, ping and pong, passing control to each other four
 *    times each, from two calls deep in each (volley -> hit), the last
 *    one ending through uc_link back to main.
 * Each switch is a call of swapcontext that "returns" on the other
 * stack: into the other side's last swapcontext call, or the first time
 * into the coroutine's entry. The stacks are arrays of their own, apart
 * from the thread's. Linked statically.
 */
#include <stdio.h>
#include <ucontext.h>

#define ROUNDS 4

static ucontext_t main_ctx, gen_ctx, ping_ctx, pong_ctx;
static char gen_stack[32768], ping_stack[32768], pong_stack[32768];
static volatile int value, score;

__attribute__((noinline)) static void gen_yield(int v)
{
	value = v;
	swapcontext(&gen_ctx, &main_ctx);
}

__attribute__((noinline)) static int step(int i)
{
	gen_yield(i * 10);
	return i + 1;
}

__attribute__((noinline)) static int produce(int i)
{
	return step(i) * 2;
}

__attribute__((noinline)) static void generator(void)
{
	int i, sum = 0;

	for (i = 1; i <= ROUNDS; i++)
		sum += produce(i);
	score += sum;
}

__attribute__((noinline)) static int resume_gen(void)
{
	swapcontext(&main_ctx, &gen_ctx);
	return value;
}

__attribute__((noinline)) static int drive(void)
{
	int i, sum = 0;

	for (i = 0; i < ROUNDS; i++)
		sum += resume_gen();
	return sum;
}

/* Pass control to the other coroutine from two calls deep. */
__attribute__((noinline)) static void hit(ucontext_t *self, ucontext_t *other, int n)
{
	score += n;
	swapcontext(self, other);
}

__attribute__((noinline)) static void volley(ucontext_t *self, ucontext_t *other, int n)
{
	hit(self, other, n);
	score += 1;
}

__attribute__((noinline)) static void ping(void)
{
	int i;

	for (i = 0; i < ROUNDS; i++)
		volley(&ping_ctx, &pong_ctx, i);
}

__attribute__((noinline)) static void pong(void)
{
	int i;

	for (i = 0; i < ROUNDS; i++)
		volley(&pong_ctx, &ping_ctx, 100 + i);
}

static void make(ucontext_t *ctx, char *stack, size_t size, void (*fn)(void))
{
	getcontext(ctx);
	ctx->uc_stack.ss_sp = stack;
	ctx->uc_stack.ss_size = size;
	ctx->uc_link = &main_ctx;
	makecontext(ctx, fn, 0);
}

int main(void)
{
	int sum;

	make(&gen_ctx, gen_stack, sizeof(gen_stack), generator);
	sum = drive();
	make(&ping_ctx, ping_stack, sizeof(ping_stack), ping);
	make(&pong_ctx, pong_stack, sizeof(pong_stack), pong);
	/* ping runs first; pong's last switch finds ping done: uc_link */
	swapcontext(&main_ctx, &ping_ctx);
	printf("sum=%d score=%d\n", sum, score);
	return 0;
}
