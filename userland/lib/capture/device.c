// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/ptscope: open, ioctl with reason text, mmap. See device.h.
 */
#include "device.h"
#include "hostcpu.h"
#include "reason_field.h"
#include "reason_value.h"

#include <ptscope/reason_text.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

int pts_dev_default_hotkey(void)
{
	const char *dir = getenv("PTSCOPE_MODULE_SYSFS");
	char path[4096];
	FILE *f;
	int c;

	if (!dir || !*dir)
		dir = "/sys/module/" PTSCOPE_DEVICE_NAME;
	snprintf(path, sizeof(path), "%s/parameters/hotkey", dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	c = fgetc(f);
	fclose(f);
	/* the module registers the parameter's first character (kmod/trigger.c) */
	return c > ' ' && c < 0x7f ? c : 0;
}

const char *pts_reason_text(uint32_t reason)
{
	return ptscope_reason_str(reason);
}

int pts_dev_open_error(int e, const char *path, struct pts_err *err)
{
	switch (e) {
	case ENOENT:
	case ENXIO:
	case ENODEV: {
		struct pts_host_cpu cpu;
		char verdict[256];

		/* loading the module helps only where the CPU has PT: say which */
		pts_host_cpu_read(&cpu);
		pts_host_cpu_verdict(&cpu, verdict, sizeof(verdict));
		return pts_err_set(err, e, "%s: %s: the ptscope module is not loaded, and %s%s",
				   path, strerror(e), verdict, cpu.intel_pt ?
				   " (make builds kmod/ptscope.ko when the running kernel's "
				   "headers are installed)" : "");
	}
	case EACCES:
	case EPERM:
		return pts_err_set(err, e,
			"%s: %s: the device is root-only by default. Run as root, or load the "
			"module with a group that may open it (options ptscope group=GID in "
			"/etc/modprobe.d, or insmod kmod/ptscope.ko group=GID) and join that group; kernel scope and system-wide capture also need "
			"CAP_SYS_ADMIN or CAP_PERFMON", path, strerror(e));
	case EBUSY:
		return pts_err_set(err, e,
			"%s: %s: another ptscope session holds the device; stop it first "
			"(ptscope status shows its state)", path, strerror(e));
	}
	return pts_err_set(err, e, "%s: %s", path, strerror(e));
}

int pts_dev_open(struct pts_err *err)
{
	const char *path = getenv("PTSCOPE_DEVICE");
	int fd;

	if (!path || !*path)
		path = PTS_DEVICE_PATH;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return pts_dev_open_error(errno, path, err);
	return fd;
}

/* What the user can do about the common refusals; @what: the call, @e: the errno. */
static const char *reason_hint(const char *what, uint32_t reason, int e)
{
	/*
	 * The options refuse a tracepoint the list does not hold
	 * (tp_names.h), so these come from a module built with another
	 * list; the list itself would not fit the message after the reason.
	 */
	switch (reason) {
	case PTSCOPE_R_TRACEPOINT_NOT_FOUND:
		return "; ptscope record --help lists the tracepoints a trigger can be armed on";
	case PTSCOPE_R_BAD_TRIGGER:
		/*
		 * EOPNOTSUPP: a tracepoint that exists but has no probe. The
		 * rest ptscope checks before CONFIGURE (options.c): a module
		 * with other rules, i.e. not built with this ptscope.
		 */
		return e == EOPNOTSUPP ? "; not a tracepoint this module has a probe for: ptscope "
					 "record --help lists the ones a trigger can be armed on" :
					 "; the loaded module checks triggers otherwise than this "
					 "ptscope: load the module built with it";
	case PTSCOPE_R_RESERVED_NONZERO:
		/* ptscope sends every reserved field as zero */
		return "; ptscope leaves every reserved field 0, so the loaded module is not the "
		       "one built with this ptscope: load that one";
	case PTSCOPE_R_NEED_CAP_ADMIN:
		/*
		 * CAP_PERFMON alone arms a kernel scope, but its bundle then
		 * lacks the kernel's names (kallsyms reads zeros without
		 * CAP_SYSLOG where perf_event_paranoid > 1) and text
		 * (/proc/kcore needs CAP_SYS_RAWIO): perf's own advice for a
		 * CAP_PERFMON perf adds cap_syslog too
		 */
		return "; run as root, or grant CAP_PERFMON (setcap "
		       "cap_perfmon,cap_syslog,cap_sys_rawio+ep ptscope: a kernel scope's bundle "
		       "also reads the kernel's symbols and /proc/kcore), or trace with "
		       "--scope user on one process (ptscope run/attach)";
	case PTSCOPE_R_NEED_SYS_ADMIN:
		/* perf_uprobe_event_init() asks the same: no uprobe for CAP_PERFMON alone */
		return "; run as root (perf's own uprobes need CAP_SYS_ADMIN too), or end the "
		       "snapshot another way: --trigger manual (ptscope trigger), a tracepoint "
		       "of the process (tracepoint:SUBSYS:EVENT:pid=N) or --duration";
	case PTSCOPE_R_NEED_PTRACE:
		return "; run as the process's user (not a setuid or non-dumpable one), "
		       "or grant CAP_SYS_PTRACE";
	case PTSCOPE_R_NOT_OWNER:
		return "; the capture belongs to another user: its owner ends it "
		       "(ptscope status --disarm), or run as root";
	case PTSCOPE_R_BUFFER_LIMIT:
		return "; give a --size (and --sideband-size) within the limit (the module's "
		       "unpriv_buffer_kb parameter), or run with CAP_PERFMON";
	case PTSCOPE_R_BAD_CPU_MASK:
		return "; give -C/--cpus a list of online CPUs (/sys/devices/system/cpu/online), "
		       "or leave -C out for all of them";
	case PTSCOPE_R_NO_SUCH_PID:
		return "; the process is gone or is a kernel thread: check the pid (ps -p PID)";
	case PTSCOPE_R_TARGET_EXITED:
		return "; the traced process is gone: start it again and re-run";
	case PTSCOPE_R_NO_PT:
		return "; for a dry run load the simulated unit: rmmod ptscope; "
		       "modprobe ptscope simulate=1 (or insmod kmod/ptscope.ko simulate=1)";
	case PTSCOPE_R_TRACE_EN_BUSY:
		return "; stop perf record -e intel_pt (or whatever owns PT) and retry";
	case PTSCOPE_R_LBR_ACTIVE:
		return "; end the LBR user on that CPU (perf record -b or --call-graph lbr) and "
		       "retry, or leave that CPU out with -C/--cpus";
	case PTSCOPE_R_BTS_ACTIVE:
		return "; end the BTS user on that CPU (perf record -e intel_bts//) and retry, "
		       "or leave that CPU out with -C/--cpus";
	case PTSCOPE_R_ARMED:
		return "; another capture is armed: ptscope status shows it, "
		       "ptscope status --disarm ends it";
	case PTSCOPE_R_NOT_ARMED:
		/* `ptscope trigger` with nothing armed: say what it fires */
		return strcmp(what, "TRIGGER") ? "" :
		       "; it fires the trigger of a capture armed in another shell: start one "
		       "there (ptscope record, run or attach, e.g. with --trigger manual), "
		       "then run ptscope trigger";
	case PTSCOPE_R_NO_MEMORY:
		return "; use a smaller --size or fewer CPUs (-C)";
	case PTSCOPE_R_BAD_SIZE:
		return "";
	}
	return "";
}

int pts_dev_refusal(const char *what, int e, const struct ptscope_hdr *hdr,
		    struct pts_err *err)
{
	return pts_dev_refusal_by(what, e, hdr, NULL, err);
}

int pts_dev_refusal_by(const char *what, int e, const struct ptscope_hdr *hdr,
		       const char *by, struct pts_err *err)
{
	char vbuf[160];
	const char *v;

	if (hdr && hdr->reason) {
		/* only a value the module set for this reason: never a "value 0" nobody gave */
		v = pts_reason_value(what, hdr->reason, hdr->reason_arg, vbuf, sizeof(vbuf));
		/* or the field it names, with the value sent (BAD_TRIGGER, RESERVED_NONZERO) */
		if (!v)
			v = pts_reason_field(what, hdr, vbuf, sizeof(vbuf));
		return pts_err_set(err, e, "%s refused: %s (%s%s%s)%s%s%s", what,
				   pts_reason_text(hdr->reason), v ? v : "", v ? ", " : "",
				   strerror(e), by ? "; from " : "", by ? by : "",
				   reason_hint(what, hdr->reason, e));
	}
	if (e == EPERM || e == EACCES)
		return pts_err_set(err, e,
				   "%s refused: %s; kernel scope and system-wide capture need "
				   "CAP_SYS_ADMIN or CAP_PERFMON, one process needs ptrace rights",
				   what, strerror(e));
	if (e == ENOTTY)
		return pts_err_set(err, e,
				   "%s: the device does not know this call (%s): the loaded "
				   "module's ABI differs from this ptscope; rebuild both", what,
				   strerror(e));
	return pts_err_set(err, e, "%s failed: %s", what, strerror(e));
}

int pts_dev_ioctl(int fd, unsigned long req, const char *what, void *arg,
		  struct pts_err *err)
{
	struct ptscope_hdr *hdr = arg;

	hdr->reason = 0;
	hdr->reason_arg = 0;
	if (ioctl(fd, req, arg) < 0)
		return pts_dev_refusal(what, errno, hdr, err);
	return 0;
}

int pts_dev_get_caps(int fd, struct ptscope_caps *caps, struct pts_err *err)
{
	memset(caps, 0, sizeof(*caps));
	caps->hdr.size = sizeof(*caps);
	return pts_dev_ioctl(fd, PTSCOPE_IOC_GET_CAPS, "GET_CAPS", caps, err);
}

int pts_dev_get_state(int fd, struct ptscope_state *st, struct pts_err *err)
{
	memset(st, 0, sizeof(*st));
	st->hdr.size = sizeof(*st);
	return pts_dev_ioctl(fd, PTSCOPE_IOC_GET_STATE, "GET_STATE", st, err);
}

int pts_dev_get_trigger(int fd, struct ptscope_trigger_info *ti, struct pts_err *err)
{
	memset(ti, 0, sizeof(*ti));
	ti->hdr.size = sizeof(*ti);
	return pts_dev_ioctl(fd, PTSCOPE_IOC_GET_TRIGGER, "GET_TRIGGER", ti, err);
}

void pts_trigger_armed_text(const struct ptscope_trigger_info *ti, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	if (ti->kinds & PTSCOPE_TRIG_TRACEPOINT)
		off += (size_t)snprintf(buf + off, len - off, "tracepoint %s%s",
					ti->tracepoint, ti->tracepoint_pid ? " pid " : "");
	if (off < len && (ti->kinds & PTSCOPE_TRIG_TRACEPOINT) && ti->tracepoint_pid)
		off += (size_t)snprintf(buf + off, len - off, "%d", ti->tracepoint_pid);
	if (off < len && (ti->kinds & PTSCOPE_TRIG_HOTKEY))
		off += (size_t)snprintf(buf + off, len - off, "%shotkey %c", off ? "; " : "",
					(char)ti->hotkey);
	if (off < len && (ti->kinds & PTSCOPE_TRIG_UPROBE)) {
		off += (size_t)snprintf(buf + off, len - off,
					"%suprobe %s+0x%" PRIx64 " (file offset), ", off ? "; " : "",
					ti->uprobe_path[0] ? ti->uprobe_path : "(path unknown)",
					(uint64_t)ti->uprobe_offset);
		if (off < len && ti->uprobe_pid)
			off += (size_t)snprintf(buf + off, len - off, "pid %d", ti->uprobe_pid);
		else if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "any process");
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, ", %" PRIu64 " hit(s)",
						(uint64_t)ti->uprobe_hits);
	}
	if (off < len && !off)
		snprintf(buf, len, "ioctl only (ptscope trigger)");
}

int pts_dev_get_cpu_status(int fd, uint32_t cpu, struct ptscope_cpu_status *cs,
			   struct pts_err *err)
{
	memset(cs, 0, sizeof(*cs));
	cs->hdr.size = sizeof(*cs);
	cs->cpu = cpu;
	return pts_dev_ioctl(fd, PTSCOPE_IOC_GET_CPU_STATUS, "GET_CPU_STATUS", cs, err);
}

int pts_dev_cmd(int fd, unsigned long req, const char *what, struct pts_err *err)
{
	struct ptscope_cmd c;

	memset(&c, 0, sizeof(c));
	c.hdr.size = sizeof(c);
	return pts_dev_ioctl(fd, req, what, &c, err);
}

int pts_dev_read_sideband(int fd, void *buf, uint32_t len, uint32_t *got,
			  uint64_t *lost, struct pts_err *err)
{
	struct ptscope_sideband_read r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.hdr.size = sizeof(r);
	r.buf = (uintptr_t)buf;
	r.buf_len = len;
	ret = pts_dev_ioctl(fd, PTSCOPE_IOC_READ_SIDEBAND, "READ_SIDEBAND", &r, err);
	if (ret)
		return ret;
	*got = r.bytes_read;
	if (lost)
		*lost = r.lost;
	return 0;
}

const void *pts_dev_map_cpu(int fd, uint32_t cpu, uint64_t len, struct pts_err *err)
{
	void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd,
		       (off_t)((uint64_t)cpu << PTSCOPE_MMAP_CPU_SHIFT));

	if (p == MAP_FAILED) {
		pts_err_set(err, errno, "mmap of CPU %u's trace buffer (%llu bytes) failed: %s",
			    cpu, (unsigned long long)len, strerror(errno));
		return NULL;
	}
	return p;
}

const char *pts_state_text(uint32_t state)
{
	switch (state) {
	case PTSCOPE_STATE_IDLE: return "idle";
	case PTSCOPE_STATE_CONFIGURED: return "configured";
	case PTSCOPE_STATE_ARMED: return "armed";
	case PTSCOPE_STATE_POST_TRIGGER: return "post-trigger";
	case PTSCOPE_STATE_TRIGGERED: return "triggered";
	case PTSCOPE_STATE_STOPPED: return "stopped";
	}
	return "unknown";
}

const char *pts_trigger_reason_text(uint32_t reason)
{
	switch (reason) {
	case PTSCOPE_TRIGGER_NONE: return "none";
	case PTSCOPE_TRIGGER_IOCTL: return "ioctl";
	case PTSCOPE_TRIGGER_TRACEPOINT: return "tracepoint";
	case PTSCOPE_TRIGGER_HOTKEY: return "hotkey";
	case PTSCOPE_TRIGGER_PANIC: return "panic";
	case PTSCOPE_TRIGGER_SUSPEND: return "suspend";
	case PTSCOPE_TRIGGER_UPROBE: return "uprobe";
	}
	return "unknown";
}
