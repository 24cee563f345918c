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
 * Two slots, each with its own consumer: the current capture's trigger,
 * and a new capture's, which CONFIGURE registers before it releases the
 * current capture (the kernel's refusal of the instruction then leaves
 * the current one as it was), so both may be registered at once, on the
 * same instruction too. A handler of a capture that is not armed does
 * nothing but count (pts_trigger_fire() claims only an ARMED capture).
 *
 * Locking: a slot's fields are written under pts.lock before its uprobe
 * is registered, and after it has been unregistered, which waits for
 * running handlers and filters (compat.h): while registered they are
 * constant, and the handler and the filter read them without a lock.
 * @hits is atomic. up_cur changes under pts.lock only.
 */
#include <linux/container_of.h>
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

/* One user-function trigger: its consumer, registration and filter. */
struct pts_up_slot {
	struct uprobe_consumer uc;	/* handler and filter; constant */
	bool registered;
	struct path path;		/* keeps the probed inode alive */
	struct pts_uprobe_reg reg;	/* what unregistering needs */
	u64 offset;			/* file offset of the probed instruction */
	s32 pid;			/* as configured; 0 any process */
	/* the process of @pid, mmgrab()ed so the pointer is never reused; NULL any */
	struct mm_struct *mm;
	atomic64_t hits;		/* handler runs while the triggers were live */
};

/* Should the kernel put the breakpoint into @mm? Context: may sleep. */
static bool up_filter(PTS_UPROBE_FILTER_ARGS)
{
	const struct pts_up_slot *s = container_of(uc, struct pts_up_slot, uc);

	return !s->mm || mm == s->mm;
}

/*
 * The breakpoint was hit. Context: process context of the task that hit
 * it, returning to user space from the trap; IRQs on.
 */
static int up_handler(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct pts_up_slot *s = container_of(uc, struct pts_up_slot, uc);

	if (!READ_ONCE(pts.sources_live))
		return 0;
	if (s->mm && current->mm != s->mm)
		return 0;
	atomic64_inc(&s->hits);
	pts_trigger_fire(PTSCOPE_TRIGGER_UPROBE);
	return 0;	/* keep the breakpoint (multi-snapshot re-arms) */
}

#define UP_SLOT_INIT { .uc = { .handler = up_handler, .filter = up_filter } }
static struct pts_up_slot up_slots[2] = { UP_SLOT_INIT, UP_SLOT_INIT };
static struct pts_up_slot *up_cur;	/* [pts.lock] the capture's; NULL none */

/*
 * Unregister @s (waiting for its handlers and filters) and drop its
 * references; nothing for NULL. Its consumer stays as it is.
 * Context: process context, pts.lock held; may sleep.
 */
static void slot_release(struct pts_up_slot *s)
{
	if (!s)
		return;
	if (s->registered)
		pts_uprobe_unregister(&s->reg, &s->uc);
	s->registered = false;
	if (s->path.dentry)
		path_put(&s->path);
	memset(&s->path, 0, sizeof(s->path));
	if (s->mm)
		mmdrop(s->mm);
	s->mm = NULL;
	s->pid = 0;
	s->offset = 0;
}

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
 * and process, take references on them and register the uprobe, inert
 * until its capture is armed.
 * @spec: the configuration's uprobe part (structure already checked).
 * @prep: out: the registered slot; emptied on failure.
 * @why: reason code and value on refusal.
 *
 * The file must be a regular file the caller opened for reading (an
 * O_PATH descriptor is refused: it grants no right to read the file);
 * the offset must lie inside it. The kernel decides whether the
 * instruction at the offset can be probed when it installs the
 * breakpoint in an address space that maps it: here for the processes
 * mapping it now, at mmap for later ones. Called before the previous
 * configuration is released, so that a refusal leaves it as it was: the
 * slot is the one the current capture does not use.
 * Context: process context, pts.lock held; may sleep.
 * Return: 0; -EBADF (UPROBE_FILE: no such fd); -EINVAL (UPROBE_FILE: not
 * a regular file open for reading; UPROBE_OFFSET: past the end);
 * -ESRCH (NO_SUCH_PID); -ENOMEM or -EINVAL (UPROBE_REFUSED, reason_arg =
 * the kernel's errno, positive).
 */
int pts_uprobe_prepare(const struct ptscope_uprobe_spec *spec,
		       struct pts_uprobe_prep *prep, struct pts_refusal *why)
{
	struct pts_up_slot *s = up_cur == &up_slots[0] ? &up_slots[1] : &up_slots[0];
	/* fget_raw(): an O_PATH fd is found, and refused below as unreadable. */
	struct file *f = fget_raw(spec->fd);
	int err = 0;

	prep->slot = NULL;
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
		s->mm = pid_mm(spec->pid);
		if (!s->mm) {
			why->reason = PTSCOPE_R_NO_SUCH_PID;
			why->arg = (u64)(s64)spec->pid;
			err = -ESRCH;
			goto out_file;
		}
	}
	s->path = f->f_path;
	path_get(&s->path);
	s->offset = spec->offset;
	s->pid = spec->pid;
	atomic64_set(&s->hits, 0);
	/* d_real_inode(): the inode that is mapped, also on overlayfs. */
	err = pts_uprobe_register(&s->reg, d_real_inode(s->path.dentry),
				  s->offset, &s->uc);
	if (err) {
		why->reason = PTSCOPE_R_UPROBE_REFUSED;
		why->arg = -err;
		err = err == -ENOMEM ? -ENOMEM : -EINVAL;
		goto out_file;
	}
	s->registered = true;
	prep->slot = s;
out_file:
	if (err)
		slot_release(s);
	if (f)
		fput(f);
	return err;
}

/**
 * pts_uprobe_prep_drop() - unregister and release what
 * pts_uprobe_prepare() registered (nothing once committed).
 * @prep: emptied.
 * Context: process context, pts.lock held; may sleep.
 */
void pts_uprobe_prep_drop(struct pts_uprobe_prep *prep)
{
	slot_release(prep->slot);
	prep->slot = NULL;
}

/**
 * pts_uprobe_commit() - the prepared trigger (or none) becomes the
 * capture's; the previous capture's is unregistered. Cannot fail.
 * @prep: from pts_uprobe_prepare(), or emptied: no uprobe trigger;
 *        emptied.
 *
 * The new slot's hit count starts at 0 here: hits while the previous
 * capture's triggers were live are not the new capture's.
 * Context: process context, pts.lock held; the previous capture ended.
 * May sleep.
 */
void pts_uprobe_commit(struct pts_uprobe_prep *prep)
{
	struct pts_up_slot *old = up_cur;

	up_cur = prep->slot;
	prep->slot = NULL;
	slot_release(old);
	if (up_cur)
		atomic64_set(&up_cur->hits, 0);
}

/**
 * pts_uprobe_teardown() - unregister the trigger, wait for its handlers.
 * Context: process context, pts.lock held; may sleep.
 */
void pts_uprobe_teardown(void)
{
	slot_release(up_cur);
	up_cur = NULL;
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

	if (!up_cur)
		return false;
	inode = d_inode(up_cur->path.dentry);
	ti->uprobe_pid = up_cur->pid;
	ti->uprobe_offset = up_cur->offset;
	ti->uprobe_hits = atomic64_read(&up_cur->hits);
	ti->uprobe_ino = inode->i_ino;
	ti->uprobe_dev = new_encode_dev(inode->i_sb->s_dev);
	p = d_path(&up_cur->path, ti->uprobe_path, sizeof(ti->uprobe_path));
	if (IS_ERR(p))
		ti->uprobe_path[0] = '\0';
	else
		memmove(ti->uprobe_path, p, strlen(p) + 1);
	return true;
}
