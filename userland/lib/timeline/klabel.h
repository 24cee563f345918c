/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names for the kernel's untraced stretches: the capture's syscall and
 * user page-fault records (PTSCOPE_SB_SYS_ENTER/_SYS_EXIT/_PAGE_FAULT,
 * docs/abi.md), matched per thread, in order, to the stretches the
 * timeline builder opens, and the labels made from them:
 *
 *   [syscall write → 4096]   [syscall openat → -ENOENT]   [syscall exit_group]
 *   [page fault 0x7f3a12345000 write]
 *
 * Matching rule (docs/decode.md, "Syscall and fault labels"): a stretch of
 * thread T that began at decoder time t0 at user IP ip takes T's first
 * record of its kind (syscall for "[syscall]", page fault for
 * "[interrupted]") not yet taken and stamped at or after t0, if that
 * record names the same IP: for a syscall the IP it returns to (the byte
 * after the syscall instruction), for a fault the faulting instruction
 * (where the trace stopped). The decoder's time of a trace event is that
 * of the last timing packet before it, never later than the event, and
 * the kernel stamps its record after the event, so the right record is
 * never before t0. A record that does not fit is not taken and the
 * stretch keeps its plain name: nothing is guessed. Records never taken
 * are counted (pts_kl_stats()).
 *
 * In kernel and combined scope the kernel entry slices are decoded: a
 * record gives its slice arguments instead of a name (pts_kl_args(); the
 * entry is found by the user IP in combined scope, by the syscall handler
 * the trace shows in kernel scope: pts_kl_match_handler()).
 *
 * Times are absolute ns of the trace's clock (pts_tc_ns()) when added;
 * pts_kl_prepare() gets the timeline's origin (its ts_ns are relative).
 */
#ifndef PTS_TIMELINE_KLABEL_H
#define PTS_TIMELINE_KLABEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../writer/writer.h"

enum pts_kl_kind {
	PTS_KL_SYSCALL,		/* a syscall: entry (and exit) record */
	PTS_KL_FAULT,		/* a page fault in user mode */
};

/* One syscall (entry with its exit when recorded) or one page fault. */
struct pts_kl_rec {
	enum pts_kl_kind kind;
	int32_t pid, tid;
	uint64_t ns;		/* syscall entry or fault, absolute ns */
	uint64_t exit_ns;	/* syscall exit, when has_exit */
	bool has_exit;		/* exit, exit_group, a killed task: none */
	bool taken;		/* matched to a stretch */
	int64_t nr, ret;	/* syscall number, return value (has_exit) */
	uint64_t ip;		/* syscall: IP after the instruction; fault: faulting IP */
	uint64_t addr;		/* fault: the faulting address (CR2) */
	uint64_t error_code;	/* fault: #PF error code (SDM vol. 3A 4.7) */
	/* the slice arguments of a taken record (klabel_args.c) */
	struct pts_tl_arg args[PTS_TL_MAX_ARGS];
	uint32_t nargs;
	char text[48];		/* storage of a string argument */
};

struct pts_kl_stats {
	uint64_t records;	/* syscalls and faults added */
	uint64_t matched;	/* taken by a stretch */
	uint64_t unmatched;	/* not taken, stamped within its thread's traced time */
	uint64_t outside;	/* not taken, before or after its thread's traced time */
	uint64_t unpaired_exits;	/* exit records without their entry (not counted above) */
};

struct pts_klabels;

/* An empty set. Errors: NULL (out of memory). */
struct pts_klabels *pts_kl_new(void);
void pts_kl_free(struct pts_klabels *kl);

/*
 * Add one record, in any order. enter: nr and ip (after the syscall
 * instruction); exit: nr, ret, ip; fault: addr, error code, ip. ns:
 * absolute. Errors: -ENOMEM.
 */
int pts_kl_add_enter(struct pts_klabels *kl, int32_t pid, int32_t tid, uint64_t ns, int64_t nr,
		     uint64_t ip);
int pts_kl_add_exit(struct pts_klabels *kl, int32_t pid, int32_t tid, uint64_t ns, int64_t nr,
		    int64_t ret, uint64_t ip);
int pts_kl_add_fault(struct pts_klabels *kl, int32_t pid, int32_t tid, uint64_t ns,
		     uint64_t addr, uint64_t error_code, uint64_t ip);

/*
 * Pair each thread's entries with their exits (the next record of the
 * thread, an exit of the same number) and index the records by thread.
 * origin_ns: the absolute time of the timeline's 0. Call once, after the
 * last add and before the first match. Errors: -ENOMEM.
 */
int pts_kl_prepare(struct pts_klabels *kl, uint64_t origin_ns);

/* Records added (0: no label can be made, the builder need not ask). */
size_t pts_kl_count(const struct pts_klabels *kl);

/*
 * The record for a stretch of tid that began at t0_ns (timeline time,
 * relative to the origin) at user IP ip, by the rule above; taken.
 * NULL: none fits (ip 0: unknown, never fits).
 */
const struct pts_kl_rec *pts_kl_match(struct pts_klabels *kl, enum pts_kl_kind kind, int32_t tid,
				      uint64_t t0_ns, uint64_t ip);

/*
 * Kernel scope (klabel_args.c has no part in it): the record for a
 * syscall entry stretch of tid that began at t0_ns (timeline time) and in
 * which the trace shows the kernel calling the handler fn, a symbol
 * "__x64_sys_NAME" (or "__x64_sys_newNAME": fstat, stat, lstat, uname).
 * The thread's first syscall record not taken and stamped at or after t0
 * is taken if its number is NAME's in the x86-64 table; NULL otherwise
 * (nothing else is tried). docs/decode.md, "Syscall and fault labels".
 */
const struct pts_kl_rec *pts_kl_match_handler(struct pts_klabels *kl, int32_t tid,
					      uint64_t t0_ns, const char *fn);

/*
 * The slice arguments of a record (writer.h), made in r when it is taken
 * (pts_kl_make_args, also for records built by hand): a syscall's
 * "syscall" (its name, or its number when the table has none), "nr",
 * "ret" (with an exit record) and "errno" (a return of -4095..-1 with a
 * name: "ENOENT"); a fault's "address" (CR2, pointer), "access" ("read",
 * "write" or "fetch"), "error_code" (the raw bits) and "bits" (the words
 * of pts_kl_label() for bits 0, 2, 3, 5, 6, 15, comma-separated, when any
 * is set). pts_kl_args returns r->args; *n gets how many (0: none made).
 */
void pts_kl_make_args(struct pts_kl_rec *r);
const struct pts_tl_arg *pts_kl_args(const struct pts_kl_rec *r, uint32_t *n);

/*
 * The label of r: "syscall write → 4096" (bracketed: "[syscall write →
 * 4096]"). Return values -4095..-1 are an errno ("-ENOENT"), values of 2^32
 * and more are printed in hex (an address: mmap, brk), a number the x86-64
 * table does not name is printed as a number. Faults: the address and the
 * error code's words: "read", "write" or "fetch" (bit 1 W/R, bit 4 I/D),
 * then "present" (bit 0 P: a protection violation, not a missing page),
 * "kernel" (bit 2 U/S clear), "rsvd" (bit 3), "pkey" (bit 5), "shstk"
 * (bit 6), "sgx" (bit 15). Returns buf.
 */
const char *pts_kl_label(const struct pts_kl_rec *r, bool bracketed, char *buf, size_t len);

/*
 * Count what was not taken. thread_span(ctx, tid, &first, &last) gives a
 * thread's traced time (timeline time), 0 when known; NULL or non-zero:
 * every record not taken is "outside" if the thread was never traced.
 */
void pts_kl_stats(const struct pts_klabels *kl,
		  int (*thread_span)(void *ctx, int32_t tid, uint64_t *first, uint64_t *last),
		  void *ctx, struct pts_kl_stats *out);

#endif /* PTS_TIMELINE_KLABEL_H */
