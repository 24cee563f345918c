// SPDX-License-Identifier: GPL-2.0
/*
 * Bundle names checked before arming (userland/lib/capture/outdir.c):
 * every way -o can fail is found before anything runs, and
 * --multi-snapshot numbers past the bundles already there. Each case is
 * built in a fresh temporary directory.
 */
#include "unit.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/outdir.h"

static char dir[256];	/* short: the paths built in it fit in PATH_MAX */

static int setup(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/pts-outdir.XXXXXX", t && *t ? t : "/tmp");
	return mkdtemp(dir) ? 0 : 1;
}

static int teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? 1 : 0;
}

static const char *in_dir(const char *name)
{
	static char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

static void touch_dir(const char *name)
{
	CU_ASSERT_EQUAL_FATAL(mkdir(in_dir(name), 0755), 0);
}

static void missing_parent_is_enoent_and_names_the_directory(void)
{
	struct pts_outdir od;
	struct pts_err err;
	char name[PATH_MAX];

	snprintf(name, sizeof(name), "%s/no/such/x.ptscope", dir);
	CU_ASSERT_EQUAL(pts_outdir_prepare(&od, name, false, &err), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "/no/such: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "create it first"));
	/* the same for every bundle of a multi-snapshot capture */
	CU_ASSERT_EQUAL(pts_outdir_prepare(&od, name, true, &err), -ENOENT);
}

static void parent_that_is_a_file_is_enotdir(void)
{
	struct pts_outdir od;
	struct pts_err err;
	char name[PATH_MAX];
	FILE *f = fopen(in_dir("file"), "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	snprintf(name, sizeof(name), "%s/file/x.ptscope", dir);
	CU_ASSERT_EQUAL(pts_outdir_prepare(&od, name, false, &err), -ENOTDIR);
}

static void existing_name_is_eexist_for_one_bundle(void)
{
	struct pts_outdir od;
	struct pts_err err;

	touch_dir("taken.ptscope");
	CU_ASSERT_EQUAL(pts_outdir_prepare(&od, in_dir("taken.ptscope"), false, &err), -EEXIST);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "already exists"));
}

static void free_name_is_the_bundle(void)
{
	struct pts_outdir od;
	struct pts_err err;
	char next[PATH_MAX];

	CU_ASSERT_EQUAL_FATAL(pts_outdir_prepare(&od, in_dir("one.ptscope"), false, &err), 0);
	pts_outdir_next(&od, next, sizeof(next));
	CU_ASSERT_STRING_EQUAL(next, in_dir("one.ptscope"));
}

static void multi_snapshot_numbers_past_existing_bundles(void)
{
	struct pts_outdir od;
	struct pts_err err;
	char next[PATH_MAX];

	/* m.1 and m.3 exist; mx.7 and m.x are other names */
	touch_dir("m.1.ptscope");
	touch_dir("m.3.ptscope");
	touch_dir("mx.7.ptscope");
	touch_dir("m.x.ptscope");
	CU_ASSERT_EQUAL_FATAL(pts_outdir_prepare(&od, in_dir("m.ptscope"), true, &err), 0);
	pts_outdir_next(&od, next, sizeof(next));
	CU_ASSERT_STRING_EQUAL(next, in_dir("m.4.ptscope"));
	/* m.5 appears while the capture runs: skipped, not overwritten */
	touch_dir("m.5.ptscope");
	pts_outdir_next(&od, next, sizeof(next));
	CU_ASSERT_STRING_EQUAL(next, in_dir("m.6.ptscope"));
}

static void multi_snapshot_of_a_name_without_suffix_starts_at_one(void)
{
	struct pts_outdir od;
	struct pts_err err;
	char next[PATH_MAX];

	CU_ASSERT_EQUAL_FATAL(pts_outdir_prepare(&od, in_dir("plain"), true, &err), 0);
	pts_outdir_next(&od, next, sizeof(next));
	CU_ASSERT_STRING_EQUAL(next, in_dir("plain.1.ptscope"));
}

static void rescue_name_is_in_tmpdir_with_our_pid(void)
{
	char want[PATH_MAX], got[PATH_MAX], *old = getenv("TMPDIR");
	struct pts_err err;

	old = old ? strdup(old) : NULL;
	setenv("TMPDIR", dir, 1);
	snprintf(want, sizeof(want), "%s/x-rescued-%d.ptscope", dir, (int)getpid());
	CU_ASSERT_EQUAL(pts_outdir_rescue("/gone/x.ptscope", got, sizeof(got), &err), 0);
	CU_ASSERT_STRING_EQUAL(got, want);
	/* taken: the next one counts up */
	CU_ASSERT_EQUAL_FATAL(mkdir(want, 0755), 0);
	snprintf(want, sizeof(want), "%s/x-rescued-%d-1.ptscope", dir, (int)getpid());
	CU_ASSERT_EQUAL(pts_outdir_rescue("/gone/x.ptscope", got, sizeof(got), &err), 0);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (old)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	free(old);
}

/*
 * Before arming: the file system of the bundle's directory must hold the
 * rings. A byte fits; 2^62 bytes do not (no file system here has that
 * much free), which is -ENOSPC naming the directory and both sizes.
 */
static void room_for_the_rings_is_checked_before_arming(void)
{
	struct pts_outdir od;
	struct pts_err err = { 0 };
	char name[400];

	snprintf(name, sizeof(name), "%s/room.ptscope", dir);
	CU_ASSERT_EQUAL_FATAL(pts_outdir_prepare(&od, name, false, &err), 0);
	CU_ASSERT_EQUAL(pts_outdir_room(&od, 1, &err), 0);
	CU_ASSERT_EQUAL(pts_outdir_room(&od, 1ULL << 62, &err), -ENOSPC);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, dir));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "MiB free"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "4398046511104 MiB"));
}

PTS_SUITE(capture_outdir, setup, teardown,
	  PTS_TEST(room_for_the_rings_is_checked_before_arming),
	  PTS_TEST(missing_parent_is_enoent_and_names_the_directory),
	  PTS_TEST(parent_that_is_a_file_is_enotdir),
	  PTS_TEST(existing_name_is_eexist_for_one_bundle),
	  PTS_TEST(free_name_is_the_bundle),
	  PTS_TEST(multi_snapshot_numbers_past_existing_bundles),
	  PTS_TEST(multi_snapshot_of_a_name_without_suffix_starts_at_one),
	  PTS_TEST(rescue_name_is_in_tmpdir_with_our_pid))
