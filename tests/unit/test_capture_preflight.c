// SPDX-License-Identifier: GPL-2.0
/*
 * The checks a capture makes before opening the module
 * (capture/preflight.h): a CPU list against the online list in sysfs's
 * format (Documentation/ABI/testing/sysfs-devices-system-cpu: "0-3,6"),
 * the PATH search execvp(3) makes (POSIX exec: a name with a '/' is
 * taken as it is; an empty PATH entry is the current directory), a
 * whole option set whose values are wrong on any machine, and a bare
 * --trigger SYMBOL looked up in the traced program's file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "capture/options.h"
#include "capture/preflight.h"

static void mask_of(const char *list, __u64 mask[PTSCOPE_CPU_MASK_WORDS])
{
	CU_ASSERT_EQUAL_FATAL(pts_parse_cpu_list(list, mask, NULL), 0);
}

static void cpus_outside_the_online_list_are_named(void)
{
	__u64 m[PTSCOPE_CPU_MASK_WORDS];
	struct pts_err err;

	mask_of("0-1", m);
	CU_ASSERT_EQUAL(pts_preflight_cpus(m, "0-1\n", &err), 0);
	CU_ASSERT_EQUAL(pts_preflight_cpus(m, "0-3,6\n", &err), 0);
	mask_of("6", m);
	CU_ASSERT_EQUAL(pts_preflight_cpus(m, "0-3,6", &err), 0);
	mask_of("2,999", m);
	CU_ASSERT_EQUAL(pts_preflight_cpus(m, "0-3,6\n", &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "CPU 999 is not online (online: 0-3,6;"));
	mask_of("4", m);
	CU_ASSERT_EQUAL(pts_preflight_cpus(m, "0-3,6\n", &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "CPU 4 is not online"));
}

static void an_online_list_that_cannot_be_read_decides_nothing(void)
{
	__u64 m[PTSCOPE_CPU_MASK_WORDS];
	struct pts_err err;

	mask_of("999", m);
	CU_ASSERT_EQUAL(pts_preflight_cpus(m, NULL, &err), 0);
	CU_ASSERT_EQUAL(pts_preflight_cpus(m, "", &err), 0);
	CU_ASSERT_EQUAL(pts_preflight_cpus(m, "garbage\n", &err), 0);
}

/* A directory holding prog (mode 0755) and text (0644) for the PATH search. */
static char *path_dir(void)
{
	static char dir[32];
	char p[64];
	FILE *f;

	snprintf(dir, sizeof(dir), "/tmp/pts-preflight-XXXXXX");	/* mkdtemp fills it in */
	if (!mkdtemp(dir))
		return NULL;
	snprintf(p, sizeof(p), "%s/prog", dir);
	f = fopen(p, "w");
	if (!f)
		return NULL;
	fputs("#!/bin/sh\n", f);
	fclose(f);
	chmod(p, 0755);
	snprintf(p, sizeof(p), "%s/text", dir);
	f = fopen(p, "w");
	if (!f)
		return NULL;
	fclose(f);
	return dir;
}

static void path_search_finds_what_execvp_would_run(void)
{
	char *dir = path_dir(), env[256], out[256], want[128];

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	snprintf(env, sizeof(env), "/nonexistent:%s", dir);
	snprintf(want, sizeof(want), "%s/prog", dir);
	CU_ASSERT_EQUAL(pts_preflight_which("prog", env, out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, want);
	CU_ASSERT_EQUAL(pts_preflight_which(want, "/nonexistent", out, sizeof(out)), 0);
	CU_ASSERT_EQUAL(pts_preflight_which("nosuchprog", env, out, sizeof(out)), -ENOENT);
	CU_ASSERT_EQUAL(pts_preflight_which("", env, out, sizeof(out)), -ENOENT);
	/* found but not executable, or a directory: EACCES, as execvp says */
	CU_ASSERT_EQUAL(pts_preflight_which("text", env, out, sizeof(out)), -EACCES);
	snprintf(want, sizeof(want), "%s/text", dir);
	CU_ASSERT_EQUAL(pts_preflight_which(want, env, out, sizeof(out)), -EACCES);
	CU_ASSERT_EQUAL(pts_preflight_which(dir, env, out, sizeof(out)), -EACCES);
	snprintf(want, sizeof(want), "%s/nothing", dir);
	CU_ASSERT_EQUAL(pts_preflight_which(want, env, out, sizeof(out)), -ENOENT);
	/* an unset PATH is /bin:/usr/bin (glibc), where sh is */
	CU_ASSERT_EQUAL(pts_preflight_which("sh", NULL, out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "%s/prog", dir);
	unlink(want);
	snprintf(want, sizeof(want), "%s/text", dir);
	unlink(want);
	rmdir(dir);
}

static int parse(enum pts_capture_cmd cmd, struct pts_capture_opts *o, int argc, char **argv)
{
	struct pts_err err;

	return pts_opts_parse(cmd, argc, argv, o, &err);
}

/* argv parsed for cmd, then preflight's answer: want, with an error (no bad option) saying says */
static void expect_preflight(enum pts_capture_cmd cmd, struct pts_capture_opts *o, int argc,
			     char **argv, int want, const char *says)
{
	struct pts_err err;
	bool bad;

	CU_ASSERT_EQUAL_FATAL(parse(cmd, o, argc, argv), 0);
	CU_ASSERT_EQUAL(pts_preflight(o, &bad, &err), want);
	if (want) {
		CU_ASSERT_FALSE(bad);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, says));
	}
}

static void values_wrong_on_any_machine_are_refused(void)
{
	char *rec[] = { "record", "-C", "1023" };
	char *att[] = { "attach", "-p", "2147483646" };
	char *run[] = { "run", "--", "/nonexistent/prog" };
	char *ok[] = { "run", "--", "sh", "-c", "true" };
	struct pts_capture_opts *o = malloc(sizeof(*o));
	struct pts_err err;
	bool bad;

	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL_FATAL(parse(PTS_CMD_RECORD, o, 3, rec), 0);
	if (sysconf(_SC_NPROCESSORS_CONF) < 1024) {
		CU_ASSERT_EQUAL(pts_preflight(o, &bad, &err), -EINVAL);
		CU_ASSERT_TRUE(bad);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "CPU 1023 is not online"));
	}
	expect_preflight(PTS_CMD_ATTACH, o, 3, att, -ESRCH, "no process 2147483646");
	expect_preflight(PTS_CMD_RUN, o, 3, run, -ENOENT, "cannot run '/nonexistent/prog'");
	expect_preflight(PTS_CMD_RUN, o, 5, ok, 0, NULL);
	free(o);
}

/*
 * A bare --trigger SYMBOL is a function of the traced program: looked up
 * before the module is opened in run's CMD or attach's executable (this
 * test program: its main, no no_such_fn), and left for later when CMD is
 * a script (its process runs the interpreter).
 */
static void bare_symbol_trigger_is_resolved_before_the_module(void)
{
	char pid[16], script[128], *dir = path_dir();
	char *att_bad[] = { "attach", "-p", pid, "--trigger", "no_such_fn" };
	char *att_ok[] = { "attach", "-p", pid, "--trigger", "main" };
	char *run_bad[] = { "run", "--trigger", "no_such_fn", "--", "sh", "-c", "true" };
	char *run_script[] = { "run", "--trigger", "no_such_fn", "--", script };
	struct pts_capture_opts *o = malloc(sizeof(*o));
	const char *says = "--trigger: no symbol 'no_such_fn' in /";

	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	snprintf(script, sizeof(script), "%s/prog", dir);
	expect_preflight(PTS_CMD_ATTACH, o, 5, att_bad, -ENOENT, says);
	expect_preflight(PTS_CMD_ATTACH, o, 5, att_ok, 0, NULL);
	expect_preflight(PTS_CMD_RUN, o, 7, run_bad, -ENOENT, says);
	expect_preflight(PTS_CMD_RUN, o, 5, run_script, 0, NULL);
	free(o);
	unlink(script);
	snprintf(script, sizeof(script), "%s/text", dir);
	unlink(script);
	rmdir(dir);
}

PTS_SUITE(capture_preflight, NULL, NULL,
	  PTS_TEST(cpus_outside_the_online_list_are_named),
	  PTS_TEST(an_online_list_that_cannot_be_read_decides_nothing),
	  PTS_TEST(path_search_finds_what_execvp_would_run),
	  PTS_TEST(values_wrong_on_any_machine_are_refused),
	  PTS_TEST(bare_symbol_trigger_is_resolved_before_the_module))
