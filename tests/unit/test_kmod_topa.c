// SPDX-License-Identifier: GPL-2.0
/*
 * ToPA planning, filling and write-head arithmetic (kmod/pure/topa_plan.c)
 * against SDM 33.2.7.2 (entry layout, END links, single-entry rule) and
 * 33.2.8.8 (OUTPUT_MASK_PTRS). Entry values are hand-assembled: base |
 * Size << 6 | STOP 0x10 | END 0x1.
 */
#define PTS_HOST 1
#include "unit.h"
#include <stdlib.h>
#include "../../kmod/pure/pts_pure.h"

#define MIB (1ULL << 20)

static void multi_entry_8m_ring_with_4m_regions_has_two_regions_one_table(void)
{
	struct pts_topa_plan p;

	CU_ASSERT_EQUAL(pts_topa_plan(8 * MIB, 4 * MIB, true, &p), 0);
	CU_ASSERT_EQUAL(p.region_size, 4 * MIB);
	CU_ASSERT_EQUAL(p.region_size_code, 10);	/* 4 KiB << 10 */
	CU_ASSERT_EQUAL(p.nr_regions, 2);
	CU_ASSERT_EQUAL(p.nr_tables, 1);
}

static void small_buffer_is_one_region_of_its_own_size(void)
{
	struct pts_topa_plan p;

	CU_ASSERT_EQUAL(pts_topa_plan(64 * 1024, 4 * MIB, true, &p), 0);
	CU_ASSERT_EQUAL(p.region_size, 65536ULL);
	CU_ASSERT_EQUAL(p.region_size_code, 4);
	CU_ASSERT_EQUAL(p.nr_regions, 1);
}

static void one_gib_of_64k_regions_needs_33_linked_tables(void)
{
	struct pts_topa_plan p;

	/* 16384 regions, 511 per table: 32 full tables + 32 regions */
	CU_ASSERT_EQUAL(pts_topa_plan(1ULL << 30, 64 * 1024, true, &p), 0);
	CU_ASSERT_EQUAL(p.nr_regions, 16384);
	CU_ASSERT_EQUAL(p.nr_tables, 33);
	CU_ASSERT_EQUAL(pts_topa_regions_in_table(&p, 0), 511);
	CU_ASSERT_EQUAL(pts_topa_regions_in_table(&p, 32), 16384 - 32 * 511);
	CU_ASSERT_EQUAL(pts_topa_regions_in_table(&p, 33), 0);
}

static void single_entry_cpu_cannot_split_the_ring(void)
{
	struct pts_topa_plan p;

	CU_ASSERT_EQUAL(pts_topa_plan(8 * MIB, 4 * MIB, false, &p), -E2BIG);
	CU_ASSERT_EQUAL(pts_topa_plan(4 * MIB, 4 * MIB, false, &p), 0);
	CU_ASSERT_EQUAL(p.nr_regions, 1);
	CU_ASSERT_EQUAL(p.nr_tables, 1);
}

static void plan_rejects_sizes_that_are_not_powers_of_two(void)
{
	struct pts_topa_plan p;

	CU_ASSERT_EQUAL(pts_topa_plan(3 * MIB, 4 * MIB, true, &p), -EINVAL);
	CU_ASSERT_EQUAL(pts_topa_plan(2048, 4 * MIB, true, &p), -EINVAL);
	CU_ASSERT_EQUAL(pts_topa_plan(MIB, 3000, true, &p), -EINVAL);
}

static void snapshot_table_has_regions_then_end_back_to_itself(void)
{
	struct pts_topa_plan p;
	u64 table[512], tphys = 0x7000, rphys[2] = { 0x1000000000ULL, 0x400000 };
	u64 *tables[1] = { table };

	memset(table, 0xff, sizeof(table));
	CU_ASSERT_EQUAL(pts_topa_plan(8 * MIB, 4 * MIB, true, &p), 0);
	CU_ASSERT_EQUAL(pts_topa_fill(&p, PTSCOPE_MODE_SNAPSHOT, tables, &tphys,
				      rphys), 0);
	CU_ASSERT_EQUAL(table[0], 0x1000000000ULL | (10ULL << 6));
	CU_ASSERT_EQUAL(table[1], 0x400000ULL | (10ULL << 6));
	CU_ASSERT_EQUAL(table[2], 0x7000ULL | 0x1);
	CU_ASSERT_EQUAL(table[3], 0);
	CU_ASSERT_EQUAL(table[511], 0);
	/* each entry passes the SDM's checks on a 46-bit MENTRY CPU */
	CU_ASSERT_EQUAL(topa_entry_check(table[0], 0, tphys, 46, 1), TOPA_OK);
	CU_ASSERT_EQUAL(topa_entry_check(table[1], 1, tphys, 46, 1), TOPA_OK);
	CU_ASSERT_EQUAL(topa_entry_check(table[2], 2, tphys, 46, 1), TOPA_OK);
}

static void full_mode_puts_stop_on_the_last_region_only(void)
{
	struct pts_topa_plan p;
	u64 table[512], tphys = 0x7000, rphys[2] = { 0x800000, 0x400000 };
	u64 *tables[1] = { table };

	CU_ASSERT_EQUAL(pts_topa_plan(8 * MIB, 4 * MIB, true, &p), 0);
	CU_ASSERT_EQUAL(pts_topa_fill(&p, PTSCOPE_MODE_FULL, tables, &tphys,
				      rphys), 0);
	CU_ASSERT_EQUAL(table[0], 0x800000ULL | (10ULL << 6));
	CU_ASSERT_EQUAL(table[1], 0x400000ULL | (10ULL << 6) | 0x10);
	CU_ASSERT_EQUAL(table[2], 0x7000ULL | 0x1);
}

static void single_entry_layout_is_region_then_end_to_same_table(void)
{
	struct pts_topa_plan p;
	u64 table[512], tphys = 0x3000, rphys = 0x200000;
	u64 *tables[1] = { table };

	CU_ASSERT_EQUAL(pts_topa_plan(2 * MIB, 4 * MIB, false, &p), 0);
	CU_ASSERT_EQUAL(pts_topa_fill(&p, PTSCOPE_MODE_SNAPSHOT, tables, &tphys,
				      &rphys), 0);
	CU_ASSERT_EQUAL(table[0], 0x200000ULL | (9ULL << 6));
	CU_ASSERT_EQUAL(table[1], 0x3000ULL | 0x1);
	CU_ASSERT_EQUAL(topa_entry_check(table[0], 0, tphys, 39, 0), TOPA_OK);
	CU_ASSERT_EQUAL(topa_entry_check(table[1], 1, tphys, 39, 0), TOPA_OK);
}

static void multi_table_ring_links_each_end_to_the_next_and_last_to_first(void)
{
	struct pts_topa_plan p;
	u64 *tables[33], tphys[33], *rphys;
	u32 t, r;

	CU_ASSERT_EQUAL(pts_topa_plan(1ULL << 30, 64 * 1024, true, &p), 0);
	rphys = calloc(p.nr_regions, sizeof(*rphys));
	for (r = 0; r < p.nr_regions; r++)
		rphys[r] = 0x100000000ULL + (u64)r * 65536;
	for (t = 0; t < 33; t++) {
		tables[t] = calloc(512, sizeof(u64));
		tphys[t] = 0x10000 + (u64)t * 4096;
	}
	CU_ASSERT_EQUAL(pts_topa_fill(&p, PTSCOPE_MODE_SNAPSHOT, tables, tphys,
				      rphys), 0);
	CU_ASSERT_EQUAL(tables[0][511], tphys[1] | 1);
	CU_ASSERT_EQUAL(tables[31][511], tphys[32] | 1);
	CU_ASSERT_EQUAL(tables[32][32], tphys[0] | 1);	/* ring */
	/* region 511 is the first entry of table 1 */
	CU_ASSERT_EQUAL(tables[1][0], rphys[511] | (4ULL << 6));
	CU_ASSERT_EQUAL(tables[32][31], rphys[16383] | (4ULL << 6));
	CU_ASSERT_EQUAL(tables[32][33], 0);
	for (t = 0; t < 33; t++)
		free(tables[t]);
	free(rphys);
}

static void fill_refuses_misaligned_region(void)
{
	struct pts_topa_plan p;
	u64 table[512], tphys = 0x3000, rphys = 0x201000;	/* not 2 MiB aligned */
	u64 *tables[1] = { table };

	CU_ASSERT_EQUAL(pts_topa_plan(2 * MIB, 4 * MIB, true, &p), 0);
	CU_ASSERT_EQUAL(pts_topa_fill(&p, PTSCOPE_MODE_SNAPSHOT, tables, &tphys,
				      &rphys), -EINVAL);
}

/* OUTPUT_MASK_PTRS: index << 7 | 0x7f, OutputOffset in 63:32. */
static void head_is_earlier_regions_plus_output_offset(void)
{
	struct pts_topa_plan p;
	u64 tphys = 0x7000, head = 0;

	CU_ASSERT_EQUAL(pts_topa_plan(8 * MIB, 4 * MIB, true, &p), 0);
	/* entry 1, offset 0x100: 4 MiB + 0x100 */
	CU_ASSERT_EQUAL(pts_topa_head(&p, &tphys, 0x7000,
				      0x00000100000000ffULL, &head), 0);
	CU_ASSERT_EQUAL(head, 4 * MIB + 0x100);
	/* entry 0, offset 0 */
	CU_ASSERT_EQUAL(pts_topa_head(&p, &tphys, 0x7000, 0x7f, &head), 0);
	CU_ASSERT_EQUAL(head, 0);
}

static void head_in_a_later_table_counts_511_regions_per_table(void)
{
	struct pts_topa_plan p;
	u64 tphys[33], head = 0;
	u32 t;

	for (t = 0; t < 33; t++)
		tphys[t] = 0x10000 + (u64)t * 4096;
	CU_ASSERT_EQUAL(pts_topa_plan(1ULL << 30, 64 * 1024, true, &p), 0);
	/* table 2, entry 3 (3 << 7 | 0x7f = 0x1ff), offset 0x10 */
	CU_ASSERT_EQUAL(pts_topa_head(&p, tphys, tphys[2],
				      (0x10ULL << 32) | 0x1ff, &head), 0);
	CU_ASSERT_EQUAL(head, (2ULL * 511 + 3) * 65536 + 0x10);
}

static void head_on_the_end_slot_means_the_next_tables_first_byte(void)
{
	struct pts_topa_plan p;
	u64 tphys = 0x7000, head = 0;

	CU_ASSERT_EQUAL(pts_topa_plan(8 * MIB, 4 * MIB, true, &p), 0);
	/* index 2 (the END slot) with offset 0: wrapped back to 0 ... */
	CU_ASSERT_EQUAL(pts_topa_head(&p, &tphys, 0x7000, (2 << 7) | 0x7f, &head), 0);
	CU_ASSERT_EQUAL(head, 8 * MIB);
	/* ... but a non-zero offset there is impossible */
	CU_ASSERT_EQUAL(pts_topa_head(&p, &tphys, 0x7000,
				      (1ULL << 32) | (2 << 7) | 0x7f, &head), -EINVAL);
}

static void stopped_full_buffer_reports_head_at_buffer_size(void)
{
	struct pts_topa_plan p;
	u64 tphys = 0x7000, head = 0;

	CU_ASSERT_EQUAL(pts_topa_plan(8 * MIB, 4 * MIB, true, &p), 0);
	CU_ASSERT_EQUAL(pts_topa_head(&p, &tphys, 0x7000,
				      ((4 * MIB) << 32) | (1 << 7) | 0x7f, &head), 0);
	CU_ASSERT_EQUAL(head, 8 * MIB);
}

static void head_rejects_unknown_output_base_and_offsets_past_the_region(void)
{
	struct pts_topa_plan p;
	u64 tphys = 0x7000, head = 0;

	CU_ASSERT_EQUAL(pts_topa_plan(8 * MIB, 4 * MIB, true, &p), 0);
	CU_ASSERT_EQUAL(pts_topa_head(&p, &tphys, 0x8000, 0x7f, &head), -EINVAL);
	CU_ASSERT_EQUAL(pts_topa_head(&p, &tphys, 0x7000,
				      ((4 * MIB + 1) << 32) | 0x7f, &head), -EINVAL);
	CU_ASSERT_EQUAL(pts_topa_head(&p, &tphys, 0x7000, (3 << 7) | 0x7f, &head),
			-EINVAL);
}

static void position_for_a_head_reads_back_as_the_same_head(void)
{
	struct pts_topa_plan p;
	u64 tphys[33], base, omp, head;
	const u64 heads[] = { 0, 1, 65535, 65536, 511ULL * 65536 + 7,
			      (1ULL << 30) - 1 };
	u32 t, i;

	for (t = 0; t < 33; t++)
		tphys[t] = 0x10000 + (u64)t * 4096;
	CU_ASSERT_EQUAL(pts_topa_plan(1ULL << 30, 64 * 1024, true, &p), 0);
	for (i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		pts_topa_position(&p, tphys, heads[i], &base, &omp);
		CU_ASSERT_EQUAL(omp & 0x7f, 0x7f);
		CU_ASSERT_EQUAL(pts_topa_head(&p, tphys, base, omp, &head), 0);
		CU_ASSERT_EQUAL(head, heads[i]);
	}
	/* 511 * 64 KiB + 7 lies in table 1, entry 0, offset 7 */
	pts_topa_position(&p, tphys, 511ULL * 65536 + 7, &base, &omp);
	CU_ASSERT_EQUAL(base, tphys[1]);
	CU_ASSERT_EQUAL(omp, (7ULL << 32) | 0x7f);
}

PTS_SUITE(kmod_topa, NULL, NULL,
	  PTS_TEST(multi_entry_8m_ring_with_4m_regions_has_two_regions_one_table),
	  PTS_TEST(small_buffer_is_one_region_of_its_own_size),
	  PTS_TEST(one_gib_of_64k_regions_needs_33_linked_tables),
	  PTS_TEST(single_entry_cpu_cannot_split_the_ring),
	  PTS_TEST(plan_rejects_sizes_that_are_not_powers_of_two),
	  PTS_TEST(snapshot_table_has_regions_then_end_back_to_itself),
	  PTS_TEST(full_mode_puts_stop_on_the_last_region_only),
	  PTS_TEST(single_entry_layout_is_region_then_end_to_same_table),
	  PTS_TEST(multi_table_ring_links_each_end_to_the_next_and_last_to_first),
	  PTS_TEST(fill_refuses_misaligned_region),
	  PTS_TEST(head_is_earlier_regions_plus_output_offset),
	  PTS_TEST(head_in_a_later_table_counts_511_regions_per_table),
	  PTS_TEST(head_on_the_end_slot_means_the_next_tables_first_byte),
	  PTS_TEST(stopped_full_buffer_reports_head_at_buffer_size),
	  PTS_TEST(head_rejects_unknown_output_base_and_offsets_past_the_region),
	  PTS_TEST(position_for_a_head_reads_back_as_the_same_head));
