// SPDX-License-Identifier: GPL-2.0
/*
 * Frames beyond max_depth (tl_hidden.c): their slices are not written,
 * but a return, a jump or a `ret` out of them to an older frame ends
 * them, and what runs after is shown again. Made-up address space
 * (0x100 bytes each), max_depth 3:
 *
 *   main 0x1000  protect 0x1100  rec 0x1200  bar 0x1300
 *   caml_raise_exn 0x1400
 *
 * rec is a recursion: `call rec` at rec+0x5 saves rec+0xa.
 */
#include "unit.h"
#include "tl_feed.h"

#define MAIN 0x1000ULL
#define PROTECT 0x1100ULL
#define REC 0x1200ULL
#define BAR 0x1300ULL
#define RAISE 0x1400ULL

static const struct tl_fn fns[] = {
	{ "main", MAIN }, { "protect", PROTECT }, { "rec", REC }, { "bar", BAR },
	{ "caml_raise_exn", RAISE },
};

#define ev tl_fx_br
#define finish tl_fx_finish
#define done tl_fx_done
#define rec tl_fx_rec

/* main -> protect -> rec, then n calls of rec beyond max_depth */
static void deep(uint32_t n)
{
	uint32_t i;

	tl_fx_start_fns(PTS_SCOPE_USER, TL_FNS(fns), 3, 0);
	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);			/* B0 main */
	ev(PTS_BR_CALL, MAIN + 5, 5, PROTECT, 110, 0);		/* B1 protect, saves main+0xa */
	ev(PTS_BR_CALL, PROTECT + 5, 5, REC, 120, 0);		/* B2 rec, saves protect+0xa */
	for (i = 0; i < n; i++)
		ev(PTS_BR_CALL, REC + 5, 5, REC, 130 + i, 0);	/* not shown */
}

static void raise_by_jump_out_of_hidden_frames_lands_in_a_shown_frame(void)
{
	deep(3);
	ev(PTS_BR_JUMP, REC + 0x10, 0, REC + 0x20, 140, 0);	/* inside rec: stays */
	/* OCaml's inline raise: pop %r11; jmp *%r11 to protect's handler */
	ev(PTS_BR_JUMP, REC + 0x30, 0, PROTECT + 0x40, 150, 0);
	ev(PTS_BR_CALL, PROTECT + 0x45, 5, BAR, 160, 0);	/* B2 bar */
	ev(PTS_BR_RETURN, BAR + 8, 0, PROTECT + 0x4a, 170, 0);	/* E2 bar */
	ev(PTS_BR_RETURN, PROTECT + 0x50, 0, MAIN + 0xa, 180, 0);	/* E1 protect */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 protect|B2 rec|E2 rec|B2 bar|E2 bar|E1 protect|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "rec", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "rec", 0)->ts_ns, 150);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "protect", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_TOO_DEEP), 3);
	done();
}

static void ret_out_of_hidden_frames_to_a_handler_lands_in_a_shown_frame(void)
{
	deep(2);
	ev(PTS_BR_CALL, REC + 0x25, 5, RAISE, 140, 0);		/* not shown */
	/* caml_raise_exn: mov ..,%rsp; pop ..; ret to protect's handler */
	ev(PTS_BR_RETURN, RAISE + 0x15, 0, PROTECT + 0x40, 150, 0);
	ev(PTS_BR_CALL, PROTECT + 0x45, 5, BAR, 160, 0);	/* B2 bar */
	CU_ASSERT_STRING_EQUAL(finish(), "B0 main|B1 protect|B2 rec|E2 rec|B2 bar|E2 bar|E1 protect|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "rec", 0)->ts_ns, 150);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_RETURN_AS_JUMP), 0);
	done();
}

static void longjmp_into_an_older_hidden_frame_ends_only_those_above_it(void)
{
	deep(2);
	ev(PTS_BR_CALL, REC + 0x25, 5, BAR, 140, 0);		/* not shown */
	/* longjmp from bar into rec's middle: the innermost rec, hidden */
	ev(PTS_BR_JUMP, BAR + 0x30, 0, REC + 0x40, 150, 0);
	ev(PTS_BR_RETURN, REC + 0x50, 0, REC + 0xa, 160, 0);	/* rec (hidden) returns */
	ev(PTS_BR_RETURN, REC + 0x50, 0, REC + 0xa, 170, 0);	/* rec (hidden) returns */
	ev(PTS_BR_RETURN, REC + 0x50, 0, PROTECT + 0xa, 180, 0);	/* E2 rec */
	ev(PTS_BR_CALL, PROTECT + 0x45, 5, BAR, 190, 0);	/* B2 bar */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 protect|B2 rec|E2 rec|B2 bar|E2 bar|E1 protect|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "rec", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "rec", 0)->ts_ns, 180);
	done();
}

static void return_from_hidden_frames_to_a_shown_frames_address_ends_them_all(void)
{
	deep(2);
	/* an unwinder's ret to main+0xa, what protect's call saved */
	ev(PTS_BR_RETURN, REC + 0x50, 0, MAIN + 0xa, 140, 0);
	ev(PTS_BR_CALL, MAIN + 0x10, 5, BAR, 150, 0);		/* B1 bar */
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 main|B1 protect|B2 rec|E2 rec|E1 protect|B1 bar|E1 bar|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "protect", 0)->ts_ns, 140);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "bar", 0)->ts_ns, 150);
	done();
}

static void tail_call_in_hidden_frames_keeps_their_return(void)
{
	deep(1);
	ev(PTS_BR_JUMP, REC + 0x30, 0, BAR, 140, 0);		/* tail call: bar, hidden */
	ev(PTS_BR_RETURN, BAR + 8, 0, REC + 0xa, 150, 0);	/* bar returns for rec */
	ev(PTS_BR_RETURN, REC + 0x50, 0, PROTECT + 0xa, 160, 0);	/* E2 rec */
	CU_ASSERT_STRING_EQUAL(finish(), "B0 main|B1 protect|B2 rec|E2 rec|E1 protect|E0 main");
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "rec", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "rec", 0)->ts_ns, 160);
	done();
}

PTS_SUITE(timeline_deep, NULL, NULL,
	  PTS_TEST(raise_by_jump_out_of_hidden_frames_lands_in_a_shown_frame),
	  PTS_TEST(ret_out_of_hidden_frames_to_a_handler_lands_in_a_shown_frame),
	  PTS_TEST(longjmp_into_an_older_hidden_frame_ends_only_those_above_it),
	  PTS_TEST(return_from_hidden_frames_to_a_shown_frames_address_ends_them_all),
	  PTS_TEST(tail_call_in_hidden_frames_keeps_their_return));
