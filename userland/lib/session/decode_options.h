/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `ptscope decode`'s command line, in two steps before any decoding:
 *   parse:    argv against the option table (util/opttab.h) into a
 *             request; each value's syntax and range (no file is read);
 *   validate: the request as a whole: one input kind, the options each
 *             kind takes, outputs that would destroy an input or each
 *             other, a format that fits -o (files are only stat'ed).
 * cli/cmd_decode.c then runs the request. Every refusal fills err with a
 * message naming the option, the bad value and what to give instead
 * (tests/unit/test_session_decode_options.c holds one test per refusal).
 */
#ifndef PTS_SESSION_DECODE_OPTIONS_H
#define PTS_SESSION_DECODE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../timeline/select.h"
#include "../util/err.h"
#include "../util/opttab.h"
#include "session.h"

struct pts_decode_req {
	struct pts_decode_opts o;	/* what the session gets */
	const char *bundle;		/* NAME.ptscope, or NULL */
	const char *perf_script;	/* --perf-script FILE, or NULL */
	const char *out;		/* -o FILE ("-": stdout), or NULL */
	const char *fmt_name;		/* --format as given, or NULL */
	int fmt;			/* enum pts_format, set by validate */
	const char *insn_list;		/* --insn-list FILE, or NULL */
	bool summary;
	bool help;			/* -h: print the help, nothing else */
	bool show_usage;		/* validate refused: no input at all (print the usage) */
	struct pts_tl_select_opts sel;	/* --pid/--tid of a bundle or text, --time */
	bool time_given;
	uint64_t given;			/* one bit per option given (decode_options.c's ids) */
	char home_cache[4096];		/* $HOME/.debug: o.buildid_dir without --buildid-dir */
};

/*
 * Parse argv[1..argc-1] (argv[0]: the command) into *r, defaults first
 * (jobs: online_cpus, bounded to 1..256). Values are parsed in place
 * (argv's --elf and --raw words are cut at their ':'). With -h/--help
 * returns 0 at once with r->help set. Errors: -EINVAL (err: the option,
 * its value, the accepted form).
 */
int pts_decode_req_parse(int argc, char **argv, long online_cpus, struct pts_decode_req *r,
			 struct pts_err *err);

/*
 * Check *r as a whole and settle it (the output format; a bundle's
 * --pid/--tid become a selection). Errors: -EINVAL bad usage (exit 2;
 * show_usage set when nothing to decode was given), -ENOTDIR a file given
 * where a bundle goes or as --sysroot, -ENOENT (or stat's other errno) a
 * --sysroot that cannot be found, and -EISDIR a directory given as
 * --perf-script (exit 1, as any input that cannot be read).
 */
int pts_decode_req_validate(struct pts_decode_req *r, struct pts_err *err);

/*
 * After pts_decode_req_validate: whether this process (its effective ids)
 * may read every input file an option of *r names: --pt, --elf, --raw,
 * --pevent-primary/-secondary, --kallsyms, --vmlinux, --perf-script (not
 * "-"). Returns 0, or the first that cannot be read as -errno (-ENOENT,
 * -EACCES, ...: exit 1) with err naming the option, the file, the reason
 * and what to give (read access, for -EACCES).
 */
int pts_decode_req_inputs_readable(const struct pts_decode_req *r, struct pts_err *err);

/* The option table (for its tests: every row has a help line). */
const struct pts_optab *pts_decode_optab(void);

/*
 * The usage lines, the table's rows in their sections (pts_opt_help) and
 * the exit status: --help on stdout, and on stderr when nothing to decode
 * was given.
 */
void pts_decode_usage(FILE *f);

#endif /* PTS_SESSION_DECODE_OPTIONS_H */
