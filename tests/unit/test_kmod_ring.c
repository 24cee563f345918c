// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshot ring order and wrap evidence (kmod/pure/ring.c), per
 * pt-facts section 3: after a wrap the oldest byte is at the head.
 */
#define PTS_HOST 1
#include "unit.h"
#include "../../kmod/pure/pts_pure.h"

static void unwrapped_ring_is_zero_to_head(void)
{
	struct pts_ring_seg s[2];

	CU_ASSERT_EQUAL(pts_ring_linearize(4096, 100, false, s), 1);
	CU_ASSERT_EQUAL(s[0].off, 0);
	CU_ASSERT_EQUAL(s[0].len, 100);
	CU_ASSERT_EQUAL(pts_ring_linearize(4096, 0, false, s), 0);
}

static void wrapped_ring_is_head_to_end_then_start_to_head(void)
{
	struct pts_ring_seg s[2];

	CU_ASSERT_EQUAL(pts_ring_linearize(4096, 100, true, s), 2);
	CU_ASSERT_EQUAL(s[0].off, 100);
	CU_ASSERT_EQUAL(s[0].len, 3996);
	CU_ASSERT_EQUAL(s[1].off, 0);
	CU_ASSERT_EQUAL(s[1].len, 100);
}

static void wrapped_ring_with_head_at_zero_is_one_whole_segment(void)
{
	struct pts_ring_seg s[2];

	CU_ASSERT_EQUAL(pts_ring_linearize(4096, 0, true, s), 1);
	CU_ASSERT_EQUAL(s[0].off, 0);
	CU_ASSERT_EQUAL(s[0].len, 4096);
}

static void full_buffer_head_at_size_is_the_whole_ring_in_order(void)
{
	struct pts_ring_seg s[2];

	CU_ASSERT_EQUAL(pts_ring_linearize(4096, 4096, false, s), 1);
	CU_ASSERT_EQUAL(s[0].off, 0);
	CU_ASSERT_EQUAL(s[0].len, 4096);
}

static void head_moving_backwards_proves_a_wrap(void)
{
	CU_ASSERT_EQUAL(pts_ring_wraps_between(4000, 10), 1);
	CU_ASSERT_EQUAL(pts_ring_wraps_between(10, 4000), 0);
	CU_ASSERT_EQUAL(pts_ring_wraps_between(10, 10), 0);
}

PTS_SUITE(kmod_ring, NULL, NULL,
	  PTS_TEST(unwrapped_ring_is_zero_to_head),
	  PTS_TEST(wrapped_ring_is_head_to_end_then_start_to_head),
	  PTS_TEST(wrapped_ring_with_head_at_zero_is_one_whole_segment),
	  PTS_TEST(full_buffer_head_at_size_is_the_whole_ring_in_order),
	  PTS_TEST(head_moving_backwards_proves_a_wrap));
