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

#endif /* PTSCOPE_COMPAT_H */
