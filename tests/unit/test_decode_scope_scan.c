// SPDX-License-Identifier: GPL-2.0
/*
 * The scope scan (decode/scope_infer.h) steps over the common packets by
 * their opcode (decode/pt_step.h) and reads the IP packets' payloads
 * itself: its evidence must be the one of a scan with libipt alone,
 * pt_pkt_next per packet, on streams of every IP packet with every IP
 * compression (reserved ones too), user and kernel halves, PSB, OVF, the
 * other packets and damage, from any offset, both with or without a CPU's
 * errata (a TMA whose reserved bits are set is damage, or, with SKZ84,
 * passed over: decode/pt_cpu.h).
 */
#include <stdlib.h>
#include <string.h>

#include <intel-pt.h>

#include "unit.h"
#include "skz84_tma.h"
#include "decode/scope_infer.h"

/* The last IP of SDM 33.4.2.2, as the reference keeps it. */
static bool ref_update(uint64_t *last, bool *valid, const struct pt_packet_ip *p)
{
	static const uint64_t keep[] = { [pt_ipc_update_16] = ~0xffffULL,
					 [pt_ipc_update_32] = ~0xffffffffULL,
					 [pt_ipc_update_48] = ~0xffffffffffffULL };

	if (p->ipc == pt_ipc_sext_48) {
		*last = (uint64_t)((int64_t)(p->ip << 16) >> 16);
	} else if (p->ipc == pt_ipc_full) {
		*last = p->ip;
	} else if (p->ipc == pt_ipc_suppressed) {
		return false;
	} else {
		*last = (*last & keep[p->ipc]) | (p->ip & ~keep[p->ipc]);
		return *valid;
	}
	*valid = true;
	return true;
}

/* The scan with libipt alone: the reference. */
static void ref_scan(const uint8_t *buf, size_t len, const struct pt_errata *errata,
		     struct pts_scope_evidence *ev)
{
	struct pt_packet_decoder *dec;
	struct pt_config cfg;
	struct pt_packet pkt;
	uint64_t last = 0;
	bool valid = false;
	int rc;

	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	if (errata)
		cfg.errata = *errata;
	dec = pt_pkt_alloc_decoder(&cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dec);
	rc = pt_pkt_sync_forward(dec);
	while (rc >= 0 && !(ev->user_ips && ev->kernel_ips)) {
		rc = pt_pkt_next(dec, &pkt, sizeof(pkt));
		if (rc < 0) {
			if (rc != -pte_eos)
				rc = pt_pkt_sync_forward(dec);
			valid = false;
			continue;
		}
		if (pkt.type == ppt_psb || pkt.type == ppt_ovf) {
			ev->psbs += pkt.type == ppt_psb;
			last = 0;
			valid = false;
		} else if (pkt.type == ppt_tip_pgd) {
			ev->pgd++;
			ref_update(&last, &valid, &pkt.payload.ip);
		} else if (pkt.type == ppt_tip || pkt.type == ppt_fup || pkt.type == ppt_tip_pge) {
			ev->pge += pkt.type == ppt_tip_pge;
			if (ref_update(&last, &valid, &pkt.payload.ip))
				*(last >> 63 ? &ev->kernel_ips : &ev->user_ips) += 1;
		}
	}
	pt_pkt_free_decoder(dec);
}

static unsigned int rnd(unsigned int *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 16;
}

/* An IP packet of any kind and compression; kernel (upper-half) bytes when kernel. */
static size_t gen_ip(uint8_t *p, unsigned int *seed, bool kernel)
{
	static const uint8_t op[] = { 0x01, 0x0d, 0x11, 0x1d };
	static const uint8_t bytes[8] = { 0, 2, 4, 6, 6, 6, 8, 8 };
	unsigned int ipc = rnd(seed) % 8, i;

	p[0] = (uint8_t)(op[rnd(seed) % 4] | ipc << 5);
	for (i = 1; i <= bytes[ipc]; i++)
		p[i] = kernel && i > 4 ? 0xff : (uint8_t)rnd(seed);
	if (!kernel && bytes[ipc] >= 6)
		p[6] &= 0x7f;	/* bit 47 clear */
	if (!kernel && bytes[ipc] == 8)
		p[7] = p[8] = 0;	/* a canonical user address */
	return 1 + bytes[ipc];
}

/* Packets a trace is made of, one scope mostly (kernel_share in 64), damage now and then. */
static size_t gen_stream(uint8_t *buf, size_t cap, unsigned int seed, unsigned int kernel_share)
{
	static const uint8_t pkts[][9] = {
		{ 1, 0x00 },				/* PAD */
		{ 1, 0x0a },				/* TNT */
		{ 8, 0x19, 1, 2, 3, 4, 5, 6, 7 },	/* TSC */
		{ 2, 0x59, 0x33 },			/* MTC */
		{ 2, 0x99, 0x01 },			/* MODE.Exec */
		{ 2, 0x02, 0x23 },			/* PSBEND */
		{ 2, 0x02, 0xf3 },			/* OVF */
		{ 4, 0x02, 0x03, 0x1c, 0 },		/* CBR */
		{ 2, 0x07, 0x10 },			/* CYC */
		{ 7, 0x02, 0x73, 1, 2, 0, 3, 0 },	/* TMA */
		{ 7, 0x02, 0x73, 1, 2, 0, 3, 2 },	/* TMA, reserved FC bit 9 */
		{ 2, 0x99, 0xe0 },			/* MODE, reserved leaf */
	};
	size_t n = 0;

	while (n + 32 < cap) {
		unsigned int k = rnd(&seed) % 64;

		if (k < 2) {
			memcpy(buf + n, "\x02\x82\x02\x82\x02\x82\x02\x82"
			       "\x02\x82\x02\x82\x02\x82\x02\x82", 16);
			n += 16;
		} else if (k == 2) {
			buf[n++] = (uint8_t)rnd(&seed);	/* a stray byte */
		} else if (k < 40) {
			n += gen_ip(buf + n, &seed, rnd(&seed) % 64 < kernel_share);
		} else {
			const uint8_t *p = pkts[k % (sizeof(pkts) / sizeof(pkts[0]))];

			memcpy(buf + n, p + 1, p[0]);
			n += p[0];
		}
	}
	return n;
}

static void assert_same(const struct pts_scope_evidence *got,
			const struct pts_scope_evidence *want)
{
	CU_ASSERT_EQUAL(got->user_ips, want->user_ips);
	CU_ASSERT_EQUAL(got->kernel_ips, want->kernel_ips);
	CU_ASSERT_EQUAL(got->pge, want->pge);
	CU_ASSERT_EQUAL(got->pgd, want->pgd);
	CU_ASSERT_EQUAL(got->psbs, want->psbs);
}

/* The scan against the reference, without errata and with a Skylake server's. */
static void check(const uint8_t *buf, size_t len)
{
	struct pt_errata skx = skylake_server_errata();
	const struct pt_errata *errata[] = { NULL, &skx };
	struct pts_scope_evidence got, want;
	unsigned int k;

	for (k = 0; k < 2; k++) {
		memset(&got, 0, sizeof(got));
		memset(&want, 0, sizeof(want));
		CU_ASSERT_EQUAL(pts_scope_scan(buf, len, errata[k], &got), 0);
		ref_scan(buf, len, errata[k], &want);
		assert_same(&got, &want);
	}
}

static void the_evidence_is_the_one_of_a_scan_with_libipt_alone(void)
{
	static uint8_t buf[4096];
	unsigned int seed;
	size_t len, cut;

	for (seed = 1; seed <= 300; seed++) {
		/* all user, a few kernel addresses, half and half */
		len = gen_stream(buf, sizeof(buf), seed, seed % 3 == 0 ? 0 : seed % 3 == 1 ? 1 : 32);
		check(buf, len);
		cut = seed % 40;	/* from inside a packet, ending inside one */
		check(buf + cut, len - cut - seed % 7);
	}
}

/*
 * Buffers scanned in step (pts_scope_scan_parts, two at a time): the
 * evidence of the reference over each in turn; where that shows both
 * halves, both halves (the counts are then of what any read first).
 */
static void check_parts(const uint8_t *const *buf, const size_t *len, unsigned int n)
{
	struct pt_errata skx = skylake_server_errata();
	const struct pt_errata *errata[] = { NULL, &skx };
	struct pts_scope_evidence got, want;
	unsigned int k, i;

	for (k = 0; k < 2; k++) {
		memset(&got, 0, sizeof(got));
		memset(&want, 0, sizeof(want));
		CU_ASSERT_EQUAL(pts_scope_scan_parts(buf, len, n, errata[k], &got), 0);
		for (i = 0; i < n; i++)
			ref_scan(buf[i], len[i], errata[k], &want);
		if (want.user_ips && want.kernel_ips) {
			CU_ASSERT(got.user_ips && got.kernel_ips);
		} else {
			assert_same(&got, &want);
		}
	}
}

static void check_pair(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	const uint8_t *buf[] = { a, b };
	const size_t len[] = { alen, blen };

	check_parts(buf, len, 2);
}

static void buffers_in_step_give_the_evidence_of_one_after_the_other(void)
{
	static const uint8_t psb[] = "\x02\x82\x02\x82\x02\x82\x02\x82"
				     "\x02\x82\x02\x82\x02\x82\x02\x82";
	static uint8_t buf[4096];
	unsigned int seed;
	size_t len, at;

	for (seed = 1; seed <= 300; seed++) {
		const uint8_t *mid;

		len = gen_stream(buf, sizeof(buf), seed, seed % 3 == 0 ? 0 : seed % 3 == 1 ? 1 : 32);
		/* at a PSB past a point that moves with the seed, else anywhere */
		at = len / 8 + seed * 13 % (len / 2);
		mid = memmem(buf + at, len - at, psb, 16);
		if (mid)
			at = (size_t)(mid - buf);
		check_pair(buf, at, buf + at, len - at);
		/* either one the longer, a run of either's plain packets longer */
		check_pair(buf + at, len - at, buf, at);
		check_pair(buf, len, buf + at, len - at);
		check_pair(buf + seed % 40, at - seed % 40, buf, 0);
		/* three: two in step, then the third */
		{
			const uint8_t *three[] = { buf, buf + at, buf + seed % 40 };
			const size_t len3[] = { at, len - at, len - seed % 40 };

			check_parts(three, len3, 3);
		}
	}
}

/*
 * A PSB+ whose TMA has a reserved bit set (FC bit 9), then a TIP.PGE at a
 * user-space IP. libipt reads the TMA as damage (pte_bad_packet), or, for
 * a CPU with erratum SKZ84, passes over it and the byte after it (here a
 * PAD) as an invalid packet, as the decoders do, and reads the PSBEND and
 * the TIP.PGE. The scan, told the errata the decoders are given, takes
 * the TIP.PGE's IP as evidence, alone and in step with another buffer;
 * without errata there is no PSB to resynchronise at after the TMA, and
 * no IP: the trace would show no scope.
 */
static void an_ip_behind_a_tma_passed_over_for_skz84_is_evidence(void)
{
	static const uint8_t tma_pge[] = {
		SKZ84_PSB, SKZ84_TSC(0x10), SKZ84_TMA_PAD, SKZ84_PSBEND,
		0x71, 0x00, 0x10, 0x40, 0x00, 0x00, 0x00,		/* TIP.PGE 0x401000 */
		0x00, 0x00,						/* PAD */
	};
	struct pt_errata skx = skylake_server_errata();
	const uint8_t *two[] = { tma_pge, tma_pge };
	const size_t len[] = { sizeof(tma_pge), sizeof(tma_pge) };
	struct pts_scope_evidence ev, pair, none;

	memset(&ev, 0, sizeof(ev));
	CU_ASSERT_EQUAL(pts_scope_scan(tma_pge, sizeof(tma_pge), &skx, &ev), 0);
	CU_ASSERT_EQUAL(ev.user_ips, 1);
	CU_ASSERT_EQUAL(ev.pge, 1);
	CU_ASSERT_EQUAL(ev.psbs, 1);
	memset(&pair, 0, sizeof(pair));
	CU_ASSERT_EQUAL(pts_scope_scan_parts(two, len, 2, &skx, &pair), 0);
	CU_ASSERT_EQUAL(pair.user_ips, 2);
	CU_ASSERT_EQUAL(pair.pge, 2);
	memset(&none, 0, sizeof(none));
	CU_ASSERT_EQUAL(pts_scope_scan(tma_pge, sizeof(tma_pge), NULL, &none), 0);
	CU_ASSERT_EQUAL(none.user_ips, 0);
	CU_ASSERT_EQUAL(none.psbs, 1);
}

PTS_SUITE(decode_scope_scan, NULL, NULL,
	  PTS_TEST(the_evidence_is_the_one_of_a_scan_with_libipt_alone),
	  PTS_TEST(buffers_in_step_give_the_evidence_of_one_after_the_other),
	  PTS_TEST(an_ip_behind_a_tma_passed_over_for_skz84_is_evidence));
