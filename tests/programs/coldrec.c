// SPDX-License-Identifier: GPL-2.0
/*
 * Cold parts entered before their function has set up a frame, jumping
 * back into their function while older frames of it are open, for the
 * decoder fidelity corpus (docs/fidelity.md). Built with a profile
 * (tests/ptsynth/build-programs.sh: a training run with the argument
 * "train", where no value is negative, then -fprofile-use): GCC moves
 * the blocks the training never ran into depth.cold and walk.cold, both
 * entered by a conditional branch from the hot part before it has
 * pushed anything (their FDEs begin with the CIE's rule, as a
 * function's entry does), both ending with jumps back into the hot
 * part's middle. The traced run (no argument) has negative values at
 * several depths of each recursion. Linked statically. Output is
 * deterministic.
 */
#include <stdio.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static long table[12] = { 4, -7, 2, 9, -3, 5, 1, 8, 6, -2, 3, 7 };
static long cur, total, visits;

/* Recursion on globals: nothing lives across the recursive call, so the
 * frame (sub $8) is set up only on the path that calls. */
NOINLINE long depth(void)
{
	long v = table[cur];

	if (v < 0)
		v = v * v - 3 * v;
	total += v;
	if (cur == 0)
		return 0;
	cur--;
	depth();
	return visits++;
}

struct node {
	long val;
	struct node *left, *right;
};

static struct node nodes[7];

/* A tree walk: the null check and the negative value's fix are before
 * the frame. */
NOINLINE long walk(const struct node *n)
{
	long v;

	if (!n)
		return 0;
	v = n->val;
	if (v < 0)
		v = -v * 2 + 1;
	return v + walk(n->left) + walk(n->right);
}

int main(int argc, char **argv)
{
	int i;

	if (argc > 1 && strcmp(argv[1], "train") == 0)
		for (i = 0; i < 12; i++)
			table[i] = table[i] < 0 ? -table[i] : table[i];
	for (i = 0; i < 7; i++) {
		nodes[i].val = (argc > 1 || i % 3) ? i + 1 : -(i + 1);
		nodes[i].left = 2 * i + 1 < 7 ? &nodes[2 * i + 1] : NULL;
		nodes[i].right = 2 * i + 2 < 7 ? &nodes[2 * i + 2] : NULL;
	}
	cur = 11;
	depth();
	printf("%ld %ld %ld\n", total, visits, walk(&nodes[0]));
	return 0;
}
