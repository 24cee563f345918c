// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated unit's code images are what sim_code.h says they are:
 * Zydis (an independent x86 decoder) finds the documented instruction at
 * every documented offset with the documented branch targets, and
 * kmod/sim_image.c, assembled here with the host compiler, gives exactly
 * the bytes the host tests decode against.
 */
#include "unit.h"
#include "sim_harness.h"

#include <Zydis/Zydis.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <unistd.h>

struct want_insn {
	unsigned int off;
	ZydisMnemonic mnemonic;
	unsigned int len;
	int target;		/* branch/lea target offset, -1 if none */
};

static const struct want_insn common_insns[] = {
	{ PTS_SIM_OFF_ENTRY, ZYDIS_MNEMONIC_ENDBR64, 4, -1 },
	{ PTS_SIM_OFF_MOV, ZYDIS_MNEMONIC_MOV, 5, -1 },
	{ PTS_SIM_OFF_CALL, ZYDIS_MNEMONIC_CALL, 5, PTS_SIM_OFF_LEAF },
	{ PTS_SIM_OFF_DEC, ZYDIS_MNEMONIC_DEC, 2, -1 },
	{ PTS_SIM_OFF_JNZ, ZYDIS_MNEMONIC_JNZ, 2, PTS_SIM_OFF_CALL },
	{ PTS_SIM_OFF_LEA, ZYDIS_MNEMONIC_LEA, 7, PTS_SIM_OFF_EXIT },
	{ PTS_SIM_OFF_JMP, ZYDIS_MNEMONIC_JMP, 2, -1 },
	{ PTS_SIM_OFF_LEAF, ZYDIS_MNEMONIC_INC, 2, -1 },
	{ PTS_SIM_OFF_RET, ZYDIS_MNEMONIC_RET, 1, -1 },
	{ PTS_SIM_OFF_EXIT, ZYDIS_MNEMONIC_ENDBR64, 4, -1 },
};

static void check_insn(const u8 *img, const struct want_insn *w)
{
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
	ZydisDecodedInstruction insn;
	ZydisDecoder dec;
	ZyanU64 abs;

	ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	CU_ASSERT_FATAL(ZYAN_SUCCESS(ZydisDecoderDecodeFull(&dec, img + w->off,
							    PTS_SIM_CODE_SIZE - w->off,
							    &insn, ops)));
	CU_ASSERT_EQUAL(insn.mnemonic, w->mnemonic);
	CU_ASSERT_EQUAL(insn.length, w->len);
	if (w->target >= 0) {
		CU_ASSERT(ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&insn, &ops[insn.mnemonic ==
							ZYDIS_MNEMONIC_LEA ? 1 : 0],
							w->off, &abs)));
		CU_ASSERT_EQUAL(abs, (ZyanU64)w->target);
	}
}

static void both_images_have_the_documented_instructions_at_the_documented_offsets(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(common_insns) / sizeof(common_insns[0]); i++) {
		check_insn(pts_sim_user_code, &common_insns[i]);
		check_insn(pts_sim_kernel_code, &common_insns[i]);
	}
	{
		const struct want_insn syscall = { PTS_SIM_OFF_FAR, ZYDIS_MNEMONIC_SYSCALL, 2, -1 };
		const struct want_insn resume = { PTS_SIM_OFF_RESUME, ZYDIS_MNEMONIC_JMP, 2,
						  PTS_SIM_OFF_ENTRY };
		const struct want_insn sysret = { PTS_SIM_OFF_FAR, ZYDIS_MNEMONIC_SYSRET, 3, -1 };

		check_insn(pts_sim_user_code, &syscall);
		check_insn(pts_sim_user_code, &resume);
		check_insn(pts_sim_kernel_code, &sysret);
	}
	CU_ASSERT_EQUAL(PTS_SIM_OFF_RESUME + 2, PTS_SIM_CODE_SIZE);
}

/* The .text bytes of an object file, via libelf. */
static size_t text_bytes(const char *path, u8 *out, size_t max)
{
	size_t n = 0, shstrndx;
	Elf_Scn *scn = NULL;
	Elf *elf;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_getshdrstrndx(elf, &shstrndx) == 0) {
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			Elf_Data *d;

			if (!gelf_getshdr(scn, &sh) ||
			    strcmp(elf_strptr(elf, shstrndx, sh.sh_name), ".text"))
				continue;
			d = elf_getdata(scn, NULL);
			if (d && d->d_size <= max) {
				memcpy(out, d->d_buf, d->d_size);
				n = d->d_size;
			}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return n;
}

static void kernel_assembly_source_assembles_to_the_tested_bytes(void)
{
	char obj[] = "/tmp/pts-sim-code-XXXXXX";
	char cmd[1024];
	const char *cc = getenv("CC");
	u8 text[256];
	size_t n;
	int fd;

	fd = mkstemp(obj);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	/* PTS_HOST: the same asm() without the kernel's objtool annotations */
	snprintf(cmd, sizeof(cmd), "%s -DPTS_HOST -c -o %s %s/kmod/sim_image.c",
		 cc && *cc ? cc : "cc", obj, pts_unit_src_dir());
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	n = text_bytes(obj, text, sizeof(text));
	unlink(obj);
	CU_ASSERT_EQUAL(n, PTS_SIM_CODE_SIZE);
	CU_ASSERT_EQUAL(memcmp(text, pts_sim_kernel_code, PTS_SIM_CODE_SIZE), 0);
}

PTS_SUITE(sim_code, NULL, NULL,
	  PTS_TEST(both_images_have_the_documented_instructions_at_the_documented_offsets),
	  PTS_TEST(kernel_assembly_source_assembles_to_the_tested_bytes))
