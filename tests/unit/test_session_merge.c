// SPDX-License-Identifier: GPL-2.0
/*
 * The branch-source interface (decode/brsrc.h) and the time merge of the
 * session (session/merge.h), with fake sources: scripted events, drops
 * and failures. The merge must not care what a source is; what it hands
 * on, and when it reports a source's end, is worked out by hand below.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "decode/brsrc.h"
#include "decode/perfscript.h"
#include "session/merge.h"

/* A scripted source: times of its events; UINT64_MAX - 1 a dropped event (next says 2). */
#define DROP (UINT64_MAX - 1)

struct fake {
	struct pts_brsrc base;
	const uint64_t *t;
	unsigned int n, pos;
	unsigned int fail_peek_at;	/* peek fails once pos reaches it (0: never) */
	unsigned int fail_next_at;	/* next fails once pos reaches it (0: never) */
	unsigned int peeks;
	unsigned int emits;		/* calls of fake_emit */
	char leads[64];			/* fake_lead: the promises, "<until" each */
	bool closed;
	struct pts_branch br;
};

/* The next event that is not dropped, or n. */
static unsigned int fake_ahead(const struct fake *f)
{
	unsigned int i = f->pos;

	while (i < f->n && f->t[i] == DROP)
		i++;
	return i;
}

static int fake_next(struct pts_brsrc *s, const struct pts_branch **out, struct pts_err *err)
{
	struct fake *f = (struct fake *)s;

	if (f->fail_next_at && f->pos + 1 >= f->fail_next_at)
		return pts_err_set(err, EIO, "fake next failed at %u", f->pos);
	if (f->pos == f->n)
		return 0;
	if (f->t[f->pos++] == DROP)
		return 2;
	memset(&f->br, 0, sizeof(f->br));
	f->br.ts_ns = f->t[f->pos - 1];
	f->br.cpu = s->cpu;
	f->br.offset = f->pos - 1;
	*out = &f->br;
	return 1;
}

static int fake_peek(struct pts_brsrc *s, uint64_t *ns, struct pts_err *err)
{
	struct fake *f = (struct fake *)s;
	unsigned int i = fake_ahead(f);

	f->peeks++;
	if (f->fail_peek_at && f->pos + 1 >= f->fail_peek_at)
		return pts_err_set(err, ENOMEM, "fake peek failed at %u", f->pos);
	if (i == f->n)
		return 0;
	*ns = f->t[i];
	return 1;
}

static void fake_stats(const struct pts_brsrc *s, struct pts_brsrc_stats *st)
{
	st->branches = ((const struct fake *)s)->pos;
}

static void fake_close(struct pts_brsrc *s)
{
	((struct fake *)s)->closed = true;
}

static const struct pts_brsrc_ops fake_ops = {
	.next = fake_next, .peek = fake_peek, .stats = fake_stats, .close = fake_close,
};

static void fake_lead(struct pts_brsrc *s, uint64_t until_ns)
{
	struct fake *f = (struct fake *)s;
	size_t n = strlen(f->leads);

	if (until_ns == UINT64_MAX)
		snprintf(f->leads + n, sizeof(f->leads) - n, "<max");
	else
		snprintf(f->leads + n, sizeof(f->leads) - n, "<%llu", (unsigned long long)until_ns);
}

/* A fake that records what the merge promises it (pts_brsrc_ops.lead). */
static const struct pts_brsrc_ops fake_lead_ops = {
	.next = fake_next, .peek = fake_peek, .lead = fake_lead, .close = fake_close,
};

/* next while the next event that is not dropped is before until_ns, without a peek. */
static int fake_next_before(struct pts_brsrc *s, uint64_t until_ns, const struct pts_branch **out,
			    struct pts_err *err)
{
	struct fake *f = (struct fake *)s;
	unsigned int i = fake_ahead(f);

	if (i < f->n && f->t[i] >= until_ns)
		return PTS_BRSRC_LATER;
	return fake_next(s, out, err);
}

/* A fake that hands out a leading run itself (pts_brsrc_ops.next_before). */
static const struct pts_brsrc_ops fake_before_ops = {
	.next = fake_next, .next_before = fake_next_before, .peek = fake_peek, .close = fake_close,
};

/*
 * next_before's events (bounded) or next's, each to the sink's event, in
 * one call; a call (every event of a fake is one: kind 0) to its call
 * entry, as a source that knows the kind hands it.
 */
static int fake_emit(struct pts_brsrc *s, bool bounded, uint64_t until_ns,
		     const struct pts_brsrc_to *to, struct pts_err *err)
{
	((struct fake *)s)->emits++;
	for (;;) {
		const struct pts_branch *br;
		int rc = bounded ? fake_next_before(s, until_ns, &br, err) : fake_next(s, &br, err);

		if (rc == PTS_BRSRC_DROPPED)
			continue;
		if (rc != PTS_BRSRC_EVENT)
			return rc;
		rc = (br->kind == PTS_BR_CALL ? to->call : to->event)(to->ctx, to->idx, br, err);
		if (rc)
			return rc;
	}
}

/* A fake that hands its events to the sink itself (pts_brsrc_ops.emit). */
static const struct pts_brsrc_ops fake_emit_ops = {
	.next = fake_next, .next_before = fake_next_before, .emit = fake_emit,
	.peek = fake_peek, .close = fake_close,
};

static void fake_init(struct fake *f, uint32_t cpu, const uint64_t *t, unsigned int n)
{
	memset(f, 0, sizeof(*f));
	f->base.ops = &fake_ops;
	f->base.cpu = cpu;
	f->t = t;
	f->n = n;
}

/* What the sink saw: "i@t" per event, "end i" per ended source, joined by spaces. */
struct log {
	char s[512];
	int fail_at;			/* the sink fails on its fail_at-th event (1-based; 0 never) */
	int events;
};

static void log_add(struct log *l, const char *w)
{
	size_t n = strlen(l->s);

	snprintf(l->s + n, sizeof(l->s) - n, "%s%s", n ? " " : "", w);
}

static int log_event(void *ctx, unsigned int idx, const struct pts_branch *br,
		     struct pts_err *err)
{
	struct log *l = ctx;
	char w[32];

	if (++l->events == l->fail_at)
		return pts_err_set(err, ENOSPC, "sink full");
	snprintf(w, sizeof(w), "%u@%llu", idx, (unsigned long long)br->ts_ns);
	log_add(l, w);
	return 0;
}

/* A sink's entry for calls: log_event's words, each with a "c" before it. */
static int log_call(void *ctx, unsigned int idx, const struct pts_branch *br,
		    struct pts_err *err)
{
	struct log *l = ctx;
	char w[32];

	CU_ASSERT_EQUAL(br->kind, PTS_BR_CALL);
	snprintf(w, sizeof(w), "c%u@%llu", idx, (unsigned long long)br->ts_ns);
	log_add(l, w);
	return 0;
}

static int log_ended(void *ctx, unsigned int idx, struct pts_err *err)
{
	char w[16];

	snprintf(w, sizeof(w), "end%u", idx);
	log_add(ctx, w);
	return 0;
}

/* The sources f into sink. */
static int merge_to(struct fake *f, unsigned int n, const struct pts_merge_sink *sink,
		    struct pts_err *err)
{
	struct pts_brsrc *src[8];
	unsigned int i;

	for (i = 0; i < n; i++)
		src[i] = &f[i].base;
	return pts_merge_run(src, n, sink, err);
}

/* The sources f into l, through a sink with no entry for calls or returns. */
static int merge(struct fake *f, unsigned int n, struct log *l, struct pts_err *err)
{
	const struct pts_merge_sink sink = { .event = log_event, .ended = log_ended, .ctx = l };

	return merge_to(f, n, &sink, err);
}

/*
 * Sources 0 and 1 of CPUs 0 and 1 with the times a (na of them) and b (nb),
 * b NULL: source 0 alone; and an empty log.
 */
static void sources(struct fake *f, const uint64_t *a, unsigned int na, const uint64_t *b,
		    unsigned int nb, struct log *l)
{
	fake_init(&f[0], 0, a, na);
	if (b)
		fake_init(&f[1], 1, b, nb);
	memset(l, 0, sizeof(*l));
}

/*
 * Sources 0: 1 4 4 9, 1: 2 4 5 and, with n 3, 2: none; every one with
 * ops; merged into an empty l.
 */
static int merge_example(struct fake *f, unsigned int n, const struct pts_brsrc_ops *ops,
			 struct log *l, struct pts_err *err)
{
	static const uint64_t a[] = { 1, 4, 4, 9 }, b[] = { 2, 4, 5 };
	unsigned int i;

	sources(f, a, 4, b, 3, l);
	if (n == 3)
		fake_init(&f[2], 2, NULL, 0);
	for (i = 0; i < n; i++)
		f[i].base.ops = ops;
	return merge(f, n, l, err);
}

/*
 * The example's three sources; source 2 ends before anything (its first
 * peek says so). By time: 0@1 1@2; at 4 all three 4s, source 0 first
 * (lower index) twice, then 1@4; 1@5; source 1 ends when its time is
 * next asked for (after 1@5, before 0@9); 0@9; source 0 ends. The same
 * whether the sources hand out their leading runs themselves
 * (next_before), hand them to the sink (emit) or the merge peeks before
 * each event.
 */
static void events_come_out_by_time_equal_times_by_source_index(void)
{
	static const struct pts_brsrc_ops *const ops[] = { &fake_ops, &fake_before_ops,
							   &fake_emit_ops };
	struct pts_err err = { 0 };
	struct fake f[3];
	struct log l;
	unsigned int k;

	for (k = 0; k < 3; k++) {
		CU_ASSERT_EQUAL(merge_example(f, 3, ops[k], &l, &err), 0);
		CU_ASSERT_STRING_EQUAL(l.s, "end2 0@1 1@2 0@4 0@4 1@4 1@5 end1 0@9 end0");
	}
	memset(&l, 0, sizeof(l));
	CU_ASSERT_EQUAL(merge(f, 0, &l, &err), 0);	/* no source: nothing */
	CU_ASSERT_STRING_EQUAL(l.s, "");
}

/*
 * The example's three sources again, each handing its calls to the sink's
 * call entry when it hands its events itself (fake_emit): with one, the
 * calls go there, in the same order; without one (merge's sink: NULL), to
 * event, as in the example above. A source without emit hands every event
 * to event.
 */
static void a_sources_calls_go_to_the_sinks_call_entry_if_it_has_one(void)
{
	struct pts_err err = { 0 };
	struct pts_merge_sink sink;
	struct fake f[3];
	struct log l;

	CU_ASSERT_EQUAL(merge_example(f, 3, &fake_emit_ops, &l, &err), 0);
	CU_ASSERT_STRING_EQUAL(l.s, "end2 0@1 1@2 0@4 0@4 1@4 1@5 end1 0@9 end0");
	sink = (struct pts_merge_sink){ .event = log_event, .ended = log_ended, .ctx = &l,
					.call = log_call };
	memset(&l, 0, sizeof(l));
	fake_init(&f[0], 0, (const uint64_t[]){ 1, 4, 4, 9 }, 4);
	fake_init(&f[1], 1, (const uint64_t[]){ 2, 4, 5 }, 3);
	fake_init(&f[2], 2, NULL, 0);
	f[0].base.ops = f[1].base.ops = f[2].base.ops = &fake_emit_ops;
	CU_ASSERT_EQUAL(merge_to(f, 3, &sink, &err), 0);
	CU_ASSERT_STRING_EQUAL(l.s, "end2 c0@1 c1@2 c0@4 c0@4 c1@4 c1@5 end1 c0@9 end0");
	memset(&l, 0, sizeof(l));
	fake_init(&f[0], 0, (const uint64_t[]){ 1, 4, 4, 9 }, 4);
	CU_ASSERT_EQUAL(merge_to(f, 1, &sink, &err), 0);
	CU_ASSERT_STRING_EQUAL(l.s, "0@1 0@4 0@4 0@9 end0");
}

/*
 * The example's sources 0 and 1. Each source, when it comes to the top,
 * is told until when its events come next: the other's key, one more when
 * its own index is the lower (equal times go to it). Source 0 at 1: until
 * 3 (1's 2); 1 at 2: until 4 (0's 4, 0 first); 0 at 4: until 5 (1's 4),
 * both its 4s out without a new promise; 1 at 4: until 9; after 1 ends,
 * 0 alone: no bound.
 */
static void the_top_source_is_told_until_when_it_leads(void)
{
	struct pts_err err = { 0 };
	struct fake f[2];
	struct log l;

	CU_ASSERT_EQUAL(merge_example(f, 2, &fake_lead_ops, &l, &err), 0);
	CU_ASSERT_STRING_EQUAL(l.s, "0@1 1@2 0@4 0@4 1@4 1@5 end1 0@9 end0");
	CU_ASSERT_STRING_EQUAL(f[0].leads, "<3<5<max");
	CU_ASSERT_STRING_EQUAL(f[1].leads, "<4<9");
}

/*
 * A source that hands out its leading run itself (next_before) is peeked
 * when it is placed in the heap and when it stops leading, not per event:
 * source 0 (4 events) when placed, after 0@1 and after its 4s (its next
 * event later than the other's), and at its end; source 1 (3 events)
 * when placed, after 1@2 and at its end; source 2 once, empty. The
 * same for a source that hands the run to the sink (emit), which is asked
 * once per lead: source 0 for 0@1, for its two 4s and, alone after source
 * 1 ended, for 0@9 and its end (3); source 1 for 1@2 and for 1@4 1@5 and
 * its end (2); source 2 never.
 */
static void a_leading_source_with_next_before_or_emit_is_not_peeked_per_event(void)
{
	static const struct pts_brsrc_ops *const ops[] = { &fake_before_ops, &fake_emit_ops };
	struct pts_err err = { 0 };
	struct fake f[3];
	struct log l;
	unsigned int k;

	for (k = 0; k < 2; k++) {
		CU_ASSERT_EQUAL(merge_example(f, 3, ops[k], &l, &err), 0);
		CU_ASSERT_EQUAL(f[0].peeks, 4);
		CU_ASSERT_EQUAL(f[1].peeks, 3);
		CU_ASSERT_EQUAL(f[2].peeks, 1);
	}
	CU_ASSERT_EQUAL(f[0].emits, 3);
	CU_ASSERT_EQUAL(f[1].emits, 2);
	CU_ASSERT_EQUAL(f[2].emits, 0);
}

/*
 * One source needs no merge: it is never peeked (a peek may decode ahead
 * and cost), its events pass in its own order (not sorted: 5 before 3),
 * and its end is reported after its last event; a source with emit is
 * asked once, for all of them.
 */
static void one_source_passes_through_unpeeked(void)
{
	static const uint64_t a[] = { 5, 3, 8 };
	static const struct pts_brsrc_ops *const ops[] = { &fake_ops, &fake_emit_ops };
	struct pts_err err = { 0 };
	struct fake f;
	struct log l;
	unsigned int k;

	for (k = 0; k < 2; k++) {
		memset(&l, 0, sizeof(l));
		fake_init(&f, 7, a, 3);
		f.base.ops = ops[k];
		CU_ASSERT_EQUAL(merge(&f, 1, &l, &err), 0);
		CU_ASSERT_STRING_EQUAL(l.s, "0@5 0@3 0@8 end0");
		CU_ASSERT_EQUAL(f.peeks, 0);
	}
	CU_ASSERT_EQUAL(f.emits, 1);
}

/* A dropped event (next says 2) hands nothing on; the merge goes on by time. */
static void dropped_events_are_not_handed_on(void)
{
	static const uint64_t a[] = { 1, DROP, DROP, 6 }, b[] = { 2, DROP, 3 };
	struct pts_err err = { 0 };
	struct fake f[2];
	struct log l;

	sources(f, a, 4, b, 3, &l);
	CU_ASSERT_EQUAL(merge(f, 2, &l, &err), 0);
	CU_ASSERT_STRING_EQUAL(l.s, "0@1 1@2 1@3 end1 0@6 end0");
	sources(f, a, 4, NULL, 0, &l);
	CU_ASSERT_EQUAL(merge(f, 1, &l, &err), 0);
	CU_ASSERT_STRING_EQUAL(l.s, "0@1 0@6 end0");
}

/*
 * A source's failure, in peek (source 1's second peek) or in next
 * (source 0's second next), stops the merge with its code and message;
 * the events before it were handed on. The sources are not closed by the
 * merge.
 */
static void a_source_failure_stops_the_merge_with_its_error(void)
{
	static const uint64_t a[] = { 1, 4 }, b[] = { 2, 3 };
	struct pts_err err = { 0 };
	struct fake f[2];
	struct log l;

	sources(f, a, 2, b, 2, &l);
	f[1].fail_peek_at = 2;
	CU_ASSERT_EQUAL(merge(f, 2, &l, &err), -ENOMEM);
	CU_ASSERT_STRING_EQUAL(err.msg, "fake peek failed at 1");
	CU_ASSERT_STRING_EQUAL(l.s, "0@1 1@2");
	CU_ASSERT(!f[0].closed && !f[1].closed);

	sources(f, a, 2, b, 2, &l);
	f[0].fail_next_at = 2;
	CU_ASSERT_EQUAL(merge(f, 2, &l, &err), -EIO);
	CU_ASSERT_STRING_EQUAL(l.s, "0@1 1@2 1@3 end1");

	sources(f, a, 2, NULL, 0, &l);
	f[0].fail_next_at = 2;
	CU_ASSERT_EQUAL(merge(f, 1, &l, &err), -EIO);
	CU_ASSERT_STRING_EQUAL(l.s, "0@1");
}

/*
 * The sink's failure stops the merge at that event, with the sink's code,
 * inside a source's emit too; one source's end is not reported then.
 */
static void a_sink_failure_stops_the_merge(void)
{
	static const uint64_t a[] = { 1, 3 }, b[] = { 2, 4 };
	static const struct pts_brsrc_ops *const ops[] = { &fake_ops, &fake_emit_ops };
	struct pts_err err = { 0 };
	struct fake f[2];
	struct log l;
	unsigned int k;

	for (k = 0; k < 2; k++) {
		sources(f, a, 2, b, 2, &l);
		f[0].base.ops = f[1].base.ops = ops[k];
		l.fail_at = 3;
		CU_ASSERT_EQUAL(merge(f, 2, &l, &err), -ENOSPC);
		CU_ASSERT_STRING_EQUAL(l.s, "0@1 1@2");
		sources(f, a, 2, NULL, 0, &l);
		f[0].base.ops = ops[k];
		l.fail_at = 2;
		CU_ASSERT_EQUAL(merge(f, 1, &l, &err), -ENOSPC);
		CU_ASSERT_STRING_EQUAL(l.s, "0@1");
	}
}

/* The interface's helpers: stats zeroed before the source fills them, close of NULL. */
static void stats_are_zeroed_before_the_source_fills_them(void)
{
	static const uint64_t a[] = { 1, 2 };
	struct pts_brsrc_stats st;
	const struct pts_branch *br;
	struct pts_err err = { 0 };
	struct fake f;

	fake_init(&f, 0, a, 2);
	memset(&st, 0xff, sizeof(st));
	CU_ASSERT_EQUAL(pts_brsrc_next(&f.base, &br, &err), 1);
	pts_brsrc_stats(&f.base, &st);
	CU_ASSERT_EQUAL(st.branches, 1);
	CU_ASSERT_EQUAL(st.insns, 0);
	CU_ASSERT_EQUAL(st.joins, 0);
	CU_ASSERT_EQUAL(pts_brsrc_done(&f.base), 0);	/* no done op: 0 */
	pts_brsrc_close(NULL);
	pts_brsrc_close(&f.base);
	CU_ASSERT(f.closed);
}

/* perf script text through the interface (fmemopen of a listing). */
static int ps_open(const char *text, FILE **f, struct pts_brsrc **s, struct pts_err *err)
{
	*f = fmemopen((void *)text, strlen(text), "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(*f);
	return pts_perfscript_src_new(*f, "listing.txt", s, err);
}

/*
 * Two branch lines of two CPUs, an error line and a line that is no
 * event. Times since the first event (10.000000100 s): 0, 50, 400 ns.
 * peek reads ahead without handing out: the next event is the one
 * peeked. Stats: 2 branches (the error line is a gap, not a branch), 1
 * line not understood.
 */
static void perf_script_text_is_a_source_of_every_cpu(void)
{
	static const char text[] =
		"prog 10/11 [001] 10.000000100: 1 branches:u: call 401000 main+0x10 (/bin/p) => 402000 f (/bin/p)\n"
		"something perf script says that is not an event\n"
		"prog 10/11 [003] 10.000000150: 1 branches:u: return 402010 f+0x10 (/bin/p) => 401005 main+0x15 (/bin/p)\n"
		" instruction trace error type 1 time 10.000000500 cpu 3 pid 10 tid 11 ip 0x401005 code 6: Trace doesn't match instruction\n";
	const struct pts_branch *br;
	struct pts_brsrc_stats st;
	struct pts_err err = { 0 };
	struct pts_brsrc *s;
	uint64_t ns = 1;
	FILE *f;

	CU_ASSERT_EQUAL_FATAL(ps_open(text, &f, &s, &err), 0);
	CU_ASSERT_EQUAL(s->cpu, PTS_BRSRC_CPUS);
	CU_ASSERT_EQUAL(pts_brsrc_peek(s, &ns, &err), 1);
	CU_ASSERT_EQUAL(ns, 0);
	CU_ASSERT_EQUAL_FATAL(pts_brsrc_next(s, &br, &err), 1);
	CU_ASSERT_EQUAL(br->kind, PTS_BR_CALL);
	CU_ASSERT_EQUAL(br->cpu, 1);
	CU_ASSERT_EQUAL(br->to, 0x402000);
	CU_ASSERT_EQUAL(pts_brsrc_peek(s, &ns, &err), 1);
	CU_ASSERT_EQUAL(ns, 50);
	CU_ASSERT_EQUAL(pts_brsrc_peek(s, &ns, &err), 1);	/* again: the same event */
	CU_ASSERT_EQUAL(ns, 50);
	CU_ASSERT_EQUAL_FATAL(pts_brsrc_next(s, &br, &err), 1);
	CU_ASSERT_EQUAL(br->kind, PTS_BR_RETURN);
	CU_ASSERT_EQUAL(br->cpu, 3);
	CU_ASSERT_EQUAL(br->ts_ns, 50);
	CU_ASSERT_EQUAL_FATAL(pts_brsrc_next(s, &br, &err), 1);
	CU_ASSERT_EQUAL(br->kind, PTS_BR_GAP);
	CU_ASSERT_EQUAL(br->ts_ns, 400);
	CU_ASSERT_EQUAL(pts_brsrc_peek(s, &ns, &err), 0);
	CU_ASSERT_EQUAL(pts_brsrc_next(s, &br, &err), 0);
	CU_ASSERT_EQUAL(pts_brsrc_done(s), strlen(text));
	pts_brsrc_stats(s, &st);
	CU_ASSERT_EQUAL(st.branches, 2);
	CU_ASSERT_EQUAL(st.skipped, 1);
	CU_ASSERT_EQUAL(st.insns, 0);
	CU_ASSERT_EQUAL(st.events, 0);	/* no PT trace events in text */
	pts_brsrc_close(s);
	fclose(f);
}

/*
 * Text without a single event line is the wrong file: at its end the
 * source fails, naming the file and the perf script fields to give.
 */
static void perf_script_text_without_an_event_is_refused_at_its_end(void)
{
	static const char text[] = "# a comment\nhello\n";
	const struct pts_branch *br;
	struct pts_err err = { 0 };
	struct pts_brsrc *s;
	uint64_t ns;
	FILE *f;

	CU_ASSERT_EQUAL_FATAL(ps_open(text, &f, &s, &err), 0);
	CU_ASSERT_EQUAL(pts_brsrc_peek(s, &ns, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "listing.txt: no perf script branch line in 2 "
					      "line(s) (1 not understood)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "perf script --itrace=cr"));
	pts_brsrc_close(s);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(ps_open(text, &f, &s, &err), 0);
	CU_ASSERT_EQUAL(pts_brsrc_next(s, &br, &err), -EINVAL);
	pts_brsrc_close(s);
	fclose(f);
}

/*
 * A perf script source merged with a PT-like fake source: the merge
 * orders them by time like any two sources (the text's 0 and 50 around
 * the fake's 20 and 60).
 */
static void perf_script_and_another_source_merge_by_time(void)
{
	static const char text[] =
		"p 1/1 [000] 1.000000000: 1 branches:u: call 401000 m (/p) => 402000 f (/p)\n"
		"p 1/1 [000] 1.000000050: 1 branches:u: return 402010 f (/p) => 401005 m (/p)\n";
	static const uint64_t t[] = { 20, 60 };
	struct pts_merge_sink sink;
	struct pts_brsrc *src[2];
	struct pts_err err = { 0 };
	struct fake fk;
	struct log l;
	FILE *f;

	memset(&l, 0, sizeof(l));
	CU_ASSERT_EQUAL_FATAL(ps_open(text, &f, &src[0], &err), 0);
	fake_init(&fk, 5, t, 2);
	src[1] = &fk.base;
	sink = (struct pts_merge_sink){ .event = log_event, .ended = log_ended, .ctx = &l };
	CU_ASSERT_EQUAL(pts_merge_run(src, 2, &sink, &err), 0);
	CU_ASSERT_STRING_EQUAL(l.s, "0@0 1@20 0@50 end0 1@60 end1");
	pts_brsrc_close(src[0]);
	fclose(f);
}

PTS_SUITE(session_merge, NULL, NULL,
	  PTS_TEST(events_come_out_by_time_equal_times_by_source_index),
	  PTS_TEST(a_sources_calls_go_to_the_sinks_call_entry_if_it_has_one),
	  PTS_TEST(the_top_source_is_told_until_when_it_leads),
	  PTS_TEST(a_leading_source_with_next_before_or_emit_is_not_peeked_per_event),
	  PTS_TEST(one_source_passes_through_unpeeked),
	  PTS_TEST(dropped_events_are_not_handed_on),
	  PTS_TEST(a_source_failure_stops_the_merge_with_its_error),
	  PTS_TEST(a_sink_failure_stops_the_merge),
	  PTS_TEST(stats_are_zeroed_before_the_source_fills_them),
	  PTS_TEST(perf_script_text_is_a_source_of_every_cpu),
	  PTS_TEST(perf_script_text_without_an_event_is_refused_at_its_end),
	  PTS_TEST(perf_script_and_another_source_merge_by_time));
