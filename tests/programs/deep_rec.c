// SPDX-License-Identifier: GPL-2.0
/*
 * Deep recursion for the decoder fidelity corpus (docs/fidelity.md):
 * 200 nested calls, more than the 64 return addresses of the PT unit's
 * return-compression stack (SDM 33.4.2.2): the returns of the outer 136
 * frames cannot be compressed and come with TIPs. Linked statically.
 */
#include <stdio.h>

__attribute__((noinline)) static unsigned int down(unsigned int n)
{
	if (n == 0)
		return 1;
	return down(n - 1) * 3 + n;
}

int main(void)
{
	printf("down=%u\n", down(200));
	return 0;
}
