// SPDX-License-Identifier: GPL-2.0
/*
 * COFI classification with Zydis (SDM §33.2.1, Table "COFI Type for
 * Branch Instructions"). Byte sequences hand-assembled from the opcode
 * map (SDM vol. 2): a RIP-relative CALL through memory is indirect even
 * though its operand is "relative".
 */
#include "ptsynth_iclass.h"
#include "unit.h"

#include <errno.h>

static enum ptsynth_iclass cls(const uint8_t *b, size_t n, struct ptsynth_decoded *d)
{
	CU_ASSERT_EQUAL_FATAL(ptsynth_classify(0x401000, b, n, d), 0);
	return d->iclass;
}

static void branch_classes_match_the_opcode_map(void)
{
	struct ptsynth_decoded d;
	static const uint8_t call_rel[] = { 0xe8, 0x10, 0x00, 0x00, 0x00 };
	static const uint8_t call_riprel[] = { 0xff, 0x15, 0xcd, 0xef, 0x00, 0x00 };
	static const uint8_t call_reg[] = { 0xff, 0xd0 };		/* call *%rax */
	static const uint8_t ret[] = { 0xc3 };
	static const uint8_t ret_imm[] = { 0xc2, 0x08, 0x00 };
	static const uint8_t jz[] = { 0x74, 0x05 };
	static const uint8_t loop[] = { 0xe2, 0xfe };
	static const uint8_t jmp_rel[] = { 0xeb, 0x02 };
	static const uint8_t jmp_reg[] = { 0xff, 0xe0 };		/* jmp *%rax */
	static const uint8_t syscall[] = { 0x0f, 0x05 };
	static const uint8_t int80[] = { 0xcd, 0x80 };
	static const uint8_t mov_riprel[] = { 0x48, 0x8b, 0x05, 0x00, 0x10, 0x00, 0x00 };
	static const uint8_t rep_movsb[] = { 0xf3, 0xa4 };

	CU_ASSERT_EQUAL(cls(call_rel, sizeof(call_rel), &d), PTSYNTH_IC_CALL_DIRECT);
	CU_ASSERT_EQUAL(d.size, 5);
	CU_ASSERT_EQUAL(d.target, 0x401015);
	CU_ASSERT_EQUAL(cls(call_riprel, sizeof(call_riprel), &d), PTSYNTH_IC_CALL_INDIRECT);
	CU_ASSERT_EQUAL(cls(call_reg, sizeof(call_reg), &d), PTSYNTH_IC_CALL_INDIRECT);
	CU_ASSERT_EQUAL(cls(ret, sizeof(ret), &d), PTSYNTH_IC_RET);
	CU_ASSERT_EQUAL(cls(ret_imm, sizeof(ret_imm), &d), PTSYNTH_IC_RET);
	CU_ASSERT_EQUAL(cls(jz, sizeof(jz), &d), PTSYNTH_IC_JCC);
	CU_ASSERT_EQUAL(d.target, 0x401007);
	CU_ASSERT_EQUAL(cls(loop, sizeof(loop), &d), PTSYNTH_IC_JCC);
	CU_ASSERT_EQUAL(cls(jmp_rel, sizeof(jmp_rel), &d), PTSYNTH_IC_JMP_DIRECT);
	CU_ASSERT_EQUAL(cls(jmp_reg, sizeof(jmp_reg), &d), PTSYNTH_IC_JMP_INDIRECT);
	CU_ASSERT_EQUAL(cls(syscall, sizeof(syscall), &d), PTSYNTH_IC_FAR);
	CU_ASSERT_TRUE(d.is_syscall);
	CU_ASSERT_EQUAL(cls(int80, sizeof(int80), &d), PTSYNTH_IC_FAR);
	CU_ASSERT_EQUAL(cls(mov_riprel, sizeof(mov_riprel), &d), PTSYNTH_IC_OTHER);
	CU_ASSERT_EQUAL(cls(rep_movsb, sizeof(rep_movsb), &d), PTSYNTH_IC_OTHER);
	CU_ASSERT_TRUE(d.rep);
}

static void undecodable_bytes_are_refused(void)
{
	struct ptsynth_decoded d;
	static const uint8_t bad[] = { 0x0f, 0xff };	/* UD0 without ModRM: truncated */

	CU_ASSERT_EQUAL(ptsynth_classify(0x401000, bad, 1, &d), -EINVAL);
}

PTS_SUITE(ptsynth_iclass, NULL, NULL,
	  PTS_TEST(branch_classes_match_the_opcode_map),
	  PTS_TEST(undecodable_bytes_are_refused));
