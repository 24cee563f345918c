// SPDX-License-Identifier: GPL-2.0
/*
 * perf sideband (pevent) records and perf's TSC conversion. Records are
 * written here byte by byte from the layouts of include/uapi/linux/
 * perf_event.h (struct perf_event_header, then the record's fields, then
 * the sample_id trailer for sample_type TID|TIME|CPU|IDENTIFIER = 0x10086:
 * pid, tid, time, cpu, res, identifier), so the expected values are known
 * without any perf code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#include "unit.h"
#include "skz84_tma.h"
#include "decode/ptdec.h"
#include "decode/sideband.h"
#include "decode/timeconv.h"

static uint8_t buf[1024];
static size_t len;

static void put(const void *p, size_t n)
{
	memcpy(buf + len, p, n);
	len += n;
}

static void put32(uint32_t v) { put(&v, 4); }
static void put64(uint64_t v) { put(&v, 8); }

static void header(uint32_t type, uint16_t misc, uint16_t size)
{
	put32(type);
	put(&misc, 2);
	put(&size, 2);
}

static void sample_id(uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu)
{
	put32(pid);
	put32(tid);
	put64(time);
	put32(cpu);
	put32(0);
	put64(0x371);	/* identifier */
}

static const char *write_file(void)
{
	static char path[64];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/pts-pevent.XXXXXX");
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	f = fdopen(fd, "wb");
	CU_ASSERT_EQUAL(fwrite(buf, 1, len, f), len);
	fclose(f);
	return path;
}

static void switch_comm_mmap_and_itrace_start_records_are_read(void)
{
	struct pts_sideband sb = { 0 };
	struct pts_err err = { 0 };
	const char *path;
	char name[16] = "worker";
	char file[16] = "/usr/bin/app";

	len = 0;
	/* ITRACE_START (12): pid 10 tid 11 on cpu 2 at 1000 */
	header(12, 0, 8 + 8 + 32);
	put32(10);
	put32(11);
	sample_id(10, 11, 1000, 2);
	/* SWITCH_CPU_WIDE (15) out (misc 0x2000): next is pid 20 tid 21, at 2000 on cpu 2 */
	header(15, 0x2000, 8 + 8 + 32);
	put32(20);
	put32(21);
	sample_id(10, 11, 2000, 2);
	/* SWITCH_CPU_WIDE in: pid 20 tid 21 itself, at 2001 on cpu 2 */
	header(15, 0, 8 + 8 + 32);
	put32(10);
	put32(11);
	sample_id(20, 21, 2001, 2);
	/* SWITCH (14) out: ignored (the next task's switch-in says who runs) */
	header(14, 0x2000, 8 + 32);
	sample_id(20, 21, 3000, 2);
	/* COMM (3) with PERF_RECORD_MISC_COMM_EXEC (0x2000): pid 20 tid 21 exec'd "worker" */
	header(3, 0x2000, 8 + 8 + 16 + 32);
	put32(20);
	put32(21);
	put(name, 16);
	sample_id(20, 21, 1500, 2);
	/* MMAP2 (10): pid 20 maps /usr/bin/app at 0x400000, 0x1000 bytes, pgoff 0x1000, prot r-x */
	header(10, 2, 8 + 64 + 16 + 32);
	put32(20);
	put32(21);
	put64(0x400000);
	put64(0x1000);
	put64(0x1000);
	put32(0);	/* maj */
	put32(0);	/* min */
	put64(0);	/* ino */
	put64(0);	/* ino_generation */
	put32(5);	/* prot: PROT_READ | PROT_EXEC */
	put32(2);	/* flags */
	put(file, 16);
	sample_id(20, 21, 1200, 2);
	path = write_file();
	CU_ASSERT_EQUAL_FATAL(pts_pevent_load(&sb, path, 0x10086, &err), 0);
	unlink(path);
	pts_sideband_sort(&sb);
	/* in time order: itrace 1000, mmap 1200, comm + exec 1500, switch 2000, switch 2001 */
	CU_ASSERT_EQUAL_FATAL(sb.n, 6);
	CU_ASSERT_EQUAL(sb.recs[0].type, PTS_SB_SWITCH);
	CU_ASSERT_EQUAL(sb.recs[0].tid, 11);
	CU_ASSERT_EQUAL(sb.recs[0].cpu, 2);
	CU_ASSERT_EQUAL(sb.recs[1].type, PTS_SB_MMAP);
	CU_ASSERT_EQUAL(sb.recs[1].start, 0x400000);
	CU_ASSERT_EQUAL(sb.recs[1].len, 0x1000);
	CU_ASSERT_EQUAL(sb.recs[1].pgoff, 0x1000);
	CU_ASSERT_EQUAL(sb.recs[1].prot, 5);
	CU_ASSERT_STRING_EQUAL(sb.recs[1].name, "/usr/bin/app");
	CU_ASSERT_EQUAL(sb.recs[2].type, PTS_SB_COMM);
	CU_ASSERT_STRING_EQUAL(sb.recs[2].name, "worker");
	CU_ASSERT_EQUAL(sb.recs[3].type, PTS_SB_EXEC);
	CU_ASSERT_EQUAL(sb.recs[3].tid, 21);
	CU_ASSERT_EQUAL(sb.recs[3].cpu, 2);
	CU_ASSERT_EQUAL(sb.recs[4].type, PTS_SB_SWITCH);	/* switch-out names the next task */
	CU_ASSERT_EQUAL(sb.recs[4].pid, 20);
	CU_ASSERT_EQUAL(sb.recs[4].tid, 21);
	CU_ASSERT_EQUAL(sb.recs[4].time_ns, 2000);
	CU_ASSERT_EQUAL(sb.recs[5].type, PTS_SB_SWITCH);
	CU_ASSERT_EQUAL(sb.recs[5].tid, 21);
	pts_sideband_free(&sb);
}

/*
 * MMAP2 (10) of /usr/bin/app with misc PERF_RECORD_MISC_MMAP_BUILD_ID
 * (1 << 14): build_id_size (u8), two reserved fields (u8, u16) and
 * build_id[20] where maj, min, ino and ino_generation are otherwise.
 */
static void mmap2_build_id(uint16_t misc, uint8_t size)
{
	uint8_t id[24] = { 0 };
	char file[16] = "/usr/bin/app";
	unsigned int i;

	id[0] = size;
	for (i = 0; i < 20; i++)
		id[4 + i] = (uint8_t)(0xa0 + i);
	header(10, misc, 8 + 64 + 16 + 32);
	put32(20);
	put32(21);
	put64(0x400000);
	put64(0x1000);
	put64(0);
	put(id, 24);
	put32(5);
	put32(2);
	put(file, 16);
	sample_id(20, 21, 1200, 2);
}

static void an_mmap2_records_build_id_is_read(void)
{
	static const struct { uint16_t misc; uint8_t size; const char *want; } c[] = {
		{ 0x4002, 20, "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3" },
		{ 0x4002, 16, "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf" },	/* ld --build-id=md5 */
		{ 0x0002, 20, NULL },	/* maj, min, ino: no build-id */
		{ 0x4002, 0, NULL },	/* damaged: none to check by */
		{ 0x4002, 21, NULL },	/* past build_id[20]: damaged */
	};
	struct pts_sideband sb = { 0 };
	struct pts_err err = { 0 };
	const char *path;
	size_t i;

	len = 0;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		mmap2_build_id(c[i].misc, c[i].size);
	path = write_file();
	CU_ASSERT_EQUAL_FATAL(pts_pevent_load(&sb, path, 0x10086, &err), 0);
	unlink(path);
	CU_ASSERT_EQUAL_FATAL(sb.n, sizeof(c) / sizeof(c[0]));
	for (i = 0; i < sb.n; i++) {
		CU_ASSERT_STRING_EQUAL(sb.recs[i].name, "/usr/bin/app");
		CU_ASSERT_EQUAL(sb.recs[i].prot, 5);
		if (!c[i].want) {
			CU_ASSERT_PTR_NULL(sb.recs[i].build_id);
		} else {
			CU_ASSERT_PTR_NOT_NULL_FATAL(sb.recs[i].build_id);
			CU_ASSERT_STRING_EQUAL(sb.recs[i].build_id, c[i].want);
		}
	}
	pts_sideband_free(&sb);
}

static void record_running_past_the_end_is_refused_with_its_offset(void)
{
	struct pts_sideband sb = { 0 };
	struct pts_err err = { 0 };
	const char *path;

	len = 0;
	header(12, 0, 8 + 8 + 32);
	put32(10);
	put32(11);
	sample_id(10, 11, 1000, 2);
	header(12, 0, 200);	/* says 200 bytes, file ends after 8 */
	path = write_file();
	CU_ASSERT_EQUAL(pts_pevent_load(&sb, path, 0x10086, &err), -EINVAL);
	unlink(path);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "offset 48"));
	pts_sideband_free(&sb);
}

/*
 * perf's conversion, with the dynamorio-hello host's values (time_shift
 * 31, time_mult 581029125, time_zero 18444502336406842448): by the
 * formula ns = zero + (tsc >> 31) * mult + ((tsc & (2^31 - 1)) * mult >> 31)
 * (wrapping in 64 bits), worked here with exact 128-bit arithmetic. The
 * trace's first TSC must land just after the sideband's ITRACE_START
 * (0x4ec21f916c32c ns, 1385530.563937 s), as the data README says.
 */
static void perf_time_conversion_matches_the_formula_and_the_sideband(void)
{
	struct pts_timeconv tc = { PTS_TC_PERF, 0, 31, 581029125, 18444502336406842448ULL };
	uint64_t tsc, ns, want;
	unsigned __int128 q;
	char path[512];
	uint8_t *pt;
	FILE *f;
	size_t n;

	tsc = 0x123456789abULL;
	q = (unsigned __int128)tsc * 581029125;
	want = tc.time_zero + (uint64_t)(q >> 31);
	CU_ASSERT_EQUAL(pts_tc_ns(&tc, tsc), want);

	snprintf(path, sizeof(path), "%s/data/real/dynamorio-hello/pt.bin", pts_unit_shared_dir());
	f = fopen(path, "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	pt = calloc(1, 8192 + PTS_PT_PAD);
	n = fread(pt, 1, 8192, f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(pts_pt_first_tsc(pt, n, NULL, &tsc), 0);
	free(pt);
	ns = pts_tc_ns(&tc, tsc);
	CU_ASSERT(ns >= 0x4ec21f916c32cULL);
	CU_ASSERT(ns - 0x4ec21f916c32cULL < 1000000);	/* within 1 ms */
}

static void tsc_khz_conversion_does_not_overflow(void)
{
	struct pts_timeconv tc = { PTS_TC_KHZ, 3000000, 0, 0, 0 };	/* 3 GHz */

	CU_ASSERT_EQUAL(pts_tc_ns(&tc, 3000000000ULL), 1000000000ULL);
	/* 2^63 ticks at 3 GHz: 3074457345618258602 ns, no overflow of tsc * 10^6 */
	CU_ASSERT_EQUAL(pts_tc_ns(&tc, 1ULL << 63), 3074457345618258602ULL);
}

/*
 * A PSB+ whose TMA has a reserved bit set (FC bit 9), then a PAD and the
 * PSB+'s TSC; a second PSB+ with a later TSC. For a CPU with erratum SKZ84
 * (6/85/4) libipt passes over the TMA and the PAD, as the decoders do, and
 * reads the first TSC: the time origin. Without the errata the TMA is
 * damage, and the reader resynchronises at the second PSB, its TSC later.
 */
static void a_tsc_behind_a_tma_passed_over_for_skz84_is_the_first(void)
{
	static const uint8_t tma_tsc[] = {
		SKZ84_PSB, SKZ84_TMA_PAD, SKZ84_TSC(0x10), SKZ84_PSBEND,
		SKZ84_PSB, SKZ84_TSC(0x20), SKZ84_PSBEND,
	};
	uint8_t *pt = calloc(1, sizeof(tma_tsc) + PTS_PT_PAD);
	struct pt_errata skx = skylake_server_errata(), none;
	uint64_t tsc = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(pt);
	memcpy(pt, tma_tsc, sizeof(tma_tsc));
	CU_ASSERT_EQUAL(pts_pt_first_tsc(pt, sizeof(tma_tsc), &skx, &tsc), 0);
	CU_ASSERT_EQUAL(tsc, 0x1000);
	memset(&none, 0, sizeof(none));
	CU_ASSERT_EQUAL(pts_pt_first_tsc(pt, sizeof(tma_tsc), &none, &tsc), 0);
	CU_ASSERT_EQUAL(tsc, 0x2000);
	free(pt);
}

PTS_SUITE(decode_pevent, NULL, NULL,
	  PTS_TEST(switch_comm_mmap_and_itrace_start_records_are_read),
	  PTS_TEST(record_running_past_the_end_is_refused_with_its_offset),
	  PTS_TEST(an_mmap2_records_build_id_is_read),
	  PTS_TEST_SHARED(perf_time_conversion_matches_the_formula_and_the_sideband,
			  "data/real/dynamorio-hello/pt.bin"),
	  PTS_TEST(tsc_khz_conversion_does_not_overflow),
	  PTS_TEST(a_tsc_behind_a_tma_passed_over_for_skz84_is_the_first));
