/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Option parsing for `ptscope run|attach|record`: turns argv into a
 * struct ptscope_config (include/uapi/ptscope.h) plus the tool's own
 * settings (output name, duration, target). Pure: no device, no /proc;
 * everything here is unit-tested (tests/unit/test_cli_options.c).
 *
 * Every refusal fills a struct pts_err whose message names the option,
 * repeats the bad value and shows the accepted form.
 */
#ifndef PTS_CAPTURE_OPTIONS_H
#define PTS_CAPTURE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <uapi/ptscope.h>

#include "../util/bytes.h"
#include "../util/err.h"
#include "../util/opttab.h"

enum pts_capture_cmd {
	PTS_CMD_RUN = 1 << 0,		/* ptscope run -- CMD */
	PTS_CMD_ATTACH = 1 << 1,	/* ptscope attach -p PID */
	PTS_CMD_RECORD = 1 << 2,	/* ptscope record (system-wide) */
};

/*
 * --timing presets, following magic-trace's -timer-resolution
 * (Low = perf's intel_pt defaults, Normal = cyc=1,cyc_thresh=1,
 * mtc_period=0, High = Normal + noretcomp=1). Values set:
 *   low:    TSCEn, MTCEn with MTCFreq 3, PSBFreq 3 (a PSB every 16 KiB)
 *   normal: TSCEn, MTCEn with MTCFreq 0, CYCEn with CycThresh 1, PSBFreq 3
 *   high:   normal + DisRETC (every RET gets a TIP: more bytes, no
 *           return-compression ambiguity after untraced code)
 * Preset values the CPU cannot do are lowered by pts_opts_fit_caps();
 * values given explicitly are never changed, only refused.
 */
enum pts_timing_preset {
	PTS_TIMING_LOW = 0,
	PTS_TIMING_NORMAL = 1,		/* default, as in magic-trace */
	PTS_TIMING_HIGH = 2,
};

enum pts_trigger_kind {
	PTS_TRIGGER_KIND_NONE = 0,	/* snapshot on exit, Ctrl-C or --duration */
	PTS_TRIGGER_KIND_TRACEPOINT,	/* tracepoint:SUBSYS:EVENT[:pid=N] */
	PTS_TRIGGER_KIND_HOTKEY,	/* hotkey[:KEY] (sysrq) */
	PTS_TRIGGER_KIND_MANUAL,	/* `ptscope trigger` from another shell */
	PTS_TRIGGER_KIND_UPROBE,	/* uprobe:PATH:SYMBOL[+OFF][:pid=N], or SYMBOL */
};

/* One --filter before resolution: hex range or a symbol of the target. */
struct pts_filter_spec {
	uint32_t cfg;			/* PTSCOPE_ADDR_FILTER or PTSCOPE_ADDR_STOP */
	bool is_symbol;
	char symbol[128];		/* when is_symbol */
	uint64_t start, end;		/* when !is_symbol: [start, end), bytes */
};

/* "unset" marker of the explicit timing fields below. */
#define PTS_OPT_UNSET	(-1)

struct pts_capture_opts {
	enum pts_capture_cmd cmd;
	struct ptscope_config cfg;	/* what CONFIGURE gets (cpu_mask, cr3_pid later) */

	/* timing: preset plus explicit overrides, folded into cfg by finalize */
	enum pts_timing_preset timing;
	int cyc, cyc_thresh;		/* 0/1, 0..15, or PTS_OPT_UNSET */
	int mtc, mtc_period;		/* 0/1, 0..15, or PTS_OPT_UNSET */
	int psb_period;			/* 0..15 or PTS_OPT_UNSET */
	bool noretcomp;

	enum pts_trigger_kind trigger_kind;
	char trigger_text[512];		/* --trigger as given, "" none */
	/* uprobe trigger: PATH ("" = the traced executable, magic-trace's -trigger SYMBOL) */
	char uprobe_path[4096];
	char uprobe_symbol[256];	/* SYMBOL[@VERSION][+OFF] */
	bool cpus_given;		/* -C given: cfg.cpu_mask holds it */

	size_t nr_filters;
	struct pts_filter_spec filters[PTSCOPE_MAX_ADDR_RANGES];

	char output[4096];		/* -o, default "ptscope-<time>.ptscope" chosen by caller */
	bool no_copy;			/* --no-copy: build-ids and paths only */
	uint64_t duration_ms;		/* --duration; 0 = none */
	uint64_t sideband_keep;		/* --sideband-keep, bytes; 0 = PTS_SB_KEEP_DEFAULT */
	pid_t pid;			/* attach -p */
	int cmd_argc;			/* run: CMD ARGS */
	char **cmd_argv;		/* points into the caller's argv */
	bool help;			/* -h/--help: print usage, do nothing */
	bool quiet;			/* -q: no status line */
	/* the option that set cfg.scope / cfg.mode, "" none: a second one may not differ */
	char scope_by[64], mode_by[64];
};

/*
 * Parse argv[1..argc-1] (argv[0] is the subcommand name) for `cmd`.
 * Fills *o completely (defaults first, then options, then
 * pts_opts_finalize). For PTS_CMD_RUN the first non-option word (or the
 * word after "--") starts CMD. Returns 0, or -EINVAL with err->msg like
 * "--size: '3M' is not a power of two; give 4K..1G, e.g. 4M or 64M".
 * With -h/--help returns 0 with o->help set and skips the checks.
 */
int pts_opts_parse(enum pts_capture_cmd cmd, int argc, char **argv,
		   struct pts_capture_opts *o, struct pts_err *err);

/*
 * Apply the timing preset and explicit overrides to o->cfg and check
 * combinations (e.g. --cyc-thresh with --cyc=0). Called by
 * pts_opts_parse; exported for tests. 0 or -EINVAL.
 */
int pts_opts_finalize(struct pts_capture_opts *o, struct pts_err *err);

/*
 * Fit the configuration to what the CPU can do (caps from
 * PTSCOPE_IOC_GET_CAPS): preset-derived timing values the CPU lacks are
 * lowered and described in `notes` (lines, may be NULL); explicit ones
 * are refused with -EOPNOTSUPP and a message naming the option, the
 * CPUID bit and the allowed values. Also fills cfg.cpu_mask with every
 * online CPU when -C was not given, and checks -C against the online
 * mask and the address-range count against CPUID.14H.1:EAX[2:0].
 */
int pts_opts_fit_caps(struct pts_capture_opts *o, const struct ptscope_caps *caps,
		      char *notes, size_t notes_len, struct pts_err *err);

/* Print the option table for `cmd` (the --help text). */
void pts_opts_usage(enum pts_capture_cmd cmd, FILE *f);

/* The option table of run, attach and record (util/opttab.h), for its tests. */
const struct pts_optab *pts_opts_table(void);

/* ---- single-value parsers (exported for tests and other subcommands) ---- */

/* pts_parse_size: util/bytes.h (decode's --chunk-size takes sizes too) */

/* "0-3,5,7-8" into a PTSCOPE_MAX_CPUS bit mask (words of 64). 0 or -EINVAL. */
int pts_parse_cpu_list(const char *s, __u64 mask[PTSCOPE_CPU_MASK_WORDS],
		       struct pts_err *err);

/* "10", "10s", "500ms", "2m": milliseconds. 0 or -EINVAL. */
int pts_parse_duration_ms(const char *s, uint64_t *ms);

/* --trigger SPEC into o (kind, text, cfg.trigger). 0 or -EINVAL. */
int pts_parse_trigger(const char *spec, struct pts_capture_opts *o, struct pts_err *err);

/* --filter [filter:|stop:](START-END|SYMBOL) into *f. 0 or -EINVAL. */
int pts_parse_filter(const char *spec, struct pts_filter_spec *f, struct pts_err *err);

/*
 * A filter range ([start, end), PTSCOPE_ADDR_FILTER) wholly in the half of
 * the address space that scope does not trace (user space in --scope
 * kernel, the kernel in --scope user): nothing inside it can be traced.
 * Returns what to say ("user-space code, which --scope kernel does not
 * trace"), or NULL. A TraceStop range or one of --scope both: NULL.
 */
const char *pts_filter_outside_scope(uint32_t scope, uint32_t cfg, uint64_t start, uint64_t end);

/* Text names: "user"/"kernel"/"both", "snapshot"/"full", "low"/... */
const char *pts_scope_text(uint32_t scope);
const char *pts_mode_text(uint32_t mode);
const char *pts_timing_text(enum pts_timing_preset t);

/* "4 MiB", "64 KiB", "1 GiB", "3000 B": exact binary units. */
void pts_format_size(uint64_t bytes, char *buf, size_t len);

/* Number of CPUs set in a mask. */
unsigned int pts_cpu_mask_count(const __u64 mask[PTSCOPE_CPU_MASK_WORDS]);

#endif /* PTS_CAPTURE_OPTIONS_H */
