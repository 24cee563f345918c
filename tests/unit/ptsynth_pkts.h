/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test helpers for the ptsynth suites: feed instructions to an encoder
 * and read the stream back with libipt's packet decoder (pt_pkt_*), an
 * implementation independent of ours, so that tests assert on packets
 * as a decoder sees them.
 */
#ifndef PTS_TEST_PTSYNTH_PKTS_H
#define PTS_TEST_PTSYNTH_PKTS_H

#include <intel-pt.h>
#include <stdlib.h>
#include <string.h>

#include "ptsynth_enc.h"

#define PKTS_MAX 4096

struct pkts {
	struct pt_packet p[PKTS_MAX];
	uint64_t off[PKTS_MAX];
	size_t n;
};

/* Decode every packet of the encoder's stream from offset 0. Returns the
 * packet count, or a negative libipt error. */
static inline int pkts_read(const struct ptsynth_enc *e, struct pkts *out)
{
	struct pt_packet_decoder *d;
	struct pt_config cfg;
	size_t len;
	const uint8_t *data = ptsynth_enc_data(e, &len);
	uint8_t *copy = calloc(1, len + 32);
	int st;

	out->n = 0;
	if (!copy)
		return -pte_nomem;
	memcpy(copy, data, len);
	pt_config_init(&cfg);
	cfg.begin = copy;
	cfg.end = copy + len;
	d = pt_pkt_alloc_decoder(&cfg);
	st = pt_pkt_sync_set(d, 0);
	while (st >= 0 && out->n < PKTS_MAX) {
		pt_pkt_get_offset(d, &out->off[out->n]);
		st = pt_pkt_next(d, &out->p[out->n], sizeof(out->p[0]));
		if (st >= 0)
			out->n++;
	}
	pt_pkt_free_decoder(d);
	free(copy);
	return st == -pte_eos ? (int)out->n : st;
}

/* Index of the first packet of `type` at or after `from`, or -1. */
static inline int pkts_find(const struct pkts *k, enum pt_packet_type type, size_t from)
{
	for (size_t i = from; i < k->n; i++)
		if (k->p[i].type == type)
			return (int)i;
	return -1;
}

static inline size_t pkts_count(const struct pkts *k, enum pt_packet_type type)
{
	size_t c = 0;

	for (size_t i = 0; i < k->n; i++)
		c += k->p[i].type == type;
	return c;
}

/* A user-mode instruction record. */
static inline struct ptsynth_insn insn(uint64_t ip, uint8_t size, enum ptsynth_iclass c,
				       uint64_t next)
{
	struct ptsynth_insn in = { .ip = ip, .next_ip = next, .tsc = 1000, .iclass = c,
				   .size = size, .ring = 3, .next_ring = 3 };
	return in;
}

/* Default config without timing packets, so streams hold only flow packets
 * and the PSB+ headers. */
static inline void cfg_plain(struct ptsynth_config *c)
{
	ptsynth_config_default(c);
	c->tsc_en = false;
	c->mtc_en = false;
}

#endif
