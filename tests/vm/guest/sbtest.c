// SPDX-License-Identifier: GPL-2.0
/*
 * sbtest: the sideband's per-CPU rings through the raw ioctl ABI, inside
 * the test VM (simulated PT unit; the sideband does not depend on it).
 * Prints one line per scenario:
 *
 *   RESULT <name> PASS|FAIL <detail>
 *
 * Subcommands:
 *   percpu NAME   4 KiB ring per CPU, context-switch storms pinned on
 *                 cpu0 and cpu1 with the reader away: each CPU counts its
 *                 own drops (GET_CPU_STATUS.sideband_lost), the counts add
 *                 up to GET_STATE.sideband_lost, every CPU's records come
 *                 in TSC order and name that CPU, and a CPU that dropped
 *                 records writes a LOST record for them once it has room
 *   wake NAME     8 KiB ring per CPU, a storm on cpu1: poll() reports
 *                 POLLRDBAND (a ring half full) well before a 5 s timeout,
 *                 without any read
 *   sysrec NAME   PTSCOPE_CFG_SYSREC with the CR3 filter on a child that
 *                 writes 4096 bytes to /dev/null and then stores to a page
 *                 it never touched: SYS_ENTER and SYS_EXIT of write (1)
 *                 returning 4096, with the child's tid and one IP, then a
 *                 PAGE_FAULT at that page with the write and user bits
 *                 (not present); an untraced process doing the same writes
 *                 leaves no record; without the flag no syscall record at
 *                 all; the flag works in a config of the ABI 1 size (456
 *                 bytes). The sideband does not depend on the PT unit:
 *                 these are real kernel tracepoints, the trace is the
 *                 simulated unit's.
 *
 * Checks are against docs/abi.md ("Sideband records", "read and poll"),
 * never against values this program made.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

#define DEV "/dev/ptscope"
#define NCPU_MAX 64

static const char *g_name = "?";
static int g_fd = -1;
static pid_t g_kids[8];
static int g_nkids;

static void stop_kids(void)
{
	for (int i = 0; i < g_nkids; i++) {
		kill(g_kids[i], SIGKILL);
		waitpid(g_kids[i], NULL, 0);
	}
	g_nkids = 0;
}

static void cleanup(void)
{
	struct ptscope_cmd c;

	stop_kids();
	if (g_fd < 0)
		return;
	memset(&c, 0, sizeof(c));
	IOC(g_fd, PTSCOPE_IOC_STOP, c);
	memset(&c, 0, sizeof(c));
	IOC(g_fd, PTSCOPE_IOC_UNCONFIGURE, c);
}

static int report(int pass)
{
	cleanup();
	printf("RESULT %s %s %s\n", g_name, pass ? "PASS" : "FAIL", g_detail);
	fflush(stdout);
	return pass ? 0 : 1;
}

static void __attribute__((noreturn, format(printf, 1, 2))) fail(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	detail("%s", buf);
	exit(report(0));
}

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	if (sched_setaffinity(0, sizeof(s), &s))
		_exit(2);
}

/*
 * Two processes pinned on @cpu passing a byte back and forth through two
 * pipes: every round trip is two context switches on that CPU.
 */
static void storm(int cpu)
{
	int a[2], b[2];
	char c = 0;
	pid_t p;

	if (pipe(a) || pipe(b))
		fail("pipe: %s", strerror(errno));
	for (int side = 0; side < 2; side++) {
		p = fork();
		if (p < 0)
			fail("fork: %s", strerror(errno));
		if (!p) {
			int in = side ? a[0] : b[0], out = side ? b[1] : a[1];

			pin(cpu);
			if (!side && write(out, &c, 1) != 1)
				_exit(2);
			while (read(in, &c, 1) == 1)
				if (write(out, &c, 1) != 1)
					_exit(2);
			_exit(0);
		}
		g_kids[g_nkids++] = p;
	}
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
}

static void configure_cfg(struct ptscope_config *cfg, size_t size)
{
	struct ptscope_cmd c;
	int r;

	r = xioctl(g_fd, PTSCOPE_IOC_CONFIGURE, cfg, size);
	if (r)
		fail("CONFIGURE: %s (reason %u)", strerror(-r), cfg->hdr.reason);
	memset(&c, 0, sizeof(c));
	r = IOC(g_fd, PTSCOPE_IOC_START, c);
	if (r)
		fail("START: %s (reason %u)", strerror(-r), c.hdr.reason);
}

/* A user-scope snapshot capture of every online CPU, with sb_size bytes of sideband: armed. */
static void configure(uint64_t sb_size)
{
	struct ptscope_config cfg;
	struct ptscope_caps caps;
	int r;

	memset(&caps, 0, sizeof(caps));
	r = IOC(g_fd, PTSCOPE_IOC_GET_CAPS, caps);
	if (r)
		fail("GET_CAPS: %s", strerror(-r));
	memset(&cfg, 0, sizeof(cfg));
	cfg.scope = PTSCOPE_SCOPE_USER;
	cfg.mode = PTSCOPE_MODE_SNAPSHOT;
	cfg.timing = PTSCOPE_TIMING_TSC;
	cfg.buffer_size = 16384;
	cfg.sideband_size = sb_size;
	memcpy(cfg.cpu_mask, caps.online_mask, sizeof(cfg.cpu_mask));
	configure_cfg(&cfg, sizeof(cfg));
}

/*
 * Every pending sideband record, each checked for a size the ABI allows
 * (a multiple of 8 bytes, within what was read), handed to fn.
 */
static void for_each_record(void (*fn)(const struct ptscope_sb_hdr *h, void *ctx), void *ctx)
{
	static unsigned char buf[1 << 16] __attribute__((aligned(8)));
	struct ptscope_sideband_read rd;
	int r;

	for (;;) {
		size_t off = 0;

		memset(&rd, 0, sizeof(rd));
		rd.buf = (uint64_t)(uintptr_t)buf;
		rd.buf_len = sizeof(buf);
		r = IOC(g_fd, PTSCOPE_IOC_READ_SIDEBAND, rd);
		if (r)
			fail("READ_SIDEBAND: %s (reason %u)", strerror(-r), rd.hdr.reason);
		if (!rd.bytes_read)
			return;
		while (off + sizeof(struct ptscope_sb_hdr) <= rd.bytes_read) {
			const struct ptscope_sb_hdr *h = (const void *)(buf + off);

			if (h->size < sizeof(*h) || h->size % 8 || off + h->size > rd.bytes_read)
				fail("record size %u at %zu", h->size, off);
			fn(h, ctx);
			off += h->size;
		}
	}
}

/* What the records read so far say, per CPU. */
struct seen {
	uint64_t last_tsc[NCPU_MAX];
	uint64_t records[NCPU_MAX];
	uint64_t lost_records[NCPU_MAX];	/* LOST records */
	uint64_t lost_count[NCPU_MAX];		/* sum of their counts */
	uint64_t switches[NCPU_MAX];
	int bad_cpu;				/* switch record whose CPU is off */
};

/* One record into *ctx (struct seen), its CPU's TSC order checked. */
static void seen_add(const struct ptscope_sb_hdr *h, void *ctx)
{
	struct seen *s = ctx;

	if (h->cpu >= NCPU_MAX)
		fail("record of CPU %u", h->cpu);
	if (s->records[h->cpu] && h->tsc < s->last_tsc[h->cpu])
		fail("CPU %u: record TSC %llu after %llu (docs/abi.md: a CPU's "
		     "records are in TSC order)", h->cpu,
		     (unsigned long long)h->tsc,
		     (unsigned long long)s->last_tsc[h->cpu]);
	s->last_tsc[h->cpu] = h->tsc;
	s->records[h->cpu]++;
	if (h->type == PTSCOPE_SB_LOST) {
		const struct ptscope_sb_lost *l = (const void *)h;

		s->lost_records[h->cpu]++;
		s->lost_count[h->cpu] += l->count;
	}
	if (h->type == PTSCOPE_SB_SCHED_SWITCH)
		s->switches[h->cpu]++;
}

/* Read every pending record; check each CPU's TSC order as they come. */
static void drain(struct seen *s)
{
	for_each_record(seen_add, s);
}

static void cpu_status(unsigned int cpu, struct ptscope_cpu_status *st)
{
	int r;

	memset(st, 0, sizeof(*st));
	st->cpu = cpu;
	r = IOC(g_fd, PTSCOPE_IOC_GET_CPU_STATUS, *st);
	if (r)
		fail("GET_CPU_STATUS %u: %s", cpu, strerror(-r));
}

static int do_percpu(void)
{
	struct ptscope_cpu_status st;
	struct ptscope_state state;
	static struct seen s;
	uint64_t lost_sum = 0, cpu_lost[2];
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int r;

	configure(4096);
	storm(0);
	storm(1);
	sleep_ms(400);			/* rings full, drops counted */
	drain(&s);			/* room again: the next records follow LOST */
	sleep_ms(300);
	stop_kids();
	drain(&s);
	{
		struct ptscope_cmd c;

		memset(&c, 0, sizeof(c));
		IOC(g_fd, PTSCOPE_IOC_STOP, c);
	}
	drain(&s);
	memset(&state, 0, sizeof(state));
	r = IOC(g_fd, PTSCOPE_IOC_GET_STATE, state);
	if (r)
		fail("GET_STATE: %s", strerror(-r));
	for (long c = 0; c < ncpu && c < NCPU_MAX; c++) {
		cpu_status((unsigned int)c, &st);
		if (c < 2)
			cpu_lost[c] = st.sideband_lost;
		lost_sum += st.sideband_lost;
		if (s.lost_count[c] > st.sideband_lost)
			fail("CPU %ld: LOST records count %llu, GET_CPU_STATUS.sideband_lost %llu",
			     c, (unsigned long long)s.lost_count[c],
			     (unsigned long long)st.sideband_lost);
	}
	detail("cpu0: %llu records, %llu switches, lost %llu (%llu LOST records, count %llu);",
	       (unsigned long long)s.records[0], (unsigned long long)s.switches[0],
	       (unsigned long long)cpu_lost[0], (unsigned long long)s.lost_records[0],
	       (unsigned long long)s.lost_count[0]);
	detail("cpu1: %llu records, %llu switches, lost %llu (%llu LOST records, count %llu);",
	       (unsigned long long)s.records[1], (unsigned long long)s.switches[1],
	       (unsigned long long)cpu_lost[1], (unsigned long long)s.lost_records[1],
	       (unsigned long long)s.lost_count[1]);
	detail("GET_STATE.sideband_lost %llu", (unsigned long long)state.sideband_lost);
	for (int c = 0; c < 2; c++) {
		if (!cpu_lost[c])
			fail("CPU %d: no sideband record dropped by its own 4 KiB ring "
			     "(GET_CPU_STATUS.sideband_lost 0)", c);
		if (!s.lost_records[c])
			fail("CPU %d dropped records but wrote no LOST record once it had room", c);
		if (s.switches[c] < 64)
			fail("CPU %d: only %llu switch records", c,
			     (unsigned long long)s.switches[c]);
	}
	if (lost_sum != state.sideband_lost)
		fail("per-CPU lost counts add up to %llu, GET_STATE says %llu",
		     (unsigned long long)lost_sum, (unsigned long long)state.sideband_lost);
	return report(1);
}

static int do_wake(void)
{
	struct pollfd p = { .events = POLLRDBAND };
	struct ptscope_cpu_status st;
	uint64_t t0, ms;
	int r;

	configure(8192);
	p.fd = g_fd;
	t0 = now_ns();
	/* nothing pending yet: not ready */
	r = poll(&p, 1, 0);
	if (r != 0)
		fail("poll before any load: %d revents %#x (want 0)", r, p.revents);
	storm(1);
	r = poll(&p, 1, 5000);
	ms = (now_ns() - t0) / 1000000;
	cpu_status(1, &st);
	detail("poll %d revents %#x after %llu ms; cpu1 unread %llu bytes",
	       r, p.revents, (unsigned long long)ms, (unsigned long long)st.sideband_bytes);
	if (r != 1 || !(p.revents & POLLRDBAND))
		fail("no POLLRDBAND within 5 s of a switch storm on cpu1");
	if (st.sideband_bytes < 4096)
		fail("woken with cpu1's ring below half full");
	return report(1);
}

/* What sysrec found among the records. */
struct sysrec_seen {
	unsigned int enters, exits, faults;	/* of the traced child */
	unsigned int others;			/* syscall/fault records of anyone else */
	unsigned int write_enter, write_exit;	/* write (1) of 4096 bytes */
	uint64_t enter_ip, exit_ip, enter_tsc, fault_tsc;
	unsigned int page_fault;		/* at the page, with write|user */
	uint64_t fault_ec;
};

/* The traced child and its page, and what was found of them. */
struct sysrec_ctx {
	pid_t child;
	uint64_t page;
	struct sysrec_seen *s;
};

static void sysrec_add(const struct ptscope_sb_hdr *h, void *ctx)
{
	const struct sysrec_ctx *x = ctx;
	struct sysrec_seen *s = x->s;
	pid_t child = x->child;
	uint64_t page = x->page;

	if (h->type == PTSCOPE_SB_SYS_ENTER || h->type == PTSCOPE_SB_SYS_EXIT) {
		const struct ptscope_sb_syscall *sc = (const void *)h;

		if (h->size != sizeof(*sc))
			fail("syscall record of %u bytes (docs/abi.md: %zu)",
			     h->size, sizeof(*sc));
		if (sc->pid != child || sc->tid != child) {
			s->others++;
		} else if (h->type == PTSCOPE_SB_SYS_ENTER) {
			s->enters++;
			if (sc->nr == 1 && !s->write_enter) {
				s->write_enter = 1;
				s->enter_ip = sc->ip;
				s->enter_tsc = h->tsc;
			}
		} else {
			s->exits++;
			if (sc->nr == 1 && sc->ret == 4096 && !s->write_exit) {
				s->write_exit = 1;
				s->exit_ip = sc->ip;
			}
		}
	} else if (h->type == PTSCOPE_SB_PAGE_FAULT) {
		const struct ptscope_sb_fault *f = (const void *)h;

		if (f->pid != child) {
			s->others++;
		} else {
			s->faults++;
			if (f->address >= page && f->address < page + 4096 && !s->page_fault) {
				s->page_fault = 1;
				s->fault_ec = f->error_code;
				s->fault_tsc = h->tsc;
			}
		}
	}
}

static void sysrec_read(pid_t child, uint64_t page, struct sysrec_seen *s)
{
	struct sysrec_ctx x = { child, page, s };

	for_each_record(sysrec_add, &x);
}

/*
 * A child that waits for a byte on @go, writes 4096 bytes to /dev/null,
 * stores to the untouched page @page, says so with a byte on @done, and
 * waits for a byte on @go again.
 */
static pid_t sysrec_child(int go, int done, char *page)
{
	static char block[4096];
	pid_t p = fork();
	char c;

	if (p < 0)
		fail("fork: %s", strerror(errno));
	if (p)
		return p;
	if (read(go, &c, 1) != 1)
		_exit(2);
	{
		int fd = open("/dev/null", O_WRONLY);

		if (fd < 0 || write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
			_exit(3);
		close(fd);
	}
	*(volatile char *)page = 1;
	if (write(done, "d", 1) != 1)
		_exit(5);
	if (read(go, &c, 1) < 0)
		_exit(4);
	_exit(0);
}

/* One capture of a fresh child; @flags: config flags, @size: struct size. */
static void sysrec_capture(uint32_t flags, size_t size, struct sysrec_seen *s,
			   uint64_t *page_out)
{
	struct ptscope_config cfg;
	struct ptscope_caps caps;
	struct ptscope_cmd c;
	int go[2], go2[2], done[2], r;
	struct pollfd pd;
	char *page, d[2];
	pid_t child, other;

	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		fail("mmap: %s", strerror(errno));
	/* a go pipe each: a child reading go again after its work must not
	 * take the other one's byte */
	if (pipe(go) || pipe(go2) || pipe(done))
		fail("pipe: %s", strerror(errno));
	child = sysrec_child(go[0], done[1], page);
	other = sysrec_child(go2[0], done[1], page);	/* the same work, not traced */
	g_kids[g_nkids++] = child;
	g_kids[g_nkids++] = other;
	memset(&caps, 0, sizeof(caps));
	r = IOC(g_fd, PTSCOPE_IOC_GET_CAPS, caps);
	if (r)
		fail("GET_CAPS: %s", strerror(-r));
	memset(&cfg, 0, sizeof(cfg));
	cfg.flags = PTSCOPE_CFG_CR3_FILTER | flags;
	cfg.cr3_pid = child;
	cfg.scope = PTSCOPE_SCOPE_USER;
	cfg.mode = PTSCOPE_MODE_SNAPSHOT;
	cfg.timing = PTSCOPE_TIMING_TSC;
	cfg.buffer_size = 16384;
	cfg.sideband_size = 65536;
	memcpy(cfg.cpu_mask, caps.online_mask, sizeof(cfg.cpu_mask));
	configure_cfg(&cfg, size);
	/* the child and the other process go, then wait again */
	if (write(go[1], "x", 1) != 1 || write(go2[1], "x", 1) != 1)
		fail("pipe write: %s", strerror(errno));
	/* both did their work (a loaded TCG guest may take long): no fixed wait */
	for (int k = 0; k < 2; k++) {
		pd.fd = done[0];
		pd.events = POLLIN;
		if (poll(&pd, 1, 20000) != 1 || read(done[0], d, 1) != 1)
			fail("the children did not finish their work within 20 s");
	}
	memset(&c, 0, sizeof(c));
	IOC(g_fd, PTSCOPE_IOC_STOP, c);
	memset(s, 0, sizeof(*s));
	sysrec_read(child, (uint64_t)(uintptr_t)page, s);
	close(go[1]);
	close(go[0]);
	close(go2[1]);
	close(go2[0]);
	close(done[0]);
	close(done[1]);
	stop_kids();
	memset(&c, 0, sizeof(c));
	IOC(g_fd, PTSCOPE_IOC_UNCONFIGURE, c);
	munmap(page, 4096);
	*page_out = (uint64_t)(uintptr_t)page;
}

/*
 * The cost figure of docs/capture.md: a traced child calling getpid in a
 * loop for 500 ms, the records drained every 20 ms from a 1 MiB ring per
 * CPU. Said in the detail (records/s, bytes, drops); under QEMU TCG the
 * rates are the emulator's, not a CPU's.
 */
static void sysrec_rate(void)
{
	static unsigned char buf[1 << 16] __attribute__((aligned(8)));
	struct ptscope_sideband_read rd;
	struct ptscope_config cfg;
	struct ptscope_caps caps;
	struct ptscope_state st;
	struct ptscope_cmd c;
	uint64_t recs = 0, bytes = 0, t0;
	pid_t child;
	int r;

	child = fork();
	if (child < 0)
		fail("fork: %s", strerror(errno));
	if (!child) {
		for (;;)
			getpid();
	}
	g_kids[g_nkids++] = child;
	memset(&caps, 0, sizeof(caps));
	IOC(g_fd, PTSCOPE_IOC_GET_CAPS, caps);
	memset(&cfg, 0, sizeof(cfg));
	cfg.flags = PTSCOPE_CFG_CR3_FILTER | PTSCOPE_CFG_SYSREC;
	cfg.cr3_pid = child;
	cfg.scope = PTSCOPE_SCOPE_USER;
	cfg.timing = PTSCOPE_TIMING_TSC;
	cfg.buffer_size = 16384;
	cfg.sideband_size = 1 << 20;
	memcpy(cfg.cpu_mask, caps.online_mask, sizeof(cfg.cpu_mask));
	configure_cfg(&cfg, sizeof(cfg));
	t0 = now_ns();
	while (now_ns() - t0 < 500000000ull) {
		sleep_ms(20);
		for (;;) {
			size_t off = 0;

			memset(&rd, 0, sizeof(rd));
			rd.buf = (uint64_t)(uintptr_t)buf;
			rd.buf_len = sizeof(buf);
			r = IOC(g_fd, PTSCOPE_IOC_READ_SIDEBAND, rd);
			if (r || !rd.bytes_read)
				break;
			while (off + sizeof(struct ptscope_sb_hdr) <= rd.bytes_read) {
				const struct ptscope_sb_hdr *h = (const void *)(buf + off);

				if (h->type == PTSCOPE_SB_SYS_ENTER || h->type == PTSCOPE_SB_SYS_EXIT) {
					recs++;
					bytes += h->size;
				}
				off += h->size ? h->size : rd.bytes_read;
			}
		}
	}
	t0 = now_ns() - t0;
	memset(&st, 0, sizeof(st));
	IOC(g_fd, PTSCOPE_IOC_GET_STATE, st);
	memset(&c, 0, sizeof(c));
	IOC(g_fd, PTSCOPE_IOC_STOP, c);
	stop_kids();
	memset(&c, 0, sizeof(c));
	IOC(g_fd, PTSCOPE_IOC_UNCONFIGURE, c);
	detail("; getpid loop (TCG): %llu syscall records in %llu ms = %llu records/s, "
	       "%llu bytes/s, %llu dropped", (unsigned long long)recs,
	       (unsigned long long)(t0 / 1000000), (unsigned long long)(recs * 1000000000ull / t0),
	       (unsigned long long)(bytes * 1000000000ull / t0),
	       (unsigned long long)st.sideband_lost);
	if (!recs)
		fail("no syscall record from a getpid loop");
}

static int do_sysrec(void)
{
	struct sysrec_seen s, off, old;
	uint64_t page;

	sysrec_capture(PTSCOPE_CFG_SYSREC, sizeof(struct ptscope_config), &s, &page);
	detail("child: %u enters, %u exits, %u faults; others %u; write ip %#llx/%#llx;"
	       " fault ec %#llx;", s.enters, s.exits, s.faults, s.others,
	       (unsigned long long)s.enter_ip, (unsigned long long)s.exit_ip,
	       (unsigned long long)s.fault_ec);
	if (!s.write_enter || !s.write_exit)
		fail("no SYS_ENTER/SYS_EXIT pair of write (1) returning 4096 for the child");
	if (!s.enter_ip || s.enter_ip != s.exit_ip)
		fail("write's SYS_ENTER and SYS_EXIT name different user IPs");
	if (!s.page_fault)
		fail("no PAGE_FAULT record at the child's untouched page");
	/* SDM vol. 3A 4.7: bit 0 present, 1 write, 2 user */
	if ((s.fault_ec & 0x7) != 0x6)
		fail("page fault error code %#llx: want write|user, not present",
		     (unsigned long long)s.fault_ec);
	if (s.fault_tsc < s.enter_tsc)
		fail("the fault's TSC is before write's entry (the child wrote first)");
	if (s.others)
		fail("%u records of a process the capture does not trace", s.others);
	sysrec_capture(0, sizeof(struct ptscope_config), &off, &page);
	detail("without the flag: %u records;", off.enters + off.exits + off.faults + off.others);
	if (off.enters + off.exits + off.faults + off.others)
		fail("syscall records without PTSCOPE_CFG_SYSREC");
	sysrec_capture(PTSCOPE_CFG_SYSREC, PTSCOPE_CONFIG_SIZE_VER0, &old, &page);
	detail("ABI 1 size: write %u/%u, fault %u", old.write_enter, old.write_exit,
	       old.page_fault);
	if (!old.write_enter || !old.write_exit || !old.page_fault)
		fail("a config of the ABI 1 size (456 bytes) with the flag recorded nothing");
	sysrec_rate();
	return report(1);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: sbtest percpu|wake|sysrec NAME\n");
		return 2;
	}
	g_name = argv[2];
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("RESULT %s SKIP one CPU only\n", g_name);
		return 0;
	}
	g_fd = open(DEV, O_RDWR | O_CLOEXEC);
	if (g_fd < 0)
		fail("open %s: %s", DEV, strerror(errno));
	if (!strcmp(argv[1], "percpu"))
		return do_percpu();
	if (!strcmp(argv[1], "wake"))
		return do_wake();
	if (!strcmp(argv[1], "sysrec"))
		return do_sysrec();
	fail("unknown subcommand %s", argv[1]);
}
