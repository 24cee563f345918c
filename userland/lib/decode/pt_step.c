// SPDX-License-Identifier: GPL-2.0
/* The packet lengths by opcode of raw PT (pt_step.h). */
#include "pt_step.h"

#include <intel-pt.h>
#include <string.h>

const uint8_t pts_pt_psb[16] = { 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
				 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82 };

#define EXT PTS_PT_EXT	/* 02: the second byte says (pts_pt_ext_len) */
#define MOD PTS_PT_MOD	/* 99: MODE, the Exec and TSX leaves only (bits 7:5 of the payload) */

/*
 * PAD 1; TNT-8 1 (an even byte from 04 on: at least one bit under its
 * stop bit); TIP, TIP.PGE, TIP.PGD, FUP (bits 4:0 0d, 11, 01, 1d) 1 + the
 * IP bytes of their compression (bits 7:5: 0, 2, 4, 6, 6, reserved, 8,
 * reserved); TSC 8; MTC 2; CYC (bits 1:0 11) and the rest 0.
 */
const uint8_t pts_pt_first_len[256] = {
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

uint64_t pts_pt_psb_from(const uint8_t *buf, size_t size, uint64_t from)
{
	const uint8_t *psb = NULL;

	if (from < size && size - from >= sizeof(pts_pt_psb))
		psb = memmem(buf + from, size - from, pts_pt_psb, sizeof(pts_pt_psb));
	return psb ? (uint64_t)(psb - buf) : size;
}

void pts_pt_psb_split(const uint8_t *buf, uint64_t from, uint64_t to, uint64_t *at,
		      unsigned int n)
{
	unsigned int i;

	at[0] = from;
	for (i = 1; i < n; i++) {
		uint64_t x = at[i - 1] + (to - at[i - 1]) / (n - i + 1);

		if (x <= at[i - 1])
			x = at[i - 1] + 1;	/* past the PSB the part before starts at */
		at[i] = x < to ? pts_pt_psb_from(buf, to, x) : to;
	}
	at[n] = to;
}

size_t pts_pt_plain_packet_len(const uint8_t *buf, size_t left)
{
	return pts_pt_step(buf, left);
}

int pts_pt_resync(struct pt_packet_decoder *dec, uint64_t prev, uint64_t off)
{
	struct pt_packet pkt;
	uint64_t at = 0;
	int rc;

	rc = pt_pkt_sync_set(dec, prev);
	if (rc >= 0 && prev != off) {
		rc = pt_pkt_next(dec, &pkt, sizeof(pkt));
		if (rc >= 0)
			rc = pt_pkt_get_offset(dec, &at);
		if (rc >= 0 && at != off)
			rc = -pte_internal;
	}
	return rc < 0 ? rc : pt_pkt_sync_forward(dec);
}
