// SPDX-License-Identifier: GPL-2.0
/* What libipt's query decoder read in one call (pt_read.h). */
#include "pt_read.h"

#include <stddef.h>

#include "pt_step.h"

/*
 * The packets the scan tells apart. CLOSE_*: libipt sets its time at the
 * packet (the TNT or TIP of a branch query, the packet that completes an
 * event), so timing packets after it do not count.
 */
enum kind {
	K_PAD,
	K_TIMING,	/* TSC, TMA, MTC, CYC */
	K_TNT,
	K_TIP,
	K_FUP,
	K_MODE,
	K_CLOSE_EVENT,	/* TIP.PGE, TIP.PGD, PSBEND, CBR */
	K_EVENT,	/* PIP, VMCS and the rest: libipt may read on to bind it */
	K_PSB,
	K_UNKNOWN,
};

/* Kind and bytes of the packet at p, left bytes to the end of the scan. */
static enum kind kind_of(const uint8_t *p, size_t left, size_t *len)
{
	size_t n = pts_pt_step(p, left);
	uint8_t b = p[0];

	*len = n;
	if ((b & 3) == 3) {	/* CYC: bit 2, then each byte's bit 0, says more follow */
		n = 1;
		if (b & 4) {
			while (n < left && (p[n] & 1))
				n++;
			n++;
		}
		*len = n;
		return n <= left ? K_TIMING : K_UNKNOWN;
	}
	if (b == 0x02 && left >= 7 && (p[1] == 0x73 || (p[1] == 0xa3 && left >= 8))) {
		*len = p[1] == 0xa3 ? 8 : 7;	/* long TNT, TMA */
		return p[1] == 0xa3 ? K_TNT : K_TIMING;
	}
	if (b == 0x02 && left >= 7 && p[1] == 0xc8) {
		*len = 7;	/* VMCS */
		return K_EVENT;
	}
	if (!n)
		return K_UNKNOWN;
	if (b == 0x02)
		return p[1] == 0x82 ? K_PSB : p[1] == 0x23 || p[1] == 0x03 ? K_CLOSE_EVENT :
		       p[1] == 0xf3 ? K_UNKNOWN : K_EVENT;	/* OVF: libipt may move anywhere */
	if (!b)
		return K_PAD;
	if (!(b & 1))
		return K_TNT;
	if (b == 0x19 || b == 0x59)
		return K_TIMING;
	if (b == 0x99)
		return K_MODE;
	switch (b & 0x1f) {
	case 0x0d:
		return K_TIP;
	case 0x1d:
		return K_FUP;
	default:
		return K_CLOSE_EVENT;	/* TIP.PGE, TIP.PGD */
	}
}

/*
 * A PSB+ from buf[i]: libipt reads it ahead (its header packets queue
 * events for the PSBEND). Returns the offset after the header (at its
 * PSBEND, or to), or 0 when a packet is not known; *timing when the
 * header holds a timing packet.
 */
static uint64_t skip_psb(const uint8_t *buf, uint64_t i, uint64_t to, bool *timing)
{
	size_t n;

	for (i += 16; i < to; i += n) {
		enum kind k = kind_of(buf + i, to - i, &n);

		if (k == K_CLOSE_EVENT && buf[i] == 0x02 && buf[i + 1] == 0x23)
			return i;	/* PSBEND */
		if (k == K_UNKNOWN || k == K_PSB)
			return 0;
		*timing |= k == K_TIMING;
	}
	return to;
}

/* The value of the TSC packet at p (19, then 7 bytes little-endian). */
static uint64_t tsc_of(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 1; i--)
		v = v << 8 | p[i];
	return v;
}

void pts_pt_read_scan(const uint8_t *buf, uint64_t from, uint64_t to, bool bound,
		      struct pts_pt_read *r)
{
	/* timing since the last packet that set the time; that packet closed */
	bool pending = false, closed = true, first = true;
	uint64_t i = from;
	size_t n;

	r->branch_first = r->event = r->timing = r->unknown = r->tail_tsc = false;
	r->tsc = 0;
	for (; i < to; i += n) {
		enum kind k = kind_of(buf + i, to - i, &n);

		if (k == K_PAD)
			continue;
		if (k == K_TIMING) {
			pending = true;
			r->tail_tsc = buf[i] == 0x19;
			if (r->tail_tsc)
				r->tsc = tsc_of(buf + i);
			continue;
		}
		if (k == K_PSB) {
			uint64_t end = skip_psb(buf, i, to, &pending);

			if (!end)
				break;
			n = end - i;
			r->tail_tsc = false;	/* its TMA, MTC and CBR: not told here */
			continue;
		}
		if (k == K_UNKNOWN)
			break;
		if (k == K_TNT || (k == K_TIP && !bound)) {
			r->branch_first |= first;
			closed = true;
		} else if (k == K_FUP && !bound) {
			bound = true;	/* an async branch or disable: its TIP comes */
			closed = false;
		} else {
			r->event = true;
			closed = k == K_TIP || k == K_CLOSE_EVENT;
			/* MODE.Exec (leaf 0) binds to the TIP that follows */
			bound = k == K_MODE && !(buf[i + 1] >> 5);
		}
		/* timing before the first packet moved the time before the branch */
		if (!first)
			r->timing |= pending;
		pending = false;
		r->tail_tsc = false;
		first = false;
	}
	r->unknown = i != to;
	if (!closed)
		r->timing |= pending;
	r->bound = bound;
	r->tail_timing = pending;
}
