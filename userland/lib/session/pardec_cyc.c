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

/* Bytes of the trace scanned at a time before their pages are dropped (release). */
#define CYC_SCAN_PIECE (1u << 20)

/*
 * One scan of buf[0, size) by pieces: where it is (off, and prev, the
 * packet before), the end of the piece it scans (to) and of its part
 * (end), its decoder for the packets libipt reads, and its answer.
 * Done when it read a CYC or off reached end.
 */
struct scan {
	const uint8_t *buf;
	size_t size;
	uint64_t off, prev;
	uint64_t to, end;
	uint64_t lim;		/* before this, every packet step_plain steps over fits */
	uint64_t dropped;	/* with release: the pages before this are dropped */
	size_t pg;
	bool release;
	const struct pt_errata *errata;
	struct pts_pt_hold *hold;
	struct pt_packet_decoder *pd;
	bool cyc;
	bool done;
};

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
 * The scan's table for step_plain: the packets whose first byte alone
 * gives their length (pts_pt_first_len, or with the packets its
 * pts_pt_hold looks at left out): most of a trace.
 */
static inline const uint8_t *plain_len(const struct scan *s)
{
	return s->hold ? pts_pt_hold_stops(s->hold) : pts_pt_first_len;
}

/* A length of step_plain's table it steps over: not 0, MODE or extended (pts_pt_step). */
static inline bool plain(unsigned int n)
{
	return n - 1 < PTS_PT_MOD - 1;
}

/*
 * From the offsets of k scans s[0, k) (k a constant once inlined: one
 * copy of the loop for each), while each is before its lim, over the
 * packets of their tables (plain_len), in step: each packet's offset
 * waits for the packet before it (its first byte, its length), so one
 * scan is a chain of loads that leaves the CPU idle where several keep it
 * busy (on a 10 MB trace, 17 ms alone, 5.4 ms as four in step). Stops
 * when any is at another packet or at its lim, which leaves room for the
 * longest of them: no count of the bytes left is needed.
 */
static inline __attribute__((always_inline)) void step_plain(struct scan **s, const unsigned int k)
{
	const uint8_t *buf = s[0]->buf, *len[PTS_PT_CYC_CHAINS];
	uint64_t off[PTS_PT_CYC_CHAINS], prev[PTS_PT_CYC_CHAINS], lim[PTS_PT_CYC_CHAINS];
	unsigned int i;

#pragma GCC unroll 4
	for (i = 0; i < k; i++) {
		len[i] = plain_len(s[i]);
		off[i] = s[i]->off;
		prev[i] = s[i]->prev;
		lim[i] = s[i]->lim;
	}
	for (;;) {
		unsigned int n[PTS_PT_CYC_CHAINS];
		bool go = true;

#pragma GCC unroll 4
		for (i = 0; i < k; i++)
			go &= off[i] < lim[i];
		if (!go)
			break;
#pragma GCC unroll 4
		for (i = 0; i < k; i++) {
			n[i] = len[i][buf[off[i]]];
			go &= plain(n[i]);
		}
		if (!go)
			break;
#pragma GCC unroll 4
		for (i = 0; i < k; i++) {
			prev[i] = off[i];
			off[i] += n[i];
		}
	}
#pragma GCC unroll 4
	for (i = 0; i < k; i++) {
		s[i]->off = off[i];
		s[i]->prev = prev[i];
	}
}

/* step_plain of s[0, k), 1 <= k <= PTS_PT_CYC_CHAINS. */
static void step_plain_k(struct scan **s, unsigned int k)
{
	switch (k) {
	case 1:
		step_plain(s, 1);
		break;
	case 2:
		step_plain(s, 2);
		break;
	case 3:
		step_plain(s, 3);
		break;
	default:
		step_plain(s, 4);
		break;
	}
}

/* The piece of s that starts at its off (and its lim). */
static void piece(struct scan *s)
{
	uint64_t to = s->off < s->end && s->end - s->off > CYC_SCAN_PIECE ?
		      s->off + CYC_SCAN_PIECE : s->end;

	s->to = s->release ? to : s->end;
	s->lim = s->size > PLAIN_MAX ? s->size - PLAIN_MAX : 0;
	if (s->lim > s->to)
		s->lim = s->to;
}

/*
 * s past its piece: its pages dropped behind it (release), its next
 * piece begun, or done at its end.
 */
static void piece_done(struct scan *s)
{
	uint64_t drop_to = s->to / s->pg * s->pg;

	if (s->release && drop_to > s->dropped &&
	    !madvise((void *)(uintptr_t)(s->buf + s->dropped), drop_to - s->dropped, MADV_DONTNEED))
		s->dropped = drop_to;
	if (s->off >= s->end)
		s->done = true;
	else
		piece(s);
}

/*
 * s at the packet at its off, one step_plain does not step over (or past
 * its piece): that packet taken, or the piece ended.
 */
static void scan_other(struct scan *s)
{
	uint64_t pkt = s->off;
	size_t n;

	if (s->off >= s->to) {
		piece_done(s);
		return;
	}
	if (s->off < s->lim && plain(plain_len(s)[s->buf[s->off]]))
		return;		/* stopped by the other scan in step */
	n = pts_pt_step(s->buf + s->off, s->size - s->off);
	if (n) {
		if (s->hold)
			pts_pt_hold_plain(s->hold, s->buf + s->off, s->off);
		s->off += n;
		s->prev = pkt;
		return;
	}
	if (!s->pd) {
		s->pd = pts_pt_pkt_decoder(s->buf, s->size, s->errata);
		if (!s->pd) {
			s->cyc = s->done = true;
			return;
		}
	}
	if (scan_libipt(s->pd, s->prev, &s->off, s->hold)) {
		s->cyc = s->done = true;
		return;
	}
	s->prev = pkt;
}

/* s from *at (after the packet at *prev) up to end, with hold (or NULL). */
static void scan_init(struct scan *s, const uint8_t *buf, size_t size, uint64_t at, uint64_t prev,
		      uint64_t end, bool release, const struct pt_errata *errata,
		      struct pts_pt_hold *hold)
{
	memset(s, 0, sizeof(*s));
	s->buf = buf;
	s->size = size;
	s->off = at;
	s->prev = prev;
	s->end = end < size ? end : size;
	s->pg = (size_t)sysconf(_SC_PAGESIZE);
	s->dropped = at < s->end ? at / s->pg * s->pg : 0;
	s->release = release;
	s->errata = errata;
	s->hold = hold;
	s->done = at >= s->end;
	piece(s);
}

/*
 * s[0, k) to their ends, in step (step_plain) while more than one goes
 * on; their decoders freed.
 */
static void scan_run(struct scan **s, unsigned int k)
{
	unsigned int i, left;

	while (k) {
		step_plain_k(s, k);
		for (i = left = 0; i < k; i++) {
			scan_other(s[i]);
			if (!s[i]->done) {
				s[left++] = s[i];
			} else {
				pt_pkt_free_decoder(s[i]->pd);
				s[i]->pd = NULL;
			}
		}
		k = left;
	}
}

bool pts_pt_scan_cyc(const uint8_t *buf, size_t size, uint64_t *at, uint64_t *at_prev, uint64_t to,
		     const struct pt_errata *errata, struct pts_pt_hold *hold)
{
	struct scan s, *sp = &s;

	scan_init(&s, buf, size, *at, *at_prev, to, false, errata, hold);
	scan_run(&sp, 1);
	*at = s.off;
	*at_prev = s.prev;
	return s.cyc;
}

bool pts_pt_has_cyc(const uint8_t *buf, size_t size, uint64_t from, uint64_t to,
		    const struct pt_errata *errata)
{
	uint64_t prev = from;

	if (from >= size)
		return true;
	return pts_pt_scan_cyc(buf, size, &from, &prev, to, errata, NULL);
}

void pts_pt_cyc_parts_scan(const uint8_t *buf, size_t size, bool release,
			   const struct pt_errata *errata, struct pts_pt_cyc_part *part,
			   unsigned int n)
{
	struct scan s[PTS_PT_CYC_CHAINS], *sp[PTS_PT_CYC_CHAINS];
	unsigned int i, k;

	/* PTS_PT_CYC_CHAINS at a time */
	for (; n; n -= k, part += k) {
		k = n < PTS_PT_CYC_CHAINS ? n : PTS_PT_CYC_CHAINS;
		for (i = 0; i < k; i++) {
			struct pts_pt_cyc_part *p = &part[i];

			/* from the PSB at its start, nothing held there */
			p->start = pts_pt_psb_from(buf, size, p->from);
			pts_pt_hold_init(&p->hold);
			scan_init(&s[i], buf, size, p->start, p->start, p->to, release, errata,
				  &p->hold);
			sp[i] = &s[i];
		}
		scan_run(sp, k);
		for (i = 0; i < k; i++) {
			part[i].at = s[i].off;
			part[i].prev = s[i].prev;
			part[i].cyc = s[i].cyc;
		}
	}
}

bool pts_pt_cyc_parts_join(const uint8_t *buf, size_t size, bool release,
			   const struct pt_errata *errata, const struct pts_pt_cyc_part *part,
			   size_t n, struct pts_pt_hold *hold)
{
	uint64_t off, prev;
	size_t i;

	if (!n)
		return false;
	/* the serial scan, from the trace's first PSB (the first part's start) */
	off = prev = part[0].start;
	for (i = 0; i < n; i++) {
		const struct pts_pt_cyc_part *p = &part[i];
		struct scan s, *sp = &s;

		if (off >= p->to)
			continue;	/* passed over by a packet before it, or the end */
		if (off == p->start && !pts_pt_hold_holds(hold)) {
			/* the part read what the serial scan reads from there */
			pts_pt_hold_take(hold, &p->hold);
			if (p->cyc)
				return true;
			off = p->at;
			prev = p->prev;
			continue;
		}
		/* read again, on from where the parts before left off */
		scan_init(&s, buf, size, off, prev, p->to, release, errata, hold);
		scan_run(&sp, 1);
		if (s.cyc)
			return true;
		off = s.off;
		prev = s.prev;
	}
	pts_pt_hold_end(hold, size);
	return false;
}

void pts_pt_cyc_parts_free(struct pts_pt_cyc_part *part, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		pts_pt_hold_free(&part[i].hold);
}

bool pts_pt_trace_has_cyc(const uint8_t *buf, size_t size, bool release,
			  const struct pt_errata *errata, struct pts_pt_hold *hold)
{
	struct pts_pt_cyc_part part[PTS_PT_CYC_CHAINS];
	uint64_t at[PTS_PT_CYC_CHAINS + 1];
	unsigned int i;
	bool cyc;

	pts_pt_psb_split(buf, 0, size, at, PTS_PT_CYC_CHAINS);
	for (i = 0; i < PTS_PT_CYC_CHAINS; i++)
		part[i] = (struct pts_pt_cyc_part){ .from = at[i], .to = at[i + 1] };
	pts_pt_cyc_parts_scan(buf, size, release, errata, part, PTS_PT_CYC_CHAINS);
	cyc = pts_pt_cyc_parts_join(buf, size, release, errata, part, PTS_PT_CYC_CHAINS, hold);
	pts_pt_cyc_parts_free(part, PTS_PT_CYC_CHAINS);
	return cyc;
}
