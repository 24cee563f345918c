// SPDX-License-Identifier: GPL-2.0
/*
 * Timeline builder: per-thread call stacks from branch events. See
 * timeline.h for the semantics; this file keeps them in one place.
 */
#include "timeline.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strpool.h"
#include "../util/hmap.h"

struct fn {
	const char *name;	/* interned; "[unknown] 0x... (obj)" for unknown code */
	const char *object;	/* interned or NULL */
	uint64_t start, size;
	bool known;
	bool kernel;
};

struct frame {
	struct fn fn;
	/*
	 * The slice the frame's BEGIN and END records say (writer.h): fn's
	 * name and object, where the frame was entered (s.addr), PTS_TLF_*
	 * (s.flags); set at the push, handed to a writer's frame path as is.
	 */
	struct pts_tl_slice s;
	/*
	 * The return address saved by the call (or syscall, or interrupt)
	 * that opened the frame: a return to it ends this frame. 0 unknown
	 * (frames opened at trace start, after a gap, inferred, synthetic):
	 * returns are then matched by the function of the frame below.
	 */
	uint64_t ret;
	/*
	 * Where the thread resumes when the kernel is done, 0 unknown. A
	 * synthetic slice of untraced kernel time: after the syscall, or
	 * the interrupted IP. A signal handler's frame (and the restorer
	 * that replaces it, __restore_rt): that point of the code the
	 * signal interrupted, where rt_sigreturn resumes; tracing resuming
	 * there ends the frame and those above it.
	 */
	uint64_t resume;
	/*
	 * fn.size if execution inside [fn.start, fn.start + fn.size) stays
	 * in this frame (a known function of known size, not synthetic),
	 * else 0: the one test per branch of in_top_fn and set_elide.
	 */
	uint64_t span;
};

/*
 * Frames and held records a thread starts with, doubled as needed: a
 * trace can hold 10^5 threads or more, most of which run a little, so a
 * thread costs a few hundred bytes until it does more.
 */
#define THREAD_CAP0 4

/* The first kernel address: pts_addr_is_kernel(a) is a >= KERNEL_HALF. */
#define KERNEL_HALF (1ULL << 47)

struct thread {
	/*
	 * pid, tid; the CPU of the last event and its time (ns), clamped
	 * to never go back: every record's thread and time (the writers'
	 * frame path takes it as it is).
	 */
	struct pts_tl_at at;
	const char *name;
	bool announced;
	struct frame *frames;
	uint32_t n, cap;
	uint32_t excess;	/* calls beyond max_depth not shown */
	bool have_ts;
	/* records of the current segment not yet written */
	struct pts_tl_rec *buf;
	size_t nbuf, bufcap;
	/*
	 * The BEGIN of the outermost open frame: its index in buf (-1 once
	 * written out; else below nbuf) and time. An inferred outer frame is
	 * inserted there.
	 */
	long bottom_idx;
	uint64_t bottom_ts;
	/*
	 * Scope kernel: that frame (or the run of tail calls replacing it)
	 * is a kernel entry from user mode. Nothing ran below it in the
	 * kernel, so no inferred frame encloses it.
	 */
	bool bottom_user_entry;
	/*
	 * Scope kernel: that entry is entry_SYSCALL_64 and no syscall
	 * handler has been called in it yet (kernel_entry_label).
	 */
	bool bottom_syscall;
	struct pts_tl_thread_stats st;
};

/*
 * Symbolization cache: calls and returns go to the same few thousand
 * addresses all through a trace, and each lookup costs a map search, a
 * symbol search and two string interns. Direct-mapped by (pid, addr);
 * LCACHE_SIZE is a power of two.
 */
#define LCACHE_SIZE 4096

struct lcache_ent {
	uint64_t addr;
	int32_t pid;
	bool valid;
	struct fn fn;
};

struct pts_tl {
	struct pts_tl_config cfg;
	struct lcache_ent lcache[LCACHE_SIZE];
	struct pts_strpool *pool;
	struct thread **th;	/* in order of first event (pts_tl_thread_stats) */
	size_t nth, capth;
	struct pts_hmap by_id;	/* (pid, tid) -> struct thread: no scan per event */
	struct thread *last;
	struct pts_br_elide elide;	/* see pts_tl_elide */
	struct pts_hmap pids;	/* processes announced (keys only) */
	/*
	 * The output when it is a writer with a frame path (cfg.emit is
	 * pts_writer_sink): every BEGIN and END goes there, the rest
	 * through cfg.emit. NULL otherwise.
	 */
	struct pts_writer *w;
	struct pts_writer_frames wf;
	/*
	 * The addresses the scope cannot hold, [oos_lo, oos_lo + oos_len):
	 * the kernel half in scope user, the user half but 0 (no address)
	 * in scope kernel, none in scope both (check_scope).
	 */
	uint64_t oos_lo, oos_len;
	uint64_t diag[PTS_TLD_NR];
};

static const char *const diag_names[PTS_TLD_NR] = {
	[PTS_TLD_TIME_BACKWARDS] = "time going backwards (clamped)",
	[PTS_TLD_OUT_OF_SCOPE] = "event impossible in the recorded scope",
	[PTS_TLD_DISABLE_WITHOUT_ENABLE] = "tracing disabled without a matching enable",
	[PTS_TLD_EVENT_WHILE_DISABLED] = "branch while tracing was off",
	[PTS_TLD_FELL_THROUGH] = "moved to another function without a branch",
	[PTS_TLD_INFERRED] = "return past the known stack (inferred frame)",
	[PTS_TLD_INFERRED_LATE] =
		"inferred frame opened late (segment already written, or past a kernel entry from user mode)",
	[PTS_TLD_TOO_DEEP] = "calls beyond the maximum stack depth",
	[PTS_TLD_UNKNOWN_TARGET] = "branch with an unknown target",
	[PTS_TLD_RETURN_AS_JUMP] = "return to no open frame's return address (taken as a jump)",
	[PTS_TLD_KERNEL_LEFT_OPEN] = "kernel frames left open at a return to user (closed)",
};

const char *pts_tl_diag_name(enum pts_tl_diag d)
{
	return (unsigned int)d < PTS_TLD_NR ? diag_names[d] : "?";
}

int pts_tl_new(const struct pts_tl_config *cfg, struct pts_tl **out, struct pts_err *err)
{
	struct pts_tl *tl;

	if (!cfg || !cfg->emit)
		return pts_err_set(err, EINVAL, "timeline: no output given");
	tl = calloc(1, sizeof(*tl));
	if (!tl)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	tl->cfg = *cfg;
	if (cfg->scope == PTS_SCOPE_USER) {
		tl->oos_lo = KERNEL_HALF;
		tl->oos_len = 0 - KERNEL_HALF;
	} else if (cfg->scope == PTS_SCOPE_KERNEL) {
		tl->oos_lo = 1;
		tl->oos_len = KERNEL_HALF - 1;
	}
	if (cfg->emit == pts_writer_sink && pts_writer_frames(cfg->emit_ctx)) {
		tl->w = cfg->emit_ctx;
		tl->wf = *pts_writer_frames(tl->w);
	}
	if (!tl->cfg.max_depth)
		tl->cfg.max_depth = 512;
	if (!tl->cfg.segment_cap)
		tl->cfg.segment_cap = 1024;
	tl->pool = pts_strpool_new();
	if (!tl->pool) {
		free(tl);
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	}
	*out = tl;
	return 0;
}

static void thread_free(struct thread *t)
{
	free(t->frames);
	free(t->buf);
	free(t);
}

void pts_tl_free(struct pts_tl *tl)
{
	size_t i;

	if (!tl)
		return;
	for (i = 0; i < tl->nth; i++)
		thread_free(tl->th[i]);
	free(tl->th);
	pts_hmap_free(&tl->by_id, NULL);
	pts_hmap_free(&tl->pids, NULL);
	pts_strpool_free(tl->pool);
	free(tl);
}

static const char *intern(struct pts_tl *tl, const char *s)
{
	return pts_strpool_intern(tl->pool, s);
}

static struct thread *thread_find(struct pts_tl *tl, int32_t pid, int32_t tid)
{
	int32_t key[2] = { pid, tid };
	struct pts_hent *e;

	if (tl->last && tl->last->at.tid == tid && tl->last->at.pid == pid)
		return tl->last;
	e = pts_hmap_find(&tl->by_id, key, sizeof(key));
	return e ? (tl->last = e->v.p) : NULL;
}

static struct thread *thread_add(struct pts_tl *tl, int32_t pid, int32_t tid)
{
	int32_t key[2] = { pid, tid };
	struct thread *t = thread_find(tl, pid, tid);
	struct pts_hent *e;
	bool created;

	if (t)
		return t;
	if (tl->nth == tl->capth) {
		size_t nc = tl->capth ? tl->capth * 2 : 16;
		struct thread **nt = realloc(tl->th, nc * sizeof(*nt));

		if (!nt)
			return NULL;
		tl->th = nt;
		tl->capth = nc;
	}
	t = calloc(1, sizeof(*t));
	e = t ? pts_hmap_get(&tl->by_id, key, sizeof(key), &created) : NULL;
	if (!e) {
		free(t);
		return NULL;
	}
	e->v.p = t;
	t->at.pid = pid;
	t->at.tid = tid;
	t->st.pid = pid;
	t->st.tid = tid;
	t->bottom_idx = -1;
	tl->th[tl->nth++] = t;
	return tl->last = t;
}

/* The thread pid/tid, created if new; NULL on -ENOMEM. Inline: nearly always the last one. */
static inline struct thread *thread_get(struct pts_tl *tl, int32_t pid, int32_t tid)
{
	struct thread *t = tl->last;

	if (t && t->at.tid == tid && t->at.pid == pid)
		return t;
	return thread_add(tl, pid, tid);
}

/* A BEGIN or END record through the writer's frame path (pts_tl_new). */
static int emit_frame(struct pts_tl *tl, const struct pts_tl_rec *r, struct pts_err *err)
{
	const struct pts_tl_at at = { r->pid, r->tid, r->cpu, r->ts_ns };
	struct pts_tl_slice s = {
		r->name, r->object, r->addr, r->offset, r->flags, r->nargs, r->args, 0,
	};

	if (r->type == PTS_TL_BEGIN)
		return tl->wf.begin(tl->w, &at, &s, r->kind, err);
	return tl->wf.end(tl->w, &at, &s, r->kind, err);
}

/* Write r: every BEGIN and END through the frame path when there is one. */
static int emit(struct pts_tl *tl, const struct pts_tl_rec *r, struct pts_err *err)
{
	if (tl->w && (r->type == PTS_TL_BEGIN || r->type == PTS_TL_END))
		return emit_frame(tl, r, err);
	return tl->cfg.emit(tl->cfg.emit_ctx, r, err);
}

static int announce(struct pts_tl *tl, struct thread *t, struct pts_err *err)
{
	struct pts_tl_rec r;
	bool created;
	int rc;

	if (t->announced)
		return 0;
	if (!pts_hmap_get(&tl->pids, &t->at.pid, sizeof(t->at.pid), &created))
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	if (created) {
		struct thread *leader = thread_find(tl, t->at.pid, t->at.pid);

		memset(&r, 0, sizeof(r));
		r.type = PTS_TL_PROCESS;
		r.pid = t->at.pid;
		r.tid = t->at.pid;
		r.name = leader && leader->name ? leader->name : t->name;
		rc = emit(tl, &r, err);
		if (rc)
			return rc;
		tl->last = t;
	}
	memset(&r, 0, sizeof(r));
	r.type = PTS_TL_THREAD;
	r.pid = t->at.pid;
	r.tid = t->at.tid;
	r.name = t->name;
	t->announced = true;
	return emit(tl, &r, err);
}

int pts_tl_set_name(struct pts_tl *tl, int32_t pid, int32_t tid, const char *name,
		    struct pts_err *err)
{
	struct thread *t;
	const char *n = intern(tl, name);

	if (!n)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	if (tid == 0)
		tid = pid;
	t = thread_get(tl, pid, tid);
	if (!t)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	if (t->name == n)
		return 0;
	t->name = n;
	t->st.name = n;
	if (t->announced) {
		struct pts_tl_rec r;

		memset(&r, 0, sizeof(r));
		r.type = PTS_TL_THREAD;
		r.pid = pid;
		r.tid = tid;
		r.name = n;
		return emit(tl, &r, err);
	}
	return 0;
}

static int flush(struct pts_tl *tl, struct thread *t, struct pts_err *err)
{
	size_t i;
	int rc;

	for (i = 0; i < t->nbuf; i++) {
		rc = emit(tl, &t->buf[i], err);
		if (rc)
			return rc;
	}
	t->nbuf = 0;
	t->bottom_idx = -1;
	return 0;
}

/*
 * Write the held records before the outermost open frame's BEGIN: an
 * inferred outer frame is only ever inserted at that BEGIN, so they are
 * final. Keeps the BEGIN and what follows.
 */
static int flush_before_bottom(struct pts_tl *tl, struct thread *t, struct pts_err *err)
{
	size_t i, b = (size_t)t->bottom_idx;
	int rc;

	for (i = 0; i < b; i++) {
		rc = emit(tl, &t->buf[i], err);
		if (rc)
			return rc;
	}
	memmove(&t->buf[0], &t->buf[b], (t->nbuf - b) * sizeof(*t->buf));
	t->nbuf -= b;
	t->bottom_idx = 0;
	return 0;
}

/* Room for one more held record (grows by doubling up to segment_cap). */
static int buf_room(struct pts_tl *tl, struct thread *t)
{
	struct pts_tl_rec *nb;
	size_t nc;

	if (t->nbuf < t->bufcap)
		return 0;
	nc = t->bufcap ? t->bufcap * 2 : THREAD_CAP0;
	if (nc > tl->cfg.segment_cap)
		nc = tl->cfg.segment_cap;
	nb = realloc(t->buf, nc * sizeof(*nb));
	if (!nb)
		return -ENOMEM;
	t->buf = nb;
	t->bufcap = nc;
	return 0;
}

/* Does r open a new outermost frame (depth 0, not a tail call replacing one)? */
static bool is_bottom_begin(const struct pts_tl_rec *r)
{
	return r->type == PTS_TL_BEGIN && !r->depth && r->kind != PTS_TLK_JUMP;
}

/* put, when records are held or r is an outermost BEGIN (held, see put) */
static int put_held(struct pts_tl *tl, struct thread *t, struct pts_tl_rec *r,
		    struct pts_err *err)
{
	int rc;

	if (t->nbuf == tl->cfg.segment_cap) {
		rc = t->bottom_idx > 0 ? flush_before_bottom(tl, t, err) : flush(tl, t, err);
		if (rc)
			return rc;
	}
	if (!t->nbuf && t->bottom_idx < 0 && !is_bottom_begin(r))
		return emit(tl, r, err);
	if (buf_room(tl, t))
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	t->buf[t->nbuf++] = *r;
	return 0;
}

/*
 * Hold a record in the thread's segment buffer (writing it out when full).
 * Nothing held and no outermost BEGIN to insert an inferred frame under
 * (it was written, or the stack is empty): the record is final, written
 * now. The BEGIN of a new outermost frame (depth 0, not a tail call
 * replacing it) is held: push marks it the bottom. Inline: the common case
 * of every call and return is the write.
 */
static inline int put(struct pts_tl *tl, struct thread *t, struct pts_tl_rec *r,
		      struct pts_err *err)
{
	r->pid = t->at.pid;
	r->tid = t->at.tid;
	r->cpu = t->at.cpu;
	r->ts_ns = t->at.ts_ns;
	if (!t->nbuf && t->bottom_idx < 0 && !is_bottom_begin(r))
		return emit(tl, r, err);
	return put_held(tl, t, r, err);
}

/*
 * *to = *from, field by field: the structure copy of a cache hit became a
 * `rep movs` (slow to start, and 11 instructions counted) in pts_tl_feed.
 */
static inline void fn_copy(struct fn *to, const struct fn *from)
{
	to->name = from->name;
	to->object = from->object;
	to->start = from->start;
	to->size = from->size;
	to->known = from->known;
	to->kernel = from->kernel;
}

/* The lcache slot of (pid, addr). */
static struct lcache_ent *lcache_slot(struct pts_tl *tl, int32_t pid, uint64_t addr)
{
	return &tl->lcache[(addr ^ (addr >> 13) ^ (uint64_t)(uint32_t)pid) & (LCACHE_SIZE - 1)];
}

/* lookup without a remembered answer: ask the hint or the symbolizer */
static void lookup_slow(struct pts_tl *tl, struct thread *t, uint64_t addr,
			const struct pts_br_sym *hint, struct fn *out)
{
	struct pts_sym_info si;
	struct lcache_ent *c = NULL;
	char buf[256];

	if (!(hint && hint->name) && tl->cfg.symbolize)
		c = lcache_slot(tl, t->at.pid, addr);
	memset(out, 0, sizeof(*out));
	out->kernel = pts_addr_is_kernel(addr);
	memset(&si, 0, sizeof(si));
	if (hint && hint->name) {
		si.name = hint->name;
		si.start = hint->start;
		si.object = hint->object;
	} else if (tl->cfg.symbolize) {
		tl->cfg.symbolize(tl->cfg.sym_ctx, t->at.pid, addr, &si);
	}
	out->object = intern(tl, si.object);
	if (si.name) {
		out->name = intern(tl, si.name);
		out->start = si.start;
		out->size = si.size;
		out->known = true;
	} else {
		if (si.object)
			snprintf(buf, sizeof(buf), "[unknown] 0x%" PRIx64 " (%s)", addr, si.object);
		else
			snprintf(buf, sizeof(buf), "[unknown] 0x%" PRIx64, addr);
		out->name = intern(tl, buf);
		out->start = addr;
	}
	/* an intern that failed (ENOMEM) is not remembered */
	if (c && out->name && (!si.object || out->object)) {
		c->valid = true;
		c->addr = addr;
		c->pid = t->at.pid;
		c->fn = *out;
	}
}

/*
 * The function holding addr in t's address space (hint: the decoder's
 * symbol, if it has one). Inline: nearly every answer is remembered.
 */
static inline void lookup(struct pts_tl *tl, struct thread *t, uint64_t addr,
			  const struct pts_br_sym *hint, struct fn *out)
{
	const struct lcache_ent *c;

	if (!(hint && hint->name) && tl->cfg.symbolize) {
		c = lcache_slot(tl, t->at.pid, addr);
		if (c->valid && c->addr == addr && c->pid == t->at.pid) {
			fn_copy(out, &c->fn);
			return;
		}
	}
	lookup_slow(tl, t, addr, hint, out);
}

/*
 * lookup without the copy: the remembered answer in place (valid until
 * the next lookup, which may reuse its slot), else the answer in *buf.
 */
static inline const struct fn *lookup_ref(struct pts_tl *tl, struct thread *t, uint64_t addr,
					  const struct pts_br_sym *hint, struct fn *buf)
{
	const struct lcache_ent *c;

	if (!(hint && hint->name) && tl->cfg.symbolize) {
		c = lcache_slot(tl, t->at.pid, addr);
		if (c->valid && c->addr == addr && c->pid == t->at.pid)
			return &c->fn;
	}
	lookup_slow(tl, t, addr, hint, buf);
	return buf;
}

static bool same_fn(const struct frame *f, const struct fn *fn)
{
	if (f->s.flags & PTS_TLF_SYNTHETIC)
		return false;
	if (f->fn.known != fn->known)
		return false;
	if (fn->known)
		return f->fn.start == fn->start && f->fn.name == fn->name;
	/* unknown code: one frame per object and privilege level */
	return f->fn.object == fn->object && f->fn.kernel == fn->kernel;
}

/* Quick test whether addr lies in the top frame's function (no lookup). */
static bool in_top_fn(struct thread *t, uint64_t addr)
{
	struct frame *f;

	if (!t->n)
		return false;
	f = &t->frames[t->n - 1];
	return addr - f->fn.start < f->span;
}

/* A new frame's span (struct frame), from its fn and flags. */
static uint64_t frame_span(const struct fn *fn, uint32_t flags)
{
	return fn->known && !(flags & PTS_TLF_SYNTHETIC) ? fn->size : 0;
}

/*
 * The BEGIN or END record (type) of frame f at depth: every field but the
 * thread's (pid, tid, cpu, time: put). Set one by one, not cleared first:
 * two of these per call.
 */
static void rec_from_frame(struct pts_tl_rec *r, enum pts_tl_type type, enum pts_tl_kind kind,
			   const struct frame *f, uint32_t depth)
{
	r->type = type;
	r->kind = kind;
	r->detail = NULL;
	r->args = NULL;
	r->nargs = 0;
	r->value = 0;
	r->name = f->s.name;
	r->object = f->s.object;
	r->addr = f->s.addr;
	r->offset = f->s.offset;
	r->flags = f->s.flags;
	r->depth = depth;
}

/*
 * A frame's flags: the caller's (PTS_TLF_INFERRED, PTS_TLF_SYNTHETIC)
 * and what fn says. Code no symbol covers is named by lookup, not by a
 * symbol: PTS_TLF_UNKNOWN tells the writers so. A synthetic slice has no
 * symbol either but is named for what it stands for.
 */
static uint32_t frame_flags(const struct fn *fn, uint32_t flags)
{
	if (fn->kernel)
		flags |= PTS_TLF_KERNEL;
	if (!fn->known && !(flags & PTS_TLF_SYNTHETIC))
		flags |= PTS_TLF_UNKNOWN;
	return flags;
}

/*
 * Frame f for fn, entered at addr (ret: struct frame), with the caller's
 * flags (frame_flags): its slice is its BEGIN's and END's.
 */
static inline __attribute__((always_inline)) void
frame_set(struct frame *f, const struct fn *fn, uint64_t addr, uint64_t ret, uint32_t flags)
{
	f->fn = *fn;
	f->ret = ret;
	f->resume = 0;
	f->s.name = fn->name;
	f->s.object = fn->object;
	f->s.addr = addr;
	f->s.offset = fn->known ? addr - fn->start : 0;
	f->s.flags = frame_flags(fn, flags);
	f->s.nargs = 0;
	f->s.args = NULL;
	f->s.wtag = 0;
	f->span = frame_span(fn, f->s.flags);
}

/*
 * The BEGIN or END (type) of frame f at depth, as put writes it. A record
 * put would write at once goes to a writer's frame path when the builder
 * has one (pts_tl_new): no record is built. Inline: one per call and one
 * per return.
 */
static inline int put_frame(struct pts_tl *tl, struct thread *t, enum pts_tl_type type,
			    enum pts_tl_kind kind, struct frame *f, uint32_t depth,
			    struct pts_err *err)
{
	struct pts_tl_rec r;

	/* nothing held (and so no BEGIN held as the bottom: bottom_idx < nbuf) */
	if (tl->w && !t->nbuf) {
		if (type == PTS_TL_END)
			return tl->wf.end(tl->w, &t->at, &f->s, kind, err);
		if (depth || kind == PTS_TLK_JUMP)	/* not is_bottom_begin */
			return tl->wf.begin(tl->w, &t->at, &f->s, kind, err);
	}
	rec_from_frame(&r, type, kind, f, depth);
	return put(tl, t, &r, err);
}

/*
 * Scope kernel: fn is entered in the kernel entry from user mode that is
 * the thread's outermost frame. The first syscall handler called there
 * (__x64_sys_NAME) names the syscall the trace shows: the entry's held
 * BEGIN takes the matching record's arguments (klabel.h,
 * pts_kl_match_handler). Once its BEGIN was written, nothing is matched.
 */
static void kernel_entry_label(struct pts_tl *tl, struct thread *t, const struct fn *fn)
{
	struct pts_tl_rec *b;
	const struct pts_kl_rec *r;

	if (!fn->known || strncmp(fn->name, "__x64_sys_", 10))
		return;
	t->bottom_syscall = false;
	if (t->bottom_idx < 0)
		return;
	b = &t->buf[t->bottom_idx];
	if (b->type != PTS_TL_BEGIN || b->depth)
		return;
	r = pts_kl_match_handler(tl->cfg.labels, t->at.tid, t->bottom_ts, fn->name);
	if (r)
		b->args = pts_kl_args(r, &b->nargs);
}

/* label: the record whose arguments the BEGIN carries (klabel.h), or NULL */
static int push_labelled(struct pts_tl *tl, struct thread *t, const struct fn *fn, uint64_t addr,
			 uint64_t ret, uint32_t flags, enum pts_tl_kind kind,
			 const struct pts_kl_rec *label, struct pts_err *err)
{
	struct pts_tl_rec r;
	struct frame *f;
	int rc;

	if (t->n >= tl->cfg.max_depth) {
		t->excess++;
		tl->diag[PTS_TLD_TOO_DEEP]++;
		return 0;
	}
	if (t->n == t->cap) {
		uint32_t nc = t->cap ? t->cap * 2 : THREAD_CAP0;
		struct frame *nf = realloc(t->frames, nc * sizeof(*nf));

		if (!nf)
			return pts_err_set(err, ENOMEM, "timeline: out of memory");
		t->frames = nf;
		t->cap = nc;
	}
	f = &t->frames[t->n];
	frame_set(f, fn, addr, ret, flags);
	t->n++;
	if (t->bottom_syscall)
		kernel_entry_label(tl, t, fn);
	if (label) {
		rec_from_frame(&r, PTS_TL_BEGIN, kind, f, t->n - 1);
		r.args = pts_kl_args(label, &r.nargs);
		rc = put(tl, t, &r, err);
	} else {
		rc = put_frame(tl, t, PTS_TL_BEGIN, kind, f, t->n - 1, err);
	}
	/* a tail call replacing the outermost frame keeps its start */
	if (!rc && t->n == 1 && kind != PTS_TLK_JUMP) {
		t->bottom_idx = (long)t->nbuf - 1;
		t->bottom_ts = t->at.ts_ns;
		t->bottom_user_entry = false;
		t->bottom_syscall = false;
	}
	return rc;
}

/*
 * Open a frame for fn entered at addr (ret: struct frame; flags: the
 * caller's, frame_flags). Inline: the common case of a call, a frame on
 * top of others with room for it, is decided here; the rest (the first
 * frame, which becomes the bottom, a stack at max_depth or full, a
 * syscall entry still to be named) in push_labelled.
 */
static inline __attribute__((always_inline)) int
push(struct pts_tl *tl, struct thread *t, const struct fn *fn, uint64_t addr, uint64_t ret,
     uint32_t flags, enum pts_tl_kind kind, struct pts_err *err)
{
	struct frame *f;

	if (!t->n || t->n >= tl->cfg.max_depth || t->n == t->cap || t->bottom_syscall)
		return push_labelled(tl, t, fn, addr, ret, flags, kind, NULL, err);
	f = &t->frames[t->n];
	frame_set(f, fn, addr, ret, flags);
	t->n++;
	return put_frame(tl, t, PTS_TL_BEGIN, kind, f, t->n - 1, err);
}

/* End the top frame (kind: why). Inline: one per return. */
static inline int pop(struct pts_tl *tl, struct thread *t, enum pts_tl_kind kind,
		      struct pts_err *err)
{
	if (t->excess) {
		t->excess--;
		return 0;
	}
	if (!t->n)
		return 0;
	t->n--;
	return put_frame(tl, t, PTS_TL_END, kind, &t->frames[t->n], t->n, err);
}

static int pop_all(struct pts_tl *tl, struct thread *t, enum pts_tl_kind kind,
		   struct pts_err *err)
{
	int rc;

	t->excess = 0;
	while (t->n) {
		rc = pop(tl, t, kind, err);
		if (rc)
			return rc;
	}
	return 0;
}

static bool top_synthetic(struct thread *t)
{
	return t->n && !t->excess && (t->frames[t->n - 1].s.flags & PTS_TLF_SYNTHETIC);
}

/*
 * The name of an untraced stretch of user scope that begins now: its
 * syscall or page-fault record's label when the capture has one that
 * fits (klabel.h: thread, order, time, user IP), else the plain name.
 * ip: the user IP the record must name. Returns name or buf.
 */
static const char *synthetic_label(struct pts_tl *tl, struct thread *t, const char *name,
				   enum pts_kl_kind kind, uint64_t ip, char *buf, size_t len)
{
	const struct pts_kl_rec *r;

	if (!tl->cfg.labels)
		return name;
	r = pts_kl_match(tl->cfg.labels, kind, t->at.tid, t->at.ts_ns, ip);
	return r ? pts_kl_label(r, true, buf, len) : name;
}

/* resume: where the kernel returns to normally (struct frame), 0 unknown */
static int push_synthetic(struct pts_tl *tl, struct thread *t, const char *name, uint64_t addr,
			  uint64_t resume, enum pts_tl_kind kind, struct pts_err *err)
{
	char label[128];
	struct fn fn;
	int rc;

	memset(&fn, 0, sizeof(fn));
	if (!strcmp(name, "[syscall]"))
		name = synthetic_label(tl, t, name, PTS_KL_SYSCALL, resume, label, sizeof(label));
	else if (!strcmp(name, "[interrupted]"))
		name = synthetic_label(tl, t, name, PTS_KL_FAULT, addr, label, sizeof(label));
	fn.name = intern(tl, name);
	fn.kernel = !strcmp(name, "[user]") ? false : tl->cfg.scope != PTS_SCOPE_KERNEL;
	if (!fn.name)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	rc = push(tl, t, &fn, addr, 0, PTS_TLF_SYNTHETIC, kind, err);
	if (!rc && top_synthetic(t))
		t->frames[t->n - 1].resume = resume;
	return rc;
}

/* End an open synthetic slice; the kind says what ended it. */
static int close_synthetic(struct pts_tl *tl, struct thread *t, struct pts_err *err)
{
	const char *n;
	enum pts_tl_kind k = PTS_TLK_TRACE_BEGIN;

	if (!top_synthetic(t))
		return 0;
	n = t->frames[t->n - 1].fn.name;
	/* "[syscall]" or its label "[syscall write → 4096]", "[page fault ...]" */
	if (!strncmp(n, "[syscall", 8))
		k = PTS_TLK_SYSRET;
	else if (!strcmp(n, "[interrupted]") || !strncmp(n, "[page fault ", 12))
		k = PTS_TLK_IRET;
	return pop(tl, t, k, err);
}

/*
 * A return past the known stack: open an outer frame for fn. While the
 * segment's first record is still held, the frame begins at the segment
 * start and every held record moves one level deeper; unless the
 * segment's outermost frame is a kernel entry from user mode (scope
 * kernel), which nothing in the kernel encloses: the return cannot have
 * left it for kernel code (the stack is inconsistent: another task's
 * frames after a switch, a confused unwind), and the frame begins at the
 * return like one whose segment was written.
 */
static int push_inferred(struct pts_tl *tl, struct thread *t, const struct fn *fn, uint64_t addr,
			 struct pts_err *err)
{
	struct pts_tl_rec r;
	struct frame *f;
	size_t i, b;

	tl->diag[PTS_TLD_INFERRED]++;
	if (t->bottom_idx < 0 || t->n || t->excess || t->nbuf >= tl->cfg.segment_cap ||
	    t->bottom_user_entry) {
		tl->diag[PTS_TLD_INFERRED_LATE]++;
		return push(tl, t, fn, addr, 0, PTS_TLF_INFERRED, PTS_TLK_RETURN, err);
	}
	/* scope both: a kernel frame never encloses user frames */
	if (fn->kernel && tl->cfg.scope == PTS_SCOPE_BOTH) {
		for (i = (size_t)t->bottom_idx; i < t->nbuf; i++)
			if (t->buf[i].type == PTS_TL_BEGIN && !(t->buf[i].flags & PTS_TLF_KERNEL))
				return push(tl, t, fn, addr, 0, PTS_TLF_INFERRED, PTS_TLK_RETURN, err);
	}
	if (buf_room(tl, t))
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	if (!t->cap) {
		t->frames = calloc(THREAD_CAP0, sizeof(*t->frames));
		if (!t->frames)
			return pts_err_set(err, ENOMEM, "timeline: out of memory");
		t->cap = THREAD_CAP0;
	}
	f = &t->frames[0];
	frame_set(f, fn, addr, 0, PTS_TLF_INFERRED);
	t->n = 1;
	rec_from_frame(&r, PTS_TL_BEGIN, PTS_TLK_RETURN, f, 0);
	r.pid = t->at.pid;
	r.tid = t->at.tid;
	r.cpu = t->at.cpu;
	r.ts_ns = t->bottom_ts;
	b = (size_t)t->bottom_idx;
	for (i = b; i < t->nbuf; i++)
		if (t->buf[i].type == PTS_TL_BEGIN || t->buf[i].type == PTS_TL_END)
			t->buf[i].depth++;
	memmove(&t->buf[b + 1], &t->buf[b], (t->nbuf - b) * sizeof(*t->buf));
	t->buf[b] = r;
	t->nbuf++;
	return 0;
}

/*
 * The kernel's return thunks: with RETHUNK (retbleed, SRSO mitigations) a
 * function ends in `jmp __x86_return_thunk` instead of `ret`, and the thunk
 * (or srso_return_thunk -> call srso_safe_ret, which drops its own return
 * address) does the function's `ret`. Execution there still belongs to the
 * function that jumped in: no frame of their own.
 */
static bool is_return_thunk(const struct fn *fn)
{
	static const char *const names[] = {
		"__x86_return_thunk", "srso_return_thunk", "srso_safe_ret",
		"srso_alias_return_thunk", "srso_alias_safe_ret", "retbleed_return_thunk",
		"__x86_return_skl", "call_depth_return_thunk",
	};
	size_t i;

	if (!fn->known || !fn->kernel)
		return false;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(fn->name, names[i]))
			return true;
	return false;
}

/*
 * Scope kernel: is fn, where tracing was enabled at addr (TIP.PGE) on an
 * empty stack, a kernel entry from user mode? With only ring 0 traced
 * (SDM "Filtering by Current Privilege Level"), TIP.PGE comes when the CPU
 * enters ring 0, at the first byte of what LSTAR, CSTAR, SYSENTER_EIP or
 * an IDT gate points to; the Linux (5.8+) names of these are entry_*
 * (syscalls) and asm_* (idtentry stubs), plus the per-vector stubs of
 * external interrupts (irq_entries_start, spurious_entries_start, which
 * kallsyms may name __irqentry_text_start), entered at any slot. Tracing
 * switched back on inside the kernel (WRMSR, a resumed task) lands after
 * an instruction, never at such an entry's first byte. Called once per
 * enable, not per branch.
 */
static bool is_user_entry(const struct fn *fn, uint64_t addr)
{
	if (!fn->known || !fn->kernel)
		return false;
	if (addr == fn->start &&
	    (!strncmp(fn->name, "entry_", 6) || !strncmp(fn->name, "asm_", 4)))
		return true;
	return !strcmp(fn->name, "irq_entries_start") ||
	       !strcmp(fn->name, "spurious_entries_start") ||
	       !strcmp(fn->name, "__irqentry_text_start");
}

/* Is addr the first byte of fn (a symbol, not unknown code named by its address)? */
static bool is_fn_entry(const struct fn *fn, uint64_t addr)
{
	return fn->known && addr == fn->start;
}

/* Replace the top frame by fn (tail call): the new frame returns where the old one would. */
static int replace_top(struct pts_tl *tl, struct thread *t, const struct fn *fn, uint64_t addr,
		       enum pts_tl_kind kind, struct pts_err *err)
{
	uint64_t ret = t->n && !t->excess ? t->frames[t->n - 1].ret : 0;
	uint64_t resume = t->n && !t->excess ? t->frames[t->n - 1].resume : 0;
	int rc = pop(tl, t, PTS_TLK_JUMP, err);

	if (!rc)
		rc = push(tl, t, fn, addr, ret, 0, kind, err);
	if (!rc && t->n && !t->excess)
		t->frames[t->n - 1].resume = resume;
	return rc;
}

/* Push the frame of a signal handler (or its restorer) at addr; resume: see struct frame. */
static int push_handler(struct pts_tl *tl, struct thread *t, const struct fn *fn, uint64_t addr,
			uint64_t resume, enum pts_tl_kind kind, struct pts_err *err)
{
	int rc = push(tl, t, fn, addr, 0, 0, kind, err);

	if (!rc && t->n && !t->excess)
		t->frames[t->n - 1].resume = resume;
	return rc;
}

static bool is_handler(const struct frame *f)
{
	return f->resume && !(f->s.flags & PTS_TLF_SYNTHETIC);
}

/*
 * Tracing resumes after kernel time that was to return to resume (0
 * unknown), at addr, the first byte of function fn elsewhere: the kernel
 * delivered a signal (a syscall restart goes back to the syscall, inside
 * a function).
 */
static bool is_delivery(const struct fn *fn, uint64_t addr, uint64_t resume)
{
	return resume && addr != resume && fn->known && addr == fn->start;
}

/*
 * Execution resumes at addr after kernel time that was to return to
 * resume: elsewhere, and a signal handler's frame was opened by a
 * delivery that interrupted addr: rt_sigreturn came back there, that
 * frame and those above it end. True if so. Back at resume itself, the
 * kernel time simply returned (a handler may make the very syscall its
 * signal interrupted).
 */
static bool end_handler_at(struct pts_tl *tl, struct thread *t, uint64_t addr, uint64_t resume,
			   int *rc, struct pts_err *err)
{
	int64_t i;

	if (addr == resume)
		return false;
	for (i = (int64_t)t->n - 1; !t->excess && i >= 0; i--) {
		if (!is_handler(&t->frames[i]) || t->frames[i].resume != addr)
			continue;
		*rc = 0;
		while (!*rc && t->n > (uint32_t)i)
			*rc = pop(tl, t, PTS_TLK_UNWIND, err);
		return true;
	}
	return false;
}

/* ensure_at when execution left the top frame's function (or there is none). */
static int ensure_at_slow(struct pts_tl *tl, struct thread *t, uint64_t addr,
			  const struct pts_br_sym *hint, struct pts_err *err)
{
	struct fn fn;
	int rc;

	if (top_synthetic(t)) {
		tl->diag[PTS_TLD_EVENT_WHILE_DISABLED]++;
		rc = close_synthetic(tl, t, err);
		if (rc)
			return rc;
	}
	lookup(tl, t, addr, hint, &fn);
	if (!t->n && !t->excess)
		return push(tl, t, &fn, addr, 0, 0, PTS_TLK_TRACE_BEGIN, err);
	if (t->excess || same_fn(&t->frames[t->n - 1], &fn) || is_return_thunk(&fn))
		return 0;
	tl->diag[PTS_TLD_FELL_THROUGH]++;
	return replace_top(tl, t, &fn, addr, PTS_TLK_JUMP, err);
}

/*
 * Make sure the top frame is the function holding addr (execution is
 * there). Inline: every branch asks, and nearly always it is.
 */
static inline int ensure_at(struct pts_tl *tl, struct thread *t, uint64_t addr,
			    const struct pts_br_sym *hint, struct pts_err *err)
{
	if (!addr || in_top_fn(t, addr))
		return 0;
	return ensure_at_slow(tl, t, addr, hint, err);
}

/*
 * End frame i (the one the return leaves) and those above it: the top one
 * ends with kind (the instruction executing there returned), the others
 * are unwound.
 */
static int unwind_through(struct pts_tl *tl, struct thread *t, uint32_t i, enum pts_tl_kind kind,
			  struct pts_err *err)
{
	int rc = pop(tl, t, kind, err);

	while (!rc && t->n > i)
		rc = pop(tl, t, PTS_TLK_UNWIND, err);
	return rc;
}

/*
 * Which open frame at index floor or above a return to addr (function fn)
 * ends: the nearest one whose saved return address is addr. by_fn: also,
 * by function, a frame
 * whose return address is unknown (or any frame, if by_fn_everywhere:
 * iret to an exception fixup): it ends when addr lies in the function of
 * the frame below it. -1: none.
 */
static int64_t returning_frame(const struct thread *t, uint32_t floor, uint64_t addr,
			       const struct fn *fn, bool by_fn, bool by_fn_everywhere)
{
	int64_t i;

	for (i = (int64_t)t->n - 1; i >= (int64_t)floor; i--) {
		const struct frame *f = &t->frames[i];

		if (f->ret && f->ret == addr)
			return i;
		if (by_fn && (!f->ret || by_fn_everywhere) && i > (int64_t)floor &&
		    same_fn(&t->frames[i - 1], fn))
			return i;
	}
	return -1;
}

/*
 * Control returns to addr (ret, sysret, iret): end frames down to the one
 * the return leaves (returning_frame); none: a `ret` out of a frame with a
 * known return address is a return used as a jump (retpoline thunk,
 * push+ret) and its target replaces a frame (see below); otherwise end
 * every frame and infer an outer frame (scope both, within the kernel:
 * end the kernel frames and open an inferred one on the user frames).
 */
static int return_to_slow(struct pts_tl *tl, struct thread *t, uint64_t addr,
			  const struct pts_br_sym *hint, enum pts_tl_kind kind, struct pts_err *err)
{
	uint32_t floor = 0;
	struct fn fn;
	bool top_known;
	int64_t i;
	int rc;

	if (t->excess) {
		t->excess--;
		return 0;
	}
	if (!addr) {
		tl->diag[PTS_TLD_UNKNOWN_TARGET]++;
		return pop(tl, t, kind, err);
	}
	/* the common case, a return to where the top frame's call saved: it ends */
	if (t->n && t->frames[t->n - 1].ret == addr)
		return pop(tl, t, kind, err);
	lookup(tl, t, addr, hint, &fn);
	/* scope both: a return within the kernel never ends user frames */
	if (tl->cfg.scope == PTS_SCOPE_BOTH && fn.kernel && t->n &&
	    (t->frames[t->n - 1].s.flags & PTS_TLF_KERNEL)) {
		floor = t->n - 1;
		while (floor && (t->frames[floor - 1].s.flags & PTS_TLF_KERNEL))
			floor--;
	}
	/*
	 * A `ret` out of a frame whose return address is known goes there, or
	 * to another known return address (exceptions, stack switching), or
	 * is not a return at all: a function below the frames of unknown
	 * return address holding the target (the function a retpoline calls)
	 * does not make it one.
	 */
	top_known = kind == PTS_TLK_RETURN && t->n > floor + 1 && t->frames[t->n - 1].ret &&
		    !(t->frames[t->n - 1].s.flags & PTS_TLF_SYNTHETIC);
	i = returning_frame(t, floor, addr, &fn, !top_known, false);
	if (i < 0 && kind != PTS_TLK_RETURN)
		i = returning_frame(t, floor, addr, &fn, true, true);
	if (i >= 0)
		return unwind_through(tl, t, (uint32_t)i, kind, err);
	/*
	 * A signal handler's `ret` goes to the restorer its delivery pushed
	 * (__restore_rt), which no call saved: the handler ends and the
	 * restorer runs in its place until rt_sigreturn resumes the code
	 * the signal interrupted.
	 */
	if (kind == PTS_TLK_RETURN && t->n > floor && is_handler(&t->frames[t->n - 1])) {
		uint64_t resume = t->frames[t->n - 1].resume;

		rc = pop(tl, t, kind, err);
		if (!rc)
			rc = push_handler(tl, t, &fn, addr, resume, kind, err);
		return rc;
	}
	if (top_known) {
		const struct frame *top = &t->frames[t->n - 1];

		tl->diag[PTS_TLD_RETURN_AS_JUMP]++;
		/*
		 * The frame of a call to a label inside the caller's own function
		 * (a retpoline thunk's `call 1f`) only planted the return slot
		 * the `ret` consumed: it ends, and the target replaces the frame
		 * below (the thunk), keeping that frame's return address.
		 * Otherwise the slot was pushed in the top frame (push+ret): the
		 * target replaces the top frame.
		 */
		if (top->fn.known && top->s.addr != top->fn.start &&
		    same_fn(&t->frames[t->n - 2], &top->fn)) {
			rc = pop(tl, t, PTS_TLK_JUMP, err);
			if (rc)
				return rc;
		}
		if (in_top_fn(t, addr) || same_fn(&t->frames[t->n - 1], &fn))
			return 0;
		/* no unwinding to a deeper frame: the target is being called, not returned to */
		return replace_top(tl, t, &fn, addr, PTS_TLK_JUMP, err);
	}
	if (floor) {
		/*
		 * Past the kernel frames of this entry: they end, and the target
		 * opens an inferred kernel frame on the user frames, from now.
		 */
		rc = pop(tl, t, kind, err);
		while (!rc && t->n > floor)
			rc = pop(tl, t, PTS_TLK_UNWIND, err);
		if (rc)
			return rc;
		tl->diag[PTS_TLD_INFERRED]++;
		return push(tl, t, &fn, addr, 0, PTS_TLF_INFERRED, PTS_TLK_RETURN, err);
	}
	rc = pop(tl, t, kind, err);
	if (!rc)
		rc = pop_all(tl, t, PTS_TLK_UNWIND, err);
	if (rc)
		return rc;
	return push_inferred(tl, t, &fn, addr, err);
}

/* return_to_slow; inline, the common case: the top frame's call saved addr, it ends */
static inline int return_to(struct pts_tl *tl, struct thread *t, uint64_t addr,
			    const struct pts_br_sym *hint, enum pts_tl_kind kind,
			    struct pts_err *err)
{
	if (!t->excess && addr && t->n && t->frames[t->n - 1].ret == addr)
		return pop(tl, t, kind, err);
	return return_to_slow(tl, t, addr, hint, kind, err);
}

static bool kernel_frames_open(const struct thread *t)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		if (t->frames[i].s.flags & PTS_TLF_KERNEL)
			return true;
	return false;
}

/*
 * Scope both: sysret/iret (or an untraced return: tracing resumes) from
 * the kernel to user address addr. The thread's stack is [user frames]
 * [kernel frames of this kernel entry]: end every kernel frame (a kernel
 * frame below a user frame, or at a sysret/iret (one_entry_frame) more
 * than the entry frame open, is an inconsistent stack: counted). Then
 * continue in the user frame holding addr; another function nests on top
 * (the kernel diverted execution: a signal handler); an empty stack
 * infers an outer frame for addr that holds what was seen.
 */

static int return_to_user(struct pts_tl *tl, struct thread *t, uint64_t addr,
			  const struct pts_br_sym *hint, enum pts_tl_kind kind, bool one_entry_frame,
			  struct pts_err *err)
{
	struct fn fn;
	uint32_t nk = 0;
	uint64_t resume = 0;
	int64_t i;
	int rc = 0;

	if (t->excess && t->n && (t->frames[t->n - 1].s.flags & PTS_TLF_KERNEL))
		t->excess = 0;
	/* where the kernel entry was to return: what a signal delivered on the way interrupted */
	for (i = (int64_t)t->n - 1; i >= 0 && (t->frames[i].s.flags & PTS_TLF_KERNEL); i--)
		resume = t->frames[i].ret;
	while (!rc && !t->excess && t->n && (t->frames[t->n - 1].s.flags & PTS_TLF_KERNEL))
		rc = pop(tl, t, nk++ ? PTS_TLK_UNWIND : kind, err);
	if (rc)
		return rc;
	for (i = 0; i < (int64_t)t->n; i++)
		if (t->frames[i].s.flags & PTS_TLF_KERNEL)
			break;
	if ((one_entry_frame && nk > 1) || i < (int64_t)t->n)
		tl->diag[PTS_TLD_KERNEL_LEFT_OPEN]++;
	while (!rc && t->n > (uint32_t)i)
		rc = pop(tl, t, PTS_TLK_UNWIND, err);
	if (rc)
		return rc;
	/* rt_sigreturn (or a return to where a handler's signal was delivered) */
	if (nk && end_handler_at(tl, t, addr, resume, &rc, err))
		return rc;
	lookup(tl, t, addr, hint, &fn);
	/* a handler nests, also on a frame of its own function */
	if (nk && is_delivery(&fn, addr, resume))
		return push_handler(tl, t, &fn, addr, resume, PTS_TLK_TRACE_BEGIN, err);
	if (in_top_fn(t, addr))
		return 0;
	if (!t->n && !t->excess) {
		if (!nk)
			return push(tl, t, &fn, addr, 0, 0, PTS_TLK_TRACE_BEGIN, err);
		return push_inferred(tl, t, &fn, addr, err);
	}
	if (t->excess || same_fn(&t->frames[t->n - 1], &fn))
		return 0;
	for (i = (int64_t)t->n - 2; i >= 0; i--) {
		if (!same_fn(&t->frames[i], &fn))
			continue;
		while (!rc && t->n > (uint32_t)i + 1)
			rc = pop(tl, t, PTS_TLK_UNWIND, err);
		return rc;
	}
	return push_handler(tl, t, &fn, addr, nk ? resume : 0, PTS_TLK_TRACE_BEGIN, err);
}

/*
 * Tracing resumes at addr: continue in the frame holding it. nest: tracing
 * was off because the kernel had control (syscall, interrupt); resuming in
 * another function is then the kernel diverting execution (a signal
 * handler), which runs on top of the interrupted frame until it returns
 * into it (sigreturn, then a resume there unwinds the handler).
 */
static int resume_at(struct pts_tl *tl, struct thread *t, uint64_t addr,
		     const struct pts_br_sym *hint, bool nest, uint64_t resume,
		     struct pts_err *err)
{
	struct fn fn;
	int64_t i;
	int rc = 0;

	if (!addr || (nest && end_handler_at(tl, t, addr, resume, &rc, err)))
		return rc;
	lookup(tl, t, addr, hint, &fn);
	/* a handler nests, also on a frame of its own function */
	if (nest && is_delivery(&fn, addr, resume))
		return push_handler(tl, t, &fn, addr, resume, PTS_TLK_TRACE_BEGIN, err);
	if (in_top_fn(t, addr))
		return 0;
	if (!t->n)
		return push(tl, t, &fn, addr, 0, 0, PTS_TLK_TRACE_BEGIN, err);
	if (same_fn(&t->frames[t->n - 1], &fn))
		return 0;
	for (i = (int64_t)t->n - 2; i >= 0; i--) {
		if (!same_fn(&t->frames[i], &fn))
			continue;
		rc = 0;
		while (!rc && t->n > (uint32_t)i + 1)
			rc = pop(tl, t, PTS_TLK_UNWIND, err);
		return rc;
	}
	if (nest)
		return push_handler(tl, t, &fn, addr, resume, PTS_TLK_TRACE_BEGIN, err);
	rc = pop(tl, t, PTS_TLK_JUMP, err);
	if (rc)
		return rc;
	return push(tl, t, &fn, addr, 0, 0, PTS_TLK_TRACE_BEGIN, err);
}

static void check_scope(struct pts_tl *tl, uint64_t addr)
{
	if (addr - tl->oos_lo < tl->oos_len)
		tl->diag[PTS_TLD_OUT_OF_SCOPE]++;
}

/*
 * A gap or an exec, past which nothing of the thread's stack continues:
 * its open frames close (as end) and r, an instant whose name, detail,
 * kind and address the caller gave, marks it on the thread's track at its
 * last time.
 */
static int end_stack_at(struct pts_tl *tl, struct thread *t, enum pts_tl_kind end,
			struct pts_tl_rec *r, struct pts_err *err)
{
	int rc = pop_all(tl, t, end, err);

	if (!rc)
		rc = flush(tl, t, err);
	if (rc)
		return rc;
	r->type = PTS_TL_INSTANT;
	r->ts_ns = t->at.ts_ns;
	r->pid = t->at.pid;
	r->tid = t->at.tid;
	r->cpu = t->at.cpu;
	return emit(tl, r, err);
}

static int on_gap(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		  struct pts_err *err)
{
	char detail[256];
	struct pts_tl_rec r = { .kind = PTS_TLK_GAP, .name = "gap", .addr = br->from };
	int rc;

	t->st.gaps++;
	r.detail = br->detail ? br->detail : "decode error";
	if (br->offset) {
		/* where in the CPU's trace file, for a look with a packet dump */
		snprintf(detail, sizeof(detail), "%s (cpu %u trace offset 0x%llx)", r.detail,
			 br->cpu, (unsigned long long)br->offset);
		r.detail = detail;
	}
	rc = end_stack_at(tl, t, PTS_TLK_GAP, &r, err);
	if (rc)
		return rc;
	/* nothing before the gap is continued: resume at its IP if it names one */
	if (br->to) {
		check_scope(tl, br->to);
		return resume_at(tl, t, br->to, &br->to_sym, false, 0, err);
	}
	return 0;
}

static int on_instant(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		      struct pts_err *err)
{
	struct pts_tl_rec r;

	memset(&r, 0, sizeof(r));
	r.type = PTS_TL_INSTANT;
	r.name = intern(tl, br->detail ? br->detail : "event");
	if (!r.name)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	r.addr = br->from ? br->from : br->value;
	r.depth = t->n;
	return put(tl, t, &r, err);
}

static int on_cbr(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		  struct pts_err *err)
{
	struct pts_tl_rec r;

	memset(&r, 0, sizeof(r));
	r.type = PTS_TL_COUNTER;
	/* CBR is the core:bus ratio; the bus clock is 100 MHz (SDM "CBR Packet") */
	r.name = "CPU frequency (MHz)";
	r.value = (double)br->value * 100.0;
	return put(tl, t, &r, err);
}

struct pts_br_elide *pts_tl_elide(struct pts_tl *tl)
{
	return &tl->elide;
}

/*
 * The thread time bookkeeping of one event at ts on cpu: per-thread
 * time never decreases (an earlier time is clamped and counted).
 */
static void thread_time(struct pts_tl *tl, struct thread *t, uint64_t ts, uint32_t cpu)
{
	if (!t->have_ts) {
		t->have_ts = true;
		t->st.first_ns = ts;
		t->at.ts_ns = ts;
	} else if (ts < t->at.ts_ns) {
		tl->diag[PTS_TLD_TIME_BACKWARDS]++;
	} else {
		t->at.ts_ns = ts;
	}
	t->st.last_ns = t->at.ts_ns;
	t->at.cpu = cpu;
}

/*
 * Jumps a decoder dropped (pts_tl_elide): inside the top frame's function,
 * they change no frame; what a fed one would have changed is its thread's
 * event count, time and CPU.
 */
static inline void account_elided(struct pts_tl *tl)
{
	struct pts_br_elide *el = &tl->elide;
	struct thread *t = tl->last;

	if (!el->dropped)
		return;
	/* the window is the top frame of the thread fed last (set_elide) */
	if (!t || t->at.pid != el->pid || t->at.tid != el->tid)
		t = thread_find(tl, el->pid, el->tid);
	if (t) {
		t->st.events += el->dropped;
		thread_time(tl, t, el->ts_ns, el->cpu);
	}
	el->dropped = 0;
}

/* Point the elide filter at the top frame of t, if it is a function of known extent. */
static void set_elide(struct pts_tl *tl, const struct thread *t)
{
	struct pts_br_elide *el = &tl->elide;
	const struct frame *f;

	el->hi = 0;
	if (!t->n || t->excess)
		return;
	f = &t->frames[t->n - 1];
	if (!f->span)
		return;
	el->pid = t->at.pid;
	el->tid = t->at.tid;
	el->lo = f->fn.start;
	el->hi = f->fn.start + f->span;
}

static int feed(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		struct pts_err *err);

/*
 * The trigger: an instant "trigger" on its thread's track at its time,
 * which is no event of the thread's code (its stats keep their times; a
 * thread never traced gets a track for it all the same).
 */
static int on_trigger(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		      struct pts_err *err)
{
	struct pts_tl_rec r;
	int rc = announce(tl, t, err);

	if (rc)
		return rc;
	if (!t->have_ts || br->ts_ns > t->at.ts_ns)
		t->at.ts_ns = br->ts_ns;
	memset(&r, 0, sizeof(r));
	r.type = PTS_TL_INSTANT;
	r.name = "trigger";
	r.detail = intern(tl, br->detail ? br->detail : "");
	if (!r.detail)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	r.depth = t->n;
	return put(tl, t, &r, err);
}

int pts_tl_feed(struct pts_tl *tl, const struct pts_branch *br, struct pts_err *err)
{
	struct thread *t;
	int rc;

	account_elided(tl);
	t = thread_get(tl, br->pid, br->tid);
	if (!t)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	rc = feed(tl, t, br, err);
	set_elide(tl, t);
	return rc;
}

/*
 * One handler per branch kind (feed() dispatches): each gets the thread,
 * already announced and its time taken, and the event.
 */

static int on_call(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		   struct pts_err *err)
{
	struct fn buf;
	const struct fn *fn;
	int rc;

	t->st.calls++;
	rc = ensure_at(tl, t, br->from, &br->from_sym, err);
	if (rc)
		return rc;
	if (!br->to) {
		tl->diag[PTS_TLD_UNKNOWN_TARGET]++;
		return 0;
	}
	fn = lookup_ref(tl, t, br->to, &br->to_sym, &buf);
	/* srso_return_thunk calls srso_safe_ret: still the function's return */
	if (is_return_thunk(fn) && t->n && !in_top_fn(t, br->from)) {
		struct fn from_fn;

		fn_copy(&buf, fn);	/* the next lookup may take fn's slot */
		fn = &buf;
		lookup(tl, t, br->from, &br->from_sym, &from_fn);
		if (is_return_thunk(&from_fn))
			return 0;
	}
	return push(tl, t, fn, br->to, br->insn_len ? br->from + br->insn_len : 0, 0,
		    PTS_TLK_CALL, err);
}

static int on_return(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		     struct pts_err *err)
{
	int rc;

	t->st.returns++;
	rc = ensure_at(tl, t, br->from, &br->from_sym, err);
	if (rc)
		return rc;
	return return_to(tl, t, br->to, &br->to_sym, PTS_TLK_RETURN, err);
}

static int on_jump(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		   struct pts_err *err)
{
	struct fn fn;
	int64_t i;
	int rc;

	rc = ensure_at(tl, t, br->from, &br->from_sym, err);
	if (rc || !br->to || in_top_fn(t, br->to))
		return rc;
	lookup(tl, t, br->to, &br->to_sym, &fn);
	if (t->n && !t->excess && same_fn(&t->frames[t->n - 1], &fn))
		return 0;
	/* `jmp __x86_return_thunk` is the function's `ret`, still to come */
	if (t->n && is_return_thunk(&fn))
		return 0;
	/*
	 * longjmp, stack switching: a jump into the middle of a function
	 * open deeper in the stack (its saved return address, a setjmp
	 * point) unwinds to it. A jump to a function's first byte is a
	 * tail call (irq_exit_rcu's `jmp __irq_exit_rcu` under a nested
	 * interrupt, recursion through a tail call), whatever is open.
	 */
	for (i = (int64_t)t->n - 2; !t->excess && !is_fn_entry(&fn, br->to) && i >= 0; i--) {
		if (!same_fn(&t->frames[i], &fn))
			continue;
		while (!rc && t->n > (uint32_t)i + 1)
			rc = pop(tl, t, PTS_TLK_UNWIND, err);
		return rc;
	}
	return replace_top(tl, t, &fn, br->to, PTS_TLK_JUMP, err);
}

static int on_syscall(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		      struct pts_err *err)
{
	const struct pts_kl_rec *label = NULL;
	struct fn fn;
	int rc;

	rc = ensure_at(tl, t, br->from, &br->from_sym, err);
	if (rc)
		return rc;
	if (!br->to || (br->flags & PTS_BRF_TRACE_OFF))
		/* syscall, sysenter and int 0x80 are 2 bytes long */
		return push_synthetic(tl, t, "[syscall]", br->from,
				      br->from + (br->insn_len ? br->insn_len : 2), PTS_TLK_SYSCALL,
				      err);
	lookup(tl, t, br->to, &br->to_sym, &fn);
	/*
	 * scope both: the entry slice carries the syscall record the user IP
	 * fits; not a compat entry (entry_INT80_compat, ...: its number is of
	 * the i386 table, which the x86-64 names would misread)
	 */
	if (tl->cfg.labels && tl->cfg.scope == PTS_SCOPE_BOTH && !pts_addr_is_kernel(br->from) &&
	    !(fn.known && strstr(fn.name, "_compat")))
		label = pts_kl_match(tl->cfg.labels, PTS_KL_SYSCALL, t->at.tid, t->at.ts_ns,
				     br->from + (br->insn_len ? br->insn_len : 2));
	return push_labelled(tl, t, &fn, br->to, br->insn_len ? br->from + br->insn_len : 0, 0,
			     PTS_TLK_SYSCALL, label, err);
}

/* sysret, sysexit, iret, far return */
static int on_kernel_exit(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
			  struct pts_err *err)
{
	enum pts_tl_kind k = br->kind == PTS_BR_SYSRET ? PTS_TLK_SYSRET : PTS_TLK_IRET;
	int rc;

	rc = ensure_at(tl, t, br->from, &br->from_sym, err);
	if (rc)
		return rc;
	if (!br->to || (br->flags & PTS_BRF_TRACE_OFF)) {
		/*
		 * kernel-only scope: back to untraced user space. Every
		 * frame is a kernel frame of this entry: the next entry
		 * starts on an empty stack.
		 */
		if (t->n && !t->excess)
			rc = pop(tl, t, k, err);
		if (!rc)
			rc = pop_all(tl, t, PTS_TLK_UNWIND, err);
		if (rc)
			return rc;
		return push_synthetic(tl, t, "[user]", br->from, 0, k, err);
	}
	if (tl->cfg.scope == PTS_SCOPE_BOTH && !pts_addr_is_kernel(br->to))
		return return_to_user(tl, t, br->to, &br->to_sym, k, true, err);
	return return_to(tl, t, br->to, &br->to_sym, k, err);
}

static int on_interrupt(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
			struct pts_err *err)
{
	const struct pts_kl_rec *label = NULL;
	struct fn fn;
	int rc;

	rc = ensure_at(tl, t, br->from, &br->from_sym, err);
	if (rc)
		return rc;
	if (!br->to) {
		tl->diag[PTS_TLD_UNKNOWN_TARGET]++;
		return 0;
	}
	lookup(tl, t, br->to, &br->to_sym, &fn);
	/*
	 * scope both: a page fault's entry slice carries the fault record of
	 * the faulting IP (the FUP); only the page-fault entry, so that a
	 * timer interrupt at that instruction never takes the fault's record
	 */
	if (tl->cfg.labels && tl->cfg.scope == PTS_SCOPE_BOTH && !pts_addr_is_kernel(br->from) &&
	    fn.known && !strcmp(fn.name, "asm_exc_page_fault"))
		label = pts_kl_match(tl->cfg.labels, PTS_KL_FAULT, t->at.tid, t->at.ts_ns, br->from);
	/*
	 * The trace does not tell a fault from an interrupt (both are
	 * FUP + TIP); Linux names its exception entries asm_exc_*.
	 */
	return push_labelled(tl, t, &fn, br->to, br->from, 0,
			     fn.known && !strncmp(fn.name, "asm_exc_", 8) ? PTS_TLK_EXCEPTION :
									  PTS_TLK_INTERRUPT,
			     label, err);
}

static int on_enabled(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		      struct pts_err *err)
{
	enum pts_scope scope = tl->cfg.scope;
	bool was_kernel = top_synthetic(t) && (t->frames[t->n - 1].s.flags & PTS_TLF_KERNEL);
	uint64_t resume = top_synthetic(t) ? t->frames[t->n - 1].resume : 0;
	int rc;

	rc = close_synthetic(tl, t, err);
	if (rc)
		return rc;
	/* scope both: the kernel went back to user space untraced */
	if (scope == PTS_SCOPE_BOTH && br->to && !pts_addr_is_kernel(br->to) &&
	    kernel_frames_open(t))
		return return_to_user(tl, t, br->to, &br->to_sym, PTS_TLK_UNWIND, false, err);
	if (scope != PTS_SCOPE_KERNEL || t->n || t->excess || (br->flags & PTS_BRF_RESUMED))
		return resume_at(tl, t, br->to, &br->to_sym, was_kernel, resume, err);
	/* scope kernel, nothing open: a kernel entry from user mode? */
	rc = resume_at(tl, t, br->to, &br->to_sym, was_kernel, resume, err);
	if (!rc && t->n == 1 && is_user_entry(&t->frames[0].fn, br->to)) {
		t->bottom_user_entry = true;
		t->bottom_syscall = tl->cfg.labels &&
				    !strcmp(t->frames[0].fn.name, "entry_SYSCALL_64");
	}
	return rc;
}

static int on_disabled(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		       struct pts_err *err)
{
	int rc;

	if (top_synthetic(t)) {
		tl->diag[PTS_TLD_DISABLE_WITHOUT_ENABLE]++;
		return 0;
	}
	rc = ensure_at(tl, t, br->from, &br->from_sym, err);
	if (rc)
		return rc;
	if (tl->cfg.scope == PTS_SCOPE_KERNEL) {
		while (!rc && t->n && !t->excess && (t->frames[t->n - 1].s.flags & PTS_TLF_KERNEL))
			rc = pop(tl, t, PTS_TLK_TRACE_END, err);
		if (rc)
			return rc;
		return push_synthetic(tl, t, "[user]", br->from, 0, PTS_TLK_TRACE_END, err);
	}
	if (br->flags & PTS_BRF_ASYNC)
		return push_synthetic(tl, t, "[interrupted]", br->from, br->from,
				      PTS_TLK_INTERRUPT, err);
	return push_synthetic(tl, t, "[untraced]", br->from, 0, PTS_TLK_TRACE_END, err);
}

static int on_exec(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		   struct pts_err *err)
{
	struct pts_tl_rec r = { .name = "exec", .detail = t->name };

	/* a new program: nothing of the old stack continues, no old name holds */
	memset(tl->lcache, 0, sizeof(tl->lcache));
	if (!t->n && !t->excess)
		return 0;
	return end_stack_at(tl, t, PTS_TLK_TRACE_END, &r, err);
}

/*
 * What every event but the trigger does first: it is counted, its thread
 * announced, its time taken and where it comes from checked against the
 * scope.
 */
static inline int take_event(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
			     struct pts_err *err)
{
	int rc;

	t->st.events++;
	rc = announce(tl, t, err);
	if (rc)
		return rc;
	thread_time(tl, t, br->ts_ns, br->cpu);
	check_scope(tl, br->from);
	return 0;
}

/* The events after the branches in decode/branch.h's order: ENABLED ... TRIGGER. */
static int feed_other(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		      struct pts_err *err)
{
	int rc;

	if (br->kind == PTS_BR_TRIGGER)
		return on_trigger(tl, t, br, err);
	rc = take_event(tl, t, br, err);
	if (rc)
		return rc;
	/* in scope kernel, tracing may resume in user code */
	if (br->kind != PTS_BR_ENABLED || tl->cfg.scope != PTS_SCOPE_KERNEL)
		check_scope(tl, br->to);
	switch (br->kind) {
	case PTS_BR_ENABLED:
		return on_enabled(tl, t, br, err);
	case PTS_BR_DISABLED:
		return on_disabled(tl, t, br, err);
	case PTS_BR_GAP:
		return on_gap(tl, t, br, err);
	case PTS_BR_INSTANT:
		return on_instant(tl, t, br, err);
	case PTS_BR_CBR:
		return on_cbr(tl, t, br, err);
	case PTS_BR_EXEC:
		return on_exec(tl, t, br, err);
	default:
		break;	/* TRIGGER: placed before the thread's accounting (on_trigger) */
	}
	return 0;
}

_Static_assert(PTS_BR_INTERRUPT + 1 == PTS_BR_ENABLED && PTS_BR_TRIGGER > PTS_BR_ENABLED,
	       "feed: the branches come first in enum pts_br_kind");

/* One event: the branches (CALL ... INTERRUPT) with one compare, the rest in feed_other. */
static int feed(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		struct pts_err *err)
{
	int rc;

	if (br->kind >= PTS_BR_ENABLED)
		return feed_other(tl, t, br, err);
	rc = take_event(tl, t, br, err);
	if (rc)
		return rc;
	check_scope(tl, br->to);
	switch (br->kind) {
	case PTS_BR_CALL:
		return on_call(tl, t, br, err);
	case PTS_BR_RETURN:
		return on_return(tl, t, br, err);
	case PTS_BR_JUMP:
		return on_jump(tl, t, br, err);
	case PTS_BR_SYSCALL:
		return on_syscall(tl, t, br, err);
	case PTS_BR_SYSRET:
	case PTS_BR_IRET:
		return on_kernel_exit(tl, t, br, err);
	case PTS_BR_INTERRUPT:
		return on_interrupt(tl, t, br, err);
	default:
		return 0;	/* not a branch: feed_other */
	}
}

int pts_tl_finish(struct pts_tl *tl, struct pts_err *err)
{
	size_t i;
	int rc;

	account_elided(tl);
	tl->elide.hi = 0;

	for (i = 0; i < tl->nth; i++) {
		struct thread *t = tl->th[i];

		rc = pop_all(tl, t, PTS_TLK_END_OF_TRACE, err);
		if (!rc)
			rc = flush(tl, t, err);
		if (rc)
			return rc;
	}
	return 0;
}

uint64_t pts_tl_diag_count(const struct pts_tl *tl, enum pts_tl_diag d)
{
	return (unsigned int)d < PTS_TLD_NR ? tl->diag[d] : 0;
}

size_t pts_tl_nr_threads(const struct pts_tl *tl)
{
	return tl->nth;
}

uint64_t pts_tl_id_probes(const struct pts_tl *tl)
{
	return tl->by_id.probes + tl->pids.probes;
}

int pts_tl_thread_stats(const struct pts_tl *tl, size_t i, struct pts_tl_thread_stats *out)
{
	if (i >= tl->nth)
		return -ERANGE;
	*out = tl->th[i]->st;
	return 0;
}
