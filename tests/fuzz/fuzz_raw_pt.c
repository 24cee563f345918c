// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness: raw PT and the decode options (ptscope decode --pt). The
 * first 8 bytes choose the options, the rest is the trace:
 *   [0] bits 0-1: scope (from the trace, user, kernel, both); bit 2: thread from --pid/--tid
 *       (else per CPU); bits 4-6 modulo 5: the writer (none, fxt, json, txt, folded)
 *   [1] CPU model (0: unknown, else one of a few with and without errata)
 *   [2] RTIT_CTL.MTCFreq, [3] nominal ratio (MSR_PLATFORM_INFO[15:8])
 *   [4] bit 0: two CPUs, the trace split at [5..6] (little endian)
 *   [7] 0: no TSC rate given, else 1 GHz
 * The code is tests/golden/decode/user.S and kernel.S (FUZZ_DATA), and
 * spin.bin at 0x500000: nop; jmp . (a loop without trace); ret.
 */
#include <string.h>

#include "fuzz.h"
#include "session/session.h"

static const struct { uint16_t family; uint8_t model, stepping; } cpus[] = {
	{ 0, 0, 0 }, { 6, 85, 4 }, { 6, 61, 0 }, { 6, 142, 9 }, { 6, 158, 10 }, { 6, 0x8f, 8 },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pts_decode_summary sum;
	struct pts_decode_opts o;
	struct pts_err err;
	size_t split;
	int rc;

	if (size < 8)
		return 0;
	pts_decode_opts_init(&o);
	o.scope = (enum pts_scope)(data[0] & 3);
	if (data[0] & 4) {
		o.pid = 100;
		o.tid = 101;
	}
	o.family = cpus[data[1] % (sizeof(cpus) / sizeof(cpus[0]))].family;
	o.model = cpus[data[1] % (sizeof(cpus) / sizeof(cpus[0]))].model;
	o.stepping = cpus[data[1] % (sizeof(cpus) / sizeof(cpus[0]))].stepping;
	o.mtc_freq = data[2] & 15;
	o.nom_freq = data[3];
	o.cpuid_15_eax = 2;
	o.cpuid_15_ebx = 168;
	o.tsc_khz = data[7] ? 1000000 : 0;
	o.elf[0].path = FUZZ_USER_ELF;
	o.elf[1].path = FUZZ_KERNEL_ELF;
	o.nr_elf = 2;
	o.raw[0].path = FUZZ_DATA "/spin.bin";
	o.raw[0].vaddr = 0x500000;
	o.nr_raw = 1;
	split = size - 8;
	if (data[4] & 1) {
		split = (size_t)(data[5] | data[6] << 8);
		if (split > size - 8)
			split = size - 8;
		o.pt[1].path = fuzz_file(1, "cpu1.pt", data + 8 + split, size - 8 - split);
		o.pt[1].cpu = 1;
		o.nr_pt = 2;
	}
	o.pt[0].path = fuzz_file(0, "cpu0.pt", data + 8, split);
	o.pt[0].cpu = 0;
	if (!o.nr_pt)
		o.nr_pt = 1;
	fuzz_sink_begin((enum pts_format)(((data[0] >> 4) & 7) % 5));
	rc = pts_decode_raw(&o, fuzz_emit, NULL, &sum, &err);
	fuzz_sink_end(!rc);
	pts_decode_summary_free(&sum);
	return 0;
}
