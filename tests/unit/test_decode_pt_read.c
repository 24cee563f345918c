// SPDX-License-Identifier: GPL-2.0
/*
 * What libipt's query decoder read in one call (decode/pt_read.h): the
 * stretches of packets one call of the block decoder moves over, built
 * with libipt's encoder, and whether libipt's time after them is the time
 * of the branch the call decided. By hand, from libipt 2.0's query
 * decoder: it sets its time at a TNT, a TIP it is asked for, and the
 * packet that completes an event; the timing packets it reads ahead
 * change it only at the next of those.
 */
#include "unit.h"
#include "pt_gen.h"
#include "decode/pt_read.h"

/* Scan all of g (bound: a FUP or MODE before it waits for its TIP). */
static struct pts_pt_read scan(struct pt_gen *g, bool bound)
{
	struct pts_pt_read r;

	pts_pt_read_scan(g->buf, 0, gen_len(g), bound, &r);
	gen_done(g);
	return r;
}

/* A TNT and the timing packets read ahead after it: the TNT's time. */
static void a_branch_and_timing_after_it_is_the_branch_time(void)
{
	struct pt_gen g;
	struct pts_pt_read r;

	gen_init(&g);
	gen_tnt(&g, "TN");
	gen_cyc(&g, 300);
	gen_mtc(&g, 7);
	gen_tsc(&g, 0x5000);
	r = scan(&g, false);
	CU_ASSERT_TRUE(r.branch_first);
	CU_ASSERT_FALSE(r.event);
	CU_ASSERT_FALSE(r.unknown);
	CU_ASSERT_TRUE(pts_pt_read_branch_time(&r));
}

/*
 * An interrupt read in the same call as the branch before it (its
 * trailing event): with a CYC between, libipt's time is the FUP's, later
 * than the TIP's; without one, the same as the TIP's.
 */
static void an_interrupt_after_timing_is_not_the_branch_time(void)
{
	struct pt_gen g;
	struct pts_pt_read r;

	gen_init(&g);
	gen_ip(&g, ppt_tip, 0x401100);
	gen_cyc(&g, 10);
	gen_ip(&g, ppt_fup, 0x401128);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_cyc(&g, 118);
	r = scan(&g, false);
	CU_ASSERT_TRUE(r.branch_first);
	CU_ASSERT_TRUE(r.event);
	CU_ASSERT_TRUE(r.timing);
	CU_ASSERT_FALSE(pts_pt_read_branch_time(&r));

	gen_init(&g);
	gen_ip(&g, ppt_tip, 0x401100);
	gen_ip(&g, ppt_fup, 0x401128);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_cyc(&g, 118);	/* read ahead after the disable: not its time */
	r = scan(&g, false);
	CU_ASSERT_TRUE(r.event);
	CU_ASSERT_FALSE(r.timing);
	CU_ASSERT_TRUE(pts_pt_read_branch_time(&r));
}

/* An event read with no branch before it (the TNT was read earlier): not the branch time. */
static void an_event_first_is_not_the_branch_time(void)
{
	struct pt_gen g;
	struct pts_pt_read r;

	gen_init(&g);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	r = scan(&g, false);
	CU_ASSERT_FALSE(r.branch_first);
	CU_ASSERT_TRUE(r.event);
	CU_ASSERT_FALSE(pts_pt_read_branch_time(&r));
}

/*
 * A FUP libipt reads ahead (no event waits for it) binds the TIP after
 * it: read alone, the FUP leaves the time at the branch; the TIP, read in
 * a later call, completes the async branch.
 */
static void a_fup_read_ahead_binds_the_next_tip(void)
{
	struct pt_gen g;
	struct pts_pt_read r;

	gen_init(&g);
	gen_tnt(&g, "T");
	gen_cyc(&g, 5);
	gen_ip(&g, ppt_fup, 0x401128);
	r = scan(&g, false);
	CU_ASSERT_FALSE(r.event);
	CU_ASSERT_TRUE(r.bound);
	CU_ASSERT_TRUE(pts_pt_read_branch_time(&r));

	gen_init(&g);
	gen_ip(&g, ppt_tip, 0x401200);
	r = scan(&g, true);
	CU_ASSERT_FALSE(r.branch_first);
	CU_ASSERT_TRUE(r.event);
	CU_ASSERT_FALSE(pts_pt_read_branch_time(&r));

	gen_init(&g);
	gen_ip(&g, ppt_tip, 0x401200);
	r = scan(&g, false);
	CU_ASSERT_TRUE(r.branch_first);
	CU_ASSERT_TRUE(pts_pt_read_branch_time(&r));
}

/* MODE.Exec binds the TIP after it (a far branch): read in another call, the TIP is bound. */
static void mode_exec_binds_the_next_tip(void)
{
	struct pt_gen g;
	struct pts_pt_read r;

	gen_init(&g);
	gen_mode_exec64(&g);
	r = scan(&g, false);
	CU_ASSERT_TRUE(r.event);
	CU_ASSERT_TRUE(r.bound);
	CU_ASSERT_FALSE(pts_pt_read_branch_time(&r));
}

/*
 * A PSB+ libipt reads ahead after a TNT: its packets (TSC, CBR, MODE) are
 * the PSBEND's event's, which the call did not read: the TNT's time. With
 * the PSBEND read too, the time is the PSB+'s.
 */
static void a_psb_read_ahead_is_the_branch_time_until_its_psbend(void)
{
	struct pt_gen g;
	struct pts_pt_read r;
	size_t end;

	gen_init(&g);
	gen_tnt(&g, "TTT");
	gen_cyc(&g, 1);
	gen_mtc(&g, 104);
	gen_simple(&g, ppt_psb);
	gen_tsc(&g, 0x9000);
	gen_cbr(&g, 21);
	gen_mode_exec64(&g);
	end = gen_len(&g);
	gen_simple(&g, ppt_psbend);
	pts_pt_read_scan(g.buf, 0, end, false, &r);
	CU_ASSERT_FALSE(r.event);
	CU_ASSERT_FALSE(r.unknown);
	CU_ASSERT_TRUE(pts_pt_read_branch_time(&r));
	pts_pt_read_scan(g.buf, 0, gen_len(&g), false, &r);
	CU_ASSERT_TRUE(r.event);
	CU_ASSERT_TRUE(r.timing);
	CU_ASSERT_FALSE(pts_pt_read_branch_time(&r));
	gen_done(&g);
}

/*
 * The packets read ahead after the last one that set the time: libipt's
 * time from a TSC among them on is the TSC's, until an MTC or CYC.
 */
static void the_tail_read_ahead_tells_a_tsc_read_last(void)
{
	struct pt_gen g;
	struct pts_pt_read r;

	gen_init(&g);
	gen_ip(&g, ppt_tip_pge, 0x401000);
	gen_tsc(&g, 0x123456789abcdeULL);
	r = scan(&g, false);
	CU_ASSERT_TRUE(r.tail_timing);
	CU_ASSERT_TRUE(r.tail_tsc);
	CU_ASSERT_EQUAL(r.tsc, 0x123456789abcdeULL);

	gen_init(&g);
	gen_ip(&g, ppt_tip_pge, 0x401000);
	gen_tsc(&g, 5000);
	gen_mtc(&g, 3);
	r = scan(&g, false);
	CU_ASSERT_TRUE(r.tail_timing);
	CU_ASSERT_FALSE(r.tail_tsc);

	gen_init(&g);
	gen_tsc(&g, 5000);
	gen_tnt(&g, "T");
	r = scan(&g, false);
	CU_ASSERT_FALSE(r.tail_timing);
	CU_ASSERT_FALSE(r.tail_tsc);
}

/* A stretch that ends inside a packet, or a reserved IP compression: nothing said. */
static void a_packet_not_known_says_nothing(void)
{
	static const uint8_t reserved_tip[] = { 0xad, 1, 2, 3, 4 };	/* IPBytes 101 */
	struct pt_gen g;
	struct pts_pt_read r;

	pts_pt_read_scan(reserved_tip, 0, sizeof(reserved_tip), false, &r);
	CU_ASSERT_TRUE(r.unknown);
	CU_ASSERT_FALSE(pts_pt_read_branch_time(&r));

	gen_init(&g);
	gen_tnt(&g, "T");
	gen_tsc(&g, 0x5000);
	pts_pt_read_scan(g.buf, 0, gen_len(&g) - 1, false, &r);
	CU_ASSERT_TRUE(r.unknown);
	CU_ASSERT_FALSE(pts_pt_read_branch_time(&r));
	gen_done(&g);
}

/*
 * The bits a TNT packet carries, from its header and stop bit: TNT-8 of 1
 * and 6 bits, a TNT-64 of 1 and 47; none in a TIP, a PAD, a PSB, a CYC.
 */
static void a_tnt_packet_tells_its_bits(void)
{
	static const unsigned int want[] = { 1, 6, 1, 47, 0, 0, 0, 0 };
	uint64_t at[8];
	struct pt_packet p;
	struct pt_gen g;
	int i = 0;

	gen_init(&g);
	at[i++] = gen_len(&g);
	gen_tnt(&g, "N");
	at[i++] = gen_len(&g);
	gen_tnt(&g, "TNTNTT");
	memset(&p, 0, sizeof(p));
	p.type = ppt_tnt_64;
	p.payload.tnt.bit_size = 1;
	at[i++] = gen_len(&g);
	gen_pkt(&g, &p);
	p.payload.tnt.bit_size = 47;
	p.payload.tnt.payload = 0x5555;
	at[i++] = gen_len(&g);
	gen_pkt(&g, &p);
	at[i++] = gen_len(&g);
	gen_ip(&g, ppt_tip, 0x401000);
	at[i++] = gen_len(&g);
	gen_simple(&g, ppt_pad);
	at[i++] = gen_len(&g);
	gen_simple(&g, ppt_psb);
	at[i++] = gen_len(&g);
	gen_cyc(&g, 6);
	for (i = 0; i < 8; i++)
		CU_ASSERT_EQUAL(pts_pt_tnt_bits(g.buf + at[i]), want[i]);
	gen_done(&g);
}

PTS_SUITE(decode_pt_read, NULL, NULL,
	  PTS_TEST(a_branch_and_timing_after_it_is_the_branch_time),
	  PTS_TEST(an_interrupt_after_timing_is_not_the_branch_time),
	  PTS_TEST(an_event_first_is_not_the_branch_time),
	  PTS_TEST(a_fup_read_ahead_binds_the_next_tip),
	  PTS_TEST(mode_exec_binds_the_next_tip),
	  PTS_TEST(a_psb_read_ahead_is_the_branch_time_until_its_psbend),
	  PTS_TEST(the_tail_read_ahead_tells_a_tsc_read_last),
	  PTS_TEST(a_packet_not_known_says_nothing),
	  PTS_TEST(a_tnt_packet_tells_its_bits));
