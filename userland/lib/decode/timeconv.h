/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TSC ticks -> nanoseconds. Two conversions:
 *  - tsc_khz (ptscope bundles, --tsc-khz): ns = tsc * 10^6 / tsc_khz;
 *  - perf's (--pevent-time-*): ns = time_zero + (tsc >> shift) * mult +
 *    (((tsc & (2^shift - 1)) * mult) >> shift), the perf_event_mmap_page
 *    "time_zero/time_mult/time_shift" formula, so times match the perf
 *    sideband's sample times.
 * Results are absolute ns of that clock; the decoder subtracts the trace's
 * origin (its earliest TSC) so timelines start near 0.
 */
#ifndef PTS_DECODE_TIMECONV_H
#define PTS_DECODE_TIMECONV_H

#include <stdint.h>

enum pts_tc_mode {
	PTS_TC_NONE = 0,	/* no conversion known: 1 tick = 1 ns */
	PTS_TC_KHZ,
	PTS_TC_PERF,
};

struct pts_timeconv {
	enum pts_tc_mode mode;
	uint64_t tsc_khz;
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_zero;
};

/* Absolute ns of a TSC value. */
uint64_t pts_tc_ns(const struct pts_timeconv *tc, uint64_t tsc);

#endif
