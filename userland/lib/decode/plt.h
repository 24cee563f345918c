/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of PLT entries, as objdump -d and perf show them: "puts@plt".
 *
 * A PLT entry has no symbol of its own; what names it is the relocation
 * of the GOT slot its indirect jump goes through (x86-64 psABI, "Procedure
 * Linkage Table"). Each entry of .plt, .plt.sec, .plt.got (and the older
 * .plt.bnd) is decoded: an optional endbr64 (IBT, -fcf-protection), an
 * optional bnd prefix, then "jmp *disp32(%rip)" gives the slot address,
 * and the slot's R_X86_64_JUMP_SLOT or R_X86_64_GLOB_DAT relocation names
 * the symbol. The layout of the entries (lazy or -z now, with or without
 * IBT) does not matter, nor the order of the relocations.
 *
 * An R_X86_64_IRELATIVE slot (libc's internal PLT, static binaries) has no
 * symbol, only the address of an IFUNC resolver as its addend: the entry is
 * named after the STT_GNU_IFUNC symbol at that address ("strnlen@plt"), or
 * as objdump does when the file has none ("*ABS*+0x9f550@plt").
 *
 * Code of a PLT section that is no entry (the lazy-binding header PLT0 and,
 * with IBT, the lazy stubs in .plt) is named after its section (".plt"),
 * never after the symbol before the section (_init).
 */
#ifndef PTS_DECODE_PLT_H
#define PTS_DECODE_PLT_H

#include <libelf.h>

#include "symtab.h"

/*
 * Add the PLT symbols of an x86-64 ELF file to st (link addresses; call
 * pts_symtab_finish() afterwards). Files of other machines, and files
 * without PLT sections or whose PLT sections hold no bytes (debug files),
 * add nothing. Errors: -ENOMEM.
 */
int pts_plt_add_syms(struct pts_symtab *st, Elf *elf);

/*
 * The same for the file at path, then pts_symtab_finish(). Used when a
 * binary's names come from another file (its separate debug file) while
 * its PLT and relocations are in the binary itself. Errors: -errno
 * opening, -EINVAL not an ELF file, -ENOMEM.
 */
int pts_plt_load(struct pts_symtab *st, const char *path);

/*
 * Length of name without its symbol version ("memcpy@@GLIBC_2.14" and
 * "memcpy@GLIBC_2.2.5" give strlen("memcpy")); a "@plt" suffix is kept.
 */
size_t pts_sym_unversioned_len(const char *name);

#endif
