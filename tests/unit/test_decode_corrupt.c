// SPDX-License-Identifier: GPL-2.0
/*
 * Corrupt and truncated PT (issue 5 item 9): the real dynamorio-hello
 * trace cut at every 97th byte, and with single bytes flipped at every
 * 61st offset. Whatever libipt makes of the damage, the decoder must not
 * crash, must report what it lost as gaps with a cause, and must still
 * hand out a well-formed timeline (every slice ends, time never goes back,
 * nesting holds). Cut traces decode at most the 8 instructions of the
 * whole trace, in order (a prefix of them, nothing invented).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"
#include "tl_sink.h"
#include "session/session.h"

static const uint64_t hello[] = { 0x401000, 0x401005, 0x40100a, 0x401014,
				  0x401019, 0x40101b, 0x401020, 0x401025 };
static uint64_t got[64];
static size_t ngot;
static char elf[512], tmp[64];
static uint8_t *pt;
static size_t ptlen;

static void on_insn(void *ctx, uint32_t cpu, uint64_t ip)
{
	(void)ctx;
	(void)cpu;
	if (ngot < 64)
		got[ngot++] = ip;
}

static int suite_init(void)
{
	char path[512];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/data/real/dynamorio-hello/pt.bin", pts_unit_shared_dir());
	snprintf(elf, sizeof(elf), "%s/data/real/dynamorio-hello/hello", pts_unit_shared_dir());
	f = fopen(path, "rb");
	if (!f)
		return 1;
	pt = malloc(8192);
	ptlen = fread(pt, 1, 8192, f);
	fclose(f);
	snprintf(tmp, sizeof(tmp), "/tmp/pts-corrupt.XXXXXX");
	fd = mkstemp(tmp);
	return fd < 0 || ptlen == 0 ? 1 : 0;
}

static int suite_cleanup(void)
{
	free(pt);
	return unlink(tmp);
}

static int decode(const uint8_t *buf, size_t len, struct pts_decode_summary *sum,
		  struct tl_sink *sink)
{
	struct pts_decode_opts o;
	struct pts_err err = { 0 };
	FILE *f = fopen(tmp, "wb");

	if (!f || fwrite(buf, 1, len, f) != len) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	pts_decode_opts_init(&o);
	o.pt[0].path = tmp;
	o.nr_pt = 1;
	o.elf[0].path = elf;
	o.nr_elf = 1;
	o.family = 6;
	o.model = 85;
	o.stepping = 4;
	o.mtc_freq = 3;
	o.nom_freq = 37;
	o.cpuid_15_eax = 2;
	o.cpuid_15_ebx = 308;
	o.on_insn = on_insn;
	ngot = 0;
	return pts_decode_raw(&o, tl_sink_emit, sink, sum, &err);
}

static void truncated_trace_decodes_a_prefix_and_stays_well_formed(void)
{
	size_t cut, i;

	for (cut = 0; cut < ptlen; cut += 97) {
		struct pts_decode_summary sum;
		struct tl_sink sink = { 0 };
		char why[256];

		CU_ASSERT_EQUAL_FATAL(decode(pt, cut, &sum, &sink), 0);
		CU_ASSERT(ngot <= 8);
		for (i = 0; i < ngot && i < 8; i++)
			CU_ASSERT_EQUAL(got[i], hello[i]);
		if (!tl_sink_well_formed(&sink, why, sizeof(why)))
			CU_FAIL(why);
		for (i = 0; i < sum.nr_causes; i++)
			CU_ASSERT(sum.causes[i].cause[0] != '\0');
		pts_decode_summary_free(&sum);
		tl_sink_free(&sink);
	}
}

static void flipped_bytes_never_crash_and_every_loss_has_a_cause(void)
{
	static uint8_t buf[8192];
	size_t off;

	for (off = 0; off < ptlen; off += 61) {
		struct pts_decode_summary sum;
		struct tl_sink sink = { 0 };
		char why[256];
		uint64_t n = 0;
		size_t i;

		memcpy(buf, pt, ptlen);
		buf[off] ^= 0x5a;
		CU_ASSERT_EQUAL_FATAL(decode(buf, ptlen, &sum, &sink), 0);
		if (!tl_sink_well_formed(&sink, why, sizeof(why)))
			CU_FAIL(why);
		for (i = 0; i < sum.nr_causes; i++)
			n += sum.causes[i].count;
		CU_ASSERT_EQUAL(n, sum.gaps);
		pts_decode_summary_free(&sum);
		tl_sink_free(&sink);
	}
}

/*
 * Garbage that syncs: pseudo-random bytes (fixed seed) with whole PSBs
 * sprinkled in, so libipt keeps finding sync points and then reading
 * nonsense. Nothing may crash, and the timeline must stay well formed.
 */
static void random_bytes_between_psbs_never_break_the_timeline(void)
{
	static const uint8_t psb[16] = { 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
					 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82 };
	static uint8_t buf[4096];
	uint32_t x = 12345;
	int round;
	size_t i;

	for (round = 0; round < 40; round++) {
		struct pts_decode_summary sum;
		struct tl_sink sink = { 0 };
		char why[256];

		for (i = 0; i < sizeof(buf); i++) {
			x = x * 1103515245 + 12345;
			buf[i] = (uint8_t)(x >> 16);
		}
		for (i = 0; i + sizeof(psb) < sizeof(buf); i += 256 + (size_t)(round * 7))
			memcpy(buf + i, psb, sizeof(psb));
		CU_ASSERT_EQUAL_FATAL(decode(buf, sizeof(buf), &sum, &sink), 0);
		if (!tl_sink_well_formed(&sink, why, sizeof(why)))
			CU_FAIL(why);
		pts_decode_summary_free(&sum);
		tl_sink_free(&sink);
	}
}

PTS_SUITE(decode_corrupt, suite_init, suite_cleanup,
	  PTS_TEST_SHARED(truncated_trace_decodes_a_prefix_and_stays_well_formed,
			  "data/real/dynamorio-hello/pt.bin"),
	  PTS_TEST_SHARED(flipped_bytes_never_crash_and_every_loss_has_a_cause,
			  "data/real/dynamorio-hello/pt.bin"),
	  PTS_TEST_SHARED(random_bytes_between_psbs_never_break_the_timeline,
			  "data/real/dynamorio-hello/pt.bin"));
