// SPDX-License-Identifier: GPL-2.0
/*
 * An executable whose section headers are damaged (issue 20 item 6):
 * libelf reads section headers that lie past the end of the file as none
 * at all, so its symbol names are silently missing. The decoder must say
 * so, once for the object however often its code is named.
 *
 * The program is tests/golden/decode/user.S (see test_decode_synth.c):
 * _start 401000 calls f1 401040, which calls f2 401060 (a loop of three
 * passes), both return, and _start's syscall (40100a) turns tracing off.
 * Stream (libipt's encoder): PSB+ TIP.PGE(_start) TNT(T T N T T: the
 * loop, then two compressed returns) TIP.PGD (IP suppressed). The
 * damaged copy has e_shoff (ELF64 header offset 0x28) moved past the end
 * of the file; its code (program headers) is untouched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "asm_elf.h"
#include "bundle_fixture.h"
#include "pt_gen.h"
#include "tl_sink.h"
#include "session/session.h"

static char *dir, *good, bad[300], trace[300];

static int suite_init(void)
{
	char cmd[8300];
	uint64_t off;
	FILE *f;

	dir = bt_tmpdir();
	if (!dir)
		return 1;
	snprintf(bad, sizeof(bad), "%s/damaged.elf", dir);
	snprintf(trace, sizeof(trace), "%s/trace.pt", dir);
	good = asm_elf_build(dir, "user.elf", ASM_ELF_USER_S, "-static -Ttext=0x401000 -e _start");
	if (!good)
		return 1;
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", good, bad);
	if (system(cmd))
		return 1;
	f = fopen(bad, "r+b");
	if (!f)
		return 1;
	off = 1u << 30;	/* the file is a few KiB */
	if (fseek(f, 0x28, SEEK_SET) || fwrite(&off, sizeof(off), 1, f) != 1) {
		fclose(f);
		return 1;
	}
	return fclose(f) ? 1 : 0;
}

static int suite_cleanup(void)
{
	bt_rmtree(dir);
	free(dir);
	free(good);
	return 0;
}

static void decode(const char *elf, struct tl_sink *sink, struct pts_decode_summary *sum)
{
	struct pts_decode_opts o;
	struct pts_err err = { 0 };
	struct pt_gen g;

	gen_init(&g);
	gen_psb_plus(&g, 1000);
	gen_ip(&g, ppt_tip_pge, 0x401000);
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_save(&g, trace);
	gen_done(&g);
	pts_decode_opts_init(&o);
	o.pt[0].path = trace;
	o.nr_pt = 1;
	o.elf[0].path = elf;
	o.nr_elf = 1;
	o.tsc_khz = 1000000;
	/* the recording CPU given, as a raw trace's user gives it: no notice for its absence */
	o.family = 6;
	o.model = 85;
	o.stepping = 4;
	o.pid = 100;
	o.tid = 100;
	CU_ASSERT_EQUAL_FATAL(pts_decode_raw(&o, tl_sink_emit, sink, sum, &err), 0);
}

static unsigned int notices_naming(const struct pts_decode_summary *sum, const char *path)
{
	unsigned int i, n = 0;

	for (i = 0; i < sum->nr_notices; i++)
		n += strstr(sum->notices[i], path) != NULL;
	return n;
}

static void damaged_section_headers_are_said_once_per_object(void)
{
	struct tl_sink sink = { 0 };
	struct pts_decode_summary sum;
	char shape[1024];
	unsigned int i;

	decode(bad, &sink, &sum);
	CU_ASSERT_EQUAL(notices_naming(&sum, bad), 1);
	for (i = 0; i < sum.nr_notices; i++)
		if (strstr(sum.notices[i], bad))
			CU_ASSERT_PTR_NOT_NULL(strstr(sum.notices[i],
				"its section headers (at offset 1073741824) lie outside the file"));
	/* the code decodes (program headers are whole); the names are missing */
	tl_sink_shape(&sink, shape, sizeof(shape));
	CU_ASSERT_PTR_NULL(strstr(shape, "_start"));
	CU_ASSERT_PTR_NOT_NULL(strstr(shape, "B0 [unknown] 0x401000"));
	CU_ASSERT_EQUAL(sum.gaps, 0);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/* The control: the undamaged file names its functions and says nothing. */
static void whole_section_headers_name_the_functions_without_a_notice(void)
{
	struct tl_sink sink = { 0 };
	struct pts_decode_summary sum;
	char shape[1024];

	decode(good, &sink, &sum);
	CU_ASSERT_EQUAL(sum.nr_notices, 0);
	tl_sink_shape(&sink, shape, sizeof(shape));
	CU_ASSERT_STRING_EQUAL(shape, "B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall]|"
			       "E1 [syscall]|E0 _start");
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

PTS_SUITE(decode_elf_damage, suite_init, suite_cleanup,
	  PTS_TEST(damaged_section_headers_are_said_once_per_object),
	  PTS_TEST(whole_section_headers_name_the_functions_without_a_notice));
