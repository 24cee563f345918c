// SPDX-License-Identifier: GPL-2.0
/*
 * Option parsing for ptscope run/attach/record. The option table keeps
 * each option's help text next to its name (as magic-trace does); the
 * parser is table-driven and accepts --name=value, --name value, -x value
 * and magic-trace's single-dash spellings (-trace-include-kernel).
 */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../util/opttab.h"
#include "tp_names.h"

#define ALL_CMDS (PTS_CMD_RUN | PTS_CMD_ATTACH | PTS_CMD_RECORD)

enum opt_id {
	O_HELP, O_OUTPUT, O_SCOPE, O_INCLUDE_KERNEL, O_KERNEL_ONLY, O_SIZE,
	O_MODE, O_TIMING, O_CYC, O_CYC_THRESH, O_MTC, O_MTC_PERIOD,
	O_PSB_PERIOD, O_NORETCOMP, O_TRIGGER, O_POST_TRIGGER, O_MULTI,
	O_FILTER, O_NO_COPY, O_PID, O_CPUS, O_DURATION, O_SIDEBAND_SIZE, O_SIDEBAND_KEEP,
	O_QUIET, O_FULL_EXECUTION, O_MULTI_THREAD, O_SYSCALLS, O_NO_SYSCALLS,
};

/* The table's rows (util/opttab.h), with capture's short names for the argument kinds. */
#define ARG_NONE PTS_OPTARG_NONE
#define ARG_REQUIRED PTS_OPTARG_REQUIRED
#define ARG_OPTIONAL PTS_OPTARG_OPTIONAL

static const struct pts_optdef opt_table[] = {
	{ "output", 'o', "output", ARG_REQUIRED, "NAME.ptscope", ALL_CMDS, O_OUTPUT,
	  "bundle directory to write (default ptscope-YYYYmmdd-HHMMSS-PID.ptscope)" },
	{ "scope", 0, NULL, ARG_REQUIRED, "user|kernel|both", ALL_CMDS, O_SCOPE,
	  "privilege levels traced: RTIT_CTL.User, .OS or both (default user)" },
	{ "trace-include-kernel", 0, "trace-include-kernel", ARG_NONE, NULL, ALL_CMDS, O_INCLUDE_KERNEL,
	  "same as --scope both (magic-trace spelling)" },
	{ "trace-kernel-only", 0, "trace-kernel-only", ARG_NONE, NULL, ALL_CMDS, O_KERNEL_ONLY,
	  "same as --scope kernel (magic-trace spelling)" },
	{ "size", 'm', "snapshot-size", ARG_REQUIRED, "SIZE", ALL_CMDS, O_SIZE,
	  "trace buffer per CPU, a power of two from 4K to 1G (default 4M)" },
	{ "mode", 0, NULL, ARG_REQUIRED, "snapshot|full", ALL_CMDS, O_MODE,
	  "snapshot: ring that keeps the newest bytes (default); full: stop when full" },
	{ "full-execution", 0, "full-execution", ARG_NONE, NULL, ALL_CMDS, O_FULL_EXECUTION,
	  "same as --mode full (magic-trace spelling)" },
	{ "timing", 0, "timer-resolution", ARG_REQUIRED, "low|normal|high", ALL_CMDS, O_TIMING,
	  "timing preset: low = TSC+MTC(MTCFreq 3); normal = + CYC(CycThresh 1), "
	  "MTCFreq 0 (default); high = normal + --noretcomp. PSBFreq 3 in all. "
	  "Any case (magic-trace's Low, Normal, High)" },
	{ "cyc", 0, NULL, ARG_OPTIONAL, "0|1", ALL_CMDS, O_CYC,
	  "cycle-accurate timing packets (RTIT_CTL.CYCEn)" },
	{ "cyc-thresh", 0, NULL, ARG_REQUIRED, "N", ALL_CMDS, O_CYC_THRESH,
	  "CYC threshold encoding 0..15: a CYC every 2^(N-1) cycles (implies --cyc)" },
	{ "mtc", 0, NULL, ARG_OPTIONAL, "0|1", ALL_CMDS, O_MTC,
	  "mini time counter packets (RTIT_CTL.MTCEn)" },
	{ "mtc-period", 0, NULL, ARG_REQUIRED, "N", ALL_CMDS, O_MTC_PERIOD,
	  "MTCFreq encoding 0..15: an MTC every 2^N crystal clock ticks (implies --mtc)" },
	{ "psb-period", 0, NULL, ARG_REQUIRED, "N", ALL_CMDS, O_PSB_PERIOD,
	  "PSBFreq encoding 0..15: a PSB about every 2K << N bytes of trace" },
	{ "noretcomp", 0, NULL, ARG_NONE, NULL, ALL_CMDS, O_NORETCOMP,
	  "disable return compression (RTIT_CTL.DisRETC)" },
	{ "trigger", 't', "trigger", ARG_REQUIRED, "SPEC", ALL_CMDS, O_TRIGGER,
	  "snapshot trigger: tracepoint:SUBSYS:EVENT[:pid=N], "
	  "uprobe:PATH:SYMBOL[+OFF][:pid=N] (a user function, any thread), "
	  "SYMBOL (a function of the traced program; run/attach), hotkey[:KEY] (sysrq), "
	  "or manual (`ptscope trigger` from another shell)" },
	{ "post-trigger", 0, NULL, ARG_REQUIRED, "USEC", ALL_CMDS, O_POST_TRIGGER,
	  "keep tracing this many microseconds after the trigger (default 0)" },
	{ "multi-snapshot", 0, "multi-snapshot", ARG_NONE, NULL, ALL_CMDS, O_MULTI,
	  "re-arm after each trigger; snapshots go to NAME.1.ptscope, NAME.2.ptscope, ..." },
	{ "filter", 'F', NULL, ARG_REQUIRED, "[filter:|stop:]RANGE", ALL_CMDS, O_FILTER,
	  "address range (hex START-END, END exclusive, or a SYMBOL of the traced "
	  "binary); filter: trace only inside, stop: stop tracing there (up to 4)" },
	{ "syscalls", 0, NULL, ARG_NONE, NULL, ALL_CMDS, O_SYSCALLS,
	  "record the traced processes' syscalls (number, return value) and user page "
	  "faults (address, error code) in the sideband: the decoder names the kernel's "
	  "untraced stretches with them. Costs every task a slower syscall path while "
	  "configured, and 40-48 bytes of sideband per event (docs/capture.md)" },
	{ "no-syscalls", 0, NULL, ARG_NONE, NULL, ALL_CMDS, O_NO_SYSCALLS,
	  "do not record syscalls and page faults (the default)" },
	{ "no-copy", 0, NULL, ARG_NONE, NULL, ALL_CMDS, O_NO_COPY,
	  "do not copy mapped executables into the bundle, keep paths and build-ids" },
	{ "pid", 'p', "pid", ARG_REQUIRED, "PID", PTS_CMD_ATTACH, O_PID,
	  "process to trace (its address space, via the CR3 filter)" },
	{ "multi-thread", 0, "multi-thread", ARG_NONE, NULL, PTS_CMD_RUN | PTS_CMD_ATTACH,
	  O_MULTI_THREAD, "accepted for magic-trace: every thread of the process is traced "
	  "anyway (the CR3 filter follows its address space)" },
	{ "cpus", 'C', NULL, ARG_REQUIRED, "LIST", ALL_CMDS, O_CPUS,
	  "CPUs to trace, e.g. 0-3,6 (default all online CPUs)" },
	{ "duration", 'd', NULL, ARG_REQUIRED, "TIME", ALL_CMDS, O_DURATION,
	  "snapshot after this long: 10, 10s, 500ms, 2m (default: until trigger/exit/Ctrl-C)" },
	{ "sideband-size", 0, NULL, ARG_REQUIRED, "SIZE", ALL_CMDS, O_SIDEBAND_SIZE,
	  "sideband ring of each CPU, a power of two from 4K to 64M (default 256K)" },
	{ "sideband-keep", 0, NULL, ARG_REQUIRED, "SIZE", ALL_CMDS, O_SIDEBAND_KEEP,
	  "snapshot mode: sideband records kept in memory while armed, 1M or more "
	  "(default 64M); beyond it the oldest half is folded into each CPU's task" },
	{ "quiet", 'q', NULL, ARG_NONE, NULL, ALL_CMDS, O_QUIET,
	  "no status line while armed" },
	{ "help", 'h', NULL, ARG_NONE, NULL, ALL_CMDS, O_HELP,
	  "show this help" },
};

#define NR_OPTS (sizeof(opt_table) / sizeof(opt_table[0]))

static const struct pts_optab capture_tab = { opt_table, NR_OPTS, NULL, 0 };

const struct pts_optab *pts_opts_table(void)
{
	return &capture_tab;
}

/*
 * magic-trace flags with no meaning here (its run/attach flags, read from
 * its own definitions), refused by name with what to use instead rather
 * than misread as a cluster of short options (-duration-thresh as -d).
 */
static const struct {
	const char *name;
	const char *why;
} mt_refused[] = {
	{ "duration-thresh", "not supported, see --post-trigger" },
	{ "delay-thresh", "not supported, see --post-trigger" },
	{ "immediate-stop", "not supported: the module stops tracing at the trigger; "
	  "see --post-trigger" },
	{ "symbol", "not supported: a trigger on a function is --trigger SYMBOL or "
	  "--trigger uprobe:PATH:SYMBOL" },
	{ "filter", "not supported (magic-trace's filter of the output by two symbols); "
	  "ptscope's -F/--filter is a hardware address range" },
	{ "working-directory", "not supported: the bundle (-o NAME.ptscope) holds everything" },
	{ "sampling", "not supported: ptscope traces with Intel PT only" },
	{ "callgraph-mode", "not supported: ptscope traces with Intel PT only" },
	{ "serve", "not supported: decode the bundle (ptscope decode NAME.ptscope -o "
	  "NAME.fxt) and open the .fxt at ui.perfetto.dev" },
	{ "http-port", "not supported: open the decoded .fxt at ui.perfetto.dev" },
	{ "perfetto-ui-base-directory", "not supported: open the decoded .fxt at "
	  "ui.perfetto.dev" },
	{ "executable", "not supported: run traces CMD, attach the process's own executable" },
	{ "perf-map-file", "not supported: JIT perf maps are not read" },
	{ "z-print-events", "not supported (a magic-trace debugging flag)" },
	{ "z-print-perf-commands", "not supported (ptscope does not run perf)" },
};

#define NR_MT_REFUSED (sizeof(mt_refused) / sizeof(mt_refused[0]))

const char *pts_scope_text(uint32_t scope)
{
	switch (scope) {
	case PTSCOPE_SCOPE_USER: return "user";
	case PTSCOPE_SCOPE_KERNEL: return "kernel";
	case PTSCOPE_SCOPE_BOTH: return "both";
	}
	return "?";
}

const char *pts_mode_text(uint32_t mode)
{
	return mode == PTSCOPE_MODE_FULL ? "full" : "snapshot";
}

const char *pts_timing_text(enum pts_timing_preset t)
{
	switch (t) {
	case PTS_TIMING_LOW: return "low";
	case PTS_TIMING_NORMAL: return "normal";
	case PTS_TIMING_HIGH: return "high";
	}
	return "?";
}

void pts_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int u = 0;

	while (u < 4 && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 " %s", bytes, unit[u]);
}

unsigned int pts_cpu_mask_count(const __u64 mask[PTSCOPE_CPU_MASK_WORDS])
{
	unsigned int i, n = 0;

	for (i = 0; i < PTSCOPE_CPU_MASK_WORDS; i++)
		n += (unsigned int)__builtin_popcountll(mask[i]);
	return n;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int pts_parse_cpu_list(const char *s, __u64 mask[PTSCOPE_CPU_MASK_WORDS],
		       struct pts_err *err)
{
	const char *p = s;

	memset(mask, 0, sizeof(__u64) * PTSCOPE_CPU_MASK_WORDS);
	if (!s || !*s)
		goto bad;
	while (*p) {
		unsigned long a, b;
		char *end;

		if (!isdigit((unsigned char)*p))
			goto bad;
		a = strtoul(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			b = strtoul(p, &end, 10);
			p = end;
		}
		if (a > b)
			goto bad;
		if (b >= PTSCOPE_MAX_CPUS)
			return pts_err_set(err, EINVAL,
					   "-C/--cpus: CPU %lu in '%s' is beyond the ABI limit of %d CPUs",
					   b, s, PTSCOPE_MAX_CPUS);
		for (; a <= b; a++)
			mask[a / 64] |= 1ULL << (a % 64);
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	return 0;
bad:
	return pts_err_set(err, EINVAL,
			   "-C/--cpus: cannot read '%s'; give CPU numbers and ranges like 0-3,6",
			   s ? s : "");
}

int pts_parse_duration_ms(const char *s, uint64_t *ms)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || v > UINT64_MAX / 3600000ULL)
		return -EINVAL;
	if (!*end || !strcmp(end, "s"))
		*ms = v * 1000;
	else if (!strcmp(end, "ms"))
		*ms = v;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		*ms = v * 60000;
	else if (!strcmp(end, "h"))
		*ms = v * 3600000;
	else
		return -EINVAL;
	return 0;
}

/* Decimal integer in [lo, hi] with nothing after it. */
static int parse_int_range(const char *s, long lo, long hi, long *out)
{
	long v;
	char *end;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

static bool valid_tp_name(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/*
 * A function name as the trigger: C and assembler identifiers ([A-Za-z_.$]
 * then also digits), C++ mangled names alike, an optional @VERSION or
 * @@VERSION and +OFF. Never one of the keywords (checked before).
 */
static bool symbol_like(const char *s)
{
	size_t i;

	if (!isalpha((unsigned char)s[0]) && s[0] != '_' && s[0] != '.' && s[0] != '$')
		return false;
	for (i = 1; s[i]; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_.$@+", s[i]))
			return false;
	return true;
}

/* uprobe:PATH:SYMBOL[+OFF][:pid=N]; PATH may itself hold colons. */
static int parse_uprobe(const char *spec, struct pts_capture_opts *o, struct pts_err *err)
{
	char buf[sizeof(o->trigger_text)];
	char *pid_part, *sym;
	long pid = 0;

	snprintf(buf, sizeof(buf), "%s", spec + 7);
	pid_part = strstr(buf, ":pid=");
	if (pid_part) {
		if (parse_int_range(pid_part + 5, 1, INT32_MAX, &pid))
			return pts_err_set(err, EINVAL,
				"--trigger: '%s': :pid=N needs a process id N > 0 and comes last, "
				"e.g. uprobe:/usr/bin/prog:main:pid=1234", spec);
		*pid_part = '\0';
	}
	sym = strrchr(buf, ':');
	if (!sym || sym == buf || !symbol_like(sym + 1))
		return pts_err_set(err, EINVAL,
			"--trigger: '%s' is not uprobe:PATH:SYMBOL[+OFF][:pid=N] (e.g. "
			"uprobe:/lib/x86_64-linux-gnu/libc.so.6:malloc or uprobe:./prog:handle+0x10)",
			spec);
	*sym++ = '\0';
	if (strlen(sym) >= sizeof(o->uprobe_symbol) || strlen(buf) >= sizeof(o->uprobe_path))
		return pts_err_set(err, EINVAL, "--trigger: '%.60s...': path or symbol too long",
				   spec);
	snprintf(o->uprobe_path, sizeof(o->uprobe_path), "%s", buf);
	snprintf(o->uprobe_symbol, sizeof(o->uprobe_symbol), "%s", sym);
	o->cfg.uprobe.pid = (int32_t)pid;
	o->cfg.trigger.kinds |= PTSCOPE_TRIG_UPROBE;
	o->trigger_kind = PTS_TRIGGER_KIND_UPROBE;
	return 0;
}

/*
 * A tracepoint the module has no probe for (tp_names.h), refused before
 * anything is opened or started, with the names it has. A syscall's own
 * event (syscalls:sys_enter_write) is an ftrace event made from
 * raw_syscalls:sys_enter, no tracepoint: that one, with a pid, is said.
 */
static int unsupported_tp(const char *name, struct pts_err *err)
{
	bool enter = !strncmp(name, "syscalls:sys_enter_", 19);
	char names[400];

	if (enter || !strncmp(name, "syscalls:sys_exit_", 18))
		return pts_err_set(err, EINVAL,
			"--trigger: %s is an ftrace event built on raw_syscalls:%s, not a "
			"tracepoint a trigger can be armed on; give tracepoint:raw_syscalls:%s:pid=N "
			"(any syscall of process N)", name, enter ? "sys_enter" : "sys_exit",
			enter ? "sys_enter" : "sys_exit");
	return pts_err_set(err, EINVAL,
		"--trigger: tracepoint %s cannot be a trigger (the module has no probe for it); "
		"give one of: %s", name, pts_tp_trigger_names(names, sizeof(names)));
}

/* SUBSYS:EVENT[:...] naming a tracepoint a trigger takes, without "tracepoint:" */
static bool tp_without_prefix(const char *spec)
{
	char name[PTSCOPE_TRACEPOINT_LEN];
	const char *c1 = strchr(spec, ':');
	const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	size_t n = c2 ? (size_t)(c2 - spec) : strlen(spec);

	if (!c1 || n >= sizeof(name))
		return false;
	memcpy(name, spec, n);
	name[n] = '\0';
	return pts_tp_trigger_supported(name);
}

int pts_parse_trigger(const char *spec, struct pts_capture_opts *o, struct pts_err *err)
{
	struct ptscope_trigger_spec *t = &o->cfg.trigger;

	if (strlen(spec) >= sizeof(o->trigger_text))
		return pts_err_set(err, EINVAL, "--trigger: '%.40s...' is too long", spec);

	if (!strcmp(spec, "manual")) {
		/* PTSCOPE_IOC_TRIGGER always works: no kind bit needed */
		o->trigger_kind = PTS_TRIGGER_KIND_MANUAL;
	} else if (!strncmp(spec, "hotkey", 6) && (!spec[6] || spec[6] == ':')) {
		const char *key = spec[6] ? spec + 7 : "";

		t->kinds |= PTSCOPE_TRIG_HOTKEY;
		t->hotkey = 0;		/* module default */
		if (*key) {
			/* sysrq keys are single lower-case letters or digits */
			if (key[1] || !(islower((unsigned char)key[0]) ||
					isdigit((unsigned char)key[0])))
				return pts_err_set(err, EINVAL,
					"--trigger: hotkey key '%s' is not one sysrq key; give "
					"hotkey or hotkey:KEY with KEY one of a-z, 0-9 (e.g. hotkey:x)",
					key);
			t->hotkey = (unsigned char)key[0];
		}
		o->trigger_kind = PTS_TRIGGER_KIND_HOTKEY;
	} else if (!strncmp(spec, "tracepoint:", 11)) {
		const char *sub = spec + 11;
		const char *c1 = strchr(sub, ':');
		const char *ev, *c2;
		size_t sub_len, ev_len;

		if (!c1)
			goto bad_tp;
		ev = c1 + 1;
		c2 = strchr(ev, ':');
		sub_len = (size_t)(c1 - sub);
		ev_len = c2 ? (size_t)(c2 - ev) : strlen(ev);
		if (!valid_tp_name(sub, sub_len) || !valid_tp_name(ev, ev_len))
			goto bad_tp;
		if (sub_len + 1 + ev_len >= PTSCOPE_TRACEPOINT_LEN)
			return pts_err_set(err, EINVAL,
				"--trigger: tracepoint name in '%s' is longer than %d bytes",
				spec, PTSCOPE_TRACEPOINT_LEN - 1);
		t->tracepoint_pid = 0;
		if (c2) {
			long pid;

			if (strncmp(c2 + 1, "pid=", 4) ||
			    parse_int_range(c2 + 5, 1, INT32_MAX, &pid))
				return pts_err_set(err, EINVAL,
					"--trigger: '%s': after the event only :pid=N (N > 0) is "
					"accepted, e.g. tracepoint:sched:sched_process_exit:pid=1234",
					spec);
			t->tracepoint_pid = (int32_t)pid;
		}
		memset(t->tracepoint, 0, sizeof(t->tracepoint));
		memcpy(t->tracepoint, sub, sub_len + 1 + ev_len);
		if (!pts_tp_trigger_supported(t->tracepoint))
			return unsupported_tp(t->tracepoint, err);
		t->kinds |= PTSCOPE_TRIG_TRACEPOINT;
		o->trigger_kind = PTS_TRIGGER_KIND_TRACEPOINT;
	} else if (!strncmp(spec, "uprobe:", 7)) {
		int ret = parse_uprobe(spec, o, err);

		if (ret)
			return ret;
	} else if (symbol_like(spec)) {
		/* magic-trace's -trigger SYMBOL: a function of the traced program */
		if (strlen(spec) >= sizeof(o->uprobe_symbol))
			return pts_err_set(err, EINVAL, "--trigger: symbol '%.40s...' is too long",
					   spec);
		o->uprobe_path[0] = '\0';
		snprintf(o->uprobe_symbol, sizeof(o->uprobe_symbol), "%s", spec);
		t->kinds |= PTSCOPE_TRIG_UPROBE;
		o->trigger_kind = PTS_TRIGGER_KIND_UPROBE;
	} else if (tp_without_prefix(spec)) {
		/* perf's spelling of a tracepoint event, sched:sched_switch: say the one here */
		return pts_err_set(err, EINVAL,
			"--trigger: '%s' is not a trigger; a tracepoint is given as tracepoint:%s",
			spec, spec);
	} else {
		return pts_err_set(err, EINVAL,
			"--trigger: '%s' is not a trigger; give tracepoint:SUBSYS:EVENT[:pid=N], "
			"uprobe:PATH:SYMBOL[+OFF][:pid=N], SYMBOL (a function of the traced "
			"program), hotkey[:KEY] or manual", spec);
	}
	snprintf(o->trigger_text, sizeof(o->trigger_text), "%s", spec);
	return 0;
bad_tp:
	return pts_err_set(err, EINVAL,
		"--trigger: '%s' is not tracepoint:SUBSYS:EVENT[:pid=N] (names of letters, "
		"digits and _, e.g. tracepoint:sched:sched_process_exit)", spec);
}

static int parse_hex(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		i = 2;
	if (i == n || n - i > 16)
		return -EINVAL;
	for (; i < n; i++) {
		int c = tolower((unsigned char)s[i]);

		if (!isxdigit(c))
			return -EINVAL;
		v = (v << 4) | (uint64_t)(isdigit(c) ? c - '0' : c - 'a' + 10);
	}
	*out = v;
	return 0;
}

const char *pts_filter_outside_scope(uint32_t scope, uint32_t cfg, uint64_t start, uint64_t end)
{
	/* the canonical halves: user below 2^47, the kernel from 2^64 - 2^47 */
	if (cfg != PTSCOPE_ADDR_FILTER)
		return NULL;
	if (scope == PTSCOPE_SCOPE_KERNEL && end <= 0x0000800000000000ULL)
		return "user-space code, which --scope kernel does not trace";
	if (scope == PTSCOPE_SCOPE_USER && start >= 0xffff800000000000ULL)
		return "kernel code, which --scope user does not trace";
	return NULL;
}

int pts_parse_filter(const char *spec, struct pts_filter_spec *f, struct pts_err *err)
{
	const char *r = spec;
	const char *dash;

	memset(f, 0, sizeof(*f));
	f->cfg = PTSCOPE_ADDR_FILTER;
	if (!strncmp(r, "filter:", 7)) {
		r += 7;
	} else if (!strncmp(r, "stop:", 5)) {
		f->cfg = PTSCOPE_ADDR_STOP;
		r += 5;
	}
	if (!*r)
		goto bad;
	dash = strchr(r, '-');
	if (dash && isxdigit((unsigned char)r[0])) {
		if (parse_hex(r, (size_t)(dash - r), &f->start) ||
		    parse_hex(dash + 1, strlen(dash + 1), &f->end))
			goto bad;
		if (f->end <= f->start)
			return pts_err_set(err, EINVAL,
				"--filter: range '%s' is empty or reversed; END is exclusive and "
				"must be above START", spec);
		return 0;
	}
	/* a C or mangled C++/Rust symbol: no whitespace, no dash */
	if (dash || strlen(r) >= sizeof(f->symbol))
		goto bad;
	for (const char *p = r; *p; p++)
		if (isspace((unsigned char)*p))
			goto bad;
	if (isdigit((unsigned char)r[0]))
		goto bad;
	f->is_symbol = true;
	snprintf(f->symbol, sizeof(f->symbol), "%s", r);
	return 0;
bad:
	return pts_err_set(err, EINVAL,
		"--filter: cannot read '%s'; give [filter:|stop:]START-END in hex "
		"(e.g. 0x401000-0x402000) or [filter:|stop:]SYMBOL (e.g. stop:abort)", spec);
}

static const char *cmd_name(enum pts_capture_cmd cmd)
{
	switch (cmd) {
	case PTS_CMD_RUN: return "run";
	case PTS_CMD_ATTACH: return "attach";
	case PTS_CMD_RECORD: return "record";
	}
	return "?";
}

/* "word-word...": how magic-trace's flags look, never a short option with a value */
static bool looks_like_mt_flag(const char *s)
{
	bool dash = false;

	if (!islower((unsigned char)*s))
		return false;
	for (; *s; s++) {
		if (*s == '-' && islower((unsigned char)s[1]))
			dash = true;
		else if (!islower((unsigned char)*s))
			return false;
	}
	return dash;
}

/* Why magic-trace's flag name is refused here, or NULL when it is not one of those. */
static const char *mt_refused_why(const char *name)
{
	size_t i;

	for (i = 0; i < NR_MT_REFUSED; i++)
		if (!strcmp(name, mt_refused[i].name))
			return mt_refused[i].why;
	return NULL;
}

/* A single-dash word that is not ours: the magic-trace refusal, else unknown. */
static int refuse_single_dash(const char *a, enum pts_capture_cmd cmd, struct pts_err *err)
{
	const char *why = mt_refused_why(a + 1);

	if (why)
		return pts_err_set(err, EINVAL, "%s: %s", a, why);
	return pts_err_set(err, EINVAL, "unknown option '%s' for ptscope %s (see ptscope %s --help)",
			   a, cmd_name(cmd), cmd_name(cmd));
}

/* Option spelling for messages: "--size" or "-trace-kernel-only". */
static void opt_label(const struct pts_optdef *d, char *buf, size_t len)
{
	pts_opt_label(d, buf, len);
}

static int parse_u4(const char *label, const char *val, int *out, struct pts_err *err)
{
	long v;

	if (parse_int_range(val, 0, 15, &v))
		return pts_err_set(err, EINVAL,
				   "%s: '%s' is not an encoding from 0 to 15", label, val);
	*out = (int)v;
	return 0;
}

static int parse_bool01(const char *label, const char *val, int *out, struct pts_err *err)
{
	if (!val) {
		*out = 1;
		return 0;
	}
	if (!strcmp(val, "1") || !strcmp(val, "on") || !strcmp(val, "yes")) {
		*out = 1;
		return 0;
	}
	if (!strcmp(val, "0") || !strcmp(val, "off") || !strcmp(val, "no")) {
		*out = 0;
		return 0;
	}
	return pts_err_set(err, EINVAL, "%s: '%s' is not 0 or 1 (e.g. %s=0)", label, val,
			   label);
}

/*
 * A setting two options give (--scope and its magic-trace spellings,
 * --mode and -full-execution): the same value twice is no conflict; two
 * values are refused, naming both options, rather than the last one
 * silently winning (a script's -trace-kernel-only after a typed --scope
 * both would trace no user code).
 */
static int set_once(uint32_t *field, uint32_t v, const char *(*text)(uint32_t), char *by,
		    size_t by_len, const char *label, struct pts_err *err)
{
	if (by[0] && *field != v)
		return pts_err_set(err, EINVAL, "%s (%s) contradicts %s (%s) given before it; give"
				   " one", label, text(v), by, text(*field));
	*field = v;
	snprintf(by, by_len, "%s", label);
	return 0;
}

#define SET_SCOPE(v) set_once(&o->cfg.scope, (v), pts_scope_text, o->scope_by,	\
			      sizeof(o->scope_by), label, err)
#define SET_MODE(v) set_once(&o->cfg.mode, (v), pts_mode_text, o->mode_by,	\
			     sizeof(o->mode_by), label, err)

static int apply_opt(struct pts_capture_opts *o, const struct pts_optdef *d,
		     const char *val, struct pts_err *err)
{
	char label[64];
	uint64_t v64;
	long v;

	opt_label(d, label, sizeof(label));
	switch (d->id) {
	case O_HELP:
		o->help = true;
		return 0;
	case O_OUTPUT:
		if (!*val || strlen(val) >= sizeof(o->output))
			return pts_err_set(err, EINVAL, "%s: give a bundle name like trace.ptscope",
					   label);
		snprintf(o->output, sizeof(o->output), "%s", val);
		return 0;
	case O_SCOPE:
		if (!strcmp(val, "user"))
			return SET_SCOPE(PTSCOPE_SCOPE_USER);
		if (!strcmp(val, "kernel"))
			return SET_SCOPE(PTSCOPE_SCOPE_KERNEL);
		if (!strcmp(val, "both"))
			return SET_SCOPE(PTSCOPE_SCOPE_BOTH);
		return pts_err_set(err, EINVAL, "%s: '%s' is not a scope; give user, kernel or both",
				   label, val);
	case O_INCLUDE_KERNEL:
		return SET_SCOPE(PTSCOPE_SCOPE_BOTH);
	case O_KERNEL_ONLY:
		return SET_SCOPE(PTSCOPE_SCOPE_KERNEL);
	case O_SIZE:
		if (pts_parse_size(val, &v64))
			return pts_err_set(err, EINVAL,
					   "%s: cannot read '%s'; give a size like 4M, 64M or 1G",
					   label, val);
		if (!is_pow2(v64) || v64 < (4ULL << 10) || v64 > (1ULL << 30))
			return pts_err_set(err, EINVAL,
					   "%s: '%s' is not a power of two from 4K to 1G; "
					   "give e.g. 4M or 64M", label, val);
		o->cfg.buffer_size = v64;
		return 0;
	case O_SIDEBAND_SIZE:
		if (pts_parse_size(val, &v64) || !is_pow2(v64) || v64 < (4ULL << 10) ||
		    v64 > (64ULL << 20))
			return pts_err_set(err, EINVAL,
					   "%s: '%s' is not a power of two from 4K to 64M; "
					   "give e.g. 1M", label, val);
		o->cfg.sideband_size = v64;
		return 0;
	case O_SIDEBAND_KEEP:
		if (pts_parse_size(val, &v64) || v64 < (1ULL << 20) || v64 > (1ULL << 40))
			return pts_err_set(err, EINVAL,
					   "%s: '%s' is not a size from 1M to 1T; give e.g. 64M",
					   label, val);
		o->sideband_keep = v64;
		return 0;
	case O_FULL_EXECUTION:
		return SET_MODE(PTSCOPE_MODE_FULL);
	case O_MULTI_THREAD:
		return 0;	/* the CR3 filter already covers every thread */
	case O_MODE:
		if (!strcmp(val, "snapshot"))
			return SET_MODE(PTSCOPE_MODE_SNAPSHOT);
		if (!strcmp(val, "full"))
			return SET_MODE(PTSCOPE_MODE_FULL);
		return pts_err_set(err, EINVAL, "%s: '%s' is not a mode; give snapshot or full",
				   label, val);
	case O_TIMING:
		/* any case: magic-trace's -timer-resolution spells them Low, Normal, High */
		if (!strcasecmp(val, "low"))
			o->timing = PTS_TIMING_LOW;
		else if (!strcasecmp(val, "normal"))
			o->timing = PTS_TIMING_NORMAL;
		else if (!strcasecmp(val, "high"))
			o->timing = PTS_TIMING_HIGH;
		else if (strcasestr(val, "custom") || strcasestr(val, "sample"))
			return pts_err_set(err, EINVAL,
					   "%s: '%s' is not supported; give low, normal or high, "
					   "then --cyc, --cyc-thresh, --mtc, --mtc-period, "
					   "--psb-period or --noretcomp for the rest", label, val);
		else
			return pts_err_set(err, EINVAL,
					   "%s: '%s' is not a preset; give low, normal or high",
					   label, val);
		return 0;
	case O_CYC:
		return parse_bool01(label, val, &o->cyc, err);
	case O_MTC:
		return parse_bool01(label, val, &o->mtc, err);
	case O_CYC_THRESH:
		return parse_u4(label, val, &o->cyc_thresh, err);
	case O_MTC_PERIOD:
		return parse_u4(label, val, &o->mtc_period, err);
	case O_PSB_PERIOD:
		return parse_u4(label, val, &o->psb_period, err);
	case O_NORETCOMP:
		o->noretcomp = true;
		return 0;
	case O_TRIGGER:
		if (o->trigger_kind != PTS_TRIGGER_KIND_NONE)
			return pts_err_set(err, EINVAL,
					   "%s: only one trigger can be given ('%s' already set)",
					   label, o->trigger_text);
		return pts_parse_trigger(val, o, err);
	case O_POST_TRIGGER:
		if (parse_int_range(val, 0, INT32_MAX, &v))
			return pts_err_set(err, EINVAL,
					   "%s: '%s' is not a number of microseconds (0..%d)",
					   label, val, INT32_MAX);
		o->cfg.trigger.post_trigger_us = (uint32_t)v;
		return 0;
	case O_MULTI:
		o->cfg.trigger.flags |= PTSCOPE_TRIGF_MULTI;
		return 0;
	case O_FILTER:
		if (o->nr_filters >= PTSCOPE_MAX_ADDR_RANGES)
			return pts_err_set(err, EINVAL,
					   "%s: at most %d address ranges (the SDM's limit)",
					   label, PTSCOPE_MAX_ADDR_RANGES);
		if (pts_parse_filter(val, &o->filters[o->nr_filters], err))
			return -EINVAL;
		o->nr_filters++;
		return 0;
	case O_SYSCALLS:
		o->cfg.flags |= PTSCOPE_CFG_SYSREC;
		return 0;
	case O_NO_SYSCALLS:
		o->cfg.flags &= ~PTSCOPE_CFG_SYSREC;
		return 0;
	case O_NO_COPY:
		o->no_copy = true;
		return 0;
	case O_PID:
		if (parse_int_range(val, 1, INT32_MAX, &v))
			return pts_err_set(err, EINVAL,
					   "%s: '%s' is not a process id (a number above 0)", label, val);
		o->pid = (pid_t)v;
		return 0;
	case O_CPUS:
		o->cpus_given = true;
		return pts_parse_cpu_list(val, o->cfg.cpu_mask, err);
	case O_DURATION:
		if (pts_parse_duration_ms(val, &o->duration_ms))
			return pts_err_set(err, EINVAL,
					   "%s: cannot read '%s'; give e.g. 10 (seconds), 10s, 500ms or 2m",
					   label, val);
		if (!o->duration_ms)
			return pts_err_set(err, EINVAL,
					   "%s: '%s' is no time at all; give at least 1ms (e.g. 10s), "
					   "or leave it out to trace until the trigger, exit or Ctrl-C",
					   label, val);
		return 0;
	case O_QUIET:
		o->quiet = true;
		return 0;
	}
	return pts_err_set(err, EINVAL, "%s: not handled", label);
}

static void opts_defaults(enum pts_capture_cmd cmd, struct pts_capture_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->cfg.hdr.size = sizeof(o->cfg);
	o->cfg.scope = PTSCOPE_SCOPE_USER;
	o->cfg.mode = PTSCOPE_MODE_SNAPSHOT;
	o->cfg.buffer_size = 4ULL << 20;
	o->timing = PTS_TIMING_NORMAL;
	o->cyc = o->cyc_thresh = o->mtc = o->mtc_period = o->psb_period = PTS_OPT_UNSET;
	if (cmd != PTS_CMD_RECORD)
		o->cfg.flags |= PTSCOPE_CFG_CR3_FILTER;
}

/*
 * The table's scan hook: a single-dash word that is not one of our
 * magic-trace names. magic-trace's other flags are refused by name;
 * "-tX..." is no -t with a value (a mistyped magic-trace name must not
 * become "--trigger race-foo").
 */
static int capture_single_dash(const char *a, void *ctx, struct pts_err *err)
{
	enum pts_capture_cmd cmd = *(const enum pts_capture_cmd *)ctx;

	if (looks_like_mt_flag(a + 1) || mt_refused_why(a + 1))
		return refuse_single_dash(a, cmd, err);
	if (a[1] == 't' && a[2])
		return pts_err_set(err, EINVAL, "unknown option '%s' for ptscope %s (see ptscope %s"
				   " --help)", a, cmd_name(cmd), cmd_name(cmd));
	return 0;
}

int pts_opts_parse(enum pts_capture_cmd cmd, int argc, char **argv,
		   struct pts_capture_opts *o, struct pts_err *err)
{
	char prog[32];
	struct pts_optscan s = { .t = &capture_tab, .cmd = cmd, .prog = prog, .argc = argc,
				 .argv = argv, .i = 1, .stop_at_word = true,
				 .single_dash = capture_single_dash, .ctx = &cmd };
	const struct pts_optdef *d;
	const char *val;
	int i, rc;

	snprintf(prog, sizeof(prog), "ptscope %s", cmd_name(cmd));
	opts_defaults(cmd, o);
	while ((rc = pts_opt_next(&s, &d, &val, err)) == PTS_OPT_OPTION) {
		if (apply_opt(o, d, val, err))
			return -EINVAL;
		if (o->help)
			return 0;
	}
	if (rc < 0)
		return rc;
	/* the first positional word (run: CMD), or none */
	i = rc == PTS_OPT_WORD ? s.i - 1 : argc;

	if (cmd == PTS_CMD_RUN) {
		if (i >= argc)
			return pts_err_set(err, EINVAL,
					   "no command given; usage: ptscope run [OPTIONS] -- CMD [ARGS]");
		o->cmd_argc = argc - i;
		o->cmd_argv = argv + i;
	} else if (i < argc) {
		if (cmd == PTS_CMD_RECORD)	/* perf record's spelling: perf record ./prog */
			return pts_err_set(err, EINVAL, "unexpected argument '%s' for ptscope"
					   " record (record traces the whole system and runs no"
					   " command: ptscope run -- %s runs and traces it)",
					   argv[i], argv[i]);
		return pts_err_set(err, EINVAL, "unexpected argument '%s' for ptscope %s%s",
				   argv[i], cmd_name(cmd),
				   cmd == PTS_CMD_ATTACH ? " (give the process with -p PID)" : "");
	}
	if (cmd == PTS_CMD_ATTACH && !o->pid)
		return pts_err_set(err, EINVAL,
				   "no process given; usage: ptscope attach -p PID");
	/* record traces no one executable: a SYMBOL range has nothing to be
	 * looked up in. Said here, before the device is opened. */
	if (cmd == PTS_CMD_RECORD)
		for (i = 0; i < (int)o->nr_filters; i++)
			if (o->filters[i].is_symbol)
				return pts_err_set(err, EINVAL,
					"--filter %s: a symbol needs a traced process (ptscope "
					"run or attach); give a hex START-END range here",
					o->filters[i].symbol);
	return pts_opts_finalize(o, err);
}

int pts_opts_finalize(struct pts_capture_opts *o, struct pts_err *err)
{
	struct ptscope_config *c = &o->cfg;
	int cyc, mtc;

	/* preset first ... */
	c->timing = PTSCOPE_TIMING_TSC | PTSCOPE_TIMING_MTC;
	c->trace_flags &= ~PTSCOPE_TRACE_DISRETC;
	c->psb_freq = 3;
	switch (o->timing) {
	case PTS_TIMING_LOW:
		c->mtc_freq = 3;
		c->cyc_thresh = 0;
		break;
	case PTS_TIMING_HIGH:
		c->trace_flags |= PTSCOPE_TRACE_DISRETC;
		/* fall through */
	case PTS_TIMING_NORMAL:
		c->timing |= PTSCOPE_TIMING_CYC;
		c->mtc_freq = 0;
		c->cyc_thresh = 1;
		break;
	}

	/* ... then the explicit values, which win */
	if (o->cyc == 0 && o->cyc_thresh != PTS_OPT_UNSET)
		return pts_err_set(err, EINVAL,
				   "--cyc-thresh %d contradicts --cyc=0: drop one of them", o->cyc_thresh);
	if (o->mtc == 0 && o->mtc_period != PTS_OPT_UNSET)
		return pts_err_set(err, EINVAL,
				   "--mtc-period %d contradicts --mtc=0: drop one of them", o->mtc_period);
	cyc = o->cyc != PTS_OPT_UNSET ? o->cyc : (o->cyc_thresh != PTS_OPT_UNSET ? 1 : -1);
	mtc = o->mtc != PTS_OPT_UNSET ? o->mtc : (o->mtc_period != PTS_OPT_UNSET ? 1 : -1);
	if (cyc == 1) {
		c->timing |= PTSCOPE_TIMING_CYC;
		if (o->timing == PTS_TIMING_LOW)
			c->cyc_thresh = 1;	/* magic-trace's cyc_thresh when turning CYC on */
	} else if (cyc == 0) {
		c->timing &= ~PTSCOPE_TIMING_CYC;
		c->cyc_thresh = 0;
	}
	if (o->cyc_thresh != PTS_OPT_UNSET)
		c->cyc_thresh = (uint8_t)o->cyc_thresh;
	if (mtc == 1) {
		c->timing |= PTSCOPE_TIMING_MTC;
	} else if (mtc == 0) {
		c->timing &= ~PTSCOPE_TIMING_MTC;
		c->mtc_freq = 0;
	}
	if (o->mtc_period != PTS_OPT_UNSET)
		c->mtc_freq = (uint8_t)o->mtc_period;
	if (o->psb_period != PTS_OPT_UNSET)
		c->psb_freq = (uint8_t)o->psb_period;
	if (o->noretcomp)
		c->trace_flags |= PTSCOPE_TRACE_DISRETC;

	if (o->trigger_kind == PTS_TRIGGER_KIND_UPROBE && !o->uprobe_path[0] &&
	    o->cmd == PTS_CMD_RECORD)
		return pts_err_set(err, EINVAL,
				   "--trigger %s: a bare SYMBOL is a function of the traced program "
				   "(run or attach); with record give uprobe:PATH:%s",
				   o->uprobe_symbol, o->uprobe_symbol);
	/* every kind of trigger, as --trigger's own refusal lists them */
	if (c->trigger.post_trigger_us && o->trigger_kind == PTS_TRIGGER_KIND_NONE)
		return pts_err_set(err, EINVAL,
				   "--post-trigger needs a --trigger (tracepoint:..., uprobe:..., "
				   "SYMBOL, hotkey or manual)");
	if ((c->trigger.flags & PTSCOPE_TRIGF_MULTI) && o->trigger_kind == PTS_TRIGGER_KIND_NONE)
		return pts_err_set(err, EINVAL,
				   "--multi-snapshot needs a --trigger (tracepoint:..., uprobe:..., "
				   "SYMBOL, hotkey or manual)");
	if (o->cpus_given && !pts_cpu_mask_count(c->cpu_mask))
		return pts_err_set(err, EINVAL, "-C/--cpus: the list names no CPU");
	return 0;
}

/* Does a CPUID.14H.1 bitmap allow encoding n? zero_ok: encoding 0 always legal. */
static bool enc_allowed(uint32_t bitmap, unsigned int n, bool zero_ok)
{
	if (n == 0 && zero_ok)
		return true;
	return n < 16 && (bitmap & (1U << n));
}

static void list_allowed(uint32_t bitmap, bool zero_ok, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int n;

	buf[0] = '\0';
	for (n = 0; n < 16; n++) {
		if (!enc_allowed(bitmap, n, zero_ok))
			continue;
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%u",
					off ? "," : "", n);
		if (off >= len)
			break;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

__attribute__((format(printf, 3, 4)))
static void note(char *notes, size_t len, const char *fmt, ...)
{
	va_list ap;
	size_t off;

	if (!notes || !len)
		return;
	off = strlen(notes);
	if (off >= len - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(notes + off, len - off, fmt, ap);
	va_end(ap);
}

int pts_opts_fit_caps(struct pts_capture_opts *o, const struct ptscope_caps *caps,
		      char *notes, size_t notes_len, struct pts_err *err)
{
	struct ptscope_config *c = &o->cfg;
	uint32_t ebx = caps->cpuid_14_0[1];
	bool has_cyc = ebx & (1U << 1);		/* CPUID.14H.0:EBX[1] CYC + PSB period */
	bool has_mtc = ebx & (1U << 3);		/* CPUID.14H.0:EBX[3] */
	bool has_cr3 = ebx & (1U << 0);		/* CPUID.14H.0:EBX[0] */
	bool has_ip_filter = ebx & (1U << 2);	/* CPUID.14H.0:EBX[2] */
	char allowed[64];
	unsigned int i;

	if (notes && notes_len)
		notes[0] = '\0';

	/* CYC and PSBFreq */
	if (c->timing & PTSCOPE_TIMING_CYC) {
		if (!has_cyc) {
			if (o->cyc == 1 || o->cyc_thresh != PTS_OPT_UNSET)
				return pts_err_set(err, EOPNOTSUPP,
					"--cyc: this CPU has no CYC packets (CPUID.14H.0:EBX[1] is 0); "
					"drop --cyc/--cyc-thresh or use --timing low");
			c->timing &= ~PTSCOPE_TIMING_CYC;
			c->cyc_thresh = 0;
			note(notes, notes_len, "timing: CPU has no CYC (CPUID.14H.0:EBX[1]): cycle timing off\n");
		} else if (!enc_allowed(caps->cyc_thresh_bitmap, c->cyc_thresh, true)) {
			list_allowed(caps->cyc_thresh_bitmap, true, allowed, sizeof(allowed));
			if (o->cyc_thresh != PTS_OPT_UNSET)
				return pts_err_set(err, EOPNOTSUPP,
					"--cyc-thresh %d: not allowed by this CPU "
					"(CPUID.14H.1:EBX[15:0]); allowed: %s", o->cyc_thresh, allowed);
			note(notes, notes_len, "timing: CycThresh %u not allowed by this CPU, using 0\n",
			     c->cyc_thresh);
			c->cyc_thresh = 0;
		}
	}
	if (c->psb_freq && (!has_cyc || !enc_allowed(caps->psb_period_bitmap, c->psb_freq, true))) {
		list_allowed(has_cyc ? caps->psb_period_bitmap : 0, true, allowed, sizeof(allowed));
		if (o->psb_period != PTS_OPT_UNSET)
			return pts_err_set(err, EOPNOTSUPP,
				"--psb-period %d: not allowed by this CPU (CPUID.14H.0:EBX[1], "
				"CPUID.14H.1:EBX[31:16]); allowed: %s", o->psb_period, allowed);
		note(notes, notes_len, "timing: PSBFreq %u not allowed by this CPU, using 0 (a PSB every 2 KiB)\n",
		     c->psb_freq);
		c->psb_freq = 0;
	}

	/* MTC */
	if (c->timing & PTSCOPE_TIMING_MTC) {
		bool explicit_mtc = o->mtc == 1 || o->mtc_period != PTS_OPT_UNSET;

		if (!has_mtc) {
			if (explicit_mtc)
				return pts_err_set(err, EOPNOTSUPP,
					"--mtc: this CPU has no MTC packets (CPUID.14H.0:EBX[3] is 0); "
					"drop --mtc/--mtc-period");
			c->timing &= ~PTSCOPE_TIMING_MTC;
			c->mtc_freq = 0;
			note(notes, notes_len, "timing: CPU has no MTC (CPUID.14H.0:EBX[3]): MTC off\n");
		} else if (!enc_allowed(caps->mtc_period_bitmap, c->mtc_freq, false)) {
			unsigned int n;

			list_allowed(caps->mtc_period_bitmap, false, allowed, sizeof(allowed));
			if (o->mtc_period != PTS_OPT_UNSET)
				return pts_err_set(err, EOPNOTSUPP,
					"--mtc-period %d: not allowed by this CPU "
					"(CPUID.14H.1:EAX[31:16]); allowed: %s", o->mtc_period, allowed);
			/* nearest allowed period at or above the preset's, else below */
			for (n = c->mtc_freq; n < 16 && !enc_allowed(caps->mtc_period_bitmap, n, false); n++)
				;
			if (n == 16)
				for (n = c->mtc_freq; n > 0 && !enc_allowed(caps->mtc_period_bitmap, n, false); n--)
					;
			if (!enc_allowed(caps->mtc_period_bitmap, n, false)) {
				c->timing &= ~PTSCOPE_TIMING_MTC;
				note(notes, notes_len, "timing: no MTC period allowed by this CPU: MTC off\n");
				c->mtc_freq = 0;
			} else {
				note(notes, notes_len, "timing: MTCFreq %u not allowed by this CPU, using %u\n",
				     c->mtc_freq, n);
				c->mtc_freq = (uint8_t)n;
			}
		}
	}
	/*
	 * MTC counts crystal-clock (ART) ticks; only CPUID.15H's TSC/ART ratio
	 * (EBX/EAX) turns them into TSC time (SDM 33.3.1, pt-facts section 1).
	 * Without it (common in virtual machines) libipt ignores MTC and time
	 * advances only at TSC packets: say so before tracing, not after.
	 */
	if ((c->timing & PTSCOPE_TIMING_MTC) && (!caps->cpuid_15[0] || !caps->cpuid_15[1]))
		note(notes, notes_len, "timing: CPUID.15H EAX/EBX (TSC/crystal ratio) are 0, as in "
		     "many virtual machines: decoders cannot use MTC packets and time advances "
		     "only at TSC packets (each PSB); add --cyc for finer times\n");

	if ((c->flags & PTSCOPE_CFG_CR3_FILTER) && !has_cr3 &&
	    !(caps->flags & PTSCOPE_CAPS_SIMULATED))
		return pts_err_set(err, EOPNOTSUPP,
			"this CPU has no CR3 filtering (CPUID.14H.0:EBX[0]), which ptscope %s "
			"needs to trace one process; use ptscope record -C LIST instead",
			cmd_name(o->cmd));
	if (o->nr_filters) {
		uint32_t n = caps->nr_addr_ranges;

		if (!has_ip_filter)
			n = 0;
		if (o->nr_filters > n)
			return pts_err_set(err, EOPNOTSUPP,
				"--filter: %zu address ranges given, this CPU has %u "
				"(CPUID.14H.0:EBX[2], CPUID.14H.1:EAX[2:0])", o->nr_filters, n);
	}

	/* CPUs */
	if (!o->cpus_given) {
		memcpy(c->cpu_mask, caps->online_mask, sizeof(c->cpu_mask));
	} else {
		for (i = 0; i < PTSCOPE_MAX_CPUS; i++) {
			uint64_t bit = 1ULL << (i % 64);

			if ((c->cpu_mask[i / 64] & bit) && !(caps->online_mask[i / 64] & bit))
				return pts_err_set(err, EINVAL,
					"-C/--cpus: CPU %u is not online (this machine has %u CPU ids; "
					"see /sys/devices/system/cpu/online)", i, caps->nr_cpus);
		}
	}
	if (c->buffer_size < caps->min_buffer_size ||
	    (caps->max_buffer_size && c->buffer_size > caps->max_buffer_size)) {
		char lo[32], hi[32];

		pts_format_size(caps->min_buffer_size, lo, sizeof(lo));
		pts_format_size(caps->max_buffer_size, hi, sizeof(hi));
		return pts_err_set(err, EINVAL, "--size: the module accepts %s to %s per CPU", lo, hi);
	}
	return 0;
}

void pts_opts_usage(enum pts_capture_cmd cmd, FILE *f)
{
	switch (cmd) {
	case PTS_CMD_RUN:
		fprintf(f, "Usage: ptscope run [OPTIONS] [--] CMD [ARGS...]\n\n"
			"Start CMD held at exec, trace its address space, and write a bundle\n"
			"when the trigger fires, CMD exits, or on Ctrl-C (twice: abort).\n\n");
		break;
	case PTS_CMD_ATTACH:
		fprintf(f, "Usage: ptscope attach -p PID [OPTIONS]\n\n"
			"Trace a running process's address space; snapshot on the trigger,\n"
			"its exit, --duration or Ctrl-C (twice: abort).\n\n");
		break;
	case PTS_CMD_RECORD:
		fprintf(f, "Usage: ptscope record [OPTIONS]\n\n"
			"Trace system-wide (all online CPUs or -C LIST) until the trigger,\n"
			"--duration or Ctrl-C (twice: abort). Needs CAP_SYS_ADMIN or CAP_PERFMON.\n\n");
		break;
	}
	fprintf(f, "Options:\n");
	pts_opt_help(&capture_tab, cmd, f);
	fprintf(f, "\nTracepoints a --trigger tracepoint:SUBSYS:EVENT can be armed on:\n");
	pts_tp_trigger_names_print(f, "  ", 78);
	fprintf(f, "\nSIZE: 4K 64K 4M 64M 1G (binary units). The bundle goes to -o NAME.ptscope;\n"
		"decode it with: ptscope decode NAME.ptscope -o NAME.fxt\n\n"
		"Exit status: 0 every bundle written complete; 1 failure, an incomplete bundle,\n"
		"or one saved elsewhere (TMPDIR, said on stderr); 2 bad options, also one this\n"
		"machine cannot do (-C naming an offline CPU, a timing value its CPU refuses);\n"
		"130 a second Ctrl-C. (3, decoded with gaps, is ptscope decode's.)\n");
}
