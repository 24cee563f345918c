// SPDX-License-Identifier: GPL-2.0
/*
 * What set RTIT_STATUS.Stopped, and whether a CPU may resume tracing
 * after it comes back online. Section numbers: Intel SDM vol. 3C
 * chapter 33.
 */
#include "pts_pure.h"

static bool ctl_has_tracestop(u64 ctl)
{
	unsigned int n;

	for (n = 0; n < PTSCOPE_MAX_ADDR_RANGES; n++)
		if (rtit_ctl_field_get(ctl, RTIT_CTL_ADDR_CFG_MASK(n),
				       RTIT_CTL_ADDR_CFG_SHIFT(n)) == RTIT_ADDR_CFG_STOP)
			return true;
	return false;
}

/*
 * Stopped is set by exactly two things: an output region whose ToPA
 * entry has STOP filled up (33.2.7.2; ptscope sets STOP on the last
 * region in full mode only, so that means head == buffer_size), or a
 * TraceStop range was entered (33.2.4.3, ADDRn_CFG = 2), which can
 * happen anywhere in the ring.
 */
enum pts_stopped_by pts_stopped_cause(u64 status, u64 ctl, u32 mode, u64 head,
				      u64 buffer_size)
{
	if (!(status & RTIT_STATUS_STOPPED))
		return PTS_STOPPED_NOT;
	if (mode == PTSCOPE_MODE_FULL && head == buffer_size)
		return PTS_STOPPED_FULL;
	if (ctl_has_tracestop(ctl))
		return PTS_STOPPED_TRACESTOP;
	return PTS_STOPPED_FULL;
}

/*
 * A CPU whose unit stopped by itself (Stopped: full ring or TraceStop)
 * keeps its data across offline/online: resuming would clear Stopped and
 * write over the oldest bytes of a full ring, or trace past a TraceStop.
 */
bool pts_cpu_may_resume(u32 cpu_flags)
{
	return !(cpu_flags & (PTSCOPE_CPUF_STOPPED | PTSCOPE_CPUF_TRACESTOP));
}
