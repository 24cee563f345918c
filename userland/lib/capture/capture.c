// SPDX-License-Identifier: GPL-2.0
/*
 * A capture session: device, processes, filters, arm, sideband, stop.
 * The bundle is written by bundle_out.c. See capture.h.
 */
#include "capture.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../bundle/maps.h"
#include "maps_time.h"
#include "device.h"
#include "elfinfo.h"
#include "ktext_hash.h"
#include "procfs.h"
#include "reason_value.h"
#include "sbfold.h"
#include "uprobe_sym.h"

void pts_capture_error(struct pts_capture *c, const char *fmt, ...)
{
	va_list ap;

	if (c->nr_errors >= PTS_CAPTURE_MAX_ERRORS)
		return;
	va_start(ap, fmt);
	vsnprintf(c->errors[c->nr_errors], sizeof(c->errors[0]), fmt, ap);
	va_end(ap);
	c->nr_errors++;
}

int pts_capture_open(struct pts_capture *c, struct pts_capture_opts *o,
		     struct pts_err *err)
{
	char notes[1024];
	int fd, ret;

	memset(c, 0, sizeof(*c));
	c->o = o;
	c->fd = -1;
	c->uprobe_fd = -1;
	fd = pts_dev_open(err);
	if (fd < 0)
		return fd;
	c->fd = fd;
	ret = pts_dev_get_caps(fd, &c->caps, err);
	if (ret)
		return ret;
	if (c->caps.abi_version != PTSCOPE_ABI_VERSION)
		return pts_err_set(err, EPROTO,
				   "the loaded module speaks ABI %u, this ptscope ABI %u: "
				   "rebuild ptscope and the module from one tree",
				   c->caps.abi_version, PTSCOPE_ABI_VERSION);
	if (!(c->caps.flags & (PTSCOPE_CAPS_PT | PTSCOPE_CAPS_SIMULATED)))
		return pts_err_set(err, ENODEV,
				   "this CPU has no Intel PT (CPUID.07H:EBX[25] is 0%s). For a dry "
				   "run of capture and decode, load the module's simulated PT unit:\n"
				   "    rmmod ptscope; modprobe ptscope simulate=1\n"
				   "  (from the build tree: insmod kmod/ptscope.ko simulate=1;\n"
				   "  its traces are synthetic and are labelled simulated-unit)",
				   c->caps.vendor[0] == 'A' ? ": an AMD CPU" : "");
	ret = pts_opts_fit_caps(o, &c->caps, notes, sizeof(notes), err);
	if (ret) {
		c->bad_option = true;
		return ret;
	}
	if (notes[0])
		fprintf(stderr, "%s", notes);
	if (c->caps.flags & PTSCOPE_CAPS_SIMULATED)
		fprintf(stderr, "note: the module runs the simulated PT unit: the trace "
			"will be synthetic (source simulated-unit), not a hardware trace\n");
	return 0;
}

/*
 * The process pid, created when asked. Found by hash: record calls this
 * for both pids of every switch record it reads.
 */
static struct pts_capture_proc *proc_get(struct pts_capture *c, int32_t pid, bool create)
{
	struct pts_hent *e;
	bool created = false;

	e = create ? pts_hmap_get(&c->proc_index, &pid, sizeof(pid), &created) :
		     pts_hmap_find(&c->proc_index, &pid, sizeof(pid));
	if (!e)
		return NULL;
	if (!created && e->v.u < c->nr_procs)
		return &c->procs[e->v.u];
	if (!create)
		return NULL;		/* an entry left by a failed creation */
	if (c->nr_procs == c->cap_procs) {
		size_t n = c->cap_procs ? c->cap_procs * 2 : 16;
		struct pts_capture_proc *np = realloc(c->procs, n * sizeof(*np));

		if (!np) {
			e->v.u = SIZE_MAX;	/* names no process: created again next time */
			return NULL;
		}
		c->procs = np;
		c->cap_procs = n;
	}
	e->v.u = c->nr_procs;
	memset(&c->procs[c->nr_procs], 0, sizeof(c->procs[0]));
	c->procs[c->nr_procs].pid = pid;
	return &c->procs[c->nr_procs++];
}

int pts_capture_snap(struct pts_capture *c, pid_t pid, bool at_trigger, bool with_vdso,
		     struct pts_err *err)
{
	struct pts_capture_proc *p = proc_get(c, pid, true);
	struct pts_bundle_map *maps = NULL;
	struct pts_err e2;
	size_t nr = 0;
	int ret;

	if (!p)
		return pts_err_set(err, ENOMEM, "out of memory");
	ret = pts_proc_read_maps(pid, &maps, &nr, err);
	if (ret)
		return ret == -ENOENT ? pts_err_set(err, ESRCH, "process %d is gone", (int)pid)
				      : ret;
	if (at_trigger) {
		pts_maps_free(p->maps_trigger, p->nr_maps_trigger);
		p->maps_trigger = maps;
		p->nr_maps_trigger = nr;
	} else {
		pts_maps_free(p->maps_arm, p->nr_maps_arm);
		p->maps_arm = maps;
		p->nr_maps_arm = nr;
	}
	if (!p->comm[0])
		pts_proc_comm(pid, p->comm, &e2);
	if (!p->exe && nr)	/* kernel threads have no maps and no exe */
		pts_proc_exe(pid, &p->exe, &e2);
	if (with_vdso && nr) {
		void *buf;
		size_t len;
		uint64_t addr;

		if (!pts_proc_read_vdso(pid, maps, nr, &buf, &len, &addr, &e2)) {
			free(p->vdso);
			p->vdso = buf;
			p->vdso_len = len;
			p->vdso_addr = addr;
		} else if (e2.code != -ENOENT) {
			pts_capture_error(c, "vdso of %d: %s", (int)pid, e2.msg);
		}
	}
	{
		int32_t *tids;
		size_t n;

		if (!pts_proc_tids(pid, &tids, &n, &e2)) {
			free(p->tids);
			p->tids = tids;
			p->nr_tids = n;
		}
	}
	return 0;
}

void pts_capture_snap_all(struct pts_capture *c)
{
	struct dirent *de;
	struct pts_err e;
	DIR *d = opendir("/proc");

	if (!d) {
		pts_capture_error(c, "cannot list /proc: %s", strerror(errno));
		return;
	}
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pts_capture_snap(c, (pid_t)atoi(de->d_name), false, false, &e);
	}
	closedir(d);
}

void pts_capture_snap_seen(struct pts_capture *c)
{
	struct pts_err e;
	size_t i;

	for (i = 0; i < c->nr_procs; i++) {
		if (!c->procs[i].seen)
			continue;
		/* the array may grow inside snap: index, never keep pointers */
		pts_capture_snap(c, c->procs[i].pid, true, true, &e);
	}
}

int pts_capture_resolve_filters(struct pts_capture *c, struct pts_err *err)
{
	struct pts_capture_opts *o = c->o;
	struct pts_capture_proc *p = c->target ? proc_get(c, c->target, false) : NULL;
	size_t i;

	o->cfg.nr_addr_ranges = 0;
	for (i = 0; i < o->nr_filters; i++) {
		const struct pts_filter_spec *f = &o->filters[i];
		struct ptscope_addr_range *r = &o->cfg.addr[i];
		uint64_t start = f->start, end = f->end;
		const char *why;

		if (f->is_symbol) {
			uint64_t addr, size, rt;
			int pie, ret;

			if (!p || !p->exe)
				return pts_err_set(err, EINVAL,
					"--filter %s: a symbol needs a traced process (ptscope "
					"run or attach); give a hex START-END range here", f->symbol);
			ret = pts_elf_symbol(p->exe, f->symbol, &addr, &size, &pie, err);
			if (ret)
				return ret;
			ret = pts_elf_runtime_addr(p->exe, addr, p->maps_arm, p->nr_maps_arm,
						   &rt, err);
			if (ret)
				return ret;
			start = rt;
			end = rt + (size ? size : 1);
			fprintf(stderr, "filter: %s %s = 0x%" PRIx64 "-0x%" PRIx64 "\n",
				f->cfg == PTSCOPE_ADDR_STOP ? "stop at" : "trace only",
				f->symbol, start, end);
		}
		/* said, never refused: the capture arms as asked */
		why = pts_filter_outside_scope(o->cfg.scope, f->cfg, start, end);
		if (why)
			fprintf(stderr, "ptscope: warning: --filter range 0x%" PRIx64 "-0x%" PRIx64
				" is %s: nothing inside it will be traced (a filter: range traces "
				"only inside itself); give --scope both, or a range in the scope\n",
				start, end, why);
		r->start = start;
		r->end = end - 1;	/* ADDRn_B is inclusive (SDM 33.2.4.3) */
		r->cfg = f->cfg;
		r->reserved = 0;
		o->cfg.nr_addr_ranges++;
	}
	return 0;
}

int pts_capture_resolve_trigger(struct pts_capture *c, struct pts_err *err)
{
	struct pts_capture_opts *o = c->o;
	struct pts_capture_proc *p = c->target ? proc_get(c, c->target, false) : NULL;
	struct pts_uprobe_target t;
	const char *path = o->uprobe_path;
	int fd, ret;

	if (o->trigger_kind != PTS_TRIGGER_KIND_UPROBE)
		return 0;
	if (!path[0]) {		/* magic-trace's -trigger SYMBOL */
		if (!p || !p->exe)
			return pts_err_set(err, EINVAL,
				"--trigger %s: a bare SYMBOL is a function of the traced program "
				"(run or attach); give uprobe:PATH:%s", o->uprobe_symbol,
				o->uprobe_symbol);
		path = p->exe;
		o->cfg.uprobe.pid = c->target;
	}
	ret = pts_uprobe_resolve(path, o->uprobe_symbol, &t, err);
	if (ret) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		return pts_err_set(err, -ret, "--trigger: %s", why);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pts_err_set(err, errno, "--trigger: cannot open %s: %s", path,
				   strerror(errno));
	c->uprobe_fd = fd;
	o->cfg.uprobe.fd = fd;
	o->cfg.uprobe.offset = t.file_offset;
	fprintf(stderr, "trigger: uprobe on %s%s%s in %s (section %s, file offset 0x%" PRIx64
		"), %s\n", o->uprobe_symbol, t.version[0] ? " version " : "", t.version, path,
		t.section, t.file_offset, o->cfg.uprobe.pid ? "in one process" :
		"in every process that maps it");
	return 0;
}

/*
 * Kernel code at arm, before START, for the bundle to tell what changed
 * during the capture (ktext_hash.h). Without kernel text (user scope,
 * no kcore or kallsyms) nothing is hashed and nothing is said.
 */
static void hash_kernel_text(struct pts_capture *c)
{
	struct pts_err e;

	free(c->kt_arm);
	c->kt_arm = NULL;
	c->nr_kt_arm = 0;
	if (c->o->cfg.scope == PTSCOPE_SCOPE_USER)
		return;
	if (pts_ktext_sums(&pts_ktext_live, &c->kt_arm, &c->nr_kt_arm, &e))
		c->kt_arm = NULL;
}

/*
 * A crash kernel loaded at START (docs/abi.md, "What a PANIC snapshot can
 * promise"): a crash on an armed CPU kexecs into it with PT still on, and
 * that CPU's ring fills with the crash kernel's boot. Said once a capture:
 * a multi-snapshot re-arm finds the same crash kernel.
 */
static void warn_crash_kernel(struct pts_capture *c)
{
	struct ptscope_state st;
	struct pts_err e = { 0 };

	if (c->kdump_warned || pts_dev_get_state(c->fd, &st, &e) ||
	    !(st.flags & PTSCOPE_STATEF_CRASH_KERNEL))
		return;
	c->kdump_warned = true;
	fprintf(stderr, "ptscope: warning: a crash kernel (kdump) is loaded: if the machine crashes "
		"while armed, the crashing CPU keeps tracing into the crash kernel and its trace of "
		"the crash is overwritten (snapshot mode). Stop the capture before provoking a crash, "
		"capture with --mode full, set crash_kexec_post_notifiers (as root, no reboot: echo Y > "
		"/sys/module/kernel/parameters/crash_kexec_post_notifiers; the module then stops the "
		"crashing CPU before the crash kernel starts), or unload the crash kernel (kexec -p -u)\n");
}

/* START, then the warning above. */
static int start(struct pts_capture *c, struct pts_err *err)
{
	int ret = pts_dev_cmd(c->fd, PTSCOPE_IOC_START, "START", err);

	if (!ret)
		warn_crash_kernel(c);
	return ret;
}

int pts_capture_arm(struct pts_capture *c, struct pts_err *err)
{
	struct ptscope_config *cfg = &c->o->cfg;
	int ret;

	cfg->hdr.size = sizeof(*cfg);
	if (c->target) {
		cfg->flags |= PTSCOPE_CFG_CR3_FILTER;
		cfg->cr3_pid = c->target;
	}
	ret = pts_dev_ioctl(c->fd, PTSCOPE_IOC_CONFIGURE, "CONFIGURE", cfg, err);
	if (ret && cfg->hdr.reason) {
		char by[200];

		/* say which of the user's options the module refused */
		pts_dev_refusal_by("CONFIGURE", -ret, &cfg->hdr,
				   pts_opts_refused_by(c->o, cfg->hdr.reason, by, sizeof(by)), err);
	}
	if (!ret)
		hash_kernel_text(c);
	/* The module holds the file itself once configured. */
	if (c->uprobe_fd >= 0) {
		close(c->uprobe_fd);
		c->uprobe_fd = -1;
	}
	if (ret)
		return ret;
	c->configured = true;
	return start(c, err);
}

static void note_pid(void *ctx, int32_t pid)
{
	struct pts_capture *c = ctx;
	struct pts_capture_proc *p;

	if (pid <= 0)
		return;
	p = proc_get(c, pid, true);
	if (p)
		p->seen = true;
}

int pts_sideband_pids(const void *buf, size_t len,
		      void (*fn)(void *ctx, int32_t pid), void *ctx)
{
	const uint8_t *p = buf;
	size_t off = 0;
	int n = 0;

	while (off + sizeof(struct ptscope_sb_hdr) <= len) {
		struct ptscope_sb_hdr h;

		memcpy(&h, p + off, sizeof(h));
		if (h.size < sizeof(h) || h.size % 8 || off + h.size > len)
			return -EINVAL;
		switch (h.type) {
		case PTSCOPE_SB_SCHED_SWITCH:
			if (h.size >= sizeof(struct ptscope_sb_switch)) {
				struct ptscope_sb_switch r;

				memcpy(&r, p + off, sizeof(r));
				fn(ctx, r.prev_pid);
				fn(ctx, r.next_pid);
			}
			break;
		case PTSCOPE_SB_EXEC:
			if (h.size >= sizeof(struct ptscope_sb_exec)) {
				struct ptscope_sb_exec r;

				memcpy(&r, p + off, sizeof(r));
				fn(ctx, r.pid);
			}
			break;
		case PTSCOPE_SB_EXIT:
			if (h.size >= sizeof(struct ptscope_sb_exit)) {
				struct ptscope_sb_exit r;

				memcpy(&r, p + off, sizeof(r));
				fn(ctx, r.pid);
			}
			break;
		case PTSCOPE_SB_FORK:
			if (h.size >= sizeof(struct ptscope_sb_fork)) {
				struct ptscope_sb_fork r;

				memcpy(&r, p + off, sizeof(r));
				fn(ctx, r.parent_pid);
				fn(ctx, r.child_pid);
			}
			break;
		case PTSCOPE_SB_TRACE_START:
		case PTSCOPE_SB_TRACE_STOP:
			/* the task running when tracing began or ended on a CPU */
			if (h.size >= sizeof(struct ptscope_sb_trace)) {
				struct ptscope_sb_trace r;

				memcpy(&r, p + off, sizeof(r));
				fn(ctx, r.pid);
			}
			break;
		case PTSCOPE_SB_TRIGGER:
			if (h.size >= sizeof(struct ptscope_sb_trigger)) {
				struct ptscope_sb_trigger r;

				memcpy(&r, p + off, sizeof(r));
				fn(ctx, r.pid);
			}
			break;
		}
		off += h.size;
		n++;
	}
	return n;
}

int pts_capture_drain_sideband(struct pts_capture *c, struct pts_err *err)
{
	for (;;) {
		uint32_t got = 0;
		uint64_t lost = 0;
		int ret;

		if (c->sb_cap - c->sb_len < 65536) {
			size_t n = c->sb_cap ? c->sb_cap * 2 : 1 << 20;
			uint8_t *nb = realloc(c->sb, n);

			if (!nb)
				return pts_err_set(err, ENOMEM, "out of memory for the sideband");
			c->sb = nb;
			c->sb_cap = n;
		}
		ret = pts_dev_read_sideband(c->fd, c->sb + c->sb_len,
					    (uint32_t)(c->sb_cap - c->sb_len), &got, &lost, err);
		if (ret)
			return ret;
		if (lost > c->sb_lost)
			c->sb_lost = lost;
		if (!got)
			return 0;
		if (!c->target)		/* record: every pid named may need its maps */
			pts_sideband_pids(c->sb + c->sb_len, got, note_pid, c);
		/* before any folding: every exec splits a process's maps */
		if (pts_capture_note_execs(c, c->sb + c->sb_len, got))
			return pts_err_set(err, ENOMEM, "out of memory for the exec records");
		c->sb_len += got;
		if (c->o->cfg.mode == PTSCOPE_MODE_SNAPSHOT) {
			size_t keep = c->o->sideband_keep ? c->o->sideband_keep :
				      PTS_SB_KEEP_DEFAULT;
			uint64_t folded = 0;
			long long n = pts_sb_keep(c->sb, c->sb_len, keep, &folded);

			if (n < 0)
				return pts_err_set(err, ENOMEM, "out of memory folding the sideband");
			c->sb_len = (size_t)n;
			c->sb_folded += folded;
		}
	}
}

int pts_capture_stop(struct pts_capture *c, struct pts_err *err)
{
	struct ptscope_cmd cmd;

	memset(&cmd, 0, sizeof(cmd));
	cmd.hdr.size = sizeof(cmd);
	if (!pts_dev_ioctl(c->fd, PTSCOPE_IOC_STOP, "STOP", &cmd, err))
		return 0;
	/* stopped already (trigger, full buffer): nothing to do */
	if (cmd.hdr.reason == PTSCOPE_R_NOT_ARMED) {
		pts_err_clear(err);
		return 0;
	}
	return err ? err->code : -EIO;
}

int pts_capture_rearm(struct pts_capture *c, struct pts_err *err)
{
	return start(c, err);
}

void pts_capture_disarm(struct pts_capture *c)
{
	struct pts_err e;

	if (c->fd < 0 || !c->configured)
		return;
	pts_capture_stop(c, &e);
	if (pts_dev_cmd(c->fd, PTSCOPE_IOC_UNCONFIGURE, "UNCONFIGURE", &e))
		fprintf(stderr, "ptscope: %s\n", e.msg);
	c->configured = false;
}

void pts_capture_close(struct pts_capture *c)
{
	size_t i;

	for (i = 0; i < c->nr_procs; i++) {
		struct pts_capture_proc *p = &c->procs[i];

		free(p->exe);
		pts_maps_free(p->maps_arm, p->nr_maps_arm);
		pts_maps_free(p->maps_trigger, p->nr_maps_trigger);
		free(p->vdso);
		free(p->tids);
	}
	pts_capture_maps_time_free(c);
	free(c->procs);
	pts_hmap_free(&c->proc_index, NULL);
	free(c->sb);
	free(c->kt_arm);
	c->kt_arm = NULL;
	c->nr_kt_arm = 0;
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->procs = NULL;
	c->sb = NULL;
	c->nr_procs = 0;
}

void pts_capture_set_reason(struct pts_capture *c, const char *reason, const char *detail)
{
	if (c->trig_reason[0])
		return;
	snprintf(c->trig_reason, sizeof(c->trig_reason), "%s", reason);
	snprintf(c->trig_detail, sizeof(c->trig_detail), "%s", detail ? detail : "");
}

/*
 * How to fire a trigger that waits for the user, after its name on the
 * status line: perf and magic-trace say how to end a recording (Ctrl-C);
 * a hotkey's key is the module's default unless given, which the module
 * reports once armed (GET_TRIGGER).
 */
static void trigger_how(const struct pts_capture *c, char *buf, size_t len)
{
	const struct pts_capture_opts *o = c->o;
	unsigned int key = o->cfg.trigger.hotkey;
	struct ptscope_trigger_info ti;
	struct pts_err err;

	buf[0] = '\0';
	if (o->trigger_kind == PTS_TRIGGER_KIND_MANUAL) {
		snprintf(buf, len, " (fire it with `ptscope trigger` from another shell)");
		return;
	}
	if (o->trigger_kind != PTS_TRIGGER_KIND_HOTKEY)
		return;
	if (!key && c->fd >= 0 && !pts_dev_get_trigger(c->fd, &ti, &err))
		key = ti.hotkey;
	if (key > ' ' && key < 0x7f)
		snprintf(buf, len, " (fire it with Alt+SysRq+%c at a console, or as root: "
			 "echo %c > /proc/sysrq-trigger)", (char)key, (char)key);
}

void pts_capture_status_line(const struct pts_capture *c, FILE *f)
{
	const struct pts_capture_opts *o = c->o;
	char size[32], what[64], how[160];

	pts_format_size(o->cfg.buffer_size, size, sizeof(size));
	if (c->target)
		snprintf(what, sizeof(what), "pid %d", (int)c->target);
	else
		snprintf(what, sizeof(what), "system-wide");
	trigger_how(c, how, sizeof(how));
	fprintf(f, "ptscope: armed: %s, %u CPUs x %s (%s), scope %s, timing %s, trigger %s%s%s%s\n",
		what, pts_cpu_mask_count(o->cfg.cpu_mask), size, pts_mode_text(o->cfg.mode),
		pts_scope_text(o->cfg.scope), pts_timing_text(o->timing),
		o->trigger_text[0] ? o->trigger_text :
		(o->cmd == PTS_CMD_RUN ? "exit of CMD or Ctrl-C" : "Ctrl-C"), how,
		o->duration_ms ? ", --duration" : "",
		(c->caps.flags & PTSCOPE_CAPS_SIMULATED) ? " [simulated PT unit]" : "");
	fflush(f);
}

void pts_capture_default_name(char *buf, size_t len)
{
	time_t t = time(NULL);
	char stamp[32];
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	/* the pid: two captures started in the same second get two names */
	snprintf(buf, len, "ptscope-%s-%d.ptscope", stamp, (int)getpid());
}
