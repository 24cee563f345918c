// SPDX-License-Identifier: GPL-2.0
/*
 * swapcontext coroutines for the decoder fidelity corpus
 * (docs/fidelity.md): a generator on its own stack yields three values
 * to main. Each switch is a call of swapcontext that "returns" on the
 * other stack, into the other coroutine's last swapcontext call (or, the
 * first time, into the generator's entry through makecontext's
 * trampoline). Linked statically.
 */
#include <stdio.h>
#include <ucontext.h>

static ucontext_t main_ctx, gen_ctx;
static char gen_stack[16384];
static int value;

__attribute__((noinline)) static void yield(int v)
{
	value = v;
	swapcontext(&gen_ctx, &main_ctx);
}

__attribute__((noinline)) static void generator(void)
{
	int i;

	for (i = 1; i <= 3; i++)
		yield(i * 10);
}

int main(void)
{
	int sum = 0, i;

	getcontext(&gen_ctx);
	gen_ctx.uc_stack.ss_sp = gen_stack;
	gen_ctx.uc_stack.ss_size = sizeof(gen_stack);
	gen_ctx.uc_link = &main_ctx;
	makecontext(&gen_ctx, generator, 0);
	for (i = 0; i < 3; i++) {
		swapcontext(&main_ctx, &gen_ctx);
		sum += value;
	}
	printf("sum=%d\n", sum);
	return 0;
}
