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

struct fn {
	const char *name;	/* interned; "[unknown] 0x... (obj)" for unknown code */
	const char *object;	/* interned or NULL */
	uint64_t start, size;
	bool known;
	bool kernel;
};

struct frame {
	struct fn fn;
	uint64_t addr;		/* where the frame was entered */
	uint32_t flags;		/* PTS_TLF_* */
};

struct thread {
	int32_t pid, tid;
	const char *name;
	bool announced;
	uint32_t cpu;
	struct frame *frames;
	uint32_t n, cap;
	uint32_t excess;	/* calls beyond max_depth not shown */
	bool have_ts;
	uint64_t last_ts;
	/* records of the current segment not yet written */
	struct pts_tl_rec *buf;
	size_t nbuf, bufcap;
	/*
	 * The BEGIN of the outermost open frame: its index in buf (-1 once
	 * written out) and time. An inferred outer frame is inserted there.
	 */
	long bottom_idx;
	uint64_t bottom_ts;
	struct pts_tl_thread_stats st;
};

struct pts_tl {
	struct pts_tl_config cfg;
	struct pts_strpool *pool;
	struct thread **th;
	size_t nth, capth;
	struct thread *last;
	int32_t *pids;		/* processes announced */
	size_t npids, cappids;
	uint64_t diag[PTS_TLD_NR];
};

static const char *const diag_names[PTS_TLD_NR] = {
	[PTS_TLD_TIME_BACKWARDS] = "time going backwards (clamped)",
	[PTS_TLD_OUT_OF_SCOPE] = "event impossible in the recorded scope",
	[PTS_TLD_DISABLE_WITHOUT_ENABLE] = "tracing disabled without a matching enable",
	[PTS_TLD_EVENT_WHILE_DISABLED] = "branch while tracing was off",
	[PTS_TLD_FELL_THROUGH] = "moved to another function without a branch",
	[PTS_TLD_INFERRED] = "return past the known stack (inferred frame)",
	[PTS_TLD_INFERRED_LATE] = "inferred frame opened late (segment already written)",
	[PTS_TLD_TOO_DEEP] = "calls beyond the maximum stack depth",
	[PTS_TLD_UNKNOWN_TARGET] = "branch with an unknown target",
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
	free(tl->pids);
	pts_strpool_free(tl->pool);
	free(tl);
}

static const char *intern(struct pts_tl *tl, const char *s)
{
	return pts_strpool_intern(tl->pool, s);
}

static struct thread *thread_find(struct pts_tl *tl, int32_t pid, int32_t tid)
{
	size_t i;

	if (tl->last && tl->last->tid == tid && tl->last->pid == pid)
		return tl->last;
	for (i = 0; i < tl->nth; i++)
		if (tl->th[i]->tid == tid && tl->th[i]->pid == pid)
			return tl->last = tl->th[i];
	return NULL;
}

static struct thread *thread_get(struct pts_tl *tl, int32_t pid, int32_t tid)
{
	struct thread *t = thread_find(tl, pid, tid);

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
	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	t->st.pid = pid;
	t->st.tid = tid;
	t->bottom_idx = -1;
	tl->th[tl->nth++] = t;
	return tl->last = t;
}

static int emit(struct pts_tl *tl, const struct pts_tl_rec *r, struct pts_err *err)
{
	return tl->cfg.emit(tl->cfg.emit_ctx, r, err);
}

static int pid_announced(struct pts_tl *tl, int32_t pid)
{
	size_t i;

	for (i = 0; i < tl->npids; i++)
		if (tl->pids[i] == pid)
			return 1;
	return 0;
}

static int announce(struct pts_tl *tl, struct thread *t, struct pts_err *err)
{
	struct pts_tl_rec r;
	int rc;

	if (t->announced)
		return 0;
	if (!pid_announced(tl, t->pid)) {
		struct thread *leader = thread_find(tl, t->pid, t->pid);

		if (tl->npids == tl->cappids) {
			size_t nc = tl->cappids ? tl->cappids * 2 : 16;
			int32_t *np = realloc(tl->pids, nc * sizeof(*np));

			if (!np)
				return pts_err_set(err, ENOMEM, "timeline: out of memory");
			tl->pids = np;
			tl->cappids = nc;
		}
		tl->pids[tl->npids++] = t->pid;
		memset(&r, 0, sizeof(r));
		r.type = PTS_TL_PROCESS;
		r.pid = t->pid;
		r.tid = t->pid;
		r.name = leader && leader->name ? leader->name : t->name;
		rc = emit(tl, &r, err);
		if (rc)
			return rc;
		tl->last = t;
	}
	memset(&r, 0, sizeof(r));
	r.type = PTS_TL_THREAD;
	r.pid = t->pid;
	r.tid = t->tid;
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
	nc = t->bufcap ? t->bufcap * 2 : 32;
	if (nc > tl->cfg.segment_cap)
		nc = tl->cfg.segment_cap;
	nb = realloc(t->buf, nc * sizeof(*nb));
	if (!nb)
		return -ENOMEM;
	t->buf = nb;
	t->bufcap = nc;
	return 0;
}

/* Hold a record in the thread's segment buffer (writing it out when full). */
static int put(struct pts_tl *tl, struct thread *t, struct pts_tl_rec *r, struct pts_err *err)
{
	int rc;

	r->pid = t->pid;
	r->tid = t->tid;
	r->cpu = t->cpu;
	r->ts_ns = t->last_ts;
	if (t->nbuf == tl->cfg.segment_cap) {
		rc = t->bottom_idx > 0 ? flush_before_bottom(tl, t, err) : flush(tl, t, err);
		if (rc)
			return rc;
	}
	if (buf_room(tl, t))
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	t->buf[t->nbuf++] = *r;
	return 0;
}

static void lookup(struct pts_tl *tl, struct thread *t, uint64_t addr,
		   const struct pts_br_sym *hint, struct fn *out)
{
	struct pts_sym_info si;
	char buf[256];

	memset(out, 0, sizeof(*out));
	out->kernel = pts_addr_is_kernel(addr);
	memset(&si, 0, sizeof(si));
	if (hint && hint->name) {
		si.name = hint->name;
		si.start = hint->start;
		si.object = hint->object;
	} else if (tl->cfg.symbolize) {
		tl->cfg.symbolize(tl->cfg.sym_ctx, t->pid, addr, &si);
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
}

static bool same_fn(const struct frame *f, const struct fn *fn)
{
	if (f->flags & PTS_TLF_SYNTHETIC)
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
	return f->fn.known && f->fn.size && !(f->flags & PTS_TLF_SYNTHETIC) &&
	       addr >= f->fn.start && addr - f->fn.start < f->fn.size;
}

static void rec_from_frame(struct pts_tl_rec *r, const struct frame *f, uint32_t depth)
{
	r->name = f->fn.name;
	r->object = f->fn.object;
	r->addr = f->addr;
	r->offset = f->fn.known ? f->addr - f->fn.start : 0;
	r->flags = f->flags;
	r->depth = depth;
}

static int push(struct pts_tl *tl, struct thread *t, const struct fn *fn, uint64_t addr,
		uint32_t flags, enum pts_tl_kind kind, struct pts_err *err)
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
		uint32_t nc = t->cap ? t->cap * 2 : 16;
		struct frame *nf = realloc(t->frames, nc * sizeof(*nf));

		if (!nf)
			return pts_err_set(err, ENOMEM, "timeline: out of memory");
		t->frames = nf;
		t->cap = nc;
	}
	f = &t->frames[t->n];
	f->fn = *fn;
	f->addr = addr;
	f->flags = flags | (fn->kernel ? PTS_TLF_KERNEL : 0);
	memset(&r, 0, sizeof(r));
	r.type = PTS_TL_BEGIN;
	r.kind = kind;
	rec_from_frame(&r, f, t->n);
	t->n++;
	rc = put(tl, t, &r, err);
	/* a tail call replacing the outermost frame keeps its start */
	if (!rc && t->n == 1 && kind != PTS_TLK_JUMP) {
		t->bottom_idx = (long)t->nbuf - 1;
		t->bottom_ts = t->last_ts;
	}
	return rc;
}

static int pop(struct pts_tl *tl, struct thread *t, enum pts_tl_kind kind, struct pts_err *err)
{
	struct pts_tl_rec r;

	if (t->excess) {
		t->excess--;
		return 0;
	}
	if (!t->n)
		return 0;
	t->n--;
	memset(&r, 0, sizeof(r));
	r.type = PTS_TL_END;
	r.kind = kind;
	rec_from_frame(&r, &t->frames[t->n], t->n);
	return put(tl, t, &r, err);
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

static int push_synthetic(struct pts_tl *tl, struct thread *t, const char *name, uint64_t addr,
			  enum pts_tl_kind kind, struct pts_err *err)
{
	struct fn fn;

	memset(&fn, 0, sizeof(fn));
	fn.name = intern(tl, name);
	fn.kernel = !strcmp(name, "[user]") ? false : tl->cfg.scope != PTS_SCOPE_KERNEL;
	if (!fn.name)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	return push(tl, t, &fn, addr, PTS_TLF_SYNTHETIC, kind, err);
}

static bool top_synthetic(struct thread *t)
{
	return t->n && !t->excess && (t->frames[t->n - 1].flags & PTS_TLF_SYNTHETIC);
}

/* End an open synthetic slice; the kind says what ended it. */
static int close_synthetic(struct pts_tl *tl, struct thread *t, struct pts_err *err)
{
	const char *n;
	enum pts_tl_kind k = PTS_TLK_TRACE_BEGIN;

	if (!top_synthetic(t))
		return 0;
	n = t->frames[t->n - 1].fn.name;
	if (!strcmp(n, "[syscall]"))
		k = PTS_TLK_SYSRET;
	else if (!strcmp(n, "[interrupted]"))
		k = PTS_TLK_IRET;
	return pop(tl, t, k, err);
}

/*
 * A return past the known stack: open an outer frame for fn. While the
 * segment's first record is still held, the frame begins at the segment
 * start and every held record moves one level deeper.
 */
static int push_inferred(struct pts_tl *tl, struct thread *t, const struct fn *fn, uint64_t addr,
			 struct pts_err *err)
{
	struct pts_tl_rec r;
	struct frame *f;
	size_t i, b;

	tl->diag[PTS_TLD_INFERRED]++;
	if (t->bottom_idx < 0 || t->n || t->excess || t->nbuf >= tl->cfg.segment_cap) {
		tl->diag[PTS_TLD_INFERRED_LATE]++;
		return push(tl, t, fn, addr, PTS_TLF_INFERRED, PTS_TLK_RETURN, err);
	}
	if (buf_room(tl, t))
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	if (!t->cap) {
		t->frames = calloc(16, sizeof(*t->frames));
		if (!t->frames)
			return pts_err_set(err, ENOMEM, "timeline: out of memory");
		t->cap = 16;
	}
	f = &t->frames[0];
	f->fn = *fn;
	f->addr = addr;
	f->flags = PTS_TLF_INFERRED | (fn->kernel ? PTS_TLF_KERNEL : 0);
	t->n = 1;
	memset(&r, 0, sizeof(r));
	r.type = PTS_TL_BEGIN;
	r.kind = PTS_TLK_RETURN;
	rec_from_frame(&r, f, 0);
	r.pid = t->pid;
	r.tid = t->tid;
	r.cpu = t->cpu;
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

/* Make sure the top frame is the function holding addr (execution is there). */
static int ensure_at(struct pts_tl *tl, struct thread *t, uint64_t addr,
		     const struct pts_br_sym *hint, struct pts_err *err)
{
	struct fn fn;
	int rc;

	if (!addr || in_top_fn(t, addr))
		return 0;
	if (top_synthetic(t)) {
		tl->diag[PTS_TLD_EVENT_WHILE_DISABLED]++;
		rc = close_synthetic(tl, t, err);
		if (rc)
			return rc;
	}
	lookup(tl, t, addr, hint, &fn);
	if (!t->n && !t->excess)
		return push(tl, t, &fn, addr, 0, PTS_TLK_TRACE_BEGIN, err);
	if (t->excess || same_fn(&t->frames[t->n - 1], &fn))
		return 0;
	tl->diag[PTS_TLD_FELL_THROUGH]++;
	rc = pop(tl, t, PTS_TLK_JUMP, err);
	if (rc)
		return rc;
	return push(tl, t, &fn, addr, 0, PTS_TLK_JUMP, err);
}

/*
 * Control returns to addr (ret, sysret, iret): end frames down to the
 * nearest one holding addr; none: end them all and infer an outer frame.
 */
static int return_to(struct pts_tl *tl, struct thread *t, uint64_t addr,
		     const struct pts_br_sym *hint, enum pts_tl_kind kind, struct pts_err *err)
{
	struct fn fn;
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
	lookup(tl, t, addr, hint, &fn);
	for (i = (int64_t)t->n - 2; i >= 0; i--) {
		if (!same_fn(&t->frames[i], &fn))
			continue;
		rc = pop(tl, t, kind, err);
		while (!rc && t->n > (uint32_t)i + 1)
			rc = pop(tl, t, PTS_TLK_UNWIND, err);
		return rc;
	}
	rc = pop(tl, t, kind, err);
	if (!rc)
		rc = pop_all(tl, t, PTS_TLK_UNWIND, err);
	if (rc)
		return rc;
	return push_inferred(tl, t, &fn, addr, err);
}

/*
 * Tracing resumes at addr: continue in the frame holding it. nest: tracing
 * was off because the kernel had control (syscall, interrupt); resuming in
 * another function is then the kernel diverting execution (a signal
 * handler), which runs on top of the interrupted frame until it returns
 * into it (sigreturn, then a resume there unwinds the handler).
 */
static int resume_at(struct pts_tl *tl, struct thread *t, uint64_t addr,
		     const struct pts_br_sym *hint, bool nest, struct pts_err *err)
{
	struct fn fn;
	int64_t i;
	int rc;

	if (!addr || in_top_fn(t, addr))
		return 0;
	lookup(tl, t, addr, hint, &fn);
	if (!t->n)
		return push(tl, t, &fn, addr, 0, PTS_TLK_TRACE_BEGIN, err);
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
		return push(tl, t, &fn, addr, 0, PTS_TLK_TRACE_BEGIN, err);
	rc = pop(tl, t, PTS_TLK_JUMP, err);
	if (rc)
		return rc;
	return push(tl, t, &fn, addr, 0, PTS_TLK_TRACE_BEGIN, err);
}

static void check_scope(struct pts_tl *tl, uint64_t addr)
{
	if (!addr)
		return;
	if ((tl->cfg.scope == PTS_SCOPE_USER && pts_addr_is_kernel(addr)) ||
	    (tl->cfg.scope == PTS_SCOPE_KERNEL && !pts_addr_is_kernel(addr)))
		tl->diag[PTS_TLD_OUT_OF_SCOPE]++;
}

static int on_gap(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		  struct pts_err *err)
{
	char detail[256];
	struct pts_tl_rec r;
	int rc;

	t->st.gaps++;
	rc = pop_all(tl, t, PTS_TLK_GAP, err);
	if (!rc)
		rc = flush(tl, t, err);
	if (rc)
		return rc;
	memset(&r, 0, sizeof(r));
	r.type = PTS_TL_INSTANT;
	r.kind = PTS_TLK_GAP;
	r.ts_ns = t->last_ts;
	r.pid = t->pid;
	r.tid = t->tid;
	r.cpu = t->cpu;
	r.name = "gap";
	r.detail = br->detail ? br->detail : "decode error";
	if (br->offset) {
		/* where in the CPU's trace file, for a look with a packet dump */
		snprintf(detail, sizeof(detail), "%s (cpu %u trace offset 0x%llx)", r.detail,
			 br->cpu, (unsigned long long)br->offset);
		r.detail = detail;
	}
	r.addr = br->from;
	rc = emit(tl, &r, err);
	if (rc)
		return rc;
	/* nothing before the gap is continued: resume at its IP if it names one */
	if (br->to) {
		check_scope(tl, br->to);
		return resume_at(tl, t, br->to, &br->to_sym, false, err);
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

int pts_tl_feed(struct pts_tl *tl, const struct pts_branch *br, struct pts_err *err)
{
	struct thread *t = thread_get(tl, br->pid, br->tid);
	enum pts_scope scope = tl->cfg.scope;
	struct fn fn;
	int64_t i;
	int rc;

	if (!t)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	t->st.events++;
	rc = announce(tl, t, err);
	if (rc)
		return rc;
	if (t->have_ts && br->ts_ns < t->last_ts)
		tl->diag[PTS_TLD_TIME_BACKWARDS]++;
	else
		t->last_ts = br->ts_ns;
	if (!t->have_ts) {
		t->have_ts = true;
		t->st.first_ns = t->last_ts;
	}
	t->st.last_ns = t->last_ts;
	t->cpu = br->cpu;
	check_scope(tl, br->from);
	if (br->kind != PTS_BR_ENABLED || scope != PTS_SCOPE_KERNEL)
		check_scope(tl, br->to);

	switch (br->kind) {
	case PTS_BR_CALL:
		t->st.calls++;
		rc = ensure_at(tl, t, br->from, &br->from_sym, err);
		if (rc)
			return rc;
		if (!br->to) {
			tl->diag[PTS_TLD_UNKNOWN_TARGET]++;
			return 0;
		}
		lookup(tl, t, br->to, &br->to_sym, &fn);
		return push(tl, t, &fn, br->to, 0, PTS_TLK_CALL, err);
	case PTS_BR_RETURN:
		t->st.returns++;
		rc = ensure_at(tl, t, br->from, &br->from_sym, err);
		if (rc)
			return rc;
		return return_to(tl, t, br->to, &br->to_sym, PTS_TLK_RETURN, err);
	case PTS_BR_JUMP:
		rc = ensure_at(tl, t, br->from, &br->from_sym, err);
		if (rc || !br->to || in_top_fn(t, br->to))
			return rc;
		lookup(tl, t, br->to, &br->to_sym, &fn);
		if (t->n && !t->excess && same_fn(&t->frames[t->n - 1], &fn))
			return 0;
		/* longjmp, stack switching: a jump into a frame deeper in the stack */
		for (i = (int64_t)t->n - 2; !t->excess && i >= 0; i--) {
			if (!same_fn(&t->frames[i], &fn))
				continue;
			while (!rc && t->n > (uint32_t)i + 1)
				rc = pop(tl, t, PTS_TLK_UNWIND, err);
			return rc;
		}
		rc = pop(tl, t, PTS_TLK_JUMP, err);
		if (rc)
			return rc;
		return push(tl, t, &fn, br->to, 0, PTS_TLK_JUMP, err);
	case PTS_BR_SYSCALL:
		rc = ensure_at(tl, t, br->from, &br->from_sym, err);
		if (rc)
			return rc;
		if (!br->to || (br->flags & PTS_BRF_TRACE_OFF))
			return push_synthetic(tl, t, "[syscall]", br->from, PTS_TLK_SYSCALL, err);
		lookup(tl, t, br->to, &br->to_sym, &fn);
		return push(tl, t, &fn, br->to, 0, PTS_TLK_SYSCALL, err);
	case PTS_BR_SYSRET:
	case PTS_BR_IRET: {
		enum pts_tl_kind k = br->kind == PTS_BR_SYSRET ? PTS_TLK_SYSRET : PTS_TLK_IRET;

		rc = ensure_at(tl, t, br->from, &br->from_sym, err);
		if (rc)
			return rc;
		if (!br->to || (br->flags & PTS_BRF_TRACE_OFF)) {
			/* kernel-only scope: back to untraced user space */
			while (!rc && t->n && !t->excess &&
			       (t->frames[t->n - 1].flags & PTS_TLF_KERNEL))
				rc = pop(tl, t, k, err);
			if (rc)
				return rc;
			return push_synthetic(tl, t, "[user]", br->from, k, err);
		}
		return return_to(tl, t, br->to, &br->to_sym, k, err);
	}
	case PTS_BR_INTERRUPT:
		rc = ensure_at(tl, t, br->from, &br->from_sym, err);
		if (rc)
			return rc;
		if (!br->to) {
			tl->diag[PTS_TLD_UNKNOWN_TARGET]++;
			return 0;
		}
		lookup(tl, t, br->to, &br->to_sym, &fn);
		/*
		 * The trace does not tell a fault from an interrupt (both are
		 * FUP + TIP); Linux names its exception entries asm_exc_*.
		 */
		return push(tl, t, &fn, br->to, 0,
			    fn.known && !strncmp(fn.name, "asm_exc_", 8) ? PTS_TLK_EXCEPTION :
									     PTS_TLK_INTERRUPT, err);
	case PTS_BR_ENABLED: {
		bool was_kernel = top_synthetic(t) &&
				  (t->frames[t->n - 1].flags & PTS_TLF_KERNEL);

		rc = close_synthetic(tl, t, err);
		if (rc)
			return rc;
		return resume_at(tl, t, br->to, &br->to_sym, was_kernel, err);
	}
	case PTS_BR_DISABLED:
		if (top_synthetic(t)) {
			tl->diag[PTS_TLD_DISABLE_WITHOUT_ENABLE]++;
			return 0;
		}
		rc = ensure_at(tl, t, br->from, &br->from_sym, err);
		if (rc)
			return rc;
		if (scope == PTS_SCOPE_KERNEL) {
			while (!rc && t->n && !t->excess &&
			       (t->frames[t->n - 1].flags & PTS_TLF_KERNEL))
				rc = pop(tl, t, PTS_TLK_TRACE_END, err);
			if (rc)
				return rc;
			return push_synthetic(tl, t, "[user]", br->from, PTS_TLK_TRACE_END, err);
		}
		if (br->flags & PTS_BRF_ASYNC)
			return push_synthetic(tl, t, "[interrupted]", br->from,
					      PTS_TLK_INTERRUPT, err);
		return push_synthetic(tl, t, "[untraced]", br->from, PTS_TLK_TRACE_END, err);
	case PTS_BR_GAP:
		return on_gap(tl, t, br, err);
	case PTS_BR_INSTANT:
		return on_instant(tl, t, br, err);
	case PTS_BR_CBR:
		return on_cbr(tl, t, br, err);
	case PTS_BR_EXEC:
		/* a new program: nothing of the old stack continues */
		if (!t->n && !t->excess)
			return 0;
		rc = pop_all(tl, t, PTS_TLK_TRACE_END, err);
		if (!rc)
			rc = flush(tl, t, err);
		if (!rc) {
			struct pts_tl_rec r;

			memset(&r, 0, sizeof(r));
			r.type = PTS_TL_INSTANT;
			r.ts_ns = t->last_ts;
			r.pid = t->pid;
			r.tid = t->tid;
			r.cpu = t->cpu;
			r.name = "exec";
			r.detail = t->name;
			rc = emit(tl, &r, err);
		}
		return rc;
	}
	return 0;
}

int pts_tl_finish(struct pts_tl *tl, struct pts_err *err)
{
	size_t i;
	int rc;

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

int pts_tl_thread_stats(const struct pts_tl *tl, size_t i, struct pts_tl_thread_stats *out)
{
	if (i >= tl->nth)
		return -ERANGE;
	*out = tl->th[i]->st;
	return 0;
}
