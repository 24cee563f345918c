/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recording CPU as libipt takes it (pt_config.cpu and .errata), for
 * every reader of a trace that must see the packets the decoders see.
 *
 * libipt's packet decoder applies one erratum itself: with SKZ84 (VMX TSC
 * scaling or offsetting corrupts packets; Skylake server and its kin) a
 * TMA whose reserved bits are set is passed over, with the byte after it,
 * as an invalid packet (pt_pkt_decode_tma); the query decoder does the same
 * (pt_qry_decode_tma). Without the errata the TMA is a damaged packet,
 * after which a reader resynchronises at the next PSB: the packets
 * between are read by the decoder and not by such a reader (fuzz finding
 * 21: a CYC scan that missed every CYC of a trace).
 */
#ifndef PTS_DECODE_PT_CPU_H
#define PTS_DECODE_PT_CPU_H

#include <stddef.h>
#include <stdint.h>

struct pt_config;
struct pt_errata;
struct pt_packet_decoder;

/*
 * pc's cpu and errata for the CPU family/model/stepping (family 0:
 * unknown, pc left as it was: no errata). -pte_bad_cpu when libipt knows
 * no errata of that CPU (pt-facts section 6: not fatal, none applied), else 0.
 */
int pts_pt_config_cpu(struct pt_config *pc, uint16_t family, uint8_t model, uint8_t stepping);

/* The errata of that CPU alone (*e zeroed first): as pts_pt_config_cpu. */
int pts_pt_errata(struct pt_errata *e, uint16_t family, uint8_t model, uint8_t stepping);

/*
 * A libipt packet decoder over buf[0, size) (only read; kept by the
 * decoder until pt_pkt_free_decoder) that applies errata as the
 * decoders do (NULL: none). NULL when out of memory.
 */
struct pt_packet_decoder *pts_pt_pkt_decoder(const uint8_t *buf, size_t size,
					     const struct pt_errata *errata);

#endif /* PTS_DECODE_PT_CPU_H */
