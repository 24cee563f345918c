// SPDX-License-Identifier: GPL-2.0
/*
 * A perf sideband that places no thread on a trace's CPU is said
 * (decode/sideband_cpus.h): the records are built here, their CPUs chosen
 * so that the message's content is known without the code.
 */
#include <string.h>

#include "unit.h"
#include "decode/sideband_cpus.h"

static void add(struct pts_sideband *sb, enum pts_sb_type type, uint32_t cpu)
{
	struct pts_sb_rec r;

	memset(&r, 0, sizeof(r));
	r.type = type;
	r.cpu = cpu;
	r.pid = r.tid = 42;
	r.name = type == PTS_SB_COMM ? "prog" : NULL;
	CU_ASSERT_EQUAL_FATAL(pts_sideband_add(sb, &r), 0);
}

static void every_trace_cpu_with_a_switch_record_is_not_said(void)
{
	struct pts_sideband sb = { 0 };
	const uint32_t cpus[] = { 3, 1 };
	char msg[384] = "";

	add(&sb, PTS_SB_SWITCH, 1);
	add(&sb, PTS_SB_COMM, UINT32_MAX);
	add(&sb, PTS_SB_SWITCH, 3);
	CU_ASSERT_FALSE(pts_sideband_cpus_check(&sb, cpus, 2, 0x10086, msg, sizeof(msg)));
	CU_ASSERT_STRING_EQUAL(msg, "");
	pts_sideband_free(&sb);
}

static void a_trace_cpu_without_a_switch_record_is_said_with_the_records_cpus(void)
{
	struct pts_sideband sb = { 0 };
	const uint32_t cpus[] = { 0 };
	char msg[384] = "";

	/* the dynamorio capture's case: its sideband is of CPU 9, --cpu left at 0 */
	add(&sb, PTS_SB_SWITCH, 9);
	add(&sb, PTS_SB_SWITCH, 9);
	CU_ASSERT_TRUE(pts_sideband_cpus_check(&sb, cpus, 1, 0x10086, msg, sizeof(msg)));
	CU_ASSERT_STRING_EQUAL(msg, "the perf sideband places no thread on CPU 0 (of the --pt "
			       "files): its trace is one track of an unknown thread; its records "
			       "are of CPU 9: give each --pt the CPU it was recorded on (--cpu N "
			       "after it), and check --pevent-sample-type 0x10086 is the "
			       "recording's");
	pts_sideband_free(&sb);
}

static void only_the_trace_cpus_without_a_record_are_listed(void)
{
	struct pts_sideband sb = { 0 };
	const uint32_t cpus[] = { 0, 1, 2 };
	char msg[384] = "";

	add(&sb, PTS_SB_SWITCH, 1);
	add(&sb, PTS_SB_SWITCH, 7);
	CU_ASSERT_TRUE(pts_sideband_cpus_check(&sb, cpus, 3, 0x10086, msg, sizeof(msg)));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg, "no thread on CPUs 0, 2 (of the --pt files): their "
				      "traces are each one track of an unknown thread; its "
				      "records are of CPUs 1, 7:"));
	pts_sideband_free(&sb);
}

static void records_without_a_cpu_say_the_sample_type_lacks_perf_sample_cpu(void)
{
	struct pts_sideband sb = { 0 };
	const uint32_t cpus[] = { 0 };
	char msg[384] = "";

	add(&sb, PTS_SB_SWITCH, UINT32_MAX);
	CU_ASSERT_TRUE(pts_sideband_cpus_check(&sb, cpus, 1, 0x6, msg, sizeof(msg)));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg, "records carry no CPU (--pevent-sample-type 0x6 "
				      "lacks PERF_SAMPLE_CPU, 0x80)"));
	pts_sideband_free(&sb);
}

static void a_sideband_without_switch_records_says_no_thread_is_known(void)
{
	struct pts_sideband sb = { 0 };
	const uint32_t cpus[] = { 0 };
	char msg[384] = "";

	add(&sb, PTS_SB_COMM, 0);
	add(&sb, PTS_SB_MMAP, 0);
	CU_ASSERT_TRUE(pts_sideband_cpus_check(&sb, cpus, 1, 0x10086, msg, sizeof(msg)));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg, "holds no SWITCH, SWITCH_CPU_WIDE or ITRACE_START "
				      "record read with --pevent-sample-type 0x10086"));
	pts_sideband_free(&sb);
}

static void cpu_numbers_no_kernel_gives_are_said_as_such(void)
{
	struct pts_sideband sb = { 0 };
	const uint32_t cpus[] = { 0 };
	char msg[384] = "";

	/* a trailer read at the wrong offset: 8192 is past NR_CPUS's largest */
	add(&sb, PTS_SB_SWITCH, 8192);
	CU_ASSERT_TRUE(pts_sideband_cpus_check(&sb, cpus, 1, 0x86, msg, sizeof(msg)));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg, "unknown thread; its records name CPU numbers no "
				      "kernel gives: give each --pt"));
	pts_sideband_free(&sb);
}

static void many_record_cpus_are_listed_up_to_eight_and_counted(void)
{
	struct pts_sideband sb = { 0 };
	const uint32_t cpus[] = { 100 };
	char msg[384] = "";
	uint32_t c;

	for (c = 0; c < 10; c++)
		add(&sb, PTS_SB_SWITCH, 9 - c);
	CU_ASSERT_TRUE(pts_sideband_cpus_check(&sb, cpus, 1, 0x10086, msg, sizeof(msg)));
	CU_ASSERT_PTR_NOT_NULL(strstr(msg, "its records are of CPUs 0, 1, 2, 3, 4, 5, 6, 7 "
				      "and 2 more:"));
	pts_sideband_free(&sb);
}

PTS_SUITE(decode_sideband_cpus, NULL, NULL,
	  PTS_TEST(every_trace_cpu_with_a_switch_record_is_not_said),
	  PTS_TEST(a_trace_cpu_without_a_switch_record_is_said_with_the_records_cpus),
	  PTS_TEST(only_the_trace_cpus_without_a_record_are_listed),
	  PTS_TEST(records_without_a_cpu_say_the_sample_type_lacks_perf_sample_cpu),
	  PTS_TEST(a_sideband_without_switch_records_says_no_thread_is_known),
	  PTS_TEST(cpu_numbers_no_kernel_gives_are_said_as_such),
	  PTS_TEST(many_record_cpus_are_listed_up_to_eight_and_counted));
