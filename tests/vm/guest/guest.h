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
