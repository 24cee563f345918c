// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshot triggers: PTSCOPE_IOC_TRIGGER, a kernel tracepoint of a list
 * (trigger_tp.c), a sysrq key, and a uprobe on a user function (uprobe.c).
 *
 * A trigger may fire in any context (tracepoint probes run with
 * preemption off, some with IRQs off, a few in NMI; sysrq handlers run in
 * the keyboard or serial interrupt). IPIs cannot be sent from there, so a
 * trigger:
 *   1. with IRQs off from here to step 3 (a STOP on another CPU then
 *      finds the irq_work queued and waits for it), claims the capture:
 *      the state word of the current generation, ARMED -> POST_TRIGGER
 *      (one winner); records TSC, CPU, pid/tid, reason and the claimed
 *      word (pts.trig_word);
 *   2. with no post-trigger delay, stops PT on its own CPU right there,
 *      unless it is in NMI (page_fault_* tracepoints fire in NMI when a
 *      perf call-chain copy faults): the NMI may have interrupted this
 *      CPU's own start or stop (a CPU coming back online re-arms with
 *      IRQs off) or the simulated unit's tick half way, and a nested stop
 *      would interleave with it; the irq_work of step 3 runs as soon as
 *      the NMI returns and stops it then (and its TRACE_STOP record,
 *      which an NMI inside a sideband writer would lose, is written);
 *   3. queues an irq_work on its own CPU (irq_work_queue is NMI-safe;
 *      irq_work_queue_on is not exported to modules);
 *   4. the irq_work (hard IRQ context, also on PREEMPT_RT) starts the
 *      post-trigger hrtimer (pinned to that CPU, hard) or, with no delay,
 *      goes on to step 5 at once;
 *   5. stops the triggering CPU and sends every other selected online CPU
 *      an asynchronous IPI (smp_call_function_single_async(), allowed
 *      with IRQs off) whose handler stops PT there: a CPU running a
 *      SCHED_FIFO task, a nohz_full CPU or a long non-preemptible section
 *      stops within the IPI latency. The last CPU to stop moves the state
 *      word from the claimed POST_TRIGGER to TRIGGERED and queues a work
 *      item on the unbound workqueue (queue_work() is safe in hard IRQ,
 *      also on PREEMPT_RT) that wakes poll() waiters: wake_up() takes a
 *      sleeping lock on PREEMPT_RT, and an unbound worker is not held up
 *      by a real-time task that monopolises the last CPU to stop.
 * Steps 4 and 5 act only while the state word is still the claimed one:
 * after a STOP, or a STOP and a new START, they do nothing.
 *
 * Locking: pts.trig_word and the trigger_* fields are written only by
 * the winner of the claim, before the word can move to TRIGGERED (a fully
 * ordered cmpxchg), so a reader that sees TRIGGERED (atomic_read_acquire())
 * sees the reason. pts.stop_pending counts the CPUs still to stop;
 * pts_trigger_quiesce() waits for it to drain.
 *
 * Sysrq: the op's enable_mask is SYSRQ_ENABLE_SYNC (0x10), a bit of
 * Debian's default kernel.sysrq = 0x1b6 (CONFIG_MAGIC_SYSRQ_DEFAULT_ENABLE),
 * so Alt-SysRq-<key> at a console and BREAK <key> on a serial console work
 * without kernel.sysrq=1. Stopping a trace is as harmless as a sync.
 */
#include <linux/delay.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/sysrq.h>
#include <linux/workqueue.h>
#include <asm/msr.h>

#include "compat.h"
#include "ptscope_internal.h"

char *pts_param_hotkey = "x";
module_param_named(hotkey, pts_param_hotkey, charp, 0444);
MODULE_PARM_DESC(hotkey, "default sysrq key of the hotkey trigger (default x; free on x86)");

/* [pts.lock] the capture's registered sysrq key, 0 = none */
static int trig_key;

/* One per CPU: the stop IPI; reusable once its handler has started. */
static DEFINE_PER_CPU(call_single_data_t, pts_stop_csd);

/**
 * pts_trigger_fire() - take a snapshot now (or after the post-trigger delay).
 * @reason: enum ptscope_trigger_reason.
 *
 * Context: any, including NMI and hard IRQ; never sleeps, never sends IPIs.
 * Only the first trigger of an armed capture counts.
 */
void pts_trigger_fire(u32 reason)
{
	unsigned long flags;
	u32 word;
	u64 tsc;

	local_irq_save(flags);
	word = pts_state_claim(PTSCOPE_STATE_POST_TRIGGER);
	if (!word) {
		local_irq_restore(flags);
		return;
	}
	pts.trigger_cpu = smp_processor_id();
	pts.trigger_reason = reason;
	pts_task_ids(current, &pts.trigger_pid, &pts.trigger_tid);
	/*
	 * The TRIGGER record first, then this CPU's TRACE_STOP: its TSC is the
	 * trigger time, and the sideband stays in TSC order on this CPU.
	 */
	tsc = pts_sb_trigger(reason, pts.trigger_pid, pts.trigger_tid);
	pts.trigger_tsc = tsc ? tsc : rdtsc_ordered();
	WRITE_ONCE(pts.trig_word, word);
	if (!pts.cfg.trigger.post_trigger_us && !in_nmi())
		pts_cpu_stop_local(this_cpu_ptr(&pts_cpus));
	irq_work_queue(&pts.trig_work);
	local_irq_restore(flags);
}

/* Is the trigger of @word still the capture's current business? */
static bool trigger_current(u32 word)
{
	return atomic_read(&pts.state) == word;
}

/*
 * Last CPU stopped: the snapshot is ready. Context: hard IRQ (the trigger
 * CPU's irq_work or a stop IPI), IRQs off.
 */
static void capture_finished(u32 word)
{
	if (!trigger_current(word))
		return;
	WRITE_ONCE(pts.armed, false);
	pts_time_pair(&pts.time_at_stop);
	pts_sideband_set_live(false);
	pts.nr_snapshots++;
	if (!(pts.cfg.trigger.flags & PTSCOPE_TRIGF_MULTI))
		WRITE_ONCE(pts.sources_live, false);
	if (atomic_cmpxchg(&pts.state, word,
			   pts_state_with_run(word, PTSCOPE_STATE_TRIGGERED)) == word)
		queue_work(system_unbound_wq, &pts.done_work);
}

static void stop_done(void)
{
	if (atomic_dec_and_test(&pts.stop_pending))
		capture_finished(READ_ONCE(pts.trig_word));
}

/* Stop IPI. Context: hard IRQ on the CPU to stop, IRQs off. */
static void stop_ipi_fn(void *info)
{
	pts_cpu_stop_local(this_cpu_ptr(&pts_cpus));
	stop_done();
}

/*
 * Stop every selected CPU. Context: hard IRQ on the triggering CPU, IRQs
 * off (irq_work or hrtimer).
 */
static void stop_all_cpus(u32 word)
{
	unsigned int cpu, self = smp_processor_id();

	if (!trigger_current(word))
		return;
	WRITE_ONCE(pts.stop_requested, true);
	/* Pairs with pts_cpu_online(): it is online, or it sees the flag. */
	smp_mb();
	pts_cpu_stop_local(this_cpu_ptr(&pts_cpus));
	/* One extra count so that finishing waits for the loop. */
	atomic_set(&pts.stop_pending, 1);
	for_each_cpu_and(cpu, pts.selected, cpu_online_mask) {
		if (cpu == self)
			continue;
		atomic_inc(&pts.stop_pending);
		/* Fails only for a CPU gone offline: its callback stopped PT. */
		if (smp_call_function_single_async(cpu, per_cpu_ptr(&pts_stop_csd, cpu)))
			atomic_dec(&pts.stop_pending);
	}
	stop_done();
}

/* Runs on the triggering CPU in hard IRQ context. */
static void trig_work_fn(struct irq_work *work)
{
	u32 word = READ_ONCE(pts.trig_word);
	u32 us = pts.cfg.trigger.post_trigger_us;

	if (!trigger_current(word))
		return;
	if (us)
		hrtimer_start(&pts.post_timer, ns_to_ktime((u64)us * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_PINNED_HARD);
	else
		stop_all_cpus(word);
}

static enum hrtimer_restart post_timer_fn(struct hrtimer *t)
{
	stop_all_cpus(READ_ONCE(pts.trig_word));
	return HRTIMER_NORESTART;
}

/*
 * Wake poll() waiters. Context: a worker of the unbound workqueue (process
 * context): wake_up()'s spinlock_t sleeps on PREEMPT_RT, and an unbound
 * worker runs on any CPU, so a CPU monopolised by a real-time task does not
 * delay the wake-up.
 */
static void done_work_fn(struct work_struct *work)
{
	wake_up_interruptible_all(&pts.wq);
}

/* ---- sysrq trigger ------------------------------------------------------ */

static void sysrq_trigger(PTS_SYSRQ_KEY_TYPE key)
{
	if (READ_ONCE(pts.sources_live))
		pts_trigger_fire(PTSCOPE_TRIGGER_HOTKEY);
}

static const struct sysrq_key_op pts_sysrq_op = {
	.handler = sysrq_trigger,
	.help_msg = "ptscope-snapshot",
	.action_msg = "ptscope: snapshot trigger",
	.enable_mask = SYSRQ_ENABLE_SYNC,
};

/**
 * pts_trigger_prepare() - check every trigger of @cfg against this kernel,
 * take what they name and register them, before the previous
 * configuration is released.
 * @cfg: the configuration (its trigger and uprobe parts).
 * @admin: the caller is perfmon_capable() (pts_perm_check()).
 * @prep: out; taken over by pts_trigger_commit() or given back by
 *        pts_trigger_prep_drop().
 * @why: reason code and value on refusal.
 *
 * The tracepoint probe and the uprobe go into the slots the current
 * capture does not use (trigger_tp.c, uprobe.c); a hotkey other than the
 * one registered now is registered here, the current one is kept. What
 * is registered does nothing until its capture is armed (a trigger
 * claims only an ARMED capture, and CONFIGURE refuses an armed one), so
 * a refusal later in CONFIGURE, or here, leaves the current capture as
 * it was.
 * Context: process context, pts.lock held, not cpus_read_lock(). May sleep.
 * Return: 0; the errors of pts_trigger_tp_prepare(); -EBUSY
 * (HOTKEY_UNAVAILABLE); or those of pts_uprobe_prepare(). On failure
 * nothing is held.
 */
int pts_trigger_prepare(const struct ptscope_config *cfg, bool admin,
			struct pts_trigger_prep *prep, struct pts_refusal *why)
{
	const struct ptscope_trigger_spec *spec = &cfg->trigger;
	int err;

	memset(prep, 0, sizeof(*prep));
	if (spec->kinds & PTSCOPE_TRIG_TRACEPOINT) {
		err = pts_trigger_tp_prepare(spec, admin, &prep->tp, why);
		if (err)
			goto fail;
	}
	if (spec->kinds & PTSCOPE_TRIG_HOTKEY) {
		int key = spec->hotkey;

		if (!key && pts_param_hotkey)
			key = pts_param_hotkey[0];
		if (!pts_sysrq_key_ok(key) ||
		    (key != trig_key && register_sysrq_key(key, &pts_sysrq_op))) {
			why->reason = PTSCOPE_R_HOTKEY_UNAVAILABLE;
			why->arg = key;
			err = -EBUSY;
			goto fail;
		}
		prep->key = key;
		prep->key_held = key != trig_key;
	}
	if (spec->kinds & PTSCOPE_TRIG_UPROBE) {
		err = pts_uprobe_prepare(&cfg->uprobe, &prep->up, why);
		if (err)
			goto fail;
	}
	return 0;
fail:
	pts_trigger_prep_drop(prep);
	return err;
}

/**
 * pts_trigger_prep_drop() - unregister and release what
 * pts_trigger_prepare() took and pts_trigger_commit() did not take over
 * (nothing after a commit).
 * @prep: emptied.
 * Context: process context, pts.lock held, not cpus_read_lock(); may sleep.
 */
void pts_trigger_prep_drop(struct pts_trigger_prep *prep)
{
	pts_trigger_tp_prep_drop(&prep->tp);
	if (prep->key_held)
		unregister_sysrq_key(prep->key, &pts_sysrq_op);
	prep->key_held = false;
	prep->key = 0;
	pts_uprobe_prep_drop(&prep->up);
}

/**
 * pts_trigger_commit() - the prepared triggers become the capture's.
 * @prep: from pts_trigger_prepare(); emptied.
 *
 * The previous capture's tracepoint probe and uprobe are unregistered,
 * and its hotkey unless the new capture keeps the same key, which stays
 * registered throughout (no other driver can take it in between).
 * Cannot fail.
 * Context: process context, pts.lock held, not cpus_read_lock(); the
 * previous capture ended (not armed, pts_trigger_quiesce() done). May
 * sleep.
 */
void pts_trigger_commit(struct pts_trigger_prep *prep)
{
	pts_trigger_tp_commit(&prep->tp);
	pts_uprobe_commit(&prep->up);
	if (trig_key && trig_key != prep->key)
		unregister_sysrq_key(trig_key, &pts_sysrq_op);
	trig_key = prep->key;
	prep->key = 0;
	prep->key_held = false;
}

/**
 * pts_trigger_teardown() - unregister the triggers and wait for probes.
 * Context: process context, pts.lock held, not cpus_read_lock(); may sleep.
 */
void pts_trigger_teardown(void)
{
	pts_uprobe_teardown();
	if (trig_key) {
		unregister_sysrq_key(trig_key, &pts_sysrq_op);
		trig_key = 0;
	}
	pts_trigger_tp_teardown();
}

/**
 * pts_trigger_describe() - what the capture's triggers are registered on.
 * @ti: zeroed by the caller; filled for GET_TRIGGER.
 * Context: process context, pts.lock held.
 */
void pts_trigger_describe(struct ptscope_trigger_info *ti)
{
	const struct ptscope_trigger_spec *spec = &pts.cfg.trigger;

	if (!pts.configured)
		return;
	ti->flags = spec->flags;
	ti->post_trigger_us = spec->post_trigger_us;
	if (pts_trigger_tp_registered()) {
		ti->kinds |= PTSCOPE_TRIG_TRACEPOINT;
		ti->tracepoint_pid = spec->tracepoint_pid;
		strscpy(ti->tracepoint, spec->tracepoint, sizeof(ti->tracepoint));
	}
	if (trig_key) {
		ti->kinds |= PTSCOPE_TRIG_HOTKEY;
		ti->hotkey = trig_key;
	}
	if (pts_uprobe_describe(ti))
		ti->kinds |= PTSCOPE_TRIG_UPROBE;
}

/**
 * pts_trigger_quiesce() - wait until no trigger machinery is in flight.
 * Call after the state left ARMED/POST_TRIGGER.
 * Context: process context, may sleep.
 */
void pts_trigger_quiesce(void)
{
	irq_work_sync(&pts.trig_work);
	hrtimer_cancel(&pts.post_timer);
	/* Stop IPIs take microseconds; their csds are then free again. */
	while (atomic_read_acquire(&pts.stop_pending))
		usleep_range(20, 100);
	flush_work(&pts.done_work);
}

/* Context: module init. */
void pts_trigger_init(void)
{
	unsigned int cpu;

	/* Hard IRQ context even on PREEMPT_RT: it stops PT on its CPU. */
	pts.trig_work = IRQ_WORK_INIT_HARD(trig_work_fn);
	INIT_WORK(&pts.done_work, done_work_fn);
	pts_hrtimer_setup(&pts.post_timer, post_timer_fn, CLOCK_MONOTONIC,
			  HRTIMER_MODE_REL_PINNED_HARD);
	for_each_possible_cpu(cpu)
		INIT_CSD(per_cpu_ptr(&pts_stop_csd, cpu), stop_ipi_fn, NULL);
}
