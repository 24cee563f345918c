// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug, suspend/resume, panic, and time correlation.
 *
 *  - Hotplug (CPUHP_AP_ONLINE_DYN, callbacks run on the CPU concerned):
 *    going offline stops PT there and marks it OFFLINED (its ring stays
 *    allocated and mapped); coming online re-arms it if the capture is
 *    armed, continuing at the saved write head, unless its unit had
 *    stopped by itself (RTIT_STATUS.Stopped: a full ring or TraceStop),
 *    which stays stopped with its data. Arming and stopping hold
 *    cpus_read_lock(), so these callbacks never race with them.
 *  - Suspend/hibernate, and a hibernation image about to be restored
 *    (PM notifier, process context): stop every CPU of an ARMED or
 *    POST_TRIGGER capture; it ends as STOPPED with reason SUSPEND. START
 *    is refused until the matching POST notification.
 *  - Reboot, power-off, halt and kexec -e (reboot notifier, process
 *    context, every CPU still online): stop every CPU, give the RTIT
 *    MSRs back and make sure no CPU still writes into the rings, so the
 *    next kernel (kexec) gets a clean unit and its memory is never
 *    written by PT; START is refused from then on.
 *  - Panic (atomic notifier): only the panicking CPU can be stopped
 *    safely - no IPIs or sleeping on the panic path; panic() has already
 *    halted the others. Their rings end in the halt path. A capture
 *    still tracing (ARMED, or POST_TRIGGER: its delay cut short) is
 *    marked TRIGGERED with PTSCOPE_STATEF_PANIC for a crash-dump reader,
 *    with reason PANIC when the panic was its trigger. With
 *    a kdump kernel loaded this notifier runs only with
 *    crash_kexec_post_notifiers set; otherwise the crash-kexec probe
 *    (crash.c) does the same on the CPU that jumps to the crash kernel
 *    (docs/abi.md, "What a PANIC snapshot can promise").
 *  - Time: (TSC, CLOCK_REALTIME, CLOCK_MONOTONIC) read together with IRQs
 *    off, at arm and at stop; the NMI-safe fast clocks are used so the
 *    same helper works from trigger context.
 */
#include <linux/cpuhotplug.h>
#include <linux/irqflags.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/reboot.h>
#include <linux/suspend.h>
#include <linux/timekeeping.h>
#include <asm/msr.h>

#include "ptscope_internal.h"

static enum cpuhp_state pts_hp_state;
static bool pts_hp_registered;

void pts_time_pair(struct ptscope_time_pair *tp)
{
	unsigned long flags;

	local_irq_save(flags);
	tp->tsc = rdtsc_ordered();
	tp->realtime_ns = ktime_get_real_fast_ns();
	tp->monotonic_ns = ktime_get_mono_fast_ns();
	local_irq_restore(flags);
}

/*
 * Context: on @cpu, hotplug lock held for write (no arm or stop runs).
 * A trigger may be stopping every CPU meanwhile: the flags are read with
 * IRQs off, so either this CPU is already in cpu_online_mask for the
 * trigger's IPI loop (smp_mb() pairs with the one there), and the IPI
 * arrives after PT was started here, or this CPU sees stop_requested.
 */
static int pts_cpu_online(unsigned int cpu)
{
	struct pts_cpu *pc = per_cpu_ptr(&pts_cpus, cpu);
	unsigned long flags;
	bool start;

	local_irq_save(flags);
	smp_mb();	/* pairs with stop_all_cpus(): see above */
	start = READ_ONCE(pts.armed) && !READ_ONCE(pts.stop_requested) &&
		pts.configured && cpumask_test_cpu(cpu, pts.selected);
	/* Its unit stopped by itself (full, TraceStop): keep its data. */
	if (pc->started && !pts_cpu_may_resume(pc->flags))
		start = false;
	if (start)
		pts_cpu_start_local(pc, pc->started);
	/*
	 * EBUSY: another PT user, VMX without PT, or an LBR/BTS user holds
	 * the unit now: the rest of this CPU's trace is missing, which the
	 * capture reports as its conflict (logged there, with the reason).
	 */
	if (start && pc->result == -EBUSY)
		pts_cpu_conflict(pc, pc->reason);
	local_irq_restore(flags);
	if (start && pc->result && pc->result != -EBUSY)
		pts_warn("cpu %u back online, PT not re-armed: %d (reason %u)\n",
			 cpu, pc->result, pc->reason);
	return 0;
}

static int pts_cpu_offline(unsigned int cpu)
{
	struct pts_cpu *pc = per_cpu_ptr(&pts_cpus, cpu);
	unsigned long flags;

	local_irq_save(flags);
	if (pc->enabled) {
		pts_cpu_stop_local(pc);
		pc->flags |= PTSCOPE_CPUF_OFFLINED;
	}
	local_irq_restore(flags);
	return 0;
}

/*
 * Suspend or hibernation is about to start, or a hibernation image is
 * about to be restored over this kernel's memory (PM_RESTORE_PREPARE: PT
 * writing on into pages the image then owns would corrupt it, as after
 * kexec): end an ARMED capture, and one in its post-trigger delay
 * (POST_TRIGGER: every CPU still traces until the delay's timer fires,
 * which would be after the resume). State STOPPED, reason SUSPEND.
 *
 * User space runs on after PREPARE until the freezer stops it, and from
 * the thaw until POST: START is refused from PREPARE to the matching POST
 * (SUSPENDING), or it would arm every CPU again for the transition. A
 * failed PREPARE of another notifier gets its POST too
 * (pm_notifier_call_chain_robust()). Context: process (PM notifier
 * chain), may sleep; takes pts.lock.
 */
static int pts_pm_notify(struct notifier_block *nb, unsigned long action,
			 void *data)
{
	if (action == PM_POST_SUSPEND || action == PM_POST_HIBERNATION ||
	    action == PM_POST_RESTORE) {
		mutex_lock(&pts.lock);
		pts.pm_transition = false;
		mutex_unlock(&pts.lock);
		return NOTIFY_OK;
	}
	if (action != PM_SUSPEND_PREPARE && action != PM_HIBERNATION_PREPARE &&
	    action != PM_RESTORE_PREPARE)
		return NOTIFY_DONE;
	mutex_lock(&pts.lock);
	pts.pm_transition = true;
	if (pts_state_end()) {
		pts.trigger_reason = PTSCOPE_TRIGGER_SUSPEND;
		pts_trigger_quiesce();
		pts_stop_all();
		pts_sideband_set_live(false);
		pts_info("suspend: tracing stopped\n");
		wake_up_interruptible_all(&pts.wq);
	}
	mutex_unlock(&pts.lock);
	return NOTIFY_OK;
}

/*
 * Context: process, may sleep (kernel_restart_prepare() and
 * kernel_shutdown_prepare(), which kernel_kexec() also runs). Every CPU
 * is still online and IPIs work. Takes pts.lock; pts_stop_all() and
 * pts_release_all() take cpus_read_lock() inside it.
 *
 * User space keeps running after this returns (device_shutdown() and,
 * for kexec, syscore_shutdown() and machine_shutdown() come later): a
 * START in that window would arm every CPU again and PT would trace on
 * into the reset or, after kexec -e, into memory the next kernel owns.
 * So START is refused from here on (SHUTTING_DOWN); nothing clears the
 * flag, since none of these paths returns to user space.
 */
static int pts_reboot_notify(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	mutex_lock(&pts.lock);
	/* For good: START is refused from now on (start_locked()). */
	pts.shutting_down = true;
	if (pts.configured) {
		pts_state_end();
		/* Triggers now fail their claim; wait for one in flight. */
		pts_trigger_quiesce();
		pts_stop_all();
		pts_release_all();
		pts_sideband_set_live(false);
		pts_info("%s: tracing stopped on every CPU, RTIT MSRs given back\n",
			 action == SYS_RESTART ? "restart or kexec" :
			 action == SYS_POWER_OFF ? "power-off" : "halt");
		wake_up_interruptible_all(&pts.wq);
	}
	mutex_unlock(&pts.lock);
	return NOTIFY_DONE;
}

/**
 * pts_crash_end_local() - the kernel is going down: stop PT on this CPU
 * and leave the capture in the state a crash-dump reader should find.
 * @path: what is going down, for the log line ("panic", "crash kexec").
 *
 * pure/panic.c decides: a capture still tracing, ARMED or in its
 * post-trigger delay, ends as TRIGGERED with PTSCOPE_STATEF_PANIC; from
 * ARMED the crash is its trigger (reason PANIC), in the delay the
 * earlier trigger stays. The post-trigger hrtimer or the trigger's
 * irq_work, should this CPU ever run them again, then find another state
 * word and do nothing (trigger.c). The word is claimed by cmpxchg, as a
 * trigger claims it, so STOP, a trigger or the panic notifier running
 * at the same moment end it once; the fields written are those a
 * trigger's winner writes, the state word last.
 *
 * Context: on the CPU that goes down, any IRQ state (IRQs are disabled
 * here), never in NMI: the panic notifier, with the other CPUs halted,
 * or the crash-kexec probe (crash.c), with the other CPUs about to be
 * shot down; either may hold any lock: no locks, IPIs or sleeping.
 */
void pts_crash_end_local(const char *path)
{
	struct pts_panic_end end;
	unsigned long flags;
	int old;
	u32 word;

	/* No sideband records: nothing more is read, and no irq_work may run. */
	pts_sideband_set_live(false);
	local_irq_save(flags);
	pts_cpu_stop_local(this_cpu_ptr(&pts_cpus));
	/*
	 * Claim the word as a trigger does (ARMED -> POST_TRIGGER; a word
	 * already POST_TRIGGER is taken as it is), so that a trigger that
	 * reached a halted CPU half way cannot have its word ended twice.
	 */
	old = atomic_read(&pts.state);
	do {
		end = pts_panic_end(pts_run_state(old));
		if (!end.ended)
			goto out;
		word = pts_state_with_run(old, PTSCOPE_STATE_POST_TRIGGER);
	} while (!atomic_try_cmpxchg(&pts.state, &old, word));
	if (end.panic_is_trigger) {
		pts.trigger_reason = PTSCOPE_TRIGGER_PANIC;
		pts.trigger_cpu = smp_processor_id();
		pts.trigger_tsc = rdtsc_ordered();
	}
	WRITE_ONCE(pts.armed, false);
	WRITE_ONCE(pts.sources_live, false);
	pts_time_pair(&pts.time_at_stop);
	pts.nr_snapshots++;
	pts.statef |= PTSCOPE_STATEF_PANIC;
	/* Fully ordered: the fields above are seen with the new state. */
	atomic_cmpxchg(&pts.state, word, pts_state_with_run(word, end.run));
	/* For the console and a dump's log: where the snapshot stands. */
	pts_info("%s: capture ended (was %s): state %u, trigger reason %u, flags %#x; PT stopped on cpu %d\n",
		 path, end.panic_is_trigger ? "ARMED" : "POST_TRIGGER",
		 pts_run_state(atomic_read(&pts.state)), pts.trigger_reason,
		 pts.statef, smp_processor_id());
out:
	local_irq_restore(flags);
}

/*
 * The kernel panics: pts_crash_end_local(). With a crash kernel loaded
 * this notifier runs only when crash_kexec_post_notifiers is set
 * (docs/abi.md, "Lifecycle"); without it crash.c's probe does the same
 * right before the jump.
 * Context: atomic notifier, on the panicking CPU; the others are halted
 * (or about to be, with crash_kexec_post_notifiers).
 */
static int pts_panic_notify(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	pts_crash_end_local("panic");
	return NOTIFY_DONE;
}

static struct notifier_block pts_pm_nb = {
	.notifier_call = pts_pm_notify,
};

static struct notifier_block pts_reboot_nb = {
	.notifier_call = pts_reboot_notify,
};

static struct notifier_block pts_panic_nb = {
	.notifier_call = pts_panic_notify,
	.priority = INT_MAX,	/* before kdump/console flushing */
};

/* Context: module init, may sleep. */
int pts_lifecycle_init(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "ptscope:online",
					pts_cpu_online, pts_cpu_offline);
	if (ret < 0)
		return ret;
	pts_hp_state = ret;
	pts_hp_registered = true;
	ret = register_pm_notifier(&pts_pm_nb);
	if (ret) {
		cpuhp_remove_state_nocalls(pts_hp_state);
		pts_hp_registered = false;
		return ret;
	}
	ret = register_reboot_notifier(&pts_reboot_nb);
	if (ret) {
		unregister_pm_notifier(&pts_pm_nb);
		cpuhp_remove_state_nocalls(pts_hp_state);
		pts_hp_registered = false;
		return ret;
	}
	atomic_notifier_chain_register(&panic_notifier_list, &pts_panic_nb);
	return 0;
}

void pts_lifecycle_exit(void)
{
	atomic_notifier_chain_unregister(&panic_notifier_list, &pts_panic_nb);
	unregister_reboot_notifier(&pts_reboot_nb);
	unregister_pm_notifier(&pts_pm_nb);
	if (pts_hp_registered)
		cpuhp_remove_state_nocalls(pts_hp_state);
	pts_hp_registered = false;
}
