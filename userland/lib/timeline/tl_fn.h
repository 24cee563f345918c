/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions (struct fn): the one holding an address in a thread's address
 * space, remembered by (pid, addr) in the builder's cache, and what kind
 * of code a function is (a kernel return thunk, a kernel entry).
 */
#ifndef PTS_TIMELINE_TL_FN_H
#define PTS_TIMELINE_TL_FN_H

#include "timeline_int.h"

/* lookup without a remembered answer: ask the hint or the symbolizer */
void tl_lookup_slow(struct pts_tl *tl, struct thread *t, uint64_t addr,
		    const struct pts_br_sym *hint, struct fn *out);
/* Is name one of the kernel's return thunks (is_return_thunk)? */
bool tl_is_return_thunk_name(const char *name);
/* A PLT entry ("puts@plt") or the rest of a PLT section (".plt": PLT0), as decode/plt.h names them. */
bool tl_is_plt_name(const char *name);

/*
 * Is name that of an unnamed function with bounds (a stripped object's
 * FDE, "[unknown] 0xSTART", tl_fn.c), or of unknown code?
 */
bool tl_is_unnamed_name(const char *name);
/* Is name the unwinder's _Unwind_Resume (or its PLT stub)? (tl_fn.c) */
bool tl_is_unwind_resume_name(const char *name);

/* Is name glibc's __pthread_unwind_next (or its PLT stub)? (tl_fn.c) */
bool tl_is_unwind_next_name(const char *name);
/* The role of a user function's name in the unwinder's frame walk (enum fn_unw). */
enum fn_unw tl_unwinder_role(const char *name);
/*
 * Frame f runs its function, fn is an unnamed part of one of that
 * object's functions (FN_PART): is it f's? Or f runs such a part: is fn
 * the function f was entered at? (tl_fn.c)
 */
bool tl_is_unnamed_part(const struct frame *f, const struct fn *fn);
/* Is part the cold part of hot ("hot.cold", tl_fn.c)? Both known, of one object. */
bool tl_is_cold_part(const struct fn *part, const struct fn *hot);
/*
 * Scope kernel: is fn, where tracing was enabled at addr (TIP.PGE) on an
 * empty stack, a kernel entry from user mode? (tl_fn.c)
 */
bool tl_is_user_entry(const struct fn *fn, uint64_t addr);

/*
 * *to = *from, field by field: the structure copy of a cache hit became a
 * `rep movs` (slow to start, and 11 instructions counted) in pts_tl_feed.
 */
static inline void fn_copy(struct fn *to, const struct fn *from)
{
	to->name = from->name;
	to->object = from->object;
	to->start = from->start;
	to->size = from->size;
	to->known = from->known;
	to->kernel = from->kernel;
	to->unw = from->unw;
	to->cold = from->cold;
}

/* Does lcache slot c remember the function holding addr in process pid? */
static inline bool lcache_holds(const struct lcache_ent *c, int32_t pid, uint64_t addr)
{
	return c->call.s.addr == addr && c->call.ret == (uint32_t)pid;
}

/* The slot's key is (pid, addr), pid in call.ret (struct lcache_ent). */
static inline void lcache_key(struct lcache_ent *c, int32_t pid)
{
	c->call.ret = (uint32_t)pid;
}

/* The lcache slot of (pid, addr). */
static inline struct lcache_ent *lcache_slot(struct pts_tl *tl, int32_t pid, uint64_t addr)
{
	return &tl->lcache[(addr ^ (addr >> 13) ^ (uint64_t)(uint32_t)pid) & (LCACHE_SIZE - 1)];
}

/*
 * The function holding addr in t's address space (hint: the decoder's
 * symbol, if it has one). Inline: nearly every answer is remembered.
 */
static inline void lookup(struct pts_tl *tl, struct thread *t, uint64_t addr,
			  const struct pts_br_sym *hint, struct fn *out)
{
	const struct lcache_ent *c;

	if (!(hint && hint->name) && tl->cfg.symbolize) {
		c = lcache_slot(tl, t->at.pid, addr);
		if (lcache_holds(c, t->at.pid, addr)) {
			fn_copy(out, &c->call.fn);
			return;
		}
	}
	tl_lookup_slow(tl, t, addr, hint, out);
}

/*
 * lookup without the copy: the remembered answer in place (valid until
 * the next lookup, which may reuse its slot), else the answer in *buf.
 */
static inline const struct fn *lookup_ref(struct pts_tl *tl, struct thread *t, uint64_t addr,
					  const struct pts_br_sym *hint, struct fn *buf)
{
	const struct lcache_ent *c;

	if (!(hint && hint->name) && tl->cfg.symbolize) {
		c = lcache_slot(tl, t->at.pid, addr);
		if (lcache_holds(c, t->at.pid, addr))
			return &c->call.fn;
	}
	tl_lookup_slow(tl, t, addr, hint, buf);
	return buf;
}

static inline bool same_fn(const struct frame *f, const struct fn *fn)
{
	if (f->s.flags & PTS_TLF_SYNTHETIC)
		return false;
	if (f->fn.known != fn->known)
		return false;
	if (fn->known)
		return f->fn.start == fn->start && f->fn.name == fn->name;
	/* unknown code: one frame per object and privilege level */
	return f->fn.object == fn->object && f->fn.kernel == fn->kernel;
}

/*
 * Is fn the other part of frame f's function: its cold part, or its hot
 * part while f runs the cold one (tl_is_cold_part)? Not per branch:
 * only for execution found outside the top frame's function.
 */
static inline bool other_part(const struct frame *f, const struct fn *fn)
{
	if (!(fn->cold | f->fn.cold) || (f->s.flags & PTS_TLF_SYNTHETIC))
		return false;
	if (fn->cold == FN_PART || f->fn.cold == FN_PART)
		return tl_is_unnamed_part(f, fn);
	return tl_is_cold_part(fn, &f->fn) || tl_is_cold_part(&f->fn, fn);
}

/*
 * The kernel's return thunks: with RETHUNK (retbleed, SRSO mitigations) a
 * function ends in `jmp __x86_return_thunk` instead of `ret`, and the thunk
 * (or srso_return_thunk -> call srso_safe_ret, which drops its own return
 * address) does the function's `ret`. Execution there still belongs to the
 * function that jumped in: no frame of their own. In user code, GCC's
 * -mfunction-return=thunk emits the same `jmp __x86_return_thunk` and
 * the thunk itself (`call 1f; pause; lfence; jmp; 1: lea 8(%rsp),%rsp;
 * ret`: its call plants the slot its lea drops), the one name of these
 * a user program has. Inline: every call asks.
 */
static inline bool is_return_thunk(const struct fn *fn)
{
	if (!fn->known)
		return false;
	if (fn->kernel)
		return tl_is_return_thunk_name(fn->name);
	return fn->name[0] == '_' && fn->name[1] == '_' && !strcmp(fn->name, "__x86_return_thunk");
}

/* Is addr the first byte of fn (a symbol, not unknown code named by its address)? */
static inline bool is_fn_entry(const struct fn *fn, uint64_t addr)
{
	return fn->known && addr == fn->start;
}

#endif /* PTS_TIMELINE_TL_FN_H */
