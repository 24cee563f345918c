/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test sink for timeline records: keeps every pts_tl_rec (with copies of
 * its strings) in an array, and renders slices as a compact text so tests
 * can state the expected timeline shape by hand:
 *
 *   "B0 _start", "B1 [syscall]", "E1 [syscall]", "I gap"
 *
 * (B/E = begin/end with the record's depth, I = instant; PROCESS, THREAD
 * and COUNTER records are left out of the rendering).
 */
#ifndef PTS_TEST_TL_SINK_H
#define PTS_TEST_TL_SINK_H

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeline/timeline.h"

#define TL_SINK_MAX 4096

struct tl_sink_rec {
	struct pts_tl_rec r;
	char name[160], object[64], detail[160];
};

struct tl_sink {
	struct tl_sink_rec *recs;
	size_t n;
};

static inline int tl_sink_emit(void *ctx, const struct pts_tl_rec *rec, struct pts_err *err)
{
	struct tl_sink *s = ctx;
	struct tl_sink_rec *d;

	(void)err;
	if (!s->recs)
		s->recs = calloc(TL_SINK_MAX, sizeof(*s->recs));
	if (!s->recs || s->n == TL_SINK_MAX)
		return -12;
	d = &s->recs[s->n++];
	d->r = *rec;
	snprintf(d->name, sizeof(d->name), "%s", rec->name ? rec->name : "");
	snprintf(d->object, sizeof(d->object), "%s", rec->object ? rec->object : "");
	snprintf(d->detail, sizeof(d->detail), "%s", rec->detail ? rec->detail : "");
	d->r.name = d->name;
	d->r.object = d->object;
	d->r.detail = d->detail;
	return 0;
}

static inline void tl_sink_free(struct tl_sink *s)
{
	free(s->recs);
	s->recs = NULL;
	s->n = 0;
}

/* The n-th record (0-based) of type t with this name, or NULL. */
static inline const struct pts_tl_rec *tl_sink_nth(const struct tl_sink *s, enum pts_tl_type t,
						   const char *name, int n)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->recs[i].r.type == t && !strcmp(s->recs[i].name, name) && !n--)
			return &s->recs[i].r;
	return NULL;
}

/*
 * tl_sink_nth for a record the test requires: when it is missing, a CUnit
 * failure naming it at the caller's FILE:LINE, and an empty record (zero
 * numbers, "" strings) to read, so a broken decoder fails the test instead
 * of crashing the runner. Use through TL_SINK_NEED.
 */
static inline const struct pts_tl_rec *tl_sink_need(const struct tl_sink *s, enum pts_tl_type t,
						    const char *name, int n, const char *file,
						    unsigned int line)
{
	static const struct pts_tl_rec none = { .name = "", .object = "", .detail = "" };
	const struct pts_tl_rec *r = tl_sink_nth(s, t, name, n);
	char what[256];

	if (r)
		return r;
	snprintf(what, sizeof(what), "record #%d of type %d named \"%s\" exists", n, (int)t, name);
	CU_assertImplementation(CU_FALSE, line, what, file, "", CU_FALSE);
	return &none;
}
#define TL_SINK_NEED(s, t, name, n) tl_sink_need(s, t, name, n, __FILE__, __LINE__)

/* Slices and instants as "B0 name|E0 name|I gap" joined by '|'. */
static inline const char *tl_sink_shape(const struct tl_sink *s, char *buf, size_t len)
{
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < s->n && o < len; i++) {
		const struct pts_tl_rec *r = &s->recs[i].r;
		int w = 0;

		if (r->type == PTS_TL_BEGIN)
			w = snprintf(buf + o, len - o, "%sB%u %s", o ? "|" : "", r->depth, r->name);
		else if (r->type == PTS_TL_END)
			w = snprintf(buf + o, len - o, "%sE%u %s", o ? "|" : "", r->depth, r->name);
		else if (r->type == PTS_TL_INSTANT)
			w = snprintf(buf + o, len - o, "%sI %s", o ? "|" : "", r->name);
		if (w > 0)
			o += (size_t)w;
	}
	return buf;
}

/* The shape (tl_sink_shape) of one thread's records. */
static inline const char *tl_sink_thread_shape(const struct tl_sink *s, int32_t tid, char *buf,
					       size_t len)
{
	struct tl_sink one = { 0 };
	size_t i;

	one.recs = calloc(TL_SINK_MAX, sizeof(*one.recs));
	if (!one.recs) {
		snprintf(buf, len, "(out of memory)");
		return buf;
	}
	for (i = 0; i < s->n; i++)
		if (s->recs[i].r.tid == tid)
			one.recs[one.n++] = s->recs[i];
	tl_sink_shape(&one, buf, len);
	free(one.recs);
	return buf;
}

/* Structural rules of writer.h: per thread, time never decreases and BEGIN/END nest. */
static inline int tl_sink_well_formed(const struct tl_sink *s, char *why, size_t len)
{
	size_t i, j;

	for (i = 0; i < s->n; i++) {
		const struct pts_tl_rec *r = &s->recs[i].r;
		int depth = 0;
		uint64_t last = 0;

		if (r->type != PTS_TL_THREAD)
			continue;
		for (j = 0; j < s->n; j++) {
			const struct pts_tl_rec *q = &s->recs[j].r;

			if (q->tid != r->tid || q->pid != r->pid || q->type == PTS_TL_PROCESS ||
			    q->type == PTS_TL_THREAD)
				continue;
			if (q->ts_ns < last) {
				snprintf(why, len, "record %zu: time goes back %llu -> %llu", j,
					 (unsigned long long)last, (unsigned long long)q->ts_ns);
				return 0;
			}
			last = q->ts_ns;
			if (q->type == PTS_TL_BEGIN) {
				if ((int)q->depth != depth) {
					snprintf(why, len, "record %zu: BEGIN depth %u, expected %d", j,
						 q->depth, depth);
					return 0;
				}
				depth++;
			} else if (q->type == PTS_TL_END) {
				if (!depth || (int)q->depth != depth - 1) {
					snprintf(why, len, "record %zu: END depth %u, open %d", j,
						 q->depth, depth);
					return 0;
				}
				depth--;
			}
		}
		if (depth) {
			snprintf(why, len, "thread %d: %d slices never end", r->tid, depth);
			return 0;
		}
	}
	return 1;
}

/*
 * Made-up address spaces for timeline tests: functions of 0x100 bytes at
 * the given starts, named or not. tl_fn_lookup is a symbolizer over such a table
 * (kernel half of the address space -> "[kernel.kallsyms]", else "prog").
 */
struct tl_fn {
	/*
	 * NULL: an unnamed function (a stripped object's FDE);
	 * TL_UNNAMED_PART: an unnamed part of one (struct pts_sym_info)
	 */
	const char *name;
	uint64_t start;
};

static const char tl_unnamed_part[] = "(unnamed part)";
#define TL_UNNAMED_PART tl_unnamed_part

static inline int tl_fn_lookup(const struct tl_fn *fns, size_t n, uint64_t addr,
			       struct pts_sym_info *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		if (addr >= fns[i].start && addr < fns[i].start + 0x100) {
			out->part = fns[i].name == TL_UNNAMED_PART;
			out->unnamed = !fns[i].name || out->part;
			out->name = out->unnamed ? NULL : fns[i].name;
			out->start = fns[i].start;
			out->size = 0x100;
			out->object = pts_addr_is_kernel(addr) ? "[kernel.kallsyms]" : "prog";
		}
	}
	return 0;
}

/* A table of functions and its length: the ctx of tl_fns_symbolize. */
struct tl_fns {
	const struct tl_fn *fn;
	size_t n;
};

#define TL_FNS(table) ((struct tl_fns){ (table), sizeof(table) / sizeof((table)[0]) })

/* pts_tl_symbolize_fn over the struct tl_fns at ctx (tl_fn_lookup; every pid alike). */
static inline int tl_fns_symbolize(void *ctx, int32_t pid, uint64_t addr,
				   struct pts_sym_info *out)
{
	const struct tl_fns *t = ctx;

	(void)pid;
	return tl_fn_lookup(t->fn, t->n, addr, out);
}

#endif
