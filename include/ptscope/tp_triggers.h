/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The tracepoints a snapshot trigger can be armed on ("subsystem:event",
 * as in /sys/kernel/tracing/available_events). The module has one probe
 * per entry, with that tracepoint's prototype checked at build time
 * against the kernel's trace header (kmod/trigger_tp.c, kmod/tp_probe.h);
 * other tracepoints are refused (BAD_TRIGGER, EOPNOTSUPP). One list for the
 * module and the ptscope command, so the words never drift apart. Pure C.
 *
 * No include guard: each use defines PTSCOPE_TP(subsystem, event), includes
 * this file (inside an array initializer, say), and undefines it.
 */
PTSCOPE_TP(sched, sched_process_exit)
PTSCOPE_TP(sched, sched_process_exec)
PTSCOPE_TP(sched, sched_process_fork)
PTSCOPE_TP(sched, sched_process_hang)
PTSCOPE_TP(sched, sched_switch)
PTSCOPE_TP(sched, sched_wakeup)
PTSCOPE_TP(sched, sched_wakeup_new)
PTSCOPE_TP(signal, signal_generate)
PTSCOPE_TP(signal, signal_deliver)
PTSCOPE_TP(raw_syscalls, sys_enter)
PTSCOPE_TP(raw_syscalls, sys_exit)
PTSCOPE_TP(exceptions, page_fault_user)
PTSCOPE_TP(exceptions, page_fault_kernel)
PTSCOPE_TP(oom, mark_victim)
PTSCOPE_TP(task, task_newtask)
PTSCOPE_TP(irq, irq_handler_entry)
