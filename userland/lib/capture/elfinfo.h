/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ELF facts the capture needs from user binaries, read with libelf:
 * the GNU build-id, a symbol's address and size (for --filter SYMBOL),
 * and where a file address lands in a process given its maps (PIE and
 * shared objects are loaded at a bias).
 */
#ifndef PTS_CAPTURE_ELFINFO_H
#define PTS_CAPTURE_ELFINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../bundle/bundle.h"
#include "../util/err.h"

/*
 * NT_GNU_BUILD_ID of an ELF file as lower-case hex into hex[41] ("" when
 * the file has none: returns -ENOENT). Looks at SHT_NOTE sections, then
 * PT_NOTE segments (stripped files keep the segment). -errno on open,
 * -EINVAL when not ELF.
 */
int pts_elf_build_id(const char *path, char hex[41], struct pts_err *err);

/*
 * Address and size of symbol `name` (STT_FUNC or STT_OBJECT, defined) in
 * .symtab, else .dynsym. *is_pie: the file is ET_DYN (addresses are
 * relative to the load bias). -ENOENT if absent.
 */
int pts_elf_symbol(const char *path, const char *name, uint64_t *addr, uint64_t *size,
		   int *is_pie, struct pts_err *err);

/* How the kernel loads an ELF executable (pts_elf_load_kind). */
struct pts_elf_load {
	/* ET_DYN (a PIE or shared object, placed at a load bias the file does not give) */
	bool pie;
	/*
	 * it has a PT_INTERP: a dynamic loader, where execve returns, and
	 * shared objects are mapped beside it, at addresses it does not give
	 */
	bool interp;
	uint64_t entry;		/* e_entry, a link address */
	uint64_t low_vaddr;	/* the lowest PT_LOAD's p_vaddr, page-aligned down (4 KiB) */
};

/*
 * How an ELF file is loaded, into *l. -errno on open, -EINVAL when not
 * ELF or without a PT_LOAD (err says which).
 */
int pts_elf_load_kind(const char *path, struct pts_elf_load *l, struct pts_err *err);

/*
 * Runtime address of file virtual address `vaddr` of ELF `path` in a
 * process with the given maps: finds the PT_LOAD holding vaddr, its file
 * offset, and the map of `path` covering that offset:
 *   runtime = map.start + (file_offset - map.pgoff).
 * -ENOENT when no segment or no map covers it.
 */
int pts_elf_runtime_addr(const char *path, uint64_t vaddr,
			 const struct pts_bundle_map *maps, size_t nr, uint64_t *runtime,
			 struct pts_err *err);

#endif
