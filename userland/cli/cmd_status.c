// SPDX-License-Identifier: GPL-2.0
/*
 * ptscope status: the module's run state, trigger, RTIT values and each
 * selected CPU's buffer head.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "capture/device.h"
#include "capture/options.h"
#include "commands.h"

static void cpu_flags_text(uint32_t f, char *buf, size_t len)
{
	static const struct { uint32_t bit; const char *name; } names[] = {
		{ PTSCOPE_CPUF_SELECTED, "selected" }, { PTSCOPE_CPUF_ONLINE, "online" },
		{ PTSCOPE_CPUF_ENABLED, "tracing" }, { PTSCOPE_CPUF_WRAPPED, "wrapped" },
		{ PTSCOPE_CPUF_ERROR, "ERROR" }, { PTSCOPE_CPUF_STOPPED, "stopped(full)" },
		{ PTSCOPE_CPUF_CLOBBERED, "CLOBBERED" }, { PTSCOPE_CPUF_MSR_FAULT, "MSR-FAULT" },
		{ PTSCOPE_CPUF_OFFLINED, "offlined" },
		{ PTSCOPE_CPUF_FOREIGN_STATE, "foreign-state" }, { PTSCOPE_CPUF_CONFLICT, "CONFLICT" },
		{ PTSCOPE_CPUF_TRACESTOP, "tracestop" }, { PTSCOPE_CPUF_VMX, "vmx" },
	};
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && off < len; i++)
		if (f & names[i].bit)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "," : "",
						names[i].name);
}

int cmd_status(int argc, char **argv)
{
	struct ptscope_state st;
	struct pts_err err = { 0 };
	uint32_t cpu;
	int fd, i, disarm = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: ptscope status [--disarm]\n\n"
			       "Show the module's state (idle, configured, armed, post-trigger,\n"
			       "triggered, stopped), the last trigger, the RTIT_CTL and CR3_MATCH\n"
			       "values written, the sideband fill, and per CPU the ring head, bytes\n"
			       "valid, wraps and flags.\n\n"
			       "  --disarm   then end that capture (STOP + UNCONFIGURE), e.g. one\n"
			       "             left behind by a ptscope that was killed\n");
			return 0;
		}
		if (!strcmp(argv[i], "--disarm")) {
			disarm = 1;
			continue;
		}
		fprintf(stderr, "ptscope status: unknown argument '%s' (see ptscope status --help)\n",
			argv[i]);
		return 2;
	}
	fd = pts_dev_open(&err);
	if (fd < 0) {
		fprintf(stderr, "ptscope: %s\n", err.msg);
		return 1;
	}
	if (pts_dev_get_state(fd, &st, &err)) {
		fprintf(stderr, "ptscope: %s\n", err.msg);
		close(fd);
		return 1;
	}
	printf("state       %s%s\n", pts_state_text(st.state),
	       st.flags & PTSCOPE_STATEF_SIMULATED ? " (simulated PT unit)" : "");
	printf("trigger     %s", pts_trigger_reason_text(st.trigger_reason));
	if (st.trigger_reason)
		printf(" on CPU %u, pid %d tid %d, TSC %" PRIu64, st.trigger_cpu, st.trigger_pid,
		       st.trigger_tid, (uint64_t)st.trigger_tsc);
	printf("; %u snapshot(s) since configure\n", st.nr_snapshots);
	printf("RTIT_CTL    0x%" PRIx64 "\nCR3_MATCH   0x%" PRIx64 "%s\n", (uint64_t)st.rtit_ctl,
	       (uint64_t)st.cr3_match,
	       st.flags & PTSCOPE_STATEF_CR3_PARTIAL ? " (partial: filtered by sideband)" : "");
	printf("sideband    %" PRIu64 " bytes unread, %" PRIu64 " records lost\n",
	       (uint64_t)st.sideband_bytes, (uint64_t)st.sideband_lost);
	printf("TSC         %u kHz\n", st.tsc_khz);
	if (st.state == PTSCOPE_STATE_IDLE) {
		close(fd);
		if (disarm)
			printf("ptscope: nothing to disarm\n");
		return 0;
	}
	printf("\n%-5s %12s %12s %12s %8s  %s\n", "cpu", "buffer", "head", "valid", "wraps",
	       "flags");
	for (cpu = 0; cpu < PTSCOPE_MAX_CPUS; cpu++) {
		struct ptscope_cpu_status cs;
		char fl[160], sz[32];

		if (!(st.armed_cpu_mask[cpu / 64] & (1ULL << (cpu % 64))))
			continue;
		if (pts_dev_get_cpu_status(fd, cpu, &cs, &err)) {
			printf("%-5u %s\n", cpu, err.msg);
			continue;
		}
		cpu_flags_text(cs.flags, fl, sizeof(fl));
		pts_format_size(cs.buffer_size, sz, sizeof(sz));
		printf("%-5u %12s %12" PRIu64 " %12" PRIu64 " %8" PRIu64 "  %s\n", cpu, sz,
		       (uint64_t)cs.head, (uint64_t)cs.bytes_valid, (uint64_t)cs.wrap_count, fl);
	}
	if (disarm) {
		struct ptscope_cmd c;

		memset(&c, 0, sizeof(c));
		c.hdr.size = sizeof(c);
		if (pts_dev_ioctl(fd, PTSCOPE_IOC_STOP, "STOP", &c, &err) &&
		    c.hdr.reason != PTSCOPE_R_NOT_ARMED)
			fprintf(stderr, "ptscope: %s\n", err.msg);
		if (pts_dev_cmd(fd, PTSCOPE_IOC_UNCONFIGURE, "UNCONFIGURE", &err)) {
			fprintf(stderr, "ptscope: %s\n", err.msg);
			close(fd);
			return 1;
		}
		printf("\nptscope: capture disarmed and unconfigured\n");
	}
	close(fd);
	return 0;
}
