/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf script branch listings as branch events, so traces decoded by perf
 * elsewhere get the same timelines. A sample line is read by recognising
 * its fields (perf-script(1), -F), not by their positions:
 *
 *   [COMM] [PID/]TID [[CPU]] TIME: [PERIOD] [EVENT:] FLAGS FROM [SYM[+OFF]] [(DSO)]
 *       => TO [SYM[+OFF]] [(DSO)]
 *    instruction trace error type 1 [time T] cpu C pid P tid T ip 0xIP code N: TEXT
 *
 * TIME (SECONDS.FRACTION:, 6 digits or 9 with --ns) anchors the line: the
 * fields before it are the thread ([CPU] last, then PID/TID or TID, the
 * rest the command name), after it come the period (a number), the event
 * name (a word ending in ':', "branches:uH:"), then the rest. FLAGS is
 * perf's flags field: a name (call, return, jmp, jcc, syscall, sysret,
 * hw int, int, iret, async, tx abrt, vmentry, vmexit), "tr strt" or
 * "tr end" before one, or the flag letters ("bcyi") of a combination perf
 * has no name for, then markers such as "(x)". The synthesized "cbr"
 * event gives the core:bus ratio, "psb" events are read and left out;
 * other events (instructions, ...) are not understood. Events get ns since
 * the first event's time. Symbols come from the text (branch.h
 * pts_br_sym), so no binaries are needed; without +OFF a symbol is taken
 * to start at the address (exact for call targets only).
 */
#ifndef PTS_DECODE_PERFSCRIPT_H
#define PTS_DECODE_PERFSCRIPT_H

#include <stdint.h>
#include <stdio.h>

#include "../util/err.h"
#include "branch.h"
#include "brsrc.h"

struct pts_perfscript_stats {
	uint64_t lines, events, errors, skipped;	/* skipped: lines not understood */
};

/*
 * The text read from f (line by line, as it is decoded) as one branch
 * source (brsrc.h) for every CPU in it: cpu PTS_BRSRC_CPUS, each event
 * with its own; times in ns since the first event's (an earlier time, out
 * of order, is 0); done counts bytes of text. Its stats give branches
 * (events that are not error lines) and skipped (lines not understood:
 * not fatal). f stays the caller's and must outlive the source; name is
 * the input's name in messages. next and peek fail with -EIO on a read
 * error, and with -EINVAL at the end of a text in which no line at all is
 * a branch or error line (the wrong file, or the wrong perf script
 * fields: the message says which fields to give). Errors: -ENOMEM.
 */
int pts_perfscript_src_new(FILE *f, const char *name, struct pts_brsrc **out,
			   struct pts_err *err);

#define PTS_PERFSCRIPT_IGNORED 2

/*
 * Parse one line into *out (strings point into line, which is modified).
 * Returns 1 for an event, PTS_PERFSCRIPT_IGNORED for a line understood
 * that carries none (a psb event), 0 for a line not understood.
 */
int pts_perfscript_line(char *line, struct pts_branch *out);

#endif
