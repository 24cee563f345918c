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

#include "pardec_cyc.h"

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

void pardec_chunk_free_data(struct chunk *c)
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

int pardec_new_decoder(struct chunk *c, struct pts_imgview *view, struct pts_ptdec **out)
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
/* Append a jump to the open run (the last), room made for it. */
static inline void append_jump(struct chunk *c, uint64_t from, uint64_t to, uint64_t ts_ns)
{
	struct pjump *j = &c->jumps[c->njumps++];
	struct prun *r = &c->runs[c->nruns - 1];

	j->from = from;
	j->to = to;
	j->ts_ns = ts_ns;
	r->n++;
	if (from < r->lo)
		r->lo = from;
	if (from > r->hi)
		r->hi = from;
	if (to < r->lo)
		r->lo = to;
	if (to > r->hi)
		r->hi = to;
}

static inline int extend_run(struct chunk *c, int32_t pid, int32_t tid, uint64_t from,
			     uint64_t to, uint64_t ts_ns)
{
	if (!c->run_open || pid != c->run_pid || tid != c->run_tid ||
	    (!c->single && ts_ns != c->run_ts))
		return 0;
	if (c->run_skipped)
		return 1;
	if (grow((void **)&c->jumps, &c->capjumps, c->njumps + 1, sizeof(*c->jumps)))
		return -ENOMEM;
	append_jump(c, from, to, ts_ns);
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
 * A jump that extends no run begins one, stored here as pardec_run() would
 * store it (idx c->dec_next, trace position pos) when it needs nothing
 * pardec_run() does besides: a statistics snapshot (the join's events), the
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

	if (!c->run_open || c->run_skipped || pid != c->run_pid || tid != c->run_tid ||
	    (!c->single && ts_ns != c->run_ts) || c->njumps >= c->capjumps)
		return take_jump_slow(c, pid, tid, from, to, ts_ns, pos);
	append_jump(c, from, to, ts_ns);
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
int pardec_run(struct chunk *c, struct pts_ptdec *dec, uint64_t limit)
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
int pardec_decode_chunk(struct chunk *c, struct pts_imgview *view)
{
	struct pts_ptdec *dec;
	int rc;

	chunk_reset(c, 0);
	c->dec_next = 0;
	c->skip_to = 0;
	rc = pardec_new_decoder(c, view, &dec);
	if (rc)
		return rc;
	rc = pardec_run(c, dec, UINT64_MAX);
	if (!rc && !c->first && pts_pt_has_cyc(c->owner->cfg.buf, c->owner->cfg.size, c->start, c->end))
		c->risky = true;
	pts_ptdec_free(dec);
	return rc;
}
