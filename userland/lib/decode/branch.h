/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Branch events: what the decoders (libipt block decoding of raw PT, and
 * perf-script text) hand the timeline builder. One event is one change of
 * control flow that matters for call stacks, or a change of trace state
 * (tracing enabled/disabled, a gap), in the order it happened on one CPU.
 *
 * Addresses are linear IPs; 0 means unknown (an IP suppressed by the
 * hardware, SDM "TIP.PGD with IP suppressed"). Times are ns since the
 * trace's time origin.
 */
#ifndef PTS_DECODE_BRANCH_H
#define PTS_DECODE_BRANCH_H

#include <stdint.h>

enum pts_br_kind {
	PTS_BR_CALL,		/* near call from -> to */
	PTS_BR_RETURN,		/* near return from -> to */
	PTS_BR_JUMP,		/* near jump (direct, indirect, taken jcc) */
	PTS_BR_SYSCALL,		/* syscall/sysenter/int n/far call: into the kernel */
	PTS_BR_SYSRET,		/* sysret/sysexit: back to user */
	PTS_BR_IRET,		/* iret / far return */
	PTS_BR_INTERRUPT,	/* asynchronous branch (interrupt, exception: FUP+TIP) */
	PTS_BR_ENABLED,		/* tracing (re)enabled at `to` (TIP.PGE) */
	PTS_BR_DISABLED,	/* tracing disabled at `from` (TIP.PGD, FUP+TIP.PGD) */
	PTS_BR_GAP,		/* decode error or overflow; `to` = resume IP or 0 */
	PTS_BR_INSTANT,		/* a point event: ptwrite, TraceStop, TSX abort */
	PTS_BR_CBR,		/* core:bus ratio changed; value = ratio */
	PTS_BR_EXEC,		/* the thread exec'd (sideband): its old stack is gone */
	PTS_BR_TRIGGER,		/* the capture's trigger fired (bundle): detail says what */
};

/* pts_branch.flags */
#define PTS_BRF_TRACE_OFF	(1U << 0)	/* tracing stopped at this branch (to = 0) */
#define PTS_BRF_ASYNC		(1U << 1)	/* DISABLED: asynchronous (interrupt/fault) */
#define PTS_BRF_RESUMED		(1U << 2)	/* ENABLED: at the IP where it stopped */

/* An optional symbol given by the input itself (perf script names them). */
struct pts_br_sym {
	const char *name;	/* NULL: look the address up */
	uint64_t start;		/* address of the symbol (addr - offset) */
	const char *object;	/* binary/module name, or NULL */
};

struct pts_branch {
	enum pts_br_kind kind;
	uint32_t flags;		/* PTS_BRF_* */
	uint64_t from, to;	/* IPs; 0 unknown */
	uint64_t ts_ns;		/* ns since the trace's time origin */
	uint32_t cpu;
	int32_t pid, tid;	/* -1 unknown */
	uint64_t offset;	/* GAP: byte offset in the CPU's trace */
	uint64_t value;		/* INSTANT: ptwrite payload; CBR: ratio */
	const char *detail;	/* GAP/INSTANT: cause text (valid during the call) */
	struct pts_br_sym from_sym, to_sym;
	/*
	 * Bytes of the instruction at `from`, 0 unknown. For CALL and SYSCALL
	 * from + insn_len is the return address the instruction saves, which
	 * the timeline matches returns against (retpolines, push+ret).
	 */
	uint8_t insn_len;
};

/* Name of a branch kind ("call", "return", ...), for listings and tests. */
const char *pts_br_kind_name(enum pts_br_kind k);

/* True for addresses in the upper canonical half (kernel space on Linux x86-64). */
static inline int pts_addr_is_kernel(uint64_t addr)
{
	return (addr >> 47) != 0;
}

#endif /* PTS_DECODE_BRANCH_H */
