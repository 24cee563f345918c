// SPDX-License-Identifier: GPL-2.0
/* The CYC scan of a chunk of raw PT (pardec_cyc.h). */
#include "pardec_cyc.h"

#include <string.h>

#include <intel-pt.h>

/* Payload bytes of a TIP/FUP by IP compression (bits 7:5), 0xff reserved (SDM table 33-4). */
static const uint8_t ip_bytes[8] = { 0, 2, 4, 6, 6, 0xff, 8, 0xff };

/* PSB: 02 82 repeated 8 times. */
static const uint8_t psb[16] = { 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
				 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82 };

/* The extended (02 xx) packets whose length is fixed and whose payload libipt takes as is. */
static size_t ext_len(const uint8_t *buf, size_t left)
{
	if (left < 2)
		return 0;
	switch (buf[1]) {
	case 0x23:	/* PSBEND */
	case 0xf3:	/* OVF */
		return 2;
	case 0x03:	/* CBR */
		return 4;
	case 0x43:	/* PIP */
		return 8;
	case 0x82:	/* PSB: libipt checks every byte */
		return left >= sizeof(psb) && !memcmp(buf, psb, sizeof(psb)) ? sizeof(psb) : 0;
	default:
		return 0;
	}
}

size_t pts_pt_plain_packet_len(const uint8_t *buf, size_t left)
{
	uint8_t opc;
	size_t n;

	if (!left)
		return 0;
	opc = buf[0];
	switch (opc) {
	case 0x00:	/* PAD */
		return 1;
	case 0x02:
		n = ext_len(buf, left);
		break;
	case 0x19:	/* TSC */
		n = 8;
		break;
	case 0x59:	/* MTC */
		n = 2;
		break;
	case 0x99:	/* MODE: the Exec and TSX leaves (bits 7:5 of the payload) */
		if (left < 2 || (buf[1] >> 5) > 1)
			return 0;
		return 2;
	default:
		if (!(opc & 1)) {
			/* TNT-8 with at least one bit: the stop bit above bit 1 */
			n = opc >= 4 ? 1 : 0;
			break;
		}
		if ((opc & 3) == 3)	/* CYC: libipt reads it, and says it is one */
			return 0;
		switch (opc & 0x1f) {
		case 0x0d:	/* TIP */
		case 0x11:	/* TIP.PGE */
		case 0x01:	/* TIP.PGD */
		case 0x1d:	/* FUP */
			n = ip_bytes[opc >> 5];
			n = n == 0xff ? 0 : n + 1;
			break;
		default:
			return 0;
		}
	}
	return n <= left ? n : 0;
}

/* The scan from offset off on, with libipt's packet decoder (off: where it is). */
static bool scan_libipt(struct pt_packet_decoder *pd, uint64_t *off)
{
	struct pt_packet pkt;

	if (pt_pkt_sync_set(pd, *off) < 0)
		return true;
	if (pt_pkt_next(pd, &pkt, sizeof(pkt)) < 0) {
		/* a damaged stretch: the decoders resynchronise; look on from the next PSB */
		if (pt_pkt_sync_forward(pd) < 0) {
			*off = UINT64_MAX;
			return false;
		}
	} else if (pkt.type == ppt_cyc) {
		return true;
	}
	if (pt_pkt_get_offset(pd, off) < 0)
		*off = UINT64_MAX;
	return false;
}

bool pts_pt_has_cyc(const uint8_t *buf, size_t size, uint64_t from, uint64_t to)
{
	struct pt_packet_decoder *pd = NULL;
	uint64_t off = from;
	bool found = false;

	if (from >= size)
		return true;
	while (off < to) {
		size_t n = pts_pt_plain_packet_len(buf + off, size - off);

		if (n) {
			off += n;
			continue;
		}
		if (!pd) {
			struct pt_config pc;

			pt_config_init(&pc);
			pc.begin = (uint8_t *)buf;	/* only read */
			pc.end = (uint8_t *)buf + size;
			pd = pt_pkt_alloc_decoder(&pc);
			if (!pd)
				return true;
		}
		found = scan_libipt(pd, &off);
		if (found)
			break;
	}
	pt_pkt_free_decoder(pd);
	return found;
}
