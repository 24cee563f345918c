// SPDX-License-Identifier: GPL-2.0
/*
 * Zydis-based COFI classification. The classes must agree with the ones
 * libipt's own instruction decoder derives (pt_insn iclass): the
 * self-check decodes our packets with libipt, so a disagreement shows up
 * as a decode error, never as silently wrong output.
 */
#include "ptsynth_iclass.h"

#include <errno.h>
#include <Zydis/Zydis.h>

static ZydisDecoder zdec;
static bool zdec_ready;

static bool is_far_mnemonic(ZydisMnemonic m)
{
	switch (m) {
	case ZYDIS_MNEMONIC_SYSCALL:
	case ZYDIS_MNEMONIC_SYSENTER:
	case ZYDIS_MNEMONIC_SYSEXIT:
	case ZYDIS_MNEMONIC_SYSRET:
	case ZYDIS_MNEMONIC_INT:
	case ZYDIS_MNEMONIC_INT1:
	case ZYDIS_MNEMONIC_INT3:
	case ZYDIS_MNEMONIC_INTO:
	case ZYDIS_MNEMONIC_IRET:
	case ZYDIS_MNEMONIC_IRETD:
	case ZYDIS_MNEMONIC_IRETQ:
	case ZYDIS_MNEMONIC_VMCALL:
	case ZYDIS_MNEMONIC_VMMCALL:
		return true;
	default:
		return false;
	}
}

int ptsynth_classify(uint64_t ip, const uint8_t *buf, size_t len,
		     struct ptsynth_decoded *out)
{
	ZydisDecodedInstruction in;
	ZydisDecoderContext ctx;
	bool far, rel;

	if (!zdec_ready) {
		if (!ZYAN_SUCCESS(ZydisDecoderInit(&zdec, ZYDIS_MACHINE_MODE_LONG_64,
						   ZYDIS_STACK_WIDTH_64)))
			return -EINVAL;
		zdec_ready = true;
	}
	if (len > 15)
		len = 15;
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&zdec, &ctx, buf, len, &in)))
		return -EINVAL;

	out->size = in.length;
	out->rep = (in.attributes & (ZYDIS_ATTRIB_HAS_REP | ZYDIS_ATTRIB_HAS_REPE |
				     ZYDIS_ATTRIB_HAS_REPNE)) != 0;
	out->is_syscall = in.mnemonic == ZYDIS_MNEMONIC_SYSCALL ||
			  in.mnemonic == ZYDIS_MNEMONIC_SYSENTER;
	out->target = 0;
	far = in.meta.branch_type == ZYDIS_BRANCH_TYPE_FAR;
	/* Direct branches have a relative immediate; ZYDIS_ATTRIB_IS_RELATIVE
	 * alone is also set for RIP-relative memory (call [rip+x]: indirect). */
	rel = in.raw.imm[0].size && in.raw.imm[0].is_relative;
	if (rel)
		out->target = ip + in.length + (uint64_t)in.raw.imm[0].value.s;

	if (is_far_mnemonic(in.mnemonic)) {
		out->iclass = PTSYNTH_IC_FAR;
		return 0;
	}
	switch (in.meta.category) {
	case ZYDIS_CATEGORY_COND_BR:
		/* XBEGIN is listed as a branch by Zydis but is no COFI for PT. */
		out->iclass = in.mnemonic == ZYDIS_MNEMONIC_XBEGIN ?
			      PTSYNTH_IC_OTHER : PTSYNTH_IC_JCC;
		break;
	case ZYDIS_CATEGORY_UNCOND_BR:
		out->iclass = far ? PTSYNTH_IC_FAR :
			      rel ? PTSYNTH_IC_JMP_DIRECT : PTSYNTH_IC_JMP_INDIRECT;
		break;
	case ZYDIS_CATEGORY_CALL:
		out->iclass = far ? PTSYNTH_IC_FAR :
			      rel ? PTSYNTH_IC_CALL_DIRECT : PTSYNTH_IC_CALL_INDIRECT;
		break;
	case ZYDIS_CATEGORY_RET:
		out->iclass = far ? PTSYNTH_IC_FAR : PTSYNTH_IC_RET;
		break;
	default:
		out->iclass = PTSYNTH_IC_OTHER;
		break;
	}
	if (out->iclass != PTSYNTH_IC_JCC && out->iclass != PTSYNTH_IC_JMP_DIRECT &&
	    out->iclass != PTSYNTH_IC_CALL_DIRECT)
		out->target = 0;
	return 0;
}

const char *ptsynth_iclass_name(enum ptsynth_iclass c)
{
	static const char *const names[] = {
		[PTSYNTH_IC_OTHER] = "other",
		[PTSYNTH_IC_JCC] = "jcc",
		[PTSYNTH_IC_JMP_DIRECT] = "jmp",
		[PTSYNTH_IC_JMP_INDIRECT] = "jmp-ind",
		[PTSYNTH_IC_CALL_DIRECT] = "call",
		[PTSYNTH_IC_CALL_INDIRECT] = "call-ind",
		[PTSYNTH_IC_RET] = "ret",
		[PTSYNTH_IC_FAR] = "far",
	};

	return (unsigned int)c < sizeof(names) / sizeof(names[0]) ? names[c] : "?";
}
