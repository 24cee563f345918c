// SPDX-License-Identifier: GPL-2.0
/*
 * Where the names of a stripped binary are looked for (pts_debug_file),
 * as perf looks with --symfs: a sysroot's /usr/lib/debug by build-id and
 * by .gnu_debuglink (the original file's directory, not that of the copy
 * read), then the host's /usr/lib/debug by build-id, and never a file of
 * another build-id (perf's symsrc__init). The binaries are the golden
 * user program linked twice (two build-ids), its debug file made by
 * objcopy --only-keep-debug and the program stripped, as a distribution
 * ships them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "unit.h"
#include "asm_elf.h"
#include "bundle_fixture.h"
#include "capture/elfinfo.h"
#include "decode/symtab.h"

static char *dir, *elf, *other, id[41];
static char stripped[400], dbg[400], otherdbg[400], root[400];

static int sh(const char *fmt, const char *a, const char *b)
{
	char cmd[2000];

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	return system(cmd);
}

static int suite_init(void)
{
	dir = bt_tmpdir();
	if (!dir)
		return 1;
	if (asm_elf_two_builds(dir, &elf, &other, id))
		return 1;
	snprintf(dbg, sizeof(dbg), "%s/user.debug", dir);
	snprintf(otherdbg, sizeof(otherdbg), "%s/other.debug", dir);
	snprintf(stripped, sizeof(stripped), "%s/copy/user", dir);
	snprintf(root, sizeof(root), "%s/root", dir);
	if (sh("objcopy --only-keep-debug '%s' '%s'", elf, dbg) ||
	    sh("objcopy --only-keep-debug '%s' '%s'", other, otherdbg) ||
	    sh("mkdir -p '%s/copy' '%s'", dir, root) ||
	    sh("strip -o '%s' '%s'", stripped, elf))
		return 1;
	return 0;
}

static int suite_cleanup(void)
{
	asm_elf_two_builds_free(dir, elf, other);
	return 0;
}

/* root's by-build-id path of the program's debug file */
static void id_path(char *out, size_t len, const char *r)
{
	snprintf(out, len, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", r, id, id + 2);
}

/* pts_debug_file(obj, path) under r with cache c gives want (want NULL: nothing). */
static void expect_found(const char *obj, const char *path, const char *r, const char *c,
			 const char *want)
{
	char *got = pts_debug_file(obj, path, r, c, NULL, 0);

	if (!want) {
		CU_ASSERT_PTR_NULL(got);
	} else {
		CU_ASSERT_PTR_NOT_NULL(got);
		if (got)
			CU_ASSERT_STRING_EQUAL(got, want);
	}
	free(got);
}

/* pts_debug_file(obj, path) under root, no cache, gives want (want NULL: nothing). */
static void expect_debug_file(const char *obj, const char *path, const char *want)
{
	expect_found(obj, path, root, NULL, want);
}

static void a_sysroots_debug_file_is_found_by_build_id_and_one_of_another_is_not(void)
{
	char want[600], host[600], looked[1200], cmd[2400];
	char *got;

	id_path(want, sizeof(want), root);
	id_path(host, sizeof(host), "");
	/* nothing there: the sysroot's place and the host's were looked at */
	got = pts_debug_file(stripped, "/opt/app/user", root, NULL, looked, sizeof(looked));
	CU_ASSERT_PTR_NULL(got);
	free(got);
	CU_ASSERT_PTR_NOT_NULL(strstr(looked, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(looked, host));
	/* a debug file of another build-id at the build-id's place is not the program's */
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\" && cp '%s' '%s'", want, otherdbg,
		 want);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	expect_debug_file(stripped, "/opt/app/user", NULL);
	/* the program's own is taken */
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", dbg, want);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	expect_debug_file(stripped, "/opt/app/user", want);
	CU_ASSERT_EQUAL(unlink(want), 0);
}

/*
 * .gnu_debuglink of a copy (a bundle's objects/...): looked for under the
 * sysroot in the directory of the original path, not of the copy.
 */
static void a_debuglink_is_looked_for_in_the_original_files_directory(void)
{
	char linked[600], want[600], cmd[2400];

	snprintf(linked, sizeof(linked), "%s/copy/linked", dir);
	snprintf(cmd, sizeof(cmd), "cd '%s' && objcopy --add-gnu-debuglink=user.debug copy/user"
		 " copy/linked", dir);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	snprintf(want, sizeof(want), "%s/usr/lib/debug/opt/app/user.debug", root);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/usr/lib/debug/opt/app' && cp '%s' '%s'", root,
		 dbg, want);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	expect_debug_file(linked, "/opt/app/linked", want);
	/* beside the original under the sysroot, as gdb looks too */
	CU_ASSERT_EQUAL(unlink(want), 0);
	snprintf(want, sizeof(want), "%s/opt/app/user.debug", root);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/opt/app' && cp '%s' '%s'", root, dbg, want);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	expect_debug_file(linked, "/opt/app/linked", want);
	CU_ASSERT_EQUAL(unlink(want), 0);
}

/*
 * With a sysroot, the host's own debug file of the same build-id still
 * names the binary (outside the symfs, as perf's build-id cache is):
 * libc, when this host has its debug file (libc6-dbg).
 */
static void the_hosts_debug_file_of_the_same_build_id_is_found_under_any_sysroot(void)
{
	const char *libc = "/usr/lib/x86_64-linux-gnu/libc.so.6";
	char lid[41], want[300];

	if (pts_elf_build_id(libc, lid, NULL) || strlen(lid) < 3)
		PTS_SKIP("no /usr/lib/x86_64-linux-gnu/libc.so.6 with a build-id here");
	snprintf(want, sizeof(want), "/usr/lib/debug/.build-id/%.2s/%s.debug", lid, lid + 2);
	if (access(want, R_OK))
		PTS_SKIP("no debug file of this host's libc (libc6-dbg)");
	expect_debug_file(libc, libc, want);
}

/* cache's place for the program: .build-id/xx/rest/NAME, or ORIG/BUILDID/NAME */
static void cache_path(char *out, size_t len, const char *cache, const char *orig,
		       const char *name)
{
	if (orig)
		snprintf(out, len, "%s%s/%s/%s", cache, orig, id, name);
	else
		snprintf(out, len, "%s/.build-id/%.2s/%s/%s", cache, id, id + 2, name);
}

static void put(const char *from, const char *to)
{
	char cmd[2400];

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\" && cp '%s' '%s'", to, from, to);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
}

/*
 * perf's build-id cache (perf buildid-cache, perf archive): the layout of
 * perf's util/build-id.c, DIR/.build-id/xx/rest/{debug,elf} and
 * DIR/ORIGPATH/BUILDID/{debug,elf}. Its debug file names the program;
 * its elf only when it has a .symtab (a copy of the stripped program
 * names nothing); a file of another build-id never.
 */
static void perfs_build_id_cache_is_looked_in_after_the_sysroot(void)
{
	char cache[500], p[700], q[700], want[700], looked[2000];
	char *got;

	snprintf(cache, sizeof(cache), "%s/cache", dir);
	/* no cache directory: nothing looked at there, nothing listed */
	got = pts_debug_file(stripped, "/opt/app/user", root, cache, looked, sizeof(looked));
	CU_ASSERT_PTR_NULL(got);
	free(got);
	CU_ASSERT_PTR_NULL(strstr(looked, cache));
	CU_ASSERT_EQUAL_FATAL(mkdir(cache, 0755), 0);
	/* an empty cache is listed where the hint says to put the file */
	got = pts_debug_file(stripped, "/opt/app/user", root, cache, looked, sizeof(looked));
	CU_ASSERT_PTR_NULL(got);
	free(got);
	cache_path(p, sizeof(p), cache, NULL, "debug");
	CU_ASSERT_PTR_NOT_NULL(strstr(looked, p));
	cache_path(p, sizeof(p), cache, NULL, "elf");
	CU_ASSERT_PTR_NOT_NULL(strstr(looked, p));
	/* another build-id's debug file, and a stripped copy of the program: neither */
	cache_path(p, sizeof(p), cache, NULL, "debug");
	put(otherdbg, p);
	cache_path(q, sizeof(q), cache, NULL, "elf");
	put(stripped, q);
	expect_debug_file(stripped, "/opt/app/user", NULL);
	/* the program unstripped as perf record saw it: its .symtab names it */
	put(elf, q);
	expect_debug_file(stripped, "/opt/app/user", NULL);	/* no cache given */
	expect_found(stripped, "/opt/app/user", root, cache, q);
	/* the debug file comes first */
	put(dbg, p);
	expect_found(stripped, "/opt/app/user", root, cache, p);
	/* the sysroot's comes before the cache's */
	id_path(want, sizeof(want), root);
	put(dbg, want);
	expect_found(stripped, "/opt/app/user", root, cache, want);
	CU_ASSERT_EQUAL(unlink(want), 0);
	CU_ASSERT_EQUAL(unlink(p), 0);
	CU_ASSERT_EQUAL(unlink(q), 0);
	/* without the .build-id link: the original path's directory, by build-id */
	cache_path(p, sizeof(p), cache, "/opt/app/user", "debug");
	put(dbg, p);
	expect_found(stripped, "/opt/app/user", NULL, cache, p);
	CU_ASSERT_EQUAL(unlink(p), 0);
}

/*
 * A build-id of one byte names no .build-id/xx/rest path, but a
 * .gnu_debuglink candidate of another build-id is still not the
 * binary's (fuzzing finding 29: it was taken as if there were none).
 * ld --build-id=0x4a writes a note libelf refuses (no padding), so the
 * note is added as a well-formed one: namesz 4, descsz 1, "GNU", 0x4a.
 */
static void a_one_byte_build_id_still_refuses_another_build_ids_debug_file(void)
{
	static const char note[20] = { 4, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0,
				       'G', 'N', 'U', 0, 0x4a, 0, 0, 0 };
	char sdir[500], path[600], want[600], cmd[3000], got_id[41];
	char *s_elf;
	FILE *f;

	snprintf(sdir, sizeof(sdir), "%s/short", dir);
	CU_ASSERT_EQUAL_FATAL(mkdir(sdir, 0755), 0);
	s_elf = asm_elf_build(sdir, "plain.elf", ASM_ELF_USER_S,
			      "-static -Ttext=0x401000 -e _start");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s_elf);
	snprintf(path, sizeof(path), "%s/note.bin", sdir);
	f = fopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(fwrite(note, 1, sizeof(note), f), sizeof(note));
	CU_ASSERT_EQUAL(fclose(f), 0);
	/* the link names prog.debug, which holds the other program's debug file */
	snprintf(cmd, sizeof(cmd), "cd '%s' && objcopy --add-section .note.gnu.build-id=note.bin"
		 " plain.elf prog.elf && strip -o prog.s prog.elf && cp '%s' prog.debug &&"
		 " objcopy --add-gnu-debuglink=prog.debug prog.s prog", sdir, otherdbg);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/prog", sdir);
	CU_ASSERT_EQUAL_FATAL(pts_elf_build_id(path, got_id, NULL), 0);
	CU_ASSERT_STRING_EQUAL(got_id, "4a");
	expect_debug_file(path, "/opt/app/prog", NULL);
	/* its own debug file, of the same one-byte build-id, is taken */
	snprintf(cmd, sizeof(cmd), "cd '%s' && objcopy --only-keep-debug prog.elf prog.debug", sdir);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	snprintf(want, sizeof(want), "%s/prog.debug", sdir);
	expect_debug_file(path, "/opt/app/prog", want);
	free(s_elf);
}

PTS_SUITE(decode_debug_file, suite_init, suite_cleanup,
	  PTS_TEST(a_sysroots_debug_file_is_found_by_build_id_and_one_of_another_is_not),
	  PTS_TEST(a_debuglink_is_looked_for_in_the_original_files_directory),
	  PTS_TEST(the_hosts_debug_file_of_the_same_build_id_is_found_under_any_sysroot),
	  PTS_TEST(perfs_build_id_cache_is_looked_in_after_the_sysroot),
	  PTS_TEST(a_one_byte_build_id_still_refuses_another_build_ids_debug_file));
