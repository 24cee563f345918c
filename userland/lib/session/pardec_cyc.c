// SPDX-License-Identifier: GPL-2.0
/* The CYC scan of a chunk of raw PT (pardec_cyc.h). */
#include "pardec_cyc.h"

#include <intel-pt.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../decode/pt_cpu.h"
#include "../decode/pt_step.h"
#include "pardec_hold.h"

/* The longest packet whose first byte gives its length (a TIP with 8 IP bytes). */
#define PLAIN_MAX 9

/*
 * The packet at *off (after the one at prev) read by libipt, *off moved
 * past it; past a damaged one to the next PSB, as libipt's decoders
 * resynchronise (pts_pt_resync). True at a CYC, or when libipt cannot be
 * asked; *off UINT64_MAX at the end of the trace. hold (or NULL) is told
 * the packet.
 */
static bool scan_libipt(struct pt_packet_decoder *pd, uint64_t prev, uint64_t *off,
			struct pts_pt_hold *hold)
{
	struct pt_packet pkt;

	if (pt_pkt_sync_set(pd, *off) < 0)
		return true;
	if (pt_pkt_next(pd, &pkt, sizeof(pkt)) < 0) {
		if (hold)
			pts_pt_hold_damaged(hold, *off);
		if (pts_pt_resync(pd, prev, *off) < 0) {
			*off = UINT64_MAX;
			return false;
		}
	} else if (pkt.type == ppt_cyc) {
		return true;
	} else if (hold) {
		pts_pt_hold_packet(hold, &pkt, *off);
	}
	if (pt_pkt_get_offset(pd, off) < 0)
		*off = UINT64_MAX;
	return false;
}

/*
 * From off, while before lim, over the packets whose first byte alone
 * gives their length, len[] (pts_pt_first_len, or with the packets a
 * pts_pt_hold looks at left out): most of a trace. lim leaves room for
 * the longest of them, so no count of the bytes left is needed. The
 * offset of the last one stepped over goes to *prev.
 */
static inline uint64_t step_plain(const uint8_t *buf, uint64_t off, uint64_t lim, uint64_t *prev,
				  const uint8_t *len)
{
	while (off < lim) {
		unsigned int n = len[buf[off]];

		if (n - 1 >= PTS_PT_MOD - 1)	/* 0, MODE or extended: pts_pt_step */
			break;
		*prev = off;
		off += n;
	}
	return off;
}

bool pts_pt_scan_cyc(const uint8_t *buf, size_t size, uint64_t *at, uint64_t *at_prev, uint64_t to,
		     const struct pt_errata *errata, struct pts_pt_hold *hold)
{
	struct pt_packet_decoder *pd = NULL;
	uint64_t off = *at, prev = *at_prev;
	/* before this, every packet step_plain steps over fits in the trace */
	uint64_t lim = size > PLAIN_MAX ? size - PLAIN_MAX : 0;
	bool found = false;

	if (lim > to)
		lim = to;
	while (off < to) {
		size_t n;
		uint64_t pkt;

		off = step_plain(buf, off, lim, &prev,
				 hold ? pts_pt_hold_stops(hold) : pts_pt_first_len);
		if (off >= to)
			break;
		n = pts_pt_step(buf + off, size - off);
		pkt = off;

		if (n) {
			if (hold)
				pts_pt_hold_plain(hold, buf + off, off);
			off += n;
			prev = pkt;
			continue;
		}
		if (!pd) {
			pd = pts_pt_pkt_decoder(buf, size, errata);
			if (!pd)
				return true;
		}
		found = scan_libipt(pd, prev, &off, hold);
		if (found)
			break;
		prev = pkt;
	}
	pt_pkt_free_decoder(pd);
	*at = off;
	*at_prev = prev;
	return found;
}

bool pts_pt_has_cyc(const uint8_t *buf, size_t size, uint64_t from, uint64_t to,
		    const struct pt_errata *errata)
{
	uint64_t prev = from;

	if (from >= size)
		return true;
	return pts_pt_scan_cyc(buf, size, &from, &prev, to, errata, NULL);
}

/* Bytes of the trace scanned at a time (pts_pt_trace_has_cyc). */
#define CYC_SCAN_PIECE (1u << 20)

bool pts_pt_trace_has_cyc(const uint8_t *buf, size_t size, bool release,
			  const struct pt_errata *errata, struct pts_pt_hold *hold)
{
	const uint8_t *psb = size >= sizeof(pts_pt_psb) ?
			     memmem(buf, size, pts_pt_psb, sizeof(pts_pt_psb)) : NULL;
	uint64_t off = psb ? (uint64_t)(psb - buf) : size, prev = off;
	uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE), dropped = off / pg * pg;

	while (off < size) {
		uint64_t to = size - off > CYC_SCAN_PIECE ? off + CYC_SCAN_PIECE : size;
		uint64_t drop_to = to / pg * pg;

		if (pts_pt_scan_cyc(buf, size, &off, &prev, to, errata, hold))
			return true;
		if (release && drop_to > dropped &&
		    !madvise((void *)(uintptr_t)(buf + dropped), drop_to - dropped, MADV_DONTNEED))
			dropped = drop_to;
	}
	pts_pt_hold_end(hold, size);
	return false;
}
