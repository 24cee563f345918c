// SPDX-License-Identifier: GPL-2.0
/*
 * Maps over time (capture/maps_time.h): which program each maps read is
 * filed under, from the EXEC records read so far, and how reads of one
 * program merge. The sideband is laid out by hand as
 * include/uapi/ptscope.h defines it; the device's read is a fake drain
 * that appends records.
 */
#include "unit.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture.h"
#include "capture/maps_time.h"

/* Append an EXEC record of pid at tsc to c's sideband. */
static void add_exec(struct pts_capture *c, int32_t pid, uint64_t tsc)
{
	struct ptscope_sb_exec ex;
	size_t sz = (sizeof(ex) + 8 + 7) & ~(size_t)7;

	if (c->sb_cap < c->sb_len + sz) {
		c->sb_cap = c->sb_len + sz + 256;
		c->sb = realloc(c->sb, c->sb_cap);
	}
	memset(c->sb + c->sb_len, 0, sz);
	memset(&ex, 0, sizeof(ex));
	ex.hdr.type = PTSCOPE_SB_EXEC;
	ex.hdr.size = (uint16_t)sz;
	ex.hdr.tsc = tsc;
	ex.pid = ex.tid = pid;
	memcpy(c->sb + c->sb_len, &ex, sizeof(ex));
	memcpy(c->sb + c->sb_len + sizeof(ex), "/bin/x", 7);
	/* as the drain does with what it reads */
	CU_ASSERT_EQUAL(pts_capture_note_execs(c, c->sb + c->sb_len, sz), 0);
	c->sb_len += sz;
}

/* A switch record (not an exec: skipped by the scan). */
static void add_switch(struct pts_capture *c)
{
	struct ptscope_sb_switch sw;

	memset(&sw, 0, sizeof(sw));
	sw.hdr.type = PTSCOPE_SB_SCHED_SWITCH;
	sw.hdr.size = sizeof(sw);
	sw.next_pid = 7;
	if (c->sb_cap < c->sb_len + sizeof(sw)) {
		c->sb_cap = c->sb_len + sizeof(sw) + 256;
		c->sb = realloc(c->sb, c->sb_cap);
	}
	memcpy(c->sb + c->sb_len, &sw, sizeof(sw));
	CU_ASSERT_EQUAL(pts_capture_note_execs(c, c->sb + c->sb_len, sizeof(sw)), 0);
	c->sb_len += sizeof(sw);
}

static void capture_init(struct pts_capture *c, int32_t pid)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->procs = calloc(1, sizeof(*c->procs));
	c->nr_procs = c->cap_procs = 1;
	c->procs[0].pid = pid;
}

static void capture_fini(struct pts_capture *c)
{
	pts_capture_maps_time_free(c);
	free(c->procs);
	free(c->sb);
}

static struct pts_bundle_map line(uint64_t start, const char *path)
{
	struct pts_bundle_map m;

	memset(&m, 0, sizeof(m));
	m.start = start;
	m.end = start + 0x1000;
	strcpy(m.perms, "r-xp");
	m.path = (char *)path;
	return m;
}

/*
 * The EXEC records read, noted as they arrive: pid 42 exec'd at TSC 500
 * and 900, pid 43 at 600. Switch records are not execs; a record cut
 * short (a damaged read) ends the walk.
 */
static void execs_are_counted_per_process_with_the_last_tsc(void)
{
	struct pts_capture c;
	uint64_t tsc;
	uint8_t bad[16] = { 0 };

	capture_init(&c, 42);
	add_switch(&c);
	add_exec(&c, 42, 500);
	add_exec(&c, 43, 600);
	add_switch(&c);
	add_exec(&c, 42, 900);
	bad[2] = 12;	/* size 12: below a header, not a multiple of 8 */
	CU_ASSERT_EQUAL(pts_capture_note_execs(&c, bad, sizeof(bad)), 0);
	CU_ASSERT_EQUAL(pts_capture_exec_count(&c, 42, &tsc), 2);
	CU_ASSERT_EQUAL(tsc, 900);
	CU_ASSERT_EQUAL(pts_capture_exec_count(&c, 43, &tsc), 1);
	CU_ASSERT_EQUAL(tsc, 600);
	CU_ASSERT_EQUAL(pts_capture_exec_count(&c, 7, &tsc), 0);
	CU_ASSERT_EQUAL(tsc, 0);
	capture_fini(&c);
}

/*
 * Reads of one program merge (a line seen once stays: a library
 * dlclose'd before the trigger); another program's reads are kept apart.
 */
static void reads_of_one_program_merge_and_programs_stay_apart(void)
{
	struct pts_capture c;
	struct pts_bundle_map r1[2] = { line(0x1000, "/bin/a"), line(0x7000, "/lib/x.so") };
	struct pts_bundle_map r2[2] = { line(0x1000, "/bin/a"), line(0x8000, "/lib/y.so") };
	struct pts_bundle_map r3[1] = { line(0x1000, "/bin/b") };

	capture_init(&c, 42);
	CU_ASSERT_EQUAL(pts_capture_maps_file(&c, 42, 0, r1, 2), 0);
	CU_ASSERT_EQUAL(pts_capture_maps_file(&c, 42, 0, r2, 2), 0);
	CU_ASSERT_EQUAL(pts_capture_maps_file(&c, 42, 500, r3, 1), 0);
	CU_ASSERT_EQUAL(pts_capture_maps_file(&c, 99, 0, r3, 1), 0);	/* not written: ignored */
	CU_ASSERT_EQUAL_FATAL(c.procs[0].nr_maps_seen, 2);
	CU_ASSERT_EQUAL(c.procs[0].maps_seen[0].exec_tsc, 0);
	CU_ASSERT_EQUAL_FATAL(c.procs[0].maps_seen[0].nr_maps, 3);
	CU_ASSERT_STRING_EQUAL(c.procs[0].maps_seen[0].maps[0].path, "/bin/a");
	CU_ASSERT_STRING_EQUAL(c.procs[0].maps_seen[0].maps[1].path, "/lib/x.so");
	CU_ASSERT_STRING_EQUAL(c.procs[0].maps_seen[0].maps[2].path, "/lib/y.so");
	CU_ASSERT_EQUAL(c.procs[0].maps_seen[1].exec_tsc, 500);
	CU_ASSERT_EQUAL_FATAL(c.procs[0].maps_seen[1].nr_maps, 1);
	CU_ASSERT_STRING_EQUAL(c.procs[0].maps_seen[1].maps[0].path, "/bin/b");
	capture_fini(&c);
}

static int32_t drain_exec_pid;

/* The device read: nothing new, or (drain_exec_pid) an exec of that pid. */
static int fake_drain(struct pts_capture *c, struct pts_err *err)
{
	(void)err;
	if (drain_exec_pid)
		add_exec(c, drain_exec_pid, 777);
	return 0;
}

/*
 * The poll loop's read of the target (this test process, whose maps are
 * real): filed under the program running at arm when no exec record came;
 * not filed when an exec record of the target arrived while it was read
 * (the read may be of either program), filed under that exec afterwards.
 */
static void a_read_during_an_exec_is_not_filed(void)
{
	struct pts_capture c;

	capture_init(&c, (int32_t)getpid());
	c.target = getpid();
	drain_exec_pid = 0;
	pts_capture_refresh_maps(&c, fake_drain);
	CU_ASSERT_EQUAL_FATAL(c.procs[0].nr_maps_seen, 1);
	CU_ASSERT_EQUAL(c.procs[0].maps_seen[0].exec_tsc, 0);
	CU_ASSERT(c.procs[0].maps_seen[0].nr_maps > 0);
	drain_exec_pid = (int32_t)getpid();
	pts_capture_refresh_maps(&c, fake_drain);
	CU_ASSERT_EQUAL(c.procs[0].nr_maps_seen, 1);
	drain_exec_pid = 0;
	pts_capture_refresh_maps(&c, fake_drain);
	CU_ASSERT_EQUAL_FATAL(c.procs[0].nr_maps_seen, 2);
	CU_ASSERT_EQUAL(c.procs[0].maps_seen[1].exec_tsc, 777);
	capture_fini(&c);
}

PTS_SUITE(capture_maps_time, NULL, NULL,
	  PTS_TEST(execs_are_counted_per_process_with_the_last_tsc),
	  PTS_TEST(reads_of_one_program_merge_and_programs_stay_apart),
	  PTS_TEST(a_read_during_an_exec_is_not_filed));
