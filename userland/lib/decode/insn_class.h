/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Branch class of one x86 instruction, from its bytes (Zydis). libipt's
 * pt_insn_class says only "far call"/"far return" for syscall, sysenter,
 * int n, sysret, sysexit and iret; the timeline needs to tell them apart.
 */
#ifndef PTS_DECODE_INSN_CLASS_H
#define PTS_DECODE_INSN_CLASS_H

#include <stddef.h>
#include <stdint.h>

enum pts_icls {
	PTS_IC_OTHER = 0,	/* no change of flow */
	PTS_IC_CALL,		/* near call */
	PTS_IC_RET,		/* near return */
	PTS_IC_JUMP,		/* near unconditional jump */
	PTS_IC_COND,		/* conditional jump, loop, jrcxz */
	PTS_IC_SYSCALL,		/* syscall, sysenter, int n, int3, into, far call */
	PTS_IC_SYSRET,		/* sysret, sysexit */
	PTS_IC_IRET,		/* iret/iretd/iretq, far return */
	PTS_IC_FAR_JUMP,	/* far jmp */
};

struct pts_insn {
	enum pts_icls cls;
	uint8_t len;		/* bytes */
	/*
	 * 1: a branch whose target the trace gives in a TIP packet (indirect
	 * call and jump, near and far returns, far branches, syscall class);
	 * 0: no branch, or a target in the instruction (direct call and
	 * jump, conditional jump). A call or jump through a RIP-relative
	 * memory operand (FF 15, FF 25) is indirect: 1
	 */
	uint8_t tip;
	/*
	 * 1: a near call or jump with its target in the instruction (an
	 * immediate displacement), which a decoder follows without trace
	 */
	uint8_t direct;
};

/*
 * Decode the instruction at buf (len bytes available) in a mode of
 * mode_bits = 16, 32 or 64. Returns 0, or -EINVAL for bytes that are not
 * a valid instruction (or not complete within len).
 */
int pts_insn_classify(const uint8_t *buf, size_t len, int mode_bits, struct pts_insn *out);

/*
 * The target of the direct near call or jump at ip (buf, len bytes
 * available) in a mode of mode_bits, as libipt 2.0.5 computes it
 * (pt_insn_next_ip): ip + the instruction's length + its displacement
 * (rel8, rel16 or rel32) sign-extended, in 64 bits, not wrapped to the
 * mode's width. 0, or -EINVAL when the bytes are no such instruction.
 */
int pts_insn_direct_target(const uint8_t *buf, size_t len, int mode_bits, uint64_t ip,
			   uint64_t *to);

#endif
