/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the guest programs that print a scenario's result
 * (ptstest, permtest, ioctl_fuzz): the growing detail text of the RESULT
 * line, clocks, and ioctl calls with the header filled in.
 */
#ifndef PTS_VM_GUEST_H
#define PTS_VM_GUEST_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include "uapi/ptscope.h"

/* The detail text of the scenario's RESULT line. */
static char g_detail[2048];

/* Append to g_detail, space-separated. */
static void __attribute__((format(printf, 1, 2))) detail(const char *fmt, ...)
{
	size_t n = strlen(g_detail);
	va_list ap;

	if (n && n < sizeof(g_detail) - 2) {
		g_detail[n++] = ' ';
		g_detail[n] = 0;
	}
	va_start(ap, fmt);
	vsnprintf(g_detail + n, sizeof(g_detail) - n, fmt, ap);
	va_end(ap);
}

static __attribute__((unused)) uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static __attribute__((unused)) void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * One RTIT MSR of one CPU as the simulated unit holds it now, from its
 * /sys/module/ptscope/sim_msr ("cpuN ctl=... status=... ...", one line per
 * online CPU; docs/simulated-unit.md): the unit's own state, not what
 * the module reports. name is the column ("ctl", "status", ...).
 * Returns 0, or -1 if the file, the CPU's line or the column is missing.
 */
static __attribute__((unused)) int sim_msr_value(int cpu, const char *name, uint64_t *v)
{
	char buf[8192], want[16], key[16], *line, *save = NULL, *p;
	FILE *f = fopen("/sys/module/ptscope/sim_msr", "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	snprintf(want, sizeof(want), "cpu%d ", cpu);
	snprintf(key, sizeof(key), " %s=", name);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, want, strlen(want)))
			continue;
		p = strstr(line, key);
		if (!p)
			return -1;
		*v = strtoull(p + strlen(key), NULL, 0);
		return 0;
	}
	return -1;
}

/* ioctl with hdr.size filled in and the output fields zeroed: 0 or -errno. */
static __attribute__((unused)) int xioctl(int fd, unsigned long cmd, void *arg, size_t size)
{
	struct ptscope_hdr *h = arg;

	h->size = (uint32_t)size;
	h->reason = 0;
	h->reason_arg = 0;
	return ioctl(fd, cmd, arg) ? -errno : 0;
}
#define IOC(fd, cmd, s) xioctl(fd, cmd, &(s), sizeof(s))

#endif
