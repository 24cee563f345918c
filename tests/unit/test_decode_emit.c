// SPDX-License-Identifier: GPL-2.0
/*
 * pts_ptdec_emit: the serial decoder handing its events to a sink itself
 * (brsrc.h's emit), with its block loop inside the call. It must hand out
 * what pts_ptdec_next does, in the same order; bounded, stop at the first
 * event not before the bound and keep it for the next call; stop at the
 * sink's nonzero return; hand the calls and returns its block loop
 * resolves to the sink's entries for their kinds.
 *
 * Code (raw bytes mapped at 0x401000):
 *   401000 call 401006 (e8 01 00 00 00)   401005 ret   401006 ret
 * Stream (libipt's encoder): PSB+, TIP.PGE(401000), TSC, TIP(401005) for
 * the inner ret, TSC, TIP.PGD(suppressed) at the outer one: a cbr, the
 * enable, a call, a return and the disable, from blocks of the plain loop.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"
#include "code_fixture.h"

#define MAX_EV 16

CODE_FIXTURE_SUITE(fx, "emit", 0xe8, 0x01, 0x00, 0x00, 0x00, 0xc3, 0xc3);

/* The sink's entry an event came through (struct pts_brsrc_to). */
enum entry { BY_NEXT, BY_EVENT, BY_CALL, BY_RET };

struct ev {
	enum pts_br_kind kind;
	uint64_t from, to, ts_ns;
	enum entry by;
};

/* A sink's record of what it was handed; stop_at: fail at that event (0: never). */
struct got {
	struct ev ev[MAX_EV];
	unsigned int n, stop_at;
};

static void stream(struct pt_gen *g)
{
	gen_init(g);
	gen_psb_plus(g, 1000);
	gen_ip(g, ppt_tip_pge, 0x401000);
	gen_tsc(g, 5000);
	gen_ip(g, ppt_tip, 0x401005);
	gen_tsc(g, 9000);
	gen_ip_suppressed(g, ppt_tip_pgd);
}

static void put(struct got *got, const struct pts_branch *br, enum entry by)
{
	if (got->n < MAX_EV)
		got->ev[got->n] = (struct ev){ br->kind, br->from, br->to, br->ts_ns, by };
	got->n++;
}

static int sink_by(void *ctx, unsigned int idx, const struct pts_branch *br, enum entry by)
{
	struct got *got = ctx;

	CU_ASSERT_EQUAL(idx, 7);
	put(got, br, by);
	return got->n == got->stop_at ? -EINTR : 0;
}

static int sink(void *ctx, unsigned int idx, const struct pts_branch *br, struct pts_err *err)
{
	return sink_by(ctx, idx, br, BY_EVENT);
}

/* The entries for one kind: handed that kind only. */
static int sink_call(void *ctx, unsigned int idx, const struct pts_branch *br,
		     struct pts_err *err)
{
	CU_ASSERT_EQUAL(br->kind, PTS_BR_CALL);
	return sink_by(ctx, idx, br, BY_CALL);
}

static int sink_ret(void *ctx, unsigned int idx, const struct pts_branch *br,
		    struct pts_err *err)
{
	CU_ASSERT_EQUAL(br->kind, PTS_BR_RETURN);
	return sink_by(ctx, idx, br, BY_RET);
}

static int emit(struct pts_ptdec *d, bool bounded, uint64_t until_ns, struct got *got)
{
	const struct pts_brsrc_to to = { sink, got, 7, sink_call, sink_ret };
	struct pts_err err = { 0 };

	return pts_ptdec_emit(d, bounded, until_ns, &to, &err);
}

/* Every event of the stream through pts_ptdec_next. */
static void by_next(struct pts_imgset *set, struct got *want)
{
	const struct pts_branch *br;
	struct pt_gen g;
	struct pts_ptdec *d;

	stream(&g);
	d = code_fixture_decoder(&g, set);
	*want = (struct got){ 0 };
	while (pts_ptdec_next(d, &br) == 1)
		put(want, br, BY_NEXT);
	pts_ptdec_free(d);
	gen_done(&g);
}

static void same_events(const struct got *a, const struct got *b)
{
	unsigned int i;

	CU_ASSERT_EQUAL_FATAL(a->n, b->n);
	for (i = 0; i < a->n && i < MAX_EV; i++) {
		CU_ASSERT_EQUAL(a->ev[i].kind, b->ev[i].kind);
		CU_ASSERT_EQUAL(a->ev[i].from, b->ev[i].from);
		CU_ASSERT_EQUAL(a->ev[i].to, b->ev[i].to);
		CU_ASSERT_EQUAL(a->ev[i].ts_ns, b->ev[i].ts_ns);
	}
}

static void emit_hands_out_the_events_of_next_in_order(void)
{
	struct pts_imgset *set = code_fixture_set(&fx);
	struct got want, got = { 0 };
	struct pt_gen g;
	struct pts_ptdec *d;

	by_next(set, &want);
	CU_ASSERT_EQUAL_FATAL(want.n, 5);
	CU_ASSERT_EQUAL(want.ev[2].kind, PTS_BR_CALL);
	CU_ASSERT_EQUAL(want.ev[3].kind, PTS_BR_RETURN);
	stream(&g);
	d = code_fixture_decoder(&g, set);
	CU_ASSERT_EQUAL(emit(d, false, 0, &got), PTS_BRSRC_END);
	same_events(&got, &want);
	CU_ASSERT_EQUAL(emit(d, false, 0, &got), PTS_BRSRC_END);	/* nothing left */
	CU_ASSERT_EQUAL(got.n, want.n);
	pts_ptdec_free(d);
	gen_done(&g);
	pts_imgset_free(set);
}

/*
 * Bounded at the time of the return (its TSC is later than the PSB+'s):
 * the cbr, the enable and the call, then 3 with the return kept; the rest
 * follow in the next call.
 */
static void a_bounded_emit_keeps_the_first_event_not_before_the_bound(void)
{
	struct pts_imgset *set = code_fixture_set(&fx);
	struct got want, got = { 0 };
	unsigned int before = 0;
	struct pt_gen g;
	struct pts_ptdec *d;
	uint64_t bound;

	by_next(set, &want);
	CU_ASSERT_EQUAL_FATAL(want.n, 5);
	bound = want.ev[3].ts_ns;
	while (want.ev[before].ts_ns < bound)
		before++;
	CU_ASSERT_EQUAL_FATAL(before, 3);
	stream(&g);
	d = code_fixture_decoder(&g, set);
	CU_ASSERT_EQUAL(emit(d, true, bound, &got), PTS_BRSRC_LATER);
	CU_ASSERT_EQUAL(got.n, before);
	CU_ASSERT_EQUAL(emit(d, true, bound, &got), PTS_BRSRC_LATER);	/* asked again: the same */
	CU_ASSERT_EQUAL(got.n, before);
	CU_ASSERT_EQUAL(emit(d, true, UINT64_MAX, &got), PTS_BRSRC_END);
	same_events(&got, &want);
	pts_ptdec_free(d);
	gen_done(&g);
	pts_imgset_free(set);
}

static void the_sinks_failure_stops_emit_after_that_event(void)
{
	struct pts_imgset *set = code_fixture_set(&fx);
	struct got want, got = { .stop_at = 3 };
	struct pt_gen g;
	struct pts_ptdec *d;

	by_next(set, &want);
	stream(&g);
	d = code_fixture_decoder(&g, set);
	CU_ASSERT_EQUAL(emit(d, false, 0, &got), -EINTR);
	CU_ASSERT_EQUAL(got.n, 3);
	got.stop_at = 0;
	CU_ASSERT_EQUAL(emit(d, false, 0, &got), PTS_BRSRC_END);
	same_events(&got, &want);
	pts_ptdec_free(d);
	gen_done(&g);
	pts_imgset_free(set);
}

/*
 * The call and the return end blocks of the plain loop, which resolves
 * them by their class: each goes to the sink's entry for its kind, the
 * other events to event (sink_call and sink_ret check the kind).
 */
static void the_loops_call_and_return_go_to_the_entries_for_their_kind(void)
{
	static const enum entry by[] = { BY_EVENT, BY_EVENT, BY_CALL, BY_RET, BY_EVENT };
	struct pts_imgset *set = code_fixture_set(&fx);
	struct got want, got = { 0 };
	struct pt_gen g;
	struct pts_ptdec *d;
	unsigned int i;

	by_next(set, &want);
	stream(&g);
	d = code_fixture_decoder(&g, set);
	CU_ASSERT_EQUAL(emit(d, false, 0, &got), PTS_BRSRC_END);
	same_events(&got, &want);
	for (i = 0; i < got.n && i < MAX_EV; i++)
		CU_ASSERT_EQUAL(got.ev[i].by, by[i]);
	pts_ptdec_free(d);
	gen_done(&g);
	pts_imgset_free(set);
}

PTS_SUITE(decode_emit, suite_init, suite_cleanup,
	  PTS_TEST(emit_hands_out_the_events_of_next_in_order),
	  PTS_TEST(a_bounded_emit_keeps_the_first_event_not_before_the_bound),
	  PTS_TEST(the_sinks_failure_stops_emit_after_that_event),
	  PTS_TEST(the_loops_call_and_return_go_to_the_entries_for_their_kind));
