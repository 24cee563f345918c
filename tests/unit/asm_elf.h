/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small test programs for the decode tests: assembly (a file of the source
 * tree, or text) assembled with GNU as and linked with GNU ld into an ELF
 * in a suite's scratch directory (bt_tmpdir(), removed with bt_rmtree()).
 * The link flags stay with the caller: where the code lies (-Ttext) is
 * what the test's expected addresses depend on.
 */
#ifndef PTS_TEST_ASM_ELF_H
#define PTS_TEST_ASM_ELF_H

/* The golden user program (see test_decode_synth.c), relative to the source tree. */
#define ASM_ELF_USER_S "tests/golden/decode/user.S"

/*
 * Assemble src into dir/name.o and link that with `ld ld_flags` into
 * dir/name. src is a path; a relative one is taken from the source tree
 * (pts_unit_src_dir()). Returns the ELF's path (caller frees), or NULL
 * with the reason on stderr: as or ld not on PATH (binutils is needed),
 * or the command failed (as/ld say why above it), or no memory.
 */
char *asm_elf_build(const char *dir, const char *name, const char *src, const char *ld_flags);

/* The same for assembly text, written to dir/name.S first. */
char *asm_elf_build_text(const char *dir, const char *name, const char *text,
			 const char *ld_flags);

/*
 * The golden user program linked twice with a build-id into dir: *elf at
 * 0x401000 ("user.elf") and *other at 0x402000 ("other.elf": another
 * build-id, another entry point), id the first's build-id as hex. For
 * tests of what a build-id picks. Returns 0 (caller frees both), or -1
 * with the reason on stderr.
 */
int asm_elf_two_builds(const char *dir, char **elf, char **other, char id[41]);

/* A suite's cleanup after asm_elf_two_builds: dir removed (bt_rmtree), the three freed. */
void asm_elf_two_builds_free(char *dir, char *elf, char *other);

#endif
