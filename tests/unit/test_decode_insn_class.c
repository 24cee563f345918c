// SPDX-License-Identifier: GPL-2.0
/*
 * Which near calls and jumps need a TIP (SDM §33.2.1, COFI types): a
 * direct one has its target in an immediate displacement (E8, E9, EB),
 * so the decoder follows it without trace; an indirect one, whether its
 * target is in a register (FF D0, FF E0) or read from memory through a
 * RIP-relative operand (FF 15, FF 25: PLT/GOT code, -fno-plt builds),
 * takes its target from a TIP. Zydis marks the RIP-relative memory
 * operand "relative" as it does the immediate, so the two must not be
 * told apart by that attribute. Bytes hand-assembled from the opcode map
 * (SDM vol. 2).
 */
#include <stdio.h>

#include "decode/insn_class.h"
#include "unit.h"

struct want {
	const char *what;
	uint8_t bytes[6];
	size_t n;
	enum pts_icls cls;
	uint8_t tip;
	uint8_t direct;
};

static const struct want wants[] = {
	{ "call rel32", { 0xe8, 0x10, 0x00, 0x00, 0x00 }, 5, PTS_IC_CALL, 0, 1 },
	{ "jmp rel32", { 0xe9, 0x10, 0x00, 0x00, 0x00 }, 5, PTS_IC_JUMP, 0, 1 },
	{ "jmp rel8", { 0xeb, 0x02 }, 2, PTS_IC_JUMP, 0, 1 },
	{ "call *%rax", { 0xff, 0xd0 }, 2, PTS_IC_CALL, 1, 0 },
	{ "jmp *%rax", { 0xff, 0xe0 }, 2, PTS_IC_JUMP, 1, 0 },
	{ "call *x(%rip)", { 0xff, 0x15, 0xcd, 0xef, 0x00, 0x00 }, 6, PTS_IC_CALL, 1, 0 },
	{ "jmp *x(%rip)", { 0xff, 0x25, 0xcd, 0xef, 0x00, 0x00 }, 6, PTS_IC_JUMP, 1, 0 },
	{ "jz rel8", { 0x74, 0x05 }, 2, PTS_IC_COND, 0, 0 },
	{ "ret", { 0xc3 }, 1, PTS_IC_RET, 1, 0 },
};

static void near_calls_and_jumps_need_a_tip_unless_their_target_is_an_immediate(void)
{
	for (size_t i = 0; i < sizeof(wants) / sizeof(wants[0]); i++) {
		const struct want *w = &wants[i];
		struct pts_insn in;

		CU_ASSERT_EQUAL_FATAL(pts_insn_classify(w->bytes, w->n, 64, &in), 0);
		if (in.cls != w->cls || in.len != w->n || in.tip != w->tip ||
		    in.direct != w->direct)
			fprintf(stderr, "%s: cls %d len %u tip %u direct %u\n", w->what,
				in.cls, in.len, in.tip, in.direct);
		CU_ASSERT_EQUAL(in.cls, w->cls);
		CU_ASSERT_EQUAL(in.len, w->n);
		CU_ASSERT_EQUAL(in.tip, w->tip);
		CU_ASSERT_EQUAL(in.direct, w->direct);
	}
}

PTS_SUITE(decode_insn_class, NULL, NULL,
	  PTS_TEST(near_calls_and_jumps_need_a_tip_unless_their_target_is_an_immediate));
