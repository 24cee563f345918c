/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module hands out its sideband one CPU ring after another: each
 * CPU's records in TSC order, different CPUs' records in no order with
 * each other (docs/abi.md, "Sideband records"). A bundle's sideband file
 * is one stream in TSC order (docs/bundle-format.md 3.8), so the capture
 * merges what it read before writing it.
 */
#ifndef PTS_CAPTURE_SBMERGE_H
#define PTS_CAPTURE_SBMERGE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Reorder the whole ptscope sideband records in buf[0, len) by hdr.tsc,
 * in place. Stable: records with equal TSCs keep their order, so each
 * CPU's order (already TSC order) is kept exactly, and the result is the
 * merge of the CPUs' streams. buf must be 8-byte aligned. A record whose
 * framing is bad (size below the header, not a multiple of 8, past len)
 * ends the merge: it and everything after it stay where they are, after
 * the merged records. Returns the number of bytes merged (len when every
 * record was whole), or -ENOMEM (buf untouched).
 */
long long pts_sb_merge(uint8_t *buf, size_t len);

#endif
