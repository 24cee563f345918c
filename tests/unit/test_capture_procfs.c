// SPDX-License-Identifier: GPL-2.0
/*
 * /proc readers against this test process itself: the kernel and the
 * dynamic loader are the independent source of truth (getauxval for the
 * vdso, the address of a function for the executable mapping).
 */
#include "unit.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bundle/maps.h"
#include "capture/options.h"
#include "capture/procfs.h"

static const struct pts_bundle_map *map_of(const struct pts_bundle_map *m, size_t n, uint64_t a)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a >= m[i].start && a < m[i].end)
			return &m[i];
	return NULL;
}

static void self_maps_place_our_code_in_an_executable_mapping_of_our_exe(void)
{
	struct pts_bundle_map *maps = NULL;
	const struct pts_bundle_map *m;
	struct pts_err err;
	char exe[PATH_MAX];
	ssize_t n;
	size_t nr = 0;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CU_ASSERT_FATAL(n > 0);
	exe[n] = '\0';
	CU_ASSERT_EQUAL_FATAL(pts_proc_read_maps(0, &maps, &nr, &err), 0);
	CU_ASSERT(nr > 3);
	m = map_of(maps, nr, (uint64_t)(uintptr_t)pts_opts_parse);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(m->perms[2], 'x');
	CU_ASSERT_STRING_EQUAL(m->path, exe);
	CU_ASSERT_PTR_NOT_NULL(pts_proc_maps_find(maps, nr, "[stack]"));
	pts_maps_free(maps, nr);
}

static void vdso_bytes_equal_the_vdso_the_kernel_mapped_for_us(void)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	struct pts_bundle_map *maps = NULL;
	struct pts_err err;
	size_t nr = 0, len = 0;
	uint64_t addr = 0;
	void *buf = NULL;

	if (!base)
		PTS_SKIP("no AT_SYSINFO_EHDR (no vdso in this process)");
	CU_ASSERT_EQUAL_FATAL(pts_proc_read_maps(0, &maps, &nr, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_proc_read_vdso(getpid(), maps, nr, &buf, &len, &addr, &err), 0);
	CU_ASSERT_EQUAL(addr, base);
	CU_ASSERT(len >= 4096 && len % 4096 == 0);
	/* an ELF image: the kernel maps the vdso as one */
	CU_ASSERT_EQUAL(memcmp(buf, "\177ELF", 4), 0);
	CU_ASSERT_EQUAL(memcmp(buf, (const void *)base, len), 0);
	free(buf);
	pts_maps_free(maps, nr);
}

static void vdso_of_process_without_vdso_map_is_enoent(void)
{
	struct pts_bundle_map m = { .start = 0x1000, .end = 0x2000, .perms = "r-xp",
				    .path = (char *)"/bin/x" };
	struct pts_err err;
	size_t len;
	uint64_t addr;
	void *buf;

	CU_ASSERT_EQUAL(pts_proc_read_vdso(getpid(), &m, 1, &buf, &len, &addr, &err), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "[vdso]"));
}

static void exe_comm_and_threads_of_self(void)
{
	struct pts_err err;
	char comm[16], *exe = NULL, link[PATH_MAX];
	int32_t *tids = NULL;
	size_t nr = 0, i;
	ssize_t n;
	int found = 0;

	n = readlink("/proc/self/exe", link, sizeof(link) - 1);
	CU_ASSERT_FATAL(n > 0);
	link[n] = '\0';
	CU_ASSERT_EQUAL(pts_proc_exe(getpid(), &exe, &err), 0);
	CU_ASSERT_STRING_EQUAL(exe, link);
	free(exe);
	CU_ASSERT_EQUAL(pts_proc_comm(getpid(), comm, &err), 0);
	/* comm is the first 15 bytes of the executable's base name */
	CU_ASSERT_EQUAL(strncmp(comm, strrchr(link, '/') + 1, 15), 0);
	CU_ASSERT_EQUAL(pts_proc_tids(getpid(), &tids, &nr, &err), 0);
	for (i = 0; i < nr; i++)
		found |= tids[i] == getpid();
	CU_ASSERT(found);	/* the main thread's tid is the pid */
	free(tids);
}

static void gone_process_reports_enoent(void)
{
	struct pts_bundle_map *maps;
	struct pts_err err;
	size_t nr;

	/* pid_max is at most 2^22 (4194304): this pid cannot exist */
	CU_ASSERT_EQUAL(pts_proc_read_maps(4194305, &maps, &nr, &err), -ENOENT);
}

static void read_file_reads_proc_files_whose_size_is_zero(void)
{
	struct pts_err err;
	char *text;
	size_t len;

	CU_ASSERT_EQUAL_FATAL(pts_read_file("/proc/self/status", &text, &len, &err), 0);
	CU_ASSERT(len > 0);
	CU_ASSERT_EQUAL(strncmp(text, "Name:", 5), 0);
	CU_ASSERT_EQUAL(text[len], '\0');
	free(text);
}

/* Write text to path (replacing it through a rename: a new inode). */
static void put_file(const char *path, const char *text)
{
	char tmp[PATH_MAX];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(rename(tmp, path), 0);
}

/* First 8 bytes of fd, NUL-terminated (fd closed). */
static const char *head8(int fd, char buf[9])
{
	ssize_t n = fd >= 0 ? pread(fd, buf, 8, 0) : -1;

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
	return buf;
}

/*
 * A copy of a mapped file must be the file mapped. This process maps a
 * file holding "original" and reads its maps; then the file is replaced
 * on disk (rename over it, as a package upgrade does: a new inode holding
 * "replaced"). By hand: through
 * /proc/self/map_files the mapped inode is still read ("original"); with
 * that route unavailable (a range no mapping has), the path now holds
 * another inode than the maps line names: -ESTALE. After the file is
 * deleted, map_files still reaches it. map_files needs CAP_SYS_ADMIN: as
 * an unprivileged user only the -ESTALE half runs (said).
 */
static void mapped_file_is_opened_by_identity_not_by_path(void)
{
	struct pts_bundle_map *maps = NULL, m;
	const struct pts_bundle_map *hit = NULL;
	struct pts_err err = { 0 };
	char path[PATH_MAX], buf[9];
	const char *dir = getenv("TMPDIR");
	size_t n = 0, i;
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/pts-mapped-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	put_file(path, "original");
	fd = open(path, O_RDONLY);
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	CU_ASSERT_FATAL(p != MAP_FAILED);
	/* the maps line as a capture reads it at arm, before the upgrade */
	CU_ASSERT_EQUAL_FATAL(pts_proc_read_maps(0, &maps, &n, &err), 0);
	for (i = 0; i < n; i++)
		if (maps[i].start == (uint64_t)(uintptr_t)p)
			hit = &maps[i];
	CU_ASSERT_PTR_NOT_NULL_FATAL(hit);
	m = *hit;
	put_file(path, "replaced");
	fd = pts_proc_open_mapped(0, &m, &err);
	if (fd >= 0) {
		CU_ASSERT_STRING_EQUAL(head8(fd, buf), "original");
	} else {
		fprintf(stderr, "\n  (map_files not readable here: %s; its half skipped)\n",
			err.msg);
	}
	m.start = m.end = 0x1000;	/* no such mapping: by path only */
	CU_ASSERT_EQUAL(pts_proc_open_mapped(0, &m, &err), -ESTALE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "replaced since it was mapped"));
	pts_maps_free(maps, n);
	unlink(path);
	/* read now, the maps line says the mapped file was deleted */
	CU_ASSERT_EQUAL_FATAL(pts_proc_read_maps(0, &maps, &n, &err), 0);
	for (i = 0, hit = NULL; i < n; i++)
		if (maps[i].start == (uint64_t)(uintptr_t)p)
			hit = &maps[i];
	CU_ASSERT_PTR_NOT_NULL_FATAL(hit);
	CU_ASSERT_PTR_NOT_NULL(strstr(hit->path, " (deleted)"));
	fd = pts_proc_open_mapped(0, hit, &err);
	if (fd >= 0) {
		CU_ASSERT_STRING_EQUAL(head8(fd, buf), "original");
	} else {
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "deleted while mapped"));
	}
	pts_maps_free(maps, n);
	munmap(p, 4096);
}

PTS_SUITE(capture_procfs, NULL, NULL,
	  PTS_TEST(mapped_file_is_opened_by_identity_not_by_path),
	  PTS_TEST(self_maps_place_our_code_in_an_executable_mapping_of_our_exe),
	  PTS_TEST(vdso_bytes_equal_the_vdso_the_kernel_mapped_for_us),
	  PTS_TEST(vdso_of_process_without_vdso_map_is_enoent),
	  PTS_TEST(exe_comm_and_threads_of_self),
	  PTS_TEST(gone_process_reports_enoent),
	  PTS_TEST(read_file_reads_proc_files_whose_size_is_zero))
