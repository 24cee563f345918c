// SPDX-License-Identifier: GPL-2.0
/*
 * The CYC scan of a parallel decode's chunk (session/pardec_cyc.h) sees
 * the packets libipt's packet decoder reads: every packet it steps over
 * by its opcode is one libipt reads, without error, as the same number
 * of bytes and not as CYC (every first byte, every second byte of an
 * extended opcode, payloads of every pattern below, packets cut short by
 * the end), and its answer on streams of packets and damage is the one
 * of a scan with libipt alone, pt_pkt_next per packet, both with or
 * without a CPU's errata. The scan in parts (pardec_cyc.h), the parts
 * split at any of a stream's PSBs and read in step, answers as the scan
 * of the whole stream in one piece, and finds the same events held.
 */
#include <stdlib.h>
#include <string.h>

#include <intel-pt.h>

#include "unit.h"
#include "skz84_tma.h"
#include "session/pardec_cyc.h"
#include "session/pardec_hold.h"

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

/* Payload patterns after the opcode byte(s). */
static void fill(uint8_t *buf, size_t len, unsigned int pattern, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++) {
		switch (pattern) {
		case 0:
			buf[i] = 0;
			break;
		case 1:
			buf[i] = 0xff;
			break;
		case 2:
			buf[i] = (uint8_t)(i & 1 ? 0x82 : 0x02);	/* PSB-like */
			break;
		default:
			seed = seed * 1103515245u + 12345u;
			buf[i] = (uint8_t)(seed >> 16);
		}
	}
}

static void check_packet(const uint8_t *buf, size_t cap)
{
	size_t left;

	for (left = 1; left <= cap; left++) {
		size_t n = pts_pt_plain_packet_len(buf, left);

		if (!n)
			continue;
		CU_ASSERT_EQUAL(n, libipt_len(buf, left));
		if (n != libipt_len(buf, left)) {
			fprintf(stderr, "packet %02x %02x %02x, %zu bytes left: %zu, libipt %zu\n",
				buf[0], buf[1], buf[2], left, n, libipt_len(buf, left));
			return;
		}
	}
}

static void every_packet_stepped_over_is_one_libipt_reads_as_long_and_not_cyc(void)
{
	uint8_t buf[24];
	unsigned int b0, b1, pat;

	for (b0 = 0; b0 < 256; b0++) {
		for (pat = 0; pat < 12; pat++) {
			fill(buf, sizeof(buf), pat, b0 * 131 + pat);
			buf[0] = (uint8_t)b0;
			if (b0 != 2) {
				check_packet(buf, sizeof(buf));
				continue;
			}
			for (b1 = 0; b1 < 256; b1++) {
				buf[1] = (uint8_t)b1;
				check_packet(buf, sizeof(buf));
			}
		}
	}
	/* a whole PSB, and one with a byte wrong */
	fill(buf, sizeof(buf), 2, 0);
	check_packet(buf, sizeof(buf));
	CU_ASSERT_EQUAL(pts_pt_plain_packet_len(buf, sizeof(buf)), 16);
	buf[9] = 0x83;
	CU_ASSERT_EQUAL(pts_pt_plain_packet_len(buf, sizeof(buf)), 0);
}

/* The scan with libipt alone: the reference. */
static bool libipt_has_cyc(const uint8_t *buf, size_t size, uint64_t from, uint64_t to,
			   const struct pt_errata *errata)
{
	struct pt_packet_decoder *pd;
	struct pt_config pc;
	struct pt_packet pkt;
	bool found = false;

	pt_config_init(&pc);
	pc.begin = (uint8_t *)buf;
	pc.end = (uint8_t *)buf + size;
	if (errata)
		pc.errata = *errata;
	pd = pt_pkt_alloc_decoder(&pc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pd);
	if (pt_pkt_sync_set(pd, from) < 0) {
		pt_pkt_free_decoder(pd);
		return true;
	}
	for (;;) {
		uint64_t off = 0;

		if (pt_pkt_get_offset(pd, &off) < 0 || off >= to)
			break;
		if (pt_pkt_next(pd, &pkt, sizeof(pkt)) < 0) {
			if (pt_pkt_sync_forward(pd) < 0)
				break;
			continue;
		}
		if (pkt.type == ppt_cyc) {
			found = true;
			break;
		}
	}
	pt_pkt_free_decoder(pd);
	return found;
}

/*
 * A stream of packets: of mod kinds (by a generator from seed), psbs of
 * them a PSB, then a CYC (when cyc), a stray byte (damage), and the rest
 * from pkts (each its length, then its bytes); a 9-byte packet is a TIP
 * whose IP is the first half of a PSB, which it is followed by.
 */
struct mix {
	const uint8_t (*pkts)[12];
	unsigned int npkts, mod, psbs;
};

static size_t gen_mix(uint8_t *buf, size_t cap, unsigned int seed, bool cyc, const struct mix *m)
{
	size_t n = 0;

	while (n + 32 < cap) {
		unsigned int k;

		seed = seed * 1103515245u + 12345u;
		k = (seed >> 16) % m->mod;
		if (k < m->psbs) {
			memcpy(buf + n, pts_pt_psb, sizeof(pts_pt_psb));
			n += sizeof(pts_pt_psb);
		} else if (k == m->psbs && cyc) {
			buf[n++] = 0x07;	/* CYC, one more byte */
			buf[n++] = 0x10;
		} else if (k == m->psbs + 1) {
			buf[n++] = (uint8_t)(seed >> 8);	/* a stray byte */
		} else {
			const uint8_t *p = m->pkts[k % m->npkts];

			memcpy(buf + n, p + 1, p[0]);
			n += p[0];
			if (p[0] == 9) {
				memcpy(buf + n, pts_pt_psb, sizeof(pts_pt_psb));
				n += sizeof(pts_pt_psb);
			}
		}
	}
	return n;
}

/* Packets a trace is made of, a CYC and damage among them now and then. */
static size_t gen_stream(uint8_t *buf, size_t cap, unsigned int seed, bool cyc)
{
	static const uint8_t pkts[][12] = {
		{ 1, 0x00 },				/* PAD */
		{ 1, 0x0a },				/* TNT */
		{ 7, 0x6d, 1, 2, 3, 4, 5, 6 },		/* TIP, 6 bytes */
		{ 3, 0x2d, 0x10, 0x20 },		/* TIP, 2 bytes */
		{ 8, 0x19, 1, 2, 3, 4, 5, 6, 7 },	/* TSC */
		{ 2, 0x59, 0x33 },			/* MTC */
		{ 2, 0x99, 0x01 },			/* MODE.Exec */
		{ 2, 0x02, 0x23 },			/* PSBEND */
		{ 4, 0x02, 0x03, 0x1c, 0 },		/* CBR */
		{ 7, 0x02, 0x73, 1, 2, 0, 3, 0 },	/* TMA */
		{ 1, 0xbd },				/* TIP, reserved IP compression */
		{ 2, 0x99, 0xe0 },			/* MODE, reserved leaf */
	};
	static const struct mix m = { pkts, sizeof(pkts) / sizeof(pkts[0]), 64, 2 };

	return gen_mix(buf, cap, seed, cyc, &m);
}

static void the_scan_answers_as_libipt_alone_on_packets_and_damage(void)
{
	static uint8_t buf[4096 + 64];
	struct pt_errata skx = skylake_server_errata();
	const struct pt_errata *errata[] = { NULL, &skx };
	unsigned int seed, k;

	for (seed = 1; seed <= 400; seed++) {
		size_t size = gen_stream(buf, 4096, seed, seed % 3 == 0);
		uint64_t from = 0, to = size - seed % 50;

		memset(buf + size, 0, 64);
		for (k = 0; k < 2; k++) {
			from = 0;
			CU_ASSERT_EQUAL(pts_pt_has_cyc(buf, size, from, to, errata[k]),
					libipt_has_cyc(buf, size, from, to, errata[k]));
			from = seed % 40;
			CU_ASSERT_EQUAL(pts_pt_has_cyc(buf, size, from, to, errata[k]),
					libipt_has_cyc(buf, size, from, to, errata[k]));
		}
	}
}

/*
 * A PSB+ whose TMA has a reserved bit set (FC bit 9), then a CYC. libipt
 * reads the TMA as damage (pte_bad_packet), or, for a CPU with erratum
 * SKZ84, passes over it and the byte after it (here a PAD) as an invalid
 * packet (pt_pkt_decode_tma; the query decoder likewise) and reads the
 * PSBEND and the CYC. The scan, told the errata the decoders are given,
 * finds the CYC; without errata there is no PSB to resynchronise at
 * after the TMA, and no CYC (fuzz finding 21: a Skylake server's trace
 * whose every PSB+ had such a TMA was scanned as holding no CYC, and
 * joined).
 */
static void a_cyc_behind_a_tma_passed_over_for_skz84_is_found(void)
{
	static const uint8_t tma_cyc[] = {
		SKZ84_PSB, SKZ84_TSC(0x10), SKZ84_TMA_PAD, SKZ84_PSBEND,
		0x07, 0x10,						/* CYC */
		0x00, 0x00,						/* PAD */
	};
	struct pt_errata skx = skylake_server_errata();
	size_t size = sizeof(tma_cyc);

	CU_ASSERT_TRUE(libipt_has_cyc(tma_cyc, size, 0, size, &skx));
	CU_ASSERT_TRUE(pts_pt_has_cyc(tma_cyc, size, 0, size, &skx));
	CU_ASSERT_FALSE(libipt_has_cyc(tma_cyc, size, 0, size, NULL));
	CU_ASSERT_FALSE(pts_pt_has_cyc(tma_cyc, size, 0, size, NULL));
}

/*
 * A damaged packet that swallowed the start of a PSB: a TIP whose six IP
 * bytes are the PSB's first six, five more 02 82 pairs, a PSBEND and a
 * CYC. libipt's packet decoder, reading on, finds the PSB that began
 * inside the TIP (pt_pkt_sync_forward looks back 15 bytes) and reads the
 * CYC behind it; the scan must find it as well.
 */
static void a_psb_begun_inside_the_damaged_packet_is_found(void)
{
	static const uint8_t psb_tip_psb[] = {
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,		/* PSB */
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
		0x02, 0x23,						/* PSBEND */
		0x6d, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,		/* TIP, 6 bytes */
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
		0x02, 0x23,						/* PSBEND */
		0x07, 0x10,						/* CYC */
		0x00, 0x00,						/* PAD */
	};
	size_t size = sizeof(psb_tip_psb);

	CU_ASSERT_TRUE(libipt_has_cyc(psb_tip_psb, size, 0, size, NULL));
	CU_ASSERT_TRUE(pts_pt_has_cyc(psb_tip_psb, size, 0, size, NULL));
}

/*
 * A trace whose only CYC is the first packet after its second PSB, and
 * one whose only CYC is just before it: in two parts split at that PSB,
 * the scan finds each, in the second part and in the first.
 */
static void a_cyc_at_either_side_of_the_split_psb_is_found(void)
{
	static const uint8_t after[] = {
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,		/* PSB */
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
		0x02, 0x23, 0x0a, 0x0a,					/* PSBEND, TNT, TNT */
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,		/* PSB, at 20 */
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
		0x07, 0x10, 0x02, 0x23, 0x0a, 0x00,			/* CYC, PSBEND, TNT, PAD */
	};
	uint8_t before[sizeof(after)];
	const uint8_t *buf[] = { after, before };
	unsigned int k;

	/* the CYC moved before the PSB: PSBEND, CYC, then the PSB at 20 */
	memcpy(before, after, sizeof(after));
	before[18] = 0x07;
	before[19] = 0x10;
	before[36] = 0x0a;
	before[37] = 0x0a;
	for (k = 0; k < 2; k++) {
		struct pts_pt_cyc_part part[2] = {
			{ .from = 0, .to = 20 },
			{ .from = 20, .to = sizeof(after) },
		};
		struct pts_pt_hold h;

		CU_ASSERT_TRUE(libipt_has_cyc(buf[k], sizeof(after), 0, sizeof(after), NULL));
		pts_pt_cyc_parts_scan(buf[k], sizeof(after), false, NULL, part, 2);
		CU_ASSERT_EQUAL(part[0].cyc, k == 1);
		CU_ASSERT_EQUAL(part[1].cyc, k == 0);
		CU_ASSERT_EQUAL(part[0].at, k == 1 ? 18 : 20);
		pts_pt_hold_init(&h);
		CU_ASSERT_TRUE(pts_pt_cyc_parts_join(buf[k], sizeof(after), false, NULL, part, 2,
						     &h));
		pts_pt_cyc_parts_free(part, 2);
		pts_pt_hold_free(&h);
	}
}

/* The scan in pieces of 1 to 64 bytes (a trace's, in pieces of a MiB) answers as one scan. */
static void the_scan_in_pieces_answers_as_one_scan(void)
{
	static uint8_t buf[4096 + 64];
	unsigned int seed;

	for (seed = 1; seed <= 400; seed++) {
		size_t size = gen_stream(buf, 4096, seed, seed % 3 == 0);
		uint64_t off = 0, prev = 0, piece = 1 + seed % 64;
		bool found = false;

		memset(buf + size, 0, 64);
		while (!found && off < size)
			found = pts_pt_scan_cyc(buf, size, &off, &prev,
						size - off > piece ? off + piece : size, NULL, NULL);
		CU_ASSERT_EQUAL(found, libipt_has_cyc(buf, size, 0, size, NULL));
	}
}

/*
 * Packets whose events libipt holds for a later packet (pardec_hold.h),
 * PSBs, CYC and damage, PSBs that begin inside a packet: streams where
 * parts split at the PSBs meet every case of the join.
 */
static size_t gen_held_stream(uint8_t *buf, size_t cap, unsigned int seed, bool cyc)
{
	static const uint8_t pkts[][12] = {
		{ 1, 0x0a },					/* TNT */
		{ 1, 0x0a },
		{ 1, 0x00 },					/* PAD */
		{ 7, 0x6d, 1, 2, 3, 4, 5, 6 },			/* TIP */
		{ 7, 0x7d, 0x10, 0x20, 0x40, 0, 0, 0 },		/* FUP */
		{ 7, 0x71, 0x10, 0x20, 0x40, 0, 0, 0 },		/* TIP.PGE */
		{ 1, 0x01 },					/* TIP.PGD, no IP */
		{ 2, 0x99, 0x01 },				/* MODE.Exec */
		{ 2, 0x99, 0x20 },				/* MODE.TSX */
		{ 6, 0x02, 0x92, 1, 2, 3, 4 },			/* PTWRITE with IP */
		{ 2, 0x02, 0xe2 },				/* EXSTOP with IP */
		{ 2, 0x02, 0xf3 },				/* OVF */
		{ 2, 0x02, 0x23 },				/* PSBEND */
		{ 2, 0x59, 0x33 },				/* MTC */
		{ 8, 0x19, 1, 2, 3, 4, 5, 6, 7 },		/* TSC */
		{ 1, 0xbd },					/* TIP, reserved IP compression */
		/* TIP whose 8 IP bytes are the first half of the PSB after it */
		{ 9, 0xcd, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82 },
	};
	static const struct mix m = { pkts, sizeof(pkts) / sizeof(pkts[0]), 48, 5 };

	return gen_mix(buf, cap, seed, cyc, &m);
}

/* Every PSB of buf[0, size) (also those that begin inside a packet); their count. */
static size_t psbs_of(const uint8_t *buf, size_t size, uint64_t *psb, size_t cap)
{
	uint64_t at = 0;
	size_t n = 0;

	while (n < cap && (at = pts_pt_psb_from(buf, size, at)) < size)
		psb[n++] = at++;
	return n;
}

/* The scan of buf[0, size) from its first PSB in one piece: the answer, held stretches in h. */
static bool whole_scan(const uint8_t *buf, size_t size, const struct pt_errata *errata,
		       struct pts_pt_hold *h)
{
	uint64_t off = pts_pt_psb_from(buf, size, 0), prev = off;
	bool cyc;

	pts_pt_hold_init(h);
	cyc = pts_pt_scan_cyc(buf, size, &off, &prev, size, errata, h);
	if (!cyc)
		pts_pt_hold_end(h, size);
	return cyc;
}

/*
 * The scan of buf[0, size) in the n parts that begin at at[0, n - 1)
 * (each read from its first PSB), read in step, and joined: as
 * whole_scan, and held stretches alike.
 */
static bool parts_as_whole(const uint8_t *buf, size_t size, const struct pt_errata *errata,
			   const uint64_t *at, unsigned int n, bool whole,
			   const struct pts_pt_hold *wh)
{
	struct pts_pt_cyc_part part[PTS_PT_CYC_CHAINS];
	struct pts_pt_hold h;
	unsigned int i;
	bool cyc, same;

	for (i = 0; i < n; i++)
		part[i] = (struct pts_pt_cyc_part){ .from = i ? at[i - 1] : 0,
						    .to = i + 1 < n ? at[i] : size };
	pts_pt_cyc_parts_scan(buf, size, false, errata, part, n);
	pts_pt_hold_init(&h);
	cyc = pts_pt_cyc_parts_join(buf, size, false, errata, part, n, &h);
	pts_pt_cyc_parts_free(part, n);
	same = cyc == whole;
	if (same && !cyc)
		same = h.n == wh->n && h.nomem == wh->nomem &&
		       !memcmp(h.held, wh->held, h.n * sizeof(h.held[0]));
	pts_pt_hold_free(&h);
	return same;
}

static void the_scan_in_parts_split_anywhere_answers_and_holds_as_one_scan(void)
{
	static uint8_t buf[1536 + 64];
	struct pt_errata skx = skylake_server_errata();
	const struct pt_errata *errata[] = { NULL, &skx };
	unsigned int seed, parts_held = 0, parts_cyc = 0;

	for (seed = 1; seed <= 300; seed++) {
		size_t size = gen_held_stream(buf, 1536, seed, seed % 4 == 0), np, i, j;
		const struct pt_errata *e = errata[seed % 2];
		uint64_t psb[64], at[3];
		struct pts_pt_hold wh;
		bool whole;

		memset(buf + size, 0, 64);
		whole = whole_scan(buf, size, e, &wh);
		CU_ASSERT_EQUAL(whole, libipt_has_cyc(buf, size, pts_pt_psb_from(buf, size, 0),
						      size, e));
		parts_cyc += whole;
		parts_held += !whole && wh.n;
		np = psbs_of(buf, size, psb, 64);
		/* two parts at every PSB, three at every pair, four at some triples */
		for (i = 0; i < np; i++) {
			at[0] = psb[i];
			CU_ASSERT_TRUE(parts_as_whole(buf, size, e, at, 2, whole, &wh));
			for (j = i + 1; j < np; j++) {
				at[1] = psb[j];
				CU_ASSERT_TRUE(parts_as_whole(buf, size, e, at, 3, whole, &wh));
				at[2] = psb[(j + 1 + seed) % np];
				if (at[2] > at[1])
					CU_ASSERT_TRUE(parts_as_whole(buf, size, e, at, 4, whole,
								      &wh));
			}
		}
		/* parts from where no PSB begins: read from the next one */
		for (i = 0; i < 40; i++) {
			at[0] = (i * 97 + seed) % size;
			at[1] = at[0] + (i * 31 + seed) % (size - at[0]);
			at[2] = at[1] + (i * 13) % (size - at[1]);
			CU_ASSERT_TRUE(parts_as_whole(buf, size, e, at, 2 + i % 3, whole, &wh));
		}
		/* and as pts_pt_trace_has_cyc splits it */
		{
			struct pts_pt_hold h;

			pts_pt_hold_init(&h);
			CU_ASSERT_EQUAL(pts_pt_trace_has_cyc(buf, size, false, e, &h), whole);
			if (!whole) {
				CU_ASSERT_EQUAL(h.n, wh.n);
				CU_ASSERT_TRUE(h.n == wh.n && !memcmp(h.held, wh.held,
								      h.n * sizeof(h.held[0])));
			}
			pts_pt_hold_free(&h);
		}
		pts_pt_hold_free(&wh);
	}
	/* the streams have both kinds: with a CYC, and without one but with events held */
	CU_ASSERT(parts_cyc > 20);
	CU_ASSERT(parts_held > 20);
}

PTS_SUITE(session_pardec_cyc, NULL, NULL,
	  PTS_TEST(every_packet_stepped_over_is_one_libipt_reads_as_long_and_not_cyc),
	  PTS_TEST(the_scan_answers_as_libipt_alone_on_packets_and_damage),
	  PTS_TEST(the_scan_in_pieces_answers_as_one_scan),
	  PTS_TEST(a_cyc_at_either_side_of_the_split_psb_is_found),
	  PTS_TEST(the_scan_in_parts_split_anywhere_answers_and_holds_as_one_scan),
	  PTS_TEST(a_psb_begun_inside_the_damaged_packet_is_found),
	  PTS_TEST(a_cyc_behind_a_tma_passed_over_for_skz84_is_found));
