// SPDX-License-Identifier: GPL-2.0
/* One CPU's trace decoded in PSB-bounded chunks by worker threads (pardec.h). */
#include "pardec.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <intel-pt.h>

#include "../decode/image.h"
#include "pardec_cyc.h"

/* One event as a chunk stores it (the decoder's are rewritten in place). */
struct pev {
	uint64_t from, to, ts_ns, pos;
	int32_t pid, tid;
	uint8_t kind, flags, insn_len;
	uint8_t has_x;		/* offset, value and detail in the chunk's x[xi] */
	uint32_t xi;
};

struct pex {
	uint64_t offset, value;
	char detail[160];
};

/*
 * A run of jumps: consecutive PTS_BR_JUMP events of one thread with
 * nothing else between them (with several CPUs, also of one time: the
 * merge hands such jumps out back to back, pardec.h), stored as one event
 * (flag PEV_RUN, from/to/ts/pos of its first jump) whose jumps are
 * jumps[j0, j0 + n). lo and hi bound every from and to: when both lie in
 * the consumer's elide window, every jump of the run would be dropped one
 * by one (nothing is fed between them, so the window does not move), and
 * the run is dropped at once; otherwise its jumps are handed out singly.
 */
#define PEV_RUN 0x80	/* pev.flags: a run of jumps, runs[xi] */

struct prun {
	uint64_t lo, hi;	/* least and greatest from/to of its jumps */
	uint32_t j0, n;
};

struct pjump {
	uint64_t from, to, ts_ns;
};

/*
 * Decoder statistics when event idx was handed out, but for insns: those
 * counted when it was queued (pts_ptdec_insns_before).
 */
struct snap {
	uint64_t idx;
	struct pts_ptdec_stats st;
};

enum chunk_state { CH_QUEUED, CH_RUNNING, CH_DONE, CH_FAILED };

struct chunk {
	struct pts_pcpu *owner;
	uint64_t start;		/* its PSB (ignored for the first chunk) */
	bool first;		/* the trace's first chunk: synchronised as the serial decoder */
	uint64_t end;		/* the next chunk's PSB, or the trace's length */
	enum chunk_state state;	/* under the pool's lock */
	struct chunk *next;	/* the CPU's next chunk */
	struct chunk *qnext;	/* the pool's queue */
	/* events [base, base + n) */
	struct pev *ev;
	size_t n, cap;
	uint64_t base;
	struct pex *x;
	size_t nx, capx;
	struct prun *runs;
	size_t nruns, capruns;
	struct pjump *jumps;
	size_t njumps, capjumps;
	/* the decoder's last event began or extended the last stored run */
	bool run_open;
	bool run_skipped;	/* ... which lies before skip_to: its jumps are not stored */
	bool single;		/* owner->single: runs are not cut at time changes */
	int32_t run_pid, run_tid;
	uint64_t run_ts;
	uint64_t over;		/* index of the first event past end (UINT64_MAX: none yet) */
	struct snap *snaps;	/* at indexes < PTS_PAR_SKIP and from over on */
	size_t nsnaps, capsnaps;
	struct pts_ptdec_stats fin;	/* when decoding stopped */
	bool complete;		/* the decoder reached the end of the trace */
	bool risky;		/* decoded what a fresh start may get wrong (pardec.h) */
	struct pts_ptdec *dec;	/* kept when the consumer decodes on with it */
	uint64_t dec_next;	/* index of the decoder's next event */
	uint64_t skip_to;	/* events before this index are decoded again, not stored */
};

struct pts_pool {
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	struct chunk *qhead, *qtail;
	bool stop;
	unsigned int n;
	pthread_t *th;
	struct pts_imgset *set;
	uint64_t worker_cpu_ns;		/* CPU time of the workers that ended (under mu) */
	bool reverse;			/* pts_pool_options.reverse */
	enum pts_pardec_break brk;	/* pts_pool_options.brk */
};

/* CPU time of the calling thread, ns (0 if the clock is missing). */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct pts_pcpu {
	struct pts_pool *pool;
	struct pts_ptdec_config cfg;	/* the chunks' decoders' (no elide, no page release) */
	struct pts_br_elide *elide;	/* applied at hand-out */
	size_t chunk_bytes;
	bool release;			/* the trace is mapped: drop the pages behind */
	unsigned int window, nchunks;
	struct chunk *cur, *tail;
	/*
	 * chunks used up, kept with their arrays for the next ones (a chunk's
	 * arrays are MiBs: freed and grown again per chunk, the workers'
	 * time went to page faults and copies); at most `window` of them
	 */
	struct chunk *spare;
	uint64_t r;			/* index in cur of the next event to hand out */
	uint64_t lim;			/* r below this: cur's event r is ready (set by ready()) */
	uint64_t stop;			/* cur's events end here (UINT64_MAX: not decided) */
	uint64_t next_r;		/* ... and the successor's begin here */
	int rc;				/* an error met in peek, reported by next */
	struct pts_err err;
	struct pts_ptdec_stats acc;	/* contributions of the chunks done */
	struct pts_ptdec_stats start_st;	/* cur's statistics at its first event used */
	bool ended;
	bool cur_done;			/* cur was waited for (wait_chunk) */
	/* the pool's brk (pts_pool_options): a rule broken on purpose */
	bool break_joins, break_runs;
	bool single;			/* the only CPU of the decode: runs are not cut at time changes */
	uint32_t sub;			/* jumps of the run at r handed out singly so far */
	uint64_t elided, joined, refused, dropped;
	struct pts_branch out;		/* the event handed out (cpu set once) */
	bool out_extra;			/* out's offset, value or detail are set */
	char detail[160];
};

/* --- statistics arithmetic --- */

static void st_add(struct pts_ptdec_stats *a, const struct pts_ptdec_stats *b,
		   const struct pts_ptdec_stats *minus)
{
	int k;

	a->insns += b->insns - minus->insns;
	a->blocks += b->blocks - minus->blocks;
	a->branches += b->branches - minus->branches;
	a->gaps += b->gaps - minus->gaps;
	a->events += b->events - minus->events;
	for (k = 0; k < PTS_PTEV_MAX; k++)
		a->by_event[k] += b->by_event[k] - minus->by_event[k];
	a->errata_unknown |= b->errata_unknown;
}

static const struct pts_ptdec_stats *snap_at(const struct chunk *c, uint64_t idx)
{
	size_t lo = 0, hi = c->nsnaps;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->snaps[mid].idx < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nsnaps && c->snaps[lo].idx == idx ? &c->snaps[lo].st : NULL;
}

/* --- decoding a chunk --- */

static void chunk_reset(struct chunk *c, uint64_t base)
{
	c->n = 0;
	c->nx = 0;
	c->nruns = 0;
	c->njumps = 0;
	c->run_open = false;
	c->single = c->owner->single;
	c->nsnaps = 0;
	c->base = base;
	c->over = UINT64_MAX;
	c->complete = false;
	c->risky = false;
}

static void chunk_free_data(struct chunk *c)
{
	free(c->ev);
	free(c->x);
	free(c->snaps);
	free(c->runs);
	free(c->jumps);
	c->ev = NULL;
	c->x = NULL;
	c->snaps = NULL;
	c->runs = NULL;
	c->jumps = NULL;
	c->cap = c->capx = c->capsnaps = c->capruns = c->capjumps = 0;
	pts_ptdec_free(c->dec);
	c->dec = NULL;
}

static __attribute__((noinline)) int grow_slow(void **p, size_t *cap, size_t need,
					       size_t size)
{
	size_t n = *cap ? *cap : 1024;
	void *q;

	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

/* Room for need elements of size bytes in *p (capacity *cap): 0, or -ENOMEM. */
static inline int grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (__builtin_expect(need <= *cap, 1))
		return 0;
	return grow_slow(p, cap, need, size);
}

static bool take_jump(void *ctx, int32_t pid, int32_t tid, uint64_t from, uint64_t to,
		      uint64_t ts_ns, uint64_t pos);

static int new_decoder(struct chunk *c, struct pts_imgview *view, struct pts_ptdec **out)
{
	struct pts_ptdec_config dc = c->owner->cfg;
	struct pts_err err;

	dc.view = view;
	dc.take_jump = take_jump;
	dc.jump_ctx = c;
	dc.sync_at_psb = !c->first;
	dc.sync_off = c->start;
	return pts_ptdec_new(&dc, out, &err);
}

/* Offset, value or detail set: the event's extra fields go to the chunk's x[]. */
static inline bool has_extra(const struct pts_branch *br)
{
	return br->detail || br->offset || br->value;
}

/* A jump that a run may hold: nothing but kind, from, to and time set (extra: has_extra). */
static inline bool plain_jump(const struct pts_branch *br, bool extra)
{
	return br->kind == PTS_BR_JUMP && !br->flags && !br->insn_len && !extra;
}

/*
 * A jump extends the run the last event began: a plain jump of the same
 * thread (and, with several CPUs, of the same time). It is stored unless
 * the run lies before skip_to. 1 taken, 0 not, -ENOMEM.
 */
static inline int extend_run(struct chunk *c, int32_t pid, int32_t tid, uint64_t from,
			     uint64_t to, uint64_t ts_ns)
{
	struct prun *r;
	struct pjump *j;
	uint64_t lo = from < to ? from : to, hi = from < to ? to : from;

	if (!c->run_open || pid != c->run_pid || tid != c->run_tid ||
	    (!c->single && ts_ns != c->run_ts))
		return 0;
	if (c->run_skipped)
		return 1;
	if (grow((void **)&c->jumps, &c->capjumps, c->njumps + 1, sizeof(*c->jumps)))
		return -ENOMEM;
	j = &c->jumps[c->njumps++];
	j->from = from;
	j->to = to;
	j->ts_ns = ts_ns;
	r = &c->runs[c->nruns - 1];
	r->n++;
	r->lo = lo < r->lo ? lo : r->lo;
	r->hi = hi > r->hi ? hi : r->hi;
	return 1;
}

/* Event e (just stored) begins a run of jumps: room for one more run and jump made. */
static inline void start_run(struct chunk *c, struct pev *e, uint64_t from, uint64_t to,
			     uint64_t ts_ns)
{
	struct prun *r;
	struct pjump *j;

	e->flags |= PEV_RUN;
	e->xi = (uint32_t)c->nruns;
	r = &c->runs[c->nruns++];
	r->j0 = (uint32_t)c->njumps;
	r->n = 1;
	r->lo = from < to ? from : to;
	r->hi = from < to ? to : from;
	j = &c->jumps[c->njumps++];
	j->from = from;
	j->to = to;
	j->ts_ns = ts_ns;
}

/* Event e (just stored) begins a run of jumps. 0, or -ENOMEM. */
static int begin_run(struct chunk *c, struct pev *e, uint64_t from, uint64_t to, uint64_t ts_ns)
{
	if (grow((void **)&c->runs, &c->capruns, c->nruns + 1, sizeof(*c->runs)) ||
	    grow((void **)&c->jumps, &c->capjumps, c->njumps + 1, sizeof(*c->jumps)))
		return -ENOMEM;
	start_run(c, e, from, to, ts_ns);
	return 0;
}

/*
 * A jump that extends no run begins one, stored here as run() would
 * store it (idx c->dec_next, trace position pos) when it needs nothing
 * run() does besides: a statistics snapshot (the join's events), the
 * start of the overlap. 1 taken, 0 not (it comes through the queue),
 * -ENOMEM (nothing changed).
 */
static int take_run(struct chunk *c, int32_t pid, int32_t tid, uint64_t from, uint64_t to,
		    uint64_t ts_ns, uint64_t pos)
{
	uint64_t idx = c->dec_next;
	struct pev *e;

	if (idx >= c->skip_to &&
	    (idx < PTS_PAR_SKIP || c->over != UINT64_MAX || pos > c->end))
		return 0;
	if (idx >= c->skip_to &&
	    (grow((void **)&c->ev, &c->cap, c->n + 1, sizeof(*c->ev)) ||
	     grow((void **)&c->runs, &c->capruns, c->nruns + 1, sizeof(*c->runs)) ||
	     grow((void **)&c->jumps, &c->capjumps, c->njumps + 1, sizeof(*c->jumps))))
		return -ENOMEM;	/* nothing changed: the queue brings it, and the error */
	c->dec_next++;
	c->run_open = true;
	c->run_pid = pid;
	c->run_tid = tid;
	c->run_ts = ts_ns;
	c->run_skipped = idx < c->skip_to;
	if (c->run_skipped)
		return 1;
	e = &c->ev[c->n++];
	e->from = from;
	e->to = to;
	e->ts_ns = ts_ns;
	e->pos = pos;
	e->pid = pid;
	e->tid = tid;
	e->kind = PTS_BR_JUMP;
	e->flags = 0;
	e->insn_len = 0;
	e->has_x = 0;
	e->xi = 0;
	start_run(c, e, from, to, ts_ns);
	return 1;
}

/*
 * The decoder's offer of a jump (pts_ptdec_config.take_jump): every event
 * before it was handed out, so it extends the open run, or begins one, as
 * it would when handed out. Out of memory: not taken (it comes through
 * the queue, and the error with it).
 */
static __attribute__((noinline)) bool take_jump_slow(struct chunk *c, int32_t pid, int32_t tid,
						    uint64_t from, uint64_t to, uint64_t ts_ns,
						    uint64_t pos)
{
	int got = extend_run(c, pid, tid, from, to, ts_ns);

	if (!got)
		got = take_run(c, pid, tid, from, to, ts_ns, pos);
	return got > 0;
}

/* The common case first: a jump that extends the open run, with room for it. */
static bool take_jump(void *ctx, int32_t pid, int32_t tid, uint64_t from, uint64_t to,
		      uint64_t ts_ns, uint64_t pos)
{
	struct chunk *c = ctx;
	struct prun *r;
	struct pjump *j;

	if (!c->run_open || c->run_skipped || pid != c->run_pid || tid != c->run_tid ||
	    (!c->single && ts_ns != c->run_ts) || c->njumps >= c->capjumps)
		return take_jump_slow(c, pid, tid, from, to, ts_ns, pos);
	j = &c->jumps[c->njumps++];
	j->from = from;
	j->to = to;
	j->ts_ns = ts_ns;
	r = &c->runs[c->nruns - 1];
	r->n++;
	if (from < r->lo)
		r->lo = from;
	if (from > r->hi)
		r->hi = from;
	if (to < r->lo)
		r->lo = to;
	if (to > r->hi)
		r->hi = to;
	return true;
}

/* Event e (just stored, from br) has offset, value or detail: into c->x. */
static int store_extra(struct chunk *c, struct pev *e, const struct pts_branch *br)
{
	struct pex *x;

	if (grow((void **)&c->x, &c->capx, c->nx + 1, sizeof(*c->x)))
		return -ENOMEM;
	e->xi = (uint32_t)c->nx;
	x = &c->x[c->nx++];
	x->offset = br->offset;
	x->value = br->value;
	x->detail[0] = '\0';
	if (br->detail)
		snprintf(x->detail, sizeof(x->detail), "%s", br->detail);
	/* a fresh start may lack the returns' calls: not joinable (pardec.h) */
	if (br->kind == PTS_BR_GAP && br->detail &&
	    !strcmp(br->detail, pt_errstr(pte_retstack_empty)))
		c->risky = true;
	return 0;
}

/*
 * Decode on with c->dec, appending to c's events, until `limit` more are
 * stored before the overlap, or PTS_PAR_OVERLAP events past c->end, or
 * the end of the trace. Events before c->skip_to are decoded and dropped.
 * A stored event is a run of jumps or one other event; it stops only after
 * an event that is not a jump, so that where runs begin and end depends on
 * the events alone, never on where a call stopped (a decoder remade to
 * skip to an index finds the same events at the same indexes).
 */
static int run(struct chunk *c, struct pts_ptdec *dec, uint64_t limit)
{
	const struct pts_branch *br;
	size_t n0 = c->n;	/* events stored so far: c->n - n0 (take_run stores some) */

	for (;;) {
		uint64_t idx, pos;
		struct pev *e;
		bool extra, plain;
		int got;

		if (!c->run_open && c->over != UINT64_MAX &&
		    c->dec_next >= c->over + PTS_PAR_OVERLAP)
			break;
		if (!c->run_open && c->n - n0 >= limit && c->over == UINT64_MAX)
			break;
		got = pts_ptdec_next(dec, &br);
		if (!got) {
			c->complete = true;
			c->run_open = false;
			break;
		}
		idx = c->dec_next;	/* after the jumps take_jump took */
		extra = has_extra(br);
		plain = plain_jump(br, extra);
		got = plain ? extend_run(c, br->pid, br->tid, br->from, br->to, br->ts_ns) : 0;
		if (got < 0)
			return got;
		if (got)
			continue;
		c->dec_next++;
		c->run_open = plain;
		if (plain) {
			/* read only while the run is open */
			c->run_pid = br->pid;
			c->run_tid = br->tid;
			c->run_ts = br->ts_ns;
			c->run_skipped = idx < c->skip_to;
		}
		if (idx < c->skip_to)
			continue;
		pos = pts_ptdec_pos(dec);
		if (pos > c->end && c->over == UINT64_MAX)
			c->over = idx;
		if (grow((void **)&c->ev, &c->cap, c->n + 1, sizeof(*c->ev)))
			return -ENOMEM;
		e = &c->ev[c->n++];
		e->from = br->from;
		e->to = br->to;
		e->ts_ns = br->ts_ns;
		e->pos = pos;
		e->pid = br->pid;
		e->tid = br->tid;
		e->kind = (uint8_t)br->kind;
		e->flags = (uint8_t)br->flags;
		e->insn_len = br->insn_len;
		e->has_x = extra;
		e->xi = 0;
		if (plain && begin_run(c, e, br->from, br->to, br->ts_ns))
			return -ENOMEM;
		if (extra && store_extra(c, e, br))
			return -ENOMEM;
		if (idx < PTS_PAR_SKIP || c->over != UINT64_MAX) {
			struct snap *sn;

			if (grow((void **)&c->snaps, &c->capsnaps, c->nsnaps + 1, sizeof(*c->snaps)))
				return -ENOMEM;
			sn = &c->snaps[c->nsnaps++];
			sn->idx = idx;
			pts_ptdec_stats(dec, &sn->st);
			/* not the block at its target: its length varies (find_join) */
			sn->st.insns = pts_ptdec_insns_before(dec);
		}
	}
	pts_ptdec_stats(dec, &c->fin);
	return 0;
}

/*
 * The whole chunk, in a worker (or by the consumer when no worker took
 * it), with a decoder of its own: c->dec is the consumer's only.
 */
static int decode_chunk(struct chunk *c, struct pts_imgview *view)
{
	struct pts_ptdec *dec;
	int rc;

	chunk_reset(c, 0);
	c->dec_next = 0;
	c->skip_to = 0;
	rc = new_decoder(c, view, &dec);
	if (rc)
		return rc;
	rc = run(c, dec, UINT64_MAX);
	if (!rc && !c->first && pts_pt_has_cyc(c->owner->cfg.buf, c->owner->cfg.size, c->start, c->end))
		c->risky = true;
	pts_ptdec_free(dec);
	return rc;
}

/* --- the pool --- */

static void *worker(void *arg)
{
	struct pts_pool *pool = arg;
	struct pts_imgview *view = NULL;

	pts_imgview_new(pool->set, &view);	/* NULL: every chunk fails, the consumer decodes */
	pthread_mutex_lock(&pool->mu);
	for (;;) {
		struct chunk *c;
		int rc;

		while (!pool->qhead && !pool->stop)
			pthread_cond_wait(&pool->work, &pool->mu);
		if (pool->stop)
			break;
		c = pool->qhead;
		pool->qhead = c->qnext;
		if (!pool->qhead)
			pool->qtail = NULL;
		c->state = CH_RUNNING;
		pthread_mutex_unlock(&pool->mu);
		rc = view ? decode_chunk(c, view) : -ENOMEM;
		pthread_mutex_lock(&pool->mu);
		c->state = rc ? CH_FAILED : CH_DONE;
		pthread_cond_broadcast(&pool->done);
	}
	pool->worker_cpu_ns += thread_cpu_ns();
	pthread_mutex_unlock(&pool->mu);
	pts_imgview_free(view);
	return NULL;
}

int pts_pool_new(const struct pts_pool_options *opt, struct pts_imgset *set,
		 struct pts_pool **out, struct pts_err *err)
{
	struct pts_pool *pool = calloc(1, sizeof(*pool));
	unsigned int i, n = opt->threads;

	if (!pool || !(pool->th = calloc(n ? n : 1, sizeof(*pool->th)))) {
		free(pool);
		return pts_err_set(err, ENOMEM, "out of memory for %u decoder threads", n);
	}
	pthread_mutex_init(&pool->mu, NULL);
	pthread_cond_init(&pool->work, NULL);
	pthread_cond_init(&pool->done, NULL);
	pool->set = set;
	pool->reverse = opt->reverse;
	pool->brk = opt->brk;
	if (pool->reverse)
		n = 0;
	for (i = 0; i < n; i++) {
		int e = pthread_create(&pool->th[i], NULL, worker, pool);

		if (e) {
			pool->n = i;
			pts_pool_free(pool, NULL);
			return pts_err_set(err, e, "cannot start decoder thread %u: %s", i, strerror(e));
		}
	}
	pool->n = n;
	*out = pool;
	return 0;
}

void pts_pool_free(struct pts_pool *pool, struct pts_pool_cpu *cpu)
{
	unsigned int i;

	if (!pool)
		return;
	pthread_mutex_lock(&pool->mu);
	pool->stop = true;
	pthread_cond_broadcast(&pool->work);
	pthread_mutex_unlock(&pool->mu);
	for (i = 0; i < pool->n; i++)
		pthread_join(pool->th[i], NULL);
	/*
	 * How the CPU time divided (tools/bench/parallel.sh): the calling
	 * thread's bounds the wall time however many cores there are.
	 */
	if (cpu) {
		cpu->calling_ns = thread_cpu_ns();
		cpu->workers_ns = pool->worker_cpu_ns;
		cpu->workers = pool->n;
	}
	pthread_cond_destroy(&pool->work);
	pthread_cond_destroy(&pool->done);
	pthread_mutex_destroy(&pool->mu);
	free(pool->th);
	free(pool);
}

/* --- chunks of one CPU --- */

/* Offset of the first PSB at or after `from`, or the trace's length. */
static uint64_t psb_at_or_after(const struct pts_pcpu *p, uint64_t from)
{
	static const uint8_t psb[16] = { 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
					 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82 };
	const uint8_t *b = p->cfg.buf;
	uint64_t size = p->cfg.size;

	while (from + sizeof(psb) <= size) {
		const uint8_t *hit = memmem(b + from, size - from, psb, sizeof(psb));

		if (!hit)
			break;
		return (uint64_t)(hit - b);
	}
	return size;
}

/* A chunk, zeroed but for the arrays of a spare one (their capacities kept). */
static struct chunk *new_chunk(struct pts_pcpu *p)
{
	struct chunk *c = p->spare, keep;

	if (!c)
		return calloc(1, sizeof(*c));
	p->spare = c->next;
	keep = *c;
	memset(c, 0, sizeof(*c));
	c->ev = keep.ev;
	c->cap = keep.cap;
	c->x = keep.x;
	c->capx = keep.capx;
	c->snaps = keep.snaps;
	c->capsnaps = keep.capsnaps;
	c->runs = keep.runs;
	c->capruns = keep.capruns;
	c->jumps = keep.jumps;
	c->capjumps = keep.capjumps;
	return c;
}

/* c is used up: keep it (and its arrays) for a later chunk. */
static void retire_chunk(struct pts_pcpu *p, struct chunk *c)
{
	pts_ptdec_free(c->dec);
	c->dec = NULL;
	c->next = p->spare;
	p->spare = c;
}

/* Queue the CPU's next chunk after its tail (none past the end). */
static int add_chunk(struct pts_pcpu *p)
{
	struct pts_pool *pool = p->pool;
	struct chunk *c, *t = p->tail;
	uint64_t start = t ? t->end : 0;

	if (t && t->end >= p->cfg.size)
		return 0;
	c = new_chunk(p);
	if (!c)
		return -ENOMEM;
	c->owner = p;
	c->first = !t;
	c->start = start;
	/* the first PSB after chunk_bytes more; a chunk ends where the next starts */
	c->end = psb_at_or_after(p, start + p->chunk_bytes);
	c->over = UINT64_MAX;
	if (t)
		t->next = c;
	else
		p->cur = c;
	p->tail = c;
	p->nchunks++;
	pthread_mutex_lock(&pool->mu);
	c->state = CH_QUEUED;
	if (pool->qtail)
		pool->qtail->qnext = c;
	else
		pool->qhead = c;
	pool->qtail = c;
	pthread_cond_signal(&pool->work);
	pthread_mutex_unlock(&pool->mu);
	return 0;
}

static int fill_window(struct pts_pcpu *p)
{
	while (p->nchunks < p->window) {
		struct chunk *t = p->tail;

		if (t && t->end >= p->cfg.size)
			break;
		if (add_chunk(p))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Wait until c is decoded; a chunk no worker has started is taken off the
 * queue and decoded here (the consumer would only wait).
 */
static int wait_chunk(struct pts_pcpu *p, struct chunk *c)
{
	struct pts_pool *pool = p->pool;
	int rc = 0;

	if (pool->reverse && c->next && c->next->state == CH_QUEUED) {
		rc = wait_chunk(p, c->next);
		if (rc)
			return rc;
	}
	pthread_mutex_lock(&pool->mu);
	if (c->state == CH_QUEUED) {
		struct chunk **pp = &pool->qhead, *prev = NULL;

		while (*pp != c) {
			prev = *pp;
			pp = &(*pp)->qnext;
		}
		*pp = c->qnext;
		if (pool->qtail == c)
			pool->qtail = prev;
		c->state = CH_RUNNING;
		pthread_mutex_unlock(&pool->mu);
		rc = decode_chunk(c, NULL);
		pthread_mutex_lock(&pool->mu);
		c->state = rc ? CH_FAILED : CH_DONE;
	}
	while (c->state == CH_RUNNING)
		pthread_cond_wait(&pool->done, &pool->mu);
	if (c->state == CH_FAILED) {
		/* a worker could not make its decoder: decode it here */
		pthread_mutex_unlock(&pool->mu);
		rc = decode_chunk(c, NULL);
		pthread_mutex_lock(&pool->mu);
		c->state = rc ? CH_FAILED : CH_DONE;
	}
	pthread_mutex_unlock(&pool->mu);
	return rc;
}

/* Remove c (the chunk after cur, decoded) from the CPU's list. */
static void drop_chunk(struct pts_pcpu *p, struct chunk *prev, struct chunk *c)
{
	prev->next = c->next;
	if (p->tail == c)
		p->tail = prev;
	p->nchunks--;
	retire_chunk(p, c);
}

static bool pev_eq(const struct chunk *a, const struct pev *x, const struct chunk *b,
		   const struct pev *y)
{
	if (x->from != y->from || x->to != y->to || x->ts_ns != y->ts_ns || x->pos != y->pos ||
	    x->pid != y->pid || x->tid != y->tid || x->kind != y->kind || x->flags != y->flags ||
	    x->insn_len != y->insn_len || x->has_x != y->has_x)
		return false;
	if (x->flags & PEV_RUN) {
		const struct prun *ra = &a->runs[x->xi], *rb = &b->runs[y->xi];

		return ra->n == rb->n && ra->lo == rb->lo && ra->hi == rb->hi &&
		       !memcmp(&a->jumps[ra->j0], &b->jumps[rb->j0], ra->n * sizeof(*a->jumps));
	}
	if (!x->has_x)
		return true;
	return a->x[x->xi].offset == b->x[y->xi].offset &&
	       a->x[x->xi].value == b->x[y->xi].value &&
	       !strcmp(a->x[x->xi].detail, b->x[y->xi].detail);
}

/*
 * A branch that the decoder completed at the block starting at its target:
 * both decoders have counted every instruction up to the branch when they
 * queue it, and from there on count the same instructions (statistics
 * join there; at a PSB+'s own events, before the first block, the first
 * block of a fresh decoder may differ by where the serial one's block was
 * cut). Not after the block at the target: its length depends on the
 * libipt block cache the decoders share, so on which of them filled it
 * first (pts_ptdec_insns_before); joined after it, the two decoders'
 * counts of that block differed by a few instructions from run to run.
 */
static bool at_block(const struct pev *e)
{
	switch (e->kind) {
	case PTS_BR_CALL:
	case PTS_BR_RETURN:
	case PTS_BR_JUMP:
	case PTS_BR_SYSCALL:
	case PTS_BR_SYSRET:
	case PTS_BR_IRET:
		return e->to != 0 && !(e->flags & PTS_BRF_TRACE_OFF);
	default:
		return false;
	}
}

/*
 * Where a's events hand over to b's: *ia (index in a) and *jb (in b) with
 * PTS_PAR_MATCH identical events from there, among them two trace
 * positions (pardec.h). false: no join.
 */
static bool find_join(const struct chunk *a, uint64_t from, const struct chunk *b, uint64_t *ia,
		      uint64_t *jb)
{
	uint64_t i, j, aend = a->base + a->n, bend = b->base + b->n;

	if (a->over == UINT64_MAX || b->risky || b->base != 0)
		return false;
	for (i = a->over > from ? a->over : from; i < aend; i++) {
		for (j = 0; j < PTS_PAR_SKIP && j < bend; j++) {
			const struct pev *x = &a->ev[i - a->base], *y = &b->ev[j];
			uint64_t m = 0;
			bool moved = false;

			while (i + m < aend && j + m < bend && pev_eq(a, &x[m], b, &y[m])) {
				moved |= x[m].pos != x[0].pos;
				m++;
				if (m >= PTS_PAR_MATCH && moved)
					break;
			}
			if (m >= PTS_PAR_MATCH && moved && at_block(x) && snap_at(a, i) &&
			    snap_at(b, j)) {
				*ia = i;
				*jb = j;
				return true;
			}
		}
	}
	return false;
}

/*
 * cur's events are used up to its overlap: join the next chunk, or decode
 * on from cur's start with a decoder of our own past the next PSB.
 */
static int advance(struct pts_pcpu *p, struct pts_err *err)
{
	struct chunk *c = p->cur, *n = c->next;
	uint64_t ia, jb;
	int rc;

	if (!n) {
		/* cannot happen: a chunk with an overlap has a successor */
		p->stop = c->base + c->n;
		return 0;
	}
	rc = wait_chunk(p, n);
	if (rc)
		return pts_err_set(err, -rc, "out of memory decoding cpu %u", p->cfg.cpu);
	if (find_join(c, p->r, n, &ia, &jb)) {
		p->joined++;
		p->stop = ia;
		/* cur's contribution ends at ia; n's starts at jb (pardec.h) */
		st_add(&p->acc, snap_at(c, ia), &p->start_st);
		p->start_st = *snap_at(n, jb);
		p->next_r = jb + p->break_joins;
		/* the hand-over happens in ready() once r reaches stop */
		return 1;
	}
	p->refused++;
	/*
	 * Decode on with cur's own decoder, remade (from cur's start: the same
	 * events again, not stored up to the ones kept) if a worker made cur.
	 */
	if (!c->dec) {
		rc = new_decoder(c, NULL, &c->dec);
		if (rc)
			return pts_err_set(err, -rc, "out of memory decoding cpu %u", p->cfg.cpu);
		c->dec_next = 0;
		c->skip_to = c->base + c->n;
		c->run_open = false;
	}
	/* the overlap is now inside: past the successor's end, if the events go so far */
	c->end = n->end;
	c->over = UINT64_MAX;
	for (ia = p->r; ia < c->base + c->n; ia++) {
		if (c->ev[ia - c->base].pos > c->end) {
			c->over = ia;
			break;
		}
	}
	drop_chunk(p, c, n);
	rc = fill_window(p);
	if (rc)
		return pts_err_set(err, ENOMEM, "out of memory decoding cpu %u", p->cfg.cpu);
	return 0;
}

/* Switch from cur (used up to stop) to its successor at the join. */
static int hand_over(struct pts_pcpu *p, struct pts_err *err)
{
	struct chunk *c = p->cur, *n = c->next;

	p->cur = n;
	p->cur_done = false;
	p->nchunks--;
	/* the trace before n's PSB is decoded: its pages can go (they fault back from the file) */
	if (p->release) {
		long pg = sysconf(_SC_PAGESIZE);
		uint64_t to = n->start / (uint64_t)pg * (uint64_t)pg;

		if (to > p->dropped &&
		    !madvise((void *)(uintptr_t)(p->cfg.buf + p->dropped), to - p->dropped,
			     MADV_DONTNEED))
			p->dropped = to;
	}
	retire_chunk(p, c);
	p->r = p->next_r;
	p->stop = UINT64_MAX;
	if (fill_window(p))
		return pts_err_set(err, ENOMEM, "out of memory decoding cpu %u", p->cfg.cpu);
	return 0;
}

int pts_pcpu_new(struct pts_pool *pool, const struct pts_ptdec_config *cfg, size_t chunk_bytes,
		 unsigned int window, struct pts_pcpu **out, struct pts_err *err)
{
	struct pts_pcpu *p = calloc(1, sizeof(*p));

	if (!p)
		return pts_err_set(err, ENOMEM, "out of memory");
	p->pool = pool;
	p->cfg = *cfg;
	p->elide = cfg->elide;
	p->cfg.elide = NULL;
	p->cfg.elide_queued = false;
	p->cfg.on_insn = NULL;
	p->cfg.mapped = false;		/* pages are released here, behind the chunks used */
	p->release = cfg->mapped;
	p->chunk_bytes = chunk_bytes ? chunk_bytes : 1;
	p->window = window < 2 ? 2 : window;
	p->stop = UINT64_MAX;
	p->out.cpu = cfg->cpu;
	p->break_joins = pool->brk == PTS_PARDEC_BREAK_JOINS;
	p->break_runs = pool->brk == PTS_PARDEC_BREAK_RUNS;
	/* the decode's only CPU (the serial decoder then elides as it queues) */
	p->single = cfg->elide_queued || pool->brk == PTS_PARDEC_BREAK_TIME;
	if (fill_window(p)) {
		pts_pcpu_free(p);
		return pts_err_set(err, ENOMEM, "out of memory");
	}
	*out = p;
	return 0;
}

/*
 * Make cur's event r available: 1 yes, 0 the CPU's trace is done,
 * negative on errors.
 */
static int ready(struct pts_pcpu *p, struct pts_err *err)
{
	int rc;

	if (p->rc)
		return p->rc;
	while (!p->ended) {
		struct chunk *c = p->cur;

		if (!c) {
			p->ended = true;
			break;
		}
		if (!p->cur_done) {
			/* the pool's lock orders the worker's writes before our reads */
			rc = wait_chunk(p, c);
			p->cur_done = true;
			if (rc)
				return pts_err_set(err, -rc, "out of memory decoding cpu %u",
						   p->cfg.cpu);
		}
		if (p->stop != UINT64_MAX) {
			if (p->r < p->stop) {
				p->lim = p->stop;
				return 1;
			}
			rc = hand_over(p, err);
			if (rc)
				return rc;
			continue;
		}
		if (p->r < c->base + c->n && (p->r < c->over || c->complete)) {
			p->lim = c->base + c->n;
			if (!c->complete && c->over < p->lim)
				p->lim = c->over;
			if (p->lim <= p->r)	/* complete, r past over: one at a time */
				p->lim = p->r + 1;
			return 1;
		}
		if (p->r >= c->over && !c->complete) {
			/* cur's own events end here: join the next chunk or decode on */
			rc = advance(p, err);
			if (rc < 0)
				return rc;
			continue;
		}
		/* r is past the stored events: decode on, or the CPU is done */
		if (c->dec && !c->complete) {
			/* everything stored was handed out: start the buffer again at r */
			c->n = c->nx = c->nsnaps = c->nruns = c->njumps = 0;
			c->base = p->r;
			if (c->skip_to < p->r)
				c->skip_to = p->r;
			if (run(c, c->dec, 4096))
				return pts_err_set(err, ENOMEM, "out of memory decoding cpu %u",
						   p->cfg.cpu);
			continue;
		}
		st_add(&p->acc, &c->fin, &p->start_st);
		memset(&p->start_st, 0, sizeof(p->start_st));
		p->ended = true;
	}
	return 0;
}

/* The last event handed out set offset, value or detail: zero them again. */
static void clear_extra(struct pts_pcpu *p)
{
	p->out.offset = 0;
	p->out.value = 0;
	p->out.detail = NULL;
	p->out_extra = false;
}

/* Every jump of run e (with bounds run) lies in the elide window el. */
static inline bool run_in_window(const struct pts_br_elide *el, const struct pev *e,
				 const struct prun *run)
{
	return el && el->hi && e->pid == el->pid && e->tid == el->tid && run->lo >= el->lo &&
	       run->hi < el->hi;
}

/* Drop the run at cur's event r whole, counted in the window as one by one: 2. */
static inline int drop_run(struct pts_pcpu *p, const struct chunk *c, const struct prun *run)
{
	struct pts_br_elide *el = p->elide;

	el->dropped += run->n;
	el->ts_ns = c->jumps[run->j0 + run->n - 1].ts_ns;
	el->cpu = p->cfg.cpu;
	p->elided += run->n;
	p->r++;
	return 2;
}

/*
 * The run of jumps e (cur's event r): dropped whole when every from and
 * to lies in the elide window of its thread, else its jumps one per call.
 */
static int run_next(struct pts_pcpu *p, const struct chunk *c, const struct pev *e,
		    const struct pts_branch **out)
{
	const struct prun *run = &c->runs[e->xi];
	struct pts_br_elide *el = p->elide;
	const struct pjump *j;
	struct pts_branch *br = &p->out;

	if (p->break_runs && !p->sub && el && el->hi && e->pid == el->pid && e->tid == el->tid &&
	    e->from - el->lo < el->hi - el->lo && e->to - el->lo < el->hi - el->lo)
		return drop_run(p, c, run);
	if (!p->sub && run_in_window(el, e, run))
		return drop_run(p, c, run);
	j = &c->jumps[run->j0 + p->sub];
	if (++p->sub == run->n) {
		p->sub = 0;
		p->r++;
	}
	if (el && pts_br_elide_drop(el, e->pid, e->tid, j->from, j->to, j->ts_ns, p->cfg.cpu)) {
		p->elided++;
		return 2;
	}
	if (p->out_extra)
		clear_extra(p);
	br->kind = PTS_BR_JUMP;
	br->flags = 0;
	br->from = j->from;
	br->to = j->to;
	br->ts_ns = j->ts_ns;
	br->pid = e->pid;
	br->tid = e->tid;
	br->insn_len = 0;
	*out = br;
	return 1;
}

/* Copy stored event e into the event handed out (but for the extra fields). */
static inline void fill_out(struct pts_pcpu *p, const struct pev *e)
{
	struct pts_branch *br = &p->out;

	/*
	 * Every field the decoder sets. cpu is the CPU's, from_sym and
	 * to_sym stay zero (pts_pcpu_new); offset, value and detail are zero
	 * but after an event with extra fields (clear_extra).
	 */
	br->kind = (enum pts_br_kind)e->kind;
	br->flags = e->flags;
	br->from = e->from;
	br->to = e->to;
	br->ts_ns = e->ts_ns;
	br->pid = e->pid;
	br->tid = e->tid;
	br->insn_len = e->insn_len;
}

/* pts_pcpu_next but for its common case. */
static __attribute__((noinline)) int next_slow(struct pts_pcpu *p, const struct pts_branch **out,
					       struct pts_err *err)
{
	const struct pev *e;
	struct pts_branch *br = &p->out;
	struct chunk *c = p->cur;

	if (p->r >= p->lim) {
		int rc = ready(p, err);

		if (rc < 0 && p->rc)
			*err = p->err;
		if (rc <= 0)
			return rc;
		c = p->cur;
	}
	e = &c->ev[p->r - c->base];
	if (e->flags & PEV_RUN)
		return run_next(p, c, e, out);
	p->r++;
	if (e->kind == PTS_BR_JUMP && p->elide &&
	    pts_br_elide_drop(p->elide, e->pid, e->tid, e->from, e->to, e->ts_ns, p->cfg.cpu)) {
		p->elided++;
		return 2;
	}
	fill_out(p, e);
	if (p->out_extra)
		clear_extra(p);
	if (e->has_x) {
		const struct pex *x = &c->x[e->xi];

		p->out_extra = true;
		br->offset = x->offset;
		br->value = x->value;
		if (x->detail[0] || e->kind == PTS_BR_GAP || e->kind == PTS_BR_INSTANT) {
			memcpy(p->detail, x->detail, sizeof(p->detail));
			br->detail = p->detail;
		}
	}
	*out = br;
	return 1;
}

/*
 * The common cases first, without a call (so without saving registers),
 * for a stored event of the chunk in use before its overlap: one that is
 * neither a run nor a jump the window may drop, without extra fields,
 * after one without; a run whose jumps all lie in the window.
 */
int pts_pcpu_next(struct pts_pcpu *p, const struct pts_branch **out, struct pts_err *err)
{
	if (__builtin_expect(p->r < p->lim, 1)) {
		const struct chunk *c = p->cur;
		const struct pev *e = &c->ev[p->r - c->base];

		if (!(e->flags & PEV_RUN)) {
			if (e->kind != PTS_BR_JUMP && !e->has_x && !p->out_extra) {
				p->r++;
				fill_out(p, e);
				*out = &p->out;
				return 1;
			}
		} else if (!p->sub && !p->break_runs &&
			   run_in_window(p->elide, e, &c->runs[e->xi])) {
			return drop_run(p, c, &c->runs[e->xi]);
		}
	}
	return next_slow(p, out, err);
}

uint64_t pts_pcpu_peek_time(struct pts_pcpu *p)
{
	const struct chunk *c;
	int rc = ready(p, &p->err);

	if (rc < 0)
		p->rc = rc;
	if (rc <= 0)
		return UINT64_MAX;
	c = p->cur;
	if (p->sub)
		return c->jumps[c->runs[c->ev[p->r - c->base].xi].j0 + p->sub].ts_ns;
	return c->ev[p->r - c->base].ts_ns;
}

void pts_pcpu_stats(const struct pts_pcpu *p, struct pts_ptdec_stats *out)
{
	*out = p->acc;
	out->elided = p->elided;
}

uint64_t pts_pcpu_done(const struct pts_pcpu *p)
{
	return p->ended ? p->cfg.size : p->cur ? p->cur->start : 0;
}

int pts_pcpu_error(const struct pts_pcpu *p, struct pts_err *err)
{
	if (p->rc)
		*err = p->err;
	return p->rc;
}

void pts_pcpu_joins(const struct pts_pcpu *p, uint64_t *joined, uint64_t *refused)
{
	*joined = p->joined;
	*refused = p->refused;
}

void pts_pcpu_free(struct pts_pcpu *p)
{
	struct chunk *c;

	if (!p)
		return;
	/* chunks still queued or decoding: wait for them, then free */
	for (c = p->cur; c; c = c->next) {
		pthread_mutex_lock(&p->pool->mu);
		if (c->state == CH_QUEUED) {
			struct chunk **pp = &p->pool->qhead, *prev = NULL;

			while (*pp != c) {
				prev = *pp;
				pp = &(*pp)->qnext;
			}
			*pp = c->qnext;
			if (p->pool->qtail == c)
				p->pool->qtail = prev;
			c->state = CH_DONE;
		}
		while (c->state == CH_RUNNING)
			pthread_cond_wait(&p->pool->done, &p->pool->mu);
		pthread_mutex_unlock(&p->pool->mu);
	}
	while ((c = p->cur)) {
		p->cur = c->next;
		chunk_free_data(c);
		free(c);
	}
	while ((c = p->spare)) {
		p->spare = c->next;
		chunk_free_data(c);
		free(c);
	}
	free(p);
}
