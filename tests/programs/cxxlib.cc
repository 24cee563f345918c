// SPDX-License-Identifier: GPL-2.0
// The library of cxx_unwind.cc: a recursive walk with a destructor in
// each frame that calls back into the executable at the bottom, so an
// exception thrown there unwinds through this library's frames.
struct Count {
	int *p;
	explicit Count(int *q) : p(q) {}
	~Count() { ++*p; }
};

static int unwound;

extern "C" __attribute__((noinline)) int cxxlib_walk(int n, int (*fn)(int))
{
	Count c(&unwound);

	if (n == 0)
		return fn(4);
	return cxxlib_walk(n - 1, fn) + unwound;
}
