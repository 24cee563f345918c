/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What libipt 2.0's query decoder read in one call of its block decoder,
 * told from the trace bytes it moved over: whether its time
 * (pt_blk_time, the time at the last TNT, TIP or event packet it read:
 * last_time in pt_query_decoder.c) is the time of the branch the call
 * decided. The decoder reads a branch's TNT or TIP, then ahead of the
 * next one every timing and status packet (pt_qry_read_ahead: PAD, TSC,
 * TMA, MTC, CYC, a FUP that no event waits for, a PSB+ up to its PSBEND);
 * when the next packet after those belongs to an event and no TNT bit is
 * left, the block decoder reads that event in the same call
 * (pt_blk_proceed_trailing_event), and the time becomes the event's.
 */
#ifndef PTS_DECODE_PT_READ_H
#define PTS_DECODE_PT_READ_H

#include <stdbool.h>
#include <stdint.h>

struct pts_pt_read {
	/* the first packet (PAD aside) a TNT, or a TIP no event waits for */
	bool branch_first;
	/* a packet of an event: TIP.PGE/PGD, MODE, PSBEND, a TIP after a FUP or MODE, ... */
	bool event;
	/* a timing packet after the first branch packet, before the packet that last set the time */
	bool timing;
	/* ends after a FUP or MODE whose TIP is still to come (the next call's TIP is the event's) */
	bool bound;
	/* a packet not known here, or one that runs past the end: nothing can be said */
	bool unknown;
	/*
	 * After the last packet that set the time (the tail libipt read
	 * ahead): a timing packet; the last of them a TSC, of value tsc,
	 * which libipt's time is from then on (pt_time_update_tsc)
	 */
	bool tail_timing, tail_tsc;
	uint64_t tsc;
};

/*
 * Scan buf[from, to), which holds whole packets, to *r. bound: the packet
 * before from was a FUP or MODE whose TIP was still to come (a previous
 * scan's r->bound). buf must be padded (a header's second byte is read).
 */
void pts_pt_read_scan(const uint8_t *buf, uint64_t from, uint64_t to, bool bound,
		      struct pts_pt_read *r);

/*
 * The number of TNT bits the packet at p carries when it is a TNT packet,
 * else 0. A TNT-8 is any byte with bit 0 clear but PAD (00) and the
 * extended opcode (02): its bits sit above bit 0 and below the stop bit,
 * the highest bit set; a TNT-64 (02 a3) carries 6 payload bytes, little
 * endian, its stop bit the highest set (SDM 33.4.2.1, 33.4.2.2). p must
 * be padded: 8 bytes are read after a 02.
 */
static inline unsigned int pts_pt_tnt_bits(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	if (!(p[0] & 1) && p[0] > 2)
		return 31u - (unsigned int)__builtin_clz(p[0]) - 1;
	if (p[0] != 0x02 || p[1] != 0xa3)
		return 0;
	for (i = 7; i >= 2; i--)
		v = v << 8 | p[i];
	return v ? 63u - (unsigned int)__builtin_clzll(v) : 0;
}

/*
 * Whether the time libipt has after reading buf[from, to) is that of the
 * branch it decided, or the time was not moved by an event it read (r
 * from pts_pt_read_scan).
 */
static inline bool pts_pt_read_branch_time(const struct pts_pt_read *r)
{
	return !r->unknown && (!r->event || (r->branch_first && !r->timing));
}

#endif /* PTS_DECODE_PT_READ_H */
