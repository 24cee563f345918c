// SPDX-License-Identifier: GPL-2.0
/*
 * ptsunit: scenarios about the PT unit's own state, driven through the
 * raw ioctl ABI and the simulated unit's test file
 * /sys/module/ptscope/sim_msr (docs/simulated-unit.md, "Another owner"):
 * writing "CPU MSR VALUE" there is what another owner of the unit (perf's
 * intel_pt driver, KVM) would do on that CPU. One RESULT line each:
 *
 *   foreign-state NAME    another owner's values in every RTIT MSR of
 *                         every CPU before the arm are there again after
 *                         STOP and after UNCONFIGURE
 *   foreign-traceen NAME  while armed, another owner stops ptscope with
 *                         its own CTL value and sets TraceEn, on cpu1
 *                         with ptscope's tables (the module must clear
 *                         it), on cpu0 with its own buffer (the module
 *                         must leave it alone); each reported as a
 *                         conflict with its reason code
 *   lbr-bts NAME          IA32_DEBUGCTL.LBR or TR+BTS on cpu1 refuses
 *                         START (LBR_ACTIVE, BTS_ACTIVE); LBR set on cpu0
 *                         while armed is cpu0's conflict at STOP; on
 *                         cpu1 before an offline/online, cpu1 is not
 *                         re-armed and has that conflict
 *   full-hotplug NAME     full mode, 8 KiB: once cpu1's ring is full
 *                         (STOP region filled, SDM 33.2.7.2), offline and
 *                         online cpu1 while armed: it must stay stopped
 *                         with its data (head = size, not wrapped, the
 *                         mapped ring byte for byte as when it filled)
 *   reboot-armed          configure and arm every CPU, then reboot(2)
 *                         (RB_AUTOBOOT): the module's reboot notifier
 *                         must stop and release every CPU; the host reads
 *                         its log line on the console (QEMU runs with
 *                         -no-reboot, so the reset ends the run)
 *   panic-post NAME       a user-scope capture triggered with a 10 s
 *                         post-trigger delay, then a panic (sysrq c) in
 *                         the delay: the host reads the module's panic
 *                         line (the panic boot, QEMU -no-reboot, panic=-1)
 *   kdump-armed NAME KERNEL INITRD CMDLINE
 *                         load KERNEL and INITRD as the crash kernel
 *                         (kexec_file_load(2) with KEXEC_FILE_ON_CRASH, as
 *                         `kexec -s -p` does; needs crashkernel=), arm
 *                         every CPU, then panic (sysrq c): the host reads
 *                         whether the module's panic notifier ran before
 *                         the crash kernel started (the kdump boots)
 *   kexec-armed NAME KERNEL INITRD CMDLINE
 *                         load KERNEL and INITRD for kexec (kexec_file_load(2),
 *                         as `kexec -s -l` does), configure and arm every
 *                         CPU, then reboot(2) with LINUX_REBOOT_CMD_KEXEC (as
 *                         `kexec -e` does): the reboot notifiers run, then
 *                         the new kernel boots (the host reads both on the
 *                         console)
 *                         Both reboots leave a child behind that tries to
 *                         START again once the reboot notifier has stopped
 *                         the capture, and says on the kernel log whether
 *                         the module refused it (it must: user space runs on
 *                         until the reset or machine_kexec())
 *   read-fault NAME       read() of the sideband into a userfaultfd page:
 *                         while its copy to user space waits for the
 *                         fault, GET_STATE (and so every ioctl and the
 *                         reboot and PM notifiers, which take the same
 *                         lock) must not wait with it
 *   suspend-stops NAME    a suspend (s2idle, /sys/power/pm_test = freezer:
 *                         the PM notifiers run, nothing sleeps) ends an
 *                         ARMED capture and one in its post-trigger delay
 *                         (POST_TRIGGER) alike: STOPPED, reason SUSPEND, no
 *                         CPU tracing
 *   suspend-start NAME    while a suspend runs (the same pm_test), a child
 *                         that saw the notifier stop the armed capture
 *                         tries START: refused (SUSPENDING), as user space
 *                         runs on until the freezer and again after the
 *                         thaw, before PM_POST_SUSPEND
 *
 * Expected values are the hand-written constants below and the ABI's
 * reason codes, never values this program read back first.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <linux/reboot.h>
#include <linux/userfaultfd.h>
#include <time.h>
#include <unistd.h>

#include "uapi/ptscope.h"
#include "guest.h"
#include "ptscope/rtit.h"

#define DEV "/dev/ptscope"
#define SIM_MSR "/sys/module/ptscope/sim_msr"

/* Another owner's configuration (legal for the simulated Skylake-SP). */
#define F_CTL	 (RTIT_CTL_TOPA | RTIT_CTL_BRANCHEN | RTIT_CTL_OS | RTIT_CTL_USER | \
		  RTIT_CTL_TSCEN | (1ULL << RTIT_CTL_ADDR_CFG_SHIFT(0)))
#define F_BASE	 0x3f0000000ULL		/* above the VM's RAM */
#define F_OMP	 (0x7fULL | (3ULL << 7) | (0x40ULL << 32))
#define F_STATUS (0x123ULL << 32)
#define F_CR3	 0x12340000ULL
#define F_A0	 0x400000ULL
#define F_B0	 0x4fffffULL
#define F_A1	 0xffffffff81000000ULL
#define F_B1	 0xffffffff81ffffffULL

/* sim_msr's columns, in its order. */
enum { M_CTL, M_STATUS, M_BASE, M_OMP, M_CR3, M_A0, M_B0, M_A1, M_B1, M_N };
static const char *const m_name[M_N] = {
	"ctl", "status", "base", "omp", "cr3", "a0", "b0", "a1", "b1",
};
static const uint32_t m_msr[M_N] = {
	RTIT_MSR_CTL, RTIT_MSR_STATUS, RTIT_MSR_OUTPUT_BASE, RTIT_MSR_OUTPUT_MASK_PTRS,
	RTIT_MSR_CR3_MATCH, RTIT_MSR_ADDR_A(0), RTIT_MSR_ADDR_B(0),
	RTIT_MSR_ADDR_A(1), RTIT_MSR_ADDR_B(1),
};
static const uint64_t f_val[M_N] = {
	F_CTL, F_STATUS, F_BASE, F_OMP, F_CR3, F_A0, F_B0, F_A1, F_B1,
};

static const char *g_name = "?";
static int g_fd = -1;

static int report(int pass)
{
	printf("RESULT %s %s %s\n", g_name, pass ? "PASS" : "FAIL", g_detail);
	fflush(stdout);
	return pass ? 0 : 1;
}

#define IOC1(cmd, s) IOC(g_fd, cmd, s)

static int cmd(unsigned long nr)
{
	struct ptscope_cmd c;

	memset(&c, 0, sizeof(c));
	return IOC1(nr, c);
}

static void __attribute__((noreturn)) fail(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	detail("%s", buf);
	if (g_fd >= 0) {
		cmd(PTSCOPE_IOC_STOP);
		cmd(PTSCOPE_IOC_UNCONFIGURE);
	}
	exit(report(0));
}

/* Another owner's WRMSR on cpu: 0 or -errno (-EIO = #GP). */
static int sim_wrmsr(int cpu, uint32_t msr, uint64_t val)
{
	char line[96];
	int fd = open(SIM_MSR, O_WRONLY | O_CLOEXEC), n, rc = 0;

	if (fd < 0)
		fail("open %s: %s", SIM_MSR, strerror(errno));
	n = snprintf(line, sizeof(line), "%d %#x %#llx\n", cpu, msr, (unsigned long long)val);
	if (write(fd, line, (size_t)n) != n)
		rc = -errno;
	close(fd);
	return rc;
}

/* Every RTIT MSR of cpu as the simulated unit holds it now. */
static void sim_read(int cpu, uint64_t v[M_N])
{
	char buf[8192], want[16], *line;
	FILE *f = fopen(SIM_MSR, "r");
	size_t n;
	int i;

	if (!f)
		fail("open %s: %s", SIM_MSR, strerror(errno));
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	snprintf(want, sizeof(want), "cpu%d ", cpu);
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, want, strlen(want)))
			continue;
		for (i = 0; i < M_N; i++) {
			char key[16], *p;

			snprintf(key, sizeof(key), " %s=", m_name[i]);
			p = strstr(line, key);
			if (!p)
				fail("sim_msr: no %s for cpu%d", m_name[i], cpu);
			v[i] = strtoull(p + strlen(key), NULL, 0);
		}
		return;
	}
	fail("sim_msr: no line for cpu%d", cpu);
}

static void put_foreign(int cpu)
{
	int i, rc;

	/* STATUS..ADDR1_B, then CTL (M_CTL is column 0). */
	for (i = 1; i <= M_N; i++) {
		int m = i % M_N;

		rc = sim_wrmsr(cpu, m_msr[m], f_val[m]);
		if (rc)
			fail("cpu%d: foreign %s write: %s", cpu, m_name[m], strerror(-rc));
	}
}

/* Count the MSRs of cpu that no longer hold the foreign values. */
static int foreign_diff(int cpu, const char *when)
{
	uint64_t v[M_N];
	int i, bad = 0;

	sim_read(cpu, v);
	for (i = 0; i < M_N; i++) {
		if (v[i] == f_val[i])
			continue;
		detail("%s: cpu%d %s=%#llx want %#llx", when, cpu, m_name[i],
		       (unsigned long long)v[i], (unsigned long long)f_val[i]);
		bad++;
	}
	return bad;
}

static int nr_online(struct ptscope_caps *caps)
{
	int cpu, n = 0;

	for (cpu = 0; cpu < PTSCOPE_MAX_CPUS; cpu++)
		if (caps->online_mask[cpu / 64] & (1ULL << (cpu % 64)))
			n = cpu + 1;
	return n;
}

/* Open the node as g_fd and read the capabilities. */
static void open_caps(struct ptscope_caps *caps)
{
	g_fd = open(DEV, O_RDWR | O_CLOEXEC);
	if (g_fd < 0)
		fail("open %s: %s", DEV, strerror(errno));
	memset(caps, 0, sizeof(*caps));
	if (IOC1(PTSCOPE_IOC_GET_CAPS, *caps))
		fail("GET_CAPS: %s", strerror(errno));
}

/*
 * Configure with every RTIT MSR in use: two address ranges (filters over
 * the whole user half and the kernel half) and the CR3 filter on this
 * process, so the arm writes OUTPUT_*, STATUS, ADDR0/1_A/B, CR3_MATCH, CTL.
 */
/* A 64 KiB snapshot capture of this process on every online CPU. */
static void config_self(struct ptscope_config *cfg, const struct ptscope_caps *caps,
			uint32_t scope)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->scope = scope;
	cfg->mode = PTSCOPE_MODE_SNAPSHOT;
	cfg->timing = PTSCOPE_TIMING_TSC;
	cfg->buffer_size = 64 * 1024;
	memcpy(cfg->cpu_mask, caps->online_mask, sizeof(cfg->cpu_mask));
	cfg->flags = PTSCOPE_CFG_CR3_FILTER;
	cfg->cr3_pid = getpid();
}

static void configure(struct ptscope_caps *caps)
{
	struct ptscope_config cfg;
	int rc;

	open_caps(caps);
	config_self(&cfg, caps, PTSCOPE_SCOPE_BOTH);
	cfg.nr_addr_ranges = 2;
	cfg.addr[0].start = 0x1000;
	cfg.addr[0].end = 0x7fffffffffffULL;
	cfg.addr[0].cfg = PTSCOPE_ADDR_FILTER;
	cfg.addr[1].start = 0xffff800000000000ULL;
	cfg.addr[1].end = ~0ULL;
	cfg.addr[1].cfg = PTSCOPE_ADDR_FILTER;
	rc = IOC1(PTSCOPE_IOC_CONFIGURE, cfg);
	if (rc)
		fail("CONFIGURE: %s, reason %u", strerror(-rc), cfg.hdr.reason);
}

/* End a scenario: UNCONFIGURE, close the device, print the RESULT line. */
static int finish(int bad)
{
	int rc = cmd(PTSCOPE_IOC_UNCONFIGURE);

	if (rc)
		fail("UNCONFIGURE: %s", strerror(-rc));
	close(g_fd);
	return report(!bad);
}

static void cpu_status(int cpu, struct ptscope_cpu_status *st)
{
	memset(st, 0, sizeof(*st));
	st->cpu = (uint32_t)cpu;
	if (IOC1(PTSCOPE_IOC_GET_CPU_STATUS, *st))
		fail("GET_CPU_STATUS %d: %s", cpu, strerror(errno));
}

static int do_foreign_state(void)
{
	struct ptscope_caps caps;
	struct ptscope_cpu_status st;
	int cpu, n, bad = 0, rc;

	/* The other owner first (no capture configured yet). */
	open_caps(&caps);
	close(g_fd);
	g_fd = -1;
	n = nr_online(&caps);
	for (cpu = 0; cpu < n; cpu++)
		put_foreign(cpu);

	configure(&caps);
	rc = cmd(PTSCOPE_IOC_START);
	if (rc)
		fail("START: %s", strerror(-rc));
	sleep_ms(200);
	rc = cmd(PTSCOPE_IOC_STOP);
	if (rc)
		fail("STOP: %s", strerror(-rc));
	for (cpu = 0; cpu < n; cpu++) {
		cpu_status(cpu, &st);
		if (!(st.flags & PTSCOPE_CPUF_FOREIGN_STATE)) {
			detail("cpu%d: no CPUF_FOREIGN_STATE (flags %#x)", cpu, st.flags);
			bad++;
		}
		if (st.flags & (PTSCOPE_CPUF_CONFLICT | PTSCOPE_CPUF_ERROR | PTSCOPE_CPUF_MSR_FAULT)) {
			detail("cpu%d: flags %#x conflict %u", cpu, st.flags, st.conflict);
			bad++;
		}
		if (!st.head) {
			detail("cpu%d: nothing traced", cpu);
			bad++;
		}
		bad += foreign_diff(cpu, "after STOP");
	}
	rc = cmd(PTSCOPE_IOC_UNCONFIGURE);
	if (rc)
		fail("UNCONFIGURE: %s", strerror(-rc));
	for (cpu = 0; cpu < n; cpu++)
		bad += foreign_diff(cpu, "after UNCONFIGURE");
	/* Leave a clean unit for the next scenarios. */
	for (cpu = 0; cpu < n; cpu++)
		for (rc = 0; rc < M_N; rc++)
			sim_wrmsr(cpu, m_msr[rc], m_msr[rc] == RTIT_MSR_OUTPUT_MASK_PTRS ? 0x7f : 0);
	if (!bad)
		detail("%d CPUs: 9 RTIT MSRs each intact after STOP and UNCONFIGURE, ptscope traced in between", n);
	close(g_fd);
	return report(!bad);
}

static int expect_conflict(int cpu, uint32_t reason, const char *what)
{
	struct ptscope_cpu_status st;

	cpu_status(cpu, &st);
	if ((st.flags & PTSCOPE_CPUF_CONFLICT) && st.conflict == reason) {
		detail("cpu%d %s: conflict %u", cpu, what, reason);
		return 0;
	}
	detail("cpu%d %s: flags %#x conflict %u, want CPUF_CONFLICT and %u", cpu, what,
	       st.flags, st.conflict, reason);
	return 1;
}

static int do_foreign_traceen(void)
{
	struct ptscope_caps caps;
	uint64_t v[M_N];
	int bad = 0, rc;

	configure(&caps);
	if (nr_online(&caps) < 2)
		fail("needs 2 CPUs");
	rc = cmd(PTSCOPE_IOC_START);
	if (rc)
		fail("START: %s", strerror(-rc));
	sleep_ms(50);
	/*
	 * cpu1: the other owner's stop (its own CTL value without TraceEn:
	 * legal, SDM 33.2.8.2), then its start with OUTPUT_BASE left at
	 * ptscope's table (its cache said the value was already there).
	 */
	if ((rc = sim_wrmsr(1, RTIT_MSR_CTL, F_CTL)) ||
	    (rc = sim_wrmsr(1, RTIT_MSR_CTL, F_CTL | RTIT_CTL_TRACEEN)))
		fail("cpu1: foreign stop/start: %s", strerror(-rc));
	/* cpu0: the same, with its own output buffer. */
	if ((rc = sim_wrmsr(0, RTIT_MSR_CTL, F_CTL)) ||
	    (rc = sim_wrmsr(0, RTIT_MSR_OUTPUT_BASE, F_BASE)) ||
	    (rc = sim_wrmsr(0, RTIT_MSR_CTL, F_CTL | RTIT_CTL_TRACEEN)))
		fail("cpu0: foreign stop/start: %s", strerror(-rc));
	sleep_ms(50);
	rc = cmd(PTSCOPE_IOC_STOP);
	if (rc)
		fail("STOP: %s", strerror(-rc));
	bad += expect_conflict(1, PTSCOPE_R_FOREIGN_INTO_OURS, "into ptscope's tables");
	bad += expect_conflict(0, PTSCOPE_R_FOREIGN_TRACE, "own buffer");
	rc = cmd(PTSCOPE_IOC_UNCONFIGURE);
	if (rc)
		fail("UNCONFIGURE: %s", strerror(-rc));
	sim_read(1, v);
	if (v[M_CTL] & RTIT_CTL_TRACEEN) {
		detail("cpu1: TraceEn still set after UNCONFIGURE (ctl %#llx): PT writes into freed pages",
		       (unsigned long long)v[M_CTL]);
		bad++;
	}
	sim_read(0, v);
	if (v[M_CTL] != (F_CTL | RTIT_CTL_TRACEEN) || v[M_BASE] != F_BASE) {
		detail("cpu0: the other owner's tracing was touched: ctl %#llx base %#llx",
		       (unsigned long long)v[M_CTL], (unsigned long long)v[M_BASE]);
		bad++;
	}
	/* The other owner stops; leave a clean unit. */
	sim_wrmsr(0, RTIT_MSR_CTL, 0);
	for (rc = 0; rc < 2; rc++) {
		sim_wrmsr(rc, RTIT_MSR_CTL, 0);
		sim_wrmsr(rc, RTIT_MSR_STATUS, 0);
		sim_wrmsr(rc, RTIT_MSR_OUTPUT_BASE, 0);
		sim_wrmsr(rc, RTIT_MSR_OUTPUT_MASK_PTRS, 0x7f);
	}
	close(g_fd);
	return report(!bad);
}

static void cpu_online(int cpu, int on);

/*
 * START on a capture that one CPU's LBR or BTS user must refuse: EBUSY,
 * the reason, reason_arg = that CPU, and no CPU left tracing.
 */
static int start_refused(int cpu, uint64_t debugctl, uint32_t reason, const char *who)
{
	struct ptscope_cpu_status st;
	struct ptscope_cmd c;
	int rc, bad = 0;

	rc = sim_wrmsr(cpu, RTIT_MSR_DEBUGCTL, debugctl);
	if (rc)
		fail("cpu%d: DEBUGCTL <- %#llx: %s", cpu, (unsigned long long)debugctl,
		     strerror(-rc));
	memset(&c, 0, sizeof(c));
	rc = IOC1(PTSCOPE_IOC_START, c);
	if (rc != -EBUSY || c.hdr.reason != reason || c.hdr.reason_arg != (uint64_t)cpu) {
		detail("%s on cpu%d: START %s reason %u arg %llu, want EBUSY reason %u arg %d",
		       who, cpu, rc ? strerror(-rc) : "succeeded", c.hdr.reason,
		       (unsigned long long)c.hdr.reason_arg, reason, cpu);
		bad++;
		if (!rc)
			cmd(PTSCOPE_IOC_STOP);
	} else {
		detail("%s on cpu%d: START refused, reason %u", who, cpu, reason);
	}
	for (rc = 0; rc < 2; rc++) {
		cpu_status(rc, &st);
		if (st.flags & PTSCOPE_CPUF_ENABLED) {
			detail("%s on cpu%d: cpu%d traces after the refusal", who, cpu, rc);
			bad++;
		}
	}
	return bad;
}

/*
 * An LBR or BTS user beside the trace, on a model where perf keeps them
 * apart (the simulated unit is a Skylake-SP, family 6 model 0x55), played
 * by setting IA32_DEBUGCTL bits through sim_msr: START is refused while
 * one is on (LBR_ACTIVE, BTS_ACTIVE); one that comes on while armed is
 * that CPU's conflict at STOP, and only that CPU's.
 */
static int do_lbr_bts(void)
{
	struct ptscope_caps caps;
	struct ptscope_cpu_status st;
	int bad = 0, rc;

	configure(&caps);
	if (nr_online(&caps) < 2)
		fail("needs 2 CPUs");
	bad += start_refused(1, RTIT_DEBUGCTL_LBR, PTSCOPE_R_LBR_ACTIVE, "LBR");
	bad += start_refused(1, RTIT_DEBUGCTL_TR | RTIT_DEBUGCTL_BTS, PTSCOPE_R_BTS_ACTIVE,
			     "TR+BTS");
	sim_wrmsr(1, RTIT_MSR_DEBUGCTL, RTIT_DEBUGCTL_BTF | RTIT_DEBUGCTL_BTINT);
	rc = cmd(PTSCOPE_IOC_START);
	if (rc)
		fail("START with only BTF and BTINT set: %s", strerror(-rc));
	sleep_ms(50);
	rc = sim_wrmsr(0, RTIT_MSR_DEBUGCTL, RTIT_DEBUGCTL_LBR);
	if (rc)
		fail("cpu0: DEBUGCTL.LBR while armed: %s", strerror(-rc));
	sleep_ms(50);
	rc = cmd(PTSCOPE_IOC_STOP);
	if (rc)
		fail("STOP: %s", strerror(-rc));
	bad += expect_conflict(0, PTSCOPE_R_LBR_ACTIVE, "LBR set while armed");
	cpu_status(1, &st);
	if (st.flags & PTSCOPE_CPUF_CONFLICT) {
		detail("cpu1: conflict %u without an LBR or BTS user", st.conflict);
		bad++;
	}
	sim_wrmsr(0, RTIT_MSR_DEBUGCTL, 0);
	sim_wrmsr(1, RTIT_MSR_DEBUGCTL, 0);

	/* cpu1 back online with LBR on while armed: not re-armed, a conflict. */
	rc = cmd(PTSCOPE_IOC_START);
	if (rc)
		fail("START again, DEBUGCTL clear: %s", strerror(-rc));
	sleep_ms(50);
	rc = sim_wrmsr(1, RTIT_MSR_DEBUGCTL, RTIT_DEBUGCTL_LBR);
	if (rc)
		fail("cpu1: DEBUGCTL.LBR while armed: %s", strerror(-rc));
	cpu_online(1, 0);
	cpu_online(1, 1);
	sleep_ms(50);
	cpu_status(1, &st);
	if (st.flags & PTSCOPE_CPUF_ENABLED) {
		detail("cpu1 re-armed when back online beside LBR (flags %#x)", st.flags);
		bad++;
	}
	bad += expect_conflict(1, PTSCOPE_R_LBR_ACTIVE, "back online beside LBR");
	rc = cmd(PTSCOPE_IOC_STOP);
	if (rc)
		fail("STOP: %s", strerror(-rc));
	sim_wrmsr(1, RTIT_MSR_DEBUGCTL, 0);
	return finish(bad);
}

static void cpu_online(int cpu, int on)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, on ? "1" : "0", 1) != 1)
		fail("%s <- %d: %s", path, on, strerror(errno));
	close(fd);
}

#define FULL_WAIT_MS 30000

/*
 * Wait until cpu's simulated unit has RTIT_STATUS.Stopped, polling its
 * MSRs every 20 ms, at most max_ms. Returns 1 if it stopped, 0 if not;
 * *waited: the ms waited.
 */
static int wait_unit_stopped(int cpu, unsigned int max_ms, unsigned int *waited)
{
	uint64_t v[M_N];

	for (*waited = 0;; *waited += 20) {
		sim_read(cpu, v);
		if (v[M_STATUS] & RTIT_STATUS_STOPPED)
			return 1;
		if (*waited >= max_ms)
			return 0;
		sleep_ms(20);
	}
}

static int do_full_hotplug(void)
{
	static unsigned char before[8192];
	struct ptscope_config cfg;
	struct ptscope_caps caps;
	struct ptscope_cpu_status st;
	unsigned int waited;
	uint64_t v[M_N];
	int rc, bad = 0;
	void *ring;

	open_caps(&caps);
	if (nr_online(&caps) < 2)
		fail("needs 2 CPUs");
	memset(&cfg, 0, sizeof(cfg));
	cfg.scope = PTSCOPE_SCOPE_BOTH;
	cfg.mode = PTSCOPE_MODE_FULL;
	cfg.timing = PTSCOPE_TIMING_TSC;
	cfg.buffer_size = sizeof(before);
	memcpy(cfg.cpu_mask, caps.online_mask, sizeof(cfg.cpu_mask));
	rc = IOC1(PTSCOPE_IOC_CONFIGURE, cfg);
	if (rc)
		fail("CONFIGURE: %s, reason %u", strerror(-rc), cfg.hdr.reason);
	rc = cmd(PTSCOPE_IOC_START);
	if (rc)
		fail("START: %s", strerror(-rc));
	/*
	 * Until cpu1's unit has stopped by itself (RTIT_STATUS.Stopped in
	 * its own MSRs: the STOP region filled, SDM 33.2.7.2), at most
	 * FULL_WAIT_MS: one round per 1 ms tick fills 8 KiB in well under
	 * a second, but host load delays and skips ticks.
	 */
	if (wait_unit_stopped(1, FULL_WAIT_MS, &waited))
		detail("cpu1's unit stopped after %u ms", waited);
	else
		detail("cpu1's unit did not stop within %u ms", waited);
	cpu_online(1, 0);
	cpu_status(1, &st);
	if (!(st.flags & PTSCOPE_CPUF_STOPPED) || st.head != st.buffer_size) {
		/* later scenarios need both CPUs */
		cpu_online(1, 1);
		fail("cpu1 not full when offlined (flags %#x head %llu of %llu): no test", st.flags,
		     (unsigned long long)st.head, (unsigned long long)st.buffer_size);
	}
	/* cpu1's ring as it was when it filled: it must not change any more */
	ring = mmap(NULL, sizeof(before), PROT_READ, MAP_SHARED, g_fd,
		    (off_t)(1ULL << PTSCOPE_MMAP_CPU_SHIFT));
	if (ring == MAP_FAILED)
		fail("mmap cpu1's ring: %s", strerror(errno));
	memcpy(before, ring, sizeof(before));
	cpu_online(1, 1);
	/* The online callback has run: a re-armed unit has TraceEn now. */
	v[M_CTL] = 0;
	sim_read(1, v);
	if (v[M_CTL] & RTIT_CTL_TRACEEN) {
		detail("cpu1's unit re-enabled when it came back online (ctl %#llx)",
		       (unsigned long long)v[M_CTL]);
		bad++;
	}
	/* a re-armed unit would write over the oldest bytes now */
	sleep_ms(300);
	rc = cmd(PTSCOPE_IOC_STOP);
	if (rc)
		fail("STOP: %s", strerror(-rc));
	if (memcmp(before, ring, sizeof(before))) {
		detail("cpu1's full ring changed after it came back online: the oldest data was overwritten");
		bad++;
	}
	munmap(ring, sizeof(before));
	cpu_status(1, &st);
	detail("cpu1 after offline/online: flags %#x head %llu valid %llu wraps %llu of %llu",
	       st.flags, (unsigned long long)st.head, (unsigned long long)st.bytes_valid,
	       (unsigned long long)st.wrap_count, (unsigned long long)st.buffer_size);
	if (!(st.flags & PTSCOPE_CPUF_STOPPED) || (st.flags & PTSCOPE_CPUF_TRACESTOP)) {
		detail("want STOPPED (full) and not TRACESTOP");
		bad++;
	}
	if ((st.flags & PTSCOPE_CPUF_WRAPPED) || st.wrap_count || st.head != st.buffer_size ||
	    st.bytes_valid != st.buffer_size) {
		detail("want head = valid = size, not wrapped: the oldest data was overwritten");
		bad++;
	}
	if (!(st.flags & PTSCOPE_CPUF_OFFLINED)) {
		detail("want OFFLINED");
		bad++;
	}
	if (st.flags & (PTSCOPE_CPUF_ERROR | PTSCOPE_CPUF_MSR_FAULT | PTSCOPE_CPUF_CONFLICT)) {
		detail("unexpected ERROR/MSR_FAULT/CONFLICT");
		bad++;
	}
	return finish(bad);
}

/* One line on the kernel log (printk reaches the console until the reset). */
static void kmsg_line(int kmsg, const char *fmt, ...)
{
	char line[200];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof(line) && write(kmsg, line, (size_t)n) != n)
		_exit(1);
}

#define SIM_HOLD "/sys/module/ptscope/sim_reboot_hold"
/* Long enough for a child starved by a loaded host; the reboot goes on after it. */
#define HOLD_MS_DEFAULT 60000

/* A number from the environment (the kernel command line's vmtest_*=). */
static unsigned int env_uint(const char *name, unsigned int dflt)
{
	const char *v = getenv(name);

	return v && *v ? (unsigned int)strtoul(v, NULL, 0) : dflt;
}

/* Write s to the simulated unit's sim_reboot_hold: 0 or -errno. */
static int sim_hold_write(const char *s)
{
	int fd = open(SIM_HOLD, O_WRONLY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		rc = -errno;
	close(fd);
	return rc;
}

/* The child's end: release the reboot held for it, then exit. */
static void __attribute__((noreturn)) child_exit(int kmsg, const char *what, int code)
{
	int rc = sim_hold_write("0");

	if (rc && kmsg >= 0)
		kmsg_line(kmsg, "<5>vmtest: %s child: releasing sim_reboot_hold: %s\n", what,
			  strerror(-rc));
	_exit(code);
}

/*
 * Fork a child that waits until the reboot notifier has moved the armed
 * capture to STOPPED, then tries START, and writes what happened to the
 * kernel log (the host reads "START after the reboot notifier: refused
 * (SHUTTING_DOWN)" there). Its steps leave markers on the log, so that a
 * missing result names its cause (tests/vm/run.sh, child_evidence()):
 * "<what> child: polling" before the parent goes on (the child runs),
 * "<what> child: STOPPED seen, calling START" right before the ioctl
 * (the notifier ran and the child was scheduled after it); no result
 * after that one means the kexec or the reset overtook the START.
 *
 * Nothing makes the scheduler give the child a turn between the
 * notifier and the reset, so the reboot is held for it: before the fork
 * the simulated unit's sim_reboot_hold is armed (its reboot notifier,
 * which runs after the module's, waits until released, at most
 * vmtest_reboot_hold ms, default HOLD_MS_DEFAULT; 0 = no hold), and the
 * child releases it once its result is on the log, on every path out.
 * vmtest_child_delay_ms (default 0) delays the child's first poll: a
 * child descheduled that long, to show that the hold is what the result
 * rests on (docs/testing-vm.md, "Repeated runs of the final steps").
 * Context: the capture is ARMED by this process; returns in the parent
 * once the child polls.
 */
static void start_after_reboot_notifier(const char *what)
{
	unsigned int hold_ms = env_uint("vmtest_reboot_hold", HOLD_MS_DEFAULT);
	unsigned int delay_ms = env_uint("vmtest_child_delay_ms", 0);
	struct ptscope_state s;
	struct ptscope_cmd c;
	uint64_t end;
	int fd, kmsg, rc, p[2];
	char b = 0, arg[16];

	if (hold_ms) {
		snprintf(arg, sizeof(arg), "%u", hold_ms);
		rc = sim_hold_write(arg);
		if (rc)
			fail("arming %s: %s", SIM_HOLD, strerror(-rc));
		printf("vmtest: %s: the reboot is held up to %u ms for the child\n", what, hold_ms);
	} else {
		printf("vmtest: %s: the reboot is not held for the child (vmtest_reboot_hold=0)\n",
		       what);
	}
	if (pipe(p))
		fail("pipe: %s", strerror(errno));
	fflush(stdout);
	if (fork() != 0) {
		close(p[1]);
		if (read(p[0], &b, 1) != 1)
			fail("the %s child did not start polling", what);
		close(p[0]);
		return;
	}
	close(p[0]);
	fd = open(DEV, O_RDWR | O_CLOEXEC);
	kmsg = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || kmsg < 0)
		child_exit(kmsg, what, 1);
	kmsg_line(kmsg, "<5>vmtest: %s child: polling GET_STATE for the reboot notifier\n", what);
	if (write(p[1], &b, 1) != 1)
		child_exit(kmsg, what, 1);
	close(p[1]);
	if (delay_ms)
		sleep_ms(delay_ms);
	end = now_ns() + 120ull * 1000000000ull;
	do {
		memset(&s, 0, sizeof(s));
		if (IOC(fd, PTSCOPE_IOC_GET_STATE, s) == 0 &&
		    s.state == PTSCOPE_STATE_STOPPED)
			break;
	} while (now_ns() < end);
	if (s.state != PTSCOPE_STATE_STOPPED)
		child_exit(kmsg, what, 1);
	kmsg_line(kmsg, "<5>vmtest: %s child: STOPPED seen, calling START\n", what);
	memset(&c, 0, sizeof(c));
	rc = IOC(fd, PTSCOPE_IOC_START, c);
	if (rc == -EBUSY && c.hdr.reason == PTSCOPE_R_SHUTTING_DOWN)
		kmsg_line(kmsg, "<5>vmtest: START after the reboot notifier: refused (SHUTTING_DOWN)\n");
	else if (rc)
		kmsg_line(kmsg, "<5>vmtest: START after the reboot notifier: refused, but %s, reason %u\n",
			  strerror(-rc), c.hdr.reason);
	else
		kmsg_line(kmsg, "<5>vmtest: START after the reboot notifier: accepted, every CPU armed again\n");
	child_exit(kmsg, what, 0);
}

static int do_reboot_armed(void)
{
	struct ptscope_caps caps;
	int rc;

	configure(&caps);
	rc = cmd(PTSCOPE_IOC_START);
	if (rc)
		fail("START: %s", strerror(-rc));
	start_after_reboot_notifier("reboot");
	printf("=== VMTEST-REBOOT armed\n");
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	fail("reboot: %s", strerror(errno));
}

static int do_kexec_armed(const char *kernel, const char *initrd, const char *cmdline)
{
	struct ptscope_caps caps;
	int kfd, ifd, rc;

	kfd = open(kernel, O_RDONLY | O_CLOEXEC);
	ifd = open(initrd, O_RDONLY | O_CLOEXEC);
	if (kfd < 0 || ifd < 0)
		fail("open %s / %s: %s", kernel, initrd, strerror(errno));
	/* Loaded before the arm: a refused image leaves nothing armed. */
	if (syscall(SYS_kexec_file_load, kfd, ifd, strlen(cmdline) + 1, cmdline, 0UL))
		fail("kexec_file_load: %s", strerror(errno));
	configure(&caps);
	rc = cmd(PTSCOPE_IOC_START);
	if (rc)
		fail("START: %s", strerror(-rc));
	start_after_reboot_notifier("kexec");
	printf("=== VMTEST-KEXEC armed\n");
	fflush(stdout);
	sync();
	syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2, LINUX_REBOOT_CMD_KEXEC, NULL);
	fail("reboot(LINUX_REBOOT_CMD_KEXEC): %s", strerror(errno));
}

/* ---- read-fault ---------------------------------------------------------- */

#define UF_LEN	(64 * 1024)

static int g_uffd = -1;
static unsigned char *g_ufbuf;
static ssize_t g_read_n;
static int g_read_errno;

/* The reader: read() the sideband into the userfaultfd region. */
static void *uf_reader(void *arg)
{
	(void)arg;
	g_read_n = read(g_fd, g_ufbuf, UF_LEN);
	g_read_errno = g_read_n < 0 ? errno : 0;
	return NULL;
}

/* After 2 s, resolve every fault of the region with zero pages. */
static void *uf_resolver(void *arg)
{
	struct uffdio_zeropage z;

	(void)arg;
	sleep_ms(2000);
	memset(&z, 0, sizeof(z));
	z.range.start = (unsigned long)g_ufbuf;
	z.range.len = UF_LEN;
	ioctl(g_uffd, UFFDIO_ZEROPAGE, &z);
	return NULL;
}

static int do_read_fault(void)
{
	struct uffdio_register reg;
	struct uffdio_api api;
	struct ptscope_caps caps;
	struct ptscope_state s;
	struct uffd_msg msg;
	struct pollfd pfd;
	pthread_t reader, resolver;
	uint64_t t0, t1;
	int rc, bad = 0;

	g_uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	if (g_uffd < 0)
		fail("userfaultfd: %s", strerror(errno));
	memset(&api, 0, sizeof(api));
	api.api = UFFD_API;
	if (ioctl(g_uffd, UFFDIO_API, &api))
		fail("UFFDIO_API: %s", strerror(errno));
	g_ufbuf = mmap(NULL, UF_LEN, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g_ufbuf == MAP_FAILED)
		fail("mmap: %s", strerror(errno));
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (unsigned long)g_ufbuf;
	reg.range.len = UF_LEN;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(g_uffd, UFFDIO_REGISTER, &reg))
		fail("UFFDIO_REGISTER: %s", strerror(errno));

	configure(&caps);
	rc = cmd(PTSCOPE_IOC_START);
	if (rc)
		fail("START: %s", strerror(-rc));
	sleep_ms(100);	/* TRACE_START and switch records to read */
	if (pthread_create(&reader, NULL, uf_reader, NULL))
		fail("pthread_create");
	pfd.fd = g_uffd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 5000) != 1 || read(g_uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		fail("the sideband read() did not fault on the userfaultfd page");
	/* The reader now waits in its copy to user space. */
	if (pthread_create(&resolver, NULL, uf_resolver, NULL))
		fail("pthread_create");
	t0 = now_ns();
	memset(&s, 0, sizeof(s));
	rc = IOC1(PTSCOPE_IOC_GET_STATE, s);
	t1 = now_ns();
	pthread_join(resolver, NULL);
	pthread_join(reader, NULL);
	if (rc)
		fail("GET_STATE: %s", strerror(-rc));
	if (t1 - t0 > 1000000000ull) {
		detail("GET_STATE waited %llu ms for a read() stuck in a page fault (the ioctl lock held across copy_to_user)",
		       (unsigned long long)((t1 - t0) / 1000000));
		bad++;
	} else {
		detail("GET_STATE in %llu us while a read() waited in a page fault;",
		       (unsigned long long)((t1 - t0) / 1000));
	}
	if (g_read_n <= 0) {
		detail("the read() returned %zd (%s), want records", g_read_n,
		       strerror(g_read_errno));
		bad++;
	} else {
		detail("the read() then returned %zd bytes", g_read_n);
	}
	cmd(PTSCOPE_IOC_STOP);
	return finish(bad);
}

/* Write @val to the file @path: 0 or -errno. */
static int put_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), rc = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n != (ssize_t)strlen(val))
		rc = n < 0 ? -errno : -EIO;
	close(fd);
	return rc;
}

/*
 * A suspend that goes as far as freezing the tasks and back: the PM
 * notifiers (PM_SUSPEND_PREPARE, PM_POST_SUSPEND) run as in a real one.
 */
static void suspend_freezer(void)
{
	int rc;

	/* no 5 s wait at the test point (kernel/power/suspend.c) */
	put_file("/sys/module/suspend/parameters/pm_test_delay", "0");
	rc = put_file("/sys/power/pm_test", "freezer");
	if (rc)
		fail("/sys/power/pm_test: %s", strerror(-rc));
	rc = put_file("/sys/power/state", "freeze");
	put_file("/sys/power/pm_test", "none");
	if (rc)
		fail("suspend (freeze, pm_test freezer): %s", strerror(-rc));
}


/*
 * A user-scope capture of this process, triggered (ioctl) with a post-trigger
 * delay of @secs: it must be POST_TRIGGER then. Return: its trigger reason.
 */
static uint32_t post_trigger_capture(const struct ptscope_caps *caps, unsigned int secs)
{
	struct ptscope_config cfg;
	struct ptscope_state s;
	int rc;

	config_self(&cfg, caps, PTSCOPE_SCOPE_USER);
	cfg.trigger.post_trigger_us = secs * 1000000;
	rc = IOC1(PTSCOPE_IOC_CONFIGURE, cfg);
	if (rc)
		fail("CONFIGURE (post-trigger %u s): %s, reason %u", secs, strerror(-rc),
		     cfg.hdr.reason);
	rc = cmd(PTSCOPE_IOC_START);
	if (!rc)
		rc = cmd(PTSCOPE_IOC_TRIGGER);
	if (rc)
		fail("START/TRIGGER: %s", strerror(-rc));
	memset(&s, 0, sizeof(s));
	if (IOC1(PTSCOPE_IOC_GET_STATE, s) || s.state != PTSCOPE_STATE_POST_TRIGGER)
		fail("after TRIGGER with a %u s delay: state %u, want POST_TRIGGER", secs, s.state);
	return s.trigger_reason;
}
/* After a suspend: STOPPED, reason SUSPEND, no CPU tracing. Failures. */
static int check_suspended(const char *what)
{
	struct ptscope_state s;
	int bad = 0, i;

	memset(&s, 0, sizeof(s));
	if (IOC1(PTSCOPE_IOC_GET_STATE, s))
		fail("GET_STATE: %s", strerror(errno));
	if (s.state != PTSCOPE_STATE_STOPPED ||
	    s.trigger_reason != PTSCOPE_TRIGGER_SUSPEND) {
		detail("%s: after the suspend state %u reason %u, want STOPPED (%u) reason SUSPEND (%u)",
		       what, s.state, s.trigger_reason, PTSCOPE_STATE_STOPPED,
		       PTSCOPE_TRIGGER_SUSPEND);
		bad++;
	}
	for (i = 0; i < (int)(sizeof(s.armed_cpu_mask) / sizeof(s.armed_cpu_mask[0])); i++)
		if (s.armed_cpu_mask[i]) {
			detail("%s: CPUs still tracing after the suspend: word %d %#llx",
			       what, i, (unsigned long long)s.armed_cpu_mask[i]);
			bad++;
		}
	if (!bad)
		detail("%s: STOPPED, reason SUSPEND, no CPU tracing", what);
	return bad;
}

static int do_suspend_stops(void)
{
	struct ptscope_caps caps;
	struct ptscope_state s;
	int rc, bad = 0;

	if (access("/sys/power/pm_test", W_OK))
		fail("no writable /sys/power/pm_test (CONFIG_PM_DEBUG)");
	/* An armed capture. */
	configure(&caps);
	rc = cmd(PTSCOPE_IOC_START);
	if (rc)
		fail("START: %s", strerror(-rc));
	suspend_freezer();
	bad += check_suspended("armed");
	cmd(PTSCOPE_IOC_UNCONFIGURE);

	/* One in its post-trigger delay: still tracing everywhere. */
	post_trigger_capture(&caps, 8);	/* 8 s: far beyond the suspend */
	suspend_freezer();
	bad += check_suspended("post-trigger");
	/* The delay's timer must not turn it into a snapshot afterwards. */
	sleep_ms(200);
	memset(&s, 0, sizeof(s));
	if (!IOC1(PTSCOPE_IOC_GET_STATE, s) && s.state != PTSCOPE_STATE_STOPPED) {
		detail("post-trigger: state %u 200 ms after the suspend", s.state);
		bad++;
	}
	return finish(bad);
}

/* /sys/power/suspend_stats/success: suspends ended so far (pm_suspend()). */
static long suspends_done(void)
{
	char b[32] = "";
	long n = -1;
	FILE *f = fopen("/sys/power/suspend_stats/success", "r");

	if (f) {
		if (fgets(b, sizeof(b), f))
			n = strtol(b, NULL, 10);
		fclose(f);
	}
	return n;
}

/* What the child of do_suspend_start() saw; over a pipe. */
struct susp_start {
	int seen;		/* STOPPED with reason SUSPEND before its START */
	int rc;			/* START: 0 or -errno */
	uint32_t reason;
	long before, mid;	/* suspends_done() before polling, right before START */
};

/*
 * A child polls GET_STATE until the suspend's PM notifier has stopped the
 * armed capture (STOPPED, reason SUSPEND) and tries START right then: user
 * space runs on after the notifier until the freezer stops it, and again
 * from the thaw until PM_POST_SUSPEND. It must be refused (SUSPENDING).
 * suspend_stats/success is read right before the START: a START accepted
 * when it still had its old value was made before pm_suspend() returned,
 * so during the suspend; one accepted after it moved tells nothing (the
 * child was frozen before it saw the capture stopped and ran after the
 * end): tried again, three times at most.
 */
static int do_suspend_start(void)
{
	struct ptscope_caps caps;
	struct ptscope_state st;
	struct susp_start r;
	int bad = 0, tries, rc, p[2], go[2];
	char b = 0;
	pid_t pid;

	if (access("/sys/power/pm_test", W_OK))
		fail("no writable /sys/power/pm_test (CONFIG_PM_DEBUG)");
	if (suspends_done() < 0)
		fail("no /sys/power/suspend_stats/success");
	configure(&caps);
	for (tries = 1; tries <= 3; tries++) {
		rc = cmd(PTSCOPE_IOC_START);
		if (rc)
			fail("START (try %d): %s", tries, strerror(-rc));
		if (pipe(p) || pipe(go))
			fail("pipe: %s", strerror(errno));
		pid = fork();
		if (pid < 0)
			fail("fork: %s", strerror(errno));
		if (pid == 0) {
			struct ptscope_state s;
			struct ptscope_cmd c;
			uint64_t end = now_ns() + 60ull * 1000000000ull;
			int fd = open(DEV, O_RDWR | O_CLOEXEC);

			memset(&r, 0, sizeof(r));
			r.before = suspends_done();
			if (fd < 0 || write(go[1], &b, 1) != 1)
				_exit(1);
			do {
				memset(&s, 0, sizeof(s));
				if (!IOC(fd, PTSCOPE_IOC_GET_STATE, s) &&
				    s.state == PTSCOPE_STATE_STOPPED &&
				    s.trigger_reason == PTSCOPE_TRIGGER_SUSPEND) {
					r.seen = 1;
					break;
				}
			} while (now_ns() < end);
			if (r.seen) {
				memset(&c, 0, sizeof(c));
				r.mid = suspends_done();
				r.rc = IOC(fd, PTSCOPE_IOC_START, c);
				r.reason = c.hdr.reason;
			}
			_exit(write(p[1], &r, sizeof(r)) == sizeof(r) ? 0 : 1);
		}
		close(p[1]);
		close(go[1]);
		if (read(go[0], &b, 1) != 1)
			fail("the child did not start polling");
		suspend_freezer();
		memset(&r, 0, sizeof(r));
		if (read(p[0], &r, sizeof(r)) != sizeof(r))
			fail("no answer from the child");
		waitpid(pid, NULL, 0);
		close(p[0]);
		close(go[0]);
		if (!r.seen) {
			detail("try %d: the child never saw the capture STOPPED with reason SUSPEND", tries);
			bad++;
			break;
		}
		if (r.rc == -EBUSY && r.reason == PTSCOPE_R_SUSPENDING) {
			detail("try %d: START during the suspend refused (SUSPENDING)", tries);
			break;
		}
		if (r.rc) {
			detail("try %d: START during the suspend: %s reason %u, want EBUSY SUSPENDING (%u)",
			       tries, strerror(-r.rc), r.reason, PTSCOPE_R_SUSPENDING);
			bad++;
			break;
		}
		if (r.mid == r.before) {
			detail("try %d: START accepted during the suspend (after the PM notifier, before pm_suspend() returned): every CPU armed through it",
			       tries);
			bad++;
			break;
		}
		detail("try %d: START made after the suspend had ended (suspends %ld -> %ld): no evidence, again",
		       tries, r.before, r.mid);
		cmd(PTSCOPE_IOC_STOP);
	}
	if (tries > 3) {
		detail("three tries without a START inside the suspend");
		bad++;
	}
	/* Refused: the capture is as the notifier left it, no CPU tracing. */
	memset(&st, 0, sizeof(st));
	if (!bad && (IOC1(PTSCOPE_IOC_GET_STATE, st) || st.state != PTSCOPE_STATE_STOPPED ||
		     st.armed_cpu_mask[0])) {
		detail("after the suspend: state %u, CPUs tracing %#llx, want STOPPED and none",
		       st.state, (unsigned long long)st.armed_cpu_mask[0]);
		bad++;
	}
	return finish(bad);
}

/*
 * The panic and kdump boots' crash: the marker printed before reaches the
 * console, then sysrq c. Never returns: a crash that does not happen fails
 * the step. fflush() only hands the marker to the tty; the serial driver
 * sends it from its transmit interrupt, which a panic stops (on PREEMPT_RT
 * a threaded one, seen to lose the marker in one boot of a few): tcdrain()
 * returns once the UART has sent it. Not a tty (ENOTTY): nothing to wait for.
 */
static void __attribute__((noreturn)) crash_now(void)
{
	int fd;

	fflush(stdout);
	if (tcdrain(STDOUT_FILENO) && errno != ENOTTY)
		fail("tcdrain(stdout): %s", strerror(errno));
	sync();
	fd = open("/proc/sysrq-trigger", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "c", 1) != 1)
		fail("sysrq c: %s", strerror(errno));
	fail("still running after sysrq c");
}

/*
 * The panic boot's step: a capture in its post-trigger delay (10 s), then
 * a panic (sysrq c). The host reads the module's panic line after the
 * "=== VMTEST-PANIC post-trigger" marker (panic_in_post_trigger_delay).
 * Returns only if the panic did not happen.
 */
static int do_panic_post(void)
{
	struct ptscope_caps caps;
	uint32_t reason;

	open_caps(&caps);
	reason = post_trigger_capture(&caps, 10);	/* 10 s: the panic comes first */
	printf("=== VMTEST-PANIC post-trigger (reason %u)\n", reason);
	crash_now();
}

#ifndef KEXEC_FILE_ON_CRASH
#define KEXEC_FILE_ON_CRASH 0x00000002
#endif

/*
 * The kdump boots' step: KERNEL and INITRD loaded as the crash kernel, a
 * capture armed on every CPU, then a panic (sysrq c). Whether the panic
 * notifiers run before __crash_kexec() is crash_kexec_post_notifiers'
 * choice, which the guest's /init set before; the host reads the
 * module's panic line, or its absence, before the crash kernel's
 * "=== VMTEST-CRASH booted". Returns only if nothing happened.
 */
static int do_kdump_armed(const char *kernel, const char *initrd, const char *cmdline)
{
	struct ptscope_caps caps;
	int kfd, ifd, rc;

	kfd = open(kernel, O_RDONLY | O_CLOEXEC);
	ifd = open(initrd, O_RDONLY | O_CLOEXEC);
	if (kfd < 0 || ifd < 0)
		fail("open %s / %s: %s", kernel, initrd, strerror(errno));
	/* Loaded before the arm: a refused image leaves nothing armed. */
	if (syscall(SYS_kexec_file_load, kfd, ifd, strlen(cmdline) + 1, cmdline,
		    (unsigned long)KEXEC_FILE_ON_CRASH))
		fail("kexec_file_load(KEXEC_FILE_ON_CRASH): %s (crashkernel= reserved?)",
		     strerror(errno));
	configure(&caps);
	rc = cmd(PTSCOPE_IOC_START);
	if (rc)
		fail("START: %s", strerror(-rc));
	printf("=== VMTEST-KDUMP armed\n");
	crash_now();
}

int main(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 2)
		g_name = argv[2];
	if (!strcmp(sub, "foreign-state") && argc == 3)
		return do_foreign_state();
	if (!strcmp(sub, "foreign-traceen") && argc == 3)
		return do_foreign_traceen();
	if (!strcmp(sub, "lbr-bts") && argc == 3)
		return do_lbr_bts();
	if (!strcmp(sub, "full-hotplug") && argc == 3)
		return do_full_hotplug();
	if (!strcmp(sub, "reboot-armed") && argc == 3)
		return do_reboot_armed();
	if (!strcmp(sub, "read-fault") && argc == 3)
		return do_read_fault();
	if (!strcmp(sub, "suspend-stops") && argc == 3)
		return do_suspend_stops();
	if (!strcmp(sub, "suspend-start") && argc == 3)
		return do_suspend_start();
	if (!strcmp(sub, "panic-post") && argc == 3)
		return do_panic_post();
	if (!strcmp(sub, "kdump-armed") && argc == 6)
		return do_kdump_armed(argv[3], argv[4], argv[5]);
	if (!strcmp(sub, "kexec-armed") && argc == 6)
		return do_kexec_armed(argv[3], argv[4], argv[5]);
	fprintf(stderr, "usage: see the comment at the top of tests/vm/guest/ptsunit.c\n");
	return 2;
}
