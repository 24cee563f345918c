// SPDX-License-Identifier: GPL-2.0
/*
 * Refusal values in words, and the options behind a refused CONFIGURE.
 * See reason_value.h.
 */
#include "reason_value.h"
#include "options.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <uapi/ptscope.h>

/* The kernel's ENOTSUPP (include/linux/errno.h): no user-space name, no strerror text. */
#define KERNEL_ENOTSUPP 524

/*
 * Reasons whose reason_arg is one number, and how to say it; the reasons
 * with more to it are pts_reason_value()'s own cases. Unsigned values:
 * signed ones (pids, fds) are read back as int64_t there.
 */
static const struct {
	uint32_t reason;
	const char *fmt;	/* one %PRIu64 or %PRIx64 */
} plain[] = {
	{ PTSCOPE_R_BAD_CPU, "CPU %" PRIu64 },
	{ PTSCOPE_R_TRACE_EN_BUSY, "CPU %" PRIu64 },
	{ PTSCOPE_R_VMX_NO_PT, "CPU %" PRIu64 },
	{ PTSCOPE_R_LBR_ACTIVE, "CPU %" PRIu64 },
	{ PTSCOPE_R_BTS_ACTIVE, "CPU %" PRIu64 },
	{ PTSCOPE_R_MSR_FAULT, "CPU %" PRIu64 },
	{ PTSCOPE_R_PT_ERROR_AT_ENABLE, "CPU %" PRIu64 },
	{ PTSCOPE_R_BAD_SIZE, "struct size %" PRIu64 },
	{ PTSCOPE_R_BAD_FLAGS, "bits 0x%" PRIx64 },
	{ PTSCOPE_R_ADDR_NOT_CANONICAL, "address 0x%" PRIx64 },
	{ PTSCOPE_R_BAD_ADDR_RANGE, "range %" PRIu64 },
	{ PTSCOPE_R_TOO_MANY_RANGES, "%" PRIu64 " ranges" },
	{ PTSCOPE_R_UPROBE_OFFSET, "offset 0x%" PRIx64 },
	{ PTSCOPE_R_BAD_SCOPE, "value %" PRIu64 },
	{ PTSCOPE_R_BAD_MODE, "value %" PRIu64 },
	{ PTSCOPE_R_BAD_ADDR_CFG, "value %" PRIu64 },
	{ PTSCOPE_R_TIMING_FLAGS, "value %" PRIu64 },
	{ PTSCOPE_R_BAD_MTC_PERIOD, "value %" PRIu64 },
	{ PTSCOPE_R_BAD_CYC_THRESH, "value %" PRIu64 },
	{ PTSCOPE_R_BAD_PSB_PERIOD, "value %" PRIu64 },
};

const char *pts_reason_value(const char *what, uint32_t reason, uint64_t arg, char *buf,
			     size_t len)
{
	char sz[32];
	size_t i;

	for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		if (plain[i].reason == reason) {
			snprintf(buf, len, plain[i].fmt, arg);
			return buf;
		}
	switch (reason) {
	case PTSCOPE_R_BAD_CPU_MASK:
		/*
		 * CONFIGURE: a CPU that does not exist, or 0 for "no online
		 * CPU" (CPU 0 always exists); START: the CPU gone offline.
		 */
		if (!arg && strcmp(what, "START"))
			return NULL;
		snprintf(buf, len, "CPU %" PRIu64, arg);
		return buf;
	case PTSCOPE_R_NO_SUCH_PID:
	case PTSCOPE_R_NEED_PTRACE:
	case PTSCOPE_R_TARGET_EXITED:
		snprintf(buf, len, "pid %" PRId64, (int64_t)arg);
		return buf;
	case PTSCOPE_R_UPROBE_FILE:
		snprintf(buf, len, "fd %" PRId64, (int64_t)arg);
		return buf;
	case PTSCOPE_R_NO_MEMORY:
		/* the ring size asked for, when said */
		if (!arg)
			return NULL;
		/* fall through */
	case PTSCOPE_R_BUFFER_LIMIT:
	case PTSCOPE_R_BAD_BUFFER_SIZE:
	case PTSCOPE_R_BAD_SIDEBAND_SIZE:
		pts_format_size(arg, sz, sizeof(sz));
		snprintf(buf, len, "%s%s", reason == PTSCOPE_R_BUFFER_LIMIT ? "limit " : "", sz);
		return buf;
	case PTSCOPE_R_HOTKEY_UNAVAILABLE:
		if (arg > ' ' && arg < 0x7f)
			snprintf(buf, len, "key %c", (char)arg);
		else
			snprintf(buf, len, "key %" PRIu64, arg);
		return buf;
	case PTSCOPE_R_UPROBE_REFUSED:
		snprintf(buf, len, "errno %" PRIu64 ", %s", arg,
			 arg == KERNEL_ENOTSUPP ? "ENOTSUPP" : strerror((int)arg));
		return buf;
	}
	/*
	 * None set: NOT_ARMED, ARMED, NOT_CONFIGURED, NEED_CAP_ADMIN, NO_PT,
	 * NO_MTC, ... BAD_TRIGGER and RESERVED_NONZERO give a field's
	 * offset, not a value: reason_field.h names the field.
	 */
	return NULL;
}

/* Append ", "-separated text to buf (cut at len). */
static void add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n && n + 2 < len) {
		memcpy(buf + n, ", ", 3);
		n += 2;
	}
	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* "--size 4 MiB" */
static void add_size(char *buf, size_t len, const char *opt, uint64_t bytes)
{
	char sz[32];

	pts_format_size(bytes, sz, sizeof(sz));
	add(buf, len, "%s %s", opt, sz);
}

/* "0-3,7": a CPU mask as -C takes it. */
static void cpu_list(const __u64 mask[PTSCOPE_CPU_MASK_WORDS], char *buf, size_t len)
{
	size_t n = 0;
	unsigned int i = 0;

	buf[0] = '\0';
	while (i < PTSCOPE_MAX_CPUS && n + 1 < len) {
		unsigned int j = i;

		if (!(mask[i / 64] & (1ULL << (i % 64)))) {
			i++;
			continue;
		}
		while (j + 1 < PTSCOPE_MAX_CPUS && (mask[(j + 1) / 64] & (1ULL << ((j + 1) % 64))))
			j++;
		n += (size_t)snprintf(buf + n, len - n, j == i ? "%s%u" : "%s%u-%u", n ? "," : "",
				      i, j);
		i = j + 1;
	}
}

/* The option that set the timing field, or the preset it came from. */
static void timing_by(const struct pts_capture_opts *o, const char *opt, int val, char *buf,
		      size_t len)
{
	if (val != PTS_OPT_UNSET)
		add(buf, len, "%s %d", opt, val);
	else
		add(buf, len, "--timing %s", pts_timing_text(o->timing));
}

const char *pts_opts_refused_by(const struct pts_capture_opts *o, uint32_t reason, char *buf,
				size_t len)
{
	const struct ptscope_config *c = &o->cfg;
	const struct ptscope_trigger_spec *t = &c->trigger;
	char s[48];

	buf[0] = '\0';
	switch (reason) {
	case PTSCOPE_R_BAD_CPU_MASK:
	case PTSCOPE_R_NO_MEMORY:
		cpu_list(c->cpu_mask, s, sizeof(s));
		add(buf, len, "%s %s", o->cpus_given ? "-C/--cpus" : "the online CPUs", s);
		/* memory is CPUs x --size: both */
		if (reason == PTSCOPE_R_BAD_CPU_MASK)
			break;
		/* fall through */
	case PTSCOPE_R_BAD_BUFFER_SIZE:
	case PTSCOPE_R_BUFFER_LIMIT:
		add_size(buf, len, "--size", c->buffer_size);
		/* the limit holds for the sideband too */
		if (reason == PTSCOPE_R_BAD_BUFFER_SIZE || !c->sideband_size)
			break;
		/* fall through */
	case PTSCOPE_R_BAD_SIDEBAND_SIZE:
		add_size(buf, len, "--sideband-size", c->sideband_size);
		break;
	case PTSCOPE_R_NEED_CAP_ADMIN:
		/* what pts_cfg_needs_admin() (kmod/perms.c) asks the capability for */
		if (c->scope != PTSCOPE_SCOPE_USER)
			add(buf, len, "%s (scope %s)", o->scope_by[0] ? o->scope_by : "--scope",
			    pts_scope_text(c->scope));
		if (o->cmd == PTS_CMD_RECORD)
			add(buf, len, "ptscope record (every process)");
		if ((t->kinds & PTSCOPE_TRIG_HOTKEY) ||
		    ((t->kinds & PTSCOPE_TRIG_TRACEPOINT) && !t->tracepoint_pid) ||
		    ((t->kinds & PTSCOPE_TRIG_UPROBE) && !c->uprobe.pid))
			add(buf, len, "--trigger %s (fires in any process)", o->trigger_text);
		break;
	case PTSCOPE_R_NO_SUCH_PID:
	case PTSCOPE_R_NEED_PTRACE:
	case PTSCOPE_R_TARGET_EXITED:
		if (o->cmd == PTS_CMD_ATTACH)
			add(buf, len, "-p %d", (int)o->pid);
		else if (o->cmd == PTS_CMD_RUN)
			add(buf, len, "CMD %s", o->cmd_argv && o->cmd_argv[0] ? o->cmd_argv[0] : "");
		if (reason != PTSCOPE_R_TARGET_EXITED && o->trigger_text[0] &&
		    (t->tracepoint_pid || c->uprobe.pid))
			add(buf, len, "--trigger %s", o->trigger_text);
		break;
	case PTSCOPE_R_BAD_TRIGGER:
	case PTSCOPE_R_TRACEPOINT_NOT_FOUND:
	case PTSCOPE_R_HOTKEY_UNAVAILABLE:
	case PTSCOPE_R_UPROBE_FILE:
	case PTSCOPE_R_UPROBE_OFFSET:
	case PTSCOPE_R_UPROBE_REFUSED:
		if (o->trigger_text[0])
			add(buf, len, "--trigger %s", o->trigger_text);
		if (o->cfg.trigger.post_trigger_us)
			add(buf, len, "--post-trigger %u", o->cfg.trigger.post_trigger_us);
		break;
	case PTSCOPE_R_BAD_SCOPE:
		add(buf, len, "%s", o->scope_by[0] ? o->scope_by : "--scope");
		break;
	case PTSCOPE_R_BAD_MODE:
		add(buf, len, "%s", o->mode_by[0] ? o->mode_by : "--mode");
		break;
	case PTSCOPE_R_NO_MTC:
	case PTSCOPE_R_BAD_MTC_PERIOD:
		timing_by(o, "--mtc-period", o->mtc_period, buf, len);
		break;
	case PTSCOPE_R_NO_CYC:
	case PTSCOPE_R_BAD_CYC_THRESH:
		timing_by(o, "--cyc-thresh", o->cyc_thresh, buf, len);
		break;
	case PTSCOPE_R_BAD_PSB_PERIOD:
		timing_by(o, "--psb-period", o->psb_period, buf, len);
		break;
	case PTSCOPE_R_TOO_MANY_RANGES:
	case PTSCOPE_R_ADDR_NOT_CANONICAL:
	case PTSCOPE_R_BAD_ADDR_RANGE:
	case PTSCOPE_R_BAD_ADDR_CFG:
		add(buf, len, "%zu -F/--filter range%s", o->nr_filters, o->nr_filters == 1 ? "" : "s");
		break;
	}
	return buf[0] ? buf : NULL;
}
