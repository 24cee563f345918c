/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the bundles of a capture go, decided before anything is armed or
 * run, so that a capture is never lost to a name that cannot be created:
 * the parent directory of -o must exist and be writable and the name must
 * be free; --multi-snapshot numbers NAME.N.ptscope past the ones already
 * there. When a bundle still cannot be written at the end (the directory
 * was removed, the disk is full), pts_outdir_rescue() names a place in
 * the temporary directory to write it instead.
 */
#ifndef PTS_CAPTURE_OUTDIR_H
#define PTS_CAPTURE_OUTDIR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../util/err.h"

struct pts_outdir {
	char name[PATH_MAX];	/* -o as given: NAME.ptscope, or the NAME of NAME.N.ptscope */
	bool multi;		/* one bundle per trigger: NAME.N.ptscope */
	unsigned int next;	/* multi: N of the next bundle, past every existing one */
};

/*
 * Check that the bundle(s) named by name can be created, and fill od.
 * name must be non-empty and shorter than PATH_MAX - 32.
 * Errors (err says which path and what to do):
 *   -ENAMETOOLONG name too long;
 *   -ENOENT  the parent directory does not exist;
 *   -ENOTDIR the parent is not a directory;
 *   -EACCES, -EROFS, -EPERM  the parent is not writable (access(2));
 *   -EEXIST  name exists (single bundle only: multi numbers past it).
 */
int pts_outdir_prepare(struct pts_outdir *od, const char *name, bool multi,
		       struct pts_err *err);

/*
 * Whether the file system of od's bundle has room for need bytes (the
 * rings: buffer size x CPUs, as a full ring is written whole). 0 room or
 * unknown (statvfs failed); -ENOSPC too little, with err saying how much
 * is needed and free (the capture goes on: the bundle would then be
 * incomplete, not lost: pts_outdir_rescue).
 */
int pts_outdir_room(const struct pts_outdir *od, uint64_t need, struct pts_err *err);

/*
 * The directory of the next bundle into buf (len bytes, at least
 * PATH_MAX): od->name, or NAME.N.ptscope with the first free N >= next
 * (a name created meanwhile is skipped); next moves past it.
 */
void pts_outdir_next(struct pts_outdir *od, char *buf, size_t len);

/*
 * A fresh name for a bundle that could not be written where asked:
 * $TMPDIR (else /tmp)/BASE-rescued-PID[-K].ptscope, BASE being the last
 * component of failed without .ptscope; K counts up past existing names.
 * -ENAMETOOLONG if it does not fit in len.
 */
int pts_outdir_rescue(const char *failed, char *buf, size_t len, struct pts_err *err);

#endif /* PTS_CAPTURE_OUTDIR_H */
