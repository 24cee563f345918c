// SPDX-License-Identifier: GPL-2.0
/* Where libipt holds an event across a PSB (pardec_hold.h). */
#include "pardec_hold.h"

#include <intel-pt.h>
#include <stdlib.h>
#include <string.h>

#include "../decode/pt_step.h"

/* What a packet does to the events libipt holds. */
enum kind {
	K_OTHER,
	K_TIP,		/* TIP, TIP.PGE, TIP.PGD: the events waiting for a TIP are reported */
	K_FUP,
	K_MODE_EXEC,
	K_MODE_TSX,
	K_FUP_EVENT,	/* PTWRITE or EXSTOP with IP, MWAIT: binds to the next FUP */
	K_OVF,
	K_PSB,
	K_PSBEND,
	K_DAMAGED,
};

/* Bits 4:0 of a FUP's first byte (bits 1:0 01), and of TIP, TIP.PGE, TIP.PGD. */
static enum kind ip_kind(uint8_t b)
{
	switch (b & 0x1f) {
	case 0x1d:
		return K_FUP;
	case 0x0d:
	case 0x11:
	case 0x01:
		return K_TIP;
	default:
		return K_OTHER;
	}
}

void pts_pt_hold_init(struct pts_pt_hold *h)
{
	unsigned int b;

	memset(h, 0, sizeof(*h));
	memcpy(h->stops[0], pts_pt_first_len, sizeof(h->stops[0]));
	memcpy(h->stops[1], pts_pt_first_len, sizeof(h->stops[1]));
	for (b = 0; b < 256; b++) {
		enum kind k = (b & 3) == 1 ? ip_kind((uint8_t)b) : K_OTHER;

		if (k == K_FUP)
			h->stops[0][b] = 0;
		if (k == K_FUP || k == K_TIP)
			h->stops[1][b] = 0;
	}
}

void pts_pt_hold_free(struct pts_pt_hold *h)
{
	free(h->held);
	h->held = NULL;
	h->n = h->cap = 0;
}

static bool holds(const struct pts_pt_hold *h)
{
	return h->tip || h->fup_sure || h->fup_maybe;
}

/* Keep the stretch [from, to). */
static void keep(struct pts_pt_hold *h, uint64_t from, uint64_t to)
{
	if (h->nomem)
		return;
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 16;
		struct pts_pt_held *p = realloc(h->held, cap * sizeof(*p));

		if (!p) {
			h->nomem = true;
			return;
		}
		h->held = p;
		h->cap = cap;
	}
	h->held[h->n++] = (struct pts_pt_held){ from, to };
}

/*
 * The event waiting for a FUP (if any) is no longer sure to be libipt's:
 * until the next PSB (unsure), or for good (libipt moved on, or reset).
 */
static void fup_unsure(struct pts_pt_hold *h, bool unsure)
{
	h->fup_maybe |= h->fup_sure;
	h->fup_sure = false;
	h->unsure = unsure;
}

/*
 * The packet at off, of kind k (libipt's pt_qry_decode_* and
 * pt_qry_header_* for each).
 */
static void step(struct pts_pt_hold *h, enum kind k, uint64_t off)
{
	bool was = holds(h);

	switch (k) {
	case K_OTHER:
		return;
	case K_TIP:
		h->tip = false;
		break;
	case K_FUP:
		if (h->header)
			return;		/* the IP of the PSB+ */
		/* no event waits for it: an asynchronous branch, bound to a TIP */
		if (!h->fup_sure)
			h->tip = true;
		h->fup_sure = h->fup_maybe = false;
		break;
	case K_MODE_EXEC:
		h->tip |= !h->header;
		break;
	case K_MODE_TSX:
		/* standalone while tracing is disabled: not known here */
		h->fup_maybe |= !h->header;
		break;
	case K_FUP_EVENT:
		h->fup_sure |= !h->unsure;
		h->fup_maybe |= h->unsure;
		break;
	case K_OVF:
		/*
		 * libipt empties its queue and binds the overflow to a FUP,
		 * unless tracing was disabled; its errata (SKD010, APL11,
		 * APL12) move it on past packets read here
		 */
		fup_unsure(h, true);
		h->fup_maybe = true;
		break;
	case K_DAMAGED:
		/*
		 * The decoder resynchronises at a PSB, its queue emptied; which
		 * one is its own choice (ptdec.c): keep what was held
		 */
		fup_unsure(h, true);
		h->header = false;
		break;
	case K_PSB:
		/*
		 * A decoder resynchronised here after an error has an empty
		 * queue: a FUP after it may start an asynchronous branch
		 */
		fup_unsure(h, false);
		h->header = true;
		break;
	case K_PSBEND:
		h->header = false;
		break;
	}
	if (!was && holds(h))
		h->since = off;
	else if (was && !holds(h) && off - h->since > sizeof(pts_pt_psb))
		keep(h, h->since, off);	/* a PSB fits inside (its bytes are no TIP's or FUP's) */
}

void pts_pt_hold_plain(struct pts_pt_hold *h, const uint8_t *p, uint64_t off)
{
	enum kind k = K_OTHER;

	if (p[0] == 0x02)
		k = p[1] == 0x82 ? K_PSB : p[1] == 0x23 ? K_PSBEND : p[1] == 0xf3 ? K_OVF : K_OTHER;
	else if (p[0] == 0x99)
		k = p[1] >> 5 ? K_MODE_TSX : K_MODE_EXEC;	/* pts_pt_step: leaf 0 or 1 */
	else if ((p[0] & 3) == 1)
		k = ip_kind(p[0]);
	step(h, k, off);
}

void pts_pt_hold_packet(struct pts_pt_hold *h, const struct pt_packet *pkt, uint64_t off)
{
	enum kind k = K_OTHER;

	switch (pkt->type) {
	case ppt_tip:
	case ppt_tip_pge:
	case ppt_tip_pgd:
		k = K_TIP;
		break;
	case ppt_fup:
		k = K_FUP;
		break;
	case ppt_mode:
		k = pkt->payload.mode.leaf == pt_mol_exec ? K_MODE_EXEC :
		    pkt->payload.mode.leaf == pt_mol_tsx ? K_MODE_TSX : K_OTHER;
		break;
	case ppt_ptw:
		k = pkt->payload.ptw.ip ? K_FUP_EVENT : K_OTHER;
		break;
	case ppt_exstop:
		k = pkt->payload.exstop.ip ? K_FUP_EVENT : K_OTHER;
		break;
	case ppt_mwait:
		k = K_FUP_EVENT;
		break;
	case ppt_ovf:
		k = K_OVF;
		break;
	case ppt_psb:
		k = K_PSB;
		break;
	case ppt_psbend:
		k = K_PSBEND;
		break;
	default:
		break;
	}
	step(h, k, off);
}

void pts_pt_hold_damaged(struct pts_pt_hold *h, uint64_t off)
{
	step(h, K_DAMAGED, off);
}

void pts_pt_hold_end(struct pts_pt_hold *h, uint64_t size)
{
	if (holds(h))
		keep(h, h->since, size);
}

bool pts_pt_hold_holds(const struct pts_pt_hold *h)
{
	return holds(h);
}

void pts_pt_hold_take(struct pts_pt_hold *h, const struct pts_pt_hold *next)
{
	size_t i;

	for (i = 0; i < next->n; i++)
		keep(h, next->held[i].from, next->held[i].to);
	h->nomem |= next->nomem;
	h->tip = next->tip;
	h->fup_sure = next->fup_sure;
	h->fup_maybe = next->fup_maybe;
	h->unsure = next->unsure;
	h->header = next->header;
	h->since = next->since;
}

bool pts_pt_hold_at(const struct pts_pt_hold *h, uint64_t at)
{
	size_t lo = 0, hi = h->n;

	if (h->nomem)
		return true;
	/* the first stretch that begins at or after at; the one before may hold it */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (h->held[mid].from < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && at < h->held[lo - 1].to;
}
