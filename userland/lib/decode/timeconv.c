// SPDX-License-Identifier: GPL-2.0
#include "timeconv.h"

uint64_t pts_tc_ns(const struct pts_timeconv *tc, uint64_t tsc)
{
	switch (tc->mode) {
	case PTS_TC_KHZ: {
		/* split to avoid overflow of tsc * 10^6 */
		uint64_t q = tsc / tc->tsc_khz, r = tsc % tc->tsc_khz;

		return q * 1000000ULL + r * 1000000ULL / tc->tsc_khz;
	}
	case PTS_TC_PERF: {
		uint64_t q = tsc >> tc->time_shift;
		uint64_t r = tsc & ((1ULL << tc->time_shift) - 1);

		return tc->time_zero + q * tc->time_mult + ((r * tc->time_mult) >> tc->time_shift);
	}
	default:
		return tsc;
	}
}
