/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A thread's frames (struct frame): opened by push, ended by pop, each
 * with its BEGIN and END (tl_segment.h, put_frame); the function the top
 * frame stands for is where execution is (ensure_at).
 */
#ifndef PTS_TIMELINE_TL_STACK_H
#define PTS_TIMELINE_TL_STACK_H

#include "tl_fn.h"
#include "tl_segment.h"

/*
 * push, with label: the record whose arguments the BEGIN carries
 * (klabel.h), or NULL.
 */
int tl_push_labelled(struct pts_tl *tl, struct thread *t, const struct fn *fn, uint64_t addr,
		     uint64_t ret, uint32_t flags, enum pts_tl_kind kind,
		     const struct pts_kl_rec *label, struct pts_err *err);
/* End every frame (kind: why), the calls beyond max_depth too. */
int tl_pop_all(struct pts_tl *tl, struct thread *t, enum pts_tl_kind kind, struct pts_err *err);
/* Replace the top frame by fn (tail call): the new frame returns where the old one would. */
int tl_replace_top(struct pts_tl *tl, struct thread *t, const struct fn *fn, uint64_t addr,
		   enum pts_tl_kind kind, struct pts_err *err);
/* Push the frame of a signal handler (or its restorer) at addr; resume: see struct frame. */
int tl_push_handler(struct pts_tl *tl, struct thread *t, const struct fn *fn, uint64_t addr,
		    uint64_t resume, enum pts_tl_kind kind, struct pts_err *err);
/* ensure_at when execution left the top frame's function (or there is none). */
int tl_ensure_at_slow(struct pts_tl *tl, struct thread *t, uint64_t addr,
		      const struct pts_br_sym *hint, struct pts_err *err);

/*
 * A thread's frames follow a frame of span 0 (frames[-1]: zeroed), which
 * holds no address: the top frame of a thread with none is that one, so
 * in_top_fn and the elide window (set_elide_n) test no count. A thread
 * with no frames allocated yet points just past tl_no_frames.
 */
extern const struct frame tl_no_frames[1];

/* Room for more frames of t (cap: THREAD_CAP0, then doubled); -ENOMEM. */
int tl_frames_grow(struct pts_tl *tl, struct thread *t);
void tl_frames_free(struct thread *t);

/* The top frame of t, or the frame of span 0 before its frames (tl_no_frames). */
static inline const struct frame *top_frame(const struct thread *t)
{
	return t->frames + t->n - 1;
}

/* Quick test whether addr lies in the top frame's function (no lookup). */
static inline bool in_top_fn(struct thread *t, uint64_t addr)
{
	const struct frame *f = top_frame(t);

	return addr - f->fn.start < f->span;
}

/* A new frame's span (struct frame), from its fn and flags. */
static inline uint64_t frame_span(const struct fn *fn, uint32_t flags)
{
	return fn->known && !(flags & PTS_TLF_SYNTHETIC) ? fn->size : 0;
}

/*
 * A frame's flags: the caller's (PTS_TLF_INFERRED, PTS_TLF_SYNTHETIC)
 * and what fn says. Code no symbol covers is named by lookup, not by a
 * symbol: PTS_TLF_UNKNOWN tells the writers so. A synthetic slice has no
 * symbol either but is named for what it stands for.
 */
static inline uint32_t frame_flags(const struct fn *fn, uint32_t flags)
{
	if (fn->kernel)
		flags |= PTS_TLF_KERNEL;
	if (!fn->known && !(flags & PTS_TLF_SYNTHETIC))
		flags |= PTS_TLF_UNKNOWN;
	return flags;
}

/*
 * Frame f for fn, entered at addr (ret: struct frame), with the caller's
 * flags (frame_flags): its slice is its BEGIN's and END's. fn is read
 * once, into v, before f is written: a structure copy was a `rep movs`,
 * and every read of fn after a store to f a load again (f may alias fn,
 * for all the compiler knows).
 */
static inline __attribute__((always_inline)) void
frame_set(struct frame *f, const struct fn *fn, uint64_t addr, uint64_t ret, uint32_t flags)
{
	struct fn v;
	uint64_t span;

	fn_copy(&v, fn);
	flags = frame_flags(&v, flags);
	span = frame_span(&v, flags);
	fn_copy(&f->fn, &v);
	f->ret = ret;
	f->resume = 0;
	f->s.name = v.name;
	f->s.object = v.object;
	f->s.addr = addr;
	f->s.offset = v.known ? addr - v.start : 0;
	f->s.flags = flags;
	f->s.nargs = 0;
	f->s.args = NULL;
	f->s.wtag = 0;
	f->s.id = 0;
	f->span = span;
}

/*
 * *to = *from, 32 bytes at a time: a copy of the whole became a `rep
 * movs` (one count per 4 bytes), these four are two 16-byte moves each.
 */
static inline void frame_copy(struct frame *to, const struct frame *from)
{
	char *d = (char *)to;
	const char *s = (const char *)from;

	memcpy(d, s, 32);
	memcpy(d + 32, s + 32, 32);
	memcpy(d + 64, s + 64, 32);
	memcpy(d + 96, s + 96, 32);
}

/*
 * Open a frame for fn entered at addr (ret: struct frame; flags: the
 * caller's, frame_flags). Inline: the common case of a call, a frame on
 * top of others with room for it, is decided here; the rest (the first
 * frame, which becomes the bottom, a stack at max_depth or full, a
 * syscall entry still to be named: push_below) in tl_push_labelled.
 */
static inline __attribute__((always_inline)) int
push(struct pts_tl *tl, struct thread *t, const struct fn *fn, uint64_t addr, uint64_t ret,
     uint32_t flags, enum pts_tl_kind kind, struct pts_err *err)
{
	struct frame *f;

	if (!t->n || t->n >= t->push_below)
		return tl_push_labelled(tl, t, fn, addr, ret, flags, kind, NULL, err);
	f = &t->frames[t->n];
	frame_set(f, fn, addr, ret, flags);
	t->n++;
	return put_frame(tl, t, PTS_TL_BEGIN, kind, f, t->n - 1, err);
}

/*
 * End the top frame (kind: why). Inline, always: one per return (GCC
 * would call it from return_to, a dozen instructions more per return).
 */
static inline __attribute__((always_inline)) int
pop(struct pts_tl *tl, struct thread *t, enum pts_tl_kind kind, struct pts_err *err)
{
	if (t->excess) {
		t->excess--;
		return 0;
	}
	if (!t->n)
		return 0;
	t->n--;
	return put_frame(tl, t, PTS_TL_END, kind, &t->frames[t->n], t->n, err);
}

/*
 * Frame f goes on in fn, the other part of its function (other_part):
 * execution moved between a function's hot and cold parts. Its slice
 * stays as it is (one call: its BEGIN named the function entered); only
 * where execution is changes, for in_top_fn and the elide window.
 */
static inline void enter_part(struct frame *f, const struct fn *fn)
{
	fn_copy(&f->fn, fn);
	f->span = frame_span(fn, f->s.flags);
}

static inline bool top_synthetic(struct thread *t)
{
	return t->n && !t->excess && (t->frames[t->n - 1].s.flags & PTS_TLF_SYNTHETIC);
}

static inline bool is_handler(const struct frame *f)
{
	return f->resume && !(f->s.flags & PTS_TLF_SYNTHETIC);
}

/*
 * Make sure the top frame is the function holding addr (execution is
 * there). Inline: every branch asks, and nearly always it is.
 */
static inline int ensure_at(struct pts_tl *tl, struct thread *t, uint64_t addr,
			    const struct pts_br_sym *hint, struct pts_err *err)
{
	if (!addr || in_top_fn(t, addr))
		return 0;
	return tl_ensure_at_slow(tl, t, addr, hint, err);
}

#endif /* PTS_TIMELINE_TL_STACK_H */
