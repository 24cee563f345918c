// SPDX-License-Identifier: GPL-2.0
/* Instruction branch classes through Zydis 4. */
#include "insn_class.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <Zydis/Zydis.h>

/* The branch class of a decoded instruction. */
static enum pts_icls branch_class(const ZydisDecodedInstruction *in)
{
	switch (in->mnemonic) {
	case ZYDIS_MNEMONIC_SYSCALL:
	case ZYDIS_MNEMONIC_SYSENTER:
	case ZYDIS_MNEMONIC_INT:
	case ZYDIS_MNEMONIC_INT1:
	case ZYDIS_MNEMONIC_INT3:
	case ZYDIS_MNEMONIC_INTO:
		return PTS_IC_SYSCALL;
	case ZYDIS_MNEMONIC_SYSRET:
	case ZYDIS_MNEMONIC_SYSEXIT:
		return PTS_IC_SYSRET;
	case ZYDIS_MNEMONIC_IRET:
	case ZYDIS_MNEMONIC_IRETD:
	case ZYDIS_MNEMONIC_IRETQ:
		return PTS_IC_IRET;
	default:
		break;
	}
	/* far forms: CALL ptr16:32 (9A), FF /3; JMP ptr16:32 (EA), FF /5; RET far (CA, CB) */
	if (in->opcode_map == ZYDIS_OPCODE_MAP_DEFAULT) {
		bool ff = in->opcode == 0xff;
		uint8_t reg = in->raw.modrm.reg;

		if (in->opcode == 0x9a || (ff && reg == 3))
			return PTS_IC_SYSCALL;
		if (in->opcode == 0xea || (ff && reg == 5))
			return PTS_IC_FAR_JUMP;
		if (in->opcode == 0xca || in->opcode == 0xcb)
			return PTS_IC_IRET;
	}
	switch (in->meta.category) {
	case ZYDIS_CATEGORY_CALL:
		return PTS_IC_CALL;
	case ZYDIS_CATEGORY_RET:
		return PTS_IC_RET;
	case ZYDIS_CATEGORY_UNCOND_BR:
		return PTS_IC_JUMP;
	case ZYDIS_CATEGORY_COND_BR:
		return PTS_IC_COND;
	default:
		return PTS_IC_OTHER;
	}
}

/* Zydis's decode of the instruction at buf in a mode of mode_bits: 0, or -EINVAL. */
static int decode(const uint8_t *buf, size_t len, int mode_bits, ZydisDecodedInstruction *in)
{
	ZydisDecoder dec;
	ZydisMachineMode mm = ZYDIS_MACHINE_MODE_LONG_64;
	ZydisStackWidth sw = ZYDIS_STACK_WIDTH_64;

	if (mode_bits == 32) {
		mm = ZYDIS_MACHINE_MODE_LONG_COMPAT_32;
		sw = ZYDIS_STACK_WIDTH_32;
	} else if (mode_bits == 16) {
		mm = ZYDIS_MACHINE_MODE_LONG_COMPAT_16;
		sw = ZYDIS_STACK_WIDTH_16;
	}
	if (ZYAN_FAILED(ZydisDecoderInit(&dec, mm, sw)) ||
	    ZYAN_FAILED(ZydisDecoderDecodeInstruction(&dec, NULL, buf, len, in)))
		return -EINVAL;
	return 0;
}

int pts_insn_direct_target(const uint8_t *buf, size_t len, int mode_bits, uint64_t ip,
			   uint64_t *to)
{
	ZydisDecodedInstruction in;
	struct pts_insn c;
	unsigned int sh;

	if (pts_insn_classify(buf, len, mode_bits, &c) || !c.direct || decode(buf, len, mode_bits, &in))
		return -EINVAL;
	/* the displacement's own width (8, 16 or 32 bits), sign-extended here */
	sh = 64 - in.raw.imm[0].size;
	if (!in.raw.imm[0].size || sh >= 64)
		return -EINVAL;
	*to = ip + in.length + (uint64_t)((int64_t)(in.raw.imm[0].value.u << sh) >> sh);
	return 0;
}

int pts_insn_classify(const uint8_t *buf, size_t len, int mode_bits, struct pts_insn *out)
{
	ZydisDecodedInstruction in;

	memset(out, 0, sizeof(*out));
	if (decode(buf, len, mode_bits, &in))
		return -EINVAL;
	out->len = in.length;
	out->cls = branch_class(&in);
	/*
	 * The target in an immediate (E8, E9, EB): ZYDIS_ATTRIB_IS_RELATIVE
	 * also marks a target read through a RIP-relative operand
	 * (call *x(%rip): FF 15, jmp *x(%rip): FF 25), which is indirect
	 */
	out->direct = (out->cls == PTS_IC_CALL || out->cls == PTS_IC_JUMP) &&
		      in.raw.imm[0].is_relative;
	/* every branch needs a TIP but a direct (above) or conditional one */
	out->tip = out->cls != PTS_IC_OTHER && out->cls != PTS_IC_COND && !out->direct;
	return 0;
}
