/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pieces of the hand-made streams that check a reader of the trace
 * against libipt's SKZ84 workaround (decode/pt_cpu.h): a TMA whose
 * reserved bits are set is damage (pte_bad_packet) without the errata;
 * with SKZ84 libipt passes over it and the byte after it as an invalid
 * packet (pt_pkt_decode_tma; the query decoder likewise) and reads on. A
 * reader without the errata resynchronises at the next PSB and misses
 * the packets between.
 */
#ifndef PTS_TEST_SKZ84_TMA_H
#define PTS_TEST_SKZ84_TMA_H

#include <intel-pt.h>

#include "unit.h"
#include "decode/pt_cpu.h"

/* PSB: 02 82 eight times. */
#define SKZ84_PSB \
	0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, \
	0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82

/* A TSC packet of value hi << 8. */
#define SKZ84_TSC(hi) 0x19, 0x00, (hi), 0x00, 0x00, 0x00, 0x00, 0x00

/* A TMA with FC bit 9 (reserved) set, and the PAD libipt passes over with it. */
#define SKZ84_TMA_PAD 0x02, 0x73, 0x12, 0x00, 0x00, 0x34, 0x02, 0x00

#define SKZ84_PSBEND 0x02, 0x23

/* The errata the decoders of a Skylake server's trace (6/85/4) get: SKZ84 among them. */
static inline struct pt_errata skylake_server_errata(void)
{
	struct pt_errata e;

	CU_ASSERT_EQUAL(pts_pt_errata(&e, 6, 85, 4), 0);
	CU_ASSERT_TRUE(e.skz84);
	return e;
}

#endif
