// SPDX-License-Identifier: GPL-2.0
/*
 * One CPU's trace decoded in PSB-bounded chunks by worker threads
 * (pardec.h): its chunks queued, waited for, joined, and their events
 * handed out.
 */
#include "pardec_int.h"
#include "pardec_cyc.h"
#include "../decode/pt_cpu.h"

#include <errno.h>
#include <intel-pt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

/*
 * When the merge needs the chunk at PSB `at` (pardec_pool.c): the time of
 * the TSC packet of its PSB+, in the merge's clock. Without one (a trace
 * without timing), the key of the chunk before: the CPU's chunks in order.
 */
static uint64_t psb_key(const struct pts_pcpu *p, uint64_t at)
{
	/* a PSB+ is a few dozen bytes; the trace after them is readable (padded) */
	uint64_t len = p->cfg.size - at < 256 ? p->cfg.size - at : 256, tsc;

	if (pts_pt_first_tsc(p->cfg.buf + at, len, &p->errata, &tsc))
		return p->next_key;
	return pts_tc_ns(&p->cfg.tc, tsc);
}

/* A chunk, zeroed but for the arrays of a spare one (their capacities kept). */
static struct chunk *new_chunk(struct pts_pcpu *p)
{
	struct pts_pool *pool = p->pool;
	struct chunk *c = pool->spare, keep;

	if (!c)
		return calloc(1, sizeof(*c));
	pool->spare = c->next;
	keep = *c;
	memset(c, 0, sizeof(*c));
	c->ev = keep.ev;
	c->cap = keep.cap;
	c->pos = keep.pos;
	c->cappos = keep.cappos;
	c->thr = keep.thr;
	c->capthr = keep.capthr;
	c->x = keep.x;
	c->capx = keep.capx;
	c->snaps = keep.snaps;
	c->capsnaps = keep.capsnaps;
	c->jumps = keep.jumps;
	c->capjumps = keep.capjumps;
	c->hot = keep.hot;
	return c;
}

/* c is used up: keep it (and its arrays) for a later chunk. */
static void retire_chunk(struct pts_pcpu *p, struct chunk *c)
{
	if (c->n > c->hot)
		c->hot = c->n;
	pts_ptdec_free_to(c->dec, &p->pool->caller_dec);
	c->dec = NULL;
	c->next = p->pool->spare;
	p->pool->spare = c;
	p->pool->live--;
}

/* Whether p is the one CPU of the pool with chunks left to add. */
static bool last_cpu(const struct pts_pcpu *p)
{
	const struct pts_pcpu *q;

	for (q = p->pool->cpus; q; q = q->pnext)
		if (q != p && (!q->tail || q->tail->end < q->cfg.size))
			return false;
	return true;
}

/*
 * Trace bytes of the chunk that starts at `start`: chunk_bytes, and toward
 * the end of the decode (the trace's end, no other CPU with chunks left
 * to add) a quarter of what is left, down to a quarter chunk. At the end
 * of a decode the worker has nothing left to take while the calling
 * thread decodes its last chunk and hands out the ones the worker stored
 * (docs/performance.md, "The critical path of -j2 (twenty-fifth round)"):
 * smaller last chunks shorten that. At the end of a CPU whose trace ends
 * before the others' they made the window shorter and the calling thread
 * wait.
 */
static size_t chunk_len(const struct pts_pcpu *p, uint64_t start)
{
	uint64_t left = p->cfg.size - start;
	size_t n = p->chunk_bytes;

	if (left / 4 < n && last_cpu(p))
		n = left / 4 > n / 4 ? (size_t)(left / 4) : n / 4;
	return n ? n : 1;
}

int pardec_add_chunk(struct pts_pcpu *p)
{
	struct chunk *c, *t = p->tail;

	c = new_chunk(p);
	if (!c)
		return -ENOMEM;
	c->owner = p;
	c->first = !t;
	c->start = t ? t->end : 0;
	/*
	 * The first PSB after chunk_len more; a chunk ends where the next
	 * starts. A trace with CYC is one chunk, the calling thread's (pardec.h).
	 */
	c->end = p->cyc ? p->cfg.size : psb_at_or_after(p, c->start + chunk_len(p, c->start));
	c->over = UINT64_MAX;
	c->risk_at = UINT64_MAX;
	/* the first chunks: every CPU's at once (the merge peeks each) */
	c->key = t ? p->next_key : 0;
	if (c->end < p->cfg.size)
		p->next_key = psb_key(p, c->end);
	if (t)
		t->next = c;
	else
		p->cur = c;
	p->tail = c;
	p->nchunks++;
	p->pool->live++;
	if (p->cyc)
		c->state = CH_DONE;	/* never queued: wait_chunk gives it its decoder */
	else
		pardec_pool_queue(p->pool, c);
	return 0;
}

/* The two chunks a join needs: the one in use and the next. */
static int fill_two(struct pts_pcpu *p)
{
	while (p->nchunks < 2 && !(p->tail && p->tail->end >= p->cfg.size))
		if (pardec_add_chunk(p))
			return -ENOMEM;
	return 0;
}

/* A chunk of p was used up: the CPU's two, then the pool's (pardec_pool_fill). */
static int fill_window(struct pts_pcpu *p)
{
	return fill_two(p) ? -ENOMEM : pardec_pool_fill(p->pool);
}

/*
 * Wait until c is decoded; a chunk no worker has started is taken off the
 * queue and decoded here (the consumer would only wait). The one chunk of
 * a trace with CYC gets its decoder, which ready_lim decodes on with.
 */
static int wait_chunk(struct pts_pcpu *p, struct chunk *c)
{
	struct pts_pool *pool = p->pool;
	int rc = pardec_pool_fill(pool);	/* the first wait: every CPU is known by now */

	if (rc)
		return rc;
	if (p->cyc)
		return c->dec ? 0 : pardec_start_alone(c);
	if (pool->reverse && c->next && c->next->state == CH_QUEUED) {
		rc = wait_chunk(p, c->next);
		if (rc)
			return rc;
	}
	pthread_mutex_lock(&pool->mu);
	if (c->state == CH_QUEUED && pool->self && !p->serial) {
		pardec_pool_take(pool, c, false);
		c->state = CH_DONE;
		pool->sunk++;
		pthread_mutex_unlock(&pool->mu);
		return pardec_start_sink(c);
	}
	if (c->state == CH_QUEUED) {
		pardec_pool_take(pool, c, true);
		c->state = CH_RUNNING;
		pthread_mutex_unlock(&pool->mu);
		rc = pardec_decode_chunk(c, NULL, &pool->caller_dec);
		pthread_mutex_lock(&pool->mu);
		c->state = rc ? CH_FAILED : CH_DONE;
	}
	pardec_pool_await(pool, c);
	if (c->state == CH_FAILED) {
		/* a worker could not make its decoder: decode it here */
		pthread_mutex_unlock(&pool->mu);
		rc = pardec_decode_chunk(c, NULL, &pool->caller_dec);
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

/* c's arrays emptied: its decoder's next event is stored as event r (with a snapshot). */
static void store_from_r(struct pts_pcpu *p, struct chunk *c)
{
	c->n = c->nx = c->nthr = c->nsnaps = c->njumps = 0;
	c->base = p->r;
	c->dec_next = p->r;
	c->skip_to = p->r;
	c->store.open = NULL;
	c->run_skipped = false;
	p->thr_k = 0;
}

/*
 * Decode on from cur's event r with a decoder synchronised as the serial
 * one, at the trace's first PSB, and make no more joins on this CPU (one
 * such restart at most: the trace decoded twice at worst). It finds event
 * r by its count: target, the events the serial decode makes before it.
 * Every decoder counts the events it makes, jumps one by one whether
 * dropped, stored or handed out (branches and others, pts_ptdec_nev_before),
 * and the counts add up at joins as every statistic does, so a chunk's
 * count maps onto the serial decode's (serial_nev) whether its events were
 * stored, in runs, or handed to the sink. Its statistics at event r take
 * over. 0, or -ENOMEM.
 */
static int restart_serially(struct pts_pcpu *p, struct chunk *c, uint64_t target)
{
	const struct pts_ptdec_stats *st;
	int rc;

	pts_ptdec_free_to(c->dec, &p->pool->caller_dec);
	c->dec = NULL;
	c->first = true;
	c->sink = false;
	rc = pardec_new_decoder(c, NULL, &p->pool->caller_dec, &c->dec);
	if (rc)
		return rc;
	/* plain: every event queued, none stored, none dropped */
	pts_ptdec_sink(c->dec, NULL, false, UINT64_MAX);
	while (pts_ptdec_head_nev(c->dec) < target) {
		const struct pts_branch *br;

		pts_ptdec_next(c->dec, &br);
	}
	pts_ptdec_unsink(c->dec);
	store_from_r(p, c);
	c->over = UINT64_MAX;
	c->complete = false;
	c->risky = false;
	c->risk_at = UINT64_MAX;
	p->serial = true;
	p->sinking = false;
	p->stop = UINT64_MAX;	/* no join: the rest is the serial decoder's */
	rc = pardec_run(c, c->dec, 4096);
	if (rc)
		return rc;
	/* the serial decoder's own counts: everything before event r */
	st = pardec_snap_at(c, p->r);
	p->acc = st ? *st : c->fin;
	p->start_st = p->acc;
	return 0;
}

/* The serial decode's count of events before the one cur's decoder counted nev before. */
static uint64_t serial_nev(const struct pts_pcpu *p, uint64_t nev)
{
	return p->acc.branches + p->acc.others + nev - p->start_st.branches - p->start_st.others;
}

/*
 * The join of cur (not the trace's first chunk, used from event r on) into
 * its successor was refused, the successor's decoder having met a return
 * compressed against a call before its PSB ("return stack empty"). The
 * SDM's PSB rules exclude that (a decoder may start at any PSB): the trace
 * is damaged. cur's decoder lacks the calls before cur's PSB too, which the
 * serial decoder has, and would meet the same return without them: decode
 * on from event r as the serial decoder (restart_serially). 0, or -ENOMEM.
 */
static int decode_on_serially(struct pts_pcpu *p, struct chunk *c)
{
	const struct pts_ptdec_stats *st = pardec_snap_at(c, p->r);
	const struct snap *sn = (const struct snap *)((const char *)st - offsetof(struct snap, st));

	return restart_serially(p, c, serial_nev(p, sn->nev));
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
	/* not where cur's decoder holds an event n's never reads (pardec_hold.h) */
	if (!p->serial && !pts_pt_hold_at(&p->hold, n->start) &&
	    pardec_find_join(c, p->r, n, &ia, &jb)) {
		p->joined++;
		p->stop = ia;
		/* cur's contribution ends at ia; n's starts at jb (pardec.h) */
		pardec_st_add(&p->acc, pardec_snap_at(c, ia), &p->start_st);
		p->start_st = *pardec_snap_at(n, jb);
		p->next_r = jb + p->break_joins;
		/* the hand-over happens in ready() once r reaches stop */
		return 1;
	}
	p->refused++;
	/* the overlap is now inside: past the successor's end, if the events go so far */
	c->end = n->end;
	/* decoded on by storing, as any chunk past a refused join */
	c->sink = false;
	if (!c->first && n->risky && pardec_snap_at(c, p->r)) {
		rc = decode_on_serially(p, c);
		if (rc)
			return pts_err_set(err, -rc, "out of memory decoding cpu %u", p->cfg.cpu);
	} else if (!c->dec) {
		/*
		 * Decode on with cur's own decoder, remade (from cur's start: the
		 * same events again, not stored up to the ones kept) if a worker
		 * made cur.
		 */
		rc = pardec_new_decoder(c, NULL, &p->pool->caller_dec, &c->dec);
		if (rc)
			return pts_err_set(err, -rc, "out of memory decoding cpu %u", p->cfg.cpu);
		c->dec_next = 0;
		c->skip_to = c->base + c->n;
		c->store.open = NULL;
		c->run_skipped = false;
	}
	c->over = UINT64_MAX;
	for (ia = p->r; ia < c->base + c->n; ia++) {
		if (c->pos[ia - c->base] > c->end) {
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

/*
 * The trace's pages behind the chunks used are dropped in steps of this
 * many bytes, not at every chunk: madvise in a process whose other
 * threads run on other CPUs flushes their TLBs too (an interrupt to each,
 * a costly exit in a VM), and at every chunk (32 KiB) that was ~300 times
 * a 10 MB trace (docs/performance.md, "The extra CPU of -j2 (twelfth
 * round)"). At most this much more of the trace stays resident.
 */
#define PARDEC_DROP_STEP (2u << 20)

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

		if (to > p->dropped && to - p->dropped >= PARDEC_DROP_STEP &&
		    !madvise((void *)(uintptr_t)(p->cfg.buf + p->dropped), to - p->dropped,
			     MADV_DONTNEED))
			p->dropped = to;
	}
	retire_chunk(p, c);
	p->r = p->next_r;
	p->thr_k = 0;
	p->stop = UINT64_MAX;
	if (fill_window(p))
		return pts_err_set(err, ENOMEM, "out of memory decoding cpu %u", p->cfg.cpu);
	return 0;
}

int pts_pcpu_new(struct pts_pool *pool, const struct pts_ptdec_config *cfg, size_t chunk_bytes,
		 struct pts_pcpu_scan *scan, struct pts_pcpu **out, struct pts_err *err)
{
	struct pts_pcpu *p = calloc(1, sizeof(*p));

	if (!p)
		return pts_err_set(err, ENOMEM, "out of memory");
	p->pool = pool;
	p->cfg = *cfg;
	p->cfg.through = cfg->through && pool->deep;	/* pts_pool_options.deep */
	p->elide = cfg->elide;
	p->cfg.elide = NULL;
	p->cfg.elide_queued = false;
	p->cfg.on_insn = NULL;
	p->cfg.mapped = false;		/* pages are released here, behind the chunks used */
	p->release = cfg->mapped;
	p->chunk_bytes = chunk_bytes ? chunk_bytes : 1;
	/* the packets the decoders read: with the CPU's errata (pardec_cyc.h) */
	pts_pt_errata(&p->errata, cfg->family, cfg->model, cfg->stepping);
	p->stop = UINT64_MAX;
	p->out.cpu = cfg->cpu;
	p->break_joins = pool->brk == PTS_PARDEC_BREAK_JOINS;
	p->break_runs = pool->brk == PTS_PARDEC_BREAK_RUNS;
	/* the decode's only CPU (the serial decoder then elides as it queues) */
	p->single = cfg->elide_queued || pool->brk == PTS_PARDEC_BREAK_TIME;
	p->alone = cfg->elide_queued;
	if (scan) {
		/* the hold taken over: the caller's is left empty */
		p->cyc = scan->cyc;
		p->hold = scan->hold;
		pts_pt_hold_init(&scan->hold);
	} else {
		pts_pt_hold_init(&p->hold);
		p->cyc = pts_pt_trace_has_cyc(cfg->buf, cfg->size, p->release, &p->errata, &p->hold);
	}
	p->pnext = pool->cpus;
	pool->cpus = p;
	/* the pool's chunks once every CPU is known (wait_chunk): not all to the first */
	if (fill_two(p)) {
		pts_pcpu_free(p);
		return pts_err_set(err, ENOMEM, "out of memory");
	}
	*out = p;
	return 0;
}

/* ready_lim's answer when cur's decoder is to hand its events to the sink itself */
#define PCPU_SINK 4

/* cur (a sink chunk, its events stored so far handed out) decodes into the sink. */
static void sink_enter(struct pts_pcpu *p, struct chunk *c)
{
	struct pts_ptdec_stats st;

	pts_ptdec_stats(c->dec, &st);
	p->sink_elided0 = st.elided;
	pts_ptdec_sink(c->dec, p->elide, p->alone, c->end);
	if (!p->alone)
		pts_ptdec_elide_until(c->dec, p->lead_until);
	p->sinking = true;
}

void pts_pcpu_lead(struct pts_pcpu *p, uint64_t until_ns)
{
	p->lead_until = until_ns;
	if (p->sinking)
		pts_ptdec_elide_until(p->cur->dec, until_ns);
}

/*
 * cur's decoder met an event past cur's end (or the trace's end: ended):
 * store from there, the overlap. 0, or -ENOMEM.
 */
static int sink_leave(struct pts_pcpu *p, bool ended, struct pts_err *err)
{
	struct chunk *c = p->cur;
	struct pts_ptdec_stats st;

	pts_ptdec_stats(c->dec, &st);
	p->elided += st.elided - p->sink_elided0;
	pts_ptdec_unsink(c->dec);
	p->sinking = false;
	store_from_r(p, c);
	if (ended) {
		c->complete = true;
		c->fin = st;
		return 0;
	}
	if (pardec_run(c, c->dec, 4096))
		return pts_err_set(err, ENOMEM, "out of memory decoding cpu %u", p->cfg.cpu);
	return 0;
}

/*
 * cur, joined before it was decoded (decoded into the sink by the calling
 * thread), stored a gap "return stack empty" past its end and stands at
 * it: the serial decoder has the return's call, so it decodes on from
 * there (a join into a chunk decoded before it is refused instead).
 */
static uint64_t risk_lim(const struct pts_pcpu *p, const struct chunk *c)
{
	if (c->risk_at == UINT64_MAX || c->risk_at < p->r || c->first || p->serial ||
	    !pardec_snap_at(c, c->risk_at))
		return UINT64_MAX;
	return c->risk_at;
}

/*
 * Make cur's event r available, up to lim: 1 yes, 0 the CPU's trace is
 * done, PCPU_SINK cur's decoder hands the next events to the sink itself,
 * negative on errors.
 */
static int ready_lim(struct pts_pcpu *p, struct pts_err *err)
{
	int rc;

	if (p->rc)
		return p->rc;
	if (p->sinking)
		return PCPU_SINK;
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
		if (p->cur_done && risk_lim(p, c) == p->r) {
			/* a chunk joined before it was decoded met the risk in its overlap */
			rc = decode_on_serially(p, c);
			if (rc)
				return pts_err_set(err, -rc, "out of memory decoding cpu %u",
						   p->cfg.cpu);
			continue;
		}
		if (p->stop != UINT64_MAX) {
			if (p->r < p->stop) {
				p->lim = p->stop < risk_lim(p, c) ? p->stop : risk_lim(p, c);
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
			if (risk_lim(p, c) < p->lim)
				p->lim = risk_lim(p, c);
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
		if (c->dec && !c->complete && c->sink && c->over == UINT64_MAX) {
			sink_enter(p, c);
			return PCPU_SINK;
		}
		if (c->dec && !c->complete) {
			/* everything stored was handed out: start the buffer again at r */
			c->n = c->nx = c->nthr = c->nsnaps = c->njumps = 0;
			c->base = p->r;
			p->thr_k = 0;
			if (c->skip_to < p->r)
				c->skip_to = p->r;
			if (pardec_run(c, c->dec, 4096))
				return pts_err_set(err, ENOMEM, "out of memory decoding cpu %u",
						   p->cfg.cpu);
			continue;
		}
		pardec_st_add(&p->acc, &c->fin, &p->start_st);
		memset(&p->start_st, 0, sizeof(p->start_st));
		p->ended = true;
	}
	return 0;
}

/*
 * The fast path's view of cur's events r to lim (r < lim): to at_end, up
 * to the next change of thread, or none where the next event needs the
 * slow path. The thread of event r: changes up to r passed.
 */
static inline void view(struct pts_pcpu *p)
{
	const struct chunk *c = p->cur;
	uint64_t i = p->r - c->base, end = p->lim - c->base;

	while (p->thr_k < c->nthr && c->thr[p->thr_k].i <= i) {
		p->pid = c->thr[p->thr_k].pid;
		p->tid = c->thr[p->thr_k].tid;
		p->thr_k++;
	}
	if (p->thr_k < c->nthr && c->thr[p->thr_k].i < end)
		end = c->thr[p->thr_k].i;
	p->at = c->ev + i;
	p->at_end = p->sub || p->out_extra || p->break_runs ? p->at : c->ev + end;
}

/* ready_lim, and the fast path's view of the events made ready. */
static int ready(struct pts_pcpu *p, struct pts_err *err)
{
	int rc = ready_lim(p, err);

	if (rc == 1)
		view(p);
	return rc;
}

/* The last event handed out set offset, value or detail: zero them again. */
static void clear_extra(struct pts_pcpu *p)
{
	p->out.offset = 0;
	p->out.value = 0;
	p->out.detail = NULL;
	p->out_extra = false;
}

/*
 * Every jump of run e (cur's event r) lies in the elide window el. The
 * thread as one word (pts_pid_tid); an empty window (hi 0) holds no run
 * by the last test alone (from + span is the run's greatest address: it
 * does not wrap).
 */
static inline bool run_in_window(const struct pts_pcpu *p, const struct pts_br_elide *el,
				 const struct pts_rec *e)
{
	return el && pts_pid_tid(&p->pid) == pts_pid_tid(&el->pid) && e->from >= el->lo &&
	       e->from + e->run.span < el->hi;
}

/*
 * Drop the run at cur's event r whole, counted in the window as one by
 * one. (Read before written: every store may alias every load here.)
 */
static inline void drop_run(struct pts_pcpu *p, const struct pts_rec *e)
{
	struct pts_br_elide *el = p->elide;
	uint32_t n = e->n;
	uint64_t ts = e->ts_ns + e->run.dts;
	uint32_t cpu = p->cfg.cpu;

	el->dropped += n;
	el->ts_ns = ts;
	el->cpu = cpu;
	p->elided += n;
	p->r++;
	p->at++;
}

/*
 * The run of jumps e (cur's event r): dropped whole when every from and
 * to lies in the elide window of its thread, else its jumps one per call
 * (the fast path skips the run meanwhile). 1 (*out), or 2: dropped.
 */
static int run_next(struct pts_pcpu *p, const struct chunk *c, const struct pts_rec *e,
		    const struct pts_branch **out)
{
	struct pts_br_elide *el = p->elide;
	struct pts_branch *br = &p->out;
	uint64_t from, to, ts_ns;

	pts_evstore_jump_at(e, &c->jumps[e->xi + p->sub], &from, &to, &ts_ns);
	/* the rule broken on purpose: only the first jump looked at */
	if (p->break_runs && !p->sub && el && el->hi && p->pid == el->pid && p->tid == el->tid &&
	    from - el->lo < el->hi - el->lo && to - el->lo < el->hi - el->lo) {
		drop_run(p, e);
		return 2;
	}
	if (!p->sub && run_in_window(p, el, e)) {
		drop_run(p, e);
		return 2;
	}
	if (++p->sub == e->n) {
		p->sub = 0;
		p->r++;
		p->at++;
	} else {
		p->at_end = p->at;
	}
	if (el && pts_br_elide_drop(el, p->pid, p->tid, from, to, ts_ns, p->cfg.cpu)) {
		p->elided++;
		return 2;
	}
	br->kind = PTS_BR_JUMP;
	br->flags = 0;
	br->from = from;
	br->to = to;
	br->ts_ns = ts_ns;
	br->pid = p->pid;
	br->tid = p->tid;
	br->insn_len = 0;
	*out = br;
	return 1;
}

_Static_assert(offsetof(struct pts_branch, to) == offsetof(struct pts_branch, from) + 8 &&
		       offsetof(struct pts_branch, ts_ns) == offsetof(struct pts_branch, from) + 16 &&
		       offsetof(struct pts_branch, tid) == offsetof(struct pts_branch, pid) + 4 &&
		       offsetof(struct pts_rec, to) == offsetof(struct pts_rec, from) + 8 &&
		       offsetof(struct pts_rec, ts_ns) == offsetof(struct pts_rec, from) + 16 &&
		       offsetof(struct pts_pcpu, tid) == offsetof(struct pts_pcpu, pid) + 4,
	       "fill_out copies from, to, ts_ns and pid, tid as two blocks");

/* Copy stored event e (cur's event r) into the event handed out (but for the extra fields). */
static inline void fill_out(struct pts_pcpu *p, const struct pts_rec *e)
{
	struct pts_branch *br = &p->out;

	/*
	 * Every field the decoder sets. cpu is the CPU's, from_sym and
	 * to_sym stay zero (pts_pcpu_new); offset, value and detail are zero
	 * but after an event with extra fields (clear_extra).
	 */
	br->kind = (enum pts_br_kind)e->kind;
	br->flags = e->flags;
	memcpy(&br->from, &e->from, 3 * sizeof(uint64_t));	/* from, to, ts_ns */
	memcpy(&br->pid, &p->pid, 2 * sizeof(int32_t));	/* pid, tid: event r's (view) */
	br->insn_len = e->insn_len;
}

/* The time of the event the next call hands out (cur's event r is ready). */
static inline uint64_t time_at_r(const struct pts_pcpu *p)
{
	const struct chunk *c = p->cur;
	const struct pts_rec *e = &c->ev[p->r - c->base];

	if (p->sub)	/* inside a run handed out singly: its next jump's */
		return e->ts_ns + c->jumps[e->xi + p->sub].dts;
	return e->ts_ns;
}

static int next_slow(struct pts_pcpu *p, bool before, uint64_t until_ns, bool go_on,
		     const struct pts_branch **out, struct pts_err *err);

/*
 * How far ahead of the hand-out its events and runs are asked for
 * (bytes). The calling thread reads every event a worker stored, ~60 MB
 * of events and runs per MB of the bench trace, written on another CPU
 * shortly before: the hardware's own prefetch left the hand-out waiting
 * on most cache lines (docs/performance.md, "The extra CPU of -j2
 * (twelfth round)"). Past the end of an array a prefetch does nothing.
 */
#define PF_EVENTS (32 * sizeof(struct pts_rec))

/*
 * pts_pcpu_next_before (before false: pts_pcpu_next, no bound). The common
 * cases first, without a call (so without saving registers), for a stored
 * event of the chunk in use before its overlap: one that is handed out as
 * it is (neither a run nor PTS_REC_SLOW); a run whose jumps all lie in
 * the window.
 *
 * go_on: an event dropped is followed by the next one in the same call
 * (as the serial decoder drops jumps as it decodes them) instead of a 2,
 * where the caller would ask again at once with nothing fed in between,
 * the window unmoved: while the merge hands out the lead CPU's events
 * (before), for the decode's only CPU (alone), and in pts_pcpu_emit.
 */
static inline __attribute__((always_inline)) int hand_out(struct pts_pcpu *p, bool before,
							  uint64_t until_ns, bool go_on,
							  const struct pts_branch **out,
							  struct pts_err *err)
{
	for (;;) {
		const struct pts_rec *e = p->at;

		if (__builtin_expect(e >= p->at_end, 0))
			break;
		pts_evstore_prefetch_read(e, PF_EVENTS);
		if (before && e->ts_ns >= until_ns)
			return 3;
		if (!(e->flags & (PTS_REC_RUN | PTS_REC_SLOW))) {
			p->r++;
			p->at = e + 1;
			fill_out(p, e);
			*out = &p->out;
			return 1;
		}
		if (!(e->flags & PTS_REC_RUN))
			break;
		if (!run_in_window(p, p->elide, e))
			break;
		drop_run(p, e);
		if (!go_on)
			return 2;
	}
	return next_slow(p, before, until_ns, go_on, out, err);
}

/* The event at r that is not one of hand_out's common cases: as hand_out. */
static __attribute__((noinline)) int next_slow(struct pts_pcpu *p, bool before, uint64_t until_ns,
					       bool go_on, const struct pts_branch **out,
					       struct pts_err *err)
{
	const struct pts_rec *e;
	struct pts_branch *br = &p->out;
	struct chunk *c;
	int rc;

	if (p->out_extra)	/* the event handed out before is done with */
		clear_extra(p);
	if (p->r >= p->lim) {
		rc = ready(p, err);
		if (rc < 0 && p->rc)
			*err = p->err;
		if (rc <= 0 || rc == PCPU_SINK)
			return rc;
	} else {
		view(p);
	}
	if (before && time_at_r(p) >= until_ns)
		return 3;
	c = p->cur;
	e = p->at;
	if (e->flags & PTS_REC_RUN) {
		rc = run_next(p, c, e, out);
		if (rc == 2 && go_on)
			return hand_out(p, before, until_ns, go_on, out, err);
		return rc;
	}
	p->r++;
	p->at++;
	if (e->kind == PTS_BR_JUMP && p->elide &&
	    pts_br_elide_drop(p->elide, p->pid, p->tid, e->from, e->to, e->ts_ns, p->cfg.cpu)) {
		p->elided++;
		if (go_on)
			return hand_out(p, before, until_ns, go_on, out, err);
		return 2;
	}
	fill_out(p, e);
	br->flags = e->flags & ~PTS_REC_SLOW;
	if (e->has_x) {
		const struct pex *x = &c->x[e->xi];

		p->out_extra = true;
		p->at_end = p->at;	/* the next call clears them */
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
 * pts_pcpu_emit's loop, before and go_on known. A near call or return
 * (most events) goes to the sink's entry for its kind, as the serial
 * decoder's block loop hands them (decode/brsrc.h): the sink then tests
 * neither the kind nor whether it is a gap; each call site has one target.
 */
static inline __attribute__((always_inline)) int emit(struct pts_pcpu *p, bool before,
						      uint64_t until_ns,
						      const struct pts_brsrc_to *to,
						      struct pts_err *err)
{
	for (;;) {
		const struct pts_branch *br;
		int rc = hand_out(p, before, until_ns, true, &br, err);

		if (rc != 1)
			return rc;
		if (br->kind == PTS_BR_CALL)
			rc = to->call(to->ctx, to->idx, br, err);
		else if (br->kind == PTS_BR_RETURN)
			rc = to->ret(to->ctx, to->idx, br, err);
		else
			rc = to->event(to->ctx, to->idx, br, err);
		if (rc)
			return rc;
	}
}

/*
 * cur's decoder, emitting into the sink, met a return compressed against
 * a call before its PSB, which the serial decoder has seen: the serial
 * decoder goes on from there (restart_serially). 0, or -ENOMEM.
 */
static int sink_risk(struct pts_pcpu *p, struct pts_err *err)
{
	struct chunk *c = p->cur;
	struct pts_ptdec_stats st;

	pts_ptdec_stats(c->dec, &st);
	p->elided += st.elided - p->sink_elided0;
	p->sinking = false;
	if (restart_serially(p, c, serial_nev(p, pts_ptdec_head_nev(c->dec))))
		return pts_err_set(err, ENOMEM, "out of memory decoding cpu %u", p->cfg.cpu);
	return 0;
}

/*
 * While sinking: whether cur's decoder's next event is still the sink's;
 * if not, sink_leave (or sink_risk) has made the next events stored ones.
 * 1 yes, 0 no, negative on errors.
 */
static int sink_own(struct pts_pcpu *p, struct pts_err *err)
{
	int got = pts_ptdec_sink_peek(p->cur->dec);

	if (got == 1)
		return 1;
	if (got == PTS_PTDEC_RISK)
		return sink_risk(p, err);
	return sink_leave(p, got == PTS_BRSRC_END, err);
}

int pts_pcpu_emit(struct pts_pcpu *p, bool before, uint64_t until_ns,
		  const struct pts_brsrc_to *to, struct pts_err *err)
{
	for (;;) {
		int rc;

		if (p->sinking) {
			rc = pts_ptdec_emit(p->cur->dec, before, until_ns, to, err);
			if (rc == PTS_PTDEC_RISK) {
				rc = sink_risk(p, err);
				if (rc)
					return rc;
				continue;
			}
			if (rc != PTS_PTDEC_PAST && rc != PTS_BRSRC_END)
				return rc;
			rc = sink_leave(p, rc == PTS_BRSRC_END, err);
			if (rc)
				return rc;
			continue;
		}
		rc = before ? emit(p, true, until_ns, to, err) : emit(p, false, 0, to, err);
		if (rc != PCPU_SINK)
			return rc;
	}
}

/* pts_pcpu_next (before false) and _next_before, with the sink's decoder. */
static int next_any(struct pts_pcpu *p, bool before, uint64_t until_ns, bool go_on,
		    const struct pts_branch **out, struct pts_err *err)
{
	for (;;) {
		int rc;

		if (p->sinking) {
			rc = sink_own(p, err);
			if (rc < 0)
				return rc;
			if (!rc)
				continue;
			rc = before ? pts_ptdec_next_before(p->cur->dec, until_ns, out)
				    : pts_ptdec_next(p->cur->dec, out);
			if (rc == PTS_BRSRC_DROPPED && go_on)
				continue;
			return rc;
		}
		rc = hand_out(p, before, until_ns, go_on, out, err);
		if (rc != PCPU_SINK)
			return rc;
	}
}

int pts_pcpu_next(struct pts_pcpu *p, const struct pts_branch **out, struct pts_err *err)
{
	return next_any(p, false, 0, p->alone, out, err);
}

int pts_pcpu_next_before(struct pts_pcpu *p, uint64_t until_ns, const struct pts_branch **out,
			 struct pts_err *err)
{
	return next_any(p, true, until_ns, true, out, err);
}

uint64_t pts_pcpu_peek_time(struct pts_pcpu *p)
{
	for (;;) {
		int rc;

		if (p->sinking) {
			rc = sink_own(p, &p->err);
			if (rc < 0) {
				p->rc = rc;
				return UINT64_MAX;
			}
			if (rc)
				return pts_ptdec_peek_time(p->cur->dec);
			continue;
		}
		rc = ready(p, &p->err);
		if (rc == PCPU_SINK)
			continue;
		if (rc < 0)
			p->rc = rc;
		if (rc <= 0)
			return UINT64_MAX;
		return time_at_r(p);
	}
}

void pts_pcpu_stats(const struct pts_pcpu *p, struct pts_ptdec_stats *out)
{
	*out = p->acc;
	out->elided = p->elided;
}

/*
 * The trace position of cur's event r, the next handed out (as
 * pts_ptdec_pos: where its decoder stood when it queued it), or of the
 * last one stored when all were, once cur was waited for; its start
 * before. Positions only grow: one decoder's grow,
 * and a join hands over at an event both chunks' decoders gave with one
 * position. Asked once per many events (the session's progress line),
 * never on the hand-out's path. A trace with CYC is one chunk decoded on
 * by the calling thread (pardec.h): its start would say 0 % to the end.
 */
uint64_t pts_pcpu_done(const struct pts_pcpu *p)
{
	const struct chunk *c = p->cur;
	uint64_t at;

	if (p->ended)
		return p->cfg.size;
	if (p->sinking)
		return pts_ptdec_done(c->dec);
	if (!c || !p->cur_done || !c->n || p->r < c->base)
		return c ? c->start : 0;
	/* every stored event handed out: the last one's, until the decoder goes on */
	at = c->pos[p->r < c->base + c->n ? p->r - c->base : c->n - 1];
	return at > c->start ? at : c->start;
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
	struct pts_pool *pool;
	struct pts_pcpu **pp;
	struct chunk *c;

	if (!p)
		return;
	pool = p->pool;
	for (pp = &pool->cpus; *pp != p; pp = &(*pp)->pnext)
		;
	*pp = p->pnext;
	/* chunks still queued or decoding: wait for them, then free */
	for (c = p->cur; c; c = c->next) {
		pthread_mutex_lock(&pool->mu);
		if (c->state == CH_QUEUED) {
			pardec_pool_unqueue(pool, c);
			c->state = CH_DONE;
		}
		pardec_pool_await(pool, c);
		pthread_mutex_unlock(&pool->mu);
	}
	while ((c = p->cur)) {
		p->cur = c->next;
		pool->live--;
		pardec_chunk_free_data(c);
		free(c);
	}
	pts_pt_hold_free(&p->hold);
	free(p);
}
