// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall and user page-fault records (PTSCOPE_CFG_SYSREC): while a
 * capture runs, the traced processes' raw_syscalls:sys_enter and sys_exit
 * (number, return value) and exceptions:page_fault_user (address, error
 * code, IP) go to the per-CPU sideband (sideband.c), TSC-stamped there,
 * with the task's pid and tid. In a user-only trace the kernel's time is
 * an untraced stretch; these records let the decoder name it
 * (docs/capture.md, "Syscall and fault records").
 *
 * Traced: with a CR3 filter, the tasks of the filtered address space
 * (current->mm is the capture's mm: one compare, nothing else runs for
 * any other task); without one, every user task on a traced CPU. So the
 * records show nothing the capture itself does not already cover: the
 * same privilege rules apply (perms.c), and no other check is needed.
 *
 * The probes have the exact prototypes of the tracepoints (void *data,
 * then TP_PROTO of include/trace/events/syscalls.h and
 * arch/x86/include/asm/trace/exceptions.h): the tracepoint calls them
 * through a pointer of that type, which kCFI checks; pts_tp_register()
 * makes any other prototype a build error against the kernel built for.
 * They are registered at CONFIGURE, before the current capture is
 * released (so that a failure leaves it as it was), kept when a
 * CONFIGURE replaces a capture that had them by one that wants them, and
 * unregistered otherwise and at UNCONFIGURE. They do nothing unless the
 * sideband is live (tracing).
 *
 * Cost while registered: the sys_enter/sys_exit tracepoints put every
 * task of the system on the syscall slow path (SYSCALL_WORK_SYSCALL_
 * TRACEPOINT), and each probe compares one pointer for tasks that are
 * not traced; a traced task pays one record per event (docs/capture.md).
 */
#include <linux/cpumask.h>
#include <linux/mm_types.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/syscalls.h>
#include <asm/ptrace.h>
#include <asm/trace/exceptions.h>

#include "ptscope_internal.h"
#include "tp_probe.h"

/*
 * sr_mm: the traced address space, or NULL for every user task on a CPU
 * of sr_cpus (NULL: none yet). [pts.lock] Written by pts_sysrec_commit()
 * while the sideband is not live and after its grace period
 * (pts_sideband_commit()); the probes read them only after seeing it
 * live, so they are constant for every probe that uses them. sr_mm is
 * only compared, never dereferenced.
 */
static struct mm_struct *sr_mm;
static const struct cpumask *sr_cpus;
static struct tracepoint *tp_sys_enter, *tp_sys_exit, *tp_fault;

/*
 * Is current one of the traced tasks? Context: a probe (preemption off);
 * current->mm is stable for current.
 */
static bool sr_traced(void)
{
	struct mm_struct *mm = current->mm, *traced;
	const struct cpumask *cpus;

	if (!mm || !pts_sideband_live())
		return false;	/* a kernel thread, or no capture running */
	traced = READ_ONCE(sr_mm);
	if (traced)
		return mm == traced;
	cpus = READ_ONCE(sr_cpus);
	return cpus && cpumask_test_cpu(smp_processor_id(), cpus);
}

/* One SYS_ENTER or SYS_EXIT record of current. Context: a probe. */
static void sr_syscall(u16 type, const struct pt_regs *regs, long nr,
		       long ret)
{
	struct ptscope_sb_syscall r;

	memset(&r, 0, sizeof(r));
	r.hdr.type = type;
	pts_task_ids(current, &r.pid, &r.tid);
	r.nr = nr;
	r.ret = ret;
	r.ip = regs->ip;
	pts_sb_emit(&r.hdr, sizeof(r));
}

/*
 * raw_syscalls:sys_enter: TP_PROTO(struct pt_regs *regs, long id).
 * Context: the task's syscall entry, process context, IRQs on.
 */
static void probe_sys_enter(void *data, struct pt_regs *regs, long id)
{
	if (sr_traced())
		sr_syscall(PTSCOPE_SB_SYS_ENTER, regs, id, 0);
}

/*
 * raw_syscalls:sys_exit: TP_PROTO(struct pt_regs *regs, long ret).
 * The number is orig_ax, what the entry dispatched on (syscall_get_nr()).
 * Context: the task's syscall exit, process context, IRQs on.
 */
static void probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	if (sr_traced())
		sr_syscall(PTSCOPE_SB_SYS_EXIT, regs, (long)regs->orig_ax,
			   ret);
}

/*
 * exceptions:page_fault_user: TP_PROTO(unsigned long address,
 * struct pt_regs *regs, unsigned long error_code).
 * Context: the #PF handler for a fault in user mode, IRQs on or off.
 */
static void probe_fault(void *data, unsigned long address,
			struct pt_regs *regs, unsigned long error_code)
{
	struct ptscope_sb_fault r;

	if (!sr_traced())
		return;
	memset(&r, 0, sizeof(r));
	r.hdr.type = PTSCOPE_SB_PAGE_FAULT;
	pts_task_ids(current, &r.pid, &r.tid);
	r.address = address;
	r.error_code = error_code;
	r.ip = regs->ip;
	pts_sb_emit(&r.hdr, sizeof(r));
}

/**
 * pts_sysrec_teardown() - unregister the probes (nothing when none).
 *
 * Context: process context, pts.lock held; may sleep (waits for running
 * probes, so sr_mm may be released afterwards).
 */
void pts_sysrec_teardown(void)
{
	bool any = tp_sys_enter || tp_sys_exit || tp_fault;

	pts_tp_unregister(&tp_sys_enter, probe_sys_enter, NULL);
	pts_tp_unregister(&tp_sys_exit, probe_sys_exit, NULL);
	pts_tp_unregister(&tp_fault, probe_fault, NULL);
	if (any)
		tracepoint_synchronize_unregister();
	WRITE_ONCE(sr_mm, NULL);
	WRITE_ONCE(sr_cpus, NULL);
}

/**
 * pts_sysrec_prepare() - hook the syscall and user page-fault tracepoints
 * for a new capture, before the current one is released.
 * @want: the new capture asks for the records (PTSCOPE_CFG_SYSREC).
 * @registered: out: the probes were registered here (none were), for
 *              pts_sysrec_prep_drop().
 *
 * Nothing to do when @want is false or the current capture has them.
 * The probes write nothing until the new capture is armed.
 * Context: process context, pts.lock held, not cpus_read_lock(); may sleep.
 * Return: 0; -ENOENT when a tracepoint is missing (a kernel without
 * CONFIG_FTRACE_SYSCALLS; logged with its name); the error of
 * tracepoint_probe_register(). On failure none is registered.
 */
int pts_sysrec_prepare(bool want, bool *registered)
{
	const char *what = "raw_syscalls:sys_enter";
	int err;

	*registered = false;
	if (!want || tp_sys_enter)
		return 0;
	err = pts_tp_register(sys_enter, probe_sys_enter, NULL, &tp_sys_enter);
	if (!err) {
		what = "raw_syscalls:sys_exit";
		err = pts_tp_register(sys_exit, probe_sys_exit, NULL,
				      &tp_sys_exit);
	}
	if (!err) {
		what = "exceptions:page_fault_user";
		err = pts_tp_register(page_fault_user, probe_fault, NULL,
				      &tp_fault);
	}
	if (!err) {
		*registered = true;
		return 0;
	}
	if (err == -ENOENT)
		pts_err("syscall records: tracepoint %s not found\n", what);
	pts_sysrec_teardown();
	return err;
}

/**
 * pts_sysrec_prep_drop() - undo a pts_sysrec_prepare() whose capture was
 * refused.
 * @registered: as pts_sysrec_prepare() said.
 * Context: process context, pts.lock held, not cpus_read_lock(); may sleep.
 */
void pts_sysrec_prep_drop(bool registered)
{
	if (registered)
		pts_sysrec_teardown();
}

/**
 * pts_sysrec_commit() - the records' probes serve the new capture.
 * @want: it asks for the records: the probes (registered by the prepare
 *        or kept from the previous capture) filter on @mm and @cpus;
 *        otherwise any probes are unregistered.
 * @mm: the CR3-filtered address space (held by the capture), or NULL:
 *      every user task on a CPU of @cpus.
 * @cpus: the traced CPUs; must stay valid until pts_sysrec_teardown().
 *
 * Cannot fail. Context: process context, pts.lock held, not
 * cpus_read_lock(); after pts_sideband_commit() (the sideband is not
 * live and no probe that saw it live runs). May sleep.
 */
void pts_sysrec_commit(bool want, struct mm_struct *mm,
		       const struct cpumask *cpus)
{
	if (!want) {
		pts_sysrec_teardown();
		return;
	}
	WRITE_ONCE(sr_mm, mm);
	WRITE_ONCE(sr_cpus, cpus);
}
