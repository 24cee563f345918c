// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness: a capture bundle (ptscope decode NAME.ptscope). The input
 * is manifest.json, then SEP_SB and sideband.bin, then SEP_CPU and
 * cpu0.pt (each part may be absent). The bundle directory also holds
 * objects/, vdso/ and ground-truth.txt as links to the shipped sample's
 * (FUZZ_SAMPLE), so a manifest like the sample's decodes its code; the
 * seeds are the sample and damaged copies of it. The writer: size % 5
 * (none, fxt, json, txt, folded). Where files the bundle lacks are
 * looked for: (size / 5) % 4, bit 0 a --sysroot holding libdemo.so at
 * its captured path and, at libc's debug file's build-id path, a file of
 * another build-id (refused); bit 1 perf's build-id cache (--buildid-dir)
 * holding libdemo.so by its build-id. So a seed's size picks whether a
 * damaged or missing copy decodes as gaps, from the sysroot or from the
 * cache (docs/decode.md, "Damaged bundles").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

#define LIBDEMO "/tmp/ptscope-sample/libdemo.so"
/* the sample's build-ids, split as the .build-id directories split them */
#define LIBDEMO_ID_PATH "e3/5c175327b9dbd72ec2fe81962e1aa554fc9a21"
#define LIBC_ID_PATH "93/ac61ec5a8eb1396f9fbd350e3169a558528a40"

/* dir/rel, its directories made, a link to target. */
static void link_at(const char *dir, const char *rel, const char *target)
{
	char path[700];
	char *p;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (p = strchr(path + strlen(dir) + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			abort();
		*p = '/';
	}
	if (symlink(target, path))
		abort();
}

/* The sysroot (0) or the build-id cache (1), made on first use. */
static const char *lookup_dir(unsigned int which)
{
	static char dirs[2][512];
	char *d = dirs[which];

	if (d[0])
		return d;
	snprintf(d, sizeof(dirs[0]), "%s/%s", fuzz_dir(), which ? "cache" : "sysroot");
	if (mkdir(d, 0755))
		abort();
	if (!which) {
		link_at(d, LIBDEMO, FUZZ_SAMPLE "/objects" LIBDEMO);
		link_at(d, "usr/lib/debug/.build-id/" LIBC_ID_PATH ".debug",
			FUZZ_SAMPLE "/objects/tmp/ptscope-sample/demo");
	} else {
		link_at(d, ".build-id/" LIBDEMO_ID_PATH "/elf", FUZZ_SAMPLE "/objects" LIBDEMO);
	}
	return d;
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
	if ((size / 5) & 1)
		o.sysroot = lookup_dir(0);
	if ((size / 5) & 2)
		o.buildid_dir = lookup_dir(1);
	fuzz_sink_begin((enum pts_format)(size % 5));
	rc = pts_decode_bundle(dir, &o, fuzz_emit, NULL, &sum, &err);
	if (rc && getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "fuzz: %s\n", err.msg);
	fuzz_sink_end(!rc);
	pts_decode_summary_free(&sum);
	return 0;
}
