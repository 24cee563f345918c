/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stepping over raw PT packets by their opcode (SDM 33.4.1, table 33-14),
 * for the scans that read every packet of a trace but care for few kinds:
 * a pt_pkt_next per packet is most of their cost.
 *
 * The packets are the ones libipt's packet decoder reads, packet by packet
 * from a PSB, as it reads them. Every packet whose length or validity
 * depends on more than its opcode (CYC, long TNT, MNT, PTWRITE, TMA, whose
 * reserved bits libipt checks, reserved IP compressions and mode leaves,
 * one running past the trace...) is left to libipt, asked from the same
 * offset (tests/unit/test_session_pardec_cyc.c compares every opcode).
 * Users: the CYC scan of a parallel chunk (session/pardec_cyc.h) and the
 * scope scan of a raw trace (scope_infer.h).
 */
#ifndef PTS_DECODE_PT_STEP_H
#define PTS_DECODE_PT_STEP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* PSB: 02 82 repeated 8 times. */
extern const uint8_t pts_pt_psb[16];

/* pts_pt_first_len: a first byte 02 (the second byte says) and 99 (MODE) */
#define PTS_PT_EXT 0xfe
#define PTS_PT_MOD 0xfd

/* Bytes of the packet by its first byte (pt_step.c), 0: ask libipt. */
extern const uint8_t pts_pt_first_len[256];

/* The extended (02 xx) packets whose length is fixed and whose payload libipt takes as is. */
static inline size_t pts_pt_ext_len(const uint8_t *buf, size_t left)
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
		return left >= sizeof(pts_pt_psb) && !memcmp(buf, pts_pt_psb, sizeof(pts_pt_psb)) ?
			sizeof(pts_pt_psb) : 0;
	default:
		return 0;
	}
}

/*
 * Bytes of the packet at buf[0, left) when its opcode alone gives them and
 * libipt reads it without error as a packet that is not CYC; 0 when libipt
 * must be asked (also when left is 0). Inline: the scans call it per packet.
 */
static inline size_t pts_pt_step(const uint8_t *buf, size_t left)
{
	size_t n;

	if (!left)
		return 0;
	n = pts_pt_first_len[buf[0]];
	if (n == PTS_PT_EXT)
		n = pts_pt_ext_len(buf, left);
	else if (n == PTS_PT_MOD)
		n = left >= 2 && (buf[1] >> 5) <= 1 ? 2 : 0;
	return n <= left ? n : 0;
}

struct pt_packet_decoder;

/*
 * Move dec, whose pt_pkt_next failed on the packet at off, to the next PSB,
 * where a decoder that had read on from prev (the offset of the packet
 * before off, read without error; prev == off when off is the first) would
 * resynchronise. pt_pkt_sync_forward looks from 15 bytes before the
 * decoder's position, so that a PSB the damaged packet partly swallowed is
 * found, but from 1 byte after it when the decoder stands on its
 * synchronisation point, where pt_pkt_sync_set leaves it: the decoder is
 * therefore set on the packet before and reads it first. Returns 0, or
 * libipt's negative error code (-pte_eos: no PSB after off).
 */
int pts_pt_resync(struct pt_packet_decoder *dec, uint64_t prev, uint64_t off);

/* The first PSB of buf[0, size) at or after from; size when none. */
uint64_t pts_pt_psb_from(const uint8_t *buf, size_t size, uint64_t from);

/*
 * [from, to) of buf in n parts of about equal length, each from a PSB but
 * the first: at[0] from, at[n] to, at[i] the first PSB after the i-th
 * n-th of what is left (to when none: the parts after it are empty). For
 * the scans that read parts in step (session/pardec_cyc.h, scope_infer.h).
 */
void pts_pt_psb_split(const uint8_t *buf, uint64_t from, uint64_t to, uint64_t *at,
		      unsigned int n);

/* pts_pt_step, not inlined: for the unit test. */
size_t pts_pt_plain_packet_len(const uint8_t *buf, size_t left);

#endif /* PTS_DECODE_PT_STEP_H */
