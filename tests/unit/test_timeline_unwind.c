// SPDX-License-Identifier: GPL-2.0
/*
 * Frames that the C++ unwinder ends, and a function's cold part. GCC
 * splits a function's unlikely code (error paths, landing pads) into a
 * symbol of its own, foo.cold: execution there is still that call of
 * foo. The unwinder reaches a landing pad by a jump from its own frame;
 * which frame the pad is in, when several frames of its function are
 * open, is told by how many frames the unwinder's last walk stepped
 * over: one call of _Unwind_Find_FDE per frame (tl_fn.c,
 * tl_unwinder_role). The
 * address space (made up; 0x100 bytes each):
 *
 *   main 0x1000  foo 0x1100  foo.cold 0x1200  bar 0x1300  baz 0x1400
 *   _Unwind_RaiseException 0x1500  _Unwind_Find_FDE@plt 0x1600
 *   _Unwind_Find_FDE 0x1700  _Unwind_Resume 0x1800
 *   rec(int) 0x1900  rec(int) [clone .cold] 0x1a00
 *   uw_init_context_1 0x1b00  _Unwind_RaiseException_Phase2 0x1c00
 *   uw_frame_state_for 0x1d00  _Unwind_ForcedUnwind 0x1e00
 *   unwind_stop 0x1f00  __longjmp_cancel 0x2000  __pthread_unwind_next 0x2100
 */
#include "unit.h"
#include "tl_feed.h"

#define MAIN 0x1000ULL
#define FOO 0x1100ULL
#define FOO_COLD 0x1200ULL
#define BAR 0x1300ULL
#define BAZ 0x1400ULL
#define RAISE 0x1500ULL
#define FIND_PLT 0x1600ULL
#define FIND 0x1700ULL
#define RESUME 0x1800ULL
#define REC 0x1900ULL
#define REC_COLD 0x1a00ULL
#define INIT 0x1b00ULL
#define PHASE2 0x1c00ULL
#define STATE 0x1d00ULL
#define FORCED 0x1e00ULL
#define STOP 0x1f00ULL
#define LONGJMP 0x2000ULL
#define UNWIND_NEXT 0x2100ULL

static const struct tl_fn fns[] = {
	{ "main", MAIN }, { "foo", FOO }, { "foo.cold", FOO_COLD }, { "bar", BAR },
	{ "baz", BAZ }, { "_Unwind_RaiseException", RAISE },
	{ "_Unwind_Find_FDE@plt", FIND_PLT }, { "_Unwind_Find_FDE", FIND },
	{ "_Unwind_Resume", RESUME }, { "rec(int)", REC },
	{ "rec(int) [clone .cold]", REC_COLD }, { "uw_init_context_1", INIT },
	{ "_Unwind_RaiseException_Phase2", PHASE2 }, { "uw_frame_state_for", STATE },
	{ "_Unwind_ForcedUnwind", FORCED }, { "unwind_stop", STOP },
	{ "__longjmp_cancel", LONGJMP }, { "__pthread_unwind_next", UNWIND_NEXT },
};

static void start(void)
{
	tl_fx_start_fns(PTS_SCOPE_USER, TL_FNS(fns), 0, 0);
}

/* uw_frame_state_for, called at from, looks up one frame's unwind info */
static void state_for(uint64_t from, uint64_t ts)
{
	tl_fx_call(from, STATE, ts);
	tl_fx_call(STATE + 0x10, FIND_PLT, ts);
	tl_fx_jump(FIND_PLT + 6, FIND, ts);
	tl_fx_ret(FIND + 0x20, STATE + 0x15, ts);
	tl_fx_ret(STATE + 0x30, from + 5, ts);
}

/*
 * The walks of libgcc's unwinder whose frame runs u: its own frame's
 * (uw_init_context_1), then search frames stepped to from u itself (the
 * search phase of _Unwind_RaiseException; 0: none), then cleanup frames
 * from _Unwind_RaiseException_Phase2.
 */
static void walks(uint64_t u, int search, int cleanup, uint64_t ts)
{
	tl_fx_call(u + 0x10, INIT, ts);
	state_for(INIT + 0x10, ts);
	tl_fx_ret(INIT + 0x30, u + 0x15, ts);
	while (search--)
		state_for(u + 0x20, ts);
	tl_fx_call(u + 0x30, PHASE2, ts);
	while (cleanup--)
		state_for(PHASE2 + 0x10, ts);
	tl_fx_ret(PHASE2 + 0x30, u + 0x35, ts);
}

/*
 * foo branches to its cold part (the first byte of foo.cold), which
 * calls bar and jumps back into foo's middle; foo returns: one slice of
 * foo, bar under it.
 */
static void cold_part_runs_in_its_functions_frame(void)
{
	start();
	tl_fx_br(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	tl_fx_call(MAIN + 0x10, FOO, 110);
	tl_fx_jump(FOO + 0x08, FOO_COLD, 120);
	tl_fx_call(FOO_COLD + 0x10, BAR, 130);
	tl_fx_ret(BAR + 0x20, FOO_COLD + 0x15, 140);
	tl_fx_jump(FOO_COLD + 0x20, FOO + 0x0c, 150);
	tl_fx_ret(FOO + 0x30, MAIN + 0x15, 160);
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(), "B0 main|B1 foo|B2 bar|E2 bar|E1 foo|E0 main");
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "foo", 0)->ts_ns, 160);
	tl_fx_done();
}

/*
 * A landing pad in the cold part (where GCC puts them): the unwinder's
 * jump into rec(int) [clone .cold] unwinds to the frame of rec(int)
 * (bar ends), and its cleanup's call of baz is rec's; _Unwind_Resume
 * then goes on to the older rec's pad, in the cold part too.
 */
static void landing_pad_in_a_cold_part_unwinds_to_its_functions_frame(void)
{
	start();
	tl_fx_br(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	tl_fx_call(MAIN + 0x10, REC, 110);
	tl_fx_call(REC + 0x10, REC, 120);
	tl_fx_call(REC + 0x10, BAR, 130);
	tl_fx_jump(BAR + 0x08, REC_COLD + 0x40, 140);		/* the inner rec's pad */
	tl_fx_call(REC_COLD + 0x45, BAZ, 150);
	tl_fx_ret(BAZ + 0x20, REC_COLD + 0x4a, 160);
	tl_fx_call(REC_COLD + 0x50, RESUME, 170);
	tl_fx_jump(RESUME + 0x08, REC_COLD + 0x40, 180);	/* the outer rec's pad */
	tl_fx_call(REC_COLD + 0x45, BAZ, 190);
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(),
		"B0 main|B1 rec(int)|B2 rec(int)|B3 bar|E3 bar|B3 baz|E3 baz|"
		"B3 _Unwind_Resume|E3 _Unwind_Resume|E2 rec(int)|B2 baz|E2 baz|E1 rec(int)|E0 main");
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "bar", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "rec(int)", 0)->ts_ns, 180);
	tl_fx_done();
}

/*
 * GCC lays a function's landing pads one after another, each ending in
 * its call of _Unwind_Resume, which saves the address of the next pad.
 * The inner rec's pad calls _Unwind_Resume, whose jump (no walk of
 * libgcc's shape seen) goes on to the outer rec's pad, the one just
 * after that call: the unwinder's landing, in the outer rec, the inner
 * one unwound past. Taken as a stack switch's return by a jump to where
 * the call of _Unwind_Resume saved, it ended _Unwind_Resume alone, and
 * the outer pad's call of baz ran in the inner rec ("E3 _Unwind_Resume|
 * B3 baz").
 */
static void a_pad_just_after_a_call_of_unwind_resume_is_the_older_frames(void)
{
	start();
	tl_fx_br(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	tl_fx_call(MAIN + 0x10, REC, 110);
	tl_fx_call(REC + 0x10, REC, 120);
	tl_fx_call(REC + 0x10, BAR, 130);
	tl_fx_jump(BAR + 0x08, REC_COLD + 0x40, 140);		/* the inner rec's pad */
	tl_fx_call(REC_COLD + 0x50, RESUME, 150);		/* saves REC_COLD + 0x55 */
	tl_fx_jump(RESUME + 0x08, REC_COLD + 0x55, 160);	/* the outer rec's pad */
	tl_fx_call(REC_COLD + 0x60, BAZ, 170);
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(),
		"B0 main|B1 rec(int)|B2 rec(int)|B3 bar|E3 bar|"
		"B3 _Unwind_Resume|E3 _Unwind_Resume|E2 rec(int)|B2 baz|E2 baz|E1 rec(int)|E0 main");
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "rec(int)", 0)->ts_ns, 160);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "rec(int)", 0)->kind, PTS_TLK_UNWIND);
	tl_fx_done();
}

/* main -> foo -> foo -> bar, which calls _Unwind_RaiseException (a throw) */
static void throw_from_bar(void)
{
	start();
	tl_fx_br(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	tl_fx_call(MAIN + 0x10, FOO, 110);
	tl_fx_call(FOO + 0x10, FOO, 120);
	tl_fx_call(FOO + 0x10, BAR, 130);
	tl_fx_call(BAR + 0x10, RAISE, 140);
}

/*
 * Only the outer foo catches. The unwinder looks up its own frame, then
 * walks bar, the inner foo and the outer foo twice (search, then
 * cleanup): its jump to foo's handler is into the outer foo, and the
 * handler's call of baz is at depth 2.
 */
static void throw_caught_by_an_older_frame_lands_where_the_walk_ended(void)
{
	throw_from_bar();
	walks(RAISE, 3, 3, 150);
	tl_fx_jump(RAISE + 0x80, FOO + 0x40, 160);	/* the handler */
	tl_fx_call(FOO + 0x45, BAZ, 170);
	tl_fx_finish();
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_BEGIN, "baz", 0)->depth, 2);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "_Unwind_RaiseException", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "bar", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_UNWIND_GUESSED), 0);
	tl_fx_done();
}

/*
 * The handler is main's, but the inner foo has cleanups: the search
 * walks bar, both foo and main, the cleanup phase stops at the inner
 * foo's landing pad (cxx_unwind's recursion). The last walk counts.
 */
static void cleanup_in_the_inner_frame_lands_there_whatever_the_search_walked(void)
{
	throw_from_bar();
	walks(RAISE, 4, 2, 150);
	tl_fx_jump(RAISE + 0x80, FOO + 0x40, 160);	/* the inner foo's cleanup */
	tl_fx_call(FOO + 0x45, BAZ, 170);
	tl_fx_finish();
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_BEGIN, "baz", 0)->depth, 3);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_UNWIND_GUESSED), 0);
	tl_fx_done();
}

/*
 * Walks this count does not know (here no search walk before the
 * cleanup walk of _Unwind_RaiseException): the innermost frame of foo,
 * as without a count, and the summary says that an older one was open
 * (PTS_TLD_UNWIND_GUESSED).
 */
static void walks_of_another_shape_land_in_the_innermost_frame_and_say_so(void)
{
	throw_from_bar();
	walks(RAISE, 0, 3, 150);
	tl_fx_jump(RAISE + 0x80, FOO + 0x40, 160);
	tl_fx_call(FOO + 0x45, BAZ, 170);
	tl_fx_finish();
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_BEGIN, "baz", 0)->depth, 3);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_UNWIND_GUESSED), 1);
	tl_fx_done();
}

/*
 * _Unwind_Resume walks once, from its caller down. Here the inner rec's
 * pad calls bar, which calls _Unwind_Resume: bar, the inner rec and the
 * outer rec, whose pad it is. "Not the frame that called
 * _Unwind_Resume" alone would have taken the inner rec (its callee is
 * bar).
 */
static void unwind_resume_lands_where_its_walk_ended(void)
{
	start();
	tl_fx_br(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	tl_fx_call(MAIN + 0x10, REC, 110);
	tl_fx_call(REC + 0x10, REC, 120);
	tl_fx_call(REC + 0x20, BAR, 130);		/* the inner rec's pad calls bar */
	tl_fx_call(BAR + 0x10, RESUME, 140);		/* which calls _Unwind_Resume */
	walks(RESUME, 0, 3, 150);
	tl_fx_jump(RESUME + 0x80, REC_COLD + 0x40, 160);
	tl_fx_call(REC_COLD + 0x45, BAZ, 170);
	tl_fx_finish();
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_BEGIN, "baz", 0)->depth, 2);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "rec(int)", 0)->ts_ns, 160);
	tl_fx_done();
}

/*
 * glibc's forced unwinding of C frames built without -fexceptions: each
 * pthread_cleanup_push is a __sigsetjmp into a buffer of its frame, and
 * _Unwind_ForcedUnwind's stop function longjmps there from inside the
 * cleanup walk, when the walk has stepped to k frames below the
 * unwinder's (the frame holding the buffer).
 */
static void forced_walk_longjmps(int k, uint64_t target, uint64_t ts)
{
	tl_fx_call(FORCED + 0x10, INIT, ts);
	state_for(INIT + 0x10, ts);
	tl_fx_ret(INIT + 0x30, FORCED + 0x15, ts);
	tl_fx_call(FORCED + 0x30, PHASE2, ts);
	while (k-- > 1) {
		state_for(PHASE2 + 0x10, ts);
		tl_fx_call(PHASE2 + 0x20, STOP, ts);
		tl_fx_ret(STOP + 0x30, PHASE2 + 0x25, ts);
	}
	state_for(PHASE2 + 0x10, ts);
	tl_fx_call(PHASE2 + 0x20, STOP, ts);
	tl_fx_call(STOP + 0x10, LONGJMP, ts);
	tl_fx_jump(LONGJMP + 0x08, target, ts);
}

/*
 * pthread_exit from bar, under two frames of rec: the first longjmp lands
 * in the inner rec (the walk: bar, the inner rec), whose cleanup (baz)
 * returns and calls __pthread_unwind_next, which unwinds on at 190.
 */
static void first_cleanup_then_unwind_next(void)
{
	start();
	tl_fx_br(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	tl_fx_call(MAIN + 0x10, REC, 110);
	tl_fx_call(REC + 0x10, REC, 120);
	tl_fx_call(REC + 0x10, BAR, 130);
	tl_fx_call(BAR + 0x10, FORCED, 140);
	forced_walk_longjmps(2, REC + 0x40, 150);
	tl_fx_call(REC + 0x45, BAZ, 160);
	tl_fx_ret(BAZ + 0x20, REC + 0x4a, 170);
	tl_fx_call(REC + 0x50, UNWIND_NEXT, 180);
	tl_fx_call(UNWIND_NEXT + 0x10, FORCED, 190);
}

/*
 * pthread_exit from bar, under two frames of rec with a cleanup each:
 * the first longjmp lands in the inner rec (the walk: bar, the inner
 * rec), whose cleanup (baz) calls __pthread_unwind_next; that walk
 * (__pthread_unwind_next, the inner rec, the outer rec) lands in the
 * outer rec, at the same address. "The innermost frame of rec" put the
 * second baz one frame too deep (tests/programs/cleanup.c).
 */
static void longjmp_from_a_forced_unwind_lands_where_its_walk_ended(void)
{
	first_cleanup_then_unwind_next();
	forced_walk_longjmps(3, REC + 0x40, 200);
	tl_fx_call(REC + 0x45, BAZ, 210);
	tl_fx_finish();
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_BEGIN, "baz", 0)->depth, 3);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_BEGIN, "baz", 1)->depth, 2);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "bar", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "rec(int)", 0)->ts_ns, 200);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_UNWIND_GUESSED), 0);
	tl_fx_done();
}

/*
 * Two cleanups pushed in one frame: the inner one's __pthread_unwind_next
 * goes on to the outer one's buffer in the same frame (the walk:
 * __pthread_unwind_next, the inner rec). Not "never the frame that called
 * __pthread_unwind_next", as for _Unwind_Resume. A walk that ends at a
 * frame without unwind info (no FDE) has the same shape and may land
 * further down: the innermost frame is taken (unless its buffer at that
 * point was used, below), and the summary says so.
 */
static void second_cleanup_of_the_same_frame_stays_in_it(void)
{
	first_cleanup_then_unwind_next();
	forced_walk_longjmps(2, REC + 0x60, 200);
	tl_fx_call(REC + 0x65, BAZ, 210);
	tl_fx_finish();
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_BEGIN, "baz", 1)->depth, 3);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "__pthread_unwind_next", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_UNWIND_GUESSED), 1);
	tl_fx_done();
}

/*
 * The same walk (__pthread_unwind_next, the inner rec) longjmping to the
 * point the inner rec already landed at: a frame without unwind info
 * ends the walk there (-fno-asynchronous-unwind-tables), and the stop
 * function jumps to the newest buffer left. The inner rec's buffer at
 * that point was used by the first longjmp (a buffer is jumped to once):
 * the outer rec's is the one (tests/programs/cleanup_c.c built without
 * unwind tables, in unwind). Without the rule the second baz ran in the
 * inner rec, one frame too deep.
 */
static void used_cleanup_buffer_sends_the_longjmp_to_an_older_frame(void)
{
	first_cleanup_then_unwind_next();
	forced_walk_longjmps(2, REC + 0x40, 200);
	tl_fx_call(REC + 0x45, BAZ, 210);
	tl_fx_finish();
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_BEGIN, "baz", 0)->depth, 3);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_BEGIN, "baz", 1)->depth, 2);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "rec(int)", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "rec(int)", 0)->ts_ns, 200);
	tl_fx_done();
}

PTS_SUITE(timeline_unwind, NULL, NULL,
	  PTS_TEST(cold_part_runs_in_its_functions_frame),
	  PTS_TEST(landing_pad_in_a_cold_part_unwinds_to_its_functions_frame),
	  PTS_TEST(a_pad_just_after_a_call_of_unwind_resume_is_the_older_frames),
	  PTS_TEST(throw_caught_by_an_older_frame_lands_where_the_walk_ended),
	  PTS_TEST(cleanup_in_the_inner_frame_lands_there_whatever_the_search_walked),
	  PTS_TEST(walks_of_another_shape_land_in_the_innermost_frame_and_say_so),
	  PTS_TEST(unwind_resume_lands_where_its_walk_ended),
	  PTS_TEST(longjmp_from_a_forced_unwind_lands_where_its_walk_ended),
	  PTS_TEST(second_cleanup_of_the_same_frame_stays_in_it),
	  PTS_TEST(used_cleanup_buffer_sends_the_longjmp_to_an_older_frame))
