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
 * Not covered: threads and child processes are not traced (they run
 * freely); an exec in the traced process ends the trace; the time of
 * kernel work comes from the cycle model, not from the clock.
 */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
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
	bool in_kernel;			/* the last transfer went to ring 0 */
};

static void gt_cb(void *ctx, const struct ptsynth_gt_rec *r)
{
	struct tracer *t = ctx;
	int e = ptsynth_gt_write_rec(t->gt, r);

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
		t->tsc += CYC_SYSCALL;
		t->sum->syscalls++;
	}
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

static bool maps_syscall(uint64_t nr)
{
	return nr == SYS_mmap || nr == SYS_munmap || nr == SYS_mprotect || nr == SYS_mremap ||
	       nr == SYS_execve || nr == SYS_execveat || nr == SYS_pkey_mprotect;
}

/* The single-step loop. Returns 0 when the command exited (or tracing
 * stopped on purpose), else a negative errno. */
static int step_loop(struct tracer *t, struct out *out)
{
	uint64_t ip = peek_user(t->pid, offsetof(struct user_regs_struct, rip));
	int inject = 0;			/* signal to deliver on the next step */
	bool delivering = false;	/* this step only enters a signal handler */
	int st, e;

	for (;;) {
		struct ptsynth_decoded d;
		uint64_t nip;
		int sig;

		if (!delivering) {
			e = decode_at(t, ip, &d);
			if (e)
				return e;
			if (d.is_syscall) {
				uint64_t nr = peek_user(t->pid, offsetof(struct user_regs_struct, rax));

				if (maps_syscall(nr))
					t->gen++;
			}
		}
		if (t->o->max_insns && t->sum->insns >= t->o->max_insns && !delivering) {
			t->sum->limit_stopped = true;
			return 0;
		}
		if (ptrace(PTRACE_SINGLESTEP, t->pid, NULL, (void *)(long)inject) < 0)
			return pts_err_set(t->err, errno, "PTRACE_SINGLESTEP: %s", strerror(errno));
		inject = 0;
		if (waitpid(t->pid, &st, __WALL) < 0)
			return pts_err_set(t->err, errno, "waitpid: %s", strerror(errno));
		t->sum->steps++;

		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			/* exit_group never returns: the SYSCALL retired into ring 0.
			 * Killed otherwise: an asynchronous exit at ip. */
			t->sum->exit_status = st;
			if (!delivering && d.iclass == PTSYNTH_IC_FAR)
				return feed(t, ip, &d, 0, true);
			return t->in_kernel ? 0 : async_to_kernel(t, ip);
		}
		if (!WIFSTOPPED(st))
			continue;
		sig = WSTOPSIG(st);
		if (sig == SIGTRAP && (st >> 16) == PTRACE_EVENT_EXIT) {
			/* About to exit: the maps and vdso are still there. */
			e = out_take_maps(out, t->pid, true, t->err);
			if (e)
				return e;
			if (!delivering && d.iclass == PTSYNTH_IC_FAR)
				e = feed(t, ip, &d, 0, true);
			else if (!t->in_kernel)
				e = async_to_kernel(t, ip);
			if (e)
				return e;
			delivering = false;
			if (ptrace(PTRACE_CONT, t->pid, NULL, NULL) < 0)
				return pts_err_set(t->err, errno, "PTRACE_CONT: %s", strerror(errno));
			if (waitpid(t->pid, &st, __WALL) < 0)
				return pts_err_set(t->err, errno, "waitpid: %s", strerror(errno));
			t->sum->exit_status = st;
			return 0;
		}
		if (sig == SIGTRAP && (st >> 16) == PTRACE_EVENT_EXEC) {
			/* exec in the traced process: the SYSCALL went to ring 0;
			 * tracing stops here (one image per trace). */
			if (!delivering)
				e = feed(t, ip, &d, 0, true);
			else
				e = 0;
			t->sum->exec_stopped = true;
			return e;
		}
		/* The next IP of a non-branch (and of a direct JMP/CALL) is known
		 * without asking: saves a third of the system calls per step. */
		if (sig == SIGTRAP && !delivering && !d.rep && d.iclass == PTSYNTH_IC_OTHER)
			nip = ip + d.size;
		else if (sig == SIGTRAP && !delivering &&
			 (d.iclass == PTSYNTH_IC_JMP_DIRECT || d.iclass == PTSYNTH_IC_CALL_DIRECT))
			nip = d.target;
		else
			nip = peek_user(t->pid, offsetof(struct user_regs_struct, rip));

		if (delivering) {
			/* Stopped at the handler's first instruction. */
			delivering = false;
			ip = nip;
			if (sig != SIGTRAP)
				goto other_signal;
			continue;
		}
		if (sig == SIGTRAP) {
			if (nip == ip && d.rep)
				continue;	/* one more iteration of a REP string op */
			e = feed(t, ip, &d, nip, d.iclass == PTSYNTH_IC_FAR);
			if (e)
				return e;
			ip = nip;
			continue;
		}
		/* A signal-delivery stop: no instruction retired unless the IP moved. */
		if (nip != ip) {
			e = feed(t, ip, &d, nip, d.iclass == PTSYNTH_IC_FAR);
			if (e)
				return e;
			ip = nip;
		}
other_signal:
		if (sig_caught(t->pid, sig)) {
			e = async_to_kernel(t, ip);
			if (e)
				return e;
			delivering = true;
		}
		inject = sig;
	}
}

int ptsynth_run(const struct run_opts *o, struct run_summary *sum, struct pts_err *err)
{
	struct tracer t = { .o = o, .sum = sum, .err = err, .gen = 1, .memfd = -1 };
	struct out out;
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
				"(kernel.yama.ptrace_scope)", o->argv[0],
				WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		goto fail;
	}
	ptrace(PTRACE_SETOPTIONS, pid, NULL,
	       (void *)(long)(PTRACE_O_EXITKILL | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT));
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	t.memfd = open(path, O_RDONLY | O_CLOEXEC);
	t.dcache = calloc((size_t)1 << DCACHE_BITS, sizeof(*t.dcache));
	if (t.memfd < 0 || !t.dcache) {
		e = pts_err_set(err, errno ? errno : ENOMEM, "cannot open %s: %s", path,
				strerror(errno));
		goto kill;
	}
	e = out_start_process(&out, pid, o->argv[0], TSC_START, err);
	if (e)
		goto kill;
	t.enc = ptsynth_enc_new(&o->cfg, gt_cb, &t);
	if (!t.enc) {
		e = pts_err_set(err, errno, "bad encoder configuration");
		goto kill;
	}
	t0 = now_s();
	e = step_loop(&t, &out);
	sum->seconds = now_s() - t0;
	if (e)
		goto kill;
	if (!WIFEXITED(sum->exit_status) && !WIFSIGNALED(sum->exit_status)) {
		/* Stopped early (exec, limit): take the maps now, let it run. */
		e = out_take_maps(&out, pid, true, err);
		if (e)
			goto kill;
		ptrace(PTRACE_DETACH, pid, NULL, NULL);
		waitpid(pid, &st, __WALL);
		sum->exit_status = st;
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
	return e;
kill:
	kill(pid, SIGKILL);
	waitpid(pid, &st, __WALL);
fail:
	ptsynth_enc_free(t.enc);
	if (t.memfd >= 0)
		close(t.memfd);
	free(t.dcache);
	out_abort(&out);
	return e;
}
