// SPDX-License-Identifier: GPL-2.0
/*
 * A raw trace's sideband mappings (session/sideband_maps.h): a mapping
 * whose MMAP2 record carries a build-id (perf record --buildid-mmap) is
 * read from the file under --sysroot only when that file has it, else
 * from perf's build-id cache by it (perf's layout, util/build-id.c:
 * DIR/ORIGPATH/BUILDID/elf), and a file of another build-id is said and
 * not read; a mapping without one is read from under --sysroot unchecked,
 * as before. The files are the golden user program linked twice (two
 * build-ids, two entry points): which one was mapped is told by the entry
 * point read back from the image set (ELF header, e_entry at offset 24).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "asm_elf.h"
#include "bundle_fixture.h"
#include "capture/elfinfo.h"
#include "session/sideband_maps.h"

#define PROG "/usr/bin/prog"
#define BASE 0x400000ull

static char *dir, *elf, *other, id[41];
static uint64_t elf_entry, other_entry;

static int sh(const char *cmd)
{
	return system(cmd);
}

static uint64_t entry_of(const char *path)
{
	uint64_t e = 0;
	FILE *f = fopen(path, "rb");

	if (f && !fseek(f, 24, SEEK_SET) && fread(&e, 8, 1, f) != 1)
		e = 0;
	if (f)
		fclose(f);
	return e;
}

static int suite_init(void)
{
	char cmd[3000];

	dir = bt_tmpdir();
	if (!dir)
		return 1;
	if (asm_elf_two_builds(dir, &elf, &other, id))
		return 1;
	elf_entry = entry_of(elf);
	other_entry = entry_of(other);
	/* the sysroots: the program itself, another build of it; the cache: the program */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/same/usr/bin %s/another/usr/bin"
		 " %s/cache/usr/bin/prog/%s && cp %s %s/same" PROG " && cp %s %s/another" PROG
		 " && cp %s %s/cache" PROG "/%s/elf", dir, dir, dir, id, elf, dir, other, dir, elf,
		 dir, id);
	return !elf_entry || elf_entry == other_entry || sh(cmd);
}

static int suite_cleanup(void)
{
	asm_elf_two_builds_free(dir, elf, other);
	return 0;
}

/*
 * The entry point read at the mapping's e_entry for a sideband of one
 * MMAP of PROG (build_id NULL: none recorded), sysroot and cache under
 * the suite's directory (NULL: none); 0 when nothing is mapped there.
 */
static uint64_t mapped_entry(const char *build_id, const char *sysroot, const char *cache,
			     struct pts_decode_summary *sum)
{
	struct pts_sideband sb = { 0 };
	struct pts_sb_rec r;
	struct pts_imgset *set = NULL;
	struct pts_err err = { 0 };
	char root[600], bic[600];
	uint64_t e = 0;

	memset(&r, 0, sizeof(r));
	r.type = PTS_SB_MMAP;
	r.pid = 7;
	r.name = PROG;
	r.build_id = (char *)build_id;
	r.start = BASE;
	r.len = 0x1000;
	r.prot = 5;		/* PROT_READ | PROT_EXEC */
	snprintf(root, sizeof(root), "%s/%s", dir, sysroot ? sysroot : "");
	snprintf(bic, sizeof(bic), "%s/%s", dir, cache ? cache : "");
	memset(sum, 0, sizeof(*sum));
	CU_ASSERT_EQUAL_FATAL(pts_sideband_add(&sb, &r), 0);
	CU_ASSERT_EQUAL_FATAL(pts_sideband_add(&sb, &r), 0);	/* a second process's */
	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	CU_ASSERT_EQUAL(pts_sideband_maps_add(set, &sb, sysroot ? root : NULL,
					      cache ? bic : NULL, sum, &err), 0);
	if (pts_imgset_read(set, 7, BASE + 24, (uint8_t *)&e, 8) != 8)
		e = 0;
	pts_imgset_free(set);
	pts_sideband_free(&sb);
	return e;
}

static void a_recorded_build_id_picks_the_file_and_the_cache_serves_it(void)
{
	struct pts_decode_summary sum;
	char want[200];

	/* the file under --sysroot has the recorded build-id: read */
	CU_ASSERT_EQUAL(mapped_entry(id, "same", NULL, &sum), elf_entry);
	CU_ASSERT_EQUAL(sum.nr_warnings, 0);
	/* another build there, no cache: nothing read, said once for both processes */
	CU_ASSERT_EQUAL(mapped_entry(id, "another", NULL, &sum), 0);
	CU_ASSERT_EQUAL_FATAL(sum.nr_warnings, 1);
	snprintf(want, sizeof(want), "the sideband's MMAP2 records %.40s: not the mapped file", id);
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.warnings[0], want));
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.warnings[0], "another" PROG ": build-id "));
	/* ... and with the cache holding the recorded build: the cache's file */
	CU_ASSERT_EQUAL(mapped_entry(id, "another", "cache", &sum), elf_entry);
	CU_ASSERT_EQUAL(sum.nr_warnings, 0);
	/* no --sysroot: the cache alone, by the build-id */
	CU_ASSERT_EQUAL(mapped_entry(id, NULL, "cache", &sum), elf_entry);
	/* a build-id nothing has: nothing read */
	CU_ASSERT_EQUAL(mapped_entry("0123456789abcdef0123456789abcdef01234567", NULL, "cache",
				     &sum), 0);
	/* no build-id recorded: under --sysroot unchecked (the only check there is), else none */
	CU_ASSERT_EQUAL(mapped_entry(NULL, "another", "cache", &sum), other_entry);
	CU_ASSERT_EQUAL(sum.nr_warnings, 0);
	CU_ASSERT_EQUAL(mapped_entry(NULL, NULL, "cache", &sum), 0);
}

/* Append a record of type at time t for pid, naming name, of protection prot. */
static void rec(struct pts_sideband *sb, enum pts_sb_type type, uint64_t t, int32_t pid,
		const char *name, uint32_t prot)
{
	struct pts_sb_rec r;

	memset(&r, 0, sizeof(r));
	r.type = type;
	r.time_ns = t;
	r.pid = r.tid = pid;
	r.name = (char *)name;
	r.prot = prot;
	CU_ASSERT_EQUAL_FATAL(pts_sideband_add(sb, &r), 0);
}

/*
 * perf's exec records name no file: an exec after which no MMAP of that
 * process maps an executable file leaves its program's code to --elf, and
 * is said. Each case is decided by hand from the records.
 */
static void an_exec_no_mapping_follows_is_said_once_with_the_first(void)
{
	struct pts_decode_summary sum;
	struct pts_sideband sb = { 0 };

	/* pid 10: exec, then its program mapped (r-x): nothing to say */
	rec(&sb, PTS_SB_EXEC, 1, 10, "a", 0);
	rec(&sb, PTS_SB_MMAP, 2, 10, "/bin/a", 5);
	/* pid 20: exec; the file mapped after it is pid 30's */
	rec(&sb, PTS_SB_EXEC, 3, 20, "b", 0);
	rec(&sb, PTS_SB_MMAP, 4, 30, "/bin/x", 5);
	/* pid 40: exec, anonymous memory only; exec again, a file mapped read-only */
	rec(&sb, PTS_SB_EXEC, 5, 40, "c", 0);
	rec(&sb, PTS_SB_MMAP, 6, 40, "", 7);
	rec(&sb, PTS_SB_EXEC, 7, 40, "d", 0);
	rec(&sb, PTS_SB_MMAP, 8, 40, "/bin/d", 1);
	/* pid 50: mapped before its exec only (the program before it) */
	rec(&sb, PTS_SB_MMAP, 9, 50, "/bin/e", 5);
	rec(&sb, PTS_SB_EXEC, 10, 50, "f", 0);
	/* pid 60: exec, then a file of unknown protection (perf's MMAP, not MMAP2) */
	rec(&sb, PTS_SB_EXEC, 11, 60, "g", 0);
	rec(&sb, PTS_SB_MMAP, 12, 60, "/bin/g", 0);
	memset(&sum, 0, sizeof(sum));
	CU_ASSERT_EQUAL(pts_sideband_exec_unmapped(&sb, &sum), 0);
	/* 20 (b), 40 (c), 40 (d), 50 (f): four, pid 20 first */
	CU_ASSERT_EQUAL_FATAL(sum.nr_notices, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.notices[0], "perf sideband: pid 20 (b) exec'd at 3 ns "
				      "(the first of 4 such programs) and no MMAP record after it"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.notices[0], "give it with --elf FILE"));
	/* without them: nothing said */
	pts_sideband_free(&sb);
	rec(&sb, PTS_SB_EXEC, 1, 10, "a", 0);
	rec(&sb, PTS_SB_MMAP, 2, 10, "/bin/a", 5);
	memset(&sum, 0, sizeof(sum));
	CU_ASSERT_EQUAL(pts_sideband_exec_unmapped(&sb, &sum), 0);
	CU_ASSERT_EQUAL(sum.nr_notices, 0);
	pts_sideband_free(&sb);
}

PTS_SUITE(session_sideband_maps, suite_init, suite_cleanup,
	  PTS_TEST(a_recorded_build_id_picks_the_file_and_the_cache_serves_it),
	  PTS_TEST(an_exec_no_mapping_follows_is_said_once_with_the_first))
