// SPDX-License-Identifier: GPL-2.0
/*
 * PLT calls and a dlopen'ed library for the decoder fidelity corpus
 * (docs/fidelity.md). Built three ways by build-programs.sh: PIE with lazy
 * binding (plt_lazy: the first call of each function goes through the
 * dynamic loader's resolver), PIE with -z now (plt_now: every call goes
 * through a resolved GOT slot) and non-PIE with -z now (plt_nopie). The
 * library is linked (shlib_scale, through the PLT) and opened again with
 * dlopen (dlsym, then a call through a function pointer).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int shlib_scale(int x, int (*fn)(int));

__attribute__((noinline)) static int inc(int x) { return x + 1; }

int main(int argc, char **argv)
{
	char path[4096];
	int (*scale)(int, int (*)(int));
	const char *slash = strrchr(argv[0], '/');
	void *h;
	int a, b;

	a = shlib_scale(2, inc) + shlib_scale(3, inc);	/* the second call is bound */
	snprintf(path, sizeof(path), "%.*s/libshlib.so",
		 slash ? (int)(slash - argv[0]) : 1, slash ? argv[0] : ".");
	h = dlopen(path, RTLD_NOW);
	if (!h)
		return 1;
	scale = (int (*)(int, int (*)(int)))dlsym(h, "shlib_scale");
	b = scale ? scale(4, inc) : -1;
	dlclose(h);
	printf("a=%d b=%d argc=%d\n", a, b, argc);
	return 0;
}
