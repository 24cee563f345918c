// SPDX-License-Identifier: GPL-2.0
/*
 * What ptscope tells the user: the armed status line, the decode command
 * to run next, and the trigger's wall-clock time. Expected times were
 * computed separately (python3 datetime on the same epoch values).
 */
#include "unit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture/caps.h"
#include "capture/capture.h"
#include "capture/device.h"

static void decode_hint_replaces_ptscope_suffix_with_fxt(void)
{
	char b[256];

	pts_capture_decode_hint("run1.ptscope", b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "ptscope decode run1.ptscope -o run1.fxt");
	pts_capture_decode_hint("/tmp/x/run1.ptscope/", b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "ptscope decode /tmp/x/run1.ptscope -o /tmp/x/run1.fxt");
	pts_capture_decode_hint("trace", b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "ptscope decode trace -o trace.fxt");
}

static void trigger_tsc_converts_to_wall_clock_through_the_start_pair(void)
{
	struct pts_bundle_time_pair pair = {
		.when = "start", .tsc = 1000000,
		.realtime_ns = 1764370000000000000ULL, .monotonic_ns = 5,
	};
	struct pts_bundle b;
	char buf[64];
	char *tz = getenv("TZ") ? strdup(getenv("TZ")) : NULL;

	memset(&b, 0, sizeof(b));
	b.time_pairs = &pair;
	b.nr_time_pairs = 1;
	b.tsc_khz = 2000000;		/* 2 GHz: 3,000,000 ticks = 1.5 ms */
	setenv("TZ", "UTC", 1);
	tzset();
	CU_ASSERT_EQUAL(pts_tsc_to_wallclock(&b, 4000000, buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "2025-11-28 22:46:40.001500");
	/* before the pair, or without a frequency: no answer rather than a wrong one */
	CU_ASSERT_EQUAL(pts_tsc_to_wallclock(&b, 999999, buf, sizeof(buf)), -EINVAL);
	b.tsc_khz = 0;
	CU_ASSERT_EQUAL(pts_tsc_to_wallclock(&b, 4000000, buf, sizeof(buf)), -EINVAL);
	if (tz) {
		setenv("TZ", tz, 1);
		free(tz);
	} else {
		unsetenv("TZ");
	}
	tzset();
}

static void status_line_names_cpus_size_scope_and_trigger(void)
{
	struct pts_capture_opts o;
	struct pts_capture c;
	struct pts_err err;
	char *argv[] = { "record", "-C", "0-3", "--size", "64M", "--scope", "both",
			 "--trigger", "hotkey:x", NULL };
	char buf[512];
	FILE *f;

	CU_ASSERT_EQUAL_FATAL(pts_opts_parse(PTS_CMD_RECORD, 9, argv, &o, &err), 0);
	memset(&c, 0, sizeof(c));
	c.o = &o;
	c.caps.flags = PTSCOPE_CAPS_SIMULATED;
	f = fmemopen(buf, sizeof(buf), "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	pts_capture_status_line(&c, f);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "system-wide"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "4 CPUs x 64 MiB"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "scope both"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "trigger hotkey:x"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "[simulated PT unit]"));
	CU_ASSERT_PTR_NOT_NULL(strchr(buf, '\n'));
	CU_ASSERT_EQUAL(strchr(buf, '\n'), strrchr(buf, '\n'));	/* one line */
}

static void default_name_is_timestamped_bundle_with_our_pid(void)
{
	char b[64];
	unsigned int y, mo, d, h, mi, s, pid;
	char rest[16];

	pts_capture_default_name(b, sizeof(b));
	CU_ASSERT_EQUAL(sscanf(b, "ptscope-%4u%2u%2u-%2u%2u%2u-%u%15s", &y, &mo, &d, &h, &mi, &s,
			       &pid, rest), 8);
	CU_ASSERT_EQUAL(pid, (unsigned int)getpid());	/* two runs in one second differ */
	CU_ASSERT_STRING_EQUAL(rest, ".ptscope");
}

/*
 * A tracepoint the module has no probe for (BAD_TRIGGER with EOPNOTSUPP,
 * docs/abi.md "Triggers") or that does not exist: the options refuse
 * names the list does not hold (test_cli_options.c), so this is a module
 * built with another list, and the message says where the list is
 * (the list itself after the reason text was cut at the message's 512
 * bytes, its last names lost). Other BAD_TRIGGER refusals (a malformed
 * specification, EINVAL) do not.
 */
static void tracepoint_refusals_say_where_the_supported_tracepoints_are(void)
{
	struct ptscope_hdr hdr = { .reason = PTSCOPE_R_BAD_TRIGGER };
	struct pts_err err;

	pts_dev_refusal("CONFIGURE", EOPNOTSUPP, &hdr, &err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not a tracepoint this module has a probe for"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "ptscope record --help lists"));
	pts_dev_refusal("CONFIGURE", EINVAL, &hdr, &err);
	CU_ASSERT_PTR_NULL(strstr(err.msg, "--help"));
	hdr.reason = PTSCOPE_R_TRACEPOINT_NOT_FOUND;
	pts_dev_refusal("CONFIGURE", ENOENT, &hdr, &err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "ptscope record --help lists the tracepoints a "
					      "trigger can be armed on"));
	CU_ASSERT(strlen(err.msg) < sizeof(err.msg) - 1);
}

/*
 * Refused for want of CAP_PERFMON: the capabilities to grant include what
 * a kernel scope's bundle reads besides arming (kallsyms addresses:
 * CAP_SYSLOG; /proc/kcore: CAP_SYS_RAWIO); with CAP_PERFMON alone such a
 * bundle came out without the kernel's names and text.
 */
static void capability_refusal_names_every_capability_a_kernel_bundle_needs(void)
{
	struct ptscope_hdr hdr = { .reason = PTSCOPE_R_NEED_CAP_ADMIN };
	struct pts_err err;

	pts_dev_refusal("CONFIGURE", EPERM, &hdr, &err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "setcap cap_perfmon,cap_syslog,cap_sys_rawio+ep"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "--scope user"));
	CU_ASSERT(strlen(err.msg) < sizeof(err.msg) - 1);
}

/*
 * A uprobe trigger refused for want of CAP_SYS_ADMIN (perf's uprobes ask
 * the same): CAP_PERFMON would not help, so the hint must not offer it,
 * and it names the triggers a user may arm on its own process instead.
 */
static void uprobe_refusal_asks_for_root_and_names_other_triggers(void)
{
	struct ptscope_hdr hdr = { .reason = PTSCOPE_R_NEED_SYS_ADMIN };
	struct pts_err err;

	pts_dev_refusal("CONFIGURE", EPERM, &hdr, &err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "CAP_SYS_ADMIN"));
	CU_ASSERT_PTR_NULL(strstr(err.msg, "setcap"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "--trigger manual"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "tracepoint:SUBSYS:EVENT:pid=N"));
	CU_ASSERT(strlen(err.msg) < sizeof(err.msg) - 1);
}

/* `ptscope caps`'s permission block for GET_CAPS flags @flags and paranoid @p. */
static char *permissions_text(unsigned int flags, int p)
{
	struct ptscope_caps caps;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	memset(&caps, 0, sizeof(caps));
	caps.flags = flags;
	pts_caps_print_permissions(&caps, p, f);
	fclose(f);
	return text;
}

/*
 * `ptscope caps` says which rule kernel scope gets on the running kernel,
 * as the module reports it (docs/abi.md, Permissions): 6.12's
 * perf_allow_kernel() or, on 6.1, CAP_PERFMON alone; and that
 * perf_event_paranoid, which no module can read, is not what decides.
 */
static void caps_explains_the_kernel_scope_rule_of_each_kernel(void)
{
	char *k612 = permissions_text(PTSCOPE_CAPS_PERF_ALLOW_KERNEL, 3);
	char *k61 = permissions_text(0, 2);
	char *unk = permissions_text(0, PTS_PARANOID_UNKNOWN);

	CU_ASSERT_PTR_NOT_NULL(strstr(k612, "perf_allow_kernel() (6.12)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(k612, "perf_event_paranoid test (3 here)"));
	CU_ASSERT_PTR_NULL(strstr(k612, "(6.1)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(k61, "to modules (6.1)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(k61, "perf_event_paranoid (2 here) and the perf LSM hook are "
					   "not applied"));
	CU_ASSERT_PTR_NULL(strstr(k61, "(6.12)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(unk, "perf_event_paranoid (unreadable here)"));
	/* both: the rules that do not depend on the kernel */
	CU_ASSERT_PTR_NOT_NULL(strstr(k61, "uprobe (user-function) triggers: CAP_SYS_ADMIN"));
	CU_ASSERT_PTR_NOT_NULL(strstr(k612, "ptrace access to it, no capability"));
	free(k612);
	free(k61);
	free(unk);
}

/*
 * `ptscope caps` says whether a crash kernel would get a CPU still
 * tracing (docs/abi.md, "What a PANIC snapshot can promise"): the
 * module's PTSCOPE_CAPS_CRASH_STOP, its probe on machine_crash_shutdown().
 */
static void caps_says_whether_the_crashing_cpu_stops_before_kdump(void)
{
	struct ptscope_caps caps;
	char *with = NULL, *without = NULL;
	size_t len = 0;
	FILE *f;

	memset(&caps, 0, sizeof(caps));
	caps.flags = PTSCOPE_CAPS_CRASH_STOP;
	f = open_memstream(&with, &len);
	pts_caps_print_table(&caps, 'x', f);
	fclose(f);
	caps.flags = 0;
	f = open_memstream(&without, &len);
	pts_caps_print_table(&caps, 'x', f);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(with, "kdump         the module stops PT on the crashing CPU "
					    "before a crash kernel runs"));
	CU_ASSERT_PTR_NULL(strstr(with, "traces on"));
	CU_ASSERT_PTR_NOT_NULL(strstr(without, "kdump         no crash-kexec probe: with a crash "
					       "kernel loaded, the crashing CPU traces on into it "
					       "unless crash_kexec_post_notifiers is Y"));
	free(with);
	free(without);
}

/* `ptscope trigger` with nothing armed says what it is for; other calls refused so say nothing more. */
static void trigger_refused_when_nothing_is_armed_says_what_to_arm(void)
{
	struct ptscope_hdr hdr = { .reason = PTSCOPE_R_NOT_ARMED };
	struct pts_err err;

	pts_dev_refusal("TRIGGER", EINVAL, &hdr, &err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "TRIGGER refused: not armed"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "--trigger manual"));
	pts_dev_refusal("STOP", EINVAL, &hdr, &err);
	CU_ASSERT_PTR_NULL(strstr(err.msg, "--trigger"));
}

PTS_SUITE(cli_feedback, NULL, NULL,
	  PTS_TEST(tracepoint_refusals_say_where_the_supported_tracepoints_are),
	  PTS_TEST(capability_refusal_names_every_capability_a_kernel_bundle_needs),
	  PTS_TEST(uprobe_refusal_asks_for_root_and_names_other_triggers),
	  PTS_TEST(caps_explains_the_kernel_scope_rule_of_each_kernel),
	  PTS_TEST(caps_says_whether_the_crashing_cpu_stops_before_kdump),
	  PTS_TEST(trigger_refused_when_nothing_is_armed_says_what_to_arm),
	  PTS_TEST(decode_hint_replaces_ptscope_suffix_with_fxt),
	  PTS_TEST(trigger_tsc_converts_to_wall_clock_through_the_start_pair),
	  PTS_TEST(status_line_names_cpus_size_scope_and_trigger),
	  PTS_TEST(default_name_is_timestamped_bundle_with_our_pid))
