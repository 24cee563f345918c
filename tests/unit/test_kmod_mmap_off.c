// SPDX-License-Identifier: GPL-2.0
/*
 * The file offsets that name a trace ring (kmod/pure/mmap_off.c).
 * Expected answers from docs/abi.md, "mmap: trace rings", and the
 * arithmetic of mmap2 (a 32-bit page offset of 4 KiB pages: byte offsets
 * below 1 << 44 for a 32-bit caller), not from the code: cpu << 40 names
 * CPUs 0 to 15 there; PTSCOPE_MMAP_RING_OFFSET(cpu) names every CPU below
 * PTSCOPE_MAX_CPUS, the same ring as cpu << 40. The VM suite maps both
 * on its two CPUs (mmap_compact_offsets); the CPUs it does not have are
 * checked here.
 */
#define PTS_HOST 1
#include "unit.h"
#include "../../kmod/pure/pts_pure.h"

#define MMAP2_LIMIT	(1ULL << 44)	/* 2^32 pages of 4 KiB */
#define GIB		(1ULL << 30)

static void classic_offsets_name_cpu_and_offset(void)
{
	u64 cpu = 99, in = 99;

	CU_ASSERT_EQUAL(pts_mmap_ring_decode(0, &cpu, &in), 0);
	CU_ASSERT_EQUAL(cpu, 0);
	CU_ASSERT_EQUAL(in, 0);
	CU_ASSERT_EQUAL(pts_mmap_ring_decode((5ULL << 40) + 8192, &cpu, &in), 0);
	CU_ASSERT_EQUAL(cpu, 5);
	CU_ASSERT_EQUAL(in, 8192);
	/* the last page of a 1 GiB ring of CPU 1023 */
	CU_ASSERT_EQUAL(pts_mmap_ring_decode((1023ULL << 40) + GIB - 4096, &cpu, &in), 0);
	CU_ASSERT_EQUAL(cpu, 1023);
	CU_ASSERT_EQUAL(in, GIB - 4096);
}

/* A 32-bit caller's reach with the first encoding: CPU 15, not 16. */
static void classic_offsets_of_cpu_16_are_beyond_mmap2(void)
{
	CU_ASSERT_TRUE((15ULL << 40) + GIB - 4096 < MMAP2_LIMIT);
	CU_ASSERT_FALSE((16ULL << 40) < MMAP2_LIMIT);
}

/* Every CPU's every page, in the compact encoding, is below 1 << 44. */
static void compact_offsets_reach_every_cpu_from_32_bit(void)
{
	unsigned int c;

	for (c = 0; c < PTSCOPE_MAX_CPUS; c++) {
		u64 last = PTSCOPE_MMAP_RING_OFFSET(c) + GIB - 4096, cpu = 0, in = 0;

		CU_ASSERT_TRUE(last < MMAP2_LIMIT);
		CU_ASSERT_EQUAL(pts_mmap_ring_decode(PTSCOPE_MMAP_RING_OFFSET(c), &cpu, &in), 0);
		CU_ASSERT_EQUAL(cpu, c);
		CU_ASSERT_EQUAL(in, 0);
		CU_ASSERT_EQUAL(pts_mmap_ring_decode(last, &cpu, &in), 0);
		CU_ASSERT_EQUAL(cpu, c);
		CU_ASSERT_EQUAL(in, GIB - 4096);
	}
}

/*
 * The two encodings never name different things with one offset: a
 * classic offset of a ring of at most 1 GiB leaves bit 30 clear, so it
 * is never read as a compact one.
 */
static void encodings_do_not_overlap(void)
{
	unsigned int c;

	for (c = 0; c < PTSCOPE_MAX_CPUS; c++) {
		u64 cpu = 0, in = 0, last = ((u64)c << 40) + GIB - 4096;

		CU_ASSERT_EQUAL(last & PTSCOPE_MMAP_RING_FLAG, 0);
		CU_ASSERT_EQUAL(pts_mmap_ring_decode(last, &cpu, &in), 0);
		CU_ASSERT_EQUAL(cpu, c);
	}
}

static void compact_offsets_with_bits_31_to_33_are_refused(void)
{
	u64 cpu, in;
	unsigned int b;

	for (b = 31; b <= 33; b++)
		CU_ASSERT_EQUAL(pts_mmap_ring_decode(PTSCOPE_MMAP_RING_OFFSET(16) | (1ULL << b),
						     &cpu, &in), -EINVAL);
}

static void sideband_offset_is_no_ring(void)
{
	u64 cpu, in;

	CU_ASSERT_EQUAL(pts_mmap_ring_decode(PTSCOPE_MMAP_SIDEBAND_OFFSET, &cpu, &in), -EINVAL);
	CU_ASSERT_EQUAL(pts_mmap_ring_decode(~0ULL, &cpu, &in), -EINVAL);
}

PTS_SUITE(kmod_mmap_off, NULL, NULL,
	  PTS_TEST(classic_offsets_name_cpu_and_offset),
	  PTS_TEST(classic_offsets_of_cpu_16_are_beyond_mmap2),
	  PTS_TEST(compact_offsets_reach_every_cpu_from_32_bit),
	  PTS_TEST(encodings_do_not_overlap),
	  PTS_TEST(compact_offsets_with_bits_31_to_33_are_refused),
	  PTS_TEST(sideband_offset_is_no_ring));
