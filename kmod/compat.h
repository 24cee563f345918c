/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API drift, in one place: the only file of the module that looks
 * at the kernel version. Supported: Debian's 6.1 and 6.12 kernels, and
 * the renames up to 6.16.
 */
#ifndef PTSCOPE_COMPAT_H
#define PTSCOPE_COMPAT_H

#include <linux/version.h>
#include <linux/hrtimer.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/perf_event.h>
#include <linux/uprobes.h>
#include <asm/msr.h>

/* The one version test; everything below is expressed through it. */
#define PTS_KERNEL_AT_LEAST(a, b, c)	(KERNEL_VERSION(a, b, c) <= LINUX_VERSION_CODE)

/* vm_flags became read-only in 6.3: vm_flags_set()/vm_flags_clear(). */
static inline void pts_vm_flags_set(struct vm_area_struct *vma,
				    unsigned long flags)
{
#if PTS_KERNEL_AT_LEAST(6, 3, 0)
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

static inline void pts_vm_flags_clear(struct vm_area_struct *vma,
				      unsigned long flags)
{
#if PTS_KERNEL_AT_LEAST(6, 3, 0)
	vm_flags_clear(vma, flags);
#else
	vma->vm_flags &= ~flags;
#endif
}

/* rdmsrl_safe()/wrmsrl_safe() were renamed rdmsrq_safe()/wrmsrq_safe() in 6.16. */
static inline int pts_rdmsr_safe(u32 msr, u64 *val)
{
#if PTS_KERNEL_AT_LEAST(6, 16, 0)
	return rdmsrq_safe(msr, val);
#else
	unsigned long long v = 0;
	int err = rdmsrl_safe(msr, &v);

	*val = v;
	return err;
#endif
}

static inline int pts_wrmsr_safe(u32 msr, u64 val)
{
#if PTS_KERNEL_AT_LEAST(6, 16, 0)
	return wrmsrq_safe(msr, val);
#else
	return wrmsrl_safe(msr, val);
#endif
}

/*
 * Largest order the page allocator hands out: MAX_ORDER - 1 until 6.4
 * (MAX_ORDER was exclusive), MAX_ORDER (inclusive) in 6.4-6.7,
 * MAX_PAGE_ORDER from 6.8.
 */
#if defined(MAX_PAGE_ORDER)
#define PTS_MAX_ALLOC_ORDER	MAX_PAGE_ORDER
#elif PTS_KERNEL_AT_LEAST(6, 4, 0)
#define PTS_MAX_ALLOC_ORDER	MAX_ORDER
#else
#define PTS_MAX_ALLOC_ORDER	(MAX_ORDER - 1)
#endif

/* The sysrq handler's key argument became u8 in 6.7. */
#if PTS_KERNEL_AT_LEAST(6, 7, 0)
#define PTS_SYSRQ_KEY_TYPE	u8
#else
#define PTS_SYSRQ_KEY_TYPE	int
#endif

/* hrtimer_setup() replaced hrtimer_init() + .function in 6.13. */
static inline void pts_hrtimer_setup(struct hrtimer *timer,
				     enum hrtimer_restart (*fn)(struct hrtimer *),
				     clockid_t clock, enum hrtimer_mode mode)
{
#if PTS_KERNEL_AT_LEAST(6, 13, 0)
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

/*
 * perf_allow_kernel(): perf_event_paranoid and the perf_event_open LSM
 * hook for kernel tracing. Exported (no attr argument) in 6.12; in 6.1 an
 * inline reading sysctl_perf_event_paranoid, which is not exported. There
 * the module relies on its perfmon_capable() check alone.
 * Context: process context. Return: 0 or -errno.
 */
static inline int pts_perf_allow_kernel(void)
{
#if PTS_KERNEL_AT_LEAST(6, 12, 0)
	return perf_allow_kernel();
#else
	return 0;
#endif
}

/* Does pts_perf_allow_kernel() reach the kernel's? For GET_CAPS. Context: any. */
static inline bool pts_perf_allow_kernel_applied(void)
{
	return PTS_KERNEL_AT_LEAST(6, 12, 0);
}

/*
 * The uprobe API was reworked between 6.1 and 6.12 (checked against
 * Debian's headers of both; kernels in between are not built here):
 *  - 6.1: int uprobe_register(inode, offset, uc);
 *    uprobe_unregister(inode, offset, uc) waits for running handlers
 *    (it takes the uprobe's register_rwsem for writing);
 *    filter(uc, enum uprobe_filter_ctx, mm).
 *  - 6.12: struct uprobe *uprobe_register(inode, offset, ref_ctr_offset,
 *    uc) (ERR_PTR on failure); uprobe_unregister_nosync(uprobe, uc) then
 *    uprobe_unregister_sync() to wait for handlers (RCU Tasks Trace and
 *    SRCU); filter(uc, mm).
 * struct pts_uprobe_reg carries what unregistering needs on either.
 */
struct pts_uprobe_reg {
	struct inode *inode;
	loff_t offset;
#if PTS_KERNEL_AT_LEAST(6, 12, 0)
	struct uprobe *uprobe;
#endif
};

#if PTS_KERNEL_AT_LEAST(6, 12, 0)
#define PTS_UPROBE_FILTER_ARGS	struct uprobe_consumer *uc, struct mm_struct *mm
#else
#define PTS_UPROBE_FILTER_ARGS	struct uprobe_consumer *uc,		\
				enum uprobe_filter_ctx ctx, struct mm_struct *mm
#endif

/*
 * Register @uc on @inode at file offset @offset (no reference counter).
 * Context: process context, may sleep. Return: 0 or -errno.
 */
static inline int pts_uprobe_register(struct pts_uprobe_reg *reg,
				      struct inode *inode, loff_t offset,
				      struct uprobe_consumer *uc)
{
#if PTS_KERNEL_AT_LEAST(6, 12, 0)
	struct uprobe *u = uprobe_register(inode, offset, 0, uc);

	if (IS_ERR(u))
		return PTR_ERR(u);
	reg->uprobe = u;
#else
	int err = uprobe_register(inode, offset, uc);

	if (err)
		return err;
#endif
	reg->inode = inode;
	reg->offset = offset;
	return 0;
}

/*
 * Unregister @uc and wait until no handler of it runs any more.
 * Context: process context, may sleep.
 */
static inline void pts_uprobe_unregister(struct pts_uprobe_reg *reg,
					 struct uprobe_consumer *uc)
{
#if PTS_KERNEL_AT_LEAST(6, 12, 0)
	uprobe_unregister_nosync(reg->uprobe, uc);
	uprobe_unregister_sync();
	reg->uprobe = NULL;
#else
	uprobe_unregister(reg->inode, reg->offset, uc);
#endif
	reg->inode = NULL;
}

#endif /* PTSCOPE_COMPAT_H */
