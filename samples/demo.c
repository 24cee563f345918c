// SPDX-License-Identifier: GPL-2.0
/*
 * The program behind the shipped sample (samples/demo.ptscope): a few
 * levels of nested calls, a recursion, a system call (write) and a call
 * into a shared library (libdemo.so) - enough for a timeline with
 * structure. samples/regenerate.sh traces it with ptsynth.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

unsigned int demo_checksum(const char *s, unsigned long n);

__attribute__((noinline)) static unsigned long fib(unsigned int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static unsigned int parse_word(const char *w)
{
	unsigned int v = 0;

	while (*w >= 'a' && *w <= 'z')
		v = v * 26 + (unsigned int)(*w++ - 'a');
	return v;
}

__attribute__((noinline)) static unsigned int parse_config(const char *text)
{
	unsigned int sum = 0;
	const char *p = text;

	while (*p) {
		sum += parse_word(p);
		while (*p && *p != ' ')
			p++;
		while (*p == ' ')
			p++;
	}
	return sum;
}

__attribute__((noinline)) static unsigned long compute(unsigned int seed)
{
	return fib(10 + seed % 3) + demo_checksum("ptscope", 7);
}

__attribute__((noinline)) static void report(unsigned long v)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "demo result %lu\n", v);

	if (write(1, line, (size_t)n) != n)	/* a system call */
		_exit(1);
}

int main(void)
{
	unsigned int seed = parse_config("alpha beta gamma");

	report(compute(seed));
	return 0;
}
