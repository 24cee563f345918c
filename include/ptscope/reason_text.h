/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Text for each enum ptscope_reason: what the module logs and what the
 * ptscope command prints after a refused ioctl. One table for both, so
 * the words never drift apart. Pure C; needs include/uapi/ptscope.h.
 */
#ifndef _PTSCOPE_REASON_TEXT_H
#define _PTSCOPE_REASON_TEXT_H

static const char * const ptscope_reason_text[PTSCOPE_R_COUNT] = {
	[PTSCOPE_R_NONE] =
		"no error",
	[PTSCOPE_R_BAD_SIZE] =
		"struct size unknown to this module (rebuild ptscope against the loaded module's ABI)",
	[PTSCOPE_R_RESERVED_NONZERO] =
		"a reserved field is not zero",
	[PTSCOPE_R_BAD_FLAGS] =
		"unknown flag bits set",
	[PTSCOPE_R_BAD_SCOPE] =
		"scope must be user, kernel or both",
	[PTSCOPE_R_NEED_CAP_ADMIN] =
		"kernel scope, system-wide capture and CPU-wide triggers need CAP_SYS_ADMIN or CAP_PERFMON",
	[PTSCOPE_R_NEED_PTRACE] =
		"no ptrace access to the target pid (same user and a dumpable process, or CAP_SYS_PTRACE)",
	[PTSCOPE_R_NO_SUCH_PID] =
		"no such process",
	[PTSCOPE_R_BAD_BUFFER_SIZE] =
		"buffer_size must be a power of two from 4 KiB to 1 GiB",
	[PTSCOPE_R_BAD_CPU_MASK] =
		"cpu_mask names no online CPU or a CPU that does not exist",
	[PTSCOPE_R_NO_MTC] =
		"this CPU has no MTC (CPUID.14H.0:EBX[3])",
	[PTSCOPE_R_BAD_MTC_PERIOD] =
		"MTC period not in CPUID.14H.1:EAX[31:16]",
	[PTSCOPE_R_NO_CYC] =
		"this CPU has no CYC/PSB-period control (CPUID.14H.0:EBX[1])",
	[PTSCOPE_R_BAD_CYC_THRESH] =
		"cycle threshold not in CPUID.14H.1:EBX[15:0]",
	[PTSCOPE_R_BAD_PSB_PERIOD] =
		"PSB period not in CPUID.14H.1:EBX[31:16]",
	[PTSCOPE_R_NO_PTWRITE] =
		"this CPU has no PTWRITE (CPUID.14H.0:EBX[4])",
	[PTSCOPE_R_NO_PWR_EVT] =
		"this CPU has no power event trace (CPUID.14H.0:EBX[5])",
	[PTSCOPE_R_NO_CR3_FILTER] =
		"this CPU has no CR3 filtering (CPUID.14H.0:EBX[0])",
	[PTSCOPE_R_TOO_MANY_RANGES] =
		"more address ranges than CPUID.14H.1:EAX[2:0] allows",
	[PTSCOPE_R_ADDR_NOT_CANONICAL] =
		"address range bound is not a canonical address",
	[PTSCOPE_R_BAD_ADDR_RANGE] =
		"address range start is above its end",
	[PTSCOPE_R_BAD_ADDR_CFG] =
		"address range cfg must be 0 (off), 1 (filter) or 2 (TraceStop)",
	[PTSCOPE_R_NEED_BRANCH_EN] =
		"BranchEn cannot be cleared on this CPU (erratum BDM106)",
	[PTSCOPE_R_NO_TOPA] =
		"this CPU has no ToPA output (CPUID.14H.0:ECX[0])",
	[PTSCOPE_R_TRACE_EN_BUSY] =
		"RTIT_CTL.TraceEn is already set on a CPU: perf intel_pt, firmware or a hypervisor owns PT",
	[PTSCOPE_R_NOT_CONFIGURED] =
		"configure before start",
	[PTSCOPE_R_ARMED] =
		"not allowed while armed: stop first",
	[PTSCOPE_R_NOT_ARMED] =
		"not armed",
	[PTSCOPE_R_NO_MEMORY] =
		"cannot allocate the trace buffers (try a smaller --size)",
	[PTSCOPE_R_BAD_TRIGGER] =
		"bad trigger specification",
	[PTSCOPE_R_TRACEPOINT_NOT_FOUND] =
		"no built-in kernel tracepoint of that name (see /sys/kernel/tracing/available_events)",
	[PTSCOPE_R_HOTKEY_UNAVAILABLE] =
		"that sysrq key is taken by another handler",
	[PTSCOPE_R_PT_ERROR_AT_ENABLE] =
		"RTIT_STATUS.Error was set right after enable: the PT unit refused the configuration",
	[PTSCOPE_R_MSR_FAULT] =
		"an RTIT MSR access faulted (#GP)",
	[PTSCOPE_R_BAD_MODE] =
		"mode must be snapshot or full",
	[PTSCOPE_R_MAPPED] =
		"buffers are mapped: unmap them before reconfiguring",
	[PTSCOPE_R_BAD_CPU] =
		"no such CPU",
	[PTSCOPE_R_TIMING_FLAGS] =
		"MTC/CYC value given without enabling it",
	[PTSCOPE_R_BAD_SIDEBAND_SIZE] =
		"sideband_size must be a power of two from 4 KiB to 64 MiB",
	[PTSCOPE_R_NO_PT] =
		"this CPU has no Intel PT (CPUID.07H:EBX[25])",
	[PTSCOPE_R_BAD_BUFFER] =
		"bad user buffer pointer or length",
	[PTSCOPE_R_NOT_OWNER] =
		"the capture belongs to another user: only its owner or CAP_PERFMON may use it",
	[PTSCOPE_R_TARGET_EXITED] =
		"the CR3-filtered process has exited or exec'd: configure again",
	[PTSCOPE_R_BUFFER_LIMIT] =
		"buffer larger than the module's unpriv_buffer_kb limit: use a smaller --size, or CAP_PERFMON",
	[PTSCOPE_R_FOREIGN_TRACE] =
		"another PT user (perf intel_pt, KVM, firmware) set TraceEn on this CPU during the capture: its tracing was left alone and this CPU's trace ends there",
	[PTSCOPE_R_FOREIGN_INTO_OURS] =
		"another PT user set TraceEn on this CPU with ptscope's ToPA tables: ptscope cleared TraceEn before freeing them; the end of this CPU's ring may hold that user's trace",
	[PTSCOPE_R_FOREIGN_STOP] =
		"another PT user (perf intel_pt, KVM) cleared TraceEn or rewrote RTIT MSRs on this CPU during the capture: this CPU's trace ends early and that user's values were kept",
	[PTSCOPE_R_VMX_NO_PT] =
		"this CPU is in VMX operation (KVM) and cannot trace there (IA32_VMX_MISC[14] = 0): unload kvm_intel or trace other CPUs",
	[PTSCOPE_R_UPROBE_FILE] =
		"the uprobe trigger's file is not a regular file open for reading (reason_arg = the fd)",
	[PTSCOPE_R_UPROBE_OFFSET] =
		"the uprobe trigger's offset is past the end of its file (reason_arg = the offset)",
	[PTSCOPE_R_UPROBE_REFUSED] =
		"the kernel refused the uprobe (reason_arg = its errno: e.g. EINVAL or ENOTSUPP for an instruction that cannot be probed, EEXIST for an incompatible probe at that offset)",
	[PTSCOPE_R_SHUTTING_DOWN] =
		"the system is restarting, powering off or kexec'ing: tracing was stopped for good by the module's reboot notifier",
	[PTSCOPE_R_NEED_SYS_ADMIN] =
		"a uprobe (user-function) trigger needs CAP_SYS_ADMIN, as perf's uprobes do (CAP_PERFMON is not enough)",
	[PTSCOPE_R_SUSPENDING] =
		"the system is suspending, hibernating or restoring a hibernation image: START again once it has resumed",
	[PTSCOPE_R_LBR_ACTIVE] =
		"IA32_DEBUGCTL.LBR is set on this CPU (perf -b, --call-graph lbr, or another LBR user): on this CPU model perf never runs LBR beside PT, nor does ptscope: end that user or trace other CPUs",
	[PTSCOPE_R_BTS_ACTIVE] =
		"IA32_DEBUGCTL.BTS or .TR is set on this CPU (perf's intel_bts, or another branch trace store user): on this CPU model perf never runs BTS beside PT, nor does ptscope: end that user or trace other CPUs",
};

/* Text for reason code r; a fixed string for codes this build does not know. */
static inline const char *ptscope_reason_str(unsigned int r)
{
	if (r < PTSCOPE_R_COUNT && ptscope_reason_text[r])
		return ptscope_reason_text[r];
	return "unknown reason code (module newer than this tool?)";
}

#endif /* _PTSCOPE_REASON_TEXT_H */
