// SPDX-License-Identifier: GPL-2.0
/*
 * Stacks a thread left. Code that switches stacks leaves the running
 * one by a `ret` to the return address of an older frame: swapcontext
 * ends by `ret` on the other context's stack, to where that context's
 * own call of swapcontext saved (glibc, sysdeps/unix/sysv/linux/x86_64/
 * swapcontext.S: the saved stack pointer is loaded, then `ret`). The
 * trace carries no stack pointer: the timeline sees a return into a
 * frame below the top one and ends the frames above it (timeline.h).
 * Those frames are still on their stack, waiting in their own switch
 * call; the switch back to them is a `ret` to the address that call
 * saved, which no open frame holds. Kept here, they begin again there,
 * in place of the switch call that resumed them, as the coroutine's first
 * entry ran in place of the switch call that started it (a `ret` to its
 * function's first byte, as a jump: tl_return.c).
 */
#include "tl_left.h"

#include <stdlib.h>
#include <string.h>

struct tl_left {
	struct frame *f;	/* frames, outermost first */
	uint32_t n;
};

static bool keepable(const struct frame *f)
{
	return f->ret && !f->resume &&
	       !(f->s.flags & (PTS_TLF_SYNTHETIC | PTS_TLF_KERNEL | PTS_TLF_INFERRED));
}

void tl_left_keep(struct thread *t, uint32_t i)
{
	uint32_t n = t->n - i, k;
	struct tl_left *l;
	struct frame *f;

	if (n < 2 || n > TL_LEFT_DEPTH)
		return;
	for (k = i; k < t->n; k++)
		if (!keepable(&t->frames[k]))
			return;
	if (!t->left) {
		t->left = calloc(TL_LEFT_MAX, sizeof(*t->left));
		if (!t->left)
			return;
	}
	if (t->nleft == TL_LEFT_MAX) {
		free(t->left[0].f);
		memmove(&t->left[0], &t->left[1], (TL_LEFT_MAX - 1) * sizeof(*t->left));
		t->nleft--;
	}
	f = malloc(n * sizeof(*f));
	if (!f)
		return;
	for (k = 0; k < n; k++)
		frame_copy(&f[k], &t->frames[i + k]);
	l = &t->left[t->nleft++];
	l->f = f;
	l->n = n;
}

/*
 * Whether frames a[0 .. k) and b[0 .. k) are of the same functions and,
 * above the first, return to the same addresses.
 */
static bool same_frames(const struct frame *a, const struct frame *b, uint32_t k)
{
	uint32_t j;

	for (j = 0; j < k; j++)
		if (!same_fn(&a[j], &b[j].fn) || a[j].s.flags != b[j].s.flags ||
		    (j && a[j].ret != b[j].ret))
			return false;
	return true;
}

/*
 * The kept stack and its frame (above its first) whose call saved addr:
 * the newest such frame, unless another frame that saved addr would
 * resume other frames. Coroutines that switch through one helper (a
 * yield around swapcontext) all wait in a call that saved the same
 * address, and a scheduler resumes the one left longest ago: the target
 * does not say which stack goes on, and a guess would nest one
 * coroutine's frames in another's. Undecided, nothing is resumed; the
 * return out of the helper (to a call site of one stack only) resumes
 * the right one then.
 */
static bool find_left(const struct thread *t, uint64_t addr, uint32_t *which, uint32_t *at)
{
	bool found = false;
	uint32_t s, k;

	for (s = t->nleft; s-- > 0;)
		for (k = t->left[s].n; k-- > 1;) {
			if (t->left[s].f[k].ret != addr)
				continue;
			if (!found) {
				*which = s;
				*at = k;
				found = true;
			} else if (k != *at || !same_frames(t->left[s].f, t->left[*which].f, k)) {
				return false;
			}
		}
	return found;
}

int tl_left_resume(struct pts_tl *tl, struct thread *t, uint64_t addr, enum pts_tl_kind kind,
		   struct pts_err *err)
{
	struct tl_left l;
	uint32_t s, k, j;
	uint64_t ret;
	int rc;

	if (!t->n || !find_left(t, addr, &s, &k))
		return 0;
	l = t->left[s];
	memmove(&t->left[s], &t->left[s + 1], (t->nleft - s - 1) * sizeof(*t->left));
	t->nleft--;
	ret = t->frames[t->n - 1].ret;
	rc = pop(tl, t, kind, err);
	for (j = 0; !rc && j < k; j++) {
		const struct frame *f = &l.f[j];

		rc = push(tl, t, &f->fn, f->s.addr, j ? f->ret : ret, 0, PTS_TLK_RETURN, err);
	}
	free(l.f);
	return rc ? rc : 1;
}

/*
 * Switches that return by a jump leave and resume stacks as swapcontext's
 * `ret` does: a jump to where an older frame's call saved leaves the
 * frames above it, one to where a kept stack's call saved resumes it.
 * Only frames of calls: a frame of unknown return address, a kernel or
 * synthetic one saved nothing a jump could go to.
 */
int tl_left_jump(struct pts_tl *tl, struct thread *t, uint64_t addr, struct pts_err *err)
{
	uint32_t i = t->n;
	int rc = 0;

	if (!t->n || pts_addr_is_kernel(addr))
		return 0;
	while (i > 0 && t->frames[i - 1].ret != addr)
		i--;
	if (!i)
		return keepable(&t->frames[t->n - 1]) ?
			       tl_left_resume(tl, t, addr, PTS_TLK_JUMP, err) : 0;
	/* frame i - 1 saved addr: it ends, with those above it */
	if (!keepable(&t->frames[i - 1]))
		return 0;
	if (i < t->n)
		tl_left_keep(t, i - 1);
	/* as at any jump into a frame deeper in the stack, they unwind (longjmp) */
	while (!rc && t->n >= i)
		rc = pop(tl, t, PTS_TLK_UNWIND, err);
	return rc ? rc : 1;
}

void tl_left_forget(struct thread *t)
{
	while (t->nleft)
		free(t->left[--t->nleft].f);
}

void tl_left_free(struct thread *t)
{
	tl_left_forget(t);
	free(t->left);
	t->left = NULL;
}
