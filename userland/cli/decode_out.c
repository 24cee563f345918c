// SPDX-License-Identifier: GPL-2.0
/*
 * ptscope decode's incomplete outputs (decode_out.h): temporary names
 * removed on a signal, and the instruction list written under one.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decode_out.h"

static const int caught[] = { SIGINT, SIGTERM, SIGHUP };

/*
 * The handler only reads these: a name is stored (a complete copy) before
 * its pointer is, and the pointer cleared before the copy is freed.
 */
static char *volatile tmp_names[2];

static void on_signal(int sig)
{
	struct sigaction dfl;
	int e = errno;
	size_t i;

	for (i = 0; i < sizeof(tmp_names) / sizeof(tmp_names[0]); i++) {
		const char *p = tmp_names[i];

		if (p)
			unlink(p);
	}
	/* the default action for the signal, which is blocked while its
	 * handler runs: raised now, it ends the process on return, so the
	 * parent sees it (exit status 128 + sig) */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig);
	errno = e;
}

void decode_out_catch_signals(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		sigaddset(&sa.sa_mask, caught[i]);
	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++) {
		/* nohup, or `&` in a shell without job control: stay ignored */
		if (!sigaction(caught[i], NULL, &old) && old.sa_handler == SIG_IGN)
			continue;
		sigaction(caught[i], &sa, NULL);
	}
}

void decode_out_hold_signals(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		sigaddset(&set, caught[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

void decode_out_release_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

int decode_out_register(const char *path)
{
	size_t i;
	char *copy;

	for (i = 0; i < sizeof(tmp_names) / sizeof(tmp_names[0]); i++) {
		if (tmp_names[i])
			continue;
		copy = strdup(path);
		if (!copy)
			return -ENOMEM;
		tmp_names[i] = copy;
		return 0;
	}
	return -ENOSPC;
}

void decode_out_forget(void)
{
	size_t i;

	for (i = 0; i < sizeof(tmp_names) / sizeof(tmp_names[0]); i++) {
		char *p = tmp_names[i];

		tmp_names[i] = NULL;
		free(p);
	}
}

int insn_file_open(struct insn_file *il, const char *path)
{
	struct stat st;
	sigset_t old;
	int e = 0;

	memset(il, 0, sizeof(*il));
	il->path = path;
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		/* a device or FIFO: renaming a file over it would replace the node */
		il->f = fopen(path, "we");
		e = il->f ? 0 : errno;
	} else if (asprintf(&il->tmp, "%s.tmp.%ld", path, (long)getpid()) < 0) {
		il->tmp = NULL;
		e = ENOMEM;
	} else {
		decode_out_hold_signals(&old);
		il->f = fopen(il->tmp, "we");
		e = il->f ? 0 : errno;
		if (il->f && decode_out_register(il->tmp)) {
			fclose(il->f);
			il->f = NULL;
			unlink(il->tmp);
			e = ENOMEM;
		}
		decode_out_release_signals(&old);
	}
	if (!e)
		return 0;
	fprintf(stderr, "ptscope decode: cannot write the instruction list %s: %s; check that"
		" its directory exists and is writable, or name another --insn-list\n",
		path, strerror(e));
	free(il->tmp);
	il->tmp = NULL;
	return -e;
}

int insn_file_close(struct insn_file *il, const char *also)
{
	bool bad;
	int e;

	if (!il->f)
		return 0;
	/* the first failed write set the error flag; fclose flushes the rest */
	bad = ferror(il->f);
	e = fclose(il->f) ? errno : bad ? EIO : 0;
	il->f = NULL;
	if (!e)
		return 0;
	fprintf(stderr, "ptscope decode: cannot write %s: %s: the instruction list is incomplete"
		" and not kept%s%s (free space, raise ulimit -f, or write elsewhere)\n", il->path,
		strerror(e), also ? "; nor is the timeline " : "", also ? also : "");
	return -e;
}

int insn_file_end(struct insn_file *il, bool keep)
{
	int rc = 0;

	if (il->f) {
		fclose(il->f);
		il->f = NULL;
	}
	if (il->tmp && keep && rename(il->tmp, il->path)) {
		rc = -errno;
		fprintf(stderr, "ptscope decode: cannot rename %s to %s: %s; the instruction list"
			" is not written\n", il->tmp, il->path, strerror(-rc));
	}
	if (il->tmp && (!keep || rc))
		unlink(il->tmp);
	free(il->tmp);
	il->tmp = NULL;
	return rc;
}
