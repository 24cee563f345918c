/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/PID/maps lines <-> struct pts_bundle_map. The line format is
 * proc(5)'s: "start-end perms offset major:minor inode [pathname]" with
 * start, end, offset, major and minor in hexadecimal and inode in decimal.
 * The capture tool parses the maps it reads at arm and at trigger with
 * these, the decoder formats them back for messages.
 */
#ifndef PTS_BUNDLE_MAPS_H
#define PTS_BUNDLE_MAPS_H

#include <stddef.h>

#include "bundle.h"

/*
 * Parse NUL-terminated maps text (any number of lines, the last newline
 * optional, empty lines skipped). On success *out is a new array of *nr
 * entries (free with pts_maps_free; *out may be NULL when *nr is 0). The
 * pathname is everything after the inode column with the separating
 * spaces removed, kept verbatim otherwise (spaces, " (deleted)", the
 * kernel's "\012" escape for newlines).
 * Errors: -EINVAL a malformed line (err names the line number and text;
 * nothing is returned), -ENOMEM.
 */
int pts_maps_parse(const char *text, struct pts_bundle_map **out, size_t *nr,
		   struct pts_err *err);

/*
 * Read and parse a maps file, e.g. "/proc/1234/maps". Errors: -errno of
 * open/read (-ENOENT: the process exited; -EACCES: no ptrace access), and
 * those of pts_maps_parse().
 */
int pts_maps_read_file(const char *path, struct pts_bundle_map **out, size_t *nr,
		       struct pts_err *err);

/*
 * Format one entry as a maps line without the newline, separating the
 * pathname by one space (the kernel pads it to a column; both parse the
 * same). Returns the length snprintf would have written.
 */
int pts_maps_format(const struct pts_bundle_map *m, char *buf, size_t size);

/* Free an array from pts_maps_parse() or the bundle reader. NULL is fine. */
void pts_maps_free(struct pts_bundle_map *maps, size_t nr);

#endif /* PTS_BUNDLE_MAPS_H */
