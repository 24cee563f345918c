// SPDX-License-Identifier: GPL-2.0
/*
 * A chunk decoded into its buffer (pardec_int.h): a worker's work, and the
 * consumer's when it decodes on. Events are stored as compact records;
 * runs of jumps as one record each, their jumps in an array of their own.
 */
#include "pardec_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <intel-pt.h>

static void chunk_reset(struct chunk *c, uint64_t base)
{
	c->n = 0;
	c->nx = 0;
	c->nthr = 0;
	c->njumps = 0;
	c->store.open = NULL;
	c->run_skipped = false;
	c->store.any_time = c->owner->single;
	c->nsnaps = 0;
	c->base = base;
	c->over = UINT64_MAX;
	c->complete = false;
	c->risky = false;
	c->risk_at = UINT64_MAX;
}

void pardec_chunk_free_data(struct chunk *c)
{
	free(c->ev);
	free(c->pos);
	free(c->thr);
	free(c->x);
	free(c->snaps);
	free(c->jumps);
	c->ev = NULL;
	c->pos = NULL;
	c->thr = NULL;
	c->x = NULL;
	c->snaps = NULL;
	c->jumps = NULL;
	c->cap = c->cappos = c->capthr = c->capx = c->capsnaps = c->capjumps = 0;
	pts_ptdec_free(c->dec);
	c->dec = NULL;
}

int pardec_grow_slow(void **p, size_t *cap, size_t need, size_t size)
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

static bool take_jump(void *ctx, int32_t pid, int32_t tid, uint64_t from, uint64_t to,
		      uint64_t ts_ns, uint64_t pos);

int pardec_new_decoder(struct chunk *c, struct pts_imgview *view, struct pts_ptdec **spare,
		       struct pts_ptdec **out)
{
	struct pts_ptdec_config dc = c->owner->cfg;
	struct pts_err err;

	dc.view = view;
	dc.spare = spare;
	dc.take_jump = take_jump;
	dc.jump_ctx = c;
	dc.store = &c->store;
	dc.sync_at_psb = !c->first;
	dc.sync_off = c->start;
	/*
	 * A trace with CYC is one chunk (pardec.h): its decoder, the only one
	 * to read the trace, drops the pages behind it as the serial one does.
	 */
	dc.mapped = c->owner->cyc && c->owner->release;
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
 * Event idx needs a statistics snapshot (pardec_snap_at): a join may be
 * made there (a chunk's start-up events, the overlap), or a decoder
 * remade to skip to it takes over there (pardec.c, decode_on_serially).
 */
static inline bool snap_wanted(const struct chunk *c, uint64_t idx)
{
	return idx < PTS_PAR_SKIP || c->over != UINT64_MAX || idx == c->skip_to;
}

/*
 * Whether the decoder may store events itself (evstore.h): while an event
 * needs nothing pardec_run() does besides storing it: no statistics
 * snapshot (snap_wanted), not the overlap's start (pos > end), not before
 * skip_to. Set wherever dec_next or over cross those.
 */
static inline void store_below(struct chunk *c)
{
	c->store.below = c->dec_next >= PTS_PAR_SKIP && c->dec_next > c->skip_to &&
			 c->over == UINT64_MAX ? c->end + 1 : 0;
}

/*
 * Element i of an array that may not be allocated yet (base NULL, i 0):
 * NULL + 0 is undefined behaviour in C, so the empty case stays NULL,
 * and next == end says "no room" all the same.
 */
#define AT(base, i) ((base) ? (base) + (i) : (base))

/*
 * How many events the arrays hold: each event stored may change the
 * thread (evstore.h), so no more than there is room for changes.
 */
static size_t ev_room(const struct chunk *c)
{
	size_t n = c->cap < c->cappos ? c->cap : c->cappos;

	return n < c->n + (c->capthr - c->nthr) ? n : c->n + (c->capthr - c->nthr);
}

/* Point the decoder's store at the free parts of the arrays (after they moved). */
static void store_reopen(struct chunk *c)
{
	struct pts_evstore *s = &c->store;

	s->ev = c->ev;
	s->enext = AT(c->ev, c->n);
	s->eend = AT(c->ev, ev_room(c));
	s->pnext = AT(c->pos, c->n);
	s->thr = c->thr;
	s->tnext = AT(c->thr, c->nthr);
	s->jumps = c->jumps;
	s->jnext = AT(c->jumps, c->njumps);
	s->jend = AT(c->jumps, c->capjumps);
	if (s->open)
		s->open = c->ev + c->n - 1;	/* the last event stored */
	store_below(c);
}

/*
 * Count what was stored through the store since the counts were last
 * set (by the decoder, or here): every event takes the next index.
 */
static inline void catch_up(struct chunk *c)
{
	const struct pts_evstore *s = &c->store;
	size_t n = c->ev ? (size_t)(s->enext - c->ev) : 0;

	c->dec_next += n - c->n;
	c->n = n;
	c->nthr = c->thr ? (size_t)(s->tnext - c->thr) : 0;
	c->njumps = c->jumps ? (size_t)(s->jnext - c->jumps) : 0;
}

/* Room in the store for one more event (run: and a jump). 0, or -ENOMEM. */
static int room(struct chunk *c, bool run)
{
	const struct pts_evstore *s = &c->store;

	if (s->enext < s->eend && (!run || s->jnext < s->jend))
		return 0;
	if (grow((void **)&c->ev, &c->cap, c->n + 1, sizeof(*c->ev)) ||
	    grow((void **)&c->pos, &c->cappos, c->n + 1, sizeof(*c->pos)) ||
	    grow((void **)&c->thr, &c->capthr, c->nthr + 1, sizeof(*c->thr)) ||
	    (run && grow((void **)&c->jumps, &c->capjumps, c->njumps + 1, sizeof(*c->jumps))))
		return -ENOMEM;
	store_reopen(c);
	return 0;
}

/* The open (or skipped) run ends: the decoder's next jump begins another. */
static inline void close_run(struct chunk *c)
{
	c->store.open = NULL;
	c->run_skipped = false;
}

/*
 * A plain jump the decoder did not store itself (it came through the
 * queue, or there was no room) extends the open run, or the skipped one
 * (not stored). 1 taken, 0 not, -ENOMEM.
 */
static int extend_run(struct chunk *c, int32_t pid, int32_t tid, uint64_t from, uint64_t to,
		      uint64_t ts_ns)
{
	struct pts_evstore *s = &c->store;

	if (c->run_skipped)
		return pts_run_add(&c->skip, s->any_time, pid, tid, from, to, ts_ns);
	if (!s->open)
		return 0;
	if (s->jnext == s->jend) {
		if (grow((void **)&c->jumps, &c->capjumps, c->njumps + 1, sizeof(*c->jumps)))
			return -ENOMEM;
		store_reopen(c);
	}
	if (!pts_evstore_add_jump(s, pid, tid, from, to, ts_ns))
		return 0;
	c->njumps++;
	return 1;
}

/*
 * A plain jump of event idx (before skip_to) begins a run that is not
 * stored, as pts_evstore_begin_run would (too wide: no run).
 */
static void skip_run(struct chunk *c, int32_t pid, int32_t tid, uint64_t from, uint64_t to,
		     uint64_t ts_ns)
{
	c->run_skipped = pts_run_begin(&c->skip, pid, tid, from, to, ts_ns);
}

/*
 * The decoder's offer of a jump it did not store itself
 * (pts_ptdec_config.take_jump): every event before it was handed out, so
 * it extends the run (no room, or skipped), or begins one, as pardec_run()
 * would when handed it, unless the event needs a statistics snapshot or
 * starts the overlap: then it comes through the queue. Out of memory: not
 * taken (it comes through the queue, and the error with it).
 */
static bool take_jump(void *ctx, int32_t pid, int32_t tid, uint64_t from, uint64_t to,
		      uint64_t ts_ns, uint64_t pos)
{
	struct chunk *c = ctx;
	uint64_t idx;
	int got;

	catch_up(c);
	got = extend_run(c, pid, tid, from, to, ts_ns);
	if (got)
		return got > 0;
	close_run(c);
	idx = c->dec_next;
	if (idx < c->skip_to) {
		skip_run(c, pid, tid, from, to, ts_ns);
		c->dec_next++;
		store_below(c);
		return true;
	}
	if (snap_wanted(c, idx) || pos > c->end || room(c, true))
		return false;	/* through the queue (out of memory: with the error) */
	pts_evstore_begin_run(&c->store, pid, tid, from, to, ts_ns, pos);
	catch_up(c);
	return true;
}

/* Event e (just stored, from br) has offset, value or detail: into c->x. */
static int store_extra(struct chunk *c, struct pts_rec *e, const struct pts_branch *br)
{
	struct pex *x;

	if (grow((void **)&c->x, &c->capx, c->nx + 1, sizeof(*c->x)))
		return -ENOMEM;
	e->has_x = 1;
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

/* A statistics snapshot for event idx (just handed out by dec). 0, or -ENOMEM. */
static int snapshot(struct chunk *c, struct pts_ptdec *dec, uint64_t idx)
{
	struct snap *sn;

	if (grow((void **)&c->snaps, &c->capsnaps, c->nsnaps + 1, sizeof(*c->snaps)))
		return -ENOMEM;
	sn = &c->snaps[c->nsnaps++];
	sn->idx = idx;
	pts_ptdec_stats(dec, &sn->st);
	/* not the block at its target: its length varies (find_join) */
	sn->st.insns = pts_ptdec_insns_before(dec);
	sn->nev = pts_ptdec_nev_before(dec);
	return 0;
}

/*
 * Store event idx, br, handed out by dec at trace position pos (its run
 * closed, after skip_to). 0, or -ENOMEM.
 */
static int store_event(struct chunk *c, struct pts_ptdec *dec, const struct pts_branch *br,
		       bool extra, bool plain, uint64_t idx, uint64_t pos)
{
	struct pts_rec *e;

	if (room(c, plain))
		return -ENOMEM;
	if (plain) {
		pts_evstore_begin_run(&c->store, br->pid, br->tid, br->from, br->to, br->ts_ns, pos);
	} else {
		e = pts_evstore_put(&c->store, br->kind, br->from, br->to, br->ts_ns, pos, br->pid,
				    br->tid);
		e->flags = (uint8_t)br->flags;
		if (br->kind == PTS_BR_JUMP || extra)
			e->flags |= PTS_REC_SLOW;	/* not handed out as it is */
		e->insn_len = br->insn_len;
		if (extra && store_extra(c, e, br))
			return -ENOMEM;
		if (c->risky && c->risk_at == UINT64_MAX)
			c->risk_at = idx;
	}
	catch_up(c);
	if (pos > c->end && c->over == UINT64_MAX)
		c->over = idx;
	if (c->over == idx || c->dec_next == PTS_PAR_SKIP || idx == c->skip_to)
		store_below(c);		/* the decoder stores itself from here on, or no more */
	if (snap_wanted(c, idx))
		return snapshot(c, dec, idx);
	return 0;
}

/*
 * Decode on with c->dec, appending to c's events, until `limit` more are
 * stored before the overlap, or PTS_PAR_OVERLAP events past c->end, or
 * the end of the trace. Events before c->skip_to are decoded and dropped.
 * A stored event is a run of jumps or one other event; it stops only after
 * an event that is not a jump, so that where runs begin and end depends on
 * the events alone, never on where a call stopped (a decoder remade to
 * skip to an index finds the same events at the same indexes). The
 * decoder stores most events itself (evstore.h); those it hands out are
 * stored here.
 */
int pardec_run(struct chunk *c, struct pts_ptdec *dec, uint64_t limit)
{
	const struct pts_branch *br;
	size_t n0 = c->n;	/* events stored so far: c->n - n0 */

	store_reopen(c);
	for (;;) {
		uint64_t idx;
		bool extra, plain;
		int got;

		if (!c->store.open && !c->run_skipped &&
		    (c->over != UINT64_MAX ? c->dec_next >= c->over + PTS_PAR_OVERLAP :
					     c->n - n0 >= limit))
			break;
		got = pts_ptdec_next(dec, &br);
		catch_up(c);
		if (!got) {
			c->complete = true;
			close_run(c);
			break;
		}
		extra = has_extra(br);
		plain = plain_jump(br, extra);
		if (plain) {
			got = extend_run(c, br->pid, br->tid, br->from, br->to, br->ts_ns);
			if (got < 0)
				return got;
			if (got)
				continue;
		}
		close_run(c);
		idx = c->dec_next;
		if (idx < c->skip_to) {
			if (plain)
				skip_run(c, br->pid, br->tid, br->from, br->to, br->ts_ns);
			c->dec_next++;
			store_below(c);
			continue;
		}
		if (store_event(c, dec, br, extra, plain, idx, pts_ptdec_pos(dec)))
			return -ENOMEM;
	}
	pts_ptdec_stats(dec, &c->fin);
	return 0;
}

/*
 * A chunk's events, positions and jumps, sized at its start for this many
 * a byte of its trace (3/2: the bench-gen trace has 1.3 events and 1.1
 * jumps a byte), up to PARDEC_PRESIZE_MAX. Grown from 1024 by doubling,
 * each array was copied twice and moved by mremap four times in its first
 * chunk (each move a TLB flush on the other CPUs, an interrupt to each,
 * costly in a VM: docs/performance.md, "The kernel's share of -j2
 * (fifteenth round)"). The room is reserved, not touched: glibc maps
 * such blocks (mallopt(3), M_MMAP_THRESHOLD) and the kernel gives a page
 * of an anonymous mapping its memory at the first write (the kernel's
 * Documentation/admin-guide/mm/concepts.rst, "Anonymous Memory"); a
 * chunk kept as a spare keeps its arrays.
 */
#define PARDEC_PRESIZE_NUM 3
#define PARDEC_PRESIZE_DEN 2
#define PARDEC_PRESIZE_MAX (1u << 18)

/* c's arrays at their first size for its trace (above). 0, or -ENOMEM. */
static int presize(struct chunk *c)
{
	uint64_t bytes = c->end - c->start;
	size_t want = bytes < (uint64_t)PARDEC_PRESIZE_MAX * PARDEC_PRESIZE_DEN / PARDEC_PRESIZE_NUM ?
			      (size_t)(bytes * PARDEC_PRESIZE_NUM / PARDEC_PRESIZE_DEN) :
			      PARDEC_PRESIZE_MAX;

	if (grow((void **)&c->ev, &c->cap, want, sizeof(*c->ev)) ||
	    grow((void **)&c->pos, &c->cappos, want, sizeof(*c->pos)) ||
	    grow((void **)&c->jumps, &c->capjumps, want, sizeof(*c->jumps)))
		return -ENOMEM;
	return 0;
}

/* A decoder for c from its start, c emptied (view and spare as pardec_new_decoder). */
static int start(struct chunk *c, struct pts_imgview *view, struct pts_ptdec **spare,
		 struct pts_ptdec **dec)
{
	chunk_reset(c, 0);
	c->dec_next = 0;
	c->skip_to = 0;
	if (presize(c))
		return -ENOMEM;
	return pardec_new_decoder(c, view, spare, dec);
}

/*
 * The whole chunk, in a worker (or by the consumer when no worker took
 * it), with a decoder of its own: c->dec is the consumer's only.
 */
int pardec_decode_chunk(struct chunk *c, struct pts_imgview *view, struct pts_ptdec **spare)
{
	struct pts_ptdec *dec;
	int rc;

	rc = start(c, view, spare, &dec);
	if (rc)
		return rc;
	rc = pardec_run(c, dec, UINT64_MAX);
	pts_ptdec_free_to(dec, spare);
	return rc;
}

int pardec_start_alone(struct chunk *c)
{
	return start(c, NULL, &c->owner->pool->caller_dec, &c->dec);
}

int pardec_start_sink(struct chunk *c)
{
	int rc = start(c, NULL, &c->owner->pool->caller_dec, &c->dec);

	if (rc)
		return rc;
	c->sink = true;
	/* the events a join with the chunk before may take (pardec_find_join) */
	return pardec_run(c, c->dec, PTS_PAR_SKIP + PTS_PAR_MATCH);
}
