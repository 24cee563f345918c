// SPDX-License-Identifier: GPL-2.0
// C++ exceptions with cleanups for the decoder fidelity corpus
// (docs/fidelity.md): thrown from a shared library (libcxxlib.so) back
// through a callback into the executable, and through several frames of
// one recursive function that each run a destructor on the way
// (landing pads, then _Unwind_Resume, which goes on unwinding from the
// frame below), caught, rethrown and caught again. Output is
// deterministic.
#include <cstdio>
#include <stdexcept>

extern "C" int cxxlib_walk(int n, int (*fn)(int));	// libcxxlib.so

static int destroyed;

struct Guard {
	int v;
	explicit Guard(int x) : v(x) {}
	~Guard() { destroyed += v; }
};

__attribute__((noinline)) static int leaf_throw(int x)
{
	if (x >= 3)
		throw std::runtime_error("deep");
	return x;
}

// Recursion with a destructor in every frame: the exception leaves
// each frame through its landing pad, frame by frame.
__attribute__((noinline)) static int rec(int n, int depth)
{
	Guard g(n);

	if (n == depth)
		return leaf_throw(n);
	return rec(n + 1, depth) + g.v;
}

// Called back by the library: it throws through the library's frames
// (which have cleanups of their own) back into main.
extern "C" __attribute__((noinline)) int callback(int x)
{
	Guard g(100);

	return rec(x, x + 1);
}

__attribute__((noinline)) static int rethrow(int depth)
{
	try {
		return rec(depth, depth);
	} catch (const std::exception &) {
		destroyed += 1000;
		throw;
	}
}

int main()
{
	int caught = 0, r = 0;

	r += rec(0, 2);			// no throw: 3 frames return normally
	try {
		r += rec(0, 4);		// thrown 5 frames down
	} catch (const std::exception &) {
		caught++;
	}
	try {
		r += cxxlib_walk(2, callback);
	} catch (const std::exception &) {
		caught++;
	}
	try {
		r += rethrow(3);
	} catch (const std::exception &) {
		caught++;
	}
	std::printf("caught=%d r=%d destroyed=%d\n", caught, r, destroyed);
	return 0;
}
