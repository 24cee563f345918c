// SPDX-License-Identifier: GPL-2.0
/*
 * Functions of a stripped object: no names, bounds from the FDEs of its
 * .eh_frame (decode/ehframe.h), and parts of functions (GCC's cold
 * parts) told by their FDE's first rule, which defines the CFA: entered
 * with the frame of their function set up. The address space (made up;
 * 0x100 bytes each, unnamed unless said):
 *
 *   main 0x1000  foo 0x1100  a part 0x1200  bar 0x1300  baz 0x1400
 *   rec 0x1900  a part 0x1a00  _Unwind_Resume 0x1800 (named)
 *   a frameless part 0x1b00 (an FDE that begins with the CIE's rule)
 */
#include "unit.h"
#include "tl_feed.h"

#define MAIN 0x1000ULL
#define FOO 0x1100ULL
#define FOO_PART 0x1200ULL
#define BAR 0x1300ULL
#define BAZ 0x1400ULL
#define RESUME 0x1800ULL
#define REC 0x1900ULL
#define REC_PART 0x1a00ULL
#define REC_COLD 0x1b00ULL

static const struct tl_fn fns[] = {
	{ NULL, MAIN }, { NULL, FOO }, { TL_UNNAMED_PART, FOO_PART }, { NULL, BAR },
	{ NULL, BAZ }, { "_Unwind_Resume", RESUME }, { NULL, REC }, { TL_UNNAMED_PART, REC_PART },
	{ NULL, REC_COLD },
};

static void start(void)
{
	tl_fx_start_fns(PTS_SCOPE_USER, TL_FNS(fns), 0, 0);
	tl_fx_br(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
}

/*
 * Each unnamed function is one of its own, named by its first byte as
 * perf names code of no symbol ("[unknown]"), with its address: a call
 * from one to another nests, and a jump to another's first byte is a
 * tail call (bar replaces baz), where all of the object's unknown code
 * was one function before.
 */
static void unnamed_functions_are_functions_of_their_own(void)
{
	start();
	tl_fx_call(MAIN + 0x10, FOO, 110);
	tl_fx_call(FOO + 0x10, BAZ, 120);
	tl_fx_jump(BAZ + 0x08, BAR, 130);
	tl_fx_ret(BAR + 0x20, FOO + 0x15, 140);
	tl_fx_ret(FOO + 0x30, MAIN + 0x15, 150);
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(),
		"B0 [unknown] 0x1000|B1 [unknown] 0x1100|B2 [unknown] 0x1400|"
		"E2 [unknown] 0x1400|B2 [unknown] 0x1300|E2 [unknown] 0x1300|"
		"E1 [unknown] 0x1100|E0 [unknown] 0x1000");
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1400", 0)->kind, PTS_TLK_JUMP);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1300", 0)->kind, PTS_TLK_RETURN);
	tl_fx_done();
}

/*
 * foo jumps to the first byte of a part, which calls bar and jumps back
 * into foo's middle; foo returns: one slice of foo, bar under it (not a
 * tail call to the part).
 */
static void unnamed_part_runs_in_the_frame_that_jumps_there(void)
{
	start();
	tl_fx_call(MAIN + 0x10, FOO, 110);
	tl_fx_jump(FOO + 0x08, FOO_PART, 120);
	tl_fx_call(FOO_PART + 0x10, BAR, 130);
	tl_fx_ret(BAR + 0x20, FOO_PART + 0x15, 140);
	tl_fx_jump(FOO_PART + 0x20, FOO + 0x0c, 150);
	tl_fx_ret(FOO + 0x30, MAIN + 0x15, 160);
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(),
		"B0 [unknown] 0x1000|B1 [unknown] 0x1100|B2 [unknown] 0x1300|"
		"E2 [unknown] 0x1300|E1 [unknown] 0x1100|E0 [unknown] 0x1000");
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1100", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1100", 0)->ts_ns, 160);
	tl_fx_done();
}

/*
 * In a recursion, the inner rec's part jumps back into rec's middle:
 * the inner frame goes on (the jump back is to the function the frame
 * was entered at), not an unwind to the outer rec, open deeper.
 */
static void jump_back_from_a_part_stays_in_the_inner_frame(void)
{
	start();
	tl_fx_call(MAIN + 0x10, REC, 110);
	tl_fx_call(REC + 0x10, REC, 120);
	tl_fx_jump(REC + 0x20, REC_PART + 0x08, 130);
	tl_fx_call(REC_PART + 0x10, BAR, 140);
	tl_fx_ret(BAR + 0x20, REC_PART + 0x15, 150);
	tl_fx_jump(REC_PART + 0x20, REC + 0x30, 160);
	tl_fx_ret(REC + 0x40, REC + 0x15, 170);
	tl_fx_ret(REC + 0x40, MAIN + 0x15, 180);
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(),
		"B0 [unknown] 0x1000|B1 [unknown] 0x1900|B2 [unknown] 0x1900|"
		"B3 [unknown] 0x1300|E3 [unknown] 0x1300|E2 [unknown] 0x1900|"
		"E1 [unknown] 0x1900|E0 [unknown] 0x1000");
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1900", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1900", 0)->ts_ns, 170);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1900", 1)->kind, PTS_TLK_RETURN);
	tl_fx_done();
}

/*
 * A landing pad in rec's middle (GCC keeps the pad with its call site
 * and jumps from there to the part): the part calls _Unwind_Resume,
 * whose jump to the pad of the outer rec lands in that frame; the
 * part's jump back after that frame's cleanup stays there.
 */
static void part_of_a_frame_below_is_that_frame(void)
{
	start();
	tl_fx_call(MAIN + 0x10, REC, 110);
	tl_fx_call(REC + 0x10, REC, 120);
	tl_fx_call(REC + 0x10, BAR, 130);
	tl_fx_jump(BAR + 0x08, REC + 0x50, 140);		/* the inner rec's pad */
	tl_fx_jump(REC + 0x58, REC_PART, 150);
	tl_fx_call(REC_PART + 0x10, RESUME, 160);
	tl_fx_jump(RESUME + 0x08, REC + 0x50, 170);		/* the outer rec's pad */
	tl_fx_jump(REC + 0x58, REC_PART, 180);
	tl_fx_call(REC_PART + 0x30, BAZ, 190);
	tl_fx_ret(BAZ + 0x20, REC_PART + 0x35, 200);
	tl_fx_jump(REC_PART + 0x40, REC + 0x60, 210);
	tl_fx_ret(REC + 0x70, MAIN + 0x15, 220);
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(),
		"B0 [unknown] 0x1000|B1 [unknown] 0x1900|B2 [unknown] 0x1900|"
		"B3 [unknown] 0x1300|E3 [unknown] 0x1300|B3 _Unwind_Resume|E3 _Unwind_Resume|"
		"E2 [unknown] 0x1900|B2 [unknown] 0x1400|E2 [unknown] 0x1400|"
		"E1 [unknown] 0x1900|E0 [unknown] 0x1000");
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1900", 1)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1900", 1)->ts_ns, 220);
	tl_fx_done();
}

/*
 * A cold part entered before rec has set up a frame (PGO builds put
 * such blocks there): its FDE is a function's, so the inner rec's jump
 * to its first byte is a tail call; its jump back into rec's middle
 * goes on in the frame it came from (the inner rec's, which then
 * returns into the outer rec), not a longjmp to the outer rec, open
 * deeper: no code the frame called made that jump. The slice after it
 * is rec's again, named as its call was (the ground truth, named from
 * an unstripped twin, keeps the call of rec across both jumps).
 */
static void jump_back_from_a_frameless_part_stays_in_the_inner_frame(void)
{
	start();
	tl_fx_call(MAIN + 0x10, REC, 110);
	tl_fx_call(REC + 0x10, REC, 120);
	tl_fx_jump(REC + 0x08, REC_COLD, 130);
	tl_fx_jump(REC_COLD + 0x10, REC + 0x20, 140);
	tl_fx_ret(REC + 0x40, REC + 0x15, 150);
	tl_fx_ret(REC + 0x40, MAIN + 0x15, 160);
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(),
		"B0 [unknown] 0x1000|B1 [unknown] 0x1900|B2 [unknown] 0x1900|"
		"E2 [unknown] 0x1900|B2 [unknown] 0x1b00|E2 [unknown] 0x1b00|"
		"B2 [unknown] 0x1900|E2 [unknown] 0x1900|E1 [unknown] 0x1900|E0 [unknown] 0x1000");
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1b00", 0)->kind, PTS_TLK_JUMP);
	/* the call of rec goes on: named as the call was, at rec's first byte */
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_BEGIN, "[unknown] 0x1900", 2)->addr, REC);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_BEGIN, "[unknown] 0x1900", 2)->offset, 0);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1900", 1)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1900", 1)->ts_ns, 150);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1900", 2)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1900", 2)->ts_ns, 160);
	tl_fx_done();
}

/*
 * The same jump into rec's middle from a function that foo, not rec,
 * jumped to: no part of rec (nothing of rec ran in that frame), so a
 * jump to a point of the frame open deeper, which unwinds to it.
 */
static void jump_into_another_function_from_a_tail_call_unwinds(void)
{
	start();
	tl_fx_call(MAIN + 0x10, REC, 110);
	tl_fx_call(REC + 0x10, FOO, 120);
	tl_fx_jump(FOO + 0x08, REC_COLD, 130);
	tl_fx_jump(REC_COLD + 0x10, REC + 0x20, 140);
	tl_fx_ret(REC + 0x40, MAIN + 0x15, 150);
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(),
		"B0 [unknown] 0x1000|B1 [unknown] 0x1900|B2 [unknown] 0x1100|"
		"E2 [unknown] 0x1100|B2 [unknown] 0x1b00|E2 [unknown] 0x1b00|"
		"E1 [unknown] 0x1900|E0 [unknown] 0x1000");
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1b00", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1900", 0)->ts_ns, 150);
	tl_fx_done();
}

PTS_SUITE(timeline_stripped, NULL, NULL,
	  PTS_TEST(unnamed_functions_are_functions_of_their_own),
	  PTS_TEST(unnamed_part_runs_in_the_frame_that_jumps_there),
	  PTS_TEST(jump_back_from_a_part_stays_in_the_inner_frame),
	  PTS_TEST(part_of_a_frame_below_is_that_frame),
	  PTS_TEST(jump_back_from_a_frameless_part_stays_in_the_inner_frame),
	  PTS_TEST(jump_into_another_function_from_a_tail_call_unwinds))
