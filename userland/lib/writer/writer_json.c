// SPDX-License-Identifier: GPL-2.0
/*
 * Chrome trace event JSON (.json), streamed: one event object per line
 * inside {"displayTimeUnit":"ns","traceEvents":[ ... ]}, so memory does
 * not grow with the trace.
 *
 *   PROCESS -> "M" process_name     THREAD  -> "M" thread_name
 *   BEGIN   -> "B" (cat "user"/"kernel", args addr/symbol/object/kind,
 *              and the record's extra arguments: a kernel entry's syscall)
 *   END     -> "E" with its BEGIN's name, cat and args, and end_kind
 *   INSTANT -> "i" with "s":"t" (thread scope), args cause/addr/kind
 *   COUNTER -> "C" with args {"value": v}
 *
 * ts is in microseconds with six decimals: the nanoseconds exactly, and
 * events of one thread that share a nanosecond 1 ps apart (ts_ps).
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
#include <stdlib.h>
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

/*
 * Where JSON text goes: the file, or (f set) a frame's args buffer, so
 * that a BEGIN's args can be written again by its END.
 */
struct jout {
	struct pts_writer *w;
	struct pts_wframe *f;
};

static int put(const struct jout *o, const void *s, size_t n)
{
	struct pts_wframe *f = o->f;

	if (!f)
		return pts_wout(o->w, s, n);
	if (f->args_len + n >= f->args_cap) {
		size_t cap = f->args_cap ? f->args_cap : 128;
		char *nb;

		while (f->args_len + n >= cap)
			cap *= 2;
		nb = realloc(f->args, cap);
		if (!nb)
			return pts_wfail(o->w, ENOMEM, "out of memory for a slice's arguments");
		f->args = nb;
		f->args_cap = cap;
	}
	memcpy(f->args + f->args_len, s, n);
	f->args_len += n;
	return 0;
}

static int put_str(const struct jout *o, const char *s)
{
	return put(o, s, strlen(s));
}

/* Write s as a JSON string literal, quotes included. */
static int jstr_to(const struct jout *o, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : ""), *run = s;
	int rc = put(o, "\"", 1);

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
		rc = put(o, run, (size_t)(s - run));
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
		rc = put_str(o, rep);
		s++;
		run = s;
	}
	if (!rc)
		rc = put(o, run, (size_t)(s - run));
	return rc ?: put(o, "\"", 1);
}

static int jstr(struct pts_writer *w, const char *str)
{
	struct jout o = { .w = w };

	return jstr_to(&o, str);
}

/*
 * The time of an event of rec's thread, in ps: its ns, or 1 ps after the
 * thread's previous event when that one had this time or later. Viewers
 * sort the events of a thread by time (speedscope puts an E before a B of
 * the same time, which unnests slices that begin, or begin and end, in
 * one ns); 1 ps apart, events of one ns keep their order, and a time
 * moves by less than 1 ns unless more than 1000 events share that ns.
 * UINT64_MAX: out of memory (recorded).
 */
static uint64_t ts_ps(struct pts_writer *w, const struct pts_tl_rec *rec)
{
	struct pts_wthread *t = pts_wthread_get(w, rec->pid, rec->tid);
	uint64_t ps = rec->ts_ns * 1000;

	if (!t)
		return UINT64_MAX;
	if (t->have_ps && ps <= t->last_ps)
		ps = t->last_ps + 1;
	t->last_ps = ps;
	t->have_ps = true;
	return ps;
}

/* Event prologue: separator, ph, pid, tid, ts (µs with 6 decimals: ts_ps). */
static int head(struct pts_writer *w, char ph, const struct pts_tl_rec *rec, bool with_ts)
{
	struct json *j = w->state;
	char buf[160], *p = buf;
	uint64_t ps = with_ts ? ts_ps(w, rec) : 0;
	int d;

	if (ps == UINT64_MAX)
		return w->error;

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
		uint64_t frac = ps % 1000000;

		p = stpcpy(p, ",\"ts\":");
		p = pts_fmt_u64(p, ps / 1000000);
		*p++ = '.';
		for (d = 5; d >= 0; d--, frac /= 10)
			p[d] = (char)('0' + frac % 10);
		p += 6;
	}
	return pts_wout(w, buf, (size_t)(p - buf));
}

/* A quoted hex number: JSON numbers cannot hold 64-bit addresses exactly. */
static int hex_to(const struct jout *o, uint64_t v)
{
	char buf[24] = "\"", *p = pts_fmt_hex(buf + 1, v);

	*p++ = '"';
	return put(o, buf, (size_t)(p - buf));
}

/* ,"cpu":N */
static int cpu_to(const struct jout *o, uint32_t cpu)
{
	char buf[24] = ",\"cpu\":", *p = pts_fmt_u64(buf + 7, cpu);

	return put(o, buf, (size_t)(p - buf));
}

/* ,"key":"value" */
static int kv_to(const struct jout *o, const char *key, const char *val)
{
	return put(o, ",\"", 2) ?: put_str(o, key) ?: put(o, "\":", 2) ?: jstr_to(o, val);
}

static int kv(struct pts_writer *w, const char *key, const char *val)
{
	struct jout o = { .w = w };

	return kv_to(&o, key, val);
}

static int meta(struct pts_writer *w, const struct pts_tl_rec *rec, const char *what)
{
	return head(w, 'M', rec, false) ?: kv(w, "name", what) ?:
	       pts_wout_str(w, ",\"args\":{\"name\":") ?: jstr(w, rec->name) ?:
	       pts_wout_str(w, "}}");
}

/*
 * A BEGIN's extra arguments (writer.h): strings, numbers as JSON numbers
 * (a syscall's return value and the error code fit a double exactly:
 * below 2^53), pointers as quoted hex like addr.
 */
static int extra_args_to(const struct jout *o, const struct pts_tl_rec *rec)
{
	uint32_t i, n = rec->nargs < PTS_TL_MAX_ARGS ? rec->nargs : PTS_TL_MAX_ARGS;
	char buf[24];
	int rc = 0;

	for (i = 0; !rc && i < n; i++) {
		const struct pts_tl_arg *a = &rec->args[i];

		if (a->type == PTS_TLA_STR) {
			rc = kv_to(o, a->name, a->s);
			continue;
		}
		rc = put(o, ",\"", 2) ?: put_str(o, a->name) ?: put(o, "\":", 2);
		if (rc)
			break;
		if (a->type == PTS_TLA_PTR)
			rc = hex_to(o, a->u);
		else if (a->type == PTS_TLA_INT)
			rc = put(o, buf, (size_t)(pts_fmt_i64(buf, a->i) - buf));
		else
			rc = put(o, buf, (size_t)(pts_fmt_u64(buf, a->u) - buf));
	}
	return rc;
}

/* A BEGIN's args object, into its frame's args buffer. */
static int begin_args(const struct jout *o, const struct pts_tl_rec *rec)
{
	int rc = put_str(o, "{\"addr\":") ?: hex_to(o, rec->addr);

	if (!rc && pts_wsymbol(rec))
		rc = kv_to(o, "symbol", rec->name) ?:
		     put_str(o, ",\"offset\":") ?: hex_to(o, rec->offset);
	if (!rc && rec->object && rec->object[0])
		rc = kv_to(o, "object", rec->object);
	rc = rc ?: kv_to(o, "kind", pts_tl_kind_name(rec->kind)) ?: cpu_to(o, rec->cpu);
	if (!rc && (rec->flags & PTS_TLF_INFERRED))
		rc = put_str(o, ",\"inferred\":true");
	if (!rc && (rec->flags & PTS_TLF_SYNTHETIC))
		rc = put_str(o, ",\"synthetic\":true");
	return rc ?: extra_args_to(o, rec) ?: put_str(o, "}");
}

/* name, cat and args of a slice: a B's, and its E's the same (viewers match them) */
static int slice_fields(struct pts_writer *w, const struct pts_wframe *f)
{
	char buf[64];

	return kv(w, "name", pts_wframe_name(f, buf, sizeof(buf))) ?:
	       kv(w, "cat", f->flags & PTS_TLF_KERNEL ? "kernel" : "user") ?:
	       pts_wout_str(w, ",\"args\":") ?: pts_wout(w, f->args, f->args_len);
}

static int begin(struct pts_writer *w, const struct pts_tl_rec *rec, struct pts_wthread *t)
{
	struct jout o = { .w = w };
	int rc = pts_wthread_push(w, t, rec);

	if (rc)
		return rc;
	o.f = &t->frames[t->depth - 1];
	return begin_args(&o, rec) ?: head(w, 'B', rec, true) ?: slice_fields(w, o.f) ?:
	       pts_wout_str(w, "}");
}

/*
 * The END repeats its BEGIN's name, cat and args: speedscope matches an
 * E to the open slice by name and args, catapult by name. How the slice
 * ended is a field of the event beside them, "end_kind" (viewers leave
 * fields they do not know alone; in args it would unmatch the E).
 */
static int end(struct pts_writer *w, const struct pts_tl_rec *rec, struct pts_wthread *t)
{
	int rc = head(w, 'E', rec, true) ?: slice_fields(w, &t->frames[t->depth - 1]) ?:
		 kv(w, "end_kind", pts_tl_kind_name(rec->kind)) ?: pts_wout_str(w, "}");

	if (!rc)
		pts_wthread_pop(t);
	return rc;
}

static int instant(struct pts_writer *w, const struct pts_tl_rec *rec)
{
	const char *name = rec->name && rec->name[0] ? rec->name : pts_tl_kind_name(rec->kind);
	struct jout o = { .w = w };
	int rc;

	rc = head(w, 'i', rec, true) ?: kv_to(&o, "name", name) ?: kv_to(&o, "cat", "ptscope") ?:
	     put_str(&o, ",\"s\":\"t\",\"args\":{\"addr\":") ?: hex_to(&o, rec->addr) ?:
	     kv_to(&o, "kind", pts_tl_kind_name(rec->kind)) ?: cpu_to(&o, rec->cpu);
	if (!rc && rec->detail && rec->detail[0])
		rc = kv_to(&o, "cause", rec->detail);
	return rc ?: put_str(&o, "}}");
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
