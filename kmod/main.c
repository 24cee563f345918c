// SPDX-License-Identifier: GPL-2.0
/*
 * ptscope.ko: Intel Processor Trace capture by direct RTIT MSR
 * programming. This file: the misc device /dev/ptscope, its file
 * operations, ioctl dispatch with the extensible-struct rules of
 * include/uapi/ptscope.h, and module load/unload. docs/abi.md describes
 * the ABI.
 */
#include <linux/fs.h>
#include <linux/kexec.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/tsc.h>

#include "ptscope_internal.h"

struct pts_dev pts;
const char *pts_log_tag = "ptscope";

static bool simulate;
module_param(simulate, bool, 0444);
MODULE_PARM_DESC(simulate, "use the simulated PT unit instead of the hardware (never the default)");

/* ---- extensible argument structs ---------------------------------------- */

/*
 * Largest argument accepted, as openat2() and clone3() bound theirs: a
 * newer caller's struct may grow, but not past a page.
 */
#define PTS_IOC_SIZE_MAX	PAGE_SIZE

/*
 * Copy in an ioctl argument whose first member is struct ptscope_hdr.
 * @k, @ksize: the module's struct; @ksize_ver1: its size in ABI 1, the
 * smallest a caller may pass (an older, smaller struct is zero-extended
 * by copy_struct_from_user(): struct ptscope_config grew its uprobe part,
 * the others have their ABI 1 size).
 * Refused: sizes below @ksize_ver1 (EINVAL, BAD_SIZE), above a page
 * (E2BIG, BAD_SIZE), non-zero bytes past @ksize (EINVAL,
 * RESERVED_NONZERO).
 * Context: process context, may fault.
 */
static int ioc_in_sized(void *k, size_t ksize, size_t ksize_ver1,
			void __user *u, u32 *usize, struct pts_refusal *why)
{
	struct ptscope_hdr *hdr = k;
	u32 size;
	int err;

	*usize = 0;
	if (get_user(size, (u32 __user *)u))
		return -EFAULT;
	*usize = size;
	if (size < ksize_ver1 || size > PTS_IOC_SIZE_MAX) {
		why->reason = PTSCOPE_R_BAD_SIZE;
		why->arg = size;
		return size < ksize_ver1 ? -EINVAL : -E2BIG;
	}
	err = copy_struct_from_user(k, ksize, u, size);
	if (err == -E2BIG) {
		/* the offset where the bytes this module does not know begin */
		why->reason = PTSCOPE_R_RESERVED_NONZERO;
		why->arg = ksize;
		return -EINVAL;
	}
	if (err)
		return err;
	if (hdr->reason || hdr->reason_arg) {
		why->reason = PTSCOPE_R_RESERVED_NONZERO;
		why->arg = hdr->reason ? offsetof(struct ptscope_hdr, reason) :
					 offsetof(struct ptscope_hdr, reason_arg);
		return -EINVAL;
	}
	return 0;
}

/* Every other struct of ABI 1 is still its first published size. */
static int ioc_in(void *k, size_t ksize, void __user *u, u32 *usize,
		  struct pts_refusal *why)
{
	return ioc_in_sized(k, ksize, ksize, u, usize, why);
}

static long ioc_out(void __user *u, const void *k, size_t ksize)
{
	return copy_to_user(u, k, ksize) ? -EFAULT : 0;
}

/* Every refusal copies the header back (when the caller has room for it). */
static long ioc_refuse(void __user *u, u32 usize, int err,
		       const struct pts_refusal *why)
{
	struct ptscope_hdr hdr = {
		.size = usize,
		.reason = why->reason,
		.reason_arg = why->arg,
	};

	if (err == -EFAULT || usize < sizeof(hdr))
		return err;
	if (copy_to_user(u, &hdr, sizeof(hdr)))
		return -EFAULT;
	return err;
}

/*
 * A reserved field: zero on input (docs/abi.md), so that a later ABI may
 * give it a meaning without an older caller's leftovers being read as
 * one; also in the structs the module only fills.
 * @k: the struct as copied in; @off, @len: the field; @array: name the
 * first non-zero byte (a reserved array) rather than the field's start.
 * Return: true when all zero; else false with RESERVED_NONZERO and that
 * offset in @why.
 */
static bool reserved_zero(const void *k, size_t off, size_t len, bool array,
			  struct pts_refusal *why)
{
	const u8 *nz = memchr_inv((const u8 *)k + off, 0, len);

	if (!nz)
		return true;
	why->reason = PTSCOPE_R_RESERVED_NONZERO;
	why->arg = array ? (u64)(nz - (const u8 *)k) : off;
	return false;
}

static bool cmd_ok(const struct ptscope_cmd *c, struct pts_refusal *why)
{
	if (c->flags) {
		why->reason = PTSCOPE_R_BAD_FLAGS;
		why->arg = c->flags;
		return false;
	}
	/* the field's offset (docs/abi.md, "reason_arg") */
	return reserved_zero(c, offsetof(struct ptscope_cmd, reserved0),
			     sizeof(c->reserved0), false, why) &&
	       reserved_zero(c, offsetof(struct ptscope_cmd, reserved),
			     sizeof(c->reserved), true, why);
}

/* ---- commands ------------------------------------------------------------ */

static long do_get_caps(void __user *u)
{
	struct pts_refusal why = {};
	struct ptscope_caps *c;
	unsigned int cpu;
	u32 usize;
	long err;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	err = ioc_in(c, sizeof(*c), u, &usize, &why);
	if (!err && !reserved_zero(c, offsetof(struct ptscope_caps, reserved),
				   sizeof(c->reserved), true, &why))
		err = -EINVAL;
	if (err) {
		kfree(c);
		return ioc_refuse(u, usize, err, &why);
	}
	*c = pts.caps;
	c->hdr.size = sizeof(*c);
	c->tsc_khz = tsc_khz;
	memset(c->online_mask, 0, sizeof(c->online_mask));
	for_each_online_cpu(cpu)
		if (cpu < PTSCOPE_MAX_CPUS)
			c->online_mask[cpu / 64] |= 1ULL << (cpu % 64);
	err = ioc_out(u, c, sizeof(*c));
	kfree(c);
	return err;
}

/* Context: process context, may sleep. */
static long do_configure(void __user *u)
{
	struct pts_refusal why = {};
	struct ptscope_config *cfg;
	u32 usize;
	long err;

	/* The uprobe part came after ABI 1 was published: zero when absent. */
	BUILD_BUG_ON(offsetof(struct ptscope_config, uprobe) !=
		     PTSCOPE_CONFIG_SIZE_VER0);
	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	err = ioc_in_sized(cfg, sizeof(*cfg), PTSCOPE_CONFIG_SIZE_VER0, u,
			   &usize, &why);
	if (!err) {
		mutex_lock(&pts.lock);
		err = pts_configure(cfg, &why);
		mutex_unlock(&pts.lock);
	}
	kfree(cfg);
	return err ? ioc_refuse(u, usize, err, &why) : 0;
}

/* Context: process context, pts.lock held. */
static int unconfigure_locked(struct pts_refusal *why)
{
	int err = pts_perm_operate(pts.bufs, why);

	if (!err)
		pts_unconfigure();
	return err;
}

/*
 * START: a new generation of the state word. The rings are zeroed here,
 * outside the hotplug lock that pts_arm() takes.
 * Context: process context, pts.lock held.
 */
static int start_locked(struct pts_refusal *why)
{
	u32 word = atomic_read(&pts.state);
	u32 state = pts_run_state(word);
	int err;

	if (!pts.configured) {
		why->reason = PTSCOPE_R_NOT_CONFIGURED;
		return -EINVAL;
	}
	/*
	 * After the reboot notifier: a CPU armed now would trace on through
	 * kexec into the next kernel's memory, or into the reset.
	 */
	if (pts.shutting_down) {
		why->reason = PTSCOPE_R_SHUTTING_DOWN;
		return -EBUSY;
	}
	/*
	 * Between the PM notifier's PREPARE and POST: user space runs on until
	 * the freezer stops it (and again from the thaw to POST), and a CPU
	 * armed then would trace through the suspend, or, before a hibernation
	 * image is restored, into pages the image is copied over.
	 */
	if (pts.pm_transition) {
		why->reason = PTSCOPE_R_SUSPENDING;
		return -EBUSY;
	}
	if (state == PTSCOPE_STATE_ARMED || state == PTSCOPE_STATE_POST_TRIGGER) {
		why->reason = PTSCOPE_R_ARMED;
		return -EBUSY;
	}
	if (pts_target_exited()) {
		why->reason = PTSCOPE_R_TARGET_EXITED;
		why->arg = (u64)(s64)pts.cfg.cr3_pid;
		return -ESRCH;
	}
	/* A previous trigger's stop IPIs must be done before re-arming. */
	pts_trigger_quiesce();
	pts_bufset_zero(pts.bufs, pts.selected);
	err = pts_arm(why);
	if (err)
		return err;
	WRITE_ONCE(pts.sources_live, !pts.nr_snapshots ||
		   (pts.cfg.trigger.flags & PTSCOPE_TRIGF_MULTI));
	pts.trigger_reason = PTSCOPE_TRIGGER_NONE;
	/*
	 * With a crash kernel loaded, __crash_kexec() runs before the panic
	 * notifiers and, without the crash-kexec probe (crash.c), the
	 * crashing CPU traces on into the crash kernel. Said in GET_STATE
	 * for the caller to warn its user, once per START, rather than in
	 * the kernel log at every arm.
	 */
	if (kexec_crash_loaded() && !pts.crash_stop)
		pts.statef |= PTSCOPE_STATEF_CRASH_KERNEL;
	else
		pts.statef &= ~PTSCOPE_STATEF_CRASH_KERNEL;
	/* Only START writes ARMED; triggers need ARMED: no other writer. */
	atomic_set_release(&pts.state,
			   pts_state_with_run(word + PTS_STATE_GEN_ONE,
					      PTSCOPE_STATE_ARMED));
	return 0;
}

/* Context: process context, pts.lock held. */
static int stop_locked(struct pts_refusal *why)
{
	if (!pts_state_end()) {
		why->reason = PTSCOPE_R_NOT_ARMED;
		return -EINVAL;
	}
	/* A trigger's later steps now see another word and do nothing. */
	pts_trigger_quiesce();
	pts_stop_all();
	pts_sideband_set_live(false);
	wake_up_interruptible_all(&pts.wq);
	return 0;
}

/* Context: process context, may sleep. */
static long do_cmd(void __user *u, unsigned int nr)
{
	struct pts_refusal why = {};
	struct ptscope_cmd c;
	u32 usize;
	long err;

	err = ioc_in(&c, sizeof(c), u, &usize, &why);
	if (!err && !cmd_ok(&c, &why))
		err = -EINVAL;
	if (err)
		return ioc_refuse(u, usize, err, &why);

	mutex_lock(&pts.lock);
	err = pts_perm_operate(pts.bufs, &why);
	if (err)
		goto out;
	switch (nr) {
	case _IOC_NR(PTSCOPE_IOC_TRIGGER):
		if (pts_run_state(atomic_read(&pts.state)) != PTSCOPE_STATE_ARMED) {
			why.reason = PTSCOPE_R_NOT_ARMED;
			err = -EINVAL;
			break;
		}
		pts_trigger_fire(PTSCOPE_TRIGGER_IOCTL);
		break;
	case _IOC_NR(PTSCOPE_IOC_START):
		err = start_locked(&why);
		break;
	case _IOC_NR(PTSCOPE_IOC_STOP):
		err = stop_locked(&why);
		break;
	default:
		err = unconfigure_locked(&why);
		break;
	}
out:
	mutex_unlock(&pts.lock);
	return err ? ioc_refuse(u, usize, err, &why) : 0;
}

/*
 * Everything of GET_STATE but the state word, the flags and the clock
 * rate: only for those who may use the capture. Context: pts.lock held.
 */
static void fill_state_details(struct ptscope_state *s, bool phys)
{
	unsigned int cpu, i;

	s->trigger_reason = pts.trigger_reason;
	s->trigger_cpu = pts.trigger_cpu;
	s->trigger_pid = pts.trigger_pid;
	s->trigger_tid = pts.trigger_tid;
	s->trigger_tsc = pts.trigger_tsc;
	s->nr_snapshots = pts.nr_snapshots;
	s->rtit_ctl = pts.plan.rtit_ctl;
	if (!pts.cr3_filter)
		s->rtit_ctl &= ~RTIT_CTL_CR3FILTER;
	s->cr3_match = phys ? pts.cr3_match : pts_cr3_identity(pts.cr3_match);
	for (i = 0; i < pts.cfg.nr_addr_ranges && i < PTSCOPE_MAX_ADDR_RANGES; i++) {
		s->addr_a[i] = pts.plan.addr_a[i];
		s->addr_b[i] = pts.plan.addr_b[i];
	}
	s->time_at_start = pts.time_at_start;
	s->time_at_stop = pts.time_at_stop;
	s->sideband_lost = pts_sideband_lost();
	s->sideband_bytes = pts_sideband_bytes();
	for_each_possible_cpu(cpu)
		if (cpu < PTSCOPE_MAX_CPUS &&
		    READ_ONCE(per_cpu_ptr(&pts_cpus, cpu)->enabled))
			s->armed_cpu_mask[cpu / 64] |= 1ULL << (cpu % 64);
}

/*
 * GET_STATE never refuses an opener: whoever may not use the capture
 * still learns whether the module is busy (state, flags, tsc_khz).
 * Context: process context, may sleep.
 */
static long do_get_state(struct file *file, void __user *u)
{
	struct pts_refusal why = {};
	struct ptscope_state *s;
	bool phys = pts_perm_phys(file);
	u32 usize;
	long err;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	err = ioc_in(s, sizeof(*s), u, &usize, &why);
	if (!err && !reserved_zero(s, offsetof(struct ptscope_state, reserved),
				   sizeof(s->reserved), true, &why))
		err = -EINVAL;
	if (err) {
		kfree(s);
		return ioc_refuse(u, usize, err, &why);
	}
	memset(s, 0, sizeof(*s));
	s->hdr.size = sizeof(*s);
	mutex_lock(&pts.lock);
	/* Acquire: a TRIGGERED state comes with its trigger's fields. */
	s->state = pts_run_state(atomic_read_acquire(&pts.state));
	s->tsc_khz = tsc_khz;
	s->flags = pts.statef |
		   (pts.ops->simulated ? PTSCOPE_STATEF_SIMULATED : 0) |
		   (pts_target_exited() ? PTSCOPE_STATEF_TARGET_EXITED : 0);
	if (!pts_perm_operate(pts.bufs, &why)) {
		fill_state_details(s, phys);
		if (!phys)
			s->flags |= PTSCOPE_STATEF_CR3_IDENTITY;
	}
	mutex_unlock(&pts.lock);
	err = ioc_out(u, s, sizeof(*s));
	kfree(s);
	return err;
}

/* Context: process context, may sleep. */
static long do_get_cpu_status(struct file *file, void __user *u)
{
	struct pts_refusal why = {};
	struct ptscope_cpu_status st;
	u32 usize, cpu;
	long err;

	err = ioc_in(&st, sizeof(st), u, &usize, &why);
	if (!err &&
	    (!reserved_zero(&st, offsetof(struct ptscope_cpu_status, reserved0),
			    sizeof(st.reserved0), false, &why) ||
	     !reserved_zero(&st, offsetof(struct ptscope_cpu_status, reserved),
			    sizeof(st.reserved), true, &why)))
		err = -EINVAL;
	if (err)
		return ioc_refuse(u, usize, err, &why);
	cpu = st.cpu;
	if (cpu >= nr_cpu_ids || !cpu_possible(cpu)) {
		why.reason = PTSCOPE_R_BAD_CPU;
		why.arg = cpu;
		return ioc_refuse(u, usize, -EINVAL, &why);
	}
	memset(&st, 0, sizeof(st));
	st.hdr.size = sizeof(st);
	st.cpu = cpu;
	mutex_lock(&pts.lock);
	err = pts_perm_operate(pts.bufs, &why);
	if (!err)
		pts_cpu_fill_status(cpu, &st);
	mutex_unlock(&pts.lock);
	if (err)
		return ioc_refuse(u, usize, err, &why);
	/* A physical address, as a PFN in /proc/PID/pagemap: admins only. */
	if (!pts_perm_phys(file))
		st.output_base = 0;
	return ioc_out(u, &st, sizeof(st));
}

/*
 * GET_TRIGGER: what the triggers are registered on, for `ptscope status`.
 * Context: process context, may sleep.
 */
static long do_get_trigger(void __user *u)
{
	struct pts_refusal why = {};
	struct ptscope_trigger_info *ti;
	u32 usize;
	long err;

	ti = kzalloc(sizeof(*ti), GFP_KERNEL);
	if (!ti)
		return -ENOMEM;
	err = ioc_in(ti, sizeof(*ti), u, &usize, &why);
	if (!err && (ti->kinds || ti->flags || ti->uprobe_hits)) {
		why.reason = PTSCOPE_R_RESERVED_NONZERO;
		why.arg = ti->kinds ? offsetof(struct ptscope_trigger_info, kinds) :
			  ti->flags ? offsetof(struct ptscope_trigger_info, flags) :
			  offsetof(struct ptscope_trigger_info, uprobe_hits);
		err = -EINVAL;
	}
	if (!err &&
	    (!reserved_zero(ti, offsetof(struct ptscope_trigger_info, reserved0),
			    sizeof(ti->reserved0), false, &why) ||
	     !reserved_zero(ti, offsetof(struct ptscope_trigger_info, reserved),
			    sizeof(ti->reserved), true, &why)))
		err = -EINVAL;
	if (!err) {
		memset(ti, 0, sizeof(*ti));
		ti->hdr.size = sizeof(*ti);
		mutex_lock(&pts.lock);
		err = pts_perm_operate(pts.bufs, &why);
		if (!err)
			pts_trigger_describe(ti);
		mutex_unlock(&pts.lock);
	}
	if (!err)
		err = ioc_out(u, ti, sizeof(*ti));
	else
		err = ioc_refuse(u, usize, err, &why);
	kfree(ti);
	return err;
}

/*
 * The sideband through read() or READ_SIDEBAND: the capture's owner or a
 * perfmon_capable() caller only. The copy to user space runs without
 * pts.lock (pts_sideband_read() takes it per chunk and stops if the
 * capture checked here is replaced meanwhile; the reference held keeps
 * another set of buffers from reusing its address).
 * Context: process context, may sleep.
 */
static ssize_t sideband_read_checked(struct file *file, char __user *buf,
				     size_t len, u64 *lost,
				     struct pts_refusal *why)
{
	struct pts_bufset *b;
	ssize_t n;

	mutex_lock(&pts.lock);
	b = pts.bufs;
	n = pts_perm_operate(b, why);
	if (b)
		pts_bufset_get(b);
	mutex_unlock(&pts.lock);
	if (!n)
		n = pts_sideband_read(buf, len, lost, pts_perm_phys(file), b);
	pts_bufset_put(b);
	return n;
}

static long do_read_sideband(struct file *file, void __user *u)
{
	struct pts_refusal why = {};
	struct ptscope_sideband_read r;
	u32 usize;
	ssize_t n;
	long err;

	err = ioc_in(&r, sizeof(r), u, &usize, &why);
	if (!err && (r.bytes_read || r.lost || r.reserved[0] || r.reserved[1])) {
		why.reason = PTSCOPE_R_RESERVED_NONZERO;
		why.arg = r.bytes_read ? offsetof(struct ptscope_sideband_read, bytes_read) :
			  r.lost ? offsetof(struct ptscope_sideband_read, lost) :
			  r.reserved[0] ? offsetof(struct ptscope_sideband_read, reserved[0]) :
			  offsetof(struct ptscope_sideband_read, reserved[1]);
		err = -EINVAL;
	}
	if (err)
		return ioc_refuse(u, usize, err, &why);
	n = sideband_read_checked(file, u64_to_user_ptr(r.buf), r.buf_len,
				  &r.lost, &why);
	if (n < 0) {
		if (!why.reason) {
			why.reason = n == -ENODEV ? PTSCOPE_R_NOT_CONFIGURED :
				     PTSCOPE_R_BAD_BUFFER;
			why.arg = r.buf_len;
		}
		return ioc_refuse(u, usize, (int)n, &why);
	}
	r.bytes_read = (u32)n;
	r.hdr.size = sizeof(r);
	return ioc_out(u, &r, sizeof(r));
}

/* Context: process context, may sleep. */
static long pts_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *u = (void __user *)arg;
	unsigned int nr = _IOC_NR(cmd);

	/* The size in the command number is ignored: hdr.size rules. */
	if (_IOC_TYPE(cmd) != PTSCOPE_IOC_MAGIC)
		return -ENOTTY;
	switch (nr) {
	case _IOC_NR(PTSCOPE_IOC_GET_CAPS):
		return do_get_caps(u);
	case _IOC_NR(PTSCOPE_IOC_CONFIGURE):
		return do_configure(u);
	case _IOC_NR(PTSCOPE_IOC_START):
	case _IOC_NR(PTSCOPE_IOC_STOP):
	case _IOC_NR(PTSCOPE_IOC_TRIGGER):
	case _IOC_NR(PTSCOPE_IOC_UNCONFIGURE):
		return do_cmd(u, nr);
	case _IOC_NR(PTSCOPE_IOC_GET_STATE):
		return do_get_state(file, u);
	case _IOC_NR(PTSCOPE_IOC_GET_CPU_STATUS):
		return do_get_cpu_status(file, u);
	case _IOC_NR(PTSCOPE_IOC_READ_SIDEBAND):
		return do_read_sideband(file, u);
	case _IOC_NR(PTSCOPE_IOC_GET_TRIGGER):
		return do_get_trigger(u);
	default:
		return -ENOTTY;
	}
}

/* Context: process context, may sleep. */
static ssize_t pts_read(struct file *file, char __user *buf, size_t len,
			loff_t *ppos)
{
	struct pts_refusal why = {};

	return sideband_read_checked(file, buf, len, NULL, &why);
}

/*
 * Readable (EPOLLIN | EPOLLPRI) once a snapshot is complete, as GET_STATE
 * tells every opener; EPOLLRDBAND while a CPU's sideband ring is at least
 * half full, for those who may read it only (pts_perm_may_watch()).
 * Context: process context, may sleep.
 */
static __poll_t pts_poll(struct file *file, poll_table *wait)
{
	__poll_t ev = 0;
	u32 state;

	poll_wait(file, &pts.wq, wait);
	state = pts_run_state(atomic_read(&pts.state));
	if (state == PTSCOPE_STATE_TRIGGERED || state == PTSCOPE_STATE_STOPPED)
		ev |= EPOLLIN | EPOLLRDNORM | EPOLLPRI;
	if (pts_sideband_ready() && pts_perm_may_watch())
		ev |= EPOLLRDBAND;
	return ev;
}

static int pts_open(struct inode *inode, struct file *file)
{
	int err = pts_perm_open(file);

	if (err)
		return err;
	return nonseekable_open(inode, file);
}

static const struct file_operations pts_fops = {
	.owner = THIS_MODULE,
	.open = pts_open,
	.read = pts_read,
	.poll = pts_poll,
	.mmap = pts_mmap,
	.unlocked_ioctl = pts_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice pts_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = PTSCOPE_DEVICE_NAME,
	.fops = &pts_fops,
	.mode = 0600,
};

static int pts_select_unit(void)
{
	if (!simulate) {
		pts.ops = &pt_hw_ops;
		return 0;
	}
#ifdef PTSCOPE_HAVE_SIM
	pts.ops = &pt_sim_ops;
	pts_log_tag = "ptscope (simulated)";
	return 0;
#else
	pr_err("ptscope: simulate=1 but this build has no simulated PT unit (kmod/sim_*.c absent)\n");
	return -ENODEV;
#endif
}

static int __init pts_init(void)
{
	int err;

	mutex_init(&pts.lock);
	spin_lock_init(&pts.bufs_lock);
	init_waitqueue_head(&pts.wq);
	pts_sideband_init();
	atomic_set(&pts.state, PTSCOPE_STATE_IDLE);
	err = pts_select_unit();
	if (err)
		return err;
	if (!zalloc_cpumask_var(&pts.selected, GFP_KERNEL))
		return -ENOMEM;
	pts_cpu_init_all();
	pts_trigger_init();
	if (pts.ops->init) {
		err = pts.ops->init();
		if (err) {
			pts_err("PT unit init failed: %d\n", err);
			goto err_mask;
		}
	}
	err = pts_caps_probe(pts.ops);
	if (err)
		goto err_unit;
	pts.statef = pts.ops->simulated ? PTSCOPE_STATEF_SIMULATED : 0;
	err = pts_lifecycle_init();
	if (err) {
		pts_err("cannot register hotplug/PM callbacks: %d\n", err);
		goto err_unit;
	}
	pts.crash_stop = pts_crash_init();
	if (pts.crash_stop)
		pts.caps.flags |= PTSCOPE_CAPS_CRASH_STOP;
	if (pts_param_group >= 0)
		pts_misc.mode = 0660;
	err = misc_register(&pts_misc);
	if (err) {
		pts_err("cannot register /dev/%s: %d\n", PTSCOPE_DEVICE_NAME, err);
		goto err_life;
	}
	pts_info("ready: /dev/%s, %s PT unit, ABI %d\n", PTSCOPE_DEVICE_NAME,
		 pts.ops->name, PTSCOPE_ABI_VERSION);
	return 0;

err_life:
	if (pts.crash_stop)
		pts_crash_exit();
	pts_lifecycle_exit();
err_unit:
	if (pts.ops->exit)
		pts.ops->exit();
err_mask:
	free_cpumask_var(pts.selected);
	return err;
}

static void __exit pts_exit(void)
{
	misc_deregister(&pts_misc);
	mutex_lock(&pts.lock);
	pts_unconfigure();
	mutex_unlock(&pts.lock);
	pts_trigger_quiesce();
	if (pts.crash_stop)
		pts_crash_exit();
	pts_lifecycle_exit();
	if (pts.ops->exit)
		pts.ops->exit();
	free_cpumask_var(pts.selected);
	pts_info("unloaded\n");
}

module_init(pts_init);
module_exit(pts_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Intel Processor Trace capture with ToPA rings, triggers and sideband");
