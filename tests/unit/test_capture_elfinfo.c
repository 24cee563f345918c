// SPDX-License-Identifier: GPL-2.0
/*
 * ELF facts with libelf, checked against independent sources: readelf -n
 * for build-ids (run here), the dynamic loader for where a function of
 * this very binary landed.
 */
#include "unit.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bundle/maps.h"
#include "capture/elfinfo.h"
#include "capture/options.h"
#include "capture/procfs.h"

/* Build ID as printed by binutils' readelf -n, "" if none, NULL if no readelf. */
static char *readelf_build_id(const char *path, char *out, size_t len)
{
	char cmd[PATH_MAX + 64], line[512];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	if (!p)
		return NULL;
	out[0] = '\0';
	while (fgets(line, sizeof(line), p)) {
		char *b = strstr(line, "Build ID: ");

		if (b) {
			snprintf(out, len, "%s", b + 10);
			out[strcspn(out, "\r\n ")] = '\0';
		}
	}
	if (pclose(p) != 0)
		return NULL;
	return out;
}

static void build_id_matches_readelf_for_our_own_binary(void)
{
	char exe[PATH_MAX], want[64], got[41];
	struct pts_err err;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	CU_ASSERT_FATAL(n > 0);
	exe[n] = '\0';
	if (!readelf_build_id(exe, want, sizeof(want)) || !want[0]) {
		PTS_SKIP("readelf unavailable or the test binary has no build-id");
	}
	CU_ASSERT_EQUAL(pts_elf_build_id(exe, got, &err), 0);
	CU_ASSERT_STRING_EQUAL(got, want);
}

static void build_id_matches_readelf_for_system_true(void)
{
	char want[64], got[41];
	struct pts_err err;

	if (access("/bin/true", R_OK) || !readelf_build_id("/bin/true", want, sizeof(want)) ||
	    !want[0]) {
		PTS_SKIP("/bin/true or readelf unavailable, or no build-id");
	}
	CU_ASSERT_EQUAL(pts_elf_build_id("/bin/true", got, &err), 0);
	CU_ASSERT_STRING_EQUAL(got, want);
}

static void file_without_build_id_note_is_enoent_with_empty_id(void)
{
	/* readelf -n prints no notes at all for this static test program */
	char path[PATH_MAX], got[41] = "x";
	struct pts_err err;

	snprintf(path, sizeof(path), "%s/data/real/dynamorio-hello/hello", pts_unit_shared_dir());
	CU_ASSERT_EQUAL(pts_elf_build_id(path, got, &err), -ENOENT);
	CU_ASSERT_STRING_EQUAL(got, "");
}

static void non_elf_file_is_einval(void)
{
	char got[41];
	struct pts_err err;

	CU_ASSERT_EQUAL(pts_elf_build_id("/proc/self/status", got, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not an ELF"));
	CU_ASSERT_EQUAL(pts_elf_build_id("/nonexistent/file", got, &err), -ENOENT);
}

static void symbol_relocated_with_maps_is_where_the_loader_put_it(void)
{
	struct pts_bundle_map *maps = NULL;
	char exe[PATH_MAX];
	struct pts_err err;
	uint64_t addr, size, rt;
	size_t nr = 0;
	int pie;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	CU_ASSERT_FATAL(n > 0);
	exe[n] = '\0';
	CU_ASSERT_EQUAL_FATAL(pts_elf_symbol(exe, "pts_opts_parse", &addr, &size, &pie, &err), 0);
	CU_ASSERT(size > 0);
	CU_ASSERT_EQUAL_FATAL(pts_proc_read_maps(0, &maps, &nr, &err), 0);
	CU_ASSERT_EQUAL(pts_elf_runtime_addr(exe, addr, maps, nr, &rt, &err), 0);
	CU_ASSERT_EQUAL(rt, (uint64_t)(uintptr_t)pts_opts_parse);
	pts_maps_free(maps, nr);
}

static void missing_symbol_is_enoent_and_says_what_to_do(void)
{
	char exe[PATH_MAX];
	struct pts_err err;
	uint64_t addr, size;
	int pie;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	CU_ASSERT_FATAL(n > 0);
	exe[n] = '\0';
	CU_ASSERT_EQUAL(pts_elf_symbol(exe, "no_such_symbol_here", &addr, &size, &pie, &err),
			-ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "START-END"));
}

static void runtime_addr_outside_any_map_is_enoent(void)
{
	char exe[PATH_MAX];
	struct pts_err err;
	uint64_t addr, size, rt;
	int pie;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct pts_bundle_map other = { .start = 0x1000, .end = 0x2000, .perms = "r-xp",
					.path = (char *)"/other" };

	CU_ASSERT_FATAL(n > 0);
	exe[n] = '\0';
	CU_ASSERT_EQUAL_FATAL(pts_elf_symbol(exe, "pts_opts_parse", &addr, &size, &pie, &err), 0);
	CU_ASSERT_EQUAL(pts_elf_runtime_addr(exe, addr, &other, 1, &rt, &err), -ENOENT);
}

PTS_SUITE(capture_elfinfo, NULL, NULL,
	  PTS_TEST(build_id_matches_readelf_for_our_own_binary),
	  PTS_TEST(build_id_matches_readelf_for_system_true),
	  PTS_TEST_SHARED(file_without_build_id_note_is_enoent_with_empty_id,
			  "data/real/dynamorio-hello/hello"),
	  PTS_TEST(non_elf_file_is_einval),
	  PTS_TEST(symbol_relocated_with_maps_is_where_the_loader_put_it),
	  PTS_TEST(missing_symbol_is_enoent_and_says_what_to_do),
	  PTS_TEST(runtime_addr_outside_any_map_is_enoent))
