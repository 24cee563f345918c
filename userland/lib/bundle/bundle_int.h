/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal to userland/lib/bundle: helpers shared by the manifest reader,
 * the manifest writer and the file writers. Not for other libraries.
 */
#ifndef PTS_BUNDLE_INT_H
#define PTS_BUNDLE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/uio.h>

#include "bundle.h"

/*
 * True if name is a valid bundle file name (docs/bundle-format.md section 1):
 * relative, non-empty, '/'-separated, no "", "." or ".." component.
 */
bool pts_bundle_name_ok(const char *name);

/*
 * Write iov to dir/name through a temporary file in the same directory and
 * rename(2); parents inside dir are created. With sync, fsync the file
 * before the rename (used for manifest.json, which must be the last thing to
 * become visible). Returns 0 or -errno; err says which file.
 */
int pts_bundle_write_atomic(const char *dir, const char *name,
			    const struct iovec *iov, int iovcnt, bool sync,
			    struct pts_err *err);

/* Names of the PTS_CPUF_* bits as in the manifest's cpus[].flags, index = bit. */
extern const char *const pts_bundle_cpu_flag_names[PTS_CPUF_NR];

#endif /* PTS_BUNDLE_INT_H */
