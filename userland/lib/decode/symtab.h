/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbol tables of one binary: ELF .symtab (or .dynsym when stripped) read
 * with libelf, or a kallsyms listing. Addresses are the file's own (link)
 * addresses; callers apply the load bias (image.h). C++ and Rust names are
 * demangled with libiberty's cplus_demangle.
 */
#ifndef PTS_DECODE_SYMTAB_H
#define PTS_DECODE_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../util/err.h"

struct pts_sym {
	uint64_t start, size;	/* link address, bytes (0: up to the next symbol) */
	char *name;		/* demangled; "" when unnamed */
	/*
	 * A function's bounds with no name: an FDE of a stripped object's
	 * .eh_frame (ehframe.h). A named symbol at the same start wins.
	 */
	bool unnamed;
	/*
	 * Unnamed, and entered with a frame set up (its FDE's first rule
	 * defines the CFA): a part of a function, such as its cold part.
	 */
	bool part;
};

struct pts_symtab {
	struct pts_sym *syms;	/* sorted by start */
	size_t n;
	bool full;		/* names came from .symtab (not only .dynsym) */
	/*
	 * Why names may be missing from a damaged file (section headers
	 * outside the file, a header or symbol table that cannot be read):
	 * the first problem met, "" for none.
	 */
	char damage[160];
};

/*
 * Function symbols of an ELF file (STT_FUNC, and STT_NOTYPE in executable
 * sections), without symbol versions ("memcpy", not "memcpy@@GLIBC_2.14"),
 * and its PLT entries named as objdump names them ("puts@plt", plt.h).
 * A stripped file (no .symtab) adds its .init and .fini as _init and
 * _fini, and every other function its .eh_frame describes, unnamed.
 * Errors: -errno opening, -EINVAL not an ELF file, -ENOMEM.
 * A file without symbols gives an empty table (not an error); one whose
 * section headers or symbol tables cannot be read gives the names that
 * can be, and st->damage says what is wrong.
 */
int pts_symtab_load_elf(struct pts_symtab *st, const char *path, struct pts_err *err);

/* Lines of a kallsyms file that are not kallsyms lines (reported, skipped). */
struct pts_kallsyms_stats {
	uint64_t lines;			/* lines read, blank ones not counted */
	uint64_t bad;			/* lines that are not ADDRESS TYPE NAME [MODULE] */
	uint64_t first_bad;		/* line number (from 1) of the first, 0 none */
	char first_bad_text[64];	/* its start, non-printing bytes as '?', "..." if cut */
	uint64_t text, text_zero;	/* text symbols (t/T/w/W), of which at address 0 */
};

/*
 * Text symbols (t/T/w/W) of a /proc/kallsyms listing; module names kept as
 * "sym [mod]". A line is "ADDRESS TYPE NAME [MODULE]": 1 to 16 hex digits,
 * a one-letter type, a name, optionally "[module]", separated by blanks.
 * Other lines are skipped and counted in *stats (may be NULL); blank lines
 * are ignored. Errors: -errno opening or reading, -EINVAL when no line is
 * a kallsyms line (err: "PATH: no kallsyms lines (expected ...)"), -EACCES
 * when every text symbol is at address 0 (a listing read under
 * kptr_restrict: nothing loaded), -ENOMEM.
 */
int pts_symtab_load_kallsyms(struct pts_symtab *st, const char *path,
			     struct pts_kallsyms_stats *stats, struct pts_err *err);

/* Add one symbol (tests, perf-script names). Errors: -ENOMEM. */
int pts_symtab_add(struct pts_symtab *st, uint64_t start, uint64_t size, const char *name);

/* The same with the first len bytes of name (name need not end there). */
int pts_symtab_add_n(struct pts_symtab *st, uint64_t start, uint64_t size, const char *name,
		     size_t len);

/*
 * An unnamed function of size bytes at start, or a part of one (part:
 * struct pts_sym), from ehframe.h. Errors: -ENOMEM.
 */
int pts_symtab_add_unnamed(struct pts_symtab *st, uint64_t start, uint64_t size, bool part);

/* Sort and fill sizes; call after loading/adding. */
void pts_symtab_finish(struct pts_symtab *st);

/* The symbol holding addr (link address), or NULL. */
const struct pts_sym *pts_symtab_find(const struct pts_symtab *st, uint64_t addr);

/*
 * Separate debug file holding the names of a stripped binary at path,
 * whose path on the capture machine is orig (NULL: path), looked up as
 * perf looks with --symfs sysroot (NULL: "/"): by build-id,
 * SYSROOT/usr/lib/debug/.build-id/xx/rest.debug; then by .gnu_debuglink,
 * in path's directory and its .debug/, orig's directory under sysroot and
 * its .debug/ (with a sysroot), SYSROOT/usr/lib/debug/ORIGDIR/; then in
 * perf's build-id cache at cache (NULL: none; buildid_cache.h), its debug
 * file, else its copy of the binary when that has a .symtab; then, with
 * a sysroot, this host's /usr/lib/debug/.build-id/xx/rest.debug. A file
 * whose build-id is not the binary's is never taken (perf's
 * symsrc__init); those of the cache and the host's must have the
 * binary's. looked (may be NULL; len bytes) receives the build-id paths
 * tried, ", "-separated ("" without a build-id; the cache's only when
 * the cache directory exists), for a hint of where to put the file.
 * Returns a new path (caller frees) or NULL when none is found.
 */
char *pts_debug_file(const char *path, const char *orig, const char *sysroot, const char *cache,
		     char *looked, size_t len);

/* Demangled copy of name (C++/Rust), or a plain copy; NULL on ENOMEM. */
char *pts_demangle(const char *name);

void pts_symtab_free(struct pts_symtab *st);

/*
 * Symbol of an address, as a symbolizer returns it (the timeline builder's
 * pts_tl_symbolize_fn; pts_imgset_symbolize).
 */
struct pts_sym_info {
	const char *name;	/* NULL: unknown code, or an unnamed function */
	uint64_t start;		/* symbol start address (valid when name or unnamed) */
	uint64_t size;		/* bytes, 0 unknown */
	bool unnamed;		/* a function with bounds and no name (struct pts_sym) */
	bool part;		/* unnamed, a part of a function (struct pts_sym) */
	const char *object;	/* binary/module holding the address, or NULL */
};

#endif
