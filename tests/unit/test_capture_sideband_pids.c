// SPDX-License-Identifier: GPL-2.0
/*
 * record snapshots the maps of every process the sideband names: the
 * walk over records laid out as include/uapi/ptscope.h defines them.
 */
#include "unit.h"

#include <errno.h>
#include <string.h>

#include "capture/capture.h"

struct seen {
	int32_t pid[16];
	int n;
};

static void collect(void *ctx, int32_t pid)
{
	struct seen *s = ctx;

	if (s->n < 16)
		s->pid[s->n++] = pid;
}

static void pids_of_switch_exec_fork_exit_trigger_in_order(void)
{
	unsigned char buf[512];
	size_t off = 0;
	struct ptscope_sb_switch sw;
	struct ptscope_sb_exec *ex;
	struct ptscope_sb_fork fk;
	struct ptscope_sb_exit et;
	struct ptscope_sb_trigger tr;
	struct ptscope_sb_lost lo;
	unsigned char exbuf[sizeof(*ex) + 16];
	struct seen s = { .n = 0 };

	memset(&sw, 0, sizeof(sw));
	sw.hdr.type = PTSCOPE_SB_SCHED_SWITCH;
	sw.hdr.size = sizeof(sw);
	sw.prev_pid = 10;
	sw.next_pid = 20;
	memcpy(buf + off, &sw, sizeof(sw));
	off += sizeof(sw);

	memset(exbuf, 0, sizeof(exbuf));
	ex = (struct ptscope_sb_exec *)exbuf;
	ex->hdr.type = PTSCOPE_SB_EXEC;
	ex->hdr.size = sizeof(exbuf);	/* filename "/bin/ls" padded to 8 */
	ex->pid = 30;
	memcpy(ex->filename, "/bin/ls", 8);
	memcpy(buf + off, exbuf, sizeof(exbuf));
	off += sizeof(exbuf);

	memset(&lo, 0, sizeof(lo));
	lo.hdr.type = PTSCOPE_SB_LOST;
	lo.hdr.size = sizeof(lo);
	lo.count = 3;
	memcpy(buf + off, &lo, sizeof(lo));
	off += sizeof(lo);

	memset(&fk, 0, sizeof(fk));
	fk.hdr.type = PTSCOPE_SB_FORK;
	fk.hdr.size = sizeof(fk);
	fk.parent_pid = 30;
	fk.child_pid = 31;
	memcpy(buf + off, &fk, sizeof(fk));
	off += sizeof(fk);

	memset(&et, 0, sizeof(et));
	et.hdr.type = PTSCOPE_SB_EXIT;
	et.hdr.size = sizeof(et);
	et.pid = 31;
	memcpy(buf + off, &et, sizeof(et));
	off += sizeof(et);

	memset(&tr, 0, sizeof(tr));
	tr.hdr.type = PTSCOPE_SB_TRIGGER;
	tr.hdr.size = sizeof(tr);
	tr.pid = 40;
	memcpy(buf + off, &tr, sizeof(tr));
	off += sizeof(tr);

	CU_ASSERT_EQUAL(pts_sideband_pids(buf, off, collect, &s), 6);
	CU_ASSERT_EQUAL_FATAL(s.n, 7);
	CU_ASSERT_EQUAL(s.pid[0], 10);
	CU_ASSERT_EQUAL(s.pid[1], 20);
	CU_ASSERT_EQUAL(s.pid[2], 30);
	CU_ASSERT_EQUAL(s.pid[3], 30);
	CU_ASSERT_EQUAL(s.pid[4], 31);
	CU_ASSERT_EQUAL(s.pid[5], 31);
	CU_ASSERT_EQUAL(s.pid[6], 40);
}

static void record_size_not_multiple_of_8_stops_the_walk(void)
{
	struct ptscope_sb_exit et[2];
	struct seen s = { .n = 0 };

	memset(et, 0, sizeof(et));
	et[0].hdr.type = PTSCOPE_SB_EXIT;
	et[0].hdr.size = sizeof(et[0]) - 4;
	CU_ASSERT_EQUAL(pts_sideband_pids(et, sizeof(et), collect, &s), -EINVAL);
	CU_ASSERT_EQUAL(s.n, 0);
}

static void truncated_last_record_is_refused_not_read_past_the_end(void)
{
	struct ptscope_sb_switch sw;
	struct seen s = { .n = 0 };

	memset(&sw, 0, sizeof(sw));
	sw.hdr.type = PTSCOPE_SB_SCHED_SWITCH;
	sw.hdr.size = sizeof(sw);
	CU_ASSERT_EQUAL(pts_sideband_pids(&sw, sizeof(sw) - 8, collect, &s), -EINVAL);
	CU_ASSERT_EQUAL(s.n, 0);
}

/*
 * A process never switched during the capture is named only by the
 * TRACE_START of its CPU: record must snapshot its maps too. A record of
 * the first ABI (40 bytes) names no task.
 */
static void trace_start_names_the_task_running_at_start(void)
{
	struct ptscope_sb_trace tr[2];
	struct seen s = { .n = 0 };

	memset(tr, 0, sizeof(tr));
	tr[0].hdr.type = PTSCOPE_SB_TRACE_START;
	tr[0].hdr.size = sizeof(tr[0]);
	tr[0].pid = 50;
	tr[0].tid = 51;
	tr[1].hdr.type = PTSCOPE_SB_TRACE_START;
	tr[1].hdr.size = PTSCOPE_SB_TRACE_SIZE_VER0;
	tr[1].pid = 60;	/* past the record's end: not read */
	CU_ASSERT_EQUAL(pts_sideband_pids(tr, sizeof(tr[0]) + PTSCOPE_SB_TRACE_SIZE_VER0,
					  collect, &s), 2);
	CU_ASSERT_EQUAL_FATAL(s.n, 1);
	CU_ASSERT_EQUAL(s.pid[0], 50);
}

PTS_SUITE(capture_sideband_pids, NULL, NULL,
	  PTS_TEST(trace_start_names_the_task_running_at_start),
	  PTS_TEST(pids_of_switch_exec_fork_exit_trigger_in_order),
	  PTS_TEST(record_size_not_multiple_of_8_stops_the_walk),
	  PTS_TEST(truncated_last_record_is_refused_not_read_past_the_end))
