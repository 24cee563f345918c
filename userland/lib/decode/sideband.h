/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sideband: which thread runs on which CPU when (for per-thread
 * demultiplexing of traces without PIP packets, pt-facts §6), thread
 * names, and memory maps. Read from perf's pevent files (raw mode) or a
 * bundle's sideband; times are absolute ns of the same clock as
 * pts_tc_ns() of the trace.
 */
#ifndef PTS_DECODE_SIDEBAND_H
#define PTS_DECODE_SIDEBAND_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "../util/err.h"

enum pts_sb_type {
	PTS_SB_SWITCH,		/* pid/tid starts running on cpu at time_ns */
	PTS_SB_COMM,		/* pid/tid is named name */
	PTS_SB_MMAP,		/* pid maps name [start, start+len) at file offset pgoff */
	PTS_SB_EXIT,		/* pid/tid exits */
	/*
	 * pid/tid exec'd (cpu: where, when known). name: the program's file
	 * as execve was given it (ptscope's EXEC: may be relative), or the new
	 * comm (perf's COMM with the exec flag: perf records no path)
	 */
	PTS_SB_EXEC,
	/*
	 * records of cpu were lost from time_ns on: the thread running there
	 * is unknown (pid/tid 0, no user image) until the CPU's next SWITCH
	 */
	PTS_SB_LOST,
};

struct pts_sb_rec {
	enum pts_sb_type type;
	uint64_t time_ns;
	uint32_t cpu;		/* UINT32_MAX unknown */
	int32_t pid, tid;
	char *name;		/* COMM: name, MMAP: path, EXEC: above */
	/*
	 * MMAP: the file's build-id as lowercase hex, from an MMAP2 record
	 * with PERF_RECORD_MISC_MMAP_BUILD_ID (perf record --buildid-mmap);
	 * NULL none recorded
	 */
	char *build_id;
	uint64_t start, len, pgoff;
	uint32_t prot;		/* MMAP: PROT_* (0 unknown) */
	uint64_t cr3;		/* SWITCH, EXEC: the task's user page-table root (0 unknown) */
	/*
	 * SWITCH: a sched_switch record, stamped before the CPU writes the
	 * next task's CR3: the previous task runs until that write (its PIP
	 * in traces with OS tracing).
	 */
	bool before_cr3_write;
};

struct pts_sideband {
	struct pts_sb_rec *recs;	/* sorted by time_ns (stable) after pts_sideband_sort */
	size_t n, cap;
};

/*
 * Read a perf sideband file of perf_event_header records (the pevent
 * format libipt's ptxed reads: PERF_RECORD_* with a sample_id trailer laid
 * out by sample_type, perf_event.h). Kept: SWITCH, SWITCH_CPU_WIDE,
 * ITRACE_START (thread on a CPU), COMM, MMAP, MMAP2, EXIT. Errors:
 * -errno opening; -EINVAL a record header is cut or its size is
 * impossible (err gives the offset); -ENOMEM.
 */
int pts_pevent_load(struct pts_sideband *sb, const char *path, uint64_t sample_type,
		    struct pts_err *err);

/* Append one record (name copied). Errors: -ENOMEM. */
int pts_sideband_add(struct pts_sideband *sb, const struct pts_sb_rec *r);

void pts_sideband_sort(struct pts_sideband *sb);
void pts_sideband_free(struct pts_sideband *sb);

#endif
