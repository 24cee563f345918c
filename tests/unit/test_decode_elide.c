// SPDX-License-Identifier: GPL-2.0
/*
 * The window of jumps a consumer has no use for (decode/elide.h): a jump
 * of the window's thread with both ends in [lo, hi) is dropped and
 * counted with its time and CPU; anything else is kept. Answers by hand.
 */
#include "unit.h"
#include "decode/elide.h"

static struct pts_br_elide window(void)
{
	struct pts_br_elide el = { .pid = 7, .tid = 8, .lo = 0x1000, .hi = 0x1100 };

	return el;
}

static void a_jump_inside_the_function_is_dropped_and_counted(void)
{
	struct pts_br_elide el = window();

	CU_ASSERT_TRUE(pts_br_elide_drop(&el, 7, 8, 0x1010, 0x1000, 500, 3));
	CU_ASSERT_TRUE(pts_br_elide_drop(&el, 7, 8, 0x10ff, 0x1080, 600, 2));
	CU_ASSERT_EQUAL(el.dropped, 2);
	CU_ASSERT_EQUAL(el.ts_ns, 600);
	CU_ASSERT_EQUAL(el.cpu, 2);
}

static void a_jump_with_an_end_outside_the_function_is_kept(void)
{
	struct pts_br_elide el = window();

	/* hi itself is outside; below lo wraps around in the unsigned test */
	CU_ASSERT_FALSE(pts_br_elide_drop(&el, 7, 8, 0x1010, 0x1100, 1, 0));
	CU_ASSERT_FALSE(pts_br_elide_drop(&el, 7, 8, 0x1100, 0x1010, 1, 0));
	CU_ASSERT_FALSE(pts_br_elide_drop(&el, 7, 8, 0x0fff, 0x1010, 1, 0));
	CU_ASSERT_FALSE(pts_br_elide_drop(&el, 7, 8, 0x1010, 0x0fff, 1, 0));
	CU_ASSERT_EQUAL(el.dropped, 0);
}

static void another_threads_jump_is_kept(void)
{
	struct pts_br_elide el = window();

	CU_ASSERT_FALSE(pts_br_elide_drop(&el, 7, 9, 0x1010, 0x1020, 1, 0));
	CU_ASSERT_FALSE(pts_br_elide_drop(&el, 6, 8, 0x1010, 0x1020, 1, 0));
	CU_ASSERT_EQUAL(el.dropped, 0);
}

static void an_empty_window_drops_nothing(void)
{
	struct pts_br_elide el = window();

	el.hi = 0;
	el.lo = 0;
	CU_ASSERT_FALSE(pts_br_elide_drop(&el, 7, 8, 0x10, 0x20, 1, 0));
	CU_ASSERT_EQUAL(el.dropped, 0);
}

PTS_SUITE(decode_elide, NULL, NULL,
	  PTS_TEST(a_jump_inside_the_function_is_dropped_and_counted),
	  PTS_TEST(a_jump_with_an_end_outside_the_function_is_kept),
	  PTS_TEST(another_threads_jump_is_kept),
	  PTS_TEST(an_empty_window_drops_nothing));
