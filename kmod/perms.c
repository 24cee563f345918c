// SPDX-License-Identifier: GPL-2.0
/*
 * Who may trace what, and who may touch a capture once it exists.
 *
 * Configuring (pts_perm_check()):
 *  - Kernel or combined scope, a capture without a CR3 filter (all
 *    processes: system-wide) and CPU-wide triggers (a tracepoint without a
 *    pid filter, the sysrq hotkey, a uprobe without a pid: it fires in
 *    every process that maps the file) need CAP_PERFMON or CAP_SYS_ADMIN
 *    (perfmon_capable()), as perf_event_open() asks for kernel and CPU-wide
 *    events. Kernel scope also goes through the LSM hooks perf uses where
 *    a module can reach them: security_locked_down(LOCKDOWN_PERF) always,
 *    and perf_allow_kernel() (perf_event_paranoid and
 *    security_perf_event_open()) where the kernel exports it (compat.h).
 *  - User scope filtered on one process needs ptrace read access to it,
 *    as perf asks for a per-task event (PTRACE_MODE_READ_REALCREDS),
 *    checked again with its mm taken under its exec_update_lock
 *    (pts_perm_grab_mm()); so
 *    does a tracepoint trigger on one process or thread, which observes
 *    it whatever the capture traces (its pid taken the same way:
 *    pts_perm_take_pid()).
 *    Neither ptrace_may_access() nor security_ptrace_access_check() is
 *    exported to modules (Module.symvers of Debian's 6.1 and 6.12), so the
 *    module applies the core of __ptrace_may_access(): the caller's uid and
 *    gid equal the target's real, effective and saved ids and the target is
 *    dumpable; or the target is the caller's own process; or the caller
 *    has CAP_SYS_PTRACE in the target's user namespace. LSM policies on
 *    ptrace (Yama's ptrace_scope, SELinux) are not consulted.
 *  - A uprobe trigger needs CAP_SYS_ADMIN (capable(), the initial user
 *    namespace), with or without a pid, as perf_uprobe_event_init() asks
 *    on 6.1 and 6.12 (CAP_PERFMON is not enough there either): a uprobe
 *    belongs to the file's inode, and registering it walks every address
 *    space that maps the file, other users' included, under their
 *    mmap_lock, and stays consulted at every later mmap of that file.
 *    With a pid the target task is then checked as perf checks a
 *    per-task event (perf_check_permission(): perfmon_capable() or ptrace
 *    read access), which CAP_SYS_ADMIN passes. The file itself must be
 *    open for reading by the caller (uprobe.c).
 *
 * Using a capture (pts_perm_operate()): every operation but GET_CAPS and
 * the state word of GET_STATE acts on the one capture the module holds.
 * The credentials of the CONFIGURE caller are kept with the capture's
 * buffers; a capture that needed perfmon_capable() may be used only by
 * callers that have it; any other capture by its owner (same effective
 * uid, compared as kuid, i.e. in the initial user namespace) or by a
 * perfmon_capable() caller.
 *
 * Other tasks in the sideband: a capture configured without
 * perfmon_capable() (a user-scope capture of one process the caller may
 * ptrace) gets the records of that process only; every other task
 * appears as PTSCOPE_PID_OUTSIDE without a name, and no EXEC, EXIT or
 * FORK record of another process is written (sideband.c), as perf gives
 * a per-task event its own task's switch, comm and mmap records only and
 * asks CAP_PERFMON for CPU-wide ones (perf_allow_cpu()).
 *
 * Physical addresses (pts_perm_phys()): only a CAP_SYS_ADMIN opener of
 * the device (checked at open on the opener's credentials, as
 * /proc/PID/pagemap does for PFNs, without an audit record) sees
 * OUTPUT_BASE and real CR3 values; everyone else gets 0 for OUTPUT_BASE
 * and a per-configuration identity for each CR3.
 *
 * Opening (pts_perm_open()): the device node is 0600 root; with the
 * module parameter group=<gid> (a gid of the initial user namespace) it is
 * created 0660 and opening it needs membership of that group or
 * perfmon_capable() (CAP_PERFMON or CAP_SYS_ADMIN), asked in that order.
 * A udev rule gives the node that group:
 *   KERNEL=="ptscope", GROUP="<name>", MODE="0660"
 *
 * Audit: a capability is asked only where its refusal refuses the call
 * (and is then logged, as any denial), or without an audit record where
 * the answer only chooses what is shown (physical addresses, the
 * sideband's other tasks): a group member's own user-scope capture asks
 * no audited capability from open to close.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

#include "compat.h"
#include "ptscope_internal.h"

int pts_param_group = -1;
module_param_named(group, pts_param_group, int, 0444);
MODULE_PARM_DESC(group, "gid (initial user namespace) whose members may open /dev/ptscope (node mode 0660); -1 = root only (0600)");

/*
 * The most a caller without perfmon_capable() may pin, per CPU ring and for
 * the sideband, as perf bounds unprivileged AUX buffers with
 * perf_event_mlock_kb. The default is the ptscope command's default
 * --size. The memory is also charged to the caller's memory cgroup.
 */
static unsigned int pts_param_unpriv_buffer_kb = 4096;
module_param_named(unpriv_buffer_kb, pts_param_unpriv_buffer_kb, uint, 0644);
MODULE_PARM_DESC(unpriv_buffer_kb, "largest buffer_size and sideband_size, KiB, for callers without CAP_PERFMON (default 4096; 0 = none)");

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

static bool may_ptrace_task(struct task_struct *task)
{
	const struct cred *tcred;
	struct mm_struct *mm;
	bool ok;

	/* As __ptrace_may_access(): a thread group may always trace itself. */
	if (same_thread_group(task, current))
		return true;
	tcred = get_task_cred(task);
	ok = same_ids(task) || ns_capable(tcred->user_ns, CAP_SYS_PTRACE);
	put_cred(tcred);
	if (!ok)
		return false;
	mm = get_task_mm(task);
	if (!mm)
		return false;	/* kernel thread or exiting: nothing to trace */
	ok = get_dumpable(mm) == SUID_DUMP_USER ||
	     ns_capable(mm->user_ns, CAP_SYS_PTRACE);
	mmput(mm);
	return ok;
}

/**
 * pts_cfg_needs_admin() - does this configuration need perfmon_capable()?
 * @cfg: a configuration that passed pts_config_check().
 * Context: any.
 * Return: true for kernel or combined scope, no CR3 filter, a hotkey, a
 * tracepoint trigger without a pid, or any uprobe trigger (which needs
 * CAP_SYS_ADMIN besides: pts_perm_check()).
 */
bool pts_cfg_needs_admin(const struct ptscope_config *cfg)
{
	const struct ptscope_trigger_spec *t = &cfg->trigger;

	return cfg->scope != PTSCOPE_SCOPE_USER ||
	       !(cfg->flags & PTSCOPE_CFG_CR3_FILTER) ||
	       (t->kinds & (PTSCOPE_TRIG_HOTKEY | PTSCOPE_TRIG_UPROBE)) ||
	       ((t->kinds & PTSCOPE_TRIG_TRACEPOINT) && !t->tracepoint_pid);
}

/*
 * perfmon_capable() without an audit record, for an answer that refuses
 * nothing by itself (pts_perm_check()).
 */
static bool perfmon_capable_noaudit(void)
{
	return ns_capable_noaudit(&init_user_ns, CAP_PERFMON) ||
	       ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
}

/*
 * Process (@type PIDTYPE_TGID) or thread (PIDTYPE_PID) @nr of the
 * caller's pid namespace exists and the caller may trace it (or is
 * @admin). Without @admin, perfmon_capable() is asked after the ptrace
 * rule, so that only a refusal leaves a capability audit record.
 * Return: 0, -ESRCH (NO_SUCH_PID) or -EPERM (NEED_PTRACE).
 */
static int may_ptrace_pid(s32 nr, enum pid_type type, bool admin,
			  struct pts_refusal *why)
{
	struct pid *pid = find_get_pid(nr);
	struct task_struct *task = get_pid_task(pid, type);
	bool ok;

	put_pid(pid);
	if (!task) {
		why->reason = PTSCOPE_R_NO_SUCH_PID;
		why->arg = (u64)(s64)nr;
		return -ESRCH;
	}
	ok = admin || may_ptrace_task(task) || perfmon_capable();
	put_task_struct(task);
	if (!ok) {
		why->reason = PTSCOPE_R_NEED_PTRACE;
		why->arg = (u64)(s64)nr;
		return -EPERM;
	}
	return 0;
}

/*
 * Process (@type PIDTYPE_TGID) or thread (PIDTYPE_PID) @nr, checked
 * again and taken under one lock: pts_perm_check() has looked it up once
 * already, and it may have exec'd since (a setuid program: other
 * credentials, not dumpable) or its number been reused.
 * perf_event_open() checks ptrace access under the task's
 * exec_update_lock and holds it until the event is installed, so that an
 * execve() cannot come between the check and the use. Here the task is
 * looked up once, and the check and what the caller keeps are taken
 * under that lock, which execve() holds for writing while it switches
 * the mm, the credentials and dumpability: its mm (@mm_out, mmgrab()ed;
 * a task without one, gone or a kernel thread, is NO_SUCH_PID) and/or
 * its struct pid (@pid_out). Context: process context, may sleep.
 * Return: 0; -ESRCH (NO_SUCH_PID); -EPERM (NEED_PTRACE); -EINTR when a
 * signal came while an execve() held the lock.
 */
static int take_checked(s32 nr, enum pid_type type, bool admin,
			struct mm_struct **mm_out, struct pid **pid_out,
			struct pts_refusal *why)
{
	struct pid *pid = find_get_pid(nr);
	struct task_struct *task = get_pid_task(pid, type);
	struct mm_struct *mm = NULL;
	int err = task ? 0 : -ESRCH;

	if (task) {
		err = down_read_interruptible(&task->signal->exec_update_lock);
		if (!err) {
			if (!admin && !may_ptrace_task(task) &&
			    !perfmon_capable())
				err = -EPERM;
			else if (mm_out)
				mm = get_task_mm(task);
			up_read(&task->signal->exec_update_lock);
		}
		put_task_struct(task);
	}
	if (!err && mm_out && !mm)
		err = -ESRCH;	/* a kernel thread, or exiting */
	if (err) {
		put_pid(pid);
		why->reason = err == -EPERM ? PTSCOPE_R_NEED_PTRACE :
			      err == -ESRCH ? PTSCOPE_R_NO_SUCH_PID : PTSCOPE_R_NONE;
		why->arg = why->reason ? (u64)(s64)nr : 0;
		return err;
	}
	if (mm_out) {
		mmgrab(mm);
		mmput(mm);
		*mm_out = mm;
	}
	if (pid_out)
		*pid_out = pid;
	else
		put_pid(pid);
	return 0;
}

/**
 * pts_perm_grab_mm() - the CR3-filtered process's address space, checked
 * and taken under one lock (take_checked()).
 * @nr: cr3_pid, a process of the caller's pid namespace.
 * @admin: the caller is perfmon_capable() (no ptrace check; without it,
 *         the ptrace rule, then perfmon_capable() with an audit record).
 * @mm_out: that process's mm, mmgrab()ed: its page-table root (the PGD
 *          page, freed by __mmdrop() only) is not reused by another
 *          process while the capture filters on its address.
 * @pid_out: when non-NULL, a reference on the process's struct pid.
 * @why: reason and pid on refusal.
 * Context: process context, may sleep.
 * Return: 0; -ESRCH (NO_SUCH_PID: gone, or a kernel thread); -EPERM
 * (NEED_PTRACE); -EINTR when a signal came while an execve() held the lock.
 */
int pts_perm_grab_mm(s32 nr, bool admin, struct mm_struct **mm_out,
		     struct pid **pid_out, struct pts_refusal *why)
{
	return take_checked(nr, PIDTYPE_TGID, admin, mm_out, pid_out, why);
}

/**
 * pts_perm_take_pid() - a tracepoint trigger's process or thread, checked
 * and taken under one lock (take_checked()).
 * @nr: tracepoint_pid, of the caller's pid namespace.
 * @type: PIDTYPE_TGID for a process, PIDTYPE_PID for a thread.
 * @admin: the caller is perfmon_capable() (no ptrace check; without it,
 *         the ptrace rule, then perfmon_capable() with an audit record).
 * @pid_out: a reference on its struct pid.
 * @why: reason and pid on refusal.
 * Context: process context, may sleep.
 * Return: 0; -ESRCH (NO_SUCH_PID); -EPERM (NEED_PTRACE); -EINTR.
 */
int pts_perm_take_pid(s32 nr, enum pid_type type, bool admin,
		      struct pid **pid_out, struct pts_refusal *why)
{
	return take_checked(nr, type, admin, NULL, pid_out, why);
}

/* Kernel scope: the LSM hooks perf applies to kernel events. */
static int kernel_scope_lsm(struct pts_refusal *why)
{
	int err = security_locked_down(LOCKDOWN_PERF);

	if (!err)
		err = pts_perf_allow_kernel();
	if (err) {
		why->reason = PTSCOPE_R_NEED_CAP_ADMIN;
		return -EPERM;
	}
	return 0;
}

/**
 * pts_perm_check() - may the caller run this configuration?
 * @cfg: the configuration, already validated.
 * @admin_out: out, the caller is perfmon_capable(). A configuration that
 *         needs it (pts_cfg_needs_admin()) asks it with an audit record,
 *         since a "no" refuses it; any other asks it without one, since
 *         the answer only widens what it is shown (the sideband's other
 *         tasks) and spares the ptrace checks, which ask it again with an
 *         audit record before they refuse.
 * @why: reason code and value on refusal.
 * Context: process context, may sleep.
 * Return: 0; -EPERM (NEED_SYS_ADMIN: a uprobe trigger without
 * CAP_SYS_ADMIN; NEED_CAP_ADMIN: not perfmon_capable(), or an LSM or
 * lockdown refused kernel tracing; NEED_PTRACE); -ESRCH (NO_SUCH_PID).
 */
int pts_perm_check(const struct ptscope_config *cfg, bool *admin_out,
		   struct pts_refusal *why)
{
	bool needs_admin = pts_cfg_needs_admin(cfg);
	bool admin = needs_admin ? perfmon_capable() : perfmon_capable_noaudit();
	int err;

	*admin_out = admin;

	/* perf_uprobe_event_init(): capable(CAP_SYS_ADMIN), whatever the pid. */
	if ((cfg->trigger.kinds & PTSCOPE_TRIG_UPROBE) &&
	    (!admin || !capable(CAP_SYS_ADMIN))) {
		why->reason = PTSCOPE_R_NEED_SYS_ADMIN;
		return -EPERM;
	}
	if (!admin && needs_admin) {
		why->reason = PTSCOPE_R_NEED_CAP_ADMIN;
		return -EPERM;
	}
	if ((cfg->scope & PTSCOPE_SCOPE_KERNEL) && kernel_scope_lsm(why))
		return -EPERM;
	/* Checked again, and its mm taken, by pts_perm_grab_mm(). */
	if (cfg->flags & PTSCOPE_CFG_CR3_FILTER) {
		err = may_ptrace_pid(cfg->cr3_pid, PIDTYPE_TGID, admin, why);
		if (err)
			return err;
	}
	/*
	 * A tracepoint trigger on one process or thread observes it (when
	 * it exits, makes a system call, takes a signal, with its tid in
	 * GET_STATE): perf asks ptrace access for a per-task event of
	 * another task (perf_check_permission()), whatever the capture
	 * itself traces.
	 */
	/* Checked again, and its pid taken, by pts_perm_take_pid(). */
	if ((cfg->trigger.kinds & PTSCOPE_TRIG_TRACEPOINT) &&
	    cfg->trigger.tracepoint_pid) {
		err = may_ptrace_pid(cfg->trigger.tracepoint_pid,
				     (cfg->trigger.flags & PTSCOPE_TRIGF_TID) ?
				     PIDTYPE_PID : PIDTYPE_TGID, admin, why);
		if (err)
			return err;
	}
	if ((cfg->trigger.kinds & PTSCOPE_TRIG_UPROBE) && cfg->uprobe.pid)
		return may_ptrace_pid(cfg->uprobe.pid, PIDTYPE_TGID, admin, why);
	return 0;
}

/**
 * pts_perm_buffer_limit() - is the configuration within the memory limit?
 * @cfg: the configuration, already validated.
 * @why: BUFFER_LIMIT and the limit in bytes on refusal.
 * Context: process context.
 * Return: 0, or -EPERM when a caller without perfmon_capable() asks for a
 * ring or a sideband larger than unpriv_buffer_kb.
 */
int pts_perm_buffer_limit(const struct ptscope_config *cfg,
			  struct pts_refusal *why)
{
	u64 limit = (u64)READ_ONCE(pts_param_unpriv_buffer_kb) * 1024;

	if (cfg->buffer_size <= limit && cfg->sideband_size <= limit &&
	    (cfg->sideband_size || PTS_SIDEBAND_DEFAULT <= limit))
		return 0;
	if (perfmon_capable())
		return 0;
	why->reason = PTSCOPE_R_BUFFER_LIMIT;
	why->arg = limit;
	return -EPERM;
}

/**
 * pts_owner_set() - make the caller the owner of a capture's buffers.
 * @b: the buffers of a new configuration, not yet published.
 * @cfg: that configuration.
 * Context: process context.
 */
void pts_owner_set(struct pts_bufset *b, const struct ptscope_config *cfg)
{
	b->owner = get_current_cred();
	b->owner_admin = pts_cfg_needs_admin(cfg);
}

/**
 * pts_perm_operate() - may the caller read or control the capture of @b?
 * @b: the capture's buffers (NULL: no capture, nothing to protect).
 * @why: PTSCOPE_R_NOT_OWNER on refusal.
 *
 * perfmon_capable() is asked last, so that an owner's own calls leave no
 * capability audit record.
 * Context: process context.
 * Return: 0 or -EPERM.
 */
int pts_perm_operate(const struct pts_bufset *b, struct pts_refusal *why)
{
	if (!b)
		return 0;
	if (!b->owner_admin && uid_eq(current_euid(), b->owner->euid))
		return 0;
	if (perfmon_capable())
		return 0;
	why->reason = PTSCOPE_R_NOT_OWNER;
	return -EPERM;
}

/**
 * pts_perm_may_watch() - may the caller learn how the capture is going?
 *
 * What poll() reports beyond the state word every opener reads in
 * GET_STATE (a sideband ring half full: how busy another user's traced
 * CPUs are) goes to those who may read the capture (pts_perm_operate()),
 * asked without an audit record: a poll is no request to use the capture,
 * and a group member's poll loop must not fill the audit log.
 * Context: process context, pts.lock not held (poll()).
 * Return: true for the owner, a perfmon_capable() caller, or no capture.
 */
bool pts_perm_may_watch(void)
{
	struct pts_bufset *b;
	bool ok;

	spin_lock(&pts.bufs_lock);
	b = pts.bufs;
	if (b)
		pts_bufset_get(b);
	spin_unlock(&pts.bufs_lock);
	ok = !b || (!b->owner_admin && uid_eq(current_euid(), b->owner->euid)) ||
	     ns_capable_noaudit(&init_user_ns, CAP_PERFMON) ||
	     ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
	pts_bufset_put(b);
	return ok;
}

/*
 * file->private_data of an opener that may see physical addresses
 * (pts_perm_open()); NULL for every other opener. misc_open() leaves the
 * miscdevice there, which nothing of the module reads.
 */
static const char pts_opener_phys;

/**
 * pts_perm_phys() - may the opener of @file see physical addresses?
 * @file: the open device.
 * Context: any.
 * Return: true when its opener had CAP_SYS_ADMIN in the initial user
 * namespace at open (pts_perm_open()).
 */
bool pts_perm_phys(const struct file *file)
{
	return file->private_data == &pts_opener_phys;
}

/**
 * pts_cr3_identity() - what a caller without CAP_SYS_ADMIN sees of a CR3.
 * @cr3: a page-table root (physical address), 0 for none.
 *
 * A keyed hash (SipHash, key drawn at CONFIGURE): equal CR3s give equal
 * identities within one configuration, so the decoder can still tell
 * address spaces apart; across configurations the values are unrelated,
 * and none says anything about the address.
 * Context: any; pts.lock held (the key changes only at CONFIGURE).
 * Return: 0 for 0, else a non-zero identity.
 */
u64 pts_cr3_identity(u64 cr3)
{
	u64 id;

	if (!cr3)
		return 0;
	id = siphash_1u64(cr3, &pts.cr3_key);
	return id ? id : 1;
}

/**
 * pts_perm_open() - may the caller open the device?
 * @file: the file being opened; its private_data records whether the
 *        opener may see physical addresses (pts_perm_phys()).
 *
 * Group membership is asked first: it needs no capability, so a member's
 * open asks none and leaves no capability record for the audit log or an
 * LSM to flag. Only a caller outside the group is asked perfmon_capable(),
 * whose refusal is then a real denial and is audited as such.
 *
 * Physical addresses: CAP_SYS_ADMIN in the initial user namespace, asked
 * here once on the opener's credentials (the file's, as /proc/PID/pagemap
 * asks them) and without an audit record: the answer chooses what the
 * caller is shown and refuses nothing, as kallsyms_show_value() chooses
 * whether /proc/kallsyms shows addresses. Asked at each GET_STATE,
 * GET_CPU_STATUS and sideband read instead, a refusal would be logged at
 * each call of a user without it.
 * Context: process context (open()); current's credentials are @file's.
 * Return: 0 or -EPERM (group=<gid> set and the caller neither in that
 * group nor perfmon_capable()).
 */
int pts_perm_open(struct file *file)
{
	kgid_t gid;

	/* A gid of the initial namespace, whatever namespace the caller is in. */
	gid = make_kgid(&init_user_ns, pts_param_group);
	if (pts_param_group >= 0 && !(gid_valid(gid) && in_group_p(gid)) &&
	    !perfmon_capable())
		return -EPERM;
	/* Without group=, the node is 0600 root: the VFS has decided. */
	file->private_data = ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN) ?
			     (void *)&pts_opener_phys : NULL;
	return 0;
}
