// SPDX-License-Identifier: GPL-2.0
/*
 * A thread's stats (pts_tl_thread_stats): the times of its first and last
 * events and their count. The capture's trigger goes on the thread's track
 * at its own time, which is no event of the thread's code: it moves the
 * thread's time (later events are not placed before it) but neither the
 * first nor the last event's time of the stats.
 */
#include "unit.h"
#include "tl_feed.h"

static struct pts_tl_thread_stats stats(void)
{
	struct pts_tl_thread_stats st;

	memset(&st, 0, sizeof(st));
	CU_ASSERT_EQUAL(pts_tl_nr_threads(tl_fx.tl), 1);
	CU_ASSERT_EQUAL(pts_tl_thread_stats(tl_fx.tl, 0, &st), 0);
	return st;
}

static void trigger_after_the_last_event_leaves_the_last_time_at_that_event(void)
{
	struct pts_tl_thread_stats st;

	tl_fx_start(PTS_SCOPE_USER, NULL, 0, 0);
	tl_fx_br(PTS_BR_CALL, 0x401000, 5, 0x402000, 100, 0);
	tl_fx_br(PTS_BR_RETURN, 0x402010, 1, 0x401005, 200, 0);
	tl_fx_ev(PTS_BR_TRIGGER, 0, 0, 0, 500, 0, "exit");
	st = stats();
	CU_ASSERT_EQUAL(st.first_ns, 100);
	CU_ASSERT_EQUAL(st.last_ns, 200);
	CU_ASSERT_EQUAL(st.events, 2);
	tl_fx_finish();
	tl_fx_done();
}

static void event_after_the_trigger_is_the_last_and_not_placed_before_it(void)
{
	struct pts_tl_thread_stats st;

	tl_fx_start(PTS_SCOPE_USER, NULL, 0, 0);
	tl_fx_br(PTS_BR_CALL, 0x401000, 5, 0x402000, 100, 0);
	tl_fx_ev(PTS_BR_TRIGGER, 0, 0, 0, 500, 0, "uprobe");
	tl_fx_br(PTS_BR_RETURN, 0x402010, 1, 0x401005, 700, 0);
	CU_ASSERT_EQUAL(stats().last_ns, 700);
	tl_fx_finish();
	tl_fx_done();

	/* an event stamped before the trigger is clamped to it, and counted so */
	tl_fx_start(PTS_SCOPE_USER, NULL, 0, 0);
	tl_fx_br(PTS_BR_CALL, 0x401000, 5, 0x402000, 100, 0);
	tl_fx_ev(PTS_BR_TRIGGER, 0, 0, 0, 500, 0, "uprobe");
	tl_fx_br(PTS_BR_RETURN, 0x402010, 1, 0x401005, 400, 0);
	st = stats();
	CU_ASSERT_EQUAL(st.first_ns, 100);
	CU_ASSERT_EQUAL(st.last_ns, 500);
	CU_ASSERT_EQUAL(st.events, 2);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_TIME_BACKWARDS), 1);
	tl_fx_finish();
	tl_fx_done();
}

static void trigger_before_the_first_event_is_neither_its_first_nor_last_time(void)
{
	struct pts_tl_thread_stats st;

	tl_fx_start(PTS_SCOPE_USER, NULL, 0, 0);
	tl_fx_ev(PTS_BR_TRIGGER, 0, 0, 0, 50, 0, "start");
	st = stats();
	CU_ASSERT_EQUAL(st.first_ns, 0);
	CU_ASSERT_EQUAL(st.last_ns, 0);
	CU_ASSERT_EQUAL(st.events, 0);
	tl_fx_br(PTS_BR_CALL, 0x401000, 5, 0x402000, 100, 0);
	tl_fx_br(PTS_BR_RETURN, 0x402010, 1, 0x401005, 300, 0);
	st = stats();
	CU_ASSERT_EQUAL(st.first_ns, 100);
	CU_ASSERT_EQUAL(st.last_ns, 300);
	CU_ASSERT_EQUAL(st.events, 2);
	tl_fx_finish();
	tl_fx_done();
}

static void every_event_is_counted_once_calls_and_returns_also_as_such(void)
{
	struct pts_tl_thread_stats st;

	tl_fx_start(PTS_SCOPE_USER, NULL, 0, 0);
	tl_fx_br(PTS_BR_ENABLED, 0, 0, 0x401000, 100, 0);
	tl_fx_br(PTS_BR_CALL, 0x401000, 5, 0x402000, 200, 0);
	tl_fx_br(PTS_BR_JUMP, 0x402010, 2, 0x403000, 300, 0);
	tl_fx_br(PTS_BR_CALL, 0x403010, 5, 0x404000, 400, 0);
	tl_fx_br(PTS_BR_RETURN, 0x404010, 1, 0x403015, 500, 0);
	tl_fx_ev(PTS_BR_GAP, 0x403020, 0, 0, 600, 0, "overflow");
	tl_fx_ev(PTS_BR_TRIGGER, 0, 0, 0, 650, 0, "exit");
	st = stats();
	CU_ASSERT_EQUAL(st.events, 6);
	CU_ASSERT_EQUAL(st.calls, 2);
	CU_ASSERT_EQUAL(st.returns, 1);
	CU_ASSERT_EQUAL(st.gaps, 1);
	CU_ASSERT_EQUAL(st.first_ns, 100);
	CU_ASSERT_EQUAL(st.last_ns, 600);
	tl_fx_finish();
	tl_fx_done();
}

PTS_SUITE(timeline_stats, NULL, NULL,
	  PTS_TEST(every_event_is_counted_once_calls_and_returns_also_as_such),
	  PTS_TEST(trigger_after_the_last_event_leaves_the_last_time_at_that_event),
	  PTS_TEST(event_after_the_trigger_is_the_last_and_not_placed_before_it),
	  PTS_TEST(trigger_before_the_first_event_is_neither_its_first_nor_last_time))
