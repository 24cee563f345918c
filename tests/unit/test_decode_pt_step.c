// SPDX-License-Identifier: GPL-2.0
/*
 * The packet stepper (decode/pt_step.h): every packet it steps over by
 * its opcode is one libipt's packet decoder reads, without error, as the
 * same number of bytes and not as CYC, for every first byte, every second
 * byte after 02 and 99, payloads of several patterns, and packets cut
 * short by the end of the trace.
 */
#include <stdio.h>
#include <string.h>

#include <intel-pt.h>

#include "unit.h"
#include "decode/pt_step.h"

/* libipt's length of the packet at buf[0, left), 0 when it is an error or a CYC. */
static size_t libipt_len(const uint8_t *buf, size_t left)
{
	struct pt_packet_decoder *pd;
	struct pt_config pc;
	struct pt_packet pkt;
	uint64_t off = 0;
	size_t n = 0;

	pt_config_init(&pc);
	pc.begin = (uint8_t *)buf;
	pc.end = (uint8_t *)buf + left;
	pd = pt_pkt_alloc_decoder(&pc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pd);
	if (pt_pkt_sync_set(pd, 0) >= 0 && pt_pkt_next(pd, &pkt, sizeof(pkt)) >= 0 &&
	    pkt.type != ppt_cyc && pt_pkt_get_offset(pd, &off) >= 0)
		n = (size_t)off;
	pt_pkt_free_decoder(pd);
	return n;
}

/* Payload bytes: zeros, ones, the PSB's pattern, or pseudo-random from seed. */
static void fill(uint8_t *buf, size_t len, unsigned int pattern, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = pattern == 0 ? 0 : pattern == 1 ? 0xff :
			 pattern == 2 ? (uint8_t)(i & 1 ? 0x82 : 0x02) : (uint8_t)(seed >> 16);
	}
}

/* The packet at buf, with 1 to cap bytes left: stepped over only as libipt reads it. */
static unsigned int check_packet(const uint8_t *buf, size_t cap)
{
	unsigned int stepped = 0;
	size_t left;

	for (left = 1; left <= cap; left++) {
		size_t n = pts_pt_plain_packet_len(buf, left), want;

		if (!n)
			continue;
		stepped++;
		want = libipt_len(buf, left);
		CU_ASSERT_EQUAL(n, want);
		if (n != want) {
			fprintf(stderr, "packet %02x %02x %02x, %zu bytes left: %zu, libipt %zu\n",
				buf[0], buf[1], buf[2], left, n, want);
			return stepped;
		}
	}
	return stepped;
}

static void every_packet_stepped_over_is_one_libipt_reads_as_long_and_not_cyc(void)
{
	uint8_t buf[24];
	unsigned int b0, b1, pat, stepped = 0;

	for (b0 = 0; b0 < 256; b0++) {
		for (pat = 0; pat < 12; pat++) {
			fill(buf, sizeof(buf), pat, b0 * 131 + pat);
			buf[0] = (uint8_t)b0;
			if (b0 != 0x02 && b0 != 0x99) {
				stepped += check_packet(buf, sizeof(buf));
				continue;
			}
			for (b1 = 0; b1 < 256; b1++) {
				buf[1] = (uint8_t)b1;
				stepped += check_packet(buf, sizeof(buf));
			}
		}
	}
	/* the common packets are stepped over (a stepper of nothing would pass the above) */
	CU_ASSERT(stepped > 256 * 12);
	CU_ASSERT_EQUAL(pts_pt_plain_packet_len((const uint8_t *)"\x0a", 1), 1);	/* TNT */
	CU_ASSERT_EQUAL(pts_pt_plain_packet_len((const uint8_t *)"\x59\x33", 2), 2);	/* MTC */
	/* a whole PSB, one with a byte wrong, one cut short */
	fill(buf, sizeof(buf), 2, 0);
	CU_ASSERT_EQUAL(pts_pt_plain_packet_len(buf, sizeof(buf)), 16);
	CU_ASSERT_EQUAL(pts_pt_plain_packet_len(buf, 15), 0);
	buf[9] = 0x83;
	CU_ASSERT_EQUAL(pts_pt_plain_packet_len(buf, sizeof(buf)), 0);
	/* CYC is never stepped over */
	for (b0 = 3; b0 < 256; b0 += 4) {
		buf[0] = (uint8_t)b0;
		CU_ASSERT_EQUAL(pts_pt_plain_packet_len(buf, sizeof(buf)), 0);
	}
}

PTS_SUITE(decode_pt_step, NULL, NULL,
	  PTS_TEST(every_packet_stepped_over_is_one_libipt_reads_as_long_and_not_cyc));
