// SPDX-License-Identifier: GPL-2.0
/*
 * Option parsing of ptscope run/attach/record into struct ptscope_config.
 * Expected values come from the option documentation (options.h) and the
 * RTIT_CTL field meanings in the SDM (33.2.8.2), not from running the code.
 */
#include "unit.h"

#include <errno.h>
#include <string.h>

#include "capture/filter_scope.h"
#include "capture/device.h"
#include "capture/options.h"
#include "capture/reason_value.h"

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })
#define ARGC(v) ((int)(sizeof(v) / sizeof((v)[0])) - 1)

static struct pts_capture_opts o;
static struct pts_err err;

static int parse(enum pts_capture_cmd cmd, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	pts_err_clear(&err);
	return pts_opts_parse(cmd, argc, argv, &o, &err);
}

#define MSG_HAS(s) CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, (s)))

static void defaults_are_user_scope_snapshot_4m_normal_timing(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record")), 0);
	CU_ASSERT_EQUAL(o.cfg.hdr.size, sizeof(struct ptscope_config));
	CU_ASSERT_EQUAL(o.cfg.scope, PTSCOPE_SCOPE_USER);
	CU_ASSERT_EQUAL(o.cfg.mode, PTSCOPE_MODE_SNAPSHOT);
	CU_ASSERT_EQUAL(o.cfg.buffer_size, 4u << 20);
	/* normal = magic-trace's cyc=1,cyc_thresh=1,mtc_period=0 */
	CU_ASSERT_EQUAL(o.cfg.timing, PTSCOPE_TIMING_TSC | PTSCOPE_TIMING_MTC | PTSCOPE_TIMING_CYC);
	CU_ASSERT_EQUAL(o.cfg.cyc_thresh, 1);
	CU_ASSERT_EQUAL(o.cfg.mtc_freq, 0);
	CU_ASSERT_EQUAL(o.cfg.trace_flags & PTSCOPE_TRACE_DISRETC, 0);
	/* system-wide: no CR3 filter */
	CU_ASSERT_EQUAL(o.cfg.flags & PTSCOPE_CFG_CR3_FILTER, 0);
	CU_ASSERT_EQUAL(o.trigger_kind, PTS_TRIGGER_KIND_NONE);
}

static void scope_option_selects_user_kernel_both(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--scope", "kernel")), 0);
	CU_ASSERT_EQUAL(o.cfg.scope, PTSCOPE_SCOPE_KERNEL);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--scope=both")), 0);
	CU_ASSERT_EQUAL(o.cfg.scope, PTSCOPE_SCOPE_BOTH);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--scope", "user")), 0);
	CU_ASSERT_EQUAL(o.cfg.scope, PTSCOPE_SCOPE_USER);
}

static void bad_scope_names_option_and_accepted_values(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--scope", "kern")), -EINVAL);
	MSG_HAS("--scope");
	MSG_HAS("'kern'");
	MSG_HAS("user, kernel or both");
}

static void magic_trace_spellings_set_scope(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-trace-include-kernel")), 0);
	CU_ASSERT_EQUAL(o.cfg.scope, PTSCOPE_SCOPE_BOTH);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-trace-kernel-only")), 0);
	CU_ASSERT_EQUAL(o.cfg.scope, PTSCOPE_SCOPE_KERNEL);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trace-include-kernel")), 0);
	CU_ASSERT_EQUAL(o.cfg.scope, PTSCOPE_SCOPE_BOTH);
}

static void two_different_scopes_are_refused_naming_both(void)
{
	/* the last one winning would trace no user code for a script's --scope both */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--scope", "user",
						   "-trace-kernel-only")), -EINVAL);
	MSG_HAS("--trace-kernel-only (kernel) contradicts --scope (user) given before it");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-trace-include-kernel",
						   "--scope=kernel")), -EINVAL);
	MSG_HAS("--scope (kernel) contradicts --trace-include-kernel (both)");
	/* one scope said twice is no conflict */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--scope", "both",
						   "-trace-include-kernel")), 0);
	CU_ASSERT_EQUAL(o.cfg.scope, PTSCOPE_SCOPE_BOTH);
	/* a second parse starts afresh: no scope is remembered from the first */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--scope", "user")), 0);
	CU_ASSERT_EQUAL(o.cfg.scope, PTSCOPE_SCOPE_USER);
}

static void two_different_modes_are_refused_naming_both(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RUN, ARGV("run", "--mode", "snapshot", "-full-execution",
						"--", "/bin/true")), -EINVAL);
	MSG_HAS("--full-execution (full) contradicts --mode (snapshot) given before it");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RUN, ARGV("run", "-full-execution", "--mode", "full",
						"--", "/bin/true")), 0);
	CU_ASSERT_EQUAL(o.cfg.mode, PTSCOPE_MODE_FULL);
}

static void run_sets_cr3_filter_and_takes_command_after_dashes(void)
{
	char **argv = ARGV("run", "--size", "64M", "--", "/bin/true", "-x");

	CU_ASSERT_EQUAL(parse(PTS_CMD_RUN, argv), 0);
	CU_ASSERT(o.cfg.flags & PTSCOPE_CFG_CR3_FILTER);
	CU_ASSERT_EQUAL(o.cmd_argc, 2);
	CU_ASSERT_STRING_EQUAL(o.cmd_argv[0], "/bin/true");
	CU_ASSERT_STRING_EQUAL(o.cmd_argv[1], "-x");
	CU_ASSERT_EQUAL(o.cfg.buffer_size, 64u << 20);
}

static void run_command_starts_at_first_word_so_its_options_are_not_ours(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RUN, ARGV("run", "-o", "t.ptscope", "ls", "--size", "x")), 0);
	CU_ASSERT_STRING_EQUAL(o.output, "t.ptscope");
	CU_ASSERT_EQUAL(o.cmd_argc, 3);
	CU_ASSERT_STRING_EQUAL(o.cmd_argv[0], "ls");
}

static void run_without_command_is_refused_with_usage(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RUN, ARGV("run", "--scope", "user")), -EINVAL);
	MSG_HAS("no command");
	MSG_HAS("ptscope run [OPTIONS] -- CMD");
	/* the command prints "ptscope: " before the message: no second prefix */
	CU_ASSERT_NOT_EQUAL(strncmp(err.msg, "ptscope", 7), 0);
}

static void attach_needs_pid_and_record_takes_no_words(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_ATTACH, ARGV("attach")), -EINVAL);
	MSG_HAS("-p PID");
	CU_ASSERT_NOT_EQUAL(strncmp(err.msg, "ptscope", 7), 0);
	CU_ASSERT_EQUAL(parse(PTS_CMD_ATTACH, ARGV("attach", "-p", "1234")), 0);
	CU_ASSERT_EQUAL(o.pid, 1234);
	CU_ASSERT(o.cfg.flags & PTSCOPE_CFG_CR3_FILTER);
	CU_ASSERT_EQUAL(parse(PTS_CMD_ATTACH, ARGV("attach", "-p", "0")), -EINVAL);
	MSG_HAS("-p/--pid");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "ls")), -EINVAL);
	MSG_HAS("'ls'");
	CU_ASSERT_NOT_EQUAL(strncmp(err.msg, "ptscope", 7), 0);
	/* -p belongs to attach only */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-p", "1")), -EINVAL);
	MSG_HAS("does not apply");
}

static void size_accepts_binary_suffixes(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--size", "4K")), 0);
	CU_ASSERT_EQUAL(o.cfg.buffer_size, 4096);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--size=1G")), 0);
	CU_ASSERT_EQUAL(o.cfg.buffer_size, 1ULL << 30);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-m", "8MiB")), 0);
	CU_ASSERT_EQUAL(o.cfg.buffer_size, 8ULL << 20);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--size", "65536")), 0);
	CU_ASSERT_EQUAL(o.cfg.buffer_size, 65536);
}

static void size_not_power_of_two_or_out_of_range_is_refused(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--size", "3M")), -EINVAL);
	MSG_HAS("--size");
	MSG_HAS("'3M'");
	MSG_HAS("power of two");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--size", "2K")), -EINVAL);
	MSG_HAS("4K to 1G");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--size", "2G")), -EINVAL);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--size", "lots")), -EINVAL);
	MSG_HAS("cannot read 'lots'");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--size")), -EINVAL);
	MSG_HAS("needs a value");
}

static void parse_size_units(void)
{
	uint64_t v;

	CU_ASSERT_EQUAL(pts_parse_size("64M", &v), 0);
	CU_ASSERT_EQUAL(v, 67108864ULL);
	CU_ASSERT_EQUAL(pts_parse_size("2k", &v), 0);
	CU_ASSERT_EQUAL(v, 2048);
	CU_ASSERT_EQUAL(pts_parse_size("4MB", &v), 0);
	CU_ASSERT_EQUAL(v, 4ULL << 20);
	CU_ASSERT_EQUAL(pts_parse_size("4X", &v), -EINVAL);
	CU_ASSERT_EQUAL(pts_parse_size("-4M", &v), -EINVAL);
	CU_ASSERT_EQUAL(pts_parse_size("99999999999999999999", &v), -EINVAL);
	CU_ASSERT_EQUAL(pts_parse_size("", &v), -EINVAL);
}

static void mode_full_and_bad_mode(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--mode", "full")), 0);
	CU_ASSERT_EQUAL(o.cfg.mode, PTSCOPE_MODE_FULL);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--mode", "ring")), -EINVAL);
	MSG_HAS("--mode");
	MSG_HAS("snapshot or full");
}

static void timing_low_is_perf_defaults_without_cyc(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--timing", "low")), 0);
	CU_ASSERT_EQUAL(o.cfg.timing, PTSCOPE_TIMING_TSC | PTSCOPE_TIMING_MTC);
	CU_ASSERT_EQUAL(o.cfg.mtc_freq, 3);
	CU_ASSERT_EQUAL(o.cfg.cyc_thresh, 0);
	CU_ASSERT_EQUAL(o.cfg.psb_freq, 3);
}

static void timing_high_adds_noretcomp(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--timing", "high")), 0);
	CU_ASSERT(o.cfg.timing & PTSCOPE_TIMING_CYC);
	CU_ASSERT_EQUAL(o.cfg.cyc_thresh, 1);
	CU_ASSERT(o.cfg.trace_flags & PTSCOPE_TRACE_DISRETC);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--timing", "max")), -EINVAL);
	MSG_HAS("low, normal or high");
}

static void explicit_timing_values_override_preset_in_any_order(void)
{
	/* explicit before the preset still wins */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD,
			      ARGV("record", "--cyc-thresh", "5", "--timing", "low",
				   "--mtc-period", "2", "--psb-period", "0", "--noretcomp")), 0);
	CU_ASSERT(o.cfg.timing & PTSCOPE_TIMING_CYC);	/* implied by --cyc-thresh */
	CU_ASSERT_EQUAL(o.cfg.cyc_thresh, 5);
	CU_ASSERT(o.cfg.timing & PTSCOPE_TIMING_MTC);
	CU_ASSERT_EQUAL(o.cfg.mtc_freq, 2);
	CU_ASSERT_EQUAL(o.cfg.psb_freq, 0);
	CU_ASSERT(o.cfg.trace_flags & PTSCOPE_TRACE_DISRETC);

	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--cyc=0", "--mtc=0")), 0);
	CU_ASSERT_EQUAL(o.cfg.timing, PTSCOPE_TIMING_TSC);
	CU_ASSERT_EQUAL(o.cfg.cyc_thresh, 0);

	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--timing", "low", "--cyc")), 0);
	CU_ASSERT(o.cfg.timing & PTSCOPE_TIMING_CYC);
	CU_ASSERT_EQUAL(o.cfg.cyc_thresh, 1);
}

static void contradicting_or_out_of_range_timing_is_refused(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--mtc=0", "--mtc-period", "3")), -EINVAL);
	MSG_HAS("--mtc-period");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--psb-period", "16")), -EINVAL);
	MSG_HAS("--psb-period");
	MSG_HAS("0 to 15");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--cyc=maybe")), -EINVAL);
	MSG_HAS("--cyc");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--noretcomp=1")), -EINVAL);
	MSG_HAS("takes no value");
}

static void trigger_tracepoint_with_pid(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD,
			      ARGV("record", "--trigger", "tracepoint:sched:sched_process_exit:pid=42")), 0);
	CU_ASSERT_EQUAL(o.trigger_kind, PTS_TRIGGER_KIND_TRACEPOINT);
	CU_ASSERT_EQUAL(o.cfg.trigger.kinds, PTSCOPE_TRIG_TRACEPOINT);
	CU_ASSERT_STRING_EQUAL(o.cfg.trigger.tracepoint, "sched:sched_process_exit");
	CU_ASSERT_EQUAL(o.cfg.trigger.tracepoint_pid, 42);
	CU_ASSERT_STRING_EQUAL(o.trigger_text, "tracepoint:sched:sched_process_exit:pid=42");

	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD,
			      ARGV("record", "--trigger", "tracepoint:irq:irq_handler_entry")), 0);
	CU_ASSERT_EQUAL(o.cfg.trigger.tracepoint_pid, 0);
}

/*
 * A tracepoint the module has no probe for is refused while the options
 * are parsed (exit 2: nothing opened, CMD not started), with every name
 * the module takes, the list's last one too; a syscall's own ftrace
 * event with the raw_syscalls tracepoint it is built on.
 */
static void trigger_tracepoint_without_a_probe_is_refused_with_the_list(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD,
			      ARGV("record", "--trigger", "tracepoint:sched:no_such_event")), -EINVAL);
	MSG_HAS("sched:no_such_event cannot be a trigger");
	MSG_HAS("sched:sched_process_exit");
	MSG_HAS("irq:irq_handler_entry");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RUN, ARGV("run", "--trigger",
			      "tracepoint:syscalls:sys_enter_write:pid=7", "--", "true")), -EINVAL);
	MSG_HAS("give tracepoint:raw_syscalls:sys_enter:pid=N");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD,
			      ARGV("record", "--trigger", "tracepoint:syscalls:sys_exit_read")), -EINVAL);
	MSG_HAS("give tracepoint:raw_syscalls:sys_exit:pid=N");
	/* perf's spelling (-e sched:sched_switch) is told the prefix */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD,
			      ARGV("record", "--trigger", "sched:sched_switch:pid=3")), -EINVAL);
	MSG_HAS("a tracepoint is given as tracepoint:sched:sched_switch:pid=3");
	/* the example a malformed spec is shown is one that is taken */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "tracepoint:sched")), -EINVAL);
	MSG_HAS("e.g. tracepoint:sched:sched_process_exit)");
}

static void trigger_bad_tracepoint_forms_are_refused(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "tracepoint:sched")), -EINVAL);
	MSG_HAS("tracepoint:SUBSYS:EVENT");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "tracepoint:a b:c")), -EINVAL);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD,
			      ARGV("record", "--trigger", "tracepoint:sched:x:tid=3")), -EINVAL);
	MSG_HAS(":pid=N");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD,
			      ARGV("record", "--trigger", "tracepoint:sched:x:pid=-3")), -EINVAL);
	/* a bare word is a function name now (magic-trace's -trigger SYMBOL) */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "oops here")), -EINVAL);
	MSG_HAS("--trigger");
	MSG_HAS("manual");
	MSG_HAS("uprobe:PATH:SYMBOL");
}

static void trigger_uprobe_path_symbol_offset_and_pid(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger",
			      "uprobe:/lib/x86_64-linux-gnu/libc.so.6:malloc@@GLIBC_2.2.5+0x4:pid=77")), 0);
	CU_ASSERT_EQUAL(o.trigger_kind, PTS_TRIGGER_KIND_UPROBE);
	CU_ASSERT_EQUAL(o.cfg.trigger.kinds, PTSCOPE_TRIG_UPROBE);
	CU_ASSERT_STRING_EQUAL(o.uprobe_path, "/lib/x86_64-linux-gnu/libc.so.6");
	CU_ASSERT_STRING_EQUAL(o.uprobe_symbol, "malloc@@GLIBC_2.2.5+0x4");
	CU_ASSERT_EQUAL(o.cfg.uprobe.pid, 77);
	/* the fd and offset come from resolving the symbol, at arm */
	CU_ASSERT_EQUAL(o.cfg.uprobe.offset, 0);
	/* a path with a colon: the symbol is after the last one */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "uprobe:./a:b/prog:main",
						  "--multi-snapshot", "--post-trigger", "100")), 0);
	CU_ASSERT_STRING_EQUAL(o.uprobe_path, "./a:b/prog");
	CU_ASSERT_STRING_EQUAL(o.uprobe_symbol, "main");
	CU_ASSERT_EQUAL(o.cfg.uprobe.pid, 0);
	CU_ASSERT_EQUAL(o.cfg.trigger.flags, PTSCOPE_TRIGF_MULTI);
	CU_ASSERT_EQUAL(o.cfg.trigger.post_trigger_us, 100);
}

static void trigger_bare_symbol_is_the_traced_program_and_not_for_record(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RUN, ARGV("run", "--trigger", "handle_request", "--",
						"./server")), 0);
	CU_ASSERT_EQUAL(o.trigger_kind, PTS_TRIGGER_KIND_UPROBE);
	CU_ASSERT_EQUAL(o.cfg.trigger.kinds, PTSCOPE_TRIG_UPROBE);
	CU_ASSERT_STRING_EQUAL(o.uprobe_path, "");
	CU_ASSERT_STRING_EQUAL(o.uprobe_symbol, "handle_request");
	/* magic-trace's spelling */
	CU_ASSERT_EQUAL(parse(PTS_CMD_ATTACH, ARGV("attach", "-p", "5", "-trigger", "_ZN3foo3barEv")),
			0);
	CU_ASSERT_STRING_EQUAL(o.uprobe_symbol, "_ZN3foo3barEv");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "handle_request")),
			-EINVAL);
	MSG_HAS("uprobe:PATH:handle_request");
}

static void trigger_bad_uprobe_forms_are_refused(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "uprobe:main")), -EINVAL);
	MSG_HAS("uprobe:PATH:SYMBOL");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "uprobe:/bin/x:")),
			-EINVAL);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "uprobe:/bin/x:f:pid=0")),
			-EINVAL);
	MSG_HAS(":pid=N");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "uprobe:/bin/x:f:tid=3")),
			-EINVAL);
}

static void trigger_hotkey_default_and_named_key(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "hotkey")), 0);
	CU_ASSERT_EQUAL(o.cfg.trigger.kinds, PTSCOPE_TRIG_HOTKEY);
	CU_ASSERT_EQUAL(o.cfg.trigger.hotkey, 0);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "hotkey:x")), 0);
	CU_ASSERT_EQUAL(o.cfg.trigger.hotkey, 'x');
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "hotkey:xy")), -EINVAL);
	MSG_HAS("hotkey:KEY");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "hotkeys")), -EINVAL);
}

static void trigger_manual_sets_no_kind_bits(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "manual",
						  "--post-trigger", "500", "--multi-snapshot")), 0);
	CU_ASSERT_EQUAL(o.trigger_kind, PTS_TRIGGER_KIND_MANUAL);
	CU_ASSERT_EQUAL(o.cfg.trigger.kinds, 0);
	CU_ASSERT_EQUAL(o.cfg.trigger.post_trigger_us, 500);
	CU_ASSERT_EQUAL(o.cfg.trigger.flags, PTSCOPE_TRIGF_MULTI);
}

static void second_trigger_and_post_trigger_without_trigger_are_refused(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "manual",
						  "--trigger", "hotkey")), -EINVAL);
	MSG_HAS("only one trigger");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--post-trigger", "10")), -EINVAL);
	MSG_HAS("--post-trigger needs a --trigger");
	/* a uprobe (magic-trace's -trigger SYMBOL) is a trigger too: named among them */
	MSG_HAS("uprobe:..., SYMBOL, hotkey or manual");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--multi-snapshot")), -EINVAL);
	MSG_HAS("uprobe:..., SYMBOL, hotkey or manual");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--trigger", "manual",
						  "--post-trigger", "1e3")), -EINVAL);
	MSG_HAS("microseconds");
}

static void filter_hex_range_and_symbol_stop(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_ATTACH, ARGV("attach", "-p", "1",
						  "--filter", "0x401000-0x402000",
						  "--filter", "stop:abort",
						  "--filter", "filter:7f0000001000-7f0000002000")), 0);
	CU_ASSERT_EQUAL(o.nr_filters, 3);
	CU_ASSERT_EQUAL(o.filters[0].cfg, PTSCOPE_ADDR_FILTER);
	CU_ASSERT_FALSE(o.filters[0].is_symbol);
	CU_ASSERT_EQUAL(o.filters[0].start, 0x401000);
	CU_ASSERT_EQUAL(o.filters[0].end, 0x402000);
	CU_ASSERT_EQUAL(o.filters[1].cfg, PTSCOPE_ADDR_STOP);
	CU_ASSERT(o.filters[1].is_symbol);
	CU_ASSERT_STRING_EQUAL(o.filters[1].symbol, "abort");
	CU_ASSERT_EQUAL(o.filters[2].start, 0x7f0000001000ULL);
}

/*
 * A filter range in the half of the address space the scope does not
 * trace traces nothing: said (a warning, the capture still arms), for a
 * filter range only; a TraceStop range, or any range in --scope both, not.
 */
static void filter_range_outside_the_scope_is_named(void)
{
	CU_ASSERT_STRING_EQUAL(pts_filter_outside_scope(PTSCOPE_SCOPE_KERNEL, PTSCOPE_ADDR_FILTER,
							0x401000, 0x402000),
			       "user-space code, which --scope kernel does not trace");
	CU_ASSERT_STRING_EQUAL(pts_filter_outside_scope(PTSCOPE_SCOPE_USER, PTSCOPE_ADDR_FILTER,
							0xffffffff81000000ULL,
							0xffffffff81001000ULL),
			       "kernel code, which --scope user does not trace");
	CU_ASSERT_PTR_NULL(pts_filter_outside_scope(PTSCOPE_SCOPE_USER, PTSCOPE_ADDR_FILTER,
						    0x401000, 0x402000));
	CU_ASSERT_PTR_NULL(pts_filter_outside_scope(PTSCOPE_SCOPE_KERNEL, PTSCOPE_ADDR_FILTER,
						    0xffffffff81000000ULL, 0xffffffff81001000ULL));
	CU_ASSERT_PTR_NULL(pts_filter_outside_scope(PTSCOPE_SCOPE_BOTH, PTSCOPE_ADDR_FILTER,
						    0x401000, 0x402000));
	CU_ASSERT_PTR_NULL(pts_filter_outside_scope(PTSCOPE_SCOPE_KERNEL, PTSCOPE_ADDR_STOP,
						    0x401000, 0x402000));
}

/*
 * A bundle's ranges as the capture's summary and the decoder say them:
 * only the filter ranges outside its scope, END exclusive as --filter
 * takes it (the bundle's ADDRn_B is inclusive).
 */
static void bundle_filter_ranges_outside_the_scope_are_listed(void)
{
	struct pts_bundle_config c = {
		.scope = PTS_SCOPE_USER, .nr_addr = 3,
		.addr = { { 0x401000, 0x401fff, PTSCOPE_ADDR_FILTER },
			  { 0xffffffff81000000ULL, 0xffffffff81000fffULL, PTSCOPE_ADDR_FILTER },
			  { 0xffffffff82000000ULL, 0xffffffff82000fffULL, PTSCOPE_ADDR_STOP } },
	};
	char buf[300];

	CU_ASSERT_EQUAL(pts_bundle_filters_outside_scope(&c, buf, sizeof(buf)), 1);
	CU_ASSERT_STRING_EQUAL(buf, "--filter range 0xffffffff81000000-0xffffffff81001000 is "
			       "kernel code, which --scope user does not trace");
	c.scope = PTS_SCOPE_BOTH;
	CU_ASSERT_EQUAL(pts_bundle_filters_outside_scope(&c, buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "");
	c.scope = PTS_SCOPE_KERNEL;
	CU_ASSERT_EQUAL(pts_bundle_filters_outside_scope(&c, buf, sizeof(buf)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "0x401000-0x402000 is user-space code"));
}

/*
 * A refused CONFIGURE names the options the refused value came from, as
 * given (reason_value.h): "from -C/--cpus 0-3,7" rather than a bare
 * reason_arg.
 */
static void configure_refusals_name_the_options_given(void)
{
	char *cpus[] = { "record", "-C", "0-3,7", "--size", "8M", NULL };
	char *kern[] = { "record", "-trace-kernel-only", "--trigger", "hotkey", NULL };
	char *tp[] = { "attach", "-p", "42", "--trigger", "tracepoint:sched:sched_switch:pid=7",
		       NULL };
	char *mtc[] = { "record", "--mtc-period", "5", NULL };
	struct ptscope_hdr hdr = { .reason = PTSCOPE_R_BAD_CPU_MASK };
	struct pts_err e;
	char by[200];

	CU_ASSERT_EQUAL_FATAL(parse(PTS_CMD_RECORD, cpus), 0);
	CU_ASSERT_STRING_EQUAL(pts_opts_refused_by(&o, PTSCOPE_R_BAD_CPU_MASK, by, sizeof(by)),
			       "-C/--cpus 0-3,7");
	CU_ASSERT_STRING_EQUAL(pts_opts_refused_by(&o, PTSCOPE_R_NO_MEMORY, by, sizeof(by)),
			       "-C/--cpus 0-3,7, --size 8 MiB");
	pts_dev_refusal_by("CONFIGURE", EINVAL, &hdr,
			   pts_opts_refused_by(&o, hdr.reason, by, sizeof(by)), &e);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "(Invalid argument); from -C/--cpus 0-3,7"));

	CU_ASSERT_EQUAL_FATAL(parse(PTS_CMD_RECORD, kern), 0);
	pts_opts_refused_by(&o, PTSCOPE_R_NEED_CAP_ADMIN, by, sizeof(by));
	CU_ASSERT_PTR_NOT_NULL(strstr(by, "-trace-kernel-only (scope kernel)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(by, "ptscope record (every process)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(by, "--trigger hotkey (fires in any process)"));

	CU_ASSERT_EQUAL_FATAL(parse(PTS_CMD_ATTACH, tp), 0);
	CU_ASSERT_STRING_EQUAL(pts_opts_refused_by(&o, PTSCOPE_R_NO_SUCH_PID, by, sizeof(by)),
			       "-p 42, --trigger tracepoint:sched:sched_switch:pid=7");
	CU_ASSERT_PTR_NULL(pts_opts_refused_by(&o, PTSCOPE_R_NOT_ARMED, by, sizeof(by)));

	CU_ASSERT_EQUAL_FATAL(parse(PTS_CMD_RECORD, mtc), 0);
	CU_ASSERT_STRING_EQUAL(pts_opts_refused_by(&o, PTSCOPE_R_BAD_MTC_PERIOD, by, sizeof(by)),
			       "--mtc-period 5");
	CU_ASSERT_STRING_EQUAL(pts_opts_refused_by(&o, PTSCOPE_R_NO_CYC, by, sizeof(by)),
			       "--timing normal");
}

static void record_refuses_symbol_filter_before_opening_the_device(void)
{
	/* record traces no single executable to look a symbol up in */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--filter", "stop:abort")), -EINVAL);
	MSG_HAS("a symbol needs a traced process");
	MSG_HAS("START-END");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--filter", "0x1000-0x2000")), 0);
}

static void filter_bad_forms_and_fifth_range_are_refused(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--filter", "0x2000-0x1000")), -EINVAL);
	MSG_HAS("empty or reversed");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--filter", "0x10-0xzz")), -EINVAL);
	MSG_HAS("START-END");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--filter", "stop:")), -EINVAL);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-F", "a", "-F", "b", "-F", "c",
						  "-F", "d", "-F", "e")), -EINVAL);
	MSG_HAS("at most 4");
}

static void cpu_list_ranges_and_errors(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-C", "0-2,5")), 0);
	CU_ASSERT(o.cpus_given);
	CU_ASSERT_EQUAL(o.cfg.cpu_mask[0], 0x27);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-C64,1023")), 0);
	CU_ASSERT_EQUAL(o.cfg.cpu_mask[0], 0);
	CU_ASSERT_EQUAL(o.cfg.cpu_mask[1], 1);
	CU_ASSERT_EQUAL(o.cfg.cpu_mask[15], 1ULL << 63);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-C", "1024")), -EINVAL);
	MSG_HAS("1024");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-C", "3-1")), -EINVAL);
	MSG_HAS("0-3,6");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--cpus", "1,,2")), -EINVAL);
}

static void duration_units(void)
{
	uint64_t ms;

	CU_ASSERT_EQUAL(pts_parse_duration_ms("10", &ms), 0);
	CU_ASSERT_EQUAL(ms, 10000);
	CU_ASSERT_EQUAL(pts_parse_duration_ms("500ms", &ms), 0);
	CU_ASSERT_EQUAL(ms, 500);
	CU_ASSERT_EQUAL(pts_parse_duration_ms("2m", &ms), 0);
	CU_ASSERT_EQUAL(ms, 120000);
	CU_ASSERT_EQUAL(pts_parse_duration_ms("2x", &ms), -EINVAL);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--duration", "0")), -EINVAL);
	MSG_HAS("--duration");
	MSG_HAS("at least 1ms");	/* '0' was read: say what is wrong with it */
}

static void output_no_copy_quiet_and_sideband_size(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-o", "x.ptscope", "--no-copy", "-q",
						  "--sideband-size", "8M")), 0);
	CU_ASSERT_STRING_EQUAL(o.output, "x.ptscope");
	CU_ASSERT(o.no_copy);
	CU_ASSERT(o.quiet);
	CU_ASSERT_EQUAL(o.cfg.sideband_size, 8ULL << 20);
	/* defaults: no name yet (the caller picks a dated one), module's sideband size */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record")), 0);
	CU_ASSERT_STRING_EQUAL(o.output, "");
	CU_ASSERT_FALSE(o.no_copy);
	CU_ASSERT_EQUAL(o.cfg.sideband_size, 0);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--sideband-size", "128M")), -EINVAL);
	MSG_HAS("--sideband-size");
	MSG_HAS("4K to 64M");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-o", "")), -EINVAL);
	MSG_HAS("-o/--output");
}

static void unknown_option_points_at_help(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--colour")), -EINVAL);
	MSG_HAS("'--colour'");
	MSG_HAS("ptscope record --help");
	/* a flag spelled like magic-trace's is not silently taken as a short option */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-trace-colour")), -EINVAL);
	MSG_HAS("unknown option '-trace-colour'");
	/* a long name of ptscope's own with one dash: not -s with the value "yscalls" */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RUN, ARGV("run", "-scope", "both", "--", "true")), -EINVAL);
	MSG_HAS("unknown option '-scope' for ptscope run: a long option takes two dashes: --scope");
	/* another command's option: said, with where this one's are listed */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RUN, ARGV("run", "-p", "5", "--", "true")), -EINVAL);
	MSG_HAS("option '-p' does not apply to ptscope run (ptscope run --help lists its options)");
	/* record runs no command: said, with the command that does */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--", "./prog", "arg")), -EINVAL);
	MSG_HAS("unexpected argument './prog' for ptscope record (record traces the whole system"
		" and runs no command: ptscope run -- ./prog runs and traces it)");
}

/*
 * magic-trace's own flag names (its run/attach flag definitions:
 * -multi-snapshot, -snapshot-size, -timer-resolution, -trigger, -pid,
 * -output, -full-execution, -multi-thread) mean what they mean there.
 */
static void magic_trace_flags_are_taken_by_their_own_names(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-trigger", "manual", "-multi-snapshot",
						   "-output", "m.ptscope", "-snapshot-size", "64K")), 0);
	CU_ASSERT(o.cfg.trigger.flags & PTSCOPE_TRIGF_MULTI);
	CU_ASSERT_EQUAL(o.trigger_kind, PTS_TRIGGER_KIND_MANUAL);
	CU_ASSERT_STRING_EQUAL(o.output, "m.ptscope");		/* not "-o utput" */
	CU_ASSERT_EQUAL(o.cfg.buffer_size, 64u << 10);
	CU_ASSERT_EQUAL(parse(PTS_CMD_ATTACH, ARGV("attach", "-pid", "1", "-multi-thread")), 0);
	CU_ASSERT_EQUAL(o.pid, 1);				/* not "-p id" */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-timer-resolution", "High")), 0);
	CU_ASSERT_EQUAL(o.timing, PTS_TIMING_HIGH);
	CU_ASSERT(o.cfg.trace_flags & PTSCOPE_TRACE_DISRETC);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-timer-resolution", "Low")), 0);
	CU_ASSERT_EQUAL(o.timing, PTS_TIMING_LOW);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-full-execution")), 0);
	CU_ASSERT_EQUAL(o.cfg.mode, PTSCOPE_MODE_FULL);
	/* the short forms keep working beside them */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-otrace.ptscope", "-m4M")), 0);
	CU_ASSERT_STRING_EQUAL(o.output, "trace.ptscope");
	CU_ASSERT_EQUAL(o.cfg.buffer_size, 4u << 20);
}

static void magic_trace_flags_without_a_meaning_here_are_refused_by_name(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-duration-thresh", "1ms")), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err.msg, "-duration-thresh: not supported, see --post-trigger");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RUN, ARGV("run", "-working-directory", "/tmp", "--", "true")),
			-EINVAL);
	MSG_HAS("-working-directory: not supported");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-filter", "(a b)")), -EINVAL);
	MSG_HAS("-filter: not supported");
	MSG_HAS("-F/--filter");
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-serve")), -EINVAL);
	MSG_HAS("ui.perfetto.dev");
	/* magic-trace's Custom and Sample resolutions have no preset here */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-timer-resolution", "Custom")), -EINVAL);
	MSG_HAS("--cyc");
}

static void timing_accepts_presets_in_any_case(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--timing", "Normal")), 0);
	CU_ASSERT_EQUAL(o.timing, PTS_TIMING_NORMAL);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--timing=LOW")), 0);
	CU_ASSERT_EQUAL(o.timing, PTS_TIMING_LOW);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--timing", "fast")), -EINVAL);
	MSG_HAS("low, normal or high");
}

static void help_stops_parsing_without_error(void)
{
	CU_ASSERT_EQUAL(parse(PTS_CMD_RUN, ARGV("run", "--help")), 0);
	CU_ASSERT(o.help);
	CU_ASSERT_EQUAL(parse(PTS_CMD_ATTACH, ARGV("attach", "-h")), 0);
	CU_ASSERT(o.help);
}

/* A CPU description for fit_caps: bits as in CPUID.14H (SDM 33.3.1). */
static void fake_caps(struct ptscope_caps *c, uint32_t ebx)
{
	memset(c, 0, sizeof(*c));
	c->flags = PTSCOPE_CAPS_PT;
	c->cpuid_14_0[1] = ebx;
	c->nr_addr_ranges = 2;
	c->mtc_period_bitmap = 0x249;	/* encodings 0, 3, 6, 9 (a common Skylake value) */
	c->cyc_thresh_bitmap = 0x3fff;
	c->psb_period_bitmap = 0x3f;
	c->nr_cpus = 4;
	c->online_mask[0] = 0xb;	/* CPUs 0, 1, 3 */
	c->min_buffer_size = 4096;
	c->max_buffer_size = 1ULL << 30;
}

static void fit_caps_lowers_preset_cyc_and_mtc_the_cpu_lacks(void)
{
	struct ptscope_caps caps;
	char notes[512];

	fake_caps(&caps, 1u << 0);	/* CR3 filter only: no CYC, no MTC */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RUN, ARGV("run", "true")), 0);
	CU_ASSERT_EQUAL(pts_opts_fit_caps(&o, &caps, notes, sizeof(notes), &err), 0);
	CU_ASSERT_EQUAL(o.cfg.timing, PTSCOPE_TIMING_TSC);
	CU_ASSERT_EQUAL(o.cfg.cyc_thresh, 0);
	CU_ASSERT_EQUAL(o.cfg.psb_freq, 0);	/* PSBFreq also needs EBX[1] */
	CU_ASSERT_PTR_NOT_NULL(strstr(notes, "no CYC"));
	CU_ASSERT_PTR_NOT_NULL(strstr(notes, "no MTC"));
	/* -C absent: every online CPU */
	CU_ASSERT_EQUAL(o.cfg.cpu_mask[0], 0xb);
}

/*
 * MTC is usable only with CPUID.15H's TSC/crystal ratio (EAX denominator,
 * EBX numerator, SDM 33.3.1): a CPU reporting 0 (a VM) gets MTC packets
 * that no decoder can place in time, which is said before arming.
 */
static void fit_caps_says_mtc_is_useless_without_cpuid_15(void)
{
	struct ptscope_caps caps;
	char notes[512];

	fake_caps(&caps, (1u << 0) | (1u << 1) | (1u << 3));	/* CR3, CYC/PSB, MTC */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RUN, ARGV("run", "--timing", "low", "true")), 0);
	CU_ASSERT_EQUAL(pts_opts_fit_caps(&o, &caps, notes, sizeof(notes), &err), 0);
	CU_ASSERT(o.cfg.timing & PTSCOPE_TIMING_MTC);
	CU_ASSERT_PTR_NOT_NULL(strstr(notes, "CPUID.15H"));
	caps.cpuid_15[0] = 2;
	caps.cpuid_15[1] = 168;
	CU_ASSERT_EQUAL(parse(PTS_CMD_RUN, ARGV("run", "--timing", "low", "true")), 0);
	CU_ASSERT_EQUAL(pts_opts_fit_caps(&o, &caps, notes, sizeof(notes), &err), 0);
	CU_ASSERT_PTR_NULL(strstr(notes, "CPUID.15H"));
}

static void fit_caps_refuses_explicit_values_the_cpu_lacks(void)
{
	struct ptscope_caps caps;

	fake_caps(&caps, 1u << 0);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--cyc")), 0);
	CU_ASSERT_EQUAL(pts_opts_fit_caps(&o, &caps, NULL, 0, &err), -EOPNOTSUPP);
	MSG_HAS("--cyc");
	MSG_HAS("CPUID.14H.0:EBX[1]");

	fake_caps(&caps, (1u << 1) | (1u << 3));
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--mtc-period", "4")), 0);
	CU_ASSERT_EQUAL(pts_opts_fit_caps(&o, &caps, NULL, 0, &err), -EOPNOTSUPP);
	MSG_HAS("--mtc-period 4");
	MSG_HAS("allowed: 0,3,6,9");
}

static void fit_caps_moves_preset_mtc_period_to_nearest_allowed(void)
{
	struct ptscope_caps caps;
	char notes[512];

	fake_caps(&caps, (1u << 1) | (1u << 3));
	caps.mtc_period_bitmap = 0x10;	/* only encoding 4 */
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "--timing", "low")), 0);
	CU_ASSERT_EQUAL(pts_opts_fit_caps(&o, &caps, notes, sizeof(notes), &err), 0);
	CU_ASSERT(o.cfg.timing & PTSCOPE_TIMING_MTC);
	CU_ASSERT_EQUAL(o.cfg.mtc_freq, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(notes, "using 4"));
}

static void fit_caps_checks_cpu_list_and_range_count(void)
{
	struct ptscope_caps caps;

	fake_caps(&caps, 0x0f);
	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-C", "0-2")), 0);
	CU_ASSERT_EQUAL(pts_opts_fit_caps(&o, &caps, NULL, 0, &err), -EINVAL);
	MSG_HAS("CPU 2 is not online");

	CU_ASSERT_EQUAL(parse(PTS_CMD_RECORD, ARGV("record", "-F", "0x1000-0x2000", "-F", "0x3000-0x4000",
						  "-F", "0x5000-0x6000")), 0);
	CU_ASSERT_EQUAL(pts_opts_fit_caps(&o, &caps, NULL, 0, &err), -EOPNOTSUPP);
	MSG_HAS("3 address ranges given, this CPU has 2");
}

static void fit_caps_without_cr3_filter_refuses_run_on_hardware(void)
{
	struct ptscope_caps caps;

	fake_caps(&caps, (1u << 1) | (1u << 3));
	CU_ASSERT_EQUAL(parse(PTS_CMD_RUN, ARGV("run", "true")), 0);
	CU_ASSERT_EQUAL(pts_opts_fit_caps(&o, &caps, NULL, 0, &err), -EOPNOTSUPP);
	MSG_HAS("CR3 filtering");
}

static void format_size_uses_exact_binary_units(void)
{
	char b[32];

	pts_format_size(4ULL << 20, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "4 MiB");
	pts_format_size(3000, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "3000 B");
	pts_format_size(1536, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "1536 B");
}

PTS_SUITE(cli_options, NULL, NULL,
	  PTS_TEST(trigger_uprobe_path_symbol_offset_and_pid),
	  PTS_TEST(trigger_bare_symbol_is_the_traced_program_and_not_for_record),
	  PTS_TEST(trigger_bad_uprobe_forms_are_refused),
	  PTS_TEST(fit_caps_says_mtc_is_useless_without_cpuid_15),
	  PTS_TEST(defaults_are_user_scope_snapshot_4m_normal_timing),
	  PTS_TEST(scope_option_selects_user_kernel_both),
	  PTS_TEST(two_different_scopes_are_refused_naming_both),
	  PTS_TEST(two_different_modes_are_refused_naming_both),
	  PTS_TEST(bad_scope_names_option_and_accepted_values),
	  PTS_TEST(magic_trace_spellings_set_scope),
	  PTS_TEST(magic_trace_flags_are_taken_by_their_own_names),
	  PTS_TEST(magic_trace_flags_without_a_meaning_here_are_refused_by_name),
	  PTS_TEST(timing_accepts_presets_in_any_case),
	  PTS_TEST(run_sets_cr3_filter_and_takes_command_after_dashes),
	  PTS_TEST(run_command_starts_at_first_word_so_its_options_are_not_ours),
	  PTS_TEST(run_without_command_is_refused_with_usage),
	  PTS_TEST(attach_needs_pid_and_record_takes_no_words),
	  PTS_TEST(size_accepts_binary_suffixes),
	  PTS_TEST(size_not_power_of_two_or_out_of_range_is_refused),
	  PTS_TEST(parse_size_units),
	  PTS_TEST(mode_full_and_bad_mode),
	  PTS_TEST(timing_low_is_perf_defaults_without_cyc),
	  PTS_TEST(timing_high_adds_noretcomp),
	  PTS_TEST(explicit_timing_values_override_preset_in_any_order),
	  PTS_TEST(contradicting_or_out_of_range_timing_is_refused),
	  PTS_TEST(trigger_tracepoint_with_pid),
	  PTS_TEST(trigger_bad_tracepoint_forms_are_refused),
	  PTS_TEST(trigger_tracepoint_without_a_probe_is_refused_with_the_list),
	  PTS_TEST(trigger_hotkey_default_and_named_key),
	  PTS_TEST(trigger_manual_sets_no_kind_bits),
	  PTS_TEST(second_trigger_and_post_trigger_without_trigger_are_refused),
	  PTS_TEST(filter_hex_range_and_symbol_stop),
	  PTS_TEST(filter_range_outside_the_scope_is_named),
	  PTS_TEST(bundle_filter_ranges_outside_the_scope_are_listed),
	  PTS_TEST(configure_refusals_name_the_options_given),
	  PTS_TEST(record_refuses_symbol_filter_before_opening_the_device),
	  PTS_TEST(filter_bad_forms_and_fifth_range_are_refused),
	  PTS_TEST(cpu_list_ranges_and_errors),
	  PTS_TEST(duration_units),
	  PTS_TEST(output_no_copy_quiet_and_sideband_size),
	  PTS_TEST(unknown_option_points_at_help),
	  PTS_TEST(help_stops_parsing_without_error),
	  PTS_TEST(fit_caps_lowers_preset_cyc_and_mtc_the_cpu_lacks),
	  PTS_TEST(fit_caps_refuses_explicit_values_the_cpu_lacks),
	  PTS_TEST(fit_caps_moves_preset_mtc_period_to_nearest_allowed),
	  PTS_TEST(fit_caps_checks_cpu_list_and_range_count),
	  PTS_TEST(fit_caps_without_cr3_filter_refuses_run_on_hardware),
	  PTS_TEST(format_size_uses_exact_binary_units))
