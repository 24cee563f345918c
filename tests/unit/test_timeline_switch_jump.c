// SPDX-License-Identifier: GPL-2.0
/*
 * Timeline builder: stack switches that return by a jump (Boost.Context's
 * jump_fcontext, green-thread libraries: the switch loads the other
 * stack pointer, then `pop %r8; jmp *%r8`). The jump to where an older
 * frame's call saved leaves the frames above it; the one to where a kept
 * stack's call saved resumes that stack (tl_left.c, tl_left_jump). Each
 * test feeds hand-written branch events for a made-up address space
 * (functions 0x100 bytes each) and states the timeline shape by hand
 * (tl_sink.h rendering):
 *
 *   main 0x1000  fx 0x1100 (the switch)  fa 0x1200  serve 0x1300
 *   other 0x1400  give 0x1500  swapc 0x1600 (a switch by `ret`)
 *
 * A fiber is entered the first time by the switch's jump to its
 * function's first byte (a tail call: it runs in place of the switch
 * call that started it).
 */
#include "unit.h"
#include "tl_feed.h"

#define MAIN 0x1000ULL
#define FX 0x1100ULL
#define FA 0x1200ULL
#define SERVE 0x1300ULL
#define OTHER 0x1400ULL
#define GIVE 0x1500ULL
#define SWAPC 0x1600ULL

static const struct tl_fn fns[] = {
	{ "main", MAIN }, { "fx", FX }, { "fa", FA }, { "serve", SERVE },
	{ "other", OTHER }, { "give", GIVE }, { "swapc", SWAPC },
};

#define call tl_fx_call
#define jump tl_fx_jump
#define ret tl_fx_ret
#define finish tl_fx_finish
#define done tl_fx_done
#define rec tl_fx_rec

/* the switch's `jmp *%r8`, its last instruction */
#define FX_JMP (FX + 0x20)

/*
 * The shape most tests here start from: main (B0) calls the switch (B1
 * fx, saving MAIN+0x15), whose jump to fa's first byte replaces it; fa
 * calls serve (B2), which calls the switch (B3 fx, saving SERVE+0x15);
 * its jump to MAIN+0x15 leaves fa's stack (times 100..150).
 */
static void leave_fa_stack(void)
{
	tl_fx_start_fns(PTS_SCOPE_USER, TL_FNS(fns), 0, 0);
	tl_fx_br(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	call(MAIN + 0x10, FX, 110);
	jump(FX_JMP, FA, 120);
	call(FA + 0x10, SERVE, 130);
	call(SERVE + 0x10, FX, 140);
	jump(FX_JMP, MAIN + 0x15, 150);
}

/*
 * main resumes fiber fa: the switch's jump to where fa's switch call
 * saved begins fa and serve again in place of main's second switch
 * call, and serve's return is a return into fa. Without the rule the
 * jump lands in serve's middle, in place of fx, and serve's return is
 * one used as a jump, into fa's middle.
 */
static void a_switch_back_by_jump_resumes_the_left_frames(void)
{
	leave_fa_stack();
	call(MAIN + 0x30, FX, 160);			/* B1 fx, saves MAIN+0x35 */
	jump(FX_JMP, SERVE + 0x15, 170);		/* resumed: fa, serve */
	ret(SERVE + 0x20, FA + 0x15, 180);		/* E2 serve */
	call(FA + 0x20, FX, 190);			/* B2 fx, saves FA+0x25 */
	jump(FX_JMP, MAIN + 0x35, 200);			/* back to main: fa left again */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 fx|E1 fx|B1 fa|B2 serve|B3 fx|E3 fx|E2 serve|E1 fa|"
		"B1 fx|E1 fx|B1 fa|B2 serve|E2 serve|B2 fx|E2 fx|E1 fa|E0 main");
	/* the switch call that resumed fa ends by its jump, at the jump */
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "fx", 2)->kind, PTS_TLK_JUMP);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "fx", 2)->ts_ns, 170);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "fa", 1)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "fa", 1)->ts_ns, 170);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "serve", 1)->addr, SERVE);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "serve", 1)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "serve", 1)->ts_ns, 180);
	/* the switch out: the frames it leaves unwind, as at a longjmp */
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "fx", 3)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "fa", 1)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "fa", 1)->ts_ns, 200);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_INFERRED), 0);
	done();
}

/*
 * fa ends by a switch call that never returns (its last instruction, a
 * call of a noreturn function, saves serve's first byte: serve follows
 * fa), and that switch leaves fa's stack. A later tail jump into serve
 * (jmp *%rax) goes to that saved address, but nothing resumes a noreturn
 * call: serve replaces other, as a tail call.
 */
static void a_jump_to_a_function_entry_resumes_no_kept_stack(void)
{
	tl_fx_start_fns(PTS_SCOPE_USER, TL_FNS(fns), 0, 0);
	tl_fx_br(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	call(MAIN + 0x10, FX, 110);			/* saves MAIN+0x15 */
	jump(FX_JMP, FA, 120);				/* fa replaces fx */
	call(FA + 0xfb, FX, 130);			/* saves SERVE */
	jump(FX_JMP, MAIN + 0x15, 140);			/* fa's stack left */
	call(MAIN + 0x20, OTHER, 150);			/* B1 other */
	jump(OTHER + 0x20, SERVE, 160);			/* a tail jump */
	ret(SERVE + 0x20, MAIN + 0x25, 170);		/* E1 serve */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 fx|E1 fx|B1 fa|B2 fx|E2 fx|E1 fa|"
		"B1 other|E1 other|B1 serve|E1 serve|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "serve", 0)->kind, PTS_TLK_JUMP);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "serve", 0)->kind, PTS_TLK_RETURN);
	done();
}

/*
 * serve runs on main's stack too, and jumps inside itself (a jump
 * table's case) to SERVE+0x15, the address fa's kept serve frame's
 * switch call saved: a jump inside the running function, which resumes
 * nothing (the decoder's window drops most such jumps; a jump that comes
 * through is one all the same).
 */
static void a_jump_inside_the_running_function_resumes_no_kept_stack(void)
{
	leave_fa_stack();
	call(MAIN + 0x30, SERVE, 160);			/* B1 serve, saves MAIN+0x35 */
	jump(SERVE + 0x40, SERVE + 0x15, 170);		/* its own case label */
	ret(SERVE + 0x20, MAIN + 0x35, 180);		/* E1 serve */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 fx|E1 fx|B1 fa|B2 serve|B3 fx|E3 fx|E2 serve|E1 fa|"
		"B1 serve|E1 serve|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "serve", 1)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "serve", 1)->ts_ns, 180);
	done();
}

/*
 * Two fibers, fa and other, each yield to main through the same helper
 * (give: its switch call saves GIVE+0x15 on both stacks), and main
 * resumes them in turn, the older first. The jump back to give's switch
 * call site does not tell the stacks apart: it resumes neither (give
 * runs in place of main's switch call, as a jump), and give's `ret` to
 * its caller's call site, of one stack only, resumes that stack. Taking
 * the newest stack instead resumes other's frames where fa runs on:
 * "B1 other|B2 give|E2 give|B2 fa|...".
 */
static void a_jump_back_both_stacks_saved_resumes_no_wrong_frames(void)
{
	tl_fx_start_fns(PTS_SCOPE_USER, TL_FNS(fns), 0, 0);
	tl_fx_br(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);	/* B0 main */
	call(MAIN + 0x10, FX, 110);			/* B1 fx, saves MAIN+0x15 */
	jump(FX_JMP, FA, 120);				/* fa replaces fx */
	call(FA + 0x10, GIVE, 130);			/* B2 give */
	call(GIVE + 0x10, FX, 140);			/* B3 fx, saves GIVE+0x15 */
	jump(FX_JMP, MAIN + 0x15, 150);			/* fa's stack left */
	call(MAIN + 0x10, FX, 160);			/* B1 fx */
	jump(FX_JMP, OTHER, 170);			/* other replaces fx */
	call(OTHER + 0x10, GIVE, 180);			/* B2 give */
	call(GIVE + 0x10, FX, 190);			/* B3 fx, saves GIVE+0x15 */
	jump(FX_JMP, MAIN + 0x15, 200);			/* other's stack left */
	call(MAIN + 0x10, FX, 210);			/* B1 fx */
	jump(FX_JMP, GIVE + 0x15, 220);			/* fa's turn: in give */
	ret(GIVE + 0x20, FA + 0x15, 230);		/* give returns into fa */
	call(FA + 0x10, GIVE, 240);
	call(GIVE + 0x10, FX, 250);
	jump(FX_JMP, MAIN + 0x15, 260);			/* fa's stack left */
	call(MAIN + 0x10, FX, 270);
	jump(FX_JMP, GIVE + 0x15, 280);			/* other's turn: in give */
	ret(GIVE + 0x20, OTHER + 0x15, 290);		/* give returns into other */
	call(OTHER + 0x10, GIVE, 300);
	call(GIVE + 0x10, FX, 310);
	jump(FX_JMP, MAIN + 0x15, 320);			/* other's stack left */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 fx|E1 fx|B1 fa|B2 give|B3 fx|E3 fx|E2 give|E1 fa|"
		"B1 fx|E1 fx|B1 other|B2 give|B3 fx|E3 fx|E2 give|E1 other|"
		"B1 fx|E1 fx|B1 give|E1 give|B1 fa|B2 give|B3 fx|E3 fx|E2 give|E1 fa|"
		"B1 fx|E1 fx|B1 give|E1 give|B1 other|B2 give|B3 fx|E3 fx|E2 give|E1 other|"
		"E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "give", 2)->kind, PTS_TLK_JUMP);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "fa", 1)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "fa", 1)->ts_ns, 230);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "other", 1)->ts_ns, 290);
	done();
}

/* swapc's `ret`, its last instruction (swapcontext's shape) */
#define SWAPC_RET (SWAPC + 0x20)

/*
 * One program may switch both ways (a jump and a `ret`): fa, entered by
 * the jump switch, leaves by swapc's `ret` to main's switch call site,
 * and main's jump switch resumes it. Both rules keep and resume the same
 * stacks.
 */
static void a_stack_left_by_ret_is_resumed_by_a_jump(void)
{
	tl_fx_start_fns(PTS_SCOPE_USER, TL_FNS(fns), 0, 0);
	tl_fx_br(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	call(MAIN + 0x10, FX, 110);			/* saves MAIN+0x15 */
	jump(FX_JMP, FA, 120);				/* fa replaces fx */
	call(FA + 0x10, SERVE, 130);
	call(SERVE + 0x10, SWAPC, 140);			/* saves SERVE+0x15 */
	ret(SWAPC_RET, MAIN + 0x15, 150);		/* fa's stack left */
	call(MAIN + 0x30, FX, 160);
	jump(FX_JMP, SERVE + 0x15, 170);		/* resumed: fa, serve */
	ret(SERVE + 0x20, FA + 0x15, 180);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 fx|E1 fx|B1 fa|B2 serve|B3 swapc|E3 swapc|E2 serve|E1 fa|"
		"B1 fx|E1 fx|B1 fa|B2 serve|E2 serve|E1 fa|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "serve", 1)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_RETURN_AS_JUMP), 0);
	done();
}

/*
 * The reverse: fa entered by swapc's `ret` to its first byte
 * (makecontext's), left by the jump switch, resumed by swapc's `ret`.
 */
static void a_stack_left_by_a_jump_is_resumed_by_ret(void)
{
	tl_fx_start_fns(PTS_SCOPE_USER, TL_FNS(fns), 0, 0);
	tl_fx_br(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	call(MAIN + 0x10, SWAPC, 110);			/* saves MAIN+0x15 */
	ret(SWAPC_RET, FA, 120);			/* fa's first entry */
	call(FA + 0x10, SERVE, 130);
	call(SERVE + 0x10, FX, 140);			/* saves SERVE+0x15 */
	jump(FX_JMP, MAIN + 0x15, 150);			/* fa's stack left */
	call(MAIN + 0x30, SWAPC, 160);
	ret(SWAPC_RET, SERVE + 0x15, 170);		/* resumed: fa, serve */
	ret(SERVE + 0x20, FA + 0x15, 180);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 swapc|E1 swapc|B1 fa|B2 serve|B3 fx|E3 fx|E2 serve|E1 fa|"
		"B1 swapc|E1 swapc|B1 fa|B2 serve|E2 serve|E1 fa|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "swapc", 1)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "serve", 1)->kind, PTS_TLK_RETURN);
	done();
}

PTS_SUITE(timeline_switch_jump, NULL, NULL,
	  PTS_TEST(a_switch_back_by_jump_resumes_the_left_frames),
	  PTS_TEST(a_jump_to_a_function_entry_resumes_no_kept_stack),
	  PTS_TEST(a_jump_inside_the_running_function_resumes_no_kept_stack),
	  PTS_TEST(a_jump_back_both_stacks_saved_resumes_no_wrong_frames),
	  PTS_TEST(a_stack_left_by_ret_is_resumed_by_a_jump),
	  PTS_TEST(a_stack_left_by_a_jump_is_resumed_by_ret));
