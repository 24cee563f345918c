// SPDX-License-Identifier: GPL-2.0
/*
 * Fuchsia trace format (.fxt) writer, following the format's reference
 * (fuchsia.dev, "Fuchsia trace format"). The Perfetto UI opens the file.
 *
 * Layout: magic number record, provider info record ("ptscope"),
 * initialization record (10^9 ticks per second, so a tick is 1 ns and
 * timestamps are rec->ts_ns), then per timeline record:
 *
 *   PROCESS -> kernel object record, ZX_OBJ_TYPE_PROCESS, koid = pid
 *   THREAD  -> kernel object record, ZX_OBJ_TYPE_THREAD, koid = tid,
 *              argument "process" (koid) = pid
 *   BEGIN   -> duration begin event (category "user" or "kernel"), with
 *              the record's extra arguments after the common ones
 *   END     -> duration end event, same category and name as its BEGIN
 *   INSTANT -> instant event, category "ptscope"
 *   COUNTER -> counter event, argument "value" (double), counter id = cpu
 *
 * Strings go through the string table (indices 1..0x7fff); when it is
 * full the recyclable part is reused from its first index (a string
 * record replaces the prior registration of its index). Arguments that
 * are unique per event (an instant's cause) are inline strings. Threads go
 * through the thread table (indices 1..255), reused round-robin when all
 * 255 are taken, so any number of threads is written correctly.
 *
 * Words are written little-endian, as the format's readers on x86 and
 * arm64 expect (the format stores words in the writer's byte order).
 */
#include "writer_int.h"

#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Record types and sub-types (format reference, "Record types"). */
enum {
	FXT_REC_METADATA = 0,
	FXT_REC_INIT = 1,
	FXT_REC_STRING = 2,
	FXT_REC_THREAD = 3,
	FXT_REC_EVENT = 4,
	FXT_REC_KOBJ = 7,
};

enum {
	FXT_META_PROVIDER_INFO = 1,
	FXT_META_TRACE_INFO = 4,
};

enum {
	FXT_EV_INSTANT = 0,
	FXT_EV_COUNTER = 1,
	FXT_EV_BEGIN = 2,
	FXT_EV_END = 3,
};

enum {
	FXT_ARG_UINT32 = 2,
	FXT_ARG_INT64 = 3,
	FXT_ARG_UINT64 = 4,
	FXT_ARG_DOUBLE = 5,
	FXT_ARG_STRING = 6,
	FXT_ARG_POINTER = 7,
	FXT_ARG_KOID = 8,
	FXT_ARG_BOOL = 9,
};

/* Zircon object types (zircon/types.h) named by kernel object records. */
#define ZX_OBJ_TYPE_PROCESS	1
#define ZX_OBJ_TYPE_THREAD	2

#define FXT_TRACE_INFO_MAGIC	0		/* trace info type: magic number */
#define FXT_MAGIC		0x16547846ULL	/* "FxT" and a random byte */
#define FXT_PROVIDER_ID		1
#define FXT_TICKS_PER_SECOND	1000000000ULL

#define FXT_MAX_WORDS		4095	/* 12-bit record size field */
#define FXT_STR_INDEX_MAX	0x7fff	/* 15-bit string index */
#define FXT_STR_INLINE		0x8000	/* string ref: inline flag */
#define FXT_MAX_STRING		32000	/* the reference's recommended limit, bytes */
#define FXT_MAX_INLINE		4000	/* an inline argument, bytes */
#define FXT_THREADS		255	/* thread refs 1..255 */
/* Most strings one record interns (category, name, object, kind, ...). */
#define FXT_STRINGS_PER_RECORD	8
/* ... and a BEGIN with extra arguments: a name and a value per argument */
#define FXT_STRINGS_PER_ARG	2

/*
 * Strings registered once at start under fixed indices and never
 * recycled: categories, argument names and the kind names, so the common
 * references cost no table look-up.
 */
enum fixed_string {
	FX_USER = 1, FX_KERNEL, FX_PTSCOPE, FX_ADDR, FX_SYMBOL, FX_OFFSET, FX_OBJECT,
	FX_KIND, FX_END_KIND, FX_CPU, FX_INFERRED, FX_SYNTHETIC, FX_CAUSE, FX_PROCESS,
	FX_VALUE, FX_COUNTER,
	FX_KINDS,	/* kind names follow: FX_KINDS + enum pts_tl_kind */
};
#define FXT_KIND_COUNT	(PTS_TLK_END_OF_TRACE + 1)
#define FXT_FIXED	(FX_KINDS + FXT_KIND_COUNT - 1)	/* last fixed index */

static const char *const fixed_strings[FX_KINDS] = {
	[FX_USER] = "user", [FX_KERNEL] = "kernel", [FX_PTSCOPE] = "ptscope",
	[FX_ADDR] = "addr", [FX_SYMBOL] = "symbol", [FX_OFFSET] = "offset",
	[FX_OBJECT] = "object", [FX_KIND] = "kind", [FX_END_KIND] = "end_kind",
	[FX_CPU] = "cpu", [FX_INFERRED] = "inferred", [FX_SYNTHETIC] = "synthetic",
	[FX_CAUSE] = "cause", [FX_PROCESS] = "process", [FX_VALUE] = "value",
	[FX_COUNTER] = "counter",
};

struct fxt_rec {
	uint64_t w[FXT_MAX_WORDS];
	size_t n;			/* words in w */
	bool overflow;			/* record would exceed FXT_MAX_WORDS */
};

struct fxt_thread {
	int32_t pid, tid;
	bool used;
};

/*
 * Front of the string table, by pointer: the timeline hands the same
 * interned name pointers over and over, so remember which table entry a
 * pointer matched last and confirm with strcmp (the bytes behind a pointer
 * may change between records) instead of hashing the string again.
 * FXT_SREF_SIZE is a power of two. Emptied whenever the table is.
 */
#define FXT_SREF_SIZE 1024

struct fxt_sref {
	const char *p;
	struct pts_hent *e;
};

/*
 * A BEGIN's words for one slice, all but its time, CPU, kind and thread
 * (those words' other bits included: 0 in the values they OR into),
 * made by begin_words for the fields of the slices of one id (writer.h,
 * struct pts_tl_slice). The BEGINs of a call target differ only there,
 * so the frame path copies them instead of assembling them anew.
 * Direct-mapped by id, FXT_TMPL_SIZE a power of two; valid while the
 * string table keeps nref and the object's ref (forgotten when it
 * recycles).
 */
#define FXT_TMPL_SIZE	512
#define FXT_TMPL_WORDS	12	/* a BEGIN with no extra argument */

struct fxt_tmpl {
	uint64_t id;		/* of the slices it is for; TMPL_NONE: none */
	uint64_t wtag;		/* what the BEGIN notes in the slice: gen, the name's ref */
	uint64_t w[FXT_TMPL_WORDS];	/* little-endian, as written */
	uint8_t n;		/* words */
	uint8_t kpos;		/* the kind's word; the CPU's follows */
	uint8_t pad[14];
};

/* An empty template's id: the callers' ids count up from 1. */
#define TMPL_NONE	UINT64_MAX

/* No generation (gen_ready): the notes' generations are below 2^48. */
#define GEN_NONE	UINT64_MAX

/* A power of two: a slot's address is a shift. */
_Static_assert(sizeof(struct fxt_tmpl) == 128, "struct fxt_tmpl: 128 bytes");

struct fxt {
	struct pts_hmap strings;	/* string -> index */
	struct fxt_sref sref[FXT_SREF_SIZE];
	struct fxt_sref scratch;	/* where strings of this file's buffers are not remembered */
	uint32_t next_str;		/* next string index to assign */
	/*
	 * Generation of the string table, counted up each time it recycles:
	 * a frame keeps its name's index with the generation it belongs to,
	 * so its END needs no lookup while the table has not recycled.
	 */
	uint64_t gen;
	/*
	 * gen while the table has room for a record's strings
	 * (FXT_STRINGS_PER_RECORD), else GEN_NONE, which no END's note
	 * matches: the frame path's one compare then says both that the
	 * END's name ref is still its name's and that no recycling is due.
	 * Templates are kept only while there is room (strings_counted), so
	 * a BEGIN that finds its template needs no test of it either.
	 */
	uint64_t gen_ready;
	struct fxt_thread threads[FXT_THREADS + 1];	/* [1..255] */
	unsigned int next_thread, last_thread;
	uint64_t last_key;	/* thread_key of last_thread's pid/tid, when last_thread is set */
	/*
	 * Records being assembled (host order): events and kernel objects in
	 * ev; the string and thread records they cause go out first, from aux.
	 */
	struct fxt_rec ev, aux;
	struct fxt_tmpl tmpl[FXT_TMPL_SIZE];
};

static struct fxt *S(struct pts_writer *w)
{
	return w->state;
}

/* ---- record assembly ------------------------------------------------ */

static void rec_start(struct fxt_rec *r)
{
	r->n = 1;		/* header word filled by rec_end */
	r->overflow = false;
}

static void put(struct fxt_rec *r, uint64_t word)
{
	if (r->n >= FXT_MAX_WORDS) {
		r->overflow = true;
		return;
	}
	r->w[r->n++] = word;
}

/* A stream: bytes padded with zeros to the next 8-byte boundary. */
static void put_stream(struct fxt_rec *r, const char *s, size_t len)
{
	while (len) {
		uint64_t word = 0;
		size_t k = len < 8 ? len : 8;

		memcpy(&word, s, k);	/* bytes in order; word is stored as-is */
		put(r, le64toh(word));
		s += k;
		len -= k;
	}
}

/* Write the record: header = type | size << 4 | fields. */
static int rec_end(struct pts_writer *w, struct fxt_rec *r, unsigned int type, uint64_t fields)
{
	size_t i;

	if (r->overflow)
		return pts_wfail(w, EOVERFLOW, "internal: fxt record over %d words", FXT_MAX_WORDS);
	r->w[0] = type | (uint64_t)r->n << 4 | fields;
	for (i = 0; i < r->n; i++)
		r->w[i] = htole64(r->w[i]);
	return pts_wout(w, r->w, r->n * 8);
}

/* Length of s cut to max bytes without splitting a UTF-8 sequence. */
static size_t cut_len(const char *s, size_t max)
{
	size_t len = strlen(s);

	if (len <= max)
		return len;
	len = max;
	while (len && ((unsigned char)s[len] & 0xc0) == 0x80)
		len--;
	return len;
}

/* ---- string table ---------------------------------------------------- */

static int string_record(struct pts_writer *w, uint16_t index, const char *s)
{
	struct fxt *f = S(w);
	size_t len = cut_len(s, FXT_MAX_STRING);

	rec_start(&f->aux);
	put_stream(&f->aux, s, len);
	return rec_end(w, &f->aux, FXT_REC_STRING, (uint64_t)index << 16 | (uint64_t)len << 32);
}

/* Whether n new strings fit in the table without recycling it. */
static inline bool strings_room(const struct fxt *f, unsigned int n)
{
	return f->next_str + n <= FXT_STR_INDEX_MAX + 1;
}

/* Empty every template: their string refs are the table's. */
static void tmpl_forget(struct fxt *f)
{
	unsigned int i;

	for (i = 0; i < FXT_TMPL_SIZE; i++)
		f->tmpl[i].id = TMPL_NONE;
}

/*
 * After the table's count of strings changed: whether a record's
 * strings still fit (gen_ready). When they no longer do, the next record
 * recycles the table first, so the templates, whose hit the frame path
 * takes for room, are forgotten now.
 */
static void strings_counted(struct fxt *f)
{
	if (strings_room(f, FXT_STRINGS_PER_RECORD)) {
		f->gen_ready = f->gen;
	} else if (f->gen_ready != GEN_NONE) {
		f->gen_ready = GEN_NONE;
		tmpl_forget(f);
	}
}

/*
 * Make room for n new strings before assembling a record, so the table
 * never recycles in the middle of one (which could reassign an index the
 * record already uses). Recycling forgets every non-fixed string; the
 * fixed ones keep their indices, which no later string record overwrites.
 */
static void reserve_strings(struct fxt *f, unsigned int n)
{
	if (strings_room(f, n))
		return;
	pts_hmap_clear(&f->strings, NULL);
	memset(f->sref, 0, sizeof(f->sref));
	f->next_str = FXT_FIXED + 1;
	f->gen++;
	tmpl_forget(f);
	strings_counted(f);
}

/*
 * String ref for s: 0 for "" or NULL, else its table index (registered
 * now if new). stable: s is the caller's pointer (not a buffer of this
 * file), so it may be remembered; with pts_writer_strings_interned a
 * remembered pointer is the same string without comparing the bytes.
 */
static int str_ref_at(struct pts_writer *w, const char *s, bool stable, uint16_t *ref)
{
	struct fxt *f = S(w);
	struct fxt_sref *c;
	struct pts_hent *e;
	bool created;
	int rc;

	*ref = 0;
	if (!s || !s[0])
		return 0;
	c = stable ? &f->sref[((uintptr_t)s >> 3) & (FXT_SREF_SIZE - 1)] : &f->scratch;
	if (stable && c->p == s && (w->interned || !strcmp(c->e->key, s))) {
		*ref = (uint16_t)c->e->v.u;
		return 0;
	}
	e = pts_hmap_find(&f->strings, s, strlen(s));
	if (e) {
		c->p = s;
		c->e = e;
		*ref = (uint16_t)e->v.u;
		return 0;
	}
	if (f->next_str > FXT_STR_INDEX_MAX)
		return pts_wfail(w, EOVERFLOW, "internal: fxt string table not reserved");
	e = pts_hmap_get(&f->strings, s, strlen(s), &created);
	if (!e)
		return pts_wfail(w, ENOMEM, "out of memory: fxt string table");
	e->v.u = f->next_str;
	c->p = s;
	c->e = e;
	rc = string_record(w, (uint16_t)f->next_str, s);
	if (rc)
		return rc;
	*ref = (uint16_t)f->next_str++;
	strings_counted(f);
	return 0;
}

/* The ref of the caller's pointer s when remembered in sref, interned: a load. */
static inline bool str_known(struct pts_writer *w, const char *s, uint16_t *ref)
{
	const struct fxt_sref *c = &S(w)->sref[((uintptr_t)s >> 3) & (FXT_SREF_SIZE - 1)];

	/* only a string of at least one byte is remembered: no check for "" */
	if (w->interned && s && c->p == s) {
		*ref = (uint16_t)c->e->v.u;
		return true;
	}
	return false;
}

/*
 * str_ref_at of the caller's pointer. Inline: the common case, an
 * interned pointer remembered in sref (str_known), is a load.
 */
static inline int str_ref(struct pts_writer *w, const char *s, uint16_t *ref)
{
	return str_known(w, s, ref) ? 0 : str_ref_at(w, s, true, ref);
}

/* String ref of a kind's name. */
static int kind_ref(struct pts_writer *w, enum pts_tl_kind kind, uint16_t *ref)
{
	if ((unsigned int)kind < FXT_KIND_COUNT) {
		*ref = (uint16_t)(FX_KINDS + kind);
		return 0;
	}
	return str_ref(w, pts_tl_kind_name(kind), ref);
}

/* ---- thread table ---------------------------------------------------- */

static uint64_t koid(int32_t id)
{
	/* pids/tids are koids; -1 (unknown) stays distinct from real ones */
	return (uint64_t)(uint32_t)id;
}

/* pid and tid in one word: the last thread is one compare */
static inline uint64_t thread_key(int32_t pid, int32_t tid)
{
	return (uint64_t)(uint32_t)tid << 32 | (uint32_t)pid;
}

/* thread_ref of a thread other than the last one */
static int thread_ref_slow(struct pts_writer *w, int32_t pid, int32_t tid, unsigned int *ref)
{
	struct fxt *f = S(w);
	struct fxt_thread *t;
	unsigned int i;

	for (i = 1; i <= FXT_THREADS; i++) {
		t = &f->threads[i];
		if (t->used && t->pid == pid && t->tid == tid) {
			*ref = f->last_thread = i;
			f->last_key = thread_key(pid, tid);
			return 0;
		}
	}
	/* a new thread takes the next index round-robin, replacing its owner */
	i = f->next_thread;
	f->next_thread = i == FXT_THREADS ? 1 : i + 1;
	f->threads[i] = (struct fxt_thread){ pid, tid, true };
	*ref = f->last_thread = i;
	f->last_key = thread_key(pid, tid);
	rec_start(&f->aux);
	put(&f->aux, koid(pid));
	put(&f->aux, koid(tid));
	return rec_end(w, &f->aux, FXT_REC_THREAD, (uint64_t)i << 16);
}

/* Whether pid/tid is the thread of the record before (last_thread). */
static inline bool is_last_thread(const struct fxt *f, int32_t pid, int32_t tid)
{
	return f->last_thread && f->last_key == thread_key(pid, tid);
}

/*
 * The thread table index of pid/tid, given one (and its thread record
 * written) if new. Inline: nearly every record is the last one's thread.
 */
static inline int thread_ref(struct pts_writer *w, int32_t pid, int32_t tid, unsigned int *ref)
{
	struct fxt *f = S(w);

	if (is_last_thread(f, pid, tid)) {
		*ref = f->last_thread;
		return 0;
	}
	return thread_ref_slow(w, pid, tid, ref);
}

/* ---- arguments ------------------------------------------------------- */

/* Argument header: type | size << 4 | name << 16 | value bits << 32. */
static uint64_t arg_hdr(unsigned int type, unsigned int words, uint16_t name, uint64_t hi)
{
	return type | (uint64_t)words << 4 | (uint64_t)name << 16 | hi << 32;
}

static void arg_sref(struct pts_writer *w, uint16_t name, uint16_t val)
{
	put(&S(w)->ev, arg_hdr(FXT_ARG_STRING, 1, name, val));
}

/* A string argument carried inline: for text unique to one event. */
static void arg_inline(struct pts_writer *w, uint16_t name, const char *val)
{
	struct fxt *f = S(w);
	size_t len = cut_len(val, FXT_MAX_INLINE);

	put(&f->ev, arg_hdr(FXT_ARG_STRING, 1 + (unsigned int)((len + 7) / 8), name,
			    len ? FXT_STR_INLINE | len : 0));
	put_stream(&f->ev, val, len);
}

/* An argument whose value is the word after its header. */
static void arg_word(struct pts_writer *w, unsigned int type, uint16_t name, uint64_t val)
{
	put(&S(w)->ev, arg_hdr(type, 2, name, 0));
	put(&S(w)->ev, val);
}

/* Unsigned: 32-bit in the header when it fits, as the reference asks. */
static void arg_uint(struct pts_writer *w, uint16_t name, uint64_t val)
{
	if (val > UINT32_MAX)
		arg_word(w, FXT_ARG_UINT64, name, val);
	else
		put(&S(w)->ev, arg_hdr(FXT_ARG_UINT32, 1, name, val));
}

/* ---- records --------------------------------------------------------- */

static int kernel_object(struct pts_writer *w, unsigned int type, int32_t id, const char *name,
			 int32_t pid)
{
	struct fxt *f = S(w);
	unsigned int nargs = 0;
	uint16_t nref;
	int rc;

	reserve_strings(f, FXT_STRINGS_PER_RECORD);
	rc = str_ref(w, name, &nref);
	if (rc)
		return rc;
	rec_start(&f->ev);
	put(&f->ev, koid(id));
	if (type == ZX_OBJ_TYPE_THREAD) {
		/* the reference's convention: a thread names its process */
		arg_word(w, FXT_ARG_KOID, FX_PROCESS, koid(pid));
		nargs++;
	}
	return rec_end(w, &f->ev, FXT_REC_KOBJ, (uint64_t)type << 16 | (uint64_t)nref << 24 |
		       (uint64_t)nargs << 40);
}

/* Event header fields above the size: type, nargs, thread, category, name. */
static uint64_t ev_fields(unsigned int ev, unsigned int nargs, unsigned int th, uint16_t cat,
			  uint16_t name)
{
	return (uint64_t)ev << 16 | (uint64_t)nargs << 20 | (uint64_t)th << 24 |
	       (uint64_t)cat << 32 | (uint64_t)name << 48;
}

static uint16_t category(uint32_t flags)
{
	return flags & PTS_TLF_KERNEL ? FX_KERNEL : FX_USER;
}

/*
 * Duration events are most of a trace's records: assembled straight into
 * a fixed array (their size is bounded, no per-word checks) and written
 * with one copy. At most FXT_BEGIN_WORDS words: 12 of the fixed
 * arguments, 2 per extra one.
 */
#define FXT_BEGIN_WORDS (12 + 2 * PTS_TL_MAX_ARGS)

/* Word i of a record assembled at p: little-endian, whatever p's alignment. */
static inline void put_word(char *p, unsigned int i, uint64_t v)
{
	v = htole64(v);
	memcpy(p + 8 * (size_t)i, &v, sizeof(v));
}

/*
 * A BEGIN's extra arguments (writer.h) into ev at word *n: strings by table
 * reference (syscall names recur), numbers as int64, uint32/uint64, and
 * pointers. Their strings are registered first (their records precede
 * the event). Returns the number of arguments, or a negative errno.
 */
static int extra_args(struct pts_writer *w, const struct pts_tl_arg *args, uint32_t count,
		      char *ev, unsigned int *n)
{
	uint16_t names[PTS_TL_MAX_ARGS], vals[PTS_TL_MAX_ARGS];
	uint32_t i, nargs = count < PTS_TL_MAX_ARGS ? count : PTS_TL_MAX_ARGS;
	int rc = 0;

	for (i = 0; !rc && i < nargs; i++) {
		vals[i] = 0;
		rc = str_ref(w, args[i].name, &names[i]);
		if (!rc && args[i].type == PTS_TLA_STR)
			rc = str_ref(w, args[i].s, &vals[i]);
	}
	if (rc)
		return rc;
	for (i = 0; i < nargs; i++) {
		const struct pts_tl_arg *a = &args[i];

		switch (a->type) {
		case PTS_TLA_STR:
			put_word(ev, (*n)++, arg_hdr(FXT_ARG_STRING, 1, names[i], vals[i]));
			break;
		case PTS_TLA_INT:
			put_word(ev, (*n)++, arg_hdr(FXT_ARG_INT64, 2, names[i], 0));
			put_word(ev, (*n)++, (uint64_t)a->i);
			break;
		case PTS_TLA_UINT:
			if (a->u > UINT32_MAX) {
				put_word(ev, (*n)++, arg_hdr(FXT_ARG_UINT64, 2, names[i], 0));
				put_word(ev, (*n)++, a->u);
			} else {
				put_word(ev, (*n)++, arg_hdr(FXT_ARG_UINT32, 1, names[i], a->u));
			}
			break;
		case PTS_TLA_PTR:
			put_word(ev, (*n)++, arg_hdr(FXT_ARG_POINTER, 2, names[i], 0));
			put_word(ev, (*n)++, a->u);
			break;
		}
	}
	return (int)nargs;
}

/*
 * Where to assemble a duration event of at most size bytes: in place at
 * the end of the output buffer when it fits (no copy), else local. Only
 * once the event's strings are registered: their records go first.
 */
static char *ev_place(struct pts_writer *w, char *local, size_t size)
{
	char *p = pts_wout_room(w, size);

	return p ? p : local;
}

/* Keep the n words assembled at ev (ev_place). */
static int ev_done(struct pts_writer *w, char *ev, const char *local, unsigned int n)
{
	if (ev == local)
		return pts_wout(w, local, n * 8);
	pts_wout_commit(w, n * 8);
	return 0;
}

/* Strings a BEGIN with nargs extra arguments may register (reserve_strings). */
static unsigned int begin_strings(uint32_t nargs)
{
	return FXT_STRINGS_PER_RECORD +
	       FXT_STRINGS_PER_ARG * (nargs < PTS_TL_MAX_ARGS ? nargs : PTS_TL_MAX_ARGS);
}

/*
 * String ref of a slice's name, which its BEGIN and END carry: the
 * caller's pointer, or "[unknown] 0x<addr>" formatted into buf (not
 * remembered by pointer) for an unnamed one.
 */
static inline int name_ref(struct pts_writer *w, const struct pts_tl_slice *s, char *buf,
			   size_t size, uint16_t *ref)
{
	if (s->name && s->name[0])
		return str_ref(w, s->name, ref);
	return str_ref_at(w, pts_wname_addr(NULL, s->addr, buf, size), false, ref);
}

/* Does the slice, whose name is not "", name a symbol? */
static inline bool named_symbol(const struct pts_tl_slice *s)
{
	return !(s->flags & (PTS_TLF_SYNTHETIC | PTS_TLF_UNKNOWN));
}

/* Does the slice name a symbol? pts_wsymbol of its BEGIN. */
static bool slice_symbol(const struct pts_tl_slice *s)
{
	return s->name && s->name[0] && named_symbol(s);
}

/*
 * The words of a BEGIN of slice s at at, its name, object and kind refs
 * given, at ev after the header and before any extra argument (symbol:
 * slice_symbol(s), which a caller that found the name remembered knows
 * with one test): returns the words (the header's included), *nargs the
 * arguments.
 */
static inline __attribute__((always_inline)) unsigned int
begin_words(char *ev, const struct pts_tl_at *at, const struct pts_tl_slice *s, bool symbol,
	    uint16_t nref, uint16_t oref, uint16_t kref, unsigned int *nargs, unsigned int *kpos)
{
	unsigned int na = 3, n = 2;	/* addr, kind, cpu; header, time */

	put_word(ev, 1, at->ts_ns);
	put_word(ev, n++, arg_hdr(FXT_ARG_POINTER, 2, FX_ADDR, 0));
	put_word(ev, n++, s->addr);
	if (symbol) {
		put_word(ev, n++, arg_hdr(FXT_ARG_STRING, 1, FX_SYMBOL, nref));
		if (s->offset > UINT32_MAX) {
			put_word(ev, n++, arg_hdr(FXT_ARG_UINT64, 2, FX_OFFSET, 0));
			put_word(ev, n++, s->offset);
		} else {
			put_word(ev, n++, arg_hdr(FXT_ARG_UINT32, 1, FX_OFFSET, s->offset));
		}
		na += 2;
	}
	if (oref) {
		put_word(ev, n++, arg_hdr(FXT_ARG_STRING, 1, FX_OBJECT, oref));
		na++;
	}
	*kpos = n;
	put_word(ev, n++, arg_hdr(FXT_ARG_STRING, 1, FX_KIND, kref));
	put_word(ev, n++, arg_hdr(FXT_ARG_UINT32, 1, FX_CPU, at->cpu));
	if (s->flags & PTS_TLF_INFERRED) {
		put_word(ev, n++, arg_hdr(FXT_ARG_BOOL, 1, FX_INFERRED, 1));
		na++;
	}
	if (s->flags & PTS_TLF_SYNTHETIC) {
		put_word(ev, n++, arg_hdr(FXT_ARG_BOOL, 1, FX_SYNTHETIC, 1));
		na++;
	}
	*nargs = na;
	return n;
}

/* The header of a BEGIN of n words and nargs arguments on thread ref th (begin_words). */
static inline void begin_header(char *ev, unsigned int n, unsigned int nargs, unsigned int th,
				uint32_t flags, uint16_t nref)
{
	put_word(ev, 0, FXT_REC_EVENT | (uint64_t)n << 4 |
		 ev_fields(FXT_EV_BEGIN, nargs, th, category(flags), nref));
}

/*
 * The BEGIN of slice s at at on thread ref th; *nref: its name's string
 * ref.
 */
static int emit_begin(struct pts_writer *w, const struct pts_tl_at *at,
		      const struct pts_tl_slice *s, enum pts_tl_kind kind, unsigned int th,
		      uint16_t *nref)
{
	char local[FXT_BEGIN_WORDS * 8], *ev;
	char buf[64];
	uint16_t oref = 0, kref;
	unsigned int nargs, n, kpos;
	int rc;

	/* every string first: their string records precede the event */
	rc = name_ref(w, s, buf, sizeof(buf), nref) ?: str_ref(w, s->object, &oref) ?:
	     kind_ref(w, kind, &kref);
	if (rc)
		return rc;
	/* extra arguments register strings as they go: assembled aside */
	ev = s->nargs ? local : ev_place(w, local, sizeof(local));
	n = begin_words(ev, at, s, slice_symbol(s), *nref, oref, kref, &nargs, &kpos);
	if (s->nargs) {
		rc = extra_args(w, s->args, s->nargs, ev, &n);
		if (rc < 0)
			return rc;
		nargs += (unsigned int)rc;
	}
	begin_header(ev, n, nargs, th, s->flags, *nref);
	return ev_done(w, ev, local, n);
}

/* An END's words at ev (emit_end). */
#define FXT_END_WORDS 3

static inline void end_words(char *ev, uint64_t ts, uint16_t kref, unsigned int th,
			     uint32_t flags, uint16_t nref)
{
	put_word(ev, 0, FXT_REC_EVENT | FXT_END_WORDS << 4 |
		 ev_fields(FXT_EV_END, 1, th, category(flags), nref));
	put_word(ev, 1, ts);
	put_word(ev, 2, arg_hdr(FXT_ARG_STRING, 1, FX_END_KIND, kref));
}

/*
 * The END at ts (kind: why) on thread ref th of the slice whose BEGIN had
 * flags and name ref nref: the same category and name, which readers may
 * match on.
 */
static inline int emit_end(struct pts_writer *w, uint64_t ts, enum pts_tl_kind kind,
			   unsigned int th, uint32_t flags, uint16_t nref)
{
	char local[FXT_END_WORDS * 8], *ev;
	uint16_t kref;
	int rc = kind_ref(w, kind, &kref);

	if (rc)
		return rc;
	ev = ev_place(w, local, sizeof(local));
	end_words(ev, ts, kref, th, flags, nref);
	return ev_done(w, ev, local, FXT_END_WORDS);
}

/* A BEGIN record through pts_writer_emit: written, and pushed on t's stack. */
static int record_begin(struct pts_writer *w, const struct pts_tl_rec *rec,
			struct pts_wthread *t, unsigned int th)
{
	const struct pts_tl_at at = { rec->pid, rec->tid, rec->cpu, rec->ts_ns };
	const struct pts_tl_slice s = {
		rec->name, rec->object, rec->addr, rec->offset, rec->flags, rec->nargs, rec->args, 0, 0,
	};
	uint16_t nref;
	int rc = emit_begin(w, &at, &s, rec->kind, th, &nref) ?: pts_wthread_push(w, t, rec);

	if (!rc) {
		t->frames[t->depth - 1].aux = nref;
		t->frames[t->depth - 1].aux_gen = S(w)->gen;
	}
	return rc;
}

/* An END record through pts_writer_emit: its BEGIN's frame from t's stack. */
static int record_end(struct pts_writer *w, const struct pts_tl_rec *rec,
		      struct pts_wthread *t, unsigned int th)
{
	const struct pts_wframe *fr = &t->frames[t->depth - 1];
	uint16_t nref = (uint16_t)fr->aux;
	char buf[64];
	int rc = 0;

	if (fr->aux_gen != S(w)->gen)
		rc = str_ref_at(w, pts_wframe_name(fr, buf, sizeof(buf)), fr->name != NULL, &nref);
	rc = rc ?: emit_end(w, rec->ts_ns, rec->kind, th, fr->flags, nref);
	if (!rc)
		pts_wthread_pop(t);
	return rc;
}

static int emit_instant(struct pts_writer *w, const struct pts_tl_rec *rec, unsigned int th)
{
	struct fxt *f = S(w);
	uint16_t nref, kref;
	unsigned int nargs = 3;	/* addr, kind, cpu */
	int rc;

	rc = kind_ref(w, rec->kind, &kref);
	nref = kref;	/* unnamed instants are called by their kind */
	if (!rc && rec->name && rec->name[0])
		rc = str_ref(w, rec->name, &nref);
	if (rc)
		return rc;
	rec_start(&f->ev);
	put(&f->ev, rec->ts_ns);
	if (rec->detail && rec->detail[0]) {
		arg_inline(w, FX_CAUSE, rec->detail);
		nargs++;
	}
	arg_word(w, FXT_ARG_POINTER, FX_ADDR, rec->addr);
	arg_sref(w, FX_KIND, kref);
	arg_uint(w, FX_CPU, rec->cpu);
	return rec_end(w, &f->ev, FXT_REC_EVENT,
		       ev_fields(FXT_EV_INSTANT, nargs, th, FX_PTSCOPE, nref));
}

static int emit_counter(struct pts_writer *w, const struct pts_tl_rec *rec, unsigned int th)
{
	struct fxt *f = S(w);
	uint16_t nref = FX_COUNTER;
	uint64_t bits;
	int rc = 0;

	if (rec->name && rec->name[0])
		rc = str_ref(w, rec->name, &nref);
	if (rc)
		return rc;
	memcpy(&bits, &rec->value, sizeof(bits));
	rec_start(&f->ev);
	put(&f->ev, rec->ts_ns);
	arg_word(w, FXT_ARG_DOUBLE, FX_VALUE, bits);
	put(&f->ev, rec->cpu);	/* counter id */
	return rec_end(w, &f->ev, FXT_REC_EVENT,
		       ev_fields(FXT_EV_COUNTER, 1, th, FX_PTSCOPE, nref));
}

static int fxt_emit(struct pts_writer *w, const struct pts_tl_rec *rec)
{
	struct fxt *f = S(w);
	struct pts_wthread *t = NULL;
	unsigned int th;
	int rc;

	switch (rec->type) {
	case PTS_TL_PROCESS:
		return kernel_object(w, ZX_OBJ_TYPE_PROCESS, rec->pid, rec->name, 0);
	case PTS_TL_THREAD:
		return kernel_object(w, ZX_OBJ_TYPE_THREAD, rec->tid, rec->name, rec->pid);
	case PTS_TL_BEGIN:
	case PTS_TL_END:
		rc = pts_wthread_enter(w, rec, &t);
		if (rc)
			return rc;
		break;
	case PTS_TL_INSTANT:
	case PTS_TL_COUNTER:
		break;
	default:
		return pts_wfail(w, EINVAL, "unknown timeline record type %d", (int)rec->type);
	}
	reserve_strings(f, rec->type == PTS_TL_BEGIN ? begin_strings(rec->nargs) :
			   FXT_STRINGS_PER_RECORD);
	rc = thread_ref(w, rec->pid, rec->tid, &th);
	if (rc)
		return rc;
	switch (rec->type) {
	case PTS_TL_BEGIN:
		return record_begin(w, rec, t, th);
	case PTS_TL_END:
		return record_end(w, rec, t, th);
	case PTS_TL_INSTANT:
		return emit_instant(w, rec, th);
	default:
		return emit_counter(w, rec, th);
	}
}

/*
 * The frame path (writer.h): the same records as fxt_emit's, without the
 * record, the writer's thread stack and its checks. The BEGIN notes its
 * name's string ref and the table's generation in the slice (wtag), as
 * fxt_emit does in its frame (aux, aux_gen); an END whose slice has none
 * (0: the generation starts at 1), or an older one, looks the name up.
 * A sticky error needs no test on entry: every record ends in
 * pts_wout_room or pts_wout, which answer with it (nothing more is
 * written), and pts_wframe_failed reports it.
 */
/*
 * What a BEGIN notes in its slice (wtag) for the END: the name's string
 * ref nref and the table's generation, which says whether nref is still
 * the name's.
 */
static inline uint64_t wtag_of(const struct fxt *f, uint16_t nref)
{
	return f->gen << 16 | nref;
}

/* ---- BEGIN templates (struct fxt_tmpl) -------------------------------- */

/* The template slot of the slices of id: ids count up, slots in turn. */
static inline struct fxt_tmpl *tmpl_slot(struct fxt *f, uint64_t id)
{
	return &f->tmpl[id & (FXT_TMPL_SIZE - 1)];
}

/*
 * May the BEGIN of slice s (kind: why) be written from a template? An
 * id, its strings interned (the same pointers, the same strings), a name
 * of at least a byte, no extra arguments, a kind with a fixed string.
 */
static bool tmpl_fits(const struct pts_writer *w, const struct pts_tl_slice *s,
		      enum pts_tl_kind kind)
{
	return s->id && w->interned && s->name && s->name[0] && !s->nargs &&
	       (unsigned int)kind < FXT_KIND_COUNT;
}

/*
 * The template of slice s (tmpl_fits), made in its slot if not there:
 * its name's and object's string records are written now if new, as
 * emit_begin writes them, and the words are begin_words', so a BEGIN
 * from it is what emit_begin writes.
 */
static int tmpl_get(struct pts_writer *w, const struct pts_tl_slice *s, struct fxt_tmpl **out)
{
	static const struct pts_tl_at zero;
	struct fxt_tmpl *t = tmpl_slot(S(w), s->id);
	uint16_t nref, oref = 0;
	unsigned int n, nargs, kpos;
	int rc;

	*out = t;
	if (t->id == s->id)
		return 0;
	rc = str_ref(w, s->name, &nref) ?: str_ref(w, s->object, &oref);
	if (rc)
		return rc;
	memset(t->w, 0, sizeof(t->w));
	n = begin_words((char *)t->w, &zero, s, named_symbol(s), nref, oref, 0, &nargs, &kpos);
	begin_header((char *)t->w, n, nargs, 0, s->flags, nref);
	/* this BEGIN's words all the same; kept only while there is room */
	t->id = S(w)->gen_ready != GEN_NONE ? s->id : TMPL_NONE;
	t->wtag = wtag_of(S(w), nref);
	t->n = (uint8_t)n;
	t->kpos = (uint8_t)kpos;
	return 0;
}

/* Word i at ev, copied there, ORed with v: read back, not from the template (one address less). */
static inline void or_word(char *ev, unsigned int i, uint64_t v)
{
	uint64_t x;

	memcpy(&x, ev + 8 * (size_t)i, sizeof(x));
	put_word(ev, i, le64toh(x) | v);
}

/*
 * The BEGIN at at (kind: why) on thread ref th from template t, at ev
 * with room for FXT_TMPL_WORDS words: t's words, the time, and what
 * begin_words and begin_header OR into them. Returns its words.
 */
static inline unsigned int begin_from(char *ev, const struct fxt_tmpl *t,
				      const struct pts_tl_at *at, enum pts_tl_kind kind,
				      unsigned int th)
{
	/* read before the copy: after its stores (to t, for all the compiler knows) a load again */
	unsigned int k = t->kpos, n = t->n;

	memcpy(ev, t->w, sizeof(t->w));
	or_word(ev, 0, (uint64_t)th << 24);
	put_word(ev, 1, at->ts_ns);
	or_word(ev, k, (uint64_t)(FX_KINDS + kind) << 32);
	or_word(ev, k + 1u, (uint64_t)at->cpu << 32);
	return n;
}

/* A BEGIN that tmpl_fits, on thread ref th; *nref: its name's string ref. */
static int emit_begin_tmpl(struct pts_writer *w, const struct pts_tl_at *at,
			   const struct pts_tl_slice *s, enum pts_tl_kind kind, unsigned int th,
			   uint16_t *nref)
{
	char local[FXT_TMPL_WORDS * 8], *ev;
	struct fxt_tmpl *t;
	int rc = tmpl_get(w, s, &t);

	if (rc)
		return rc;
	*nref = (uint16_t)t->wtag;
	ev = ev_place(w, local, sizeof(local));
	return ev_done(w, ev, local, begin_from(ev, t, at, kind, th));
}

/* ---- the frame path -------------------------------------------------- */

/* fxt_frame_begin of any BEGIN: the string table reserved, the thread and the strings looked up. */
static __attribute__((noinline)) int frame_begin_any(struct pts_writer *w,
						     const struct pts_tl_at *at,
						     struct pts_tl_slice *s, enum pts_tl_kind kind,
						     struct pts_err *err)
{
	uint16_t nref;
	unsigned int th;
	int rc;

	reserve_strings(S(w), begin_strings(s->nargs));
	rc = thread_ref(w, at->pid, at->tid, &th);
	if (!rc)
		rc = tmpl_fits(w, s, kind) ? emit_begin_tmpl(w, at, s, kind, th, &nref) :
					     emit_begin(w, at, s, kind, th, &nref);
	if (rc)
		return pts_wframe_failed(w, rc, err);
	s->wtag = wtag_of(S(w), nref);
	return 0;
}

/*
 * The common BEGIN decided without a call, so without saving registers:
 * the thread of the record before, the template of the slice's id made
 * (which says its strings are interned and known, no extra arguments,
 * and no recycling of the string table due: gen_ready), room in the
 * output buffer. The kind has its fixed string (writer.h: one of enum
 * pts_tl_kind). What frame_begin_any would write then.
 */
static int fxt_frame_begin(struct pts_writer *w, const struct pts_tl_at *at,
			   struct pts_tl_slice *s, enum pts_tl_kind kind, struct pts_err *err)
{
	struct fxt *f = S(w);
	const struct fxt_tmpl *t = tmpl_slot(f, s->id);
	char *ev;

	/* an id of 0 is no template's: an empty one's is TMPL_NONE */
	if (!is_last_thread(f, at->pid, at->tid) || t->id != s->id ||
	    !pts_wout_fits(w, FXT_TMPL_WORDS * 8))
		return frame_begin_any(w, at, s, kind, err);
	/* first: after the copy's stores (to s, for all the compiler knows) t again */
	s->wtag = t->wtag;
	ev = pts_wout_end(w);
	pts_wout_commit(w, begin_from(ev, t, at, kind, f->last_thread) * 8u);
	return 0;
}

/* fxt_frame_end of any END: the string table reserved, the thread and the names looked up. */
static __attribute__((noinline)) int frame_end_any(struct pts_writer *w, const struct pts_tl_at *at,
						   const struct pts_tl_slice *s,
						   enum pts_tl_kind kind, struct pts_err *err)
{
	uint16_t nref;
	unsigned int th;
	char buf[64];
	int rc;

	reserve_strings(S(w), FXT_STRINGS_PER_RECORD);
	rc = thread_ref(w, at->pid, at->tid, &th);
	nref = (uint16_t)s->wtag;
	if (!rc && s->wtag >> 16 != S(w)->gen)
		rc = name_ref(w, s, buf, sizeof(buf), &nref);
	rc = rc ?: emit_end(w, at->ts_ns, kind, th, s->flags, nref);
	return rc ? pts_wframe_failed(w, rc, err) : 0;
}

/*
 * The common END decided without a call, so without saving registers
 * (about half its instructions): the thread of the record before, the
 * BEGIN's name ref still valid and no recycling of the string table due
 * (one compare with gen_ready), room in the output buffer; the kind has
 * its fixed string (writer.h). What frame_end_any would write then.
 */
static int fxt_frame_end(struct pts_writer *w, const struct pts_tl_at *at,
			 const struct pts_tl_slice *s, enum pts_tl_kind kind, struct pts_err *err)
{
	struct fxt *f = S(w);
	char *ev;

	if (!is_last_thread(f, at->pid, at->tid) || s->wtag >> 16 != f->gen_ready ||
	    !pts_wout_fits(w, FXT_END_WORDS * 8))
		return frame_end_any(w, at, s, kind, err);
	ev = pts_wout_end(w);
	end_words(ev, at->ts_ns, (uint16_t)(FX_KINDS + kind), f->last_thread, s->flags,
		  (uint16_t)s->wtag);
	pts_wout_commit(w, FXT_END_WORDS * 8);
	return 0;
}

static const struct pts_writer_frames fxt_frames = {
	.begin = fxt_frame_begin,
	.end = fxt_frame_end,
};

static int fxt_start(struct pts_writer *w)
{
	static const char provider[] = "ptscope";
	struct fxt *f = S(w);
	uint16_t i;
	int rc;

	f->next_thread = 1;
	f->gen = 1;	/* frames start at 0: never a match */
	tmpl_forget(f);
	/* magic number record: a fixed 8-byte value, first in the file */
	rec_start(&f->ev);
	rc = rec_end(w, &f->ev, FXT_REC_METADATA, (uint64_t)FXT_META_TRACE_INFO << 16 |
		     (uint64_t)FXT_TRACE_INFO_MAGIC << 20 | (uint64_t)FXT_MAGIC << 24);
	if (rc)
		return rc;
	rec_start(&f->ev);
	put_stream(&f->ev, provider, sizeof(provider) - 1);
	rc = rec_end(w, &f->ev, FXT_REC_METADATA, (uint64_t)FXT_META_PROVIDER_INFO << 16 |
		     (uint64_t)FXT_PROVIDER_ID << 20 | (uint64_t)(sizeof(provider) - 1) << 52);
	if (rc)
		return rc;
	rec_start(&f->ev);
	put(&f->ev, FXT_TICKS_PER_SECOND);
	rc = rec_end(w, &f->ev, FXT_REC_INIT, 0);
	for (i = 1; !rc && i < FX_KINDS; i++)
		rc = string_record(w, i, fixed_strings[i]);
	for (i = 0; !rc && i < FXT_KIND_COUNT; i++)
		rc = string_record(w, (uint16_t)(FX_KINDS + i), pts_tl_kind_name((enum pts_tl_kind)i));
	f->next_str = FXT_FIXED + 1;
	strings_counted(f);
	return rc;
}

static void fxt_free(struct pts_writer *w)
{
	struct fxt *f = S(w);

	if (!f)
		return;
	pts_hmap_clear(&f->strings, NULL);
	free(f->strings.slots);
}

const struct pts_writer_ops pts_writer_fxt_ops = {
	.name = "fxt",
	.state_size = sizeof(struct fxt),
	.start = fxt_start,
	.emit = fxt_emit,
	.frames = &fxt_frames,
	.free = fxt_free,
};
