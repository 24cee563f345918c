// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint trigger names (kmod/pure/tp_name.c): the format of
 * /sys/kernel/tracing/available_events is "subsystem:event"; the module
 * matches the event part against struct tracepoint.name, and arms triggers
 * only on the tracepoints of include/ptscope/tp_triggers.h (one typed probe
 * each). The subsystems below are those of the kernel's trace headers
 * (TRACE_SYSTEM of include/trace/events/sched.h, signal.h, syscalls.h,
 * arch/x86/include/asm/trace/exceptions.h).
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

/* The index names the entry: subsystem and event as in tracefs. */
static void listed(const char *spec, const char *sys, const char *event)
{
	int i = pts_tp_trigger_lookup(spec);

	CU_ASSERT_FATAL(i >= 0 && (unsigned int)i < pts_tp_nr_triggers);
	CU_ASSERT_STRING_EQUAL(pts_tp_triggers[i].subsystem, sys);
	CU_ASSERT_STRING_EQUAL(pts_tp_triggers[i].event, event);
}

static void listed_tracepoints_are_found_by_full_or_bare_name(void)
{
	listed("sched:sched_process_exit", "sched", "sched_process_exit");
	listed("sched_process_exit", "sched", "sched_process_exit");
	listed("raw_syscalls:sys_enter", "raw_syscalls", "sys_enter");
	listed("signal:signal_deliver", "signal", "signal_deliver");
	listed("exceptions:page_fault_user", "exceptions", "page_fault_user");
	listed("sched:sched_switch", "sched", "sched_switch");
}

/* The subsystem is compared: no such tracepoint, not the event elsewhere. */
static void a_listed_event_under_another_subsystem_does_not_exist(void)
{
	CU_ASSERT_EQUAL(pts_tp_trigger_lookup("signal:sched_process_exit"), -ENOENT);
	CU_ASSERT_EQUAL(pts_tp_trigger_lookup("sche:sched_process_exit"), -ENOENT);
	CU_ASSERT_EQUAL(pts_tp_trigger_lookup("schedx:sched_process_exit"), -ENOENT);
	CU_ASSERT_EQUAL(pts_tp_trigger_lookup("syscalls:sys_enter"), -ENOENT);
}

static void unlisted_and_malformed_names(void)
{
	CU_ASSERT_EQUAL(pts_tp_trigger_lookup("sched:sched_kthread_stop"), -EOPNOTSUPP);
	/* syscall events are ftrace events, not tracepoints */
	CU_ASSERT_EQUAL(pts_tp_trigger_lookup("syscalls:sys_enter_write"), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(pts_tp_trigger_lookup("sched:sched_process_exit_"), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(pts_tp_trigger_lookup(""), -ENOENT);
	CU_ASSERT_EQUAL(pts_tp_trigger_lookup("sched:"), -ENOENT);
	CU_ASSERT_EQUAL(pts_tp_trigger_lookup(":sched_switch"), -ENOENT);
	CU_ASSERT_EQUAL(pts_tp_trigger_lookup("a:b:sched_switch"), -ENOENT);
}

/* Each event once (the lookup takes the first) and every name a C identifier. */
static void the_list_has_unique_events(void)
{
	unsigned int i, j;

	CU_ASSERT(pts_tp_nr_triggers >= 16);
	for (i = 0; i < pts_tp_nr_triggers; i++) {
		CU_ASSERT_EQUAL(pts_tp_trigger_lookup(pts_tp_triggers[i].event), (int)i);
		for (j = i + 1; j < pts_tp_nr_triggers; j++)
			CU_ASSERT_STRING_NOT_EQUAL(pts_tp_triggers[i].event,
						   pts_tp_triggers[j].event);
	}
}

PTS_SUITE(kmod_tp_name, NULL, NULL,
	  PTS_TEST(listed_tracepoints_are_found_by_full_or_bare_name),
	  PTS_TEST(a_listed_event_under_another_subsystem_does_not_exist),
	  PTS_TEST(unlisted_and_malformed_names),
	  PTS_TEST(the_list_has_unique_events),
	  PTS_TEST(subsystem_colon_event_yields_the_event),
	  PTS_TEST(bare_event_name_is_accepted),
	  PTS_TEST(empty_parts_and_extra_colons_are_refused));
