// SPDX-License-Identifier: GPL-2.0
/* The CYC scan of a chunk of raw PT (pardec_cyc.h). */
#include "pardec_cyc.h"

#include <string.h>

#include <intel-pt.h>

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

#define EXT 0xfe	/* 02: the second byte says (ext_len) */
#define MOD 0xfd	/* 99: MODE, the Exec and TSX leaves only (bits 7:5 of the payload) */

/*
 * Bytes of the packet by its first byte, 0: ask libipt. PAD 1; TNT-8 1
 * (an even byte from 04 on: at least one bit under its stop bit); TIP,
 * TIP.PGE, TIP.PGD, FUP (bits 4:0 0d, 11, 01, 1d) 1 + the IP bytes of
 * their compression (bits 7:5: 0, 2, 4, 6, 6, reserved, 8, reserved);
 * TSC 8; MTC 2; CYC (bits 1:0 11) and the rest 0.
 */
static const uint8_t first_len[256] = {
	1, 1, EXT, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0,	/* 00 */
	1, 1, 1, 0, 1, 0, 1, 0, 1, 8, 1, 0, 1, 1, 1, 0,	/* 10 */
	1, 3, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 1, 0,	/* 20 */
	1, 3, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 1, 0,	/* 30 */
	1, 5, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 5, 1, 0,	/* 40 */
	1, 5, 1, 0, 1, 0, 1, 0, 1, 2, 1, 0, 1, 5, 1, 0,	/* 50 */
	1, 7, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 7, 1, 0,	/* 60 */
	1, 7, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 7, 1, 0,	/* 70 */
	1, 7, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 7, 1, 0,	/* 80 */
	1, 7, 1, 0, 1, 0, 1, 0, 1, MOD, 1, 0, 1, 7, 1, 0,	/* 90 */
	1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0,	/* a0 */
	1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0,	/* b0 */
	1, 9, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 9, 1, 0,	/* c0 */
	1, 9, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 9, 1, 0,	/* d0 */
	1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0,	/* e0 */
	1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0,	/* f0 */
};

/* pts_pt_plain_packet_len, inlined in the scan. */
static inline size_t plain_len(const uint8_t *buf, size_t left)
{
	size_t n;

	if (!left)
		return 0;
	n = first_len[buf[0]];
	if (n == EXT)
		n = ext_len(buf, left);
	else if (n == MOD)
		n = left >= 2 && (buf[1] >> 5) <= 1 ? 2 : 0;
	return n <= left ? n : 0;
}

size_t pts_pt_plain_packet_len(const uint8_t *buf, size_t left)
{
	return plain_len(buf, left);
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
		size_t n = plain_len(buf + off, size - off);

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
