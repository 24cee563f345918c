// SPDX-License-Identifier: GPL-2.0
/*
 * ptscope status: the module's run state, trigger, RTIT values and each
 * selected CPU's buffer head, as a table or (--json) one JSON object.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "capture/device.h"
#include "capture/options.h"
#include "commands.h"

static const struct { uint32_t bit; const char *name; } cpu_flag_names[] = {
	{ PTSCOPE_CPUF_SELECTED, "selected" }, { PTSCOPE_CPUF_ONLINE, "online" },
	{ PTSCOPE_CPUF_ENABLED, "tracing" }, { PTSCOPE_CPUF_WRAPPED, "wrapped" },
	{ PTSCOPE_CPUF_ERROR, "ERROR" }, { PTSCOPE_CPUF_STOPPED, "stopped(full)" },
	{ PTSCOPE_CPUF_CLOBBERED, "CLOBBERED" }, { PTSCOPE_CPUF_MSR_FAULT, "MSR-FAULT" },
	{ PTSCOPE_CPUF_OFFLINED, "offlined" },
	{ PTSCOPE_CPUF_FOREIGN_STATE, "foreign-state" }, { PTSCOPE_CPUF_CONFLICT, "CONFLICT" },
	{ PTSCOPE_CPUF_TRACESTOP, "tracestop" }, { PTSCOPE_CPUF_VMX, "vmx" },
};

#define NR_CPU_FLAGS (sizeof(cpu_flag_names) / sizeof(cpu_flag_names[0]))

static void cpu_flags_text(uint32_t f, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < NR_CPU_FLAGS && off < len; i++)
		if (f & cpu_flag_names[i].bit)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "," : "",
						cpu_flag_names[i].name);
}

static bool cpu_armed(const struct ptscope_state *st, uint32_t cpu)
{
	return st->armed_cpu_mask[cpu / 64] & (1ULL << (cpu % 64));
}

static json_object *hex(uint64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "0x%" PRIx64, v);
	return json_object_new_string(b);
}

/* The same facts as the table, for scripts: names as in the table and the ABI. */
static void print_json(int fd, const struct ptscope_state *st)
{
	json_object *o = json_object_new_object(), *t = json_object_new_object();
	json_object *sb = json_object_new_object(), *cpus = json_object_new_array();
	struct pts_err err;
	uint32_t cpu;
	size_t i;

	json_object_object_add(o, "module_loaded", json_object_new_boolean(1));
	json_object_object_add(o, "state", json_object_new_string(pts_state_text(st->state)));
	json_object_object_add(o, "simulated",
			       json_object_new_boolean(!!(st->flags & PTSCOPE_STATEF_SIMULATED)));
	json_object_object_add(o, "crash_kernel",
			       json_object_new_boolean(!!(st->flags & PTSCOPE_STATEF_CRASH_KERNEL)));
	json_object_object_add(t, "reason",
			       json_object_new_string(pts_trigger_reason_text(st->trigger_reason)));
	if (st->trigger_reason) {
		json_object_object_add(t, "cpu", json_object_new_int64(st->trigger_cpu));
		json_object_object_add(t, "pid", json_object_new_int64(st->trigger_pid));
		json_object_object_add(t, "tid", json_object_new_int64(st->trigger_tid));
		json_object_object_add(t, "tsc", json_object_new_uint64(st->trigger_tsc));
	}
	{
		struct ptscope_trigger_info ti;
		json_object *a;

		if (st->state != PTSCOPE_STATE_IDLE && !pts_dev_get_trigger(fd, &ti, &err)) {
			a = json_object_new_object();
			if (ti.kinds & PTSCOPE_TRIG_TRACEPOINT) {
				json_object_object_add(a, "tracepoint",
						       json_object_new_string(ti.tracepoint));
				json_object_object_add(a, "tracepoint_pid",
						       json_object_new_int64(ti.tracepoint_pid));
			}
			if (ti.kinds & PTSCOPE_TRIG_HOTKEY) {
				char k[2] = { (char)ti.hotkey, 0 };

				json_object_object_add(a, "hotkey", json_object_new_string(k));
			}
			if (ti.kinds & PTSCOPE_TRIG_UPROBE) {
				json_object_object_add(a, "uprobe_path",
						       json_object_new_string(ti.uprobe_path));
				json_object_object_add(a, "uprobe_offset", hex(ti.uprobe_offset));
				json_object_object_add(a, "uprobe_pid",
						       json_object_new_int64(ti.uprobe_pid));
				json_object_object_add(a, "uprobe_hits",
						       json_object_new_uint64(ti.uprobe_hits));
			}
			json_object_object_add(t, "armed_on", a);
		}
	}
	json_object_object_add(o, "trigger", t);
	json_object_object_add(o, "snapshots", json_object_new_int64(st->nr_snapshots));
	json_object_object_add(o, "rtit_ctl", hex(st->rtit_ctl));
	json_object_object_add(o, "cr3_match", hex(st->cr3_match));
	json_object_object_add(o, "cr3_partial",
			       json_object_new_boolean(!!(st->flags & PTSCOPE_STATEF_CR3_PARTIAL)));
	json_object_object_add(sb, "unread_bytes", json_object_new_uint64(st->sideband_bytes));
	json_object_object_add(sb, "lost", json_object_new_uint64(st->sideband_lost));
	json_object_object_add(o, "sideband", sb);
	json_object_object_add(o, "tsc_khz", json_object_new_int64(st->tsc_khz));
	for (cpu = 0; st->state != PTSCOPE_STATE_IDLE && cpu < PTSCOPE_MAX_CPUS; cpu++) {
		struct ptscope_cpu_status cs;
		json_object *c, *fl;

		if (!cpu_armed(st, cpu))
			continue;
		c = json_object_new_object();
		json_object_object_add(c, "cpu", json_object_new_int64(cpu));
		if (pts_dev_get_cpu_status(fd, cpu, &cs, &err)) {
			json_object_object_add(c, "error", json_object_new_string(err.msg));
			json_object_array_add(cpus, c);
			continue;
		}
		fl = json_object_new_array();
		for (i = 0; i < NR_CPU_FLAGS; i++)
			if (cs.flags & cpu_flag_names[i].bit)
				json_object_array_add(fl, json_object_new_string(cpu_flag_names[i].name));
		json_object_object_add(c, "buffer_size", json_object_new_uint64(cs.buffer_size));
		json_object_object_add(c, "head", json_object_new_uint64(cs.head));
		json_object_object_add(c, "bytes_valid", json_object_new_uint64(cs.bytes_valid));
		json_object_object_add(c, "wraps", json_object_new_uint64(cs.wrap_count));
		/* this CPU's sideband ring: records it dropped, bytes unread */
		json_object_object_add(c, "sideband_lost", json_object_new_uint64(cs.sideband_lost));
		json_object_object_add(c, "sideband_unread_bytes",
				       json_object_new_uint64(cs.sideband_bytes));
		json_object_object_add(c, "flags", fl);
		json_object_array_add(cpus, c);
	}
	json_object_object_add(o, "cpus", cpus);
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						      JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

static void print_table(int fd, const struct ptscope_state *st)
{
	struct pts_err err;
	uint32_t cpu;

	printf("state       %s%s\n", pts_state_text(st->state),
	       st->flags & PTSCOPE_STATEF_SIMULATED ? " (simulated PT unit)" : "");
	printf("trigger     %s", pts_trigger_reason_text(st->trigger_reason));
	if (st->trigger_reason)
		printf(" on CPU %u, pid %d tid %d, TSC %" PRIu64, st->trigger_cpu, st->trigger_pid,
		       st->trigger_tid, (uint64_t)st->trigger_tsc);
	printf("; %u snapshot(s) since configure\n", st->nr_snapshots);
	/* the state at START: docs/abi.md, "What a PANIC snapshot can promise" */
	if (st->flags & PTSCOPE_STATEF_CRASH_KERNEL)
		printf("kdump       a crash kernel was loaded at START: a crash while armed traces on "
		       "into it (stop the capture first, set /sys/module/kernel/parameters/"
		       "crash_kexec_post_notifiers to Y, or unload it: kexec -p -u)\n");
	if (st->state != PTSCOPE_STATE_IDLE) {
		struct ptscope_trigger_info ti;
		char armed[512];

		if (!pts_dev_get_trigger(fd, &ti, &err)) {
			pts_trigger_armed_text(&ti, armed, sizeof(armed));
			printf("armed on    %s\n", armed);
		}
	}
	printf("RTIT_CTL    0x%" PRIx64 "\nCR3_MATCH   0x%" PRIx64 "%s\n", (uint64_t)st->rtit_ctl,
	       (uint64_t)st->cr3_match,
	       st->flags & PTSCOPE_STATEF_CR3_PARTIAL ? " (partial: filtered by sideband)" : "");
	printf("sideband    %" PRIu64 " bytes unread, %" PRIu64 " records lost\n",
	       (uint64_t)st->sideband_bytes, (uint64_t)st->sideband_lost);
	printf("TSC         %u kHz\n", st->tsc_khz);
	if (st->state == PTSCOPE_STATE_IDLE)
		return;
	printf("\n%-5s %12s %12s %12s %8s  %s\n", "cpu", "buffer", "head", "valid", "wraps",
	       "flags");
	for (cpu = 0; cpu < PTSCOPE_MAX_CPUS; cpu++) {
		struct ptscope_cpu_status cs;
		char fl[160], sz[32];

		if (!cpu_armed(st, cpu))
			continue;
		if (pts_dev_get_cpu_status(fd, cpu, &cs, &err)) {
			printf("%-5u %s\n", cpu, err.msg);
			continue;
		}
		cpu_flags_text(cs.flags, fl, sizeof(fl));
		pts_format_size(cs.buffer_size, sz, sizeof(sz));
		printf("%-5u %12s %12" PRIu64 " %12" PRIu64 " %8" PRIu64 "  %s", cpu, sz,
		       (uint64_t)cs.head, (uint64_t)cs.bytes_valid, (uint64_t)cs.wrap_count, fl);
		if (cs.sideband_lost)
			printf("%ssideband lost %" PRIu64, fl[0] ? ", " : "",
			       (uint64_t)cs.sideband_lost);
		putchar('\n');
	}
}

static int disarm_capture(int fd)
{
	struct pts_err err = { 0 };
	struct ptscope_cmd c;

	memset(&c, 0, sizeof(c));
	c.hdr.size = sizeof(c);
	if (pts_dev_ioctl(fd, PTSCOPE_IOC_STOP, "STOP", &c, &err) &&
	    c.hdr.reason != PTSCOPE_R_NOT_ARMED)
		fprintf(stderr, "ptscope: %s\n", err.msg);
	if (pts_dev_cmd(fd, PTSCOPE_IOC_UNCONFIGURE, "UNCONFIGURE", &err)) {
		fprintf(stderr, "ptscope: %s\n", err.msg);
		return 1;
	}
	return 0;
}

int cmd_status(int argc, char **argv)
{
	struct ptscope_state st;
	struct pts_err err = { 0 };
	int fd, i, disarm = 0, json = 0, rc = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("Usage: ptscope status [--json] [--disarm]\n\n"
			       "Show the module's state (idle, configured, armed, post-trigger,\n"
			       "triggered, stopped), the last trigger, the RTIT_CTL and CR3_MATCH\n"
			       "values written, the sideband fill, and per CPU the ring head, bytes\n"
			       "valid, wraps and flags.\n\n"
			       "Options:\n"
			       "  -j, --json  the same as one JSON object (without the module:\n"
			       "              {\"module_loaded\": false, \"error\": ...}, exit 1)\n"
			       "  --disarm    then end that capture (STOP + UNCONFIGURE), e.g. one\n"
			       "              left behind by a ptscope that was killed\n"
			       "  -h, --help  show this help\n\n"
			       "Exit status: 0 shown (and disarmed), 1 the device cannot be opened or\n"
			       "read or the disarm failed, 2 bad usage.\n");
			return 0;
		}
		if (!strcmp(argv[i], "--disarm")) {
			disarm = 1;
			continue;
		}
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) {
			json = 1;
			continue;
		}
		fprintf(stderr, "ptscope status: unknown argument '%s' (see ptscope status --help)\n",
			argv[i]);
		return 2;
	}
	fd = pts_dev_open(&err);
	if (fd < 0) {
		if (json)
			printf("{\n  \"module_loaded\":false,\n  \"error\":\"%s\"\n}\n",
			       strerror(-fd));
		fprintf(stderr, "ptscope: %s\n", err.msg);
		return 1;
	}
	if (pts_dev_get_state(fd, &st, &err)) {
		fprintf(stderr, "ptscope: %s\n", err.msg);
		close(fd);
		return 1;
	}
	if (json)
		print_json(fd, &st);
	else
		print_table(fd, &st);
	if (disarm && st.state == PTSCOPE_STATE_IDLE) {
		if (!json)
			printf("ptscope: nothing to disarm\n");
	} else if (disarm) {
		rc = disarm_capture(fd);
		if (!rc && !json)
			printf("\nptscope: capture disarmed and unconfigured\n");
	}
	close(fd);
	return rc;
}
