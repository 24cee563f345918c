// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshot ring linearisation (userland/lib/bundle/ring.h): the oldest-first
 * order [head, N) + [0, head) after a wrap, [0, head) without one (pt-facts
 * section 3). The PSB test uses libipt's packet decoder as the independent
 * judge of where the first whole PSB is.
 */
#include "unit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <intel-pt.h>

#include "bundle/ring.h"

/* ring[i] = i + 1 so every byte says where it came from */
static void fill(unsigned char *ring, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		ring[i] = (unsigned char)(i + 1);
}

static void unwrapped_ring_gives_bytes_before_head(void)
{
	unsigned char ring[16], out[16];
	static const unsigned char want[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	uint64_t len = 99;

	fill(ring, sizeof(ring));
	CU_ASSERT_EQUAL(pts_ring_linearise(ring, 16, 10, false, out, sizeof(out), &len, NULL), 0);
	CU_ASSERT_EQUAL(len, 10);
	CU_ASSERT_EQUAL(memcmp(out, want, sizeof(want)), 0);
}

static void wrapped_ring_gives_head_to_end_then_start_to_head(void)
{
	unsigned char ring[16], out[16];
	static const unsigned char want[] = { 11, 12, 13, 14, 15, 16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	uint64_t len = 0;

	fill(ring, sizeof(ring));
	CU_ASSERT_EQUAL(pts_ring_linearise(ring, 16, 10, true, out, sizeof(out), &len, NULL), 0);
	CU_ASSERT_EQUAL(len, 16);
	CU_ASSERT_EQUAL(memcmp(out, want, sizeof(want)), 0);
}

static void head_at_zero_wrapped_gives_ring_unrotated(void)
{
	unsigned char ring[16], out[16];
	uint64_t len = 0;

	fill(ring, sizeof(ring));
	CU_ASSERT_EQUAL(pts_ring_linearise(ring, 16, 0, true, out, sizeof(out), &len, NULL), 0);
	CU_ASSERT_EQUAL(len, 16);
	CU_ASSERT_EQUAL(memcmp(out, ring, 16), 0);
}

static void head_at_zero_unwrapped_gives_nothing(void)
{
	unsigned char ring[16], out[16];
	struct pts_ring_seg seg[2];
	uint64_t len = 99;

	fill(ring, sizeof(ring));
	CU_ASSERT_EQUAL(pts_ring_linearise(ring, 16, 0, false, out, sizeof(out), &len, NULL), 0);
	CU_ASSERT_EQUAL(len, 0);
	CU_ASSERT_EQUAL(pts_ring_segments(16, 0, false, seg), 0);
}

static void head_at_end_gives_whole_ring_wrapped_or_not(void)
{
	unsigned char ring[16], out[16];
	uint64_t len = 0;

	fill(ring, sizeof(ring));
	CU_ASSERT_EQUAL(pts_ring_linearise(ring, 16, 16, false, out, sizeof(out), &len, NULL), 0);
	CU_ASSERT_EQUAL(len, 16);
	CU_ASSERT_EQUAL(memcmp(out, ring, 16), 0);
	memset(out, 0, sizeof(out));
	CU_ASSERT_EQUAL(pts_ring_linearise(ring, 16, 16, true, out, sizeof(out), &len, NULL), 0);
	CU_ASSERT_EQUAL(len, 16);
	CU_ASSERT_EQUAL(memcmp(out, ring, 16), 0);
}

static void zero_size_ring_gives_nothing(void)
{
	unsigned char out[1] = { 0x77 };
	struct pts_ring_seg seg[2];
	uint64_t len = 99;

	CU_ASSERT_EQUAL(pts_ring_linearise(NULL, 0, 0, false, out, 0, &len, NULL), 0);
	CU_ASSERT_EQUAL(len, 0);
	CU_ASSERT_EQUAL(pts_ring_linearise(NULL, 0, 0, true, out, 0, &len, NULL), 0);
	CU_ASSERT_EQUAL(len, 0);
	CU_ASSERT_EQUAL(pts_ring_segments(0, 0, true, seg), 0);
	CU_ASSERT_EQUAL(out[0], 0x77);
	CU_ASSERT_FALSE(pts_ring_wrapped(NULL, 0, 0, 0));
}

static void head_beyond_ring_is_einval(void)
{
	unsigned char ring[16] = { 0 }, out[32];
	struct pts_err err = { 0 };
	struct pts_ring_seg seg[2];
	uint64_t len = 0;

	CU_ASSERT_EQUAL(pts_ring_linearise(ring, 16, 17, true, out, sizeof(out), &len, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "17"));
	CU_ASSERT_EQUAL(pts_ring_segments(16, 17, false, seg), -EINVAL);
}

static void too_small_output_is_enospc_and_untouched(void)
{
	unsigned char ring[16], out[15];
	uint64_t len = 99;

	fill(ring, sizeof(ring));
	memset(out, 0xee, sizeof(out));
	CU_ASSERT_EQUAL(pts_ring_linearise(ring, 16, 3, true, out, sizeof(out), &len, NULL), -ENOSPC);
	CU_ASSERT_EQUAL(out[0], 0xee);
	CU_ASSERT_EQUAL(len, 99);
}

static void iov_points_into_the_ring_in_oldest_first_order(void)
{
	unsigned char ring[16] = { 0 };
	struct iovec iov[2];

	CU_ASSERT_EQUAL_FATAL(pts_ring_iov(ring, 16, 5, true, iov), 2);
	CU_ASSERT_PTR_EQUAL(iov[0].iov_base, ring + 5);
	CU_ASSERT_EQUAL(iov[0].iov_len, 11);
	CU_ASSERT_PTR_EQUAL(iov[1].iov_base, ring);
	CU_ASSERT_EQUAL(iov[1].iov_len, 5);
	CU_ASSERT_EQUAL_FATAL(pts_ring_iov(ring, 16, 5, false, iov), 1);
	CU_ASSERT_PTR_EQUAL(iov[0].iov_base, ring);
	CU_ASSERT_EQUAL(iov[0].iov_len, 5);
	CU_ASSERT_EQUAL(pts_ring_linear_size(16, 5, true), 16);
	CU_ASSERT_EQUAL(pts_ring_linear_size(16, 5, false), 5);
}

static void wrap_seen_from_nonzero_byte_after_head(void)
{
	unsigned char ring[64] = { 0 };

	memset(ring, 0x99, 20);				/* written before the head only */
	CU_ASSERT_FALSE(pts_ring_wrapped(ring, 64, 20, 0));
	ring[63] = 0x02;				/* one byte after the head */
	CU_ASSERT_TRUE(pts_ring_wrapped(ring, 64, 20, 0));
	ring[63] = 0;
	ring[20] = 0x02;				/* the byte at the head itself */
	CU_ASSERT_TRUE(pts_ring_wrapped(ring, 64, 20, 0));
}

/*
 * The tail after the head is compared in 4 KiB blocks: a non-zero byte
 * is seen wherever it lies (before the first block boundary, inside a
 * block, in the partial block at the end), and an all-zero tail is not a
 * wrap. Ring of 3 blocks + 100 bytes, head at 10.
 */
static void wrap_seen_in_every_part_of_a_long_tail(void)
{
	static const size_t at[] = { 10, 4095, 4096, 6000, 12287, 12288, 12387 };
	size_t size = 3 * 4096 + 100, i;
	unsigned char *ring = calloc(1, size);

	CU_ASSERT_PTR_NOT_NULL_FATAL(ring);
	CU_ASSERT_FALSE(pts_ring_wrapped(ring, size, 10, 0));
	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		ring[at[i]] = 0x02;
		CU_ASSERT_TRUE(pts_ring_wrapped(ring, size, 10, 0));
		ring[at[i]] = 0;
	}
	ring[9] = 0x02;		/* before the head: written, not a wrap */
	CU_ASSERT_FALSE(pts_ring_wrapped(ring, size, 10, 0));
	free(ring);
}

static void wrap_count_wins_over_all_pad_tail(void)
{
	/* PAD packets are 0x00: a wrap that left only PAD after the head */
	unsigned char ring[64] = { 0 };

	memset(ring, 0x99, 20);
	CU_ASSERT_TRUE(pts_ring_wrapped(ring, 64, 20, 1));
	CU_ASSERT_FALSE(pts_ring_wrapped(ring, 64, 64, 0));
	CU_ASSERT_TRUE(pts_ring_wrapped(ring, 64, 64, 3));
}

/* Encode one packet at the encoder's position; returns its size. */
static int enc(struct pt_encoder *e, struct pt_packet *p)
{
	int n = pt_enc_next(e, p);

	CU_ASSERT_FATAL(n > 0);
	return n;
}

/* Sync offset of the first whole PSB in buf[0, len), or a negative pte code. */
static int sync_offset(const unsigned char *buf, size_t len, uint64_t *off)
{
	struct pt_packet_decoder *d;
	struct pt_config cfg;
	int rc;

	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	d = pt_pkt_alloc_decoder(&cfg);
	if (!d)
		return -pte_nomem;
	rc = pt_pkt_sync_forward(d);
	if (rc >= 0)
		rc = pt_pkt_get_sync_offset(d, off);
	pt_pkt_free_decoder(d);
	return rc;
}

/*
 * What the hardware wrote, in time order: a TIP whose first 3 bytes were
 * overwritten (the torn packet), then PSB FUP PSBEND TNT.8 TIP, PADs, and a
 * second PSB PSBEND later. The ring holds exactly that stream, rotated so
 * the write head sits 7 bytes before the first PSB reaches the ring's end:
 * the PSB is split, 7 bytes at the end and 9 at the start. After
 * linearising, libipt must find the first PSB whole at its offset in the
 * stream; in the raw ring it can only find the second one.
 */
static void psb_split_across_ring_end_is_whole_after_linearising(void)
{
	unsigned char stream[256], ring[256], out[256 + 8] = { 0 };
	struct pt_packet p;
	struct pt_config cfg;
	struct pt_encoder *e;
	uint64_t len = 0, off = 0, n, head, psb1, psb2, i;
	int tip_len;

	pt_config_init(&cfg);
	cfg.begin = stream;
	cfg.end = stream + sizeof(stream);
	e = pt_alloc_encoder(&cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	memset(&p, 0, sizeof(p));
	p.type = ppt_tip;
	p.payload.ip.ipc = pt_ipc_sext_48;
	p.payload.ip.ip = 0x401000;
	tip_len = enc(e, &p);				/* 7 bytes */
	psb1 = (uint64_t)tip_len - 3;			/* offset once torn */
	p.type = ppt_psb;
	enc(e, &p);
	p.type = ppt_fup;
	p.payload.ip.ipc = pt_ipc_sext_48;
	p.payload.ip.ip = 0x401005;
	enc(e, &p);
	p.type = ppt_psbend;
	enc(e, &p);
	p.type = ppt_tnt_8;
	p.payload.tnt.bit_size = 3;
	p.payload.tnt.payload = 0x5;
	enc(e, &p);
	p.type = ppt_tip;
	p.payload.ip.ipc = pt_ipc_sext_48;
	p.payload.ip.ip = 0x401020;
	enc(e, &p);
	p.type = ppt_pad;
	for (i = 0; i < 20; i++)
		enc(e, &p);
	CU_ASSERT_EQUAL_FATAL(pt_enc_get_offset(e, &psb2), 0);
	psb2 -= 3;
	p.type = ppt_psb;
	enc(e, &p);
	p.type = ppt_psbend;
	enc(e, &p);
	CU_ASSERT_EQUAL_FATAL(pt_enc_get_offset(e, &n), 0);
	pt_free_encoder(e);

	/* The torn stream L = stream[3, n): what the ring holds, oldest first. */
	n -= 3;
	head = n - psb1 - 7;
	for (i = 0; i < n; i++)
		ring[(head + i) % n] = stream[3 + i];
	/* premise: the ring itself has the first PSB split at its end */
	CU_ASSERT_EQUAL_FATAL(ring[n - 7], 0x02);
	CU_ASSERT_EQUAL_FATAL(ring[n - 6], 0x82);
	CU_ASSERT_EQUAL_FATAL(ring[8], 0x82);
	CU_ASSERT_TRUE(pts_ring_wrapped(ring, n, head, 0));

	CU_ASSERT_EQUAL_FATAL(pts_ring_linearise(ring, n, head, true, out, n, &len, NULL), 0);
	CU_ASSERT_EQUAL(len, n);
	CU_ASSERT_EQUAL(memcmp(out, stream + 3, n), 0);
	/* out has 8 zero bytes of slack: libipt 2.0.5 may read one past the end */
	CU_ASSERT_EQUAL(sync_offset(out, len, &off), 0);
	CU_ASSERT_EQUAL(off, psb1);
	/* the raw ring only offers the second PSB: linearising saved the first */
	CU_ASSERT_EQUAL(sync_offset(ring, n, &off), 0);
	CU_ASSERT_EQUAL(off, (head + psb2) % n);
	CU_ASSERT_NOT_EQUAL(off, psb1);
}

PTS_SUITE(ring_linearise, NULL, NULL,
	  PTS_TEST(unwrapped_ring_gives_bytes_before_head),
	  PTS_TEST(wrapped_ring_gives_head_to_end_then_start_to_head),
	  PTS_TEST(head_at_zero_wrapped_gives_ring_unrotated),
	  PTS_TEST(head_at_zero_unwrapped_gives_nothing),
	  PTS_TEST(head_at_end_gives_whole_ring_wrapped_or_not),
	  PTS_TEST(zero_size_ring_gives_nothing),
	  PTS_TEST(head_beyond_ring_is_einval),
	  PTS_TEST(too_small_output_is_enospc_and_untouched),
	  PTS_TEST(iov_points_into_the_ring_in_oldest_first_order),
	  PTS_TEST(wrap_seen_from_nonzero_byte_after_head),
	  PTS_TEST(wrap_count_wins_over_all_pad_tail),
	  PTS_TEST(wrap_seen_in_every_part_of_a_long_tail),
	  PTS_TEST(psb_split_across_ring_end_is_whole_after_linearising))
