// SPDX-License-Identifier: GPL-2.0
/* Test program for the reference encoder: clock_gettime through the
 * vdso (no system call on x86-64 with a TSC clocksource). */
#include <stdio.h>
#include <time.h>

int main(void)
{
	struct timespec ts;
	long long sum = 0;
	int i;

	for (i = 0; i < 5; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		sum += ts.tv_nsec & 1;
	}
	printf("%lld\n", sum >= 0);
	return 0;
}
