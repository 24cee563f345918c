// SPDX-License-Identifier: GPL-2.0
/*
 * What set RTIT_STATUS.Stopped (kmod/pure/stopped.c) and whether a CPU
 * resumes after offline/online. Expected answers by hand from SDM vol. 3C
 * 33.2.7.2 (a filled ToPA STOP region sets Stopped) and 33.2.4.3
 * (entering a TraceStop range, ADDRn_CFG = 2, sets Stopped); the full
 * ring case is also played on the simulated unit (which does not model
 * TraceStop ranges).
 */
#include "unit.h"
#include "sim_harness.h"
#include "../../kmod/pure/pts_pure.h"

#define KB8 8192ULL
#define STOP0 (2ULL << RTIT_CTL_ADDR_CFG_SHIFT(0))	/* ADDR0_CFG = TraceStop */
#define FILT1 (1ULL << RTIT_CTL_ADDR_CFG_SHIFT(1))	/* ADDR1_CFG = filter */

static void stopped_cause_by_hand(void)
{
	const u64 st = RTIT_STATUS_STOPPED, ctl = SIMT_CTL_BOTH | RTIT_CTL_TRACEEN;

	/* no Stopped: nothing stopped it */
	CU_ASSERT_EQUAL(pts_stopped_cause(0, ctl | STOP0, PTSCOPE_MODE_FULL, KB8, KB8),
			PTS_STOPPED_NOT);
	/* full mode, head at the end: the STOP region filled */
	CU_ASSERT_EQUAL(pts_stopped_cause(st, ctl, PTSCOPE_MODE_FULL, KB8, KB8),
			PTS_STOPPED_FULL);
	CU_ASSERT_EQUAL(pts_stopped_cause(st, ctl | STOP0, PTSCOPE_MODE_FULL, KB8, KB8),
			PTS_STOPPED_FULL);
	/* a TraceStop range and a head before the end: TraceStop, not "full" */
	CU_ASSERT_EQUAL(pts_stopped_cause(st, ctl | STOP0, PTSCOPE_MODE_FULL, 4100, KB8),
			PTS_STOPPED_TRACESTOP);
	/* snapshot mode has no STOP entry: only TraceStop can stop it */
	CU_ASSERT_EQUAL(pts_stopped_cause(st, ctl | STOP0, PTSCOPE_MODE_SNAPSHOT, 100, KB8),
			PTS_STOPPED_TRACESTOP);
	/* TraceStop in range 3, range 1 only filtering */
	CU_ASSERT_EQUAL(pts_stopped_cause(st, ctl | FILT1 | (2ULL << RTIT_CTL_ADDR_CFG_SHIFT(3)),
					  PTSCOPE_MODE_SNAPSHOT, 0, KB8),
			PTS_STOPPED_TRACESTOP);
	CU_ASSERT_EQUAL(pts_stopped_cause(st, ctl | FILT1, PTSCOPE_MODE_FULL, KB8, KB8),
			PTS_STOPPED_FULL);
}

static void a_self_stopped_cpu_does_not_resume(void)
{
	CU_ASSERT_TRUE(pts_cpu_may_resume(0));
	CU_ASSERT_TRUE(pts_cpu_may_resume(PTSCOPE_CPUF_OFFLINED | PTSCOPE_CPUF_WRAPPED));
	CU_ASSERT_FALSE(pts_cpu_may_resume(PTSCOPE_CPUF_STOPPED));
	CU_ASSERT_FALSE(pts_cpu_may_resume(PTSCOPE_CPUF_STOPPED | PTSCOPE_CPUF_TRACESTOP |
					   PTSCOPE_CPUF_OFFLINED));
}

/* A full-mode ring on the simulated unit: Stopped with head == size is "full". */
static void a_filled_stop_region_is_full_not_tracestop(void)
{
	struct simt t;
	u64 status;
	unsigned int i;

	simt_init(&t);
	simt_ring(&t, 2, 0, TOPA_STOP);
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, SIMT_CTL_BOTH | STOP0, 1), 0);
	for (i = 0; i < 1000 && !(simt_rd(&t, RTIT_MSR_STATUS) & RTIT_STATUS_STOPPED); i++)
		simt_ticks(&t, 1, 1000ULL * i);
	status = simt_rd(&t, RTIT_MSR_STATUS);
	CU_ASSERT_TRUE_FATAL(status & RTIT_STATUS_STOPPED);
	CU_ASSERT_EQUAL(simt_head(&t), KB8);
	CU_ASSERT_EQUAL(pts_stopped_cause(status, SIMT_CTL_BOTH | STOP0, PTSCOPE_MODE_FULL,
					  simt_head(&t), KB8), PTS_STOPPED_FULL);
	simt_fini(&t);
}

PTS_SUITE(kmod_stopped, NULL, NULL,
	  PTS_TEST(stopped_cause_by_hand),
	  PTS_TEST(a_self_stopped_cpu_does_not_resume),
	  PTS_TEST(a_filled_stop_region_is_full_not_tracestop))
