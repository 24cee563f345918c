// SPDX-License-Identifier: GPL-2.0
/*
 * PTSCOPE_IOC_CONFIGURE / UNCONFIGURE: validate a configuration against
 * the unit's capabilities and the caller's rights before anything is
 * allocated or written, then allocate the rings, the sideband and the
 * triggers.
 */
#include <linux/cpumask.h>
#include <linux/mm_types.h>
#include <linux/pid.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/string.h>
#include <asm/page.h>

#include "ptscope_internal.h"

static int build_cpumask(const struct ptscope_config *cfg, struct cpumask *m,
			 struct pts_refusal *why)
{
	unsigned int cpu;

	cpumask_clear(m);
	for (cpu = 0; cpu < PTSCOPE_MAX_CPUS; cpu++) {
		if (!(cfg->cpu_mask[cpu / 64] & (1ULL << (cpu % 64))))
			continue;
		if (cpu >= nr_cpu_ids || !cpu_possible(cpu)) {
			why->reason = PTSCOPE_R_BAD_CPU_MASK;
			why->arg = cpu;
			return -EINVAL;
		}
		cpumask_set_cpu(cpu, m);
	}
	if (!cpumask_intersects(m, cpu_online_mask)) {
		why->reason = PTSCOPE_R_BAD_CPU_MASK;
		why->arg = 0;
		return -EINVAL;
	}
	return 0;
}

/**
 * pts_target_exited() - has the CR3-filtered address space gone?
 * Context: process context, pts.lock held.
 * Return: true once the filtered process exited or exec'd (its mm has no
 * users left): its CR3 can never match again.
 */
bool pts_target_exited(void)
{
	return pts.cr3_mm && !atomic_read(&pts.cr3_mm->mm_users);
}

/*
 * Forget what GET_STATE and GET_CPU_STATUS report of a capture that is
 * gone. With no capture every opener may read them (pts_perm_operate()),
 * and they were the previous owner's: a kernel-scope capture's filter
 * addresses (kernel text), the trigger's task, the times, each CPU's
 * RTIT values. Context: pts.lock held, no CPU armed.
 */
static void forget_capture(void)
{
	memset(&pts.cfg, 0, sizeof(pts.cfg));
	memset(&pts.plan, 0, sizeof(pts.plan));
	pts.nr_snapshots = 0;
	pts.trigger_reason = PTSCOPE_TRIGGER_NONE;
	pts.trigger_cpu = 0;
	pts.trigger_pid = 0;
	pts.trigger_tid = 0;
	pts.trigger_tsc = 0;
	memset(&pts.time_at_start, 0, sizeof(pts.time_at_start));
	memset(&pts.time_at_stop, 0, sizeof(pts.time_at_stop));
	pts_cpu_reset_all();
}

/**
 * pts_unconfigure() - stop, release triggers, sideband and buffers.
 *
 * Mapped buffers stay valid for their mappings (reference counted).
 * Tracepoint probes are unregistered without the hotplug lock held: the
 * static keys behind them take cpus_read_lock() themselves.
 * Context: process context, pts.lock held; may sleep.
 */
void pts_unconfigure(void)
{
	struct pts_bufset *bufs = pts.bufs;

	if (!pts.configured)
		return;
	pts_state_set_run(PTSCOPE_STATE_STOPPED);
	pts_stop_all();
	pts_trigger_quiesce();
	pts_trigger_teardown();
	pts_sysrec_teardown();
	pts_sideband_teardown();
	pts_release_all();
	spin_lock(&pts.bufs_lock);
	WRITE_ONCE(pts.bufs, NULL);
	spin_unlock(&pts.bufs_lock);
	pts_bufset_put(bufs);
	cpumask_clear(pts.selected);
	pts.configured = false;
	pts.cr3_filter = false;
	pts.cr3_match = 0;
	if (pts.cr3_mm)
		mmdrop(pts.cr3_mm);
	pts.cr3_mm = NULL;
	pts.statef = pts.ops->simulated ? PTSCOPE_STATEF_SIMULATED : 0;
	WRITE_ONCE(pts.sources_live, false);
	forget_capture();
	pts_state_set_run(PTSCOPE_STATE_IDLE);
}

/**
 * pts_configure() - replace the capture's configuration.
 * @cfg: copied from user space, header already checked.
 * @why: reason code and value on refusal.
 *
 * Every input is checked against the unit, the caller's rights and this
 * kernel (the triggers' tracepoint, pid, hotkey and file, the records'
 * tracepoints), and the rings are allocated and charged to the caller's
 * memory cgroup, before the previous configuration is released: such a
 * refusal leaves it as it was. What can still fail afterwards leaves the
 * module IDLE: the sideband rings' allocation, and a registration the
 * kernel refuses (no memory for a probe; a uprobe on an instruction it
 * cannot probe; a hotkey another driver took meanwhile). Nothing here
 * holds the hotplug lock.
 * Context: process context, pts.lock held; may sleep.
 * Return: 0; -EBUSY (ARMED: stop first; MAPPED: unmap first); -EPERM
 * (NOT_OWNER: the current capture is another user's);
 * -EINVAL/-EOPNOTSUPP/-ENODEV from pts_config_check(); -EPERM/-ESRCH from
 * the permission checks (pts_perm_check(), pts_perm_grab_mm()), -EINTR
 * from the latter; -EPERM (BUFFER_LIMIT); -EINVAL (BAD_CPU_MASK);
 * -ENOMEM (NO_MEMORY); the errors of pts_trigger_prepare() and
 * pts_trigger_commit(); -ENOENT (TRACEPOINT_NOT_FOUND) or a registration
 * error from the syscall records (pts_sysrec_check(), pts_sysrec_setup()).
 */
int pts_configure(const struct ptscope_config *cfg, struct pts_refusal *why)
{
	struct pts_ctl_plan plan;
	struct pts_cr3_plan cr3 = { .filter = false };
	struct pts_trigger_prep trig = { .tp.idx = -1 };
	struct pts_bufset *bufs = NULL;
	struct mm_struct *mm = NULL;
	struct pid *own = NULL;
	cpumask_var_t mask;
	u32 state = pts_run_state(atomic_read(&pts.state));
	bool admin;
	int err;

	err = pts_perm_operate(pts.bufs, why);
	if (err)
		return err;
	if (state == PTSCOPE_STATE_ARMED || state == PTSCOPE_STATE_POST_TRIGGER) {
		why->reason = PTSCOPE_R_ARMED;
		return -EBUSY;
	}
	if (pts.bufs && atomic_read(&pts.bufs->mapcount)) {
		why->reason = PTSCOPE_R_MAPPED;
		return -EBUSY;
	}
	err = pts_config_check(&pts.pcaps, cfg, &plan, why);
	if (err)
		return err;
	err = pts_perm_check(cfg, &admin, why);
	if (!err)
		err = pts_perm_buffer_limit(cfg, why);
	if (err)
		return err;
	if (!zalloc_cpumask_var(&mask, GFP_KERNEL)) {
		why->reason = PTSCOPE_R_NO_MEMORY;
		return -ENOMEM;
	}
	err = build_cpumask(cfg, mask, why);
	if (err)
		goto out;
	/*
	 * What the triggers and the records name must exist in this kernel
	 * (and the pids and files be taken) while the current capture is
	 * still there: a refusal for bad input leaves it as it was.
	 */
	err = pts_trigger_prepare(cfg, admin, &trig, why);
	if (err)
		goto out;
	if ((cfg->flags & PTSCOPE_CFG_SYSREC) && pts_sysrec_check()) {
		why->reason = PTSCOPE_R_TRACEPOINT_NOT_FOUND;
		err = -ENOENT;
		goto out;
	}
	if (cfg->flags & PTSCOPE_CFG_CR3_FILTER) {
		/*
		 * Without perfmon_capable() the sideband names this process
		 * only (perms.c): its tgid, as pts_perm_grab_mm() found it.
		 */
		err = pts_perm_grab_mm(cfg->cr3_pid, admin, &mm,
				       admin ? NULL : &own, why);
		if (err)
			goto out;
		pts_cr3_plan(__pa(mm->pgd), cfg->scope, pts.pcid, pts.kpti, &cr3);
	}
	err = pts_bufset_alloc(mask, cfg->buffer_size, cfg->mode,
			       pts.caps.cpuid_14_0[2] & PT_CPUID_ECX_MENTRY,
			       &bufs, why);
	if (err)
		goto out;
	pts_owner_set(bufs, cfg);

	pts_unconfigure();
	pts_cpu_reset_all();
	pts.cfg = *cfg;
	pts.plan = plan;
	pts.cr3_filter = cr3.filter;
	pts.cr3_match = cr3.cr3_match;
	pts.cr3_mm = mm;
	mm = NULL;
	get_random_bytes(&pts.cr3_key, sizeof(pts.cr3_key));
	pts.statef = cr3.statef |
		     (pts.ops->simulated ? PTSCOPE_STATEF_SIMULATED : 0);
	cpumask_copy(pts.selected, mask);
	spin_lock(&pts.bufs_lock);
	WRITE_ONCE(pts.bufs, bufs);
	spin_unlock(&pts.bufs_lock);
	pts.nr_snapshots = 0;
	pts.trigger_reason = PTSCOPE_TRIGGER_NONE;
	pts.trigger_tsc = 0;
	memset(&pts.time_at_start, 0, sizeof(pts.time_at_start));
	memset(&pts.time_at_stop, 0, sizeof(pts.time_at_stop));

	err = pts_sideband_setup(plan.sideband_size, own);
	own = NULL;	/* the sideband's reference now, released at its teardown */
	if (err) {
		why->reason = err == -ENOMEM ? PTSCOPE_R_NO_MEMORY :
			      PTSCOPE_R_TRACEPOINT_NOT_FOUND;
		goto undo;
	}
	if (cfg->flags & PTSCOPE_CFG_SYSREC) {
		err = pts_sysrec_setup(pts.cr3_mm, pts.selected);
		if (err) {
			why->reason = PTSCOPE_R_TRACEPOINT_NOT_FOUND;
			pts_sideband_teardown();
			goto undo;
		}
	}
	err = pts_trigger_commit(&trig, why);
	if (err) {
		pts_sysrec_teardown();
		pts_sideband_teardown();
		goto undo;
	}
	pts.configured = true;
	pts_state_set_run(PTSCOPE_STATE_CONFIGURED);
	pts_info("configured: scope %u mode %u, %llu bytes x %u CPUs (%u regions of %llu), RTIT_CTL %#llx%s\n",
		 cfg->scope, cfg->mode, cfg->buffer_size, cpumask_weight(mask),
		 bufs->plan.nr_regions, bufs->plan.region_size, plan.rtit_ctl,
		 (cr3.statef & PTSCOPE_STATEF_CR3_PARTIAL) ?
		 ", CR3 filter partial (KPTI): decoder filters by sideband" : "");
	goto out;
undo:
	spin_lock(&pts.bufs_lock);
	WRITE_ONCE(pts.bufs, NULL);
	spin_unlock(&pts.bufs_lock);
	pts_bufset_put(bufs);
	cpumask_clear(pts.selected);
	pts.cr3_filter = false;
	pts.cr3_match = 0;
	if (pts.cr3_mm)
		mmdrop(pts.cr3_mm);
	pts.cr3_mm = NULL;
	pts.statef = pts.ops->simulated ? PTSCOPE_STATEF_SIMULATED : 0;
	forget_capture();
out:
	pts_trigger_prep_drop(&trig);
	put_pid(own);
	if (mm)
		mmdrop(mm);
	free_cpumask_var(mask);
	return err;
}
