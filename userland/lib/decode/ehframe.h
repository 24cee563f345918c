/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function bounds of a stripped object from its .eh_frame: every FDE
 * (Frame Description Entry) gives the start (initial location) and size
 * (address range) of the code it describes, which is a function, or a
 * part of one GCC split off (foo.cold). The System V x86-64 psABI
 * (section 3.7, "Stack Unwind Algorithm") makes .eh_frame mandatory for
 * every function, and strip keeps it: the exception unwinder needs it.
 * Format: LSB Core Specification, "Exception Frames" (.eh_frame, the
 * DWARF CFI subset with the 'z', 'R', 'P', 'L' augmentations).
 */
#ifndef PTS_DECODE_EHFRAME_H
#define PTS_DECODE_EHFRAME_H

#include <libelf.h>

#include "symtab.h"

/*
 * Add an unnamed symbol (struct pts_sym's unnamed) for each FDE of
 * elf's .eh_frame whose initial location lies in an executable section
 * and in no symbol st already has (call with st finished, names loaded).
 * Addresses are link addresses, sizes bytes. FDEs that cannot be read
 * (an encoding other than absolute or PC-relative, a record that runs
 * past the section) are skipped: a damaged .eh_frame gives fewer
 * functions, never an error. No .eh_frame: nothing added.
 * Errors: -ENOMEM.
 */
int pts_ehframe_add_fdes(struct pts_symtab *st, Elf *elf);

#endif
