/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by the timeline writers (not part of the contract in
 * writer.h): the buffered output with sticky errors,
 * per-thread frame stacks, and the table of format back-ends.
 */
#ifndef PTS_WRITER_INT_H
#define PTS_WRITER_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "writer.h"
#include "../util/hmap.h"

/* ---- per-thread frame stacks ---------------------------------------- */

struct pts_wframe {
	/*
	 * The BEGIN's name, borrowed: writer.h has the caller keep it valid
	 * until the END (no copy per slice). NULL: unnamed, called by addr.
	 */
	const char *name;
	uint64_t addr;		/* the BEGIN's addr */
	uint64_t ts;		/* ns: the BEGIN's time (the .txt END says the duration) */
	uint32_t flags;		/* PTS_TLF_* of the BEGIN */
	uint32_t aux;		/* the format's own: fxt string index of the name */
	uint64_t aux_gen;	/* fxt: string table generation aux belongs to */
	size_t path_len;	/* folded writer: path length before this frame */
	/*
	 * json writer: the BEGIN's args object, which its END repeats. The
	 * buffer belongs to the frame slot (kept and reused across pushes,
	 * freed with the thread); args_len 0: none.
	 */
	char *args;
	size_t args_len, args_cap;
};

struct pts_wthread {
	int32_t pid, tid;
	struct pts_wframe *frames;
	size_t depth, cap;
	uint64_t last_ts;	/* ns: time of the last BEGIN/END seen */
	uint64_t last_ps;	/* json writer: ps of the last event written (ts_ps) */
	bool have_ps;
	char *path;		/* folded writer: "root;f1;f2", NUL-terminated */
	size_t path_len, path_cap;
};

/* ---- the writer ------------------------------------------------------ */

#define PTS_WOUT_BUF (256 * 1024)	/* bytes buffered before a write(2) */

struct pts_writer;

struct pts_writer_ops {
	const char *name;
	size_t state_size;	/* bytes of zeroed back-end state at w->state */
	int (*start)(struct pts_writer *w);	/* file header */
	int (*emit)(struct pts_writer *w, const struct pts_tl_rec *rec);
	int (*finish)(struct pts_writer *w);	/* file trailer (ok=true only) */
	const struct pts_writer_frames *frames;	/* the frame path (writer.h), or NULL */
	void (*free)(struct pts_writer *w);	/* release back-end state */
};

struct pts_writer {
	const struct pts_writer_ops *ops;
	void *state;
	struct pts_err *err;	/* caller's err for the current call, may be NULL */
	int fd;
	bool is_stdout;		/* fd 1: never closed by the writer */
	bool direct;		/* stdout, a device or a pipe: no temporary file */
	int error;		/* sticky: first negative errno seen, 0 if none */
	char msg[PTS_ERR_MSG_LEN];	/* message of that first error */
	char *path, *tmp;	/* final and temporary names ("-": tmp NULL) */
	char *buf;
	size_t len;
	/*
	 * PTS_WOUT_BUF + 1, or 0 once an error sticks (and for the null
	 * sink, which has no buffer): the inline output's one test, len + n
	 * < limit, says both that no error sticks and that n bytes fit (even
	 * none).
	 */
	size_t limit;
	void *gz;		/* gzFile over a dup of fd for a ".gz" path, else NULL */
	struct pts_hmap threads;	/* (pid,tid) -> struct pts_wthread */
	struct pts_wthread *last_thread;	/* the last pts_wthread_get answer */
	bool interned;		/* pts_writer_strings_interned */
};

extern const struct pts_writer_ops pts_writer_fxt_ops;
extern const struct pts_writer_ops pts_writer_json_ops;
extern const struct pts_writer_ops pts_writer_txt_ops;
extern const struct pts_writer_ops pts_writer_folded_ops;

/*
 * Output: append bytes to the file. Returns 0 or the sticky error
 * (-ENOSPC, -EIO, ... from write(2)); the first error is recorded in
 * w->err with the file's name and sticks for every later call.
 */
int pts_wout_slow(struct pts_writer *w, const void *p, size_t n);
int pts_wout_str(struct pts_writer *w, const char *s);

/* The common case inline: the bytes fit in the buffer. */
static inline int pts_wout(struct pts_writer *w, const void *p, size_t n)
{
	if (w->len + n < w->limit) {
		memcpy(w->buf + w->len, p, n);
		w->len += n;
		return 0;
	}
	return pts_wout_slow(w, p, n);
}

/*
 * n bytes of room at the end of the output buffer, to be filled in place
 * and kept with pts_wout_commit; NULL when they do not fit now or an error
 * sticks (the caller then assembles the bytes elsewhere and calls
 * pts_wout, which flushes or reports the error). Saves a copy per record.
 */
static inline char *pts_wout_room(struct pts_writer *w, size_t n)
{
	return w->len + n < w->limit ? w->buf + w->len : NULL;
}

/*
 * pts_wout_room as a test, and where its room starts (pts_wout_end):
 * a caller that tests first is spared the test of the pointer.
 */
static inline bool pts_wout_fits(const struct pts_writer *w, size_t n)
{
	return w->len + n < w->limit;
}

static inline char *pts_wout_end(struct pts_writer *w)
{
	return w->buf + w->len;
}

/* Keep n bytes written at pts_wout_room's answer. */
static inline void pts_wout_commit(struct pts_writer *w, size_t n)
{
	w->len += n;
}

/*
 * The start of a call of writer.h (pts_writer_emit, the frame path): the
 * caller's err receives this call's messages. 0, or the sticky error
 * reported again in err.
 */
int pts_wsticky(struct pts_writer *w, struct pts_err *err);

static inline int pts_wcall(struct pts_writer *w, struct pts_err *err)
{
	if (w->error)
		return pts_wsticky(w, err);
	w->err = err;
	return 0;
}

/*
 * A failure of a frame path call (writer.h), which leaves w->err unset
 * (one store less per record): every failure is the sticky error, whose
 * message goes to err now. Returns the error.
 */
static inline int pts_wframe_failed(struct pts_writer *w, int rc, struct pts_err *err)
{
	return w->error ? pts_wsticky(w, err) : rc;
}

int pts_wprintf(struct pts_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Number formatting without printf for the text formats' hot paths:
 * write v at p and return the end. Room needed: 20 bytes (u64), 21
 * (i64), 18 ("0x" + 16 hex digits).
 */
char *pts_fmt_u64(char *p, uint64_t v);
char *pts_fmt_i64(char *p, int64_t v);
char *pts_fmt_hex(char *p, uint64_t v);

/* Record a writer error (sticky) with a message; returns the negative code. */
int pts_wfail(struct pts_writer *w, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Thread state for pid/tid, created empty on first use; NULL on -ENOMEM (recorded). */
struct pts_wthread *pts_wthread_get(struct pts_writer *w, int32_t pid, int32_t tid);

/* Double t's frame stack. -ENOMEM (recorded) if it cannot grow. */
int pts_wthread_grow(struct pts_writer *w, struct pts_wthread *t);

/*
 * Push the frame a BEGIN record opens: its name (borrowed, see struct
 * pts_wframe), addr and flags. -ENOMEM (recorded) if the stack cannot grow.
 * Inline: one per BEGIN in every format.
 */
static inline int pts_wthread_push(struct pts_writer *w, struct pts_wthread *t,
				   const struct pts_tl_rec *rec)
{
	struct pts_wframe *f;

	if (t->depth == t->cap && pts_wthread_grow(w, t))
		return w->error;
	f = &t->frames[t->depth++];
	f->name = rec->name && rec->name[0] ? rec->name : NULL;
	f->addr = rec->addr;
	f->ts = rec->ts_ns;
	f->flags = rec->flags;
	f->aux = 0;
	f->aux_gen = 0;
	f->path_len = t->path_len;
	f->args_len = 0;
	return 0;
}

/* A frame's name: its BEGIN's, or "[unknown] 0x<addr>" formatted into buf. */
const char *pts_wframe_name(const struct pts_wframe *f, char *buf, size_t size);

/*
 * Check a record against the stream rules of writer.h for its thread:
 * ts_ns must not go back (-EINVAL otherwise) and an END needs an open
 * frame (-EINVAL otherwise). Sets t->last_ts on success.
 */
int pts_wthread_check(struct pts_writer *w, struct pts_wthread *t, const struct pts_tl_rec *rec);

/*
 * The thread of a BEGIN/END record, checked as pts_wthread_check does:
 * 0 with *out set, or the writer's error (-ENOMEM, -EINVAL).
 */
static inline int pts_wthread_enter(struct pts_writer *w, const struct pts_tl_rec *rec,
				    struct pts_wthread **out)
{
	struct pts_wthread *t = w->last_thread;

	/* inline: every BEGIN/END comes here, nearly always for the last thread */
	if (!t || t->pid != rec->pid || t->tid != rec->tid) {
		t = pts_wthread_get(w, rec->pid, rec->tid);
		*out = t;
		if (!t)
			return w->error;
	}
	*out = t;
	if (rec->ts_ns < t->last_ts || (rec->type == PTS_TL_END && !t->depth))
		return pts_wthread_check(w, t, rec);	/* reports the broken rule */
	t->last_ts = rec->ts_ns;
	return 0;
}

/* Pop the innermost frame. */
static inline void pts_wthread_pop(struct pts_wthread *t)
{
	if (t->depth)
		t->depth--;
}

/* Text name of a kind ("call", "return", ...); "?" for out-of-range values. */
const char *pts_tl_kind_name(enum pts_tl_kind kind);

/*
 * Does the record name a symbol (so symbol+offset means something)? Not
 * for unnamed code, code no symbol covers (PTS_TLF_UNKNOWN: the builder's
 * "[unknown] 0xADDR (OBJECT)") nor synthetic slices ([syscall]...).
 */
static inline bool pts_wsymbol(const struct pts_tl_rec *rec)
{
	return rec->name && rec->name[0] &&
	       !(rec->flags & (PTS_TLF_SYNTHETIC | PTS_TLF_UNKNOWN));
}

/* Name used for a slice whose rec->name is NULL: "[unknown] 0xADDR". */
const char *pts_wname(const struct pts_tl_rec *rec, char *buf, size_t size);

/* name if it has a byte, else "[unknown] 0x<addr>" formatted into buf. */
const char *pts_wname_addr(const char *name, uint64_t addr, char *buf, size_t size);

#endif /* PTS_WRITER_INT_H */
