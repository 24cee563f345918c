// SPDX-License-Identifier: GPL-2.0
/*
 * ToPA layout planning, table filling and write-head arithmetic
 * (SDM 33.2.7.2 "Table of Physical Addresses", 33.2.8.8
 * IA32_RTIT_OUTPUT_MASK_PTRS). Ring offset 0 is the first byte of region
 * 0 (entry 0 of table 0); regions follow in table order.
 */
#include "pts_pure.h"

static bool is_pow2(u64 v)
{
	return v && !(v & (v - 1));
}

int pts_topa_plan(u64 buffer_size, u64 max_region, bool mentry,
		  struct pts_topa_plan *p)
{
	u64 region;

	memset(p, 0, sizeof(*p));
	if (!is_pow2(buffer_size) || buffer_size < PTS_BUFFER_MIN ||
	    buffer_size > PTS_BUFFER_MAX)
		return -EINVAL;
	if (!is_pow2(max_region) || max_region < TOPA_REGION_MIN)
		return -EINVAL;
	if (max_region > TOPA_REGION_MAX)
		max_region = TOPA_REGION_MAX;

	region = buffer_size < max_region ? buffer_size : max_region;
	if (!mentry && region != buffer_size)
		return -E2BIG;

	p->buffer_size = buffer_size;
	p->region_size = region;
	p->region_size_code = (u32)topa_size_code(region);
	p->nr_regions = (u32)(buffer_size / region);
	p->nr_tables = (p->nr_regions + PTS_TOPA_REGIONS_PER_TABLE - 1) /
		       PTS_TOPA_REGIONS_PER_TABLE;
	p->mentry = mentry;
	return 0;
}

u32 pts_topa_regions_in_table(const struct pts_topa_plan *p, u32 t)
{
	u32 first = t * PTS_TOPA_REGIONS_PER_TABLE;

	if (t >= p->nr_tables)
		return 0;
	if (p->nr_regions - first < PTS_TOPA_REGIONS_PER_TABLE)
		return p->nr_regions - first;
	return PTS_TOPA_REGIONS_PER_TABLE;
}

int pts_topa_fill(const struct pts_topa_plan *p, u32 mode, u64 *const *tables,
		  const u64 *table_phys, const u64 *region_phys)
{
	u64 stop = mode == PTSCOPE_MODE_FULL ? TOPA_STOP : 0;
	u32 t, i, r = 0;

	if (mode != PTSCOPE_MODE_SNAPSHOT && mode != PTSCOPE_MODE_FULL)
		return -EINVAL;
	for (t = 0; t < p->nr_tables; t++) {
		u32 n = pts_topa_regions_in_table(p, t);
		u64 next = table_phys[(t + 1) % p->nr_tables];

		if (table_phys[t] & (TOPA_TABLE_ALIGN - 1))
			return -EINVAL;
		memset(tables[t], 0, TOPA_ENTRIES_PER_PAGE * sizeof(u64));
		for (i = 0; i < n; i++, r++) {
			if (region_phys[r] & (p->region_size - 1))
				return -EINVAL;
			tables[t][i] = topa_entry_encode(region_phys[r],
							 p->region_size_code,
							 r == p->nr_regions - 1 ?
							 stop : 0);
		}
		/*
		 * END links to the next table, the last one back to the first:
		 * a ring. On a CPU without MENTRY there is one table and this
		 * is entry 1 pointing at the table itself, as required.
		 */
		tables[t][n] = topa_entry_encode(next, 0, TOPA_END);
	}
	return 0;
}

bool pts_topa_is_table(const struct pts_topa_plan *p, const u64 *table_phys,
		       u64 output_base)
{
	u32 t;

	for (t = 0; t < p->nr_tables; t++)
		if (table_phys[t] == output_base)
			return true;
	return false;
}

int pts_topa_head(const struct pts_topa_plan *p, const u64 *table_phys,
		  u64 output_base, u64 output_mask_ptrs, u64 *head)
{
	u32 idx = rtit_omp_entry_index(output_mask_ptrs);
	u64 off = rtit_omp_output_offset(output_mask_ptrs);
	u64 pos;
	u32 t;

	for (t = 0; t < p->nr_tables; t++)
		if (table_phys[t] == output_base)
			break;
	if (t == p->nr_tables)
		return -EINVAL;
	/*
	 * idx may name the END slot only with offset 0 (the unit has not
	 * moved on yet): that is the first byte of the next table's region,
	 * which is the next region in ring order.
	 */
	if (idx > pts_topa_regions_in_table(p, t))
		return -EINVAL;
	if (idx == pts_topa_regions_in_table(p, t) && off)
		return -EINVAL;
	/* off == region_size only when a STOP region is completely full. */
	if (off > p->region_size)
		return -EINVAL;
	pos = ((u64)t * PTS_TOPA_REGIONS_PER_TABLE + idx) * p->region_size + off;
	if (pos > p->buffer_size)
		return -EINVAL;
	*head = pos;
	return 0;
}

void pts_topa_position(const struct pts_topa_plan *p, const u64 *table_phys,
		       u64 head, u64 *output_base, u64 *output_mask_ptrs)
{
	u64 r = (head % p->buffer_size) / p->region_size;
	u32 t = (u32)(r / PTS_TOPA_REGIONS_PER_TABLE);
	u32 idx = (u32)(r % PTS_TOPA_REGIONS_PER_TABLE);

	*output_base = table_phys[t];
	*output_mask_ptrs = rtit_omp_encode(idx, (u32)(head % p->region_size));
}
