// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoint trigger: a snapshot when one of a list of tracepoints
 * (include/ptscope/tp_triggers.h) fires, optionally only in one process
 * or thread.
 *
 * Each listed tracepoint has its own probe here, declared with exactly the
 * tracepoint's prototype, and PTS_TP_PROBE_CHECK() (tp_probe.h) makes a
 * prototype that differs from the kernel's trace header a build error, for
 * every kernel the module is built against. The tracepoint then calls a
 * function of the type it calls through: no undefined behaviour, and
 * nothing for clang's kCFI to trap on. Tracepoints outside the list are
 * refused (BAD_TRIGGER, EOPNOTSUPP); the list is the tracepoints a
 * snapshot is commonly wanted at (process exit, exec, fork, hang; context
 * switch and wake-up; signals; system calls; page faults; OOM kill; new
 * tasks; hard interrupts), and adding one is a probe and a list entry.
 *
 * Why not any tracepoint through an in-kernel perf tracepoint event
 * (perf_event_create_kernel_counter(), PERF_TYPE_TRACEPOINT, one per CPU,
 * an overflow handler)? Such an event exists only while its CPU is
 * online: perf detaches it at CPU offline and refuses to create it on an
 * offline CPU, so the CPU hotplug callbacks would have to create and
 * release it. Creating the first perf event of a tracepoint registers the
 * tracepoint's probe, which takes cpus_read_lock() (static keys, static
 * calls); a hotplug callback runs under the hotplug lock held for write
 * by another task, so that deadlocks, as CONFIGURE holding the lock around
 * the creation loop would (ptscope_internal.h: cpus_read_lock() must not
 * nest). Perf's sample throttling would also drop triggers, and the
 * events would count against perf's limits. A fixed list of typed probes
 * keeps the trigger path of every other trigger and is checked by the
 * compiler.
 *
 * Two slots: the current capture's trigger, and a new capture's, which
 * CONFIGURE registers before it releases the current capture (a failing
 * registration then leaves the current one as it was), so both may be
 * registered at once, on the same tracepoint too: each probe is
 * registered with its slot as data, which makes the pair (probe, data)
 * unique. A probe of a capture that is not armed does nothing
 * (pts_trigger_fire() claims only an ARMED capture).
 *
 * Locking: a slot's fields are written under pts.lock before its probe is
 * registered, and after it is unregistered and
 * tracepoint_synchronize_unregister() has waited for running probes:
 * while registered they are constant, and the probe reads them without a
 * lock. tp_cur changes under pts.lock only.
 */
#include <linux/interrupt.h>	/* before trace/events/irq.h, which needs it */
#include <linux/pid.h>
#include <linux/sched.h>
#include <trace/events/irq.h>
#include <trace/events/oom.h>
#include <trace/events/sched.h>
#include <trace/events/signal.h>
#include <trace/events/syscalls.h>
#include <trace/events/task.h>
#include <asm/trace/exceptions.h>

#include "ptscope_internal.h"
#include "tp_probe.h"

/* One tracepoint trigger: its registration and its filter. */
struct pts_tp_slot {
	struct tracepoint *tp;	/* registered on; NULL: the slot is free */
	void *probe;		/* the probe registered on @tp */
	/*
	 * Fire only for this process (or, with PTSCOPE_TRIGF_TID, this
	 * thread): resolved in the configuring caller's pid namespace and
	 * held, so that the probe compares struct pid pointers, right in any
	 * namespace. NULL: any task.
	 */
	struct pid *pid;
	bool tid;		/* @pid names a thread */
};

static struct pts_tp_slot tp_slots[2];
static struct pts_tp_slot *tp_cur;	/* [pts.lock] the capture's; NULL none */

/*
 * A listed tracepoint fired; @s is the slot the probe was registered
 * with. Context: that of the tracepoint: any, including NMI and hard IRQ,
 * preemption off. The filter is on the task running the tracepoint
 * (current), whatever task its arguments name.
 */
static void trig_hit(const struct pts_tp_slot *s)
{
	if (!READ_ONCE(pts.sources_live))
		return;
	if (s->pid && s->pid != (s->tid ? task_pid(current) :
					  task_tgid(current)))
		return;
	pts_trigger_fire(PTSCOPE_TRIGGER_TRACEPOINT);
}

/*
 * TRIG_PROBE_DEFINE(event, TP_PROTO...) defines trig_<event>(), the probe
 * of tracepoint <event>: the arguments after @event are its TP_PROTO, and
 * the definition fails to build unless they are the kernel's (tp_probe.h).
 * The arguments are not used; @data is the probe's slot.
 */
#define TRIG_PROBE_DEFINE(event, ...)					\
	static void trig_##event(void *data, __VA_ARGS__)		\
	{								\
		trig_hit(data);						\
	}								\
	PTS_TP_PROBE_CHECK(event, trig_##event)

TRIG_PROBE_DEFINE(sched_process_exit, struct task_struct *p);
TRIG_PROBE_DEFINE(sched_process_exec, struct task_struct *p, pid_t old_pid,
		  struct linux_binprm *bprm);
TRIG_PROBE_DEFINE(sched_process_fork, struct task_struct *parent,
		  struct task_struct *child);
TRIG_PROBE_DEFINE(sched_process_hang, struct task_struct *tsk);
TRIG_PROBE_DEFINE(sched_switch, bool preempt, struct task_struct *prev,
		  struct task_struct *next, unsigned int prev_state);
TRIG_PROBE_DEFINE(sched_wakeup, struct task_struct *p);
TRIG_PROBE_DEFINE(sched_wakeup_new, struct task_struct *p);
TRIG_PROBE_DEFINE(signal_generate, int sig, struct kernel_siginfo *info,
		  struct task_struct *task, int group, int result);
TRIG_PROBE_DEFINE(signal_deliver, int sig, struct kernel_siginfo *info,
		  struct k_sigaction *ka);
TRIG_PROBE_DEFINE(sys_enter, struct pt_regs *regs, long id);
TRIG_PROBE_DEFINE(sys_exit, struct pt_regs *regs, long ret);
TRIG_PROBE_DEFINE(page_fault_user, unsigned long address,
		  struct pt_regs *regs, unsigned long error_code);
TRIG_PROBE_DEFINE(page_fault_kernel, unsigned long address,
		  struct pt_regs *regs, unsigned long error_code);
TRIG_PROBE_DEFINE(mark_victim, struct task_struct *task, uid_t uid);
TRIG_PROBE_DEFINE(task_newtask, struct task_struct *task,
		  unsigned long clone_flags);
TRIG_PROBE_DEFINE(irq_handler_entry, int irq, struct irqaction *action);

/*
 * Indexed as pts_tp_triggers[]: both are built from the same list, and
 * each entry names a probe TRIG_PROBE_DEFINE() defined (and checked).
 */
static void * const trig_probes[] = {
#define PTSCOPE_TP(sys, event) trig_##event,
#include "../include/ptscope/tp_triggers.h"
#undef PTSCOPE_TP
};

/*
 * Unregister @s, wait for its running probes, drop its pid; nothing for
 * NULL or a free slot. Context: process context, pts.lock held, not
 * cpus_read_lock(); may sleep.
 */
static void slot_release(struct pts_tp_slot *s)
{
	if (!s)
		return;
	if (s->tp) {
		pts_tp_unregister(&s->tp, s->probe, s);
		tracepoint_synchronize_unregister();
	}
	put_pid(s->pid);
	memset(s, 0, sizeof(*s));
}

/**
 * pts_trigger_tp_prepare() - check the tracepoint trigger against this
 * kernel, take its pid and register its probe, inert until its capture
 * is armed.
 * @spec: the trigger specification; its tracepoint is set.
 * @admin: the caller is perfmon_capable(): no ptrace check of
 *         tracepoint_pid (pts_perm_take_pid()).
 * @prep: out: the registered slot; emptied on failure.
 * @why: reason code and value on refusal.
 *
 * Called before the previous configuration is released, so that a
 * refusal leaves it as it was: the slot is the one the current capture
 * does not use.
 * Context: process context, pts.lock held, not cpus_read_lock() (the
 * registration takes it); may sleep.
 * Return: 0; -ENOENT (TRACEPOINT_NOT_FOUND: no such tracepoint, or a
 * listed event named with another subsystem); -EOPNOTSUPP (BAD_TRIGGER: a
 * tracepoint that is not in the list); -ESRCH (NO_SUCH_PID: no process
 * or thread tracepoint_pid in the caller's pid namespace); -EPERM
 * (NEED_PTRACE) or -EINTR from pts_perm_take_pid(); the error of
 * tracepoint_probe_register() (BAD_TRIGGER).
 */
int pts_trigger_tp_prepare(const struct ptscope_trigger_spec *spec, bool admin,
			   struct pts_tp_prep *prep, struct pts_refusal *why)
{
	int idx = pts_tp_trigger_lookup(spec->tracepoint);
	struct pts_tp_slot *s;
	int err;

	prep->slot = NULL;
	if (idx == -EOPNOTSUPP && pts_tp_find(spec->tracepoint)) {
		why->reason = PTSCOPE_R_BAD_TRIGGER;
		why->arg = offsetof(struct ptscope_config, trigger.tracepoint);
		return -EOPNOTSUPP;
	}
	/* A listed event this kernel was built without is not found either. */
	if (idx < 0 || !pts_tp_find(pts_tp_triggers[idx].event)) {
		why->reason = PTSCOPE_R_TRACEPOINT_NOT_FOUND;
		return -ENOENT;
	}
	s = tp_cur == &tp_slots[0] ? &tp_slots[1] : &tp_slots[0];
	if (spec->tracepoint_pid) {
		bool tid = spec->flags & PTSCOPE_TRIGF_TID;

		err = pts_perm_take_pid(spec->tracepoint_pid,
					tid ? PIDTYPE_PID : PIDTYPE_TGID,
					admin, &s->pid, why);
		if (err) {
			slot_release(s);
			return err;
		}
		s->tid = tid;
	}
	/* Checked by TRIG_PROBE_DEFINE(), so not through pts_tp_register(). */
	err = pts_tp_register_checked(pts_tp_triggers[idx].event,
				      trig_probes[idx], s, &s->tp);
	if (err) {
		why->reason = err == -ENOENT ? PTSCOPE_R_TRACEPOINT_NOT_FOUND :
					       PTSCOPE_R_BAD_TRIGGER;
		if (why->reason == PTSCOPE_R_BAD_TRIGGER)
			why->arg = offsetof(struct ptscope_config, trigger.tracepoint);
		slot_release(s);
		return err;
	}
	s->probe = trig_probes[idx];
	prep->slot = s;
	return 0;
}

/**
 * pts_trigger_tp_prep_drop() - unregister and release what
 * pts_trigger_tp_prepare() registered (nothing once committed).
 * @prep: emptied.
 * Context: process context, pts.lock held, not cpus_read_lock(); may sleep.
 */
void pts_trigger_tp_prep_drop(struct pts_tp_prep *prep)
{
	slot_release(prep->slot);
	prep->slot = NULL;
}

/**
 * pts_trigger_tp_commit() - the prepared trigger (or none) becomes the
 * capture's; the previous capture's is unregistered. Cannot fail.
 * @prep: from pts_trigger_tp_prepare(), or emptied: no tracepoint
 *        trigger; emptied.
 * Context: process context, pts.lock held, not cpus_read_lock(); the
 * previous capture ended. May sleep.
 */
void pts_trigger_tp_commit(struct pts_tp_prep *prep)
{
	struct pts_tp_slot *old = tp_cur;

	tp_cur = prep->slot;
	prep->slot = NULL;
	slot_release(old);
}

/**
 * pts_trigger_tp_teardown() - unregister the tracepoint trigger, wait for
 * running probes, drop the pid.
 * Context: process context, pts.lock held, not cpus_read_lock(); may sleep.
 */
void pts_trigger_tp_teardown(void)
{
	slot_release(tp_cur);
	tp_cur = NULL;
}

/**
 * pts_trigger_tp_registered() - is a tracepoint trigger registered?
 * Context: process context, pts.lock held.
 */
bool pts_trigger_tp_registered(void)
{
	return tp_cur;
}
