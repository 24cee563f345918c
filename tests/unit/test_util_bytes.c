// SPDX-License-Identifier: GPL-2.0
/*
 * Byte counts for people (util/bytes.h). Expected texts worked by hand:
 * 14221 / 1024 = 13.887 -> "13.9 KiB"; 1536 / 1024 = 1.5; 1048575 / 1024
 * = 1023.999 rounds to 1024.0, said as "1.0 MiB"; 5 GiB = 5368709120.
 */
#include <string.h>

#include "unit.h"
#include "util/bytes.h"

static void counts_below_1024_stay_plain_bytes(void)
{
	char b[PTS_BYTES_TEXT_LEN];

	CU_ASSERT_STRING_EQUAL(pts_bytes_text(0, b, sizeof(b)), "0 bytes");
	CU_ASSERT_STRING_EQUAL(pts_bytes_text(1, b, sizeof(b)), "1 byte");
	CU_ASSERT_STRING_EQUAL(pts_bytes_text(1023, b, sizeof(b)), "1023 bytes");
}

static void larger_counts_add_binary_units_to_one_decimal(void)
{
	char b[PTS_BYTES_TEXT_LEN];

	CU_ASSERT_STRING_EQUAL(pts_bytes_text(1024, b, sizeof(b)), "1024 bytes (1.0 KiB)");
	CU_ASSERT_STRING_EQUAL(pts_bytes_text(1536, b, sizeof(b)), "1536 bytes (1.5 KiB)");
	CU_ASSERT_STRING_EQUAL(pts_bytes_text(14221, b, sizeof(b)), "14221 bytes (13.9 KiB)");
	CU_ASSERT_STRING_EQUAL(pts_bytes_text(1048575, b, sizeof(b)), "1048575 bytes (1.0 MiB)");
	CU_ASSERT_STRING_EQUAL(pts_bytes_text(5368709120ULL, b, sizeof(b)),
			       "5368709120 bytes (5.0 GiB)");
	/* the largest count fits the documented length */
	pts_bytes_text(UINT64_MAX, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "18446744073709551615 bytes (16.0 EiB)");
}

PTS_SUITE(util_bytes, NULL, NULL,
	  PTS_TEST(counts_below_1024_stay_plain_bytes),
	  PTS_TEST(larger_counts_add_binary_units_to_one_decimal))
