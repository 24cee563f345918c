// SPDX-License-Identifier: GPL-2.0
/* Snapshot ring arithmetic (pt-facts section 3, "Snapshot mode"). */
#include "pts_pure.h"

u32 pts_ring_wraps_between(u64 prev_head, u64 new_head)
{
	return new_head < prev_head ? 1 : 0;
}

u32 pts_ring_linearize(u64 size, u64 head, bool wrapped,
		       struct pts_ring_seg seg[2])
{
	u32 n = 0;

	if (head > size)
		head = size;
	if (wrapped && head < size) {
		seg[n].off = head;
		seg[n].len = size - head;
		n++;
	}
	if (head) {
		seg[n].off = 0;
		seg[n].len = head;
		n++;
	}
	return n;
}
