// SPDX-License-Identifier: GPL-2.0
/*
 * A user-space stand-in for /dev/ptscope, loaded with LD_PRELOAD into the
 * dynamic ptscope, so that the command's capture flow (arm, wait, stop,
 * linearise, write the bundle, disarm) runs on machines without the
 * module. It is NOT the module and says nothing about it: it follows the
 * ABI header only as far as the tool needs. The VM suite runs the real
 * module.
 *
 * ptscope opens $PTSCOPE_DEVICE (any regular file here); the fake takes
 * over ioctl/mmap/munmap/poll on that fd. Knobs (environment):
 *   FAKEDEV_LOG=path          append one line per ioctl ("CONFIGURE", ...)
 *   FAKEDEV_REFUSE=N          refuse CONFIGURE with reason N (EPERM for 5, else EINVAL)
 *   FAKEDEV_REFUSE_ARG=V      ... and reason_arg V (default 0)
 *   FAKEDEV_TRIGGER_MS=N      N ms after START the state becomes TRIGGERED
 *                             with reason tracepoint on CPU 1, pid 4242
 *   FAKEDEV_NO_PT=1           capabilities without PT and without the simulated unit
 *   FAKEDEV_SLOW_STOP_MS=N    STOP takes N ms (room for a second Ctrl-C)
 *   FAKEDEV_KDUMP=1           a crash kernel was loaded at START: GET_STATE has
 *                             PTSCOPE_STATEF_CRASH_KERNEL once armed
 *   FAKEDEV_ARMED=1           GET_STATE from an unconfigured process says ARMED
 *                             (another process's capture, as `status` sees it)
 * A uprobe trigger's fd must be open for reading at CONFIGURE; the log
 * then has "UPROBE <path of the fd> <offset hex> pid <pid>", and
 * GET_TRIGGER reports it.
 * Rings: CPU 0 has wrapped (head = size / 4), CPU 1 has not (head = 100);
 * ring byte i of CPU c is (i * 7 + c + 1) & 0xff, zero past an unwrapped head.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <uapi/ptscope.h>

static int fake_fd = -1;
static struct ptscope_config cfg;
static unsigned int state = PTSCOPE_STATE_IDLE;
static unsigned int trig_reason;
static struct timespec t_start;
static int sideband_sent;
static char uprobe_path[PTSCOPE_PATH_LEN];

static void logline(const char *what)
{
	const char *p = getenv("FAKEDEV_LOG");
	FILE *f;

	if (!p)
		return;
	f = fopen(p, "a");
	if (f) {
		fprintf(f, "%s\n", what);
		fclose(f);
	}
}

static int is_fake(int fd)
{
	struct stat a, b;
	const char *p = getenv("PTSCOPE_DEVICE");

	if (fd < 0 || !p)
		return 0;
	if (fd == fake_fd)
		return 1;
	if (fstat(fd, &a) || stat(p, &b))
		return 0;
	if (a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
		fake_fd = fd;
		return 1;
	}
	return 0;
}

static long ms_since_start(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t_start.tv_sec) * 1000 + (now.tv_nsec - t_start.tv_nsec) / 1000000;
}

static int refuse(struct ptscope_hdr *h, unsigned int reason, int e)
{
	h->reason = reason;
	h->reason_arg = 0;
	errno = e;
	return -1;
}

static void fill_caps(struct ptscope_caps *c)
{
	unsigned int size = c->hdr.size;

	memset(c, 0, sizeof(*c));
	c->hdr.size = size;
	c->abi_version = PTSCOPE_ABI_VERSION;
	if (!getenv("FAKEDEV_NO_PT"))
		c->flags = PTSCOPE_CAPS_PT | PTSCOPE_CAPS_SIMULATED | PTSCOPE_CAPS_CAP_PERFMON;
	memcpy(c->vendor, "GenuineIntel", 13);
	c->family = 6;
	c->model = 85;
	c->stepping = 4;
	c->max_phys_addr = 46;
	c->max_leaf = 0x16;
	c->cpuid_14_0[1] = 0x0f;	/* CR3 filter, CYC/PSB, IP filter, MTC */
	c->cpuid_14_0[2] = 0x07;	/* ToPA, multi-entry, single range */
	c->cpuid_14_1[0] = 0x02490002;
	c->cpuid_14_1[1] = 0x003f3fff;
	c->nr_addr_ranges = 2;
	c->mtc_period_bitmap = 0x249;
	c->cyc_thresh_bitmap = 0x3fff;
	c->psb_period_bitmap = 0x3f;
	c->cpuid_15[0] = 2;
	c->cpuid_15[1] = 0x134;
	c->tsc_khz = 2000000;
	c->nr_cpus = 2;
	c->online_mask[0] = 0x3;
	c->min_buffer_size = 4096;
	c->max_buffer_size = 1ULL << 30;
}

static unsigned long long rtit_ctl(void)
{
	unsigned long long v = 1 | (1ULL << 8) | (1ULL << 13);	/* TraceEn ToPA BranchEn */
	unsigned int i;

	if (cfg.scope & PTSCOPE_SCOPE_USER)
		v |= 1ULL << 3;
	if (cfg.scope & PTSCOPE_SCOPE_KERNEL)
		v |= 1ULL << 2;
	if (cfg.flags & PTSCOPE_CFG_CR3_FILTER)
		v |= 1ULL << 7;
	if (cfg.timing & PTSCOPE_TIMING_TSC)
		v |= 1ULL << 10;
	if (cfg.timing & PTSCOPE_TIMING_MTC)
		v |= (1ULL << 9) | ((unsigned long long)cfg.mtc_freq << 14);
	if (cfg.timing & PTSCOPE_TIMING_CYC)
		v |= (1ULL << 1) | ((unsigned long long)cfg.cyc_thresh << 19);
	v |= (unsigned long long)cfg.psb_freq << 24;
	for (i = 0; i < cfg.nr_addr_ranges; i++)
		v |= (unsigned long long)cfg.addr[i].cfg << (32 + 4 * i);
	return v;
}

static unsigned long long ring_head(unsigned int cpu)
{
	return cpu == 0 ? cfg.buffer_size / 4 : 100;
}

static int fake_ioctl(unsigned long req, void *arg)
{
	struct ptscope_hdr *h = arg;
	char line[64];

	snprintf(line, sizeof(line), "%s", req == PTSCOPE_IOC_GET_CAPS ? "GET_CAPS" :
		 req == PTSCOPE_IOC_CONFIGURE ? "CONFIGURE" : req == PTSCOPE_IOC_START ? "START" :
		 req == PTSCOPE_IOC_STOP ? "STOP" : req == PTSCOPE_IOC_TRIGGER ? "TRIGGER" :
		 req == PTSCOPE_IOC_GET_STATE ? "GET_STATE" :
		 req == PTSCOPE_IOC_GET_CPU_STATUS ? "GET_CPU_STATUS" :
		 req == PTSCOPE_IOC_READ_SIDEBAND ? "READ_SIDEBAND" :
		 req == PTSCOPE_IOC_UNCONFIGURE ? "UNCONFIGURE" :
		 req == PTSCOPE_IOC_GET_TRIGGER ? "GET_TRIGGER" : "UNKNOWN");
	if (req != PTSCOPE_IOC_GET_STATE && req != PTSCOPE_IOC_READ_SIDEBAND &&
	    req != PTSCOPE_IOC_GET_TRIGGER)
		logline(line);
	if (h->reason || h->reason_arg)
		return refuse(h, PTSCOPE_R_RESERVED_NONZERO, EINVAL);

	switch (req) {
	case PTSCOPE_IOC_GET_CAPS:
		if (h->size != sizeof(struct ptscope_caps))
			return refuse(h, PTSCOPE_R_BAD_SIZE, EINVAL);
		fill_caps(arg);
		return 0;
	case PTSCOPE_IOC_CONFIGURE: {
		const char *r = getenv("FAKEDEV_REFUSE");

		if (h->size != sizeof(cfg))
			return refuse(h, PTSCOPE_R_BAD_SIZE, EINVAL);
		if (r) {
			const char *a = getenv("FAKEDEV_REFUSE_ARG");

			refuse(h, (unsigned int)atoi(r), atoi(r) == 5 ? EPERM : EINVAL);
			h->reason_arg = a ? strtoull(a, NULL, 0) : 0;
			return -1;
		}
		if (state != PTSCOPE_STATE_IDLE)
			return refuse(h, PTSCOPE_R_ARMED, EBUSY);
		memcpy(&cfg, arg, sizeof(cfg));
		if (cfg.trigger.kinds & PTSCOPE_TRIG_UPROBE) {
			char fdp[64], msg[PTSCOPE_PATH_LEN + 64];
			int fl = fcntl(cfg.uprobe.fd, F_GETFL);
			ssize_t n;

			snprintf(fdp, sizeof(fdp), "/proc/self/fd/%d", cfg.uprobe.fd);
			n = readlink(fdp, uprobe_path, sizeof(uprobe_path) - 1);
			if (fl < 0 || n < 0)
				return refuse(h, PTSCOPE_R_UPROBE_FILE, EBADF);
			if ((fl & O_ACCMODE) == O_WRONLY || (fl & O_PATH))
				return refuse(h, PTSCOPE_R_UPROBE_FILE, EINVAL);
			uprobe_path[n] = 0;
			snprintf(msg, sizeof(msg), "UPROBE %s %#llx pid %d", uprobe_path,
				 (unsigned long long)cfg.uprobe.offset, cfg.uprobe.pid);
			logline(msg);
		}
		state = PTSCOPE_STATE_CONFIGURED;
		return 0;
	}
	case PTSCOPE_IOC_GET_TRIGGER: {
		struct ptscope_trigger_info *ti = arg;

		if (h->size != sizeof(*ti))
			return refuse(h, PTSCOPE_R_BAD_SIZE, EINVAL);
		memset((char *)ti + sizeof(*h), 0, sizeof(*ti) - sizeof(*h));
		if (state == PTSCOPE_STATE_IDLE)
			return 0;
		ti->kinds = cfg.trigger.kinds;
		ti->flags = cfg.trigger.flags;
		ti->post_trigger_us = cfg.trigger.post_trigger_us;
		ti->tracepoint_pid = cfg.trigger.tracepoint_pid;
		memcpy(ti->tracepoint, cfg.trigger.tracepoint, sizeof(ti->tracepoint));
		/* the module's default key (its hotkey parameter) when none was given */
		if (cfg.trigger.kinds & PTSCOPE_TRIG_HOTKEY)
			ti->hotkey = cfg.trigger.hotkey ? cfg.trigger.hotkey : 'x';
		if (cfg.trigger.kinds & PTSCOPE_TRIG_UPROBE) {
			ti->uprobe_pid = cfg.uprobe.pid;
			ti->uprobe_offset = cfg.uprobe.offset;
			memcpy(ti->uprobe_path, uprobe_path, sizeof(ti->uprobe_path));
		}
		return 0;
	}
	case PTSCOPE_IOC_START:
		if (state == PTSCOPE_STATE_IDLE)
			return refuse(h, PTSCOPE_R_NOT_CONFIGURED, EINVAL);
		state = PTSCOPE_STATE_ARMED;
		trig_reason = 0;
		clock_gettime(CLOCK_MONOTONIC, &t_start);
		return 0;
	case PTSCOPE_IOC_STOP:
		if (getenv("FAKEDEV_SLOW_STOP_MS")) {
			long ms = atol(getenv("FAKEDEV_SLOW_STOP_MS"));
			struct timespec d = { ms / 1000, (ms % 1000) * 1000000 };

			while (nanosleep(&d, &d) && errno == EINTR)
				;
		}
		if (state != PTSCOPE_STATE_ARMED && state != PTSCOPE_STATE_POST_TRIGGER)
			return refuse(h, PTSCOPE_R_NOT_ARMED, EINVAL);
		state = PTSCOPE_STATE_STOPPED;
		return 0;
	case PTSCOPE_IOC_TRIGGER:
		if (state != PTSCOPE_STATE_ARMED)
			return refuse(h, PTSCOPE_R_NOT_ARMED, EINVAL);
		state = PTSCOPE_STATE_TRIGGERED;
		trig_reason = PTSCOPE_TRIGGER_IOCTL;
		return 0;
	case PTSCOPE_IOC_UNCONFIGURE:
		state = PTSCOPE_STATE_IDLE;
		return 0;
	case PTSCOPE_IOC_GET_STATE: {
		struct ptscope_state *st = arg;
		const char *t = getenv("FAKEDEV_TRIGGER_MS");
		unsigned int i;

		if (h->size != sizeof(*st))
			return refuse(h, PTSCOPE_R_BAD_SIZE, EINVAL);
		if (t && state == PTSCOPE_STATE_ARMED && ms_since_start() >= atol(t)) {
			state = PTSCOPE_STATE_TRIGGERED;
			trig_reason = PTSCOPE_TRIGGER_TRACEPOINT;
		}
		if (getenv("FAKEDEV_ARMED") && state == PTSCOPE_STATE_IDLE)
			state = PTSCOPE_STATE_ARMED;
		memset((char *)st + sizeof(*h), 0, sizeof(*st) - sizeof(*h));
		st->state = state;
		st->trigger_reason = trig_reason;
		if (trig_reason) {
			st->trigger_cpu = 1;
			st->trigger_pid = 4242;
			st->trigger_tid = 4243;
			st->trigger_tsc = 5000000;
			st->nr_snapshots = 1;
		}
		if (state >= PTSCOPE_STATE_ARMED) {
			st->rtit_ctl = rtit_ctl();
			st->cr3_match = (cfg.flags & PTSCOPE_CFG_CR3_FILTER) ? 0x1234000 : 0;
			for (i = 0; i < cfg.nr_addr_ranges; i++) {
				st->addr_a[i] = cfg.addr[i].start;
				st->addr_b[i] = cfg.addr[i].end;
			}
			st->time_at_start.tsc = 1000000;
			st->time_at_start.realtime_ns = 1764370000000000000ULL;
			st->time_at_start.monotonic_ns = 589000000000ULL;
			st->time_at_stop.tsc = 3000000;
			st->time_at_stop.realtime_ns = 1764370000001000000ULL;
			st->time_at_stop.monotonic_ns = 589001000000ULL;
			memcpy(st->armed_cpu_mask, cfg.cpu_mask, sizeof(cfg.cpu_mask));
		}
		st->tsc_khz = 2000000;
		st->flags = PTSCOPE_STATEF_SIMULATED;
		if (getenv("FAKEDEV_KDUMP") && state >= PTSCOPE_STATE_ARMED)
			st->flags |= PTSCOPE_STATEF_CRASH_KERNEL;
		return 0;
	}
	case PTSCOPE_IOC_GET_CPU_STATUS: {
		struct ptscope_cpu_status *cs = arg;
		unsigned int cpu = cs->cpu;

		if (cpu >= 2)
			return refuse(h, PTSCOPE_R_BAD_CPU, EINVAL);
		memset((char *)cs + sizeof(*h), 0, sizeof(*cs) - sizeof(*h));
		cs->cpu = cpu;
		cs->flags = PTSCOPE_CPUF_SELECTED | PTSCOPE_CPUF_ONLINE |
			    (cpu == 0 ? PTSCOPE_CPUF_WRAPPED : 0);
		cs->buffer_size = cfg.buffer_size;
		cs->head = ring_head(cpu);
		cs->bytes_valid = cpu == 0 ? cfg.buffer_size : 100;
		cs->wrap_count = cpu == 0 ? 3 : 0;
		cs->rtit_ctl = rtit_ctl();
		cs->rtit_status = cpu == 1 ? 0x10 : 0;
		cs->start_tsc = 1000000 + cpu;
		cs->stop_tsc = 3000000 + cpu;
		cs->nr_regions = 1;
		cs->region_size = (unsigned int)cfg.buffer_size;
		return 0;
	}
	case PTSCOPE_IOC_READ_SIDEBAND: {
		struct ptscope_sideband_read *r = arg;
		struct ptscope_sb_switch sw;

		r->bytes_read = 0;
		r->lost = 2;
		if (sideband_sent || r->buf_len < sizeof(sw))
			return 0;
		memset(&sw, 0, sizeof(sw));
		sw.hdr.type = PTSCOPE_SB_SCHED_SWITCH;
		sw.hdr.size = sizeof(sw);
		sw.hdr.cpu = 0;
		sw.hdr.tsc = 1500000;
		sw.prev_pid = 0;
		sw.next_pid = getpid();	/* a process that surely exists: ptscope */
		sw.next_tid = getpid();
		memcpy(sw.next_comm, "ptscope", 8);
		memcpy((void *)(uintptr_t)r->buf, &sw, sizeof(sw));
		r->bytes_read = sizeof(sw);
		sideband_sent = 1;
		return 0;
	}
	}
	errno = ENOTTY;
	return -1;
}

int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (is_fake(fd))
		return fake_ioctl(req, arg);
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	return real(fd, req, arg);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);
	unsigned int cpu;
	unsigned char *p;
	size_t i;

	if (!real)
		real = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
	if (!is_fake(fd))
		return real(addr, len, prot, flags, fd, off);
	if (prot & (PROT_WRITE | PROT_EXEC)) {
		errno = EPERM;
		return MAP_FAILED;
	}
	cpu = (unsigned int)((unsigned long long)off >> PTSCOPE_MMAP_CPU_SHIFT);
	p = real(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return p;
	for (i = 0; i < len; i++)
		p[i] = (unsigned char)((i * 7 + cpu + 1) & 0xff);
	if (cpu == 1)
		memset(p + 100, 0, len - 100);
	mprotect(p, len, PROT_READ);
	return p;
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	static int (*real)(struct pollfd *, nfds_t, int);

	if (!real)
		real = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
	if (n == 1 && is_fake(fds[0].fd)) {
		/* a regular file is always ready: wait like an idle device */
		fds[0].revents = 0;
		return real(NULL, 0, timeout > 20 ? 20 : timeout);
	}
	return real(fds, n, timeout);
}
