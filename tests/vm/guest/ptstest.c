// SPDX-License-Identifier: GPL-2.0
/*
 * ptstest: drives /dev/ptscope through the raw ioctl ABI
 * (include/uapi/ptscope.h) inside the test VM, independently of the
 * ptscope command, and prints one line per scenario:
 *
 *   RESULT <name> PASS|FAIL <detail>
 *
 * Subcommands (each is one scenario; docs/testing-vm.md lists them):
 *   caps NAME
 *   capture NAME --scope user|kernel|both
 *           --trigger manual|tracepoint|sysrq_proc|sysrq_key|none
 *           [--mode snapshot|full] [--size BYTES] [--post-us US]
 *           [--multi N] [--key C] [--work-ms MS] [--offline-cpu N]
 *           [--expect-wrap]
 *   trigger                   one PTSCOPE_IOC_TRIGGER from a new fd
 *   mmap-write NAME           writable / executable mappings refused
 *   unpriv NAME               run as a non-root user: refusals
 *   hold-mapped READY GO      capture, map, close the fd, create READY,
 *                             wait for GO to exist, read the mapping
 *   arm-hold READY GO         configure + start, keep the fd until GO
 *   wait-armed MS             exit 0 once the module is ARMED (another
 *                             process's capture), 1 after MS ms
 *
 * Checks are against the ABI comments and the SDM (RTIT_CTL bit
 * positions, the PSB pattern), never against values this program made.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"
#include "ptscope/rtit.h"

#define DEV "/dev/ptscope"

static const char *g_name = "?";

static int report(int pass)
{
	printf("RESULT %s %s %s\n", g_name, pass ? "PASS" : "FAIL", g_detail);
	fflush(stdout);
	return pass ? 0 : 1;
}

/* The session fd: fail() stops and unconfigures it, so one failing
 * scenario does not leave the module busy for the next one. */
static int g_fd = -1;

static void cleanup_session(void)
{
	struct ptscope_cmd c;

	if (g_fd < 0)
		return;
	memset(&c, 0, sizeof(c));
	c.hdr.size = sizeof(c);
	ioctl(g_fd, PTSCOPE_IOC_STOP, &c);
	memset(&c, 0, sizeof(c));
	c.hdr.size = sizeof(c);
	ioctl(g_fd, PTSCOPE_IOC_UNCONFIGURE, &c);
}

/* Fail the scenario with a reason and exit. */
static void __attribute__((noreturn)) fail(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	detail("%s", buf);
	cleanup_session();
	exit(report(0));
}

static int open_dev(int flags)
{
	int fd = open(DEV, flags | O_CLOEXEC);

	if (fd < 0)
		fail("open %s: %s", DEV, strerror(errno));
	if (g_fd < 0)
		g_fd = fd;
	return fd;
}

static void get_caps(int fd, struct ptscope_caps *c)
{
	int r;

	memset(c, 0, sizeof(*c));
	r = IOC(fd, PTSCOPE_IOC_GET_CAPS, *c);
	if (r)
		fail("GET_CAPS: %s (reason %u)", strerror(-r), c->hdr.reason);
}

static void get_state(int fd, struct ptscope_state *s)
{
	int r;

	memset(s, 0, sizeof(*s));
	r = IOC(fd, PTSCOPE_IOC_GET_STATE, *s);
	if (r)
		fail("GET_STATE: %s (reason %u)", strerror(-r), s->hdr.reason);
}

static int get_cpu(int fd, unsigned int cpu, struct ptscope_cpu_status *st)
{
	memset(st, 0, sizeof(*st));
	st->cpu = cpu;
	return IOC(fd, PTSCOPE_IOC_GET_CPU_STATUS, *st);
}

static int cmd(int fd, unsigned long nr)
{
	struct ptscope_cmd c;

	memset(&c, 0, sizeof(c));
	return IOC(fd, nr, c);
}

static int cpu_in(const __u64 *mask, unsigned int cpu)
{
	return cpu < PTSCOPE_MAX_CPUS && (mask[cpu / 64] >> (cpu % 64)) & 1;
}

static const char *state_name(uint32_t s)
{
	static const char *const n[] = { "IDLE", "CONFIGURED", "ARMED", "POST_TRIGGER",
					 "TRIGGERED", "STOPPED" };

	return s < 6 ? n[s] : "?";
}

/* Poll GET_STATE until state is one of want1/want2 or timeout_ms passes. */
static int wait_state(int fd, uint32_t want1, uint32_t want2, unsigned int timeout_ms,
		      struct ptscope_state *s)
{
	uint64_t end = now_ns() + (uint64_t)timeout_ms * 1000000ull;

	for (;;) {
		get_state(fd, s);
		if (s->state == want1 || s->state == want2)
			return 0;
		if (now_ns() > end)
			return -1;
		sleep_ms(20);
	}
}

/* The PSB packet: 02 82 repeated 8 times (SDM 33.4.2.10). */
static size_t count_psb(const unsigned char *p, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i + 16 <= n; i++) {
		int k;

		for (k = 0; k < 16; k += 2)
			if (p[i + k] != 0x02 || p[i + k + 1] != 0x82)
				break;
		if (k == 16) {
			c++;
			i += 15;
		}
	}
	return c;
}

static pid_t spawn(char *const argv[], int stdin_fd)
{
	pid_t pid = fork();

	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (pid == 0) {
		if (stdin_fd >= 0)
			dup2(stdin_fd, 0);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static int wait_child(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void run_spin(unsigned int ms)
{
	char arg[16];
	char *argv[] = { "/t/spin", arg, NULL };

	snprintf(arg, sizeof(arg), "%u", ms);
	wait_child(spawn(argv, -1));
}

/*
 * Load for at least min_ms and on until some CPU's ring is seen to wrap,
 * at most max_ms: the rings are read through mmap while the capture runs,
 * every 50 ms. A ring was zeroed at START and PT writes forward only, so
 * once a byte of the window at half the ring is non-zero the writer is
 * past it, and the ring's first WRAP_WIN bytes, written long before, are
 * copied; when they change the writer has gone past the ring's end and
 * is overwriting the oldest data. (Rewriting them with the same bytes
 * would need the same packets at the same offsets, TSC values included.)
 * This is the program's own evidence, independent of the module's
 * WRAPPED flag, which is judged afterwards as before. The simulated unit
 * writes one round per 1 ms tick; under host load ticks are late or
 * skipped, so how long a ring takes to wrap varies (docs/testing-vm.md,
 * "Open findings").
 *
 * With stopped != NULL (full mode) it loads until every watched CPU's
 * unit has stopped by itself instead: RTIT_STATUS.Stopped in the
 * simulated unit's own MSRs (sim_msr), set when the STOP region filled
 * (SDM 33.2.7.2); the module notices only at STOP (no ToPA PMI), so
 * this is the program's evidence that a ring is full. A ring seen to
 * wrap ends the wait too (a unit that ignores STOP never stops).
 * *stopped: the mask of CPUs whose unit stopped.
 * Returns the mask of CPUs (below 64) seen to wrap; *waited_ms: the load.
 */
#define WRAP_WIN 256
/* Long enough for an 8 KiB ring at a small fraction of the 1 ms ticks. */
#define PTS_WRAP_WAIT_MS 30000
static uint64_t load_until_wrap(int fd, const __u64 *cpu_mask, unsigned int nr_cpus,
				uint64_t size, unsigned int min_ms, unsigned int max_ms,
				unsigned int *waited_ms, uint64_t *stopped)
{
	static unsigned char first[64][WRAP_WIN];
	unsigned char *m[64] = { 0 };
	uint64_t copied = 0, wrapped = 0, watched = 0, unit_stopped = 0;
	unsigned int cpu, waited = 0;

	if (size < 4 * WRAP_WIN)
		fail("ring of %llu bytes: too small to watch", (unsigned long long)size);
	for (cpu = 0; cpu < nr_cpus && cpu < 64; cpu++) {
		void *p;

		if (!cpu_in(cpu_mask, cpu))
			continue;
		p = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd,
			 (off_t)((uint64_t)cpu << PTSCOPE_MMAP_CPU_SHIFT));
		if (p == MAP_FAILED)
			fail("mmap cpu%u while armed: %s", cpu, strerror(errno));
		m[cpu] = p;
		watched |= 1ull << cpu;
	}
	for (;;) {
		for (cpu = 0; cpu < 64; cpu++) {
			const unsigned char *r = m[cpu];
			size_t i, half = (size_t)size / 2;

			if (!r || (wrapped >> cpu & 1))
				continue;
			if (copied >> cpu & 1) {
				if (memcmp(first[cpu], r, WRAP_WIN))
					wrapped |= 1ull << cpu;
				continue;
			}
			for (i = half; i < half + WRAP_WIN && !r[i]; i++)
				;
			if (i < half + WRAP_WIN) {
				copied |= 1ull << cpu;
				memcpy(first[cpu], r, WRAP_WIN);
			}
		}
		for (cpu = 0; stopped && cpu < 64; cpu++) {
			uint64_t st;

			if ((watched >> cpu & 1) && !sim_msr_value((int)cpu, "status", &st) &&
			    (st & RTIT_STATUS_STOPPED))
				unit_stopped |= 1ull << cpu;
		}
		if (stopped && unit_stopped == watched && waited >= min_ms)
			break;
		if ((wrapped && waited >= min_ms) || waited >= max_ms)
			break;
		run_spin(50);
		waited += 50;
	}
	for (cpu = 0; cpu < 64; cpu++)
		if (m[cpu])
			munmap(m[cpu], (size_t)size);
	*waited_ms = waited;
	if (stopped)
		*stopped = unit_stopped;
	return wrapped;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n < 0 ? -errno : 0;
}

/* ---- caps ---------------------------------------------------------------- */

static int do_caps(void)
{
	struct ptscope_caps c;
	int fd = open_dev(O_RDONLY), ok = 1;

	get_caps(fd, &c);
	detail("abi=%u flags=0x%x vendor=%.16s family=%u model=%u nr_cpus=%u buf=%llu..%llu",
	       c.abi_version, c.flags, c.vendor, c.family, c.model, c.nr_cpus,
	       (unsigned long long)c.min_buffer_size, (unsigned long long)c.max_buffer_size);
	if (c.abi_version != PTSCOPE_ABI_VERSION) {
		detail("abi_version!=%d", PTSCOPE_ABI_VERSION);
		ok = 0;
	}
	if (!(c.flags & PTSCOPE_CAPS_SIMULATED)) {
		detail("SIMULATED flag missing");
		ok = 0;
	}
	/* The simulated unit answers CPUID.07H:EBX[25] = 1 for its model. */
	if (!(c.cpuid_7_ebx & (1u << 25))) {
		detail("simulated CPUID.07H:EBX[25] is 0");
		ok = 0;
	}
	if (!cpu_in(c.online_mask, 0)) {
		detail("online_mask lacks cpu0");
		ok = 0;
	}
	close(fd);
	return report(ok);
}

/* ---- capture --------------------------------------------------------------- */

struct capture_opts {
	uint32_t scope;
	const char *trigger;
	uint32_t mode;
	uint64_t size;
	uint32_t post_us;
	unsigned int multi;
	char key;
	unsigned int work_ms;
	int offline_cpu;
	int expect_wrap;
};

static void fire_trigger(const struct capture_opts *o, int fd, int release_fd)
{
	char *argv[] = { "/t/ptstest", "trigger", NULL };
	char keys[32];
	int r;

	if (!strcmp(o->trigger, "manual")) {
		/* Another process, its own fd: what `ptscope trigger` does. */
		r = wait_child(spawn(argv, -1));
		if (r)
			fail("ptstest trigger (other process) exited %d", r);
	} else if (!strcmp(o->trigger, "tracepoint")) {
		/* Let the armed pid exit: sched:sched_process_exit fires. */
		if (write(release_fd, "x", 1) != 1)
			fail("releasing the workload: %s", strerror(errno));
	} else if (!strcmp(o->trigger, "sysrq_proc")) {
		keys[0] = o->key;
		keys[1] = 0;
		r = write_file("/proc/sysrq-trigger", keys);
		if (r)
			fail("write /proc/sysrq-trigger: %s", strerror(-r));
	} else if (!strcmp(o->trigger, "sysrq_key")) {
		/* The host types Alt+SysRq+key on the PS/2 keyboard. */
		printf("HOSTREQ sendkey alt-sysrq-%c\n", o->key);
		fflush(stdout);
	} else if (!strcmp(o->trigger, "ioctl_same_fd")) {
		r = cmd(fd, PTSCOPE_IOC_TRIGGER);
		if (r)
			fail("TRIGGER: %s", strerror(-r));
	}
}

static uint32_t expected_reason(const char *t)
{
	if (!strcmp(t, "tracepoint"))
		return PTSCOPE_TRIGGER_TRACEPOINT;
	if (!strncmp(t, "sysrq", 5))
		return PTSCOPE_TRIGGER_HOTKEY;
	return PTSCOPE_TRIGGER_IOCTL;
}

/* Read the sideband ring: count records of each type. */
static void read_sideband(int fd, unsigned int counts[16])
{
	static unsigned char buf[1 << 20];
	struct ptscope_sideband_read rd;
	int r;

	memset(counts, 0, 16 * sizeof(counts[0]));
	for (int rounds = 0; rounds < 64; rounds++) {
		size_t off = 0;

		memset(&rd, 0, sizeof(rd));
		rd.buf = (uint64_t)(uintptr_t)buf;
		rd.buf_len = sizeof(buf);
		r = IOC(fd, PTSCOPE_IOC_READ_SIDEBAND, rd);
		if (r) {
			detail("READ_SIDEBAND:%s(reason %u)", strerror(-r), rd.hdr.reason);
			return;
		}
		if (rd.bytes_read == 0)
			return;
		while (off + sizeof(struct ptscope_sb_hdr) <= rd.bytes_read) {
			const struct ptscope_sb_hdr *h = (const void *)(buf + off);

			if (h->size < sizeof(*h) || h->size % 8) {
				detail("sideband record size %u at %zu", h->size, off);
				counts[15]++;
				return;
			}
			counts[h->type < 15 ? h->type : 0]++;
			off += h->size;
		}
	}
}

static int do_capture(int argc, char **argv)
{
	struct capture_opts o = { .scope = PTSCOPE_SCOPE_USER, .trigger = "manual",
				  .mode = PTSCOPE_MODE_SNAPSHOT, .size = 64 * 1024,
				  .key = 'x', .work_ms = 300, .offline_cpu = -1 };
	struct ptscope_caps caps;
	struct ptscope_config cfg;
	struct ptscope_state st;
	int fd, r, ok = 1, pipefd[2] = { -1, -1 };
	pid_t wpid = 0;
	unsigned int cpu, ncpu_data = 0, sb[16];
	uint64_t total = 0, psbs = 0, wrapped_cpus = 0, stopped_cpus = 0, offlined = 0;
	uint64_t seen_wrap = 0, unit_stopped = 0;
	uint64_t full_cpus = 0;
	int oldest_psb = 1;
	uint32_t want;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";

		if (!strcmp(a, "--scope")) {
			o.scope = !strcmp(v, "kernel") ? PTSCOPE_SCOPE_KERNEL :
				  !strcmp(v, "both") ? PTSCOPE_SCOPE_BOTH : PTSCOPE_SCOPE_USER;
			i++;
		} else if (!strcmp(a, "--trigger")) {
			o.trigger = v;
			i++;
		} else if (!strcmp(a, "--mode")) {
			o.mode = !strcmp(v, "full") ? PTSCOPE_MODE_FULL : PTSCOPE_MODE_SNAPSHOT;
			i++;
		} else if (!strcmp(a, "--size")) {
			o.size = strtoull(v, NULL, 0);
			i++;
		} else if (!strcmp(a, "--post-us")) {
			o.post_us = (uint32_t)strtoul(v, NULL, 0);
			i++;
		} else if (!strcmp(a, "--multi")) {
			o.multi = (unsigned int)strtoul(v, NULL, 0);
			i++;
		} else if (!strcmp(a, "--key")) {
			o.key = v[0];
			i++;
		} else if (!strcmp(a, "--work-ms")) {
			o.work_ms = (unsigned int)strtoul(v, NULL, 0);
			i++;
		} else if (!strcmp(a, "--offline-cpu")) {
			o.offline_cpu = atoi(v);
			i++;
		} else if (!strcmp(a, "--expect-wrap")) {
			o.expect_wrap = 1;
		} else {
			fail("ptstest capture: unknown option %s", a);
		}
	}

	fd = open_dev(O_RDONLY);
	get_caps(fd, &caps);

	memset(&cfg, 0, sizeof(cfg));
	cfg.scope = o.scope;
	cfg.mode = o.mode;
	cfg.timing = PTSCOPE_TIMING_TSC;
	cfg.buffer_size = o.size;
	memcpy(cfg.cpu_mask, caps.online_mask, sizeof(cfg.cpu_mask));
	cfg.trigger.post_trigger_us = o.post_us;
	if (o.multi)
		cfg.trigger.flags |= PTSCOPE_TRIGF_MULTI;
	if (!strcmp(o.trigger, "tracepoint")) {
		char *sargv[] = { "/t/spin", "0", NULL };

		if (pipe(pipefd))
			fail("pipe: %s", strerror(errno));
		wpid = spawn(sargv, pipefd[0]);
		close(pipefd[0]);
		cfg.trigger.kinds = PTSCOPE_TRIG_TRACEPOINT;
		cfg.trigger.tracepoint_pid = wpid;
		snprintf(cfg.trigger.tracepoint, sizeof(cfg.trigger.tracepoint),
			 "sched:sched_process_exit");
	} else if (!strncmp(o.trigger, "sysrq", 5)) {
		cfg.trigger.kinds = PTSCOPE_TRIG_HOTKEY;
		cfg.trigger.hotkey = (uint32_t)(unsigned char)o.key;
	}

	r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg);
	if (r)
		fail("CONFIGURE: %s, reason %u arg %llu", strerror(-r), cfg.hdr.reason,
		     (unsigned long long)cfg.hdr.reason_arg);
	r = cmd(fd, PTSCOPE_IOC_START);
	if (r)
		fail("START: %s", strerror(-r));
	get_state(fd, &st);
	/* A full-mode ring may already have filled (STOP) by now. */
	if (st.state != PTSCOPE_STATE_ARMED &&
	    !(o.mode == PTSCOPE_MODE_FULL && st.state == PTSCOPE_STATE_STOPPED))
		fail("state after START is %s, not ARMED", state_name(st.state));
	if (!(st.flags & PTSCOPE_STATEF_SIMULATED)) {
		detail("state lacks STATEF_SIMULATED");
		ok = 0;
	}
	/*
	 * Scope is exactly RTIT_CTL.OS / RTIT_CTL.User (SDM 33.2.7.2); output
	 * is ToPA and TSC packets were asked for. (TraceEn is not checked:
	 * the value may be reported with or without it.)
	 */
	{
		int os = !!(st.rtit_ctl & RTIT_CTL_OS), user = !!(st.rtit_ctl & RTIT_CTL_USER);
		int want_os = !!(o.scope & PTSCOPE_SCOPE_KERNEL);
		int want_user = !!(o.scope & PTSCOPE_SCOPE_USER);

		detail("rtit_ctl=0x%llx", (unsigned long long)st.rtit_ctl);
		if (os != want_os || user != want_user || !(st.rtit_ctl & RTIT_CTL_TOPA) ||
		    !(st.rtit_ctl & RTIT_CTL_TSCEN)) {
			detail("RTIT_CTL OS=%d User=%d ToPA/TSCEn wrong for the scope", os, user);
			ok = 0;
		}
	}

	if (o.offline_cpu >= 0) {
		char path[96];

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
			 o.offline_cpu);
		run_spin(o.work_ms / 2);
		r = write_file(path, "0");
		if (r)
			fail("offlining cpu%d: %s", o.offline_cpu, strerror(-r));
		run_spin(o.work_ms / 2);
		r = write_file(path, "1");
		if (r)
			fail("onlining cpu%d: %s", o.offline_cpu, strerror(-r));
		detail("cpu%d offline+online", o.offline_cpu);
	}
	if (o.expect_wrap) {
		unsigned int waited;

		seen_wrap = load_until_wrap(fd, cfg.cpu_mask, caps.nr_cpus, o.size, o.work_ms,
					    PTS_WRAP_WAIT_MS, &waited, NULL);
		detail("load=%ums seen_wrapping=0x%llx", waited, (unsigned long long)seen_wrap);
		if (!seen_wrap)
			fail("no ring was seen to wrap within %u ms of load (the simulated unit's ticks: host load?)",
			     waited);
	} else if (o.mode == PTSCOPE_MODE_FULL && !strcmp(o.trigger, "none")) {
		unsigned int waited;

		seen_wrap = load_until_wrap(fd, cfg.cpu_mask, caps.nr_cpus, o.size, o.work_ms,
					    PTS_WRAP_WAIT_MS, &waited, &unit_stopped);
		detail("load=%ums unit_stopped=0x%llx seen_wrapping=0x%llx", waited,
		       (unsigned long long)unit_stopped, (unsigned long long)seen_wrap);
		if (!unit_stopped && !seen_wrap)
			fail("no unit stopped and no ring wrapped within %u ms of load (sim_msr readable? the simulated unit's ticks: host load?)",
			     waited);
	} else {
		run_spin(o.work_ms);
	}

	if (o.mode == PTSCOPE_MODE_FULL && !strcmp(o.trigger, "none")) {
		/*
		 * STOP on the last ToPA region ends the output by itself
		 * (RTIT_STATUS.Stopped, SDM 33.2.7.2). The module notices only
		 * at a stop (its ToPA entries have no INT: no PMI), so after
		 * the units stopped, stop the capture and judge the rings.
		 */
		get_state(fd, &st);
		detail("state-before-STOP=%s", state_name(st.state));
		if (st.state != PTSCOPE_STATE_STOPPED) {
			r = cmd(fd, PTSCOPE_IOC_STOP);
			if (r)
				fail("STOP: %s", strerror(-r));
			get_state(fd, &st);
		}
	} else if (o.multi) {
		/*
		 * PTSCOPE_TRIGF_MULTI keeps the trigger sources live: after
		 * each snapshot (TRIGGERED) START re-arms and the same kind of
		 * trigger takes the next one.
		 */
		for (unsigned int k = 1; k <= o.multi; k++) {
			if (k > 1) {
				r = cmd(fd, PTSCOPE_IOC_START);
				if (r)
					fail("re-arm (START) after snapshot %u: %s", k - 1, strerror(-r));
				run_spin(50);
			}
			fire_trigger(&o, fd, pipefd[1]);
			if (wait_state(fd, PTSCOPE_STATE_TRIGGERED, PTSCOPE_STATE_TRIGGERED, 10000, &st))
				fail("no snapshot %u (state %s)", k, state_name(st.state));
			if (st.nr_snapshots != k || st.trigger_reason != expected_reason(o.trigger))
				fail("snapshot %u: nr_snapshots=%u reason=%u", k, st.nr_snapshots,
				     st.trigger_reason);
		}
		detail("nr_snapshots=%u", st.nr_snapshots);
	} else {
		uint64_t t_fire = now_ns();
		unsigned int tmo = !strcmp(o.trigger, "sysrq_key") ? 30000 : 10000;

		fire_trigger(&o, fd, pipefd[1]);
		if (o.post_us) {
			get_state(fd, &st);
			if (st.state != PTSCOPE_STATE_POST_TRIGGER &&
			    now_ns() - t_fire < (uint64_t)o.post_us * 1000ull / 2) {
				detail("right after the trigger state is %s, not POST_TRIGGER",
				       state_name(st.state));
				ok = 0;
			}
		}
		if (wait_state(fd, PTSCOPE_STATE_TRIGGERED, PTSCOPE_STATE_TRIGGERED, tmo, &st))
			fail("no snapshot %u ms after the %s trigger (state %s)", tmo, o.trigger,
			     state_name(st.state));
		want = expected_reason(o.trigger);
		detail("trigger_reason=%u cpu=%u pid=%d", st.trigger_reason, st.trigger_cpu,
		       st.trigger_pid);
		if (st.trigger_reason != want) {
			detail("expected reason %u", want);
			ok = 0;
		}
		if (wpid && st.trigger_pid != wpid) {
			detail("trigger pid is not the armed pid %d", wpid);
			ok = 0;
		}
	}
	if (wpid)
		wait_child(wpid);

	/* Per-CPU status and the bytes themselves, through mmap. */
	for (cpu = 0; cpu < caps.nr_cpus && cpu < PTSCOPE_MAX_CPUS; cpu++) {
		struct ptscope_cpu_status cs;
		size_t len;
		void *m;

		if (!cpu_in(cfg.cpu_mask, cpu))
			continue;
		r = get_cpu(fd, cpu, &cs);
		if (r) {
			detail("GET_CPU_STATUS(%u): %s", cpu, strerror(-r));
			ok = 0;
			continue;
		}
		if (cs.flags & PTSCOPE_CPUF_WRAPPED)
			wrapped_cpus++;
		else if (cpu < 64 && (seen_wrap >> cpu & 1)) {
			detail("cpu%u: its ring was seen overwriting its start, no WRAPPED", cpu);
			ok = 0;
		}
		if (cs.flags & PTSCOPE_CPUF_STOPPED)
			stopped_cpus++;
		else if (cpu < 64 && (unit_stopped >> cpu & 1)) {
			detail("cpu%u: its unit stopped by itself (sim_msr), no CPUF_STOPPED", cpu);
			ok = 0;
		}
		if (cpu < 64 && (unit_stopped >> cpu & 1) && cs.bytes_valid != cs.buffer_size) {
			detail("cpu%u: its unit stopped by itself (sim_msr), bytes_valid %llu of %llu",
			       cpu, (unsigned long long)cs.bytes_valid,
			       (unsigned long long)cs.buffer_size);
			ok = 0;
		}
		if (cs.flags & PTSCOPE_CPUF_OFFLINED)
			offlined |= 1ull << cpu;
		if (cs.flags & (PTSCOPE_CPUF_ERROR | PTSCOPE_CPUF_MSR_FAULT)) {
			detail("cpu%u flags=0x%x (ERROR/MSR_FAULT)", cpu, cs.flags);
			ok = 0;
		}
		/* head = size only for a full ring stopped by ToPA STOP. */
		if (cs.buffer_size != o.size || cs.bytes_valid > cs.buffer_size ||
		    cs.head > cs.buffer_size ||
		    (cs.head == cs.buffer_size && !(cs.flags & PTSCOPE_CPUF_STOPPED)) ||
		    (cs.flags & PTSCOPE_CPUF_WRAPPED && cs.bytes_valid != cs.buffer_size)) {
			detail("cpu%u inconsistent: size=%llu head=%llu valid=%llu flags=0x%x", cpu,
			       (unsigned long long)cs.buffer_size, (unsigned long long)cs.head,
			       (unsigned long long)cs.bytes_valid, cs.flags);
			ok = 0;
		}
		total += cs.bytes_valid;
		if (!cs.bytes_valid)
			continue;
		ncpu_data++;
		len = (size_t)cs.buffer_size;
		m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)((uint64_t)cpu << PTSCOPE_MMAP_CPU_SHIFT));
		if (m == MAP_FAILED) {
			detail("mmap cpu%u: %s", cpu, strerror(errno));
			ok = 0;
			continue;
		}
		/* Unwrapped: the data is [0, head); wrapped: the whole ring. */
		psbs += count_psb(m, (size_t)cs.bytes_valid);
		/* Never wrapped: ring offset 0 holds the PSB+ of the enable. */
		if (!(cs.flags & PTSCOPE_CPUF_WRAPPED) && count_psb(m, 16) != 1)
			oldest_psb = 0;
		if (cs.bytes_valid == cs.buffer_size)
			full_cpus++;
		munmap(m, len);
	}
	detail("cpus_with_data=%u bytes=%llu psb=%llu wrapped_cpus=%llu", ncpu_data,
	       (unsigned long long)total, (unsigned long long)psbs,
	       (unsigned long long)wrapped_cpus);
	if (!ncpu_data || !psbs) {
		detail("no trace data with a PSB in any CPU ring");
		ok = 0;
	}
	if (o.expect_wrap && !wrapped_cpus) {
		detail("no ring wrapped");
		ok = 0;
	}
	if (!o.expect_wrap && o.mode == PTSCOPE_MODE_FULL) {
		if (wrapped_cpus) {
			detail("full mode wrapped");
			ok = 0;
		}
		if (!strcmp(o.trigger, "none") && (!stopped_cpus || !full_cpus)) {
			detail("stopped_cpus=%llu full_cpus=%llu: no ring filled and stopped",
			       (unsigned long long)stopped_cpus, (unsigned long long)full_cpus);
			ok = 0;
		}
		if (!oldest_psb) {
			detail("a full ring does not start with the enable PSB (oldest data lost)");
			ok = 0;
		}
	}
	if (o.offline_cpu >= 0 && !(offlined >> o.offline_cpu & 1)) {
		detail("cpu%d lacks CPUF_OFFLINED", o.offline_cpu);
		ok = 0;
	}
	if (o.post_us && st.state == PTSCOPE_STATE_TRIGGERED) {
		/* The stop comes no earlier than post_trigger_us after the trigger. */
		struct ptscope_cpu_status cs;

		if (!get_cpu(fd, st.trigger_cpu, &cs) && st.tsc_khz) {
			uint64_t us = (cs.stop_tsc - st.trigger_tsc) * 1000ull / st.tsc_khz;

			detail("trigger->stop=%lluus", (unsigned long long)us);
			if (cs.stop_tsc < st.trigger_tsc || us < o.post_us) {
				detail("stopped before post_trigger_us=%u", o.post_us);
				ok = 0;
			}
		} else {
			detail("cannot read trigger cpu stop_tsc / tsc_khz");
			ok = 0;
		}
	}

	read_sideband(fd, sb);
	detail("sideband: switch=%u exec=%u exit=%u fork=%u trigger=%u start=%u stop=%u lost=%u",
	       sb[PTSCOPE_SB_SCHED_SWITCH], sb[PTSCOPE_SB_EXEC], sb[PTSCOPE_SB_EXIT],
	       sb[PTSCOPE_SB_FORK], sb[PTSCOPE_SB_TRIGGER], sb[PTSCOPE_SB_TRACE_START],
	       sb[PTSCOPE_SB_TRACE_STOP], sb[PTSCOPE_SB_LOST]);
	if (sb[15]) {
		ok = 0;
	}
	if (strcmp(o.trigger, "none") && !sb[PTSCOPE_SB_TRIGGER]) {
		detail("no TRIGGER sideband record");
		ok = 0;
	}
	if (!sb[PTSCOPE_SB_TRACE_START]) {
		detail("no TRACE_START sideband record");
		ok = 0;
	}

	r = cmd(fd, PTSCOPE_IOC_STOP);
	if (r && r != -EINVAL) {
		detail("STOP: %s", strerror(-r));
		ok = 0;
	}
	r = cmd(fd, PTSCOPE_IOC_UNCONFIGURE);
	if (r) {
		detail("UNCONFIGURE: %s", strerror(-r));
		ok = 0;
	}
	get_state(fd, &st);
	if (st.state != PTSCOPE_STATE_IDLE) {
		detail("state after UNCONFIGURE is %s", state_name(st.state));
		ok = 0;
	}
	close(fd);
	return report(ok);
}

static int do_trigger(void)
{
	int fd = open(DEV, O_RDONLY | O_CLOEXEC), r;

	if (fd < 0) {
		fprintf(stderr, "ptstest trigger: open: %s\n", strerror(errno));
		return 1;
	}
	r = cmd(fd, PTSCOPE_IOC_TRIGGER);
	if (r)
		fprintf(stderr, "ptstest trigger: %s\n", strerror(-r));
	close(fd);
	return r ? 1 : 0;
}

/* Configure a small snapshot capture on every online CPU. */
static int configure_small(int fd, uint32_t scope, struct ptscope_config *cfg)
{
	struct ptscope_caps caps;

	get_caps(fd, &caps);
	memset(cfg, 0, sizeof(*cfg));
	cfg->scope = scope;
	cfg->mode = PTSCOPE_MODE_SNAPSHOT;
	cfg->timing = PTSCOPE_TIMING_TSC;
	cfg->buffer_size = 16384;
	memcpy(cfg->cpu_mask, caps.online_mask, sizeof(cfg->cpu_mask));
	return IOC(fd, PTSCOPE_IOC_CONFIGURE, *cfg);
}

/* ---- mmap for write / exec ------------------------------------------------- */

static int do_mmap_write(void)
{
	struct ptscope_config cfg;
	int fd = open_dev(O_RDWR), r, ok = 1;
	void *m;

	r = configure_small(fd, PTSCOPE_SCOPE_USER, &cfg);
	if (r)
		fail("CONFIGURE: %s reason %u", strerror(-r), cfg.hdr.reason);
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m != MAP_FAILED || errno != EPERM) {
		detail("PROT_WRITE|MAP_SHARED on O_RDWR fd: %s", m == MAP_FAILED ? strerror(errno) : "mapped");
		ok = 0;
	} else {
		detail("write:EPERM");
	}
	if (m != MAP_FAILED)
		munmap(m, 4096);
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (m != MAP_FAILED) {
		detail("PROT_WRITE|MAP_PRIVATE: mapped");
		ok = 0;
		munmap(m, 4096);
	} else {
		detail("private-write:%s", strerror(errno));
	}
	m = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
	if (m != MAP_FAILED) {
		detail("PROT_EXEC: mapped");
		ok = 0;
		munmap(m, 4096);
	} else {
		detail("exec:%s", strerror(errno));
	}
	/* A read-only mapping must not be upgradable (VM_MAYWRITE cleared). */
	m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		detail("PROT_READ mapping refused: %s", strerror(errno));
		ok = 0;
	} else {
		if (mprotect(m, 4096, PROT_READ | PROT_WRITE) == 0) {
			detail("mprotect(PROT_WRITE) succeeded");
			ok = 0;
		} else {
			detail("mprotect-write:%s", strerror(errno));
		}
		munmap(m, 4096);
	}
	cmd(fd, PTSCOPE_IOC_UNCONFIGURE);
	close(fd);
	return report(ok);
}

/* ---- unprivileged ------------------------------------------------------------ */

static int expect_refused(int fd, struct ptscope_config *cfg, uint32_t reason, const char *what)
{
	int r = IOC(fd, PTSCOPE_IOC_CONFIGURE, *cfg);

	if (r == 0) {
		detail("%s: ACCEPTED", what);
		cmd(fd, PTSCOPE_IOC_UNCONFIGURE);
		return 0;
	}
	detail("%s:%s/reason%u", what, strerror(-r), cfg->hdr.reason);
	if ((r != -EPERM && r != -EACCES) || cfg->hdr.reason != reason) {
		detail("(want EPERM/EACCES reason %u)", reason);
		return 0;
	}
	return 1;
}

static int do_unpriv(void)
{
	struct ptscope_config cfg;
	struct ptscope_caps caps;
	int fd, ok = 1, r;
	pid_t own;
	char *sargv[] = { "/t/spin", "0", NULL };
	int pfd[2];

	if (geteuid() == 0)
		fail("must run as a non-root user (asuser 1000 ...)");
	fd = open_dev(O_RDONLY);
	get_caps(fd, &caps);

	configure_small(fd, PTSCOPE_SCOPE_USER, &cfg); /* fills the mask */
	memset(&cfg.hdr, 0, sizeof(cfg.hdr));
	cfg.scope = PTSCOPE_SCOPE_KERNEL;
	ok &= expect_refused(fd, &cfg, PTSCOPE_R_NEED_CAP_ADMIN, "kernel");
	cfg.scope = PTSCOPE_SCOPE_BOTH;
	ok &= expect_refused(fd, &cfg, PTSCOPE_R_NEED_CAP_ADMIN, "both");

	/* User scope filtered on another user's process (pid 1, root). */
	cfg.scope = PTSCOPE_SCOPE_USER;
	cfg.flags = PTSCOPE_CFG_CR3_FILTER;
	cfg.cr3_pid = 1;
	ok &= expect_refused(fd, &cfg, PTSCOPE_R_NEED_PTRACE, "user-pid1");

	/* Tracepoint trigger on another user's process. */
	cfg.flags = 0;
	cfg.cr3_pid = 0;
	cfg.trigger.kinds = PTSCOPE_TRIG_TRACEPOINT;
	cfg.trigger.tracepoint_pid = 1;
	snprintf(cfg.trigger.tracepoint, sizeof(cfg.trigger.tracepoint), "sched:sched_process_exit");
	r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg);
	if (r == 0) {
		detail("tp-pid1:ACCEPTED");
		ok = 0;
		cmd(fd, PTSCOPE_IOC_UNCONFIGURE);
	} else {
		detail("tp-pid1:%s/reason%u", strerror(-r), cfg.hdr.reason);
		if (r != -EPERM && r != -EACCES)
			ok = 0;
	}
	memset(&cfg.trigger, 0, sizeof(cfg.trigger));

	if (pipe(pfd))
		fail("pipe");
	own = spawn(sargv, pfd[0]);

	/*
	 * A capture of its own process whose tracepoint trigger watches
	 * another user's (pid 1: when it makes a system call): refused as
	 * perf refuses a per-task event of a task it may not ptrace.
	 */
	cfg.flags = PTSCOPE_CFG_CR3_FILTER;
	cfg.cr3_pid = own;
	cfg.trigger.kinds = PTSCOPE_TRIG_TRACEPOINT;
	cfg.trigger.tracepoint_pid = 1;
	snprintf(cfg.trigger.tracepoint, sizeof(cfg.trigger.tracepoint), "raw_syscalls:sys_enter");
	ok &= expect_refused(fd, &cfg, PTSCOPE_R_NEED_PTRACE, "own-capture-tp-pid1");
	cfg.trigger.flags = PTSCOPE_TRIGF_TID;
	ok &= expect_refused(fd, &cfg, PTSCOPE_R_NEED_PTRACE, "own-capture-tp-tid1");
	memset(&cfg.trigger, 0, sizeof(cfg.trigger));

	/* Control: the same user scope on its own process is accepted. */
	r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg);
	if (r == 0) {
		detail("user-own-pid:accepted");
		cmd(fd, PTSCOPE_IOC_UNCONFIGURE);
	} else {
		detail("user-own-pid:%s/reason%u", strerror(-r), cfg.hdr.reason);
		if (cfg.hdr.reason == PTSCOPE_R_NEED_CAP_ADMIN || cfg.hdr.reason == PTSCOPE_R_NEED_PTRACE)
			ok = 0;
	}
	if (write(pfd[1], "x", 1) != 1)
		ok = 0;
	wait_child(own);
	close(fd);
	return report(ok);
}

/* ---- rmmod helpers -------------------------------------------------------------- */

static void wait_for_file(const char *path)
{
	for (int i = 0; i < 3000; i++) {
		if (access(path, F_OK) == 0)
			return;
		sleep_ms(10);
	}
	fail("timed out waiting for %s", path);
}

static int do_hold_mapped(const char *ready, const char *go)
{
	struct ptscope_config cfg;
	struct ptscope_cpu_status cs;
	struct ptscope_state st;
	int fd = open_dev(O_RDONLY), r, ok = 1;
	const volatile unsigned char *m;
	unsigned long sum = 0;
	size_t len;

	g_name = "hold_mapped";
	r = configure_small(fd, PTSCOPE_SCOPE_BOTH, &cfg);
	if (r)
		fail("CONFIGURE: %s", strerror(-r));
	if ((r = cmd(fd, PTSCOPE_IOC_START)) != 0)
		fail("START: %s", strerror(-r));
	run_spin(100);
	if ((r = cmd(fd, PTSCOPE_IOC_TRIGGER)) != 0)
		fail("TRIGGER: %s", strerror(-r));
	if (wait_state(fd, PTSCOPE_STATE_TRIGGERED, PTSCOPE_STATE_STOPPED, 10000, &st))
		fail("no snapshot");
	if (get_cpu(fd, 0, &cs))
		fail("GET_CPU_STATUS");
	len = (size_t)cs.buffer_size;
	m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		fail("mmap: %s", strerror(errno));
	close(fd);
	close(open(ready, O_CREAT | O_WRONLY, 0644));
	wait_for_file(go);
	for (size_t i = 0; i < len; i++)
		sum += m[i];
	detail("read %zu mapped bytes after rmmod attempts (sum %lu)", len, sum);
	munmap((void *)m, len);
	return report(ok);
}

static int do_arm(int hold, const char *ready, const char *go)
{
	struct ptscope_config cfg;
	int fd = open_dev(O_RDONLY), r;

	g_name = "arm";
	r = configure_small(fd, PTSCOPE_SCOPE_BOTH, &cfg);
	if (r)
		fail("CONFIGURE: %s", strerror(-r));
	if ((r = cmd(fd, PTSCOPE_IOC_START)) != 0)
		fail("START: %s", strerror(-r));
	if (hold) {
		close(open(ready, O_CREAT | O_WRONLY, 0644));
		wait_for_file(go);
	}
	close(fd);
	return 0;
}

static int do_wait_armed(unsigned int ms)
{
	struct ptscope_state st;
	int fd = open(DEV, O_RDONLY | O_CLOEXEC);
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ull;

	if (fd < 0) {
		fprintf(stderr, "ptstest wait-armed: open: %s\n", strerror(errno));
		return 1;
	}
	for (;;) {
		memset(&st, 0, sizeof(st));
		if (IOC(fd, PTSCOPE_IOC_GET_STATE, st) == 0 && st.state == PTSCOPE_STATE_ARMED)
			break;
		if (now_ns() > end) {
			fprintf(stderr, "ptstest wait-armed: state %s after %u ms\n",
				state_name(st.state), ms);
			close(fd);
			return 1;
		}
		sleep_ms(20);
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	if (argc > 2)
		g_name = argv[2];
	if (!strcmp(sub, "caps") && argc == 3)
		return do_caps();
	if (!strcmp(sub, "capture") && argc >= 3)
		return do_capture(argc - 3, argv + 3);
	if (!strcmp(sub, "trigger"))
		return do_trigger();
	if (!strcmp(sub, "mmap-write") && argc == 3)
		return do_mmap_write();
	if (!strcmp(sub, "unpriv") && argc == 3)
		return do_unpriv();
	if (!strcmp(sub, "hold-mapped") && argc == 4)
		return do_hold_mapped(argv[2], argv[3]);
	if (!strcmp(sub, "wait-armed") && argc == 3)
		return do_wait_armed((unsigned int)strtoul(argv[2], NULL, 0));
	if (!strcmp(sub, "arm-hold") && argc == 4)
		return do_arm(1, argv[2], argv[3]);
	fprintf(stderr, "usage: see the comment at the top of tests/vm/guest/ptstest.c\n");
	return 2;
}
