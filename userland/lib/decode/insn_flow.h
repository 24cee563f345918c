/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The direct calls and jumps of a stretch of code as libipt's instruction
 * flow decoder (pt_insn_*) steps it: its own instruction length decoder
 * and its own computation of each branch's target, where Zydis, which the
 * decoder walks a block with (ptdec.c, path_fill), cannot follow libipt's
 * block decoder (an opcode invalid in 64-bit mode, such as 0x27, which
 * Zydis refuses and libipt's length decoder takes as one byte; code of
 * that kind runs only in a damaged trace, as a return to the middle of
 * an instruction). The stretch is decoded from a trace of four packets
 * made with libipt's encoder: PSB, MODE.Exec, PSBEND, TIP.PGE at its
 * start. Code that needs no trace (instructions other than branches, and
 * direct calls and jumps) is decoded on past the trace's end
 * (pt_insn_next(3)), as far as the block decoder decoded it.
 */
#ifndef PTS_DECODE_INSN_FLOW_H
#define PTS_DECODE_INSN_FLOW_H

#include <stdint.h>

#include <intel-pt.h>

struct pts_insn_flow;

/* A direct call or jump found (pts_insn_flow_branch). */
struct pts_flow_branch {
	uint64_t site;		/* its address; with none found, the address after the stretch */
	uint64_t to;		/* its target */
	uint32_t idx;		/* its index among the stretch's instructions, from 0 */
	uint8_t len;		/* a call's length in bytes; 0: a jump */
};

/*
 * The first direct call or jump among the n instructions from ip, in
 * mode, read from image (not owned; the block decoder's, pt_blk_get_image):
 * 1 and *out; 0 when there is none, out->site then the address of the
 * n + 1 st instruction (ip when n is 0); a negative libipt error code
 * (enum pt_error_code) when an instruction cannot be decoded (-pte_nomap,
 * -pte_bad_insn), needs trace (-pte_eos: a conditional or indirect branch
 * among the n), or the decoder cannot be made (-pte_nomem). *f is made
 * at the first call (NULL before it); freed with pts_insn_flow_free.
 * A stretch that starts at the target of the direct branch the call
 * before found, in the same image and mode, goes on from where that
 * call stopped, without a new trace: a block's branches asked for one
 * after another are walked in one pass (the same instructions).
 * Any thread, one at a time per *f.
 */
int pts_insn_flow_branch(struct pts_insn_flow **f, struct pt_image *image, enum pt_exec_mode mode,
			 uint64_t ip, uint32_t n, struct pts_flow_branch *out);

/*
 * The n instructions from ip, as pts_insn_flow_branch steps them: fn
 * called with each one's address, in order. 0, or a negative libipt
 * error code as pts_insn_flow_branch's (the instructions before it
 * given to fn).
 */
int pts_insn_flow_list(struct pts_insn_flow **f, struct pt_image *image, enum pt_exec_mode mode,
		       uint64_t ip, uint32_t n, void (*fn)(void *ctx, uint64_t ip), void *ctx);

/* f and its decoders freed; NULL is ignored. */
void pts_insn_flow_free(struct pts_insn_flow *f);

#endif
