/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether a stretch of raw PT holds a CYC packet (SDM 33.4.2.14): a trace
 * that has one is not joined (pardec.h), as the cycle counts'
 * calibration carries over from before a chunk's PSB.
 *
 * The packets libipt's packet decoder reads, packet by packet from a PSB,
 * as it reads them; a damaged stretch is passed over to the next PSB as
 * libipt's decoders resynchronise there. The common packets are stepped
 * over by their opcode (decode/pt_step.h): a pt_pkt_next per packet cost
 * as much as 3 % of a parallel decode. libipt's decoder is given the
 * recording CPU's errata (errata, NULL: none), as the serial decoder's
 * is: with SKZ84 a TMA whose reserved bits are set is no damage but
 * passed over (decode/pt_cpu.h; without it the scan resynchronised at
 * the next PSB, and a trace whose PSB+ all had such a TMA was read as
 * holding no CYC: fuzz finding 21).
 */
#ifndef PTS_SESSION_PARDEC_CYC_H
#define PTS_SESSION_PARDEC_CYC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* pts_pt_plain_packet_len, the stepper tests/unit/test_session_pardec_cyc.c compares with libipt */
#include "../decode/pt_step.h"

struct pt_errata;

/*
 * True when libipt's packet decoder, synchronised at offset from of
 * buf[0, size) (a PSB), reads a CYC packet that begins before offset to.
 * Also true when it cannot be asked (no memory for a decoder, from past
 * the end): the caller then does not join, which is always exact.
 */
bool pts_pt_has_cyc(const uint8_t *buf, size_t size, uint64_t from, uint64_t to,
		    const struct pt_errata *errata);

struct pts_pt_hold;

/*
 * pts_pt_has_cyc in pieces: from *at, the packet after the one at *prev
 * (both the PSB at the start), to offset to (at most size); *at and *prev
 * are left where the scan stopped (at or past to; UINT64_MAX at the end
 * of the trace), so that the next piece goes on with the packets a
 * single scan would read. hold (or NULL) is told every packet read
 * before a CYC: where libipt holds an event across a PSB (pardec_hold.h).
 */
bool pts_pt_scan_cyc(const uint8_t *buf, size_t size, uint64_t *at, uint64_t *prev, uint64_t to,
		     const struct pt_errata *errata, struct pts_pt_hold *hold);

/*
 * Whether a CPU's trace buf[0, size) holds a CYC packet, read from its
 * first PSB, where the serial decoder starts (false without a PSB); where
 * not, hold (initialised) has where the serial decoder holds an event
 * across a PSB. With release (a mapped trace) it is scanned in pieces
 * whose pages are dropped behind (the decoders read them back): resident
 * memory does not grow with the trace (check 77). Called by pts_pcpu_new,
 * or before it, beside the other scans of a decode (session/prescan.h).
 */
bool pts_pt_trace_has_cyc(const uint8_t *buf, size_t size, bool release,
			  const struct pt_errata *errata, struct pts_pt_hold *hold);

#endif /* PTS_SESSION_PARDEC_CYC_H */
