/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ptscope ioctl ABI, shared by ptscope.ko and the ptscope command.
 *
 * Rules (docs/abi.md explains each):
 *  - Every argument struct starts with struct ptscope_hdr: its size in
 *    bytes as the caller compiled it, then two output fields the module
 *    fills when it refuses the call (reason code and the refused value).
 *  - A caller may pass a struct larger than the module knows if every
 *    byte past the module's size is zero (copy_struct_from_user rules);
 *    a smaller struct than the first published size is refused with
 *    EINVAL / PTSCOPE_R_BAD_SIZE.
 *  - Reserved fields and unknown flag bits must be zero (EINVAL,
 *    PTSCOPE_R_RESERVED_NONZERO / PTSCOPE_R_BAD_FLAGS).
 *  - The reason and reason_arg fields must be zero on input.
 *  - Every refusal returns -1 with errno set AND copies the header back,
 *    so the tool can print ptscope_reason_str(hdr.reason).
 */
#ifndef _UAPI_PTSCOPE_H
#define _UAPI_PTSCOPE_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define PTSCOPE_DEVICE_NAME	"ptscope"	/* /dev/ptscope */
#define PTSCOPE_ABI_VERSION	1

/* Upper bound on CPUs the ABI can name (cpu masks are fixed arrays). */
#define PTSCOPE_MAX_CPUS	1024
#define PTSCOPE_CPU_MASK_WORDS	(PTSCOPE_MAX_CPUS / 64)

/* Address ranges: the SDM allows at most 4 (CPUID.14H.1:EAX[2:0] <= 4). */
#define PTSCOPE_MAX_ADDR_RANGES	4

/* Lengths of the fixed string fields, bytes including the NUL. */
#define PTSCOPE_TRACEPOINT_LEN	64	/* "subsystem:event" */
#define PTSCOPE_COMM_LEN	16	/* TASK_COMM_LEN */
#define PTSCOPE_PATH_LEN	256	/* exec filename in the sideband */

/*
 * mmap: a CPU's trace buffer is mapped read-only at file offset
 * (cpu << PTSCOPE_MMAP_CPU_SHIFT); the mapping length is at most the
 * CPU's buffer_size. The bytes are the ToPA regions in ring order,
 * i.e. ring offset 0 is the first byte of the first region.
 * The sideband ring is mapped at PTSCOPE_MMAP_SIDEBAND_OFFSET.
 */
#define PTSCOPE_MMAP_CPU_SHIFT		40
#define PTSCOPE_MMAP_SIDEBAND_OFFSET	(1ULL << 62)

/*
 * The same rings at a second, compact file offset, for 32-bit callers:
 * mmap2 takes a 32-bit page offset, so their file offsets stop below
 * 1 << 44, and cpu << PTSCOPE_MMAP_CPU_SHIFT reaches CPUs 0 to 15 only.
 * PTSCOPE_MMAP_RING_OFFSET(cpu) plus a page-aligned offset into the ring
 * below PTSCOPE_MMAP_RING_SPAN maps the same bytes as
 * (cpu << PTSCOPE_MMAP_CPU_SHIFT) plus that offset, for every CPU below
 * PTSCOPE_MAX_CPUS, from 32-bit and 64-bit callers alike. Bit 30 tells
 * the two apart: a ring is at most 1 GiB (PTSCOPE_MMAP_RING_SPAN), so an
 * offset of the first encoding never sets it; bits 31-33 of a compact
 * offset are zero.
 */
#define PTSCOPE_MMAP_RING_FLAG		(1ULL << 30)
#define PTSCOPE_MMAP_RING_SPAN		(1ULL << 30)
#define PTSCOPE_MMAP_RING_CPU_SHIFT	34
#define PTSCOPE_MMAP_RING_OFFSET(cpu)	\
	(PTSCOPE_MMAP_RING_FLAG | ((__u64)(cpu) << PTSCOPE_MMAP_RING_CPU_SHIFT))

/*
 * Reason codes: why the module refused a call. Values are ABI: never
 * renumber, only append. include/ptscope/reason_text.h gives the text
 * the module logs and the tool prints.
 */
enum ptscope_reason {
	PTSCOPE_R_NONE = 0,
	PTSCOPE_R_BAD_SIZE = 1,
	PTSCOPE_R_RESERVED_NONZERO = 2,
	PTSCOPE_R_BAD_FLAGS = 3,
	PTSCOPE_R_BAD_SCOPE = 4,
	PTSCOPE_R_NEED_CAP_ADMIN = 5,
	PTSCOPE_R_NEED_PTRACE = 6,
	PTSCOPE_R_NO_SUCH_PID = 7,
	PTSCOPE_R_BAD_BUFFER_SIZE = 8,
	PTSCOPE_R_BAD_CPU_MASK = 9,
	PTSCOPE_R_NO_MTC = 10,
	PTSCOPE_R_BAD_MTC_PERIOD = 11,
	PTSCOPE_R_NO_CYC = 12,
	PTSCOPE_R_BAD_CYC_THRESH = 13,
	PTSCOPE_R_BAD_PSB_PERIOD = 14,
	PTSCOPE_R_NO_PTWRITE = 15,
	PTSCOPE_R_NO_PWR_EVT = 16,
	PTSCOPE_R_NO_CR3_FILTER = 17,
	PTSCOPE_R_TOO_MANY_RANGES = 18,
	PTSCOPE_R_ADDR_NOT_CANONICAL = 19,
	PTSCOPE_R_BAD_ADDR_RANGE = 20,
	PTSCOPE_R_BAD_ADDR_CFG = 21,
	PTSCOPE_R_NEED_BRANCH_EN = 22,
	PTSCOPE_R_NO_TOPA = 23,
	PTSCOPE_R_TRACE_EN_BUSY = 24,
	PTSCOPE_R_NOT_CONFIGURED = 25,
	PTSCOPE_R_ARMED = 26,
	PTSCOPE_R_NOT_ARMED = 27,
	PTSCOPE_R_NO_MEMORY = 28,
	PTSCOPE_R_BAD_TRIGGER = 29,
	PTSCOPE_R_TRACEPOINT_NOT_FOUND = 30,
	PTSCOPE_R_HOTKEY_UNAVAILABLE = 31,
	PTSCOPE_R_PT_ERROR_AT_ENABLE = 32,
	PTSCOPE_R_MSR_FAULT = 33,
	PTSCOPE_R_BAD_MODE = 34,
	PTSCOPE_R_MAPPED = 35,
	PTSCOPE_R_BAD_CPU = 36,
	PTSCOPE_R_TIMING_FLAGS = 37,
	PTSCOPE_R_BAD_SIDEBAND_SIZE = 38,
	PTSCOPE_R_NO_PT = 39,
	PTSCOPE_R_BAD_BUFFER = 40,
	PTSCOPE_R_NOT_OWNER = 41,
	PTSCOPE_R_TARGET_EXITED = 42,
	PTSCOPE_R_BUFFER_LIMIT = 43,
	PTSCOPE_R_FOREIGN_TRACE = 44,
	PTSCOPE_R_FOREIGN_INTO_OURS = 45,
	PTSCOPE_R_FOREIGN_STOP = 46,
	PTSCOPE_R_VMX_NO_PT = 47,
	PTSCOPE_R_UPROBE_FILE = 48,
	PTSCOPE_R_UPROBE_OFFSET = 49,
	PTSCOPE_R_UPROBE_REFUSED = 50,
	PTSCOPE_R_SHUTTING_DOWN = 51,
	PTSCOPE_R_NEED_SYS_ADMIN = 52,
	PTSCOPE_R_SUSPENDING = 53,
	PTSCOPE_R_LBR_ACTIVE = 54,
	PTSCOPE_R_BTS_ACTIVE = 55,
	PTSCOPE_R_COUNT	/* first unused value */
};

/* Common first member of every ioctl argument. */
struct ptscope_hdr {
	__u32 size;		/* in: sizeof(the whole struct) */
	__u32 reason;		/* out: enum ptscope_reason on refusal; 0 in */
	__u64 reason_arg;	/* out: the refused value (or CPU); 0 in */
};

/*
 * reason_arg of PTSCOPE_R_BAD_TRIGGER and PTSCOPE_R_RESERVED_NONZERO: the
 * byte offset, in the struct passed, of the field refused (one reason
 * covers many fields; the caller holds the value it sent). This value
 * instead: no field of the caller's (the module's own RTIT_CTL check).
 */
#define PTSCOPE_ARG_NO_FIELD	(~(__u64)0)

/* ------------------------------------------------------------------ */
/* PTSCOPE_IOC_GET_CAPS: what this CPU and module can do.              */

#define PTSCOPE_CAPS_PT			(1U << 0) /* CPUID.07H:EBX[25] */
#define PTSCOPE_CAPS_SIMULATED		(1U << 1) /* simulated PT unit */
#define PTSCOPE_CAPS_CAP_PERFMON	(1U << 2) /* kernel knows CAP_PERFMON */
#define PTSCOPE_CAPS_BDM106		(1U << 3) /* BranchEn must stay set */
#define PTSCOPE_CAPS_VMX		(1U << 4) /* CPUID.01H:ECX[5]: VMX */
#define PTSCOPE_CAPS_VMX_PT		(1U << 5) /* IA32_VMX_MISC[14]: PT in VMX operation */
/*
 * Kernel scope also goes through the kernel's perf_allow_kernel() (its
 * perf_event_paranoid test and the LSM hook security_perf_event_open()):
 * exported on 6.12, not on 6.1, where perfmon_capable() alone decides
 * (docs/abi.md, Permissions).
 */
#define PTSCOPE_CAPS_PERF_ALLOW_KERNEL	(1U << 6)
/*
 * The module stops PT on the CPU that jumps to a crash kernel (kdump),
 * right before the jump, whatever crash_kexec_post_notifiers says: a
 * kprobe on machine_crash_shutdown() (docs/abi.md, "What a PANIC
 * snapshot can promise"). Without it that CPU traces on into the crash
 * kernel, and START says so with PTSCOPE_STATEF_CRASH_KERNEL.
 */
#define PTSCOPE_CAPS_CRASH_STOP		(1U << 7)

/* Decoded CPUID.14H.0 feature bits (same positions as EBX/ECX there). */
struct ptscope_caps {
	struct ptscope_hdr hdr;
	__u32 abi_version;	/* PTSCOPE_ABI_VERSION of the module */
	__u32 flags;		/* PTSCOPE_CAPS_* */
	char vendor[16];	/* CPUID.0 vendor string, NUL-terminated */
	__u32 family;		/* display family (SDM vol. 2A, CPUID) */
	__u32 model;		/* display model */
	__u32 stepping;
	__u32 max_phys_addr;	/* MAXPHYADDR in bits, CPUID.80000008H:EAX[7:0] */
	__u32 max_leaf;		/* CPUID.0:EAX */
	__u32 cpuid_7_ebx;	/* CPUID.(7,0):EBX raw */
	__u32 cpuid_14_0[4];	/* CPUID.(14H,0) EAX EBX ECX EDX raw */
	__u32 cpuid_14_1[4];	/* CPUID.(14H,1) EAX EBX ECX EDX raw */
	__u32 cpuid_15[3];	/* CPUID.15H EAX (denominator) EBX (numerator) ECX (crystal Hz) */
	__u32 nom_freq;		/* MSR_PLATFORM_INFO[15:8], 0 if unreadable */
	__u64 platform_info;	/* MSR_PLATFORM_INFO raw */
	__u32 tsc_khz;		/* kernel's TSC frequency, kHz */
	__u32 nr_addr_ranges;	/* CPUID.14H.1:EAX[2:0] */
	__u32 mtc_period_bitmap;	/* CPUID.14H.1:EAX[31:16] */
	__u32 cyc_thresh_bitmap;	/* CPUID.14H.1:EBX[15:0] */
	__u32 psb_period_bitmap;	/* CPUID.14H.1:EBX[31:16] */
	__u32 nr_cpus;		/* nr_cpu_ids */
	__u64 online_mask[PTSCOPE_CPU_MASK_WORDS];
	__u64 min_buffer_size;	/* bytes */
	__u64 max_buffer_size;	/* bytes per CPU */
	__u64 vmx_misc;		/* IA32_VMX_MISC (0x485) raw, 0 without VMX */
	__u64 reserved[7];
};

/* ------------------------------------------------------------------ */
/* PTSCOPE_IOC_CONFIGURE                                               */

/* Scope: exactly the RTIT_CTL OS (bit 2) and User (bit 3) selection. */
enum ptscope_scope {
	PTSCOPE_SCOPE_USER = 1,		/* User only (magic-trace Userspace) */
	PTSCOPE_SCOPE_KERNEL = 2,	/* OS only (-trace-kernel-only) */
	PTSCOPE_SCOPE_BOTH = 3,		/* OS + User (-trace-include-kernel) */
};

enum ptscope_mode {
	PTSCOPE_MODE_SNAPSHOT = 0,	/* ring, no INT/STOP: wraps */
	PTSCOPE_MODE_FULL = 1,		/* STOP on the last region */
};

/* config.timing: each maps to one RTIT_CTL bit (SDM 33.2.7.2). */
#define PTSCOPE_TIMING_TSC	(1U << 0)	/* TSCEn */
#define PTSCOPE_TIMING_MTC	(1U << 1)	/* MTCEn, mtc_freq */
#define PTSCOPE_TIMING_CYC	(1U << 2)	/* CYCEn, cyc_thresh */
#define PTSCOPE_TIMING_ALL	0x7U

/* config.trace_flags */
#define PTSCOPE_TRACE_NO_BRANCH	(1U << 0)	/* clear BranchEn */
#define PTSCOPE_TRACE_DISRETC	(1U << 1)	/* DisRETC */
#define PTSCOPE_TRACE_PTWRITE	(1U << 2)	/* PTWEn */
#define PTSCOPE_TRACE_FUP_ON_PTW	(1U << 3)	/* FUPonPTW */
#define PTSCOPE_TRACE_PWR_EVT	(1U << 4)	/* PwrEvtEn */
#define PTSCOPE_TRACE_ALL	0x1fU

/* config.flags */
#define PTSCOPE_CFG_CR3_FILTER	(1U << 0)	/* filter on cr3_pid's CR3 */
/*
 * Record the traced processes' syscalls (raw_syscalls:sys_enter and
 * sys_exit) and user page faults (exceptions:page_fault_user) in the
 * sideband: PTSCOPE_SB_SYS_ENTER, _SYS_EXIT, _PAGE_FAULT. Traced: the
 * CR3-filtered process, else every user task on a traced CPU. A flag of
 * the first published struct: an older caller leaves it clear (off).
 */
#define PTSCOPE_CFG_SYSREC	(1U << 1)
#define PTSCOPE_CFG_ALL		0x3U

/* Address range cfg: RTIT_CTL.ADDRn_CFG values (SDM 33.2.4.3). */
enum ptscope_addr_cfg {
	PTSCOPE_ADDR_OFF = 0,
	PTSCOPE_ADDR_FILTER = 1,
	PTSCOPE_ADDR_STOP = 2,
};

struct ptscope_addr_range {
	__u64 start;		/* first byte, canonical linear address */
	__u64 end;		/* last byte (inclusive, as ADDRn_B) */
	__u32 cfg;		/* enum ptscope_addr_cfg */
	__u32 reserved;
};

/* Trigger kinds (trigger.kinds). The ioctl trigger always works. */
#define PTSCOPE_TRIG_TRACEPOINT	(1U << 0)
#define PTSCOPE_TRIG_HOTKEY	(1U << 1)
#define PTSCOPE_TRIG_UPROBE	(1U << 2)	/* config.uprobe */
#define PTSCOPE_TRIG_KINDS_ALL	0x7U

/* trigger.flags */
#define PTSCOPE_TRIGF_MULTI	(1U << 0)	/* re-arm after each snapshot */
#define PTSCOPE_TRIGF_TID	(1U << 1)	/* tracepoint_pid names a thread */
#define PTSCOPE_TRIGF_ALL	0x3U

struct ptscope_trigger_spec {
	__u32 kinds;			/* PTSCOPE_TRIG_* */
	__u32 flags;			/* PTSCOPE_TRIGF_* */
	/*
	 * Fire only for this process (a pid of the caller's pid namespace),
	 * or thread with PTSCOPE_TRIGF_TID; 0 = any.
	 */
	__s32 tracepoint_pid;
	__u32 hotkey;			/* sysrq key character; 0 = module default */
	__u32 post_trigger_us;		/* keep tracing this long after it */
	__u32 reserved0;
	char tracepoint[PTSCOPE_TRACEPOINT_LEN];	/* "subsystem:event" */
	__u64 reserved[2];
};

/*
 * The user-function trigger (PTSCOPE_TRIG_UPROBE): a uprobe on one
 * instruction of a file, so it fires in every thread of every process
 * that maps the file (or of one process). All zero without the kind.
 */
struct ptscope_uprobe_spec {
	__s32 fd;		/* the probed file, open for reading by the caller */
	__s32 pid;		/* fire only in this process (caller's pid ns); 0 = any */
	__u64 offset;		/* file offset of the probed instruction, bytes */
	__u32 flags;		/* 0 */
	__u32 reserved0;
	__u64 reserved[3];
};

struct ptscope_config {
	struct ptscope_hdr hdr;
	__u32 flags;		/* PTSCOPE_CFG_* */
	__u32 scope;		/* enum ptscope_scope */
	__u32 mode;		/* enum ptscope_mode */
	__u32 timing;		/* PTSCOPE_TIMING_* */
	__u32 trace_flags;	/* PTSCOPE_TRACE_* */
	__u8 mtc_freq;		/* RTIT_CTL.MTCFreq: an MTC every 2^n ART ticks */
	__u8 cyc_thresh;	/* RTIT_CTL.CycThresh encoding */
	__u8 psb_freq;		/* RTIT_CTL.PSBFreq encoding (2K << n bytes) */
	__u8 reserved0;
	__u64 buffer_size;	/* bytes per CPU; power of two, 4 KiB .. 1 GiB */
	__u64 sideband_size;	/* bytes per CPU; power of two, 4 KiB .. 64 MiB; 0 = 256 KiB */
	__u64 cpu_mask[PTSCOPE_CPU_MASK_WORDS];	/* CPUs to trace */
	__s32 cr3_pid;		/* with PTSCOPE_CFG_CR3_FILTER: the process */
	__u32 nr_addr_ranges;	/* used entries of addr[] */
	struct ptscope_addr_range addr[PTSCOPE_MAX_ADDR_RANGES];
	struct ptscope_trigger_spec trigger;
	__u64 reserved[8];
	/* grown after ABI 1 was first published: */
	struct ptscope_uprobe_spec uprobe;
};

/* sizeof(struct ptscope_config) before uprobe (bytes): still accepted. */
#define PTSCOPE_CONFIG_SIZE_VER0	456

/* ------------------------------------------------------------------ */
/* PTSCOPE_IOC_START / STOP / TRIGGER                                   */

struct ptscope_cmd {
	struct ptscope_hdr hdr;
	__u32 flags;		/* must be 0 */
	__u32 reserved0;
	__u64 reserved[2];
};

/* ------------------------------------------------------------------ */
/* PTSCOPE_IOC_GET_STATE: global state, trigger and time correlation.   */

enum ptscope_run_state {
	PTSCOPE_STATE_IDLE = 0,		/* not configured */
	PTSCOPE_STATE_CONFIGURED = 1,	/* buffers allocated, not tracing */
	PTSCOPE_STATE_ARMED = 2,	/* tracing, waiting for a trigger */
	PTSCOPE_STATE_POST_TRIGGER = 3,	/* triggered, post-trigger delay */
	PTSCOPE_STATE_TRIGGERED = 4,	/* stopped by a trigger: snapshot ready */
	PTSCOPE_STATE_STOPPED = 5,	/* stopped by PTSCOPE_IOC_STOP or full */
};

enum ptscope_trigger_reason {
	PTSCOPE_TRIGGER_NONE = 0,
	PTSCOPE_TRIGGER_IOCTL = 1,
	PTSCOPE_TRIGGER_TRACEPOINT = 2,
	PTSCOPE_TRIGGER_HOTKEY = 3,
	PTSCOPE_TRIGGER_PANIC = 4,
	PTSCOPE_TRIGGER_SUSPEND = 5,
	PTSCOPE_TRIGGER_UPROBE = 6,
};

/* One instant read on one CPU, as close together as the kernel can. */
struct ptscope_time_pair {
	__u64 tsc;		/* TSC ticks (rdtsc) */
	__u64 realtime_ns;	/* CLOCK_REALTIME, ns */
	__u64 monotonic_ns;	/* CLOCK_MONOTONIC, ns */
};

struct ptscope_state {
	struct ptscope_hdr hdr;
	__u32 state;			/* enum ptscope_run_state */
	__u32 trigger_reason;		/* enum ptscope_trigger_reason */
	__u32 trigger_cpu;
	__s32 trigger_pid;		/* tgid current at the trigger (capture's pid ns) */
	__s32 trigger_tid;
	__u32 nr_snapshots;		/* triggers taken since configure */
	__u64 trigger_tsc;		/* TSC ticks at the trigger */
	__u64 rtit_ctl;			/* value written to RTIT_CTL */
	__u64 cr3_match;		/* value written to RTIT_CR3_MATCH */
	__u64 addr_a[PTSCOPE_MAX_ADDR_RANGES];	/* RTIT_ADDRn_A written */
	__u64 addr_b[PTSCOPE_MAX_ADDR_RANGES];	/* RTIT_ADDRn_B written */
	struct ptscope_time_pair time_at_start;
	struct ptscope_time_pair time_at_stop;
	__u32 tsc_khz;
	__u32 flags;			/* PTSCOPE_STATEF_* */
	__u64 sideband_lost;		/* records dropped, all CPUs: ring full */
	__u64 sideband_bytes;		/* unread bytes in the sideband rings */
	__u64 armed_cpu_mask[PTSCOPE_CPU_MASK_WORDS];
	__u64 reserved[8];
};

#define PTSCOPE_STATEF_SIMULATED	(1U << 0)
/* CR3 filter cannot cover all roots: the decoder filters by sideband */
#define PTSCOPE_STATEF_CR3_PARTIAL	(1U << 1)
#define PTSCOPE_STATEF_CR3_PCID		(1U << 2) /* PCID bits were masked */
#define PTSCOPE_STATEF_CR3_KPTI		(1U << 3) /* process has a user and a kernel root */
/*
 * Every CR3 this caller sees (cr3_match, the sideband's CR3 fields) is a
 * per-configuration identity, not a physical address: the caller lacks
 * CAP_SYS_ADMIN (docs/abi.md, "What an unprivileged caller sees").
 */
#define PTSCOPE_STATEF_CR3_IDENTITY	(1U << 4)
/* The CR3-filtered process's address space is gone (exit or exec). */
#define PTSCOPE_STATEF_TARGET_EXITED	(1U << 5)
/*
 * A crash kernel (kdump) was loaded when START armed the capture and the
 * module has no crash-kexec probe (no PTSCOPE_CAPS_CRASH_STOP): a crash
 * on an armed CPU keeps tracing into the crash kernel and overwrites that
 * CPU's ring (docs/abi.md, "What a PANIC snapshot can promise").
 */
#define PTSCOPE_STATEF_CRASH_KERNEL	(1U << 6)
/*
 * A panic ended the capture while it was tracing (ARMED, or POST_TRIGGER:
 * the post-trigger delay cut short); state TRIGGERED. Only a crash-dump
 * reader sees it (docs/abi.md, "What a PANIC snapshot can promise").
 */
#define PTSCOPE_STATEF_PANIC		(1U << 7)

/* ------------------------------------------------------------------ */
/* PTSCOPE_IOC_GET_CPU_STATUS: one CPU's buffer and PT unit state.       */

#define PTSCOPE_CPUF_SELECTED	(1U << 0)	/* in the configured mask */
#define PTSCOPE_CPUF_ONLINE	(1U << 1)
#define PTSCOPE_CPUF_ENABLED	(1U << 2)	/* TraceEn set by us now */
#define PTSCOPE_CPUF_WRAPPED	(1U << 3)	/* snapshot ring wrapped */
#define PTSCOPE_CPUF_ERROR	(1U << 4)	/* RTIT_STATUS.Error seen */
#define PTSCOPE_CPUF_STOPPED	(1U << 5)	/* RTIT_STATUS.Stopped seen (full) */
#define PTSCOPE_CPUF_CLOBBERED	(1U << 6)	/* RTIT_CTL changed by someone else */
#define PTSCOPE_CPUF_MSR_FAULT	(1U << 7)	/* an RTIT MSR access faulted */
#define PTSCOPE_CPUF_OFFLINED	(1U << 8)	/* went offline during capture */
/* Another owner's RTIT MSR values were found at arm (restored at stop). */
#define PTSCOPE_CPUF_FOREIGN_STATE	(1U << 9)
/* Another owner changed the unit during the capture: see .conflict. */
#define PTSCOPE_CPUF_CONFLICT	(1U << 10)
/* RTIT_STATUS.Stopped came from a TraceStop range (ADDRn_CFG = 2). */
#define PTSCOPE_CPUF_TRACESTOP	(1U << 11)
/* The CPU was in VMX operation (CR4.VMXE) at start or stop. */
#define PTSCOPE_CPUF_VMX	(1U << 12)

struct ptscope_cpu_status {
	struct ptscope_hdr hdr;
	__u32 cpu;		/* in */
	__u32 flags;		/* out: PTSCOPE_CPUF_* */
	__u64 buffer_size;	/* bytes in the ring */
	__u64 head;		/* ring offset of the next byte PT writes */
	__u64 bytes_valid;	/* head, or buffer_size once wrapped */
	__u64 wrap_count;	/* wraps seen by the module (lower bound) */
	__u64 rtit_ctl;		/* value written at enable */
	__u64 rtit_ctl_readback;	/* read back at the last stop */
	__u64 rtit_status;	/* RTIT_STATUS read at the last stop */
	__u64 output_base;	/* RTIT_OUTPUT_BASE at the last stop */
	__u64 output_mask_ptrs;	/* RTIT_OUTPUT_MASK_PTRS at the last stop */
	__u64 start_tsc;	/* TSC at enable */
	__u64 stop_tsc;		/* TSC at the last stop */
	__u32 nr_regions;	/* ToPA output regions in the ring */
	__u32 region_size;	/* bytes per region */
	__u32 conflict;		/* with CPUF_CONFLICT: enum ptscope_reason */
	__u32 reserved0;
	__u64 sideband_lost;	/* records this CPU's sideband ring dropped */
	__u64 sideband_bytes;	/* unread bytes in this CPU's sideband ring */
	__u64 reserved[5];
};

/* ------------------------------------------------------------------ */
/* PTSCOPE_IOC_READ_SIDEBAND: copy out whole sideband records.           */

struct ptscope_sideband_read {
	struct ptscope_hdr hdr;
	__u64 buf;		/* user pointer */
	__u32 buf_len;		/* bytes available at buf */
	__u32 bytes_read;	/* out: bytes of whole records copied */
	__u64 lost;		/* out: records lost since configure */
	__u64 reserved[2];
};

/*
 * Sideband records, TSC-stamped, 8-byte aligned, each starting with
 * struct ptscope_sb_hdr whose size covers header + payload (+ padding).
 * Also readable with read(2) on the device.
 */
enum ptscope_sb_type {
	PTSCOPE_SB_SCHED_SWITCH = 1,
	PTSCOPE_SB_EXEC = 2,
	PTSCOPE_SB_EXIT = 3,
	PTSCOPE_SB_FORK = 4,
	PTSCOPE_SB_TRIGGER = 5,
	PTSCOPE_SB_LOST = 6,
	PTSCOPE_SB_TRACE_START = 7,	/* TraceEn set on cpu */
	PTSCOPE_SB_TRACE_STOP = 8,	/* TraceEn cleared on cpu */
	/* with PTSCOPE_CFG_SYSREC: */
	PTSCOPE_SB_SYS_ENTER = 9,	/* struct ptscope_sb_syscall, ret 0 */
	PTSCOPE_SB_SYS_EXIT = 10,	/* struct ptscope_sb_syscall */
	PTSCOPE_SB_PAGE_FAULT = 11,	/* struct ptscope_sb_fault */
};

/*
 * Every pid and tid the module reports (sideband records, GET_STATE) is one
 * of the configuring task's pid namespace, as the pids it takes are; a task
 * that namespace cannot see is reported as this (pid and tid).
 */
#define PTSCOPE_PID_OUTSIDE	(-1)

struct ptscope_sb_hdr {
	__u16 type;		/* enum ptscope_sb_type */
	__u16 size;		/* bytes, header included, multiple of 8 */
	__u32 cpu;
	__u64 tsc;		/* TSC ticks */
};

struct ptscope_sb_switch {
	struct ptscope_sb_hdr hdr;
	__s32 prev_pid, prev_tid;
	__s32 next_pid, next_tid;
	__u64 next_cr3;		/* page-table root of next (user root with KPTI) */
	char next_comm[PTSCOPE_COMM_LEN];
	__u32 prev_state;	/* 0 = preempted (runnable) */
	__u32 reserved;
};

struct ptscope_sb_exec {
	struct ptscope_sb_hdr hdr;
	__s32 pid, tid;
	__u64 cr3;
	char comm[PTSCOPE_COMM_LEN];
	char filename[];	/* NUL-terminated, padded to 8 */
};

struct ptscope_sb_exit {
	struct ptscope_sb_hdr hdr;
	__s32 pid, tid;
};

struct ptscope_sb_fork {
	struct ptscope_sb_hdr hdr;
	__s32 parent_pid, parent_tid;
	__s32 child_pid, child_tid;
};

struct ptscope_sb_trigger {
	struct ptscope_sb_hdr hdr;
	__u32 reason;		/* enum ptscope_trigger_reason */
	__s32 pid, tid;
	__u32 reserved;
};

struct ptscope_sb_lost {
	struct ptscope_sb_hdr hdr;
	__u64 count;		/* records dropped before this one */
};

struct ptscope_sb_trace {		/* TRACE_START / TRACE_STOP */
	struct ptscope_sb_hdr hdr;
	__u64 rtit_ctl;
	__u64 rtit_status;
	__u64 head;		/* ring offset */
	/* in records of at least sizeof (not in PTSCOPE_SB_TRACE_SIZE_VER0 ones): */
	__s32 pid, tid;		/* task current on hdr.cpu (0/0 idle) */
	__u64 cr3;		/* its user page-table root, as next_cr3 of a switch */
};

/* TRACE_START/STOP records of modules before pid, tid and cr3 (bytes). */
#define PTSCOPE_SB_TRACE_SIZE_VER0	40

/*
 * SYS_ENTER / SYS_EXIT: a traced task enters or leaves a system call
 * (raw_syscalls:sys_enter / sys_exit), stamped inside the kernel's
 * syscall path: after the syscall instruction, before the return to user
 * mode. nr is the x86-64 syscall number (-1 when the kernel refused it
 * before the table, e.g. a seccomp kill); ret the value the task gets in
 * rax (a negative errno on failure). An execve that succeeds exits in the
 * new program; exit and exit_group never exit.
 */
struct ptscope_sb_syscall {
	struct ptscope_sb_hdr hdr;
	__s32 pid, tid;
	__s64 nr;		/* syscall number (orig_ax) */
	__s64 ret;		/* SYS_EXIT: return value; SYS_ENTER: 0 */
	__u64 ip;		/* user IP after the syscall instruction */
};

/*
 * PAGE_FAULT: a page fault taken in user mode by a traced task
 * (exceptions:page_fault_user), before the kernel handles it.
 */
struct ptscope_sb_fault {
	struct ptscope_sb_hdr hdr;
	__s32 pid, tid;
	__u64 address;		/* CR2: the faulting linear address */
	__u64 error_code;	/* the #PF error code (SDM vol. 3A 4.7) */
	__u64 ip;		/* user IP of the faulting instruction */
};

/* ------------------------------------------------------------------ */
/* PTSCOPE_IOC_GET_TRIGGER: what the capture's triggers are armed on.    */

struct ptscope_trigger_info {
	struct ptscope_hdr hdr;
	__u32 kinds;		/* PTSCOPE_TRIG_* registered */
	__u32 flags;		/* PTSCOPE_TRIGF_* */
	__s32 tracepoint_pid;	/* as configured (caller's pid namespace) */
	__u32 hotkey;		/* sysrq key registered, 0 none */
	__u32 post_trigger_us;
	__s32 uprobe_pid;	/* as configured; 0 any process */
	char tracepoint[PTSCOPE_TRACEPOINT_LEN];
	__u64 uprobe_offset;	/* file offset, bytes */
	__u64 uprobe_hits;	/* probe hits while the triggers were live */
	__u64 uprobe_ino;	/* the probed file's inode number ... */
	__u32 uprobe_dev;	/* ... and device (new_encode_dev()) */
	__u32 reserved0;
	char uprobe_path[PTSCOPE_PATH_LEN];	/* d_path() of the file, may be truncated */
	__u64 reserved[4];
};

/* ------------------------------------------------------------------ */
/* Commands. The magic 0xB7 is unused in ioctl-number.rst.              */

#define PTSCOPE_IOC_MAGIC	0xB7
#define PTSCOPE_IOC_GET_CAPS	_IOWR(PTSCOPE_IOC_MAGIC, 0x01, struct ptscope_caps)
#define PTSCOPE_IOC_CONFIGURE	_IOWR(PTSCOPE_IOC_MAGIC, 0x02, struct ptscope_config)
#define PTSCOPE_IOC_START	_IOWR(PTSCOPE_IOC_MAGIC, 0x03, struct ptscope_cmd)
#define PTSCOPE_IOC_STOP	_IOWR(PTSCOPE_IOC_MAGIC, 0x04, struct ptscope_cmd)
#define PTSCOPE_IOC_TRIGGER	_IOWR(PTSCOPE_IOC_MAGIC, 0x05, struct ptscope_cmd)
#define PTSCOPE_IOC_GET_STATE	_IOWR(PTSCOPE_IOC_MAGIC, 0x06, struct ptscope_state)
#define PTSCOPE_IOC_GET_CPU_STATUS _IOWR(PTSCOPE_IOC_MAGIC, 0x07, struct ptscope_cpu_status)
#define PTSCOPE_IOC_READ_SIDEBAND _IOWR(PTSCOPE_IOC_MAGIC, 0x08, struct ptscope_sideband_read)
#define PTSCOPE_IOC_UNCONFIGURE	_IOWR(PTSCOPE_IOC_MAGIC, 0x09, struct ptscope_cmd)
#define PTSCOPE_IOC_GET_TRIGGER	_IOWR(PTSCOPE_IOC_MAGIC, 0x0a, struct ptscope_trigger_info)

#endif /* _UAPI_PTSCOPE_H */
