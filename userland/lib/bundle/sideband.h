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
	size_t len;			/* bytes in buf */
	size_t off;			/* offset of the next record (of the corrupt one once stopped) */
	bool corrupt;			/* stopped at a corrupt record */
	char why[160];			/* what is wrong with it */
	size_t total;			/* bytes iterated over in all */
	/* reading a file (pts_sb_reader_open): buf is a window of it */
	int fd;				/* -1: buf holds everything */
	size_t base;			/* offset of buf[0] */
	size_t file_left;		/* bytes after the window still to read */
	unsigned char *own;		/* the window's memory */
};

/*
 * Start iterating over len bytes at buf. buf must be 8-byte aligned (as
 * malloc returns): pts_sb_next() refuses it otherwise.
 */
void pts_sb_reader_init(struct pts_sb_reader *r, const void *buf, size_t len);

/*
 * Start iterating over the bundle's sideband file, read as it goes (a
 * window of PTS_SB_WINDOW bytes: memory does not grow with the file).
 * No sideband in the bundle: the iteration is empty. A file whose size
 * differs from the manifest was accepted only if the bundle was read with
 * PTS_BUNDLE_READ_PARTIAL: then at most the manifest's size is read (a
 * truncated copy gives fewer bytes; pts_sb_next() reports the record cut
 * short). Errors: those of pts_file_open (-EINVAL not a regular file),
 * -EFBIG the file size differs from the manifest otherwise (truncated
 * copy), or changed since the bundle was read, -ENOMEM. Close with
 * pts_sb_reader_close (also after an error).
 */
#define PTS_SB_WINDOW (128u << 10)	/* two records of the largest size (16-bit) */
int pts_sb_reader_open(struct pts_sb_reader *r, const struct pts_bundle *b, struct pts_err *err);
void pts_sb_reader_close(struct pts_sb_reader *r);

/*
 * Next record. Returns 1 with *rec pointing into the buffer (valid until
 * the next call), 0 at the clean end, -EINVAL at a corrupt record or a
 * read error (err says the offset and what is wrong; r->off is that
 * offset; sticky).
 */
int pts_sb_next(struct pts_sb_reader *r, const struct ptscope_sb_hdr **rec,
		struct pts_err *err);

/* Minimum record size of a known type (header included), 0 if unknown. */
size_t pts_sb_min_size(uint16_t type);

/* "sched_switch", "exec", ... or NULL for an unknown type. */
const char *pts_sb_type_name(uint16_t type);

#endif /* PTS_BUNDLE_SIDEBAND_H */
