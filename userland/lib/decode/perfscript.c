// SPDX-License-Identifier: GPL-2.0
/* perf script branch listing parser. */
#include "perfscript.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static char *skip_ws(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* "SECONDS.NANOS" -> ns */
static uint64_t parse_time(const char *s)
{
	uint64_t sec = strtoull(s, NULL, 10), ns = 0;
	const char *dot = strchr(s, '.');
	int digits = 0;

	if (dot) {
		for (dot++; isdigit((unsigned char)*dot) && digits < 9; dot++, digits++)
			ns = ns * 10 + (uint64_t)(*dot - '0');
		while (digits++ < 9)
			ns *= 10;
	}
	return sec * 1000000000ULL + ns;
}

/*
 * One side of a branch: "ADDR [SYM+0xOFF] [(DSO)]". Fills addr and the
 * symbol (name NUL-terminated in place). Returns the position after it.
 */
static char *parse_side(char *p, uint64_t *addr, struct pts_br_sym *sym)
{
	char *end, *name, *plus;

	memset(sym, 0, sizeof(*sym));
	p = skip_ws(p);
	*addr = strtoull(p, &end, 16);
	if (end == p)
		return NULL;
	p = skip_ws(end);
	if (*p && *p != '(' && strncmp(p, "=>", 2)) {
		name = p;
		/* the symbol runs to " (" or " =>" or end; it may contain spaces (C++) */
		end = strstr(p, " (");
		if (!end || (strstr(p, " =>") && strstr(p, " =>") < end))
			end = strstr(p, " =>");
		if (!end)
			end = p + strlen(p);
		while (end > name && isspace((unsigned char)end[-1]))
			end--;
		p = end;
		if (*p)
			*p++ = '\0';
		plus = strrchr(name, '+');
		if (!strcmp(name, "[unknown]")) {
			sym->name = NULL;
		} else if (plus && !strncmp(plus, "+0x", 3)) {
			*plus = '\0';
			sym->name = name;
			sym->start = *addr - strtoull(plus + 1, NULL, 16);
		} else {
			sym->name = name;
			sym->start = *addr;
		}
		p = skip_ws(p);
	}
	if (*p == '(') {
		char *close = strchr(p, ')');

		sym->object = p + 1;
		if (close) {
			*close = '\0';
			p = close + 1;
		} else {
			p += strlen(p);
		}
	}
	if (!sym->name)
		sym->object = NULL;	/* unknown symbol: let the builder name it */
	return p;
}

static int parse_error_line(char *line, struct pts_branch *out)
{
	char *p, *colon;

	memset(out, 0, sizeof(*out));
	out->kind = PTS_BR_GAP;
	out->pid = out->tid = -1;
	p = strstr(line, " time ");
	if (p)
		out->ts_ns = parse_time(p + 6);
	p = strstr(line, " cpu ");
	if (p && strtol(p + 5, NULL, 10) >= 0)
		out->cpu = (uint32_t)strtol(p + 5, NULL, 10);
	p = strstr(line, " pid ");
	if (p)
		out->pid = (int32_t)strtol(p + 5, NULL, 10);
	p = strstr(line, " tid ");
	if (p)
		out->tid = (int32_t)strtol(p + 5, NULL, 10);
	p = strstr(line, " ip 0x");
	if (p)
		out->from = strtoull(p + 6, NULL, 16);
	p = strstr(line, " code ");
	colon = p ? strchr(p, ':') : NULL;
	if (colon) {
		char *e;

		colon = skip_ws(colon + 1);
		/* drop a trailing " (dso)" */
		e = strrchr(colon, '(');
		if (e && e > colon)
			*e = '\0';
		e = colon + strlen(colon);
		while (e > colon && isspace((unsigned char)e[-1]))
			*--e = '\0';
		out->detail = colon;
	}
	return 1;
}

static const struct {
	const char *word;
	enum pts_br_kind kind;
} kinds[] = {
	{ "call", PTS_BR_CALL },
	{ "return", PTS_BR_RETURN },
	{ "jmp", PTS_BR_JUMP },
	{ "jcc", PTS_BR_JUMP },
	{ "syscall", PTS_BR_SYSCALL },
	{ "sysret", PTS_BR_SYSRET },
	{ "hw int", PTS_BR_INTERRUPT },
	{ "async", PTS_BR_INTERRUPT },
	{ "int", PTS_BR_SYSCALL },
	{ "iret", PTS_BR_IRET },
	{ "vmentry", PTS_BR_IRET },
	{ "vmexit", PTS_BR_INTERRUPT },
};

int pts_perfscript_line(char *line, struct pts_branch *out)
{
	char *p, *slash, *kind, *arrow;
	size_t i;
	bool tr_strt = false, tr_end = false, matched = false;

	line[strcspn(line, "\n")] = '\0';
	p = skip_ws(line);
	if (!strncmp(p, "instruction trace error", 23))
		return parse_error_line(p, out);
	memset(out, 0, sizeof(*out));
	slash = strchr(p, '/');
	if (!slash || !isdigit((unsigned char)*p))
		return 0;
	out->pid = (int32_t)strtol(p, NULL, 10);
	out->tid = (int32_t)strtol(slash + 1, &p, 10);
	p = skip_ws(p);
	if (*p == '[') {	/* optional [CPU] */
		out->cpu = (uint32_t)strtoul(p + 1, &p, 10);
		if (*p == ']')
			p++;
		p = skip_ws(p);
	}
	out->ts_ns = parse_time(p);
	p = strstr(p, "branches");
	if (!p)
		return 0;
	p = strchr(p, ':');
	if (!p)
		return 0;
	p = strchr(p + 1, ':');	/* after the modifiers "branches:uH:" */
	if (!p)
		return 0;
	kind = skip_ws(p + 1);
	if (!strncmp(kind, "tr strt", 7)) {
		tr_strt = true;
		kind = skip_ws(kind + 7);
	} else if (!strncmp(kind, "tr end", 6)) {
		tr_end = true;
		kind = skip_ws(kind + 6);
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t n = strlen(kinds[i].word);

		if (!strncmp(kind, kinds[i].word, n) && (kind[n] == ' ' || !kind[n])) {
			out->kind = kinds[i].kind;
			kind += n;
			matched = true;
			break;
		}
	}
	if (!matched && !tr_strt && !tr_end)
		return 0;
	arrow = strstr(kind, "=>");
	if (!arrow)
		return 0;
	*arrow = '\0';
	if (!parse_side(kind, &out->from, &out->from_sym))
		return 0;
	if (!parse_side(arrow + 2, &out->to, &out->to_sym))
		return 0;
	if (tr_strt) {
		out->kind = PTS_BR_ENABLED;
		out->from = 0;
	} else if (tr_end) {
		/* "tr end syscall" etc.: the transfer that left the traced code */
		if (!matched) {
			out->kind = PTS_BR_DISABLED;
		} else if (out->kind == PTS_BR_INTERRUPT) {
			out->kind = PTS_BR_DISABLED;
			out->flags |= PTS_BRF_ASYNC;
		} else if (out->kind == PTS_BR_SYSCALL || out->kind == PTS_BR_SYSRET ||
			   out->kind == PTS_BR_IRET) {
			out->flags |= PTS_BRF_TRACE_OFF;
		} else {
			out->kind = PTS_BR_DISABLED;
		}
		out->to = 0;
		memset(&out->to_sym, 0, sizeof(out->to_sym));
	}
	return 1;
}

int pts_perfscript_parse(FILE *f, pts_perfscript_fn fn, void *ctx,
			 struct pts_perfscript_stats *st, struct pts_err *err)
{
	char *line = NULL;
	size_t cap = 0;
	uint64_t origin = 0;
	bool have_origin = false;
	int rc = 0;

	memset(st, 0, sizeof(*st));
	while (getline(&line, &cap, f) >= 0) {
		struct pts_branch br;

		st->lines++;
		if (!pts_perfscript_line(line, &br)) {
			if (*line && *line != '#')
				st->skipped++;
			continue;
		}
		if (!have_origin) {
			origin = br.ts_ns;
			have_origin = true;
		}
		br.ts_ns = br.ts_ns >= origin ? br.ts_ns - origin : 0;
		if (br.kind == PTS_BR_GAP)
			st->errors++;
		st->events++;
		rc = fn(ctx, &br, err);
		if (rc)
			break;
	}
	if (!rc && ferror(f))
		rc = pts_err_set(err, EIO, "read error in perf script input");
	free(line);
	return rc;
}
