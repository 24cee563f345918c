/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf script branch listings as branch events, so traces decoded by perf
 * elsewhere get the same timelines. Input lines, as `perf script
 * --itrace=cr -F +flags` (and -F pid,tid,time,flags,ip,sym,symoff,dso ...)
 * print them:
 *
 *   PID/TID TIME: PERIOD branches:MODS: KIND FROM SYM+OFF (DSO) => TO SYM+OFF (DSO)
 *    instruction trace error type 1 time T cpu C pid P tid T ip 0xIP code N: TEXT
 *
 * KIND is perf's flag text: call, return, jmp, jcc, syscall, sysret,
 * hw int, int, iret, async, tr strt, tr end (with a following kind,
 * e.g. "tr end syscall", "tr end async"). Times are seconds with ns
 * digits; events get ns since the first event's time. Symbols come from
 * the text (branch.h pts_br_sym), so no binaries are needed.
 */
#ifndef PTS_DECODE_PERFSCRIPT_H
#define PTS_DECODE_PERFSCRIPT_H

#include <stdint.h>
#include <stdio.h>

#include "../util/err.h"
#include "branch.h"

struct pts_perfscript_stats {
	uint64_t lines, events, errors, skipped;	/* skipped: lines not understood */
};

/* Called for each event; a negative return stops the parse with that code. */
typedef int (*pts_perfscript_fn)(void *ctx, const struct pts_branch *br, struct pts_err *err);

/*
 * Parse f to the end. Errors: the callback's, -EIO reading. Lines that
 * are not branch or error lines are counted as skipped, not fatal.
 */
int pts_perfscript_parse(FILE *f, pts_perfscript_fn fn, void *ctx,
			 struct pts_perfscript_stats *st, struct pts_err *err);

/* Parse one line into *out (strings point into line, which is modified). 1 event, 0 none. */
int pts_perfscript_line(char *line, struct pts_branch *out);

#endif
