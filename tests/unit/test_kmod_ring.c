// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshot ring wrap evidence (kmod/pure/ring.c), per pt-facts
 * section 3: the write head only moves forward modulo the ring.
 */
#define PTS_HOST 1
#include "unit.h"
#include "../../kmod/pure/pts_pure.h"

static void head_moving_backwards_proves_a_wrap(void)
{
	CU_ASSERT_EQUAL(pts_ring_wraps_between(4000, 10), 1);
	CU_ASSERT_EQUAL(pts_ring_wraps_between(10, 4000), 0);
	CU_ASSERT_EQUAL(pts_ring_wraps_between(10, 10), 0);
}

PTS_SUITE(kmod_ring, NULL, NULL,
	  PTS_TEST(head_moving_backwards_proves_a_wrap));
