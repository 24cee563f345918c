/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The code a raw trace's perf sideband maps (--pevent-*: MMAP and MMAP2
 * records of files), read from this host's files. A mapping whose MMAP2
 * record carries the file's build-id (perf record --buildid-mmap,
 * PERF_RECORD_MISC_MMAP_BUILD_ID) is checked by it, as a bundle's
 * uncopied binary is by the build-id its manifest records
 * (bundle_images.c): the file under --sysroot when it has that build-id,
 * else the one of that build-id in perf's build-id cache (--buildid-dir,
 * decode/buildid_cache.h), else none (its code decodes as gaps).
 */
#ifndef PTS_SESSION_SIDEBAND_MAPS_H
#define PTS_SESSION_SIDEBAND_MAPS_H

#include "../decode/image.h"
#include "../decode/sideband.h"
#include "session.h"

/*
 * Add the executable file mappings of sb (sorted) to set. sysroot: the
 * directory the files are under ("" or "/" for this host's own); NULL:
 * only mappings with a build-id are added, from cache alone (a file at
 * the sideband's path here may be any). cache: perf's build-id cache
 * directory, NULL none. A file at a mapping's path whose build-id is not
 * the recorded one is passed over and said once a path (a warning in
 * sum); a missing file is no error (its code decodes as gaps). Errors:
 * -ENOMEM, or the error of a file that exists but cannot be mapped (err
 * says which).
 */
int pts_sideband_maps_add(struct pts_imgset *set, const struct pts_sideband *sb,
			  const char *sysroot, const char *cache, struct pts_decode_summary *sum,
			  struct pts_err *err);

/*
 * The execs of sb (perf's COMM with the exec flag) after which no MMAP or
 * MMAP2 record of that process maps an executable file: perf records no
 * path at an exec, so nothing names that program's file and its code
 * decodes as gaps unless --elf gives it. Said in one notice in sum: the
 * first such exec (pid, comm, time), how many more, and the --elf to
 * give. sb sorted (pts_sideband_sort). 0 or -ENOMEM.
 */
int pts_sideband_exec_unmapped(const struct pts_sideband *sb, struct pts_decode_summary *sum);

#endif /* PTS_SESSION_SIDEBAND_MAPS_H */
