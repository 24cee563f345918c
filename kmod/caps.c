// SPDX-License-Identifier: GPL-2.0
/*
 * Probe the PT unit once at load (SDM 33.3.1 "Detection of Intel
 * Processor Trace and Capability Enumeration"): CPUID.07H:EBX[25], leaf
 * 14H sub-leaves 0 and 1, leaf 15H (TSC/crystal ratio), MSR_PLATFORM_INFO
 * [15:8] (nominal ratio, read with a safe accessor), family/model/
 * stepping, MAXPHYADDR, and with VMX IA32_VMX_MISC (bit 14: PT keeps
 * tracing in VMX operation). All CPUs are assumed to report the same PT
 * capabilities, as the SDM requires of PT-capable processors in one
 * system; the boot CPU is the one asked.
 */
#include <linux/bits.h>
#include <linux/capability.h>
#include <linux/cpufeature.h>
#include <linux/irqflags.h>
#include <linux/string.h>
#include <asm/tsc.h>

#include "compat.h"
#include "ptscope_internal.h"

#define CPUID_EXT_MAX		0x80000000U
#define CPUID_EXT_ADDR_SIZES	0x80000008U
#define CPUID_1_ECX_VMX		BIT(5)

static void probe_cpuid(const struct pt_unit_ops *ops, struct ptscope_caps *c)
{
	u32 a, b, cc, d, ext_max;

	ops->cpuid(0, 0, &a, &b, &cc, &d);
	c->max_leaf = a;
	memcpy(c->vendor, &b, 4);
	memcpy(c->vendor + 4, &d, 4);
	memcpy(c->vendor + 8, &cc, 4);
	c->vendor[12] = '\0';

	ops->cpuid(1, 0, &a, &b, &cc, &d);
	pts_cpuid_fms(a, &c->family, &c->model, &c->stepping);
	if (cc & CPUID_1_ECX_VMX)
		c->flags |= PTSCOPE_CAPS_VMX;

	if (c->max_leaf >= 7) {
		ops->cpuid(7, 0, &a, &b, &cc, &d);
		c->cpuid_7_ebx = b;
	}
	if (c->max_leaf >= 0x14 && (c->cpuid_7_ebx & PT_CPUID_7_EBX_PT)) {
		ops->cpuid(0x14, 0, &c->cpuid_14_0[0], &c->cpuid_14_0[1],
			   &c->cpuid_14_0[2], &c->cpuid_14_0[3]);
		/* Sub-leaf 1 exists when 14H.0:EAX (max sub-leaf) >= 1. */
		if (c->cpuid_14_0[0] >= 1)
			ops->cpuid(0x14, 1, &c->cpuid_14_1[0], &c->cpuid_14_1[1],
				   &c->cpuid_14_1[2], &c->cpuid_14_1[3]);
	}
	if (c->max_leaf >= 0x15)
		ops->cpuid(0x15, 0, &c->cpuid_15[0], &c->cpuid_15[1],
			   &c->cpuid_15[2], &d);

	ops->cpuid(CPUID_EXT_MAX, 0, &ext_max, &b, &cc, &d);
	c->max_phys_addr = 36;	/* SDM: 36 when leaf 80000008H is absent */
	if (ext_max >= CPUID_EXT_ADDR_SIZES) {
		ops->cpuid(CPUID_EXT_ADDR_SIZES, 0, &a, &b, &cc, &d);
		c->max_phys_addr = a & 0xff;
	}
}

/**
 * pts_caps_probe() - fill pts.caps and pts.pcaps from the PT unit.
 * @ops: the unit (hardware or simulated).
 *
 * Context: process context at module load; may not sleep inside (CPUID
 * and MSR reads run with IRQs off on the current CPU).
 * Return: 0, or -ENODEV (after one log line) when the CPU has no PT and
 * the unit is not simulated.
 */
int pts_caps_probe(const struct pt_unit_ops *ops)
{
	struct ptscope_caps *c = &pts.caps;
	struct pts_caps *p = &pts.pcaps;
	/* Through a local: <asm/msr.h> has a function-like rdmsr macro. */
	int (*rd)(u32 msr, u64 *val) = ops->rdmsr;
	unsigned long irqflags;
	unsigned int cpu;
	u64 info = 0;
	int err;

	memset(c, 0, sizeof(*c));
	local_irq_save(irqflags);
	/* probe_cpuid() sets PTSCOPE_CAPS_VMX before VMX_MISC is read. */
	probe_cpuid(ops, c);
	err = rd(RTIT_MSR_PLATFORM_INFO, &info);
	/* IA32_VMX_MISC exists when CPUID.01H:ECX[5] (VMX) is set. */
	if ((c->flags & PTSCOPE_CAPS_VMX) && rd(RTIT_MSR_VMX_MISC, &c->vmx_misc))
		c->vmx_misc = 0;
	local_irq_restore(irqflags);

	c->abi_version = PTSCOPE_ABI_VERSION;
	if (!err) {
		c->platform_info = info;
		c->nom_freq = (info >> 8) & 0xff;
	}
	c->tsc_khz = tsc_khz;
	c->nr_addr_ranges = pt_cpuid_nr_addr_ranges(c->cpuid_14_1[0]);
	c->mtc_period_bitmap = pt_cpuid_mtc_bitmap(c->cpuid_14_1[0]);
	c->cyc_thresh_bitmap = pt_cpuid_cyc_bitmap(c->cpuid_14_1[1]);
	c->psb_period_bitmap = pt_cpuid_psb_bitmap(c->cpuid_14_1[1]);
	c->nr_cpus = nr_cpu_ids;
	c->min_buffer_size = PTS_BUFFER_MIN;
	c->max_buffer_size = PTS_BUFFER_MAX;
	if (c->cpuid_7_ebx & PT_CPUID_7_EBX_PT)
		c->flags |= PTSCOPE_CAPS_PT;
	if (ops->simulated)
		c->flags |= PTSCOPE_CAPS_SIMULATED;
	c->flags |= PTSCOPE_CAPS_CAP_PERFMON;	/* CAP_PERFMON since 5.8 */
	/* Which rule kernel scope gets on this kernel (compat.h). */
	if (pts_perf_allow_kernel_applied())
		c->flags |= PTSCOPE_CAPS_PERF_ALLOW_KERNEL;
	if (pt_erratum_bdm106(c->family, c->model))
		c->flags |= PTSCOPE_CAPS_BDM106;
	if (c->vmx_misc & RTIT_VMX_MISC_PT_IN_VMX)
		c->flags |= PTSCOPE_CAPS_VMX_PT;
	for_each_online_cpu(cpu)
		if (cpu < PTSCOPE_MAX_CPUS)
			c->online_mask[cpu / 64] |= 1ULL << (cpu % 64);

	memset(p, 0, sizeof(*p));
	p->pt = c->flags & PTSCOPE_CAPS_PT;
	memcpy(p->cpuid_14_0, c->cpuid_14_0, sizeof(p->cpuid_14_0));
	memcpy(p->cpuid_14_1, c->cpuid_14_1, sizeof(p->cpuid_14_1));
	p->family = c->family;
	p->model = c->model;
	p->stepping = c->stepping;
	p->max_phys_addr = c->max_phys_addr;
	p->va_bits = boot_cpu_has(X86_FEATURE_LA57) ? 57 : 48;

	pts.lbr_pt_excl = pts_lbr_pt_exclusive(c->family, c->model);
	pts.kpti = boot_cpu_has(X86_FEATURE_PTI);
	pts.pcid = boot_cpu_has(X86_FEATURE_PCID);

	if (!p->pt) {
		if (c->max_leaf < 0x14)
			pts_err("no Intel PT: CPUID max leaf %#x < 0x14 (%s family %#x model %#x); load with simulate=1 for the simulated unit\n",
				c->max_leaf, c->vendor, c->family, c->model);
		else
			pts_err("no Intel PT: CPUID.07H:EBX[25] is 0 (%s family %#x model %#x); load with simulate=1 for the simulated unit\n",
				c->vendor, c->family, c->model);
		return -ENODEV;
	}
	if (!(c->cpuid_14_0[2] & PT_CPUID_ECX_TOPA)) {
		pts_err("Intel PT without ToPA output (CPUID.14H.0:ECX[0] is 0): not supported\n");
		return -ENODEV;
	}
	pts_info("%s family %#x model %#x stepping %u, leaf 14H.0 ebx %#x ecx %#x, %u address ranges, MENTRY %s, MAXPHYADDR %u\n",
		 c->vendor, c->family, c->model, c->stepping,
		 c->cpuid_14_0[1], c->cpuid_14_0[2], c->nr_addr_ranges,
		 (c->cpuid_14_0[2] & PT_CPUID_ECX_MENTRY) ? "yes" : "no",
		 c->max_phys_addr);
	return 0;
}
