// SPDX-License-Identifier: GPL-2.0
/*
 * The module's sideband arrives one CPU ring after another (each CPU's
 * records in TSC order, docs/abi.md); the bundle's file is the merge of
 * those streams by TSC. Expected orders are worked out by hand below.
 */
#include "unit.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <linux/types.h>
#include "uapi/ptscope.h"

#include "capture/sbmerge.h"

/* 8-byte aligned scratch, records appended with put_*() */
static uint64_t area[256];
#define BUF ((uint8_t *)area)

static size_t put_switch(size_t off, uint32_t cpu, uint64_t tsc, int32_t next_pid)
{
	struct ptscope_sb_switch r;

	memset(&r, 0, sizeof(r));
	r.hdr.type = PTSCOPE_SB_SCHED_SWITCH;
	r.hdr.size = sizeof(r);
	r.hdr.cpu = cpu;
	r.hdr.tsc = tsc;
	r.next_pid = next_pid;
	memcpy(BUF + off, &r, sizeof(r));
	return off + sizeof(r);
}

static size_t put_lost(size_t off, uint32_t cpu, uint64_t tsc, uint64_t count)
{
	struct ptscope_sb_lost r;

	memset(&r, 0, sizeof(r));
	r.hdr.type = PTSCOPE_SB_LOST;
	r.hdr.size = sizeof(r);
	r.hdr.cpu = cpu;
	r.hdr.tsc = tsc;
	r.count = count;
	memcpy(BUF + off, &r, sizeof(r));
	return off + sizeof(r);
}

/* An exec record with a 13-byte file name: 72 bytes, not a switch's size. */
static size_t put_exec(size_t off, uint32_t cpu, uint64_t tsc, int32_t pid)
{
	unsigned char b[sizeof(struct ptscope_sb_exec) + 16];
	struct ptscope_sb_exec *r = (void *)b;

	memset(b, 0, sizeof(b));
	r->hdr.type = PTSCOPE_SB_EXEC;
	r->hdr.size = sizeof(b);
	r->hdr.cpu = cpu;
	r->hdr.tsc = tsc;
	r->pid = pid;
	memcpy(r->filename, "/usr/bin/prog", 14);
	memcpy(BUF + off, b, sizeof(b));
	return off + sizeof(b);
}

/* Walk the merged buffer: the (cpu, tsc, type, id) of each record. */
struct rec {
	uint32_t cpu;
	uint64_t tsc;
	uint16_t type;
	int64_t id;		/* next_pid, exec pid or LOST count */
};

static size_t walk(size_t len, struct rec *out, size_t max)
{
	size_t off = 0, n = 0;

	while (off + sizeof(struct ptscope_sb_hdr) <= len && n < max) {
		struct ptscope_sb_hdr h;

		memcpy(&h, BUF + off, sizeof(h));
		out[n].cpu = h.cpu;
		out[n].tsc = h.tsc;
		out[n].type = h.type;
		if (h.type == PTSCOPE_SB_SCHED_SWITCH) {
			struct ptscope_sb_switch r;

			memcpy(&r, BUF + off, sizeof(r));
			out[n].id = r.next_pid;
		} else if (h.type == PTSCOPE_SB_EXEC) {
			struct ptscope_sb_exec r;

			memcpy(&r, BUF + off, sizeof(r));
			out[n].id = r.pid;
			CU_ASSERT_STRING_EQUAL((const char *)BUF + off + sizeof(r), "/usr/bin/prog");
		} else if (h.type == PTSCOPE_SB_LOST) {
			struct ptscope_sb_lost r;

			memcpy(&r, BUF + off, sizeof(r));
			out[n].id = (int64_t)r.count;
		}
		n++;
		off += h.size;
	}
	return n;
}

static void two_cpu_streams_merge_by_tsc_each_cpu_order_kept(void)
{
	struct rec r[16];
	size_t len = 0;

	memset(area, 0, sizeof(area));
	/* cpu0's ring, then cpu1's, as one read returns them */
	len = put_switch(len, 0, 10, 100);
	len = put_switch(len, 0, 30, 101);
	len = put_exec(len, 0, 50, 102);
	len = put_switch(len, 1, 20, 200);
	len = put_switch(len, 1, 30, 201);	/* same TSC as cpu0's 101 */
	len = put_lost(len, 1, 40, 7);		/* LOST and the record after it: one TSC */
	len = put_switch(len, 1, 40, 202);
	CU_ASSERT_EQUAL(pts_sb_merge(BUF, len), (long long)len);
	CU_ASSERT_EQUAL_FATAL(walk(len, r, 16), 7);
	/* by TSC; at equal TSCs the record read first first (cpu0 before cpu1,
	 * LOST before the record it precedes on its CPU) */
	CU_ASSERT(r[0].tsc == 10 && r[0].cpu == 0 && r[0].id == 100);
	CU_ASSERT(r[1].tsc == 20 && r[1].cpu == 1 && r[1].id == 200);
	CU_ASSERT(r[2].tsc == 30 && r[2].cpu == 0 && r[2].id == 101);
	CU_ASSERT(r[3].tsc == 30 && r[3].cpu == 1 && r[3].id == 201);
	CU_ASSERT(r[4].tsc == 40 && r[4].type == PTSCOPE_SB_LOST && r[4].id == 7);
	CU_ASSERT(r[5].tsc == 40 && r[5].cpu == 1 && r[5].id == 202);
	CU_ASSERT(r[6].tsc == 50 && r[6].type == PTSCOPE_SB_EXEC && r[6].id == 102);
}

static void reads_interleaved_across_calls_are_merged_too(void)
{
	struct rec r[16];
	size_t len = 0;

	memset(area, 0, sizeof(area));
	/* first read: cpu0 {10, 40}, cpu1 {20}; second read: cpu0 {50}, cpu1 {30} */
	len = put_switch(len, 0, 10, 1);
	len = put_switch(len, 0, 40, 2);
	len = put_switch(len, 1, 20, 3);
	len = put_switch(len, 0, 50, 4);
	len = put_switch(len, 1, 30, 5);
	CU_ASSERT_EQUAL(pts_sb_merge(BUF, len), (long long)len);
	CU_ASSERT_EQUAL_FATAL(walk(len, r, 16), 5);
	CU_ASSERT_EQUAL(r[0].id, 1);
	CU_ASSERT_EQUAL(r[1].id, 3);
	CU_ASSERT_EQUAL(r[2].id, 5);
	CU_ASSERT_EQUAL(r[3].id, 2);
	CU_ASSERT_EQUAL(r[4].id, 4);
}

static void a_damaged_record_ends_the_merge_and_stays_behind(void)
{
	struct ptscope_sb_hdr bad;
	struct rec r[16];
	size_t len = 0, cut;

	memset(area, 0, sizeof(area));
	len = put_switch(len, 1, 20, 1);
	len = put_switch(len, 0, 10, 2);
	cut = len;
	memset(&bad, 0, sizeof(bad));
	bad.type = PTSCOPE_SB_SCHED_SWITCH;
	bad.size = 12;			/* not a multiple of 8 */
	bad.tsc = 5;
	memcpy(BUF + len, &bad, sizeof(bad));
	len += sizeof(bad);
	CU_ASSERT_EQUAL(pts_sb_merge(BUF, len), (long long)cut);
	CU_ASSERT_EQUAL_FATAL(walk(cut, r, 16), 2);
	CU_ASSERT_EQUAL(r[0].id, 2);
	CU_ASSERT_EQUAL(r[1].id, 1);
	CU_ASSERT_EQUAL(memcmp(BUF + cut, &bad, sizeof(bad)), 0);
	/* nothing whole: nothing merged, nothing moved */
	CU_ASSERT_EQUAL(pts_sb_merge(BUF + cut, sizeof(bad)), 0);
	CU_ASSERT_EQUAL(pts_sb_merge(BUF, 0), 0);
}

PTS_SUITE(capture_sbmerge, NULL, NULL,
	  PTS_TEST(two_cpu_streams_merge_by_tsc_each_cpu_order_kept),
	  PTS_TEST(reads_interleaved_across_calls_are_merged_too),
	  PTS_TEST(a_damaged_record_ends_the_merge_and_stays_behind))
