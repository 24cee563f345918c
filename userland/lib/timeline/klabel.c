// SPDX-License-Identifier: GPL-2.0
/* Syscall and page-fault labels of untraced stretches: see klabel.h. */
#include "klabel.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/sysnames.h"

/* A raw record as added: entries and exits are paired in pts_kl_prepare(). */
enum raw_type { RAW_ENTER, RAW_EXIT, RAW_FAULT };

struct raw {
	enum raw_type type;
	int32_t pid, tid;
	uint64_t ns, ip, addr, error_code;
	int64_t nr, ret;
	size_t seq;		/* order of adding: ties keep it */
};

/* One thread's records: recs[start, end), in time order; cursor per kind. */
struct kl_thread {
	int32_t tid;
	size_t start, end;
	size_t cursor[2];	/* first record of the kind that may still be taken */
};

struct pts_klabels {
	struct raw *raw;
	size_t nraw, capraw;
	struct pts_kl_rec *recs;
	size_t n;
	struct kl_thread *threads;	/* sorted by tid */
	size_t nthreads;
	uint64_t origin_ns;
	uint64_t unpaired_exits;
};

struct pts_klabels *pts_kl_new(void)
{
	return calloc(1, sizeof(struct pts_klabels));
}

void pts_kl_free(struct pts_klabels *kl)
{
	if (!kl)
		return;
	free(kl->raw);
	free(kl->recs);
	free(kl->threads);
	free(kl);
}

static int add_raw(struct pts_klabels *kl, const struct raw *r)
{
	if (kl->nraw == kl->capraw) {
		size_t cap = kl->capraw ? kl->capraw * 2 : 256;
		struct raw *v = realloc(kl->raw, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		kl->raw = v;
		kl->capraw = cap;
	}
	kl->raw[kl->nraw] = *r;
	kl->raw[kl->nraw].seq = kl->nraw;
	kl->nraw++;
	return 0;
}

int pts_kl_add_enter(struct pts_klabels *kl, int32_t pid, int32_t tid, uint64_t ns, int64_t nr,
		     uint64_t ip)
{
	struct raw r = { .type = RAW_ENTER, .pid = pid, .tid = tid, .ns = ns, .nr = nr, .ip = ip };

	return add_raw(kl, &r);
}

int pts_kl_add_exit(struct pts_klabels *kl, int32_t pid, int32_t tid, uint64_t ns, int64_t nr,
		    int64_t ret, uint64_t ip)
{
	struct raw r = { .type = RAW_EXIT, .pid = pid, .tid = tid, .ns = ns, .nr = nr,
			 .ret = ret, .ip = ip };

	return add_raw(kl, &r);
}

int pts_kl_add_fault(struct pts_klabels *kl, int32_t pid, int32_t tid, uint64_t ns,
		     uint64_t addr, uint64_t error_code, uint64_t ip)
{
	struct raw r = { .type = RAW_FAULT, .pid = pid, .tid = tid, .ns = ns, .addr = addr,
			 .error_code = error_code, .ip = ip };

	return add_raw(kl, &r);
}

/* By thread, then time; records of one thread and time stay in the order added. */
static int raw_cmp(const void *a, const void *b)
{
	const struct raw *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int pts_kl_prepare(struct pts_klabels *kl, uint64_t origin_ns)
{
	size_t i;

	kl->origin_ns = origin_ns;
	if (!kl->nraw)
		return 0;
	qsort(kl->raw, kl->nraw, sizeof(*kl->raw), raw_cmp);
	kl->recs = calloc(kl->nraw, sizeof(*kl->recs));
	kl->threads = calloc(kl->nraw, sizeof(*kl->threads));
	if (!kl->recs || !kl->threads)
		return -ENOMEM;
	for (i = 0; i < kl->nraw; i++) {
		const struct raw *r = &kl->raw[i];
		struct pts_kl_rec *o;

		if (r->type == RAW_EXIT) {
			/* its entry was not recorded (before the capture, or lost) */
			kl->unpaired_exits++;
			continue;
		}
		if (!kl->nthreads || kl->threads[kl->nthreads - 1].tid != r->tid) {
			struct kl_thread *t = &kl->threads[kl->nthreads++];

			t->tid = r->tid;
			t->start = t->end = t->cursor[0] = t->cursor[1] = kl->n;
		}
		o = &kl->recs[kl->n++];
		kl->threads[kl->nthreads - 1].end = kl->n;
		o->pid = r->pid;
		o->tid = r->tid;
		o->ns = r->ns;
		o->ip = r->ip;
		if (r->type == RAW_FAULT) {
			o->kind = PTS_KL_FAULT;
			o->addr = r->addr;
			o->error_code = r->error_code;
			continue;
		}
		o->kind = PTS_KL_SYSCALL;
		o->nr = r->nr;
		/* the thread's next record is this syscall's exit, if any */
		if (i + 1 < kl->nraw && kl->raw[i + 1].tid == r->tid &&
		    kl->raw[i + 1].type == RAW_EXIT && kl->raw[i + 1].nr == r->nr) {
			o->has_exit = true;
			o->exit_ns = kl->raw[i + 1].ns;
			o->ret = kl->raw[i + 1].ret;
			i++;
		}
	}
	free(kl->raw);
	kl->raw = NULL;
	kl->nraw = kl->capraw = 0;
	return 0;
}

size_t pts_kl_count(const struct pts_klabels *kl)
{
	return kl ? kl->n + kl->nraw : 0;
}

static struct kl_thread *find_thread(struct pts_klabels *kl, int32_t tid)
{
	size_t lo = 0, hi = kl->nthreads;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (kl->threads[mid].tid == tid)
			return &kl->threads[mid];
		if (kl->threads[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The first record of the kind not taken and not before t0_ns, or NULL. */
static struct pts_kl_rec *candidate(struct pts_klabels *kl, enum pts_kl_kind kind, int32_t tid,
				    uint64_t t0_ns, struct kl_thread **tp)
{
	struct kl_thread *t;
	uint64_t t0 = t0_ns + kl->origin_ns;
	size_t i;

	if (!kl->recs)
		return NULL;
	t = find_thread(kl, tid);
	if (!t)
		return NULL;
	for (i = t->cursor[kind]; i < t->end; i++)
		if (kl->recs[i].kind == kind && !kl->recs[i].taken && kl->recs[i].ns >= t0)
			break;
	*tp = t;
	return i == t->end ? NULL : &kl->recs[i];
}

static const struct pts_kl_rec *take(struct pts_klabels *kl, struct kl_thread *t,
				     struct pts_kl_rec *r)
{
	r->taken = true;
	pts_kl_make_args(r);
	t->cursor[r->kind] = (size_t)(r - kl->recs) + 1;
	return r;
}

const struct pts_kl_rec *pts_kl_match(struct pts_klabels *kl, enum pts_kl_kind kind, int32_t tid,
				      uint64_t t0_ns, uint64_t ip)
{
	struct kl_thread *t;
	struct pts_kl_rec *r;

	if (!kl || !ip)
		return NULL;
	r = candidate(kl, kind, tid, t0_ns, &t);
	return r && r->ip == ip ? take(kl, t, r) : NULL;
}

const struct pts_kl_rec *pts_kl_match_handler(struct pts_klabels *kl, int32_t tid,
					      uint64_t t0_ns, const char *fn)
{
	static const char prefix[] = "__x64_sys_";
	struct kl_thread *t;
	struct pts_kl_rec *r;
	const char *name;

	if (!kl || !fn || strncmp(fn, prefix, sizeof(prefix) - 1))
		return NULL;
	r = candidate(kl, PTS_KL_SYSCALL, tid, t0_ns, &t);
	name = r ? pts_syscall_name(r->nr) : NULL;
	fn += sizeof(prefix) - 1;
	if (!name || (strcmp(fn, name) && (strncmp(fn, "new", 3) || strcmp(fn + 3, name))))
		return NULL;
	return take(kl, t, r);
}

/* "-ENOENT" for an errno return, hex for an address, else decimal. */
static void ret_text(int64_t ret, char *buf, size_t len)
{
	const char *e = ret < 0 && ret >= -4095 ? strerrorname_np((int)-ret) : NULL;

	if (e)
		snprintf(buf, len, "-%s", e);
	else if (ret >= (int64_t)1 << 32)
		snprintf(buf, len, "0x%" PRIx64, (uint64_t)ret);
	else
		snprintf(buf, len, "%" PRId64, ret);
}

const char *pts_kl_label(const struct pts_kl_rec *r, bool bracketed, char *buf, size_t len)
{
	const char *open = bracketed ? "[" : "", *close = bracketed ? "]" : "";

	if (r->kind == PTS_KL_SYSCALL) {
		const char *name = pts_syscall_name(r->nr);
		char nm[32], ret[32];

		if (!name) {
			snprintf(nm, sizeof(nm), "%" PRId64, r->nr);
			name = nm;
		}
		if (!r->has_exit) {
			snprintf(buf, len, "%ssyscall %s%s", open, name, close);
			return buf;
		}
		ret_text(r->ret, ret, sizeof(ret));
		snprintf(buf, len, "%ssyscall %s \u2192 %s%s", open, name, ret, close);
		return buf;
	}
	/* SDM vol. 3A 4.7 "Page-Fault Exceptions", Linux's enum x86_pf_error_code */
	snprintf(buf, len, "%spage fault 0x%" PRIx64 " %s%s%s%s%s%s%s%s", open, r->addr,
		 (r->error_code & (1u << 4)) ? "fetch" : (r->error_code & (1u << 1)) ? "write" :
								       "read",
		 (r->error_code & (1u << 0)) ? " present" : "",
		 (r->error_code & (1u << 2)) ? "" : " kernel",
		 (r->error_code & (1u << 3)) ? " rsvd" : "",
		 (r->error_code & (1u << 5)) ? " pkey" : "",
		 (r->error_code & (1u << 6)) ? " shstk" : "",
		 (r->error_code & (1u << 15)) ? " sgx" : "", close);
	return buf;
}

void pts_kl_stats(const struct pts_klabels *kl,
		  int (*thread_span)(void *ctx, int32_t tid, uint64_t *first, uint64_t *last),
		  void *ctx, struct pts_kl_stats *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!kl)
		return;
	out->unpaired_exits = kl->unpaired_exits;
	for (i = 0; i < kl->n; i++) {
		const struct pts_kl_rec *r = &kl->recs[i];
		uint64_t first, last, ns = r->ns >= kl->origin_ns ? r->ns - kl->origin_ns : 0;

		out->records++;
		if (r->taken)
			out->matched++;
		else if (!thread_span || thread_span(ctx, r->tid, &first, &last) ||
			 r->ns < kl->origin_ns || ns < first || ns > last)
			out->outside++;
		else
			out->unmatched++;
	}
}
