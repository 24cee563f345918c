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

/* Scan g[0, to) (bound: a FUP or MODE before it waits for its TIP). */
static struct pts_pt_read scan_to(struct pt_gen *g, size_t to, bool bound)
{
	struct pts_pt_read r;

	pts_pt_read_scan(g->buf, 0, to, bound, &r);
	return r;
}

/* Scan all of g, which is done with. */
static struct pts_pt_read scan(struct pt_gen *g, bool bound)
{
	struct pts_pt_read r = scan_to(g, gen_len(g), bound);

	gen_done(g);
	return r;
}

/*
 * What a test expects of a scan: a field YES or NO, or left out (ANY: not
 * looked at); branch_time is pts_pt_read_branch_time()'s answer.
 */
enum { ANY, YES, NO };

struct want {
	int branch_first, event, timing, bound, unknown, tail_timing, tail_tsc, branch_time;
};

static void check_one(const char *field, bool got, int want, const char *file, unsigned int line)
{
	char what[80];

	if (want == ANY)
		return;
	snprintf(what, sizeof(what), "%s is %s", field, want == YES ? "set" : "clear");
	CU_assertImplementation(got == (want == YES), line, what, file, "", CU_FALSE);
}

static void check(const struct pts_pt_read *r, const struct want *w, const char *file,
		  unsigned int line)
{
	check_one("branch_first", r->branch_first, w->branch_first, file, line);
	check_one("event", r->event, w->event, file, line);
	check_one("timing", r->timing, w->timing, file, line);
	check_one("bound", r->bound, w->bound, file, line);
	check_one("unknown", r->unknown, w->unknown, file, line);
	check_one("tail_timing", r->tail_timing, w->tail_timing, file, line);
	check_one("tail_tsc", r->tail_tsc, w->tail_tsc, file, line);
	check_one("the branch's time", pts_pt_read_branch_time(r), w->branch_time, file, line);
}

/* EXPECT(r, .event = YES, .branch_time = NO): failures name the test's line. */
#define EXPECT(r, ...) check(&(r), &(struct want){ __VA_ARGS__ }, __FILE__, __LINE__)

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
	EXPECT(r, .branch_first = YES, .event = NO, .unknown = NO, .branch_time = YES);
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
	EXPECT(r, .branch_first = YES, .event = YES, .timing = YES, .branch_time = NO);

	gen_init(&g);
	gen_ip(&g, ppt_tip, 0x401100);
	gen_ip(&g, ppt_fup, 0x401128);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_cyc(&g, 118);	/* read ahead after the disable: not its time */
	r = scan(&g, false);
	EXPECT(r, .event = YES, .timing = NO, .branch_time = YES);
}

/* An event read with no branch before it (the TNT was read earlier): not the branch time. */
static void an_event_first_is_not_the_branch_time(void)
{
	struct pt_gen g;
	struct pts_pt_read r;

	gen_init(&g);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	r = scan(&g, false);
	EXPECT(r, .branch_first = NO, .event = YES, .branch_time = NO);
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
	EXPECT(r, .event = NO, .bound = YES, .branch_time = YES);

	gen_init(&g);
	gen_ip(&g, ppt_tip, 0x401200);
	r = scan(&g, true);
	EXPECT(r, .branch_first = NO, .event = YES, .branch_time = NO);

	gen_init(&g);
	gen_ip(&g, ppt_tip, 0x401200);
	r = scan(&g, false);
	EXPECT(r, .branch_first = YES, .branch_time = YES);
}

/* MODE.Exec binds the TIP after it (a far branch): read in another call, the TIP is bound. */
static void mode_exec_binds_the_next_tip(void)
{
	struct pt_gen g;
	struct pts_pt_read r;

	gen_init(&g);
	gen_mode_exec64(&g);
	r = scan(&g, false);
	EXPECT(r, .event = YES, .bound = YES, .branch_time = NO);
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
	r = scan_to(&g, end, false);
	EXPECT(r, .event = NO, .unknown = NO, .branch_time = YES);
	r = scan(&g, false);
	EXPECT(r, .event = YES, .timing = YES, .branch_time = NO);
}

/*
 * The packets read ahead after the last one that set the time: libipt's
 * time from a TSC among them on is the TSC's, until an MTC, a CYC or a
 * PSB+.
 */
static void the_tail_read_ahead_tells_a_tsc_read_last(void)
{
	struct pt_gen g;
	struct pts_pt_read r;
	size_t end;

	gen_init(&g);
	gen_ip(&g, ppt_tip_pge, 0x401000);
	gen_tsc(&g, 0x123456789abcdeULL);
	r = scan(&g, false);
	EXPECT(r, .tail_timing = YES, .tail_tsc = YES);
	CU_ASSERT_EQUAL(r.tsc, 0x123456789abcdeULL);

	gen_init(&g);
	gen_ip(&g, ppt_tip_pge, 0x401000);
	gen_tsc(&g, 5000);
	gen_mtc(&g, 3);
	r = scan(&g, false);
	EXPECT(r, .tail_timing = YES, .tail_tsc = NO);

	gen_init(&g);
	gen_tsc(&g, 5000);
	gen_tnt(&g, "T");
	r = scan(&g, false);
	EXPECT(r, .tail_timing = NO, .tail_tsc = NO);

	/*
	 * A PSB+ read ahead after the TSC, up to its PSBEND: its header's
	 * packets (a TSC of its own, CBR, TMA) are not told apart here, so
	 * the TSC before it is no longer the tail's last
	 */
	gen_init(&g);
	gen_tnt(&g, "T");
	gen_tsc(&g, 5000);
	gen_simple(&g, ppt_psb);
	gen_tsc(&g, 9000);
	gen_cbr(&g, 21);
	end = gen_len(&g);
	gen_simple(&g, ppt_psbend);
	r = scan_to(&g, end, false);
	gen_done(&g);
	EXPECT(r, .unknown = NO, .tail_timing = YES, .tail_tsc = NO);
}

/* A stretch that ends inside a packet, or a reserved IP compression: nothing said. */
static void a_packet_not_known_says_nothing(void)
{
	static const uint8_t reserved_tip[] = { 0xad, 1, 2, 3, 4 };	/* IPBytes 101 */
	struct pt_gen g;
	struct pts_pt_read r;

	pts_pt_read_scan(reserved_tip, 0, sizeof(reserved_tip), false, &r);
	EXPECT(r, .unknown = YES, .branch_time = NO);

	gen_init(&g);
	gen_tnt(&g, "T");
	gen_tsc(&g, 0x5000);
	r = scan_to(&g, gen_len(&g) - 1, false);
	EXPECT(r, .unknown = YES, .branch_time = NO);
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
