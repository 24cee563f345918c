// SPDX-License-Identifier: GPL-2.0
/*
 * Intel PT packet writer for the simulated unit (see sim_packets.h).
 * Formats: Intel SDM vol. 3C, 33.4.2 "Packet Definitions".
 */
#include "sim_packets.h"

void pts_pkt_ip_reset(struct pts_pkt_ip *st)
{
	st->last_ip = 0;
	st->valid = false;
}

/* ip equals the sign extension of its bit 47 (IPBytes 011 payload). */
static bool pts_pkt_is_sext48(u64 ip)
{
	u64 upper = ip >> 47;

	return upper == 0 || upper == 0x1ffff;
}

enum pts_pkt_ipc pts_pkt_ip_compress(const struct pts_pkt_ip *st, u64 ip)
{
	if (st->valid) {
		if ((st->last_ip >> 16) == (ip >> 16))
			return PTS_IPC_UPDATE_16;
		if ((st->last_ip >> 32) == (ip >> 32))
			return PTS_IPC_UPDATE_32;
	}
	if (pts_pkt_is_sext48(ip))
		return PTS_IPC_SEXT_48;
	if (st->valid && (st->last_ip >> 48) == (ip >> 48))
		return PTS_IPC_UPDATE_48;
	return PTS_IPC_FULL;
}

static void pts_pkt_put_le(u8 *buf, u64 v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		buf[i] = (u8)(v >> (8 * i));
}

size_t pts_pkt_ip(u8 *buf, struct pts_pkt_ip *st, u8 header, u64 ip, bool suppressed)
{
	enum pts_pkt_ipc ipc = suppressed ? PTS_IPC_SUPPRESSED : pts_pkt_ip_compress(st, ip);
	unsigned int n;

	switch (ipc) {
	case PTS_IPC_UPDATE_16:
		n = 2;
		break;
	case PTS_IPC_UPDATE_32:
		n = 4;
		break;
	case PTS_IPC_SEXT_48:
	case PTS_IPC_UPDATE_48:
		n = 6;
		break;
	case PTS_IPC_FULL:
		n = 8;
		break;
	default:
		n = 0;
		break;
	}
	buf[0] = (u8)(header | ((unsigned int)ipc << 5));
	pts_pkt_put_le(buf + 1, ip, n);
	if (n) {
		st->last_ip = ip;
		st->valid = true;
	}
	return 1 + n;
}

size_t pts_pkt_psb(u8 *buf, struct pts_pkt_ip *st)
{
	unsigned int i;

	for (i = 0; i < 16; i += 2) {
		buf[i] = 0x02;
		buf[i + 1] = 0x82;
	}
	pts_pkt_ip_reset(st);
	return 16;
}

size_t pts_pkt_psbend(u8 *buf)
{
	buf[0] = 0x02;
	buf[1] = 0x23;
	return 2;
}

size_t pts_pkt_tsc(u8 *buf, u64 tsc)
{
	buf[0] = 0x19;
	pts_pkt_put_le(buf + 1, tsc, 7);
	return 8;
}

size_t pts_pkt_cbr(u8 *buf, u8 ratio)
{
	buf[0] = 0x02;
	buf[1] = 0x03;
	buf[2] = ratio;
	buf[3] = 0;
	return 4;
}

size_t pts_pkt_mode_exec64(u8 *buf)
{
	buf[0] = 0x99;
	buf[1] = 0x01;
	return 2;
}

size_t pts_pkt_tma(u8 *buf, u16 ctc, u16 fast_counter)
{
	buf[0] = 0x02;
	buf[1] = 0x73;
	buf[2] = (u8)ctc;
	buf[3] = (u8)(ctc >> 8);
	buf[4] = 0;
	buf[5] = (u8)fast_counter;
	buf[6] = (u8)((fast_counter >> 8) & 1);
	return 7;
}

size_t pts_pkt_mtc(u8 *buf, u8 ctc_payload)
{
	buf[0] = 0x59;
	buf[1] = ctc_payload;
	return 2;
}

size_t pts_pkt_tnt8(u8 *buf, u8 bits, unsigned int n)
{
	if (n < 1 || n > 6)
		return 0;
	buf[0] = (u8)((((1U << n) | (bits & ((1U << n) - 1))) << 1) & 0xff);
	return 1;
}

size_t pts_pkt_pip(u8 *buf, u64 cr3)
{
	buf[0] = 0x02;
	buf[1] = 0x43;
	pts_pkt_put_le(buf + 2, ((cr3 >> 5) << 1) & 0xffffffffffffULL, 6);
	return 8;
}

size_t pts_pkt_tracestop(u8 *buf)
{
	buf[0] = 0x02;
	buf[1] = 0x83;
	return 2;
}

size_t pts_pkt_ovf(u8 *buf)
{
	buf[0] = 0x02;
	buf[1] = 0xf3;
	return 2;
}

size_t pts_pkt_pad(u8 *buf)
{
	buf[0] = 0;
	return 1;
}
