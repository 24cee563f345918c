/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timeline builder's state, shared by its files (timeline.h has the
 * semantics). Each concept has its file and a private header of what the
 * others call; the calls made per event are inline there:
 *
 *   timeline.c     the public interface: new, free, names, finish, stats
 *   tl_thread.*    threads by id, their announcement, time and scope checks
 *   tl_out.*       the output: the sink, and the writer's frame path
 *   tl_segment.*   the records held per thread and what is written when
 *   tl_fn.*        the function holding an address (remembered), and its kind
 *   tl_stack.*     the frames: push, pop, the function execution is in
 *   tl_untraced.*  the synthetic slices of untraced time
 *   tl_return.*    returns: which frame ends, inferred outer frames
 *   tl_left.*      stacks left by a stack switch, resumed by the switch back
 *   tl_resume.*    back from the kernel: signal handlers, tracing resumed
 *   tl_elide.h     the window of jumps a decoder drops for the builder
 *   tl_branch.c    one event in: the branches, with pts_tl_feed
 *   tl_events.*    the other events: tracing on and off, gaps, exec, ...
 *
 * Includes go one way, no header including one that includes it:
 * tl_thread.h, tl_out.h, tl_fn.h and tl_events.h on timeline_int.h;
 * tl_elide.h on tl_thread.h; tl_segment.h on tl_out.h; tl_stack.h on
 * tl_segment.h and tl_fn.h; tl_untraced.h, tl_return.h, tl_resume.h and
 * tl_left.h on tl_stack.h.
 */
#ifndef PTS_TIMELINE_INT_H
#define PTS_TIMELINE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "timeline.h"
#include "strpool.h"
#include "../util/hmap.h"

/*
 * What a function is to the C++ unwinder's frame walk (struct fn's unw;
 * tl_unwinder_role): where a landing pad's frame is told (tl_branch.c,
 * walked_frame). Functions of a role are never in the lcache, so that
 * every call of one comes to on_call.
 */
enum fn_unw {
	FN_UNW_NONE,
	FN_UNW_FIND,	/* _Unwind_Find_FDE: one call per frame the walk steps to */
	FN_UNW_RAISE,	/* _Unwind_RaiseException: its own frame, then two walks */
	FN_UNW_PHASE2,	/* _Unwind_Resume: its own frame, one walk */
	FN_UNW_FORCED,	/* _Unwind_ForcedUnwind: as _Unwind_Resume; its stop function may longjmp */
};

/* Which part of a function a struct fn is (GCC splits off cold parts). */
enum fn_part {
	FN_WHOLE,	/* a function, or its hot part */
	FN_COLD,	/* a named cold part, "foo.cold" (tl_is_cold_part) */
	/*
	 * an unnamed part of a stripped object's function (its FDE's first
	 * rule defines the CFA: entered with a frame set up): a part of the
	 * function whose frame jumps into it (other_part)
	 */
	FN_PART,
};

struct fn {
	const char *name;	/* interned; "[unknown] 0x... (obj)" for unknown code */
	const char *object;	/* interned or NULL */
	uint64_t start, size;
	bool known;
	bool kernel;
	uint8_t unw;	/* enum fn_unw */
	uint8_t cold;	/* enum fn_part */
};

struct frame {
	struct fn fn;
	/*
	 * The slice the frame's BEGIN and END records say (writer.h): fn's
	 * name and object, where the frame was entered (s.addr), PTS_TLF_*
	 * (s.flags); set at the push, handed to a writer's frame path as is.
	 */
	struct pts_tl_slice s;
	/*
	 * The return address saved by the call (or syscall, or interrupt)
	 * that opened the frame: a return to it ends this frame. 0 unknown
	 * (frames opened at trace start, after a gap, inferred, synthetic):
	 * returns are then matched by the function of the frame below.
	 */
	uint64_t ret;
	/*
	 * Where the thread resumes when the kernel is done, 0 unknown. A
	 * synthetic slice of untraced kernel time: after the syscall, or
	 * the interrupted IP. A signal handler's frame (and the restorer
	 * that replaces it, __restore_rt): that point of the code the
	 * signal interrupted, where rt_sigreturn resumes; tracing resuming
	 * there ends the frame and those above it.
	 */
	uint64_t resume;
	/*
	 * fn.size if execution inside [fn.start, fn.start + fn.size) stays
	 * in this frame (a known function of known size, not synthetic),
	 * else 0: the one test per branch of in_top_fn.
	 */
	uint64_t span;
};

/* A power of two: the top frame's address is a shift, not a multiply. */
_Static_assert(sizeof(struct frame) == 128, "struct frame: 128 bytes");

/*
 * Frames and held records a thread starts with, doubled as needed: a
 * trace can hold 10^5 threads or more, most of which run a little, so a
 * thread costs a few hundred bytes until it does more.
 */
#define THREAD_CAP0 4

/* The first kernel address: pts_addr_is_kernel(a) is a >= KERNEL_HALF. */
#define KERNEL_HALF (1ULL << 47)

struct tl_left;	/* tl_left.c */

struct thread {
	/*
	 * pid, tid; the CPU of the last event and its time (ns), clamped
	 * to never go back: every record's thread and time (the writers'
	 * frame path takes it as it is).
	 */
	struct pts_tl_at at;
	const char *name;
	bool announced;
	struct frame *frames;
	uint32_t n, cap;
	/*
	 * A call opens its frame on others in place (push's common case,
	 * and the common call's, whose BEGIN goes to the writer) while n is
	 * below this: the lesser of max_depth and cap, 0 while bottom_syscall
	 * or records are held (nbuf). One compare for four (push_bound keeps
	 * it).
	 */
	uint32_t push_below;
	uint32_t excess;	/* calls beyond max_depth not shown */
	/*
	 * Their frames, oldest first (tl_hidden.c): hidden[0 .. excess) when
	 * hidden_valid >= excess, else some were not kept (out of memory)
	 * and only their count is known.
	 */
	struct frame *hidden;
	uint32_t hidden_cap, hidden_valid;
	/*
	 * Stacks left by a stack switch, oldest first (tl_left.c):
	 * left[0 .. nleft), NULL until the first is kept.
	 */
	struct tl_left *left;
	uint32_t nleft;
	bool have_ts;	/* at.ts_ns is an event's (thread_time) */
	/* records of the current segment not yet written */
	struct pts_tl_rec *buf;
	size_t nbuf, bufcap;
	/*
	 * The BEGIN of the outermost open frame: its index in buf (-1 once
	 * written out; else below nbuf) and time. An inferred outer frame is
	 * inserted there.
	 */
	long bottom_idx;
	uint64_t bottom_ts;
	/*
	 * Scope kernel: that frame (or the run of tail calls replacing it)
	 * is a kernel entry from user mode. Nothing ran below it in the
	 * kernel, so no inferred frame encloses it.
	 */
	bool bottom_user_entry;
	/*
	 * Scope kernel: that entry is entry_SYSCALL_64 and no syscall
	 * handler has been called in it yet (kernel_entry_label).
	 */
	bool bottom_syscall;
	/*
	 * Its stats but last_ns and events, one store and one count per
	 * event less. st.events counts the events but calls and returns,
	 * which st.calls and st.returns count (thread_events adds them).
	 * last_ns is at.ts_ns: every event's time is stored there, and only
	 * the trigger moves it otherwise (on_trigger), which keeps last_ns
	 * in trig_last_ns, with the events then, for as long as no event
	 * came since (tl_thread_last_ns).
	 */
	struct pts_tl_thread_stats st;
	/*
	 * The unwinder's frame open last (1 + its index; 0 none), its walks
	 * since it was entered, and of the last one the calls of
	 * _Unwind_Find_FDE, their depth above that frame and the function
	 * two frames below them (tl_branch.c, unwinder_entered).
	 */
	uint32_t unw_at, unw_walks, unw_finds, unw_depth;
	uint64_t unw_by;
	/*
	 * The last longjmp of a forced unwind (_Unwind_ForcedUnwind open):
	 * the index of the frame it landed in and its target, 0 none. A
	 * cleanup buffer is jumped to once: that frame is not the target of
	 * the unwind's next longjmp to the same point (tl_branch.c,
	 * walked_frame).
	 */
	uint32_t cleanup_frame;
	uint64_t cleanup_at;
	/*
	 * The last jump of the thread from a function to an unnamed
	 * function's first byte (a stripped object's FDE) that replaced
	 * frame tail_frame - 1 (0 none): the start of the function jumped
	 * from, of the one jumped to, and the frame's return address. A
	 * cold part entered before its function set up a frame is entered
	 * so, and its jump back into that function's middle goes on in the
	 * same frame (tl_branch.c, back_from_part).
	 */
	uint32_t tail_frame;
	uint64_t tail_from, tail_to, tail_ret;
	bool trig_moved;
	uint64_t trig_last_ns, trig_events;
};

/*
 * Symbolization cache: calls and returns go to the same few thousand
 * addresses all through a trace, and each lookup costs a map search, a
 * symbol search and two string interns. Direct-mapped by (pid, addr);
 * LCACHE_SIZE is a power of two. An empty slot has addr 0, which no
 * lookup asks for (branches to 0 are of unknown target).
 */
#define LCACHE_SIZE 4096

struct lcache_ent {
	/*
	 * The frame a call to addr opens, but its return address, which the
	 * call sets after its copy: call.fn is the function holding addr,
	 * call.s.addr is addr, and call.ret holds the pid, the key's other
	 * half (lcache_holds). A call copies it rather than build it
	 * (frame_set) anew; its slice's id is one of its own (struct
	 * pts_tl_slice), fresh each time the slot is filled.
	 */
	struct frame call;
};

/* The frame's size: a slot's address is a shift, not a multiply. */
_Static_assert(sizeof(struct lcache_ent) == 128, "struct lcache_ent: 128 bytes");

struct pts_tl {
	struct pts_tl_config cfg;
	struct lcache_ent lcache[LCACHE_SIZE];
	struct pts_strpool *pool;
	struct thread **th;	/* in order of first event (pts_tl_thread_stats) */
	size_t nth, capth;
	struct pts_hmap by_id;	/* (pid, tid) -> struct thread: no scan per event */
	struct thread *last;
	uint64_t slice_ids;	/* the ids given to lcache slots' slices so far */
	/*
	 * last, when pts_tl_feed may decide its calls and returns itself
	 * (a writer with a frame path, the thread announced and timed:
	 * have_ts), else NULL: one test per event for all three (tl_thread.c
	 * keeps it)
	 */
	struct thread *fast;
	struct pts_br_elide elide;	/* see pts_tl_elide */
	struct thread *elide_t;	/* the thread elide's window is of (set_elide), or NULL */
	struct pts_hmap pids;	/* processes announced (keys only) */
	/*
	 * The output when it is a writer with a frame path (cfg.emit is
	 * pts_writer_sink): every BEGIN and END goes there, the rest
	 * through cfg.emit. NULL otherwise.
	 */
	struct pts_writer *w;
	struct pts_writer_frames wf;
	/*
	 * The addresses the scope cannot hold, [oos_lo, oos_lo + oos_len):
	 * the kernel half in scope user, the user half but 0 (no address)
	 * in scope kernel, none in scope both (check_scope).
	 */
	uint64_t oos_lo, oos_len;
	/*
	 * A branch whose two ends are both below it holds no address the
	 * scope cannot (check_scope_branch's one test): the kernel half in
	 * scope user; UINT64_MAX in scope both, which holds every address;
	 * 0 in scope kernel, whose every branch is checked end by end.
	 */
	uint64_t in_scope_below;
	uint64_t diag[PTS_TLD_NR];
	/*
	 * The first PTS_TLD_FELL_THROUGH: the function whose slice was
	 * renamed and the one it was renamed to (interned: they live as long
	 * as the builder), so the summary can name where it happened.
	 */
	struct fn fell_from, fell_to;
};

/*
 * pid and tid, side by side in struct pts_tl_at, struct pts_branch and
 * struct pts_br_elide, as one word (read by pts_pid_tid, written here):
 * the thread of every event is one compare, the elide window's one copy.
 */
static inline void pid_tid_set(int32_t *pid, uint64_t v)
{
	memcpy(pid, &v, sizeof(v));
}

_Static_assert(offsetof(struct pts_tl_at, tid) == offsetof(struct pts_tl_at, pid) + 4 &&
		       offsetof(struct pts_branch, tid) == offsetof(struct pts_branch, pid) + 4 &&
		       offsetof(struct pts_br_elide, tid) == offsetof(struct pts_br_elide, pid) + 4,
	       "pts_pid_tid: pid and tid side by side");

/*
 * t's push_below (struct thread), after its cap, bottom_syscall or nbuf
 * changed: n == cap is n >= cap, as n never exceeds cap.
 */
static inline void push_bound(const struct pts_tl *tl, struct thread *t)
{
	uint32_t max = tl->cfg.max_depth;

	t->push_below = t->bottom_syscall || t->nbuf ? 0 : t->cap < max ? t->cap : max;
}

static inline const char *intern(struct pts_tl *tl, const char *s)
{
	return pts_strpool_intern(tl->pool, s);
}

#endif /* PTS_TIMELINE_INT_H */
