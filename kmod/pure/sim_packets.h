/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal Intel PT packet writer for the simulated unit, following the
 * packet formats of Intel SDM vol. 3C, section 33.4.2 ("Packet
 * Definitions"). Each function writes one packet into `buf` (which must
 * hold PTS_PKT_MAX bytes) and returns its length in bytes.
 *
 * IP packets (TIP, TIP.PGE, TIP.PGD, FUP) are compressed against the
 * last IP as the SDM's IP compression rules (33.4.2.2, table "Compression
 * of IP payloads", IPBytes) allow; struct pts_pkt_ip keeps that state the
 * way a decoder does: a PSB clears it, every IP packet with a payload
 * updates it, a suppressed IP leaves it.
 */
#ifndef PTSCOPE_SIM_PACKETS_H
#define PTSCOPE_SIM_PACKETS_H

#include "pure.h"

#define PTS_PKT_MAX	16	/* longest packet written here: PSB */

/* IPBytes encodings (SDM 33.4.2.2). */
enum pts_pkt_ipc {
	PTS_IPC_SUPPRESSED = 0,
	PTS_IPC_UPDATE_16 = 1,
	PTS_IPC_UPDATE_32 = 2,
	PTS_IPC_SEXT_48 = 3,
	PTS_IPC_UPDATE_48 = 4,
	PTS_IPC_FULL = 6,
};

/* Header bytes of the IP packets (SDM 33.4.2.3-33.4.2.7), IPBytes in 7:5. */
#define PTS_PKT_TIP	0x0d
#define PTS_PKT_TIP_PGE	0x11
#define PTS_PKT_TIP_PGD	0x01
#define PTS_PKT_FUP	0x1d

struct pts_pkt_ip {
	u64 last_ip;
	bool valid;	/* false after a PSB until the next IP payload */
};

/* Forget the last IP, as a PSB does (SDM 33.4.2.2). */
void pts_pkt_ip_reset(struct pts_pkt_ip *st);

/* Smallest IPBytes encoding of `ip` given the last-IP state. */
enum pts_pkt_ipc pts_pkt_ip_compress(const struct pts_pkt_ip *st, u64 ip);

/*
 * TIP / TIP.PGE / TIP.PGD / FUP. header: one of PTS_PKT_TIP*; ip is
 * ignored when suppressed is true (IPBytes 000). Updates st.
 */
size_t pts_pkt_ip(u8 *buf, struct pts_pkt_ip *st, u8 header, u64 ip, bool suppressed);

/* PSB: 02 82 repeated 8 times, 16 bytes (SDM 33.4.2.17). Resets st. */
size_t pts_pkt_psb(u8 *buf, struct pts_pkt_ip *st);
/* PSBEND: 02 23 (33.4.2.18). */
size_t pts_pkt_psbend(u8 *buf);
/* TSC: 19 + TSC[55:0] little-endian, 8 bytes (33.4.2.11). */
size_t pts_pkt_tsc(u8 *buf, u64 tsc);
/* CBR: 02 03 ratio 00 (33.4.2.14), ratio in units of the bus clock. */
size_t pts_pkt_cbr(u8 *buf, u8 ratio);
/* MODE.Exec 64-bit: 99 01 (33.4.2.8: leaf 000, CS.L = 1, CS.D = 0). */
size_t pts_pkt_mode_exec64(u8 *buf);
/* TMA: 02 73 CTC[15:0] 00 FastCounter[7:0] FC[8] (33.4.2.12), 7 bytes. */
size_t pts_pkt_tma(u8 *buf, u16 ctc, u16 fast_counter);
/* MTC: 59 CTC[MTCFreq+7:MTCFreq] (33.4.2.13), 2 bytes. */
size_t pts_pkt_mtc(u8 *buf, u8 ctc_payload);
/*
 * Short TNT: 1 to 6 branch bits, oldest in the most significant payload
 * bit, followed by a stop bit above them; bit 0 is 0 (33.4.2.1).
 * bits: the outcomes, oldest in bit (n - 1); n: 1..6. Returns 0 if n is
 * out of range.
 */
size_t pts_pkt_tnt8(u8 *buf, u8 bits, unsigned int n);
/*
 * PIP: 02 43 + 6 bytes (33.4.2.7): payload bit 0 NR (0: not in VMX
 * non-root operation), bits 47:1 CR3[51:5]. 8 bytes.
 */
size_t pts_pkt_pip(u8 *buf, u64 cr3);
/* TraceStop: 02 83 (33.4.2.10). */
size_t pts_pkt_tracestop(u8 *buf);
/* OVF: 02 f3 (33.4.2.16). */
size_t pts_pkt_ovf(u8 *buf);
/* PAD: 00 (33.4.2.19). */
size_t pts_pkt_pad(u8 *buf);

#endif /* PTSCOPE_SIM_PACKETS_H */
