// SPDX-License-Identifier: GPL-2.0
/*
 * A capture's checks against this machine before the module is opened.
 * See preflight.h.
 */
#include "preflight.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "procfs.h"
#include "uprobe_sym.h"
#include "../util/file_magic.h"

#define ONLINE_PATH "/sys/devices/system/cpu/online"

int pts_preflight_cpus(const __u64 mask[PTSCOPE_CPU_MASK_WORDS], const char *online,
		       struct pts_err *err)
{
	__u64 on[PTSCOPE_CPU_MASK_WORDS];
	char list[1024];
	size_t n;
	unsigned int i;

	if (!online)
		return 0;
	/* the file ends in a newline; the list parser takes none */
	n = strcspn(online, "\n");
	if (n >= sizeof(list))
		return 0;
	memcpy(list, online, n);
	list[n] = '\0';
	if (pts_parse_cpu_list(list, on, NULL))
		return 0;
	for (i = 0; i < PTSCOPE_MAX_CPUS; i++) {
		__u64 bit = 1ULL << (i % 64);

		if ((mask[i / 64] & bit) && !(on[i / 64] & bit))
			return pts_err_set(err, EINVAL, "-C/--cpus: CPU %u is not online (online: %s;"
					   " see " ONLINE_PATH ")", i, list);
	}
	return 0;
}

/* Whether path is a regular file this process may execute: 0, -ENOENT, -EACCES. */
static int executable(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return errno == EACCES ? -EACCES : -ENOENT;
	if (!S_ISREG(st.st_mode) || access(path, X_OK))
		return -EACCES;
	return 0;
}

int pts_preflight_which(const char *file, const char *path_env, char *out, size_t len)
{
	const char *p, *end;
	int ret = -ENOENT;

	if (!file || !file[0])
		return -ENOENT;
	if (strchr(file, '/')) {
		snprintf(out, len, "%s", file);
		return executable(file);
	}
	for (p = path_env ? path_env : "/bin:/usr/bin"; ; p = end + 1) {
		int dlen, r;

		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		dlen = (int)(end - p);
		/* an empty entry is the current directory, as for execvp */
		snprintf(out, len, "%.*s%s%s", dlen, p, dlen ? "/" : "", file);
		r = executable(out);
		if (!r)
			return 0;
		if (r == -EACCES)
			ret = -EACCES;	/* execvp reports EACCES when no later entry runs */
		if (!*end)
			break;
	}
	return ret;
}

/* run -- CMD: whether CMD can be found and run (execvp's answer, before the fork). */
static int check_cmd(const struct pts_capture_opts *o, struct pts_err *err)
{
	char path[4096];
	int r;

	if (o->cmd != PTS_CMD_RUN || !o->cmd_argv || !o->cmd_argv[0])
		return 0;
	r = pts_preflight_which(o->cmd_argv[0], getenv("PATH"), path, sizeof(path));
	/* the words spawn_held() prints when execvp itself fails */
	if (r == -ENOENT)
		return pts_err_set(err, ENOENT, "cannot run '%s': %s: give the program's path"
				   " (./NAME for one in this directory) or a command on PATH"
				   " (nothing was traced)", o->cmd_argv[0], strerror(ENOENT));
	if (r == -EACCES)
		return pts_err_set(err, EACCES, "cannot run '%s': %s: make it executable (chmod +x),"
				   " or run it through its interpreter (ptscope run -- sh SCRIPT)"
				   "%s%s%s (nothing was traced)", o->cmd_argv[0], strerror(EACCES),
				   strcmp(path, o->cmd_argv[0]) ? " (" : "",
				   strcmp(path, o->cmd_argv[0]) ? path : "",
				   strcmp(path, o->cmd_argv[0]) ? ")" : "");
	return 0;
}

/*
 * The file whose functions a bare SYMBOL names, known before the module
 * is opened: run's CMD where execvp() will find it, attach's process's
 * executable. Only an ELF file counts: a script's process runs its
 * interpreter, so its symbols are looked up once it has run (capture.c,
 * pts_capture_resolve_trigger), as are those of an executable that
 * cannot be read here. Returns path, or NULL when not known.
 */
static const char *traced_exe(const struct pts_capture_opts *o, char *path, size_t len)
{
	char *exe;
	struct pts_err e;

	if (o->cmd == PTS_CMD_RUN) {
		if (!o->cmd_argv || pts_preflight_which(o->cmd_argv[0], getenv("PATH"), path, len))
			return NULL;
	} else if (o->cmd == PTS_CMD_ATTACH) {
		if (pts_proc_exe(o->pid, &exe, &e))
			return NULL;
		snprintf(path, len, "%s", exe);
		free(exe);
	} else {
		return NULL;
	}
	return pts_file_magic(path) == PTS_MAGIC_ELF ? path : NULL;
}

/* --trigger uprobe:PATH:SYMBOL, or a bare SYMBOL of the traced program: resolved in its file. */
static int check_trigger(const struct pts_capture_opts *o, struct pts_err *err)
{
	struct pts_uprobe_target t;
	char exe[4096], why[sizeof(err->msg)];
	const char *path = o->uprobe_path;

	if (o->trigger_kind != PTS_TRIGGER_KIND_UPROBE)
		return 0;
	if (!path[0])
		path = traced_exe(o, exe, sizeof(exe));
	if (!path || !pts_uprobe_resolve(path, o->uprobe_symbol, &t, err))
		return 0;
	snprintf(why, sizeof(why), "%s", err->msg);
	return pts_err_set(err, -err->code, "--trigger: %s", why);
}

int pts_preflight(const struct pts_capture_opts *o, bool *bad_option, struct pts_err *err)
{
	char online[1024];
	FILE *f;
	int ret;

	*bad_option = false;
	if (o->cpus_given && (f = fopen(ONLINE_PATH, "re"))) {
		/* sysfs gives the list in one read; without it the module decides later */
		ret = fgets(online, sizeof(online), f) ?
		      pts_preflight_cpus(o->cfg.cpu_mask, online, err) : 0;
		fclose(f);
		if (ret) {
			*bad_option = true;
			return ret;
		}
	}
	if (o->cmd == PTS_CMD_ATTACH && kill(o->pid, 0) && errno == ESRCH)
		return pts_err_set(err, ESRCH, "no process %d: give the pid of a running process"
				   " (pgrep -o NAME finds one), or start the program with ptscope"
				   " run -- CMD", (int)o->pid);
	ret = check_cmd(o, err);
	if (ret)
		return ret;
	return check_trigger(o, err);
}
