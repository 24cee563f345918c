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

/* The last IP of SDM §33.4.2.2: packets with IPBytes 1, 2, 4 update its low bits. */
struct last_ip {
	uint64_t ip;
	bool valid;
};

/* Apply one IP payload; true when it gives an IP (not suppressed, base known). */
static inline bool last_ip_update(struct last_ip *l, const struct pt_packet_ip *p)
{
	switch (p->ipc) {
	case pt_ipc_update_16:
		l->ip = (l->ip & ~0xffffULL) | (p->ip & 0xffffULL);
		break;
	case pt_ipc_update_32:
		l->ip = (l->ip & ~0xffffffffULL) | (p->ip & 0xffffffffULL);
		break;
	case pt_ipc_update_48:
		l->ip = (l->ip & ~0xffffffffffffULL) | (p->ip & 0xffffffffffffULL);
		break;
	case pt_ipc_sext_48:
		l->ip = p->ip & 0xffffffffffffULL;
		if (l->ip & (1ULL << 47))
			l->ip |= 0xffff000000000000ULL;
		l->valid = true;
		return true;
	case pt_ipc_full:
		l->ip = p->ip;
		l->valid = true;
		return true;
	default:
		return false;	/* suppressed */
	}
	return l->valid;
}

static void count_ip(struct pts_scope_evidence *ev, uint64_t ip)
{
	if (ip >> 63)
		ev->kernel_ips++;
	else
		ev->user_ips++;
}

/*
 * One packet's evidence: its type and, for TIP, TIP.PGE, TIP.PGD and FUP, its
 * IP payload. Inline, as last_ip_update: the scan takes every IP packet.
 */
static inline void take(enum pt_packet_type type, const struct pt_packet_ip *ip,
			struct last_ip *last, struct pts_scope_evidence *ev)
{
	switch (type) {
	case ppt_psb:
		ev->psbs++;
		/* PSB and OVF leave no last IP */
		/* fall through */
	case ppt_ovf:
		last->ip = 0;
		last->valid = false;
		break;
	case ppt_tip_pge:
		ev->pge++;
		/* fall through */
	case ppt_tip:
	case ppt_fup:
		if (last_ip_update(last, ip))
			count_ip(ev, last->ip);
		break;
	case ppt_tip_pgd:
		ev->pgd++;
		last_ip_update(last, ip);
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
 * A packet pts_pt_step stepped over (n bytes at p): the IP packets by bits
 * 4:0 of their opcode (no other stepped packet has those), PSB and OVF by
 * their second byte; the rest (PAD, TNT, TSC, MTC, MODE...) carries no
 * evidence.
 */
static void take_stepped(const uint8_t *p, size_t n, struct last_ip *last,
			 struct pts_scope_evidence *ev)
{
	struct pt_packet_ip ip;
	size_t i;

	if (p[0] == 0x02) {
		if (p[1] == 0x82)
			take(ppt_psb, NULL, last, ev);
		else if (p[1] == 0xf3)
			take(ppt_ovf, NULL, last, ev);
		return;
	}
	if (!ip_type[p[0] & 0x1f])
		return;
	/* the IP bytes, little-endian, as libipt reads them (IPBytes is bits 7:5) */
	ip.ipc = (enum pt_ip_compression)(p[0] >> 5);
	ip.ip = 0;
	for (i = n - 1; i; i--)
		ip.ip = ip.ip << 8 | p[i];
	take(ip_type[p[0] & 0x1f], &ip, last, ev);
}

/*
 * Bytes of the packets that carry no evidence by their first byte, 0 for
 * the others: the length pts_pt_step takes from the opcode alone (not the
 * 02 and MODE packets, whose second byte says), unless it is an IP packet
 * (ip_type). Most packets of a trace (TNT, TSC, MTC, PAD) are such.
 */
static void quiet_lens(uint8_t quiet[256])
{
	unsigned int op;

	for (op = 0; op < 256; op++) {
		uint8_t n = pts_pt_first_len[op];

		quiet[op] = n == PTS_PT_EXT || n == PTS_PT_MOD || ip_type[op & 0x1f] ? 0 : n;
	}
}

/*
 * Step over the packets without evidence from off on, as the scan's loop
 * would one by one (take_stepped takes nothing from them), but in a row:
 * returns the offset of the first other packet (or len), *prev that of
 * the packet before it when one was stepped over.
 */
static uint64_t skip_quiet(const uint8_t *buf, size_t len, const uint8_t quiet[256],
			   uint64_t off, uint64_t *prev)
{
	size_t n;

	while (off < len && (n = quiet[buf[off]]) && n <= len - off) {
		*prev = off;
		off += n;
	}
	return off;
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
		take(pkt.type, &pkt.payload.ip, last, ev);
	}
	return pt_pkt_get_offset(dec, off);
}

int pts_scope_scan(const uint8_t *buf, size_t len, struct pts_scope_evidence *ev)
{
	struct pt_packet_decoder *dec;
	struct last_ip last = { 0 };
	uint8_t quiet[256];
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
	quiet_lens(quiet);
	rc = pt_pkt_sync_forward(dec);
	if (rc >= 0)
		rc = pt_pkt_get_offset(dec, &off);
	/* the common packets stepped over here, libipt asked for the others */
	while (rc >= 0 && off < len && !(ev->user_ips && ev->kernel_ips)) {
		size_t n;
		uint64_t at;

		off = skip_quiet(buf, len, quiet, off, &prev);
		if (off >= len)
			break;
		n = pts_pt_step(buf + off, len - off);
		at = off;
		if (n) {
			take_stepped(buf + off, n, &last, ev);
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
