// SPDX-License-Identifier: GPL-2.0
/*
 * The function holding an address: the decoder's symbol or the
 * symbolizer's answer, interned and remembered; code no symbol covers
 * named by its address. And the kernel's functions of a special kind.
 */
#include "tl_stack.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static size_t cold_base_len(const char *name);

/* The name of code no symbol names: perf's "[unknown]", with its address and object. */
static void unknown_name(char *buf, size_t len, uint64_t addr, const char *object)
{
	if (object)
		snprintf(buf, len, "[unknown] 0x%" PRIx64 " (%s)", addr, object);
	else
		snprintf(buf, len, "[unknown] 0x%" PRIx64, addr);
}

void tl_lookup_slow(struct pts_tl *tl, struct thread *t, uint64_t addr,
		    const struct pts_br_sym *hint, struct fn *out)
{
	struct pts_sym_info si;
	struct lcache_ent *c = NULL;
	char buf[256];

	if (!(hint && hint->name) && tl->cfg.symbolize)
		c = lcache_slot(tl, t->at.pid, addr);
	memset(out, 0, sizeof(*out));
	out->kernel = pts_addr_is_kernel(addr);
	memset(&si, 0, sizeof(si));
	if (hint && hint->name) {
		si.name = hint->name;
		si.start = hint->start;
		si.object = hint->object;
	} else if (tl->cfg.symbolize) {
		tl->cfg.symbolize(tl->cfg.sym_ctx, t->at.pid, addr, &si);
	}
	out->object = intern(tl, si.object);
	if (si.name) {
		out->name = intern(tl, si.name);
		out->start = si.start;
		out->size = si.size;
		out->known = true;
		if (!out->kernel && out->name)
			out->unw = tl_unwinder_role(out->name);
		out->cold = out->name && cold_base_len(out->name) ? FN_COLD : FN_WHOLE;
	} else if (si.unnamed) {
		/*
		 * A function with bounds and no name (a stripped object's FDE):
		 * one of its own, named by its first byte as unknown code
		 * entered there is (the writers add the object of known code).
		 */
		unknown_name(buf, sizeof(buf), si.start, NULL);
		out->name = intern(tl, buf);
		out->start = si.start;
		out->size = si.size;
		out->known = true;
		out->cold = si.part ? FN_PART : FN_WHOLE;
	} else {
		unknown_name(buf, sizeof(buf), addr, si.object);
		out->name = intern(tl, buf);
		out->start = addr;
	}
	/* an intern that failed (ENOMEM) is not remembered */
	if (c && addr && out->name && !out->unw && (!si.object || out->object)) {
		frame_set(&c->call, out, addr, 0, 0);
		c->call.s.id = ++tl->slice_ids;
		lcache_key(c, t->at.pid);
	}
}

bool tl_is_plt_name(const char *name)
{
	size_t n = strlen(name);

	return (n > 4 && !strcmp(name + n - 4, "@plt")) || !strcmp(name, ".plt") ||
	       !strcmp(name, ".plt.sec") || !strcmp(name, ".plt.got") || !strcmp(name, ".plt.bnd");
}

bool tl_is_unnamed_name(const char *name)
{
	return !strncmp(name, "[unknown] ", 10);
}

bool tl_is_return_thunk_name(const char *name)
{
	static const char *const names[] = {
		"__x86_return_thunk", "srso_return_thunk", "srso_safe_ret",
		"srso_alias_return_thunk", "srso_alias_safe_ret", "retbleed_return_thunk",
		"__x86_return_skl", "call_depth_return_thunk",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/*
 * A landing pad that has run its cleanups calls _Unwind_Resume, which
 * never returns: it resumes the propagation from the frame below its
 * caller (Itanium C++ ABI, exception handling, 1.3 _Unwind_Resume), so
 * its caller is never the target; a cleanup followed by a handler of the
 * same frame jumps there without it. Called only for a jump into the
 * middle of a function open deeper, not per branch.
 */
bool tl_is_unwind_resume_name(const char *name)
{
	return !strcmp(name, "_Unwind_Resume") || !strcmp(name, "_Unwind_Resume@plt");
}

/*
 * glibc's __pthread_unwind_next, which a C cleanup handler (pthread_cleanup_push
 * without -fexceptions) calls to go on unwinding to the next older
 * cleanup buffer; with libc6-dbg's names its body is ___pthread_unwind_next.
 * Called only where a longjmp's walk is placed, not per branch.
 */
bool tl_is_unwind_next_name(const char *name)
{
	return !strcmp(name, "__pthread_unwind_next") || !strcmp(name, "___pthread_unwind_next") ||
	       !strcmp(name, "__pthread_unwind_next@plt");
}

/*
 * libgcc's unwinder (unwind-dw2.c) finds each frame's unwind info with
 * one call of _Unwind_Find_FDE (from uw_frame_state_for, through the
 * PLT in libgcc_s.so.1), each walk of the stack from a function of its
 * own: one call for the unwinder's own frame (uw_init_context_1), then
 * one per frame it steps to, from its caller down.
 * _Unwind_RaiseException walks twice: the search phase (in
 * _Unwind_RaiseException itself) down to the handler's frame, then the
 * cleanup phase (_Unwind_RaiseException_Phase2) down to the first frame
 * with a landing pad (a handler, or cleanups), which it installs;
 * _Unwind_Resume and _Unwind_ForcedUnwind walk once, the cleanup phase.
 * _Unwind_ForcedUnwind calls its stop function after each lookup, and
 * glibc's (pthread_exit, pthread_cancel) longjmps from there, in the
 * middle of the walk, into the frame the walk has reached when that
 * frame holds the newest cleanup buffer (pthread_cleanup_push in C built
 * without -fexceptions: a __sigsetjmp per cleanup). These calls are the
 * one thing the trace shows of the walk.
 */
enum fn_unw tl_unwinder_role(const char *name)
{
	if (name[0] != '_' || name[1] != 'U')
		return FN_UNW_NONE;
	if (!strcmp(name, "_Unwind_Find_FDE") || !strcmp(name, "_Unwind_Find_FDE@plt"))
		return FN_UNW_FIND;
	if (!strcmp(name, "_Unwind_RaiseException"))
		return FN_UNW_RAISE;
	if (!strcmp(name, "_Unwind_Resume"))
		return FN_UNW_PHASE2;
	if (!strcmp(name, "_Unwind_ForcedUnwind"))
		return FN_UNW_FORCED;
	return FN_UNW_NONE;
}

/*
 * GCC moves a function's unlikely code (error paths, landing pads) into
 * a part of its own, .text.unlikely, with a symbol of its own: "foo.cold"
 * (C++, demangled: "foo(int) [clone .cold]"; several: ".cold.N"). It is
 * entered by a jump from foo and jumps back: the same call of foo, as
 * DWARF says (the subprogram's ranges hold both parts). The length of
 * the hot part's name, or 0 when name is no such part's.
 */
static size_t cold_base_len(const char *name)
{
	size_t n = strlen(name), k = n;
	bool clone = n && name[n - 1] == ']';

	if (clone)
		k--;
	while (k && name[k - 1] >= '0' && name[k - 1] <= '9')
		k--;
	if (k < n - clone && k && name[k - 1] == '.')
		k--;	/* ".N" */
	else if (k != n - clone)
		return 0;
	if (k < 5 || memcmp(name + k - 5, ".cold", 5))
		return 0;
	k -= 5;
	if (!clone)
		return k;
	if (k < 8 || memcmp(name + k - 8, " [clone ", 8))
		return 0;
	return k - 8;
}

bool tl_is_cold_part(const struct fn *part, const struct fn *hot)
{
	size_t n;

	if (part->cold != FN_COLD || !hot->known || part->object != hot->object ||
	    part->kernel != hot->kernel)
		return false;
	n = cold_base_len(part->name);
	return n && !strncmp(part->name, hot->name, n) && !hot->name[n];
}

/*
 * A stripped object's cold part has no name to tie it to its function,
 * but it is entered with the frame of that function set up (its FDE's
 * first rule defines the CFA, FN_PART), and by a jump from it: code of
 * the frame that jumps there. Back in the function, the frame is again
 * the one entered at that function's first byte (its slice's address).
 * A jump into a part from a PLT, from another object, or from another
 * part is none of this.
 */
bool tl_is_unnamed_part(const struct frame *f, const struct fn *fn)
{
	const struct fn *cur = &f->fn;

	if (!cur->known || !fn->known || cur->object != fn->object || cur->kernel != fn->kernel)
		return false;
	if (fn->cold == FN_PART)
		return cur->cold == FN_WHOLE && !tl_is_plt_name(cur->name);
	return cur->cold == FN_PART && fn->cold == FN_WHOLE && fn->start == f->s.addr;
}

/*
 * With only ring 0 traced (SDM "Filtering by Current Privilege Level"),
 * TIP.PGE comes when the CPU enters ring 0, at the first byte of what
 * LSTAR, CSTAR, SYSENTER_EIP or an IDT gate points to; the Linux (5.8+)
 * names of these are entry_* (syscalls) and asm_* (idtentry stubs), plus
 * the per-vector stubs of external interrupts (irq_entries_start,
 * spurious_entries_start, which kallsyms may name __irqentry_text_start),
 * entered at any slot. Tracing switched back on inside the kernel (WRMSR,
 * a resumed task) lands after an instruction, never at such an entry's
 * first byte. Called once per enable, not per branch.
 */
bool tl_is_user_entry(const struct fn *fn, uint64_t addr)
{
	if (!fn->known || !fn->kernel)
		return false;
	if (addr == fn->start &&
	    (!strncmp(fn->name, "entry_", 6) || !strncmp(fn->name, "asm_", 4)))
		return true;
	return !strcmp(fn->name, "irq_entries_start") ||
	       !strcmp(fn->name, "spurious_entries_start") ||
	       !strcmp(fn->name, "__irqentry_text_start");
}
