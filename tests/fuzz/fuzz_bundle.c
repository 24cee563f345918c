// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness: a capture bundle (ptscope decode NAME.ptscope). The input
 * is manifest.json, then SEP_SB and sideband.bin, then SEP_CPU and
 * cpu0.pt (each part may be absent). The bundle directory also holds
 * objects/, vdso/ and ground-truth.txt as links to the shipped sample's
 * (FUZZ_SAMPLE), so a manifest like the sample's decodes its code; the
 * seeds are the sample and damaged copies of it. The writer: size % 5
 * (none, fxt, json, txt, folded).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "session/session.h"

#ifndef FUZZ_SAMPLE
#define FUZZ_SAMPLE "samples/demo.ptscope"
#endif

#define SEP_SB "\n@@ptscope-fuzz sideband.bin@@\n"
#define SEP_CPU "\n@@ptscope-fuzz cpu0.pt@@\n"

static const char *bundle_dir(void)
{
	static char dir[512];
	char link[600];

	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "%s/b.ptscope", fuzz_dir());
	if (mkdir(dir, 0755))
		abort();
	snprintf(link, sizeof(link), "%s/objects", dir);
	if (symlink(FUZZ_SAMPLE "/objects", link))
		abort();
	snprintf(link, sizeof(link), "%s/vdso", dir);
	if (symlink(FUZZ_SAMPLE "/vdso", link))
		abort();
	snprintf(link, sizeof(link), "%s/ground-truth.txt", dir);
	if (symlink(FUZZ_SAMPLE "/ground-truth.txt", link))
		abort();
	return dir;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pts_decode_summary sum;
	struct pts_decode_opts o;
	const uint8_t *man, *rest, *sb, *cpu;
	size_t nman, nrest, nsb, ncpu;
	struct pts_err err;
	const char *dir = bundle_dir();
	int rc;

	fuzz_split(data, size, SEP_SB, 0, &man, &nman);
	fuzz_split(data, size, SEP_SB, 1, &rest, &nrest);
	fuzz_split(rest, nrest, SEP_CPU, 0, &sb, &nsb);
	fuzz_split(rest, nrest, SEP_CPU, 1, &cpu, &ncpu);
	fuzz_file(0, "b.ptscope/manifest.json", man, nman);
	fuzz_file(1, "b.ptscope/sideband.bin", sb, nsb);
	fuzz_file(2, "b.ptscope/cpu0.pt", cpu, ncpu);
	pts_decode_opts_init(&o);
	fuzz_sink_begin((enum pts_format)(size % 5));
	rc = pts_decode_bundle(dir, &o, fuzz_emit, NULL, &sum, &err);
	if (rc && getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "fuzz: %s\n", err.msg);
	fuzz_sink_end(!rc);
	pts_decode_summary_free(&sum);
	return 0;
}
