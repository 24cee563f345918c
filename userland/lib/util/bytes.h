/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Byte counts for people: the exact count, and from 1 KiB on the same
 * value in binary units, e.g. "14221 bytes (13.9 KiB)". The exact count
 * stays first so that scripts and bug reports keep the precise number.
 */
#ifndef PTS_UTIL_BYTES_H
#define PTS_UTIL_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* Longest text pts_bytes_text() writes, NUL included. */
#define PTS_BYTES_TEXT_LEN 48

/*
 * Write "N bytes" (N < 1024), else "N bytes (X.Y UNIT)" with UNIT the
 * largest of KiB, MiB, GiB, TiB, PiB, EiB that keeps X >= 1, X rounded to
 * one decimal. "1 byte" for 1. Returns buf. len >= PTS_BYTES_TEXT_LEN
 * never cuts the text.
 */
char *pts_bytes_text(uint64_t n, char *buf, size_t len);

/*
 * Byte counts from people: "4M", "64M", "512K", "1G", "4MiB", "8192":
 * bytes (K, M, G, T binary, in any case, with an optional "iB" or "B").
 * 0 or -EINVAL (syntax, overflow). Range checks are the caller's.
 */
int pts_parse_size(const char *s, uint64_t *bytes);

#endif /* PTS_UTIL_BYTES_H */
