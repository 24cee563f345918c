// SPDX-License-Identifier: GPL-2.0
/*
 * The file offsets that name a trace ring (mmap.c): the first encoding,
 * cpu << 40, which a 32-bit caller (mmap2: a 32-bit page offset, file
 * offsets below 1 << 44) can use for CPUs 0 to 15 only, and the compact
 * one, which reaches every CPU below PTSCOPE_MAX_CPUS from there.
 */
#include "pts_pure.h"

int pts_mmap_ring_decode(u64 off, u64 *cpu, u64 *in)
{
	/* bits 31-33: a compact offset's CPU starts at bit 34 */
	const u64 gap = ((1ULL << PTSCOPE_MMAP_RING_CPU_SHIFT) - 1) &
			~((PTSCOPE_MMAP_RING_FLAG << 1) - 1);

	if (off >= PTSCOPE_MMAP_SIDEBAND_OFFSET)
		return -EINVAL;
	if (!(off & PTSCOPE_MMAP_RING_FLAG)) {
		*cpu = off >> PTSCOPE_MMAP_CPU_SHIFT;
		*in = off & ((1ULL << PTSCOPE_MMAP_CPU_SHIFT) - 1);
		return 0;
	}
	if (off & gap)
		return -EINVAL;
	*cpu = off >> PTSCOPE_MMAP_RING_CPU_SHIFT;
	*in = off & (PTSCOPE_MMAP_RING_SPAN - 1);
	return 0;
}
