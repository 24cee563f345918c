// SPDX-License-Identifier: GPL-2.0
/*
 * Start and stop PT on one CPU in the SDM's order (SDM 33.2.8 and
 * pt-facts section 4), and arm/stop the selected CPUs from process
 * context with synchronous cross-calls.
 *
 * pts_cpu_start_local() and pts_cpu_stop_local() run ON the CPU they
 * program, with IRQs off (smp_call_function callback, hotplug callback
 * under local_irq_save, trigger probe, hrtimer, work item under
 * local_irq_disable). They never sleep and never send IPIs.
 */
#include <linux/smp.h>
#include <linux/irqflags.h>
#include <asm/barrier.h>
#include <asm/msr.h>
#include <asm/processor-flags.h>
#include <asm/special_insns.h>

#include "ptscope_internal.h"
#include "../include/ptscope/reason_text.h"

DEFINE_PER_CPU(struct pts_cpu, pts_cpus);

static int msr_wr(struct pts_cpu *pc, u32 msr, u64 val)
{
	/* Through a local: <asm/msr.h> has function-like rdmsr/wrmsr macros. */
	int (*wr)(u32 msr, u64 val) = pts.ops->wrmsr;
	int err = wr(msr, val);

	if (err)
		pc->flags |= PTSCOPE_CPUF_MSR_FAULT;
	return err;
}

static int msr_rd(struct pts_cpu *pc, u32 msr, u64 *val)
{
	int (*rd)(u32 msr, u64 *val) = pts.ops->rdmsr;
	int err = rd(msr, val);

	if (err) {
		pc->flags |= PTSCOPE_CPUF_MSR_FAULT;
		*val = 0;
	}
	return err;
}

static void start_fail(struct pts_cpu *pc, int err, u32 reason)
{
	pc->result = err;
	pc->reason = reason;
}

/* The pure owner code (pure/owner.c) reaches the MSRs through these. */
static int io_rd(void *ctx, u32 msr, u64 *val)
{
	return msr_rd(ctx, msr, val);
}

static int io_wr(void *ctx, u32 msr, u64 val)
{
	return msr_wr(ctx, msr, val);
}

static void pc_io(struct pts_cpu *pc, struct pts_msr_io *io)
{
	io->rd = io_rd;
	io->wr = io_wr;
	io->ctx = pc;
}

/**
 * pts_cpu_conflict() - another user of the unit, or of the branch
 * recording perf keeps apart from it, got in the way of this CPU's trace.
 * @pc: this CPU's state.
 * @reason: enum ptscope_reason, reported as the CPU's conflict.
 *
 * Keeps the capture's first reason and logs it once per capture.
 * Context: on pc's CPU, IRQs off (printk is safe there).
 */
void pts_cpu_conflict(struct pts_cpu *pc, u32 reason)
{
	pc->flags |= PTSCOPE_CPUF_CONFLICT;
	if (pc->conflict)
		return;
	pc->conflict = reason;
	pts_warn("cpu %d: %s\n", pc->cpu, ptscope_reason_str(reason));
}

/* CR4.VMXE: this CPU is in VMX operation (KVM did VMXON). IRQs off. */
static bool cpu_in_vmx(void)
{
	return __read_cr4() & X86_CR4_VMXE;
}

/* What VMX operation on this CPU means for tracing (pure/caps_decode.c). */
static enum pts_vmx_verdict cpu_vmx_verdict(void)
{
	return pts_vmx_verdict(pts.caps.flags & PTSCOPE_CAPS_VMX,
			       pts.caps.vmx_misc, cpu_in_vmx());
}

/*
 * An LBR or BTS user on this CPU that perf keeps apart from PT on this
 * model (pure/lbr_bts.c): its reason, or PTSCOPE_R_NONE. IA32_DEBUGCTL
 * is not an RTIT MSR: a read that faults (the MSR is absent, so it
 * enables nothing) is neither a reason nor an MSR_FAULT. IRQs off.
 */
static u32 lbr_bts_reason(void)
{
	int (*rd)(u32 msr, u64 *val) = pts.ops->rdmsr;
	u64 debugctl = 0;

	if (!pts.lbr_pt_excl || rd(RTIT_MSR_DEBUGCTL, &debugctl))
		return PTSCOPE_R_NONE;
	return pts_lbr_bts_reason(true, debugctl);
}

/* OUTPUT_BASE value @base is one of this CPU's ToPA tables. */
static bool base_is_ours(const struct pts_cpu *pc, u64 base)
{
	const struct pts_bufset *b = pts.bufs;
	const struct pts_cpu_buf *cb = b ? b->cpu[pc->cpu] : NULL;

	return cb && pts_topa_is_table(&b->plan, cb->table_phys, base);
}

/* The configuration MSRs, TraceEn clear. Returns 0 or -EIO (#GP). */
static int write_config(struct pts_cpu *pc, const struct pts_msr_io *io,
			u64 base, u64 omp)
{
	struct pts_owner_save *o = &pc->owner;
	u32 i;

	if (pts_owner_write(io, o, RTIT_MSR_OUTPUT_BASE, base) ||
	    pts_owner_write(io, o, RTIT_MSR_OUTPUT_MASK_PTRS, omp) ||
	    pts_owner_write(io, o, RTIT_MSR_STATUS, 0))
		return -EIO;
	for (i = 0; i < pts.cfg.nr_addr_ranges; i++)
		if (pts_owner_write(io, o, RTIT_MSR_ADDR_A(i), pts.plan.addr_a[i]) ||
		    pts_owner_write(io, o, RTIT_MSR_ADDR_B(i), pts.plan.addr_b[i]))
			return -EIO;
	if (pts.cr3_filter &&
	    pts_owner_write(io, o, RTIT_MSR_CR3_MATCH, pts.cr3_match))
		return -EIO;
	return 0;
}

/*
 * Give another owner's values back (pure/owner.c) and flag what it
 * rewrote meanwhile. Context: on pc's CPU, IRQs off, TraceEn clear.
 */
static void owner_restore(struct pts_cpu *pc, const struct pts_msr_io *io,
			  bool output_ours)
{
	u32 kept = 0;

	if (pts_owner_restore(io, &pc->owner, output_ours, &kept))
		pc->flags |= PTSCOPE_CPUF_MSR_FAULT;
	if (kept) {
		pc->flags |= PTSCOPE_CPUF_CLOBBERED;
		pts_cpu_conflict(pc, PTSCOPE_R_FOREIGN_STOP);
	}
	pc->owner.nr = 0;
}

/**
 * pts_cpu_start_local() - enable PT on the current CPU.
 * @pc: this CPU's state.
 * @resume: continue at the saved write head (CPU back online) instead of
 *          at ring offset 0.
 *
 * Order (SDM 33.2.8, pt-facts section 4): TraceEn must be 0 (else
 * someone else owns the unit: EBUSY, nothing written), and so must the
 * LBR and BTS enables where perf keeps them apart from PT (EBUSY,
 * LBR_ACTIVE or BTS_ACTIVE, nothing written); every RTIT MSR
 * about to be written is saved (another owner, e.g. a per-task perf
 * intel_pt event whose task is off-CPU, caches them and does not rewrite
 * values it believes unchanged: pts_cpu_stop_local() gives them back);
 * OUTPUT_BASE, OUTPUT_MASK_PTRS, STATUS = 0 (a full PSB+ at enable needs
 * PacketByteCnt 0), ADDRn, CR3_MATCH, then RTIT_CTL with TraceEn; read
 * STATUS back: Error right after enable means the unit refused the
 * configuration. Result in pc->result / pc->reason; on failure every
 * saved MSR has its value back.
 * Context: on the target CPU, IRQs off.
 */
void pts_cpu_start_local(struct pts_cpu *pc, bool resume)
{
	const struct pts_bufset *b = pts.bufs;
	const struct pts_cpu_buf *cb = b ? b->cpu[pc->cpu] : NULL;
	u64 ctl = 0, status = 0, base, omp, want;
	struct pts_msr_io io;
	u32 branch_user;

	pc->result = 0;
	pc->reason = PTSCOPE_R_NONE;
	if (pc->enabled)
		return;
	if (!cb) {
		start_fail(pc, -EINVAL, PTSCOPE_R_BAD_CPU_MASK);
		return;
	}
	if (msr_rd(pc, RTIT_MSR_CTL, &ctl)) {
		start_fail(pc, -EIO, PTSCOPE_R_MSR_FAULT);
		return;
	}
	if (ctl & RTIT_CTL_TRACEEN) {
		start_fail(pc, -EBUSY, PTSCOPE_R_TRACE_EN_BUSY);
		return;
	}
	if (cpu_vmx_verdict() == PTS_VMX_REFUSE) {
		start_fail(pc, -EBUSY, PTSCOPE_R_VMX_NO_PT);
		return;
	}
	branch_user = lbr_bts_reason();
	if (branch_user) {
		start_fail(pc, -EBUSY, branch_user);
		return;
	}
	pc_io(pc, &io);
	pts_owner_init(&pc->owner, pts.cfg.nr_addr_ranges, pts.cr3_filter);
	if (pts_owner_save(&io, &pc->owner)) {
		pc->owner.nr = 0;
		start_fail(pc, -EIO, PTSCOPE_R_MSR_FAULT);
		return;
	}

	if (!resume) {
		pc->head = 0;
		pc->wrap_count = 0;
		pc->flags &= PTSCOPE_CPUF_OFFLINED;
	}
	if (pts_owner_foreign(&pc->owner))
		pc->flags |= PTSCOPE_CPUF_FOREIGN_STATE;
	if (cpu_in_vmx())
		pc->flags |= PTSCOPE_CPUF_VMX;
	pc->wrap_scan = -1;
	pts_topa_position(&b->plan, cb->table_phys, pc->head, &base, &omp);
	want = pts.plan.rtit_ctl | RTIT_CTL_TRACEEN;
	if (!pts.cr3_filter)
		want &= ~RTIT_CTL_CR3FILTER;

	if (write_config(pc, &io, base, omp) ||
	    pts_owner_write(&io, &pc->owner, RTIT_MSR_CTL, want)) {
		owner_restore(pc, &io, true);
		start_fail(pc, -EIO, PTSCOPE_R_MSR_FAULT);
		return;
	}
	pc->rtit_ctl = want;
	pc->enabled = true;
	pc->started = true;
	pc->seg_start_head = pc->head;
	pc->start_tsc = rdtsc_ordered();
	pc->flags |= PTSCOPE_CPUF_ENABLED;

	if (!msr_rd(pc, RTIT_MSR_STATUS, &status) &&
	    (status & RTIT_STATUS_ERROR)) {
		pts_cpu_stop_local(pc);
		pc->flags |= PTSCOPE_CPUF_ERROR;
		start_fail(pc, -EIO, PTSCOPE_R_PT_ERROR_AT_ENABLE);
		return;
	}
	pts_sb_trace(PTSCOPE_SB_TRACE_START, want, status, pc->head);
}

/*
 * Clear TraceEn as what RTIT_CTL holds now requires (pure/owner.c).
 * Returns false when another owner traces into its own buffer: its unit,
 * left alone (no RTIT write but clearing its TraceEn is even allowed).
 */
static bool stop_tracing(struct pts_cpu *pc, u64 ctl, bool base_ours)
{
	switch (pts_owner_stop_kind(pc->rtit_ctl, ctl, base_ours)) {
	case PTS_OWNER_STOP_OURS:
		msr_wr(pc, RTIT_MSR_CTL, pc->rtit_ctl & ~RTIT_CTL_TRACEEN);
		return true;
	case PTS_OWNER_STOP_CLEARED:
		/* Without IA32_VMX_MISC[14], VMXON itself clears TraceEn. */
		pts_cpu_conflict(pc, cpu_vmx_verdict() == PTS_VMX_REFUSE ?
			       PTSCOPE_R_VMX_NO_PT : PTSCOPE_R_FOREIGN_STOP);
		return true;
	case PTS_OWNER_STOP_FOREIGN_OURS:
		/* PT must not write into tables that are about to be freed. */
		pts_cpu_conflict(pc, PTSCOPE_R_FOREIGN_INTO_OURS);
		msr_wr(pc, RTIT_MSR_CTL, ctl & ~RTIT_CTL_TRACEEN);
		return true;
	case PTS_OWNER_STOP_FOREIGN_LIVE:
	default:
		pts_cpu_conflict(pc, PTSCOPE_R_FOREIGN_TRACE);
		pc->owner.nr = 0;
		return false;
	}
}

/**
 * pts_cpu_stop_local() - disable PT on the current CPU, record where it
 * stopped, and give another owner's MSR values back.
 * @pc: this CPU's state.
 *
 * Order (pt-facts section 4): read RTIT_CTL and OUTPUT_BASE (reads never
 * #GP); a CTL other than ours means someone else changed the unit
 * (CLOBBERED, and a conflict reason: see stop_tracing()); clear TraceEn;
 * an LBR or BTS user that perf keeps apart from PT, found enabled now, is
 * a conflict too (LBR_ACTIVE, BTS_ACTIVE: it may have run beside the
 * trace; the first reason of the capture is kept);
 * store fence so the output and OUTPUT_* are complete; read OUTPUT_BASE /
 * OUTPUT_MASK_PTRS (-> write head) and STATUS (Error, Stopped); then
 * restore the values saved at enable (STATUS included) wherever nobody
 * else has written since.
 * Context: on the target CPU, IRQs off. Idempotent.
 */
void pts_cpu_stop_local(struct pts_cpu *pc)
{
	const struct pts_bufset *b = pts.bufs;
	const struct pts_cpu_buf *cb = b ? b->cpu[pc->cpu] : NULL;
	u64 ctl = 0, head = 0, base = 0;
	struct pts_msr_io io;
	u32 branch_user;
	bool ours, live;

	if (!pc->enabled)
		return;
	if (pts.ops->sync)
		pts.ops->sync();
	if (cpu_in_vmx())
		pc->flags |= PTSCOPE_CPUF_VMX;
	msr_rd(pc, RTIT_MSR_CTL, &ctl);
	msr_rd(pc, RTIT_MSR_OUTPUT_BASE, &base);
	pc->ctl_readback = ctl;
	if (ctl != pc->rtit_ctl)
		pc->flags |= PTSCOPE_CPUF_CLOBBERED;
	live = stop_tracing(pc, ctl, base_is_ours(pc, base));
	branch_user = lbr_bts_reason();
	if (branch_user)
		pts_cpu_conflict(pc, branch_user);
	if (!live) {
		pc->enabled = false;
		pc->flags &= ~PTSCOPE_CPUF_ENABLED;
		pc->stop_tsc = rdtsc_ordered();
		return;
	}
	wmb();	/* SDM 33.2.8.8 / pt-facts 2: output complete after a fence */
	pc->stop_tsc = rdtsc_ordered();
	pc->enabled = false;
	pc->flags &= ~PTSCOPE_CPUF_ENABLED;

	msr_rd(pc, RTIT_MSR_OUTPUT_BASE, &pc->output_base);
	msr_rd(pc, RTIT_MSR_OUTPUT_MASK_PTRS, &pc->omp);
	msr_rd(pc, RTIT_MSR_STATUS, &pc->status);
	if (pc->status & RTIT_STATUS_ERROR)
		pc->flags |= PTSCOPE_CPUF_ERROR;
	if (pc->status & RTIT_STATUS_STOPPED)
		pc->flags |= PTSCOPE_CPUF_STOPPED;
	ours = base_is_ours(pc, pc->output_base);
	pc_io(pc, &io);
	owner_restore(pc, &io, ours);

	if (ours && !pts_topa_head(&b->plan, cb->table_phys, pc->output_base,
				   pc->omp, &head)) {
		if (b->mode == PTSCOPE_MODE_SNAPSHOT)
			head %= b->plan.buffer_size;
		pc->wrap_count += pts_ring_wraps_between(pc->seg_start_head,
							 head);
		pc->head = head;
	} else if (!(pc->flags & PTSCOPE_CPUF_CONFLICT)) {
		/* The unit reports a position outside our tables. */
		pc->flags |= PTSCOPE_CPUF_ERROR;
	}
	if (b && pts_stopped_cause(pc->status, pc->rtit_ctl, b->mode, pc->head,
				   b->plan.buffer_size) == PTS_STOPPED_TRACESTOP)
		pc->flags |= PTSCOPE_CPUF_TRACESTOP;
	pc->wrap_scan = -1;
	pts_sb_trace(PTSCOPE_SB_TRACE_STOP, ctl, pc->status, pc->head);
}

/**
 * pts_cpu_release_local() - make sure PT does not write into this CPU's
 * ring once it is freed.
 * @pc: this CPU's state.
 *
 * Stops our own tracing; then, if another owner has set TraceEn with
 * OUTPUT_BASE at one of our tables (it programmed the unit from a stale
 * cache), clears TraceEn and reports FOREIGN_INTO_OURS.
 * Context: on the target CPU, IRQs off, before the rings are released.
 */
void pts_cpu_release_local(struct pts_cpu *pc)
{
	u64 ctl = 0, base = 0;

	pts_cpu_stop_local(pc);
	if (msr_rd(pc, RTIT_MSR_CTL, &ctl) || !(ctl & RTIT_CTL_TRACEEN) ||
	    msr_rd(pc, RTIT_MSR_OUTPUT_BASE, &base) || !base_is_ours(pc, base))
		return;
	pts_cpu_conflict(pc, PTSCOPE_R_FOREIGN_INTO_OURS);
	msr_wr(pc, RTIT_MSR_CTL, ctl & ~RTIT_CTL_TRACEEN);
}

void pts_cpu_init_all(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct pts_cpu *pc = per_cpu_ptr(&pts_cpus, cpu);

		memset(pc, 0, sizeof(*pc));
		pc->cpu = cpu;
		pc->wrap_scan = -1;
	}
}

/*
 * Forget the previous capture's per-CPU results, the RTIT values read at
 * its stops included (not armed, under lock).
 */
void pts_cpu_reset_all(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct pts_cpu *pc = per_cpu_ptr(&pts_cpus, cpu);

		pc->rtit_ctl = 0;
		pc->ctl_readback = 0;
		pc->status = 0;
		pc->output_base = 0;
		pc->omp = 0;
		pc->start_tsc = 0;
		pc->stop_tsc = 0;
		pc->flags = 0;
		pc->head = 0;
		pc->seg_start_head = 0;
		pc->wrap_count = 0;
		pc->wrap_scan = -1;
		pc->started = false;
		pc->result = 0;
		pc->reason = 0;
		pc->conflict = 0;
	}
}

static void check_busy_fn(void *info)
{
	struct pts_cpu *pc = this_cpu_ptr(&pts_cpus);
	u32 branch_user;
	u64 ctl = 0;

	pc->result = 0;
	pc->reason = PTSCOPE_R_NONE;
	if (msr_rd(pc, RTIT_MSR_CTL, &ctl)) {
		start_fail(pc, -EIO, PTSCOPE_R_MSR_FAULT);
		return;
	}
	branch_user = lbr_bts_reason();
	if (ctl & RTIT_CTL_TRACEEN && !pc->enabled)
		start_fail(pc, -EBUSY, PTSCOPE_R_TRACE_EN_BUSY);
	else if (cpu_vmx_verdict() == PTS_VMX_REFUSE)
		start_fail(pc, -EBUSY, PTSCOPE_R_VMX_NO_PT);
	else if (branch_user)
		start_fail(pc, -EBUSY, branch_user);
}

static void start_fn(void *info)
{
	pts_cpu_start_local(this_cpu_ptr(&pts_cpus), false);
}

static void stop_fn(void *info)
{
	pts_cpu_stop_local(this_cpu_ptr(&pts_cpus));
}

static void release_fn(void *info)
{
	pts_cpu_release_local(this_cpu_ptr(&pts_cpus));
}

/**
 * pts_release_all() - before the rings are freed: no CPU may still write
 * into them, ours or another owner's tracing (pts_cpu_release_local()).
 * Context: process context, pts.lock held; takes cpus_read_lock().
 */
void pts_release_all(void)
{
	cpus_read_lock();
	on_each_cpu_mask(pts.selected, release_fn, NULL, true);
	cpus_read_unlock();
}

static int first_failure(const struct cpumask *cpus, struct pts_refusal *why)
{
	unsigned int cpu;

	for_each_cpu(cpu, cpus) {
		struct pts_cpu *pc = per_cpu_ptr(&pts_cpus, cpu);

		if (pc->result) {
			why->reason = pc->reason;
			why->arg = cpu;
			return pc->result;
		}
	}
	return 0;
}

/**
 * pts_arm() - enable PT on every selected online CPU.
 * @why: reason code and failing CPU on refusal.
 *
 * The rings must have been zeroed (pts_bufset_zero()) by the caller,
 * outside the hotplug lock. First every CPU's RTIT_CTL is read: if any has
 * TraceEn set (perf's intel_pt, firmware, a hypervisor) nothing is written
 * anywhere and the call fails with -EBUSY / PTSCOPE_R_TRACE_EN_BUSY
 * (reason_arg = CPU); a CPU in VMX operation on a part without
 * IA32_VMX_MISC[14] fails it with -EBUSY / PTSCOPE_R_VMX_NO_PT (RTIT_CTL
 * writes #GP there); a CPU with IA32_DEBUGCTL.LBR, .TR or .BTS set, on a
 * model where perf keeps LBR and BTS apart from PT, fails it with
 * -EBUSY / PTSCOPE_R_LBR_ACTIVE or PTSCOPE_R_BTS_ACTIVE (pure/lbr_bts.c).
 * Such a part outside VMX operation is only warned
 * about: a later VMXON ends the trace of that CPU (reported at stop as
 * PTSCOPE_R_VMX_NO_PT). If any CPU then fails to start, every CPU is
 * stopped again.
 * Context: process context, pts.lock held; takes cpus_read_lock().
 * Return: 0, -ENOMEM, -EBUSY, -EIO (MSR_FAULT or PT_ERROR_AT_ENABLE).
 */
int pts_arm(struct pts_refusal *why)
{
	static bool vmx_warned;	/* once per load; under pts.lock */
	cpumask_var_t on;
	int err;

	if (!zalloc_cpumask_var(&on, GFP_KERNEL)) {
		why->reason = PTSCOPE_R_NO_MEMORY;
		return -ENOMEM;
	}
	cpus_read_lock();
	cpumask_and(on, pts.selected, cpu_online_mask);
	on_each_cpu_mask(on, check_busy_fn, NULL, true);
	err = first_failure(on, why);
	if (err)
		goto out;
	if (!vmx_warned && pts_vmx_verdict(pts.caps.flags & PTSCOPE_CAPS_VMX,
					   pts.caps.vmx_misc, false) == PTS_VMX_WARN) {
		vmx_warned = true;
		pts_warn("IA32_VMX_MISC[14] is 0: VMXON on a traced CPU (a VM starting, kvm_intel loading) clears TraceEn and ends that CPU's trace\n");
	}

	pts_cpu_reset_all();
	pts_time_pair(&pts.time_at_start);
	WRITE_ONCE(pts.stop_requested, false);
	WRITE_ONCE(pts.armed, true);
	pts_sideband_set_live(true);
	on_each_cpu_mask(on, start_fn, NULL, true);
	err = first_failure(on, why);
	if (err) {
		WRITE_ONCE(pts.armed, false);
		on_each_cpu_mask(on, stop_fn, NULL, true);
		pts_sideband_set_live(false);
	}
out:
	cpus_read_unlock();
	free_cpumask_var(on);
	return err;
}

/**
 * pts_stop_all() - disable PT on every selected online CPU and wait.
 * Context: process context, pts.lock held; takes cpus_read_lock().
 */
void pts_stop_all(void)
{
	cpus_read_lock();
	WRITE_ONCE(pts.armed, false);
	WRITE_ONCE(pts.stop_requested, true);
	on_each_cpu_mask(pts.selected, stop_fn, NULL, true);
	pts_time_pair(&pts.time_at_stop);
	cpus_read_unlock();
}

/**
 * pts_cpu_fill_status() - one CPU's state for PTSCOPE_IOC_GET_CPU_STATUS.
 * @cpu: a possible CPU.
 * @st: filled (cpu and hdr left to the caller).
 *
 * In snapshot mode a ring whose write head has not moved backwards may
 * still have wrapped: once the capture has stopped the bytes after the
 * head are scanned once (the ring was zeroed at arm) and the result
 * cached until the CPU's next start or stop.
 * Context: process context, pts.lock held; may sleep.
 */
void pts_cpu_fill_status(int cpu, struct ptscope_cpu_status *st)
{
	struct pts_cpu *pc = per_cpu_ptr(&pts_cpus, cpu);
	const struct pts_bufset *b = pts.bufs;
	bool wrapped;

	st->flags = READ_ONCE(pc->flags);
	if (cpumask_test_cpu(cpu, pts.selected))
		st->flags |= PTSCOPE_CPUF_SELECTED;
	if (cpu_online(cpu))
		st->flags |= PTSCOPE_CPUF_ONLINE;
	st->head = pc->head;
	st->wrap_count = pc->wrap_count;
	st->rtit_ctl = pc->rtit_ctl;
	st->rtit_ctl_readback = pc->ctl_readback;
	st->rtit_status = pc->status;
	st->output_base = pc->output_base;
	st->output_mask_ptrs = pc->omp;
	st->start_tsc = pc->start_tsc;
	st->stop_tsc = pc->stop_tsc;
	st->conflict = pc->conflict;
	st->sideband_lost = pts_sideband_cpu_lost(cpu);
	st->sideband_bytes = pts_sideband_cpu_bytes(cpu);
	if (!b || !b->cpu[cpu])
		return;
	st->buffer_size = b->plan.buffer_size;
	st->nr_regions = b->plan.nr_regions;
	st->region_size = (u32)b->plan.region_size;

	wrapped = pc->wrap_count > 0;
	/*
	 * Scan only while the capture is not armed: armed is set by
	 * pts_arm() alone, under pts.lock (held here), so no CPU can start
	 * during the scan (pts_cpu_online() re-arms only an armed capture)
	 * and wrap_scan has one writer. While armed, a CPU offline now may
	 * come back and write on from its head mid-scan, which would read
	 * its new bytes as a wrap: its WRAPPED then rests on wrap_count
	 * until the stop.
	 */
	if (!wrapped && b->mode == PTSCOPE_MODE_SNAPSHOT &&
	    !READ_ONCE(pts.armed) && !READ_ONCE(pc->enabled) && pc->started) {
		if (pc->wrap_scan < 0)
			pc->wrap_scan = pts_buf_nonzero_from(b, cpu, pc->head);
		wrapped = pc->wrap_scan > 0;
	}
	if (wrapped) {
		st->flags |= PTSCOPE_CPUF_WRAPPED;
		if (!st->wrap_count)
			st->wrap_count = 1;
		st->bytes_valid = b->plan.buffer_size;
	} else {
		st->bytes_valid = pc->head;
	}
}
