// SPDX-License-Identifier: GPL-2.0
/*
 * uprobetest: the user-function trigger (PTSCOPE_TRIG_UPROBE) through the
 * raw ioctl ABI, with its own process as the probed program, and the
 * target program of the ptscope command's uprobe scenarios.
 *
 *   main NAME        a uprobe on probe_main; a hit before START is ignored;
 *                    after START the child's main thread hits it: TRIGGERED,
 *                    reason UPROBE, trigger tid = that thread
 *   thread NAME      a uprobe on probe_thread, called only by a thread the
 *                    child starts after START: trigger tid = that thread,
 *                    not the process's main thread
 *   post NAME        post_trigger_us = 300 ms: POST_TRIGGER right after the
 *                    hit, then TRIGGERED; the hitting CPU stopped at least
 *                    300 ms of TSC ticks after the trigger
 *   multi NAME N     PTSCOPE_TRIGF_MULTI, N hits with a START before each:
 *                    N snapshots, each UPROBE, hit count N
 *   refusals NAME    CONFIGURE refusals of the uprobe part, each leaving
 *                    the module IDLE; an ABI-1-sized config still accepted
 *   unpriv NAME      (as uid 1000) without a pid, on pid 1 and on its own
 *                    child alike: NEED_SYS_ADMIN (perf's uprobes need
 *                    CAP_SYS_ADMIN); the same capture of its own child with
 *                    a tracepoint trigger on it is accepted (the control)
 *   perfmon NAME     (as root) keeps CAP_PERFMON only: a uprobe without a pid
 *                    and one on its own child refused, NEED_SYS_ADMIN; a
 *                    CPU-wide tracepoint trigger (CAP_PERFMON's) accepted
 *   target MODE GO [N]  the ptscope command's target: waits for file GO
 *                    (GO.1, GO.2, ... with N), then calls probe_main
 *                    (MODE main), probe_thread from a new thread (thread),
 *                    or lib_probe of /t/libupt.so mapped by itself (lib)
 *
 * The file offset of a probed function comes from this process's own
 * mapping of its executable (/proc/self/maps: address - start + pgoff),
 * not from the module or the ptscope command. Expected values come from
 * docs/abi.md (Triggers, Permissions, PTSCOPE_IOC_GET_TRIGGER).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

#include "guest.h"

#define DEV "/dev/ptscope"

static const char *g_name = "?";
static int g_fd = -1;
static pid_t g_child;

static int report(int pass)
{
	printf("RESULT %s %s %s\n", g_name, pass ? "PASS" : "FAIL", g_detail);
	fflush(stdout);
	return pass ? 0 : 1;
}

static void cleanup(void)
{
	struct ptscope_cmd c;

	if (g_child > 0) {
		kill(g_child, SIGKILL);
		waitpid(g_child, NULL, 0);
		g_child = 0;
	}
	if (g_fd < 0)
		return;
	memset(&c, 0, sizeof(c));
	IOC(g_fd, PTSCOPE_IOC_STOP, c);
	memset(&c, 0, sizeof(c));
	IOC(g_fd, PTSCOPE_IOC_UNCONFIGURE, c);
}

static void __attribute__((noreturn, format(printf, 1, 2))) fail(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	detail("%s", buf);
	cleanup();
	exit(report(0));
}

/* ---- the probed functions -------------------------------------------------- */

static volatile int sink;

__attribute__((noinline, used)) int probe_main(int x)
{
	sink += x;
	return sink * 3 + 1;
}

__attribute__((noinline, used)) int probe_thread(int x)
{
	sink -= x;
	return sink * 5 + 2;
}

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* File offset of code address a of our executable, from our own maps. */
static uint64_t file_offset_of(const void *a)
{
	uint64_t start, end, pgoff, addr = (uint64_t)(uintptr_t)a;
	char line[512], perms[8];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		fail("/proc/self/maps: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64, &start, &end, perms,
			   &pgoff) == 4 && addr >= start && addr < end && strchr(perms, 'x')) {
			fclose(f);
			return addr - start + pgoff;
		}
	fclose(f);
	fail("no executable mapping holds %p", a);
}

/* ---- the child: hits on command ---------------------------------------------- */

struct chan {
	int go[2];		/* parent -> child: one byte per hit */
	int rep[2];		/* child -> parent: the hitting tid, then an ack */
};

static void *thread_hit(void *arg)
{
	int *rep = arg;
	pid_t tid = gettid_();

	if (write(*rep, &tid, sizeof(tid)) != sizeof(tid))
		_exit(3);
	probe_thread(2);
	return NULL;
}

/* Each byte read: one hit, by the main thread (m) or a new thread (t). */
static void __attribute__((noreturn)) child_loop(struct chan *ch)
{
	char b;

	close(ch->go[1]);
	close(ch->rep[0]);
	while (read(ch->go[0], &b, 1) == 1) {
		pid_t tid = gettid_();

		if (b == 't') {
			pthread_t th;

			if (pthread_create(&th, NULL, thread_hit, &ch->rep[1]))
				_exit(2);
			pthread_join(th, NULL);
		} else {
			if (write(ch->rep[1], &tid, sizeof(tid)) != sizeof(tid))
				_exit(3);
			probe_main(1);
		}
		tid = 0;	/* ack: the hit is done */
		if (write(ch->rep[1], &tid, sizeof(tid)) != sizeof(tid))
			_exit(3);
	}
	_exit(0);
}

static void spawn(struct chan *ch)
{
	if (pipe(ch->go) || pipe(ch->rep))
		fail("pipe: %s", strerror(errno));
	g_child = fork();
	if (g_child < 0)
		fail("fork: %s", strerror(errno));
	if (!g_child)
		child_loop(ch);
	close(ch->go[0]);
	close(ch->rep[1]);
}

/* Ask for one hit; return the hitting thread's tid once the hit is done. */
static pid_t hit(struct chan *ch, char kind)
{
	pid_t tid = 0, ack = -1;

	if (write(ch->go[1], &kind, 1) != 1 ||
	    read(ch->rep[0], &tid, sizeof(tid)) != sizeof(tid) ||
	    read(ch->rep[0], &ack, sizeof(ack)) != sizeof(ack) || ack != 0)
		fail("child did not report its hit");
	return tid;
}

/* ---- the module ------------------------------------------------------------- */

static void base_cfg(struct ptscope_config *cfg, pid_t target)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN), i;

	memset(cfg, 0, sizeof(*cfg));
	cfg->scope = PTSCOPE_SCOPE_USER;
	cfg->mode = PTSCOPE_MODE_SNAPSHOT;
	cfg->timing = PTSCOPE_TIMING_TSC;
	cfg->buffer_size = 64 * 1024;
	for (i = 0; i < n && i < PTSCOPE_MAX_CPUS; i++)
		cfg->cpu_mask[i / 64] |= 1ULL << (i % 64);
	cfg->flags = PTSCOPE_CFG_CR3_FILTER;
	cfg->cr3_pid = target;
}

static void uprobe_cfg(struct ptscope_config *cfg, pid_t target, int file, uint64_t off,
		       pid_t pid)
{
	base_cfg(cfg, target);
	cfg->trigger.kinds = PTSCOPE_TRIG_UPROBE;
	cfg->uprobe.fd = file;
	cfg->uprobe.offset = off;
	cfg->uprobe.pid = pid;
}

static uint32_t run_state(void)
{
	struct ptscope_state st;

	memset(&st, 0, sizeof(st));
	if (IOC(g_fd, PTSCOPE_IOC_GET_STATE, st))
		fail("GET_STATE: %s", strerror(errno));
	return st.state;
}

static void cmd(unsigned long req, const char *what)
{
	struct ptscope_cmd c;
	int r;

	memset(&c, 0, sizeof(c));
	r = IOC(g_fd, req, c);
	if (r)
		fail("%s: %s (reason %u)", what, strerror(-r), c.hdr.reason);
}

/* Wait until TRIGGERED (poll, at most ms); the state then. */
static void wait_triggered(unsigned int ms, struct ptscope_state *st)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000;

	do {
		struct pollfd p = { .fd = g_fd, .events = POLLIN | POLLPRI };

		poll(&p, 1, 100);
		memset(st, 0, sizeof(*st));
		if (IOC(g_fd, PTSCOPE_IOC_GET_STATE, *st))
			fail("GET_STATE: %s", strerror(errno));
		if (st->state == PTSCOPE_STATE_TRIGGERED)
			return;
	} while (now_ns() < end);
	fail("not TRIGGERED %u ms after the hit (state %u)", ms, st->state);
}

static void get_trigger(struct ptscope_trigger_info *ti)
{
	int r;

	memset(ti, 0, sizeof(*ti));
	r = IOC(g_fd, PTSCOPE_IOC_GET_TRIGGER, *ti);
	if (r)
		fail("GET_TRIGGER: %s (reason %u)", strerror(-r), ti->hdr.reason);
}

/* The TRIGGER sideband record: reason and tid as GET_STATE says. */
static void check_sideband_trigger(pid_t tid)
{
	static uint8_t buf[1 << 20];
	struct ptscope_sideband_read rd;
	size_t off = 0;
	int found = 0;

	memset(&rd, 0, sizeof(rd));
	rd.buf = (uint64_t)(uintptr_t)buf;
	rd.buf_len = sizeof(buf);
	if (IOC(g_fd, PTSCOPE_IOC_READ_SIDEBAND, rd))
		fail("READ_SIDEBAND: %s", strerror(errno));
	while (off + sizeof(struct ptscope_sb_hdr) <= rd.bytes_read) {
		struct ptscope_sb_hdr *h = (void *)(buf + off);

		if (h->size < sizeof(*h) || h->size % 8)
			fail("sideband record size %u", h->size);
		if (h->type == PTSCOPE_SB_TRIGGER) {
			struct ptscope_sb_trigger *t = (void *)h;

			if (t->reason != PTSCOPE_TRIGGER_UPROBE || t->tid != tid)
				fail("TRIGGER record reason %u tid %d, want %u tid %d", t->reason,
				     t->tid, PTSCOPE_TRIGGER_UPROBE, tid);
			found++;
		}
		off += h->size;
	}
	if (found != 1)
		fail("%d TRIGGER sideband records, want 1", found);
	detail("sideband TRIGGER: uprobe, tid %d;", tid);
}

static int open_dev(void)
{
	g_fd = open(DEV, O_RDWR | O_CLOEXEC);
	if (g_fd < 0)
		fail("open %s: %s", DEV, strerror(errno));
	return g_fd;
}

static int open_self(void)
{
	int f = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

	if (f < 0)
		fail("open /proc/self/exe: %s", strerror(errno));
	return f;
}

static void configure(struct ptscope_config *cfg)
{
	int r = IOC(g_fd, PTSCOPE_IOC_CONFIGURE, *cfg);

	if (r)
		fail("CONFIGURE: %s (reason %u, arg %" PRIu64 ")", strerror(-r), cfg->hdr.reason,
		     (uint64_t)cfg->hdr.reason_arg);
}

/* ---- scenarios ---------------------------------------------------------------- */

static int sc_hit(int in_thread)
{
	struct ptscope_config cfg;
	struct ptscope_state st;
	struct ptscope_trigger_info ti;
	struct chan ch;
	uint64_t off = file_offset_of(in_thread ? (void *)probe_thread : (void *)probe_main);
	int file = open_self();
	pid_t tid;

	open_dev();
	spawn(&ch);
	uprobe_cfg(&cfg, g_child, file, off, g_child);
	configure(&cfg);
	close(file);	/* the module holds the file now */
	get_trigger(&ti);
	if (!(ti.kinds & PTSCOPE_TRIG_UPROBE) || ti.uprobe_offset != off ||
	    ti.uprobe_pid != g_child || strcmp(ti.uprobe_path, "/t/uprobetest"))
		fail("GET_TRIGGER: kinds %#x offset %#" PRIx64 " pid %d path '%s', want "
		     "uprobe %#" PRIx64 " %d /t/uprobetest", ti.kinds, (uint64_t)ti.uprobe_offset,
		     ti.uprobe_pid, ti.uprobe_path, off, g_child);
	detail("GET_TRIGGER: %s+%#" PRIx64 " pid %d;", ti.uprobe_path, off, ti.uprobe_pid);
	if (!in_thread) {
		/* configured, not armed: a hit costs a trap and does nothing */
		hit(&ch, 'm');
		get_trigger(&ti);
		if (run_state() != PTSCOPE_STATE_CONFIGURED || ti.uprobe_hits)
			fail("a hit before START: state %u, hits %" PRIu64, run_state(),
			     (uint64_t)ti.uprobe_hits);
		detail("hit before START ignored;");
	}
	cmd(PTSCOPE_IOC_START, "START");
	tid = hit(&ch, in_thread ? 't' : 'm');
	wait_triggered(10000, &st);
	get_trigger(&ti);
	if (st.trigger_reason != PTSCOPE_TRIGGER_UPROBE || st.trigger_pid != g_child ||
	    st.trigger_tid != tid || ti.uprobe_hits != 1)
		fail("reason %u pid %d tid %d hits %" PRIu64 ", want %u %d %d 1",
		     st.trigger_reason, st.trigger_pid, st.trigger_tid, (uint64_t)ti.uprobe_hits,
		     PTSCOPE_TRIGGER_UPROBE, g_child, tid);
	if (in_thread && tid == g_child)
		fail("the hitting thread is the main thread");
	detail("TRIGGERED by %s, pid %d tid %d on cpu %u;", in_thread ? "a second thread" :
	       "the main thread", st.trigger_pid, st.trigger_tid, st.trigger_cpu);
	check_sideband_trigger(tid);
	cleanup();
	if (run_state() != PTSCOPE_STATE_IDLE)
		fail("not IDLE after UNCONFIGURE");
	return report(1);
}

static int sc_multi(int n)
{
	struct ptscope_config cfg;
	struct ptscope_state st;
	struct ptscope_trigger_info ti;
	struct chan ch;
	int file = open_self(), k;

	open_dev();
	spawn(&ch);
	uprobe_cfg(&cfg, g_child, file, file_offset_of((void *)probe_main), g_child);
	cfg.trigger.flags = PTSCOPE_TRIGF_MULTI;
	configure(&cfg);
	close(file);
	for (k = 1; k <= n; k++) {
		pid_t tid;

		cmd(PTSCOPE_IOC_START, "START");
		tid = hit(&ch, 'm');
		wait_triggered(10000, &st);
		get_trigger(&ti);
		if (st.nr_snapshots != (uint32_t)k || st.trigger_reason != PTSCOPE_TRIGGER_UPROBE ||
		    st.trigger_tid != tid || ti.uprobe_hits != (uint64_t)k)
			fail("hit %d: snapshots %u reason %u tid %d hits %" PRIu64, k,
			     st.nr_snapshots, st.trigger_reason, st.trigger_tid,
			     (uint64_t)ti.uprobe_hits);
	}
	detail("%d hits, %d snapshots, each reason uprobe;", n, n);
	cleanup();
	return report(1);
}

static int sc_post(void)
{
	struct ptscope_config cfg;
	struct ptscope_state st;
	struct ptscope_cpu_status cs;
	struct chan ch;
	int file = open_self();
	uint32_t right_after;
	uint64_t us;
	pid_t tid;

	open_dev();
	spawn(&ch);
	uprobe_cfg(&cfg, g_child, file, file_offset_of((void *)probe_main), g_child);
	cfg.trigger.post_trigger_us = 300000;
	configure(&cfg);
	close(file);
	cmd(PTSCOPE_IOC_START, "START");
	tid = hit(&ch, 'm');
	right_after = run_state();
	if (right_after != PTSCOPE_STATE_POST_TRIGGER && right_after != PTSCOPE_STATE_TRIGGERED)
		fail("state %u right after the hit, want POST_TRIGGER", right_after);
	wait_triggered(10000, &st);
	memset(&cs, 0, sizeof(cs));
	cs.cpu = st.trigger_cpu;
	if (IOC(g_fd, PTSCOPE_IOC_GET_CPU_STATUS, cs) || !st.tsc_khz)
		fail("GET_CPU_STATUS of cpu %u: %s", st.trigger_cpu, strerror(errno));
	us = (cs.stop_tsc - st.trigger_tsc) * 1000ull / st.tsc_khz;
	if (st.trigger_reason != PTSCOPE_TRIGGER_UPROBE || st.trigger_tid != tid || us < 300000)
		fail("reason %u tid %d (want %d), trigger cpu stopped %" PRIu64 " us after the "
		     "trigger (want >= 300000)", st.trigger_reason, st.trigger_tid, tid, us);
	detail("state right after the hit %s; TRIGGERED, cpu %u stopped %" PRIu64
	       " us after the trigger;", right_after == PTSCOPE_STATE_POST_TRIGGER ?
	       "POST_TRIGGER" : "TRIGGERED (the 300 ms went by first)", st.trigger_cpu, us);
	cleanup();
	return report(1);
}

/* CONFIGURE must fail with errno e and reason r, and leave the module IDLE. */
static void refused(const char *what, struct ptscope_config *cfg, size_t size, int e,
		    uint32_t r)
{
	int got = xioctl(g_fd, PTSCOPE_IOC_CONFIGURE, cfg, size);

	if (got != -e || cfg->hdr.reason != r)
		fail("%s: errno %d reason %u, want %d %u", what, -got, cfg->hdr.reason, e, r);
	if (run_state() != PTSCOPE_STATE_IDLE)
		fail("%s: state %u after the refusal, want IDLE", what, run_state());
	detail("%s: %s;", what, strerror(e));
}

static int sc_refusals(void)
{
	struct ptscope_config cfg;
	struct stat sb;
	uint64_t off = file_offset_of((void *)probe_main);
	int file = open_self(), opath = open("/proc/self/exe", O_PATH | O_CLOEXEC);
	int dir = open("/t", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	open_dev();
	if (opath < 0 || dir < 0 || fstat(file, &sb))
		fail("open: %s", strerror(errno));
	uprobe_cfg(&cfg, getpid(), opath, off, getpid());
	refused("O_PATH fd", &cfg, sizeof(cfg), EINVAL, PTSCOPE_R_UPROBE_FILE);
	uprobe_cfg(&cfg, getpid(), dir, off, getpid());
	refused("directory", &cfg, sizeof(cfg), EINVAL, PTSCOPE_R_UPROBE_FILE);
	uprobe_cfg(&cfg, getpid(), 1000, off, getpid());
	refused("closed fd", &cfg, sizeof(cfg), EBADF, PTSCOPE_R_UPROBE_FILE);
	uprobe_cfg(&cfg, getpid(), file, (uint64_t)sb.st_size, getpid());
	refused("offset = file size", &cfg, sizeof(cfg), EINVAL, PTSCOPE_R_UPROBE_OFFSET);
	uprobe_cfg(&cfg, getpid(), file, off, 999999);
	refused("pid 999999", &cfg, sizeof(cfg), ESRCH, PTSCOPE_R_NO_SUCH_PID);
	uprobe_cfg(&cfg, getpid(), -1, off, getpid());
	refused("fd -1", &cfg, sizeof(cfg), EINVAL, PTSCOPE_R_BAD_TRIGGER);
	uprobe_cfg(&cfg, getpid(), file, off, getpid());
	cfg.trigger.kinds = 0;
	refused("uprobe part without its kind", &cfg, sizeof(cfg), EINVAL, PTSCOPE_R_BAD_TRIGGER);
	uprobe_cfg(&cfg, getpid(), file, off, getpid());
	cfg.uprobe.flags = 4;
	refused("uprobe flags", &cfg, sizeof(cfg), EINVAL, PTSCOPE_R_BAD_FLAGS);
	/* An ABI-1-sized struct (before uprobe) is still a valid request. */
	base_cfg(&cfg, getpid());
	if (xioctl(g_fd, PTSCOPE_IOC_CONFIGURE, &cfg, PTSCOPE_CONFIG_SIZE_VER0))
		fail("CONFIGURE with the ABI 1 size %u: %s (reason %u)",
		     (unsigned int)PTSCOPE_CONFIG_SIZE_VER0, strerror(errno), cfg.hdr.reason);
	detail("ABI 1 size %u accepted;", (unsigned int)PTSCOPE_CONFIG_SIZE_VER0);
	cleanup();
	return report(1);
}

/* The same capture of @target with a tracepoint trigger (pid 0: CPU-wide). */
static void tracepoint_cfg(struct ptscope_config *cfg, pid_t target, pid_t pid)
{
	base_cfg(cfg, target);
	cfg->trigger.kinds = PTSCOPE_TRIG_TRACEPOINT;
	cfg->trigger.tracepoint_pid = pid;
	strcpy(cfg->trigger.tracepoint, "sched:sched_process_exit");
}

/* Accepted; then unconfigured again. */
static void accepted(const char *what, struct ptscope_config *cfg)
{
	configure(cfg);
	cmd(PTSCOPE_IOC_UNCONFIGURE, "UNCONFIGURE");
	detail("%s: accepted;", what);
}

/*
 * A uprobe trigger needs CAP_SYS_ADMIN whatever its pid, as perf's uprobe
 * PMU (perf_uprobe_event_init() on 6.1 and 6.12): registering it walks
 * every process that maps the file, not only the one it fires in.
 */
static int sc_unpriv(void)
{
	struct ptscope_config cfg;
	struct chan ch;
	uint64_t off = file_offset_of((void *)probe_main);
	int file = open_self();

	if (geteuid() == 0)
		fail("run me as a user (asuser 1000)");
	open_dev();
	spawn(&ch);
	uprobe_cfg(&cfg, g_child, file, off, 0);
	refused("no pid (every process)", &cfg, sizeof(cfg), EPERM, PTSCOPE_R_NEED_SYS_ADMIN);
	uprobe_cfg(&cfg, g_child, file, off, 1);
	refused("pid 1 (root's)", &cfg, sizeof(cfg), EPERM, PTSCOPE_R_NEED_SYS_ADMIN);
	uprobe_cfg(&cfg, g_child, file, off, g_child);
	refused("own child", &cfg, sizeof(cfg), EPERM, PTSCOPE_R_NEED_SYS_ADMIN);
	tracepoint_cfg(&cfg, g_child, g_child);
	accepted("control, a tracepoint trigger on the own child", &cfg);
	cleanup();
	return report(1);
}

/* Keep CAP_PERFMON only: effective and permitted, nothing else. */
static void keep_only_perfmon(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	d[CAP_PERFMON / 32].effective = 1U << (CAP_PERFMON % 32);
	d[CAP_PERFMON / 32].permitted = 1U << (CAP_PERFMON % 32);
	if (syscall(SYS_capset, &h, d))
		fail("capset: %s", strerror(errno));
}

/*
 * As root with CAP_PERFMON and no CAP_SYS_ADMIN (what `setcap cap_perfmon`
 * gives a program): CPU-wide triggers work, a uprobe does not.
 */
static int sc_perfmon(void)
{
	struct ptscope_config cfg;
	struct chan ch;
	uint64_t off = file_offset_of((void *)probe_main);
	int file = open_self();

	if (geteuid() != 0)
		fail("run me as root");
	spawn(&ch);
	keep_only_perfmon();
	open_dev();
	uprobe_cfg(&cfg, g_child, file, off, 0);
	refused("no pid (every process)", &cfg, sizeof(cfg), EPERM, PTSCOPE_R_NEED_SYS_ADMIN);
	uprobe_cfg(&cfg, g_child, file, off, g_child);
	refused("own child", &cfg, sizeof(cfg), EPERM, PTSCOPE_R_NEED_SYS_ADMIN);
	tracepoint_cfg(&cfg, g_child, 0);
	accepted("control, a CPU-wide tracepoint trigger", &cfg);
	cleanup();
	return report(1);
}

/* ---- the ptscope command's target ----------------------------------------------- */

static void wait_file(const char *path)
{
	struct stat sb;
	int i;

	for (i = 0; i < 6000 && stat(path, &sb); i++)
		sleep_ms(10);
}

static void *thread_target(void *arg)
{
	printf("uprobetest: thread %d calls probe_thread\n", gettid_());
	fflush(stdout);
	probe_thread(3);
	return arg;
}

/*
 * Address of dynamic symbol name in an ELF file mapped whole at base (file
 * offset 0 at base): its PT_LOAD gives the file offset. NULL if absent.
 */
static void *elf_sym(uint8_t *base, size_t len, const char *name)
{
	Elf64_Ehdr *eh = (void *)base;
	Elf64_Shdr *sh = (void *)(base + eh->e_shoff);
	Elf64_Phdr *ph = (void *)(base + eh->e_phoff);
	int i, j;

	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(*sh) > len)
		return NULL;
	for (i = 0; i < eh->e_shnum; i++) {
		Elf64_Sym *sym = (void *)(base + sh[i].sh_offset);
		const char *str = (const char *)(base + sh[sh[i].sh_link].sh_offset);

		if (sh[i].sh_type != SHT_DYNSYM)
			continue;
		for (j = 0; j < (int)(sh[i].sh_size / sizeof(*sym)); j++) {
			int k;

			if (strcmp(str + sym[j].st_name, name))
				continue;
			for (k = 0; k < eh->e_phnum; k++)
				if (ph[k].p_type == PT_LOAD && sym[j].st_value >= ph[k].p_vaddr &&
				    sym[j].st_value < ph[k].p_vaddr + ph[k].p_filesz)
					return base + (sym[j].st_value - ph[k].p_vaddr +
						       ph[k].p_offset);
		}
	}
	return NULL;
}

/* lib_probe of /t/libupt.so, its file mapped executable as a loader maps code. */
static int call_lib(void)
{
	const char *lib = getenv("UPT_LIB");	/* the host's own check */
	int f = open(lib ? lib : "/t/libupt.so", O_RDONLY | O_CLOEXEC);
	struct stat sb;
	int (*fn)(int);
	uint8_t *base;

	if (f < 0 || fstat(f, &sb))
		return -1;
	base = mmap(NULL, (size_t)sb.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, f, 0);
	close(f);
	if (base == MAP_FAILED)
		return -1;
	fn = (int (*)(int))elf_sym(base, (size_t)sb.st_size, "lib_probe");
	return fn ? fn(4) : -1;
}

static int target(const char *mode, const char *go, int n)
{
	char path[512];
	int k;

	for (k = 1; k <= (n ? n : 1); k++) {
		if (n)
			snprintf(path, sizeof(path), "%s.%d", go, k);
		else
			snprintf(path, sizeof(path), "%s", go);
		wait_file(path);
		if (!strcmp(mode, "thread")) {
			pthread_t th;

			if (pthread_create(&th, NULL, thread_target, NULL))
				return 2;
			pthread_join(th, NULL);
		} else if (!strcmp(mode, "lib")) {
			if (call_lib() != 5)
				return 3;
		} else {
			probe_main(k);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: uprobetest main|thread|post|multi|refusals|unpriv|perfmon NAME [N] | "
			"target MODE GO [N]\n");
		return 2;
	}
	if (!strcmp(argv[1], "target"))
		return target(argv[2], argc > 3 ? argv[3] : "/tmp/go", argc > 4 ? atoi(argv[4]) : 0);
	g_name = argv[2];
	if (!strcmp(argv[1], "main"))
		return sc_hit(0);
	if (!strcmp(argv[1], "thread"))
		return sc_hit(1);
	if (!strcmp(argv[1], "post"))
		return sc_post();
	if (!strcmp(argv[1], "multi"))
		return sc_multi(argc > 3 ? atoi(argv[3]) : 3);
	if (!strcmp(argv[1], "refusals"))
		return sc_refusals();
	if (!strcmp(argv[1], "unpriv"))
		return sc_unpriv();
	if (!strcmp(argv[1], "perfmon"))
		return sc_perfmon();
	fail("unknown subcommand %s", argv[1]);
}
