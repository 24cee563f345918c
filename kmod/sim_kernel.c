// SPDX-License-Identifier: GPL-2.0
/*
 * Simulated PT unit: kernel glue of the model in pure/sim_unit.c.
 *
 * Selected by the core's module parameter, never by default. It answers
 * CPUID and the RTIT MSRs through struct pt_unit_ops like the hardware
 * backend, keeps one model per CPU, and writes the simulated packet
 * stream into the ToPA regions the core programmed, from a 1 ms hrtimer
 * per tracing CPU and from ->sync() right before a stop. The code it
 * pretends to run is kmod/sim_image.c (kernel) and pts_sim_user_code
 * (user, readable at /sys/module/ptscope/sim_user_code).
 * docs/simulated-unit.md has the model, its limits and the timeline a
 * capture decodes to. Nothing here touches a real PT MSR.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": simulated PT unit: " fmt

#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/hrtimer.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/reboot.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/sysfs.h>
#include <asm/msr.h>
#include <asm/cpufeature.h>
#include <asm/processor.h>
#include <asm/special_insns.h>

#include "compat.h"
#include "pt_unit.h"
#include "pure/pts_pure.h"
#include "pure/sim_code.h"
#include "pure/sim_unit.h"

/* Tick period: one round of the simulated program per tick. */
#define PTS_SIM_TICK_NS		(1000 * 1000)

/*
 * Per-CPU unit. Every field is touched only on its own CPU, with IRQs
 * off (pt_unit_ops callers) or from its hard-IRQ hrtimer, so the two
 * never run at the same time and need no lock.
 */
struct pts_sim_percpu {
	struct pts_sim_cpu cpu;
	struct hrtimer timer;
	bool error_reported;	/* STATUS.Error logged for this enable */
};

static DEFINE_PER_CPU(struct pts_sim_percpu, pts_sim_pcpu);

/*
 * Set once this unit's reboot notifier has run (restart, kexec, power-off):
 * from then on a write that sets TraceEn is logged, since that CPU traces
 * on into the reset or the next kernel (pts_sim_op_wrmsr()). Written in
 * process context, read with IRQs off on any CPU.
 */
static bool pts_sim_after_reboot;

/*
 * Physical memory for the model: the ToPA tables and regions the core
 * allocated from the page allocator, reached through the direct map.
 * Anything else (no struct page) is refused and becomes STATUS.Error.
 */
static void *pts_sim_map_phys(void *ctx, u64 pa, u64 len)
{
	if (!len || !pfn_valid(PHYS_PFN(pa)) || !pfn_valid(PHYS_PFN(pa + len - 1)))
		return NULL;
	return phys_to_virt(pa);
}

static const struct pts_sim_mem pts_sim_mem = {
	.map = pts_sim_map_phys,
};

/* Log a ToPA error once per enable (hard-IRQ safe). */
static void pts_sim_report(struct pts_sim_percpu *p)
{
	if (!(p->cpu.status & RTIT_STATUS_ERROR)) {
		p->error_reported = false;
		return;
	}
	if (p->error_reported)
		return;
	p->error_reported = true;
	pr_warn("CPU %d: RTIT_STATUS.Error set, tracing stopped: %s\n",
		smp_processor_id(),
		p->cpu.last_topa_err ? pts_sim_topa_err_str(p->cpu.last_topa_err) :
				       "ToPA output outside RAM");
}

/*
 * The context the simulated program runs in on this CPU
 * (docs/simulated-unit.md, "Context"): the task this code interrupted or
 * runs in. Its kernel CR3 is the CR3 loaded now (this runs in ring 0,
 * PCID bits included); its user CR3 is the one the kernel's exit code
 * loads before returning to user space: with KPTI the user page-table
 * root (bit 12), and with PCID also the user PCID bit (11), as
 * arch/x86/entry does. A kernel thread or the idle task has no user code
 * (a lazily kept mm is not its own).
 *
 * Context: IRQs off or hard IRQ, on the CPU whose model is updated.
 */
static void pts_sim_read_ctx(struct pts_sim_percpu *p)
{
	struct pts_sim_ctx x;

	x.kernel_cr3 = __read_cr3();
	x.user_cr3 = x.kernel_cr3;
	if (boot_cpu_has(X86_FEATURE_PTI)) {
		x.user_cr3 |= 1ULL << PTS_CR3_PTI_USER_BIT;
		if (boot_cpu_has(X86_FEATURE_PCID))
			x.user_cr3 |= 1ULL << PTS_CR3_PCID_USER_BIT;
	}
	x.no_user = !current->mm || (current->flags & PF_KTHREAD);
	pts_sim_set_ctx(&p->cpu, &x);
}

/* Hard-IRQ tick on the tracing CPU: one round of packets. */
static enum hrtimer_restart pts_sim_tick_fn(struct hrtimer *timer)
{
	struct pts_sim_percpu *p = container_of(timer, struct pts_sim_percpu, timer);

	/* A timer migrated off an offlined CPU must not touch its model. */
	if (p != this_cpu_ptr(&pts_sim_pcpu))
		return HRTIMER_NORESTART;
	pts_sim_read_ctx(p);
	if (!pts_sim_tick(&p->cpu, rdtsc()))
		return HRTIMER_NORESTART;
	pts_sim_report(p);
	hrtimer_forward_now(timer, ns_to_ktime(PTS_SIM_TICK_NS));
	return HRTIMER_RESTART;
}

static void pts_sim_op_cpuid(u32 leaf, u32 subleaf, u32 *eax, u32 *ebx, u32 *ecx, u32 *edx)
{
	u32 r[4];

	cpuid_count(leaf, subleaf, &r[0], &r[1], &r[2], &r[3]);
	pts_sim_cpuid(&pts_sim_model_skx, leaf, subleaf, r);
	*eax = r[0];
	*ebx = r[1];
	*ecx = r[2];
	*edx = r[3];
}

/* Context: any; acts on the model of the current CPU. */
static int pts_sim_op_rdmsr(u32 msr, u64 *val)
{
	struct pts_sim_percpu *p = get_cpu_ptr(&pts_sim_pcpu);
	int rc = pts_sim_rdmsr(&p->cpu, msr, val);

	if (rc)
		pr_debug("CPU %d: rdmsr %#x: #GP: %s\n", smp_processor_id(), msr,
			 pts_sim_gp_str(p->cpu.last_gp));
	put_cpu_ptr(&pts_sim_pcpu);
	return rc;
}

/*
 * Context: IRQs off on the target CPU (pt_unit.h). Starts the tick timer
 * when the write sets TraceEn and cancels it when it clears TraceEn; the
 * timer is pinned and runs in hard IRQ, so it cannot be running now.
 */
static int pts_sim_op_wrmsr(u32 msr, u64 val)
{
	struct pts_sim_percpu *p = get_cpu_ptr(&pts_sim_pcpu);
	bool was, now;
	int rc;

	pts_sim_read_ctx(p);
	was = pts_sim_tracing(&p->cpu);
	rc = pts_sim_wrmsr(&p->cpu, msr, val, rdtsc());
	now = pts_sim_tracing(&p->cpu);

	if (rc) {
		pr_debug("CPU %d: wrmsr %#x <- %#llx: #GP: %s\n", smp_processor_id(), msr,
			 val, pts_sim_gp_str(p->cpu.last_gp));
	} else if (!was && now) {
		p->error_reported = false;
		if (READ_ONCE(pts_sim_after_reboot))
			pr_warn("CPU %d: TraceEn set after the reboot notifier: this CPU traces on into the reset or the next kernel\n",
				smp_processor_id());
		hrtimer_start(&p->timer, ns_to_ktime(PTS_SIM_TICK_NS),
			      HRTIMER_MODE_REL_PINNED_HARD);
	} else if (was && !now) {
		hrtimer_try_to_cancel(&p->timer);
	}
	pts_sim_report(p);
	put_cpu_ptr(&pts_sim_pcpu);
	return rc;
}

/* Context: IRQs off, right before the core stops tracing on this CPU. */
static void pts_sim_op_sync(void)
{
	struct pts_sim_percpu *p = get_cpu_ptr(&pts_sim_pcpu);

	pts_sim_read_ctx(p);
	pts_sim_tick(&p->cpu, rdtsc());
	pts_sim_report(p);
	put_cpu_ptr(&pts_sim_pcpu);
}

/* /sys/module/ptscope/sim_user_code: the user code image's bytes. */
static ssize_t sim_user_code_read(struct file *file, struct kobject *kobj,
				  struct bin_attribute *attr, char *buf,
				  loff_t off, size_t count)
{
	return memory_read_from_buffer(buf, count, &off, pts_sim_user_code,
				       sizeof(pts_sim_user_code));
}

static BIN_ATTR_RO(sim_user_code, PTS_SIM_CODE_SIZE);

/*
 * /sys/module/ptscope/sim_msr (root only, simulated unit only): lets a
 * test play "another owner" of the unit, as perf's intel_pt driver or KVM
 * would be on a real machine. Writing "CPU MSR VALUE" does that WRMSR on
 * that CPU's model (-EIO where the SDM says #GP); reading lists every
 * RTIT MSR of each online CPU. docs/simulated-unit.md, "Another owner".
 */
struct pts_sim_msr_op {
	u32 msr;
	u64 val;
	int rc;
};

/* Context: on the target CPU, IRQs off (cross-call). */
static void pts_sim_msr_write_fn(void *info)
{
	struct pts_sim_msr_op *op = info;

	op->rc = pts_sim_op_wrmsr(op->msr, op->val);
}

static const u32 pts_sim_msr_list[] = {
	RTIT_MSR_CTL, RTIT_MSR_STATUS, RTIT_MSR_OUTPUT_BASE,
	RTIT_MSR_OUTPUT_MASK_PTRS, RTIT_MSR_CR3_MATCH,
	RTIT_MSR_ADDR_A(0), RTIT_MSR_ADDR_B(0), RTIT_MSR_ADDR_A(1), RTIT_MSR_ADDR_B(1),
};

/* Context: on the target CPU, IRQs off (cross-call); info: u64[9]. */
static void pts_sim_msr_read_fn(void *info)
{
	u64 *v = info;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pts_sim_msr_list); i++)
		if (pts_sim_op_rdmsr(pts_sim_msr_list[i], &v[i]))
			v[i] = ~0ULL;
}

/* Context: process (sysfs), may sleep. */
static ssize_t sim_msr_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	u64 v[ARRAY_SIZE(pts_sim_msr_list)];
	int cpu, len = 0;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		if (len > PAGE_SIZE - 256)
			break;
		if (smp_call_function_single(cpu, pts_sim_msr_read_fn, v, 1))
			continue;
		len += sysfs_emit_at(buf, len,
				     "cpu%d ctl=%#llx status=%#llx base=%#llx omp=%#llx cr3=%#llx a0=%#llx b0=%#llx a1=%#llx b1=%#llx\n",
				     cpu, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
	}
	cpus_read_unlock();
	return len;
}

/* Context: process (sysfs), may sleep. */
static ssize_t sim_msr_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	struct pts_sim_msr_op op = { 0 };
	unsigned int cpu;
	int rc;

	if (sscanf(buf, "%u %i %lli", &cpu, &op.msr, &op.val) != 3)
		return -EINVAL;
	cpus_read_lock();
	rc = cpu < nr_cpu_ids && cpu_online(cpu) ?
	     smp_call_function_single(cpu, pts_sim_msr_write_fn, &op, 1) : -ENODEV;
	cpus_read_unlock();
	if (rc)
		return rc;
	return op.rc ? op.rc : count;
}

static struct kobj_attribute pts_sim_msr_attr = __ATTR(sim_msr, 0600, sim_msr_show,
						       sim_msr_store);

/*
 * /sys/module/ptscope/sim_ovf (root only, simulated unit only): overflow
 * injection. Writing N makes every online CPU's unit lose the packets of
 * its next N rounds (the next ones written with TraceEn set), as an
 * internal buffer overflow does, and then write OVF (SDM 33.4.2.16); 0
 * cancels. Reading lists, per online CPU, the OVF
 * packets written since load and the rounds still to lose.
 */

/* Context: on the target CPU, IRQs off (cross-call); info: the u32 N. */
static void pts_sim_ovf_fn(void *info)
{
	pts_sim_inject_overflow(&this_cpu_ptr(&pts_sim_pcpu)->cpu, *(u32 *)info);
}

/* Context: on the target CPU, IRQs off (cross-call); info: u64[2]. */
static void pts_sim_ovf_read_fn(void *info)
{
	struct pts_sim_cpu *c = &this_cpu_ptr(&pts_sim_pcpu)->cpu;
	u64 *v = info;

	v[0] = c->overflows;
	v[1] = c->lose_rounds;
}

/* Context: process (sysfs), may sleep. */
static ssize_t sim_ovf_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	int cpu, len = 0;
	u64 v[2];

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		if (len > PAGE_SIZE - 64)
			break;
		if (smp_call_function_single(cpu, pts_sim_ovf_read_fn, v, 1))
			continue;
		len += sysfs_emit_at(buf, len, "cpu%d ovf=%llu pending=%llu\n", cpu,
				     v[0], v[1]);
	}
	cpus_read_unlock();
	return len;
}

/* Context: process (sysfs), may sleep. */
static ssize_t sim_ovf_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	u32 rounds;
	int rc;

	rc = kstrtou32(buf, 0, &rounds);
	if (rc)
		return rc;
	cpus_read_lock();
	on_each_cpu(pts_sim_ovf_fn, &rounds, 1);
	cpus_read_unlock();
	return count;
}

static struct kobj_attribute pts_sim_ovf_attr = __ATTR(sim_ovf, 0600, sim_ovf_show,
						       sim_ovf_store);

/*
 * /sys/module/ptscope/sim_reboot_hold (root only, simulated unit only):
 * holds the next restart, kexec or power-off in this unit's reboot
 * notifier, after the core's notifier has run and before the kernel goes
 * on to device_shutdown() and the reset or machine_kexec(), until user
 * space releases it or a time limit passes. A test can then act in that
 * window (the VM suite's START after the reboot notifier) knowing that
 * it runs before the reset, whatever the scheduler does: without the
 * hold a task is not guaranteed a turn there. Writing N (1 to
 * PTS_SIM_HOLD_MAX_MS) arms a hold of at most N ms; writing 0 releases
 * it: a hold in progress ends, one not begun yet (the test was done
 * before this notifier ran) passes at once, and both say so on the log.
 * Reading gives the armed limit in ms (0: none) and "holding",
 * "released" or "idle".
 *
 * Locking: pts_sim_hold_lock orders the writers; the notifier reads the
 * limit once, then waits on the completion without the lock, so a
 * release never waits for the hold.
 */
#define PTS_SIM_HOLD_MAX_MS	120000
static DEFINE_MUTEX(pts_sim_hold_lock);
static DECLARE_COMPLETION(pts_sim_hold_done);
static unsigned int pts_sim_hold_ms;	/* written under pts_sim_hold_lock */
static bool pts_sim_holding;		/* written by the notifier only */

/* Context: process (sysfs), may sleep. */
static ssize_t sim_reboot_hold_show(struct kobject *kobj, struct kobj_attribute *attr,
				    char *buf)
{
	return sysfs_emit(buf, "%u %s\n", READ_ONCE(pts_sim_hold_ms),
			  READ_ONCE(pts_sim_holding) ? "holding" :
			  completion_done(&pts_sim_hold_done) ? "released" : "idle");
}

/* Context: process (sysfs), may sleep; takes pts_sim_hold_lock. */
static ssize_t sim_reboot_hold_store(struct kobject *kobj, struct kobj_attribute *attr,
				     const char *buf, size_t count)
{
	unsigned int ms;
	int rc;

	rc = kstrtouint(buf, 0, &ms);
	if (rc)
		return rc;
	if (ms > PTS_SIM_HOLD_MAX_MS)
		return -ERANGE;
	mutex_lock(&pts_sim_hold_lock);
	if (ms) {
		reinit_completion(&pts_sim_hold_done);
		WRITE_ONCE(pts_sim_hold_ms, ms);
	} else {
		complete_all(&pts_sim_hold_done);
	}
	mutex_unlock(&pts_sim_hold_lock);
	return count;
}

static struct kobj_attribute pts_sim_hold_attr =
	__ATTR(sim_reboot_hold, 0600, sim_reboot_hold_show, sim_reboot_hold_store);

/* Context: process (reboot notifier chain), may sleep; no lock held. */
static void pts_sim_reboot_hold(void)
{
	unsigned int ms = READ_ONCE(pts_sim_hold_ms);
	unsigned long t0 = jiffies, left;

	if (!ms)
		return;
	WRITE_ONCE(pts_sim_holding, true);
	pr_info("reboot hold: waiting up to %u ms for sim_reboot_hold to be released\n", ms);
	left = wait_for_completion_timeout(&pts_sim_hold_done, msecs_to_jiffies(ms));
	WRITE_ONCE(pts_sim_holding, false);
	if (left)
		pr_info("reboot hold: released after %u ms\n", jiffies_to_msecs(jiffies - t0));
	else
		pr_warn("reboot hold: not released within %u ms: going on\n", ms);
}

/*
 * Restart, kexec, power-off: runs after the core's reboot notifier (lower
 * priority), so it sees what the core left behind. Reports whether any
 * CPU's model still has TraceEn set; such a CPU would keep writing into
 * memory that belongs to the next kernel after a kexec. This is what the
 * simulated unit can show of a kexec (docs/testing-vm.md): its own state
 * ends with this kernel. Then holds the reboot if a test asked for it
 * (sim_reboot_hold).
 */

/* Context: on the target CPU, IRQs off (cross-call); info: u64 ctl. */
static void pts_sim_ctl_read_fn(void *info)
{
	*(u64 *)info = this_cpu_ptr(&pts_sim_pcpu)->cpu.ctl;
}

/* Context: process (reboot notifier chain), may sleep. */
static int pts_sim_reboot_notify(struct notifier_block *nb, unsigned long action,
				 void *data)
{
	int cpu, n = 0, on = -1;
	u64 ctl;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		ctl = 0;
		if (smp_call_function_single(cpu, pts_sim_ctl_read_fn, &ctl, 1))
			continue;
		n++;
		if ((ctl & RTIT_CTL_TRACEEN) && on < 0)
			on = cpu;
	}
	cpus_read_unlock();
	if (on >= 0)
		pr_warn("%s: TraceEn still set on CPU %d: it would go on writing after this kernel\n",
			action == SYS_RESTART ? "restart or kexec" : "shutdown", on);
	else
		pr_info("%s: TraceEn clear on all %d online CPUs: nothing more is written\n",
			action == SYS_RESTART ? "restart or kexec" : "shutdown", n);
	/* From here on a CPU armed again says so (pts_sim_op_wrmsr()). */
	WRITE_ONCE(pts_sim_after_reboot, true);
	pts_sim_reboot_hold();
	return NOTIFY_DONE;
}

static struct notifier_block pts_sim_reboot_nb = {
	.notifier_call = pts_sim_reboot_notify,
	.priority = -1,		/* after the core's (priority 0) */
};

/* Context: process, may sleep (module load). */
static int pts_sim_op_init(void)
{
	int cpu, rc;

	for_each_possible_cpu(cpu) {
		struct pts_sim_percpu *p = per_cpu_ptr(&pts_sim_pcpu, cpu);

		pts_sim_cpu_init(&p->cpu, &pts_sim_model_skx, &pts_sim_mem,
				 (u64)(unsigned long)pts_sim_kernel_entry, PTS_SIM_USER_BASE);
		pts_hrtimer_setup(&p->timer, pts_sim_tick_fn, CLOCK_MONOTONIC,
				  HRTIMER_MODE_REL_PINNED_HARD);
		p->error_reported = false;
	}
	rc = sysfs_create_bin_file(&THIS_MODULE->mkobj.kobj, &bin_attr_sim_user_code);
	if (rc) {
		pr_err("cannot create sim_user_code in sysfs: %d\n", rc);
		return rc;
	}
	rc = sysfs_create_file(&THIS_MODULE->mkobj.kobj, &pts_sim_msr_attr.attr);
	if (rc) {
		pr_err("cannot create sim_msr in sysfs: %d\n", rc);
		sysfs_remove_bin_file(&THIS_MODULE->mkobj.kobj, &bin_attr_sim_user_code);
		return rc;
	}
	rc = sysfs_create_file(&THIS_MODULE->mkobj.kobj, &pts_sim_ovf_attr.attr);
	if (rc) {
		pr_err("cannot create sim_ovf in sysfs: %d\n", rc);
		goto err_msr;
	}
	rc = sysfs_create_file(&THIS_MODULE->mkobj.kobj, &pts_sim_hold_attr.attr);
	if (rc) {
		pr_err("cannot create sim_reboot_hold in sysfs: %d\n", rc);
		goto err_ovf;
	}
	rc = register_reboot_notifier(&pts_sim_reboot_nb);
	if (rc) {
		pr_err("cannot register the reboot notifier: %d\n", rc);
		sysfs_remove_file(&THIS_MODULE->mkobj.kobj, &pts_sim_hold_attr.attr);
		goto err_ovf;
	}
	pr_info("active: model %s, not real hardware; kernel code image %pS, user code image at %#llx\n",
		pts_sim_model_skx.name, pts_sim_kernel_entry,
		(unsigned long long)PTS_SIM_USER_BASE);
	return 0;

err_ovf:
	sysfs_remove_file(&THIS_MODULE->mkobj.kobj, &pts_sim_ovf_attr.attr);
err_msr:
	sysfs_remove_file(&THIS_MODULE->mkobj.kobj, &pts_sim_msr_attr.attr);
	sysfs_remove_bin_file(&THIS_MODULE->mkobj.kobj, &bin_attr_sim_user_code);
	return rc;
}

/* Context: process, may sleep (module unload; tracing already stopped). */
static void pts_sim_op_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(&pts_sim_pcpu, cpu)->timer);
	unregister_reboot_notifier(&pts_sim_reboot_nb);
	sysfs_remove_file(&THIS_MODULE->mkobj.kobj, &pts_sim_hold_attr.attr);
	sysfs_remove_file(&THIS_MODULE->mkobj.kobj, &pts_sim_ovf_attr.attr);
	sysfs_remove_file(&THIS_MODULE->mkobj.kobj, &pts_sim_msr_attr.attr);
	sysfs_remove_bin_file(&THIS_MODULE->mkobj.kobj, &bin_attr_sim_user_code);
	pr_info("removed\n");
}

const struct pt_unit_ops pt_sim_ops = {
	.name = "simulated",
	.simulated = true,
	.cpuid = pts_sim_op_cpuid,
	.rdmsr = pts_sim_op_rdmsr,
	.wrmsr = pts_sim_op_wrmsr,
	.init = pts_sim_op_init,
	.exit = pts_sim_op_exit,
	.sync = pts_sim_op_sync,
};
