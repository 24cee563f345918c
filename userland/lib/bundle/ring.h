/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Snapshot ring linearisation (pt-facts section 3, "Snapshot mode"; SDM vol.
 * 3C 33.2.7.2 ToPA): a PT ring buffer of `size` bytes whose write head is
 * at ring offset `head` is turned into the oldest-first byte sequence that
 * a bundle's cpuN.pt holds (docs/bundle-format.md section 3.7):
 *
 *   wrapped:     ring[head, size) then ring[0, head)   (size bytes)
 *   not wrapped: ring[0, head)                          (head bytes)
 *
 * After a wrap the first bytes are the tail of a packet whose start was
 * overwritten. That torn packet is left alone on purpose: the decoder
 * synchronises at the first PSB (pt_*_sync_forward), and only the decoder
 * can tell packet boundaries apart.
 *
 * All sizes and offsets are bytes. 0 <= head <= size; head == size is
 * accepted (a full, unwrapped ring) and behaves like head == 0 when wrapped.
 */
#ifndef PTS_BUNDLE_RING_H
#define PTS_BUNDLE_RING_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

#include "../util/err.h"

/* A run of ring bytes [off, off + len). */
struct pts_ring_seg {
	uint64_t off;
	uint64_t len;
};

/*
 * Fill seg[] with the non-empty runs of ring bytes, oldest first. Returns
 * the number of runs (0, 1 or 2), or -EINVAL if head > size.
 */
int pts_ring_segments(uint64_t size, uint64_t head, bool wrapped,
		      struct pts_ring_seg seg[2]);

/* Bytes of the linearised sequence: size when wrapped, head otherwise. */
uint64_t pts_ring_linear_size(uint64_t size, uint64_t head, bool wrapped);

/*
 * The runs as struct iovec pointing into ring (e.g. an mmap of the module's
 * buffer), ready for pts_bundle_write_filev(). Returns the count (0..2) or
 * -EINVAL if head > size.
 */
int pts_ring_iov(const void *ring, uint64_t size, uint64_t head, bool wrapped,
		 struct iovec iov[2]);

/*
 * Copy the oldest-first sequence into out, which has room for out_size
 * bytes; *out_len receives the bytes written (pts_ring_linear_size()).
 * Errors: -EINVAL head > size; -ENOSPC out_size too small (nothing
 * written). ring and out must not overlap.
 */
int pts_ring_linearise(const void *ring, uint64_t size, uint64_t head,
		       bool wrapped, void *out, uint64_t out_size,
		       uint64_t *out_len, struct pts_err *err);

/*
 * Has the ring wrapped? True if the module counted a wrap (wrap_count > 0,
 * ptscope_cpu_status.wrap_count) or if any byte in [head, size) is
 * non-zero in a ring that was zeroed at arm. The byte test is a lower
 * bound: PT writes PAD packets as 0x00 bytes, so a wrap whose overwritten
 * tail is all PAD cannot be seen in the bytes; prefer the module's count
 * when it is available. head > size returns false.
 */
bool pts_ring_wrapped(const void *ring, uint64_t size, uint64_t head,
		      uint64_t wrap_count);

#endif /* PTS_BUNDLE_RING_H */
