// SPDX-License-Identifier: GPL-2.0
/* A small shared library for the reference-encoder test programs: calls
 * into it go through the PLT and the dynamic loader's lazy binding. */
int shlib_scale(int x, int (*fn)(int));

int shlib_scale(int x, int (*fn)(int))
{
	/* Calls back into the executable through a function pointer. */
	return fn(x) * 3 + 1;
}
