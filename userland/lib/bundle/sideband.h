/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reader of a bundle's sideband file: the ptscope sideband records of
 * include/uapi/ptscope.h (struct ptscope_sb_hdr + payload), back to back.
 * Every record is validated before it is handed out, so a caller may cast
 * it to the struct its type names:
 *   - at least sizeof(struct ptscope_sb_hdr) bytes left,
 *   - hdr.size a multiple of 8, >= the header, and within the buffer,
 *   - hdr.type not 0 (zeroed memory is not a record),
 *   - hdr.cpu below PTS_SB_MAX_CPUS,
 *   - a known type at least as large as its struct; an EXEC record's
 *     filename NUL-terminated inside the record.
 * Records of types this reader does not know are returned as they are
 * (their size is still checked) so newer modules stay readable: skip them.
 * The first corrupt record stops the iteration: its offset is reported
 * and every later call returns the same error. What came before it is
 * good and stays usable.
 */
#ifndef PTS_BUNDLE_SIDEBAND_H
#define PTS_BUNDLE_SIDEBAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>
#include "uapi/ptscope.h"

#include "bundle.h"

/*
 * CPU numbers a record can carry: x86-64 Linux allows NR_CPUS up to 8192
 * (CONFIG_MAXSMP); a larger number is a damaged record.
 */
#define PTS_SB_MAX_CPUS 8192U

struct pts_sb_reader {
	const unsigned char *buf;	/* 8-byte aligned */
	size_t len;			/* bytes */
	size_t off;			/* offset of the next record (of the corrupt one once stopped) */
	bool corrupt;			/* stopped at a corrupt record */
	char why[160];			/* what is wrong with it */
};

/*
 * Start iterating over len bytes at buf. buf must be 8-byte aligned (as
 * malloc and pts_sb_load return): pts_sb_next() refuses it otherwise.
 */
void pts_sb_reader_init(struct pts_sb_reader *r, const void *buf, size_t len);

/*
 * Next record. Returns 1 with *rec pointing into the buffer, 0 at the clean
 * end of the buffer, -EINVAL at a corrupt record (err says the offset and
 * what is wrong; r->off is that offset; sticky).
 */
int pts_sb_next(struct pts_sb_reader *r, const struct ptscope_sb_hdr **rec,
		struct pts_err *err);

/* Minimum record size of a known type (header included), 0 if unknown. */
size_t pts_sb_min_size(uint16_t type);

/* "sched_switch", "exec", ... or NULL for an unknown type. */
const char *pts_sb_type_name(uint16_t type);

/*
 * Read the bundle's sideband file into a new buffer (free with free()).
 * No sideband in the bundle: *buf = NULL, *len = 0, returns 0. A file
 * whose size differs from the manifest was accepted only if the bundle
 * was read with PTS_BUNDLE_READ_PARTIAL: then at most the manifest's
 * size is read (a truncated copy gives fewer bytes; pts_sb_next() reports
 * the record cut short). Errors: -errno of open/read, -EFBIG the file
 * size differs from the manifest otherwise (truncated copy), or changed
 * since the bundle was read, -ENOMEM.
 */
int pts_sb_load(const struct pts_bundle *b, void **buf, size_t *len,
		struct pts_err *err);

#endif /* PTS_BUNDLE_SIDEBAND_H */
