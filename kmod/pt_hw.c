// SPDX-License-Identifier: GPL-2.0
/*
 * The hardware PT unit: CPUID and the safe MSR accessors on the current
 * CPU. A faulting access (#GP: reserved bit, unsupported encoding, write
 * while TraceEn is set, SDM 33.2.8) returns -EIO instead of oopsing.
 * Presence of PT is decided from CPUID only: under QEMU TCG the RTIT MSRs
 * read as 0 without faulting (pt-facts section 1).
 */
#include <asm/processor.h>

#include "compat.h"
#include "ptscope_internal.h"

static void pt_hw_cpuid(u32 leaf, u32 subleaf, u32 *eax, u32 *ebx, u32 *ecx,
			u32 *edx)
{
	unsigned int a, b, c, d;

	cpuid_count(leaf, subleaf, &a, &b, &c, &d);
	*eax = a;
	*ebx = b;
	*ecx = c;
	*edx = d;
}

static int pt_hw_rdmsr(u32 msr, u64 *val)
{
	return pts_rdmsr_safe(msr, val) ? -EIO : 0;
}

static int pt_hw_wrmsr(u32 msr, u64 val)
{
	return pts_wrmsr_safe(msr, val) ? -EIO : 0;
}

const struct pt_unit_ops pt_hw_ops = {
	.name = "hardware",
	.simulated = false,
	.cpuid = pt_hw_cpuid,
	.rdmsr = pt_hw_rdmsr,
	.wrmsr = pt_hw_wrmsr,
};
