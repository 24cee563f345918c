/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Instruction classes as far as Intel PT cares: which packet, if any, a
 * retired instruction produces (SDM Vol. 3C §33.2.1 "Change of Flow
 * Instruction (COFI) Tracing", Table 33-1 "COFI Type for Branch
 * Instructions"). Classification uses Zydis 4 on the instruction bytes.
 */
#ifndef PTSYNTH_ICLASS_H
#define PTSYNTH_ICLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ptsynth_iclass {
	PTSYNTH_IC_OTHER = 0,		/* not a branch: no packet */
	PTSYNTH_IC_JCC,			/* conditional (Jcc, J*CXZ, LOOP*): one TNT bit */
	PTSYNTH_IC_JMP_DIRECT,		/* near relative JMP: no packet */
	PTSYNTH_IC_JMP_INDIRECT,	/* near indirect JMP: TIP */
	PTSYNTH_IC_CALL_DIRECT,		/* near relative CALL: no packet, pushes */
	PTSYNTH_IC_CALL_INDIRECT,	/* near indirect CALL: TIP, pushes */
	PTSYNTH_IC_RET,			/* near RET: TNT bit (compressed) or TIP */
	PTSYNTH_IC_FAR,			/* SYSCALL, SYSENTER, INT n, far CALL/JMP/RET,
					 * IRET, SYSRET: TIP (or TIP.PGD) */
};

/* Classified instruction. */
struct ptsynth_decoded {
	enum ptsynth_iclass iclass;
	uint8_t size;			/* bytes, 1..15 */
	bool rep;			/* REP/REPE/REPNE string instruction: single-step
					 * stops once per iteration at the same IP */
	bool is_syscall;		/* SYSCALL or SYSENTER (far transfer to the kernel) */
	uint64_t target;		/* direct branches: absolute target; else 0 */
};

/*
 * Classify the 64-bit-mode instruction at `ip` whose bytes are buf[0..len)
 * (len up to 15; fewer is fine when the instruction is shorter).
 * Returns 0, or -EINVAL when the bytes do not decode (not an instruction).
 * Not thread-safe on first call (initialises a static Zydis decoder).
 */
int ptsynth_classify(uint64_t ip, const uint8_t *buf, size_t len,
		     struct ptsynth_decoded *out);

/* Short lower-case name of a class, for messages and the ground truth. */
const char *ptsynth_iclass_name(enum ptsynth_iclass c);

#endif /* PTSYNTH_ICLASS_H */
