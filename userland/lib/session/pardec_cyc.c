// SPDX-License-Identifier: GPL-2.0
/* The CYC scan of a chunk of raw PT (pardec_cyc.h). */
#include "pardec_cyc.h"

#include <intel-pt.h>

#include "../decode/pt_step.h"

/* The scan from offset off on, with libipt's packet decoder (off: where it is). */
static bool scan_libipt(struct pt_packet_decoder *pd, uint64_t *off)
{
	struct pt_packet pkt;

	if (pt_pkt_sync_set(pd, *off) < 0)
		return true;
	if (pt_pkt_next(pd, &pkt, sizeof(pkt)) < 0) {
		/* a damaged stretch: the decoders resynchronise; look on from the next PSB */
		if (pt_pkt_sync_forward(pd) < 0) {
			*off = UINT64_MAX;
			return false;
		}
	} else if (pkt.type == ppt_cyc) {
		return true;
	}
	if (pt_pkt_get_offset(pd, off) < 0)
		*off = UINT64_MAX;
	return false;
}

bool pts_pt_has_cyc(const uint8_t *buf, size_t size, uint64_t from, uint64_t to)
{
	struct pt_packet_decoder *pd = NULL;
	uint64_t off = from;
	bool found = false;

	if (from >= size)
		return true;
	while (off < to) {
		size_t n = pts_pt_step(buf + off, size - off);

		if (n) {
			off += n;
			continue;
		}
		if (!pd) {
			struct pt_config pc;

			pt_config_init(&pc);
			pc.begin = (uint8_t *)buf;	/* only read */
			pc.end = (uint8_t *)buf + size;
			pd = pt_pkt_alloc_decoder(&pc);
			if (!pd)
				return true;
		}
		found = scan_libipt(pd, &off);
		if (found)
			break;
	}
	pt_pkt_free_decoder(pd);
	return found;
}
