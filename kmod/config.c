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

/*
 * End the current capture's run: no CPU traces, no trigger is in flight,
 * none can claim it. Context: pts.lock held, process context; may sleep.
 */
static void capture_stop(void)
{
	pts_state_set_run(PTSCOPE_STATE_STOPPED);
	pts_stop_all();
	pts_trigger_quiesce();
	WRITE_ONCE(pts.sources_live, false);
}

/*
 * Drop the current capture's rings, CR3 filter and results, once its
 * triggers, records and sideband are gone or handed over. Mapped rings
 * stay valid for their mappings (reference counted).
 * Context: pts.lock held, after capture_stop(); may sleep.
 */
static void capture_drop(void)
{
	struct pts_bufset *bufs = pts.bufs;

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
	forget_capture();
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
	if (!pts.configured)
		return;
	capture_stop();
	pts_trigger_teardown();
	pts_sysrec_teardown();
	pts_sideband_teardown();
	capture_drop();
	pts_state_set_run(PTSCOPE_STATE_IDLE);
}

/**
 * pts_configure() - replace the capture's configuration.
 * @cfg: copied from user space, header already checked.
 * @why: reason code and value on refusal.
 *
 * Everything that can fail is done before the current capture is
 * touched, as perf_event_open()'s failure leaves existing events alone:
 * every input is checked against the unit, the caller's rights and this
 * kernel; the new capture's trace rings and sideband rings are allocated
 * (charged to the caller's memory cgroup) and its probes, hotkey and
 * uprobe registered beside the current capture's, inert until it is
 * armed. A refusal, for bad input or for want of memory, leaves the
 * current capture (state, results, rings, triggers, records) as it was.
 * Then the current capture is released and the new one put in its place,
 * which cannot fail: what both use (the sideband's and the records'
 * probes, the same hotkey) stays registered throughout. Nothing here
 * holds the hotplug lock.
 * Context: process context, pts.lock held; may sleep.
 * Return: 0; -EBUSY (ARMED: stop first; MAPPED: unmap first); -EPERM
 * (NOT_OWNER: the current capture is another user's);
 * -EINVAL/-EOPNOTSUPP/-ENODEV from pts_config_check(); -EPERM/-ESRCH from
 * the permission checks (pts_perm_check(), pts_perm_grab_mm()), -EINTR
 * from the latter; -EPERM (BUFFER_LIMIT); -EINVAL (BAD_CPU_MASK);
 * -ENOMEM (NO_MEMORY: the rings, the sideband); the errors of
 * pts_trigger_prepare(); -ENOENT or a registration error
 * (TRACEPOINT_NOT_FOUND) from the records' or the sideband's probes.
 */
int pts_configure(const struct ptscope_config *cfg, struct pts_refusal *why)
{
	bool sysrec = cfg->flags & PTSCOPE_CFG_SYSREC;
	struct pts_ctl_plan plan;
	struct pts_cr3_plan cr3 = { .filter = false };
	struct pts_trigger_prep trig = {};
	struct pts_sb_prep sb = {};
	struct pts_bufset *bufs = NULL;
	struct mm_struct *mm = NULL;
	struct pid *own = NULL;
	cpumask_var_t mask;
	u32 state = pts_run_state(atomic_read(&pts.state));
	bool admin, sysrec_registered = false;
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
	 * Everything that can fail, while the current capture is still
	 * there: a refusal leaves it as it was.
	 */
	err = pts_trigger_prepare(cfg, admin, &trig, why);
	if (err)
		goto out;
	err = pts_sysrec_prepare(sysrec, &sysrec_registered);
	if (err) {
		why->reason = PTSCOPE_R_TRACEPOINT_NOT_FOUND;
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
	err = pts_sideband_prepare(plan.sideband_size, &sb);
	if (err) {
		why->reason = err == -ENOMEM ? PTSCOPE_R_NO_MEMORY :
			      PTSCOPE_R_TRACEPOINT_NOT_FOUND;
		goto out;
	}
	pts_owner_set(bufs, cfg);

	/* Nothing fails from here on: release the current capture, swap. */
	if (pts.configured)
		capture_stop();
	pts_trigger_commit(&trig);
	pts_sideband_commit(&sb, own);
	own = NULL;	/* the sideband's reference now, released at its teardown */
	pts_sysrec_commit(sysrec, mm, pts.selected);
	if (pts.configured)
		capture_drop();

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
	pts.configured = true;
	pts_state_set_run(PTSCOPE_STATE_CONFIGURED);
	pts_info("configured: scope %u mode %u, %llu bytes x %u CPUs (%u regions of %llu), RTIT_CTL %#llx%s\n",
		 cfg->scope, cfg->mode, cfg->buffer_size, cpumask_weight(mask),
		 bufs->plan.nr_regions, bufs->plan.region_size, plan.rtit_ctl,
		 (cr3.statef & PTSCOPE_STATEF_CR3_PARTIAL) ?
		 ", CR3 filter partial (KPTI): decoder filters by sideband" : "");
	bufs = NULL;	/* the capture's now */
out:
	pts_sideband_prep_drop(&sb);
	pts_sysrec_prep_drop(err && sysrec_registered);
	pts_trigger_prep_drop(&trig);
	if (bufs)
		pts_bufset_put(bufs);
	put_pid(own);
	if (mm)
		mmdrop(mm);
	free_cpumask_var(mask);
	return err;
}
