/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf's build-id cache (perf buildid-cache, perf archive; by default
 * $HOME/.debug, perf --buildid-dir DIR elsewhere): the binaries perf
 * record saw, and their debug files, kept by build-id. Its layout, from
 * perf's util/build-id.c (build_id_cache__linkname, __cachedir,
 * __basename):
 *
 *   DIR/ORIGPATH/BUILDID/elf     the binary as it was (a hard link or copy)
 *   DIR/ORIGPATH/BUILDID/debug   its debug file, when one was found at
 *                                /usr/lib/debug/.build-id/xx/rest.debug
 *   DIR/.build-id/xx/rest        a link to ../../ORIGPATH/BUILDID; in the
 *                                cache's first layout the binary itself
 *
 * (xx the build-id's first two hex digits, rest the others.) A file is
 * taken from the cache only when its own build-id is the one looked for:
 * the cache is found by name alone, and nothing else ties it to the
 * binary (perf's rule for a debug file, symsrc__init).
 */
#ifndef PTS_DECODE_BUILDID_CACHE_H
#define PTS_DECODE_BUILDID_CACHE_H

#include <stdbool.h>
#include <stddef.h>

enum pts_bic_kind {
	PTS_BIC_ELF,		/* the binary ("elf") */
	PTS_BIC_DEBUG,		/* its debug file ("debug") */
};

/*
 * The cache's file of kind for build-id id (hex, at least 3 digits), whose
 * original path is orig (absolute; NULL or relative: only the .build-id
 * links are tried), under cache dir. Looked at in this order: the
 * .build-id link's kind file, the link itself when it is a regular file
 * (the first layout; PTS_BIC_ELF only), DIR/ORIG/BUILDID/kind. With
 * need_symtab, a file without a .symtab section is passed over (a cached
 * copy of a stripped binary names nothing).
 * Returns a new path (caller frees), NULL when none has build-id id.
 */
char *pts_bic_find(const char *cache, const char *id, const char *orig, enum pts_bic_kind kind,
		   bool need_symtab);

/* The .build-id link's path of kind ("DIR/.build-id/xx/rest/debug"), for a hint. */
void pts_bic_link_path(char *out, size_t len, const char *cache, const char *id,
		       enum pts_bic_kind kind);

#endif /* PTS_DECODE_BUILDID_CACHE_H */
