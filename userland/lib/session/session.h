/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A whole decode: inputs (raw PT files with their images and sideband, or
 * perf script text) -> timeline records handed to an emit callback (a
 * writer, or a test's sink), plus the numbers of `ptscope decode
 * --summary`. Several CPUs' traces are merged by time so that every
 * thread's events reach the timeline builder in time order.
 */
#ifndef PTS_SESSION_SESSION_H
#define PTS_SESSION_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../bundle/bundle.h"
#include "../timeline/timeline.h"
#include "../util/err.h"
#include "pardec_opts.h"

/* raw inputs of each kind (--pt, --elf, ...); a bundle's CPUs are not bounded by it */
#define PTS_DEC_MAX_INPUTS 64
#define PTS_DEC_MAX_CAUSES 32
#define PTS_DEC_MAX_WARNINGS 8
#define PTS_DEC_MAX_NOTICES 8
#define PTS_DEC_MAX_MISMATCH 16
#define PTS_DEC_MAX_UNNAMED 8

struct pts_decode_opts {
	struct { const char *path; uint32_t cpu; } pt[PTS_DEC_MAX_INPUTS];
	unsigned int nr_pt;
	struct { const char *path; uint64_t base; } elf[PTS_DEC_MAX_INPUTS];
	unsigned int nr_elf;
	struct { const char *path; uint64_t offset, vaddr; } raw[PTS_DEC_MAX_INPUTS];
	unsigned int nr_raw;
	const char *kcore_dir, *kallsyms;
	/*
	 * A bundle: kernel code and names from these instead of (kallsyms:
	 * in place of) the bundle's, for one captured without them (kernel
	 * lockdown, a container, kptr_restrict). vmlinux: the kernel's ELF
	 * (with symbols), moved by the bundle's kallsyms _stext (KASLR).
	 */
	const char *vmlinux;
	uint16_t family;		/* 0 unknown */
	uint8_t model, stepping;
	uint8_t mtc_freq, nom_freq;
	uint32_t cpuid_15_eax, cpuid_15_ebx;
	uint64_t tsc_khz;		/* 0 unknown */
	const char *pevent[PTS_DEC_MAX_INPUTS];	/* primary and secondary files */
	unsigned int nr_pevent;
	uint64_t pevent_sample_type;
	bool have_perf_time;
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_zero;
	const char *sysroot;
	/*
	 * perf's build-id cache (decode/buildid_cache.h), looked in for
	 * debug files and for binaries a bundle lacks; NULL: none. ptscope
	 * decode gives $HOME/.debug unless --buildid-dir says otherwise.
	 */
	const char *buildid_dir;
	/* what a raw trace recorded (--scope); 0: read it from the trace (scope_infer.h) */
	enum pts_scope scope;
	int32_t pid, tid;		/* thread of a raw trace without sideband; -1: per CPU */
	void (*on_insn)(void *ctx, uint32_t cpu, uint64_t ip);
	void *insn_ctx;
	uint32_t segment_cap;		/* timeline builder, 0 default */
	FILE *progress;			/* percent done written here (a terminal), or NULL */
	/*
	 * Decoder threads: 0 or 1 decodes each CPU's trace in this thread;
	 * N > 1 decodes PSB-bounded chunks on N worker threads and joins
	 * them into the same events (session/pardec.h): the same output.
	 */
	unsigned int jobs;
	uint64_t chunk_bytes;		/* trace bytes per chunk (0: PTS_DEC_CHUNK_BYTES) */
	/* tests of the parallel decode (pardec_opts.h): false and NONE for a decode */
	bool par_reverse;
	bool par_sink;			/* no worker: the calling thread decodes every chunk into the sink */
	bool par_workers;		/* jobs workers; the calling thread decodes no chunk itself */
	/*
	 * the run keeps libipt's block flags (not through direct branches),
	 * serial and parallel: a test knob (docs/fuzzing.md)
	 */
	bool par_flags;
	enum pts_pardec_break par_break;
};

/* Trace bytes per chunk of a parallel decode (events of ~100 B per 1 B of trace). */
#define PTS_DEC_CHUNK_BYTES (32u << 10)

struct pts_decode_summary {
	const char *source;		/* where the trace bytes came from */
	enum pts_scope scope;
	char scope_why[128];		/* where scope came from ("given with --scope", ...) */
	uint64_t insns, blocks, branches, events, gaps;
	uint64_t elided;		/* of branches: jumps inside one function, not fed to the timeline */
	uint64_t by_event[32];		/* libipt events by type (pts_ptev_name) */
	struct { char cause[128]; uint64_t count; } causes[PTS_DEC_MAX_CAUSES];
	unsigned int nr_causes;
	uint64_t diag[PTS_TLD_NR];
	char diag_first[PTS_TLD_NR][160];	/* where each was first met, or "" (pts_tl_diag_first) */
	bool errata_unknown;
	struct pts_tl_thread_stats *threads;	/* names owned by the summary */
	size_t nr_threads;
	uint64_t perfscript_skipped;
	char warnings[PTS_DEC_MAX_WARNINGS][256];	/* inputs that could not be used */
	unsigned int nr_warnings;
	/*
	 * Damaged inputs (a truncated trace file, a damaged sideband, kallsyms
	 * lines that do not parse): said on stderr even without --summary,
	 * and in the summary's warnings.
	 */
	char notices[PTS_DEC_MAX_NOTICES][384];
	unsigned int nr_notices;
	unsigned int lost;		/* damaged inputs of which a part was not used: exit 3 */
	/*
	 * The capture's trigger (a bundle's), placed on the timeline:
	 * "tracepoint sched:sched_process_exit on CPU 3, pid 4242" in
	 * trigger, its time and the end of the trace (the last event) in
	 * ns; trigger[0] == 0: none. why_not_shown: it is not on the timeline.
	 */
	char trigger[200];
	uint64_t trigger_ns, end_ns;
	const char *trigger_not_shown;
	uint64_t trace_bytes;		/* raw PT bytes given to the decoders, all CPUs */
	uint64_t trace_bytes_missing;	/* bytes the manifest records that the files lack */
	/*
	 * A bundle with a trigger TSC: how long after the trigger each CPU
	 * stopped tracing (its stop TSC minus the trigger's, in ns on the
	 * bundle's clock; negative for a CPU that stopped before it).
	 */
	struct { uint32_t cpu; int64_t ns; } stops[PTS_DEC_MAX_INPUTS];
	unsigned int nr_stops;
	/*
	 * A bundle's user code files, each counted once by path: read from
	 * the bundle's copies, from host files checked against what the
	 * capture recorded (build-id, else size), from host files the bundle
	 * records nothing about (used unchecked: said); and the files that
	 * did not match the capture (their code decodes as gaps), with why.
	 */
	unsigned int objects_copied, objects_checked, objects_unchecked;
	/* files the capture could not read (objects[].not_copied): gaps unless --sysroot */
	unsigned int objects_not_copied;
	/*
	 * copies in the bundle of another size than the manifest's (a damaged
	 * copy of the bundle: truncated, or added to): not read; each file is
	 * then looked for on this host as an uncopied one, else gaps
	 */
	unsigned int objects_damaged;
	/*
	 * Events of processes other than the traced one, left out: a bundle
	 * of one process whose CR3 filter could not be used (config
	 * cr3_partial: KPTI with scope both) has every process's trace.
	 */
	uint64_t other_events;
	struct { char path[160]; char why[128]; } mismatched[PTS_DEC_MAX_MISMATCH];
	unsigned int nr_mismatched;	/* may exceed PTS_DEC_MAX_MISMATCH: counted */
	/*
	 * Objects whose code was named without a .symtab or a debug file
	 * (pts_imgset_names_missing): each with where its debug file was
	 * looked for, the summary's hint of what to install or point to.
	 */
	struct { char object[160]; char looked[800]; } unnamed[PTS_DEC_MAX_UNNAMED];
	unsigned int nr_unnamed;	/* may exceed PTS_DEC_MAX_UNNAMED: counted */
	/*
	 * The capture's syscall and page-fault records (a bundle captured
	 * with --syscalls): how many named an untraced stretch, and what
	 * was left (klabel.h). have_labels: the bundle has such records.
	 */
	bool have_labels;
	struct pts_kl_stats labels;
	/* parallel decode (pardec.h): chunks joined, and joins refused (not printed) */
	uint64_t par_joins, par_refused;
	struct pts_pool_cpu par_cpu;	/* where its CPU time went (workers 0: serial) */
};

void pts_decode_opts_init(struct pts_decode_opts *o);

/*
 * Decode raw PT files (opts). Errors (nothing emitted is lost; err says
 * which input): -ENOENT/-errno a file cannot be read, -EINVAL bad images
 * or sideband, a kallsyms file without one kallsyms line, one file given
 * as the trace of two CPUs, or an input that is not a regular file, -ENOMEM,
 * errors of emit. kallsyms lines that do not parse are a notice in sum.
 */
int pts_decode_raw(const struct pts_decode_opts *opts, pts_tl_emit_fn emit, void *emit_ctx,
		   struct pts_decode_summary *sum, struct pts_err *err);

/*
 * Decode a capture bundle (NAME.ptscope). From opts only sysroot (where
 * binaries not copied into the bundle are found), pid/tid, on_insn,
 * segment_cap and family/model/stepping (when family is not 0: the CPU
 * whose errata libipt applies, a warning in sum) are used; everything
 * else comes from the manifest. Code
 * that cannot be found is a warning and decodes as gaps. A damaged copy
 * is decoded as far as it goes (docs/decode.md, "Damaged bundles"): a
 * per-CPU trace file shorter than the manifest says is decoded up to its
 * end and its missing tail is a gap; a damaged sideband is used up to the
 * first damaged record; unparsable kallsyms lines are skipped. Each is a
 * notice in sum; a part not used counts in sum->lost. Errors: those of
 * pts_bundle_read (-ENOENT, -EINVAL, -EFBIG for files other than the
 * per-CPU traces and the sideband), -ENOMEM, errors of emit.
 */
int pts_decode_bundle(const char *dir, const struct pts_decode_opts *opts, pts_tl_emit_fn emit,
		      void *emit_ctx, struct pts_decode_summary *sum, struct pts_err *err);

/*
 * Decode perf script text; scope as recorded (0: not known, both assumed).
 * Lines not understood are counted in sum->perfscript_skipped. Errors:
 * -errno opening path, -EIO reading, -EINVAL when no line at all is a
 * branch or error line (wrong file or wrong perf script fields), errors of
 * emit.
 */
int pts_decode_perfscript(const char *path, enum pts_scope scope, pts_tl_emit_fn emit,
			  void *emit_ctx, struct pts_decode_summary *sum, struct pts_err *err);

/*
 * Print the --summary report. Byte counts are exact, followed by the
 * value in KiB/MiB/... (util/bytes.h).
 */
void pts_decode_summary_print(FILE *f, const struct pts_decode_summary *sum);
void pts_decode_summary_free(struct pts_decode_summary *sum);

/* Count one gap of a cause (the summary groups gaps by cause). */
void pts_decode_summary_gap(struct pts_decode_summary *sum, const char *cause);

#endif
