/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timeline builder: branch events (decode/branch.h) in, the timeline
 * record stream of writer/writer.h out. Per thread it keeps a call stack
 * of frames (one slice each) and applies the design brief's "Timeline
 * semantics":
 *
 *  - calls push, returns pop. A frame holds the return address its call
 *    saved (pts_branch.insn_len; an interrupt's: the interrupted IP): a
 *    return to it pops the frame, a return to a deeper frame's unwinds to
 *    that frame (C++ exceptions, stack switching: inner frames end with
 *    PTS_TLK_UNWIND); a `ret` to no frame's return address is a return
 *    used as a jump (PTS_TLD_RETURN_AS_JUMP): a retpoline's inner frame (a
 *    call to a label in the caller's function) ends and the target
 *    replaces the thunk's frame, or (push+ret) the target replaces the top
 *    frame. A `ret` to a deeper frame's return address that ends user
 *    frames of calls leaves them on a stack of their own (a stack switch:
 *    swapcontext's `ret` on the other context's stack); a later `ret` to
 *    no open frame's return address but to one saved by a call of such a
 *    stack (the switch back into it) ends the top frame (the switch call
 *    that returns there) and begins that stack's frames below that call
 *    again on the frame under it, the first returning where the ended
 *    one would (tl_left.c: the newest of 8 stacks of at most 64 frames,
 *    forgotten at a gap, an exec or a return past the known stack; none
 *    when another kept call that saved the address would resume other
 *    frames: coroutines switching through one helper). A jump to such an
 *    address leaves or resumes stacks alike (a switch that returns by a
 *    jump: Boost.Context's jump_fcontext; none while an unwinder's frame
 *    is open: a landing pad), the frames it leaves unwound,
 *    the switch call it resumes from ending as a jump (tl_left_jump).
 *    Frames of unknown return address (trace start, after a gap,
 *    inferred) match a return by the function of the frame below (a jump
 *    into a deeper frame's function unwinds to it: longjmp); a return
 *    past the known stack ends every frame and opens an outer frame for
 *    the return target, flagged
 *    PTS_TLF_INFERRED, that begins where the outermost of the ended
 *    frames (or the first of a run of tail calls replacing it) began, so
 *    the frames already seen nest inside it;
 *  - tail calls, PLT stubs and other cross-function jumps replace the top
 *    frame (PTS_TLK_JUMP), keeping its return address; a jump to a kernel
 *    return thunk (__x86_return_thunk, srso_return_thunk) is the frame's
 *    return still to come; a jump into a function deeper in the stack
 *    (longjmp, a landing pad) unwinds to that frame like a return: to the
 *    frame the C++ unwinder's walk reached, else the innermost frame of
 *    that function (PTS_TLD_UNWIND_GUESSED when an older one is open);
 *    a jump between a function and its cold part (foo.cold) stays in
 *    the frame;
 *  - scope both: syscalls, interrupts and exceptions push kernel frames
 *    (PTS_TLF_KERNEL) on top of the interrupted user frame (an entry named
 *    asm_exc_* is shown as PTS_TLK_EXCEPTION, others as PTS_TLK_INTERRUPT);
 *    sysret/iret to user space (or tracing resuming there) ends every
 *    kernel frame and continues in the user frame holding the target (a
 *    kernel frame never stays below a user frame; more than the entry
 *    frame open is counted as PTS_TLD_KERNEL_LEFT_OPEN); within the
 *    kernel, returns and iret only end kernel frames (a return past them
 *    opens an inferred kernel frame on the user frames, from the return;
 *    an inferred kernel frame never encloses user frames);
 *  - scope kernel: a return to user space ends every frame; an entry from
 *    user mode (tracing enabled on an empty stack, not as a resume, at the
 *    first byte of an entry point: entry_*, asm_*, or at an external-
 *    interrupt vector stub: irq_entries_start, spurious_entries_start,
 *    __irqentry_text_start) is the outermost frame of its stretch, as is
 *    a run of tail calls replacing it: nothing ran below it in the
 *    kernel, so a return past the known stack does not enclose it (the
 *    inferred frame begins at the return, counted as opened late);
 *    tracing enabled anywhere else (mid-function: a task switched back
 *    in, a trace start inside the kernel) is enclosed as usual;
 *  - scope user: untraced kernel time is a PTS_TLF_SYNTHETIC slice
 *    "[syscall]" (after a syscall), "[interrupted]" (asynchronous disable)
 *    or "[untraced]" (any other disable); scope kernel: "[user]"; a
 *    "[syscall]" or "[interrupted]" stretch that a syscall or page-fault
 *    record of the capture fits (cfg.labels, klabel.h) is named by its
 *    label instead: "[syscall write → 4096]", "[page fault 0x... write]"
 *    (scopes both and kernel: the kernel entry slice keeps its name and
 *    carries the record as arguments, klabel.h); when tracing comes back from such kernel time in another function (a
 *    signal handler), that function nests on top of the interrupted frame;
 *  - a gap ends every open frame at the gap time (PTS_TLK_GAP) and leaves an
 *    instant "gap" whose detail is the cause; nothing is spliced across it;
 *  - an exec (sideband) ends every open frame of the thread and leaves an
 *    instant "exec": the new program starts with an empty stack;
 *  - code no symbol covers is one frame per object and privilege level,
 *    named "[unknown] 0xADDR (OBJECT)" after the address it was entered
 *    at, flagged PTS_TLF_UNKNOWN, offset 0;
 *  - per-thread time never decreases (an earlier time is clamped to the
 *    thread's last time and counted as a diagnostic); events that cannot
 *    happen in the recorded scope are counted diagnostics.
 *
 * Streaming: per thread the builder holds its stack (at most max_depth
 * frames shown; those of calls beyond are kept without slices, so that
 * a return, a longjmp or a raise out of them ends them: tl_hidden.c)
 * and the records not yet written (at most segment_cap: when full,
 * those before the outermost open frame's BEGIN are written, or all of
 * them if that BEGIN is the first; all at a gap and at the end); once the
 * outermost frame's BEGIN is written, an inferred outer frame can no
 * longer enclose it and begins at the time of the return instead (counted
 * as "inferred frame opened late").
 */
#ifndef PTS_TIMELINE_H
#define PTS_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../bundle/bundle.h"
#include "../decode/branch.h"
#include "../decode/elide.h"
#include "../decode/symtab.h"
#include "../util/err.h"
#include "../writer/writer.h"
#include "klabel.h"

/* Look up addr in pid's address space; fill *out; return 0 (name may be NULL).
 * The builder remembers answers by (pid, addr): the same question must get
 * the same answer for the builder's lifetime, and the strings must live as
 * long. */
typedef int (*pts_tl_symbolize_fn)(void *ctx, int32_t pid, uint64_t addr,
				   struct pts_sym_info *out);
/* Consume one record; a negative errno stops the builder. */
typedef int (*pts_tl_emit_fn)(void *ctx, const struct pts_tl_rec *rec, struct pts_err *err);

struct pts_tl_config {
	enum pts_scope scope;		/* what the trace recorded */
	pts_tl_symbolize_fn symbolize;	/* may be NULL: every address unknown */
	void *sym_ctx;
	/*
	 * The records' sink. pts_writer_sink with its struct pts_writer as
	 * emit_ctx: BEGIN and END go to the writer's frame path when it has
	 * one (writer.h, struct pts_writer_frames), the rest to the sink.
	 */
	pts_tl_emit_fn emit;
	void *emit_ctx;
	uint32_t max_depth;		/* frames per thread; 0 = 512 */
	uint32_t segment_cap;		/* records held per thread; 0 = 1024 */
	/*
	 * The capture's syscall and page-fault records, prepared (klabel.h),
	 * or NULL: scope user names each "[syscall]" and "[interrupted]"
	 * stretch its record fits by that record's label; scopes both and
	 * kernel give a kernel entry slice (entry_SYSCALL_64,
	 * asm_exc_page_fault) its record's arguments (pts_tl_rec.args),
	 * keeping its name. Not owned.
	 */
	struct pts_klabels *labels;
};

/* Diagnostics counted by the builder (never fatal). */
enum pts_tl_diag {
	PTS_TLD_TIME_BACKWARDS,		/* an event earlier than the thread's last */
	PTS_TLD_OUT_OF_SCOPE,		/* e.g. a kernel address in a user-only trace */
	PTS_TLD_DISABLE_WITHOUT_ENABLE,	/* tracing disabled twice */
	PTS_TLD_EVENT_WHILE_DISABLED,	/* a branch while tracing was off */
	PTS_TLD_FELL_THROUGH,		/* execution ran into another function without a call */
	PTS_TLD_INFERRED,		/* returns past the known stack */
	PTS_TLD_INFERRED_LATE,		/* ... whose segment was already written, or
					 * past a kernel entry from user mode */
	PTS_TLD_TOO_DEEP,		/* calls beyond max_depth (not shown) */
	PTS_TLD_UNKNOWN_TARGET,		/* branch with an unknown target */
	PTS_TLD_RETURN_AS_JUMP,		/* ret to no frame's return address (retpoline, push+ret) */
	PTS_TLD_KERNEL_LEFT_OPEN,	/* scope both: kernel frames open at a return to user */
	PTS_TLD_UNWIND_GUESSED,		/* a jump back into a function open in several frames */
	PTS_TLD_NR
};

const char *pts_tl_diag_name(enum pts_tl_diag d);

struct pts_tl_thread_stats {
	int32_t pid, tid;
	const char *name;		/* thread name or NULL */
	uint64_t first_ns, last_ns;	/* time of the first/last event */
	uint64_t calls, returns, gaps;
	uint64_t events;		/* branch events fed for this thread */
};

struct pts_tl;

/* New builder. Errors: -EINVAL (no emit callback), -ENOMEM. */
int pts_tl_new(const struct pts_tl_config *cfg, struct pts_tl **out, struct pts_err *err);

/*
 * Name a process (tid = 0) or a thread. Names given before a thread's
 * first event go out with its PTS_TL_PROCESS/THREAD records; a later name
 * (exec) is written as a new naming record. Errors: -ENOMEM, emit errors.
 */
int pts_tl_set_name(struct pts_tl *tl, int32_t pid, int32_t tid, const char *name,
		    struct pts_err *err);

/*
 * The builder's filter of jumps it has no use for (decode/branch.h): kept
 * filled with the function on top of the stack of the thread fed last. A
 * decoder may drop the jumps it matches and count them there; the builder
 * accounts them (event count, time, CPU) before the next event and at
 * pts_tl_finish, so the timeline is the same as with every jump fed.
 * Valid for the builder's lifetime.
 */
struct pts_br_elide *pts_tl_elide(struct pts_tl *tl);

/* Apply one branch event. Errors: -ENOMEM, errors of the emit callback. */
int pts_tl_feed(struct pts_tl *tl, const struct pts_branch *br, struct pts_err *err);
/*
 * pts_tl_feed of a near call (br->kind PTS_BR_CALL) and of a near return
 * (PTS_BR_RETURN), for a caller that knows the kind without testing it
 * (decode/brsrc.h, struct pts_brsrc_to): the same effect, without the
 * builder's own test of the kind.
 */
int pts_tl_feed_call(struct pts_tl *tl, const struct pts_branch *br, struct pts_err *err);
int pts_tl_feed_return(struct pts_tl *tl, const struct pts_branch *br, struct pts_err *err);

/* End every open frame at its thread's last time and write all held records. */
int pts_tl_finish(struct pts_tl *tl, struct pts_err *err);

uint64_t pts_tl_diag_count(const struct pts_tl *tl, enum pts_tl_diag d);
/*
 * Where diagnostic d was first met, as text for the summary, or "" when
 * the builder keeps no such place for d: PTS_TLD_FELL_THROUGH names the
 * renamed function and the one it ran into ("_start -> _dl_start_user
 * (ld-linux-x86-64.so.2)").
 */
void pts_tl_diag_first(const struct pts_tl *tl, enum pts_tl_diag d, char *buf, size_t size);
size_t pts_tl_nr_threads(const struct pts_tl *tl);
/*
 * Hash slots looked at so far finding threads and processes by id: a
 * number proportional to the events, whatever the number of threads (the
 * lookup is hashed, not a scan); for tests of that cost.
 */
uint64_t pts_tl_id_probes(const struct pts_tl *tl);
/* Stats of the i-th thread in order of first appearance; -ERANGE past the end. */
int pts_tl_thread_stats(const struct pts_tl *tl, size_t i, struct pts_tl_thread_stats *out);

void pts_tl_free(struct pts_tl *tl);

#endif /* PTS_TIMELINE_H */
