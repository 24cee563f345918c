/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptsynth's capture bundle output: NAME.ptscope/ with cpu0.pt (the
 * stream, rotated like a wrapped ring when --wrap is given),
 * sideband.bin (ptscope sideband records, include/uapi/ptscope.h),
 * objects/<absolute path> (copies of the executables), vdso-PID.so,
 * ground-truth.txt (tools/ptsynth/lib/ptsynth_gt.h) and the manifest.
 */
#ifndef PTSYNTH_CLI_OUT_H
#define PTSYNTH_CLI_OUT_H

#include <stdio.h>
#include <sys/types.h>

#include "bundle/bundle.h"
#include "run.h"

struct out_maps {
	struct pts_bundle_map *v;
	size_t n;
};

struct out {
	const struct run_opts *o;
	char *dir;
	FILE *gt;
	pid_t pid;
	char comm[16];
	char *exe;
	struct out_maps arm, exit;
	uint64_t vdso_addr, vdso_size;
	uint8_t *sb;			/* sideband records */
	size_t sb_len;
	uint64_t start_tsc;
	uint64_t start_realtime_ns, start_monotonic_ns;
	int32_t *tids;			/* threads seen */
	size_t nr_tids;
	uint64_t *pages;		/* executed pages (for --trim-objects), open addressing */
	size_t pages_cap, pages_n;
};

int out_begin(struct out *out, const struct run_opts *o, struct pts_err *err);
int out_start_process(struct out *out, pid_t pid, const char *cmd, uint64_t tsc,
		      struct pts_err *err);
/* Start over after an exec (--follow-exec): drop what was recorded of
 * the old image, the ground truth included, and begin as at start. */
int out_restart(struct out *out, pid_t pid, uint64_t tsc, struct pts_err *err);
/* Read /proc/PID/maps (at_exit: the exit snapshot, else the arm one). */
int out_take_maps(struct out *out, pid_t pid, bool at_exit, struct pts_err *err);
/* Sideband records (include/uapi/ptscope.h), TSC from the cycle model:
 * a context switch on CPU 0 (prev_tid -1: from the idle task), a thread's
 * exit, a new thread. Return 0 or -ENOMEM. */
int out_sb_switch(struct out *out, uint64_t tsc, pid_t pid, pid_t prev_tid, pid_t next_tid,
		  const char *comm);
int out_sb_exit(struct out *out, uint64_t tsc, pid_t pid, pid_t tid);
int out_sb_fork(struct out *out, uint64_t tsc, pid_t pid, pid_t parent_tid, pid_t child_tid);
/* A syscall's entry or exit (--syscalls): PTSCOPE_SB_SYS_ENTER/_EXIT, ip
 * the byte after the syscall instruction. Return 0 or -ENOMEM. */
int out_sb_syscall(struct out *out, uint16_t type, uint64_t tsc, pid_t pid, pid_t tid,
		   int64_t nr, int64_t ret, uint64_t ip);
/* Remember that the page of ip executed (for --trim-objects). */
void out_note_page(struct out *out, uint64_t ip);
struct ptsynth_enc;
int out_finish(struct out *out, struct ptsynth_enc *enc, pid_t pid, uint64_t tsc,
	       const struct run_summary *sum, struct pts_err *err);
void out_abort(struct out *out);
/* The maps describing the image: the exit snapshot, else the arm one. */
const struct out_maps *out_image_maps(const struct out *out);
/* manifest.c: describe the bundle (manifest.json). */
int out_write_manifest(struct out *out, struct ptsynth_enc *enc, uint64_t tsc,
		       uint64_t stream_len, const struct run_summary *sum, struct pts_err *err);

#endif
