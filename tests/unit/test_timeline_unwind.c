// SPDX-License-Identifier: GPL-2.0
/*
 * Frames that the C++ unwinder ends, and a function's cold part. GCC
 * splits a function's unlikely code (error paths, landing pads) into a
 * symbol of its own, foo.cold: execution there is still that call of
 * foo. The unwinder reaches a landing pad by a jump from its own frame;
 * which frame the pad is in, when several frames of its function are
 * open, is told by how many frames the unwinder's walk stepped over: one
 * call of _Unwind_Find_FDE per frame (tl_fn.c, tl_unwinder_role). The
 * address space (made up; 0x100 bytes each):
 *
 *   main 0x1000  foo 0x1100  foo.cold 0x1200  bar 0x1300  baz 0x1400
 *   _Unwind_RaiseException 0x1500  _Unwind_Find_FDE@plt 0x1600
 *   _Unwind_Find_FDE 0x1700  _Unwind_Resume 0x1800
 *   rec(int) 0x1900  rec(int) [clone .cold] 0x1a00
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

static const struct tl_fn fns[] = {
	{ "main", MAIN }, { "foo", FOO }, { "foo.cold", FOO_COLD }, { "bar", BAR },
	{ "baz", BAZ }, { "_Unwind_RaiseException", RAISE },
	{ "_Unwind_Find_FDE@plt", FIND_PLT }, { "_Unwind_Find_FDE", FIND },
	{ "_Unwind_Resume", RESUME }, { "rec(int)", REC },
	{ "rec(int) [clone .cold]", REC_COLD },
};

static void start(void)
{
	tl_fx_start_fns(PTS_SCOPE_USER, TL_FNS(fns), 0, 0);
}

/* A call of 5 bytes (its return address known), a jump or a return. */
static void call(uint64_t from, uint64_t to, uint64_t ts)
{
	tl_fx_br(PTS_BR_CALL, from, 5, to, ts, 0);
}

static void jump(uint64_t from, uint64_t to, uint64_t ts)
{
	tl_fx_br(PTS_BR_JUMP, from, 0, to, ts, 0);
}

static void ret(uint64_t from, uint64_t to, uint64_t ts)
{
	tl_fx_br(PTS_BR_RETURN, from, 0, to, ts, 0);
}

/* n calls of _Unwind_Find_FDE through its PLT from the unwinder at from */
static void finds(uint64_t from, int n, uint64_t ts)
{
	while (n--) {
		call(from, FIND_PLT, ts);
		jump(FIND_PLT + 6, FIND, ts);
		ret(FIND + 0x20, from + 5, ts);
	}
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
	call(MAIN + 0x10, FOO, 110);
	jump(FOO + 0x08, FOO_COLD, 120);
	call(FOO_COLD + 0x10, BAR, 130);
	ret(BAR + 0x20, FOO_COLD + 0x15, 140);
	jump(FOO_COLD + 0x20, FOO + 0x0c, 150);
	ret(FOO + 0x30, MAIN + 0x15, 160);
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
	call(MAIN + 0x10, REC, 110);
	call(REC + 0x10, REC, 120);
	call(REC + 0x10, BAR, 130);
	jump(BAR + 0x08, REC_COLD + 0x40, 140);		/* the inner rec's pad */
	call(REC_COLD + 0x45, BAZ, 150);
	ret(BAZ + 0x20, REC_COLD + 0x4a, 160);
	call(REC_COLD + 0x50, RESUME, 170);
	jump(RESUME + 0x08, REC_COLD + 0x40, 180);	/* the outer rec's pad */
	call(REC_COLD + 0x45, BAZ, 190);
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(),
		"B0 main|B1 rec(int)|B2 rec(int)|B3 bar|E3 bar|B3 baz|E3 baz|"
		"B3 _Unwind_Resume|E3 _Unwind_Resume|E2 rec(int)|B2 baz|E2 baz|E1 rec(int)|E0 main");
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "bar", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "rec(int)", 0)->ts_ns, 180);
	tl_fx_done();
}

/*
 * main -> foo -> foo -> bar, which throws: bar calls
 * _Unwind_RaiseException. Only the outer foo catches. The unwinder finds
 * its own frame's unwind info, then walks bar, the inner foo and the
 * outer foo twice (search, then cleanup): 1 + 2 x 3 calls of
 * _Unwind_Find_FDE, and its jump to foo's handler is into the outer foo.
 */
static void throw_caught_by_an_older_frame_lands_where_the_walk_ended(void)
{
	start();
	tl_fx_br(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	call(MAIN + 0x10, FOO, 110);
	call(FOO + 0x10, FOO, 120);
	call(FOO + 0x10, BAR, 130);
	call(BAR + 0x10, RAISE, 140);
	finds(RAISE + 0x10, 7, 150);
	jump(RAISE + 0x80, FOO + 0x40, 160);	/* the handler */
	call(FOO + 0x45, BAZ, 170);
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(),
		"B0 main|B1 foo|B2 foo|B3 bar|B4 _Unwind_RaiseException|"
		"B5 _Unwind_Find_FDE@plt|E5 _Unwind_Find_FDE@plt|B5 _Unwind_Find_FDE|E5 _Unwind_Find_FDE|"
		"B5 _Unwind_Find_FDE@plt|E5 _Unwind_Find_FDE@plt|B5 _Unwind_Find_FDE|E5 _Unwind_Find_FDE|"
		"B5 _Unwind_Find_FDE@plt|E5 _Unwind_Find_FDE@plt|B5 _Unwind_Find_FDE|E5 _Unwind_Find_FDE|"
		"B5 _Unwind_Find_FDE@plt|E5 _Unwind_Find_FDE@plt|B5 _Unwind_Find_FDE|E5 _Unwind_Find_FDE|"
		"B5 _Unwind_Find_FDE@plt|E5 _Unwind_Find_FDE@plt|B5 _Unwind_Find_FDE|E5 _Unwind_Find_FDE|"
		"B5 _Unwind_Find_FDE@plt|E5 _Unwind_Find_FDE@plt|B5 _Unwind_Find_FDE|E5 _Unwind_Find_FDE|"
		"B5 _Unwind_Find_FDE@plt|E5 _Unwind_Find_FDE@plt|B5 _Unwind_Find_FDE|E5 _Unwind_Find_FDE|"
		"E4 _Unwind_RaiseException|E3 bar|E2 foo|B2 baz|E2 baz|E1 foo|E0 main");
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "_Unwind_RaiseException", 0)->kind, PTS_TLK_UNWIND);
	tl_fx_done();
}

/*
 * The same with 1 + 2 x 2 calls: the walk ended at the inner foo (the
 * innermost frame of foo, as without a count). And a walk the count does
 * not fit (an even count: not two walks of the same frames) lands in the
 * innermost frame of the function, as it did before.
 */
static void throw_caught_by_the_innermost_frame_or_an_unknown_walk_lands_there(void)
{
	int n;

	for (n = 5; n <= 6; n++) {
		start();
		tl_fx_br(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
		call(MAIN + 0x10, FOO, 110);
		call(FOO + 0x10, FOO, 120);
		call(FOO + 0x10, BAR, 130);
		call(BAR + 0x10, RAISE, 140);
		finds(RAISE + 0x10, n, 150);
		jump(RAISE + 0x80, FOO + 0x40, 160);
		call(FOO + 0x45, BAZ, 170);
		tl_fx_finish();
		CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_BEGIN, "baz", 0)->depth, 3);
		tl_fx_done();
	}
}

/*
 * _Unwind_Resume walks once: its own frame, then down from its caller.
 * Here the inner rec's pad calls bar, which calls _Unwind_Resume: its
 * frame, bar, the inner rec and the outer rec are 4 calls, the outer
 * rec's pad. "Not the frame that called _Unwind_Resume" alone would have
 * taken the inner rec, whose callee is bar.
 */
static void unwind_resume_lands_where_its_walk_ended(void)
{
	start();
	tl_fx_br(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	call(MAIN + 0x10, REC, 110);
	call(REC + 0x10, REC, 120);
	call(REC + 0x20, BAR, 130);		/* the inner rec's pad calls bar */
	call(BAR + 0x10, RESUME, 140);		/* which calls _Unwind_Resume */
	finds(RESUME + 0x10, 4, 150);
	jump(RESUME + 0x80, REC_COLD + 0x40, 160);
	call(REC_COLD + 0x45, BAZ, 170);
	tl_fx_finish();
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_BEGIN, "baz", 0)->depth, 2);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "rec(int)", 0)->ts_ns, 160);
	tl_fx_done();
}

PTS_SUITE(timeline_unwind, NULL, NULL,
	  PTS_TEST(cold_part_runs_in_its_functions_frame),
	  PTS_TEST(landing_pad_in_a_cold_part_unwinds_to_its_functions_frame),
	  PTS_TEST(throw_caught_by_an_older_frame_lands_where_the_walk_ended),
	  PTS_TEST(throw_caught_by_the_innermost_frame_or_an_unknown_walk_lands_there),
	  PTS_TEST(unwind_resume_lands_where_its_walk_ended))
