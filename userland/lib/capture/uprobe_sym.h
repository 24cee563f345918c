/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a user-function trigger goes: SYMBOL[+OFF] of an ELF executable
 * or shared object turned into the file offset the kernel's uprobe takes
 * (include/uapi/ptscope.h, struct ptscope_uprobe_spec), with libelf.
 */
#ifndef PTS_CAPTURE_UPROBE_SYM_H
#define PTS_CAPTURE_UPROBE_SYM_H

#include <stdint.h>

#include "../util/err.h"

struct pts_uprobe_target {
	uint64_t file_offset;	/* of the probed instruction, bytes */
	uint64_t vaddr;		/* its address in the file's own layout */
	uint64_t sym_size;	/* st_size of the symbol, bytes (0 unknown) */
	char section[32];	/* the symbol's section, e.g. ".text" */
	char version[64];	/* the symbol version chosen, "" none */
};

/*
 * Resolve `spec` = NAME[@VERSION|@@VERSION][+OFF] in ELF file `path`
 * (ET_EXEC or ET_DYN: PIE executables and shared objects alike). OFF is
 * decimal or 0x hex, bytes from the symbol. NAME is looked up in .symtab,
 * then .dynsym; a version given must match (from the name in .symtab,
 * from .gnu.version/.gnu.version_d in .dynsym); with several versions of
 * NAME at different addresses and none given, the default one (@@, the
 * one the linker binds new programs to) is taken.
 *
 * The file offset is the symbol's section offset plus its distance from
 * the section's address, and must lie in an executable PT_LOAD segment
 * (what processes map and execute).
 *
 * Returns 0, or with err naming the reason:
 *   -ENOENT  no defined symbol of that name (and version),
 *   -EINVAL  bad spec; not in an executable section (a variable);
 *            an IFUNC (its address is the resolver, run once at load);
 *            OFF past the symbol's size; not ET_EXEC/ET_DYN;
 *            not in an executable loadable segment; not ELF,
 *   -errno   the file cannot be opened.
 */
int pts_uprobe_resolve(const char *path, const char *spec,
		       struct pts_uprobe_target *t, struct pts_err *err);

#endif
