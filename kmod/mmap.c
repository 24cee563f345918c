// SPDX-License-Identifier: GPL-2.0
/*
 * Read-only mappings of the per-CPU trace rings. File offset
 * cpu << PTSCOPE_MMAP_CPU_SHIFT, or PTSCOPE_MMAP_RING_OFFSET(cpu) (which
 * 32-bit callers can reach for every CPU), plus a page-aligned offset
 * into the ring, maps that CPU's regions in ring order
 * (pts_mmap_ring_decode()). Regions are high-order blocks
 * allocated without __GFP_COMP, whose tail pages cannot go through
 * vm_insert_page(): they are mapped with remap_pfn_range().
 *
 * Lifetime: each mapping holds a reference on the buffer set, so the
 * pages stay valid after stop, after UNCONFIGURE and while a CPU is
 * offline; the mapping also holds the struct file, whose owner reference
 * keeps the module loaded (rmmod fails with EBUSY while mapped).
 */
#include <linux/build_bug.h>
#include <linux/fs.h>
#include <linux/mm.h>

#include "compat.h"
#include "ptscope_internal.h"

/*
 * Each VMA counts on the buffer set it maps (a fork or a split adds one),
 * so CONFIGURE asks only whether the current set is mapped.
 * Context: process context, mmap_lock held.
 */
static void pts_vm_open(struct vm_area_struct *vma)
{
	struct pts_bufset *b = vma->vm_private_data;

	pts_bufset_get(b);
	atomic_inc(&b->mapcount);
}

static void pts_vm_close(struct vm_area_struct *vma)
{
	struct pts_bufset *b = vma->vm_private_data;

	atomic_dec(&b->mapcount);
	pts_bufset_put(b);
}

static const struct vm_operations_struct pts_vm_ops = {
	.open = pts_vm_open,
	.close = pts_vm_close,
};

static int map_ring(struct vm_area_struct *vma, const struct pts_bufset *b,
		    const struct pts_cpu_buf *cb, u64 off)
{
	u64 rs = b->plan.region_size;
	unsigned long addr = vma->vm_start;
	int err;

	while (addr < vma->vm_end) {
		u32 r = (u32)(off / rs);
		u64 in = off % rs;
		unsigned long len = min_t(u64, rs - in, vma->vm_end - addr);

		err = remap_pfn_range(vma, addr,
				      page_to_pfn(cb->regions[r]) + (in >> PAGE_SHIFT),
				      len, vma->vm_page_prot);
		if (err)
			return err;
		addr += len;
		off += len;
	}
	return 0;
}

/**
 * pts_mmap() - map one CPU's ring read-only.
 * @file: the open device.
 * @vma: the mapping; vm_pgoff selects CPU and offset.
 *
 * Return: 0; -EPERM for a writable or executable mapping, or a caller
 * that may not use the capture (pts_perm_operate()); -EINVAL for an
 * offset naming no ring (no such CPU or not selected, past the end, a
 * compact offset with bits 31-33 set, or the sideband offset: read the
 * sideband with read()); -ENODEV when not configured.
 * Context: process context (mmap_lock held), may sleep.
 */
int pts_mmap(struct file *file, struct vm_area_struct *vma)
{
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u64 len = vma->vm_end - vma->vm_start;
	struct pts_refusal why = {};
	struct pts_bufset *b;
	u64 cpu, in;
	int err;

	/* a ring fits in the compact encoding's span (include/uapi/ptscope.h) */
	BUILD_BUG_ON(PTS_BUFFER_MAX > PTSCOPE_MMAP_RING_SPAN);
	if (vma->vm_flags & (VM_WRITE | VM_EXEC))
		return -EPERM;
	if (pts_mmap_ring_decode(off, &cpu, &in) || cpu >= nr_cpu_ids)
		return -EINVAL;

	/*
	 * Not pts.lock, which is never taken under mmap_lock (held here):
	 * a path holding pts.lock may need mmap_lock (a page fault), so the
	 * two would be taken in both orders. A reference keeps the rings
	 * alive instead.
	 */
	spin_lock(&pts.bufs_lock);
	b = pts.bufs;
	if (b)
		pts_bufset_get(b);
	spin_unlock(&pts.bufs_lock);
	if (!b)
		return -ENODEV;
	err = pts_perm_operate(b, &why);
	if (err)
		goto out;
	err = -EINVAL;
	if (!b->cpu[cpu] || in + len > b->plan.buffer_size)
		goto out;
	pts_vm_flags_clear(vma, VM_MAYWRITE | VM_MAYEXEC);
	pts_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	err = map_ring(vma, b, b->cpu[cpu], in);
	if (err)
		goto out;
	vma->vm_private_data = b;
	vma->vm_ops = &pts_vm_ops;
	atomic_inc(&b->mapcount);
	return 0;
out:
	pts_bufset_put(b);
	return err;
}
