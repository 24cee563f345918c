// SPDX-License-Identifier: GPL-2.0
/*
 * The user-function trigger (PTSCOPE_TRIG_UPROBE): a uprobe, through the
 * kernel's uprobe API, on one instruction of a file given by the caller's
 * file descriptor and a file offset.
 *
 * A uprobe belongs to the file's inode, not to a process: the kernel puts
 * its breakpoint into every address space that maps that part of the file
 * (now and at every later mmap), so the trigger fires in every thread of
 * every such process, including threads created after CONFIGURE. With a
 * pid the consumer's filter lets the kernel install the breakpoint only in
 * that process's address space, and the handler checks it again (another
 * consumer of the same uprobe may have installed it elsewhere).
 *
 * The handler runs in the task that hit the breakpoint, in process
 * context, on the way back to user space from the int3 trap (before the
 * probed instruction is executed out of line); it takes the trigger path
 * of every other trigger (pts_trigger_fire(): PT stopped on this CPU at
 * once when there is no post-trigger delay, the other CPUs by IPI).
 *
 * Locking: every field of @utrig is written under pts.lock at CONFIGURE,
 * before the uprobe is registered, and at UNCONFIGURE after it has been
 * unregistered, which waits for running handlers and filters (compat.h):
 * while registered they are constant, and the handler and the filter read
 * them without a lock. @utrig.hits is atomic.
 */
#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/mm_types.h>
#include <linux/path.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/string.h>

#include "compat.h"
#include "ptscope_internal.h"

static struct {
	bool registered;
	struct path path;		/* keeps the probed inode alive */
	struct pts_uprobe_reg reg;	/* what unregistering needs */
	u64 offset;			/* file offset of the probed instruction */
	s32 pid;			/* as configured; 0 any process */
	/* the process of @pid, mmgrab()ed so the pointer is never reused; NULL any */
	struct mm_struct *mm;
	atomic64_t hits;		/* handler runs while the triggers were live */
} utrig;

/* Should the kernel put the breakpoint into @mm? Context: may sleep. */
static bool up_filter(PTS_UPROBE_FILTER_ARGS)
{
	return !utrig.mm || mm == utrig.mm;
}

/*
 * The breakpoint was hit. Context: process context of the task that hit
 * it, returning to user space from the trap; IRQs on.
 */
static int up_handler(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	if (!READ_ONCE(pts.sources_live))
		return 0;
	if (utrig.mm && current->mm != utrig.mm)
		return 0;
	atomic64_inc(&utrig.hits);
	pts_trigger_fire(PTSCOPE_TRIGGER_UPROBE);
	return 0;	/* keep the breakpoint (multi-snapshot re-arms) */
}

static struct uprobe_consumer up_consumer = {
	.handler = up_handler,
	.filter = up_filter,
};

/* The mm of process @nr of the caller's pid namespace, mmgrab()ed. */
static struct mm_struct *pid_mm(s32 nr)
{
	struct pid *pid = find_get_pid(nr);
	struct task_struct *task = get_pid_task(pid, PIDTYPE_TGID);
	struct mm_struct *mm = task ? get_task_mm(task) : NULL;

	put_pid(pid);
	if (task)
		put_task_struct(task);
	if (!mm)
		return NULL;
	mmgrab(mm);
	mmput(mm);
	return mm;
}

/**
 * pts_uprobe_prepare() - check the user-function trigger's file, offset
 * and process, and take references on them, registering nothing.
 * @spec: the configuration's uprobe part (structure already checked).
 * @prep: out: the file's path and the process's mm, referenced; emptied
 *        on failure.
 * @why: reason code and value on refusal.
 *
 * The file must be a regular file the caller opened for reading (an
 * O_PATH descriptor is refused: it grants no right to read the file);
 * the offset must lie inside it. Called before the previous
 * configuration is released, so that a refusal leaves it as it was.
 * Context: process context, pts.lock held; may sleep.
 * Return: 0; -EBADF (UPROBE_FILE: no such fd); -EINVAL (UPROBE_FILE: not
 * a regular file open for reading; UPROBE_OFFSET: past the end);
 * -ESRCH (NO_SUCH_PID).
 */
int pts_uprobe_prepare(const struct ptscope_uprobe_spec *spec,
		       struct pts_uprobe_prep *prep, struct pts_refusal *why)
{
	/* fget_raw(): an O_PATH fd is found, and refused below as unreadable. */
	struct file *f = fget_raw(spec->fd);
	int err = 0;

	memset(prep, 0, sizeof(*prep));
	if (!f || !(f->f_mode & FMODE_READ) ||
	    !S_ISREG(file_inode(f)->i_mode)) {
		why->reason = PTSCOPE_R_UPROBE_FILE;
		why->arg = (u64)(s64)spec->fd;
		err = f ? -EINVAL : -EBADF;
		goto out_file;
	}
	if (spec->offset >= (u64)i_size_read(file_inode(f))) {
		why->reason = PTSCOPE_R_UPROBE_OFFSET;
		why->arg = spec->offset;
		err = -EINVAL;
		goto out_file;
	}
	if (spec->pid) {
		prep->mm = pid_mm(spec->pid);
		if (!prep->mm) {
			why->reason = PTSCOPE_R_NO_SUCH_PID;
			why->arg = (u64)(s64)spec->pid;
			err = -ESRCH;
			goto out_file;
		}
	}
	prep->path = f->f_path;
	path_get(&prep->path);
	prep->offset = spec->offset;
	prep->pid = spec->pid;
out_file:
	if (f)
		fput(f);
	return err;
}

/**
 * pts_uprobe_prep_drop() - release what pts_uprobe_prepare() took
 * (nothing once committed).
 * @prep: emptied.
 * Context: process context, pts.lock held; may sleep.
 */
void pts_uprobe_prep_drop(struct pts_uprobe_prep *prep)
{
	if (prep->path.dentry)
		path_put(&prep->path);
	if (prep->mm)
		mmdrop(prep->mm);
	memset(prep, 0, sizeof(*prep));
}

/**
 * pts_uprobe_commit() - register the prepared user-function trigger.
 * @prep: from pts_uprobe_prepare(); the trigger's from here on, also on
 *        failure (emptied).
 * @why: reason code and value on refusal.
 *
 * The kernel decides whether the instruction at the offset can be probed
 * when it installs the breakpoint in an address space that maps it: at
 * registration for the processes mapping it now (a refusal fails
 * CONFIGURE here), at mmap for later ones.
 * Context: process context, pts.lock held, no uprobe registered; may
 * sleep.
 * Return: 0; -ENOMEM or -EINVAL (UPROBE_REFUSED, reason_arg = the
 * kernel's errno, positive). On failure nothing stays registered or held.
 */
int pts_uprobe_commit(struct pts_uprobe_prep *prep, struct pts_refusal *why)
{
	int err;

	utrig.path = prep->path;
	utrig.offset = prep->offset;
	utrig.pid = prep->pid;
	utrig.mm = prep->mm;
	memset(prep, 0, sizeof(*prep));
	atomic64_set(&utrig.hits, 0);
	/* d_real_inode(): the inode that is mapped, also on overlayfs. */
	err = pts_uprobe_register(&utrig.reg, d_real_inode(utrig.path.dentry),
				  utrig.offset, &up_consumer);
	if (err) {
		why->reason = PTSCOPE_R_UPROBE_REFUSED;
		why->arg = -err;
		path_put(&utrig.path);
		if (utrig.mm)
			mmdrop(utrig.mm);
		memset(&utrig.path, 0, sizeof(utrig.path));
		utrig.mm = NULL;
		utrig.pid = 0;
		utrig.offset = 0;
		return err == -ENOMEM ? -ENOMEM : -EINVAL;
	}
	utrig.registered = true;
	return 0;
}

/**
 * pts_uprobe_teardown() - unregister the trigger, wait for its handlers.
 * Context: process context, pts.lock held; may sleep.
 */
void pts_uprobe_teardown(void)
{
	if (!utrig.registered)
		return;
	pts_uprobe_unregister(&utrig.reg, &up_consumer);
	utrig.registered = false;
	path_put(&utrig.path);
	memset(&utrig.path, 0, sizeof(utrig.path));
	if (utrig.mm)
		mmdrop(utrig.mm);
	utrig.mm = NULL;
	utrig.pid = 0;
	utrig.offset = 0;
}

/**
 * pts_uprobe_describe() - the registered uprobe, for GET_TRIGGER.
 * @ti: filled: uprobe_pid, _offset, _hits, _ino, _dev, _path (d_path(),
 * "" when it does not fit).
 * Context: process context, pts.lock held.
 * Return: true when a uprobe is registered.
 */
bool pts_uprobe_describe(struct ptscope_trigger_info *ti)
{
	struct inode *inode;
	char *p;

	if (!utrig.registered)
		return false;
	inode = d_inode(utrig.path.dentry);
	ti->uprobe_pid = utrig.pid;
	ti->uprobe_offset = utrig.offset;
	ti->uprobe_hits = atomic64_read(&utrig.hits);
	ti->uprobe_ino = inode->i_ino;
	ti->uprobe_dev = new_encode_dev(inode->i_sb->s_dev);
	p = d_path(&utrig.path, ti->uprobe_path, sizeof(ti->uprobe_path));
	if (IS_ERR(p))
		ti->uprobe_path[0] = '\0';
	else
		memmove(ti->uprobe_path, p, strlen(p) + 1);
	return true;
}
