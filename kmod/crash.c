// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU that jumps to a crash kernel stops tracing first.
 *
 * With a crash kernel loaded and crash_kexec_post_notifiers clear (the
 * default), __crash_kexec() runs before the panic notifiers, which then
 * never run; an oops that oops_end() hands to crash_kexec(), and a BPF
 * program's crash_kexec kfunc, never reach panic() at all. Nothing on
 * that path clears TraceEn for ptscope: perf's cpu_emergency_stop_pt(),
 * which native_machine_crash_shutdown() and the NMI shoot-down call,
 * stops perf's own event only, and neither it nor any crash notifier is
 * available to modules (kmod/README.md, twenty-first round, lists the
 * exported hooks and why none fits). The crashing CPU would trace on
 * through purgatory and the whole life of the crash kernel, into its
 * ring in the old kernel's memory: the moments before the crash
 * overwritten in snapshot mode, the ring torn in a vmcore.
 *
 * So a kprobe on machine_crash_shutdown(), which __crash_kexec() calls
 * only once it holds the kexec lock and a crash image is loaded, right
 * before machine_kexec() (6.1's kernel/kexec_core.c, 6.12's
 * kernel/crash_core.c): every path into the crash kernel passes there,
 * on the CPU that jumps, and nothing else calls it. Its handler is the
 * panic notifier's pts_crash_end_local(): this CPU's unit stopped, the
 * capture ended as TRIGGERED with PTSCOPE_STATEF_PANIC. The other CPUs
 * are halted by the NMI shoot-down that the probed function starts;
 * they keep TraceEn and execute nothing but their halt loop (docs/abi.md).
 *
 * If the probe cannot be registered (CONFIG_KPROBES off, the symbol
 * absent or not probeable, kprobes disarmed), the module says so once
 * at load and keeps the documented behaviour: START then sets
 * PTSCOPE_STATEF_CRASH_KERNEL when a crash kernel is loaded, and the
 * command warns. GET_CAPS says which (PTSCOPE_CAPS_CRASH_STOP).
 */
#include <linux/kprobes.h>

#include "ptscope_internal.h"

#ifdef CONFIG_KPROBES
/*
 * Context: on the crashing CPU, from the kprobe's int3 handler or its
 * ftrace trampoline (preemption off; IRQs off in both but for a BPF
 * program's crash_kexec call, so pts_crash_end_local() disables them);
 * the other CPUs still run until the shoot-down a few instructions on.
 */
static int pts_crash_pre(struct kprobe *p, struct pt_regs *regs)
{
	pts_crash_end_local("crash kexec");
	return 0;
}

static struct kprobe pts_crash_kp = {
	.symbol_name = "machine_crash_shutdown",
	.pre_handler = pts_crash_pre,
};

/*
 * Context: module init, may sleep. Return: true when the probe is in
 * place. A failure is not the module's: it loads without the probe.
 */
bool pts_crash_init(void)
{
	int err = register_kprobe(&pts_crash_kp);

	if (err) {
		pts_warn("no probe on machine_crash_shutdown (%d): with a crash kernel loaded, the crashing CPU traces on into the crash kernel (docs/abi.md)\n",
			 err);
		return false;
	}
	return true;
}

/* Context: module exit, may sleep; only after pts_crash_init() said true. */
void pts_crash_exit(void)
{
	unregister_kprobe(&pts_crash_kp);
}
#else
bool pts_crash_init(void)
{
	pts_warn("kernel without kprobes: with a crash kernel loaded, the crashing CPU traces on into the crash kernel (docs/abi.md)\n");
	return false;
}

void pts_crash_exit(void)
{
}
#endif
