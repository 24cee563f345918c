// SPDX-License-Identifier: GPL-2.0
/* The scope of a raw trace, from the addresses in its packets (scope_infer.h). */
#include "scope_infer.h"

#include <errno.h>
#include <inttypes.h>
#include <intel-pt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The last IP of SDM §33.4.2.2: packets with IPBytes 1, 2, 4 update its low bits. */
struct last_ip {
	uint64_t ip;
	bool valid;
};

/* Apply one IP payload; true when it gives an IP (not suppressed, base known). */
static bool last_ip_update(struct last_ip *l, const struct pt_packet_ip *p)
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

int pts_scope_scan(const uint8_t *buf, size_t len, struct pts_scope_evidence *ev)
{
	struct pt_packet_decoder *dec;
	struct last_ip last = { 0 };
	struct pt_config cfg;
	struct pt_packet pkt;
	int rc;

	if (!len)
		return 0;
	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	dec = pt_pkt_alloc_decoder(&cfg);
	if (!dec)
		return -ENOMEM;
	rc = pt_pkt_sync_forward(dec);
	while (rc >= 0 && !(ev->user_ips && ev->kernel_ips)) {
		rc = pt_pkt_next(dec, &pkt, sizeof(pkt));
		if (rc < 0) {
			/* a damaged packet: go on from the next PSB, as the decoder does */
			if (rc != -pte_eos)
				rc = pt_pkt_sync_forward(dec);
			last.valid = false;
			continue;
		}
		switch (pkt.type) {
		case ppt_psb:
			ev->psbs++;
			/* PSB and OVF leave no last IP */
			/* fall through */
		case ppt_ovf:
			last.ip = 0;
			last.valid = false;
			break;
		case ppt_tip_pge:
			ev->pge++;
			/* fall through */
		case ppt_tip:
		case ppt_fup:
			if (last_ip_update(&last, &pkt.payload.ip))
				count_ip(ev, last.ip);
			break;
		case ppt_tip_pgd:
			ev->pgd++;
			last_ip_update(&last, &pkt.payload.ip);
			break;
		default:
			break;
		}
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
