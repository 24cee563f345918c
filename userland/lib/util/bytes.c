// SPDX-License-Identifier: GPL-2.0
/* Byte counts for people: see bytes.h. */
#include "bytes.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

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

int pts_parse_size(const char *s, uint64_t *bytes)
{
	unsigned long long v;
	uint64_t mul = 1;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	switch (toupper((unsigned char)*end)) {
	case 'K': mul = 1ULL << 10; end++; break;
	case 'M': mul = 1ULL << 20; end++; break;
	case 'G': mul = 1ULL << 30; end++; break;
	case 'T': mul = 1ULL << 40; end++; break;
	}
	/* accept 4M, 4MB, 4MiB (all binary: buffer sizes are powers of two) */
	if (mul > 1) {
		if (*end == 'i' || *end == 'I')
			end++;
		if (*end == 'B' || *end == 'b')
			end++;
	}
	if (*end)
		return -EINVAL;
	if (v > UINT64_MAX / mul)
		return -EINVAL;
	*bytes = v * mul;
	return 0;
}
