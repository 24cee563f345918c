// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshot mode keeps the sideband within a budget: records older than a
 * horizon are folded into each CPU's task (its last switch, after a LOST
 * record counting what went). The expected buffers are worked out by hand;
 * the bounded-memory test replays a long arm period in reads and checks
 * that memory stays bounded and the task of every CPU at the end is still
 * known.
 */
#include "unit.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>
#include "uapi/ptscope.h"

#include "capture/sbfold.h"
#include "capture/sbmerge.h"

static size_t put(uint8_t *buf, size_t off, uint16_t type, uint32_t cpu, uint64_t tsc,
		  int64_t arg)
{
	union {
		struct ptscope_sb_switch sw;
		struct ptscope_sb_fork fk;
		struct ptscope_sb_exit ex;
		struct ptscope_sb_lost lo;
		struct ptscope_sb_trigger tr;
	} u;
	uint16_t size;

	memset(&u, 0, sizeof(u));
	switch (type) {
	case PTSCOPE_SB_SCHED_SWITCH:
		size = sizeof(u.sw);
		u.sw.next_pid = u.sw.next_tid = (int32_t)arg;
		break;
	case PTSCOPE_SB_FORK:
		size = sizeof(u.fk);
		u.fk.child_pid = (int32_t)arg;
		break;
	case PTSCOPE_SB_EXIT:
		size = sizeof(u.ex);
		u.ex.pid = (int32_t)arg;
		break;
	case PTSCOPE_SB_LOST:
		size = sizeof(u.lo);
		u.lo.count = (uint64_t)arg;
		break;
	default:
		size = sizeof(u.tr);
		u.tr.pid = (int32_t)arg;
		break;
	}
	u.sw.hdr.type = type;
	u.sw.hdr.size = size;
	u.sw.hdr.cpu = cpu;
	u.sw.hdr.tsc = tsc;
	memcpy(buf + off, &u, size);
	return off + size;
}

struct rec {
	uint16_t type;
	uint32_t cpu;
	uint64_t tsc;
	int64_t arg;		/* next_pid, LOST count, trigger pid */
};

static size_t walk(const uint8_t *buf, size_t len, struct rec *out, size_t max)
{
	size_t off = 0, n = 0;

	while (off + sizeof(struct ptscope_sb_hdr) <= len && n < max) {
		struct ptscope_sb_hdr h;

		memcpy(&h, buf + off, sizeof(h));
		out[n].type = h.type;
		out[n].cpu = h.cpu;
		out[n].tsc = h.tsc;
		out[n].arg = 0;
		if (h.type == PTSCOPE_SB_SCHED_SWITCH) {
			struct ptscope_sb_switch r;

			memcpy(&r, buf + off, sizeof(r));
			out[n].arg = r.next_pid;
		} else if (h.type == PTSCOPE_SB_LOST) {
			struct ptscope_sb_lost r;

			memcpy(&r, buf + off, sizeof(r));
			out[n].arg = (int64_t)r.count;
		} else if (h.type == PTSCOPE_SB_TRIGGER) {
			struct ptscope_sb_trigger r;

			memcpy(&r, buf + off, sizeof(r));
			out[n].arg = r.pid;
		}
		n++;
		off += h.size;
	}
	return n;
}

#define SW PTSCOPE_SB_SCHED_SWITCH
#define LOST PTSCOPE_SB_LOST

static void old_records_fold_into_each_cpus_last_task(void)
{
	static uint64_t area[128];
	uint8_t *b = (uint8_t *)area;
	struct rec r[16];
	uint64_t dropped = 0;
	size_t len = 0;
	long long n;

	/* merged, TSC order; horizon 50 */
	len = put(b, len, SW, 0, 10, 1);
	len = put(b, len, SW, 1, 15, 3);
	len = put(b, len, PTSCOPE_SB_FORK, 0, 20, 7);
	len = put(b, len, LOST, 1, 25, 3);	/* cpu1 lost 3 after its switch */
	len = put(b, len, PTSCOPE_SB_FORK, 1, 25, 8);
	len = put(b, len, SW, 0, 30, 2);
	len = put(b, len, PTSCOPE_SB_EXIT, 0, 40, 7);
	len = put(b, len, SW, 0, 60, 4);	/* past the horizon: kept as is */
	len = put(b, len, PTSCOPE_SB_TRIGGER, 1, 70, 9);
	n = pts_sb_fold(b, len, 50, &dropped);
	CU_ASSERT_FATAL(n > 0);
	CU_ASSERT_EQUAL_FATAL(walk(b, (size_t)n, r, 16), 5);
	/*
	 * cpu1: its switch (pid 3) is followed by a LOST record, so its task at
	 * the horizon is unknown: a LOST record only, at its last record's TSC,
	 * counting the switch, the 3 lost and the fork: 5.
	 */
	CU_ASSERT(r[0].type == LOST && r[0].cpu == 1 && r[0].tsc == 25 && r[0].arg == 5);
	/* cpu0: switch 10, fork 20 and exit 40 dropped; the switch to pid 2 kept */
	CU_ASSERT(r[1].type == LOST && r[1].cpu == 0 && r[1].tsc == 30 && r[1].arg == 3);
	CU_ASSERT(r[2].type == SW && r[2].cpu == 0 && r[2].tsc == 30 && r[2].arg == 2);
	CU_ASSERT(r[3].type == SW && r[3].cpu == 0 && r[3].tsc == 60 && r[3].arg == 4);
	CU_ASSERT(r[4].type == PTSCOPE_SB_TRIGGER && r[4].tsc == 70 && r[4].arg == 9);
	/* removed: cpu0's 3, cpu1's switch and fork (its 3 were the module's) */
	CU_ASSERT_EQUAL(dropped, 5);
}

static void a_trigger_in_the_folded_part_is_kept_and_nothing_old_is_a_no_op(void)
{
	static uint64_t area[64];
	uint8_t *b = (uint8_t *)area;
	struct rec r[8];
	uint64_t dropped = 1;
	size_t len = 0;
	long long n;

	len = put(b, len, SW, 0, 10, 1);
	len = put(b, len, PTSCOPE_SB_TRIGGER, 0, 12, 5);
	n = pts_sb_fold(b, len, 5, &dropped);		/* nothing below the horizon */
	CU_ASSERT_EQUAL(n, (long long)len);
	CU_ASSERT_EQUAL(dropped, 0);
	n = pts_sb_fold(b, len, 100, &dropped);		/* everything below it */
	CU_ASSERT_EQUAL_FATAL(walk(b, (size_t)n, r, 8), 2);
	CU_ASSERT(r[0].type == SW && r[0].arg == 1);	/* one record only: no LOST */
	CU_ASSERT(r[1].type == PTSCOPE_SB_TRIGGER && r[1].arg == 5);
	CU_ASSERT_EQUAL(dropped, 0);
}

/*
 * A long arm period read 256 records at a time (two CPUs, a switch on each
 * at every TSC step, the reads of one CPU's ring after the other's): with a
 * 1 MiB budget the buffer never holds more than the budget plus one read,
 * and at the end each CPU's last switch is the one it really made (no
 * record newer than the horizon is folded away).
 */
static void a_long_arm_period_stays_within_the_budget(void)
{
	const size_t budget = 1 << 20, per_read = 256;
	const size_t rec = sizeof(struct ptscope_sb_switch);
	const uint64_t steps = 200000;		/* 400000 records, 25.6 MB unfolded */
	size_t cap = budget + 2 * per_read * rec, len = 0, peak = 0, i;
	uint64_t *area = calloc(cap / 8 + 1, 8), folded = 0, t = 0, last_t = 0;
	uint8_t *b = (uint8_t *)area;
	int32_t last_pid[2] = { -1, -1 };
	struct rec *r;
	size_t nr;

	CU_ASSERT_PTR_NOT_NULL_FATAL(area);
	while (t < steps) {
		uint64_t d = 0;
		long long n;

		/* one read: cpu0's pending records, then cpu1's */
		for (int cpu = 0; cpu < 2; cpu++)
			for (i = 0; i < per_read / 2; i++)
				len = put(b, len, SW, (uint32_t)cpu, t + i,
					  (int64_t)(1000 * cpu + (t + i) % 1000));
		last_t = t + per_read / 2 - 1;
		t += per_read / 2;
		if (len > peak)
			peak = len;
		n = pts_sb_keep(b, len, budget, &d);
		CU_ASSERT_FATAL(n > 0);
		len = (size_t)n;
		folded += d;
	}
	CU_ASSERT(peak <= budget + per_read * rec);
	CU_ASSERT(folded > 2 * t - 2 * budget / rec);
	/* as the bundle is written: merged */
	CU_ASSERT_EQUAL(pts_sb_merge(b, len), (long long)len);
	r = calloc(budget / rec + per_read + 16, sizeof(*r));
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	nr = walk(b, len, r, budget / rec + per_read + 16);
	for (i = 0; i < nr; i++)
		if (r[i].type == SW)
			last_pid[r[i].cpu] = (int32_t)r[i].arg;
	CU_ASSERT_EQUAL(last_pid[0], (int32_t)(last_t % 1000));
	CU_ASSERT_EQUAL(last_pid[1], (int32_t)(1000 + last_t % 1000));
	/* the newest half is whole: every step of the last 1000 on both CPUs */
	CU_ASSERT(nr >= 2000);
	for (i = nr - 2000; i + 1 < nr; i++)
		CU_ASSERT(r[i].tsc <= r[i + 1].tsc);
	free(r);
	free(area);
}

PTS_SUITE(capture_sbfold, NULL, NULL,
	  PTS_TEST(old_records_fold_into_each_cpus_last_task),
	  PTS_TEST(a_trigger_in_the_folded_part_is_kept_and_nothing_old_is_a_no_op),
	  PTS_TEST(a_long_arm_period_stays_within_the_budget))
