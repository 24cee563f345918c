// SPDX-License-Identifier: GPL-2.0
/*
 * Frames beyond max_depth. Their slices are not written (a recursion
 * thousands deep would make a timeline no viewer draws), but each is
 * kept like a shown frame: its function and the return address its
 * call saved. Without them a jump or a `ret` out of them to an older
 * frame (OCaml's raise, longjmp, a C++ landing pad, out of a deep
 * recursion) looked like one inside them: their count never went back
 * to 0, and nothing more of the thread was shown.
 */
#include "tl_hidden.h"

#include <stdlib.h>

#include "tl_fn.h"

/* Beyond this many hidden frames only the count is kept (16 M frames: 2 GiB). */
#define HIDDEN_MAX (1U << 24)

void tl_hidden_push(struct thread *t, const struct fn *fn, uint64_t addr, uint64_t ret)
{
	uint32_t k = t->excess;

	if (k == t->hidden_cap) {
		uint32_t nc = t->hidden_cap ? t->hidden_cap * 2 : 64;
		struct frame *nh = nc <= HIDDEN_MAX ? realloc(t->hidden, nc * sizeof(*nh)) : NULL;

		if (!nh)
			return;	/* hidden_valid stays below: only counted from here */
		t->hidden = nh;
		t->hidden_cap = nc;
	}
	frame_set(&t->hidden[k], fn, addr, ret, 0);
	if (t->hidden_valid >= k)
		t->hidden_valid = k + 1;
}

static bool hidden_known(const struct thread *t)
{
	return t->excess && t->hidden_valid >= t->excess;
}

uint64_t tl_hidden_ret(const struct thread *t)
{
	return hidden_known(t) ? t->hidden[t->excess - 1].ret : 0;
}

static bool lands_in(const struct frame *f, const struct fn *fn)
{
	return same_fn(f, fn) || other_part(f, fn);
}

/*
 * Execution moved to fn's middle, out of the hidden frames, into shown
 * frame i: the hidden frames are gone and so are the shown ones above
 * i. An older frame of fn's function could be the one (said, as for a
 * longjmp between shown frames: the trace carries no stack pointer).
 */
static int land_in_shown(struct pts_tl *tl, struct thread *t, uint32_t i, const struct fn *fn,
			 struct pts_err *err)
{
	uint32_t j;
	int rc = 0;

	t->excess = 0;
	for (j = 0; j < i; j++)
		if (lands_in(&t->frames[j], fn)) {
			tl->diag[PTS_TLD_UNWIND_GUESSED]++;
			break;
		}
	while (!rc && t->n > i + 1)
		rc = pop(tl, t, PTS_TLK_UNWIND, err);
	if (!rc && !same_fn(&t->frames[i], fn))
		enter_part(&t->frames[i], fn);
	return rc;
}

/*
 * Into fn's middle at to, not inside the top hidden frame's function:
 * the innermost frame of fn's function, hidden (the frames above it
 * end) or shown (land_in_shown); else 1: no open frame of it.
 */
static int land(struct pts_tl *tl, struct thread *t, const struct fn *fn, struct pts_err *err)
{
	uint32_t k = t->excess - 1;
	int64_t i;

	while (k--)
		if (lands_in(&t->hidden[k], fn)) {
			t->excess = k + 1;
			if (!same_fn(&t->hidden[k], fn))
				enter_part(&t->hidden[k], fn);
			return 0;
		}
	for (i = (int64_t)t->n - 1; i >= 0; i--)
		if (lands_in(&t->frames[i], fn))
			return land_in_shown(tl, t, (uint32_t)i, fn, err);
	return 1;
}

int tl_hidden_jump(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		   struct pts_err *err)
{
	struct frame *h;
	struct fn fn;
	int rc;

	lookup(tl, t, br->to, &br->to_sym, &fn);
	if (!hidden_known(t))
		return tl_replace_top(tl, t, &fn, br->to, PTS_TLK_JUMP, err);
	h = &t->hidden[t->excess - 1];
	if (same_fn(h, &fn))
		return 0;
	if (other_part(h, &fn)) {
		enter_part(h, &fn);
		return 0;
	}
	/* a tail call (to a first byte), as among shown frames */
	if (!is_fn_entry(&fn, br->to)) {
		rc = land(tl, t, &fn, err);
		if (rc <= 0)
			return rc;
	}
	frame_set(h, &fn, br->to, h->ret, 0);
	return 0;
}

int tl_hidden_return(struct pts_tl *tl, struct thread *t, uint64_t addr, const struct fn *fn,
		     enum pts_tl_kind kind, struct pts_err *err)
{
	uint32_t k;
	int64_t i;
	int rc;

	if (!hidden_known(t) || !addr || t->hidden[t->excess - 1].ret == addr ||
	    !t->hidden[t->excess - 1].ret) {
		t->excess--;
		return 0;
	}
	/* to an older hidden frame's saved address: the frames between end */
	for (k = t->excess - 1; k--;)
		if (t->hidden[k].ret == addr) {
			t->excess = k;
			return 0;
		}
	/* to a shown frame's: every hidden frame ends, and the shown ones above it */
	for (i = (int64_t)t->n - 1; i >= 0; i--)
		if (t->frames[i].ret == addr) {
			t->excess = 0;
			rc = 0;
			while (!rc && t->n > (uint32_t)i + 1)
				rc = pop(tl, t, PTS_TLK_UNWIND, err);
			return rc ? rc : pop(tl, t, kind, err);
		}
	/* into an older frame's function (caml_raise_exn's `ret` to a handler) */
	if (!is_fn_entry(fn, addr) && !same_fn(&t->hidden[t->excess - 1], fn)) {
		rc = land(tl, t, fn, err);
		if (rc <= 0)
			return rc;
	}
	/* push+ret, a retpoline: the target runs in place of the top hidden frame */
	tl->diag[PTS_TLD_RETURN_AS_JUMP]++;
	frame_set(&t->hidden[t->excess - 1], fn, addr, t->hidden[t->excess - 1].ret, 0);
	return 0;
}

void tl_hidden_free(struct thread *t)
{
	free(t->hidden);
	t->hidden = NULL;
	t->hidden_cap = 0;
	t->hidden_valid = 0;
}
