// SPDX-License-Identifier: GPL-2.0
/*
 * Bundle input: a capture bundle written with the bundle library (the way
 * ptscope record and ptsynth write one) holding a hand-made user-scope
 * trace of tests/golden/decode/user.S, the binary copied into the bundle,
 * its memory map as /proc/PID/maps gave it (file offset 0x1000 mapped at
 * 0x401000, the executable PT_LOAD) and one sched_switch record naming the
 * thread. The right answer is the main path of test_decode_synth.c: same
 * instructions, same timeline, on the sideband's thread, with the
 * summary naming where the bytes came from.
 */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <unistd.h>

#include "unit.h"
#include "pt_gen.h"
#include "tl_sink.h"
#include <linux/types.h>
#include "uapi/ptscope.h"
#include "bundle/bundle.h"
#include "decode/session.h"

static char dir[256], bdir[300], elf[300];

static int suite_init(void)
{
	char cmd[1024];

	snprintf(dir, sizeof(dir), "/tmp/pts-decode-bundle.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(bdir, sizeof(bdir), "%s/t.ptscope", dir);
	snprintf(elf, sizeof(elf), "%s/user.elf", dir);
	snprintf(cmd, sizeof(cmd),
		 "as -o %s/u.o %s/tests/golden/decode/user.S && "
		 "ld -static -Ttext=0x401000 -e _start -o %s %s/u.o",
		 dir, pts_unit_src_dir(), elf, dir);
	return system(cmd) == 0 ? 0 : 1;
}

static int suite_cleanup(void)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : 1;
}

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	void *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The user-scope main path (see test_decode_synth.c). */
static size_t gen_main(struct pt_gen *g)
{
	gen_init(g);
	gen_psb_plus(g, 0x1000);
	gen_ip(g, ppt_tip_pge, 0x401000);
	gen_tnt(g, "TTNTT");
	gen_ip_suppressed(g, ppt_tip_pgd);
	gen_tsc(g, 0x1400);
	gen_ip(g, ppt_tip_pge, 0x40100c);
	gen_ip(g, ppt_tip, 0x401080);
	gen_tnt(g, "T");
	gen_ip_suppressed(g, ppt_tip_pgd);
	return gen_len(g);
}

static void write_bundle(enum pts_bundle_source source)
{
	struct pts_bundle *b = pts_bundle_new();
	struct pts_bundle_process *p;
	struct ptscope_sb_switch sw;
	struct pts_err err = { 0 };
	struct pt_gen g;
	size_t n, elen = 0;
	void *ebytes = slurp(elf, &elen);

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ebytes);
	{
		char cmd[700];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", bdir, bdir);
		CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	}
	b->source = source;
	snprintf(b->producer, sizeof(b->producer), "test");
	snprintf(b->cpu_id.vendor, sizeof(b->cpu_id.vendor), "GenuineIntel");
	b->cpu_id.family = 6;
	b->cpu_id.model = 85;
	b->cpu_id.stepping = 4;
	b->cpu_id.cpuid_15[0] = 2;
	b->cpu_id.cpuid_15[1] = 308;
	b->cpu_id.nom_freq = 37;
	b->tsc_khz = 1000000;		/* 1 tick = 1 ns */
	b->config.scope = PTS_SCOPE_USER;
	b->config.rtit_ctl = 0x2409;	/* TraceEn, User, TSCEn, BranchEn */
	b->config.buffer_size = 4096;

	n = gen_main(&g);
	CU_ASSERT_EQUAL_FATAL(pts_bundle_write_file(bdir, "cpu0.pt", g.buf, n, &err), 0);
	gen_done(&g);
	b->nr_cpus = 1;
	b->cpus = calloc(1, sizeof(*b->cpus));
	b->cpus[0].cpu = 0;
	snprintf(b->cpus[0].file, sizeof(b->cpus[0].file), "cpu0.pt");
	b->cpus[0].buffer_size = 4096;
	b->cpus[0].head = n;

	/* the thread: one sched_switch at TSC 0 onto CPU 0 */
	memset(&sw, 0, sizeof(sw));
	sw.hdr.type = PTSCOPE_SB_SCHED_SWITCH;
	sw.hdr.size = sizeof(sw);
	sw.hdr.cpu = 0;
	sw.hdr.tsc = 0;
	sw.next_pid = 100;
	sw.next_tid = 101;
	snprintf(sw.next_comm, sizeof(sw.next_comm), "userprog");
	CU_ASSERT_EQUAL_FATAL(pts_bundle_write_file(bdir, "sideband.bin", &sw, sizeof(sw), &err), 0);
	b->sideband_file = strdup("sideband.bin");

	/* the binary as captured: /opt/app/user, copied into the bundle */
	CU_ASSERT_EQUAL_FATAL(pts_bundle_write_file(bdir, "objects/user", ebytes, elen, &err), 0);
	free(ebytes);
	b->nr_objects = 1;
	b->objects = calloc(1, sizeof(*b->objects));
	b->objects[0].path = strdup("/opt/app/user");
	b->objects[0].file = strdup("objects/user");
	b->objects[0].size = elen;
	b->nr_processes = 1;
	b->processes = calloc(1, sizeof(*b->processes));
	p = &b->processes[0];
	p->pid = 100;
	snprintf(p->comm, sizeof(p->comm), "userprog");
	p->exe = strdup("/opt/app/user");
	p->nr_maps_arm = 1;
	p->maps_arm = calloc(1, sizeof(*p->maps_arm));
	p->maps_arm[0].start = 0x401000;
	p->maps_arm[0].end = 0x402000;
	p->maps_arm[0].pgoff = 0x1000;
	snprintf(p->maps_arm[0].perms, sizeof(p->maps_arm[0].perms), "r-xp");
	p->maps_arm[0].path = strdup("/opt/app/user");
	if (pts_bundle_write_manifest(bdir, b, &err))
		fprintf(stderr, "manifest: %s\n", err.msg);
	CU_ASSERT_EQUAL(err.code, 0);
	pts_bundle_free(b);
}

static void bundle_with_copied_binary_and_sideband_decodes_the_main_path(void)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	char shape[2048], why[256];
	size_t i;
	int rc;

	write_bundle(PTS_SOURCE_REFERENCE_ENCODER);
	rc = pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err);
	if (rc)
		fprintf(stderr, "decode: %s\n", err.msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(tl_sink_shape(&sink, shape, sizeof(shape)),
		"B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall]|E1 [syscall]|"
		"B1 f3|E1 f3|E0 _start|B0 tail|B1 [syscall]|E1 [syscall]|E0 tail");
	if (!tl_sink_well_formed(&sink, why, sizeof(why)))
		CU_FAIL(why);
	CU_ASSERT_EQUAL(sum.insns, 20);
	CU_ASSERT_EQUAL(sum.gaps, 0);
	CU_ASSERT_EQUAL(sum.scope, PTS_SCOPE_USER);
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.source, "reference encoder"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.source, "not a hardware trace"));
	for (i = 0; i < sink.n; i++) {
		const struct pts_tl_rec *r = &sink.recs[i].r;

		if (r->type == PTS_TL_BEGIN && !strcmp(sink.recs[i].name, "f1")) {
			CU_ASSERT_EQUAL(r->pid, 100);
			CU_ASSERT_EQUAL(r->tid, 101);
			/* the object is named by its capture-host path */
			CU_ASSERT_STRING_EQUAL(sink.recs[i].object, "user");
		}
		if (r->type == PTS_TL_THREAD && r->tid == 101)
			CU_ASSERT_STRING_EQUAL(sink.recs[i].name, "userprog");
	}
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

static void bundle_missing_its_binary_warns_and_decodes_with_gaps(void)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	char path[400], why[256];
	int rc;

	write_bundle(PTS_SOURCE_HARDWARE);
	/* the copy is gone and /opt/app/user does not exist here */
	snprintf(path, sizeof(path), "%s/objects/user", bdir);
	CU_ASSERT_EQUAL(truncate(path, 0), 0);
	rc = pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err);
	if (rc) {
		/* the reader refuses a file whose size differs from the manifest */
		CU_ASSERT_EQUAL(rc, -EFBIG);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "objects/user"));
	} else {
		CU_ASSERT(sum.nr_warnings >= 1);
		CU_ASSERT(sum.gaps >= 1);
		if (!tl_sink_well_formed(&sink, why, sizeof(why)))
			CU_FAIL(why);
		pts_decode_summary_free(&sum);
	}
	tl_sink_free(&sink);
}

PTS_SUITE(decode_bundle, suite_init, suite_cleanup,
	  PTS_TEST(bundle_with_copied_binary_and_sideband_decodes_the_main_path),
	  PTS_TEST(bundle_missing_its_binary_warns_and_decodes_with_gaps));
