// SPDX-License-Identifier: GPL-2.0
/*
 * pts_bundle_read on damaged bundles: each test copies the hand-written
 * example bundle (docs/bundle-format.md section 6) to $TMPDIR, breaks one
 * thing, and requires the documented error code and a message that names
 * the key or file (so the user knows what to fix).
 */
#include "unit.h"
#include "bundle_fixture.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bundle/bundle.h"

static char *dir;
static struct pts_err err;

/* Fresh copy of the example per test. */
static void fresh(void)
{
	if (dir) {
		bt_rmtree(dir);
		free(dir);
	}
	dir = bt_copy_example();
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	memset(&err, 0, sizeof(err));
}

static int errors_cleanup(void)
{
	bt_rmtree(dir);
	free(dir);
	dir = NULL;
	return 0;
}

static void edit(const char *from, const char *to)
{
	/* the edit must apply, else the test would prove nothing */
	CU_ASSERT_EQUAL_FATAL(bt_edit(dir, "manifest.json", from, to), 0);
}

/* Read, expect rc; the message must contain each non-NULL needle. */
static void expect(int want, const char *needle1, const char *needle2)
{
	struct pts_bundle *b = (void *)1;
	int rc = pts_bundle_read(dir, &b, &err);

	CU_ASSERT_EQUAL(rc, want);
	CU_ASSERT_EQUAL(err.code, want);
	CU_ASSERT_PTR_NULL(b);
	if (needle1)
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, needle1));
	if (needle2)
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, needle2));
	if (rc == 0)
		pts_bundle_free(b);
	else if (getenv("PTS_TEST_VERBOSE"))
		fprintf(stderr, "\n    %s", err.msg);
}

static void expect_ok(void)
{
	struct pts_bundle *b = NULL;
	int rc = pts_bundle_read(dir, &b, &err);

	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(b);
	pts_bundle_free(b);
}

static void missing_directory_is_enoent(void)
{
	struct pts_bundle *b;

	fresh();
	CU_ASSERT_EQUAL(pts_bundle_read("/nonexistent/x.ptscope", &b, &err), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "/nonexistent/x.ptscope"));
}

static void missing_manifest_is_enoent_naming_manifest_json(void)
{
	char path[4096];

	fresh();
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	CU_ASSERT_EQUAL_FATAL(unlink(path), 0);
	expect(-ENOENT, "manifest.json", "not a bundle");
}

static void missing_cpu_file_is_enoent_naming_file_and_key(void)
{
	char path[4096];

	fresh();
	snprintf(path, sizeof(path), "%s/cpu1.pt", dir);
	CU_ASSERT_EQUAL_FATAL(unlink(path), 0);
	expect(-ENOENT, "cpu1.pt", "cpus[1].file");
}

static void missing_vdso_file_is_enoent_naming_its_key(void)
{
	char path[4096];

	fresh();
	snprintf(path, sizeof(path), "%s/vdso/4242.so", dir);
	CU_ASSERT_EQUAL_FATAL(unlink(path), 0);
	expect(-ENOENT, "vdso/4242.so", "processes[0].vdso.file");
}

static void truncated_cpu_file_is_efbig_truncated_copy(void)
{
	char path[4096];

	fresh();
	snprintf(path, sizeof(path), "%s/cpu0.pt", dir);
	CU_ASSERT_EQUAL_FATAL(truncate(path, 100), 0);
	expect(-EFBIG, "truncated copy?", "cpus[0].size");
}

/*
 * A decoder can use part of a damaged copy: read with
 * PTS_BUNDLE_READ_PARTIAL, a short (or long) per-CPU trace or sideband is
 * accepted and its size on disk recorded next to the manifest's. The
 * example's sizes are in its manifest (docs/bundle-format.md section 6):
 * cpu0.pt 4096, sideband.bin 80.
 */
static void partial_read_accepts_short_cpu_and_sideband_files_with_their_sizes(void)
{
	struct pts_bundle *b = NULL;
	char path[4096];

	fresh();
	snprintf(path, sizeof(path), "%s/cpu0.pt", dir);
	CU_ASSERT_EQUAL_FATAL(truncate(path, 100), 0);
	snprintf(path, sizeof(path), "%s/sideband.bin", dir);
	CU_ASSERT_EQUAL_FATAL(truncate(path, 88), 0);
	CU_ASSERT_EQUAL_FATAL(pts_bundle_read_flags(dir, PTS_BUNDLE_READ_PARTIAL, &b, &err), 0);
	CU_ASSERT_EQUAL(b->cpus[0].size, 4096);
	CU_ASSERT_EQUAL(b->cpus[0].file_size, 100);
	CU_ASSERT_EQUAL(b->cpus[1].size, 40);
	CU_ASSERT_EQUAL(b->cpus[1].file_size, 40);
	CU_ASSERT_EQUAL(b->sideband_size, 80);
	CU_ASSERT_EQUAL(b->sideband_file_size, 88);
	pts_bundle_free(b);
	/* without the flag the same bundle is refused, naming the first file */
	expect(-EFBIG, "cpu0.pt", "cpus[0].size");
}

/*
 * A copied object (objects[].file) of another size than the manifest's is
 * a damaged copy of the captured file: read with PTS_BUNDLE_READ_PARTIAL
 * it is accepted and its size on disk recorded, as perf decodes a trace
 * whose dso is missing (the decoder does not read the copy: its code
 * decodes as gaps unless a host file matches, docs/decode.md). The
 * example's objects[0] is objects/usr/bin/true, 4 bytes (section 6).
 * Without the flag it is refused; a missing copy too, which the flag
 * takes for a copy of 0 bytes (copy_missing).
 */
static void partial_read_accepts_a_truncated_object_copy_with_its_size(void)
{
	struct pts_bundle *b = NULL;
	char path[4096];

	fresh();
	snprintf(path, sizeof(path), "%s/objects/usr/bin/true", dir);
	CU_ASSERT_EQUAL_FATAL(truncate(path, 1), 0);
	CU_ASSERT_EQUAL_FATAL(pts_bundle_read_flags(dir, PTS_BUNDLE_READ_PARTIAL, &b, &err), 0);
	CU_ASSERT_STRING_EQUAL(b->objects[0].file, "objects/usr/bin/true");
	CU_ASSERT_EQUAL(b->objects[0].size, 4);
	CU_ASSERT_EQUAL(b->objects[0].file_size, 1);
	/* an object without a copy has no size on disk */
	CU_ASSERT_PTR_NULL(b->objects[1].file);
	CU_ASSERT_EQUAL(b->objects[1].file_size, 0);
	CU_ASSERT(!b->objects[0].copy_missing);
	pts_bundle_free(b);
	expect(-EFBIG, "objects/usr/bin/true", "objects[0].size");
	/* a copy missing altogether (a copy of the bundle that did not finish) is one of 0 bytes */
	CU_ASSERT_EQUAL_FATAL(unlink(path), 0);
	CU_ASSERT_EQUAL_FATAL(pts_bundle_read_flags(dir, PTS_BUNDLE_READ_PARTIAL, &b, &err), 0);
	CU_ASSERT_STRING_EQUAL(b->objects[0].file, "objects/usr/bin/true");
	CU_ASSERT_EQUAL(b->objects[0].size, 4);
	CU_ASSERT_EQUAL(b->objects[0].file_size, 0);
	CU_ASSERT(b->objects[0].copy_missing);
	pts_bundle_free(b);
	expect(-ENOENT, "objects/usr/bin/true", "objects[0].file");
}

/*
 * A sideband or a vdso missing from the bundle (a copy that did not
 * finish) is, read with PTS_BUNDLE_READ_PARTIAL, one of 0 bytes
 * (sideband_missing, vdso_missing): the trace is decoded without its
 * records, the vdso with another process's copy or as gaps, said. Without
 * the flag, refused.
 */
static void partial_read_accepts_a_missing_sideband_or_vdso(void)
{
	struct pts_bundle *b = NULL;
	char path[4096];

	fresh();
	snprintf(path, sizeof(path), "%s/sideband.bin", dir);
	CU_ASSERT_EQUAL_FATAL(unlink(path), 0);
	CU_ASSERT_EQUAL_FATAL(pts_bundle_read_flags(dir, PTS_BUNDLE_READ_PARTIAL, &b, &err), 0);
	CU_ASSERT_STRING_EQUAL(b->sideband_file, "sideband.bin");
	CU_ASSERT(b->sideband_missing);
	CU_ASSERT_EQUAL(b->sideband_file_size, 0);
	CU_ASSERT(b->sideband_size > 0);
	CU_ASSERT(!b->processes[0].vdso_missing);
	pts_bundle_free(b);
	expect(-ENOENT, "sideband.bin", "sideband.file");
	fresh();
	snprintf(path, sizeof(path), "%s/vdso/4242.so", dir);
	CU_ASSERT_EQUAL_FATAL(unlink(path), 0);
	CU_ASSERT_EQUAL_FATAL(pts_bundle_read_flags(dir, PTS_BUNDLE_READ_PARTIAL, &b, &err), 0);
	CU_ASSERT_STRING_EQUAL(b->processes[0].vdso_file, "vdso/4242.so");
	CU_ASSERT(b->processes[0].vdso_missing);
	CU_ASSERT(!b->sideband_missing);
	pts_bundle_free(b);
	expect(-ENOENT, "vdso/4242.so", "processes[0].vdso.file");
}

/*
 * Files other than the per-CPU traces, the sideband and the objects'
 * copies must still be whole, and the manifest still follow every rule.
 */
static void partial_read_still_refuses_other_damaged_or_missing_files(void)
{
	struct pts_bundle *b = (void *)1;
	char path[4096];

	fresh();
	snprintf(path, sizeof(path), "%s/kernel/kallsyms", dir);
	CU_ASSERT_EQUAL_FATAL(truncate(path, 10), 0);
	CU_ASSERT_EQUAL(pts_bundle_read_flags(dir, PTS_BUNDLE_READ_PARTIAL, &b, &err), -EFBIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "kernel.kallsyms.size"));
	CU_ASSERT_PTR_NULL(b);
	fresh();
	snprintf(path, sizeof(path), "%s/cpu1.pt", dir);
	CU_ASSERT_EQUAL_FATAL(unlink(path), 0);
	CU_ASSERT_EQUAL(pts_bundle_read_flags(dir, PTS_BUNDLE_READ_PARTIAL, &b, &err), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "cpus[1].file"));
	fresh();
	snprintf(path, sizeof(path), "%s/vdso/4242.so", dir);
	CU_ASSERT_EQUAL_FATAL(truncate(path, 1), 0);
	CU_ASSERT_EQUAL(pts_bundle_read_flags(dir, PTS_BUNDLE_READ_PARTIAL, &b, &err), -EFBIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "processes[0].vdso.size"));
	/* a damaged manifest: a truncated object copy beside it changes nothing */
	fresh();
	snprintf(path, sizeof(path), "%s/objects/usr/bin/true", dir);
	CU_ASSERT_EQUAL_FATAL(truncate(path, 1), 0);
	edit("\"complete\": false,", "\"complete\": false");
	CU_ASSERT_EQUAL(pts_bundle_read_flags(dir, PTS_BUNDLE_READ_PARTIAL, &b, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "bad JSON"));
	CU_ASSERT_PTR_NULL(b);
}

static void longer_kallsyms_than_recorded_is_efbig(void)
{
	char path[4096];

	fresh();
	snprintf(path, sizeof(path), "%s/kernel/kallsyms", dir);
	CU_ASSERT_EQUAL_FATAL(truncate(path, 60), 0);
	expect(-EFBIG, "kernel/kallsyms", "kernel.kallsyms.size");
}

static void bad_json_reports_line_and_column(void)
{
	fresh();
	/* Drop the comma ending line 4: json-c stops at the key on line 5. */
	edit("\"complete\": false,", "\"complete\": false");
	expect(-EINVAL, "bad JSON at line 5 column", NULL);
}

static void truncated_json_says_unexpected_end(void)
{
	char path[4096];

	fresh();
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	CU_ASSERT_EQUAL_FATAL(truncate(path, 200), 0);
	expect(-EINVAL, "unexpected end of file", "truncated copy?");
}

static void unknown_version_is_einval_naming_the_version(void)
{
	fresh();
	edit("\"version\": 1,", "\"version\": 2,");
	expect(-EINVAL, "version 2 is not supported", NULL);
}

static void wrong_format_string_is_einval(void)
{
	fresh();
	edit("\"format\": \"ptscope-bundle\"", "\"format\": \"perf-data\"");
	expect(-EINVAL, "\"perf-data\"", "not a ptscope bundle");
}

static void integer_where_hex_string_required_is_einval(void)
{
	fresh();
	edit("\"rtit_ctl\": \"0x10000e789\"", "\"rtit_ctl\": 4295026569");
	expect(-EINVAL, "config.rtit_ctl", "hex string, got an integer");
}

static void hex_string_where_integer_required_is_einval(void)
{
	fresh();
	edit("\"head\": 1024", "\"head\": \"0x400\"");
	expect(-EINVAL, "cpus[0].head", "got a string");
}

static void fractional_number_is_einval(void)
{
	fresh();
	edit("\"buffer_size\": 4096,\n    \"filter_pid\"", "\"buffer_size\": 4096.0,\n    \"filter_pid\"");
	expect(-EINVAL, "config.buffer_size", "non-integer");
}

static void negative_size_is_einval(void)
{
	fresh();
	edit("\"lost\": 2", "\"lost\": -2");
	expect(-EINVAL, "sideband.lost", "negative");
}

static void hex_wider_than_64_bits_is_einval(void)
{
	fresh();
	edit("\"cr3_match\": \"0x10a4e000\"", "\"cr3_match\": \"0x100000000000000000\"");
	expect(-EINVAL, "config.cr3_match", NULL);
}

static void u32_register_out_of_range_is_einval(void)
{
	fresh();
	edit("\"0x2490002\"", "\"0x102490002\"");
	expect(-EINVAL, "cpu.cpuid_14_1[0]", "out of range");
}

static void absent_required_key_is_einval_naming_it(void)
{
	fresh();
	edit("\"rtit_ctl\": \"0x10000e789\",", "");
	expect(-EINVAL, "config.rtit_ctl", "missing");
}

static void absent_required_nested_key_is_einval_naming_its_path(void)
{
	fresh();
	/* the first "0x2000" pgoff in the example is maps_arm[1]'s */
	edit("\"pgoff\": \"0x2000\",", "");
	expect(-EINVAL, "processes[0].maps_arm[1].pgoff", "missing");
}

static void file_name_leaving_the_bundle_is_einval(void)
{
	fresh();
	edit("\"file\": \"cpu1.pt\"", "\"file\": \"../cpu1.pt\"");
	expect(-EINVAL, "cpus[1].file", "not a bundle file name");
}

static void mtc_freq_disagreeing_with_rtit_ctl_is_einval(void)
{
	fresh();
	edit("\"mtc_freq\": 3", "\"mtc_freq\": 4");
	expect(-EINVAL, "timing.mtc_freq", NULL);
}

static void scope_disagreeing_with_rtit_ctl_is_einval(void)
{
	fresh();
	/* 0x10000e789 has User (bit 3) but not OS (bit 2) */
	edit("\"scope\": \"user\"", "\"scope\": \"both\"");
	expect(-EINVAL, "config.scope", "rtit_ctl");
}

static void addr_cfg_disagreeing_with_rtit_ctl_is_einval(void)
{
	fresh();
	edit("\"cfg\": 1", "\"cfg\": 2");
	expect(-EINVAL, "config.addr_ranges[0].cfg", "ADDR0_CFG");
}

static void head_beyond_buffer_size_is_einval(void)
{
	fresh();
	edit("\"head\": 1024", "\"head\": 4097");
	expect(-EINVAL, "cpus[0].head", "beyond");
}

static void unknown_cpu_flag_is_einval(void)
{
	fresh();
	edit("\"flags\": [\"error\", \"clobbered\"]", "\"flags\": [\"error\", \"hot\"]");
	expect(-EINVAL, "cpus[1].flags[1]", "\"hot\"");
}

static void unknown_source_is_einval(void)
{
	fresh();
	edit("\"source\": \"simulated-unit\"", "\"source\": \"simulated\"");
	expect(-EINVAL, "source", "\"simulated\"");
}

static void overlong_comm_is_einval(void)
{
	fresh();
	edit("\"comm\": \"true\"", "\"comm\": \"a-comm-of-16-chr\"");
	expect(-EINVAL, "processes[0].comm", "longer than 15");
}

/*
 * complete=false lets a per-CPU file be shorter than its ring says (the
 * writer ran out of space); complete=true does not.
 */
static void short_cpu_file_accepted_only_in_incomplete_bundle(void)
{
	fresh();
	edit("\"size\": 40, \"buffer_size\": 4096,\n      \"head\": 40,",
	     "\"size\": 40, \"buffer_size\": 4096,\n      \"head\": 48,");
	expect_ok();
	edit("\"complete\": false,", "\"complete\": true,");
	expect(-EINVAL, "cpus[1].size", "holds 48");
}

static void complete_flag_and_reason_are_preserved(void)
{
	struct pts_bundle *b = NULL;

	fresh();
	CU_ASSERT_EQUAL_FATAL(pts_bundle_read(dir, &b, &err), 0);
	CU_ASSERT_FALSE(b->complete);
	CU_ASSERT_PTR_NOT_NULL(strstr(b->incomplete_reason, "No space left on device"));
	pts_bundle_free(b);
	edit("\"complete\": false,", "\"complete\": true,");
	CU_ASSERT_EQUAL_FATAL(pts_bundle_read(dir, &b, &err), 0);
	CU_ASSERT_TRUE(b->complete);
	pts_bundle_free(b);
}

static void unknown_keys_are_ignored(void)
{
	fresh();
	edit("\"producer\": \"ptscope 0.1\",",
	     "\"producer\": \"ptscope 0.1\", \"future_key\": {\"x\": [1, 2]},");
	expect_ok();
}

/*
 * One trace file named by two cpus[] entries would be decoded twice, as
 * two CPUs (issue 20 item 5): refused, by name and through a link. The
 * second entry is made cpu0.pt's twin (same size, ring and head) so that
 * nothing else in it is wrong.
 */
static void one_trace_file_for_two_cpus_is_einval(void)
{
	char link[4096];

	fresh();
	edit("\"file\": \"cpu1.pt\", \"size\": 40, \"buffer_size\": 4096,\n"
	     "      \"head\": 40, \"wrapped\": false,",
	     "\"file\": \"cpu0.pt\", \"size\": 4096, \"buffer_size\": 4096,\n"
	     "      \"head\": 1024, \"wrapped\": true,");
	expect(-EINVAL, "cpus[1].file: cpu0.pt is the file of cpus[0] (CPU 0) too",
	       "one CPU's trace");
	fresh();
	edit("\"file\": \"cpu1.pt\", \"size\": 40, \"buffer_size\": 4096,\n"
	     "      \"head\": 40, \"wrapped\": false,",
	     "\"file\": \"cpu1.pt\", \"size\": 4096, \"buffer_size\": 4096,\n"
	     "      \"head\": 1024, \"wrapped\": true,");
	snprintf(link, sizeof(link), "%s/cpu1.pt", dir);
	CU_ASSERT_EQUAL_FATAL(unlink(link), 0);
	CU_ASSERT_EQUAL_FATAL(symlink("cpu0.pt", link), 0);
	expect(-EINVAL, "cpus[1].file: cpu1.pt is the file of cpus[0] (CPU 0) too", NULL);
}

PTS_SUITE(bundle_errors, NULL, errors_cleanup,
	  PTS_TEST(one_trace_file_for_two_cpus_is_einval),
	  PTS_TEST(partial_read_accepts_a_missing_sideband_or_vdso),
	  PTS_TEST(missing_directory_is_enoent),
	  PTS_TEST(missing_manifest_is_enoent_naming_manifest_json),
	  PTS_TEST(missing_cpu_file_is_enoent_naming_file_and_key),
	  PTS_TEST(missing_vdso_file_is_enoent_naming_its_key),
	  PTS_TEST(truncated_cpu_file_is_efbig_truncated_copy),
	  PTS_TEST(partial_read_accepts_short_cpu_and_sideband_files_with_their_sizes),
	  PTS_TEST(partial_read_accepts_a_truncated_object_copy_with_its_size),
	  PTS_TEST(partial_read_still_refuses_other_damaged_or_missing_files),
	  PTS_TEST(longer_kallsyms_than_recorded_is_efbig),
	  PTS_TEST(bad_json_reports_line_and_column),
	  PTS_TEST(truncated_json_says_unexpected_end),
	  PTS_TEST(unknown_version_is_einval_naming_the_version),
	  PTS_TEST(wrong_format_string_is_einval),
	  PTS_TEST(integer_where_hex_string_required_is_einval),
	  PTS_TEST(hex_string_where_integer_required_is_einval),
	  PTS_TEST(fractional_number_is_einval),
	  PTS_TEST(negative_size_is_einval),
	  PTS_TEST(hex_wider_than_64_bits_is_einval),
	  PTS_TEST(u32_register_out_of_range_is_einval),
	  PTS_TEST(absent_required_key_is_einval_naming_it),
	  PTS_TEST(absent_required_nested_key_is_einval_naming_its_path),
	  PTS_TEST(file_name_leaving_the_bundle_is_einval),
	  PTS_TEST(mtc_freq_disagreeing_with_rtit_ctl_is_einval),
	  PTS_TEST(scope_disagreeing_with_rtit_ctl_is_einval),
	  PTS_TEST(addr_cfg_disagreeing_with_rtit_ctl_is_einval),
	  PTS_TEST(head_beyond_buffer_size_is_einval),
	  PTS_TEST(unknown_cpu_flag_is_einval),
	  PTS_TEST(unknown_source_is_einval),
	  PTS_TEST(overlong_comm_is_einval),
	  PTS_TEST(short_cpu_file_accepted_only_in_incomplete_bundle),
	  PTS_TEST(complete_flag_and_reason_are_preserved),
	  PTS_TEST(unknown_keys_are_ignored))
