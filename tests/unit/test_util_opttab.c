// SPDX-License-Identifier: GPL-2.0
/*
 * The option tables and the --help printed from them (util/opttab.h):
 * every row of ptscope decode's and the capture commands' tables has its
 * argument name and one line of help, the help lists every row the
 * command accepts, and nothing the help names as an option (an option
 * line's spec, a "Usage:" line) is refused by the command's table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/options.h"
#include "session/decode_options.h"
#include "unit.h"
#include "util/opttab.h"

static void rows_have_help(const struct pts_optab *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct pts_optdef *d = &t->v[i];

		if (!d->help || !*d->help || strchr(d->help, '\n'))
			fprintf(stderr, "  --%s: no help line, or more than one\n", d->name);
		CU_ASSERT(d->help && *d->help && !strchr(d->help, '\n'));
		/* an option with a value names it; one without has none to name */
		CU_ASSERT((d->arg == PTS_OPTARG_NONE) == !d->metavar);
	}
}

static void every_row_has_an_argument_name_and_one_help_line(void)
{
	rows_have_help(pts_decode_optab());
	rows_have_help(pts_opts_table());
}

/* A word of the help that names an option: is it one of cmd's in t? */
static const struct pts_optdef *accepted(const struct pts_optab *t, unsigned int cmd,
					 const char *w, size_t len)
{
	const struct pts_optdef *d = NULL;

	if (len > 2 && w[1] == '-')
		d = pts_opt_find_long(t, w + 2, len - 2, false);
	else if (len == 2)
		d = pts_opt_find_short(t, w[1]);
	else if (len > 2)
		d = pts_opt_find_long(t, w + 1, len - 1, true);
	if (!d || !(d->cmds & cmd)) {
		fprintf(stderr, "  the help names %.*s, which the table refuses\n", (int)len, w);
		return NULL;
	}
	return d;
}

/*
 * The option words of text: those of each option line's spec (up to two
 * spaces) and of the usage lines; each must be accepted, and every row of
 * cmd must be listed by an option line. Returns the option lines' count.
 */
static size_t check_help(const struct pts_optab *t, unsigned int cmd, const char *text)
{
	char *seen = calloc(t->n, 1);
	const char *line = text;
	size_t lines = 0, i;

	CU_ASSERT_FATAL(seen != NULL);
	while (*line) {
		const char *end = strchrnul(line, '\n'), *p = line, *stop = end;
		bool opt_line, usage_line;

		while (p < end && *p == ' ')
			p++;
		opt_line = p > line && *p == '-';
		usage_line = !strncmp(line, "Usage:", 6) || !strncmp(line, "  or:", 5);
		if (opt_line) {
			const char *gap = strstr(p, "  ");

			if (gap && gap < end)
				stop = gap;
			lines++;
		}
		while ((opt_line || usage_line) && p < stop) {
			const char *w = p;
			size_t len;

			while (p < stop && *p != ' ' && *p != ',' && *p != '[' && *p != '=' &&
			       *p != ']')
				p++;
			len = (size_t)(p - w);
			/* "--" ends options in a usage line; "-" alone is no option */
			if (len > 1 && w[0] == '-' && strncmp(w, "--", len)) {
				const struct pts_optdef *d = accepted(t, cmd, w, len);

				CU_ASSERT_PTR_NOT_NULL(d);
				if (d && opt_line)
					seen[d - t->v] = 1;
			}
			while (p < stop && (*p == ' ' || *p == ',' || *p == '[' || *p == ']' ||
					    *p == '='))
				p++;
		}
		line = *end ? end + 1 : end;
	}
	for (i = 0; i < t->n; i++) {
		if (!(t->v[i].cmds & cmd))
			continue;
		if (!seen[i])
			fprintf(stderr, "  --%s is in no option line of the help\n", t->v[i].name);
		CU_ASSERT(seen[i]);
	}
	free(seen);
	return lines;
}

static void decode_help_lists_its_table_and_nothing_else(void)
{
	const struct pts_optab *t = pts_decode_optab();
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CU_ASSERT_FATAL(f != NULL);
	pts_decode_usage(f);
	fclose(f);
	/* one line an option: the table's rows are the help (decode has one command) */
	CU_ASSERT_EQUAL(check_help(t, t->v[0].cmds, text), t->n);
	/* the usage lines and the exit status around them */
	CU_ASSERT(!strncmp(text, "Usage: ptscope decode ", 22));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\nExit status: 0 "));
	free(text);
}

static void capture_help_lists_its_table_and_nothing_else(void)
{
	static const enum pts_capture_cmd cmds[] = { PTS_CMD_RUN, PTS_CMD_ATTACH, PTS_CMD_RECORD };
	const struct pts_optab *t = pts_opts_table();
	size_t c;

	for (c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++) {
		char *text = NULL;
		size_t len = 0, i, n = 0;
		FILE *f = open_memstream(&text, &len);

		CU_ASSERT_FATAL(f != NULL);
		pts_opts_usage(cmds[c], f);
		fclose(f);
		for (i = 0; i < t->n; i++)
			n += !!(t->v[i].cmds & cmds[c]);
		CU_ASSERT_EQUAL(check_help(t, cmds[c], text), n);
		free(text);
	}
}

PTS_SUITE(util_opttab, NULL, NULL,
	  PTS_TEST(every_row_has_an_argument_name_and_one_help_line),
	  PTS_TEST(decode_help_lists_its_table_and_nothing_else),
	  PTS_TEST(capture_help_lists_its_table_and_nothing_else))
