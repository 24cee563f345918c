// SPDX-License-Identifier: GPL-2.0
/* Byte counts for people: see bytes.h. */
#include "bytes.h"

#include <inttypes.h>
#include <stdio.h>

char *pts_bytes_text(uint64_t n, char *buf, size_t len)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned int u = 0;
	double v;

	if (n < 1024) {
		snprintf(buf, len, "%" PRIu64 " byte%s", n, n == 1 ? "" : "s");
		return buf;
	}
	v = (double)n / 1024;
	while (u < 5 && v >= 1024) {
		v /= 1024;
		u++;
	}
	/* 1048575 bytes is 1023.999 KiB: say "1.0 MiB", not "1024.0 KiB" */
	if (v >= 1023.95 && u < 5) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 " bytes (%.1f %s)", n, v, unit[u]);
	return buf;
}
