// SPDX-License-Identifier: GPL-2.0
/* The scope of a raw trace, from the addresses in its packets (scope_infer.h). */
#include "scope_infer.h"

#include <errno.h>
#include <inttypes.h>
#include <intel-pt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "pt_step.h"

/*
 * What the scan needs of the last IP of SDM §33.4.2.2: whether there is
 * one, and its half (bit 63). IPBytes 1, 2 and 4 replace bits below 48
 * only, so the half is the one of the last IP given with IPBytes 3 (bit
 * 47, sign-extended) or 6: the scan reads no other IP bytes.
 */
struct last_ip {
	bool valid;
	bool kernel;
};

/*
 * Apply an IP packet of compression ipc (kernel: bit 63 of the IP it
 * gives, for sext_48 and full); true when it gives an IP (not suppressed,
 * base known).
 */
static inline bool last_ip_update(struct last_ip *l, enum pt_ip_compression ipc, bool kernel)
{
	switch (ipc) {
	case pt_ipc_update_16:
	case pt_ipc_update_32:
	case pt_ipc_update_48:
		return l->valid;
	case pt_ipc_sext_48:
	case pt_ipc_full:
		l->kernel = kernel;
		l->valid = true;
		return true;
	default:
		return false;	/* suppressed */
	}
}

/*
 * One packet's evidence: its type and, for TIP, TIP.PGE, TIP.PGD and FUP,
 * its IP's compression ipc and half (last_ip_update). Inline, as
 * last_ip_update: the scan takes every IP packet.
 */
static inline void take(enum pt_packet_type type, enum pt_ip_compression ipc, bool kernel,
			struct last_ip *last, struct pts_scope_evidence *ev)
{
	switch (type) {
	case ppt_psb:
		ev->psbs++;
		/* PSB and OVF leave no last IP */
		/* fall through */
	case ppt_ovf:
		last->valid = false;
		break;
	case ppt_tip_pge:
		ev->pge++;
		/* fall through */
	case ppt_tip:
	case ppt_fup:
		if (last_ip_update(last, ipc, kernel)) {
			if (last->kernel)
				ev->kernel_ips++;
			else
				ev->user_ips++;
		}
		break;
	case ppt_tip_pgd:
		ev->pgd++;
		last_ip_update(last, ipc, kernel);
		break;
	default:
		break;
	}
}

/* The IP packets (TIP.PGD, TIP, TIP.PGE, FUP) by bits 4:0 of their opcode. */
static const enum pt_packet_type ip_type[32] = {
	[0x01] = ppt_tip_pgd, [0x0d] = ppt_tip, [0x11] = ppt_tip_pge, [0x1d] = ppt_fup,
};

/*
 * The IP packet of n bytes at p (pts_pt_step's length): its type by bits
 * 4:0 of the opcode, its compression by bits 7:5, and its half from the
 * top byte of an IP that has one (little-endian: IPBytes 3 gives bits
 * 47:0, 6 bits 63:0).
 */
static inline void take_ip(const uint8_t *p, size_t n, struct last_ip *last,
			   struct pts_scope_evidence *ev)
{
	enum pt_ip_compression ipc = (enum pt_ip_compression)(p[0] >> 5);

	take(ip_type[p[0] & 0x1f], ipc, n > 1 && p[n - 1] >> 7, last, ev);
}

/*
 * A packet pts_pt_step stepped over that is not one of run_plain's: PSB
 * and OVF by their second byte; the rest (MODE, PSBEND, CBR, PIP...)
 * carries no evidence.
 */
static void take_stepped(const uint8_t *p, struct last_ip *last, struct pts_scope_evidence *ev)
{
	if (p[0] != 0x02)
		return;
	if (p[1] == 0x82)
		take(ppt_psb, pt_ipc_suppressed, false, last, ev);
	else if (p[1] == 0xf3)
		take(ppt_ovf, pt_ipc_suppressed, false, last, ev);
}

/* run_plain's table: an IP packet's length has this bit set. */
#define PLAIN_IP 0x80

/*
 * The packets run_plain takes by their first byte: the length pts_pt_step
 * takes from the opcode alone (not the 02 and MODE packets, whose second
 * byte says), PLAIN_IP added for the IP packets (ip_type); 0 for the
 * others. Nearly every packet of a trace (TNT, TSC, MTC, PAD, TIP, FUP)
 * is such.
 */
static void plain_lens(uint8_t plain[256])
{
	unsigned int op;

	for (op = 0; op < 256; op++) {
		uint8_t n = pts_pt_first_len[op];

		if (n == PTS_PT_EXT || n == PTS_PT_MOD)
			plain[op] = 0;
		else
			plain[op] = n && ip_type[op & 0x1f] ? n | PLAIN_IP : n;
	}
}

/*
 * Take the packets of the table plain from off on, as the scan's loop
 * would one by one, but in a row; stop after the one that showed both
 * halves. Returns the offset of the first other packet (or len, or the
 * one after the stop), *prev that of the packet before it when one was
 * taken.
 */
static uint64_t run_plain(const uint8_t *buf, size_t len, const uint8_t plain[256], uint64_t off,
			  uint64_t *prev, struct last_ip *last, struct pts_scope_evidence *ev)
{
	uint8_t n;

	while (off < len && (n = plain[buf[off]]) && (n & ~PLAIN_IP) <= len - off) {
		*prev = off;
		off += n & ~PLAIN_IP;
		if (n & PLAIN_IP) {
			take_ip(buf + *prev, off - *prev, last, ev);
			if (ev->user_ips && ev->kernel_ips)
				break;
		}
	}
	return off;
}

/* take of a packet libipt read: the IP's half from its payload, if an IP packet */
static void take_packet(const struct pt_packet *pkt, struct last_ip *last,
			struct pts_scope_evidence *ev)
{
	const struct pt_packet_ip *ip = &pkt->payload.ip;

	switch (pkt->type) {
	case ppt_tip:
	case ppt_tip_pge:
	case ppt_tip_pgd:
	case ppt_fup:
		/* IPBytes 3 gives bits 47:0, sign-extended */
		take(pkt->type, ip->ipc, ip->ipc == pt_ipc_sext_48 ? ip->ip >> 47 & 1 : ip->ip >> 63,
		     last, ev);
		break;
	default:
		take(pkt->type, pt_ipc_suppressed, false, last, ev);
		break;
	}
}

/*
 * The packet at *off (after the one at prev) read by libipt, *off moved
 * past it; past a damaged one to the next PSB. Negative at the end.
 */
static int take_libipt(struct pt_packet_decoder *dec, uint64_t prev, uint64_t *off,
		       struct last_ip *last, struct pts_scope_evidence *ev)
{
	struct pt_packet pkt;
	int rc;

	rc = pt_pkt_sync_set(dec, *off);
	if (rc >= 0)
		rc = pt_pkt_next(dec, &pkt, sizeof(pkt));
	if (rc < 0) {
		last->valid = false;
		if (rc == -pte_eos)
			return rc;
		rc = pts_pt_resync(dec, prev, *off);
		if (rc < 0)
			return rc;
	} else {
		take_packet(&pkt, last, ev);
	}
	return pt_pkt_get_offset(dec, off);
}

int pts_scope_scan(const uint8_t *buf, size_t len, struct pts_scope_evidence *ev)
{
	struct pt_packet_decoder *dec;
	struct last_ip last = { 0 };
	uint8_t plain[256];
	struct pt_config cfg;
	uint64_t off = 0, prev = 0;
	int rc;

	if (!len)
		return 0;
	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	dec = pt_pkt_alloc_decoder(&cfg);
	if (!dec)
		return -ENOMEM;
	plain_lens(plain);
	rc = pt_pkt_sync_forward(dec);
	if (rc >= 0)
		rc = pt_pkt_get_offset(dec, &off);
	/* the common packets stepped over here, libipt asked for the others */
	while (rc >= 0 && off < len && !(ev->user_ips && ev->kernel_ips)) {
		size_t n;
		uint64_t at;

		off = run_plain(buf, len, plain, off, &prev, &last, ev);
		if (off >= len || (ev->user_ips && ev->kernel_ips))
			break;
		n = pts_pt_step(buf + off, len - off);
		at = off;
		if (n) {
			take_stepped(buf + off, &last, ev);
			off += n;
		} else {
			rc = take_libipt(dec, prev, &off, &last, ev);
		}
		prev = at;
	}
	pt_pkt_free_decoder(dec);
	return 0;
}

bool pts_scope_decide(const struct pts_scope_evidence *ev, enum pts_scope *scope, char *why,
		      size_t why_len)
{
	if (ev->user_ips && ev->kernel_ips) {
		*scope = PTS_SCOPE_BOTH;
		snprintf(why, why_len, "from the trace: user-space and kernel addresses");
	} else if (ev->user_ips) {
		*scope = PTS_SCOPE_USER;
		snprintf(why, why_len, "from the trace: only user-space addresses (%" PRIu64
			 "), %" PRIu64 " tracing disables", ev->user_ips, ev->pgd);
	} else if (ev->kernel_ips) {
		*scope = PTS_SCOPE_KERNEL;
		snprintf(why, why_len, "from the trace: only kernel addresses (%" PRIu64
			 "), %" PRIu64 " tracing disables", ev->kernel_ips, ev->pgd);
	} else {
		/* nothing decodes without an IP: the scope changes nothing here */
		*scope = PTS_SCOPE_USER;
		snprintf(why, why_len, "%s: user assumed, give --scope to say otherwise",
			 ev->psbs ? "no address of traced code in the trace" : "no PSB in the trace");
		return false;
	}
	return true;
}
