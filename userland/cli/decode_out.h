/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files of ptscope decode while they are incomplete: the
 * instruction list (--insn-list) is written under a temporary name and
 * renamed when the decode succeeds, as the timeline is (writer.h); the
 * temporary names are removed when SIGINT, SIGTERM or SIGHUP ends the
 * decode (docs/output-formats.md, "Temporary name, then rename").
 */
#ifndef PTS_CLI_DECODE_OUT_H
#define PTS_CLI_DECODE_OUT_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * Catch SIGINT, SIGTERM and SIGHUP (a signal ignored at start stays
 * ignored): the handler removes the registered temporary files, then
 * re-raises the signal with the default action, so the exit status is
 * still 128 + signal. Only async-signal-safe calls (unlink, sigaction,
 * raise) run in the handler.
 */
void decode_out_catch_signals(void);

/* Block (hold) and unblock those signals around creating a temporary file
 * and registering its name, so none is left unregistered. */
void decode_out_hold_signals(sigset_t *old);
void decode_out_release_signals(const sigset_t *old);

/*
 * Register a temporary file for removal on a signal; path is copied.
 * Returns 0, or -ENOMEM (no copy), -ENOSPC (both slots in use: the
 * timeline and the instruction list).
 */
int decode_out_register(const char *path);

/* Forget every registered name (the files are renamed or removed). */
void decode_out_forget(void);

/* The instruction list: FILE.tmp.PID for a regular or new file, renamed
 * by insn_file_end; a device or FIFO is written directly. */
struct insn_file {
	const char *path;
	char *tmp;	/* NULL: written directly */
	FILE *f;
};

/*
 * Create the list's file and register its temporary name. Returns 0, or
 * -errno of the failed open (said on stderr with what to do).
 */
int insn_file_open(struct insn_file *il, const char *path);

/*
 * Flush and close the list: 0, or -errno of the first failed write (said
 * on stderr; `also` names the timeline that is then not written either, or
 * NULL). The temporary file stays until insn_file_end.
 */
int insn_file_close(struct insn_file *il, const char *also);

/*
 * keep: rename the temporary file over the list's name (0, or -errno said
 * on stderr); else remove it. Frees the names; il may be closed or not.
 */
int insn_file_end(struct insn_file *il, bool keep);

#endif
