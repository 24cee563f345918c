// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU ToPA rings (SDM 33.2.7.2). Regions are high-order blocks from
 * the buddy allocator on the CPU's NUMA node: physically contiguous and
 * naturally aligned to their size, as the ToPA Size field requires.
 * Tables are single 4 KiB pages. Both come from alloc_pages, so the
 * simulated unit may reach them through phys_to_virt().
 *
 * Context: allocation, zeroing and the scan run in process context and
 * may sleep; nothing here runs with IRQs off.
 */
#include <linux/cred.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <asm/io.h>

#include "compat.h"
#include "ptscope_internal.h"

/* Smallest region we fall back to when large blocks are scarce. */
#define PTS_REGION_FALLBACK_MIN	(64 * 1024ULL)

static void cpu_buf_free(struct pts_cpu_buf *cb, const struct pts_bufset *b)
{
	u32 i;

	if (!cb)
		return;
	if (cb->regions)
		for (i = 0; i < b->plan.nr_regions; i++)
			if (cb->regions[i])
				__free_pages(cb->regions[i], b->region_order);
	if (cb->tables)
		for (i = 0; i < b->plan.nr_tables; i++)
			if (cb->tables[i])
				__free_page(cb->tables[i]);
	kvfree(cb->regions);
	kvfree(cb->region_phys);
	kfree(cb->tables);
	kfree(cb->table_phys);
	kfree(cb);
}

static int cpu_buf_alloc(struct pts_bufset *b, int cpu)
{
	const struct pts_topa_plan *p = &b->plan;
	int node = cpu_to_node(cpu);
	/* Charged to the caller's memory cgroup (__GFP_ACCOUNT), as perf's AUX. */
	gfp_t gfp = GFP_KERNEL_ACCOUNT | __GFP_ZERO | __GFP_NOWARN;
	u64 **tbl;
	struct pts_cpu_buf *cb;
	u32 i;
	int err = -ENOMEM;

	if (b->region_order)
		gfp |= __GFP_NORETRY;
	cb = kzalloc_node(sizeof(*cb), GFP_KERNEL, node);
	if (!cb)
		return -ENOMEM;
	cb->cpu = cpu;
	b->cpu[cpu] = cb;
	cb->regions = kvcalloc(p->nr_regions, sizeof(*cb->regions), GFP_KERNEL);
	cb->region_phys = kvcalloc(p->nr_regions, sizeof(u64), GFP_KERNEL);
	cb->tables = kcalloc(p->nr_tables, sizeof(*cb->tables), GFP_KERNEL);
	cb->table_phys = kcalloc(p->nr_tables, sizeof(u64), GFP_KERNEL);
	tbl = kcalloc(p->nr_tables, sizeof(*tbl), GFP_KERNEL);
	if (!cb->regions || !cb->region_phys || !cb->tables ||
	    !cb->table_phys || !tbl)
		goto out;

	for (i = 0; i < p->nr_regions; i++) {
		cb->regions[i] = alloc_pages_node(node, gfp, b->region_order);
		if (!cb->regions[i])
			goto out;
		cb->region_phys[i] = page_to_phys(cb->regions[i]);
		cond_resched();
	}
	for (i = 0; i < p->nr_tables; i++) {
		cb->tables[i] = alloc_pages_node(node, GFP_KERNEL_ACCOUNT | __GFP_ZERO, 0);
		if (!cb->tables[i])
			goto out;
		cb->table_phys[i] = page_to_phys(cb->tables[i]);
		tbl[i] = page_address(cb->tables[i]);
	}
	err = pts_topa_fill(p, b->mode, tbl, cb->table_phys, cb->region_phys);
out:
	kfree(tbl);
	return err;
}

static void bufset_free(struct pts_bufset *b)
{
	unsigned int cpu;

	if (b->cpu)
		for (cpu = 0; cpu < nr_cpu_ids; cpu++)
			cpu_buf_free(b->cpu[cpu], b);
	kfree(b->cpu);
	if (b->owner)
		put_cred(b->owner);
	kfree(b);
}

static int bufset_try(const struct cpumask *cpus, u64 buffer_size, u32 mode,
		      bool mentry, u64 max_region, struct pts_bufset **out)
{
	struct pts_bufset *b;
	unsigned int cpu;
	int err;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	kref_init(&b->ref);
	b->mode = mode;
	err = pts_topa_plan(buffer_size, max_region, mentry, &b->plan);
	if (err) {
		kfree(b);
		return err;
	}
	b->region_order = get_order(b->plan.region_size);
	b->cpu = kcalloc(nr_cpu_ids, sizeof(*b->cpu), GFP_KERNEL);
	if (!b->cpu) {
		kfree(b);
		return -ENOMEM;
	}
	for_each_cpu(cpu, cpus) {
		err = cpu_buf_alloc(b, cpu);
		if (err) {
			bufset_free(b);
			return err;
		}
	}
	*out = b;
	return 0;
}

/**
 * pts_bufset_alloc() - allocate and fill the ToPA rings of @cpus.
 * @cpus: CPUs to allocate for (possible CPUs; offline ones too).
 * @buffer_size: bytes per CPU, power of two, 4 KiB .. 1 GiB.
 * @mode: PTSCOPE_MODE_SNAPSHOT or PTSCOPE_MODE_FULL.
 * @mentry: CPUID.14H.0:ECX[1]; without it the ring is one region.
 * @out: the buffers, one reference held by the caller.
 * @why: reason on failure.
 *
 * Tries regions as large as the page allocator gives (4 MiB on x86-64)
 * and, with MENTRY, halves the region size down to 64 KiB when large
 * blocks are not available.
 * Context: process context, may sleep.
 * Return: 0; -ENOMEM (PTSCOPE_R_NO_MEMORY); -EINVAL
 * (PTSCOPE_R_BAD_BUFFER_SIZE, a single-entry CPU cannot hold more than one
 * region: reason_arg is the largest size possible).
 */
int pts_bufset_alloc(const struct cpumask *cpus, u64 buffer_size, u32 mode,
		     bool mentry, struct pts_bufset **out,
		     struct pts_refusal *why)
{
	u64 max_region = PAGE_SIZE << PTS_MAX_ALLOC_ORDER;
	int err;

	for (;;) {
		err = bufset_try(cpus, buffer_size, mode, mentry, max_region, out);
		if (err != -ENOMEM || !mentry ||
		    max_region <= PTS_REGION_FALLBACK_MIN)
			break;
		if (max_region > buffer_size)
			max_region = buffer_size;
		max_region /= 2;
	}
	if (err == -E2BIG) {
		why->reason = PTSCOPE_R_BAD_BUFFER_SIZE;
		why->arg = PAGE_SIZE << PTS_MAX_ALLOC_ORDER;
		return -EINVAL;
	}
	if (err == -ENOMEM) {
		why->reason = PTSCOPE_R_NO_MEMORY;
		why->arg = buffer_size;
	} else if (err) {
		why->reason = PTSCOPE_R_BAD_BUFFER_SIZE;
		why->arg = buffer_size;
	}
	return err;
}

static void bufset_release(struct kref *ref)
{
	bufset_free(container_of(ref, struct pts_bufset, ref));
}

void pts_bufset_get(struct pts_bufset *b)
{
	kref_get(&b->ref);
}

void pts_bufset_put(struct pts_bufset *b)
{
	if (b)
		kref_put(&b->ref, bufset_release);
}

/**
 * pts_bufset_zero() - clear every region of @cpus before arming.
 * @b: the buffers.
 * @cpus: CPUs whose rings are cleared.
 *
 * A zeroed ring lets the reader tell a wrapped snapshot from a partly
 * filled one (pt-facts section 3). Context: process context, may sleep.
 */
void pts_bufset_zero(struct pts_bufset *b, const struct cpumask *cpus)
{
	unsigned int cpu;
	u32 i;

	for_each_cpu(cpu, cpus) {
		struct pts_cpu_buf *cb = b->cpu[cpu];

		if (!cb)
			continue;
		for (i = 0; i < b->plan.nr_regions; i++) {
			memset(page_address(cb->regions[i]), 0,
			       b->plan.region_size);
			cond_resched();
		}
	}
}

/**
 * pts_buf_nonzero_from() - is any byte at ring offset @off or later non-zero?
 * @b: the buffers.
 * @cpu: whose ring.
 * @off: ring offset, bytes.
 *
 * After a stop in snapshot mode this tells whether the ring wrapped: PT
 * writes forward only, so data after the write head is older data.
 * Context: process context, may sleep (scans up to buffer_size bytes).
 */
bool pts_buf_nonzero_from(const struct pts_bufset *b, int cpu, u64 off)
{
	const struct pts_cpu_buf *cb = b->cpu[cpu];
	u64 rs = b->plan.region_size;
	u32 r;

	if (!cb)
		return false;
	for (r = off / rs; r < b->plan.nr_regions; r++) {
		u64 start = r == off / rs ? off % rs : 0;
		const u8 *base = page_address(cb->regions[r]);

		if (start < rs && memchr_inv(base + start, 0, rs - start))
			return true;
		cond_resched();
	}
	return false;
}
