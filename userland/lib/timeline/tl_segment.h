/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The records a thread holds (its segment, struct thread): while the
 * outermost open frame's BEGIN is held, a return past the known stack can
 * still insert an inferred frame under it (tl_return.c); records before
 * that BEGIN, and all of them once it is written, are final. put decides
 * which a record is; put_frame hands a final BEGIN or END to the writer's
 * frame path (tl_out.h) without building a record.
 */
#ifndef PTS_TIMELINE_TL_SEGMENT_H
#define PTS_TIMELINE_TL_SEGMENT_H

#include "tl_out.h"

/* put, when records are held or r is an outermost BEGIN */
int tl_put_held(struct pts_tl *tl, struct thread *t, struct pts_tl_rec *r, struct pts_err *err);
/* Write every held record. */
int tl_flush(struct pts_tl *tl, struct thread *t, struct pts_err *err);
/* Room for one more held record (grows by doubling up to segment_cap); -ENOMEM. */
int tl_buf_room(struct pts_tl *tl, struct thread *t);
/*
 * Hold r, the BEGIN of an inferred outer frame, where the outermost open
 * frame's BEGIN is: every held frame record from there on is one level
 * deeper. The caller made room (tl_buf_room).
 */
void tl_hold_at_bottom(struct pts_tl *tl, struct thread *t, const struct pts_tl_rec *r);

/* Does r open a new outermost frame (depth 0, not a tail call replacing one)? */
static inline bool is_bottom_begin(const struct pts_tl_rec *r)
{
	return r->type == PTS_TL_BEGIN && !r->depth && r->kind != PTS_TLK_JUMP;
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
	return tl_put_held(tl, t, r, err);
}

/*
 * The BEGIN or END record (type) of frame f at depth: every field but the
 * thread's (pid, tid, cpu, time: put). Set one by one, not cleared first:
 * two of these per call.
 */
static inline void rec_from_frame(struct pts_tl_rec *r, enum pts_tl_type type,
				  enum pts_tl_kind kind, const struct frame *f, uint32_t depth)
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

#endif /* PTS_TIMELINE_TL_SEGMENT_H */
