// SPDX-License-Identifier: GPL-2.0
/* Snapshot ring linearisation: see ring.h. */
#include "ring.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

int pts_ring_segments(uint64_t size, uint64_t head, bool wrapped,
		      struct pts_ring_seg seg[2])
{
	int n = 0;

	if (head > size)
		return -EINVAL;
	if (wrapped && head < size) {
		seg[n].off = head;
		seg[n].len = size - head;
		n++;
	}
	if (head) {
		seg[n].off = 0;
		seg[n].len = head;
		n++;
	}
	return n;
}

uint64_t pts_ring_linear_size(uint64_t size, uint64_t head, bool wrapped)
{
	return wrapped ? size : head;
}

int pts_ring_iov(const void *ring, uint64_t size, uint64_t head, bool wrapped,
		 struct iovec iov[2])
{
	struct pts_ring_seg seg[2];
	int n = pts_ring_segments(size, head, wrapped, seg), i;

	for (i = 0; i < n; i++) {
		iov[i].iov_base = (char *)ring + seg[i].off;
		iov[i].iov_len = (size_t)seg[i].len;
	}
	return n;
}

int pts_ring_linearise(const void *ring, uint64_t size, uint64_t head,
		       bool wrapped, void *out, uint64_t out_size,
		       uint64_t *out_len, struct pts_err *err)
{
	struct pts_ring_seg seg[2];
	uint64_t need = pts_ring_linear_size(size, head, wrapped), done = 0;
	int n = pts_ring_segments(size, head, wrapped, seg), i;

	if (n < 0)
		return pts_err_set(err, EINVAL, "ring head %" PRIu64 " is beyond the ring size %"
				   PRIu64 " bytes", head, size);
	if (out_size < need)
		return pts_err_set(err, ENOSPC, "linearising a ring needs %" PRIu64
				   " bytes of output, %" PRIu64 " given", need, out_size);
	for (i = 0; i < n; i++) {
		memcpy((char *)out + done, (const char *)ring + seg[i].off, seg[i].len);
		done += seg[i].len;
	}
	*out_len = done;
	return 0;
}

bool pts_ring_wrapped(const void *ring, uint64_t size, uint64_t head,
		      uint64_t wrap_count)
{
	static const unsigned char zero[4096];
	const unsigned char *p = ring;
	uint64_t i = head;

	if (wrap_count)
		return true;
	if (head > size)
		return false;
	/* up to a 4 KiB boundary, then whole blocks with memcmp (vectorised), then the rest */
	for (; i < size && (i & (sizeof(zero) - 1)); i++)
		if (p[i])
			return true;
	for (; size - i >= sizeof(zero); i += sizeof(zero))
		if (memcmp(p + i, zero, sizeof(zero)))
			return true;
	for (; i < size; i++)
		if (p[i])
			return true;
	return false;
}
