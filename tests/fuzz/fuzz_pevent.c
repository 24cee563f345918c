// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness: perf sideband (ptscope decode --pevent-primary). The
 * first 16 bytes are perf's sample_type and time_mult/time_shift (bit 0
 * of [15]: convert times as perf does, else a 1 GHz TSC; bits 0-2 of
 * [14] modulo 5: the writer, none, fxt, json, txt, folded; bit 3 of [14]:
 * --sysroot FUZZ_DATA, where the sideband's mapped files are read, bit 4:
 * FUZZ_DATA as perf's build-id cache, where an MMAP2 record's build-id is
 * looked for), the rest the pevent records; the trace is
 * fuzz_user_trace() over user.S, so the sideband's switches and names
 * move that code between threads, and its mappings (/user.elf, /spin.bin)
 * map code of their own.
 */
#include <string.h>

#include "fuzz.h"
#include "session/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pts_decode_summary sum;
	struct pts_decode_opts o;
	struct pts_err err;
	uint64_t st;
	uint32_t mult;
	int rc;

	if (size < 16)
		return 0;
	memcpy(&st, data, 8);
	memcpy(&mult, data + 8, 4);
	pts_decode_opts_init(&o);
	o.pt[0].path = fuzz_user_trace();
	o.nr_pt = 1;
	o.elf[0].path = FUZZ_USER_ELF;
	o.nr_elf = 1;
	o.pevent[0] = fuzz_file(0, "primary.pevent", data + 16, size - 16);
	o.nr_pevent = 1;
	o.pevent_sample_type = st;
	if (data[15] & 1) {
		o.have_perf_time = true;
		o.time_mult = mult ? mult : 1;
		o.time_shift = data[12] & 63;
	} else {
		o.tsc_khz = 1000000;
	}
	if (data[14] & 8)
		o.sysroot = FUZZ_DATA;
	if (data[14] & 16)
		o.buildid_dir = FUZZ_DATA;
	fuzz_sink_begin((enum pts_format)((data[14] & 7) % 5));
	rc = pts_decode_raw(&o, fuzz_emit, NULL, &sum, &err);
	fuzz_sink_end(!rc);
	pts_decode_summary_free(&sum);
	return 0;
}
