// SPDX-License-Identifier: GPL-2.0
/* Option tables (opttab.h). */
#include "opttab.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const struct pts_optdef *pts_opt_find_long(const struct pts_optab *t, const char *name, size_t len,
					   bool single_dash)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		const char *n = single_dash ? t->v[i].mt : t->v[i].name;

		if (n && strlen(n) == len && !strncmp(n, name, len))
			return &t->v[i];
	}
	return NULL;
}

const struct pts_optdef *pts_opt_find_short(const struct pts_optab *t, char c)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (c && t->v[i].shortname == c)
			return &t->v[i];
	return NULL;
}

void pts_opt_label(const struct pts_optdef *d, char *buf, size_t len)
{
	if (d->shortname)
		snprintf(buf, len, "-%c/--%s", d->shortname, d->name);
	else
		snprintf(buf, len, "--%s", d->name);
}

/* "-o, --output FILE", "    --cyc[=0|1]", "-name, --name" (an mt name the same as the long one) */
static void opt_spec(const struct pts_optdef *d, char *buf, size_t len)
{
	const char *open = d->arg == PTS_OPTARG_OPTIONAL ? "[=" : d->metavar ? " " : "";
	const char *close = d->arg == PTS_OPTARG_OPTIONAL ? "]" : "";
	const char *mv = d->metavar ? d->metavar : "";

	if (d->mt && !strcmp(d->mt, d->name) && !d->shortname)
		snprintf(buf, len, "-%s, --%s", d->name, d->name);
	else if (d->shortname)
		snprintf(buf, len, "-%c, --%s%s%s%s", d->shortname, d->name, open, mv, close);
	else
		snprintf(buf, len, "    --%s%s%s%s", d->name, open, mv, close);
}

void pts_opt_help(const struct pts_optab *t, unsigned int cmd, FILE *f)
{
	size_t i, j;

	for (i = 0; i < t->n; i++) {
		const struct pts_optdef *d = &t->v[i];
		char spec[64];

		if (!(d->cmds & cmd))
			continue;
		for (j = 0; j < t->nsect; j++)
			if (t->sect[j].id == d->id)
				fprintf(f, "%s%s:\n", i ? "\n" : "", t->sect[j].title);
		opt_spec(d, spec, sizeof(spec));
		/* a spec too wide for its column: the description on the next line */
		if (strlen(spec) > 28)
			fprintf(f, "  %s\n  %-28s  %s", spec, "", d->help);
		else
			fprintf(f, "  %-28s  %s", spec, d->help);
		if (d->mt && strcmp(d->mt, d->name))
			fprintf(f, " (magic-trace: -%s)", d->mt);
		fprintf(f, "\n");
	}
}

int pts_opt_next(struct pts_optscan *s, const struct pts_optdef **d, const char **val,
		 struct pts_err *err)
{
	const char *a;
	bool inline_val = false;

	*d = NULL;
	*val = NULL;
	if (s->i >= s->argc)
		return 0;
	a = s->argv[s->i++];
	if (!s->words_only && !strcmp(a, "--")) {
		s->words_only = true;
		if (s->i >= s->argc)
			return 0;
		a = s->argv[s->i++];
	}
	if (s->words_only || a[0] != '-' || !a[1]) {
		*val = a;	/* a word; "-" alone is one too (standard input/output) */
		if (s->stop_at_word)
			s->words_only = true;
		return PTS_OPT_WORD;
	}
	if (a[1] == '-') {
		const char *name = a + 2, *eq = strchr(name, '=');

		*d = pts_opt_find_long(s->t, name, eq ? (size_t)(eq - name) : strlen(name), false);
		if (eq) {
			*val = eq + 1;
			inline_val = true;
		}
	} else if (a[2] && pts_opt_find_long(s->t, a + 1, strlen(a + 1), true)) {
		*d = pts_opt_find_long(s->t, a + 1, strlen(a + 1), true);
	} else {
		if (s->single_dash && s->single_dash(a, s->ctx, err) < 0)
			return -EINVAL;
		/* -output would be -o with the value "utput": a long name wants two dashes */
		if (a[2] && pts_opt_find_long(s->t, a + 1, strcspn(a + 1, "="), false))
			return pts_err_set(err, EINVAL, "unknown option '%s' for %s: a long option"
					   " takes two dashes: -%s", a, s->prog, a);
		*d = pts_opt_find_short(s->t, a[1]);
		/* no clusters of flags: "-hx" is no option */
		if (*d && a[2] && (*d)->arg == PTS_OPTARG_NONE)
			*d = NULL;
		if (*d && a[2]) {
			*val = a + 2;	/* -j4, -oNAME */
			inline_val = true;
		}
	}
	if (!*d)
		return pts_err_set(err, EINVAL, "unknown option '%s' for %s (see %s --help)", a,
				   s->prog, s->prog);
	if (!((*d)->cmds & s->cmd))
		return pts_err_set(err, EINVAL, "option '%s' does not apply to %s (%s --help lists"
				   " its options)", a, s->prog, s->prog);
	if ((*d)->arg == PTS_OPTARG_NONE && inline_val)
		return pts_err_set(err, EINVAL, "option '--%s' takes no value", (*d)->name);
	if ((*d)->arg == PTS_OPTARG_REQUIRED && !inline_val) {
		char label[64];

		if (s->i >= s->argc) {
			pts_opt_label(*d, label, sizeof(label));
			return pts_err_set(err, EINVAL, "%s needs a value: %s %s", label, label,
					   (*d)->metavar ? (*d)->metavar : "VALUE");
		}
		*val = s->argv[s->i++];
	}
	return PTS_OPT_OPTION;
}
