// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness: perf script text (ptscope decode --perf-script), in the
 * scope size % 4 (not given, user, kernel, both), written by the writer
 * size / 4 % 5 (none, fxt, json, txt, folded).
 */
#include "fuzz.h"
#include "session/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pts_decode_summary sum;
	struct pts_err err;
	const char *path = fuzz_file(0, "perf-script.txt", data, size);
	int rc;

	fuzz_sink_begin((enum pts_format)(size / 4 % 5));
	rc = pts_decode_perfscript(path, (enum pts_scope)(size % 4), fuzz_emit, NULL, &sum, &err);
	fuzz_sink_end(!rc);
	pts_decode_summary_free(&sum);
	return 0;
}
