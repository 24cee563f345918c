// SPDX-License-Identifier: GPL-2.0
/*
 * Selecting a process, a thread and a time window of the record stream
 * (see select.h). Per thread: the slices opened before the window are
 * held (their BEGINs copied; names stay valid until their END,
 * writer.h) and begin at the window's start once the thread reaches it;
 * after the window, slices that began inside end at its end and new
 * ones are left out with their ENDs.
 */
#include "select.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct sel_thread {
	int32_t pid, tid;
	struct pts_tl_rec *held;	/* BEGINs before the window, still open */
	size_t nr_held, cap_held;
	uint64_t open;			/* slices begun in the output, not yet ended */
	uint64_t dropped;		/* slices begun after the window: their ENDs go too */
};

struct pts_tl_select {
	struct pts_tl_select_opts o;
	pts_tl_emit_fn emit;
	void *ctx;
	struct sel_thread *threads;
	size_t nr_threads, cap_threads;
	uint64_t kept;
};

/*
 * One side of START..END: digits, an optional fraction ("1.5us", as perf
 * and the .txt's readers write times), a unit (none: ns). A fraction finer
 * than a nanosecond, or past 2^64 - 1 ns, is no time of the timeline.
 */
static int parse_bound(const char *s, size_t len, uint64_t *ns)
{
	static const struct { const char *unit; uint64_t mul; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 }, { "", 1 },
	};
	uint64_t v = 0, frac = 0, scale = 1;
	size_t i = 0, u;

	if (!len || s[0] < '0' || s[0] > '9')
		return -1;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		/* at least one digit after the point; 9 digits are a nanosecond of a second */
		if (++i >= len || s[i] < '0' || s[i] > '9')
			return -1;
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
			if (scale >= 1000000000)
				return -1;
			frac = frac * 10 + (uint64_t)(s[i] - '0');
			scale *= 10;
		}
	}
	for (u = 0; u < sizeof(units) / sizeof(units[0]); u++)
		if (len - i == strlen(units[u].unit) && !strncmp(s + i, units[u].unit, len - i)) {
			if (v > UINT64_MAX / units[u].mul || (frac * units[u].mul) % scale ||
			    v * units[u].mul > UINT64_MAX - frac * units[u].mul / scale)
				return -1;
			*ns = v * units[u].mul + frac * units[u].mul / scale;
			return 0;
		}
	return -1;
}

int pts_tl_select_parse_time(const char *s, struct pts_tl_select_opts *o, struct pts_err *err)
{
	const char *dots = strstr(s, "..");
	size_t l1, l2;

	if (!dots)
		goto bad;
	l1 = (size_t)(dots - s);
	l2 = strlen(dots + 2);
	o->has_start = l1 > 0;
	o->has_end = l2 > 0;
	if ((!l1 && !l2) || (l1 && parse_bound(s, l1, &o->start_ns)) ||
	    (l2 && parse_bound(dots + 2, l2, &o->end_ns)))
		goto bad;
	/* both in ns: "1ms..2" is 1000000 ns to 2 ns, a number without a unit being ns */
	if (o->has_start && o->has_end && o->start_ns > o->end_ns)
		return pts_err_set(err, EINVAL, "--time %s: the start (%" PRIu64 " ns) is after "
				   "the end (%" PRIu64 " ns; a time without a unit is ns)", s,
				   o->start_ns, o->end_ns);
	return 0;
bad:
	return pts_err_set(err, EINVAL, "--time wants START..END, each a time of the timeline "
			   "(the .txt's ts_ns) in ns, us, ms or s, whole nanoseconds, either side "
			   "may be left out: e.g. 1ms..2ms, 1.5us..2us, 5000.., ..3us; not '%s'", s);
}

int pts_tl_select_new(const struct pts_tl_select_opts *o, pts_tl_emit_fn emit, void *ctx,
		      struct pts_tl_select **out, struct pts_err *err)
{
	struct pts_tl_select *s = calloc(1, sizeof(*s));

	if (!s)
		return pts_err_set(err, ENOMEM, "out of memory");
	s->o = *o;
	s->emit = emit;
	s->ctx = ctx;
	*out = s;
	return 0;
}

void pts_tl_select_free(struct pts_tl_select *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_threads; i++)
		free(s->threads[i].held);
	free(s->threads);
	free(s);
}

uint64_t pts_tl_select_kept(const struct pts_tl_select *s)
{
	return s->kept;
}

static struct sel_thread *thread_of(struct pts_tl_select *s, int32_t pid, int32_t tid)
{
	size_t i;

	for (i = s->nr_threads; i-- > 0;)
		if (s->threads[i].tid == tid && s->threads[i].pid == pid)
			return &s->threads[i];
	if (s->nr_threads == s->cap_threads) {
		size_t cap = s->cap_threads ? 2 * s->cap_threads : 16;
		struct sel_thread *n = realloc(s->threads, cap * sizeof(*n));

		if (!n)
			return NULL;
		s->threads = n;
		s->cap_threads = cap;
	}
	memset(&s->threads[s->nr_threads], 0, sizeof(s->threads[0]));
	s->threads[s->nr_threads].pid = pid;
	s->threads[s->nr_threads].tid = tid;
	return &s->threads[s->nr_threads++];
}

static int pass(struct pts_tl_select *s, const struct pts_tl_rec *rec, struct pts_err *err)
{
	if (rec->type != PTS_TL_PROCESS && rec->type != PTS_TL_THREAD)
		s->kept++;	/* names alone are not a match */
	return s->emit(s->ctx, rec, err);
}

/* The process and thread asked for (records of others are left out). */
static bool wanted(const struct pts_tl_select *s, const struct pts_tl_rec *rec)
{
	if ((s->o.pid || s->o.has_pid) && rec->pid != s->o.pid)
		return false;
	if (!s->o.tid && !s->o.has_tid)
		return true;
	/* a thread's process is named before it: keep process names and counters */
	if (rec->type == PTS_TL_PROCESS || (rec->type == PTS_TL_COUNTER && !rec->tid))
		return true;
	return rec->tid == s->o.tid;
}

/* The window reached: the slices held begin at its start. */
static int release_held(struct pts_tl_select *s, struct sel_thread *t, struct pts_err *err)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < t->nr_held; i++) {
		t->held[i].ts_ns = s->o.start_ns;
		rc = pass(s, &t->held[i], err);
		t->open++;
	}
	t->nr_held = 0;
	return rc;
}

static int hold(struct sel_thread *t, const struct pts_tl_rec *rec, struct pts_err *err)
{
	if (t->nr_held == t->cap_held) {
		size_t cap = t->cap_held ? 2 * t->cap_held : 32;
		struct pts_tl_rec *n = realloc(t->held, cap * sizeof(*n));

		if (!n)
			return pts_err_set(err, ENOMEM, "out of memory");
		t->held = n;
		t->cap_held = cap;
	}
	t->held[t->nr_held++] = *rec;
	return 0;
}

/* A BEGIN, END or INSTANT of thread t, by where it falls against the window. */
static int slice_rec(struct pts_tl_select *s, struct sel_thread *t, const struct pts_tl_rec *rec,
		     struct pts_err *err)
{
	struct pts_tl_rec clamped;
	int rc;

	if (s->o.has_start && rec->ts_ns < s->o.start_ns) {
		if (rec->type == PTS_TL_BEGIN)
			return hold(t, rec, err);
		if (rec->type == PTS_TL_END && t->nr_held)
			t->nr_held--;
		return 0;
	}
	rc = release_held(s, t, err);
	if (rc)
		return rc;
	if (!s->o.has_end || rec->ts_ns <= s->o.end_ns) {
		if (rec->type == PTS_TL_BEGIN)
			t->open++;
		else if (rec->type == PTS_TL_END && t->open)
			t->open--;
		return pass(s, rec, err);
	}
	/* past the window: only the ENDs of slices in the output, at its end */
	if (rec->type == PTS_TL_BEGIN) {
		t->dropped++;
		return 0;
	}
	if (rec->type != PTS_TL_END)
		return 0;
	if (t->dropped) {
		t->dropped--;
		return 0;
	}
	if (!t->open)
		return 0;
	t->open--;
	clamped = *rec;
	clamped.ts_ns = s->o.end_ns;
	return pass(s, &clamped, err);
}

int pts_tl_select_emit(void *ctx, const struct pts_tl_rec *rec, struct pts_err *err)
{
	struct pts_tl_select *s = ctx;
	struct sel_thread *t;

	if (!wanted(s, rec))
		return 0;
	switch (rec->type) {
	case PTS_TL_PROCESS:
	case PTS_TL_THREAD:
		return pass(s, rec, err);
	case PTS_TL_COUNTER:
		if ((s->o.has_start && rec->ts_ns < s->o.start_ns) ||
		    (s->o.has_end && rec->ts_ns > s->o.end_ns))
			return 0;
		return pass(s, rec, err);
	default:
		t = thread_of(s, rec->pid, rec->tid);
		if (!t)
			return pts_err_set(err, ENOMEM, "out of memory");
		return slice_rec(s, t, rec, err);
	}
}
