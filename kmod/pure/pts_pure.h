/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure computations of ptscope.ko, compiled into the module and into the
 * host unit tests (see pure.h): configuration validation and RTIT_CTL
 * encoding, ToPA layout planning and table filling, write-head and wrap
 * arithmetic, CR3_MATCH derivation. No allocation, locking or MSR access:
 * callers pass in state and memory. The hardware rules come from the Intel
 * SDM vol. 3C chapter 33 ("Intel Processor Trace"); pt-facts sections 1-4
 * list them.
 */
#ifndef PTSCOPE_PTS_PURE_H
#define PTSCOPE_PTS_PURE_H

#include "pure.h"
#include "../../include/uapi/ptscope.h"

/* ---- capabilities (caps_decode.c) ------------------------------------ */

/* What the configuration check needs to know about the PT unit. */
struct pts_caps {
	bool pt;		/* CPUID.07H:EBX[25], or the simulated unit */
	u32 cpuid_14_0[4];	/* CPUID.(14H,0) EAX EBX ECX EDX */
	u32 cpuid_14_1[4];	/* CPUID.(14H,1) EAX EBX ECX EDX */
	u32 family, model, stepping;	/* display values */
	u32 max_phys_addr;	/* MAXPHYADDR, bits */
	u32 va_bits;		/* linear address width: 48, or 57 with LA57 */
};

/*
 * Display family/model/stepping from CPUID.01H:EAX (SDM vol. 2A, CPUID,
 * "Version Information"): family = base family, plus extended family when
 * base is 0xF; model = base model, plus extended model << 4 when the base
 * family is 6 or 0xF.
 */
void pts_cpuid_fms(u32 eax1, u32 *family, u32 *model, u32 *stepping);

/* ---- configuration -> RTIT_CTL (ctl_encode.c) ------------------------- */

/* A refusal: enum ptscope_reason and the refused value. */
struct pts_refusal {
	u32 reason;
	u64 arg;
};

/* The MSR values a configuration turns into (TraceEn not included). */
struct pts_ctl_plan {
	u64 rtit_ctl;
	u64 addr_a[PTSCOPE_MAX_ADDR_RANGES];
	u64 addr_b[PTSCOPE_MAX_ADDR_RANGES];
	u64 sideband_size;	/* bytes of each CPU's ring, default applied */
};

#define PTS_SIDEBAND_DEFAULT	(256ULL * 1024)	/* 256 KiB per CPU */
#define PTS_SIDEBAND_MIN	4096ULL
#define PTS_SIDEBAND_MAX	(64ULL << 20)
#define PTS_BUFFER_MIN		4096ULL
#define PTS_BUFFER_MAX		(1024ULL * 1024 * 1024)	/* 1 GiB */
#define PTS_POST_TRIGGER_MAX_US	10000000U	/* 10 s */

/*
 * Validate @cfg against the PT unit's @caps and build the RTIT_CTL and
 * ADDRn values. Nothing is written to hardware: the module calls this
 * before any MSR write (SDM 33.2.8.2: a reserved bit or an encoding the
 * CPUID bitmaps do not allow #GPs at WRMSR).
 *
 * The cpu_mask, cr3_pid and permission checks need the kernel and are
 * done by the module; CR3Filter is set here when requested and may be
 * cleared by the caller (see pts_cr3_plan()).
 *
 * Returns 0, or with @why filled:
 *  -EINVAL     malformed request (reserved/unknown bits, bad scope, mode,
 *              sizes, address ranges, trigger spec, timing values given
 *              without their enable);
 *  -ENODEV     no PT (PTSCOPE_R_NO_PT);
 *  -EOPNOTSUPP the CPU lacks a requested feature or encoding (reason names
 *              the CPUID bit or bitmap), or BranchEn must stay set (BDM106).
 */
int pts_config_check(const struct pts_caps *caps,
		     const struct ptscope_config *cfg,
		     struct pts_ctl_plan *plan, struct pts_refusal *why);

/* A key the sysrq core can dispatch: 0-9, a-z, A-Z. */
bool pts_sysrq_key_ok(u32 key);

/* ---- VMX (caps_decode.c) ----------------------------------------------- */

enum pts_vmx_verdict {
	PTS_VMX_OK,		/* no VMX, or PT keeps tracing in VMX operation */
	PTS_VMX_WARN,		/* a later VMXON would end the trace */
	PTS_VMX_REFUSE,		/* in VMX operation now: RTIT_CTL writes #GP */
};

/*
 * Can a CPU trace, given CPUID.01H:ECX[5] (@vmx), IA32_VMX_MISC
 * (@vmx_misc; bit 14: PT may be used in VMX operation, SDM vol. 3C
 * chapter 33 "Tracing post-VMXON") and CR4.VMXE on it now (@in_vmx)?
 * Without bit 14, VMXON clears TraceEn and RTIT_CTL cannot be set in
 * VMX operation (perf's intel_pt_handle_vmx() stops writing it there).
 */
enum pts_vmx_verdict pts_vmx_verdict(bool vmx, u64 vmx_misc, bool in_vmx);

/* ---- LBR and BTS beside PT (lbr_bts.c) --------------------------------- */

/*
 * Does perf keep PT apart from LBR and BTS on this CPU (family, model
 * from pts_cpuid_fms())? True for the PT parts on which perf's
 * intel_pmu_init() leaves x86_pmu.lbr_pt_coexist false, so that
 * x86_add_exclusive() lets only one of PT, LBR and BTS have events:
 * Broadwell, Skylake, Kaby/Coffee/Comet Lake and Cannon Lake. False for
 * Goldmont, Goldmont Plus, Tremont, Ice Lake and later cores, where perf
 * sets lbr_pt_coexist, and for anything but family 6.
 */
bool pts_lbr_pt_exclusive(u32 family, u32 model);

/*
 * Why one CPU may not trace beside its branch recording, given
 * @exclusive (pts_lbr_pt_exclusive()) and that CPU's IA32_DEBUGCTL:
 * PTSCOPE_R_LBR_ACTIVE when DEBUGCTL.LBR (bit 0) is set,
 * PTSCOPE_R_BTS_ACTIVE when DEBUGCTL.TR (bit 6) or .BTS (bit 7) is set
 * (BTS stores the branch trace messages TR enables: SDM vol. 3B
 * "Branch Trace Messages", "Branch Trace Store (BTS)"), LBR first when
 * both are; PTSCOPE_R_NONE when @exclusive is false or none is set. BTF
 * and BTINT alone record nothing.
 */
u32 pts_lbr_bts_reason(bool exclusive, u64 debugctl);

/* ---- ToPA layout (topa_plan.c) ----------------------------------------- */

/* ToPA entries per 4 KiB table holding regions: the last slot is END. */
#define PTS_TOPA_REGIONS_PER_TABLE	(TOPA_ENTRIES_PER_PAGE - 1)

struct pts_topa_plan {
	u64 buffer_size;	/* bytes, power of two */
	u64 region_size;	/* bytes, power of two, 4 KiB .. 128 MiB */
	u32 region_size_code;	/* ToPA Size field: region = 4 KiB << code */
	u32 nr_regions;
	u32 nr_tables;		/* 4 KiB tables, linked by END entries */
	bool mentry;		/* CPUID.14H.0:ECX[1] */
};

/*
 * Plan a ring of @buffer_size bytes (power of two, 4 KiB .. 1 GiB) with
 * regions of at most @max_region bytes (the largest block the page
 * allocator gives). With @mentry, regions of min(buffer_size, max_region)
 * bytes, up to 511 per table, END in the slot after the last region of
 * each table linking to the next table and from the last table back to
 * the first (SDM 33.2.7.2). Without MENTRY the CPU accepts only a table
 * whose entry 0 is the region and entry 1 an END pointing back at the
 * table itself, so the whole ring is one region.
 *
 * Returns 0, -EINVAL (buffer_size or max_region not a power of two in
 * range) or -E2BIG (single-entry CPU and buffer_size > max_region).
 */
int pts_topa_plan(u64 buffer_size, u64 max_region, bool mentry,
		  struct pts_topa_plan *p);

/* Regions held by table @t of plan @p. */
u32 pts_topa_regions_in_table(const struct pts_topa_plan *p, u32 t);

/*
 * Fill the tables of plan @p. @tables[t] points at table t (512 u64
 * entries), @table_phys[t] is its physical address (4 KiB aligned),
 * @region_phys[r] the physical address of region r (aligned to
 * region_size). @mode: PTSCOPE_MODE_SNAPSHOT (no INT, no STOP: the ring
 * wraps) or PTSCOPE_MODE_FULL (STOP on the last region). INT is never set:
 * the ToPA PMI belongs to perf's NMI handler. Unused slots are zeroed.
 * Returns 0 or -EINVAL (bad mode, misaligned address).
 */
int pts_topa_fill(const struct pts_topa_plan *p, u32 mode, u64 *const *tables,
		  const u64 *table_phys, const u64 *region_phys);

/*
 * @output_base (an RTIT_OUTPUT_BASE value) is one of the tables of plan
 * @p: the unit would write into this ring.
 */
bool pts_topa_is_table(const struct pts_topa_plan *p, const u64 *table_phys,
		       u64 output_base);

/*
 * Ring offset of the next byte PT writes, from the OUTPUT_BASE and
 * OUTPUT_MASK_PTRS values read after clearing TraceEn (SDM 33.2.8.8):
 * sum of the sizes of the regions before the current entry plus
 * OutputOffset. The result is in [0, buffer_size]: buffer_size only when
 * the last region is completely full (STOP in full mode).
 * Returns 0, or -EINVAL when OUTPUT_BASE is not one of the tables or the
 * entry index / offset lie outside the plan.
 */
int pts_topa_head(const struct pts_topa_plan *p, const u64 *table_phys,
		  u64 output_base, u64 output_mask_ptrs, u64 *head);

/*
 * The OUTPUT_BASE / OUTPUT_MASK_PTRS pair that makes PT continue writing
 * at ring offset @head (< buffer_size): used for the first enable (head 0)
 * and to resume after a CPU comes back online.
 */
void pts_topa_position(const struct pts_topa_plan *p, const u64 *table_phys,
		       u64 head, u64 *output_base, u64 *output_mask_ptrs);

/* ---- ring arithmetic (ring.c) ------------------------------------------ */

/*
 * Wraps proven by two successive write heads of one continuous tracing
 * period: the head only moves forward modulo the ring, so a smaller head
 * means at least one wrap. Returns 0 or 1 (a lower bound).
 */
u32 pts_ring_wraps_between(u64 prev_head, u64 new_head);

/* ---- what stopped a ring (stopped.c) -------------------------------------- */

enum pts_stopped_by {
	PTS_STOPPED_NOT,	/* RTIT_STATUS.Stopped clear */
	PTS_STOPPED_FULL,	/* the STOP region of a full-mode ring filled */
	PTS_STOPPED_TRACESTOP,	/* a TraceStop range (ADDRn_CFG = 2) was entered */
};

/*
 * Why RTIT_STATUS @status (read at stop) has Stopped set, given the
 * RTIT_CTL that traced (@ctl), the ring's @mode (enum ptscope_mode), the
 * write head and the ring size in bytes. Full only when a full-mode ring
 * is completely full; otherwise TraceStop when @ctl has a TraceStop range.
 */
enum pts_stopped_by pts_stopped_cause(u64 status, u64 ctl, u32 mode, u64 head,
				      u64 buffer_size);

/*
 * May a CPU with these PTSCOPE_CPUF_* flags resume tracing when it comes
 * back online during a capture? Not once its unit stopped by itself.
 */
bool pts_cpu_may_resume(u32 cpu_flags);

/* ---- mmap offsets (mmap_off.c) ----------------------------------------- */

/*
 * pts_mmap_ring_decode() - the ring and the offset into it that a file
 * offset of the device names (docs/abi.md, "mmap: trace rings").
 * @off: the file offset (vm_pgoff << PAGE_SHIFT).
 * @cpu: out: the CPU whose ring it names (not checked against the
 *       machine: the caller compares with nr_cpu_ids).
 * @in:  out: the byte offset into that ring.
 *
 * Either cpu << PTSCOPE_MMAP_CPU_SHIFT plus an offset, or the compact
 * PTSCOPE_MMAP_RING_OFFSET(cpu) plus an offset below
 * PTSCOPE_MMAP_RING_SPAN, bits 31-33 clear.
 * Context: any. Return: 0; -EINVAL for the sideband's offset and above,
 * and for a compact offset with bits 31-33 set.
 */
int pts_mmap_ring_decode(u64 off, u64 *cpu, u64 *in);

/* ---- a panic during a capture (panic.c) ---------------------------------- */

struct pts_panic_end {
	u32 run;		/* enum ptscope_run_state to leave the capture in */
	bool ended;		/* a running capture ended: PTSCOPE_STATEF_PANIC */
	bool panic_is_trigger;	/* the trigger_* fields become the panic's */
};

/*
 * The panic notifier's decision for a capture in run state @run: ARMED
 * and POST_TRIGGER end as TRIGGERED (from ARMED the panic is the
 * trigger; in the delay the earlier trigger stays); other states stay.
 * Context: any (the panic notifier, IRQs off); no state of its own.
 */
struct pts_panic_end pts_panic_end(u32 run);

/* ---- CR3 filter (cr3.c) ------------------------------------------------- */

/* PTI_PGTABLE_SWITCH_BIT: the user root is the kernel root + 4 KiB. */
#define PTS_CR3_PTI_USER_BIT	12
#define PTS_CR3_PCID_USER_BIT	11	/* X86_CR3_PTI_PCID_USER_BIT */

struct pts_cr3_plan {
	bool filter;		/* set RTIT_CTL.CR3Filter */
	u64 cr3_match;		/* IA32_RTIT_CR3_MATCH value */
	u32 statef;		/* PTSCOPE_STATEF_CR3_* */
};

/*
 * Derive CR3_MATCH for a process whose kernel page-table root (mm->pgd)
 * is at physical @pgd_pa. @pcid: CR4.PCIDE; @kpti: page-table isolation
 * on (two roots per process, the user one 4 KiB above the kernel one).
 * @scope: enum ptscope_scope.
 *
 * RTIT_CR3_MATCH bits 4:0 are reserved and the unit compares CR3[63:5]
 * (SDM 33.2.4.2, 33.2.8.6). With PCID, CR3[11:0] is the PCID: the
 * kernel's dynamic ASIDs (1..6) live in bits 4:0, and with KPTI the user
 * PCID adds bit 11, which is fixed and therefore part of the match.
 * A single CR3_MATCH cannot match both roots: with KPTI and scope both,
 * the hardware filter is not used and PTSCOPE_STATEF_CR3_PARTIAL tells
 * the decoder to filter by the sideband's sched_switch records.
 */
void pts_cr3_plan(u64 pgd_pa, u32 scope, bool pcid, bool kpti,
		  struct pts_cr3_plan *out);

/* CR3 value the process runs its user code with (sideband next_cr3). */
u64 pts_cr3_user_root(u64 pgd_pa, bool kpti);

/* ---- another owner of the PT unit (owner.c) ------------------------------ */

/*
 * MSR access on the current CPU, as the module's PT unit ops and the
 * simulated unit's host tests provide it: 0, or -EIO when the access
 * faulted (#GP).
 */
struct pts_msr_io {
	int (*rd)(void *ctx, u32 msr, u64 *val);
	int (*wr)(void *ctx, u32 msr, u64 val);
	void *ctx;
};

/* One RTIT MSR ptscope writes: the value found at arm and the one written. */
struct pts_owner_msr {
	u32 msr;
	bool output;		/* OUTPUT_BASE/MASK_PTRS/STATUS: moved by the unit */
	bool written;		/* ptscope wrote it since the save */
	u64 saved;		/* value before ptscope's first write */
	u64 wrote;		/* ptscope's last write */
};

/* OUTPUT_BASE, OUTPUT_MASK_PTRS, STATUS, 4 x ADDRn_A/B, CR3_MATCH, CTL. */
#define PTS_OWNER_MAX_MSRS	(3 + 2 * PTSCOPE_MAX_ADDR_RANGES + 2)

struct pts_owner_save {
	u32 nr;
	struct pts_owner_msr m[PTS_OWNER_MAX_MSRS];
};

/*
 * The list of RTIT MSRs a configuration with @nr_ranges address ranges
 * (and CR3_MATCH when @cr3) writes, RTIT_CTL last; nothing read yet.
 */
void pts_owner_init(struct pts_owner_save *s, unsigned int nr_ranges, bool cr3);

/*
 * Read every listed MSR into ->saved (with TraceEn clear, before the
 * first write of an arm) and forget earlier writes. Returns 0 or -EIO.
 */
int pts_owner_save(const struct pts_msr_io *io, struct pts_owner_save *s);

/* Another owner left a configuration: some saved value is not zero. */
bool pts_owner_foreign(const struct pts_owner_save *s);

/* Write @val to @msr and remember it as ptscope's value. 0 or -EIO. */
int pts_owner_write(const struct pts_msr_io *io, struct pts_owner_save *s,
		    u32 msr, u64 val);

/*
 * Give the saved values back, RTIT_CTL last, with TraceEn clear (the
 * caller stopped tracing: SDM 33.2.8, other RTIT MSRs #GP while TraceEn
 * is set). An MSR another owner rewrote since ptscope's write keeps that
 * owner's value and is counted in *@kept; the output MSRs count as
 * ptscope's while @output_ours (OUTPUT_BASE points at ptscope's tables).
 * Returns 0, or -EIO when an access faulted (the rest is still done).
 */
int pts_owner_restore(const struct pts_msr_io *io,
		      const struct pts_owner_save *s, bool output_ours,
		      u32 *kept);

/* What the stop finds in RTIT_CTL (SDM 33.2.8.2). */
enum pts_owner_stop {
	PTS_OWNER_STOP_OURS,		/* ptscope's value, TraceEn set */
	PTS_OWNER_STOP_CLEARED,		/* another owner cleared TraceEn */
	PTS_OWNER_STOP_FOREIGN_LIVE,	/* another owner traces into its own buffer */
	PTS_OWNER_STOP_FOREIGN_OURS,	/* another owner traces into ptscope's tables */
};

/*
 * Classify RTIT_CTL read at stop (@ctl_now) against the value ptscope
 * wrote with TraceEn (@ours); @base_ours: OUTPUT_BASE is one of
 * ptscope's ToPA tables. FOREIGN_LIVE: leave the unit alone (every RTIT
 * write but clearing TraceEn would #GP, and the trace is that owner's);
 * FOREIGN_OURS: clear TraceEn before the tables can be freed.
 */
enum pts_owner_stop pts_owner_stop_kind(u64 ours, u64 ctl_now, bool base_ours);

/* ---- trigger names (tp_name.c) ------------------------------------------ */

/*
 * The event part of a tracepoint name: "subsystem:event" -> "event",
 * "event" -> "event". struct tracepoint carries only the event name, and
 * built-in event names are unique (each defines the global symbol
 * __tracepoint_<event>), so a lookup in the kernel compares this part.
 * Returns NULL for an empty subsystem or event, or more than one colon.
 */
const char *pts_tracepoint_event(const char *spec);

/* The tracepoints of include/ptscope/tp_triggers.h, in its order. */
struct pts_tp_trigger_name {
	const char *subsystem;
	const char *event;
};

extern const struct pts_tp_trigger_name pts_tp_triggers[];
extern const unsigned int pts_tp_nr_triggers;

/*
 * Which tracepoint of the trigger list @spec names: "subsystem:event" with
 * both parts equal to an entry's, or a bare "event". Returns its index in
 * pts_tp_triggers[]; -ENOENT when @spec is malformed or names a listed
 * event with another subsystem (no such tracepoint); -EOPNOTSUPP when its
 * event is not in the list (the caller tells "not supported" from "does
 * not exist" by looking the event up in the kernel).
 */
int pts_tp_trigger_lookup(const char *spec);

#endif /* PTSCOPE_PTS_PURE_H */
