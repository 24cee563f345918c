// SPDX-License-Identifier: GPL-2.0
/*
 * What a panic leaves of a capture (kmod/pure/panic.c), the state a
 * crash-dump reader finds. Expected answers from docs/abi.md, "What a
 * PANIC snapshot can promise": a capture still tracing ends there as
 * TRIGGERED, marked PTSCOPE_STATEF_PANIC; the panic is the trigger of an
 * ARMED one; a post-trigger delay is cut short and its trigger stays.
 * The VM suite plays one case (panic_in_post_trigger_delay: a panic in
 * the delay, read from the notifier's console line); every case of the
 * rule is checked here.
 */
#define PTS_HOST 1
#include "unit.h"
#include "../../kmod/pure/pts_pure.h"

/* The post-trigger delay: before this rule the notifier left it POST_TRIGGER. */
static void panic_in_the_post_trigger_delay_ends_triggered_keeping_its_trigger(void)
{
	struct pts_panic_end e = pts_panic_end(PTSCOPE_STATE_POST_TRIGGER);

	CU_ASSERT_EQUAL(e.run, PTSCOPE_STATE_TRIGGERED);
	CU_ASSERT_TRUE(e.ended);
	CU_ASSERT_FALSE(e.panic_is_trigger);
}

static void panic_while_armed_is_the_trigger(void)
{
	struct pts_panic_end e = pts_panic_end(PTSCOPE_STATE_ARMED);

	CU_ASSERT_EQUAL(e.run, PTSCOPE_STATE_TRIGGERED);
	CU_ASSERT_TRUE(e.ended);
	CU_ASSERT_TRUE(e.panic_is_trigger);
}

/* Nothing was tracing: the state and its trigger stay as they were. */
static void panic_without_tracing_changes_nothing(void)
{
	static const u32 idle[] = {
		PTSCOPE_STATE_IDLE, PTSCOPE_STATE_CONFIGURED, PTSCOPE_STATE_TRIGGERED,
		PTSCOPE_STATE_STOPPED,
	};
	unsigned int i;

	for (i = 0; i < sizeof(idle) / sizeof(idle[0]); i++) {
		struct pts_panic_end e = pts_panic_end(idle[i]);

		CU_ASSERT_EQUAL(e.run, idle[i]);
		CU_ASSERT_FALSE(e.ended);
		CU_ASSERT_FALSE(e.panic_is_trigger);
	}
}

PTS_SUITE(kmod_panic, NULL, NULL,
	  PTS_TEST(panic_in_the_post_trigger_delay_ends_triggered_keeping_its_trigger),
	  PTS_TEST(panic_while_armed_is_the_trigger),
	  PTS_TEST(panic_without_tracing_changes_nothing));
