// SPDX-License-Identifier: GPL-2.0
/*
 * permtest: the module's permission rules, its bookkeeping and its races,
 * through the raw ioctl ABI (include/uapi/ptscope.h), one scenario per
 * call, one "RESULT <name> PASS|FAIL <detail>" line each:
 *
 *   other-user NAME      as a non-root user, against root's armed capture
 *                        (permtest arm-hold): every ioctl but GET_CAPS and
 *                        GET_STATE refused with NOT_OWNER, GET_STATE shows
 *                        the state word only, read() and mmap() EPERM,
 *                        poll() no POLLRDBAND (READY must be /tmp/ready)
 *   own-user NAME        as a non-root user, a user-scope capture of its
 *                        own child: usable by its owner; no physical
 *                        address reaches it (output_base 0, CR3s are
 *                        identities, the sideband's CR3 of the child
 *                        equals cr3_match's identity); a buffer above the
 *                        module's unpriv_buffer_kb refused (BUFFER_LIMIT);
 *                        START after the child exited refused
 *                        (TARGET_EXITED); the sideband names no task but
 *                        the child (pids 0 or -1, no comm, no EXEC, EXIT
 *                        or FORK record of a program run meanwhile)
 *   open                 open /dev/ptscope read-only and close it; the exit
 *                        status is 0 or open()'s errno (the shell judges
 *                        it, with what a kprobe saw meanwhile)
 *   arm-hold READY GO    root: arm a kernel-scope capture (4 KiB sideband
 *                        rings), wait up to 3 s for its own poll() to say
 *                        POLLRDBAND, create READY holding "rdband" (or
 *                        "none"), wait for GO, unconfigure
 *   mapcount NAME        root: a fork of a mapping of an old configuration,
 *                        both unmapped, does not leave CONFIGURE refused
 *   mremap-split NAME    root: a 4-page mapping of cpu0's ring after a
 *                        capture: growing it refused (EFAULT,
 *                        VM_DONTEXPAND); moved (MREMAP_FIXED), split by
 *                        unmapping its second page, shrunk, and copied by
 *                        fork(), every piece reads the ring's bytes at
 *                        its offset; CONFIGURE refused (MAPPED) while any
 *                        piece is left, accepted once the last is gone
 *   hotplug-loop NAME MS root: CONFIGURE/UNCONFIGURE with a tracepoint
 *                        trigger in a loop for MS ms (the caller toggles
 *                        cpu1 meanwhile): no call hangs
 *   trigger-race NAME MS root: TRIGGER and sysrq triggers in loops against
 *                        START/STOP in a loop: TRIGGERED always has a
 *                        reason and no CPU tracing
 *   fifo-stop NAME       root: a SCHED_FIFO spinner pinned on cpu1, the
 *                        trigger on cpu0: cpu1 stops and the capture
 *                        completes while the spinner still runs
 *   tp-pidns NAME        root, in a new pid namespace: a tracepoint
 *                        trigger on a pid of that namespace fires when
 *                        that process exits
 *   tp-typed NAME        root: tracepoint triggers are typed probes for
 *                        a list of tracepoints: a listed event under
 *                        another subsystem is TRACEPOINT_NOT_FOUND, an
 *                        existing tracepoint outside the list BAD_TRIGGER
 *                        (EOPNOTSUPP); listed tracepoints with arguments
 *                        (sys_enter, sched_switch, signal_deliver) fire
 *                        for the one pid they are armed on
 *   sb-pidns NAME        root, a capture configured in a new pid
 *                        namespace: GET_STATE's trigger pid and every pid
 *                        of the sideband are of that namespace (its own
 *                        processes 1, 2 and 3, 0 for idle, -1 for a task it
 *                        cannot see): the FORK and EXIT of a child and the
 *                        TRIGGER name the pids fork() and the namespace's
 *                        /proc give
 *   configure-keeps NAME root: a triggered capture with hotkey x; CONFIGUREs
 *                        refused for a missing or unlisted tracepoint,
 *                        the kernel's sysrq key b, a uprobe fd not open, a
 *                        directory, an offset past the end, int3 bytes
 *                        this process maps (the kernel's ENOTSUPP), 64 MiB
 *                        sideband rings from a 16 MiB memory cgroup (each
 *                        with a new hotkey y): each leaves the capture as it was
 *                        (TRIGGERED, same trigger, hotkey x registered);
 *                        then x again, y, and x are accepted (nothing
 *                        the refusals took is left held)
 *   configure-replace NAME root: kprobes on the kernel's registration
 *                        functions during CONFIGUREs that replace a
 *                        triggered capture: every new hook registered
 *                        before an old one is unregistered; the
 *                        sideband's and records' probes and a hotkey
 *                        kept are never unregistered
 *   mmap-compact NAME    root: PTSCOPE_MMAP_RING_OFFSET(cpu) maps the
 *                        bytes cpu << 40 maps; bits 31-33 set or a CPU
 *                        the machine lacks: EINVAL
 *   mmap-compact-ia32 NAME PROG root: the same from the 32-bit PROG
 *                        (mmap2), SKIP when the kernel runs no 32-bit code
 *   unconfigure-forgets NAME root: a triggered capture with a kernel-text
 *                        address filter, then UNCONFIGURE: GET_STATE is 0
 *                        but state, tsc_khz and flags; GET_CPU_STATUS of
 *                        cpu0 is 0 but ONLINE
 *
 * The expectations come from docs/abi.md ("Permissions", "Triggers"),
 * never from values this program made.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

#define DEV "/dev/ptscope"

static const char *g_name = "?";
static int g_ok = 1;

/* A failed expectation: noted, the scenario goes on. */
static void bad(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	detail("FAIL(%s)", buf);
	g_ok = 0;
}

static int report(void)
{
	printf("RESULT %s %s %s\n", g_name, g_ok ? "PASS" : "FAIL", g_detail);
	fflush(stdout);
	return g_ok ? 0 : 1;
}

static void __attribute__((noreturn)) die(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	detail("ABORT(%s)", buf);
	g_ok = 0;
	exit(report());
}

static int open_dev(void)
{
	int fd = open(DEV, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die("open %s: %s", DEV, strerror(errno));
	return fd;
}

/* A command ioctl; the refusal's reason in *reason. */
static int cmd_r(int fd, unsigned long nr, uint32_t *reason)
{
	struct ptscope_cmd c;
	int r;

	memset(&c, 0, sizeof(c));
	r = IOC(fd, nr, c);
	if (reason)
		*reason = c.hdr.reason;
	return r;
}

static void get_state(int fd, struct ptscope_state *s)
{
	int r;

	memset(s, 0, sizeof(*s));
	r = IOC(fd, PTSCOPE_IOC_GET_STATE, *s);
	if (r)
		die("GET_STATE: %s", strerror(-r));
}

static void small_config(int fd, uint32_t scope, struct ptscope_config *cfg)
{
	struct ptscope_caps caps;
	int r;

	memset(&caps, 0, sizeof(caps));
	r = IOC(fd, PTSCOPE_IOC_GET_CAPS, caps);
	if (r)
		die("GET_CAPS: %s", strerror(-r));
	memset(cfg, 0, sizeof(*cfg));
	cfg->scope = scope;
	cfg->mode = PTSCOPE_MODE_SNAPSHOT;
	cfg->timing = PTSCOPE_TIMING_TSC;
	cfg->buffer_size = 16384;
	memcpy(cfg->cpu_mask, caps.online_mask, sizeof(cfg->cpu_mask));
}

/*
 * A child that runs a little user code every 5 ms (so it is switched in
 * while a capture is armed) until its pipe is closed, then exits.
 */
static pid_t spawn_waiter(int *wfd)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		volatile unsigned long n = 0;
		char c;

		close(p[1]);
		fcntl(p[0], F_SETFL, O_NONBLOCK);
		while (read(p[0], &c, 1) < 0 && (errno == EAGAIN || errno == EINTR)) {
			for (n = 0; n < 20000; n++)
				;
			sleep_ms(5);
		}
		_exit(0);
	}
	close(p[0]);
	*wfd = p[1];
	return pid;
}

static void wait_for_file(const char *path)
{
	struct stat sb;
	int i;

	for (i = 0; i < 600 && stat(path, &sb); i++)
		sleep_ms(100);
}

/* ---- another user's capture ---------------------------------------------- */

/* Expect -EPERM with NOT_OWNER. */
static void want_not_owner(const char *what, int r, uint32_t reason)
{
	if (r == -EPERM && reason == PTSCOPE_R_NOT_OWNER)
		detail("%s:refused", what);
	else
		bad("%s:%s reason %u, want EPERM NOT_OWNER", what,
		    r ? strerror(-r) : "ACCEPTED", reason);
}

/* Did arm-hold's own poll see POLLRDBAND (its ready file, /tmp/ready)? */
static int owner_saw_rdband(void)
{
	char b[8] = "";
	int f = open("/tmp/ready", O_RDONLY | O_CLOEXEC);

	if (f < 0)
		return 0;
	if (read(f, b, sizeof(b) - 1) < 0)
		b[0] = '\0';
	close(f);
	return !strncmp(b, "rdband", 6);
}

static int do_other_user(void)
{
	static const struct { unsigned long nr; const char *name; } cmds[] = {
		{ PTSCOPE_IOC_TRIGGER, "TRIGGER" }, { PTSCOPE_IOC_STOP, "STOP" },
		{ PTSCOPE_IOC_START, "START" }, { PTSCOPE_IOC_UNCONFIGURE, "UNCONFIGURE" },
	};
	struct ptscope_cpu_status cs;
	struct ptscope_sideband_read sr;
	struct ptscope_config cfg;
	struct ptscope_state st;
	unsigned char buf[4096];
	unsigned int i;
	uint32_t reason;
	void *m;
	int fd, r;

	if (geteuid() == 0)
		die("must run as a non-root user");
	fd = open_dev();
	get_state(fd, &st);
	if (st.state != PTSCOPE_STATE_ARMED)
		die("root's capture is not armed (state %u)", st.state);
	/* GET_STATE: the state word, nothing of the capture itself. */
	if (st.rtit_ctl || st.trigger_tsc || st.time_at_start.tsc || st.armed_cpu_mask[0] ||
	    st.sideband_bytes)
		bad("GET_STATE shows another user's capture: rtit_ctl %#llx start tsc %llu cpus %#llx sideband %llu",
		    (unsigned long long)st.rtit_ctl, (unsigned long long)st.time_at_start.tsc,
		    (unsigned long long)st.armed_cpu_mask[0], (unsigned long long)st.sideband_bytes);
	else
		detail("GET_STATE:state-only");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		r = cmd_r(fd, cmds[i].nr, &reason);
		want_not_owner(cmds[i].name, r, reason);
	}
	memset(&cs, 0, sizeof(cs));
	r = IOC(fd, PTSCOPE_IOC_GET_CPU_STATUS, cs);
	want_not_owner("GET_CPU_STATUS", r, cs.hdr.reason);
	memset(&sr, 0, sizeof(sr));
	sr.buf = (uint64_t)(uintptr_t)buf;
	sr.buf_len = sizeof(buf);
	r = IOC(fd, PTSCOPE_IOC_READ_SIDEBAND, sr);
	want_not_owner("READ_SIDEBAND", r, sr.hdr.reason);
	/* A user-scope capture of its own would replace root's: refused too. */
	small_config(fd, PTSCOPE_SCOPE_USER, &cfg);
	cfg.flags = PTSCOPE_CFG_CR3_FILTER;
	cfg.cr3_pid = getpid();
	r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg);
	want_not_owner("CONFIGURE", r, cfg.hdr.reason);
	errno = 0;
	if (read(fd, buf, sizeof(buf)) >= 0 || errno != EPERM)
		bad("read:%s, want EPERM", errno ? strerror(errno) : "ACCEPTED");
	else
		detail("read:EPERM");
	/*
	 * poll(): the sideband's fill is root's to know. arm-hold wrote
	 * "rdband" into its ready file when its own poll said half full.
	 */
	if (owner_saw_rdband()) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLRDBAND };

		if (poll(&pfd, 1, 0) < 0 || (pfd.revents & POLLRDBAND))
			bad("poll:%#x, want no POLLRDBAND (root's sideband fill)", pfd.revents);
		else
			detail("poll:no-RDBAND");
	} else {
		bad("rig: root's poll never said RDBAND");
	}
	m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (m != MAP_FAILED || errno != EPERM)
		bad("mmap:%s, want EPERM", m != MAP_FAILED ? "ACCEPTED" : strerror(errno));
	else
		detail("mmap:EPERM");
	get_state(fd, &st);
	if (st.state != PTSCOPE_STATE_ARMED)
		bad("root's capture no longer armed: state %u", st.state);
	close(fd);
	return report();
}

/* ---- one's own capture ---------------------------------------------------- */

/* What an unprivileged capture's sideband says about other tasks. */
struct sb_others {
	unsigned int named;	/* pids other than 0, -1 and the target's */
	unsigned int comms;	/* a switch to a hidden task that names it */
	unsigned int procs;	/* EXEC/EXIT/FORK records of another process */
	unsigned int unrelated;	/* switches in which the target is neither side */
	unsigned int hidden_cr3; /* a CR3 of a task written as PTSCOPE_PID_OUTSIDE */
	int first_type;		/* type of the first record that did */
	int32_t first_pid;
};

static void sb_other_pid(struct sb_others *o, const struct ptscope_sb_hdr *h,
			 int32_t p, pid_t target)
{
	if (p == 0 || p == PTSCOPE_PID_OUTSIDE || p == target)
		return;
	if (!o->named++ && !o->comms && !o->procs) {
		o->first_type = h->type;
		o->first_pid = p;
	}
}

/*
 * Read the sideband; the CR3 of the first switch to @pid in *cr3, and in
 * *o what the records say about tasks outside process @pid (which
 * forks no child while armed).
 */
static unsigned int sideband_cr3_of(int fd, pid_t pid, uint64_t *cr3,
				    struct sb_others *o)
{
	static unsigned char buf[1 << 16];
	unsigned int n = 0;
	ssize_t len;

	*cr3 = 0;
	memset(o, 0, sizeof(*o));
	while ((len = read(fd, buf, sizeof(buf))) > 0) {
		size_t off = 0;

		while (off + sizeof(struct ptscope_sb_hdr) <= (size_t)len) {
			const struct ptscope_sb_hdr *h = (const void *)(buf + off);

			if (!h->size)
				break;
			if (h->type == PTSCOPE_SB_SCHED_SWITCH) {
				const struct ptscope_sb_switch *s = (const void *)h;

				if (s->next_pid == pid && !*cr3)
					*cr3 = s->next_cr3;
				n++;
				sb_other_pid(o, h, s->prev_pid, pid);
				sb_other_pid(o, h, s->prev_tid, pid);
				sb_other_pid(o, h, s->next_pid, pid);
				sb_other_pid(o, h, s->next_tid, pid);
				if (s->next_pid == PTSCOPE_PID_OUTSIDE && s->next_comm[0])
					o->comms++;
				if (s->next_pid == PTSCOPE_PID_OUTSIDE && s->next_cr3)
					o->hidden_cr3++;
				if (s->prev_pid != pid && s->next_pid != pid)
					o->unrelated++;
			} else if (h->type == PTSCOPE_SB_EXEC ||
				   h->type == PTSCOPE_SB_EXIT ||
				   h->type == PTSCOPE_SB_FORK) {
				/* pid/tid (EXEC, EXIT) or parent pid/tid (FORK) first */
				const int32_t *p = (const int32_t *)(h + 1);

				if (p[0] != pid) {
					if (!o->procs++ && !o->named && !o->comms) {
						o->first_type = h->type;
						o->first_pid = p[0];
					}
				}
			} else if ((h->type == PTSCOPE_SB_TRACE_START ||
				    h->type == PTSCOPE_SB_TRACE_STOP) &&
				   h->size >= sizeof(struct ptscope_sb_trace)) {
				const struct ptscope_sb_trace *t = (const void *)h;

				sb_other_pid(o, h, t->pid, pid);
				sb_other_pid(o, h, t->tid, pid);
				if (t->pid == PTSCOPE_PID_OUTSIDE && t->cr3)
					o->hidden_cr3++;
			}
			off += h->size;
		}
	}
	return n;
}

/* Another process runs a program (exec) and exits while armed. */
static void run_other_program(void)
{
	pid_t p = fork();

	if (p == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (p > 0)
		waitpid(p, NULL, 0);
}

static int do_own_user(void)
{
	struct ptscope_cpu_status cs;
	struct ptscope_config cfg;
	struct ptscope_state st;
	struct sb_others oth;
	uint64_t sb_cr3;
	uint32_t reason;
	unsigned int nsw;
	pid_t child;
	int fd, r, wfd;

	if (geteuid() == 0)
		die("must run as a non-root user");
	fd = open_dev();
	child = spawn_waiter(&wfd);

	/* More than the default unpriv_buffer_kb (4096 KiB) per CPU. */
	small_config(fd, PTSCOPE_SCOPE_USER, &cfg);
	cfg.flags = PTSCOPE_CFG_CR3_FILTER;
	cfg.cr3_pid = child;
	cfg.buffer_size = 8u << 20;
	r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg);
	if (r == -EPERM && cfg.hdr.reason == PTSCOPE_R_BUFFER_LIMIT)
		detail("8MiB:BUFFER_LIMIT(limit %llu)", (unsigned long long)cfg.hdr.reason_arg);
	else
		bad("8MiB ring:%s reason %u, want EPERM BUFFER_LIMIT",
		    r ? strerror(-r) : "ACCEPTED", cfg.hdr.reason);
	if (!r)
		cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);

	small_config(fd, PTSCOPE_SCOPE_USER, &cfg);
	cfg.flags = PTSCOPE_CFG_CR3_FILTER;
	cfg.cr3_pid = child;
	r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg);
	if (r)
		die("CONFIGURE own child: %s reason %u", strerror(-r), cfg.hdr.reason);
	if ((r = cmd_r(fd, PTSCOPE_IOC_START, &reason)))
		die("START: %s reason %u", strerror(-r), reason);
	run_other_program();
	sleep_ms(300);
	if ((r = cmd_r(fd, PTSCOPE_IOC_STOP, &reason)))
		bad("STOP by its owner: %s reason %u", strerror(-r), reason);
	get_state(fd, &st);
	if (!(st.flags & PTSCOPE_STATEF_CR3_IDENTITY))
		bad("GET_STATE.flags %#x without CR3_IDENTITY: cr3_match %#llx is physical",
		    st.flags, (unsigned long long)st.cr3_match);
	else
		detail("cr3_match:identity");
	if (!st.time_at_start.tsc)
		bad("owner sees no time_at_start");
	memset(&cs, 0, sizeof(cs));
	cs.cpu = 0;
	r = IOC(fd, PTSCOPE_IOC_GET_CPU_STATUS, cs);
	if (r)
		bad("GET_CPU_STATUS by its owner: %s reason %u", strerror(-r), cs.hdr.reason);
	else if (cs.output_base)
		bad("output_base %#llx: a physical address", (unsigned long long)cs.output_base);
	else
		detail("output_base:0");
	nsw = sideband_cr3_of(fd, child, &sb_cr3, &oth);
	if (oth.named || oth.comms || oth.procs)
		bad("the sideband of a capture of pid %d names other tasks: %u pids, %u comms, %u exec/exit/fork records (first: type %d pid %d)",
		    (int)child, oth.named, oth.comms, oth.procs, oth.first_type, oth.first_pid);
	else
		detail("sideband:no-other-task");
	/*
	 * perf's per-task PERF_RECORD_SWITCH: the target's own switches in
	 * and out only, and nothing that tells other address spaces apart.
	 */
	if (oth.unrelated || oth.hidden_cr3)
		bad("the sideband of a capture of pid %d has %u switches between other tasks and %u CR3s of hidden tasks",
		    (int)child, oth.unrelated, oth.hidden_cr3);
	else
		detail("sideband:own-switches-only");
	if (!nsw)
		bad("no sched_switch record in the sideband");
	else if (!sb_cr3)
		detail("(child never switched in while armed)");
	else if (!(st.flags & PTSCOPE_STATEF_CR3_KPTI) && sb_cr3 != st.cr3_match)
		bad("sideband CR3 of the child %#llx != cr3_match %#llx: identities differ",
		    (unsigned long long)sb_cr3, (unsigned long long)st.cr3_match);
	else
		detail("sideband-cr3:matches(%u switches)", nsw);

	/* The target goes: its address space can never match again. */
	close(wfd);
	waitpid(child, NULL, 0);
	get_state(fd, &st);
	if (!(st.flags & PTSCOPE_STATEF_TARGET_EXITED))
		bad("flags %#x without TARGET_EXITED after the child exited", st.flags);
	r = cmd_r(fd, PTSCOPE_IOC_START, &reason);
	if (r == -ESRCH && reason == PTSCOPE_R_TARGET_EXITED)
		detail("START-after-exit:TARGET_EXITED");
	else
		bad("START after the target exited: %s reason %u, want ESRCH TARGET_EXITED",
		    r ? strerror(-r) : "ACCEPTED", reason);
	cmd_r(fd, PTSCOPE_IOC_STOP, NULL);
	if ((r = cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, &reason)))
		bad("UNCONFIGURE by its owner: %s reason %u", strerror(-r), reason);
	close(fd);
	return report();
}

/* ---- root helpers and scenarios -------------------------------------------- */

static int do_arm_hold(const char *ready, const char *go)
{
	struct ptscope_config cfg;
	struct pollfd pfd;
	char tmp[256];
	uint32_t reason;
	int fd = open_dev(), r, i, rd;

	g_name = "arm-hold";
	small_config(fd, PTSCOPE_SCOPE_KERNEL, &cfg);
	/* 4 KiB sideband rings: half full within moments (poll's RDBAND) */
	cfg.sideband_size = 4096;
	r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg);
	if (r)
		die("CONFIGURE: %s reason %u", strerror(-r), cfg.hdr.reason);
	if ((r = cmd_r(fd, PTSCOPE_IOC_START, &reason)))
		die("START: %s reason %u", strerror(-r), reason);
	/* the control of other-user's poll: the owner is told (up to 3 s) */
	pfd.fd = fd;
	pfd.events = POLLRDBAND;
	for (i = 0; i < 30; i++) {
		pfd.revents = 0;
		if (poll(&pfd, 1, 100) > 0 && (pfd.revents & POLLRDBAND))
			break;
	}
	/* whole before it appears: written aside, then renamed */
	snprintf(tmp, sizeof(tmp), "%s.tmp", ready);
	rd = open(tmp, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (rd < 0 || write(rd, i < 30 ? "rdband" : "none", i < 30 ? 6 : 4) < 0)
		die("%s: %s", tmp, strerror(errno));
	close(rd);
	if (rename(tmp, ready))
		die("rename %s: %s", tmp, strerror(errno));
	wait_for_file(go);
	cmd_r(fd, PTSCOPE_IOC_STOP, NULL);
	cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);
	close(fd);
	return 0;
}

static int do_mapcount(void)
{
	struct ptscope_config cfg;
	pid_t pid;
	void *m;
	int fd = open_dev(), r;

	small_config(fd, PTSCOPE_SCOPE_BOTH, &cfg);
	if ((r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg)))
		die("CONFIGURE A: %s", strerror(-r));
	m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		die("mmap A: %s", strerror(errno));
	cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);
	if ((r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg)))
		die("CONFIGURE B while A is mapped (A unconfigured): %s reason %u",
		    strerror(-r), cfg.hdr.reason);
	/* A fork copies the mapping of A (vm_open), its exit closes it. */
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	munmap(m, 4096);
	/* Nothing is mapped now: B may be replaced. */
	r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg);
	if (r)
		bad("CONFIGURE C with nothing mapped: %s reason %u (MAPPED = 35)",
		    strerror(-r), cfg.hdr.reason);
	else
		detail("reconfigure-after-fork-and-unmap:ok");
	/* And a mapping of the current set still blocks it. */
	m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (m != MAP_FAILED) {
		r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg);
		if (r != -EBUSY || cfg.hdr.reason != PTSCOPE_R_MAPPED)
			bad("CONFIGURE while mapped: %s reason %u, want EBUSY MAPPED",
			    r ? strerror(-r) : "ACCEPTED", cfg.hdr.reason);
		else
			detail("mapped:MAPPED");
		munmap(m, 4096);
	}
	cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);
	close(fd);
	return report();
}

/* CONFIGURE while something is (want_mapped) or is not mapped. */
static void configure_expect(int fd, struct ptscope_config *cfg, int want_mapped,
			     const char *when)
{
	int r = IOC(fd, PTSCOPE_IOC_CONFIGURE, *cfg);

	if (want_mapped && (r != -EBUSY || cfg->hdr.reason != PTSCOPE_R_MAPPED))
		bad("CONFIGURE %s: %s reason %u, want EBUSY MAPPED", when,
		    r ? strerror(-r) : "ACCEPTED", cfg->hdr.reason);
	else if (!want_mapped && r)
		bad("CONFIGURE %s: %s reason %u, want it accepted", when, strerror(-r),
		    cfg->hdr.reason);
}

static int do_mremap_split(void)
{
	const size_t pg = 4096, len = 4 * pg;
	static unsigned char ref[4 * 4096];
	struct ptscope_config cfg;
	unsigned char *m, *dst, *p;
	int fd = open_dev(), r, st;
	pid_t pid;

	small_config(fd, PTSCOPE_SCOPE_BOTH, &cfg);
	if ((r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg)))
		die("CONFIGURE: %s", strerror(-r));
	/* Some trace in the ring, so that the bytes compared are not all 0. */
	if ((r = cmd_r(fd, PTSCOPE_IOC_START, NULL)))
		die("START: %s", strerror(-r));
	usleep(50000);
	cmd_r(fd, PTSCOPE_IOC_STOP, NULL);
	m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	memcpy(ref, m, len);
	p = mremap(m, len, 2 * len, MREMAP_MAYMOVE);
	if (p != MAP_FAILED || errno != EFAULT)
		bad("mremap to 8 pages: %s, want EFAULT (VM_DONTEXPAND)",
		    p == MAP_FAILED ? strerror(errno) : "grown");
	else
		detail("grow:EFAULT");
	/* Move it to a place taken for it, then cut out its second page. */
	dst = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (dst == MAP_FAILED)
		die("mmap anonymous: %s", strerror(errno));
	p = mremap(m, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	if (p != dst)
		die("mremap move: %s", p == MAP_FAILED ? strerror(errno) : "elsewhere");
	if (memcmp(p, ref, len))
		bad("moved mapping reads other bytes than the ring");
	if (munmap(p + pg, pg))
		die("munmap page 1: %s", strerror(errno));
	if (memcmp(p, ref, pg) || memcmp(p + 2 * pg, ref + 2 * pg, 2 * pg))
		bad("split pieces read other bytes than the ring at their offsets");
	/* Shrink the second piece to one page. */
	if (mremap(p + 2 * pg, 2 * pg, pg, 0) != p + 2 * pg)
		bad("mremap shrink: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0)
		_exit(memcmp(p, ref, pg) || memcmp(p + 2 * pg, ref + 2 * pg, pg) ? 1 : 0);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		bad("the fork's copy of the pieces reads other bytes (status %#x)", st);
	detail("moved+split+shrunk+forked:same-bytes");
	configure_expect(fd, &cfg, 1, "with two pieces mapped");
	munmap(p, pg);
	configure_expect(fd, &cfg, 1, "with one piece mapped");
	munmap(p + 2 * pg, pg);
	configure_expect(fd, &cfg, 0, "with every piece gone");
	detail("MAPPED-until-last-piece");
	cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);
	close(fd);
	return report();
}

static int do_hotplug_loop(unsigned int ms)
{
	struct ptscope_config cfg;
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ull;
	unsigned int n = 0, errs = 0;
	int fd = open_dev(), r;

	small_config(fd, PTSCOPE_SCOPE_BOTH, &cfg);
	/* A tracepoint trigger: one more probe (static key) per CONFIGURE. */
	cfg.trigger.kinds = PTSCOPE_TRIG_TRACEPOINT;
	snprintf(cfg.trigger.tracepoint, sizeof(cfg.trigger.tracepoint),
		 "sched:sched_process_fork");
	while (now_ns() < end) {
		struct ptscope_caps caps;

		memset(&caps, 0, sizeof(caps));
		IOC(fd, PTSCOPE_IOC_GET_CAPS, caps);
		memcpy(cfg.cpu_mask, caps.online_mask, sizeof(cfg.cpu_mask));
		r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg);
		if (r)
			errs++;
		cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);
		n++;
	}
	detail("%u CONFIGURE/UNCONFIGURE pairs, %u refused", n, errs);
	if (!n)
		bad("no iteration");
	close(fd);
	return report();
}

/* Invariants of a GET_STATE snapshot (docs/abi.md, States). */
static int state_consistent(const struct ptscope_state *s, char *why, size_t len)
{
	if (s->state == PTSCOPE_STATE_TRIGGERED && s->trigger_reason == PTSCOPE_TRIGGER_NONE) {
		snprintf(why, len, "TRIGGERED without a reason");
		return 0;
	}
	if ((s->state == PTSCOPE_STATE_TRIGGERED || s->state == PTSCOPE_STATE_STOPPED) &&
	    s->armed_cpu_mask[0]) {
		snprintf(why, len, "state %u with CPUs %#llx still tracing", s->state,
			 (unsigned long long)s->armed_cpu_mask[0]);
		return 0;
	}
	return 1;
}

static void loop_child(int kind, uint64_t end)
{
	int fd = open_dev();

	while (now_ns() < end) {
		if (kind == 0) {
			cmd_r(fd, PTSCOPE_IOC_TRIGGER, NULL);
		} else {
			int s = open("/proc/sysrq-trigger", O_WRONLY);

			if (s >= 0) {
				if (write(s, "x", 1) < 0)
					_exit(3);
				close(s);
			}
		}
	}
	_exit(0);
}

static int do_trigger_race(unsigned int ms)
{
	struct ptscope_config cfg;
	struct ptscope_state st;
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ull;
	unsigned int starts = 0, triggered = 0, stops = 0, checks = 0;
	pid_t kids[2];
	char why[160];
	int fd = open_dev(), r, k;

	small_config(fd, PTSCOPE_SCOPE_BOTH, &cfg);
	cfg.trigger.kinds = PTSCOPE_TRIG_HOTKEY;
	cfg.trigger.flags = PTSCOPE_TRIGF_MULTI;
	if ((r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg)))
		die("CONFIGURE: %s reason %u", strerror(-r), cfg.hdr.reason);
	for (k = 0; k < 2; k++) {
		kids[k] = fork();
		if (kids[k] == 0)
			loop_child(k, end);
	}
	while (now_ns() < end && g_ok) {
		if (!cmd_r(fd, PTSCOPE_IOC_START, NULL))
			starts++;
		get_state(fd, &st);
		checks++;
		if (!state_consistent(&st, why, sizeof(why)))
			bad("after START: %s", why);
		if (!cmd_r(fd, PTSCOPE_IOC_STOP, NULL))
			stops++;
		get_state(fd, &st);
		checks++;
		if (st.state == PTSCOPE_STATE_TRIGGERED)
			triggered++;
		if (!state_consistent(&st, why, sizeof(why)))
			bad("after STOP: %s", why);
	}
	for (k = 0; k < 2; k++)
		waitpid(kids[k], NULL, 0);
	/* Whatever state it ended in, it settles: no CPU left tracing. */
	cmd_r(fd, PTSCOPE_IOC_STOP, NULL);
	sleep_ms(100);
	get_state(fd, &st);
	if (st.armed_cpu_mask[0])
		bad("CPUs %#llx tracing after the last STOP", (unsigned long long)st.armed_cpu_mask[0]);
	detail("%u starts, %u stops, %u triggered, %u checks", starts, stops, triggered, checks);
	cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);
	close(fd);
	return report();
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static int do_fifo_stop(void)
{
	struct ptscope_cpu_status cs;
	struct ptscope_config cfg;
	struct ptscope_state st;
	struct sched_param sp = { .sched_priority = 50 };
	uint64_t t0, waited;
	struct pollfd pfd;
	uint32_t reason;
	int fd, r, alive, status, pr;
	pid_t spinner;

	if (pin(0))
		die("pin to cpu0: %s", strerror(errno));
	fd = open_dev();
	/*
	 * Armed before the spinner starts: on PREEMPT_RT the spinner also
	 * starves cpu1's RCU and irq_work threads, which CONFIGURE's
	 * tracepoint registration waits for.
	 */
	small_config(fd, PTSCOPE_SCOPE_BOTH, &cfg);
	if ((r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg)))
		die("CONFIGURE: %s reason %u", strerror(-r), cfg.hdr.reason);
	if ((r = cmd_r(fd, PTSCOPE_IOC_START, &reason)))
		die("START: %s reason %u", strerror(-r), reason);
	spinner = fork();
	if (spinner < 0)
		die("fork: %s", strerror(errno));
	if (spinner == 0) {
		uint64_t stop = now_ns() + 6000000000ull;

		if (pin(1) || sched_setscheduler(0, SCHED_FIFO, &sp))
			_exit(2);
		/* No system call, no sleep: cpu1 never switches for 6 s. */
		while (now_ns() < stop)
			;
		_exit(0);
	}
	sleep_ms(300);
	if (waitpid(spinner, &status, WNOHANG) == spinner)
		die("spinner did not start (status %d)", status);
	t0 = now_ns();
	if ((r = cmd_r(fd, PTSCOPE_IOC_TRIGGER, &reason)))
		die("TRIGGER: %s reason %u", strerror(-r), reason);
	/* poll() must wake up too: its waker must not need cpu1. */
	pfd.fd = fd;
	pfd.events = POLLIN;
	pr = poll(&pfd, 1, 3000);
	waited = (now_ns() - t0) / 1000000;
	get_state(fd, &st);
	if (pr != 1)
		bad("poll() %s after %llu ms", pr ? strerror(errno) : "timed out",
		    (unsigned long long)waited);
	alive = waitpid(spinner, &status, WNOHANG) == 0;
	if (st.state != PTSCOPE_STATE_TRIGGERED)
		bad("state %u %llu ms after the trigger, want TRIGGERED while cpu1 runs a SCHED_FIFO spinner",
		    st.state, (unsigned long long)waited);
	else if (!alive)
		bad("TRIGGERED only after the spinner ended (%llu ms)", (unsigned long long)waited);
	else
		detail("TRIGGERED %llu ms after the trigger, spinner still running", (unsigned long long)waited);
	memset(&cs, 0, sizeof(cs));
	cs.cpu = 1;
	if ((r = IOC(fd, PTSCOPE_IOC_GET_CPU_STATUS, cs)))
		bad("GET_CPU_STATUS 1: %s", strerror(-r));
	else if (cs.flags & PTSCOPE_CPUF_ENABLED)
		bad("cpu1 still tracing");
	else if (st.trigger_tsc && cs.stop_tsc >= st.trigger_tsc)
		detail("cpu1 stopped %llu TSC ticks after the trigger (tsc_khz %u)",
		       (unsigned long long)(cs.stop_tsc - st.trigger_tsc), st.tsc_khz);
	else
		bad("cpu1 stop_tsc %llu before the trigger %llu", (unsigned long long)cs.stop_tsc,
		    (unsigned long long)st.trigger_tsc);
	kill(spinner, SIGKILL);
	waitpid(spinner, NULL, 0);
	cmd_r(fd, PTSCOPE_IOC_STOP, NULL);
	cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);
	close(fd);
	return report();
}

static int tp_configure(int fd, const char *tp, pid_t pid, struct ptscope_config *cfg)
{
	small_config(fd, PTSCOPE_SCOPE_USER, cfg);
	cfg->trigger.kinds = PTSCOPE_TRIG_TRACEPOINT;
	cfg->trigger.tracepoint_pid = pid;
	snprintf(cfg->trigger.tracepoint, sizeof(cfg->trigger.tracepoint), "%s", tp);
	return IOC(fd, PTSCOPE_IOC_CONFIGURE, *cfg);
}

/* GET_STATE into *st until TRIGGERED, for at most ms milliseconds. */
static void wait_triggered(int fd, struct ptscope_state *st, uint64_t ms)
{
	uint64_t t0 = now_ns();

	do {
		get_state(fd, st);
		if (st->state == PTSCOPE_STATE_TRIGGERED)
			return;
		sleep_ms(20);
	} while (now_ns() - t0 < ms * 1000000ull);
}

/*
 * The pid-namespace sub-tests' start, in the namespace's init (pid 1): a
 * waiter child *b (exits when *wfd is closed), a capture configured with
 * the exit of *b (a pid of this namespace) as its trigger, and armed.
 * Returns the device's fd.
 */
static int ns_init_armed(pid_t *b, int *wfd)
{
	struct ptscope_config cfg;
	uint32_t reason;
	int fd, r;

	if (getpid() != 1)
		die("not the init of a new pid namespace (pid %d)", (int)getpid());
	*b = spawn_waiter(wfd);
	fd = open_dev();
	if ((r = tp_configure(fd, "sched:sched_process_exit", *b, &cfg)))
		die("CONFIGURE, tracepoint pid %d of this namespace: %s reason %u", (int)*b,
		    strerror(-r), cfg.hdr.reason);
	if ((r = cmd_r(fd, PTSCOPE_IOC_START, &reason)))
		die("START: %s reason %u", strerror(-r), reason);
	return fd;
}

/* init() run as the init of a new pid namespace: its exit status. */
static int in_new_pidns(int (*init)(void))
{
	int status;
	pid_t a;

	if (unshare(CLONE_NEWPID))
		die("unshare(CLONE_NEWPID): %s", strerror(errno));
	a = fork();
	if (a < 0)
		die("fork: %s", strerror(errno));
	if (a == 0)
		exit(init());
	if (waitpid(a, &status, 0) != a)
		die("waitpid: %s", strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* In the new namespace: its init (pid 1) configures, its child exits. */
static int tp_pidns_init(void)
{
	struct ptscope_state st;
	pid_t b;
	int fd, wfd;

	fd = ns_init_armed(&b, &wfd);
	close(wfd);
	waitpid(b, NULL, 0);
	wait_triggered(fd, &st, 2000);
	if (st.state != PTSCOPE_STATE_TRIGGERED || st.trigger_reason != PTSCOPE_TRIGGER_TRACEPOINT)
		bad("pid %d of the namespace exited: state %u reason %u, want TRIGGERED by TRACEPOINT",
		    (int)b, st.state, st.trigger_reason);
	else
		detail("pid %d (namespace) exited: TRIGGERED by the tracepoint", (int)b);
	cmd_r(fd, PTSCOPE_IOC_STOP, NULL);
	cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);
	close(fd);
	return report();
}


/* CONFIGURE must be refused with errno @e and @reason. */
static void tp_refused(int fd, const char *tp, pid_t pid, int e, uint32_t reason)
{
	struct ptscope_config cfg;
	int r = tp_configure(fd, tp, pid, &cfg);

	if (r != -e || cfg.hdr.reason != reason)
		bad("%s: %s reason %u, want %s reason %u", tp, r ? strerror(-r) : "accepted",
		    cfg.hdr.reason, strerror(e), reason);
	else
		detail("%s refused (%s)", tp, strerror(e));
	if (!r)
		cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);
}

/* Armed on @tp for one child; @sig: what makes it fire, 0 its own syscalls. */
static void tp_fires(int fd, const char *tp, int sig)
{
	struct ptscope_config cfg;
	struct ptscope_state st;
	uint32_t reason;
	pid_t child;
	int r, wfd;

	child = spawn_waiter(&wfd);
	r = tp_configure(fd, tp, child, &cfg);
	if (r) {
		bad("CONFIGURE %s pid %d: %s reason %u", tp, (int)child, strerror(-r),
		    cfg.hdr.reason);
		goto out;
	}
	if ((r = cmd_r(fd, PTSCOPE_IOC_START, &reason))) {
		bad("START %s: %s reason %u", tp, strerror(-r), reason);
		goto unconf;
	}
	if (sig)
		kill(child, sig);
	wait_triggered(fd, &st, 3000);
	if (st.state != PTSCOPE_STATE_TRIGGERED || st.trigger_reason != PTSCOPE_TRIGGER_TRACEPOINT)
		bad("%s pid %d: state %u reason %u, want TRIGGERED by TRACEPOINT", tp, (int)child,
		    st.state, st.trigger_reason);
	else if (st.trigger_pid != child)
		bad("%s armed on pid %d fired in pid %d", tp, (int)child, (int)st.trigger_pid);
	else
		detail("%s fired in pid %d", tp, (int)child);
	cmd_r(fd, PTSCOPE_IOC_STOP, NULL);
unconf:
	cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);
out:
	close(wfd);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

static int do_tp_typed(void)
{
	/* A tracepoint of 6.1 and 6.12 (trace/events/sched.h) not in the list. */
	const char *unlisted = "/sys/kernel/tracing/events/sched/sched_kthread_stop";
	int fd = open_dev();

	tp_refused(fd, "signal:sched_process_exit", getpid(), ENOENT,
		   PTSCOPE_R_TRACEPOINT_NOT_FOUND);
	tp_refused(fd, "nosuch:nosuch_event", getpid(), ENOENT, PTSCOPE_R_TRACEPOINT_NOT_FOUND);
	if (access(unlisted, F_OK))
		bad("rig: %s: %s", unlisted, strerror(errno));
	else
		tp_refused(fd, "sched:sched_kthread_stop", getpid(), EOPNOTSUPP,
			   PTSCOPE_R_BAD_TRIGGER);
	tp_fires(fd, "raw_syscalls:sys_enter", 0);
	tp_fires(fd, "sched:sched_switch", 0);
	tp_fires(fd, "signal:signal_deliver", SIGTERM);
	close(fd);
	return report();
}

/* ---- a refused CONFIGURE keeps the capture ---------------------------------- */

/* Capture A (TRIGGERED, its hotkey 'x' registered) is still there? */
static void still_a(int fd, const struct ptscope_state *a, const char *what)
{
	struct ptscope_trigger_info ti;
	struct ptscope_state s;
	int r;

	get_state(fd, &s);
	memset(&ti, 0, sizeof(ti));
	r = IOC(fd, PTSCOPE_IOC_GET_TRIGGER, ti);
	if (s.state != PTSCOPE_STATE_TRIGGERED || s.nr_snapshots != a->nr_snapshots ||
	    s.trigger_tsc != a->trigger_tsc)
		bad("after %s: state %u, %u snapshots, want the triggered capture "
		    "(state %u, %u snapshots, same trigger)", what, s.state,
		    s.nr_snapshots, PTSCOPE_STATE_TRIGGERED, a->nr_snapshots);
	else if (r || !(ti.kinds & PTSCOPE_TRIG_HOTKEY) || ti.hotkey != 'x')
		bad("after %s: the capture's hotkey is gone (%s, kinds %#x, key %u)",
		    what, r ? strerror(-r) : "ok", ti.kinds, ti.hotkey);
	else
		detail("%s:kept", what);
}

/* CONFIGURE @cfg must be refused with @e and @reason, capture A kept. */
static void refused_keeps(int fd, struct ptscope_config *cfg, int e, uint32_t reason,
			  const struct ptscope_state *a, const char *what)
{
	int r = IOC(fd, PTSCOPE_IOC_CONFIGURE, *cfg);

	if (r != -e || cfg->hdr.reason != reason) {
		bad("%s: %s reason %u, want %s reason %u", what,
		    r ? strerror(-r) : "accepted", cfg->hdr.reason, strerror(e), reason);
		return;
	}
	still_a(fd, a, what);
}

/* A configuration whose only trigger is the hotkey @key ('\0': none). */
static void key_config(int fd, struct ptscope_config *cfg, char key)
{
	small_config(fd, PTSCOPE_SCOPE_BOTH, cfg);
	if (key) {
		cfg->trigger.kinds = PTSCOPE_TRIG_HOTKEY;
		cfg->trigger.hotkey = (unsigned char)key;
	}
}

/* A uprobe trigger on @ufd at @off, with the hotkey @key ('\0': none). */
static void uprobe_config(int fd, struct ptscope_config *cfg, int ufd, uint64_t off,
			  char key)
{
	key_config(fd, cfg, key);
	cfg->trigger.kinds |= PTSCOPE_TRIG_UPROBE;
	cfg->uprobe.fd = ufd;
	cfg->uprobe.offset = off;
}

/* CONFIGURE @cfg must be accepted and register the hotkey @key. */
static void accepted_with_key(int fd, struct ptscope_config *cfg, char key,
			      const char *what)
{
	struct ptscope_trigger_info ti;
	int r = IOC(fd, PTSCOPE_IOC_CONFIGURE, *cfg);

	memset(&ti, 0, sizeof(ti));
	if (r) {
		bad("%s: %s reason %u, want it accepted", what, strerror(-r),
		    cfg->hdr.reason);
		return;
	}
	r = IOC(fd, PTSCOPE_IOC_GET_TRIGGER, ti);
	if (r || !(ti.kinds & PTSCOPE_TRIG_HOTKEY) || ti.hotkey != (unsigned char)key)
		bad("%s: hotkey %c not registered (%s, kinds %#x, key %u)", what, key,
		    r ? strerror(-r) : "ok", ti.kinds, ti.hotkey);
	else
		detail("%s:ok", what);
}

/* Write @text to the file @path. Return: 0 or an errno. */
static int put_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), e = 0;

	if (fd < 0)
		return errno;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		e = errno ? errno : EIO;
	close(fd);
	return e;
}

/* Append @text to the file @path (kprobe_events). Return: 0 or an errno. */
static int put_file_append(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC), e = 0;

	if (fd < 0)
		return errno;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		e = errno ? errno : EIO;
	close(fd);
	return e;
}

#define CG "/sys/fs/cgroup"
#define CG_LIMITED CG "/ptscope-vm-16m"

/*
 * A memory cgroup of 16 MiB, made once: the cgroup2 hierarchy mounted if
 * it is not, its memory controller enabled for children. Return: 0 or
 * the step that failed, in @why.
 */
static int limited_cgroup(char *why, size_t n)
{
	struct stat sb;
	int e;

	if (stat(CG "/cgroup.controllers", &sb) &&
	    mount("none", CG, "cgroup2", 0, NULL)) {
		snprintf(why, n, "mount cgroup2: %s", strerror(errno));
		return -1;
	}
	e = put_file(CG "/cgroup.subtree_control", "+memory");
	if (e) {
		snprintf(why, n, "enable memory controller: %s", strerror(e));
		return -1;
	}
	if (mkdir(CG_LIMITED, 0755) && errno != EEXIST) {
		snprintf(why, n, "mkdir %s: %s", CG_LIMITED, strerror(errno));
		return -1;
	}
	e = put_file(CG_LIMITED "/memory.max", "16777216");
	if (e) {
		snprintf(why, n, "memory.max: %s", strerror(e));
		return -1;
	}
	return 0;
}

/*
 * CONFIGURE @cfg from inside the 16 MiB cgroup: the module charges the
 * rings to the caller's cgroup (docs/abi.md), so rings beyond it are
 * refused. This process goes back to the root cgroup afterwards.
 * Return: the ioctl's result, or 1 when the cgroup could not be used.
 */
static int configure_in_limited_cgroup(int fd, struct ptscope_config *cfg)
{
	char why[160], pid[16];
	int r, e;

	if (limited_cgroup(why, sizeof(why))) {
		bad("rig: %s", why);
		return 1;
	}
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	e = put_file(CG_LIMITED "/cgroup.procs", pid);
	if (e) {
		bad("rig: join %s: %s", CG_LIMITED, strerror(e));
		return 1;
	}
	r = IOC(fd, PTSCOPE_IOC_CONFIGURE, *cfg);
	e = put_file(CG "/cgroup.procs", pid);
	if (e)
		die("leave %s: %s", CG_LIMITED, strerror(e));
	return r;
}

/*
 * A file of int3 bytes, mapped by this process: the kernel refuses a
 * uprobe on a breakpoint instruction when it installs it in a mapping
 * (prepare_uprobe(): ENOTSUPP), which uprobe_register() does for the
 * address spaces that map the file now. Return: its fd, or -1.
 */
static int int3_file_mapped(void)
{
	static const char path[] = "/tmp/int3.bin";
	unsigned char code[4096];
	int fd;

	memset(code, 0xcc, sizeof(code));
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (fd < 0 || write(fd, code, sizeof(code)) != (ssize_t)sizeof(code)) {
		bad("rig: %s: %s", path, strerror(errno));
		return -1;
	}
	close(fd);
	/* read-only: a uprobe goes only into mappings without VM_WRITE */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || mmap(NULL, sizeof(code), PROT_READ, MAP_PRIVATE, fd, 0) == MAP_FAILED) {
		bad("rig: map %s: %s", path, strerror(errno));
		return -1;
	}
	return fd;
}

/*
 * docs/abi.md, CONFIGURE: the request is checked before anything is
 * allocated, so a refused one leaves the current capture, here a
 * triggered snapshot not yet read, as it was. Refusals for what only the
 * running kernel can say (a tracepoint it lacks or the trigger list
 * lacks, a sysrq key another driver holds, the uprobe's file and offset)
 * included; what the prepare takes for such a refusal is given back (a
 * hotkey it registered can be configured afterwards).
 */
static int do_configure_keeps(void)
{
	const char *unlisted = "/sys/kernel/tracing/events/sched/sched_kthread_stop";
	struct ptscope_config cfg;
	struct ptscope_state a;
	struct stat sb;
	uint32_t reason;
	int fd = open_dev(), dirfd, spinfd, ufd, r;

	key_config(fd, &cfg, 'x');
	if ((r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg)))
		die("CONFIGURE A (hotkey x): %s reason %u", strerror(-r), cfg.hdr.reason);
	if ((r = cmd_r(fd, PTSCOPE_IOC_START, &reason)))
		die("START A: %s reason %u", strerror(-r), reason);
	sleep_ms(50);
	if ((r = cmd_r(fd, PTSCOPE_IOC_TRIGGER, &reason)))
		die("TRIGGER A: %s reason %u", strerror(-r), reason);
	wait_triggered(fd, &a, 3000);
	if (a.state != PTSCOPE_STATE_TRIGGERED || a.nr_snapshots != 1)
		die("capture A: state %u, %u snapshots, want TRIGGERED, 1", a.state,
		    a.nr_snapshots);

	small_config(fd, PTSCOPE_SCOPE_BOTH, &cfg);
	cfg.trigger.kinds = PTSCOPE_TRIG_TRACEPOINT;
	snprintf(cfg.trigger.tracepoint, sizeof(cfg.trigger.tracepoint), "nosuch:nosuch_event");
	refused_keeps(fd, &cfg, ENOENT, PTSCOPE_R_TRACEPOINT_NOT_FOUND, &a, "no-such-tracepoint");
	if (access(unlisted, F_OK)) {
		bad("rig: %s: %s", unlisted, strerror(errno));
	} else {
		small_config(fd, PTSCOPE_SCOPE_BOTH, &cfg);
		cfg.trigger.kinds = PTSCOPE_TRIG_TRACEPOINT;
		snprintf(cfg.trigger.tracepoint, sizeof(cfg.trigger.tracepoint),
			 "sched:sched_kthread_stop");
		refused_keeps(fd, &cfg, EOPNOTSUPP, PTSCOPE_R_BAD_TRIGGER, &a, "unlisted-tracepoint");
	}
	/* sysrq b (reboot) is the kernel's own key (drivers/tty/sysrq.c) */
	key_config(fd, &cfg, 'b');
	refused_keeps(fd, &cfg, EBUSY, PTSCOPE_R_HOTKEY_UNAVAILABLE, &a, "hotkey-b-taken");

	dirfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	spinfd = open("/t/spin", O_RDONLY | O_CLOEXEC);
	if (dirfd < 0 || spinfd < 0 || fstat(spinfd, &sb))
		die("open / or /t/spin: %s", strerror(errno));
	/* each with a new hotkey y, which the refusal must give back */
	uprobe_config(fd, &cfg, 1000, 0, 'y');
	refused_keeps(fd, &cfg, EBADF, PTSCOPE_R_UPROBE_FILE, &a, "uprobe-fd-not-open");
	uprobe_config(fd, &cfg, dirfd, 0, 'y');
	refused_keeps(fd, &cfg, EINVAL, PTSCOPE_R_UPROBE_FILE, &a, "uprobe-directory");
	uprobe_config(fd, &cfg, spinfd, (uint64_t)sb.st_size + 4096, 'y');
	refused_keeps(fd, &cfg, EINVAL, PTSCOPE_R_UPROBE_OFFSET, &a, "uprobe-offset-past-end");
	close(dirfd);
	close(spinfd);

	/* The kernel's own refusal of the instruction, with a new hotkey y. */
	ufd = int3_file_mapped();
	if (ufd >= 0) {
		uprobe_config(fd, &cfg, ufd, 0, 'y');
		r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg);
		if (r != -EINVAL || cfg.hdr.reason != PTSCOPE_R_UPROBE_REFUSED ||
		    cfg.hdr.reason_arg != 524)
			bad("uprobe-on-int3: %s reason %u arg %llu, want %s reason %u "
			    "arg 524 (ENOTSUPP)", r ? strerror(-r) : "accepted",
			    cfg.hdr.reason, (unsigned long long)cfg.hdr.reason_arg,
			    strerror(EINVAL), PTSCOPE_R_UPROBE_REFUSED);
		else
			still_a(fd, &a, "uprobe-on-int3");
		close(ufd);
	}
	/*
	 * Sideband rings beyond the caller's memory cgroup: 64 MiB per
	 * possible CPU in a 16 MiB cgroup; the trace rings (16 KiB per CPU)
	 * fit. The control: the same request outside the cgroup is accepted
	 * later (hotkey-y-after-refusals below uses the default size).
	 */
	key_config(fd, &cfg, 'y');
	cfg.sideband_size = 64ull << 20;
	r = configure_in_limited_cgroup(fd, &cfg);
	if (r != 1) {
		if (r != -ENOMEM || cfg.hdr.reason != PTSCOPE_R_NO_MEMORY)
			bad("sideband-beyond-memcg: %s reason %u, want %s reason %u",
			    r ? strerror(-r) : "accepted", cfg.hdr.reason,
			    strerror(ENOMEM), PTSCOPE_R_NO_MEMORY);
		else
			still_a(fd, &a, "sideband-beyond-memcg");
	}

	/* The controls: A's own key again, then y (given back above), then x (given back now). */
	key_config(fd, &cfg, 'x');
	accepted_with_key(fd, &cfg, 'x', "same-hotkey-x");
	key_config(fd, &cfg, 'y');
	cfg.sideband_size = 64ull << 20;
	accepted_with_key(fd, &cfg, 'y', "hotkey-y-64m-sideband-outside-memcg");
	key_config(fd, &cfg, 'x');
	accepted_with_key(fd, &cfg, 'x', "hotkey-x-after-y");
	cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);
	close(fd);
	return report();
}

/* ---- a CONFIGURE that replaces a capture registers before it releases ---- */

#define TR "/sys/kernel/tracing"

/*
 * kprobe events on what registers and unregisters a hook: a tracepoint
 * probe (struct tracepoint begins with its name), a sysrq key, a uprobe
 * (6.1: uprobe_unregister; 6.12: uprobe_unregister_nosync, tried both).
 * Return: 0, or the errno of the first that could not be set.
 */
static int hook_probes(int on)
{
	static const char *const defs[] = {
		"tpreg tracepoint_probe_register name=+0(+0(%di)):string",
		"tpunreg tracepoint_probe_unregister name=+0(+0(%di)):string",
		"keyreg register_sysrq_key key=%di:s32",
		"keyunreg unregister_sysrq_key key=%di:s32",
		"upreg uprobe_register",
		"upunreg uprobe_unregister",
		"upunreg uprobe_unregister_nosync",
	};
	char cmd[160];
	unsigned int i;
	int e = 0, have_unreg = 0;

	put_file(TR "/events/ptscope_vm/enable", "0");
	for (i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		snprintf(cmd, sizeof(cmd), "-:ptscope_vm/%.*s",
			 (int)strcspn(defs[i], " "), defs[i]);
		put_file_append(TR "/kprobe_events", cmd);
	}
	if (!on)
		return 0;
	for (i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		int is_unreg = !strncmp(defs[i], "upunreg ", 8);

		if (is_unreg && have_unreg)
			continue;
		snprintf(cmd, sizeof(cmd), "p:ptscope_vm/%s", defs[i]);
		e = put_file_append(TR "/kprobe_events", cmd);
		if (is_unreg) {
			/* the one of this kernel's two names */
			have_unreg |= !e;
			if (e && i + 1 < sizeof(defs) / sizeof(defs[0]))
				e = 0;
		}
		if (e)
			return e;
	}
	put_file(TR "/trace", "");
	return put_file(TR "/events/ptscope_vm/enable", "1");
}

/*
 * The hook events this process caused since hook_probes(1), in order, as
 * "tpreg:sched_switch tpunreg:sys_enter keyreg:120 upreg ...".
 */
static void hook_events(char *out, size_t n)
{
	char line[512], comm[32];
	FILE *f = fopen(TR "/trace", "re");
	size_t len = 0;

	out[0] = '\0';
	snprintf(comm, sizeof(comm), "-%d ", (int)getpid());
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		static const char *const ev[] = { "tpreg", "tpunreg", "keyreg",
						  "keyunreg", "upreg", "upunreg" };
		char tok[80] = "", *p, *v;
		unsigned int i;

		if (line[0] == '#' || !strstr(line, comm))
			continue;
		for (i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
			char key[24];

			snprintf(key, sizeof(key), " %s: ", ev[i]);
			p = strstr(line, key);
			if (!p)
				continue;
			v = strstr(p, "name=\"");
			if (v) {
				v += 6;
				snprintf(tok, sizeof(tok), "%s:%.*s", ev[i],
					 (int)strcspn(v, "\""), v);
			} else if ((v = strstr(p, "key="))) {
				snprintf(tok, sizeof(tok), "%s:%d", ev[i], atoi(v + 4));
			} else {
				snprintf(tok, sizeof(tok), "%s", ev[i]);
			}
			break;
		}
		if (tok[0] && len + strlen(tok) + 2 < n)
			len += (size_t)snprintf(out + len, n - len, "%s%s", len ? " " : "", tok);
	}
	fclose(f);
}

/* Does the event list @evs hold the event @ev? */
static int has_event(const char *evs, const char *ev)
{
	size_t l = strlen(ev);
	const char *p = evs;

	while ((p = strstr(p, ev))) {
		if ((p == evs || p[-1] == ' ') && (p[l] == ' ' || p[l] == '\0'))
			return 1;
		p += l;
	}
	return 0;
}

/* Is a registration listed after a release in the event list @evs? */
static int reg_after_unreg(const char *evs)
{
	const char *p = evs;
	int unreg = 0;

	while (*p) {
		size_t l = strcspn(p, " ");

		if (memmem(p, l, "unreg", 5))
			unreg = 1;
		else if (unreg && memmem(p, l, "reg", 3))
			return 1;
		p += l;
		p += strspn(p, " ");
	}
	return 0;
}

/*
 * CONFIGURE @cfg, which replaces the current capture, must be accepted,
 * register every new hook before it unregisters any old one, hold @need
 * (events that must be there) and none of @never.
 */
static void replace_checked(int fd, struct ptscope_config *cfg, const char *what,
			    const char *const *need, const char *const *never)
{
	char evs[2048];
	int r, e = hook_probes(1);

	if (e) {
		bad("rig: kprobe_events: %s", strerror(e));
		return;
	}
	r = IOC(fd, PTSCOPE_IOC_CONFIGURE, *cfg);
	hook_events(evs, sizeof(evs));
	hook_probes(0);
	if (r) {
		bad("%s: %s reason %u, want it accepted", what, strerror(-r), cfg->hdr.reason);
		return;
	}
	for (; *need; need++)
		if (!has_event(evs, *need))
			bad("%s: no %s in [%s]", what, *need, evs);
	for (; *never; never++)
		if (has_event(evs, *never))
			bad("%s: %s in [%s]: released and taken again", what, *never, evs);
	if (reg_after_unreg(evs))
		bad("%s: a registration after a release in [%s]", what, evs);
	else
		detail("%s:[%s]", what, evs);
}

/*
 * docs/abi.md, CONFIGURE: everything that can fail is done before the
 * current capture is released, and what both captures use stays
 * registered throughout. Seen by kprobes on the kernel's registration
 * functions (the module cannot fail them on purpose): in a CONFIGURE
 * that replaces a triggered capture, every new probe, key and uprobe is
 * registered before any of the old capture's is unregistered, and the
 * sideband's sched probes, the syscall records' probes kept, and a
 * hotkey kept are never unregistered.
 */
static int do_configure_replace(void)
{
	static const char *const sched[] = {
		"tpunreg:sched_switch", "tpunreg:sched_process_exec",
		"tpunreg:sched_process_exit", "tpunreg:sched_process_fork",
		"tpreg:sched_switch", NULL };
	static const char *const need_b[] = {
		"tpreg:signal_generate", "tpunreg:signal_generate",
		"tpreg:sys_enter", "tpreg:sys_exit", "tpreg:page_fault_user",
		"upreg", "upunreg", NULL };
	const char *never_b[8];
	static const char *const need_c[] = {
		"keyreg:121", "keyunreg:120", "tpunreg:signal_generate",
		"tpunreg:sys_enter", "upunreg", NULL };
	static const char *const never_c[] = {
		"tpunreg:sched_switch", "tpunreg:sched_process_exec",
		"tpreg:sched_switch", NULL };
	struct ptscope_config cfg;
	struct ptscope_state a;
	uint32_t reason;
	int fd = open_dev(), spinfd, r;
	unsigned int i;

	spinfd = open("/t/spin", O_RDONLY | O_CLOEXEC);
	if (spinfd < 0)
		die("open /t/spin: %s", strerror(errno));
	/* A: hotkey x, tracepoint signal_generate, a uprobe; no records. */
	uprobe_config(fd, &cfg, spinfd, 0, 'x');
	cfg.trigger.kinds |= PTSCOPE_TRIG_TRACEPOINT;
	snprintf(cfg.trigger.tracepoint, sizeof(cfg.trigger.tracepoint), "signal:signal_generate");
	if ((r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg)))
		die("CONFIGURE A: %s reason %u", strerror(-r), cfg.hdr.reason);
	if ((r = cmd_r(fd, PTSCOPE_IOC_START, &reason)))
		die("START A: %s reason %u", strerror(-r), reason);
	sleep_ms(50);
	if ((r = cmd_r(fd, PTSCOPE_IOC_TRIGGER, &reason)))
		die("TRIGGER A: %s reason %u", strerror(-r), reason);
	wait_triggered(fd, &a, 3000);
	if (a.state != PTSCOPE_STATE_TRIGGERED)
		die("capture A: state %u, want TRIGGERED", a.state);

	/* B: the same triggers (a new slot each, key x kept) and the records. */
	uprobe_config(fd, &cfg, spinfd, 0, 'x');
	cfg.trigger.kinds |= PTSCOPE_TRIG_TRACEPOINT;
	snprintf(cfg.trigger.tracepoint, sizeof(cfg.trigger.tracepoint), "signal:signal_generate");
	cfg.flags |= PTSCOPE_CFG_SYSREC;
	for (i = 0; sched[i]; i++)
		never_b[i] = sched[i];
	never_b[i++] = "keyunreg:120";
	never_b[i] = NULL;
	replace_checked(fd, &cfg, "B-same-triggers-and-records", need_b, never_b);

	/* C: hotkey y only: x goes after y came; the records and A's slots go. */
	key_config(fd, &cfg, 'y');
	replace_checked(fd, &cfg, "C-hotkey-y-only", need_c, never_c);

	cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);
	close(spinfd);
	close(fd);
	return report();
}

/* ---- the compact mmap offsets ------------------------------------------- */

static uint64_t fnv1a(const unsigned char *m, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= m[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* A triggered capture of every online CPU, 16 KiB rings; its CPU count. */
static int compact_capture(int fd, struct ptscope_config *cfg)
{
	struct ptscope_state a;
	uint32_t reason;
	int r, n = 0;
	unsigned int w;

	small_config(fd, PTSCOPE_SCOPE_BOTH, cfg);
	if ((r = IOC(fd, PTSCOPE_IOC_CONFIGURE, *cfg)))
		die("CONFIGURE: %s reason %u", strerror(-r), cfg->hdr.reason);
	if ((r = cmd_r(fd, PTSCOPE_IOC_START, &reason)))
		die("START: %s reason %u", strerror(-r), reason);
	sleep_ms(50);
	if ((r = cmd_r(fd, PTSCOPE_IOC_TRIGGER, &reason)))
		die("TRIGGER: %s reason %u", strerror(-r), reason);
	wait_triggered(fd, &a, 3000);
	if (a.state != PTSCOPE_STATE_TRIGGERED)
		die("capture: state %u, want TRIGGERED", a.state);
	for (w = 0; w < PTSCOPE_CPU_MASK_WORDS; w++)
		n += __builtin_popcountll(cfg->cpu_mask[w]);
	return n;
}

/* CPU @cpu's ring through the first encoding; its FNV-1a hash. */
static uint64_t classic_hash(int fd, unsigned int cpu, size_t size)
{
	void *m = mmap(NULL, size, PROT_READ, MAP_SHARED, fd,
		       (off_t)((uint64_t)cpu << PTSCOPE_MMAP_CPU_SHIFT));
	uint64_t h;

	if (m == MAP_FAILED)
		die("mmap cpu%u at cpu << 40: %s", cpu, strerror(errno));
	h = fnv1a(m, size);
	munmap(m, size);
	return h;
}

/*
 * docs/abi.md, mmap: PTSCOPE_MMAP_RING_OFFSET(cpu) maps the bytes
 * cpu << 40 maps; a compact offset with bits 31-33 set, or of a CPU the
 * machine does not have, is EINVAL.
 */
static int do_mmap_compact(void)
{
	struct ptscope_config cfg;
	int fd = open_dev(), n, cpu;
	size_t size;

	n = compact_capture(fd, &cfg);
	size = cfg.buffer_size;
	for (cpu = 0; cpu < n; cpu++) {
		void *c = mmap(NULL, size, PROT_READ, MAP_SHARED, fd,
			       (off_t)PTSCOPE_MMAP_RING_OFFSET(cpu));

		if (c == MAP_FAILED) {
			bad("cpu%d at PTSCOPE_MMAP_RING_OFFSET: %s", cpu, strerror(errno));
			continue;
		}
		if (fnv1a(c, size) != classic_hash(fd, cpu, size))
			bad("cpu%d: the compact offset maps other bytes than cpu << 40", cpu);
		else
			detail("cpu%d:same-bytes", cpu);
		munmap(c, size);
	}
	if (mmap(NULL, size, PROT_READ, MAP_SHARED, fd,
		 (off_t)(PTSCOPE_MMAP_RING_OFFSET(0) | (1ull << 31))) != MAP_FAILED ||
	    errno != EINVAL)
		bad("compact offset with bit 31: %s, want EINVAL", strerror(errno));
	else
		detail("bit31:EINVAL");
	if (mmap(NULL, size, PROT_READ, MAP_SHARED, fd,
		 (off_t)PTSCOPE_MMAP_RING_OFFSET(1023)) != MAP_FAILED || errno != EINVAL)
		bad("compact offset of cpu 1023: %s, want EINVAL", strerror(errno));
	else
		detail("cpu1023:EINVAL");
	cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);
	close(fd);
	return report();
}

/*
 * The same from a 32-bit process (@prog, tests/vm/guest/ia32/mmap32.c):
 * through mmap2's 32-bit page offset it maps every CPU's ring with the
 * compact offset, the bytes this process maps at cpu << 40. A kernel
 * that runs no 32-bit programs is SKIP.
 */
static int do_mmap_compact_ia32(const char *prog)
{
	struct ptscope_config cfg;
	char argbuf[8][16], *argv[12], out[1024];
	int fd = open_dev(), n, cpu, p[2], st, k = 0, xfd;
	size_t size, got = 0;
	ssize_t rd;
	pid_t pid;

	if (access(prog, X_OK)) {
		printf("RESULT %s SKIP %s not built (tests/vm/out/guest-build.log)\n", g_name, prog);
		return 0;
	}
	n = compact_capture(fd, &cfg);
	size = cfg.buffer_size;
	if (n > 6)
		n = 6;
	/* a descriptor without FD_CLOEXEC, for the program to inherit */
	xfd = fcntl(fd, F_DUPFD, 10);
	if (xfd < 0)
		die("F_DUPFD: %s", strerror(errno));
	argv[k++] = (char *)prog;
	snprintf(argbuf[0], sizeof(argbuf[0]), "%d", xfd);
	snprintf(argbuf[1], sizeof(argbuf[1]), "%zu", size);
	argv[k++] = argbuf[0];
	argv[k++] = argbuf[1];
	for (cpu = 0; cpu < n; cpu++) {
		snprintf(argbuf[2 + cpu], sizeof(argbuf[0]), "%d", cpu);
		argv[k++] = argbuf[2 + cpu];
	}
	argv[k] = NULL;
	if (pipe(p))
		die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(p[1], 1);
		execv(prog, argv);
		printf("exec-errno %d\n", errno);
		fflush(stdout);
		_exit(127);
	}
	close(p[1]);
	close(xfd);
	while ((rd = read(p[0], out + got, sizeof(out) - 1 - got)) > 0)
		got += (size_t)rd;
	out[got] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
	if (strstr(out, "exec-errno 8")) {
		printf("RESULT %s SKIP this kernel runs no 32-bit programs (execve ENOEXEC)\n",
		       g_name);
		cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);
		return 0;
	}
	for (cpu = 0; cpu < n; cpu++) {
		char want[64];

		snprintf(want, sizeof(want), "cpu %d fnv 0x%llx\n", cpu,
			 (unsigned long long)classic_hash(fd, cpu, size));
		if (!strstr(out, want))
			bad("32-bit cpu%d: want \"%.*s\" in [%.200s]", cpu,
			    (int)strlen(want) - 1, want, out);
		else
			detail("ia32-cpu%d:same-bytes", cpu);
	}
	if (!strstr(out, "cpu16-classic pgoff 0x100000000\n"))
		bad("32-bit: no cpu16-classic line in [%.200s]", out);
	else
		detail("cpu16-classic-needs-33-bit-pgoff");
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		bad("mmap32 exit status %#x", st);
	cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);
	close(fd);
	return report();
}

/* ---- UNCONFIGURE forgets the capture --------------------------------------- */

/*
 * docs/abi.md, GET_STATE: with no capture there is nothing to report but
 * the state, the clock and the flags; GET_CPU_STATUS likewise. With no
 * capture every opener may ask (a group member too), so what a released
 * capture left there (a kernel-scope filter's kernel addresses, the
 * trigger's task, each CPU's RTIT values) would be another user's.
 */
static int do_unconfigure_forgets(void)
{
	static const struct ptscope_state zs;
	static const struct ptscope_cpu_status zc;
	struct ptscope_config cfg;
	struct ptscope_cpu_status st;
	struct ptscope_state a, s;
	uint32_t reason, flags;
	int fd = open_dev(), r;

	small_config(fd, PTSCOPE_SCOPE_BOTH, &cfg);
	cfg.nr_addr_ranges = 1;
	cfg.addr[0].start = 0xffffffff81000000ull;
	cfg.addr[0].end = 0xffffffff81ffffffull;
	cfg.addr[0].cfg = PTSCOPE_ADDR_FILTER;
	if ((r = IOC(fd, PTSCOPE_IOC_CONFIGURE, cfg)))
		die("CONFIGURE (kernel-text filter): %s reason %u", strerror(-r),
		    cfg.hdr.reason);
	if ((r = cmd_r(fd, PTSCOPE_IOC_START, &reason)))
		die("START: %s reason %u", strerror(-r), reason);
	sleep_ms(50);
	if ((r = cmd_r(fd, PTSCOPE_IOC_TRIGGER, &reason)))
		die("TRIGGER: %s reason %u", strerror(-r), reason);
	wait_triggered(fd, &a, 3000);
	if (a.state != PTSCOPE_STATE_TRIGGERED || a.addr_a[0] != cfg.addr[0].start ||
	    !a.trigger_pid)
		die("capture: state %u addr_a[0] %#llx trigger pid %d, want TRIGGERED, the "
		    "filter, this process", a.state, (unsigned long long)a.addr_a[0],
		    (int)a.trigger_pid);
	memset(&st, 0, sizeof(st));
	if ((r = IOC(fd, PTSCOPE_IOC_GET_CPU_STATUS, st)) || !st.rtit_ctl || !st.stop_tsc)
		die("GET_CPU_STATUS cpu0 of the capture: %s, rtit_ctl %#llx stop_tsc %llu",
		    r ? strerror(-r) : "ok", (unsigned long long)st.rtit_ctl,
		    (unsigned long long)st.stop_tsc);
	if ((r = cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, &reason)))
		die("UNCONFIGURE: %s reason %u", strerror(-r), reason);

	get_state(fd, &s);
	if (s.state != PTSCOPE_STATE_IDLE)
		bad("state %u after UNCONFIGURE, want IDLE", s.state);
	s.hdr = zs.hdr;
	s.state = 0;
	s.tsc_khz = 0;
	s.flags = 0;
	if (memcmp(&s, &zs, sizeof(s)))
		bad("GET_STATE after UNCONFIGURE: rtit_ctl %#llx addr_a[0] %#llx addr_b[0] %#llx "
		    "trigger pid %d reason %u snapshots %u start tsc %llu: want 0 but state, "
		    "tsc_khz, flags", (unsigned long long)s.rtit_ctl,
		    (unsigned long long)s.addr_a[0], (unsigned long long)s.addr_b[0],
		    (int)s.trigger_pid, s.trigger_reason, s.nr_snapshots,
		    (unsigned long long)s.time_at_start.tsc);
	else
		detail("state:forgotten");
	memset(&st, 0, sizeof(st));
	if ((r = IOC(fd, PTSCOPE_IOC_GET_CPU_STATUS, st)))
		die("GET_CPU_STATUS cpu0 after UNCONFIGURE: %s", strerror(-r));
	flags = st.flags;
	st.hdr = zc.hdr;
	st.cpu = 0;
	st.flags = 0;
	if ((flags & ~PTSCOPE_CPUF_ONLINE) || memcmp(&st, &zc, sizeof(st)))
		bad("GET_CPU_STATUS cpu0 after UNCONFIGURE: flags %#x rtit_ctl %#llx readback "
		    "%#llx status %#llx start tsc %llu stop tsc %llu head %llu: want ONLINE "
		    "and 0", flags, (unsigned long long)st.rtit_ctl,
		    (unsigned long long)st.rtit_ctl_readback,
		    (unsigned long long)st.rtit_status, (unsigned long long)st.start_tsc,
		    (unsigned long long)st.stop_tsc, (unsigned long long)st.head);
	else
		detail("cpu0:forgotten");
	close(fd);
	return report();
}

/* Is @pid one this namespace can name: idle, outside, or one of @ok[]? */
static int ns_pid_ok(int32_t pid, const pid_t *ok, int n)
{
	int i;

	if (pid == 0 || pid == PTSCOPE_PID_OUTSIDE)
		return 1;
	for (i = 0; i < n; i++)
		if (pid == ok[i])
			return 1;
	return 0;
}

/*
 * In the new namespace: its init configures and arms, forks a child that
 * exits at once (FORK, EXIT records), then lets the waiter exit (the
 * trigger). Expected pids: docs/abi.md, "Sideband records": every pid is
 * of the configuring task's namespace.
 */
static int sb_pidns_init(void)
{
	static unsigned char buf[1 << 16];
	struct ptscope_state st;
	pid_t b, c, ok[3];
	int fd, wfd, fork_seen = 0, exit_seen = 0, trig_seen = 0;
	unsigned int recs = 0, outside = 0, foreign = 0;
	ssize_t len;

	fd = ns_init_armed(&b, &wfd);
	c = fork();
	if (c < 0)
		die("fork: %s", strerror(errno));
	if (c == 0)
		_exit(0);
	waitpid(c, NULL, 0);
	close(wfd);
	waitpid(b, NULL, 0);
	wait_triggered(fd, &st, 2000);
	if (st.state != PTSCOPE_STATE_TRIGGERED)
		bad("state %u after pid %d exited, want TRIGGERED", st.state, (int)b);
	if (st.trigger_pid != b || st.trigger_tid != b)
		bad("GET_STATE trigger pid/tid %d/%d, want %d/%d (this namespace)",
		    st.trigger_pid, st.trigger_tid, (int)b, (int)b);
	else
		detail("trigger_pid %d", st.trigger_pid);
	ok[0] = 1;
	ok[1] = b;
	ok[2] = c;
	while ((len = read(fd, buf, sizeof(buf))) > 0) {
		size_t off = 0;

		while (off + sizeof(struct ptscope_sb_hdr) <= (size_t)len) {
			const struct ptscope_sb_hdr *h = (const void *)(buf + off);
			int32_t p[4] = { 0, 0, 0, 0 };
			int i;

			if (!h->size)
				break;
			recs++;
			if (h->type == PTSCOPE_SB_SCHED_SWITCH) {
				const struct ptscope_sb_switch *s = (const void *)h;

				p[0] = s->prev_pid; p[1] = s->prev_tid;
				p[2] = s->next_pid; p[3] = s->next_tid;
			} else if (h->type == PTSCOPE_SB_FORK) {
				const struct ptscope_sb_fork *f = (const void *)h;

				p[0] = f->parent_pid; p[1] = f->parent_tid;
				p[2] = f->child_pid; p[3] = f->child_tid;
				if (f->child_pid == c && f->child_tid == c && f->parent_pid == 1)
					fork_seen = 1;
			} else if (h->type == PTSCOPE_SB_EXIT) {
				const struct ptscope_sb_exit *e = (const void *)h;

				p[0] = e->pid; p[1] = e->tid;
				if (e->pid == c && e->tid == c)
					exit_seen = 1;
			} else if (h->type == PTSCOPE_SB_EXEC) {
				const struct ptscope_sb_exec *e = (const void *)h;

				p[0] = e->pid; p[1] = e->tid;
			} else if (h->type == PTSCOPE_SB_TRIGGER) {
				const struct ptscope_sb_trigger *t = (const void *)h;

				p[0] = t->pid; p[1] = t->tid;
				if (t->pid == b && t->tid == b)
					trig_seen = 1;
			} else if ((h->type == PTSCOPE_SB_TRACE_START ||
				    h->type == PTSCOPE_SB_TRACE_STOP) &&
				   h->size >= sizeof(struct ptscope_sb_trace)) {
				const struct ptscope_sb_trace *t = (const void *)h;

				p[0] = t->pid; p[1] = t->tid;
			}
			for (i = 0; i < 4; i++) {
				if (p[i] == PTSCOPE_PID_OUTSIDE)
					outside++;
				if (!ns_pid_ok(p[i], ok, 3)) {
					if (!foreign)
						bad("record type %u names pid %d, not of this namespace (1 %d %d)",
						    h->type, p[i], (int)b, (int)c);
					foreign++;
				}
			}
			off += h->size;
		}
	}
	if (!fork_seen)
		bad("no FORK record 1 -> %d", (int)c);
	if (!exit_seen)
		bad("no EXIT record of %d", (int)c);
	if (!trig_seen)
		bad("no TRIGGER record naming %d", (int)b);
	detail("%u records, %u foreign pids, %u pids outside (-1)", recs, foreign, outside);
	cmd_r(fd, PTSCOPE_IOC_STOP, NULL);
	cmd_r(fd, PTSCOPE_IOC_UNCONFIGURE, NULL);
	close(fd);
	return report();
}

/* open: nothing but the open() (and close()) the caller watches. */
static int do_open(void)
{
	int fd = open(DEV, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno;
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
	if (!strcmp(sub, "other-user") && argc == 3)
		return do_other_user();
	if (!strcmp(sub, "own-user") && argc == 3)
		return do_own_user();
	if (!strcmp(sub, "open") && argc == 2)
		return do_open();
	if (!strcmp(sub, "arm-hold") && argc == 4)
		return do_arm_hold(argv[2], argv[3]);
	if (!strcmp(sub, "mapcount") && argc == 3)
		return do_mapcount();
	if (!strcmp(sub, "mremap-split") && argc == 3)
		return do_mremap_split();
	if (!strcmp(sub, "hotplug-loop") && argc == 4)
		return do_hotplug_loop((unsigned int)strtoul(argv[3], NULL, 0));
	if (!strcmp(sub, "trigger-race") && argc == 4)
		return do_trigger_race((unsigned int)strtoul(argv[3], NULL, 0));
	if (!strcmp(sub, "fifo-stop") && argc == 3)
		return do_fifo_stop();
	if (!strcmp(sub, "tp-pidns") && argc == 3)
		return in_new_pidns(tp_pidns_init);
	if (!strcmp(sub, "sb-pidns") && argc == 3)
		return in_new_pidns(sb_pidns_init);
	if (!strcmp(sub, "tp-typed") && argc == 3)
		return do_tp_typed();
	if (!strcmp(sub, "configure-keeps") && argc == 3)
		return do_configure_keeps();
	if (!strcmp(sub, "configure-replace") && argc == 3)
		return do_configure_replace();
	if (!strcmp(sub, "mmap-compact") && argc == 3)
		return do_mmap_compact();
	if (!strcmp(sub, "mmap-compact-ia32") && argc == 4)
		return do_mmap_compact_ia32(argv[3]);
	if (!strcmp(sub, "unconfigure-forgets") && argc == 3)
		return do_unconfigure_forgets();
	fprintf(stderr, "usage: see the comment at the top of tests/vm/guest/permtest.c\n");
	return 2;
}
