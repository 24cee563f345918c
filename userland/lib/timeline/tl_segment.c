// SPDX-License-Identifier: GPL-2.0
/*
 * A thread's held records: written when the segment is full (those before
 * the outermost open frame's BEGIN, or all of them if that BEGIN is the
 * first), at a gap, an exec and the end.
 */
#include "tl_segment.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int tl_flush(struct pts_tl *tl, struct thread *t, struct pts_err *err)
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
	push_bound(tl, t);
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

int tl_buf_room(struct pts_tl *tl, struct thread *t)
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

int tl_put_held(struct pts_tl *tl, struct thread *t, struct pts_tl_rec *r, struct pts_err *err)
{
	int rc;

	if (t->nbuf == tl->cfg.segment_cap) {
		rc = t->bottom_idx > 0 ? flush_before_bottom(tl, t, err) : tl_flush(tl, t, err);
		if (rc)
			return rc;
	}
	if (!t->nbuf && t->bottom_idx < 0 && !is_bottom_begin(r))
		return emit(tl, r, err);
	if (tl_buf_room(tl, t))
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	t->buf[t->nbuf++] = *r;
	push_bound(tl, t);
	return 0;
}

void tl_hold_at_bottom(struct pts_tl *tl, struct thread *t, const struct pts_tl_rec *r)
{
	size_t i, b = (size_t)t->bottom_idx;

	for (i = b; i < t->nbuf; i++)
		if (t->buf[i].type == PTS_TL_BEGIN || t->buf[i].type == PTS_TL_END)
			t->buf[i].depth++;
	memmove(&t->buf[b + 1], &t->buf[b], (t->nbuf - b) * sizeof(*t->buf));
	t->buf[b] = *r;
	t->nbuf++;
	push_bound(tl, t);
}
