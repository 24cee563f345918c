// SPDX-License-Identifier: GPL-2.0
/*
 * The capture's pid namespace: the active pid namespace of the task that
 * configured the capture. Every pid the module takes from user space
 * (cr3_pid, tracepoint_pid, uprobe.pid) is one of that namespace, so every
 * pid it reports (sideband records, GET_STATE.trigger_pid/_tid) is one of
 * it too: a capture configured inside a container names its tasks as the
 * container's /proc does, and no pid of the host leaks into it. perf does
 * the same with the namespace of perf_event_open()'s caller.
 *
 * A task the namespace cannot see (the host's tasks, seen from a
 * container) is reported as PTSCOPE_PID_OUTSIDE (-1), pid and tid; the
 * idle task stays 0 in every namespace. In the initial namespace the
 * numbers are the task's own (task->tgid, task->pid), as before.
 *
 * Locking: @cap_ns is written under pts.lock by the sideband's commit at
 * CONFIGURE and its teardown at UNCONFIGURE, each time after every writer
 * is gone (the sideband not live, then synchronize_rcu()); the probes
 * that stay registered across a CONFIGURE read it only while the
 * sideband is live, triggers only once they claimed an ARMED capture:
 * readers run in between, in any context, without a lock.
 */
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>

#include "ptscope_internal.h"

/* the configuring task's active pid namespace, referenced; NULL when idle */
static struct pid_namespace *cap_ns;

/**
 * pts_pidns_hold() - take the caller's pid namespace as the capture's.
 *
 * Context: process context of the configuring task, pts.lock held.
 */
void pts_pidns_hold(void)
{
	pts_pidns_release();
	cap_ns = get_pid_ns(task_active_pid_ns(current));
}

/**
 * pts_pidns_release() - drop the capture's pid namespace (idempotent).
 *
 * Context: process context, pts.lock held, no sideband writer or trigger
 * can run any more.
 */
void pts_pidns_release(void)
{
	if (cap_ns)
		put_pid_ns(cap_ns);
	cap_ns = NULL;
}

/**
 * pts_task_ids() - a task's tgid and tid as the capture's namespace sees them.
 * @t: current, or a task pinned by the caller (a tracepoint's argument).
 * @pid: out, the tgid; PTSCOPE_PID_OUTSIDE when the namespace cannot see @t.
 * @tid: out, the thread id; as @pid.
 *
 * A task already reaped (a dying thread's last switch away from it) has no
 * pid left in any namespace but the initial one: outside the initial
 * namespace it reads as PTSCOPE_PID_OUTSIDE.
 * Context: any, NMI included (RCU read side only).
 */
void pts_task_ids(struct task_struct *t, s32 *pid, s32 *tid)
{
	struct pid_namespace *ns = READ_ONCE(cap_ns);

	if (!ns || ns == &init_pid_ns || is_idle_task(t)) {
		*pid = is_idle_task(t) ? 0 : t->tgid;
		*tid = is_idle_task(t) ? 0 : t->pid;
		return;
	}
	*pid = __task_pid_nr_ns(t, PIDTYPE_TGID, ns);
	*tid = __task_pid_nr_ns(t, PIDTYPE_PID, ns);
	if (!*pid || !*tid) {
		*pid = PTSCOPE_PID_OUTSIDE;
		*tid = PTSCOPE_PID_OUTSIDE;
	}
}
