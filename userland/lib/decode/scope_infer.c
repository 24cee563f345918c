// SPDX-License-Identifier: GPL-2.0
/* The scope of a raw trace, from the addresses in its packets (scope_infer.h). */
#include "scope_infer.h"

#include <errno.h>
#include <inttypes.h>
#include <intel-pt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "pt_cpu.h"
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
 * One scan of a buffer (len bytes at buf) by parts: where it is (off, and
 * prev, the packet before), its last IP, its decoder for the packets
 * stepped over by libipt, and the evidence it found. Done when rc < 0 or
 * off reaches len.
 */
struct scan {
	const uint8_t *buf;
	size_t len;
	struct pt_packet_decoder *dec;
	uint64_t off, prev;
	struct last_ip last;
	int rc;
	struct pts_scope_evidence ev;
};

/* Both halves seen, by s or in the evidence before it (seen). */
static inline bool both_halves(const struct pts_scope_evidence *seen, const struct scan *s)
{
	return (seen->user_ips || s->ev.user_ips) && (seen->kernel_ips || s->ev.kernel_ips);
}

static inline bool scan_more(const struct scan *s)
{
	return s->rc >= 0 && s->off < s->len;
}

/*
 * The packet at s's off when it is one of the table plain's and whole in
 * the buffer: its entry (its length, PLAIN_IP for an IP packet); else 0.
 */
static inline uint8_t plain_at(const struct scan *s, const uint8_t plain[256])
{
	uint8_t n;

	if (s->off >= s->len)
		return 0;
	n = plain[s->buf[s->off]];
	return (n & ~PLAIN_IP) <= s->len - s->off ? n : 0;
}

/* Take the packet at s's off whose plain_at is n (not 0), s moved past it. */
static inline void plain_take(struct scan *s, uint8_t n)
{
	s->prev = s->off;
	s->off += n & ~PLAIN_IP;
	if (n & PLAIN_IP)
		take_ip(s->buf + s->prev, s->off - s->prev, &s->last, &s->ev);
}

/*
 * Take the packets of the table plain in a row from s's off on, as the
 * scan's loop would one by one; stop after the one that showed both
 * halves (with seen), at the first other packet, or at the end.
 */
static void run_plain(struct scan *s, const uint8_t plain[256],
		      const struct pts_scope_evidence *seen)
{
	uint8_t n;

	while ((n = plain_at(s, plain))) {
		plain_take(s, n);
		if ((n & PLAIN_IP) && both_halves(seen, s))
			break;
	}
}

/*
 * run_plain of two scans in step, while each is at a packet of the table
 * plain: two chains of loads (a packet's first byte, its length, the next
 * packet's offset) that the CPU runs side by side, where one scan's packets
 * wait each for the one before. Stops when either is at another packet or
 * at its end, or when the two together (with seen's) showed both halves.
 */
static void run_plain2(struct scan *a, struct scan *b, const uint8_t plain[256],
		       const struct pts_scope_evidence *seen)
{
	uint8_t na, nb;

	while ((na = plain_at(a, plain)) && (nb = plain_at(b, plain))) {
		plain_take(a, na);
		plain_take(b, nb);
		if (((na | nb) & PLAIN_IP) &&
		    (seen->user_ips | a->ev.user_ips | b->ev.user_ips) &&
		    (seen->kernel_ips | a->ev.kernel_ips | b->ev.kernel_ips))
			break;
	}
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

/*
 * s at the first PSB of len bytes at buf (a decoder of its own, with the
 * CPU's errata, NULL: none); -ENOMEM.
 */
static int scan_start(struct scan *s, const uint8_t *buf, size_t len,
		      const struct pt_errata *errata)
{
	memset(s, 0, sizeof(*s));
	s->buf = buf;
	s->len = len;
	s->dec = pts_pt_pkt_decoder(buf, len, errata);
	if (!s->dec)
		return -ENOMEM;
	s->rc = pt_pkt_sync_forward(s->dec);
	if (s->rc >= 0)
		s->rc = pt_pkt_get_offset(s->dec, &s->off);
	return 0;
}

/* Take the packet at s's off that is not one of run_plain's (nor the end). */
static void scan_other(struct scan *s)
{
	size_t n = pts_pt_step(s->buf + s->off, s->len - s->off);
	uint64_t at = s->off;

	if (n) {
		take_stepped(s->buf + s->off, &s->last, &s->ev);
		s->off += n;
	} else {
		s->rc = take_libipt(s->dec, s->prev, &s->off, &s->last, &s->ev);
	}
	s->prev = at;
}

/* s to its end, or up to both halves seen (by s or in seen). */
static void scan_rest(struct scan *s, const uint8_t plain[256],
		      const struct pts_scope_evidence *seen)
{
	/* the common packets stepped over here, libipt asked for the others */
	while (scan_more(s) && !both_halves(seen, s)) {
		run_plain(s, plain, seen);
		if (s->off >= s->len || both_halves(seen, s))
			break;
		scan_other(s);
	}
}

/* s's evidence added to ev, its decoder freed. */
static void scan_end(struct scan *s, struct pts_scope_evidence *ev)
{
	ev->user_ips += s->ev.user_ips;
	ev->kernel_ips += s->ev.kernel_ips;
	ev->pge += s->ev.pge;
	ev->pgd += s->ev.pgd;
	ev->psbs += s->ev.psbs;
	pt_pkt_free_decoder(s->dec);
}

int pts_scope_scan(const uint8_t *buf, size_t len, const struct pt_errata *errata,
		   struct pts_scope_evidence *ev)
{
	uint8_t plain[256];
	struct scan s;

	if (!len)
		return 0;
	if (scan_start(&s, buf, len, errata))
		return -ENOMEM;
	plain_lens(plain);
	scan_rest(&s, plain, ev);
	scan_end(&s, ev);
	return 0;
}

int pts_scope_scan_pair(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
			const struct pt_errata *errata, struct pts_scope_evidence *ev)
{
	uint8_t plain[256];
	struct scan sa, sb;

	if (!alen || !blen)
		return pts_scope_scan(alen ? a : b, alen ? alen : blen, errata, ev);
	if (scan_start(&sa, a, alen, errata))
		return -ENOMEM;
	if (scan_start(&sb, b, blen, errata)) {
		pt_pkt_free_decoder(sa.dec);
		return -ENOMEM;
	}
	plain_lens(plain);
	while (scan_more(&sa) && scan_more(&sb)) {
		run_plain2(&sa, &sb, plain, ev);
		if ((ev->user_ips | sa.ev.user_ips | sb.ev.user_ips) &&
		    (ev->kernel_ips | sa.ev.kernel_ips | sb.ev.kernel_ips))
			break;
		/* the one at another packet takes it (both may be) */
		if (sa.off < sa.len && !plain_at(&sa, plain))
			scan_other(&sa);
		if (scan_more(&sb) && !plain_at(&sb, plain))
			scan_other(&sb);
	}
	/* the one left, alone */
	{
		struct pts_scope_evidence seen = *ev;

		seen.user_ips += sa.ev.user_ips + sb.ev.user_ips;
		seen.kernel_ips += sa.ev.kernel_ips + sb.ev.kernel_ips;
		if (!(seen.user_ips && seen.kernel_ips)) {
			if (scan_more(&sa))
				scan_rest(&sa, plain, &seen);
			else if (scan_more(&sb))
				scan_rest(&sb, plain, &seen);
		}
	}
	scan_end(&sa, ev);
	scan_end(&sb, ev);
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
