// SPDX-License-Identifier: GPL-2.0
/* The recording CPU as libipt takes it (pt_cpu.h). */
#include "pt_cpu.h"

#include <intel-pt.h>

int pts_pt_config_cpu(struct pt_config *pc, uint16_t family, uint8_t model, uint8_t stepping)
{
	if (!family)
		return 0;
	pc->cpu.vendor = pcv_intel;
	pc->cpu.family = family;
	pc->cpu.model = model;
	pc->cpu.stepping = stepping;
	return pt_cpu_errata(&pc->errata, &pc->cpu) == -pte_bad_cpu ? -pte_bad_cpu : 0;
}

int pts_pt_errata(struct pt_errata *e, uint16_t family, uint8_t model, uint8_t stepping)
{
	struct pt_config pc;
	int rc;

	pt_config_init(&pc);
	rc = pts_pt_config_cpu(&pc, family, model, stepping);
	*e = pc.errata;
	return rc;
}

struct pt_packet_decoder *pts_pt_pkt_decoder(const uint8_t *buf, size_t size,
					     const struct pt_errata *errata)
{
	struct pt_config pc;

	pt_config_init(&pc);
	pc.begin = (uint8_t *)buf;	/* libipt only reads it */
	pc.end = (uint8_t *)buf + size;
	if (errata)
		pc.errata = *errata;
	return pt_pkt_alloc_decoder(&pc);
}
