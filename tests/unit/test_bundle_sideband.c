// SPDX-License-Identifier: GPL-2.0
/*
 * Sideband record reader (userland/lib/bundle/sideband.h) over the record
 * layout of include/uapi/ptscope.h. The example bundle's sideband.bin was
 * packed field by field with the layout the ABI header documents (see
 * tests/golden/bundle/README.md), so reading it also checks that the C
 * structs and the documented byte layout agree.
 */
#include "unit.h"
#include "bundle_fixture.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bundle/sideband.h"

static void example_sideband_holds_exit_trigger_lost(void)
{
	const struct ptscope_sb_hdr *h;
	struct pts_sb_reader r;
	struct pts_bundle *b = NULL;
	struct pts_err err = { 0 };

	CU_ASSERT_EQUAL_FATAL(pts_bundle_read(bt_example_dir(), &b, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_sb_reader_open(&r, b, &err), 0);
	CU_ASSERT_EQUAL_FATAL(r.total, 80);

	CU_ASSERT_EQUAL_FATAL(pts_sb_next(&r, &h, &err), 1);
	CU_ASSERT_EQUAL(h->type, PTSCOPE_SB_EXIT);
	CU_ASSERT_EQUAL(h->size, 24);
	CU_ASSERT_EQUAL(h->cpu, 1);
	CU_ASSERT_EQUAL(h->tsc, 1236661000000ULL);
	CU_ASSERT_EQUAL(((const struct ptscope_sb_exit *)h)->pid, 4242);
	CU_ASSERT_EQUAL(((const struct ptscope_sb_exit *)h)->tid, 4243);

	CU_ASSERT_EQUAL_FATAL(pts_sb_next(&r, &h, &err), 1);
	CU_ASSERT_EQUAL(h->type, PTSCOPE_SB_TRIGGER);
	CU_ASSERT_EQUAL(h->size, 32);
	CU_ASSERT_EQUAL(h->tsc, 1236662000000ULL);
	CU_ASSERT_EQUAL(((const struct ptscope_sb_trigger *)h)->reason, PTSCOPE_TRIGGER_TRACEPOINT);
	CU_ASSERT_EQUAL(((const struct ptscope_sb_trigger *)h)->pid, 4242);
	CU_ASSERT_EQUAL(((const struct ptscope_sb_trigger *)h)->tid, 4242);

	CU_ASSERT_EQUAL_FATAL(pts_sb_next(&r, &h, &err), 1);
	CU_ASSERT_EQUAL(h->type, PTSCOPE_SB_LOST);
	CU_ASSERT_EQUAL(h->cpu, 0);
	CU_ASSERT_EQUAL(((const struct ptscope_sb_lost *)h)->count, 2);

	CU_ASSERT_EQUAL(pts_sb_next(&r, &h, &err), 0);
	CU_ASSERT_EQUAL(pts_sb_next(&r, &h, &err), 0);
	CU_ASSERT_FALSE(r.corrupt);
	pts_sb_reader_close(&r);
	pts_bundle_free(b);
}

/* An 8-byte aligned scratch buffer of records built by hand. */
static uint64_t space[64];

static size_t put_switch(size_t off)
{
	struct ptscope_sb_switch *s = (void *)((char *)space + off);

	memset(s, 0, sizeof(*s));
	s->hdr.type = PTSCOPE_SB_SCHED_SWITCH;
	s->hdr.size = sizeof(*s);
	s->hdr.cpu = 2;
	s->hdr.tsc = 1000;
	s->prev_pid = 10;
	s->next_pid = 20;
	s->next_tid = 21;
	s->next_cr3 = 0x1234000;
	strcpy(s->next_comm, "next");
	return off + sizeof(*s);
}

static size_t put_exec(size_t off, const char *file, size_t size)
{
	struct ptscope_sb_exec *e = (void *)((char *)space + off);

	memset(e, 0, size);
	e->hdr.type = PTSCOPE_SB_EXEC;
	e->hdr.size = (uint16_t)size;
	e->hdr.tsc = 2000;
	e->pid = 20;
	e->tid = 21;
	memcpy(e->filename, file, size - sizeof(*e));
	return off + size;
}

static size_t put_raw(size_t off, uint16_t type, uint16_t size)
{
	struct ptscope_sb_hdr *h = (void *)((char *)space + off);

	memset(h, 0, size >= sizeof(*h) ? size : sizeof(*h));
	h->type = type;
	h->size = size;
	return off + (size >= sizeof(*h) ? size : sizeof(*h));
}

static void records_iterate_in_order_and_end_cleanly(void)
{
	const struct ptscope_sb_hdr *h;
	const struct ptscope_sb_exec *e;
	struct pts_sb_reader r;
	size_t off;

	off = put_switch(0);
	off = put_exec(off, "/bin/true\0\0\0\0\0\0", sizeof(struct ptscope_sb_exec) + 16);
	off = put_raw(off, PTSCOPE_SB_FORK, sizeof(struct ptscope_sb_fork));
	pts_sb_reader_init(&r, space, off);
	CU_ASSERT_EQUAL_FATAL(pts_sb_next(&r, &h, NULL), 1);
	CU_ASSERT_EQUAL(h->type, PTSCOPE_SB_SCHED_SWITCH);
	CU_ASSERT_EQUAL(((const struct ptscope_sb_switch *)h)->next_tid, 21);
	CU_ASSERT_STRING_EQUAL(((const struct ptscope_sb_switch *)h)->next_comm, "next");
	CU_ASSERT_EQUAL_FATAL(pts_sb_next(&r, &h, NULL), 1);
	e = (const struct ptscope_sb_exec *)h;
	CU_ASSERT_EQUAL(h->type, PTSCOPE_SB_EXEC);
	CU_ASSERT_STRING_EQUAL(e->filename, "/bin/true");
	CU_ASSERT_EQUAL_FATAL(pts_sb_next(&r, &h, NULL), 1);
	CU_ASSERT_EQUAL(h->type, PTSCOPE_SB_FORK);
	CU_ASSERT_EQUAL(pts_sb_next(&r, &h, NULL), 0);
	CU_ASSERT_EQUAL(r.off, off);
}

static void unknown_type_is_returned_for_the_caller_to_skip(void)
{
	const struct ptscope_sb_hdr *h;
	struct pts_sb_reader r;
	size_t off;

	off = put_raw(0, 200, 40);
	off = put_raw(off, PTSCOPE_SB_EXIT, sizeof(struct ptscope_sb_exit));
	pts_sb_reader_init(&r, space, off);
	CU_ASSERT_EQUAL_FATAL(pts_sb_next(&r, &h, NULL), 1);
	CU_ASSERT_EQUAL(h->type, 200);
	CU_ASSERT_PTR_NULL(pts_sb_type_name(200));
	CU_ASSERT_EQUAL_FATAL(pts_sb_next(&r, &h, NULL), 1);
	CU_ASSERT_EQUAL(h->type, PTSCOPE_SB_EXIT);
}

/*
 * The syscall and page-fault records (PTSCOPE_CFG_SYSREC) are known types
 * with the byte layout docs/abi.md gives: fields at fixed offsets, 48
 * bytes each; one a byte short of its struct stops the reader.
 */
static void syscall_and_fault_records_have_their_documented_layout(void)
{
	const struct ptscope_sb_hdr *h;
	struct pts_sb_reader r;
	unsigned char *b = (unsigned char *)space;
	size_t off;
	int64_t ret = 4096;
	uint64_t addr = 0x7f3a00001000ULL, ec = 0x6;

	CU_ASSERT_EQUAL(sizeof(struct ptscope_sb_syscall), 48);
	CU_ASSERT_EQUAL(sizeof(struct ptscope_sb_fault), 48);
	CU_ASSERT_STRING_EQUAL(pts_sb_type_name(PTSCOPE_SB_SYS_ENTER), "sys_enter");
	CU_ASSERT_STRING_EQUAL(pts_sb_type_name(PTSCOPE_SB_SYS_EXIT), "sys_exit");
	CU_ASSERT_STRING_EQUAL(pts_sb_type_name(PTSCOPE_SB_PAGE_FAULT), "page_fault");
	memset(space, 0, sizeof(space));
	/* sys_exit of write (1) returning 4096, packed by the documented offsets */
	b[0] = 10;		/* type */
	b[2] = 48;		/* size */
	b[16] = 7;		/* pid */
	b[20] = 8;		/* tid */
	b[24] = 1;		/* nr */
	memcpy(b + 32, &ret, 8);
	b[40] = 0x42;		/* ip */
	/* page fault at 48: address at +24, error code at +32, ip at +40 */
	b[48 + 0] = 11;
	b[48 + 2] = 48;
	b[48 + 16] = 7;
	b[48 + 20] = 7;
	memcpy(b + 48 + 24, &addr, 8);
	memcpy(b + 48 + 32, &ec, 8);
	off = 96;
	off = put_raw(off, PTSCOPE_SB_SYS_ENTER, 40);
	pts_sb_reader_init(&r, space, off);
	CU_ASSERT_EQUAL_FATAL(pts_sb_next(&r, &h, NULL), 1);
	CU_ASSERT_EQUAL(h->type, PTSCOPE_SB_SYS_EXIT);
	CU_ASSERT_EQUAL(((const struct ptscope_sb_syscall *)h)->tid, 8);
	CU_ASSERT_EQUAL(((const struct ptscope_sb_syscall *)h)->nr, 1);
	CU_ASSERT_EQUAL(((const struct ptscope_sb_syscall *)h)->ret, 4096);
	CU_ASSERT_EQUAL(((const struct ptscope_sb_syscall *)h)->ip, 0x42);
	CU_ASSERT_EQUAL_FATAL(pts_sb_next(&r, &h, NULL), 1);
	CU_ASSERT_EQUAL(h->type, PTSCOPE_SB_PAGE_FAULT);
	CU_ASSERT_EQUAL(((const struct ptscope_sb_fault *)h)->address, addr);
	CU_ASSERT_EQUAL(((const struct ptscope_sb_fault *)h)->error_code, 6);
	/* a sys_enter record of 40 bytes lacks its ip field */
	CU_ASSERT_EQUAL(pts_sb_next(&r, &h, NULL), -EINVAL);
	CU_ASSERT_EQUAL(r.off, 96);
}

/*
 * Two good records (switch, exit) then the bad one at offset `bad`: the
 * good ones come out, then -EINVAL naming that offset, again and again.
 */
static void expect_corrupt_after_two(size_t end, size_t bad, const char *why)
{
	const struct ptscope_sb_hdr *h;
	struct pts_err err = { 0 };
	struct pts_sb_reader r;
	char at[64];

	pts_sb_reader_init(&r, space, end);
	CU_ASSERT_EQUAL(pts_sb_next(&r, &h, &err), 1);
	CU_ASSERT_EQUAL(pts_sb_next(&r, &h, &err), 1);
	CU_ASSERT_EQUAL(pts_sb_next(&r, &h, &err), -EINVAL);
	CU_ASSERT_TRUE(r.corrupt);
	CU_ASSERT_EQUAL(r.off, bad);
	snprintf(at, sizeof(at), "offset %zu", bad);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, at));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, why));
	/* sticky: a loop that ignores the first error cannot run past it */
	CU_ASSERT_EQUAL(pts_sb_next(&r, &h, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, at));
}

static size_t two_good(void)
{
	return put_raw(put_switch(0), PTSCOPE_SB_EXIT, sizeof(struct ptscope_sb_exit));
}

static void size_not_multiple_of_8_is_corrupt(void)
{
	size_t bad = two_good();

	put_raw(bad, PTSCOPE_SB_EXIT, 28);
	expect_corrupt_after_two(bad + 32, bad, "multiple of 8");
}

static void size_below_header_is_corrupt(void)
{
	size_t bad = two_good();

	put_raw(bad, PTSCOPE_SB_EXIT, 8);
	expect_corrupt_after_two(bad + 16, bad, "header");
}

static void size_past_the_end_is_corrupt(void)
{
	size_t bad = two_good();

	put_raw(bad, PTSCOPE_SB_EXIT, 24);
	expect_corrupt_after_two(bad + 16, bad, "past the end");
}

static void trailing_partial_header_is_corrupt(void)
{
	size_t bad = two_good();

	put_raw(bad, PTSCOPE_SB_EXIT, 24);
	expect_corrupt_after_two(bad + 8, bad, "only 8 bytes left");
}

static void zeroed_bytes_are_corrupt_not_records(void)
{
	size_t bad = two_good();

	memset((char *)space + bad, 0, 32);
	expect_corrupt_after_two(bad + 32, bad, "type 0");
}

static void record_smaller_than_its_struct_is_corrupt(void)
{
	size_t bad = two_good();

	put_raw(bad, PTSCOPE_SB_SCHED_SWITCH, 24);
	expect_corrupt_after_two(bad + 24, bad, "sched_switch");
}

static void exec_filename_without_nul_is_corrupt(void)
{
	size_t bad = two_good();

	put_exec(bad, "/bin/truexxxxxxx", sizeof(struct ptscope_sb_exec) + 16);
	expect_corrupt_after_two(bad + sizeof(struct ptscope_sb_exec) + 16, bad, "NUL");
}

/* x86-64 Linux numbers CPUs below NR_CPUS, at most 8192 (CONFIG_MAXSMP). */
static void cpu_number_past_nr_cpus_is_corrupt(void)
{
	size_t bad = two_good();

	put_raw(bad, PTSCOPE_SB_EXIT, sizeof(struct ptscope_sb_exit));
	((struct ptscope_sb_hdr *)((char *)space + bad))->cpu = 8192;
	expect_corrupt_after_two(bad + sizeof(struct ptscope_sb_exit), bad, "CPU 8192");
}

static void cpu_number_8191_is_a_record(void)
{
	const struct ptscope_sb_hdr *h;
	struct pts_sb_reader r;
	size_t end = put_raw(0, PTSCOPE_SB_EXIT, sizeof(struct ptscope_sb_exit));

	((struct ptscope_sb_hdr *)space)->cpu = 8191;
	pts_sb_reader_init(&r, space, end);
	CU_ASSERT_EQUAL(pts_sb_next(&r, &h, NULL), 1);
	CU_ASSERT_EQUAL(h->cpu, 8191);
	CU_ASSERT_EQUAL(pts_sb_next(&r, &h, NULL), 0);
}

static void misaligned_buffer_is_refused(void)
{
	const struct ptscope_sb_hdr *h;
	struct pts_err err = { 0 };
	struct pts_sb_reader r;

	pts_sb_reader_init(&r, (char *)space + 4, 64);
	CU_ASSERT_EQUAL(pts_sb_next(&r, &h, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "aligned"));
}

static void load_of_truncated_sideband_is_efbig(void)
{
	struct pts_bundle *b = NULL;
	struct pts_sb_reader r;
	struct pts_err err = { 0 };
	const struct ptscope_sb_hdr *h;
	char *dir = bt_copy_example(), path[4096];

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	CU_ASSERT_EQUAL_FATAL(pts_bundle_read(dir, &b, &err), 0);
	snprintf(path, sizeof(path), "%s/sideband.bin", dir);
	CU_ASSERT_EQUAL_FATAL(truncate(path, 72), 0);
	CU_ASSERT_EQUAL(pts_sb_reader_open(&r, b, &err), -EFBIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "truncated copy?"));
	pts_sb_reader_close(&r);
	/* no sideband at all is not an error: the iteration is empty */
	free(b->sideband_file);
	b->sideband_file = NULL;
	CU_ASSERT_EQUAL(pts_sb_reader_open(&r, b, &err), 0);
	CU_ASSERT_EQUAL(r.total, 0);
	CU_ASSERT_EQUAL(pts_sb_next(&r, &h, &err), 0);
	pts_sb_reader_close(&r);
	pts_bundle_free(b);
	bt_rmtree(dir);
	free(dir);
}

/*
 * A bundle read with PTS_BUNDLE_READ_PARTIAL whose sideband copy is cut at
 * 72 of its 80 bytes: the 72 bytes are read, and the reader then stops
 * at the record the cut runs through. The example's records are 24
 * (exit), 32 (trigger) and 24 (lost) bytes (see the first test), so the
 * third one, at offset 56, is the one cut.
 */
static void partial_load_of_truncated_sideband_gives_the_bytes_present(void)
{
	const struct ptscope_sb_hdr *h;
	struct pts_sb_reader r;
	struct pts_bundle *b = NULL;
	struct pts_err err = { 0 };
	char *dir = bt_copy_example(), path[4096];

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	snprintf(path, sizeof(path), "%s/sideband.bin", dir);
	CU_ASSERT_EQUAL_FATAL(truncate(path, 72), 0);
	CU_ASSERT_EQUAL_FATAL(pts_bundle_read_flags(dir, PTS_BUNDLE_READ_PARTIAL, &b, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_sb_reader_open(&r, b, &err), 0);
	CU_ASSERT_EQUAL(r.total, 72);
	CU_ASSERT_EQUAL(pts_sb_next(&r, &h, &err), 1);
	CU_ASSERT_EQUAL(pts_sb_next(&r, &h, &err), 1);
	CU_ASSERT_EQUAL(pts_sb_next(&r, &h, &err), -EINVAL);
	CU_ASSERT_EQUAL(r.off, 56);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "runs past the end"));
	pts_sb_reader_close(&r);
	/* the file changing again after the read is still refused */
	CU_ASSERT_EQUAL_FATAL(truncate(path, 64), 0);
	CU_ASSERT_EQUAL(pts_sb_reader_open(&r, b, &err), -EFBIG);
	pts_sb_reader_close(&r);
	pts_bundle_free(b);
	bt_rmtree(dir);
	free(dir);
}

PTS_SUITE(bundle_sideband, NULL, NULL,
	  PTS_TEST(example_sideband_holds_exit_trigger_lost),
	  PTS_TEST(cpu_number_past_nr_cpus_is_corrupt),
	  PTS_TEST(cpu_number_8191_is_a_record),
	  PTS_TEST(partial_load_of_truncated_sideband_gives_the_bytes_present),
	  PTS_TEST(records_iterate_in_order_and_end_cleanly),
	  PTS_TEST(unknown_type_is_returned_for_the_caller_to_skip),
	  PTS_TEST(syscall_and_fault_records_have_their_documented_layout),
	  PTS_TEST(size_not_multiple_of_8_is_corrupt),
	  PTS_TEST(size_below_header_is_corrupt),
	  PTS_TEST(size_past_the_end_is_corrupt),
	  PTS_TEST(trailing_partial_header_is_corrupt),
	  PTS_TEST(zeroed_bytes_are_corrupt_not_records),
	  PTS_TEST(record_smaller_than_its_struct_is_corrupt),
	  PTS_TEST(exec_filename_without_nul_is_corrupt),
	  PTS_TEST(misaligned_buffer_is_refused),
	  PTS_TEST(load_of_truncated_sideband_is_efbig))
