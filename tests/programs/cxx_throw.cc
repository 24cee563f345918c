// SPDX-License-Identifier: GPL-2.0
// Test program for the reference encoder: a C++ exception thrown three
// frames down and caught, so the unwinder's returns do not match calls.
#include <cstdio>
#include <stdexcept>

__attribute__((noinline)) static int level3(int x)
{
	if (x > 2)
		throw std::runtime_error("too deep");
	return x;
}

__attribute__((noinline)) static int level2(int x) { return level3(x + 1) + 1; }
__attribute__((noinline)) static int level1(int x) { return level2(x + 1) + 1; }

int main()
{
	int caught = 0;

	for (int i = 0; i < 2; i++) {
		try {
			level1(i);
		} catch (const std::exception &e) {
			caught++;
		}
	}
	std::printf("caught=%d\n", caught);
	return 0;
}
