// SPDX-License-Identifier: GPL-2.0
/*
 * The bundle writers: pts_bundle_write_manifest refuses what the reader
 * would refuse, files appear atomically (temporary name + rename, never a
 * half-written file under its final name), and a full disk comes back as
 * -ENOSPC so the capture tool can mark the bundle incomplete.
 */
#include "unit.h"
#include "bundle_fixture.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bundle/bundle.h"
#include "ptscope/rtit.h"

static char *dir;

static int wr_init(void)
{
	return 0;
}

static int wr_cleanup(void)
{
	bt_rmtree(dir);
	free(dir);
	dir = NULL;
	return 0;
}

static void fresh(void)
{
	wr_cleanup();
	dir = bt_tmpdir();
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
}

/* Smallest valid bundle: user scope, one unwrapped CPU with `cpu_bytes`. */
static struct pts_bundle *minimal(const char *d, size_t cpu_bytes, int write_cpu)
{
	struct pts_bundle *b = pts_bundle_new();
	char data[256] = { 0 };

	b->config.scope = PTS_SCOPE_USER;
	b->config.rtit_ctl = RTIT_CTL_TRACEEN | RTIT_CTL_USER | RTIT_CTL_TOPA;
	b->config.buffer_size = 4096;
	strcpy(b->producer, "test");
	b->nr_cpus = 1;
	b->cpus = calloc(1, sizeof(*b->cpus));
	strcpy(b->cpus[0].file, "cpu0.pt");
	b->cpus[0].buffer_size = 4096;
	b->cpus[0].head = cpu_bytes;
	b->cpus[0].size = cpu_bytes;
	if (write_cpu)
		pts_bundle_write_file(d, "cpu0.pt", data, cpu_bytes, NULL);
	return b;
}

static int exists(const char *d, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", d, name);
	return stat(path, &st) == 0;
}

/* Count directory entries whose name contains ".tmp" (left-over temporaries). */
static int temporaries(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *de;
	int n = 0;

	if (!dp)
		return -1;
	while ((de = readdir(dp)))
		n += strstr(de->d_name, ".tmp") != NULL;
	closedir(dp);
	return n;
}

static void missing_data_file_is_enoent_and_no_manifest_appears(void)
{
	struct pts_bundle *b;
	struct pts_err err = { 0 };

	fresh();
	b = minimal(dir, 16, 0);
	CU_ASSERT_EQUAL(pts_bundle_write_manifest(dir, b, &err), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "cpu0.pt"));
	CU_ASSERT_FALSE(exists(dir, "manifest.json"));
	pts_bundle_free(b);
}

static void size_field_disagreeing_with_the_file_is_einval(void)
{
	struct pts_bundle *b;
	struct pts_err err = { 0 };

	fresh();
	b = minimal(dir, 16, 1);
	b->cpus[0].size = 17;
	b->cpus[0].head = 17;
	CU_ASSERT_EQUAL(pts_bundle_write_manifest(dir, b, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "cpus[0].size"));
	pts_bundle_free(b);
}

static void short_cpu_file_needs_complete_false(void)
{
	struct pts_bundle *b, *r = NULL;
	struct pts_err err = { 0 };

	fresh();
	b = minimal(dir, 16, 1);
	b->cpus[0].head = 32;			/* ring had 32 bytes, 16 were saved */
	CU_ASSERT_EQUAL(pts_bundle_write_manifest(dir, b, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "holds 32"));
	b->complete = false;
	strcpy(b->incomplete_reason, "writing cpu0.pt: No space left on device");
	CU_ASSERT_EQUAL(pts_bundle_write_manifest(dir, b, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_bundle_read(dir, &r, &err), 0);
	CU_ASSERT_FALSE(r->complete);
	CU_ASSERT_STRING_EQUAL(r->incomplete_reason, "writing cpu0.pt: No space left on device");
	CU_ASSERT_EQUAL(r->cpus[0].size, 16);
	CU_ASSERT_EQUAL(r->cpus[0].head, 32);
	pts_bundle_free(r);
	pts_bundle_free(b);
}

static void scope_and_addr_cfg_must_match_rtit_ctl(void)
{
	struct pts_bundle *b;
	struct pts_err err = { 0 };

	fresh();
	b = minimal(dir, 16, 1);
	b->config.scope = PTS_SCOPE_KERNEL;		/* CTL says User only */
	CU_ASSERT_EQUAL(pts_bundle_write_manifest(dir, b, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "config.scope"));
	b->config.scope = PTS_SCOPE_USER;
	b->config.nr_addr = 1;
	b->config.addr[0].cfg = 1;			/* CTL has ADDR0_CFG 0 */
	CU_ASSERT_EQUAL(pts_bundle_write_manifest(dir, b, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "ADDR0_CFG"));
	CU_ASSERT_FALSE(exists(dir, "manifest.json"));
	pts_bundle_free(b);
}

static void unterminated_fixed_string_is_einval(void)
{
	struct pts_bundle *b;
	struct pts_err err = { 0 };

	fresh();
	b = minimal(dir, 16, 1);
	memset(b->producer, 'x', sizeof(b->producer));
	CU_ASSERT_EQUAL(pts_bundle_write_manifest(dir, b, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "producer"));
	pts_bundle_free(b);
}

static void file_names_outside_the_bundle_are_refused(void)
{
	static const char *bad[] = { "", "/etc/passwd", "../x", "a/../../x", "a//b", "./a", "a/" };
	struct pts_err err = { 0 };
	size_t i;

	fresh();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(pts_bundle_write_file(dir, bad[i], "x", 1, &err), -EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "bad bundle file name"));
	}
}

static void write_file_creates_parents_and_leaves_no_temporaries(void)
{
	struct pts_err err = { 0 };
	char path[4096], *text;
	size_t len = 0;

	fresh();
	CU_ASSERT_EQUAL(pts_bundle_write_file(dir, "objects/usr/lib/x.so", "abc", 3, &err), 0);
	CU_ASSERT_EQUAL(pts_bundle_write_file(dir, "objects/usr/lib/x.so", "abcd", 4, &err), 0);
	snprintf(path, sizeof(path), "%s/objects/usr/lib/x.so", dir);
	text = bt_read_file(path, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_EQUAL(len, 4);
	CU_ASSERT_STRING_EQUAL(text, "abcd");
	free(text);
	snprintf(path, sizeof(path), "%s/objects/usr/lib", dir);
	CU_ASSERT_EQUAL(temporaries(path), 0);
}

static void manifest_rewrite_replaces_it_and_leaves_no_temporaries(void)
{
	struct pts_bundle *b, *r = NULL;
	struct pts_err err = { 0 };

	fresh();
	b = minimal(dir, 16, 1);
	CU_ASSERT_EQUAL(pts_bundle_write_manifest(dir, b, &err), 0);
	strcpy(b->producer, "second");
	CU_ASSERT_EQUAL(pts_bundle_write_manifest(dir, b, &err), 0);
	CU_ASSERT_EQUAL(temporaries(dir), 0);
	CU_ASSERT_EQUAL_FATAL(pts_bundle_read(dir, &r, &err), 0);
	CU_ASSERT_STRING_EQUAL(r->producer, "second");
	pts_bundle_free(r);
	pts_bundle_free(b);
}

static void copy_of_missing_source_is_enoent(void)
{
	struct pts_err err = { 0 };
	uint64_t size = 5;

	fresh();
	CU_ASSERT_EQUAL(pts_bundle_copy_file(dir, "objects/x", "/nonexistent/x", &size, &err),
			-ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "/nonexistent/x"));
	CU_ASSERT_EQUAL(size, 5);
	CU_ASSERT_FALSE(exists(dir, "objects/x"));
}

/*
 * Child side of the disk-full test, inside a private mount namespace with a
 * 16 KiB tmpfs on d. Returns 0 on success or the number of the failed step.
 */
static int disk_full_steps(const char *d)
{
	static char big[64 * 1024];
	struct pts_bundle *b, *r = NULL;
	struct pts_err err = { 0 };
	char path[4096];
	int fd;

	b = minimal(d, 16, 1);
	if (pts_bundle_write_manifest(d, b, &err))
		return 1;
	/* 1. a data file larger than the disk: -ENOSPC, nothing left behind */
	if (pts_bundle_write_file(d, "cpu1.pt", big, sizeof(big), &err) != -ENOSPC)
		return 2;
	if (exists(d, "cpu1.pt") || temporaries(d) != 0 || !strstr(err.msg, "cpu1.pt"))
		return 3;
	/* 2. fill the disk, then the manifest update itself fails with -ENOSPC */
	snprintf(path, sizeof(path), "%s/filler", d);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	while (fd >= 0 && write(fd, big, sizeof(big)) > 0)
		;
	if (fd < 0 || close(fd))
		return 4;
	b->complete = false;
	snprintf(b->incomplete_reason, sizeof(b->incomplete_reason), "%.200s", err.msg);
	if (pts_bundle_write_manifest(d, b, &err) != -ENOSPC)
		return 5;
	/* ... and the previous manifest is intact, still "complete" */
	if (pts_bundle_read(d, &r, &err) || !r->complete)
		return 6;
	pts_bundle_free(r);
	/* 3. with space again, the incomplete manifest goes in */
	unlink(path);
	if (pts_bundle_write_manifest(d, b, &err) || pts_bundle_read(d, &r, &err))
		return 7;
	if (r->complete || !strstr(r->incomplete_reason, "No space left on device"))
		return 8;
	pts_bundle_free(r);
	pts_bundle_free(b);
	return 0;
}

static void disk_full_is_enospc_and_keeps_the_old_manifest(void)
{
	int status = 0;
	pid_t pid;

	fresh();
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		/* private namespace so the tmpfs never shows outside this child */
		if (unshare(CLONE_NEWNS) && unshare(CLONE_NEWUSER | CLONE_NEWNS))
			_exit(77);
		if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("ptscope-test", dir, "tmpfs", 0, "size=16k"))
			_exit(77);
		_exit(disk_full_steps(dir));
	}
	CU_ASSERT_EQUAL_FATAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT_TRUE_FATAL(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		fprintf(stderr, "\n    skipped: cannot mount a private tmpfs here (needs root or "
			"user namespaces) ");
		return;
	}
	CU_ASSERT_EQUAL(WEXITSTATUS(status), 0);
	if (WEXITSTATUS(status))
		fprintf(stderr, "\n    disk-full step %d failed ", WEXITSTATUS(status));
}

PTS_SUITE(bundle_write, wr_init, wr_cleanup,
	  PTS_TEST(missing_data_file_is_enoent_and_no_manifest_appears),
	  PTS_TEST(size_field_disagreeing_with_the_file_is_einval),
	  PTS_TEST(short_cpu_file_needs_complete_false),
	  PTS_TEST(scope_and_addr_cfg_must_match_rtit_ctl),
	  PTS_TEST(unterminated_fixed_string_is_einval),
	  PTS_TEST(file_names_outside_the_bundle_are_refused),
	  PTS_TEST(write_file_creates_parents_and_leaves_no_temporaries),
	  PTS_TEST(manifest_rewrite_replaces_it_and_leaves_no_temporaries),
	  PTS_TEST(copy_of_missing_source_is_enoent),
	  PTS_TEST(disk_full_is_enospc_and_keeps_the_old_manifest))
