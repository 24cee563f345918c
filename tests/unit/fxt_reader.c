// SPDX-License-Identifier: GPL-2.0
/*
 * Independent Fuchsia trace format reader for the tests (see
 * fxt_reader.h). Built around a word cursor: each record is cut out by
 * its header's size, then consumed word by word; whatever a record
 * declares (size, argument sizes, string lengths) must add up exactly.
 * Field positions are written as [lo..hi] bit ranges as the reference
 * gives them.
 */
#include "fxt_reader.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

/* One record being consumed: its words, how many, how far we are. */
struct cursor {
	const unsigned char *bytes;	/* start of the record */
	size_t words, next;
	size_t offset;			/* byte offset of the record in the trace */
};

struct open_slice {
	char *category, *name;
	uint64_t begin;
	struct fxtr_args args;
};

struct thread_state {
	uint64_t pid, tid, last_ts;
	struct open_slice *stack;
	size_t depth, cap;
};

struct reader {
	struct fxtr_trace *t;
	char *strings[0x8000];		/* string table, index 1..0x7fff */
	struct { uint64_t pid, tid; int set; } threads[256];	/* 1..255 */
	struct thread_state *ts;
	size_t n_ts;
};

static int fail(struct reader *r, const struct cursor *c, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(r->t->error, sizeof(r->t->error), "record at byte %zu: ",
			 c ? c->offset : 0);

	va_start(ap, fmt);
	vsnprintf(r->t->error + n, sizeof(r->t->error) - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Little-endian 64-bit word at p (the format stores words little-endian here). */
static uint64_t le_word(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Bits [lo..hi] of w, inclusive, as the reference numbers them. */
static uint64_t field(uint64_t w, unsigned int lo, unsigned int hi)
{
	unsigned int width = hi - lo + 1;

	return width == 64 ? w : (w >> lo) & ((1ULL << width) - 1);
}

static int take(struct reader *r, struct cursor *c, uint64_t *w)
{
	if (c->next >= c->words)
		return fail(r, c, "record ends early (size %zu words)", c->words);
	*w = le_word(c->bytes + 8 * c->next++);
	return 0;
}

/* A stream of len bytes padded with zeros to 8 bytes; returns a new string. */
static int take_stream(struct reader *r, struct cursor *c, size_t len, char **out)
{
	size_t words = (len + 7) / 8, i;
	const unsigned char *p;

	if (c->next + words > c->words)
		return fail(r, c, "string of %zu bytes runs past the record end", len);
	p = c->bytes + 8 * c->next;
	for (i = len; i < words * 8; i++)
		if (p[i])
			return fail(r, c, "non-zero padding after a %zu-byte string", len);
	*out = malloc(len + 1);
	memcpy(*out, p, len);
	(*out)[len] = '\0';
	if (strlen(*out) != len)
		return fail(r, c, "NUL inside a %zu-byte string", len);
	c->next += words;
	return 0;
}

/* Resolve a 16-bit string ref: 0 empty, high bit inline (length below), else index. */
static int string_ref(struct reader *r, struct cursor *c, uint64_t ref, char **out)
{
	if (ref == 0) {
		*out = strdup("");
		return 0;
	}
	if (ref & 0x8000)
		return take_stream(r, c, ref & 0x7fff, out);
	if (!r->strings[ref])
		return fail(r, c, "string ref %llu was never registered", (unsigned long long)ref);
	*out = strdup(r->strings[ref]);
	return 0;
}

static int thread_ref(struct reader *r, struct cursor *c, uint64_t ref, uint64_t *pid,
		      uint64_t *tid)
{
	if (ref == 0)
		return take(r, c, pid) ?: take(r, c, tid);
	if (!r->threads[ref].set)
		return fail(r, c, "thread ref %llu was never registered", (unsigned long long)ref);
	*pid = r->threads[ref].pid;
	*tid = r->threads[ref].tid;
	return 0;
}

static void free_args(struct fxtr_args *a)
{
	unsigned int i;

	for (i = 0; i < a->n; i++) {
		free(a->v[i].name);
		free(a->v[i].s);
	}
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

/* n arguments, each sized by its own header; sizes must match the type. */
static int read_args(struct reader *r, struct cursor *c, unsigned int n, struct fxtr_args *out)
{
	unsigned int i;

	out->v = calloc(n ? n : 1, sizeof(*out->v));
	out->n = 0;
	for (i = 0; i < n; i++) {
		struct fxtr_arg *a = &out->v[out->n];
		size_t start = c->next, size;
		uint64_t h, type, reserved_hi = 0;
		int want_value_word = 0;

		if (take(r, c, &h))
			return -1;
		type = field(h, 0, 3);
		size = field(h, 4, 15);
		if (size == 0 || start + size > c->words)
			return fail(r, c, "argument %u: size %zu does not fit the record", i, size);
		out->n++;
		if (string_ref(r, c, field(h, 16, 31), &a->name))
			return -1;
		a->type = (enum fxtr_arg_type)type;
		switch (type) {
		case FXTR_NULL:
			reserved_hi = field(h, 32, 63);
			break;
		case FXTR_I32:
		case FXTR_U32:
			a->u = field(h, 32, 63);
			break;
		case FXTR_I64:
		case FXTR_U64:
		case FXTR_DOUBLE:
		case FXTR_POINTER:
		case FXTR_KOID:
			reserved_hi = field(h, 32, 63);
			want_value_word = 1;
			break;
		case FXTR_STRING:
			reserved_hi = field(h, 48, 63);
			if (string_ref(r, c, field(h, 32, 47), &a->s))
				return -1;
			break;
		case FXTR_BOOL:
			a->u = field(h, 32, 32);
			reserved_hi = field(h, 33, 63);
			break;
		default:
			return fail(r, c, "argument %u: unknown type %llu", i, (unsigned long long)type);
		}
		if (reserved_hi)
			return fail(r, c, "argument %u (%s): reserved bits set", i, a->name);
		if (want_value_word && take(r, c, &a->u))
			return -1;
		if (type == FXTR_DOUBLE)
			memcpy(&a->d, &a->u, sizeof(a->d));
		if (c->next - start != size)
			return fail(r, c, "argument %u (%s): header says %zu words, content is %zu",
				    i, a->name, size, c->next - start);
	}
	return 0;
}

static struct thread_state *thread_state(struct reader *r, uint64_t pid, uint64_t tid)
{
	size_t i;

	for (i = 0; i < r->n_ts; i++)
		if (r->ts[i].pid == pid && r->ts[i].tid == tid)
			return &r->ts[i];
	r->ts = realloc(r->ts, (r->n_ts + 1) * sizeof(*r->ts));
	memset(&r->ts[r->n_ts], 0, sizeof(*r->ts));
	r->ts[r->n_ts].pid = pid;
	r->ts[r->n_ts].tid = tid;
	return &r->ts[r->n_ts++];
}

static void add_slice(struct fxtr_trace *t, const struct fxtr_slice *s)
{
	t->slices = realloc(t->slices, (t->n_slices + 1) * sizeof(*t->slices));
	t->slices[t->n_slices++] = *s;
}

/* ---- record types ----------------------------------------------------- */

static int metadata(struct reader *r, struct cursor *c, uint64_t h)
{
	uint64_t mtype = field(h, 16, 19);

	if (mtype == 4) {	/* trace info */
		if (field(h, 20, 23) != 0)
			return fail(r, c, "unknown trace info type %llu",
				    (unsigned long long)field(h, 20, 23));
		if (field(h, 24, 55) != 0x16547846 || field(h, 56, 63) || c->words != 1)
			return fail(r, c, "bad magic number record");
		r->t->magic_seen = 1;
		return 0;
	}
	if (mtype == 1) {	/* provider info */
		if (field(h, 60, 63))
			return fail(r, c, "provider info: reserved bits set");
		free(r->t->provider_name);
		r->t->provider_name = NULL;
		return take_stream(r, c, field(h, 52, 59), &r->t->provider_name);
	}
	if (mtype == 2) {	/* provider section */
		if (field(h, 52, 63))
			return fail(r, c, "provider section: reserved bits set");
		return 0;
	}
	return fail(r, c, "unsupported metadata type %llu", (unsigned long long)mtype);
}

static int initialization(struct reader *r, struct cursor *c, uint64_t h)
{
	if (field(h, 16, 63))
		return fail(r, c, "initialization record: reserved bits set");
	return take(r, c, &r->t->ticks_per_second);
}

static int string_record(struct reader *r, struct cursor *c, uint64_t h)
{
	uint64_t index = field(h, 16, 30);
	char *s;

	if (field(h, 31, 31) || field(h, 47, 47) || field(h, 48, 63))
		return fail(r, c, "string record: bits that must be zero are set");
	if (take_stream(r, c, field(h, 32, 46), &s))
		return -1;
	r->t->string_records++;
	if (index == 0) {	/* the reference says: ignore */
		free(s);
		return 0;
	}
	free(r->strings[index]);
	r->strings[index] = s;
	return 0;
}

static int thread_record(struct reader *r, struct cursor *c, uint64_t h)
{
	uint64_t index = field(h, 16, 23), pid = 0, tid = 0;

	if (field(h, 24, 63))
		return fail(r, c, "thread record: reserved bits set");
	if (take(r, c, &pid) || take(r, c, &tid))
		return -1;
	r->t->thread_records++;
	if (index == 0)
		return 0;	/* reserved for inline threads: ignored */
	r->threads[index].pid = pid;
	r->threads[index].tid = tid;
	r->threads[index].set = 1;
	return 0;
}

static int event(struct reader *r, struct cursor *c, uint64_t h)
{
	uint64_t etype = field(h, 16, 19), nargs = field(h, 20, 23), ts, pid = 0, tid = 0, extra = 0;
	char *cat = NULL, *name = NULL;
	struct fxtr_args args = { 0 };
	struct thread_state *th;

	if (take(r, c, &ts) || thread_ref(r, c, field(h, 24, 31), &pid, &tid) ||
	    string_ref(r, c, field(h, 32, 47), &cat) || string_ref(r, c, field(h, 48, 63), &name) ||
	    read_args(r, c, (unsigned int)nargs, &args))
		goto bad;
	if (etype == 1 || etype == 4) {		/* counter id / end time */
		if (take(r, c, &extra))
			goto bad;
	} else if (etype > 4) {
		fail(r, c, "unsupported event type %llu", (unsigned long long)etype);
		goto bad;
	}
	th = thread_state(r, pid, tid);
	if (ts < th->last_ts) {
		fail(r, c, "time goes back on thread %llu/%llu: %llu after %llu",
		     (unsigned long long)pid, (unsigned long long)tid, (unsigned long long)ts,
		     (unsigned long long)th->last_ts);
		goto bad;
	}
	th->last_ts = ts;

	if (etype == 0 || etype == 1) {
		struct fxtr_trace *t = r->t;
		struct fxtr_point *p;

		t->points = realloc(t->points, (t->n_points + 1) * sizeof(*t->points));
		p = &t->points[t->n_points++];
		*p = (struct fxtr_point){ (int)etype, pid, tid, ts, cat, name, extra, args };
		return 0;
	}
	if (etype == 2) {
		struct open_slice *o;

		if (th->depth == th->cap) {
			th->cap = th->cap ? 2 * th->cap : 8;
			th->stack = realloc(th->stack, th->cap * sizeof(*th->stack));
		}
		o = &th->stack[th->depth++];
		*o = (struct open_slice){ cat, name, ts, args };
		return 0;
	}
	if (etype == 3) {
		struct open_slice *o;
		struct fxtr_slice s;

		if (!th->depth) {
			fail(r, c, "duration end \"%s\" with no open begin on thread %llu/%llu", name,
			     (unsigned long long)pid, (unsigned long long)tid);
			goto bad;
		}
		o = &th->stack[th->depth - 1];
		if (strcmp(o->name, name) || strcmp(o->category, cat)) {
			fail(r, c, "duration end %s/%s does not match the open begin %s/%s", cat, name,
			     o->category, o->name);
			goto bad;
		}
		th->depth--;
		s = (struct fxtr_slice){ pid, tid, o->category, o->name, o->begin, ts,
					 (unsigned int)th->depth, o->args, args };
		add_slice(r->t, &s);
		free(cat);
		free(name);
		return 0;
	}
	/* complete event: its own slice, nested at the current depth */
	if (extra < ts) {
		fail(r, c, "complete event ends before it begins");
		goto bad;
	}
	{
		struct fxtr_slice s = { pid, tid, cat, name, ts, extra, (unsigned int)th->depth,
					args, { 0 } };

		add_slice(r->t, &s);
	}
	return 0;
bad:
	free(cat);
	free(name);
	free_args(&args);
	return -1;
}

static int kernel_object(struct reader *r, struct cursor *c, uint64_t h)
{
	struct fxtr_kobj k = { .obj_type = (unsigned int)field(h, 16, 23) };
	struct fxtr_args args = { 0 };
	const struct fxtr_arg *proc;

	if (field(h, 44, 63))
		return fail(r, c, "kernel object record: reserved bits set");
	if (take(r, c, &k.koid) || string_ref(r, c, field(h, 24, 39), &k.name) ||
	    read_args(r, c, (unsigned int)field(h, 40, 43), &args)) {
		free(k.name);
		free_args(&args);
		return -1;
	}
	proc = fxtr_arg(&args, "process");
	if (k.obj_type == 2) {
		if (!proc || proc->type != FXTR_KOID) {
			free(k.name);
			free_args(&args);
			return fail(r, c, "thread object %llu lacks its \"process\" koid argument",
				    (unsigned long long)k.koid);
		}
		k.process = proc->u;
	}
	free_args(&args);
	r->t->kobjs = realloc(r->t->kobjs, (r->t->n_kobjs + 1) * sizeof(*r->t->kobjs));
	r->t->kobjs[r->t->n_kobjs++] = k;
	return 0;
}

int fxtr_read(const void *buf, size_t len, struct fxtr_trace *t)
{
	struct reader *r = calloc(1, sizeof(*r));
	const unsigned char *p = buf;
	size_t off = 0, i;
	int rc = 0;

	memset(t, 0, sizeof(*t));
	r->t = t;
	/*
	 * The magic number record first, before the length: a file of another
	 * format (a .json timeline) is said to be no fxt, not a bad length
	 */
	if (len < 8 || field(le_word(p), 0, 3) != 0 || field(le_word(p), 16, 19) != 4) {
		rc = fail(r, NULL, "the trace does not start with the magic number record: not an"
			  " fxt file");
		goto out;
	}
	if (len % 8) {
		rc = fail(r, NULL, "trace length %zu is not a multiple of 8 bytes (a file cut"
			  " short? decode it again)", len);
		goto out;
	}
	while (!rc && off < len) {
		uint64_t h = le_word(p + off);
		struct cursor c = { p + off, field(h, 4, 15), 1, off };
		unsigned int type = (unsigned int)field(h, 0, 3);

		if (c.words == 0 || off + 8 * c.words > len) {
			rc = fail(r, &c, "size %zu words does not fit the %zu bytes left (a file cut"
				  " short? decode it again)", c.words, len - off);
			break;
		}
		if (off == 0 && (type != 0 || field(h, 16, 19) != 4)) {
			rc = fail(r, &c, "the trace does not start with the magic number record");
			break;
		}
		t->records[type]++;
		switch (type) {
		case 0: rc = metadata(r, &c, h); break;
		case 1: rc = initialization(r, &c, h); break;
		case 2: rc = string_record(r, &c, h); break;
		case 3: rc = thread_record(r, &c, h); break;
		case 4: rc = event(r, &c, h); break;
		case 7: rc = kernel_object(r, &c, h); break;
		default:
			rc = fail(r, &c, "unsupported record type %u", type);
		}
		if (!rc && c.next != c.words)
			rc = fail(r, &c, "type %u: header says %zu words, content is %zu", type,
				  c.words, c.next);
		off += 8 * c.words;
	}
	if (!rc && !t->magic_seen)
		rc = fail(r, NULL, "no magic number record");
	for (i = 0; i < r->n_ts; i++) {
		struct thread_state *th = &r->ts[i];

		if (!rc && th->depth)
			rc = fail(r, NULL, "thread %llu/%llu ends with %zu open slices (innermost %s)",
				  (unsigned long long)th->pid, (unsigned long long)th->tid, th->depth,
				  th->stack[th->depth - 1].name);
		while (th->depth) {
			struct open_slice *o = &th->stack[--th->depth];

			free(o->category);
			free(o->name);
			free_args(&o->args);
		}
		free(th->stack);
	}
out:
	for (i = 0; i < 0x8000; i++)
		free(r->strings[i]);
	free(r->ts);
	free(r);
	return rc;
}

/*
 * The whole file into memory, through zlib: a plain file reads as it is,
 * a gzip-compressed one (ptscope decode -o t.fxt.gz) as its contents.
 */
int fxtr_read_file(const char *path, struct fxtr_trace *t)
{
	gzFile f = gzopen(path, "rb");
	int open_errno = errno;
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap), *nb;
	struct stat st;
	int n = 0, rc;

	memset(t, 0, sizeof(*t));
	/* gzread of a directory fails without saying so: say it first */
	if (f && !stat(path, &st) && S_ISDIR(st.st_mode)) {
		snprintf(t->error, sizeof(t->error), "%s is a directory: give the file that "
			 "ptscope decode -o wrote (e.g. trace.fxt)", path);
		gzclose(f);
		free(buf);
		return -1;
	}
	if (!f || !buf) {
		snprintf(t->error, sizeof(t->error), "cannot open %s: %s", path,
			 f ? strerror(ENOMEM) : strerror(open_errno));
		if (f)
			gzclose(f);
		free(buf);
		return -1;
	}
	for (;;) {
		if (len == cap) {
			nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		n = gzread(f, buf + len, (unsigned int)(cap - len > (1u << 30) ? 1u << 30 : cap - len));
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	/* a directory, a cut gzip stream or memory running out: not read */
	if (n < 0 || len == cap || gzclose(f) != Z_OK) {
		snprintf(t->error, sizeof(t->error), "cannot read %s", path);
		free(buf);
		return -1;
	}
	rc = fxtr_read(buf, len, t);
	free(buf);
	return rc;
}

void fxtr_free(struct fxtr_trace *t)
{
	size_t i;

	for (i = 0; i < t->n_slices; i++) {
		free(t->slices[i].category);
		free(t->slices[i].name);
		free_args(&t->slices[i].args);
		free_args(&t->slices[i].end_args);
	}
	for (i = 0; i < t->n_points; i++) {
		free(t->points[i].category);
		free(t->points[i].name);
		free_args(&t->points[i].args);
	}
	for (i = 0; i < t->n_kobjs; i++)
		free(t->kobjs[i].name);
	free(t->slices);
	free(t->points);
	free(t->kobjs);
	free(t->provider_name);
	memset(t, 0, sizeof(*t));
}

const struct fxtr_arg *fxtr_arg(const struct fxtr_args *a, const char *name)
{
	unsigned int i;

	for (i = 0; i < a->n; i++)
		if (!strcmp(a->v[i].name, name))
			return &a->v[i];
	return NULL;
}

const char *fxtr_kobj_name(const struct fxtr_trace *t, unsigned int obj_type, uint64_t koid)
{
	size_t i;

	for (i = t->n_kobjs; i-- > 0;)
		if (t->kobjs[i].obj_type == obj_type && t->kobjs[i].koid == koid)
			return t->kobjs[i].name;
	return NULL;
}
