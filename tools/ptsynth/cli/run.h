/* SPDX-License-Identifier: GPL-2.0 */
/* `ptsynth run`: single-step a command with ptrace and encode its trace. */
#ifndef PTSYNTH_CLI_RUN_H
#define PTSYNTH_CLI_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ptsynth_enc.h"
#include "util/err.h"

struct run_opts {
	struct ptsynth_config cfg;
	const char *out;		/* NAME.ptscope directory */
	uint64_t wrap_size;		/* 0: no ring; else keep the last wrap_size bytes */
	uint64_t max_insns;		/* 0: no limit; else stop tracing after this many */
	bool stop_full;			/* at max_insns the trace ends without a disable */
	/*
	 * 0: none; else a uprobe trigger at this user address: the first
	 * thread about to execute it traps into the kernel there (the int3)
	 * and the trace ends, as ptscope.ko's uprobe trigger ends it
	 */
	uint64_t trigger_at;
	bool trim_objects;		/* zero the pages of copied objects nothing executed */
	bool quiet;
	bool pin_cpu;
	bool no_aslr;
	bool follow_exec;		/* an exec restarts the trace in the new image */
	/*
	 * Sideband SYS_ENTER/SYS_EXIT records of every syscall, as ptscope.ko
	 * writes with --syscalls: number and IP known before the step, the
	 * return value read after it; stamped inside the kernel time the
	 * cycle model gives the call
	 */
	bool syscalls;
	FILE *progress;			/* NULL, or where a long run says how far it is */
	double progress_every_s;	/* s between those lines (checked every 65536 insns) */			/* run the command without address randomisation */			/* run tracer and command on one CPU (faster) */
	char **argv;			/* command */
};

struct run_summary {
	uint64_t insns;			/* instructions retired under single-step */
	uint64_t steps;			/* ptrace stops */
	uint64_t syscalls, signals;
	uint64_t sys_records;		/* SYS_ENTER and SYS_EXIT records written (--syscalls) */
	uint64_t switches, preemptions;
	uint64_t execs;			/* execs followed (--follow-exec) */	/* context switches between threads */
	double seconds;			/* wall time of the single-step loop */
	int exit_status;		/* wait status of the command, when exited */
	bool exited;
	bool exec_stopped;		/* the command exec'd: tracing stopped there */
	bool limit_stopped;		/* max_insns reached */
	bool trigger_hit;		/* trigger_at reached: the trace ends there */
	int trigger_tid;		/* the thread that reached it */
};

/* Run and write the bundle. Returns 0 or a negative errno with err set. */
int ptsynth_run(const struct run_opts *o, struct run_summary *sum, struct pts_err *err);

#endif
