/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One capture session against /dev/ptscope, shared by ptscope run, attach
 * and record: open and check the device, snapshot processes, resolve
 * --filter symbols, arm (CONFIGURE + START), drain the sideband while
 * armed, stop, write the bundle (bundle_out.c), disarm (STOP +
 * UNCONFIGURE).
 */
#ifndef PTS_CAPTURE_CAPTURE_H
#define PTS_CAPTURE_CAPTURE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <uapi/ptscope.h>

#include "../bundle/bundle.h"
#include "../util/err.h"
#include "../util/hmap.h"
#include "options.h"

/* What ptscope knows about one process at arm and at the trigger. */
struct pts_capture_proc {
	int32_t pid;
	char comm[16];
	char *exe;				/* NULL unknown */
	struct pts_bundle_map *maps_arm;
	size_t nr_maps_arm;
	struct pts_bundle_map *maps_trigger;
	size_t nr_maps_trigger;
	struct pts_bundle_maps_exec *maps_seen;	/* read while armed, per program (maps_time.h) */
	size_t nr_maps_seen;
	void *vdso;				/* bytes, NULL none */
	size_t vdso_len;
	uint64_t vdso_addr;
	int32_t *tids;
	size_t nr_tids;
	bool seen;				/* named by the sideband or traced */
};

#define PTS_CAPTURE_MAX_ERRORS 16

struct pts_ktext_sum;

struct pts_capture {
	struct pts_capture_opts *o;
	int fd;
	struct ptscope_caps caps;
	bool configured;			/* CONFIGURE succeeded: UNCONFIGURE at the end */
	bool kdump_warned;			/* the crash-kernel warning was printed */
	/*
	 * pts_capture_open() refused an option this machine cannot do (-C
	 * naming an offline CPU, a --mtc-period its CPUID refuses): a bad
	 * option like the parser's, exit status 2
	 */
	bool bad_option;
	int uprobe_fd;				/* the uprobe trigger's file until CONFIGURE, else -1 */
	pid_t target;				/* run/attach: the traced process; 0 record */

	struct pts_capture_proc *procs;
	size_t nr_procs, cap_procs;
	struct pts_hmap proc_index;		/* pid -> index in procs: a lookup per pid named */

	uint8_t *sb;				/* sideband records read so far */
	size_t sb_len, sb_cap;
	uint64_t sb_lost;
	uint64_t sb_folded;			/* snapshot mode: records folded away (sbfold.h) */

	/* every EXEC record read, in the order read (maps_time.h) */
	struct {
		struct { int32_t pid; uint64_t tsc; } *v;
		size_t n, cap;
	} execs;

	/*
	 * Kernel code as hashed at arm (kernel and both scope; ktext_hash.h),
	 * for the bundle to tell what changed; after a bundle, the hashes of
	 * its copies (the code at the re-arm that follows). NULL: not hashed.
	 */
	struct pts_ktext_sum *kt_arm;
	size_t nr_kt_arm;

	/* why the capture ended, in the manifest's words (bundle.h) */
	char trig_reason[32];
	char trig_detail[128];

	/* non-fatal problems, repeated in the summary */
	char errors[PTS_CAPTURE_MAX_ERRORS][256];
	unsigned int nr_errors;

	/* Ctrl-C counter set by a signal handler: at 2 writing stops, incomplete */
	volatile sig_atomic_t *abort_flag;
};

/*
 * Open the device, read the capabilities, refuse when there is no PT unit
 * (saying how to load the simulated one), fit o to the CPU (notes on
 * stderr). 0 or -errno with err set; c->bad_option says an option was
 * refused (exit status 2).
 */
int pts_capture_open(struct pts_capture *c, struct pts_capture_opts *o,
		     struct pts_err *err);

/* Add a non-fatal problem for the summary (printf format). */
void pts_capture_error(struct pts_capture *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Snapshot process pid: at_trigger false fills maps_arm (and exe, comm,
 * vdso, threads), true fills maps_trigger (and refreshes vdso/threads).
 * with_vdso false skips the vdso (record's arm-time scan of every
 * process). A process that is gone returns -ESRCH quietly.
 */
int pts_capture_snap(struct pts_capture *c, pid_t pid, bool at_trigger, bool with_vdso,
		     struct pts_err *err);

/* record: maps of every process at arm (without vdso). */
void pts_capture_snap_all(struct pts_capture *c);

/* At the trigger: snapshot every process the sideband named. */
void pts_capture_snap_seen(struct pts_capture *c);

/*
 * Turn o->filters into cfg.addr[] (ADDRn_A = start, ADDRn_B = end - 1).
 * Symbols are looked up in the target's executable and relocated with its
 * maps at arm; record has no target, so symbols are refused there.
 */
int pts_capture_resolve_filters(struct pts_capture *c, struct pts_err *err);

/*
 * The uprobe trigger (--trigger uprobe:PATH:SYMBOL or SYMBOL): resolve the
 * symbol with libelf (uprobe_sym.h), open the file for CONFIGURE and fill
 * cfg.uprobe. A bare SYMBOL is a function of the target's executable and
 * fires only in the target. Refuses before anything is armed. Says on
 * stderr where the probe goes. 0 or -errno with err set.
 */
int pts_capture_resolve_trigger(struct pts_capture *c, struct pts_err *err);

/*
 * CONFIGURE (with cr3_pid = c->target for run/attach) and START. When the
 * module says a crash kernel was loaded at START (GET_STATE's
 * PTSCOPE_STATEF_CRASH_KERNEL), warns on stderr, once per capture, what a
 * crash would do to the trace and what to do instead.
 */
int pts_capture_arm(struct pts_capture *c, struct pts_err *err);

/*
 * Read every available sideband record into c->sb; note the pids named.
 * In snapshot mode c->sb stays within --sideband-keep: past it the oldest
 * half is folded into each CPU's task (sbfold.h, counted in sb_folded).
 */
int pts_capture_drain_sideband(struct pts_capture *c, struct pts_err *err);

/* STOP; "not armed" (already stopped by a trigger) is not an error. */
int pts_capture_stop(struct pts_capture *c, struct pts_err *err);

/* START again after a snapshot (--multi-snapshot); warns as pts_capture_arm. */
int pts_capture_rearm(struct pts_capture *c, struct pts_err *err);

/* STOP + UNCONFIGURE, best effort, for the end and for aborts. */
void pts_capture_disarm(struct pts_capture *c);

/* Free everything and close the device. */
void pts_capture_close(struct pts_capture *c);

/* Set the trigger reason if none set yet (exit, signal, full, none). */
void pts_capture_set_reason(struct pts_capture *c, const char *reason, const char *detail);

/* The status line printed once armed (CPUs, buffer per CPU, scope, trigger). */
void pts_capture_status_line(const struct pts_capture *c, FILE *f);

/* Default bundle name "ptscope-YYYYmmdd-HHMMSS-PID.ptscope" into buf (PID: ours). */
void pts_capture_default_name(char *buf, size_t len);

/*
 * Write the bundle to dir (created; must not exist). Reads GET_STATE and
 * each CPU's status, maps and linearises the rings, writes every file
 * docs/bundle-format.md lists and the manifest last. A file that cannot
 * be written or read marks the bundle incomplete (complete = false, with
 * the reason) instead of failing silently; *complete reports it. Prints
 * the summary and the decode command to `out`. Returns 0 when a manifest
 * was written (complete or not), -errno when even that failed.
 */
int pts_capture_write_bundle(struct pts_capture *c, const char *dir, bool *complete,
			     FILE *out, struct pts_err *err);

/*
 * The command to run next: "ptscope decode NAME.ptscope -o NAME.fxt"
 * (a trailing .ptscope is replaced by .fxt; other names get .fxt added).
 */
void pts_capture_decode_hint(const char *dir, char *buf, size_t len);

/*
 * Local wall-clock time of TSC value tsc, from the bundle's "start" time
 * pair and TSC frequency: realtime_ns + (tsc - pair.tsc) * 10^6 / tsc_khz,
 * as "YYYY-mm-dd HH:MM:SS.uuuuuu". -EINVAL without a start pair, without
 * a frequency, or for a tsc before the pair.
 */
int pts_tsc_to_wallclock(const struct pts_bundle *b, uint64_t tsc, char *buf, size_t len);

/*
 * Collect the pids a sideband buffer names (switch prev/next, exec, fork
 * parent/child, exit, trigger) into the set; exported for tests.
 * Walks whole records only; a record with a size below the header or not
 * a multiple of 8 ends the walk (-EINVAL). Returns records walked.
 */
int pts_sideband_pids(const void *buf, size_t len,
		      void (*fn)(void *ctx, int32_t pid), void *ctx);

#endif /* PTS_CAPTURE_CAPTURE_H */
