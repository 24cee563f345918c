// SPDX-License-Identifier: GPL-2.0
/*
 * Where libipt holds an event across a PSB (session/pardec_hold.h), told
 * by the scan of a CPU's trace (pardec_cyc.h): hand-made streams of raw
 * PT, each a PSB+, tracing on (MODE.Exec, TIP.PGE), the packets under
 * test, then a second PSB+ and a TNT. Whether the event libipt queued
 * for a later packet (pt_query_decoder.c: MODE.Exec and an asynchronous
 * branch's FUP bind to a TIP, PTWRITE with IP to a FUP) still waits at
 * the second PSB. Each stream is also scanned in two parts split at that
 * PSB (pardec_cyc.h: read in step, then joined), which must find the
 * same.
 */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "session/pardec_cyc.h"
#include "session/pardec_hold.h"

#define PSB 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82
#define PSBEND 2, 0x23
#define MODE_EXEC_64 0x99, 0x01
#define IP_401000 0x00, 0x10, 0x40, 0x00, 0x00, 0x00	/* six bytes, sign-extended */
#define TIP_PGE 0x71, IP_401000
#define TIP 0x6d, IP_401000
#define FUP 0x7d, IP_401000
#define TNT_1 0x06					/* one bit, taken */
#define PTW_IP 0x02, 0x92, 1, 2, 3, 4			/* 4-byte payload, binds to a FUP */

/* Whether an event is held at the PSB at psb, found by the scan in two parts split there. */
static bool held_at_split(const uint8_t *buf, size_t size, uint64_t psb)
{
	struct pts_pt_cyc_part part[2] = {
		{ .from = 0, .to = psb },
		{ .from = psb, .to = size },
	};
	struct pts_pt_hold h;
	bool held;

	pts_pt_cyc_parts_scan(buf, size, false, NULL, part, 2);
	pts_pt_hold_init(&h);
	CU_ASSERT_FALSE(pts_pt_cyc_parts_join(buf, size, false, NULL, part, 2, &h));
	pts_pt_cyc_parts_free(part, 2);
	held = pts_pt_hold_at(&h, psb);
	pts_pt_hold_free(&h);
	return held;
}

/*
 * Whether an event is held at the second PSB of: PSB+, tracing on, mid
 * (n bytes), then PSB+ and a TNT.
 */
static bool held_at_next_psb(const uint8_t *mid, size_t n)
{
	static const uint8_t head[] = { PSB, PSBEND, MODE_EXEC_64, TIP_PGE };
	static const uint8_t tail[] = { PSB, PSBEND, TNT_1 };
	uint8_t buf[256] = { 0 };
	size_t size = 0, psb;
	uint64_t off = 0, prev = 0;
	struct pts_pt_hold h;
	bool held;

	memcpy(buf, head, sizeof(head));
	size += sizeof(head);
	memcpy(buf + size, mid, n);
	size += n;
	psb = size;
	memcpy(buf + size, tail, sizeof(tail));
	size += sizeof(tail);
	pts_pt_hold_init(&h);
	CU_ASSERT_FALSE(pts_pt_scan_cyc(buf, size, &off, &prev, size, NULL, &h));
	pts_pt_hold_end(&h, size);
	held = pts_pt_hold_at(&h, psb);
	CU_ASSERT_FALSE(pts_pt_hold_at(&h, 0));
	pts_pt_hold_free(&h);
	CU_ASSERT_EQUAL(held_at_split(buf, size, psb), held);
	return held;
}

#define HELD(...)                                                                       \
	({                                                                              \
		static const uint8_t mid_[] = { __VA_ARGS__ };                          \
		held_at_next_psb(mid_, sizeof(mid_));                                   \
	})

static void mode_exec_before_its_tip_is_not_held(void)
{
	CU_ASSERT_FALSE(HELD(TNT_1, MODE_EXEC_64, TIP, TNT_1));
}

/* fuzz finding 20: a TNT where the TIP should be */
static void mode_exec_whose_tip_comes_after_the_psb_is_held(void)
{
	CU_ASSERT_TRUE(HELD(TNT_1, MODE_EXEC_64, TNT_1, TNT_1));
	CU_ASSERT_TRUE(HELD(MODE_EXEC_64));
}

static void async_branch_fup_is_held_until_its_tip(void)
{
	CU_ASSERT_TRUE(HELD(TNT_1, FUP, TNT_1));
	CU_ASSERT_FALSE(HELD(TNT_1, FUP, TIP, TNT_1));
}

/* the FUP binds the PTWRITE's event: no asynchronous branch waits for a TIP */
static void fup_of_a_ptwrite_holds_nothing(void)
{
	CU_ASSERT_FALSE(HELD(TNT_1, PTW_IP, FUP, TNT_1));
	CU_ASSERT_TRUE(HELD(TNT_1, PTW_IP, TNT_1));
}

/* a PSB+'s MODE.Exec and FUP are status, reported at its PSBEND */
static void mode_and_fup_inside_a_psb_plus_hold_nothing(void)
{
	CU_ASSERT_FALSE(HELD(TNT_1, PSB, MODE_EXEC_64, FUP, PSBEND, TNT_1));
}

/* the stretch held goes on over every PSB before its TIP */
static void event_held_over_a_psb_is_held_at_the_next_one_too(void)
{
	CU_ASSERT_TRUE(HELD(MODE_EXEC_64, TNT_1, PSB, PSBEND, TNT_1, TNT_1));
}

PTS_SUITE(session_pardec_hold, NULL, NULL,
	  PTS_TEST(mode_exec_before_its_tip_is_not_held),
	  PTS_TEST(mode_exec_whose_tip_comes_after_the_psb_is_held),
	  PTS_TEST(async_branch_fup_is_held_until_its_tip),
	  PTS_TEST(fup_of_a_ptwrite_holds_nothing),
	  PTS_TEST(mode_and_fup_inside_a_psb_plus_hold_nothing),
	  PTS_TEST(event_held_over_a_psb_is_held_at_the_next_one_too));
