// SPDX-License-Identifier: GPL-2.0
/*
 * Who may trace what.
 *  - Kernel or combined scope, a capture without a CR3 filter (all
 *    processes: system-wide) and CPU-wide triggers (a tracepoint without a
 *    pid filter, the sysrq hotkey) need CAP_PERFMON or CAP_SYS_ADMIN
 *    (perfmon_capable()).
 *  - User scope filtered on one process needs ptrace-like access to it.
 *    ptrace_may_access() is not exported to modules, so the module applies
 *    the core of its rule: the caller's uid and gid equal the target's
 *    real, effective and saved ids and the target is dumpable; or the
 *    target is the caller's own process; or the caller has CAP_SYS_PTRACE.
 *    LSM restrictions such as Yama's ptrace_scope are not consulted.
 *  - The device node is 0600 root; with the module parameter group=<gid>
 *    it is created 0660 and opening it needs membership of that group (or
 *    CAP_SYS_ADMIN). A udev rule gives the node that group:
 *      KERNEL=="ptscope", GROUP="<name>", MODE="0660"
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/uidgid.h>

#include "ptscope_internal.h"

int pts_param_group = -1;
module_param_named(group, pts_param_group, int, 0444);
MODULE_PARM_DESC(group, "gid whose members may open /dev/ptscope (node mode 0660); -1 = root only (0600)");

static bool same_ids(struct task_struct *task)
{
	const struct cred *me = current_cred();
	const struct cred *tc;
	bool ok;

	rcu_read_lock();
	tc = __task_cred(task);
	ok = uid_eq(me->uid, tc->euid) && uid_eq(me->uid, tc->suid) &&
	     uid_eq(me->uid, tc->uid) && gid_eq(me->gid, tc->egid) &&
	     gid_eq(me->gid, tc->sgid) && gid_eq(me->gid, tc->gid);
	rcu_read_unlock();
	return ok;
}

static bool may_trace_task(struct task_struct *task)
{
	struct mm_struct *mm;
	bool dumpable = false;

	/* As __ptrace_may_access(): a thread group may always trace itself. */
	if (same_thread_group(task, current) || capable(CAP_SYS_PTRACE))
		return true;
	if (!same_ids(task))
		return false;
	mm = get_task_mm(task);
	if (mm) {
		dumpable = get_dumpable(mm) == SUID_DUMP_USER;
		mmput(mm);
	}
	return dumpable;
}

/**
 * pts_perm_check() - may the caller run this configuration?
 * @cfg: the configuration, already validated.
 * @why: reason code and value on refusal.
 * Context: process context, may sleep.
 * Return: 0; -EPERM (NEED_CAP_ADMIN or NEED_PTRACE); -ESRCH (NO_SUCH_PID).
 */
int pts_perm_check(const struct ptscope_config *cfg, struct pts_refusal *why)
{
	const struct ptscope_trigger_spec *t = &cfg->trigger;
	bool admin = perfmon_capable();
	struct task_struct *task;
	struct pid *pid;
	bool ok;

	if (!admin && (cfg->scope != PTSCOPE_SCOPE_USER ||
		       !(cfg->flags & PTSCOPE_CFG_CR3_FILTER) ||
		       (t->kinds & PTSCOPE_TRIG_HOTKEY) ||
		       ((t->kinds & PTSCOPE_TRIG_TRACEPOINT) && !t->tracepoint_pid))) {
		why->reason = PTSCOPE_R_NEED_CAP_ADMIN;
		return -EPERM;
	}
	if (!(cfg->flags & PTSCOPE_CFG_CR3_FILTER))
		return 0;
	pid = find_get_pid(cfg->cr3_pid);
	task = get_pid_task(pid, PIDTYPE_TGID);
	put_pid(pid);
	if (!task) {
		why->reason = PTSCOPE_R_NO_SUCH_PID;
		why->arg = (u64)(s64)cfg->cr3_pid;
		return -ESRCH;
	}
	ok = admin || may_trace_task(task);
	put_task_struct(task);
	if (!ok) {
		why->reason = PTSCOPE_R_NEED_PTRACE;
		why->arg = (u64)(s64)cfg->cr3_pid;
		return -EPERM;
	}
	return 0;
}

/* open(): with group=<gid>, members of that group or CAP_SYS_ADMIN. */
int pts_perm_open(void)
{
	kgid_t gid;

	if (pts_param_group < 0 || capable(CAP_SYS_ADMIN))
		return 0;
	gid = make_kgid(current_user_ns(), pts_param_group);
	return gid_valid(gid) && in_group_p(gid) ? 0 : -EPERM;
}
