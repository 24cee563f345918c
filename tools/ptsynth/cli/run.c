// SPDX-License-Identifier: GPL-2.0
/*
 * The ptrace front end of ptsynth. The command runs under
 * PTRACE_SINGLESTEP; at every stop the IP says where the tracee is, so
 * the instruction at the previous IP retired with this IP as its next IP.
 * Kernel work is invisible to ptrace and, in user scope, to PT as well:
 * a SYSCALL is a transfer to ring 0 (TIP.PGD) and the next user
 * instruction re-enables (TIP.PGE). A signal handler entry is an
 * asynchronous transfer (FUP at the interrupted IP, TIP.PGD, then
 * TIP.PGE at the handler).
 *
 * Threads share one modelled CPU: one runs at a time, preempted after
 * QUANTUM instructions or when it blocks in a system call; every switch
 * is a sched_switch sideband record. Not covered: child processes run
 * untraced; an exec in the traced process ends the trace; the time of
 * kernel work comes from the cycle model, not from the clock.
 */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/types.h>
#include "uapi/ptscope.h"

#include "ptsynth_gt.h"
#include "ptsynth_iclass.h"
#include "out.h"

/*
 * Deterministic cycle model (core cycles == TSC ticks at CBR ==
 * nominal ratio): every instruction 1 cycle, a taken branch 1 more, a
 * near call/return 2 more; kernel work for a system call 1500 cycles and
 * for a signal delivery 4000. Values are illustrative, chosen so that
 * MTCs (every 8 * 84 = 672 TSC ticks at MTCFreq 3) fall at a realistic
 * density; they are not measurements.
 */
#define CYC_INSN		1
#define CYC_TAKEN		1
#define CYC_CALLRET		2
#define CYC_SYSCALL		1500
#define CYC_SIGNAL		4000
#define TSC_START		1000000000ULL

#define DCACHE_BITS		16

struct dcache_ent {
	uint64_t ip;
	uint32_t gen;
	struct ptsynth_decoded d;
};

struct tracer {
	const struct run_opts *o;
	pid_t pid;
	int memfd;
	struct ptsynth_enc *enc;
	FILE *gt;
	uint64_t tsc;
	uint32_t gen;
	struct dcache_ent *dcache;
	struct run_summary *sum;
	struct pts_err *err;
	int gt_err;
	struct out *out;
	pid_t cur_tid;			/* thread whose instruction is being fed */
	int64_t cur_nr;			/* its syscall's number (rax before the step) */
	bool in_kernel;			/* the last transfer went to ring 0 */
	double t_start, t_said;		/* s: the loop's start, the last progress line */
};

static uint64_t peek_user(pid_t pid, size_t off);
static void progress(struct tracer *t);

static void gt_cb(void *ctx, const struct ptsynth_gt_rec *r)
{
	struct tracer *t = ctx;
	uint64_t sp = 0;
	int e;

	/* The thread is stopped right after the CALL: RSP is the address of
	 * the return address it pushed. After a RET without an immediate
	 * (C3, with a prefix 2 bytes), RSP is 8 above the slot it read; a RET
	 * that releases an immediate's bytes more (C2 iw) gives none. */
	if ((r->kind == PTSYNTH_GT_INSN || r->kind == PTSYNTH_GT_LOST) &&
	    (r->iclass == PTSYNTH_IC_CALL_DIRECT || r->iclass == PTSYNTH_IC_CALL_INDIRECT))
		sp = peek_user(t->cur_tid, offsetof(struct user_regs_struct, rsp));
	if ((r->kind == PTSYNTH_GT_INSN || r->kind == PTSYNTH_GT_LOST) &&
	    r->iclass == PTSYNTH_IC_RET && r->size <= 2)
		sp = peek_user(t->cur_tid, offsetof(struct user_regs_struct, rsp)) - 8;
	/* An indirect JMP leaves RSP as it was: the slot below it is where a
	 * return done by a jump (`pop %r8; jmp *%r8`) read its target. */
	if ((r->kind == PTSYNTH_GT_INSN || r->kind == PTSYNTH_GT_LOST) &&
	    r->iclass == PTSYNTH_IC_JMP_INDIRECT)
		sp = peek_user(t->cur_tid, offsetof(struct user_regs_struct, rsp)) - 8;
	e = ptsynth_gt_write_rec_sp(t->gt, r, sp);

	if (e && !t->gt_err)
		t->gt_err = e;
}

static int decode_at(struct tracer *t, uint64_t ip, struct ptsynth_decoded *d)
{
	struct dcache_ent *ce = &t->dcache[(ip ^ (ip >> DCACHE_BITS)) & ((1u << DCACHE_BITS) - 1)];
	uint8_t buf[16];
	ssize_t n;

	if (ce->gen == t->gen && ce->ip == ip) {
		*d = ce->d;
		return 0;
	}
	n = pread(t->memfd, buf, sizeof(buf), (off_t)ip);
	if (n <= 0) {
		/* The last bytes of a mapping: read what is there. */
		size_t k;

		for (k = sizeof(buf) - 1; k > 0; k--) {
			n = pread(t->memfd, buf, k, (off_t)ip);
			if (n > 0)
				break;
		}
		if (n <= 0)
			return pts_err_set(t->err, EFAULT,
					   "cannot read the instruction at %#" PRIx64 " of pid %d",
					   ip, t->pid);
	}
	if (ptsynth_classify(ip, buf, (size_t)n, d))
		return pts_err_set(t->err, EINVAL,
				   "bytes at %#" PRIx64 " do not decode as an x86-64 instruction", ip);
	ce->ip = ip;
	ce->gen = t->gen;
	ce->d = *d;
	return 0;
}

static uint64_t peek_user(pid_t pid, size_t off)
{
	errno = 0;
	return (uint64_t)ptrace(PTRACE_PEEKUSER, pid, (void *)off, NULL);
}

static uint64_t cost_of(const struct ptsynth_decoded *d, uint64_t ip, uint64_t next)
{
	uint64_t c = CYC_INSN;

	if (next != ip + d->size)
		c += CYC_TAKEN;
	if (d->iclass == PTSYNTH_IC_CALL_DIRECT || d->iclass == PTSYNTH_IC_CALL_INDIRECT ||
	    d->iclass == PTSYNTH_IC_RET)
		c += CYC_CALLRET;
	return c;
}

/* Is signal sig caught by a handler in pid right now? (/proc/PID/status SigCgt) */
static bool sig_caught(pid_t pid, int sig)
{
	char path[64], line[256];
	bool caught = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long mask;

		if (sscanf(line, "SigCgt: %llx", &mask) == 1) {
			caught = (mask >> (sig - 1)) & 1;
			break;
		}
	}
	fclose(f);
	return caught;
}

static int feed(struct tracer *t, uint64_t ip, const struct ptsynth_decoded *d, uint64_t next,
		bool to_kernel)
{
	struct ptsynth_insn in = {
		.ip = ip, .next_ip = next, .tsc = t->tsc, .iclass = d->iclass,
		.size = d->size, .ring = 3, .next_ring = to_kernel ? 0 : 3,
	};
	int e;

	if (t->in_kernel) {
		/* Back in ring 3: the kernel's time passes first. */
		fputs("k 3\n", t->gt);
		t->in_kernel = false;
		e = ptsynth_enc_advance(t->enc, t->tsc);
		if (e)
			return pts_err_set(t->err, e, "encoder: advance");
	}
	e = ptsynth_enc_insn(t->enc, &in);
	t->sum->insns++;
	if (t->o->progress && !(t->sum->insns & 0xffff))
		progress(t);
	if (t->o->trim_objects) {
		/* both pages of an instruction that crosses a page boundary */
		out_note_page(t->out, ip);
		out_note_page(t->out, ip + d->size - 1);
	}
	t->tsc += cost_of(d, ip, next);
	if (e)
		return pts_err_set(t->err, e, "encoder: %s", strerror(-e));
	if (to_kernel) {
		fputs("k 0\n", t->gt);
		t->in_kernel = true;
		/* the kernel's entry record: after the instruction, in ring 0 */
		if (t->o->syscalls && d->is_syscall) {
			e = out_sb_syscall(t->out, PTSCOPE_SB_SYS_ENTER, t->tsc + 1, t->pid,
					   t->cur_tid, t->cur_nr, 0, ip + d->size);
			if (e)
				return pts_err_set(t->err, -e, "out of memory");
			t->sum->sys_records++;
		}
		t->tsc += CYC_SYSCALL;
		t->sum->syscalls++;
	}
	return 0;
}

/*
 * The exit record of th's syscall (--syscalls): the return value is in
 * rax now; stamped just before the kernel's time ends (the next user
 * instruction, TIP.PGE, is fed at t->tsc).
 */
static int syscall_exit(struct tracer *t, pid_t tid, int64_t nr, uint64_t ip)
{
	int64_t ret = (int64_t)peek_user(tid, offsetof(struct user_regs_struct, rax));
	int e = out_sb_syscall(t->out, PTSCOPE_SB_SYS_EXIT, t->tsc - 1, t->pid, tid, nr, ret, ip);

	if (e)
		return pts_err_set(t->err, -e, "out of memory");
	t->sum->sys_records++;
	return 0;
}

/*
 * --syscalls: the exit record of the execve that started the traced
 * image, as the module writes it after that exec's EXEC record (the
 * sys_exit tracepoint runs in the new program): number execve, 0, and the
 * IP it returns to, the new image's first (its entry point, or its
 * dynamic loader's). Stamped at the EXEC's time.
 */
static int exec_returned(struct tracer *t, uint64_t ip)
{
	int e;

	if (!t->o->syscalls)
		return 0;
	e = out_sb_syscall(t->out, PTSCOPE_SB_SYS_EXIT, t->tsc, t->pid, t->pid, SYS_execve, 0,
			   ip);
	if (e)
		return pts_err_set(t->err, -e, "out of memory");
	t->sum->sys_records++;
	return 0;
}

static int async_to_kernel(struct tracer *t, uint64_t at)
{
	bool was_en = ptsynth_enc_packet_en(t->enc);
	int e = ptsynth_enc_async(t->enc, at, 0, 0, t->tsc);

	if (e)
		return pts_err_set(t->err, e, "encoder: async transfer at %#" PRIx64, at);
	if (was_en || !t->in_kernel)
		fputs("k 0\n", t->gt);
	t->in_kernel = true;
	t->tsc += CYC_SIGNAL;
	t->sum->signals++;
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Every progress_every_s (looked at every 65536 instructions): how far the run is. */
static void progress(struct tracer *t)
{
	double now = now_s();

	if (now - t->t_said < t->o->progress_every_s)
		return;
	t->t_said = now;
	fprintf(t->o->progress, "ptsynth: %" PRIu64 " instructions traced in %.0f s (%.0f/s)...\n",
		t->sum->insns, now - t->t_start,
		now > t->t_start ? t->sum->insns / (now - t->t_start) : 0.0);
	fflush(t->o->progress);
}

static bool maps_syscall(uint64_t nr)
{
	return nr == SYS_mmap || nr == SYS_munmap || nr == SYS_mprotect || nr == SYS_mremap ||
	       nr == SYS_execve || nr == SYS_execveat || nr == SYS_pkey_mprotect;
}

/* One traced thread. All threads share one modelled CPU: the tracer runs
 * one at a time and switches between them like a scheduler would. */
struct thr {
	pid_t tid;
	uint64_t ip;			/* where it is stopped: next to execute */
	struct ptsynth_decoded d;	/* the instruction at ip */
	int inject;			/* signal to deliver on its next step */
	bool delivering;		/* its next stop only enters a signal handler */
	bool no_insn;			/* its next stop only leaves an event stop */
	bool blocked;			/* in a system call that has not returned */
	bool pending;			/* a wait status arrived for it: `status` */
	int status;
	bool live;
	uint64_t ran;			/* instructions since it was switched in */
	bool sys_open;			/* --syscalls: in a syscall whose exit is not recorded */
	int64_t sys_nr;			/* its number */
	uint64_t sys_ip;		/* the IP it returns to */
};

#define MAX_THREADS	256
/* Instructions a thread runs before the model preempts it (a timer tick). */
#define QUANTUM		3000
/* Kernel cycles of a context switch. */
#define CYC_SWITCH	2500
/* A system call that has not returned after this long is blocked: the
 * other threads run meanwhile. */
#define BLOCK_NS	3000000L

struct sched {
	struct thr t[MAX_THREADS];
	int n, cur;
};

static struct thr *thr_find(struct sched *s, pid_t tid)
{
	for (int i = 0; i < s->n; i++)
		if (s->t[i].tid == tid)
			return &s->t[i];
	return NULL;
}

static struct thr *thr_add(struct tracer *t, struct sched *s, pid_t tid)
{
	struct thr *th = thr_find(s, tid);

	if (th)
		return th;
	if (s->n == MAX_THREADS) {
		pts_err_set(t->err, E2BIG, "more than %d threads: not supported", MAX_THREADS);
		return NULL;
	}
	th = &s->t[s->n++];
	memset(th, 0, sizeof(*th));
	th->tid = tid;
	th->live = true;
	return th;
}

static int comm_of(pid_t pid, pid_t tid, char comm[16])
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	comm[0] = 0;
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (fgets(comm, 16, f))
		comm[strcspn(comm, "\n")] = 0;
	fclose(f);
	return 0;
}

/* --follow-exec: the command exec'd; trace the new image from its first
 * instruction, as if it had been started so. */
static int restart_at_exec(struct tracer *t, struct out *out, struct thr *th)
{
	char path[64];
	int e;

	ptsynth_enc_free(t->enc);
	t->enc = ptsynth_enc_new(&t->o->cfg, gt_cb, t);
	if (!t->enc)
		return pts_err_set(t->err, ENOMEM, "out of memory");
	/* the old /proc/PID/mem belongs to the old address space */
	close(t->memfd);
	snprintf(path, sizeof(path), "/proc/%d/mem", t->pid);
	t->memfd = open(path, O_RDONLY | O_CLOEXEC);
	if (t->memfd < 0)
		return pts_err_set(t->err, errno, "cannot open %s: %s", path, strerror(errno));
	t->gen++;
	t->in_kernel = false;
	t->sum->insns = t->sum->syscalls = t->sum->signals = 0;
	t->sum->execs++;
	e = out_restart(out, t->pid, t->tsc, t->err);
	if (e)
		return e;
	fprintf(t->gt, "t %x\n", (unsigned int)t->pid);
	/* Stopped inside execve: the next step only returns to user mode. */
	th->ip = peek_user(t->pid, offsetof(struct user_regs_struct, rip));
	e = exec_returned(t, th->ip);
	if (e)
		return e;
	th->no_insn = true;
	th->delivering = false;
	th->ran = 0;
	return 0;
}

/* Put `next` on the CPU. A preempted thread (stopped in user code) is
 * interrupted before its next instruction: FUP + TIP.PGD as for a timer
 * interrupt. Sideband: a sched_switch record, as the module writes. */
static int switch_to(struct tracer *t, struct sched *s, int next)
{
	struct thr *prev = &s->t[s->cur];
	char comm[16];
	int e = 0;

	if (next == s->cur)
		return 0;
	if (prev->live && !t->in_kernel) {
		e = async_to_kernel(t, prev->ip);
		t->sum->signals--;	/* a timer interrupt, not a signal */
		t->sum->preemptions++;
	}
	if (e)
		return e;
	/* The switch is recorded early in the kernel, the return to the next
	 * thread's user code takes CYC_SWITCH more: the record's TSC lies
	 * between the old thread's disable and the new one's enable, even at
	 * MTC resolution (672 TSC ticks). */
	comm_of(t->pid, s->t[next].tid, comm);
	e = out_sb_switch(t->out, t->tsc, t->pid, prev->live ? prev->tid : -1, s->t[next].tid, comm);
	if (e)
		return pts_err_set(t->err, e, "out of memory");
	t->tsc += CYC_SWITCH;
	t->sum->switches++;
	fprintf(t->gt, "t %x\n", (unsigned int)s->t[next].tid);
	s->cur = next;
	s->t[next].ran = 0;
	return 0;
}

/* Choose the next thread to run after cur (round robin), collecting the
 * stops of blocked threads; waits for one when every thread is blocked.
 * Returns the index, -1 when no thread is left, or a negative errno - 1. */
static int pick_next(struct tracer *t, struct sched *s, bool include_cur)
{
	for (;;) {
		int i, k, live = 0;

		for (k = include_cur ? 0 : 1; k <= s->n; k++) {
			struct thr *th;

			i = (s->cur + k) % s->n;
			th = &s->t[i];
			if (!th->live)
				continue;
			live++;
			if (th->blocked && !th->pending) {
				int st;
				pid_t r = waitpid(th->tid, &st, __WALL | WNOHANG);

				if (r == th->tid) {
					th->pending = true;
					th->status = st;
				}
			}
			if (!th->blocked || th->pending)
				return i;
			if (k == s->n)
				break;
		}
		if (!live)
			return -1;
		/* Everyone is in the kernel: wait for whoever comes back first. */
		{
			int st;
			pid_t r = waitpid(-1, &st, __WALL);
			struct thr *th;

			if (r < 0)
				return -1 - errno;
			th = thr_find(s, r);
			if (!th) {
				th = thr_add(t, s, r);
				if (!th)
					return -1 - E2BIG;
			}
			th->pending = true;
			th->status = st;
		}
	}
}

/* Wait for the stop that ends th's step. For a system call, give up after
 * BLOCK_NS: it is blocked (returns 1). Returns 0 with *st, or -errno. */
static int wait_step(struct thr *th, bool syscall, int *st)
{
	struct timespec t0, now, nap = { 0, 20000 };

	if (!syscall)
		return waitpid(th->tid, st, __WALL) < 0 ? -errno : 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		pid_t r = waitpid(th->tid, st, __WALL | WNOHANG);

		if (r == th->tid)
			return 0;
		if (r < 0)
			return -errno;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - t0.tv_sec) * 1000000000L + (now.tv_nsec - t0.tv_nsec) > BLOCK_NS)
			return 1;
		nanosleep(&nap, NULL);
	}
}

/* A thread other than the leader ended (exit or killed). */
static int thread_gone(struct tracer *t, struct sched *s, struct thr *th)
{
	int e;

	th->live = false;
	e = out_sb_exit(t->out, t->tsc, t->pid, th->tid);
	return e ? pts_err_set(t->err, e, "out of memory") : 0;
}

/* The leader is exiting (exit_group or a fatal signal): every thread goes.
 * Continue all, reap all; the leader's status is the command's. */
static int drain(struct tracer *t, struct sched *s)
{
	for (int i = 0; i < s->n; i++)
		if (s->t[i].live && s->t[i].tid != t->pid)
			kill(s->t[i].tid, SIGKILL);
	ptrace(PTRACE_CONT, t->pid, NULL, NULL);
	for (;;) {
		int st;
		pid_t r = waitpid(-1, &st, __WALL);

		if (r < 0)
			break;
		if (WIFSTOPPED(st))
			ptrace(PTRACE_CONT, r, NULL, NULL);
		else if (r == t->pid) {
			t->sum->exit_status = st;
			t->sum->exited = true;
		}
	}
	return 0;
}

/* Kill the command and reap every thread (stops are continued so that
 * exit stops do not hold the process). */
static void kill_all(pid_t pid, struct run_summary *sum)
{
	int st;
	pid_t r;

	kill(pid, SIGKILL);
	while ((r = waitpid(-1, &st, __WALL)) > 0) {
		if (WIFSTOPPED(st))
			ptrace(PTRACE_CONT, r, NULL, NULL);
		else if (r == pid) {
			sum->exit_status = st;
			sum->exited = true;
		}
	}
}

/* The single-step loop. Returns 0 when the command exited (or tracing
 * stopped on purpose), else a negative errno. */
static int step_loop(struct tracer *t, struct out *out, struct sched *s)
{
	int st, e;

	s->n = 0;
	if (!thr_add(t, s, t->pid))
		return -E2BIG;
	s->cur = 0;
	s->t[0].ip = peek_user(t->pid, offsetof(struct user_regs_struct, rip));
	fprintf(t->gt, "t %x\n", (unsigned int)t->pid);

	for (;;) {
		struct thr *th = &s->t[s->cur];
		struct ptsynth_decoded *d = &th->d;

		t->cur_tid = th->tid;
		bool fresh_step = !th->delivering && !th->no_insn;
		uint64_t nip;
		int sig, w;

		if (th->pending) {
			/* The stop that ended this thread's step came while it
			 * was off the CPU (a blocked system call returned). */
			th->pending = false;
			th->blocked = false;
			st = th->status;
			fresh_step = false;
			th->no_insn = true;
		} else {
			if (fresh_step) {
				e = decode_at(t, th->ip, d);
				if (e)
					return e;
				if (d->is_syscall) {
					uint64_t nr = peek_user(th->tid,
								offsetof(struct user_regs_struct, rax));

					if (maps_syscall(nr))
						t->gen++;
					t->cur_nr = (int64_t)nr;
					th->sys_open = t->o->syscalls;
					th->sys_nr = (int64_t)nr;
					th->sys_ip = th->ip + d->size;
				}
				if (t->o->max_insns && t->sum->insns >= t->o->max_insns) {
					/* Clearing TraceEn takes the kernel: in user
					 * scope the thread is interrupted here first. */
					t->sum->limit_stopped = true;
					/* a full ToPA STOP region: no FUP, no TIP.PGD */
					if (t->in_kernel || t->o->stop_full)
						return 0;
					e = async_to_kernel(t, th->ip);
					t->sum->signals--;	/* not a signal */
					return e;
				}
				if (t->o->trigger_at && th->ip == t->o->trigger_at) {
					/*
					 * A uprobe's int3 replaces this instruction's
					 * first byte: the thread traps before executing
					 * it (FUP at it, TIP.PGD), and the trigger
					 * stops tracing in the kernel (docs/abi.md,
					 * Triggers).
					 */
					t->sum->trigger_hit = true;
					t->sum->trigger_tid = th->tid;
					e = async_to_kernel(t, th->ip);
					t->sum->signals--;	/* not a signal */
					return e;
				}
			}
			if (ptrace(PTRACE_SINGLESTEP, th->tid, NULL, (void *)(long)th->inject) < 0)
				return pts_err_set(t->err, errno, "PTRACE_SINGLESTEP %d: %s", th->tid,
						   strerror(errno));
			th->inject = 0;
			w = wait_step(th, fresh_step && d->iclass == PTSYNTH_IC_FAR, &st);
			if (w < 0)
				return pts_err_set(t->err, -w, "waitpid: %s", strerror(-w));
			if (w == 1) {
				/* Blocked in the kernel: the SYSCALL retired into ring 0;
				 * another thread gets the CPU. */
				e = feed(t, th->ip, d, 0, true);
				if (e)
					return e;
				th->blocked = true;
				w = pick_next(t, s, false);
				if (w < -1)
					return pts_err_set(t->err, -w - 1, "waitpid: %s", strerror(-w - 1));
				if (w >= 0 && (e = switch_to(t, s, w)))
					return e;
				continue;
			}
		}
		t->sum->steps++;

		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (th->tid == t->pid) {
				/* exit_group never returns: the SYSCALL retired into
				 * ring 0. Killed otherwise: an asynchronous exit. */
				t->sum->exit_status = st;
				t->sum->exited = true;
				if (fresh_step && d->iclass == PTSYNTH_IC_FAR)
					e = feed(t, th->ip, d, 0, true);
				else
					e = t->in_kernel ? 0 : async_to_kernel(t, th->ip);
				if (!e)
					e = drain(t, s);
				return e;
			}
			if (fresh_step && d->iclass == PTSYNTH_IC_FAR)
				e = feed(t, th->ip, d, 0, true);
			else
				e = t->in_kernel ? 0 : async_to_kernel(t, th->ip);
			if (!e)
				e = thread_gone(t, s, th);
			if (e)
				return e;
			goto next_thread;
		}
		if (!WIFSTOPPED(st))
			continue;
		sig = WSTOPSIG(st);
		if (sig == SIGTRAP && (st >> 16) == PTRACE_EVENT_EXIT) {
			if (fresh_step && d->iclass == PTSYNTH_IC_FAR)
				e = feed(t, th->ip, d, 0, true);
			else
				e = t->in_kernel ? 0 : async_to_kernel(t, th->ip);
			if (e)
				return e;
			if (th->tid == t->pid) {
				/* About to exit: the maps and vdso are still there. */
				e = out_take_maps(out, t->pid, true, t->err);
				return e ? e : drain(t, s);
			}
			e = thread_gone(t, s, th);
			if (e)
				return e;
			ptrace(PTRACE_CONT, th->tid, NULL, NULL);
			waitpid(th->tid, &st, __WALL);
			goto next_thread;
		}
		if (sig == SIGTRAP && (st >> 16) == PTRACE_EVENT_EXEC) {
			/* exec in the traced process: the SYSCALL went to ring 0.
			 * A bundle holds one image per process: tracing stops
			 * here, or with --follow-exec starts over in the new
			 * image (single-threaded commands only). */
			if (t->o->follow_exec && s->n == 1) {
				e = restart_at_exec(t, out, th);
				if (e)
					return e;
				continue;
			}
			e = fresh_step ? feed(t, th->ip, d, 0, true) : 0;
			t->sum->exec_stopped = true;
			return e;
		}
		if (sig == SIGTRAP && (st >> 16) == PTRACE_EVENT_CLONE) {
			/* A new thread: the SYSCALL retired into ring 0; this
			 * thread leaves the event stop with its next step. */
			unsigned long child = 0;
			struct thr *c;

			ptrace(PTRACE_GETEVENTMSG, th->tid, NULL, &child);
			e = fresh_step ? feed(t, th->ip, d, 0, true) : 0;
			if (e)
				return e;
			th->ip += fresh_step ? d->size : 0;
			th->no_insn = true;
			c = thr_add(t, s, (pid_t)child);
			if (!c)
				return -E2BIG;
			th = &s->t[s->cur];	/* thr_add may not move, but be safe */
			if (!c->pending) {
				/* its first stop (SIGSTOP) arrives promptly */
				if (waitpid(c->tid, &c->status, __WALL) == c->tid)
					c->pending = true;
			}
			c->blocked = true;	/* starts in the kernel (clone returns 0) */
			e = out_sb_fork(out, t->tsc, t->pid, th->tid, c->tid);
			if (e)
				return pts_err_set(t->err, e, "out of memory");
			continue;
		}
		if (sig == SIGSTOP && !fresh_step && th->no_insn && th->ran == 0 && th->tid != t->pid &&
		    th->ip == 0) {
			/* a new thread's first stop: now we know where it is */
			th->ip = peek_user(th->tid, offsetof(struct user_regs_struct, rip));
			th->no_insn = false;
			continue;
		}
		/* The next IP of a non-branch (and of a direct JMP/CALL) is known
		 * without asking: saves a third of the system calls per step. */
		if (sig == SIGTRAP && fresh_step && !d->rep && d->iclass == PTSYNTH_IC_OTHER)
			nip = th->ip + d->size;
		else if (sig == SIGTRAP && fresh_step &&
			 (d->iclass == PTSYNTH_IC_JMP_DIRECT || d->iclass == PTSYNTH_IC_CALL_DIRECT))
			nip = d->target;
		else
			nip = peek_user(th->tid, offsetof(struct user_regs_struct, rip));

		if (!fresh_step && th->sys_open && sig == SIGTRAP) {
			/* a blocked call returned, or an event stop (clone) ends */
			th->sys_open = false;
			e = syscall_exit(t, th->tid, th->sys_nr, th->sys_ip);
			if (e)
				return e;
		}
		if (!fresh_step) {
			/* Entered a handler, left an event stop or a blocked call:
			 * no instruction retired. */
			th->delivering = false;
			th->no_insn = false;
			th->ip = nip;
			if (sig != SIGTRAP)
				goto other_signal;
			continue;
		}
		if (sig == SIGTRAP) {
			if (nip == th->ip && d->rep)
				continue;	/* one more iteration of a REP string op */
			e = feed(t, th->ip, d, nip, d->iclass == PTSYNTH_IC_FAR);
			if (!e && th->sys_open && d->is_syscall) {
				th->sys_open = false;
				e = syscall_exit(t, th->tid, th->sys_nr, th->sys_ip);
			}
			if (e)
				return e;
			th->ip = nip;
			if (++th->ran >= QUANTUM && s->n > 1 && !t->in_kernel)
				goto next_thread;
			continue;
		}
		/* A signal-delivery stop: no instruction retired unless the IP moved. */
		if (nip != th->ip) {
			e = feed(t, th->ip, d, nip, d->iclass == PTSYNTH_IC_FAR);
			if (e)
				return e;
			th->ip = nip;
		}
other_signal:
		if (sig_caught(t->pid, sig)) {
			e = async_to_kernel(t, th->ip);
			if (e)
				return e;
			th->delivering = true;
		}
		th->inject = sig;
		continue;
next_thread:
		w = pick_next(t, s, !th->live ? true : false);
		if (w < -1)
			return pts_err_set(t->err, -w - 1, "waitpid: %s", strerror(-w - 1));
		if (w < 0)
			return 0;
		e = switch_to(t, s, w);
		if (e)
			return e;
	}
}

/*
 * A failed start (the command did not run under ptrace) leaves no
 * bundle: what out_begin created goes, so the same command can be run
 * again with the same -o.
 */
static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void remove_partial_bundle(const char *dir)
{
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int ptsynth_run(const struct run_opts *o, struct run_summary *sum, struct pts_err *err)
{
	struct tracer t = { .o = o, .sum = sum, .err = err, .gen = 1, .memfd = -1 };
	struct out out;
	struct sched *sched = NULL;
	char path[64];
	double t0;
	pid_t pid;
	int st, e;

	memset(sum, 0, sizeof(*sum));
	e = out_begin(&out, o, err);
	if (e)
		return e;
	t.gt = out.gt;
	t.out = &out;
	t.tsc = TSC_START;

	if (o->pin_cpu) {
		/* Tracer and tracee on one CPU: every step is a ping-pong between
		 * the two, and same-CPU wake-ups avoid an IPI each way. */
		cpu_set_t set;
		int cpu = sched_getcpu();

		CPU_ZERO(&set);
		CPU_SET(cpu < 0 ? 0 : cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	pid = fork();
	if (pid < 0) {
		e = pts_err_set(err, errno, "fork: %s", strerror(errno));
		goto fail;
	}
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
			_exit(126);
		/* Fixed addresses make runs comparable (and the sample stable). */
		if (o->no_aslr)
			personality(ADDR_NO_RANDOMIZE);
		execvp(o->argv[0], o->argv);
		fprintf(stderr, "ptsynth: cannot execute %s: %s\n", o->argv[0], strerror(errno));
		_exit(127);
	}
	t.pid = pid;
	if (waitpid(pid, &st, __WALL) < 0 || !WIFSTOPPED(st)) {
		e = pts_err_set(err, ECHILD, "%s did not start under ptrace (exit status %d): "
				"check the command name and that ptrace is permitted "
				"(kernel.yama.ptrace_scope); no bundle written", o->argv[0],
				WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		out_abort(&out);
		remove_partial_bundle(o->out);
		return e;
	}
	ptrace(PTRACE_SETOPTIONS, pid, NULL,
	       (void *)(long)(PTRACE_O_EXITKILL | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT |
			      PTRACE_O_TRACECLONE));
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	t.memfd = open(path, O_RDONLY | O_CLOEXEC);
	t.dcache = calloc((size_t)1 << DCACHE_BITS, sizeof(*t.dcache));
	if (t.memfd < 0 || !t.dcache) {
		e = pts_err_set(err, errno ? errno : ENOMEM, "cannot open %s: %s", path,
				strerror(errno));
		goto kill;
	}
	e = out_start_process(&out, pid, o->argv[0], TSC_START, err) ?:
	    exec_returned(&t, peek_user(pid, offsetof(struct user_regs_struct, rip)));
	if (e)
		goto kill;
	t.enc = ptsynth_enc_new(&o->cfg, gt_cb, &t);
	if (!t.enc) {
		e = pts_err_set(err, errno, "bad encoder configuration");
		goto kill;
	}
	t0 = now_s();
	t.t_start = t.t_said = t0;
	sched = calloc(1, sizeof(*sched));
	if (!sched) {
		e = pts_err_set(err, ENOMEM, "out of memory");
		goto kill;
	}
	e = step_loop(&t, &out, sched);
	sum->seconds = now_s() - t0;
	if (e)
		goto kill;
	if (!sum->exited) {
		/* Stopped early (exec, limit): take the maps now, let it run
		 * (a thread blocked in a system call cannot be detached from
		 * here: then the command is killed). */
		bool blocked = false;

		e = out_take_maps(&out, pid, true, err);
		if (e)
			goto kill;
		for (int i = 0; i < sched->n; i++)
			blocked |= sched->t[i].live && sched->t[i].blocked && !sched->t[i].pending;
		if (blocked) {
			kill_all(pid, sum);
		} else {
			for (int i = sched->n; i-- > 0;)
				if (sched->t[i].live)
					ptrace(PTRACE_DETACH, sched->t[i].tid, NULL, NULL);
			if (waitpid(pid, &st, __WALL) == pid) {
				sum->exit_status = st;
				sum->exited = true;
			}
		}
	}
	e = ptsynth_enc_finish(t.enc, t.tsc);
	if (!e && t.gt_err)
		e = pts_err_set(err, t.gt_err, "writing the ground truth: %s", strerror(-t.gt_err));
	if (e)
		goto fail;
	e = out_finish(&out, t.enc, pid, t.tsc, sum, err);
	ptsynth_enc_free(t.enc);
	close(t.memfd);
	free(t.dcache);
	free(sched);
	return e;
kill:
	kill_all(pid, sum);
fail:
	free(sched);
	ptsynth_enc_free(t.enc);
	if (t.memfd >= 0)
		close(t.memfd);
	free(t.dcache);
	out_abort(&out);
	return e;
}
