// SPDX-License-Identifier: GPL-2.0
/*
 * Timeline builder: stack switches (swapcontext, a coroutine library's
 * or a runtime's own). A switch leaves the running stack by a `ret` to
 * an older frame's return address and comes back by a `ret` to the
 * address its own switch call saved, which no open frame holds: the
 * frames it left begin again there (tl_left.c). Each test feeds
 * hand-written branch events for a made-up address space (functions
 * 0x100 bytes each) and states the timeline shape by hand (tl_sink.h
 * rendering), as glibc's swapcontext runs them (its `ret` on the other
 * context's stack; the first one to makecontext's function):
 *
 *   main 0x1000  sw 0x1100 (swapcontext)  gen 0x1200  produce 0x1300
 *   other 0x1400  give 0x1500
 */
#include "unit.h"
#include "tl_feed.h"

#define MAIN 0x1000ULL
#define SW 0x1100ULL
#define GEN 0x1200ULL
#define PRODUCE 0x1300ULL
#define OTHER 0x1400ULL
#define GIVE 0x1500ULL

static const struct tl_fn fns[] = {
	{ "main", MAIN }, { "sw", SW }, { "gen", GEN }, { "produce", PRODUCE },
	{ "other", OTHER }, { "give", GIVE },
};

static void start(void)
{
	tl_fx_start_fns(PTS_SCOPE_USER, TL_FNS(fns), 0, 0);
}

/* One branch event; len: bytes of the instruction at from (0 unknown). */
#define ev tl_fx_br
#define finish tl_fx_finish
#define done tl_fx_done
#define rec tl_fx_rec

/*
 * The shape every test here starts from: main (B0) calls the switch
 * (B1 sw, saving MAIN+0x15), whose first entry into gen replaces it; gen
 * calls produce (B2), which calls the switch (B3 sw, saving
 * PRODUCE+0x15); its `ret` to MAIN+0x15 leaves gen's stack (times
 * 100..150).
 */
static void leave_gen_stack(void)
{
	start();
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	ev(PTS_BR_CALL, MAIN + 0x10, 5, SW, 110, 0);
	ev(PTS_BR_RETURN, SW + 0x20, 0, GEN, 120, 0);
	ev(PTS_BR_CALL, GEN + 0x10, 5, PRODUCE, 130, 0);
	ev(PTS_BR_CALL, PRODUCE + 0x10, 5, SW, 140, 0);
	ev(PTS_BR_RETURN, SW + 0x20, 0, MAIN + 0x15, 150, 0);
}

/*
 * main resumes a generator twice; the generator yields from inside
 * produce. The second resume returns to where the generator's switch
 * call saved: gen and produce begin again in place of main's second
 * switch call, and produce's return is a return into gen (without the
 * kept stack: a return used as a jump, into produce's middle, and then
 * into gen's).
 */
static void switch_back_into_a_left_stack_resumes_its_frames(void)
{
	leave_gen_stack();
	ev(PTS_BR_CALL, MAIN + 0x30, 5, SW, 160, 0);		/* B1 sw, saves MAIN+0x35 */
	ev(PTS_BR_RETURN, SW + 0x20, 0, PRODUCE + 0x15, 170, 0);	/* resumed: gen, produce */
	ev(PTS_BR_RETURN, PRODUCE + 0x20, 0, GEN + 0x15, 180, 0);	/* E2 produce */
	ev(PTS_BR_CALL, GEN + 0x30, 5, PRODUCE, 190, 0);	/* B2 produce */
	ev(PTS_BR_CALL, PRODUCE + 0x10, 5, SW, 200, 0);		/* B3 sw */
	/* gen now returns where main's second switch call would */
	ev(PTS_BR_RETURN, SW + 0x20, 0, MAIN + 0x35, 210, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 sw|E1 sw|B1 gen|B2 produce|B3 sw|E3 sw|E2 produce|E1 gen|"
		"B1 sw|E1 sw|B1 gen|B2 produce|E2 produce|B2 produce|B3 sw|E3 sw|E2 produce|"
		"E1 gen|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "sw", 2)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "sw", 2)->ts_ns, 170);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "gen", 1)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "gen", 1)->ts_ns, 170);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "produce", 1)->ts_ns, 170);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "produce", 1)->addr, PRODUCE);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "produce", 1)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "produce", 1)->ts_ns, 180);
	/* the switch back to main leaves gen's stack again (its frames unwound) */
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "gen", 1)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "gen", 1)->ts_ns, 210);
	/* only the first entry, a `ret` to gen's first byte, was one used as a jump */
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_RETURN_AS_JUMP), 1);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 0);
	done();
}

/*
 * Two coroutines left, each waiting in its own switch call: each switch
 * back resumes the stack whose call saved its target, not the newest.
 */
static void each_switch_back_resumes_the_stack_whose_call_saved_its_target(void)
{
	leave_gen_stack();
	ev(PTS_BR_CALL, MAIN + 0x20, 5, SW, 160, 0);		/* B1 sw, saves MAIN+0x25 */
	ev(PTS_BR_RETURN, SW + 0x20, 0, OTHER, 170, 0);		/* other replaces sw */
	ev(PTS_BR_CALL, OTHER + 0x10, 5, GIVE, 180, 0);		/* B2 give */
	ev(PTS_BR_CALL, GIVE + 0x10, 5, SW, 190, 0);		/* B3 sw, saves GIVE+0x15 */
	ev(PTS_BR_RETURN, SW + 0x20, 0, MAIN + 0x25, 200, 0);	/* other's stack left */
	ev(PTS_BR_CALL, MAIN + 0x30, 5, SW, 210, 0);		/* B1 sw */
	ev(PTS_BR_RETURN, SW + 0x20, 0, PRODUCE + 0x15, 220, 0);	/* gen's, the older */
	ev(PTS_BR_RETURN, PRODUCE + 0x20, 0, GEN + 0x15, 230, 0);	/* E2 produce */
	ev(PTS_BR_CALL, GEN + 0x20, 5, SW, 240, 0);		/* B2 sw, saves GEN+0x25 */
	ev(PTS_BR_RETURN, SW + 0x20, 0, GIVE + 0x15, 250, 0);	/* straight into other's */
	ev(PTS_BR_RETURN, GIVE + 0x20, 0, OTHER + 0x15, 260, 0);	/* E3 give */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 sw|E1 sw|B1 gen|B2 produce|B3 sw|E3 sw|E2 produce|E1 gen|"
		"B1 sw|E1 sw|B1 other|B2 give|B3 sw|E3 sw|E2 give|E1 other|"
		"B1 sw|E1 sw|B1 gen|B2 produce|E2 produce|B2 sw|E2 sw|B2 other|B3 give|E3 give|"
		"E2 other|E1 gen|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "other", 1)->ts_ns, 250);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "give", 1)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_RETURN_AS_JUMP), 2);
	done();
}

/* A gap ends everything: a stack left before it is not resumed after it. */
static void a_stack_left_before_a_gap_is_not_resumed_after_it(void)
{
	leave_gen_stack();
	ev(PTS_BR_GAP, MAIN + 0x18, 0, 0, 155, 0);
	ev(PTS_BR_ENABLED, 0, 0, MAIN + 0x20, 158, 0);
	ev(PTS_BR_CALL, MAIN + 0x30, 5, SW, 160, 0);
	/* as before the rule: a return used as a jump, into produce's middle */
	ev(PTS_BR_RETURN, SW + 0x20, 0, PRODUCE + 0x15, 170, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 sw|E1 sw|B1 gen|B2 produce|B3 sw|E3 sw|E2 produce|E1 gen|E0 main|"
		"I gap|B0 main|B1 sw|E1 sw|B1 produce|E1 produce|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "produce", 1)->kind, PTS_TLK_JUMP);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_RETURN_AS_JUMP), 2);
	done();
}

/*
 * Two coroutines of one scheduler, each switching through the same
 * helper (yield: its switch call saves the same address in both
 * stacks), resumed in turn (the older left stack first): the target
 * does not tell the stacks apart, and the frames resumed must be the
 * ones the code then returns through (A's yield returns into A).
 */
static void a_switch_back_both_stacks_saved_resumes_no_wrong_frames(void)
{
	start();
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);			/* B0 main */
	ev(PTS_BR_CALL, MAIN + 0x10, 5, SW, 110, 0);		/* B1 sw, saves MAIN+0x15 */
	ev(PTS_BR_RETURN, SW + 0x20, 0, GEN, 120, 0);		/* A (gen) replaces sw */
	ev(PTS_BR_CALL, GEN + 0x10, 5, GIVE, 130, 0);		/* B2 yield (give) */
	ev(PTS_BR_CALL, GIVE + 0x10, 5, SW, 140, 0);		/* B3 sw, saves GIVE+0x15 */
	ev(PTS_BR_RETURN, SW + 0x20, 0, MAIN + 0x15, 150, 0);	/* A's stack left */
	ev(PTS_BR_CALL, MAIN + 0x10, 5, SW, 160, 0);		/* B1 sw, saves MAIN+0x15 */
	ev(PTS_BR_RETURN, SW + 0x20, 0, OTHER, 170, 0);		/* B (other) replaces sw */
	ev(PTS_BR_CALL, OTHER + 0x10, 5, GIVE, 180, 0);		/* B2 yield */
	ev(PTS_BR_CALL, GIVE + 0x10, 5, SW, 190, 0);		/* B3 sw, saves GIVE+0x15 */
	ev(PTS_BR_RETURN, SW + 0x20, 0, MAIN + 0x15, 200, 0);	/* B's stack left */
	ev(PTS_BR_CALL, MAIN + 0x10, 5, SW, 210, 0);		/* B1 sw */
	ev(PTS_BR_RETURN, SW + 0x20, 0, GIVE + 0x15, 220, 0);	/* A resumed, in yield */
	ev(PTS_BR_RETURN, GIVE + 0x20, 0, GEN + 0x15, 230, 0);	/* yield returns into A */
	ev(PTS_BR_CALL, GEN + 0x10, 5, GIVE, 240, 0);		/* B2 yield */
	ev(PTS_BR_CALL, GIVE + 0x10, 5, SW, 250, 0);		/* B3 sw */
	ev(PTS_BR_RETURN, SW + 0x20, 0, MAIN + 0x15, 260, 0);	/* A's stack left */
	ev(PTS_BR_CALL, MAIN + 0x10, 5, SW, 270, 0);		/* B1 sw */
	ev(PTS_BR_RETURN, SW + 0x20, 0, GIVE + 0x15, 280, 0);	/* B resumed, in yield */
	ev(PTS_BR_RETURN, GIVE + 0x20, 0, OTHER + 0x15, 290, 0);	/* yield returns into B */
	ev(PTS_BR_CALL, OTHER + 0x10, 5, GIVE, 300, 0);		/* B2 yield */
	ev(PTS_BR_CALL, GIVE + 0x10, 5, SW, 310, 0);		/* B3 sw */
	ev(PTS_BR_RETURN, SW + 0x20, 0, MAIN + 0x15, 320, 0);	/* B's stack left */
	/*
	 * Each switch back (to give's switch call site, saved in both stacks)
	 * resumes neither: give runs in place of main's switch call, as
	 * before stacks were kept, and its return (to A's call site, then
	 * B's) resumes the stack that call site is of, under main. Taking
	 * the newest stack instead nests A's frames in B's: "B1 other|B2
	 * give|E2 give|B2 gen|...".
	 */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 sw|E1 sw|B1 gen|B2 give|B3 sw|E3 sw|E2 give|E1 gen|"
		"B1 sw|E1 sw|B1 other|B2 give|B3 sw|E3 sw|E2 give|E1 other|"
		"B1 sw|E1 sw|B1 give|E1 give|B1 gen|B2 give|B3 sw|E3 sw|E2 give|E1 gen|"
		"B1 sw|E1 sw|B1 give|E1 give|B1 other|B2 give|B3 sw|E3 sw|E2 give|E1 other|"
		"E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "give", 2)->kind, PTS_TLK_JUMP);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "gen", 1)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "gen", 1)->ts_ns, 230);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "other", 1)->ts_ns, 290);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_RETURN_AS_JUMP), 4);
	done();
}

/*
 * gen left nine times, each waiting in a switch call of its own (at
 * GEN + 0x10 + 8 s): only the newest 8 stacks are kept, so the switch
 * back to the first one's call is a return used as a jump into gen's
 * middle, and the one to the second's resumes it.
 */
static void the_oldest_kept_stack_is_forgotten_first(void)
{
	uint64_t ts = 110, s;

	start();
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	for (s = 0; s < 9; s++) {
		ev(PTS_BR_CALL, MAIN + 0x10, 5, SW, ts, 0);		/* saves MAIN+0x15 */
		ev(PTS_BR_RETURN, SW + 0x20, 0, GEN, ts + 1, 0);	/* gen replaces sw */
		ev(PTS_BR_CALL, GEN + 0x10 + 8 * s, 5, SW, ts + 2, 0);
		ev(PTS_BR_RETURN, SW + 0x20, 0, MAIN + 0x15, ts + 3, 0);	/* left */
		ts += 10;
	}
	ev(PTS_BR_CALL, MAIN + 0x10, 5, SW, 300, 0);
	ev(PTS_BR_RETURN, SW + 0x20, 0, GEN + 0x15, 310, 0);		/* the first's: forgotten */
	ev(PTS_BR_RETURN, GEN + 0x30, 0, MAIN + 0x15, 320, 0);		/* E1 gen */
	ev(PTS_BR_CALL, MAIN + 0x10, 5, SW, 330, 0);
	ev(PTS_BR_RETURN, SW + 0x20, 0, GEN + 0x15 + 8, 340, 0);	/* the second's: kept */
	finish();
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "gen", 9)->kind, PTS_TLK_JUMP);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "gen", 9)->ts_ns, 310);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "gen", 10)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "gen", 10)->ts_ns, 340);
	done();
}

/*
 * A stack of more than 64 frames is not kept: gen, 63 nested calls of
 * produce and the switch call (65) are not resumed; with 62 (64 frames)
 * they are.
 */
static void left_stack_depth(unsigned int nested, enum pts_tl_kind want)
{
	uint64_t ts = 130;
	unsigned int k;

	start();
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	ev(PTS_BR_CALL, MAIN + 0x10, 5, SW, 110, 0);
	ev(PTS_BR_RETURN, SW + 0x20, 0, GEN, 120, 0);
	ev(PTS_BR_CALL, GEN + 0x10, 5, PRODUCE, ts++, 0);
	for (k = 1; k < nested; k++)
		ev(PTS_BR_CALL, PRODUCE + 0x10, 5, PRODUCE, ts++, 0);
	ev(PTS_BR_CALL, PRODUCE + 0x40, 5, SW, ts++, 0);		/* saves PRODUCE+0x45 */
	ev(PTS_BR_RETURN, SW + 0x20, 0, MAIN + 0x15, ts++, 0);	/* left */
	ev(PTS_BR_CALL, MAIN + 0x30, 5, SW, ts++, 0);
	ev(PTS_BR_RETURN, SW + 0x20, 0, PRODUCE + 0x45, 1000, 0);
	finish();
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "produce", (int)nested)->kind, want);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "produce", (int)nested)->ts_ns, 1000);
	done();
}

static void a_stack_of_more_than_64_frames_is_not_kept(void)
{
	left_stack_depth(62, PTS_TLK_RETURN);
	left_stack_depth(63, PTS_TLK_JUMP);
}

/*
 * gen ends by a switch call that never returns (its last instruction, a
 * call of a noreturn function, saves PRODUCE's first byte: produce
 * follows gen), and that switch leaves gen's stack. A later `push; ret`
 * into produce goes to that saved address, but nothing resumes a
 * noreturn call: produce is entered, as a jump, in place of other.
 */
static void a_ret_to_a_function_entry_resumes_no_kept_stack(void)
{
	start();
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	ev(PTS_BR_CALL, MAIN + 0x10, 5, SW, 110, 0);		/* saves MAIN+0x15 */
	ev(PTS_BR_RETURN, SW + 0x20, 0, GEN, 120, 0);		/* gen replaces sw */
	ev(PTS_BR_CALL, GEN + 0xfb, 5, SW, 130, 0);		/* saves PRODUCE */
	ev(PTS_BR_RETURN, SW + 0x20, 0, MAIN + 0x15, 140, 0);	/* gen's stack left */
	ev(PTS_BR_CALL, MAIN + 0x20, 5, OTHER, 150, 0);		/* B1 other */
	ev(PTS_BR_RETURN, OTHER + 0x20, 0, PRODUCE, 160, 0);	/* push; ret */
	ev(PTS_BR_RETURN, PRODUCE + 0x20, 0, MAIN + 0x25, 170, 0);	/* E1 produce */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 sw|E1 sw|B1 gen|B2 sw|E2 sw|E1 gen|"
		"B1 other|E1 other|B1 produce|E1 produce|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "produce", 0)->kind, PTS_TLK_JUMP);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "produce", 0)->kind, PTS_TLK_RETURN);
	done();
}

/*
 * An exec when no frame is open (main's return, its target unknown,
 * ended the last) still forgets the stacks left: the new program's
 * switch call returning to the address gen's old stack saved is a
 * return used as a jump, into produce's middle, not the old gen resumed.
 */
static void a_stack_left_before_an_exec_is_not_resumed_after_it(void)
{
	leave_gen_stack();
	ev(PTS_BR_RETURN, MAIN + 0x40, 0, 0, 160, 0);		/* E0 main: no frame open */
	ev(PTS_BR_EXEC, 0, 0, 0, 170, 0);
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 180, 0);			/* the same program again */
	ev(PTS_BR_CALL, MAIN + 0x30, 5, SW, 190, 0);
	ev(PTS_BR_RETURN, SW + 0x20, 0, PRODUCE + 0x15, 200, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 sw|E1 sw|B1 gen|B2 produce|B3 sw|E3 sw|E2 produce|E1 gen|E0 main|"
		"B0 main|B1 sw|E1 sw|B1 produce|E1 produce|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "produce", 1)->kind, PTS_TLK_JUMP);
	done();
}

PTS_SUITE(timeline_switch, NULL, NULL,
	  PTS_TEST(switch_back_into_a_left_stack_resumes_its_frames),
	  PTS_TEST(each_switch_back_resumes_the_stack_whose_call_saved_its_target),
	  PTS_TEST(a_stack_left_before_a_gap_is_not_resumed_after_it),
	  PTS_TEST(a_switch_back_both_stacks_saved_resumes_no_wrong_frames),
	  PTS_TEST(the_oldest_kept_stack_is_forgotten_first),
	  PTS_TEST(a_stack_of_more_than_64_frames_is_not_kept),
	  PTS_TEST(a_ret_to_a_function_entry_resumes_no_kept_stack),
	  PTS_TEST(a_stack_left_before_an_exec_is_not_resumed_after_it));
