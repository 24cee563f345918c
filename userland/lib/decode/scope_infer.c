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

/*
 * run_plain's table: by a packet's first byte, its length (bits 7:0) and
 * what it does to the evidence (bits 15:8), so that an IP packet is taken
 * without a branch on its kind: in a trace, TNT and IP packets come in no
 * order a branch predictor learns, and a branch per packet cost more than
 * the work it saved.
 */
#define PLAIN_LEN 0xff
#define PLAIN_SETS (1u << 8)	/* IPBytes 3 or 6: gives the IP's half (bit 47 or 63) */
#define PLAIN_UPDATE (1u << 9)	/* IPBytes 1, 2, 4: gives an IP where the last one is */
#define PLAIN_COUNTS (1u << 10)	/* TIP, TIP.PGE, FUP: an IP given counts (not TIP.PGD's) */
#define PLAIN_PGE (1u << 11)
#define PLAIN_PGD (1u << 12)

/*
 * The packets run_plain takes by their first byte: the length pts_pt_step
 * takes from the opcode alone (not the 02 and MODE packets, whose second
 * byte says) and, for the IP packets (ip_type), what they give (take);
 * 0 for the others. Nearly every packet of a trace (TNT, TSC, MTC, PAD,
 * TIP, FUP) is such.
 */
static void plain_lens(uint16_t plain[256])
{
	unsigned int op;

	for (op = 0; op < 256; op++) {
		uint8_t n = pts_pt_first_len[op];
		enum pt_packet_type type = ip_type[op & 0x1f];
		unsigned int ipc = op >> 5;

		if (n == PTS_PT_EXT || n == PTS_PT_MOD || !n) {
			plain[op] = 0;
			continue;
		}
		plain[op] = n;
		if (!type)
			continue;
		if (ipc == pt_ipc_sext_48 || ipc == pt_ipc_full)
			plain[op] |= PLAIN_SETS;
		else if (ipc != pt_ipc_suppressed)
			plain[op] |= PLAIN_UPDATE;
		if (type != ppt_tip_pgd)
			plain[op] |= PLAIN_COUNTS;
		if (type == ppt_tip_pge)
			plain[op] |= PLAIN_PGE;
		if (type == ppt_tip_pgd)
			plain[op] |= PLAIN_PGD;
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

static inline bool scan_more(const struct scan *s)
{
	return s->rc >= 0 && s->off < s->len;
}

/*
 * The packet at off of buf[0, len) when it is one of the table plain's
 * and whole in the buffer: its entry; else 0.
 */
static inline unsigned int plain_at(const uint8_t *buf, uint64_t len, uint64_t off,
				    const uint16_t plain[256])
{
	unsigned int e;

	if (off >= len)
		return 0;
	e = plain[buf[off]];
	return (e & PLAIN_LEN) <= len - off ? e : 0;
}

/* Both halves seen, in seen or by any of the k scans s[0, k). */
static inline bool halves_seen(const struct pts_scope_evidence *seen, struct scan *const *s,
			       unsigned int k)
{
	uint64_t user = seen->user_ips, kernel = seen->kernel_ips;
	unsigned int i;

	for (i = 0; i < k; i++) {
		user |= s[i]->ev.user_ips;
		kernel |= s[i]->ev.kernel_ips;
	}
	return user && kernel;
}

/*
 * Take the packets of the table plain of k scans s[0, k) in step, as each
 * scan's loop would one by one (k a constant once inlined: a loop for
 * each). k chains of loads (a packet's first byte, its entry, the next
 * packet's offset) that the CPU runs side by side, where one scan's
 * packets wait each for the one before; every packet is taken as an IP
 * packet, by its entry's flags (none for the others: it adds 0). Stops
 * after the packets that showed both halves (all together, with seen's),
 * when any scan is at another packet, or at its end.
 */
static inline __attribute__((always_inline)) void
run_plain(struct scan *const *s, const unsigned int k, const uint16_t plain[256],
	  const struct pts_scope_evidence *seen)
{
	const uint8_t *buf[PTS_SCOPE_CHAINS];
	uint64_t off[PTS_SCOPE_CHAINS], prev[PTS_SCOPE_CHAINS], len[PTS_SCOPE_CHAINS];
	/* the last IP (valid, its half) and the evidence, out of the scans meanwhile */
	uint64_t valid[PTS_SCOPE_CHAINS], kernel[PTS_SCOPE_CHAINS];
	uint64_t ips[PTS_SCOPE_CHAINS], kips[PTS_SCOPE_CHAINS], pge[PTS_SCOPE_CHAINS],
		 pgd[PTS_SCOPE_CHAINS];
	uint64_t user = seen->user_ips, kern = seen->kernel_ips;
	unsigned int i;

#pragma GCC unroll 2
	for (i = 0; i < k; i++) {
		buf[i] = s[i]->buf;
		len[i] = s[i]->len;
		off[i] = s[i]->off;
		prev[i] = s[i]->prev;
		valid[i] = s[i]->last.valid;
		kernel[i] = s[i]->last.kernel;
		ips[i] = kips[i] = pge[i] = pgd[i] = 0;
		user |= s[i]->ev.user_ips;
		kern |= s[i]->ev.kernel_ips;
	}
	for (;;) {
		unsigned int e[PTS_SCOPE_CHAINS];
		bool go = true;

#pragma GCC unroll 2
		for (i = 0; i < k; i++) {
			e[i] = plain_at(buf[i], len[i], off[i], plain);
			go &= e[i] != 0;
		}
		if (!go)
			break;
#pragma GCC unroll 2
		for (i = 0; i < k; i++) {
			unsigned int n = e[i] & PLAIN_LEN;
			uint64_t sets = e[i] >> 8 & 1, gives, counted;

			prev[i] = off[i];
			off[i] += n;
			/* the half from the IP's top byte, where it gives one */
			if (sets)
				kernel[i] = buf[i][off[i] - 1] >> 7;
			gives = sets | (e[i] >> 9 & valid[i]);
			valid[i] |= sets;
			counted = gives & e[i] >> 10;
			ips[i] += counted;
			kips[i] += counted & kernel[i];
			pge[i] += e[i] >> 11 & 1;
			pgd[i] += e[i] >> 12 & 1;
			user |= ips[i] - kips[i];
			kern |= kips[i];
		}
		if (user && kern)
			break;
	}
#pragma GCC unroll 2
	for (i = 0; i < k; i++) {
		s[i]->off = off[i];
		s[i]->prev = prev[i];
		s[i]->last.valid = valid[i];
		s[i]->last.kernel = kernel[i];
		s[i]->ev.user_ips += ips[i] - kips[i];
		s[i]->ev.kernel_ips += kips[i];
		s[i]->ev.pge += pge[i];
		s[i]->ev.pgd += pgd[i];
	}
}

/* run_plain of s[0, k), 1 <= k <= PTS_SCOPE_CHAINS. */
static void run_plain_k(struct scan *const *s, unsigned int k, const uint16_t plain[256],
			const struct pts_scope_evidence *seen)
{
	if (k == 1)
		run_plain(s, 1, plain, seen);
	else
		run_plain(s, 2, plain, seen);
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
	return pts_scope_scan_parts(&buf, &len, 1, errata, ev);
}

int pts_scope_scan_parts(const uint8_t *const *buf, const size_t *len, unsigned int n,
			 const struct pt_errata *errata, struct pts_scope_evidence *ev)
{
	struct scan s[PTS_SCOPE_CHAINS], *go[PTS_SCOPE_CHAINS];
	struct pts_scope_evidence seen;	/* ev and the scans done */
	unsigned int i, k, m = 0;
	uint16_t plain[256];
	int rc = 0;

	/* PTS_SCOPE_CHAINS at a time */
	for (; n > PTS_SCOPE_CHAINS && !rc; n -= PTS_SCOPE_CHAINS, buf += PTS_SCOPE_CHAINS,
	     len += PTS_SCOPE_CHAINS)
		rc = pts_scope_scan_parts(buf, len, PTS_SCOPE_CHAINS, errata, ev);
	if (rc)
		return rc;
	seen = *ev;
	for (i = 0; i < n && !rc; i++) {
		if (!len[i])
			continue;
		if (scan_start(&s[m], buf[i], len[i], errata))
			rc = -ENOMEM;
		else
			m++;
	}
	plain_lens(plain);
	for (i = k = 0; i < m && !rc; i++)
		if (scan_more(&s[i]))
			go[k++] = &s[i];
	/* the common packets stepped over in step, libipt asked for the others */
	while (k && !halves_seen(&seen, go, k)) {
		unsigned int left = 0;

		run_plain_k(go, k, plain, &seen);
		if (halves_seen(&seen, go, k))
			break;
		/* the ones at another packet take it (several may be) */
		for (i = 0; i < k; i++) {
			if (go[i]->off < go[i]->len &&
			    !plain_at(go[i]->buf, go[i]->len, go[i]->off, plain))
				scan_other(go[i]);
			if (scan_more(go[i])) {
				go[left++] = go[i];
			} else {
				/* done: its evidence counts for the others' stop */
				seen.user_ips += go[i]->ev.user_ips;
				seen.kernel_ips += go[i]->ev.kernel_ips;
			}
		}
		k = left;
	}
	for (i = 0; i < m; i++)
		scan_end(&s[i], ev);
	return rc;
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
