// SPDX-License-Identifier: GPL-2.0
/*
 * A store's runs of jumps (decode/evstore.h): one event each, holding
 * their least address, how far the greatest lies above it, how long after
 * the first jump the last came, and how many there are, in 32 bytes. A
 * jump the event could not hold begins another run; where a jump that
 * begins one is too wide for it, it is an event of its own. The thread
 * is written where it changes, not in every event. Answers by hand.
 */
#include "unit.h"
#include "decode/evstore.h"

#define NEV 8
#define NJ 4

struct fixture {
	struct pts_rec ev[NEV];
	uint64_t pos[NEV];
	struct pts_jump j[NJ];
	struct pts_thr thr[NEV];
	struct pts_evstore s;
};

static void open_store(struct fixture *f, bool any_time)
{
	memset(f, 0, sizeof(*f));
	f->s.ev = f->s.enext = f->ev;
	f->s.eend = f->ev + NEV;
	f->s.pnext = f->pos;
	f->s.thr = f->s.tnext = f->thr;
	f->s.jumps = f->s.jnext = f->j;
	f->s.jend = f->j + NJ;
	f->s.below = UINT64_MAX;
	f->s.any_time = any_time;
}

static void a_run_holds_the_bounds_of_its_jumps_and_its_last_time(void)
{
	struct fixture f;
	struct pts_rec *e = &f.ev[0];
	uint64_t from, to, ts;

	open_store(&f, true);
	pts_evstore_begin_run(&f.s, 7, 8, 0x1020, 0x1010, 100, 0x40);
	CU_ASSERT_TRUE(pts_evstore_add_jump(&f.s, 7, 8, 0x1030, 0x1008, 150));
	CU_ASSERT_TRUE(pts_evstore_add_jump(&f.s, 7, 8, 0x1018, 0x1040, 175));
	CU_ASSERT_EQUAL(f.s.enext - f.ev, 1);
	CU_ASSERT_EQUAL(f.pos[0], 0x40);
	CU_ASSERT_EQUAL(e->flags, PTS_REC_RUN);
	CU_ASSERT_EQUAL(e->kind, PTS_BR_JUMP);
	CU_ASSERT_EQUAL(e->from, 0x1008);
	CU_ASSERT_EQUAL(e->run.span, 0x38);
	CU_ASSERT_EQUAL(e->ts_ns, 100);
	CU_ASSERT_EQUAL(e->run.dts, 75);
	CU_ASSERT_EQUAL(e->n, 3);
	CU_ASSERT_EQUAL(e->xi, 0);
	pts_evstore_jump_at(e, &f.j[1], &from, &to, &ts);
	CU_ASSERT_EQUAL(from, 0x1030);
	CU_ASSERT_EQUAL(to, 0x1008);
	CU_ASSERT_EQUAL(ts, 150);
	pts_evstore_jump_at(e, &f.j[2], &from, &to, &ts);
	CU_ASSERT_EQUAL(from, 0x1018);
	CU_ASSERT_EQUAL(to, 0x1040);
	CU_ASSERT_EQUAL(ts, 175);
}

/*
 * A jump keeps the low halves of its addresses and its time after the
 * run's first: the run's least address and first time give them back,
 * across a 2^32 boundary of the addresses and with the time 2^32 - 1 ns on.
 */
static void a_runs_jumps_come_back_whole_across_a_2_pow_32_boundary(void)
{
	struct fixture f;
	uint64_t from, to, ts;

	open_store(&f, true);
	pts_evstore_begin_run(&f.s, 7, 8, 0x1fffffff0, 0x200000010, 1000, 0);
	CU_ASSERT_TRUE(pts_evstore_add_jump(&f.s, 7, 8, 0x200000008, 0x1ffffffe0, 1001));
	CU_ASSERT_TRUE(pts_evstore_add_jump(&f.s, 7, 8, 0x100000011, 0x200000000, 999 + (1ull << 32)));
	CU_ASSERT_EQUAL(f.ev[0].from, 0x100000011);
	CU_ASSERT_EQUAL(f.ev[0].run.span, 0xffffffff);
	pts_evstore_jump_at(&f.ev[0], &f.j[0], &from, &to, &ts);
	CU_ASSERT_EQUAL(from, 0x1fffffff0);
	CU_ASSERT_EQUAL(to, 0x200000010);
	CU_ASSERT_EQUAL(ts, 1000);
	pts_evstore_jump_at(&f.ev[0], &f.j[1], &from, &to, &ts);
	CU_ASSERT_EQUAL(from, 0x200000008);
	CU_ASSERT_EQUAL(to, 0x1ffffffe0);
	CU_ASSERT_EQUAL(ts, 1001);
	pts_evstore_jump_at(&f.ev[0], &f.j[2], &from, &to, &ts);
	CU_ASSERT_EQUAL(from, 0x100000011);
	CU_ASSERT_EQUAL(to, 0x200000000);
	CU_ASSERT_EQUAL(ts, 999 + (1ull << 32));
}

static void a_jump_of_another_thread_or_time_does_not_extend_the_run(void)
{
	struct fixture f;

	open_store(&f, false);
	pts_evstore_begin_run(&f.s, 7, 8, 0x1020, 0x1010, 100, 0);
	CU_ASSERT_FALSE(pts_evstore_add_jump(&f.s, 7, 9, 0x1020, 0x1010, 100));
	CU_ASSERT_FALSE(pts_evstore_add_jump(&f.s, 6, 8, 0x1020, 0x1010, 100));
	/* several CPUs: the merge may put another CPU's event between two times */
	CU_ASSERT_FALSE(pts_evstore_add_jump(&f.s, 7, 8, 0x1020, 0x1010, 101));
	CU_ASSERT_EQUAL(f.ev[0].n, 1);
	CU_ASSERT_EQUAL(f.s.jnext - f.j, 1);
}

static void a_jump_that_would_spread_the_run_over_2_pow_32_bytes_begins_another(void)
{
	struct fixture f;

	open_store(&f, true);
	pts_evstore_begin_run(&f.s, 7, 8, 0x100000000, 0x100000010, 100, 0);
	/* lo 0x10, hi 0x100000010: 2^32 apart */
	CU_ASSERT_FALSE(pts_evstore_add_jump(&f.s, 7, 8, 0x100000000, 0x10, 110));
	CU_ASSERT_TRUE(pts_evstore_add_jump(&f.s, 7, 8, 0x100000000, 0x11, 110));
	CU_ASSERT_EQUAL(f.ev[0].from, 0x11);
	CU_ASSERT_EQUAL(f.ev[0].run.span, 0xffffffff);
	CU_ASSERT_EQUAL(f.ev[0].n, 2);
}

static void a_jump_2_pow_32_ns_after_the_runs_first_begins_another(void)
{
	struct fixture f;

	open_store(&f, true);
	pts_evstore_begin_run(&f.s, 7, 8, 0x1020, 0x1010, 1000, 0);
	CU_ASSERT_FALSE(pts_evstore_add_jump(&f.s, 7, 8, 0x1020, 0x1010, 1000 + (1ull << 32)));
	/* nor one before it (time would wrap) */
	CU_ASSERT_FALSE(pts_evstore_add_jump(&f.s, 7, 8, 0x1020, 0x1010, 999));
	CU_ASSERT_TRUE(pts_evstore_add_jump(&f.s, 7, 8, 0x1020, 0x1010, 999 + (1ull << 32)));
	CU_ASSERT_EQUAL(f.ev[0].run.dts, 0xffffffff);
}

static void a_jump_wider_than_2_pow_32_bytes_is_an_event_of_its_own(void)
{
	struct fixture f;

	open_store(&f, true);
	/* a PLT's jump into a library far away */
	pts_evstore_begin_run(&f.s, 7, 8, 0x555555554020, 0x7ffff7a00000, 100, 0x40);
	CU_ASSERT_EQUAL(f.ev[0].flags, PTS_REC_SLOW);
	CU_ASSERT_EQUAL(f.ev[0].from, 0x555555554020);
	CU_ASSERT_EQUAL(f.ev[0].to, 0x7ffff7a00000);
	CU_ASSERT_EQUAL(f.pos[0], 0x40);
	CU_ASSERT_PTR_NULL(f.s.open);
	CU_ASSERT_EQUAL(f.s.jnext - f.j, 0);
	CU_ASSERT_FALSE(pts_evstore_add_jump(&f.s, 7, 8, 0x7ffff7a00010, 0x7ffff7a00000, 100));
}

static void a_run_ends_at_65535_jumps(void)
{
	struct pts_run_bounds r;
	uint32_t i;

	CU_ASSERT_TRUE(pts_run_begin(&r, 7, 8, 0x1020, 0x1010, 100));
	for (i = 1; i < 65535; i++)
		CU_ASSERT_TRUE_FATAL(pts_run_add(&r, true, 7, 8, 0x1020, 0x1010, 100));
	CU_ASSERT_EQUAL(r.n, 65535);
	CU_ASSERT_FALSE(pts_run_add(&r, true, 7, 8, 0x1020, 0x1010, 100));
	CU_ASSERT_EQUAL(r.n, 65535);
}

static void the_thread_is_written_where_it_changes(void)
{
	struct fixture f;

	open_store(&f, true);
	pts_evstore_put(&f.s, PTS_BR_CALL, 0x1000, 0x2000, 100, 0, 7, 8);
	pts_evstore_begin_run(&f.s, 7, 8, 0x2010, 0x2000, 110, 0);
	pts_evstore_put(&f.s, PTS_BR_RETURN, 0x2020, 0x1005, 120, 0, 7, 8);
	pts_evstore_put(&f.s, PTS_BR_CALL, 0x1000, 0x2000, 130, 0, 7, 9);
	pts_evstore_begin_run(&f.s, 7, 9, 0x2010, 0x2000, 140, 0);
	pts_evstore_put(&f.s, PTS_BR_RETURN, 0x2020, 0x1005, 150, 0, 6, 9);
	CU_ASSERT_EQUAL(f.s.enext - f.ev, 6);
	CU_ASSERT_EQUAL_FATAL(f.s.tnext - f.thr, 3);
	CU_ASSERT_EQUAL(f.thr[0].i, 0);
	CU_ASSERT_EQUAL(f.thr[0].pid, 7);
	CU_ASSERT_EQUAL(f.thr[0].tid, 8);
	CU_ASSERT_EQUAL(f.thr[1].i, 3);
	CU_ASSERT_EQUAL(f.thr[1].tid, 9);
	CU_ASSERT_EQUAL(f.thr[2].i, 5);
	CU_ASSERT_EQUAL(f.thr[2].pid, 6);
	CU_ASSERT_EQUAL(f.thr[2].tid, 9);
}

PTS_SUITE(decode_evstore, NULL, NULL,
	  PTS_TEST(a_run_holds_the_bounds_of_its_jumps_and_its_last_time),
	  PTS_TEST(a_jump_of_another_thread_or_time_does_not_extend_the_run),
	  PTS_TEST(a_jump_that_would_spread_the_run_over_2_pow_32_bytes_begins_another),
	  PTS_TEST(a_jump_2_pow_32_ns_after_the_runs_first_begins_another),
	  PTS_TEST(a_jump_wider_than_2_pow_32_bytes_is_an_event_of_its_own),
	  PTS_TEST(a_runs_jumps_come_back_whole_across_a_2_pow_32_boundary),
	  PTS_TEST(a_run_ends_at_65535_jumps),
	  PTS_TEST(the_thread_is_written_where_it_changes));
