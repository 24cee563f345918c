// SPDX-License-Identifier: GPL-2.0
/*
 * Code that runs on into another function without a call: the slice is
 * renamed where the trace is next seen in the new function, counted as
 * PTS_TLD_FELL_THROUGH, and the first place is kept for the summary
 * (pts_tl_diag_first), so a user can tell the expected case from a
 * symbol table that is wrong. The case of every trace from a dynamically
 * linked program's first instruction (the shipped sample's): ld.so's
 * _start is `mov %rsp,%rdi; call _dl_start`, and the call's return
 * address is the first byte of the next symbol, _dl_start_user, which
 * then runs on and calls _dl_init. Functions are 0x100 bytes each
 * (tl_sink.h), their object "prog":
 *
 *   _start 0x1000 (its call at 0x10fb, 5 bytes, saves 0x1100)
 *   _dl_start_user 0x1100 (calls _dl_init at 0x1123)
 *   _dl_start 0x1200   _dl_init 0x1300
 */
#include "unit.h"
#include "tl_feed.h"

#define START 0x1000ULL
#define START_USER 0x1100ULL
#define DL_START 0x1200ULL
#define DL_INIT 0x1300ULL

static const struct tl_fn fns[] = {
	{ "_start", START }, { "_dl_start_user", START_USER },
	{ "_dl_start", DL_START }, { "_dl_init", DL_INIT },
};

static void return_into_the_next_symbol_renames_the_slice_and_names_the_place(void)
{
	char first[160];

	tl_fx_start_fns(PTS_SCOPE_USER, TL_FNS(fns), 0, 0);
	tl_fx_br(PTS_BR_ENABLED, 0, 0, START, 100, 0);			/* B0 _start */
	tl_fx_br(PTS_BR_CALL, START + 0xfb, 5, DL_START, 110, 0);	/* B1 _dl_start */
	tl_fx_br(PTS_BR_RETURN, DL_START + 0x40, 0, START_USER, 120, 0);	/* E1 */
	tl_fx_br(PTS_BR_CALL, START_USER + 0x23, 5, DL_INIT, 130, 0);
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(),
		"B0 _start|B1 _dl_start|E1 _dl_start|E0 _start|B0 _dl_start_user|"
		"B1 _dl_init|E1 _dl_init|E0 _dl_start_user");
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_FELL_THROUGH), 1);
	pts_tl_diag_first(tl_fx.tl, PTS_TLD_FELL_THROUGH, first, sizeof(first));
	CU_ASSERT_STRING_EQUAL(first, "_start -> _dl_start_user (prog)");
	tl_fx_done();
}

/* Without the diagnostic there is no place to name; the other diagnostics keep none. */
static void no_place_without_the_diagnostic(void)
{
	char first[160] = "x";

	tl_fx_start_fns(PTS_SCOPE_USER, TL_FNS(fns), 0, 0);
	tl_fx_br(PTS_BR_ENABLED, 0, 0, START, 100, 0);
	tl_fx_br(PTS_BR_CALL, START + 0x10, 5, DL_START, 110, 0);	/* saves 0x1015 */
	tl_fx_br(PTS_BR_RETURN, DL_START + 0x40, 0, START + 0x15, 120, 0);
	tl_fx_br(PTS_BR_CALL, START + 0x20, 5, DL_INIT, 130, 0);
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(),
		"B0 _start|B1 _dl_start|E1 _dl_start|B1 _dl_init|E1 _dl_init|E0 _start");
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_FELL_THROUGH), 0);
	pts_tl_diag_first(tl_fx.tl, PTS_TLD_FELL_THROUGH, first, sizeof(first));
	CU_ASSERT_STRING_EQUAL(first, "");
	pts_tl_diag_first(tl_fx.tl, PTS_TLD_RETURN_AS_JUMP, first, sizeof(first));
	CU_ASSERT_STRING_EQUAL(first, "");
	tl_fx_done();
}

PTS_SUITE(timeline_fell_through, NULL, NULL,
	  PTS_TEST(return_into_the_next_symbol_renames_the_slice_and_names_the_place),
	  PTS_TEST(no_place_without_the_diagnostic))
