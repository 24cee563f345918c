// SPDX-License-Identifier: GPL-2.0
/*
 * Writer front end: format selection, the temporary file renamed on
 * success, buffered output with sticky errors, per-thread frame stacks,
 * and the null sink. The formats live in writer_<format>.c.
 */
#include "writer_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static const char *const kind_names[] = {
	[PTS_TLK_NONE] = "none",
	[PTS_TLK_CALL] = "call",
	[PTS_TLK_RETURN] = "return",
	[PTS_TLK_JUMP] = "jump",
	[PTS_TLK_SYSCALL] = "syscall",
	[PTS_TLK_SYSRET] = "sysret",
	[PTS_TLK_INTERRUPT] = "interrupt",
	[PTS_TLK_EXCEPTION] = "exception",
	[PTS_TLK_IRET] = "iret",
	[PTS_TLK_TRACE_BEGIN] = "trace_begin",
	[PTS_TLK_TRACE_END] = "trace_end",
	[PTS_TLK_GAP] = "gap",
	[PTS_TLK_UNWIND] = "unwind",
	[PTS_TLK_END_OF_TRACE] = "end_of_trace",
};

const char *pts_tl_kind_name(enum pts_tl_kind kind)
{
	if ((unsigned int)kind >= sizeof(kind_names) / sizeof(kind_names[0]) ||
	    !kind_names[kind])
		return "?";
	return kind_names[kind];
}

const char *pts_wname_addr(const char *name, uint64_t addr, char *buf, size_t size)
{
	if (name && name[0])
		return name;
	snprintf(buf, size, "[unknown] 0x%" PRIx64, addr);
	return buf;
}

const char *pts_wname(const struct pts_tl_rec *rec, char *buf, size_t size)
{
	return pts_wname_addr(rec->name, rec->addr, buf, size);
}

/* ---- format names ---------------------------------------------------- */

static const struct {
	const char *word;
	enum pts_format fmt;
} formats[] = {
	{ "fxt", PTS_FMT_FXT },
	{ "json", PTS_FMT_JSON },
	{ "txt", PTS_FMT_TXT },
	{ "folded", PTS_FMT_FOLDED },
	{ "null", PTS_FMT_NONE },
};

bool pts_path_is_gzip(const char *path)
{
	size_t l = path ? strlen(path) : 0;

	return l > 3 && !strcasecmp(path + l - 3, ".gz");
}

enum pts_format pts_format_from_path(const char *path)
{
	const char *dot;
	size_t i, len;

	if (!path)
		return PTS_FMT_NONE;
	len = strlen(path) - (pts_path_is_gzip(path) ? 3 : 0);
	for (dot = path + len; dot > path && dot[-1] != '.' && dot[-1] != '/'; dot--)
		;
	if (dot == path || dot[-1] != '.')
		return PTS_FMT_NONE;
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i].fmt != PTS_FMT_NONE &&
		    strlen(formats[i].word) == (size_t)(path + len - dot) &&
		    !strncmp(dot, formats[i].word, (size_t)(path + len - dot)))
			return formats[i].fmt;
	return PTS_FMT_NONE;
}

int pts_format_from_name(const char *name)
{
	size_t i;

	/* any case, as -o's extension (x.FXT) and --timing's presets */
	for (i = 0; name && i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcasecmp(name, formats[i].word))
			return formats[i].fmt;
	return -1;
}

/* ---- output ---------------------------------------------------------- */

int pts_wfail(struct pts_writer *w, int code, const char *fmt, ...)
{
	int neg = code < 0 ? code : -code;
	va_list ap;

	if (w->error)
		return w->error;
	w->error = neg;
	w->limit = 0;	/* the inline output's test fails from now on */
	va_start(ap, fmt);
	vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
	va_end(ap);
	if (w->err)
		pts_err_set(w->err, neg, "%s", w->msg);
	return neg;
}

/* "; free space ..." hints for the errors a full disk or ulimit -f give */
static const char *space_hint(int e)
{
	return e == ENOSPC ? "; free space or write elsewhere with -o" :
	       e == EFBIG ? "; raise the file size limit (ulimit -f) or write elsewhere with -o" : "";
}

static int gz_flush(struct pts_writer *w)
{
	int e = EIO, zerr;

	if (!w->len || gzwrite(w->gz, w->buf, (unsigned int)w->len) == (int)w->len) {
		w->len = 0;
		return 0;
	}
	gzerror(w->gz, &zerr);
	if (zerr == Z_ERRNO)
		e = errno;
	return pts_wfail(w, e, "cannot write %s: %s%s", w->tmp ? w->tmp : w->path,
			 zerr == Z_ERRNO ? strerror(e) : "zlib error", space_hint(e));
}

static int flush_buf(struct pts_writer *w)
{
	size_t off = 0;

	if (w->error)
		return w->error;
	if (w->gz)
		return gz_flush(w);
	while (off < w->len) {
		ssize_t n = write(w->fd, w->buf + off, w->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;

			return pts_wfail(w, e, "cannot write %s: %s%s",
					 w->tmp ? w->tmp : w->is_stdout ? "standard output" : w->path,
					 strerror(e), space_hint(e));
		}
		off += (size_t)n;
	}
	w->len = 0;
	return 0;
}

int pts_wout_slow(struct pts_writer *w, const void *p, size_t n)
{
	const char *s = p;

	if (w->error)
		return w->error;
	while (n) {
		size_t room = PTS_WOUT_BUF - w->len, k = n < room ? n : room;

		memcpy(w->buf + w->len, s, k);
		w->len += k;
		s += k;
		n -= k;
		if (w->len == PTS_WOUT_BUF && flush_buf(w))
			return w->error;
	}
	return 0;
}

int pts_wout_str(struct pts_writer *w, const char *s)
{
	return pts_wout(w, s, strlen(s));
}

int pts_wprintf(struct pts_writer *w, const char *fmt, ...)
{
	char small[512], *big = NULL;
	va_list ap;
	int n, rc;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return pts_wfail(w, EINVAL, "internal: bad output format");
	if ((size_t)n < sizeof(small))
		return pts_wout(w, small, (size_t)n);
	big = malloc((size_t)n + 1);
	if (!big)
		return pts_wfail(w, ENOMEM, "out of memory formatting output");
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	rc = pts_wout(w, big, (size_t)n);
	free(big);
	return rc;
}

char *pts_fmt_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

char *pts_fmt_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return pts_fmt_u64(p, 0 - (uint64_t)v);
	}
	return pts_fmt_u64(p, (uint64_t)v);
}

char *pts_fmt_hex(char *p, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;

	*p++ = '0';
	*p++ = 'x';
	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* ---- per-thread frame stacks --------------------------------------- */

struct pts_wthread *pts_wthread_get(struct pts_writer *w, int32_t pid, int32_t tid)
{
	int32_t key[2] = { pid, tid };
	struct pts_hent *e;
	bool created;

	/* records come in runs of one thread: skip the hash for a repeat */
	if (w->last_thread && w->last_thread->pid == pid && w->last_thread->tid == tid)
		return w->last_thread;
	e = pts_hmap_get(&w->threads, key, sizeof(key), &created);
	if (!e) {
		pts_wfail(w, ENOMEM, "out of memory tracking thread %d/%d", pid, tid);
		return NULL;
	}
	if (created) {
		struct pts_wthread *t = calloc(1, sizeof(*t));

		if (!t) {
			pts_wfail(w, ENOMEM, "out of memory tracking thread %d/%d", pid, tid);
			return NULL;
		}
		t->pid = pid;
		t->tid = tid;
		e->v.p = t;
	}
	w->last_thread = e->v.p;
	return e->v.p;
}

int pts_wthread_grow(struct pts_writer *w, struct pts_wthread *t)
{
	size_t cap = t->cap ? 2 * t->cap : 4;	/* threads are many, most shallow */
	struct pts_wframe *nf = realloc(t->frames, cap * sizeof(*nf));

	if (!nf)
		return pts_wfail(w, ENOMEM, "out of memory: stack of thread %d/%d at depth %zu",
				 t->pid, t->tid, t->depth);
	/* new slots own no args buffer yet */
	memset(nf + t->cap, 0, (cap - t->cap) * sizeof(*nf));
	t->frames = nf;
	t->cap = cap;
	return 0;
}

const char *pts_wframe_name(const struct pts_wframe *f, char *buf, size_t size)
{
	return pts_wname_addr(f->name, f->addr, buf, size);
}

int pts_wthread_check(struct pts_writer *w, struct pts_wthread *t, const struct pts_tl_rec *rec)
{
	if (rec->ts_ns < t->last_ts)
		return pts_wfail(w, EINVAL,
				 "timeline went back in time on thread %d/%d (%" PRIu64 " ns after %"
				 PRIu64 " ns): the timeline builder must order each thread's records",
				 t->pid, t->tid, rec->ts_ns, t->last_ts);
	if (rec->type == PTS_TL_END && !t->depth)
		return pts_wfail(w, EINVAL,
				 "END without an open BEGIN on thread %d/%d at %" PRIu64
				 " ns: the timeline builder must pair BEGIN/END",
				 t->pid, t->tid, rec->ts_ns);
	t->last_ts = rec->ts_ns;
	return 0;
}

static void free_thread(struct pts_hent *e)
{
	struct pts_wthread *t = e->v.p;

	if (!t)
		return;
	while (t->depth)
		pts_wthread_pop(t);
	for (size_t i = 0; i < t->cap; i++)
		free(t->frames[i].args);
	free(t->frames);
	free(t->path);
	free(t);
}

/* ---- null sink ------------------------------------------------------- */

static int null_emit(struct pts_writer *w, const struct pts_tl_rec *rec)
{
	return 0;
}

static const struct pts_writer_ops null_ops = {
	.name = "null",
	.emit = null_emit,
};

/* ---- open / emit / close ------------------------------------------- */

static void writer_free(struct pts_writer *w)
{
	if (w->ops && w->ops->free)
		w->ops->free(w);
	pts_hmap_clear(&w->threads, free_thread);
	w->last_thread = NULL;
	free(w->threads.slots);
	free(w->state);
	free(w->buf);
	free(w->path);
	free(w->tmp);
	free(w);
}

int pts_writer_open(const char *path, enum pts_format fmt, struct pts_writer **out,
		    struct pts_err *err)
{
	struct pts_writer *w;
	struct stat st;
	int rc;

	*out = NULL;
	pts_err_clear(err);
	if (!path || !path[0])
		return pts_err_set(err, EINVAL, "no output file name given");
	w = calloc(1, sizeof(*w));
	if (!w)
		return pts_err_set(err, ENOMEM, "out of memory opening %s", path);
	w->err = err;
	w->fd = -1;
	switch (fmt) {
	case PTS_FMT_NONE: w->ops = &null_ops; break;
	case PTS_FMT_FXT: w->ops = &pts_writer_fxt_ops; break;
	case PTS_FMT_JSON: w->ops = &pts_writer_json_ops; break;
	case PTS_FMT_TXT: w->ops = &pts_writer_txt_ops; break;
	case PTS_FMT_FOLDED: w->ops = &pts_writer_folded_ops; break;
	default:
		free(w);
		return pts_err_set(err, EINVAL, "unknown output format %d", (int)fmt);
	}
	if (fmt == PTS_FMT_NONE) {
		/* the null sink opens nothing: benchmarks measure decoding only */
		*out = w;
		return 0;
	}
	w->path = strdup(path);
	w->buf = malloc(PTS_WOUT_BUF);
	w->limit = w->buf ? PTS_WOUT_BUF + 1 : 0;
	if (w->ops->state_size)
		w->state = calloc(1, w->ops->state_size);
	if (!w->path || !w->buf || (w->ops->state_size && !w->state)) {
		writer_free(w);
		return pts_err_set(err, ENOMEM, "out of memory opening %s", path);
	}
	if (!strcmp(path, "-")) {
		if (fmt == PTS_FMT_FXT) {
			writer_free(w);
			return pts_err_set(err, EINVAL,
					   "the fxt format is binary and cannot go to standard output; "
					   "name a file with -o");
		}
		w->fd = STDOUT_FILENO;
		w->is_stdout = w->direct = true;
	} else if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		/*
		 * A device, FIFO or /dev/fd/N (`-o /dev/null`, `-o >(gzip)`):
		 * write to it directly; a temporary file renamed over it would
		 * replace the device node itself.
		 */
		w->fd = open(path, O_WRONLY | O_CLOEXEC);
		if (w->fd < 0) {
			int e = errno;

			rc = pts_err_set(err, e, "cannot open %s: %s", path, strerror(e));
			writer_free(w);
			return rc;
		}
		w->direct = true;
	} else {
		if (asprintf(&w->tmp, "%s.tmp.%ld", path, (long)getpid()) < 0) {
			w->tmp = NULL;
			writer_free(w);
			return pts_err_set(err, ENOMEM, "out of memory opening %s", path);
		}
		w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (w->fd < 0) {
			int e = errno;

			/* the user's name first: the temporary one is ours, not theirs */
			rc = pts_err_set(err, e, "cannot create %s: %s; check that its directory "
					 "exists and is writable (the output is written as %s "
					 "and renamed when complete)", path, strerror(e), w->tmp);
			writer_free(w);
			return rc;
		}
	}
	if (!w->is_stdout && pts_path_is_gzip(path)) {
		int fd = dup(w->fd);

		/* gzclose closes the dup; the writer closes w->fd as for any file */
		w->gz = fd < 0 ? NULL : gzdopen(fd, "wb1");
		if (!w->gz) {
			if (fd >= 0)
				close(fd);
			pts_writer_close(w, false, NULL);
			return pts_err_set(err, ENOMEM, "cannot start gzip output to %s", path);
		}
	}
	if (w->ops->start && (rc = w->ops->start(w))) {
		pts_writer_close(w, false, NULL);
		return rc;
	}
	w->err = NULL;
	*out = w;
	return 0;
}

const char *pts_writer_tmp_path(const struct pts_writer *w)
{
	return w ? w->tmp : NULL;
}

void pts_writer_strings_interned(struct pts_writer *w)
{
	w->interned = true;
}

int pts_wsticky(struct pts_writer *w, struct pts_err *err)
{
	/* keep reporting the first failure to every caller */
	pts_err_set(err, w->error, "%s", w->msg);
	return w->error;
}

int pts_writer_emit(struct pts_writer *w, const struct pts_tl_rec *rec, struct pts_err *err)
{
	int rc = pts_wcall(w, err);

	if (rc)
		return rc;
	rc = w->ops->emit(w, rec);
	w->err = NULL;
	return rc;
}

int pts_writer_sink(void *ctx, const struct pts_tl_rec *rec, struct pts_err *err)
{
	return pts_writer_emit(ctx, rec, err);
}

const struct pts_writer_frames *pts_writer_frames(const struct pts_writer *w)
{
	return w->ops->frames;
}

int pts_writer_close(struct pts_writer *w, bool ok, struct pts_err *err)
{
	int rc = 0;

	if (!w)
		return 0;
	w->err = err;
	if (w->error) {
		pts_err_set(err, w->error, "%s", w->msg);
		rc = ok ? w->error : 0;
		ok = false;
	}
	if (ok && w->ops->finish)
		rc = w->ops->finish(w);
	/* a stream cannot be taken back: hand over what was written even when !ok */
	if ((ok || w->direct) && !rc && !w->error && w->fd >= 0)
		rc = flush_buf(w);
	if (w->gz) {
		/* the gzip trailer: its failure is a write failure like any other */
		int zrc = gzclose(w->gz);

		w->gz = NULL;
		if (zrc != Z_OK && ok && !rc)
			rc = pts_wfail(w, zrc == Z_ERRNO ? errno : EIO, "cannot write %s: %s",
				       w->tmp ? w->tmp : w->path,
				       zrc == Z_ERRNO ? strerror(errno) : "zlib error");
	}
	if (w->fd >= 0 && !w->is_stdout) {
		if (close(w->fd) && ok && !rc) {
			int e = errno;

			rc = pts_wfail(w, e, "cannot write %s: %s", w->tmp ? w->tmp : w->path,
				       strerror(e));
		}
		w->fd = -1;
	}
	if (w->tmp) {
		if (ok && !rc) {
			if (rename(w->tmp, w->path)) {
				int e = errno;

				rc = pts_wfail(w, e, "cannot rename %s to %s: %s", w->tmp, w->path,
					       strerror(e));
			}
		}
		if (!ok || rc)
			unlink(w->tmp);
	}
	writer_free(w);
	return rc;
}
