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
#include "pardec_hold.h"

struct pt_errata;

/*
 * True when libipt's packet decoder, synchronised at offset from of
 * buf[0, size) (a PSB), reads a CYC packet that begins before offset to.
 * Also true when it cannot be asked (no memory for a decoder, from past
 * the end): the caller then does not join, which is always exact.
 */
bool pts_pt_has_cyc(const uint8_t *buf, size_t size, uint64_t from, uint64_t to,
		    const struct pt_errata *errata);

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
 * memory does not grow with the trace (check 77). Read as
 * PTS_PT_CYC_CHAINS parts in step, split at PSBs (pts_pt_psb_split). Called by
 * pts_pcpu_new, or before it, beside the other scans of a decode
 * (session/prescan.h: there in slices, on the run's threads).
 */
bool pts_pt_trace_has_cyc(const uint8_t *buf, size_t size, bool release,
			  const struct pt_errata *errata, struct pts_pt_hold *hold);

/*
 * The CYC scan of a trace in parts, each read on its own, up to
 * PTS_PT_CYC_CHAINS of them at once in step, and joined into the answer
 * of one scan of the whole trace. Each packet's offset waits for the one
 * before it (its first byte gives its length): one scan is a chain of
 * loads that leaves the CPU idle where several keep it busy, and parts
 * can be scanned by several threads.
 *
 * A part [from, to) is read from the first PSB at or after from (start;
 * for the first part, from 0, the trace's first PSB) up to to, as though
 * the serial scan arrived there with no event held (pardec_hold.h): its
 * own decoder, its own hold. The join goes through the parts in order
 * and takes a part's answer where the scan of the parts before it
 * stopped exactly at its start with no event held: the packets and the
 * hold's state from there are then the part's, whatever came before. At
 * a part where it did not (that PSB lay inside a packet of the serial
 * scan, or a damaged packet's resynchronisation went past it, or an event
 * is held across it), the join reads the part's bytes again, on from
 * where the scan before left off. The answer and the held stretches are
 * those of one scan from the first PSB, wherever the parts are split:
 * only the time differs (tests/unit/test_session_pardec_cyc.c).
 */
#define PTS_PT_CYC_CHAINS 4

struct pts_pt_cyc_part {
	uint64_t from, to;		/* in: each part to the next one's from (a PSB) */
	uint64_t start;			/* out: its first PSB (to or past it: none) */
	uint64_t at, prev;		/* out: where its scan stopped (pts_pt_scan_cyc) */
	bool cyc;			/* out: it read a CYC */
	struct pts_pt_hold hold;	/* out: the stretches it found held, its state at at */
};

/*
 * Scan the n parts of buf[0, size), PTS_PT_CYC_CHAINS at a time in step
 * (release and errata as for pts_pt_trace_has_cyc). Their holds are
 * initialised here: pts_pt_cyc_parts_free them.
 */
void pts_pt_cyc_parts_scan(const uint8_t *buf, size_t size, bool release,
			   const struct pt_errata *errata, struct pts_pt_cyc_part *part,
			   unsigned int n);

/*
 * Whether the trace of the n parts (scanned, in order from 0 to size)
 * holds a CYC, as pts_pt_trace_has_cyc answers, with, where not, the held
 * stretches in hold (initialised, not NULL). Parts whose answer cannot
 * be taken are read again here.
 */
bool pts_pt_cyc_parts_join(const uint8_t *buf, size_t size, bool release,
			   const struct pt_errata *errata, const struct pts_pt_cyc_part *part,
			   size_t n, struct pts_pt_hold *hold);

void pts_pt_cyc_parts_free(struct pts_pt_cyc_part *part, size_t n);

#endif /* PTS_SESSION_PARDEC_CYC_H */
