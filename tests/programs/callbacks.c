// SPDX-License-Identifier: GPL-2.0
/*
 * Library callbacks as C code uses them, for the decoder fidelity corpus
 * (docs/fidelity.md): qsort and bsearch calling back into comparators,
 * atexit handlers run by exit, calls through a table of function
 * pointers. Built by Clang and linked by lld, static-pie: lld packs its
 * segments in the file, so the executable one begins inside the file
 * page that ends the read-only one, at an address 0x1000 above its file
 * offset, and its mapping's pgoff is in the read-only segment. Output is
 * deterministic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec { int key; const char *name; };

static int by_key(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	return (x->key > y->key) - (x->key < y->key);
}

static int by_name(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	return strcmp(x->name, y->name);
}

static int find_key(const void *k, const void *e)
{
	int key = *(const int *)k;
	const struct rec *r = e;
	return (key > r->key) - (key < r->key);
}

static void bye1(void) { fputs("bye1\n", stdout); }
static void bye2(void) { fputs("bye2\n", stdout); }

static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }
static int (*const ops[])(int) = { twice, square };

int main(void)
{
	static const char *names[] = { "pear", "fig", "apple", "kiwi", "plum",
		"date", "lime", "sloe", "yuzu", "acai", "nut", "olive" };
	struct rec r[12];
	int n = 12, sum = 0;
	atexit(bye1);
	atexit(bye2);
	for (int i = 0; i < n; i++) {
		r[i].key = (i * 7 + 3) % 13;
		r[i].name = names[i];
	}
	qsort(r, n, sizeof r[0], by_key);
	for (int k = 0; k < 14; k++) {
		struct rec *hit = bsearch(&k, r, n, sizeof r[0], find_key);
		if (hit)
			sum += ops[k & 1](hit->key);
	}
	qsort(r, n, sizeof r[0], by_name);
	printf("%s %s %d\n", r[0].name, r[n - 1].name, sum);
	return 0;
}
