/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where libipt 2.0.5's query decoder holds an event across a PSB: a
 * packet whose event binds to a later packet (pt_query_decoder.c, the
 * event queue by binding), read before the PSB, its binding packet after
 * it. Outside a PSB+: MODE.Exec binds to the next TIP, TIP.PGE or TIP.PGD;
 * a FUP with no event waiting for a FUP is an asynchronous branch that
 * binds to the next TIP (or TIP.PGD), and a PIP or VMCS read while one
 * waits binds with it; MODE.TSX (while tracing is enabled), PTWRITE and
 * EXSTOP with IP, MWAIT, and OVF (resolved while tracing is enabled) bind
 * to the next FUP. A PSB does not empty the queue; only a
 * synchronisation does (pt_qry_reset).
 *
 * The serial decoder, synchronised at the trace's first PSB, reports
 * such an event at its binding packet, past the PSB; a chunk's decoder
 * started at that PSB never reads its packet. When the chunk before is
 * joined into it before that report, the event is lost from the summary
 * (fuzz finding 20: a MODE.Exec with no TIP after it, one exec mode event
 * fewer), or, were its binding packet to give a record, from the records.
 * So a PSB inside such a stretch is not joined at (pardec.h).
 *
 * The stretches are found by the scan that reads every packet of a CPU's
 * trace before it is decoded (pardec_cyc.h); each packet's kind moves the
 * state below. Where the scan cannot tell what libipt holds (MODE.TSX
 * with tracing disabled is standalone, OVF's errata move libipt on,
 * damaged packets), it takes the event as held: a join refused too many
 * costs only time.
 */
#ifndef PTS_SESSION_PARDEC_HOLD_H
#define PTS_SESSION_PARDEC_HOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_packet;

/* Offsets [from, to) of the packets that held an event and released it. */
struct pts_pt_held {
	uint64_t from, to;
};

struct pts_pt_hold {
	/*
	 * The scan's packet lengths by first byte (pts_pt_first_len) with
	 * the packets that move the state below at 0, where the scan stops
	 * to look at them: stops[0] the FUPs, stops[1] the FUPs and the TIPs
	 * (TIP, TIP.PGE, TIP.PGD), when an event may wait for a TIP.
	 */
	uint8_t stops[2][256];
	bool tip;		/* an event may wait for a TIP */
	bool fup_sure;		/* one waits for a FUP, queued since the last PSB, OVF or damage */
	bool fup_maybe;		/* one may wait for a FUP */
	bool unsure;		/* after an OVF or damage, until the next PSB: none sure */
	bool header;		/* inside a PSB+: its MODE and FUP are status, not events */
	uint64_t since;		/* offset of the packet from which an event is held */
	/* the stretches longer than a PSB (only those can hold one), in order */
	struct pts_pt_held *held;
	size_t n, cap;
	bool nomem;		/* a stretch could not be kept: every PSB counts as held */
};

void pts_pt_hold_init(struct pts_pt_hold *h);
void pts_pt_hold_free(struct pts_pt_hold *h);

/* The scan's stops (pts_pt_hold.stops) for its next packets. */
static inline const uint8_t *pts_pt_hold_stops(const struct pts_pt_hold *h)
{
	return h->stops[h->tip];
}

/* The packet at p (offset off) that pts_pt_step stepped over, read without error. */
void pts_pt_hold_plain(struct pts_pt_hold *h, const uint8_t *p, uint64_t off);
/* The packet libipt's packet decoder read at off. */
void pts_pt_hold_packet(struct pts_pt_hold *h, const struct pt_packet *pkt, uint64_t off);
/* A packet libipt cannot read at off: the scan goes on at the next PSB. */
void pts_pt_hold_damaged(struct pts_pt_hold *h, uint64_t off);
/* The end of the trace (size bytes): an event still held is held to the end. */
void pts_pt_hold_end(struct pts_pt_hold *h, uint64_t size);

/* Whether an event may be held here (before the next packet). */
bool pts_pt_hold_holds(const struct pts_pt_hold *h);

/*
 * h, which holds no event, goes on as next did, which was told the
 * packets from a PSB on from pts_pt_hold_init, as though the packets
 * before that PSB were h's: next's stretches after h's, and its state.
 */
void pts_pt_hold_take(struct pts_pt_hold *h, const struct pts_pt_hold *next);

/*
 * Whether the serial decoder may hold an event at offset at (a PSB, or
 * where one begins inside a damaged packet): read before at, reported
 * after it.
 */
bool pts_pt_hold_at(const struct pts_pt_hold *h, uint64_t at);

#endif /* PTS_SESSION_PARDEC_HOLD_H */
