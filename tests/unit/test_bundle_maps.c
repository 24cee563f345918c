// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/PID/maps parsing (userland/lib/bundle/maps.h). Lines are written
 * by hand in the kernel's format as proc(5) documents it ("address perms
 * offset dev inode pathname", the pathname padded to a column), with the
 * expected field values read off the line.
 */
#include "unit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bundle/maps.h"

static const char maps_text[] =
	"00400000-00452000 r-xp 00000000 08:02 173521                             /usr/bin/dbus-daemon\n"
	"00e03000-00e24000 rw-p 00000000 00:00 0                                  [heap]\n"
	"7f2c4a000000-7f2c4a021000 rw-p 00000000 00:00 0 \n"
	"7f2c4b000000-7f2c4b021000 ---p 00000000 00:00 0\n"
	"\n"
	"7f2c4c001000-7f2c4c003000 r-xp 00001000 fd:01 42                         /tmp/my lib.so (deleted)\n"
	"7fff6d9a2000-7fff6d9a4000 r-xp 00000000 00:00 0                          [vdso]\n"
	"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]";

static void kernel_format_lines_parse_into_fields(void)
{
	struct pts_bundle_map *m = NULL;
	struct pts_err err = { 0 };
	size_t n = 0;

	CU_ASSERT_EQUAL_FATAL(pts_maps_parse(maps_text, &m, &n, &err), 0);
	CU_ASSERT_EQUAL_FATAL(n, 7);
	CU_ASSERT_EQUAL(m[0].start, 0x400000);
	CU_ASSERT_EQUAL(m[0].end, 0x452000);
	CU_ASSERT_STRING_EQUAL(m[0].perms, "r-xp");
	CU_ASSERT_EQUAL(m[0].pgoff, 0);
	CU_ASSERT_EQUAL(m[0].dev_major, 8);
	CU_ASSERT_EQUAL(m[0].dev_minor, 2);
	CU_ASSERT_EQUAL(m[0].inode, 173521);
	CU_ASSERT_STRING_EQUAL(m[0].path, "/usr/bin/dbus-daemon");
	CU_ASSERT_STRING_EQUAL(m[1].path, "[heap]");
	/* anonymous, with and without the trailing space */
	CU_ASSERT_EQUAL(m[2].start, 0x7f2c4a000000ULL);
	CU_ASSERT_STRING_EQUAL(m[2].path, "");
	CU_ASSERT_STRING_EQUAL(m[3].perms, "---p");
	CU_ASSERT_STRING_EQUAL(m[3].path, "");
	/* the empty line is skipped; spaces inside the path are kept */
	CU_ASSERT_EQUAL(m[4].start, 0x7f2c4c001000ULL);
	CU_ASSERT_EQUAL(m[4].pgoff, 0x1000);
	CU_ASSERT_EQUAL(m[4].dev_major, 0xfd);
	CU_ASSERT_EQUAL(m[4].dev_minor, 1);
	CU_ASSERT_EQUAL(m[4].inode, 42);
	CU_ASSERT_STRING_EQUAL(m[4].path, "/tmp/my lib.so (deleted)");
	CU_ASSERT_STRING_EQUAL(m[5].path, "[vdso]");
	CU_ASSERT_EQUAL(m[6].start, 0xffffffffff600000ULL);
	CU_ASSERT_EQUAL(m[6].end, 0xffffffffff601000ULL);
	CU_ASSERT_STRING_EQUAL(m[6].path, "[vsyscall]");
	pts_maps_free(m, n);
}

static void empty_text_gives_no_entries(void)
{
	struct pts_bundle_map *m = (void *)1;
	size_t n = 9;

	CU_ASSERT_EQUAL(pts_maps_parse("", &m, &n, NULL), 0);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_PTR_NULL(m);
}

static void malformed_line_is_einval_naming_line_number(void)
{
	static const char *bad[] = {
		"00400000-00452000 r-xp 00000000 08:02 1 /a\nzzzz\n",
		"00400000-00452000 r-xp 00000000 08:02 1 /a\n00400000 r-xp 00000000 08:02 1 /a\n",
		"00400000-00452000 r-xp 00000000 08:02 1 /a\n00400000-00452000 r-x 00000000 08:02 1\n",
		"00400000-00452000 r-xp 00000000 08:02 1 /a\n00400000-00452000 r-xp 00000000 08:02\n",
		"00400000-00452000 r-xp 00000000 08:02 1 /a\n00452000-00400000 r-xp 00000000 08:02 1\n",
		"00400000-00452000 r-xp 00000000 08:02 1 /a\n00400000-00452000 r-xp 00000000 0802 1\n",
		"00400000-00452000 r-xp 00000000 08:02 1 /a\n00400000-00452000 r-xp 00000000 08:02 1x /a\n",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pts_bundle_map *m = (void *)1;
		struct pts_err err = { 0 };
		size_t n = 9;

		CU_ASSERT_EQUAL(pts_maps_parse(bad[i], &m, &n, &err), -EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "maps line 2"));
		CU_ASSERT_PTR_NULL(m);
		CU_ASSERT_EQUAL(n, 0);
	}
}

static void format_writes_the_maps_line(void)
{
	struct pts_bundle_map m = {
		.start = 0x400000, .end = 0x452000, .pgoff = 0x3000, .perms = "r-xp",
		.path = "/usr/bin/dbus-daemon", .dev_major = 8, .dev_minor = 2,
		.inode = 173521,
	};
	struct pts_bundle_map anon = {
		.start = 0x7f2c4a000000ULL, .end = 0x7f2c4a021000ULL, .perms = "rw-p",
		.path = "",
	};
	char line[256];

	CU_ASSERT_EQUAL(pts_maps_format(&m, line, sizeof(line)),
			(int)strlen("00400000-00452000 r-xp 00003000 08:02 173521 /usr/bin/dbus-daemon"));
	CU_ASSERT_STRING_EQUAL(line, "00400000-00452000 r-xp 00003000 08:02 173521 /usr/bin/dbus-daemon");
	pts_maps_format(&anon, line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, "7f2c4a000000-7f2c4a021000 rw-p 00000000 00:00 0");
}

static void own_proc_maps_parse_and_show_this_executable(void)
{
	struct pts_bundle_map *m = NULL;
	struct pts_err err = { 0 };
	char exe[4096];
	ssize_t len;
	size_t n = 0, i;
	int found = 0;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CU_ASSERT_FATAL(len > 0);
	exe[len] = '\0';
	CU_ASSERT_EQUAL_FATAL(pts_maps_read_file("/proc/self/maps", &m, &n, &err), 0);
	for (i = 0; i < n; i++)
		if (!strcmp(m[i].path, exe) && m[i].perms[2] == 'x' &&
		    (uint64_t)(uintptr_t)&own_proc_maps_parse_and_show_this_executable >= m[i].start &&
		    (uint64_t)(uintptr_t)&own_proc_maps_parse_and_show_this_executable < m[i].end)
			found++;
	CU_ASSERT_EQUAL(found, 1);
	pts_maps_free(m, n);
}

static void missing_maps_file_is_enoent(void)
{
	struct pts_bundle_map *m;
	struct pts_err err = { 0 };
	size_t n;

	CU_ASSERT_EQUAL(pts_maps_read_file("/proc/0/maps-none", &m, &n, &err), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "/proc/0/maps-none"));
}

PTS_SUITE(bundle_maps, NULL, NULL,
	  PTS_TEST(kernel_format_lines_parse_into_fields),
	  PTS_TEST(empty_text_gives_no_entries),
	  PTS_TEST(malformed_line_is_einval_naming_line_number),
	  PTS_TEST(format_writes_the_maps_line),
	  PTS_TEST(own_proc_maps_parse_and_show_this_executable),
	  PTS_TEST(missing_maps_file_is_enoent))
