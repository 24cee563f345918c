// SPDX-License-Identifier: GPL-2.0
/*
 * Sideband: a ring of TSC-stamped records (struct ptscope_sb_*, see
 * include/uapi/ptscope.h) that lets the decoder follow processes across
 * context switches in user-only traces (no PIP packets there).
 *
 * One global byte ring, allocated at CONFIGURE, protected by a raw
 * spinlock taken with IRQs saved: probes run with the runqueue lock held
 * (sched_switch) where a sleeping lock or an allocation is forbidden, and
 * a single ring keeps records in global TSC order within a CPU and close
 * to it across CPUs, so the reader needs no merge. A trigger from NMI
 * context only try-locks. Records may straddle the end of the ring; the
 * reader copies whole records only. When a record does not fit it is
 * dropped and counted; the next record that fits is preceded by a
 * PTSCOPE_SB_LOST record with the count. The probes never wake anybody
 * (a wake-up under the runqueue lock can deadlock): readers poll.
 */
#include <linux/binfmts.h>
#include <linux/hardirq.h>
#include <linux/mm_types.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/msr.h>
#include <asm/page.h>

#include "ptscope_internal.h"

struct pts_sb_ring {
	raw_spinlock_t lock;
	u8 *buf;		/* vmalloc, size bytes */
	u64 size;		/* power of two */
	u64 head;		/* bytes written, free-running (lock) */
	u64 tail;		/* bytes consumed, free-running (lock) */
	u64 lost;		/* records dropped since configure (lock) */
	u64 lost_pending;	/* dropped since the last LOST record (lock) */
	bool live;		/* record while tracing */
};

static struct pts_sb_ring sb = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(sb.lock),
};

static struct tracepoint *tp_switch, *tp_exec, *tp_exit, *tp_fork;

/* Copy @len bytes into the ring at free-running position @pos. Lock held. */
static void ring_put(u64 pos, const void *src, u32 len)
{
	u64 off = pos & (sb.size - 1);
	u64 first = min_t(u64, len, sb.size - off);

	memcpy(sb.buf + off, src, first);
	if (first < len)
		memcpy(sb.buf, (const u8 *)src + first, len - first);
}

static void ring_get(u64 pos, void *dst, u32 len)
{
	u64 off = pos & (sb.size - 1);
	u64 first = min_t(u64, len, sb.size - off);

	memcpy(dst, sb.buf + off, first);
	if (first < len)
		memcpy((u8 *)dst + first, sb.buf, len - first);
}

/*
 * Append one record whose header is filled but for size and tsc, and stamp
 * it with the TSC read under the lock: whoever writes (a probe, a trigger
 * in NMI, a start or stop on any CPU), the ring is in TSC order on each
 * CPU, and across CPUs as far as their TSCs agree. That is the sideband's
 * one ordering rule (docs/abi.md, "Sideband records"); it holds by
 * construction, so no caller has to read the TSC in the right place.
 * A record's TSC is therefore never earlier than the event it reports.
 * Context: any; IRQs saved here. NMI: try-lock only.
 * Return: the TSC stamped, 0 when the record was not written.
 */
static u64 sb_emit(struct ptscope_sb_hdr *rec, u32 len)
{
	struct ptscope_sb_lost lost;
	unsigned long flags;
	u32 need = len;
	u64 tsc = 0;

	if (!READ_ONCE(sb.live) || !sb.buf)
		return 0;
	rec->size = len;
	if (in_nmi()) {
		if (!raw_spin_trylock_irqsave(&sb.lock, flags))
			return 0;
	} else {
		raw_spin_lock_irqsave(&sb.lock, flags);
	}
	if (!sb.buf)
		goto out;
	if (sb.lost_pending)
		need += sizeof(lost);
	if (sb.size - (sb.head - sb.tail) < need) {
		sb.lost++;
		sb.lost_pending++;
		goto out;
	}
	/* ordered: not earlier than anything this CPU did before */
	tsc = rdtsc_ordered();
	rec->tsc = tsc;
	if (sb.lost_pending) {
		memset(&lost, 0, sizeof(lost));
		lost.hdr.type = PTSCOPE_SB_LOST;
		lost.hdr.size = sizeof(lost);
		lost.hdr.cpu = rec->cpu;
		lost.hdr.tsc = tsc;
		lost.count = sb.lost_pending;
		ring_put(sb.head, &lost, sizeof(lost));
		sb.head += sizeof(lost);
		sb.lost_pending = 0;
	}
	ring_put(sb.head, rec, len);
	sb.head += len;
out:
	raw_spin_unlock_irqrestore(&sb.lock, flags);
	return tsc;
}

/* Type and CPU of a record written on this CPU; sb_emit() stamps the TSC. */
static void sb_hdr(struct ptscope_sb_hdr *h, u16 type)
{
	h->type = type;
	h->cpu = raw_smp_processor_id();
}

/* The CR3 a task's user code runs with; 0 for kernel threads. */
static u64 task_user_cr3(struct task_struct *t)
{
	struct mm_struct *mm = t->mm;

	return mm ? pts_cr3_user_root(__pa(mm->pgd), pts.kpti) : 0;
}

static void probe_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	struct ptscope_sb_switch r;

	if (!READ_ONCE(sb.live))
		return;
	memset(&r, 0, sizeof(r));
	sb_hdr(&r.hdr, PTSCOPE_SB_SCHED_SWITCH);
	r.prev_pid = prev->tgid;
	r.prev_tid = prev->pid;
	r.next_pid = next->tgid;
	r.next_tid = next->pid;
	r.next_cr3 = task_user_cr3(next);
	memcpy(r.next_comm, next->comm, sizeof(r.next_comm));
	r.next_comm[sizeof(r.next_comm) - 1] = '\0';
	r.prev_state = prev_state;
	sb_emit(&r.hdr, sizeof(r));
}

#define SB_EXEC_MAX	(sizeof(struct ptscope_sb_exec) + PTSCOPE_PATH_LEN)

static void probe_exec(void *data, struct task_struct *p, pid_t old_pid,
		       struct linux_binprm *bprm)
{
	union {
		struct ptscope_sb_exec r;
		u8 bytes[SB_EXEC_MAX];
	} u;
	size_t n;

	if (!READ_ONCE(sb.live))
		return;
	memset(&u, 0, sizeof(u));
	sb_hdr(&u.r.hdr, PTSCOPE_SB_EXEC);
	u.r.pid = p->tgid;
	u.r.tid = p->pid;
	u.r.cr3 = task_user_cr3(p);
	memcpy(u.r.comm, p->comm, sizeof(u.r.comm));
	u.r.comm[sizeof(u.r.comm) - 1] = '\0';
	n = strnlen(bprm->filename, PTSCOPE_PATH_LEN - 1);
	memcpy(u.r.filename, bprm->filename, n);
	sb_emit(&u.r.hdr, ALIGN(sizeof(u.r) + n + 1, 8));
}

static void probe_exit(void *data, struct task_struct *p)
{
	struct ptscope_sb_exit r;

	if (!READ_ONCE(sb.live))
		return;
	memset(&r, 0, sizeof(r));
	sb_hdr(&r.hdr, PTSCOPE_SB_EXIT);
	r.pid = p->tgid;
	r.tid = p->pid;
	sb_emit(&r.hdr, sizeof(r));
}

static void probe_fork(void *data, struct task_struct *parent,
		       struct task_struct *child)
{
	struct ptscope_sb_fork r;

	if (!READ_ONCE(sb.live))
		return;
	memset(&r, 0, sizeof(r));
	sb_hdr(&r.hdr, PTSCOPE_SB_FORK);
	r.parent_pid = parent->tgid;
	r.parent_tid = parent->pid;
	r.child_pid = child->tgid;
	r.child_tid = child->pid;
	sb_emit(&r.hdr, sizeof(r));
}

/**
 * pts_sb_trigger() - write the TRIGGER record.
 * @reason: enum ptscope_trigger_reason.
 * @pid: tgid current at the trigger.
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
	return sb_emit(&r.hdr, sizeof(r));
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
	r.pid = current->tgid;
	r.tid = current->pid;
	r.cr3 = task_user_cr3(current);
	sb_emit(&r.hdr, sizeof(r));
}

struct tp_want {
	const char *name;
	struct tracepoint **slot;
};

static void tp_collect(struct tracepoint *tp, void *priv)
{
	const struct tp_want *w;

	for (w = priv; w->name; w++)
		if (!*w->slot && !strcmp(tp->name, w->name))
			*w->slot = tp;
}

static void unregister_probes(void)
{
	if (tp_switch)
		tracepoint_probe_unregister(tp_switch, probe_switch, NULL);
	if (tp_exec)
		tracepoint_probe_unregister(tp_exec, probe_exec, NULL);
	if (tp_exit)
		tracepoint_probe_unregister(tp_exit, probe_exit, NULL);
	if (tp_fork)
		tracepoint_probe_unregister(tp_fork, probe_fork, NULL);
	tracepoint_synchronize_unregister();
	tp_switch = NULL;
	tp_exec = NULL;
	tp_exit = NULL;
	tp_fork = NULL;
}

/**
 * pts_sideband_setup() - allocate the ring and hook the sched tracepoints.
 * @size: bytes, power of two, 4 KiB .. 64 MiB.
 * Context: process context, may sleep.
 * Return: 0, -ENOMEM, -ENOENT (a sched tracepoint is missing) or the error
 * of tracepoint_probe_register().
 */
int pts_sideband_setup(u64 size)
{
	const struct tp_want want[] = {
		{ "sched_switch", &tp_switch },
		{ "sched_process_exec", &tp_exec },
		{ "sched_process_exit", &tp_exit },
		{ "sched_process_fork", &tp_fork },
		{ NULL, NULL },
	};
	u8 *buf;
	int err;

	/* Charged to the caller's memory cgroup, as the rings are. */
	buf = __vmalloc(size, GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	if (!buf)
		return -ENOMEM;
	raw_spin_lock_irq(&sb.lock);
	sb.buf = buf;
	sb.size = size;
	sb.head = 0;
	sb.tail = 0;
	sb.lost = 0;
	sb.lost_pending = 0;
	raw_spin_unlock_irq(&sb.lock);

	for_each_kernel_tracepoint(tp_collect, (void *)want);
	if (!tp_switch || !tp_exec || !tp_exit || !tp_fork) {
		err = -ENOENT;
		goto fail;
	}
	err = tracepoint_probe_register(tp_switch, probe_switch, NULL);
	if (!err)
		err = tracepoint_probe_register(tp_exec, probe_exec, NULL);
	if (!err)
		err = tracepoint_probe_register(tp_exit, probe_exit, NULL);
	if (!err)
		err = tracepoint_probe_register(tp_fork, probe_fork, NULL);
	if (!err)
		return 0;
fail:
	pts_sideband_teardown();
	return err;
}

/* Context: process context, may sleep. */
void pts_sideband_teardown(void)
{
	u8 *buf;

	WRITE_ONCE(sb.live, false);
	unregister_probes();
	raw_spin_lock_irq(&sb.lock);
	buf = sb.buf;
	sb.buf = NULL;
	sb.head = 0;
	sb.tail = 0;
	raw_spin_unlock_irq(&sb.lock);
	vfree(buf);
}

void pts_sideband_set_live(bool live)
{
	WRITE_ONCE(sb.live, live);
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

/**
 * pts_sideband_read() - move whole records to user space.
 * @ubuf: user buffer.
 * @len: its size in bytes.
 * @lost: records dropped since configure (out, may be NULL).
 * @phys: the reader may see physical addresses; else every CR3 is
 *        replaced by its per-configuration identity.
 *
 * Reading consumes. Records are copied through a bounce buffer: the lock
 * is never held across copy_to_user().
 * Context: process context, pts.lock held; may sleep.
 * Return: bytes copied (0 when empty), -EINVAL when @len is smaller than
 * the next record, -EFAULT, -ENOMEM, -ENODEV when not configured.
 */
ssize_t pts_sideband_read(char __user *ubuf, size_t len, u64 *lost,
			  bool phys)
{
	size_t chunk = min_t(size_t, len, 16 * 1024);
	size_t done = 0;
	u8 *bounce;

	if (!sb.buf)
		return -ENODEV;
	bounce = kmalloc(max_t(size_t, chunk, SB_EXEC_MAX), GFP_KERNEL);
	if (!bounce)
		return -ENOMEM;
	while (done < len) {
		struct ptscope_sb_hdr h;
		size_t n = 0;

		raw_spin_lock_irq(&sb.lock);
		while (sb.head - (sb.tail + n) >= sizeof(h)) {
			ring_get(sb.tail + n, &h, sizeof(h));
			if (!h.size || n + h.size > chunk || done + n + h.size > len)
				break;
			ring_get(sb.tail + n, bounce + n, h.size);
			n += h.size;
		}
		sb.tail += n;
		if (lost)
			*lost = sb.lost;
		raw_spin_unlock_irq(&sb.lock);
		if (!n) {
			/* The next record does not fit into what is left. */
			if (!done && sb.head != sb.tail)
				done = (size_t)-EINVAL;
			break;
		}
		if (!phys)
			sb_hide_phys(bounce, n);
		if (copy_to_user(ubuf + done, bounce, n)) {
			kfree(bounce);
			return done ? done : -EFAULT;
		}
		done += n;
	}
	kfree(bounce);
	return (ssize_t)done;
}

u64 pts_sideband_bytes(void)
{
	u64 n;

	raw_spin_lock_irq(&sb.lock);
	n = sb.head - sb.tail;
	raw_spin_unlock_irq(&sb.lock);
	return n;
}

u64 pts_sideband_lost(void)
{
	u64 n;

	raw_spin_lock_irq(&sb.lock);
	n = sb.lost;
	raw_spin_unlock_irq(&sb.lock);
	return n;
}
