/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by the decode session's inputs (session.c: raw PT and
 * perf script; bundle_input.c: capture bundles): one decode run, once its
 * inputs are gathered.
 */
#ifndef PTS_SESSION_SESSION_INT_H
#define PTS_SESSION_SESSION_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../decode/image.h"
#include "../decode/sideband.h"
#include "../decode/timeconv.h"
#include "pardec.h"
#include "session.h"

/* One CPU's trace in a run. */
struct pts_run_cpu {
	uint8_t *buf;		/* mapped (pts_decode_map_trace), or NULL */
	size_t len, maplen;
	uint32_t cpu;
	uint64_t missing;	/* bytes of the trace the file lacks (truncated copy) */
	/* its scan for CYC before the run (prescan.h), when scanned: its hold taken over */
	struct pts_pcpu_scan scan;
	bool scanned;
};

/* Everything one decode run needs, however it was given. */
struct pts_run_in {
	struct pts_imgset *set;
	struct pts_sideband sb;
	unsigned int nr_pt;		/* CPUs decoded */
	struct pts_run_cpu *pt;		/* pt_cap entries (pts_decode_run_alloc) */
	unsigned int pt_cap;
	uint16_t family;
	uint8_t model, stepping, mtc_freq, nom_freq;
	uint32_t cpuid_15_eax, cpuid_15_ebx;
	struct pt_conf_addr_filter addr_filter;	/* the capture's ADDRn (zero: none) */
	struct pts_timeconv tc;
	enum pts_scope scope;
	bool scope_from_trace;		/* scope: none given, read from the traces (prescan.h) */
	int32_t pid, tid;
	/*
	 * > 0: events of other processes are left out (counted in
	 * sum->other_events): a capture of one process that could not use
	 * the CR3 filter traced them all.
	 */
	int32_t only_pid;
	bool per_cpu_names;
	void (*on_insn)(void *ctx, uint32_t cpu, uint64_t ip);
	void *insn_ctx;
	uint32_t segment_cap;
	FILE *progress;
	const struct pts_bundle_trigger *trigger;	/* the bundle's, or NULL */
	unsigned int jobs;		/* decoder threads (pardec.h); 0 or 1: serial */
	uint64_t chunk_bytes;		/* trace bytes per parallel chunk, 0: default */
	bool par_reverse;		/* pts_decode_opts.par_reverse */
	bool par_sink;			/* pts_decode_opts.par_sink */
	bool par_workers;		/* pts_decode_opts.par_workers */
	bool par_flags;			/* pts_decode_opts.par_flags */
	enum pts_pardec_break par_break;	/* pts_decode_opts.par_break */
	/* syscall and page-fault records (bundle_sideband.c), or NULL; owned */
	struct pts_klabels *labels;
};

/*
 * Decode in->nr_pt traces (merged by time) into the timeline; fills sum.
 * Errors: -ENOMEM, -EINVAL (libipt refused a configuration), emit errors.
 */
int pts_decode_run(struct pts_run_in *in, pts_tl_emit_fn emit, void *emit_ctx,
		   struct pts_decode_summary *sum, struct pts_err *err);
void pts_decode_run_free(struct pts_run_in *in);

/* Room for n CPU traces in in->pt (as many as a bundle holds). Errors: -ENOMEM. */
int pts_decode_run_alloc(struct pts_run_in *in, unsigned int n, struct pts_err *err);

/*
 * Map the first min(file size, limit) bytes of a trace file read-only,
 * followed by zero padding (see session.c); *len is that many bytes,
 * *maplen the mapping's length for munmap. limit UINT64_MAX: the whole
 * file. Errors: -errno of open/fstat/mmap, -EINVAL when path is not a
 * regular file (pipe, directory, device), -ENOMEM.
 */
int pts_decode_map_trace(const char *path, uint64_t limit, uint8_t **buf, size_t *len,
			 size_t *maplen, struct pts_err *err);

/*
 * The bundle's process names and ptscope sideband records into sb, times
 * converted with tc (bundle_sideband.c); its syscall and page-fault
 * records into *labels (allocated when there is one; NULL: not wanted). Damage (a truncated copy, a
 * damaged record, a time going back on a CPU, unknown types) is a notice
 * in sum, and a loss when records are not used; the records before it are
 * used. Errors: those of pts_sb_load (-errno, -EFBIG), -ENOMEM.
 */
int pts_decode_bundle_sideband(const struct pts_bundle *b, const struct pts_timeconv *tc,
			       struct pts_sideband *sb, struct pts_klabels **labels,
			       struct pts_decode_summary *sum, struct pts_err *err);

/*
 * The bundle's code images into set (bundle_images.c): kernel text and
 * kallsyms (or, from o, may be NULL: --vmlinux, --kcore, --kallsyms, and
 * --sysroot for uncopied files), and each process's maps snapshots in the address space of
 * the program they describe, split at the sideband's EXEC records (sb,
 * times from tc). User code files are checked against the capture and
 * counted in sum; code that cannot be used is a warning and decodes as
 * gaps. Errors: -ENOMEM, and those of libipt (-EINVAL) for kernel text.
 */
int pts_decode_bundle_images(const struct pts_bundle *b, struct pts_imgset *set,
			     const struct pts_sideband *sb, const struct pts_timeconv *tc,
			     const struct pts_decode_opts *o, struct pts_decode_summary *sum,
			     struct pts_err *err);

/*
 * The user IP at which pid's exec at exec_ns (its EXEC record's time, from
 * tc) returned to user mode, into *ip (exec_entry.c): the first syscall
 * record of the exec's thread after that EXEC, when it is a SYS_EXIT of
 * execve or execveat returning 0 (the kernel's start_thread IP: the
 * program's entry point, or its dynamic loader's). Needs the bundle's
 * syscall records (config.syscall_records). 1 found; 0 none (no records,
 * lost, another syscall first, exec'd again first, a sideband that
 * cannot be read); -ENOMEM.
 */
int pts_exec_entry_ip(const struct pts_bundle *b, const struct pts_timeconv *tc, int32_t pid,
		      uint64_t exec_ns, uint64_t *ip);

/*
 * The bundle's TSC-to-ns conversion into tc (bundle_time.c): the recorded
 * tsc_khz, checked and refined with the start and stop time pairs, else
 * the nominal ratio; a missing rate and unusable MTC packets (CPUID.15H
 * EAX/EBX 0) are notices, a refined rate a warning in sum.
 */
void pts_decode_bundle_time(const struct pts_bundle *b, struct pts_timeconv *tc,
			    struct pts_decode_summary *sum);

/*
 * Size of a regular file of code in bytes, -1 when it cannot be read or is not a
 * regular file (err, may be NULL, says why).
 */
long pts_decode_file_size(const char *path, struct pts_err *err);

/* Add a warning to the summary (cut to its slot; counted past the last slot). */
void pts_decode_warn(struct pts_decode_summary *sum, const char *msg);

/* A damaged input, decoded anyway: a notice (stderr and summary), exit status unchanged. */
void pts_decode_notice(struct pts_decode_summary *sum, const char *msg);

/*
 * A recording CPU (in's family/model/stepping, a bundle's or --cpu-model's)
 * that libipt does not know gets no errata workaround (pt-facts section 6):
 * said as a notice, since the decode may be wrong where an erratum applies.
 */
void pts_decode_cpu_notice(const struct pts_run_in *in, struct pts_decode_summary *sum);

/* The notice for kallsyms lines that did not parse (ks->bad > 0), naming path. */
void pts_decode_kallsyms_notice(struct pts_decode_summary *sum, const char *path,
				const struct pts_kallsyms_stats *ks);

/* A damaged input of which a part could not be used: a notice, and exit status 3. */
void pts_decode_lost(struct pts_decode_summary *sum, const char *msg);

#endif
