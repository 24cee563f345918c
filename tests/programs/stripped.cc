// SPDX-License-Identifier: GPL-2.0
/*
 * C++ as a distribution ships it: -O2 and stripped (docs/fidelity.md,
 * stream "stripped"). Nothing names the executable's own functions, nor
 * those of its static libstdc++ (__gxx_exception_cleanup, which
 * _Unwind_DeleteException enters by a tail jump when a catch ends), so
 * their bounds come from .eh_frame alone. Virtual calls through a base
 * class, an exception thrown from a virtual function through frames with
 * destructors (landing pads in cold parts) and caught by an older frame
 * of the thrower's recursion, a rethrow, and a throw through
 * std::function, and two cold parts entered before their functions set
 * up a frame (one returning by itself, one throwing), which nothing in a
 * stripped object ties to their functions. The ground truth's frames
 * are named from the unstripped twin (the same code).
 */
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>

static volatile long sink;

struct Guard {
	int id;
	explicit Guard(int i) : id(i) {}
	~Guard() { sink += id; }
};

struct Shape {
	virtual ~Shape() = default;
	virtual long area(int k) const = 0;
};

struct Square : Shape {
	long side;
	explicit Square(long s) : side(s) {}
	long area(int k) const override { return side * side + k; }
};

struct Faulty : Shape {
	long area(int k) const override
	{
		Guard g(k);
		if (k > 0)
			throw std::runtime_error("faulty");
		return k;
	}
};

/* only odd depths catch: the throw from depth 0 lands at depth 1 */
__attribute__((noinline)) static long rec(const Shape &s, int depth)
{
	Guard g(depth);

	if (depth == 0)
		return s.area(depth + 1);
	if (depth & 1) {
		try {
			return rec(s, depth - 1) + 1;
		} catch (const std::runtime_error &) {
			return -depth;
		}
	}
	return rec(s, depth - 1) + 2;
}

__attribute__((noinline)) static long rethrow(const Shape &s)
{
	try {
		Guard g(7);
		return s.area(3);
	} catch (...) {
		sink++;
		throw;
	}
}

__attribute__((noinline)) static long through(const std::function<long(int)> &f, int k)
{
	Guard g(k);
	return f(k) + 1;
}

/* unlikely: GCC moves the blocks that call it into the caller's cold part */
__attribute__((cold, noinline)) static void report(long v)
{
	sink += v;
}

/*
 * Cold parts entered before the function has set up a frame (the hot
 * path needs none): their FDEs begin with the CIE's rule, as a
 * function's entry does. One calls out and returns by itself, the other
 * throws to the caller.
 */
__attribute__((noinline)) static long clamp(long v)
{
	if (v > 1000) {
		report(v);
		return 1000;
	}
	return v + 1;
}

__attribute__((noinline)) static long checked_index(long i)
{
	if (i < 0)
		throw std::out_of_range("index");
	return i * 2;
}

int main(int argc, char **argv)
{
	Square sq(argc + 2);
	Faulty bad;
	const Shape *shapes[] = { &sq, &bad };
	long total = 0;
	int i;

	(void)argv;
	for (i = 0; i < 4; i++)
		total += shapes[i & 1]->area(i & 1 ? 0 : i);
	total += rec(sq, 4);
	total += rec(bad, 4);
	try {
		total += rethrow(bad);
	} catch (const std::exception &e) {
		total += (long)e.what()[0];
	}
	try {
		total += through([&](int k) { return shapes[k & 1]->area(k); }, 1);
	} catch (const std::runtime_error &) {
		total--;
	}
	total += clamp(argc) + clamp(argc + 2000);
	try {
		total += checked_index(argc) + checked_index(-argc);
	} catch (const std::out_of_range &) {
		total -= 3;
	}
	std::printf("%ld\n", total + sink);
	return 0;
}
