/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptscope.ko internals: the one capture the module holds, per-CPU PT
 * state, and the interfaces between its files (one concern each).
 *
 * Locking (order: pts.lock, then cpus_read_lock()):
 *  - pts.lock (mutex) serialises every ioctl that reads or changes the
 *    capture; fields marked [lock] change only under it.
 *  - Arming and stopping (pts_arm(), pts_stop_all()) hold
 *    cpus_read_lock() around their cross-calls, so CPU hotplug callbacks
 *    (which run with the hotplug lock held for write) never race with
 *    them and need no mutex. Nothing else holds the hotplug lock: the
 *    tracepoint (un)registration of CONFIGURE/UNCONFIGURE takes it itself
 *    (static keys), and cpus_read_lock() must not nest.
 *  - struct pts_cpu fields marked [cpu] change only on that CPU with IRQs
 *    off (start/stop), and are read by ioctls after a synchronous
 *    smp_call_function, or racily for status; pts_cpu_reset_all() also
 *    clears them, under pts.lock while the capture is not armed (no CPU
 *    starts or stops then but through pts.lock's own cross-calls).
 *  - pts.state is an atomic word (run state and generation): triggers
 *    claim the capture with a cmpxchg; see pts_state_claim().
 */
#ifndef PTSCOPE_INTERNAL_H
#define PTSCOPE_INTERNAL_H

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/path.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/printk.h>
#include <linux/siphash.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "../include/uapi/ptscope.h"
#include "pt_unit.h"
#include "pure/pts_pure.h"

struct cred;
struct file;
struct mm_struct;
struct pid;

/* Every log line names the unit: "ptscope: " or "ptscope (simulated): ". */
extern const char *pts_log_tag;
#define pts_err(fmt, ...)  pr_err("%s: " fmt, pts_log_tag, ##__VA_ARGS__)
#define pts_warn(fmt, ...) pr_warn("%s: " fmt, pts_log_tag, ##__VA_ARGS__)
#define pts_info(fmt, ...) pr_info("%s: " fmt, pts_log_tag, ##__VA_ARGS__)

/* ---- buffers (topa.c) ---------------------------------------------------- */

/* One CPU's ToPA ring: tables and regions from that CPU's NUMA node. */
struct pts_cpu_buf {
	int cpu;
	struct page **tables;		/* nr_tables order-0 pages */
	u64 *table_phys;
	struct page **regions;		/* nr_regions blocks of region_order */
	u64 *region_phys;
};

/*
 * All per-CPU rings of one configuration, and who owns them; mappings hold
 * a reference. Every field but ref and mapcount is set before the set is
 * published in pts.bufs and constant afterwards.
 */
struct pts_bufset {
	struct kref ref;
	struct pts_topa_plan plan;
	unsigned int region_order;	/* page order of one region */
	u32 mode;			/* enum ptscope_mode */
	struct pts_cpu_buf **cpu;	/* [nr_cpu_ids], NULL if not selected */
	const struct cred *owner;	/* the CONFIGURE caller (perms.c) */
	bool owner_admin;		/* configuration needed perfmon_capable() */
	atomic_t mapcount;		/* live VMAs of this set (mmap.c) */
};

int pts_bufset_alloc(const struct cpumask *cpus, u64 buffer_size, u32 mode,
		     bool mentry, struct pts_bufset **out,
		     struct pts_refusal *why);
void pts_bufset_get(struct pts_bufset *b);
void pts_bufset_put(struct pts_bufset *b);
void pts_bufset_zero(struct pts_bufset *b, const struct cpumask *cpus);
bool pts_buf_nonzero_from(const struct pts_bufset *b, int cpu, u64 off);

/* ---- per-CPU PT state (pt_cpu.c) ----------------------------------------- */

struct pts_cpu {
	int cpu;
	bool enabled;		/* [cpu] TraceEn set by us */
	bool started;		/* [cpu] enabled at least once since arm */
	u32 flags;		/* [cpu] sticky PTSCOPE_CPUF_* bits */
	int result;		/* [cpu] last start: 0 or -errno */
	u32 reason;		/* [cpu] reason code with result */
	u64 rtit_ctl;		/* [cpu] written at enable (with TraceEn) */
	u64 ctl_readback;	/* [cpu] read just before clearing TraceEn */
	u64 status;		/* [cpu] RTIT_STATUS at the last stop */
	u64 output_base;	/* [cpu] at the last stop */
	u64 omp;		/* [cpu] OUTPUT_MASK_PTRS at the last stop */
	u64 start_tsc, stop_tsc;	/* [cpu] */
	u64 head;		/* [cpu] ring offset of the next byte */
	u64 seg_start_head;	/* [cpu] head when the current period began */
	u64 wrap_count;		/* [cpu] wraps proven by the position history */
	/*
	 * -1 unknown, 0 no data after head, 1 data: reset to -1 by its CPU
	 * at start and stop, cached by GET_CPU_STATUS under pts.lock only
	 * while the capture is not armed (pts_cpu_fill_status())
	 */
	int wrap_scan;
	u32 conflict;		/* [cpu] first PTSCOPE_R_FOREIGN_* of the capture */
	struct pts_owner_save owner;	/* [cpu] RTIT values found at enable */
};

DECLARE_PER_CPU(struct pts_cpu, pts_cpus);

void pts_cpu_init_all(void);
void pts_cpu_reset_all(void);
void pts_cpu_start_local(struct pts_cpu *pc, bool resume);
void pts_cpu_conflict(struct pts_cpu *pc, u32 reason);
void pts_cpu_stop_local(struct pts_cpu *pc);
void pts_cpu_release_local(struct pts_cpu *pc);
int pts_arm(struct pts_refusal *why);
void pts_stop_all(void);
void pts_release_all(void);
void pts_cpu_fill_status(int cpu, struct ptscope_cpu_status *st);

/* ---- the capture -------------------------------------------------------- */

struct pts_dev {
	struct mutex lock;		/* serialises capture changes */
	const struct pt_unit_ops *ops;
	struct ptscope_caps caps;	/* probed at load */
	struct pts_caps pcaps;		/* what pts_config_check() needs */
	bool kpti, pcid;
	/* perf keeps LBR and BTS apart from PT here (pure/lbr_bts.c); set at load */
	bool lbr_pt_excl;
	/* the crash-kexec probe is in place (crash.c); set at load */
	bool crash_stop;

	/*
	 * configuration: changed under lock only while not armed (CONFIGURE
	 * and UNCONFIGURE do not take the hotplug lock); hotplug callbacks
	 * read it only once they have seen armed set, which pts_arm() does
	 * under cpus_read_lock() after the configuration is complete
	 */
	bool configured;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	bool cr3_filter;
	u64 cr3_match;
	/*
	 * PTSCOPE_STATEF_*: [lock]; also PANIC by the panic notifier, with
	 * every other CPU halted (lifecycle.c)
	 */
	u32 statef;
	cpumask_var_t selected;
	struct pts_bufset *bufs;	/* changed under lock AND bufs_lock */
	spinlock_t bufs_lock;		/* mmap takes its reference under it */
	struct mm_struct *cr3_mm;	/* [lock] CR3 filter's mm, mmgrab()ed */
	siphash_key_t cr3_key;		/* [lock] key of the CR3 identities */

	/* run state */
	atomic_t state;			/* run state | generation, see below */
	/*
	 * armed: CPUs coming online start tracing; set at arm with the
	 * hotplug lock held, cleared by every stop (WRITE_ONCE).
	 * stop_requested: a trigger is stopping every CPU, CPUs coming
	 * online stay off (smp_mb() in stop_all_cpus() and pts_cpu_online()).
	 */
	bool armed;
	bool stop_requested;
	/*
	 * [lock] set by the reboot notifier (restart, power-off, halt,
	 * kexec -e): START is refused from then on, so that no CPU traces
	 * into this kernel's memory after it is replaced (lifecycle.c).
	 */
	bool shutting_down;
	/*
	 * [lock] set by the PM notifier from the PREPARE of a suspend, a
	 * hibernation or an image restore to its POST: START is refused in
	 * between, so that no CPU traces through the transition (lifecycle.c).
	 */
	bool pm_transition;
	/*
	 * tracepoint/hotkey/uprobe triggers accepted: WRITE_ONCE() by START,
	 * STOP and every end of a capture, READ_ONCE() by the probes (any
	 * context)
	 */
	bool sources_live;
	atomic_t stop_pending;		/* stop IPIs still running */
	u32 trig_word;			/* state word the trigger claimed */
	/*
	 * trigger_*: written by the claim's winner before TRIGGERED (a
	 * trigger, or the panic notifier, which claims as one);
	 * nr_snapshots by the step that ends the claimed word
	 * (capture_finished() or the panic notifier)
	 */
	u32 trigger_reason;
	u32 trigger_cpu;
	s32 trigger_pid, trigger_tid;
	u64 trigger_tsc;
	u32 nr_snapshots;
	/*
	 * time_at_start: [lock] (pts_arm()); time_at_stop: [lock] by
	 * pts_stop_all(), or by the step that ends a claimed word
	 * (capture_finished(), pts_crash_end_local())
	 */
	struct ptscope_time_pair time_at_start, time_at_stop;
	wait_queue_head_t wq;
	struct irq_work trig_work;	/* hard: post-trigger timer or stop */
	struct work_struct done_work;	/* unbound: wakes pts.wq */
	struct hrtimer post_timer;
};

extern struct pts_dev pts;

/*
 * pts.state holds the run state (enum ptscope_run_state) in bits 7:0 and
 * the capture generation above them, advanced by every START. A trigger
 * claims the exact word it saw ARMED; each later step of that trigger
 * acts only while the word is still the one it claimed, so a step left
 * over from an earlier arm never touches a newer capture (trigger.c).
 */
#define PTS_STATE_RUN_MASK	0xffU
#define PTS_STATE_GEN_ONE	0x100U

static inline u32 pts_run_state(u32 word)
{
	return word & PTS_STATE_RUN_MASK;
}

static inline u32 pts_state_with_run(u32 word, u32 run)
{
	return (word & ~PTS_STATE_RUN_MASK) | run;
}

/*
 * ARMED -> @run in the current generation. Context: any.
 * Return: the new word, or 0 if the capture was not ARMED.
 */
static inline u32 pts_state_claim(u32 run)
{
	int old = atomic_read(&pts.state);

	do {
		if (pts_run_state(old) != PTSCOPE_STATE_ARMED)
			return 0;
	} while (!atomic_try_cmpxchg(&pts.state, &old,
				     pts_state_with_run(old, run)));
	return pts_state_with_run(old, run);
}

/*
 * End a running capture: ARMED or POST_TRIGGER -> STOPPED in the current
 * generation, so that a trigger's later steps see another word and do
 * nothing (trigger.c). Used by STOP and by the suspend and reboot
 * notifiers: a capture in its post-trigger delay is still tracing and
 * must be ended as an armed one is. Context: any.
 * Return: the new word, or 0 if the capture was neither.
 */
static inline u32 pts_state_end(void)
{
	int old = atomic_read(&pts.state);
	u32 run;

	do {
		run = pts_run_state(old);
		if (run != PTSCOPE_STATE_ARMED &&
		    run != PTSCOPE_STATE_POST_TRIGGER)
			return 0;
	} while (!atomic_try_cmpxchg(&pts.state, &old,
				     pts_state_with_run(old, PTSCOPE_STATE_STOPPED)));
	return pts_state_with_run(old, PTSCOPE_STATE_STOPPED);
}

/*
 * Set the run state, keep the generation; fully ordered (the fields a
 * reader looks at after seeing the new state were written before).
 * Context: any. Return: the previous word.
 */
static inline u32 pts_state_set_run(u32 run)
{
	int old = atomic_read(&pts.state);

	while (!atomic_try_cmpxchg(&pts.state, &old,
				   pts_state_with_run(old, run)))
		;
	return old;
}

/* ---- probing (caps.c) -------------------------------------------------- */
int pts_caps_probe(const struct pt_unit_ops *ops);

/* ---- configuration (config.c) ----------------------------------------- */
int pts_configure(const struct ptscope_config *cfg, struct pts_refusal *why);
void pts_unconfigure(void);
bool pts_target_exited(void);

/* ---- permissions (perms.c) --------------------------------------------- */
bool pts_cfg_needs_admin(const struct ptscope_config *cfg);
int pts_perm_check(const struct ptscope_config *cfg, bool *admin,
		   struct pts_refusal *why);
int pts_perm_buffer_limit(const struct ptscope_config *cfg,
			  struct pts_refusal *why);
void pts_owner_set(struct pts_bufset *b, const struct ptscope_config *cfg);
int pts_perm_operate(const struct pts_bufset *b, struct pts_refusal *why);
int pts_perm_grab_mm(s32 nr, bool admin, struct mm_struct **mm_out,
		     struct pid **pid_out, struct pts_refusal *why);
int pts_perm_take_pid(s32 nr, enum pid_type type, bool admin,
		      struct pid **pid_out, struct pts_refusal *why);
bool pts_perm_phys(const struct file *file);
bool pts_perm_may_watch(void);
int pts_perm_open(struct file *file);
u64 pts_cr3_identity(u64 cr3);
extern int pts_param_group;

/* ---- tracepoint trigger (trigger_tp.c) ---------------------------------- */
/*
 * A tracepoint trigger checked, its pid taken and its probe registered,
 * inert until the capture it belongs to is armed (pts_trigger_tp_prepare()).
 * Owned by the configuring caller, under pts.lock.
 */
struct pts_tp_slot;
struct pts_tp_prep {
	struct pts_tp_slot *slot;	/* registered; NULL none */
};

int pts_trigger_tp_prepare(const struct ptscope_trigger_spec *spec, bool admin,
			   struct pts_tp_prep *prep, struct pts_refusal *why);
void pts_trigger_tp_commit(struct pts_tp_prep *prep);
void pts_trigger_tp_prep_drop(struct pts_tp_prep *prep);
void pts_trigger_tp_teardown(void);
bool pts_trigger_tp_registered(void);
extern char *pts_param_hotkey;

/* ---- user-function trigger (uprobe.c) ---------------------------------- */
/*
 * A uprobe trigger's file and process, checked and referenced, and the
 * uprobe registered, inert until the capture it belongs to is armed
 * (pts_uprobe_prepare()). Owned by the configuring caller, under pts.lock.
 */
struct pts_up_slot;
struct pts_uprobe_prep {
	struct pts_up_slot *slot;	/* registered; NULL none */
};

int pts_uprobe_prepare(const struct ptscope_uprobe_spec *spec,
		       struct pts_uprobe_prep *prep, struct pts_refusal *why);
void pts_uprobe_commit(struct pts_uprobe_prep *prep);
void pts_uprobe_prep_drop(struct pts_uprobe_prep *prep);
void pts_uprobe_teardown(void);
bool pts_uprobe_describe(struct ptscope_trigger_info *ti);

/* ---- triggers (trigger.c) ---------------------------------------------- */
/*
 * Every trigger of a configuration checked against the running kernel,
 * what it names referenced and its probe, key or uprobe registered
 * (pts_trigger_prepare()), before the previous configuration is
 * released: handing them over afterwards (pts_trigger_commit()) cannot
 * fail. A kind of trigger has two slots, the current capture's and the
 * prepared one's, so both can be registered at once.
 */
struct pts_trigger_prep {
	struct pts_tp_prep tp;
	int key;			/* the hotkey; 0 none */
	bool key_held;			/* registered by this prepare */
	struct pts_uprobe_prep up;
};

int pts_trigger_prepare(const struct ptscope_config *cfg, bool admin,
			struct pts_trigger_prep *prep, struct pts_refusal *why);
void pts_trigger_commit(struct pts_trigger_prep *prep);
void pts_trigger_prep_drop(struct pts_trigger_prep *prep);
void pts_trigger_teardown(void);
void pts_trigger_describe(struct ptscope_trigger_info *ti);
void pts_trigger_fire(u32 reason);
void pts_trigger_quiesce(void);
void pts_trigger_init(void);

/* ---- the capture's pid namespace (pidns.c) ---------------------------- */
void pts_pidns_hold(void);
void pts_pidns_release(void);
void pts_task_ids(struct task_struct *t, s32 *pid, s32 *tid);

/* ---- sideband (sideband.c) --------------------------------------------- */
/*
 * A new capture's sideband rings, allocated, and the sched probes,
 * registered when no capture had them (pts_sideband_prepare()), before
 * the current capture is released. Owned by the configuring caller,
 * under pts.lock.
 */
struct pts_sb_prep {
	u8 **buf;		/* [nr_cpu_ids] one ring per possible CPU */
	u64 size;		/* bytes of each ring */
	bool registered;	/* the probes were registered by this prepare */
};

int pts_sideband_prepare(u64 size, struct pts_sb_prep *prep);
void pts_sideband_prep_drop(struct pts_sb_prep *prep);
void pts_sideband_commit(struct pts_sb_prep *prep, struct pid *own);
void pts_sideband_teardown(void);
bool pts_sideband_live(void);
void pts_sideband_set_live(bool live);
u64 pts_sb_emit(struct ptscope_sb_hdr *rec, u32 len);
u64 pts_sb_trigger(u32 reason, s32 pid, s32 tid);
void pts_sb_trace(u16 type, u64 ctl, u64 status, u64 head);
ssize_t pts_sideband_read(char __user *buf, size_t len, u64 *lost,
			  bool phys, const struct pts_bufset *cap);
u64 pts_sideband_bytes(void);
u64 pts_sideband_lost(void);
u64 pts_sideband_cpu_bytes(int cpu);
u64 pts_sideband_cpu_lost(int cpu);
bool pts_sideband_ready(void);
void pts_sideband_init(void);

/* ---- syscall and user page-fault records (sysrec.c) -------------------- */
int pts_sysrec_prepare(bool want, bool *registered);
void pts_sysrec_prep_drop(bool registered);
void pts_sysrec_commit(bool want, struct mm_struct *mm,
		       const struct cpumask *cpus);
void pts_sysrec_teardown(void);

/* ---- mmap (mmap.c) ------------------------------------------------------ */
int pts_mmap(struct file *file, struct vm_area_struct *vma);

/* ---- lifecycle (lifecycle.c) ------------------------------------------- */
int pts_lifecycle_init(void);
void pts_lifecycle_exit(void);
void pts_time_pair(struct ptscope_time_pair *tp);
void pts_crash_end_local(const char *path);

/* ---- the crash kernel's jump (crash.c) --------------------------------- */
bool pts_crash_init(void);
void pts_crash_exit(void);

#endif /* PTSCOPE_INTERNAL_H */
