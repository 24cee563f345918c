// SPDX-License-Identifier: GPL-2.0
/*
 * Sideband: a ring of TSC-stamped records (struct ptscope_sb_*, see
 * include/uapi/ptscope.h) that lets the decoder follow processes across
 * context switches in user-only traces (no PIP packets there).
 *
 * One byte ring per CPU, allocated at CONFIGURE. A CPU's records are
 * written only on that CPU, with IRQs off, so the probes of all CPUs never
 * share a lock or a cache line (sched_switch runs with the runqueue lock
 * held, where nothing may sleep or allocate; on PREEMPT_RT too nothing
 * here sleeps: no lock at all, IRQs disabled for the copy only). An NMI
 * (a trigger) that interrupts a writer of its own CPU drops its record.
 * Each CPU's ring is in TSC order by construction; user space merges the
 * CPUs by TSC. Records may straddle the end of a ring; the reader copies
 * whole records only. When a record does not fit it is dropped and
 * counted on its CPU; that CPU's next record that fits is preceded by a
 * PTSCOPE_SB_LOST record with the count. A ring that fills to half wakes
 * the reader through an irq_work (never a wake-up under the runqueue
 * lock).
 */
#include <linux/binfmts.h>
#include <linux/irq_work.h>
#include <linux/mm.h>
#include <linux/mm_types.h>
#include <linux/percpu.h>
#include <linux/poll.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>
#include <linux/uaccess.h>
#include <asm/local.h>
#include <asm/local64.h>
#include <asm/msr.h>
#include <asm/page.h>

#include "ptscope_internal.h"
#include "tp_probe.h"

/*
 * One CPU's ring. Written only on its own CPU (single producer), read by
 * one reader at a time under pts.lock (single consumer), lock-free between
 * the two: head and tail are free-running byte counts published with
 * release and read with acquire (Documentation/core-api/circular-buffers.rst).
 */
struct pts_sb_cpu {
	/* kvzalloc'd on the CPU's node; set and freed only without writers */
	u8 *buf;
	u64 size;		/* bytes, power of two; as buf */
	/* [this CPU, busy] bytes written, free-running; released after them */
	u64 head;
	/* [reader, pts.lock] bytes consumed; released after the copy */
	u64 tail;
	/* [this CPU, any context] records dropped since CONFIGURE (racy reads) */
	local64_t lost;
	/* [this CPU, any context] dropped since the last LOST record */
	local64_t lost_pending;
	/* [this CPU] a writer is in pts_sb_emit(): an NMI finding it set drops */
	local_t busy;
};

static DEFINE_PER_CPU(struct pts_sb_cpu, sb_cpus);

/*
 * sb_live: record while tracing (WRITE_ONCE by arm and stop, read inside
 * the writers' IRQs-off section, so synchronize_rcu() in teardown waits for
 * every writer that saw it set). sb_wm: a CPU whose unread bytes reach it
 * wakes the reader (half a ring; constant while configured).
 */
static bool sb_live;
static u64 sb_wm;
static struct irq_work sb_wake_work;

/*
 * sb_own: for a capture configured without perfmon_capable(), the thread
 * group (its tgid's struct pid, referenced) whose tasks the records name;
 * every other task is written as PTSCOPE_PID_OUTSIDE without a comm, and
 * EXEC, EXIT and FORK records of other processes are not written (perf
 * gives a per-task event its own task's records only; CPU-wide ones need
 * CAP_PERFMON). NULL: every task as it is. [pts.lock] Changed at commit
 * and teardown only after sb_quiesce(), and read by writers only after
 * they saw sb_live set: constant for every writer.
 */
static struct pid *sb_own;

/*
 * Is @t a task whose identity the capture's records may not carry?
 * Context: any; @t is current or pinned by the tracepoint's caller. The
 * idle task (pid 0 everywhere) names nothing.
 */
static bool sb_hidden(struct task_struct *t)
{
	return sb_own && !is_idle_task(t) && task_tgid(t) != sb_own;
}

/*
 * Is @t of the thread group an unprivileged capture may name? Always
 * true without sb_own. Context: as sb_hidden().
 */
static bool sb_own_task(struct task_struct *t)
{
	return !sb_own || task_tgid(t) == sb_own;
}

/* pts_task_ids(), or PTSCOPE_PID_OUTSIDE for a hidden task. Context: any. */
static void sb_task_ids(struct task_struct *t, s32 *pid, s32 *tid)
{
	if (sb_hidden(t)) {
		*pid = PTSCOPE_PID_OUTSIDE;
		*tid = PTSCOPE_PID_OUTSIDE;
		return;
	}
	pts_task_ids(t, pid, tid);
}

static struct tracepoint *tp_switch, *tp_exec, *tp_exit, *tp_fork;

/*
 * Copy @len bytes into @c's ring at free-running position @pos.
 * Context: @c's CPU, IRQs off, busy held (pts_sb_emit()).
 */
static void ring_put(struct pts_sb_cpu *c, u64 pos, const void *src, u32 len)
{
	u64 off = pos & (c->size - 1);
	u64 first = min_t(u64, len, c->size - off);

	memcpy(c->buf + off, src, first);
	if (first < len)
		memcpy(c->buf, (const u8 *)src + first, len - first);
}

/*
 * Copy @len bytes out of @c's ring from free-running position @pos.
 * Context: the reader, pts.lock held; the bytes are before the head it
 * loaded with acquire.
 */
static void ring_get(const struct pts_sb_cpu *c, u64 pos, void *dst, u32 len)
{
	u64 off = pos & (c->size - 1);
	u64 first = min_t(u64, len, c->size - off);

	memcpy(dst, c->buf + off, first);
	if (first < len)
		memcpy((u8 *)dst + first, c->buf, len - first);
}

/*
 * Wake readers polling for sideband data. A non-hard irq_work: hard IRQ on
 * a standard kernel, the irq_work thread on PREEMPT_RT, where the wait
 * queue's spinlock_t may sleep. Never called under the runqueue lock: the
 * probes only queue it (irq_work_queue() is NMI-safe).
 */
static void sb_wake(struct irq_work *w)
{
	wake_up_interruptible_poll(&pts.wq, EPOLLRDBAND);
}

/**
 * pts_sb_emit() - append one record to this CPU's ring.
 * @rec: the record; its header filled but for size, cpu and tsc.
 * @len: its size in bytes, header included, a multiple of 8.
 *
 * Append one record whose header is filled but for size and tsc to this
 * CPU's ring, and stamp it with the TSC read inside the ring's critical
 * section (IRQs off, busy held): whoever writes (a probe, a trigger in
 * NMI, a start or stop), a CPU's ring is in TSC order, and a record's TSC
 * is never earlier than the event it reports. That is the sideband's one
 * ordering rule (docs/abi.md, "Sideband records"); it holds by
 * construction, so no caller has to read the TSC in the right place.
 * Records of different CPUs are ordered by the reader (merge by TSC).
 * Context: any, on the CPU the record is about; IRQs saved here. An NMI
 * that interrupts a writer of its CPU drops its record (counted).
 * Return: the TSC stamped, 0 when the record was not written.
 */
u64 pts_sb_emit(struct ptscope_sb_hdr *rec, u32 len)
{
	struct ptscope_sb_lost lost;
	struct pts_sb_cpu *c;
	unsigned long flags;
	u64 head, tail, used, pending, tsc = 0;
	u32 need;

	rec->size = len;
	local_irq_save(flags);
	if (!READ_ONCE(sb_live))
		goto out_irq;
	c = this_cpu_ptr(&sb_cpus);
	if (!c->buf)
		goto out_irq;
	if (local_inc_return(&c->busy) != 1) {
		/* an NMI inside this CPU's writer: the ring is mid-update */
		local64_inc(&c->lost);
		local64_inc(&c->lost_pending);
		goto out;
	}
	pending = local64_read(&c->lost_pending);
	need = len + (pending ? sizeof(lost) : 0);
	head = c->head;
	/* pairs with the reader's store-release of tail: its copy is done */
	tail = smp_load_acquire(&c->tail);
	used = head - tail;
	if (c->size - used < need) {
		local64_inc(&c->lost);
		local64_inc(&c->lost_pending);
		goto out;
	}
	/* ordered: not earlier than anything this CPU did before */
	tsc = rdtsc_ordered();
	rec->tsc = tsc;
	rec->cpu = smp_processor_id();
	if (pending) {
		memset(&lost, 0, sizeof(lost));
		lost.hdr.type = PTSCOPE_SB_LOST;
		lost.hdr.size = sizeof(lost);
		lost.hdr.cpu = rec->cpu;
		lost.hdr.tsc = tsc;
		lost.count = pending;
		ring_put(c, head, &lost, sizeof(lost));
		head += sizeof(lost);
		/* an NMI may have dropped one more meanwhile: keep it pending */
		local64_sub(pending, &c->lost_pending);
	}
	ring_put(c, head, rec, len);
	head += len;
	/* the bytes before the new head, for the reader's load-acquire */
	smp_store_release(&c->head, head);
	if (used < sb_wm && head - tail >= sb_wm)
		irq_work_queue(&sb_wake_work);
out:
	local_dec(&c->busy);
out_irq:
	local_irq_restore(flags);
	return tsc;
}

/*
 * Type of a record; pts_sb_emit() stamps CPU and TSC inside its IRQs-off
 * section, so the record names the ring it is in whatever its caller.
 */
static void sb_hdr(struct ptscope_sb_hdr *h, u16 type)
{
	h->type = type;
}

/*
 * The CR3 a task's user code runs with; 0 for kernel threads.
 * Context: any; @t is current or pinned by the tracepoint's caller.
 */
static u64 task_user_cr3(struct task_struct *t)
{
	struct mm_struct *mm = t->mm;

	return mm ? pts_cr3_user_root(__pa(mm->pgd), pts.kpti) : 0;
}

/*
 * With sb_own (an unprivileged capture) only the switches in and out of
 * that process are written, as perf's per-task PERF_RECORD_SWITCH: a
 * switch between two other tasks, or between one and the idle task,
 * says when other users' processes run, which the decoder of a
 * CR3-filtered user-scope trace does not need (none of their code is in
 * it). A hidden task's CR3 stays 0: even as an identity
 * (pts_cr3_identity()) it would tell its address space from others'.
 * Context: sched_switch tracepoint: runqueue lock held, IRQs off.
 */
static void probe_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	struct ptscope_sb_switch r;

	if (!READ_ONCE(sb_live))
		return;
	if (!sb_own_task(prev) && !sb_own_task(next))
		return;
	memset(&r, 0, sizeof(r));
	sb_hdr(&r.hdr, PTSCOPE_SB_SCHED_SWITCH);
	sb_task_ids(prev, &r.prev_pid, &r.prev_tid);
	sb_task_ids(next, &r.next_pid, &r.next_tid);
	if (!sb_hidden(next)) {
		r.next_cr3 = task_user_cr3(next);
		memcpy(r.next_comm, next->comm, sizeof(r.next_comm));
		r.next_comm[sizeof(r.next_comm) - 1] = '\0';
	}
	r.prev_state = prev_state;
	pts_sb_emit(&r.hdr, sizeof(r));
}

#define SB_EXEC_MAX	(sizeof(struct ptscope_sb_exec) + PTSCOPE_PATH_LEN)

/* Context: sched_process_exec tracepoint: process context, preemption off. */
static void probe_exec(void *data, struct task_struct *p, pid_t old_pid,
		       struct linux_binprm *bprm)
{
	union {
		struct ptscope_sb_exec r;
		u8 bytes[SB_EXEC_MAX];
	} u;
	size_t n;

	if (!READ_ONCE(sb_live) || sb_hidden(p))
		return;
	memset(&u, 0, sizeof(u));
	sb_hdr(&u.r.hdr, PTSCOPE_SB_EXEC);
	pts_task_ids(p, &u.r.pid, &u.r.tid);
	u.r.cr3 = task_user_cr3(p);
	memcpy(u.r.comm, p->comm, sizeof(u.r.comm));
	u.r.comm[sizeof(u.r.comm) - 1] = '\0';
	n = strnlen(bprm->filename, PTSCOPE_PATH_LEN - 1);
	memcpy(u.r.filename, bprm->filename, n);
	pts_sb_emit(&u.r.hdr, ALIGN(sizeof(u.r) + n + 1, 8));
}

/* Context: sched_process_exit tracepoint: process context, preemption off. */
static void probe_exit(void *data, struct task_struct *p)
{
	struct ptscope_sb_exit r;

	if (!READ_ONCE(sb_live) || sb_hidden(p))
		return;
	memset(&r, 0, sizeof(r));
	sb_hdr(&r.hdr, PTSCOPE_SB_EXIT);
	pts_task_ids(p, &r.pid, &r.tid);
	pts_sb_emit(&r.hdr, sizeof(r));
}

/* Context: sched_process_fork tracepoint: process context, preemption off. */
static void probe_fork(void *data, struct task_struct *parent,
		       struct task_struct *child)
{
	struct ptscope_sb_fork r;

	/* the traced process's own children: their pids are its to know */
	if (!READ_ONCE(sb_live) || sb_hidden(parent))
		return;
	memset(&r, 0, sizeof(r));
	sb_hdr(&r.hdr, PTSCOPE_SB_FORK);
	pts_task_ids(parent, &r.parent_pid, &r.parent_tid);
	pts_task_ids(child, &r.child_pid, &r.child_tid);
	pts_sb_emit(&r.hdr, sizeof(r));
}

/**
 * pts_sb_trigger() - write the TRIGGER record.
 * @reason: enum ptscope_trigger_reason.
 * @pid: tgid current at the trigger (pts_task_ids()).
 * @tid: its thread.
 *
 * Context: any, including NMI (then only if the lock is free).
 * Return: the record's TSC, the trigger time; 0 when it was not written.
 */
u64 pts_sb_trigger(u32 reason, s32 pid, s32 tid)
{
	struct ptscope_sb_trigger r;

	memset(&r, 0, sizeof(r));
	sb_hdr(&r.hdr, PTSCOPE_SB_TRIGGER);
	r.reason = reason;
	r.pid = pid;
	r.tid = tid;
	return pts_sb_emit(&r.hdr, sizeof(r));
}

/**
 * pts_sb_trace() - write a TRACE_START or TRACE_STOP record for this CPU.
 * @type: PTSCOPE_SB_TRACE_START or PTSCOPE_SB_TRACE_STOP.
 * @ctl: RTIT_CTL written (start) or read back (stop).
 * @status: RTIT_STATUS after the enable or at the stop.
 * @head: ring offset where PT starts or stopped writing.
 *
 * Also records the task current on this CPU (pid, tid and the CR3 its user
 * code runs with, as in a switch record): the task a trace segment starts
 * with, which no switch record names when it is not switched during the
 * capture (perf's PERF_RECORD_ITRACE_START does the same).
 * Context: on the CPU concerned, IRQs off.
 */
void pts_sb_trace(u16 type, u64 ctl, u64 status, u64 head)
{
	struct ptscope_sb_trace r;

	memset(&r, 0, sizeof(r));
	sb_hdr(&r.hdr, type);
	r.rtit_ctl = ctl;
	r.rtit_status = status;
	r.head = head;
	sb_task_ids(current, &r.pid, &r.tid);
	/* a hidden task's CR3 stays 0, as in probe_switch() */
	if (!sb_hidden(current))
		r.cr3 = task_user_cr3(current);
	pts_sb_emit(&r.hdr, sizeof(r));
}

/*
 * The sched probes are registered from a capture's CONFIGURE to its
 * UNCONFIGURE, and stay registered when a CONFIGURE replaces the capture
 * (pts_sideband_commit()): the same probes serve every capture, and a
 * registration that could fail after the current capture was released
 * would lose it. tp_switch is set while they are registered.
 */

/* Context: process context, may sleep (waits for running probes). */
static void unregister_probes(void)
{
	pts_tp_unregister(&tp_switch, probe_switch, NULL);
	pts_tp_unregister(&tp_exec, probe_exec, NULL);
	pts_tp_unregister(&tp_exit, probe_exit, NULL);
	pts_tp_unregister(&tp_fork, probe_fork, NULL);
	tracepoint_synchronize_unregister();
}

/*
 * Context: process context, may sleep; pts.lock held, not cpus_read_lock().
 * Return: 0, -ENOENT (a sched tracepoint is missing) or the error of
 * tracepoint_probe_register(); on failure none is registered.
 */
static int register_probes(void)
{
	int err;

	/* Prototypes checked against <trace/events/sched.h> (tp_probe.h). */
	err = pts_tp_register(sched_switch, probe_switch, NULL, &tp_switch);
	if (!err)
		err = pts_tp_register(sched_process_exec, probe_exec, NULL, &tp_exec);
	if (!err)
		err = pts_tp_register(sched_process_exit, probe_exit, NULL, &tp_exit);
	if (!err)
		err = pts_tp_register(sched_process_fork, probe_fork, NULL, &tp_fork);
	if (err)
		unregister_probes();
	return err;
}

/*
 * No writer runs on the rings or reads sb_own once this returns: every
 * writer checks sb_live with IRQs or preemption off (pts_sb_emit(), the
 * probes), so synchronize_rcu() waits for the last one that saw it set.
 * Context: process context, may sleep.
 */
static void sb_quiesce(void)
{
	WRITE_ONCE(sb_live, false);
	synchronize_rcu();
	irq_work_sync(&sb_wake_work);
}

/* Free every CPU's ring. Context: no writer can run (sb_quiesce()). */
static void sb_free_rings(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct pts_sb_cpu *c = per_cpu_ptr(&sb_cpus, cpu);

		kvfree(c->buf);
		c->buf = NULL;
		c->size = 0;
		c->head = 0;
		c->tail = 0;
	}
}

/**
 * pts_sideband_prepare() - allocate a new capture's rings, and register
 * the sched probes if no capture has them, before the current capture
 * is released.
 * @size: bytes of each CPU's ring, power of two, 4 KiB .. 64 MiB.
 * @prep: out; taken over by pts_sideband_commit() or given back by
 *        pts_sideband_prep_drop(), also after a failure.
 *
 * One ring per possible CPU, from its NUMA node, charged to the caller's
 * memory cgroup as the trace rings are: @size x num_possible_cpus() in
 * all, on top of the current capture's until the commit frees those.
 * A ring the cgroup or the machine cannot give fails the CONFIGURE
 * (__GFP_RETRY_MAYFAIL: no OOM kill for a buffer the caller asked for;
 * __GFP_NOWARN: the caller is told, NO_MEMORY).
 * Context: process context, pts.lock held, not cpus_read_lock(); may sleep.
 * Return: 0; -ENOMEM; -ENOENT (a sched tracepoint is missing) or the
 * error of tracepoint_probe_register().
 */
int pts_sideband_prepare(u64 size, struct pts_sb_prep *prep)
{
	const gfp_t gfp = GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN;
	int cpu, err;

	memset(prep, 0, sizeof(*prep));
	prep->buf = kcalloc(nr_cpu_ids, sizeof(*prep->buf), GFP_KERNEL);
	if (!prep->buf)
		return -ENOMEM;
	prep->size = size;
	for_each_possible_cpu(cpu) {
		prep->buf[cpu] = kvzalloc_node(size, gfp, cpu_to_node(cpu));
		if (!prep->buf[cpu]) {
			pts_sideband_prep_drop(prep);
			return -ENOMEM;
		}
	}
	if (!tp_switch) {
		err = register_probes();
		if (err) {
			pts_sideband_prep_drop(prep);
			return err;
		}
		prep->registered = true;
	}
	return 0;
}

/**
 * pts_sideband_prep_drop() - give back what pts_sideband_prepare() took
 * and pts_sideband_commit() did not take over (nothing after a commit).
 * @prep: emptied.
 * Context: process context, pts.lock held, not cpus_read_lock(); may sleep.
 */
void pts_sideband_prep_drop(struct pts_sb_prep *prep)
{
	int cpu;

	if (prep->registered)
		unregister_probes();
	if (prep->buf) {
		for_each_possible_cpu(cpu)
			kvfree(prep->buf[cpu]);
		kfree(prep->buf);
	}
	memset(prep, 0, sizeof(*prep));
}

/**
 * pts_sideband_commit() - the prepared rings become the sideband.
 * @prep: from pts_sideband_prepare(); emptied.
 * @own: NULL, or the tgid (struct pid) of the one process the records may
 *       name (a capture configured without perfmon_capable()); the
 *       reference is the sideband's from here on.
 *
 * The previous capture's rings, namespace and @own are freed once no
 * writer can run; the sched probes stay registered. Cannot fail.
 * Context: process context, pts.lock held; the previous capture ended
 * (not armed, pts_trigger_quiesce() done). May sleep.
 */
void pts_sideband_commit(struct pts_sb_prep *prep, struct pid *own)
{
	int cpu;

	sb_quiesce();
	for_each_possible_cpu(cpu) {
		struct pts_sb_cpu *c = per_cpu_ptr(&sb_cpus, cpu);

		kvfree(c->buf);
		c->buf = prep->buf[cpu];
		c->size = prep->size;
		c->head = 0;
		c->tail = 0;
		local64_set(&c->lost, 0);
		local64_set(&c->lost_pending, 0);
		local_set(&c->busy, 0);
	}
	sb_wm = prep->size / 2;
	/* every pid the writers record is of the configuring task's namespace */
	pts_pidns_hold();
	put_pid(sb_own);
	sb_own = own;
	kfree(prep->buf);
	memset(prep, 0, sizeof(*prep));
}

/**
 * pts_sideband_teardown() - unregister the probes and free the rings.
 * Context: process context, pts.lock held, not cpus_read_lock(); may sleep.
 */
void pts_sideband_teardown(void)
{
	WRITE_ONCE(sb_live, false);
	unregister_probes();
	sb_quiesce();
	sb_free_rings();
	pts_pidns_release();
	put_pid(sb_own);
	sb_own = NULL;
}

/**
 * pts_sideband_live() - are records being written?
 * Context: any; a probe that sees true runs inside sb_quiesce()'s grace
 * period (IRQs or preemption off).
 */
bool pts_sideband_live(void)
{
	return READ_ONCE(sb_live);
}

/* Context: any (a plain flag: writers look at it with IRQs off). */
void pts_sideband_set_live(bool live)
{
	WRITE_ONCE(sb_live, live);
}

/* Context: module init, before any capture. */
void pts_sideband_init(void)
{
	init_irq_work(&sb_wake_work, sb_wake);
}

/*
 * Replace every CR3 in the whole records of @buf by its identity
 * (pts_cr3_identity()): for a reader without CAP_SYS_ADMIN, a page-table
 * root is a physical address. Every record type with a CR3 field is
 * listed here. Context: pts.lock held.
 */
static void sb_hide_phys(u8 *buf, size_t n)
{
	size_t off = 0;

	while (off + sizeof(struct ptscope_sb_hdr) <= n) {
		struct ptscope_sb_hdr *h = (struct ptscope_sb_hdr *)(buf + off);

		if (!h->size || off + h->size > n)
			break;
		if (h->type == PTSCOPE_SB_SCHED_SWITCH &&
		    h->size >= sizeof(struct ptscope_sb_switch)) {
			struct ptscope_sb_switch *r = (void *)h;

			r->next_cr3 = pts_cr3_identity(r->next_cr3);
		} else if (h->type == PTSCOPE_SB_EXEC &&
			   h->size >= sizeof(struct ptscope_sb_exec)) {
			struct ptscope_sb_exec *r = (void *)h;

			r->cr3 = pts_cr3_identity(r->cr3);
		} else if ((h->type == PTSCOPE_SB_TRACE_START ||
			    h->type == PTSCOPE_SB_TRACE_STOP) &&
			   h->size >= sizeof(struct ptscope_sb_trace)) {
			struct ptscope_sb_trace *r = (void *)h;

			r->cr3 = pts_cr3_identity(r->cr3);
		}
		off += h->size;
	}
}

/*
 * Move whole records of @c to @bounce (at most @room bytes) and consume
 * them. Context: pts.lock held (one reader at a time). Return: bytes moved.
 */
static size_t sb_take(struct pts_sb_cpu *c, u8 *bounce, size_t room)
{
	struct ptscope_sb_hdr h;
	u64 head, tail = c->tail;
	size_t n = 0;

	/* pairs with the writer's release: the bytes before head are in */
	head = smp_load_acquire(&c->head);
	while (head - (tail + n) >= sizeof(h)) {
		ring_get(c, tail + n, &h, sizeof(h));
		if (!h.size || n + h.size > room)
			break;
		ring_get(c, tail + n, bounce + n, h.size);
		n += h.size;
	}
	/* the copy is done before the writer may reuse the space */
	smp_store_release(&c->tail, tail + n);
	return n;
}

/* Size of @c's next unread record, 0 when none. Context: pts.lock held. */
static u32 sb_next_size(struct pts_sb_cpu *c)
{
	struct ptscope_sb_hdr h;
	/* pairs with the writer's release: the header before head is in */
	u64 head = smp_load_acquire(&c->head);

	if (head - c->tail < sizeof(h))
		return 0;
	ring_get(c, c->tail, &h, sizeof(h));
	return h.size;
}

/**
 * pts_sideband_read() - move whole records to user space.
 * @ubuf: user buffer.
 * @len: its size in bytes.
 * @lost: records dropped since configure, all CPUs (out, may be NULL).
 * @phys: the reader may see physical addresses; else every CR3 is
 *        replaced by its per-configuration identity.
 * @cap: the capture's buffers when the caller's right to read was checked
 *       (a reference held by the caller); reading stops when the capture
 *       has been replaced or removed since.
 *
 * Reading consumes. The CPUs' rings are read one after the other, each
 * from its oldest record: the records of one CPU come in TSC order, those
 * of different CPUs are not ordered with each other (the reader merges
 * them by hdr.tsc; docs/abi.md, "Sideband records"). Records are moved to
 * a bounce buffer under pts.lock, which keeps the rings from being freed,
 * and copied to user space without it: a copy_to_user() that waits on a
 * page fault (a userfaultfd or FUSE mapping can make it wait for ever)
 * must not hold up every ioctl and the reboot and PM notifiers, which
 * take pts.lock.
 * Context: process context, may sleep; takes pts.lock for each chunk.
 * Return: bytes copied (0 when empty), -EINVAL when @len is smaller than
 * the next record, -EFAULT, -ENOMEM, -ENODEV when not configured.
 */
ssize_t pts_sideband_read(char __user *ubuf, size_t len, u64 *lost,
			  bool phys, const struct pts_bufset *cap)
{
	size_t chunk = min_t(size_t, len, 16 * 1024);
	bool any = false, too_small = false;
	ssize_t ret;
	size_t done = 0;
	u8 *bounce;
	int cpu;

	bounce = kmalloc(max_t(size_t, chunk, SB_EXEC_MAX), GFP_KERNEL);
	if (!bounce)
		return -ENOMEM;
	mutex_lock(&pts.lock);
	if (READ_ONCE(pts.bufs) == cap)
		for_each_possible_cpu(cpu)
			any |= !!per_cpu_ptr(&sb_cpus, cpu)->buf;
	if (any && lost)
		*lost = pts_sideband_lost();
	mutex_unlock(&pts.lock);
	if (!any) {
		kfree(bounce);
		return -ENODEV;
	}
	for_each_possible_cpu(cpu) {
		struct pts_sb_cpu *c = per_cpu_ptr(&sb_cpus, cpu);

		while (done < len) {
			bool gone;
			size_t n = 0;
			u32 next = 0;

			mutex_lock(&pts.lock);
			gone = READ_ONCE(pts.bufs) != cap;
			if (!gone && c->buf) {
				n = sb_take(c, bounce, min(chunk, len - done));
				if (!n)
					next = sb_next_size(c);
				else if (!phys)
					sb_hide_phys(bounce, n);
			}
			mutex_unlock(&pts.lock);
			if (gone)
				goto out;
			if (!n) {
				too_small |= next && next > len - done;
				break;
			}
			/* consumed: records a fault loses here are lost */
			if (copy_to_user(ubuf + done, bounce, n)) {
				ret = done ? (ssize_t)done : -EFAULT;
				kfree(bounce);
				return ret;
			}
			done += n;
		}
	}
out:
	kfree(bounce);
	if (!done && too_small)
		return -EINVAL;
	return (ssize_t)done;
}

/**
 * pts_sideband_cpu_bytes() - unread bytes of one CPU's ring.
 * @cpu: a possible CPU.
 * Context: any; a racy snapshot.
 */
u64 pts_sideband_cpu_bytes(int cpu)
{
	struct pts_sb_cpu *c = per_cpu_ptr(&sb_cpus, cpu);

	return READ_ONCE(c->head) - READ_ONCE(c->tail);
}

/**
 * pts_sideband_cpu_lost() - records one CPU dropped since CONFIGURE.
 * @cpu: a possible CPU.
 * Context: any; a racy snapshot.
 */
u64 pts_sideband_cpu_lost(int cpu)
{
	return local64_read(&per_cpu_ptr(&sb_cpus, cpu)->lost);
}

/* Unread bytes of every ring. Context: any; a racy snapshot. */
u64 pts_sideband_bytes(void)
{
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += pts_sideband_cpu_bytes(cpu);
	return n;
}

/* Records dropped on every CPU since CONFIGURE. Context: any. */
u64 pts_sideband_lost(void)
{
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += pts_sideband_cpu_lost(cpu);
	return n;
}

/**
 * pts_sideband_ready() - a CPU's ring holds at least the watermark.
 *
 * What poll() reports as sideband data (EPOLLRDBAND): the reader is woken
 * when a ring crosses half full, instead of polling on a timer only.
 * Context: any; a racy snapshot.
 */
bool pts_sideband_ready(void)
{
	int cpu;

	if (!sb_wm)
		return false;
	for_each_possible_cpu(cpu)
		if (per_cpu_ptr(&sb_cpus, cpu)->buf &&
		    pts_sideband_cpu_bytes(cpu) >= sb_wm)
			return true;
	return false;
}
