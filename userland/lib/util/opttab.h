/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Table-driven command-line options: each option's names, argument and
 * help in one row (as magic-trace keeps them), looked up by long name
 * (--name, --name=value), by short letter (-x VALUE, -xVALUE) or by
 * magic-trace's single-dash name (the mt column). The capture commands
 * (capture/options.c) and ptscope decode (session/decode_options.c) both
 * parse their argv against such a table with pts_opt_next, word by word
 * (capture adds magic-trace's refusals through the single_dash hook).
 * Their --help lists the table's rows (pts_opt_help): a row's help line
 * is the only description of the option, so none is written twice.
 */
#ifndef PTS_UTIL_OPTTAB_H
#define PTS_UTIL_OPTTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "err.h"

enum pts_optarg { PTS_OPTARG_NONE, PTS_OPTARG_REQUIRED, PTS_OPTARG_OPTIONAL };

struct pts_optdef {
	const char *name;	/* long name without dashes */
	char shortname;		/* 0 none */
	const char *mt;		/* magic-trace's name, accepted with one dash; NULL none */
	enum pts_optarg arg;
	const char *metavar;	/* the value's name in messages and help ("FILE") */
	unsigned int cmds;	/* bit mask of the commands it applies to */
	int id;			/* the parser's own number for it */
	const char *help;	/* one line of help (never NULL: tests/unit/test_util_opttab.c) */
};

/* A heading of the help ("Inputs"), printed before the row whose id is id. */
struct pts_optsect {
	int id;
	const char *title;
};

struct pts_optab {
	const struct pts_optdef *v;
	size_t n;
	const struct pts_optsect *sect;	/* NULL: one list of options */
	size_t nsect;
};

/* The row of --name (len bytes of name), or with single_dash of -name (mt column); NULL none. */
const struct pts_optdef *pts_opt_find_long(const struct pts_optab *t, const char *name, size_t len,
					   bool single_dash);

/* The row of -c; NULL none. */
const struct pts_optdef *pts_opt_find_short(const struct pts_optab *t, char c);

/* The option's spelling for messages: "-o/--output" or "--summary". */
void pts_opt_label(const struct pts_optdef *d, char *buf, size_t len);

/*
 * The rows of t that apply to cmd, one an option, in table order, as
 * "  -o, --output FILE   help" (the layout help2man and the bash completion
 * read: spec, two or more spaces, description), each section's heading
 * ("Inputs:") before its first row. Nothing else: the command prints its
 * usage lines above and its exit status below.
 */
void pts_opt_help(const struct pts_optab *t, unsigned int cmd, FILE *f);

/*
 * A scan of argv[1..argc-1] against t for command cmd (named prog in
 * messages, "ptscope decode"). Positional words may come between options
 * (unless stop_at_word); every word after "--" is positional.
 */
struct pts_optscan {
	const struct pts_optab *t;
	unsigned int cmd;
	const char *prog;
	int argc;
	char **argv;
	int i;			/* the next word (start: 1) */
	bool words_only;	/* "--" was seen */
	bool stop_at_word;	/* the first positional word ends the options (run CMD ARGS) */
	/*
	 * optional: a single-dash word that is no mt name, before it is read
	 * as short options ("-trace-foo" is no -t with value "race-foo"):
	 * a negative return refuses it (err filled), 0 reads it on
	 */
	int (*single_dash)(const char *word, void *ctx, struct pts_err *err);
	void *ctx;
};

#define PTS_OPT_OPTION 1	/* *d and *val (NULL for an option without one) */
#define PTS_OPT_WORD 2		/* a positional word in *val */

/*
 * The next option or word: PTS_OPT_OPTION, PTS_OPT_WORD, 0 at the end,
 * or -EINVAL with err saying what is wrong and what to give: an unknown
 * option, one of another command, a value missing or given to an option
 * that takes none.
 */
int pts_opt_next(struct pts_optscan *s, const struct pts_optdef **d, const char **val,
		 struct pts_err *err);

#endif /* PTS_UTIL_OPTTAB_H */
