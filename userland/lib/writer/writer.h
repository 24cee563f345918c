/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timeline writers: the last stage of module -> bundle -> decoder ->
 * timeline -> writer. The timeline builder hands each writer a stream of
 * records (struct pts_tl_rec); a writer turns them into one file format:
 *
 *   .fxt     Fuchsia trace format (opens in the Perfetto UI)
 *   .json    Chrome trace event JSON
 *   .txt     one line per call/return/transition
 *   .folded  folded stacks for flame graphs (flamegraph.pl, speedscope)
 *
 * Record stream rules (guaranteed by the timeline builder):
 *  - PTS_TL_PROCESS / PTS_TL_THREAD name a pid/tid before its first slice.
 *  - Per thread, ts_ns never decreases; BEGIN/END nest properly (an END
 *    closes the innermost open BEGIN of that thread); every BEGIN gets
 *    its END before pts_writer_close (the builder closes open frames).
 *  - Strings are owned by the caller and valid during the call; a BEGIN's
 *    name stays valid and unchanged until its END (writers keep the
 *    pointer, not a copy: the timeline builder's names are interned for
 *    its lifetime).
 */
#ifndef PTS_WRITER_H
#define PTS_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "../util/err.h"

enum pts_tl_type {
	PTS_TL_PROCESS,		/* name a process: pid, name */
	PTS_TL_THREAD,		/* name a thread: pid, tid, name */
	PTS_TL_BEGIN,		/* open a slice (a frame) on pid/tid */
	PTS_TL_END,		/* close the innermost open slice of pid/tid */
	PTS_TL_INSTANT,		/* a point event: gap, diagnostic, trigger */
	PTS_TL_COUNTER,		/* a counter sample: name, value (per pid) */
};

/* What made a slice begin/end; printed by the text writer. */
enum pts_tl_kind {
	PTS_TLK_NONE = 0,
	PTS_TLK_CALL,		/* near call */
	PTS_TLK_RETURN,		/* near return */
	PTS_TLK_JUMP,		/* tail call / cross-function jump: top frame replaced */
	PTS_TLK_SYSCALL,	/* syscall/sysenter into the kernel */
	PTS_TLK_SYSRET,		/* back to user from a syscall */
	PTS_TLK_INTERRUPT,	/* asynchronous: interrupt */
	PTS_TLK_EXCEPTION,	/* fault/trap (page fault, ...) */
	PTS_TLK_IRET,		/* return from interrupt/exception */
	PTS_TLK_TRACE_BEGIN,	/* tracing enabled (TIP.PGE) */
	PTS_TLK_TRACE_END,	/* tracing disabled (TIP.PGD) */
	PTS_TLK_GAP,		/* decode error / overflow: frames closed */
	PTS_TLK_UNWIND,		/* frame closed by a return to a deeper frame */
	PTS_TLK_END_OF_TRACE,	/* frame closed because the trace ended */
};

/* rec.flags */
#define PTS_TLF_KERNEL		(1U << 0)	/* kernel-mode frame */
#define PTS_TLF_INFERRED	(1U << 1)	/* outer frame inferred from a return */
#define PTS_TLF_SYNTHETIC	(1U << 2)	/* [syscall], [interrupted], [untraced], [user] */
/*
 * No symbol covers the code: the name is the builder's own,
 * "[unknown] 0xADDR (OBJECT)" (or "[unknown] 0xADDR" without an object),
 * not a symbol, and offset is 0. Writers give it no symbol+offset and,
 * since the name already says it, do not print the object after it.
 */
#define PTS_TLF_UNKNOWN		(1U << 3)

/*
 * Arguments of a slice beyond the ones every BEGIN has (addr, kind, cpu,
 * ...): what the capture knows of it that the trace does not show, such
 * as the syscall a kernel entry made (timeline/klabel.h). .fxt and .json
 * write them as event arguments, .txt as NAME=VALUE after the flags;
 * .folded has no arguments. Names are plain identifiers.
 */
enum pts_tl_arg_type {
	PTS_TLA_STR,		/* s: a string */
	PTS_TLA_INT,		/* i: a signed number (a syscall's return value) */
	PTS_TLA_UINT,		/* u: bits, printed in hex where text (error code) */
	PTS_TLA_PTR,		/* u: an address */
};

struct pts_tl_arg {
	const char *name;
	enum pts_tl_arg_type type;
	const char *s;
	int64_t i;
	uint64_t u;
};

#define PTS_TL_MAX_ARGS	4	/* per BEGIN: fxt counts an event's arguments in 4 bits */

struct pts_tl_rec {
	enum pts_tl_type type;
	enum pts_tl_kind kind;
	uint64_t ts_ns;		/* ns since the trace's time origin */
	int32_t pid, tid;
	uint32_t cpu;		/* CPU the event was decoded on */
	uint32_t depth;		/* stack depth of this slice (outermost = 0) */
	uint32_t flags;		/* PTS_TLF_* */
	const char *name;	/* symbol, synthetic slice, instant or counter name */
	const char *object;	/* binary/module holding addr, or NULL */
	uint64_t addr;		/* IP of the event (call target, gap IP...) */
	uint64_t offset;	/* addr - symbol start, when name is a symbol (0 otherwise) */
	const char *detail;	/* instant: cause text; else NULL */
	/* BEGIN: extra arguments (at most PTS_TL_MAX_ARGS), valid during the call */
	const struct pts_tl_arg *args;
	uint32_t nargs;
	double value;		/* PTS_TL_COUNTER only */
};

/*
 * The frame path: BEGIN and END records handed over without building a
 * struct pts_tl_rec, for the timeline builder's calls and returns (the
 * most of every trace's records). A slice is what a BEGIN says beyond its
 * thread and time; the builder keeps one per open frame and hands the same
 * one to its END. The thread and time come as a struct pts_tl_at, which
 * the builder keeps per thread.
 */
struct pts_tl_slice {
	const char *name;	/* as pts_tl_rec.name: borrowed, valid until the END */
	const char *object;	/* or NULL */
	uint64_t addr;		/* IP the slice was entered at */
	uint64_t offset;	/* addr - symbol start, when name is a symbol (0 otherwise) */
	uint32_t flags;		/* PTS_TLF_* */
	uint32_t nargs;		/* BEGIN: extra arguments, as pts_tl_rec.args */
	const struct pts_tl_arg *args;
	/*
	 * The writer's own: 0 from the caller when it fills the slice; the
	 * frame path's begin may note there what the END will need.
	 */
	uint64_t wtag;
	/*
	 * The caller's name for the fields above but wtag, or 0: slices
	 * with one id have the same fields and no extra arguments, so a
	 * writer may keep what it derives from them by id (fxt: a BEGIN's
	 * words). The timeline builder gives one to what a call target's
	 * frames share.
	 */
	uint64_t id;
};

struct pts_tl_at {
	int32_t pid, tid;
	uint32_t cpu;		/* CPU the event was decoded on */
	uint64_t ts_ns;		/* ns since the trace's time origin */
};

enum pts_format {
	PTS_FMT_NONE = 0,	/* null sink (benchmarks) */
	PTS_FMT_FXT,
	PTS_FMT_JSON,
	PTS_FMT_TXT,
	PTS_FMT_FOLDED,
};

struct pts_writer;

/*
 * Format from a file name's extension; PTS_FMT_NONE if unknown. A final
 * ".gz" is looked through: "t.fxt.gz" is fxt (written gzip-compressed).
 */
enum pts_format pts_format_from_path(const char *path);

/* Does path end in ".gz" (any case)? The writer then gzip-compresses (zlib). */
bool pts_path_is_gzip(const char *path);

/* Format from a --format word ("fxt","json","txt","folded","null", any case); -1 if unknown. */
int pts_format_from_name(const char *name);

/*
 * Open a writer to `path` (written as path.tmp.PID and renamed by
 * pts_writer_close on success). path "-" writes to stdout (txt, json,
 * folded); a path that exists and is not a regular file (a device, FIFO,
 * /dev/fd/N) is written directly. A path ending in ".gz" is written
 * gzip-compressed (zlib, level 1: fast; Perfetto and zcat open it).
 * Errors: -errno from open (err names the path), -EINVAL for a format
 * that cannot go to stdout (fxt is binary), -ENOMEM.
 */
int pts_writer_open(const char *path, enum pts_format fmt, struct pts_writer **out,
		    struct pts_err *err);

/*
 * The temporary file being written (path.tmp.PID), or NULL when the output
 * is written directly (stdout, a device, a FIFO) or not at all (null
 * format). Valid until pts_writer_close; a caller that must remove it on a
 * signal (ptscope decode) keeps its own copy.
 */
const char *pts_writer_tmp_path(const struct pts_writer *w);

/*
 * The caller's promise: while records are written, equal string pointers
 * are equal strings (its strings are interned, never changed or freed
 * before the last record) — the timeline builder's are. A writer may then
 * know a string by its pointer without comparing bytes.
 */
void pts_writer_strings_interned(struct pts_writer *w);

/* Emit one record. Errors: -errno of a failed write (-ENOSPC). */
int pts_writer_emit(struct pts_writer *w, const struct pts_tl_rec *rec, struct pts_err *err);

/*
 * pts_writer_emit as a record sink of the timeline builder (the
 * signature of timeline.h's pts_tl_emit_fn): ctx is the struct
 * pts_writer. A builder given this sink may ask the writer for its frame
 * path (pts_writer_frames) and hand it BEGIN and END records directly.
 */
int pts_writer_sink(void *ctx, const struct pts_tl_rec *rec, struct pts_err *err);

/*
 * The frame path of a writer that has one (fxt), else NULL. Each call is
 * the BEGIN or END record that at and s describe, written with the same
 * bytes as through pts_writer_emit; kind: what made it (an END's slice is
 * its BEGIN's). Errors as pts_writer_emit's, reported in err.
 *
 * The caller's promises, which the frame path does not check: the
 * record stream rules above (per thread, time never goes back, an END
 * closes the innermost open BEGIN and hands over that BEGIN's slice), kind
 * one of enum pts_tl_kind (the record path takes any value), names
 * interned (pts_writer_strings_interned), and every BEGIN and END of the
 * writer through this path, none through pts_writer_emit (the writer keeps
 * no stack of the frames opened here). Other records go through
 * pts_writer_emit. Runs on the caller's thread, like every writer call.
 */
struct pts_writer_frames {
	int (*begin)(struct pts_writer *w, const struct pts_tl_at *at,
		     struct pts_tl_slice *s, enum pts_tl_kind kind, struct pts_err *err);
	int (*end)(struct pts_writer *w, const struct pts_tl_at *at,
		   const struct pts_tl_slice *s, enum pts_tl_kind kind, struct pts_err *err);
};

const struct pts_writer_frames *pts_writer_frames(const struct pts_writer *w);

/*
 * Finish the file. ok=true: flush, fsync-free close, rename over path.
 * ok=false: remove the temporary file. Frees w in every case.
 */
int pts_writer_close(struct pts_writer *w, bool ok, struct pts_err *err);

#endif /* PTS_WRITER_H */
