// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU merge heap (decode/cpuheap.h): CPUs come out in the order of
 * their next event's time, equal times by CPU index, and a CPU whose key
 * moves on takes its new place. Answers worked out by hand.
 */
#include "unit.h"
#include "session/cpuheap.h"

static void cpus_come_out_by_time_then_index(void)
{
	/* (key, idx): 30/0 10/1 20/2 10/3 5/4 20/5 -> 5/4 10/1 10/3 20/2 20/5 30/0 */
	static const uint64_t keys[] = { 30, 10, 20, 10, 5, 20 };
	static const unsigned int want[] = { 4, 1, 3, 2, 5, 0 };
	struct pts_cpuheap h;
	unsigned int i;

	CU_ASSERT_EQUAL_FATAL(pts_cpuheap_init(&h, 6), 0);
	for (i = 0; i < 6; i++)
		pts_cpuheap_push(&h, keys[i], i);
	for (i = 0; i < 6; i++) {
		CU_ASSERT_PTR_NOT_NULL_FATAL(pts_cpuheap_top(&h));
		CU_ASSERT_EQUAL(pts_cpuheap_top(&h)->idx, want[i]);
		pts_cpuheap_pop(&h);
	}
	CU_ASSERT_PTR_NULL(pts_cpuheap_top(&h));
	pts_cpuheap_free(&h);
}

/*
 * CPU 0 at 1, CPU 1 at 2, CPU 2 at 3. CPU 0 moves to 4: CPU 1 is next.
 * CPU 1 moves to 3, the time of CPU 2: equal times go by index, so CPU 1
 * again. It moves to 10: CPU 2 (3), then CPU 0 (4), then CPU 1 (10).
 */
static void a_cpu_that_moves_on_takes_its_new_place(void)
{
	struct pts_cpuheap h;

	CU_ASSERT_EQUAL_FATAL(pts_cpuheap_init(&h, 3), 0);
	pts_cpuheap_push(&h, 1, 0);
	pts_cpuheap_push(&h, 2, 1);
	pts_cpuheap_push(&h, 3, 2);
	CU_ASSERT_EQUAL(pts_cpuheap_top(&h)->idx, 0);
	pts_cpuheap_update_top(&h, 4);
	CU_ASSERT_EQUAL(pts_cpuheap_top(&h)->idx, 1);
	pts_cpuheap_update_top(&h, 3);
	CU_ASSERT_EQUAL(pts_cpuheap_top(&h)->idx, 1);
	pts_cpuheap_update_top(&h, 10);
	CU_ASSERT_EQUAL(pts_cpuheap_top(&h)->idx, 2);
	pts_cpuheap_pop(&h);
	CU_ASSERT_EQUAL(pts_cpuheap_top(&h)->idx, 0);
	pts_cpuheap_pop(&h);
	CU_ASSERT_EQUAL(pts_cpuheap_top(&h)->idx, 1);
	CU_ASSERT_EQUAL(pts_cpuheap_top(&h)->key, 10);
	pts_cpuheap_free(&h);
}

/* 1024 CPUs pushed in reverse time order come out in time order. */
static void many_cpus_come_out_in_order(void)
{
	struct pts_cpuheap h;
	unsigned int i;
	uint64_t prev = 0;

	CU_ASSERT_EQUAL_FATAL(pts_cpuheap_init(&h, 1024), 0);
	for (i = 0; i < 1024; i++)
		pts_cpuheap_push(&h, (uint64_t)(1024 - i) * 7 % 1031, i);
	for (i = 0; i < 1024; i++) {
		CU_ASSERT(pts_cpuheap_top(&h)->key >= prev);
		prev = pts_cpuheap_top(&h)->key;
		pts_cpuheap_pop(&h);
	}
	CU_ASSERT_EQUAL(h.n, 0);
	pts_cpuheap_free(&h);
}

/*
 * The entry after the top: none with one CPU; with 30/0 10/1 20/2 10/3
 * (top 10/1) it is 10/3, equal time, higher index; after CPU 1 moves to
 * 25 (top 10/3) it is 20/2.
 */
static void the_second_is_the_next_cpu_out(void)
{
	struct pts_cpuheap h;

	CU_ASSERT_EQUAL_FATAL(pts_cpuheap_init(&h, 4), 0);
	pts_cpuheap_push(&h, 30, 0);
	CU_ASSERT_PTR_NULL(pts_cpuheap_second(&h));
	pts_cpuheap_push(&h, 10, 1);
	CU_ASSERT_EQUAL(pts_cpuheap_second(&h)->idx, 0);
	pts_cpuheap_push(&h, 20, 2);
	pts_cpuheap_push(&h, 10, 3);
	CU_ASSERT_EQUAL(pts_cpuheap_top(&h)->idx, 1);
	CU_ASSERT_EQUAL(pts_cpuheap_second(&h)->idx, 3);
	pts_cpuheap_update_top(&h, 25);
	CU_ASSERT_EQUAL(pts_cpuheap_top(&h)->idx, 3);
	CU_ASSERT_EQUAL(pts_cpuheap_second(&h)->idx, 2);
	CU_ASSERT_EQUAL(pts_cpuheap_second(&h)->key, 20);
	pts_cpuheap_free(&h);
}

PTS_SUITE(decode_cpuheap, NULL, NULL,
	  PTS_TEST(cpus_come_out_by_time_then_index),
	  PTS_TEST(a_cpu_that_moves_on_takes_its_new_place),
	  PTS_TEST(many_cpus_come_out_in_order),
	  PTS_TEST(the_second_is_the_next_cpu_out));
