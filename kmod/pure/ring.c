// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshot ring wrap evidence (pt-facts section 3, "Snapshot mode").
 * Linearising the ring is the reader's job: userland/lib/bundle/ring.c.
 */
#include "pts_pure.h"

u32 pts_ring_wraps_between(u64 prev_head, u64 new_head)
{
	return new_head < prev_head ? 1 : 0;
}
