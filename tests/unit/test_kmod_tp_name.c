// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint trigger names (kmod/pure/tp_name.c): the format of
 * /sys/kernel/tracing/available_events is "subsystem:event"; the module
 * matches the event part against struct tracepoint.name.
 */
#define PTS_HOST 1
#include "unit.h"
#include "../../kmod/pure/pts_pure.h"

static void subsystem_colon_event_yields_the_event(void)
{
	const char *e = pts_tracepoint_event("sched:sched_process_exec");

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_STRING_EQUAL(e, "sched_process_exec");
}

static void bare_event_name_is_accepted(void)
{
	const char *e = pts_tracepoint_event("sys_enter");

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_STRING_EQUAL(e, "sys_enter");
}

static void empty_parts_and_extra_colons_are_refused(void)
{
	CU_ASSERT_PTR_NULL(pts_tracepoint_event(""));
	CU_ASSERT_PTR_NULL(pts_tracepoint_event("sched:"));
	CU_ASSERT_PTR_NULL(pts_tracepoint_event(":sched_switch"));
	CU_ASSERT_PTR_NULL(pts_tracepoint_event("a:b:c"));
}

PTS_SUITE(kmod_tp_name, NULL, NULL,
	  PTS_TEST(subsystem_colon_event_yields_the_event),
	  PTS_TEST(bare_event_name_is_accepted),
	  PTS_TEST(empty_parts_and_extra_colons_are_refused));
