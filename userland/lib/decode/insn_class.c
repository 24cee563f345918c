// SPDX-License-Identifier: GPL-2.0
/* Instruction branch classes through Zydis 4. */
#include "insn_class.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <Zydis/Zydis.h>

int pts_insn_classify(const uint8_t *buf, size_t len, int mode_bits, struct pts_insn *out)
{
	ZydisDecoder dec;
	ZydisDecodedInstruction in;
	ZydisMachineMode mm = ZYDIS_MACHINE_MODE_LONG_64;
	ZydisStackWidth sw = ZYDIS_STACK_WIDTH_64;

	if (mode_bits == 32) {
		mm = ZYDIS_MACHINE_MODE_LONG_COMPAT_32;
		sw = ZYDIS_STACK_WIDTH_32;
	} else if (mode_bits == 16) {
		mm = ZYDIS_MACHINE_MODE_LONG_COMPAT_16;
		sw = ZYDIS_STACK_WIDTH_16;
	}
	memset(out, 0, sizeof(*out));
	if (ZYAN_FAILED(ZydisDecoderInit(&dec, mm, sw)))
		return -EINVAL;
	if (ZYAN_FAILED(ZydisDecoderDecodeInstruction(&dec, NULL, buf, len, &in)))
		return -EINVAL;
	out->len = in.length;
	switch (in.mnemonic) {
	case ZYDIS_MNEMONIC_SYSCALL:
	case ZYDIS_MNEMONIC_SYSENTER:
	case ZYDIS_MNEMONIC_INT:
	case ZYDIS_MNEMONIC_INT1:
	case ZYDIS_MNEMONIC_INT3:
	case ZYDIS_MNEMONIC_INTO:
		out->cls = PTS_IC_SYSCALL;
		return 0;
	case ZYDIS_MNEMONIC_SYSRET:
	case ZYDIS_MNEMONIC_SYSEXIT:
		out->cls = PTS_IC_SYSRET;
		return 0;
	case ZYDIS_MNEMONIC_IRET:
	case ZYDIS_MNEMONIC_IRETD:
	case ZYDIS_MNEMONIC_IRETQ:
		out->cls = PTS_IC_IRET;
		return 0;
	default:
		break;
	}
	/* far forms: CALL ptr16:32 (9A), FF /3; JMP ptr16:32 (EA), FF /5; RET far (CA, CB) */
	if (in.opcode_map == ZYDIS_OPCODE_MAP_DEFAULT) {
		bool ff = in.opcode == 0xff;
		uint8_t reg = in.raw.modrm.reg;

		if (in.opcode == 0x9a || (ff && reg == 3)) {
			out->cls = PTS_IC_SYSCALL;
			return 0;
		}
		if (in.opcode == 0xea || (ff && reg == 5)) {
			out->cls = PTS_IC_FAR_JUMP;
			return 0;
		}
		if (in.opcode == 0xca || in.opcode == 0xcb) {
			out->cls = PTS_IC_IRET;
			return 0;
		}
	}
	switch (in.meta.category) {
	case ZYDIS_CATEGORY_CALL:
		out->cls = PTS_IC_CALL;
		break;
	case ZYDIS_CATEGORY_RET:
		out->cls = PTS_IC_RET;
		break;
	case ZYDIS_CATEGORY_UNCOND_BR:
		out->cls = PTS_IC_JUMP;
		break;
	case ZYDIS_CATEGORY_COND_BR:
		out->cls = PTS_IC_COND;
		break;
	default:
		out->cls = PTS_IC_OTHER;
		break;
	}
	return 0;
}
