// SPDX-License-Identifier: GPL-2.0
/*
 * Where an exec'd program began (session_int.h, pts_exec_entry_ip): the
 * IP of the SYS_EXIT of its execve, the exec's thread's first syscall
 * record after its EXEC record, and nothing else. Sidebands written by
 * hand into a copy of the example bundle, with the record layout of
 * include/uapi/ptscope.h; times with no conversion (1 tick = 1 ns).
 */
#include "unit.h"
#include "bundle_fixture.h"

#include <stdlib.h>
#include <string.h>

#include "bundle/bundle.h"
#include "bundle/sideband.h"
#include "session/session_int.h"

#define PID		20
#define ENTRY		0x7f1234565b0ULL

static uint64_t space[128];	/* 8-byte aligned records */
static size_t used;

static void put_exec(int32_t pid, int32_t tid, uint64_t tsc)
{
	struct ptscope_sb_exec *e = (void *)((char *)space + used);
	size_t size = sizeof(*e) + 8;	/* "/a/prog" and its NUL */

	memset(e, 0, size);
	e->hdr.type = PTSCOPE_SB_EXEC;
	e->hdr.size = (uint16_t)size;
	e->hdr.tsc = tsc;
	e->pid = pid;
	e->tid = tid;
	memcpy(e->filename, "/a/prog", 8);
	used += size;
}

static void put_sys(uint16_t type, int32_t tid, uint64_t tsc, int64_t nr, int64_t ret, uint64_t ip)
{
	struct ptscope_sb_syscall *s = (void *)((char *)space + used);

	memset(s, 0, sizeof(*s));
	s->hdr.type = type;
	s->hdr.size = sizeof(*s);
	s->hdr.tsc = tsc;
	s->pid = tid == 31 ? 30 : PID;
	s->tid = tid;
	s->nr = nr;
	s->ret = ret;
	s->ip = ip;
	used += sizeof(*s);
}

/*
 * The records put so far as the example bundle's sideband, with syscall
 * records or not; pts_exec_entry_ip for the exec at exec_tsc. 1 found
 * (*ip), 0 not; -100 the fixture failed.
 */
static int entry_of(bool sysrec, uint64_t exec_tsc, uint64_t *ip)
{
	const struct pts_timeconv tc = { .mode = PTS_TC_NONE };
	struct pts_bundle *b = NULL;
	struct pts_err err = { 0 };
	char *dir = bt_copy_example(), size[80];
	int rc = -100;

	snprintf(size, sizeof(size), "\"sideband\": { \"file\": \"sideband.bin\", \"size\": %zu,",
		 used);
	if (dir && !pts_bundle_write_file(dir, "sideband.bin", space, used, &err) &&
	    !bt_edit(dir, "manifest.json", "\"sideband\": { \"file\": \"sideband.bin\", \"size\": 80,",
		     size) &&
	    (!sysrec || !bt_edit(dir, "manifest.json", "\"post_trigger_us\": 50",
				 "\"post_trigger_us\": 50, \"syscall_records\": true")) &&
	    !pts_bundle_read(dir, &b, &err))
		rc = pts_exec_entry_ip(b, &tc, PID, pts_tc_ns(&tc, exec_tsc), ip);
	pts_bundle_free(b);
	if (dir)
		bt_rmtree(dir);
	free(dir);
	used = 0;
	return rc;
}

/* execve's return in the new program: its IP, past another thread's records */
static void the_execve_return_of_the_exec_thread_gives_the_ip(void)
{
	uint64_t ip = 0;

	put_sys(PTSCOPE_SB_SYS_ENTER, PID, 900, 59, 0, 0x401000);	/* the old program's */
	put_exec(PID, PID, 1000);
	put_sys(PTSCOPE_SB_SYS_ENTER, 31, 1001, 0, 0, 0x500000);	/* another process */
	put_sys(PTSCOPE_SB_SYS_EXIT, PID, 1002, 59, 0, ENTRY);
	CU_ASSERT_EQUAL(entry_of(true, 1000, &ip), 1);
	CU_ASSERT_EQUAL(ip, ENTRY);
	/* execveat (322) alike */
	put_exec(PID, PID, 1000);
	put_sys(PTSCOPE_SB_SYS_EXIT, PID, 1002, 322, 0, ENTRY + 0x1000);
	CU_ASSERT_EQUAL(entry_of(true, 1000, &ip), 1);
	CU_ASSERT_EQUAL(ip, ENTRY + 0x1000);
}

/* without config.syscall_records the same bytes give nothing */
static void without_syscall_records_nothing_is_taken(void)
{
	uint64_t ip = 0;

	put_exec(PID, PID, 1000);
	put_sys(PTSCOPE_SB_SYS_EXIT, PID, 1002, 59, 0, ENTRY);
	CU_ASSERT_EQUAL(entry_of(false, 1000, &ip), 0);
	CU_ASSERT_EQUAL(ip, 0);
}

/*
 * The thread's first syscall record after the EXEC must be that return:
 * another syscall first (its return lost), a failed execve, the process
 * exec'd again first, or an exec at another time: nothing.
 */
static void any_other_first_record_gives_nothing(void)
{
	uint64_t ip = 0;

	put_exec(PID, PID, 1000);
	put_sys(PTSCOPE_SB_SYS_ENTER, PID, 1002, 12, 0, ENTRY + 0x20);	/* brk */
	put_sys(PTSCOPE_SB_SYS_EXIT, PID, 1003, 59, 0, ENTRY);
	CU_ASSERT_EQUAL(entry_of(true, 1000, &ip), 0);
	put_exec(PID, PID, 1000);
	put_sys(PTSCOPE_SB_SYS_EXIT, PID, 1002, 59, -2, ENTRY);
	CU_ASSERT_EQUAL(entry_of(true, 1000, &ip), 0);
	put_exec(PID, PID, 1000);
	put_exec(PID, PID, 1001);
	put_sys(PTSCOPE_SB_SYS_EXIT, PID, 1002, 59, 0, ENTRY);
	CU_ASSERT_EQUAL(entry_of(true, 1000, &ip), 0);
	put_exec(PID, PID, 1000);
	put_sys(PTSCOPE_SB_SYS_EXIT, PID, 1002, 59, 0, ENTRY);
	CU_ASSERT_EQUAL(entry_of(true, 999, &ip), 0);
	CU_ASSERT_EQUAL(ip, 0);
}

PTS_SUITE(session_exec_entry, NULL, NULL,
	  PTS_TEST(the_execve_return_of_the_exec_thread_gives_the_ip),
	  PTS_TEST(without_syscall_records_nothing_is_taken),
	  PTS_TEST(any_other_first_record_gives_nothing))
