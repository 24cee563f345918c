// SPDX-License-Identifier: GPL-2.0
/*
 * Chrome trace event JSON (.json), streamed: one event object per line
 * inside {"displayTimeUnit":"ns","traceEvents":[ ... ]}, so memory does
 * not grow with the trace.
 *
 *   PROCESS -> "M" process_name     THREAD  -> "M" thread_name
 *   BEGIN   -> "B" (cat "user"/"kernel", args addr/symbol/object/kind)
 *   END     -> "E" (args end_kind)
 *   INSTANT -> "i" with "s":"t" (thread scope), args cause/addr/kind
 *   COUNTER -> "C" with args {"value": v}
 *
 * ts is in microseconds with the nanoseconds as three exact decimals.
 * Strings are escaped here (quote, backslash, control characters as
 * \uXXXX) and bytes that are not valid UTF-8 become U+FFFD, so every
 * JSON parser accepts the file; the unit tests check the escaping with
 * json-c's parser.
 */
#include "writer_int.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

struct json {
	bool any;		/* an event was written: next one needs a comma */
};

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid. */
static size_t utf8_seq(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t n, i;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong, surrogate or beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* Write s as a JSON string literal, quotes included. */
static int jstr(struct pts_writer *w, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : ""), *run = s;
	int rc = pts_wout(w, "\"", 1);

	while (!rc && *s) {
		size_t n;
		char esc[8];
		const char *rep = NULL;

		if (*s >= 0x20 && *s < 0x80 && *s != '"' && *s != '\\') {
			s++;	/* plain ASCII: the common case */
			continue;
		}
		n = utf8_seq(s);
		if (n && *s >= 0x20 && *s != '"' && *s != '\\') {
			s += n;
			continue;
		}
		rc = pts_wout(w, run, (size_t)(s - run));
		if (rc)
			break;
		if (!n) {
			rep = "\\ufffd";
		} else if (*s == '"') {
			rep = "\\\"";
		} else if (*s == '\\') {
			rep = "\\\\";
		} else if (*s == '\n') {
			rep = "\\n";
		} else if (*s == '\t') {
			rep = "\\t";
		} else {
			snprintf(esc, sizeof(esc), "\\u%04x", *s);
			rep = esc;
		}
		rc = pts_wout_str(w, rep);
		s++;
		run = s;
	}
	if (!rc)
		rc = pts_wout(w, run, (size_t)(s - run));
	return rc ?: pts_wout(w, "\"", 1);
}

/* Event prologue: separator, ph, pid, tid, ts (µs with 3 decimals). */
static int head(struct pts_writer *w, char ph, const struct pts_tl_rec *rec, bool with_ts)
{
	struct json *j = w->state;
	char buf[160], *p = buf;
	unsigned int ns;

	if (j->any)
		*p++ = ',';
	j->any = true;
	p = stpcpy(p, "\n{\"ph\":\"");
	*p++ = ph;
	p = stpcpy(p, "\",\"pid\":");
	p = pts_fmt_i64(p, rec->pid);
	p = stpcpy(p, ",\"tid\":");
	p = pts_fmt_i64(p, rec->tid);
	if (with_ts) {
		p = stpcpy(p, ",\"ts\":");
		p = pts_fmt_u64(p, rec->ts_ns / 1000);
		ns = (unsigned int)(rec->ts_ns % 1000);
		*p++ = '.';
		*p++ = (char)('0' + ns / 100);
		*p++ = (char)('0' + ns / 10 % 10);
		*p++ = (char)('0' + ns % 10);
	}
	return pts_wout(w, buf, (size_t)(p - buf));
}

/* A quoted hex number: JSON numbers cannot hold 64-bit addresses exactly. */
static int hex(struct pts_writer *w, uint64_t v)
{
	char buf[24] = "\"", *p = pts_fmt_hex(buf + 1, v);

	*p++ = '"';
	return pts_wout(w, buf, (size_t)(p - buf));
}

/* ,"cpu":N */
static int cpu(struct pts_writer *w, uint32_t cpu)
{
	char buf[24] = ",\"cpu\":", *p = pts_fmt_u64(buf + 7, cpu);

	return pts_wout(w, buf, (size_t)(p - buf));
}

/* ,"key":"value" */
static int kv(struct pts_writer *w, const char *key, const char *val)
{
	return pts_wout(w, ",\"", 2) ?: pts_wout_str(w, key) ?: pts_wout(w, "\":", 2) ?:
	       jstr(w, val);
}

static int meta(struct pts_writer *w, const struct pts_tl_rec *rec, const char *what)
{
	return head(w, 'M', rec, false) ?: kv(w, "name", what) ?:
	       pts_wout_str(w, ",\"args\":{\"name\":") ?: jstr(w, rec->name) ?:
	       pts_wout_str(w, "}}");
}

static int begin(struct pts_writer *w, const struct pts_tl_rec *rec, struct pts_wthread *t)
{
	char buf[64];
	const char *name = pts_wname(rec, buf, sizeof(buf));
	int rc;

	rc = head(w, 'B', rec, true) ?: kv(w, "name", name) ?:
	     kv(w, "cat", rec->flags & PTS_TLF_KERNEL ? "kernel" : "user") ?:
	     pts_wout_str(w, ",\"args\":{\"addr\":") ?: hex(w, rec->addr);
	if (!rc && pts_wsymbol(rec))
		rc = kv(w, "symbol", rec->name) ?:
		     pts_wout_str(w, ",\"offset\":") ?: hex(w, rec->offset);
	if (!rc && rec->object && rec->object[0])
		rc = kv(w, "object", rec->object);
	rc = rc ?: kv(w, "kind", pts_tl_kind_name(rec->kind)) ?: cpu(w, rec->cpu);
	if (!rc && (rec->flags & PTS_TLF_INFERRED))
		rc = pts_wout_str(w, ",\"inferred\":true");
	if (!rc && (rec->flags & PTS_TLF_SYNTHETIC))
		rc = pts_wout_str(w, ",\"synthetic\":true");
	rc = rc ?: pts_wout_str(w, "}}");
	return rc ?: pts_wthread_push(w, t, rec);
}

static int end(struct pts_writer *w, const struct pts_tl_rec *rec, struct pts_wthread *t)
{
	int rc = head(w, 'E', rec, true) ?:
		 pts_wout_str(w, ",\"args\":{\"end_kind\":") ?:
		 jstr(w, pts_tl_kind_name(rec->kind)) ?: pts_wout_str(w, "}}");

	if (!rc)
		pts_wthread_pop(t);
	return rc;
}

static int instant(struct pts_writer *w, const struct pts_tl_rec *rec)
{
	const char *name = rec->name && rec->name[0] ? rec->name : pts_tl_kind_name(rec->kind);
	int rc;

	rc = head(w, 'i', rec, true) ?: kv(w, "name", name) ?: kv(w, "cat", "ptscope") ?:
	     pts_wout_str(w, ",\"s\":\"t\",\"args\":{") ?:
	     pts_wout_str(w, "\"addr\":") ?: hex(w, rec->addr) ?:
	     kv(w, "kind", pts_tl_kind_name(rec->kind)) ?: cpu(w, rec->cpu);
	if (!rc && rec->detail && rec->detail[0])
		rc = kv(w, "cause", rec->detail);
	return rc ?: pts_wout_str(w, "}}");
}

static int counter(struct pts_writer *w, const struct pts_tl_rec *rec)
{
	/* JSON has no NaN or infinity: such a sample is left out */
	if (!isfinite(rec->value))
		return 0;
	return head(w, 'C', rec, true) ?: kv(w, "name", rec->name ? rec->name : "counter") ?:
	       pts_wprintf(w, ",\"args\":{\"value\":%.17g}}", rec->value);
}

static int json_emit(struct pts_writer *w, const struct pts_tl_rec *rec)
{
	struct pts_wthread *t;
	int rc;

	switch (rec->type) {
	case PTS_TL_PROCESS:
		return meta(w, rec, "process_name");
	case PTS_TL_THREAD:
		return meta(w, rec, "thread_name");
	case PTS_TL_BEGIN:
	case PTS_TL_END:
		rc = pts_wthread_enter(w, rec, &t);
		if (rc)
			return rc;
		return rec->type == PTS_TL_BEGIN ? begin(w, rec, t) : end(w, rec, t);
	case PTS_TL_INSTANT:
		return instant(w, rec);
	case PTS_TL_COUNTER:
		return counter(w, rec);
	}
	return pts_wfail(w, EINVAL, "unknown timeline record type %d", (int)rec->type);
}

static int json_start(struct pts_writer *w)
{
	return pts_wout_str(w, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
}

static int json_finish(struct pts_writer *w)
{
	return pts_wout_str(w, "\n]}\n");
}

const struct pts_writer_ops pts_writer_json_ops = {
	.name = "json",
	.state_size = sizeof(struct json),
	.start = json_start,
	.emit = json_emit,
	.finish = json_finish,
};
