/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PT unit behind an ops table: the rest of the module reaches RTIT
 * MSRs and PT CPUID leaves only through struct pt_unit_ops, so the same
 * code drives the real hardware (pt_hw.c, safe MSR accessors) and the
 * simulated unit (sim_*.c, a model of the SDM rules that writes a valid
 * packet stream into the ToPA regions).
 *
 * Context: rdmsr/wrmsr act on the CURRENT CPU and are called with IRQs
 * off on the target CPU (from an IPI/smp_call_function_single callback,
 * an hrtimer, or a tracepoint probe). They never sleep.
 */
#ifndef PTSCOPE_PT_UNIT_H
#define PTSCOPE_PT_UNIT_H

#include <linux/types.h>

struct pt_unit_ops {
	const char *name;		/* "hardware" or "simulated" */
	bool simulated;

	/* CPUID on the current CPU; the simulated unit answers for its model. */
	void (*cpuid)(u32 leaf, u32 subleaf, u32 *eax, u32 *ebx, u32 *ecx, u32 *edx);

	/*
	 * MSR access on the current CPU. Return 0, or -EIO when the access
	 * faulted (#GP): reserved bits, unsupported encodings, a write to an
	 * RTIT MSR other than CTL while TraceEn is set (SDM 33.2.8).
	 */
	int (*rdmsr)(u32 msr, u64 *val);
	int (*wrmsr)(u32 msr, u64 val);

	/* Optional per-unit setup/teardown at module load/unload (may sleep). */
	int (*init)(void);
	void (*exit)(void);

	/*
	 * Optional, simulated unit only: called on the current CPU with IRQs
	 * off right before tracing is stopped there, so the model can bring
	 * its output up to date (write packets for the time since its last
	 * tick). NULL for hardware.
	 */
	void (*sync)(void);
};

extern const struct pt_unit_ops pt_hw_ops;	/* pt_hw.c */
extern const struct pt_unit_ops pt_sim_ops;	/* sim_kernel.c */

#endif /* PTSCOPE_PT_UNIT_H */
