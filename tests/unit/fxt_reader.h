/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An independent reader of the Fuchsia trace format, written from the
 * format's reference (fuchsia.dev "Fuchsia trace format") for the tests,
 * not from the writer: it shares no code or constants with
 * userland/lib/writer. It checks every record header field it knows
 * (types, sizes, reserved bits, padding), resolves string and thread refs
 * against the tables as they stand at each record, and rebuilds the
 * per-thread duration nesting: every begin must meet an end with the same
 * category and name, and time must not go back on a thread.
 *
 * Handles the record types a timeline uses: metadata (provider info,
 * trace info/magic), initialization, string, thread, event (instant,
 * counter, duration begin/end/complete) and kernel object records.
 * Anything else is reported as unsupported.
 */
#ifndef PTS_TEST_FXT_READER_H
#define PTS_TEST_FXT_READER_H

#include <stddef.h>
#include <stdint.h>

enum fxtr_arg_type {
	FXTR_NULL = 0, FXTR_I32 = 1, FXTR_U32 = 2, FXTR_I64 = 3, FXTR_U64 = 4,
	FXTR_DOUBLE = 5, FXTR_STRING = 6, FXTR_POINTER = 7, FXTR_KOID = 8, FXTR_BOOL = 9,
};

struct fxtr_arg {
	char *name;
	enum fxtr_arg_type type;
	uint64_t u;		/* integer, pointer, koid, bool; raw bits of a double */
	double d;
	char *s;		/* string value */
};

struct fxtr_args {
	struct fxtr_arg *v;
	unsigned int n;
};

/* A duration slice rebuilt from a begin/end pair (or a complete event). */
struct fxtr_slice {
	uint64_t pid, tid;	/* koids */
	char *category, *name;
	uint64_t begin, end;	/* ticks */
	unsigned int depth;	/* 0 = outermost on its thread */
	struct fxtr_args args;		/* of the begin event */
	struct fxtr_args end_args;	/* of the end event */
};

/* An instant or counter event. */
struct fxtr_point {
	int event_type;		/* 0 instant, 1 counter */
	uint64_t pid, tid, ts;
	char *category, *name;
	uint64_t counter_id;
	struct fxtr_args args;
};

struct fxtr_kobj {
	unsigned int obj_type;	/* ZX_OBJ_TYPE_*: 1 process, 2 thread */
	uint64_t koid;
	char *name;
	uint64_t process;	/* thread objects: the "process" koid argument */
};

struct fxtr_trace {
	int magic_seen;
	uint64_t ticks_per_second;	/* 0 when there is no initialization record */
	char *provider_name;
	unsigned long records[16];	/* count per record type */
	unsigned long string_records, thread_records;

	struct fxtr_slice *slices;	/* in order of their end */
	size_t n_slices;
	struct fxtr_point *points;
	size_t n_points;
	struct fxtr_kobj *kobjs;
	size_t n_kobjs;

	char error[256];	/* why fxtr_read failed */
};

/*
 * Read a whole trace from buf (len bytes). Returns 0, or -1 with
 * t->error saying which record (byte offset) broke which rule.
 */
int fxtr_read(const void *buf, size_t len, struct fxtr_trace *t);

/* Read the file at path. */
int fxtr_read_file(const char *path, struct fxtr_trace *t);

void fxtr_free(struct fxtr_trace *t);

/* Helpers for tests: the named argument, or NULL. */
const struct fxtr_arg *fxtr_arg(const struct fxtr_args *a, const char *name);

/* Name of the kernel object with this type and koid, or NULL. */
const char *fxtr_kobj_name(const struct fxtr_trace *t, unsigned int obj_type, uint64_t koid);

#endif
