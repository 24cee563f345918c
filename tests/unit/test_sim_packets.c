// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated unit's packet writer: each packet's bytes as Intel SDM
 * vol. 3C 33.4.2 lays them out (expected bytes written out by hand from
 * the SDM's packet tables), and libipt's packet decoder reading them back
 * as the same packet type and payload.
 */
#include "unit.h"
#include "sim_harness.h"

/* Decode one packet at buf with libipt. */
static int pkt_decode(const u8 *buf, size_t len, struct pt_packet *pkt)
{
	u8 tmp[64] = { 0 };	/* padded: the decoder may look ahead */
	struct pt_packet_decoder *dec;
	struct pt_config cfg;
	int rc;

	memcpy(tmp, buf, len);
	pt_config_init(&cfg);
	cfg.begin = tmp;
	cfg.end = tmp + len;
	dec = pt_pkt_alloc_decoder(&cfg);
	rc = pt_pkt_sync_set(dec, 0);
	if (!rc)
		rc = pt_pkt_next(dec, pkt, sizeof(*pkt));
	pt_pkt_free_decoder(dec);
	return rc;
}

static void fixed_packets_have_the_sdm_bytes(void)
{
	static const u8 psb[16] = { 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
				    2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82 };
	static const u8 tsc[8] = { 0x19, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22 };
	struct pts_pkt_ip st = { 0x1234, true };
	struct pt_packet pkt;
	u8 b[PTS_PKT_MAX];

	CU_ASSERT_EQUAL(pts_pkt_psb(b, &st), 16);
	CU_ASSERT_EQUAL(memcmp(b, psb, 16), 0);
	CU_ASSERT_FALSE(st.valid);	/* PSB clears the last IP */
	CU_ASSERT(pkt_decode(b, 16, &pkt) > 0 && pkt.type == ppt_psb);

	CU_ASSERT_EQUAL(pts_pkt_psbend(b), 2);
	CU_ASSERT(b[0] == 0x02 && b[1] == 0x23);
	CU_ASSERT(pkt_decode(b, 2, &pkt) > 0 && pkt.type == ppt_psbend);

	/* TSC[55:0], the top byte of the counter is not carried */
	CU_ASSERT_EQUAL(pts_pkt_tsc(b, 0xff22334455667788ULL), 8);
	CU_ASSERT_EQUAL(memcmp(b, tsc, 8), 0);
	CU_ASSERT(pkt_decode(b, 8, &pkt) > 0 && pkt.type == ppt_tsc);
	CU_ASSERT_EQUAL(pkt.payload.tsc.tsc, 0x22334455667788ULL);

	CU_ASSERT_EQUAL(pts_pkt_cbr(b, 24), 4);
	CU_ASSERT(b[0] == 0x02 && b[1] == 0x03 && b[2] == 24 && b[3] == 0);
	CU_ASSERT(pkt_decode(b, 4, &pkt) > 0 && pkt.type == ppt_cbr);
	CU_ASSERT_EQUAL(pkt.payload.cbr.ratio, 24);

	CU_ASSERT_EQUAL(pts_pkt_mode_exec64(b), 2);
	CU_ASSERT(b[0] == 0x99 && b[1] == 0x01);
	CU_ASSERT(pkt_decode(b, 2, &pkt) > 0 && pkt.type == ppt_mode);
	CU_ASSERT_EQUAL(pkt.payload.mode.leaf, pt_mol_exec);
	CU_ASSERT(pkt.payload.mode.bits.exec.csl && !pkt.payload.mode.bits.exec.csd);

	CU_ASSERT_EQUAL(pts_pkt_tma(b, 0xbeef, 0x1a5), 7);
	CU_ASSERT(b[0] == 0x02 && b[1] == 0x73 && b[2] == 0xef && b[3] == 0xbe &&
		  b[4] == 0 && b[5] == 0xa5 && b[6] == 0x01);
	CU_ASSERT(pkt_decode(b, 7, &pkt) > 0 && pkt.type == ppt_tma);
	CU_ASSERT_EQUAL(pkt.payload.tma.ctc, 0xbeef);
	CU_ASSERT_EQUAL(pkt.payload.tma.fc, 0x1a5);

	CU_ASSERT_EQUAL(pts_pkt_mtc(b, 0x42), 2);
	CU_ASSERT(b[0] == 0x59 && b[1] == 0x42);
	CU_ASSERT(pkt_decode(b, 2, &pkt) > 0 && pkt.type == ppt_mtc);

	CU_ASSERT_EQUAL(pts_pkt_ovf(b), 2);
	CU_ASSERT(b[0] == 0x02 && b[1] == 0xf3);
	CU_ASSERT(pkt_decode(b, 2, &pkt) > 0 && pkt.type == ppt_ovf);

	CU_ASSERT_EQUAL(pts_pkt_pad(b), 1);
	CU_ASSERT_EQUAL(b[0], 0);
}

static void short_tnt_puts_the_oldest_branch_highest_under_a_stop_bit(void)
{
	struct pt_packet pkt;
	u8 b[PTS_PKT_MAX];

	/* T,T,T,T,T,N: payload 111110, stop bit above, bit 0 clear: 1111 1100 */
	CU_ASSERT_EQUAL(pts_pkt_tnt8(b, 0x3e, 6), 1);
	CU_ASSERT_EQUAL(b[0], 0xfc);
	CU_ASSERT(pkt_decode(b, 1, &pkt) > 0 && pkt.type == ppt_tnt_8);
	CU_ASSERT_EQUAL(pkt.payload.tnt.bit_size, 6);
	CU_ASSERT_EQUAL(pkt.payload.tnt.payload, 0x3e);
	/* one taken branch: 0000 0110 */
	CU_ASSERT_EQUAL(pts_pkt_tnt8(b, 1, 1), 1);
	CU_ASSERT_EQUAL(b[0], 0x06);
	CU_ASSERT_EQUAL(pts_pkt_tnt8(b, 0, 7), 0);
	CU_ASSERT_EQUAL(pts_pkt_tnt8(b, 0, 0), 0);
}

struct ip_case {
	bool last_valid;
	u64 last, ip;
	enum pt_ip_compression ipc;	/* libipt's name for the expected IPBytes */
	size_t size;
};

static void ip_packets_use_the_smallest_ipbytes_the_last_ip_allows(void)
{
	static const struct ip_case cases[] = {
		/* after a PSB: no last IP, the full 48-bit sign-extended form */
		{ false, 0, 0x00007f5100000026ULL, pt_ipc_sext_48, 7 },
		{ false, 0, 0xffffffffc0a01000ULL, pt_ipc_sext_48, 7 },
		{ true, 0x00007f5100000026ULL, 0x00007f510000001cULL, pt_ipc_update_16, 3 },
		{ true, 0x00007f5100000026ULL, 0x00007f5100120000ULL, pt_ipc_update_32, 5 },
		/* user -> kernel: upper halves differ, bit 47 sign-extends */
		{ true, 0x00007f5100000026ULL, 0xffffffffc0a01000ULL, pt_ipc_sext_48, 7 },
		/* non-canonical-looking upper bits equal to the last IP: update 48 */
		{ true, 0x1234000000000000ULL, 0x1234567800000000ULL, pt_ipc_update_48, 7 },
		{ false, 0, 0x1234567800000000ULL, pt_ipc_full, 9 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pts_pkt_ip st = { cases[i].last, cases[i].last_valid };
		struct pt_packet pkt;
		u8 b[PTS_PKT_MAX];
		size_t n;

		n = pts_pkt_ip(b, &st, PTS_PKT_TIP, cases[i].ip, false);
		CU_ASSERT_EQUAL(n, cases[i].size);
		CU_ASSERT_EQUAL(b[0] >> 5, (unsigned int)cases[i].ipc);
		CU_ASSERT_EQUAL(b[0] & 0x1f, 0x0d);
		CU_ASSERT(pkt_decode(b, n, &pkt) > 0);
		CU_ASSERT_EQUAL(pkt.type, ppt_tip);
		CU_ASSERT_EQUAL(pkt.payload.ip.ipc, cases[i].ipc);
		CU_ASSERT(st.valid && st.last_ip == cases[i].ip);
	}
}

static void suppressed_ip_keeps_the_last_ip(void)
{
	struct pts_pkt_ip st = { 0x00007f5100000024ULL, true };
	struct pt_packet pkt;
	u8 b[PTS_PKT_MAX];

	CU_ASSERT_EQUAL(pts_pkt_ip(b, &st, PTS_PKT_TIP_PGD, 0xdead, true), 1);
	CU_ASSERT_EQUAL(b[0], 0x01);
	CU_ASSERT(pkt_decode(b, 1, &pkt) > 0 && pkt.type == ppt_tip_pgd);
	CU_ASSERT_EQUAL(pkt.payload.ip.ipc, pt_ipc_suppressed);
	CU_ASSERT(st.valid && st.last_ip == 0x00007f5100000024ULL);
	/* the other IP packet headers (SDM: TIP.PGE 10001, FUP 11101) */
	pts_pkt_ip(b, &st, PTS_PKT_TIP_PGE, 0x00007f5100000026ULL, false);
	CU_ASSERT_EQUAL(b[0], 0x31);
	CU_ASSERT(pkt_decode(b, 3, &pkt) > 0 && pkt.type == ppt_tip_pge);
	pts_pkt_ip(b, &st, PTS_PKT_FUP, 0x00007f5100000020ULL, false);
	CU_ASSERT_EQUAL(b[0], 0x3d);
	CU_ASSERT(pkt_decode(b, 3, &pkt) > 0 && pkt.type == ppt_fup);
}

PTS_SUITE(sim_packets, NULL, NULL,
	  PTS_TEST(fixed_packets_have_the_sdm_bytes),
	  PTS_TEST(short_tnt_puts_the_oldest_branch_highest_under_a_stop_bit),
	  PTS_TEST(ip_packets_use_the_smallest_ipbytes_the_last_ip_allows),
	  PTS_TEST(suppressed_ip_keeps_the_last_ip))
