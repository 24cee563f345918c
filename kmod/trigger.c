// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshot triggers: PTSCOPE_IOC_TRIGGER, any built-in kernel tracepoint
 * by name, and a sysrq key.
 *
 * A trigger may fire in any context (tracepoint probes run with
 * preemption off, some with IRQs off, a few in NMI; sysrq handlers run in
 * the keyboard or serial interrupt). Sending IPIs with IRQs off is not
 * allowed, so a trigger:
 *   1. claims the capture (cmpxchg ARMED -> POST_TRIGGER: one winner),
 *      records TSC, CPU, pid/tid and reason;
 *   2. with no post-trigger delay, stops PT on its own CPU right there;
 *   3. queues an irq_work on its own CPU (irq_work_queue is NMI-safe;
 *      irq_work_queue_on is not exported to modules);
 *   4. the irq_work starts the post-trigger hrtimer (pinned to that CPU)
 *      or, with no delay, goes on to step 5 at once;
 *   5. stops the triggering CPU (if still on), sets stop_requested -
 *      every CPU's sched_switch probe stops PT at its next context
 *      switch - and queues a work item on each selected CPU that stops
 *      PT there with IRQs off (for idle CPUs). The last one to stop moves
 *      the capture to TRIGGERED and wakes poll() waiters.
 *
 * Tracepoint names: struct tracepoint carries only the event name; the
 * subsystem is a directory of tracefs, not part of the tracepoint. Event
 * names of built-in tracepoints are unique (each defines the global
 * symbol __tracepoint_<event>), so "subsystem:event" is matched on the
 * event part; a bare "event" is accepted too. Tracepoints in modules are
 * not searched.
 *
 * The probe is registered as a function taking only the probe data: the
 * tracepoint's arguments are passed in registers and ignored (x86-64
 * calling convention; a kernel built with clang kCFI would refuse the
 * call, Debian's gcc-built kernels do not use kCFI).
 *
 * Sysrq: the op's enable_mask is SYSRQ_ENABLE_SYNC (0x10), a bit of
 * Debian's default kernel.sysrq = 0x1b6 (CONFIG_MAGIC_SYSRQ_DEFAULT_ENABLE),
 * so Alt-SysRq-<key> at a console and BREAK <key> on a serial console work
 * without kernel.sysrq=1. Stopping a trace is as harmless as a sync.
 */
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/sysrq.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <asm/msr.h>

#include "compat.h"
#include "ptscope_internal.h"

char *pts_param_hotkey = "x";
module_param_named(hotkey, pts_param_hotkey, charp, 0444);
MODULE_PARM_DESC(hotkey, "default sysrq key of the hotkey trigger (default x; free on x86)");

static struct tracepoint *trig_tp;	/* registered trigger tracepoint */
static s32 trig_tp_pid;			/* fire only for this tgid; 0 = any */
static int trig_key;			/* registered sysrq key, 0 = none */

static void stop_others(void);

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
	u64 tsc;

	if (atomic_cmpxchg(&pts.state, PTSCOPE_STATE_ARMED,
			   PTSCOPE_STATE_POST_TRIGGER) != PTSCOPE_STATE_ARMED)
		return;
	local_irq_save(flags);
	pts.trigger_cpu = smp_processor_id();
	pts.trigger_reason = reason;
	pts.trigger_pid = task_tgid_nr(current);
	pts.trigger_tid = task_pid_nr(current);
	/*
	 * The TRIGGER record first, then this CPU's TRACE_STOP: its TSC is the
	 * trigger time, and the sideband stays in TSC order on this CPU.
	 */
	tsc = pts_sb_trigger(reason, pts.trigger_pid, pts.trigger_tid);
	pts.trigger_tsc = tsc ? tsc : rdtsc_ordered();
	if (!pts.cfg.trigger.post_trigger_us)
		pts_cpu_stop_local(this_cpu_ptr(&pts_cpus));
	local_irq_restore(flags);
	irq_work_queue(&pts.trig_work);
}

/* Last CPU stopped: the snapshot is ready. Context: any but NMI. */
void pts_capture_finished(u32 state)
{
	WRITE_ONCE(pts.armed, false);
	pts_time_pair(&pts.time_at_stop);
	pts_sideband_set_live(false);
	pts.nr_snapshots++;
	if (!(pts.cfg.trigger.flags & PTSCOPE_TRIGF_MULTI))
		WRITE_ONCE(pts.sources_live, false);
	atomic_set(&pts.state, state);
	wake_up_interruptible_all(&pts.wq);
}

static void stop_work_fn(struct work_struct *work)
{
	struct pts_cpu *pc = container_of(work, struct pts_cpu, stop_work);

	local_irq_disable();
	/* A CPU that went offline was stopped by the hotplug callback. */
	if (smp_processor_id() == pc->cpu)
		pts_cpu_stop_local(pc);
	local_irq_enable();
	if (atomic_dec_and_test(&pts.stop_pending))
		pts_capture_finished(PTSCOPE_STATE_TRIGGERED);
}

static void stop_others(void)
{
	unsigned int cpu;

	pts_cpu_stop_local(this_cpu_ptr(&pts_cpus));
	WRITE_ONCE(pts.stop_requested, true);
	/* One extra count so that finishing waits for the loop. */
	atomic_set(&pts.stop_pending, 1);
	for_each_cpu(cpu, pts.selected) {
		struct pts_cpu *pc = per_cpu_ptr(&pts_cpus, cpu);

		atomic_inc(&pts.stop_pending);
		if (!queue_work_on(cpu, system_highpri_wq, &pc->stop_work))
			atomic_dec(&pts.stop_pending);
	}
	if (atomic_dec_and_test(&pts.stop_pending))
		pts_capture_finished(PTSCOPE_STATE_TRIGGERED);
}

/* Runs on the triggering CPU in hard IRQ context. */
static void trig_work_fn(struct irq_work *work)
{
	u32 us = pts.cfg.trigger.post_trigger_us;

	if (us)
		hrtimer_start(&pts.post_timer, ns_to_ktime((u64)us * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_PINNED_HARD);
	else
		stop_others();
}

static enum hrtimer_restart post_timer_fn(struct hrtimer *t)
{
	stop_others();
	return HRTIMER_NORESTART;
}

/* ---- tracepoint trigger ------------------------------------------------- */

static void tp_trigger_probe(void *data)
{
	if (!READ_ONCE(pts.sources_live))
		return;
	if (trig_tp_pid && task_tgid_nr(current) != trig_tp_pid)
		return;
	pts_trigger_fire(PTSCOPE_TRIGGER_TRACEPOINT);
}

struct tp_lookup {
	const char *name;
	struct tracepoint *found;
};

static void tp_match(struct tracepoint *tp, void *priv)
{
	struct tp_lookup *l = priv;

	if (!l->found && !strcmp(tp->name, l->name))
		l->found = tp;
}

/**
 * pts_tracepoint_find() - a built-in tracepoint by "subsystem:event" or "event".
 * @name: the name; the part before a colon is not compared.
 * Return: the tracepoint or NULL.
 */
static struct tracepoint *pts_tracepoint_find(const char *name)
{
	struct tp_lookup l = { .name = pts_tracepoint_event(name) };

	if (!l.name)
		return NULL;
	for_each_kernel_tracepoint(tp_match, &l);
	return l.found;
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
 * pts_trigger_setup() - register the configured tracepoint/hotkey triggers.
 * @spec: the trigger part of the configuration.
 * @why: reason code and value on refusal.
 * Context: process context, pts.lock held. May sleep.
 * Return: 0; -ENOENT (TRACEPOINT_NOT_FOUND); -EBUSY (HOTKEY_UNAVAILABLE);
 * or the error of tracepoint_probe_register().
 */
int pts_trigger_setup(const struct ptscope_trigger_spec *spec,
		      struct pts_refusal *why)
{
	int err;

	if (spec->kinds & PTSCOPE_TRIG_TRACEPOINT) {
		struct tracepoint *tp = pts_tracepoint_find(spec->tracepoint);

		if (!tp) {
			why->reason = PTSCOPE_R_TRACEPOINT_NOT_FOUND;
			return -ENOENT;
		}
		trig_tp_pid = spec->tracepoint_pid;
		err = tracepoint_probe_register(tp, (void *)tp_trigger_probe, NULL);
		if (err) {
			why->reason = PTSCOPE_R_BAD_TRIGGER;
			return err;
		}
		trig_tp = tp;
	}
	if (spec->kinds & PTSCOPE_TRIG_HOTKEY) {
		int key = spec->hotkey;

		if (!key && pts_param_hotkey)
			key = pts_param_hotkey[0];
		if (key < 0x21 || key > 0x7e ||
		    register_sysrq_key(key, &pts_sysrq_op)) {
			why->reason = PTSCOPE_R_HOTKEY_UNAVAILABLE;
			why->arg = key;
			pts_trigger_teardown();
			return -EBUSY;
		}
		trig_key = key;
	}
	return 0;
}

/**
 * pts_trigger_teardown() - unregister the triggers and wait for probes.
 * Context: process context, may sleep.
 */
void pts_trigger_teardown(void)
{
	if (trig_key) {
		unregister_sysrq_key(trig_key, &pts_sysrq_op);
		trig_key = 0;
	}
	if (trig_tp) {
		tracepoint_probe_unregister(trig_tp, (void *)tp_trigger_probe, NULL);
		trig_tp = NULL;
		tracepoint_synchronize_unregister();
	}
	trig_tp_pid = 0;
}

/**
 * pts_trigger_quiesce() - wait until no trigger machinery is in flight.
 * Call after the state left ARMED/POST_TRIGGER.
 * Context: process context, may sleep.
 */
void pts_trigger_quiesce(void)
{
	unsigned int cpu;

	irq_work_sync(&pts.trig_work);
	hrtimer_cancel(&pts.post_timer);
	for_each_possible_cpu(cpu)
		cancel_work_sync(&per_cpu_ptr(&pts_cpus, cpu)->stop_work);
}

void pts_trigger_init(void)
{
	unsigned int cpu;

	/* Hard IRQ context even on PREEMPT_RT: it stops PT on its CPU. */
	pts.trig_work = IRQ_WORK_INIT_HARD(trig_work_fn);
	pts_hrtimer_setup(&pts.post_timer, post_timer_fn, CLOCK_MONOTONIC,
			  HRTIMER_MODE_REL_PINNED_HARD);
	for_each_possible_cpu(cpu)
		INIT_WORK(&per_cpu_ptr(&pts_cpus, cpu)->stop_work, stop_work_fn);
}
