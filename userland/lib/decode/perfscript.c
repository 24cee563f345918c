// SPDX-License-Identifier: GPL-2.0
/* perf script branch listing parser. */
#include "perfscript.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
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

/*
 * perf's flags field (perf-script(1), "flags"): a name for the known
 * combinations, else the flag letters "bcrosyiABExgh" (branch, call,
 * return, conditional, system, asynchronous, interrupt, transaction
 * abort, trace begin, trace end, in transaction, VM-Entry, VM-Exit).
 * Names are given here by their letters, so both forms read alike.
 */
static const struct {
	const char *name, *letters;
} flag_names[] = {
	{ "tr strt", "bB" }, { "tr end", "bE" },	/* prefixes of the others */
	{ "call", "bc" }, { "return", "br" }, { "jcc", "bo" }, { "jmp", "b" },
	{ "hw int", "bcyi" }, { "int", "bci" }, { "iret", "bri" },
	{ "syscall", "bcs" }, { "sysret", "brs" }, { "async", "by" },
	{ "tx abrt", "bA" }, { "vmentry", "bcg" }, { "vmexit", "bch" },
	{ "br miss", "bm" },
};

#define FLAG_LETTERS "bcrosyiABExghmnDt"

/* One flags word at p ("tr end", "call", or letters "bcyi"); its letters into set. */
static char *flag_word(char *p, char *set, size_t setlen)
{
	size_t i, n, k = strlen(set);

	for (i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++) {
		n = strlen(flag_names[i].name);
		if (!strncmp(p, flag_names[i].name, n) && (p[n] == ' ' || p[n] == '\t' || !p[n])) {
			snprintf(set + k, setlen - k, "%s", flag_names[i].letters);
			return p + n;
		}
	}
	for (n = 0; p[n] && strchr(FLAG_LETTERS, p[n]); n++)
		;
	if (!n || p[0] != 'b' || (p[n] && p[n] != ' ' && p[n] != '\t'))
		return NULL;
	snprintf(set + k, setlen - k, "%.*s", (int)n, p);
	return p + n;
}

static bool has(const char *set, char c)
{
	return strchr(set, c) != NULL;
}

/* The branch kind of a flags letter set (PTS_BR_* ; -1 none). */
static int kind_of(const char *set)
{
	if (has(set, 'g'))
		return PTS_BR_IRET;		/* VM entry: back into the guest */
	if (has(set, 'h'))
		return PTS_BR_INTERRUPT;	/* VM exit */
	if (has(set, 's'))
		return has(set, 'r') ? PTS_BR_SYSRET : PTS_BR_SYSCALL;
	if (has(set, 'i') && has(set, 'r'))
		return PTS_BR_IRET;
	if (has(set, 'y'))
		return PTS_BR_INTERRUPT;	/* hw int, async */
	if (has(set, 'i') && has(set, 'c'))
		return PTS_BR_SYSCALL;		/* int n */
	if (has(set, 'c'))
		return PTS_BR_CALL;
	if (has(set, 'r'))
		return PTS_BR_RETURN;
	if (has(set, 'b') && !has(set, 'B') && !has(set, 'E'))
		return PTS_BR_JUMP;		/* jmp, jcc, tx abrt */
	return -1;
}

/*
 * The flags field at p: words up to the first address, then perf's
 * markers in parentheses ("(x)": in a transaction). Fills out->kind and
 * the trace begin/end flags; returns the position of the "from" address,
 * or NULL when p holds no flags (a listing made without -F flags: the
 * kind of each branch cannot be told).
 */
static char *parse_flags(char *p, struct pts_branch *out)
{
	char set[64] = "";
	bool begin, end;
	int kind;

	for (;;) {
		char *e = flag_word(p, set, sizeof(set));

		if (!e)
			break;
		p = skip_ws(e);
	}
	while (*p == '(' && strchr(p, ')'))
		p = skip_ws(strchr(p, ')') + 1);
	if (!set[0])
		return NULL;
	begin = has(set, 'B');
	end = has(set, 'E');
	kind = kind_of(set);
	if (begin && !end) {
		out->kind = PTS_BR_ENABLED;
	} else if (end && !begin) {
		/* "tr end  syscall" etc.: the transfer that left the traced code */
		if (kind == PTS_BR_SYSCALL || kind == PTS_BR_SYSRET || kind == PTS_BR_IRET) {
			out->kind = (enum pts_br_kind)kind;
			out->flags |= PTS_BRF_TRACE_OFF;
		} else {
			out->kind = PTS_BR_DISABLED;
			if (kind == PTS_BR_INTERRUPT)
				out->flags |= PTS_BRF_ASYNC;
		}
	} else if (kind >= 0) {
		out->kind = (enum pts_br_kind)kind;
	} else {
		return NULL;
	}
	return p;
}

/* perf's time field: SECONDS.FRACTION and ':' ("%5lu.%06lu:", or 9 digits with --ns). */
static bool is_time(const char *tok, size_t len)
{
	size_t i = 0;

	while (i < len && isdigit((unsigned char)tok[i]))
		i++;
	if (!i || i + 2 >= len || tok[i] != '.' || tok[len - 1] != ':')
		return false;
	for (i++; i < len - 1; i++)
		if (!isdigit((unsigned char)tok[i]))
			return false;
	return true;
}

/* The thread fields before the time: [COMM] [PID/]TID [[CPU]]. */
static void parse_thread(char **tok, size_t *len, int n, struct pts_branch *out)
{
	char *e;
	long a, b;

	out->pid = out->tid = 0;	/* no tid field: one track */
	if (n > 0 && tok[n - 1][0] == '[' && tok[n - 1][len[n - 1] - 1] == ']') {
		out->cpu = (uint32_t)strtoul(tok[n - 1] + 1, NULL, 10);
		n--;
	}
	if (n <= 0 || !isdigit((unsigned char)tok[n - 1][0]))
		return;
	a = strtol(tok[n - 1], &e, 10);
	if (*e == '/' && isdigit((unsigned char)e[1])) {
		b = strtol(e + 1, &e, 10);
		if (e == tok[n - 1] + len[n - 1]) {
			out->pid = (int32_t)a;
			out->tid = (int32_t)b;
		}
	} else if (e == tok[n - 1] + len[n - 1]) {
		/* perf's default fields: comm and tid, no pid */
		out->pid = out->tid = (int32_t)a;
	}
}

#define MAX_HEAD_TOKENS 24

/*
 * The sample header: every field before the time, the time, then the
 * optional period and event name ("branches:uH:", "cbr:", "psb:").
 * Returns the rest of the line, NULL without a time field. *event gets
 * the event name (NUL-terminated in place) or NULL.
 */
static char *parse_header(char *p, struct pts_branch *out, char **event)
{
	char *tok[MAX_HEAD_TOKENS];
	size_t len[MAX_HEAD_TOKENS];
	int n = 0;

	*event = NULL;
	for (;;) {
		p = skip_ws(p);
		if (!*p || n == MAX_HEAD_TOKENS)
			return NULL;
		tok[n] = p;
		len[n] = strcspn(p, " \t");
		if (is_time(tok[n], len[n]))
			break;
		p += len[n++];
	}
	parse_thread(tok, len, n, out);
	out->ts_ns = parse_time(tok[n]);
	p = skip_ws(tok[n] + len[n]);
	/* period: a plain number followed by more fields (an address is hex and last) */
	if (isdigit((unsigned char)*p)) {
		size_t k = strspn(p, "0123456789");

		if ((p[k] == ' ' || p[k] == '\t') && isalpha((unsigned char)*skip_ws(p + k)))
			p = skip_ws(p + k);
	}
	/* the event: a word ending in ':' ("branches:uH:", "intel_pt//u:", "cbr:") */
	if (isalpha((unsigned char)*p)) {
		size_t k = strcspn(p, " \t");

		if (k > 1 && p[k - 1] == ':') {
			*event = p;
			p += k;
			if (*p)
				*p++ = '\0';
			(*event)[strcspn(*event, ":/")] = '\0';
		}
	}
	return skip_ws(p);
}

/* "cbr: 37 freq: 3700 MHz (100%)" (after the event "cbr:"): the core:bus ratio. */
static int parse_cbr(char *p, struct pts_branch *out)
{
	char *c = strstr(p, "cbr:");

	out->kind = PTS_BR_CBR;
	out->value = strtoull(skip_ws(c ? c + 4 : p), NULL, 10);
	return out->value ? 1 : 0;
}

int pts_perfscript_line(char *line, struct pts_branch *out)
{
	char *p, *event, *arrow;

	line[strcspn(line, "\n")] = '\0';
	p = skip_ws(line);
	if (!strncmp(p, "instruction trace error", 23))
		return parse_error_line(p, out);
	memset(out, 0, sizeof(*out));
	p = parse_header(p, out, &event);
	if (!p)
		return 0;
	if (event && strcmp(event, "branches")) {
		if (!strcmp(event, "cbr"))
			return parse_cbr(p, out);
		/* PSB packets (--itrace=p): where decoding may start, nothing ran */
		return !strcmp(event, "psb") ? PTS_PERFSCRIPT_IGNORED : 0;
	}
	if (!event && !strncmp(p, "psb offs:", 9))
		return PTS_PERFSCRIPT_IGNORED;
	p = parse_flags(p, out);
	if (!p)
		return 0;
	arrow = strstr(p, "=>");
	if (!arrow)
		return 0;
	*arrow = '\0';
	if (!parse_side(p, &out->from, &out->from_sym))
		return 0;
	if (!parse_side(arrow + 2, &out->to, &out->to_sym))
		return 0;
	if (out->kind == PTS_BR_ENABLED) {
		out->from = 0;
		memset(&out->from_sym, 0, sizeof(out->from_sym));
	} else if (out->kind == PTS_BR_DISABLED || (out->flags & PTS_BRF_TRACE_OFF)) {
		out->to = 0;
		memset(&out->to_sym, 0, sizeof(out->to_sym));
	}
	return 1;
}

/* perf script text as a branch source (perfscript.h). */
struct ps_src {
	struct pts_brsrc base;		/* first: the interface's pointer is ours */
	FILE *f;
	const char *name;
	char *line;			/* the last line read: the event's strings point into it */
	size_t cap;
	struct pts_branch br;		/* the event read last */
	bool ahead;			/* br was read by peek and not handed out yet */
	bool ended;
	bool have_origin;
	uint64_t origin;		/* time of the first event: 0 ns */
	uint64_t bytes;			/* text read so far */
	struct pts_perfscript_stats st;
};

/*
 * The next event line into s->br: 1, 0 at the end of the text, -EIO on a
 * read error, -EINVAL at the end of a text without a single event line.
 */
static int read_event(struct ps_src *s, struct pts_err *err)
{
	ssize_t n;

	while (!s->ended && (n = getline(&s->line, &s->cap, s->f)) >= 0) {
		int got;

		s->bytes += (uint64_t)n;
		s->st.lines++;
		got = pts_perfscript_line(s->line, &s->br);
		if (got != 1) {
			if (!got && *s->line && *s->line != '#')
				s->st.skipped++;
			continue;
		}
		if (!s->have_origin) {
			s->origin = s->br.ts_ns;
			s->have_origin = true;
		}
		s->br.ts_ns = s->br.ts_ns >= s->origin ? s->br.ts_ns - s->origin : 0;
		if (s->br.kind == PTS_BR_GAP)
			s->st.errors++;
		s->st.events++;
		return 1;
	}
	s->ended = true;
	if (ferror(s->f))
		return pts_err_set(err, EIO, "read error in perf script input");
	/* A file with no branch or error line at all is the wrong file (or the
	 * wrong perf script fields), not an empty but clean decode. */
	if (!s->st.events && !s->st.lines)
		return pts_err_set(err, EINVAL,
				   "%s: no perf script branch line in 0 line(s): the input is"
				   " empty (perf script wrote nothing: did it fail? A perf.data"
				   " recorded without -e intel_pt// gives no branch); make it with"
				   " perf script --itrace=cr --ns -F pid,tid,time,flags,ip,sym,"
				   "symoff,dso,addr -i perf.data", s->name);
	if (!s->st.events)
		return pts_err_set(err, EINVAL,
				   "%s: no perf script branch line in %" PRIu64 " line(s)"
				   " (%" PRIu64 " not understood): make it with"
				   " perf script --itrace=cr --ns -F pid,tid,time,flags,ip,sym,"
				   "symoff,dso,addr", s->name, s->st.lines, s->st.skipped);
	return 0;
}

static int src_next(struct pts_brsrc *b, const struct pts_branch **out, struct pts_err *err)
{
	struct ps_src *s = (struct ps_src *)b;
	int rc;

	if (!s->ahead) {
		rc = read_event(s, err);
		if (rc <= 0)
			return rc;
	}
	s->ahead = false;
	*out = &s->br;
	return 1;
}

static int src_peek(struct pts_brsrc *b, uint64_t *ns, struct pts_err *err)
{
	struct ps_src *s = (struct ps_src *)b;
	int rc;

	if (!s->ahead) {
		rc = read_event(s, err);
		if (rc <= 0)
			return rc;
		s->ahead = true;
	}
	*ns = s->br.ts_ns;
	return 1;
}

static uint64_t src_done(const struct pts_brsrc *b)
{
	return ((const struct ps_src *)b)->bytes;
}

/* Every event that is not an error line is a branch (of the summary). */
static void src_stats(const struct pts_brsrc *b, struct pts_brsrc_stats *st)
{
	const struct ps_src *s = (const struct ps_src *)b;

	st->branches = s->st.events - s->st.errors;
	st->skipped = s->st.skipped;
}

static void src_close(struct pts_brsrc *b)
{
	struct ps_src *s = (struct ps_src *)b;

	free(s->line);
	free(s);
}

static const struct pts_brsrc_ops ps_src_ops = {
	.next = src_next,
	.peek = src_peek,
	.done = src_done,
	.stats = src_stats,
	.close = src_close,
};

int pts_perfscript_src_new(FILE *f, const char *name, struct pts_brsrc **out,
			   struct pts_err *err)
{
	struct ps_src *s = calloc(1, sizeof(*s));

	if (!s)
		return pts_err_set(err, ENOMEM, "out of memory");
	s->base.ops = &ps_src_ops;
	s->base.cpu = PTS_BRSRC_CPUS;
	s->f = f;
	s->name = name;
	*out = &s->base;
	return 0;
}
