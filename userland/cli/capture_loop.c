// SPDX-License-Identifier: GPL-2.0
/*
 * ptscope run / attach / record: the armed loop shared by the three.
 *
 * run: CMD is forked with PTRACE_TRACEME and stops right after execve,
 * so its new address space exists (the CR3 filter needs the post-exec
 * page tables) but no instruction of it has run. We read its maps, arm
 * with cr3_pid = CMD, then let it go. It stays ptrace-attached with
 * PTRACE_O_TRACEEXIT only, so its exit stops it while its maps are still
 * readable: the "maps at trigger" of an exit snapshot.
 *
 * The loop ends on: a module trigger (state TRIGGERED), a full buffer
 * (STOPPED), the target's exit, --duration, or the first Ctrl-C. A second
 * Ctrl-C at any time aborts: writing stops, the bundle is marked
 * incomplete, and the module is disarmed (STOP + UNCONFIGURE).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"
#include "capture/device.h"
#include "capture/maps_time.h"
#include "capture/outdir.h"
#include "capture/preflight.h"
#include "capture_loop.h"

static volatile sig_atomic_t interrupts;

static void on_signal(int sig)
{
	(void)sig;
	interrupts++;
}

static void on_child(int sig)
{
	(void)sig;	/* only to interrupt poll() */
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* What to do when execvp(CMD) failed with e: the common causes by name. */
static const char *spawn_hint(int e)
{
	switch (e) {
	case ENOENT:
		return "give the program's path (./NAME for one in this directory) or a command"
			" on PATH";
	case EACCES:
		return "make it executable (chmod +x), or run it through its interpreter"
			" (ptscope run -- sh SCRIPT)";
	case ENOEXEC:
		return "it is no program this machine runs: give the executable, or run a script"
			" through its interpreter (ptscope run -- sh SCRIPT)";
	default:
		return "check the command after --";
	}
}

/*
 * Fork CMD held at exec. Returns its pid (stopped after execve, traced),
 * or -1 with a message printed (CMD could not be started).
 */
static pid_t spawn_held(char **argv)
{
	int pfd[2], status, e = 0;
	pid_t pid;
	ssize_t n;

	if (pipe2(pfd, O_CLOEXEC)) {
		fprintf(stderr, "ptscope: pipe: %s\n", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "ptscope: fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		close(pfd[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL)) {
			e = errno;
			n = write(pfd[1], &e, sizeof(e));
			_exit(126);
		}
		execvp(argv[0], argv);
		/* exec failed: the close-on-exec pipe carries errno back */
		e = errno;
		n = write(pfd[1], &e, sizeof(e));
		(void)n;
		_exit(127);
	}
	close(pfd[1]);
	n = read(pfd[0], &e, sizeof(e));
	close(pfd[0]);
	if (waitpid(pid, &status, 0) < 0) {
		fprintf(stderr, "ptscope: waitpid: %s\n", strerror(errno));
		return -1;
	}
	if (n == (ssize_t)sizeof(e)) {
		fprintf(stderr, "ptscope: cannot run '%s': %s: %s (nothing was traced)\n",
			argv[0], strerror(e), spawn_hint(e));
		if (WIFSTOPPED(status))
			kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return -1;
	}
	if (!WIFSTOPPED(status) || WSTOPSIG(status) != SIGTRAP) {
		fprintf(stderr, "ptscope: '%s' did not stop at exec (%s %d); not traced\n",
			argv[0], WIFEXITED(status) ? "exited with" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -1;
	}
	/* from here: exit and exec events only; if ptscope dies, CMD dies with it */
	if (ptrace(PTRACE_SETOPTIONS, pid, NULL,
		   (void *)(long)(PTRACE_O_TRACEEXIT | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL)))
		fprintf(stderr, "ptscope: PTRACE_SETOPTIONS: %s (exit snapshot without maps)\n",
			strerror(errno));
	return pid;
}

/* Open a pidfd to watch an attached process's exit (-1 if unsupported). */
static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

struct loop {
	struct pts_capture *c;
	pid_t child;		/* run: our traced child, 0 when reaped */
	bool child_held;	/* stopped at its exit event */
	int child_status;
	int pidfd;		/* attach */
	bool target_gone;
	unsigned int snapshots;
	bool any_incomplete;
	struct pts_outdir od;	/* bundle names, checked before arming */
};

/*
 * The bundle could not be written where asked (its directory went away,
 * the disk is full): the trace is still in the module's rings until
 * disarm, so write it again under the temporary directory and say where.
 */
static int write_rescue(struct loop *L, const char *failed, bool *complete)
{
	char dir[PATH_MAX];
	struct pts_err e;

	if (pts_outdir_rescue(failed, dir, sizeof(dir), &e) ||
	    pts_capture_write_bundle(L->c, dir, complete, stdout, &e)) {
		fprintf(stderr, "ptscope: the capture is lost: no rescue copy either: %s\n", e.msg);
		return -1;
	}
	fprintf(stderr, "ptscope: %s could not be written; the capture is saved in %s instead\n",
		failed, dir);
	return 0;
}

static int take_snapshot(struct loop *L)
{
	struct pts_capture *c = L->c;
	char dir[PATH_MAX];
	struct pts_err e;
	bool complete = false;

	L->snapshots++;
	if (c->target && !L->target_gone)
		pts_capture_snap(c, c->target, true, true, &e);
	else if (!c->target)
		pts_capture_snap_seen(c);
	pts_outdir_next(&L->od, dir, sizeof(dir));
	if (pts_capture_write_bundle(c, dir, &complete, stdout, &e)) {
		fprintf(stderr, "ptscope: %s\n", e.msg);
		/* not where it was asked for: exit status 1 even when rescued */
		L->any_incomplete = true;
		return write_rescue(L, dir, &complete);
	}
	if (!complete)
		L->any_incomplete = true;
	return 0;
}

/* Handle one waitpid result of the run child. */
static void child_event(struct loop *L, int status)
{
	struct pts_capture *c = L->c;
	struct pts_err e;

	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		/* gone without an exit stop (SIGKILL): freeze what is there */
		if (!L->target_gone) {
			pts_capture_stop(c, &e);
			pts_capture_set_reason(c, "exit", WIFSIGNALED(status) ?
					       "killed by a signal" : "exited");
		}
		L->child = 0;
		L->child_status = status;
		L->target_gone = true;
		return;
	}
	if (!WIFSTOPPED(status))
		return;
	if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXIT << 8))) {
		/* CMD is exiting but its mm is intact: freeze the trace now */
		pts_capture_stop(c, &e);
		pts_capture_set_reason(c, "exit", c->o->cmd_argv ? c->o->cmd_argv[0] : "");
		pts_capture_snap(c, c->target, true, true, &e);
		L->child_held = true;
		L->target_gone = true;
		return;
	}
	if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXEC << 8))) {
		/*
		 * CMD replaced itself (sh -c 'exec prog'): new page tables,
		 * while the CR3 filter still names the old ones, so nothing
		 * more of CMD is traced. Say so; the capture goes on.
		 */
		fprintf(stderr, "ptscope: warning: CMD executed another program; the CR3 "
			"filter still names the address space of the first one, so the "
			"new program is not traced (run it directly under ptscope run, "
			"or use ptscope record)\n");
		pts_capture_error(c, "CMD exec'd again: the program after that exec is not traced");
		/* stopped after the exec: its EXEC record is written, read the new maps */
		if (!pts_capture_drain_sideband(c, &e))
			pts_capture_refresh_maps(c, pts_capture_drain_sideband);
		ptrace(PTRACE_CONT, L->child, NULL, NULL);
		return;
	}
	/* a signal for CMD: deliver it (ptrace intercepted it) */
	ptrace(PTRACE_CONT, L->child, NULL, (void *)(long)WSTOPSIG(status));
}

static void release_child(struct loop *L)
{
	if (L->child && L->child_held) {
		ptrace(PTRACE_CONT, L->child, NULL, NULL);
		L->child_held = false;
	}
}

static void poll_child(struct loop *L)
{
	int status;
	pid_t r;

	while (L->child > 0 && (r = waitpid(L->child, &status, WNOHANG | __WALL)) > 0)
		child_event(L, status);
}

static void poll_attached(struct loop *L)
{
	struct pollfd p;

	if (!L->c->target || L->child || L->target_gone)
		return;
	if (L->pidfd >= 0) {
		p.fd = L->pidfd;
		p.events = POLLIN;
		if (poll(&p, 1, 0) > 0)
			L->target_gone = true;
	} else if (kill(L->c->target, 0) && errno == ESRCH) {
		L->target_gone = true;
	}
	if (L->target_gone) {
		struct pts_err e;

		pts_capture_stop(L->c, &e);
		pts_capture_set_reason(L->c, "exit", "attached process exited");
	}
}

int pts_cli_capture(struct pts_capture_opts *o)
{
	struct pts_capture c;
	struct pts_err err = { 0 };
	struct loop L;
	uint64_t t_end = 0;
	bool done = false, bad;
	int rc = 1;

	memset(&L, 0, sizeof(L));
	L.c = &c;
	L.pidfd = -1;
	/* a bad value is said as itself, not as a module that is not loaded */
	if (pts_preflight(o, &bad, &err)) {
		fprintf(stderr, "ptscope: %s\n", err.msg);
		return bad ? 2 : 1;
	}
	if (!o->output[0])
		pts_capture_default_name(o->output, sizeof(o->output));
	/* before anything is armed or run: a capture must never be lost to its name */
	if (pts_outdir_prepare(&L.od, o->output, o->cfg.trigger.flags & PTSCOPE_TRIGF_MULTI, &err)) {
		fprintf(stderr, "ptscope: %s\n", err.msg);
		return 1;
	}
	install_signals();
	if (pts_capture_open(&c, o, &err)) {
		fprintf(stderr, "ptscope: %s\n", err.msg);
		pts_capture_close(&c);
		return c.bad_option ? 2 : 1;
	}
	c.abort_flag = &interrupts;

	switch (o->cmd) {
	case PTS_CMD_RUN: {
		pid_t pid = spawn_held(o->cmd_argv);

		if (pid <= 0)
			goto out;	/* L.child stays 0: never kill() a pid <= 0 */
		L.child = pid;
		c.target = pid;
		break;
	}
	case PTS_CMD_ATTACH:
		c.target = o->pid;
		if (kill(o->pid, 0) && errno == ESRCH) {
			fprintf(stderr, "ptscope: no process %d: give the pid of a running process"
				" (pgrep -o NAME finds one), or start the program with ptscope run"
				" -- CMD\n", (int)o->pid);
			goto out;
		}
		L.pidfd = open_pidfd(o->pid);
		break;
	case PTS_CMD_RECORD:
		pts_capture_snap_all(&c);
		break;
	}
	if (c.target && pts_capture_snap(&c, c.target, false, true, &err)) {
		fprintf(stderr, "ptscope: cannot read process %d before arming: %s%s\n",
			(int)c.target, err.msg,
			err.code == -ESRCH ? " (it exited before tracing could be armed)" : "");
		goto out;
	}
	/* before arming: a full capture writes every ring whole */
	if (pts_outdir_room(&L.od, o->cfg.buffer_size * pts_cpu_mask_count(o->cfg.cpu_mask),
			    &err)) {
		fprintf(stderr, "ptscope: warning: %s\n", err.msg);
		pts_capture_error(&c, "%s", err.msg);
		pts_err_clear(&err);
	}
	if (pts_capture_resolve_filters(&c, &err) || pts_capture_resolve_trigger(&c, &err) ||
	    pts_capture_arm(&c, &err)) {
		fprintf(stderr, "ptscope: %s\n", err.msg);
		goto out;
	}
	if (!o->quiet)
		pts_capture_status_line(&c, stderr);
	if (L.child)
		ptrace(PTRACE_CONT, L.child, NULL, NULL);	/* release CMD */
	if (o->duration_ms)
		t_end = now_ms() + o->duration_ms;

	while (!done) {
		struct ptscope_state st;
		/* POLLRDBAND: a CPU's sideband ring is half full, drain it now */
		struct pollfd p = { .fd = c.fd, .events = POLLIN | POLLPRI | POLLRDBAND };

		if (interrupts >= 2)
			break;
		poll(&p, 1, 100);
		if (interrupts >= 2)
			break;
		if (pts_capture_drain_sideband(&c, &err)) {
			pts_capture_error(&c, "sideband: %s", err.msg);
			pts_err_clear(&err);
		} else {
			/* maps over time: each program's, split at the EXEC records */
			pts_capture_refresh_maps(&c, pts_capture_drain_sideband);
		}
		poll_child(&L);
		poll_attached(&L);
		if (interrupts == 1 && !c.trig_reason[0]) {
			pts_capture_stop(&c, &err);
			pts_capture_set_reason(&c, "signal", "Ctrl-C");
		}
		if (t_end && now_ms() >= t_end && !c.trig_reason[0]) {
			char d[64];

			snprintf(d, sizeof(d), "--duration %llu ms", (unsigned long long)o->duration_ms);
			pts_capture_stop(&c, &err);
			pts_capture_set_reason(&c, "none", d);
		}
		if (pts_dev_get_state(c.fd, &st, &err)) {
			fprintf(stderr, "ptscope: %s\n", err.msg);
			break;
		}
		if (st.state == PTSCOPE_STATE_IDLE || st.state == PTSCOPE_STATE_CONFIGURED) {
			fprintf(stderr, "ptscope: the module left the armed state (now %s): "
				"another ptscope unconfigured it?\n", pts_state_text(st.state));
			break;
		}
		if (st.state == PTSCOPE_STATE_TRIGGERED) {
			take_snapshot(&L);
			if ((o->cfg.trigger.flags & PTSCOPE_TRIGF_MULTI) && !L.target_gone &&
			    !interrupts && !c.trig_reason[0]) {
				/* keep the sideband of the next window only */
				c.sb_len = 0;
				c.sb_folded = 0;
				if (pts_capture_rearm(&c, &err)) {
					fprintf(stderr, "ptscope: re-arm: %s\n", err.msg);
					done = true;
				} else if (!o->quiet) {
					pts_capture_status_line(&c, stderr);
				}
				continue;
			}
			done = true;
		} else if (st.state == PTSCOPE_STATE_STOPPED || c.trig_reason[0]) {
			if (st.state == PTSCOPE_STATE_POST_TRIGGER)
				continue;	/* the module finishes the post-trigger window */
			if (st.state == PTSCOPE_STATE_ARMED)
				pts_capture_stop(&c, &err);
			if (!c.trig_reason[0])
				pts_capture_set_reason(&c, o->cfg.mode == PTSCOPE_MODE_FULL ?
						       "full" : "none", "stopped");
			take_snapshot(&L);
			done = true;
		}
	}
	if (interrupts >= 2) {
		fprintf(stderr, "ptscope: second Ctrl-C: aborted, tracing disarmed\n");
		rc = 130;
	} else {
		rc = L.snapshots && !L.any_incomplete ? 0 : 1;
	}
out:
	pts_capture_disarm(&c);
	if (L.child > 0) {
		sig_atomic_t seen;
		int status;

		/*
		 * The capture is over. After an abort or a failure CMD is
		 * killed; otherwise it finishes on its own, as under perf
		 * record: keep forwarding its signals until it exits.
		 */
		if ((rc == 130 || !L.snapshots) && L.child > 0)
			kill(L.child, SIGKILL);
		release_child(&L);
		seen = interrupts;
		while (L.child) {
			if (waitpid(L.child, &status, __WALL) < 0) {
				if (errno != EINTR)
					break;
				/* Ctrl-C while waiting: pass it on, then insist */
				if (interrupts != seen)
					kill(L.child, interrupts - seen > 1 ? SIGKILL : SIGINT);
				continue;
			}
			if (WIFEXITED(status) || WIFSIGNALED(status))
				break;
			if (WIFSTOPPED(status))
				ptrace(PTRACE_CONT, L.child, NULL,
				       (void *)(long)((status >> 16) ? 0 : WSTOPSIG(status)));
		}
	}
	if (L.pidfd >= 0)
		close(L.pidfd);
	pts_capture_close(&c);
	return rc;
}
