// SPDX-License-Identifier: GPL-2.0
/*
 * A thread's frames, past the common cases inlined in tl_stack.h: the
 * first frame (the segment's bottom), a full or too deep stack, tail
 * calls, signal handlers, and execution found in another function.
 */
#include "tl_stack.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tl_hidden.h"
#include "tl_left.h"
#include "tl_untraced.h"

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
	push_bound(tl, t);
	if (t->bottom_idx < 0)
		return;
	b = &t->buf[t->bottom_idx];
	if (b->type != PTS_TL_BEGIN || b->depth)
		return;
	r = pts_kl_match_handler(tl->cfg.labels, t->at.tid, t->bottom_ts, fn->name);
	if (r)
		b->args = pts_kl_args(r, &b->nargs);
}

const struct frame tl_no_frames[1];

int tl_frames_grow(struct pts_tl *tl, struct thread *t)
{
	uint32_t nc = t->cap ? t->cap * 2 : THREAD_CAP0;
	struct frame *old = t->cap ? t->frames - 1 : NULL;
	struct frame *nf = realloc(old, (nc + 1) * sizeof(*nf));

	if (!nf)
		return -ENOMEM;
	if (!old)
		memset(nf, 0, sizeof(*nf));	/* frames[-1]: span 0 */
	t->frames = nf + 1;
	t->cap = nc;
	push_bound(tl, t);
	return 0;
}

void tl_frames_free(struct thread *t)
{
	tl_hidden_free(t);
	tl_left_free(t);
	if (t->cap)
		free(t->frames - 1);
	t->frames = (struct frame *)tl_no_frames + 1;
	t->cap = 0;
}

int tl_push_labelled(struct pts_tl *tl, struct thread *t, const struct fn *fn, uint64_t addr,
		     uint64_t ret, uint32_t flags, enum pts_tl_kind kind,
		     const struct pts_kl_rec *label, struct pts_err *err)
{
	struct pts_tl_rec r;
	struct frame *f;
	int rc;

	if (t->n >= tl->cfg.max_depth) {
		tl_hidden_push(t, fn, addr, ret);
		t->excess++;
		tl->diag[PTS_TLD_TOO_DEEP]++;
		return 0;
	}
	if (t->n == t->cap && tl_frames_grow(tl, t))
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
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
		push_bound(tl, t);
	}
	return rc;
}

int tl_pop_all(struct pts_tl *tl, struct thread *t, enum pts_tl_kind kind, struct pts_err *err)
{
	int rc;

	t->excess = 0;
	tl_left_forget(t);
	while (t->n) {
		rc = pop(tl, t, kind, err);
		if (rc)
			return rc;
	}
	return 0;
}

int tl_replace_top(struct pts_tl *tl, struct thread *t, const struct fn *fn, uint64_t addr,
		   enum pts_tl_kind kind, struct pts_err *err)
{
	uint64_t ret = t->excess ? tl_hidden_ret(t) : t->n ? t->frames[t->n - 1].ret : 0;
	uint64_t resume = t->n && !t->excess ? t->frames[t->n - 1].resume : 0;
	int rc = pop(tl, t, PTS_TLK_JUMP, err);

	if (!rc)
		rc = push(tl, t, fn, addr, ret, 0, kind, err);
	if (!rc && t->n && !t->excess)
		t->frames[t->n - 1].resume = resume;
	return rc;
}

int tl_push_handler(struct pts_tl *tl, struct thread *t, const struct fn *fn, uint64_t addr,
		    uint64_t resume, enum pts_tl_kind kind, struct pts_err *err)
{
	int rc = push(tl, t, fn, addr, 0, 0, kind, err);

	if (!rc && t->n && !t->excess)
		t->frames[t->n - 1].resume = resume;
	return rc;
}

int tl_ensure_at_slow(struct pts_tl *tl, struct thread *t, uint64_t addr,
		      const struct pts_br_sym *hint, struct pts_err *err)
{
	struct fn fn;
	int rc;

	if (top_synthetic(t)) {
		tl->diag[PTS_TLD_EVENT_WHILE_DISABLED]++;
		rc = tl_close_synthetic(tl, t, err);
		if (rc)
			return rc;
	}
	lookup(tl, t, addr, hint, &fn);
	if (!t->n && !t->excess)
		return push(tl, t, &fn, addr, 0, 0, PTS_TLK_TRACE_BEGIN, err);
	if (t->excess || same_fn(&t->frames[t->n - 1], &fn) || is_return_thunk(&fn))
		return 0;
	if (other_part(&t->frames[t->n - 1], &fn)) {
		enter_part(&t->frames[t->n - 1], &fn);
		return 0;
	}
	if (!tl->diag[PTS_TLD_FELL_THROUGH]++) {
		tl->fell_from = t->frames[t->n - 1].fn;
		tl->fell_to = fn;
	}
	return tl_replace_top(tl, t, &fn, addr, PTS_TLK_JUMP, err);
}
