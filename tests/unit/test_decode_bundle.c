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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <unistd.h>
#include <sys/stat.h>

#include "unit.h"
#include "asm_elf.h"
#include "bundle_fixture.h"
#include "pt_gen.h"
#include "tl_sink.h"
#include <linux/types.h>
#include "uapi/ptscope.h"
#include "bundle/bundle.h"
#include "decode/image.h"
#include "session/session.h"

static char *dir, bdir[300], *elf;

static int suite_init(void)
{
	dir = bt_tmpdir();
	if (!dir)
		return 1;
	snprintf(bdir, sizeof(bdir), "%s/t.ptscope", dir);
	elf = asm_elf_build(dir, "user.elf", ASM_ELF_USER_S,
			    "-static --build-id -Ttext=0x401000 -e _start");
	return elf ? 0 : 1;
}

static int suite_cleanup(void)
{
	bt_rmtree(dir);
	free(dir);
	free(elf);
	return 0;
}

/* Size of the file at path in bytes, -1 when it cannot be read. */
static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
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

struct sw_rec {
	uint32_t cpu;
	uint64_t tsc;
	int32_t tid;
};

static void write_bundle_ex(enum pts_bundle_source source, struct pt_gen **gens, int ncpu,
			    const struct sw_rec *sws, int nsw);
/* when set: the binary is not copied, only named with this build-id */
static const char *named_build_id;
/* when non-zero: an EXEC record of tid 101 on CPU 0 at this TSC */
static uint64_t exec_tsc;
/* when set: sideband records appended after the switch and exec records */
static const void *extra_sb;
static size_t extra_sb_len;
/* the CPU's display model (85: Skylake server, SKL014 in libipt's list) */
static uint32_t cpu_model = 85;
/* when cfg is set: ADDR0 of the capture (RTIT_CTL.ADDR0_CFG = cfg) */
static struct pts_bundle_addr_range addr0;
/* when nr_pairs: the capture's time pairs; ctl_or: RTIT_CTL bits added */
static struct pts_bundle_time_pair pairs[2];
static size_t nr_pairs;
static uint64_t ctl_or;
static bool no_cpuid_15;
/*
 * when set: a second process, pid other_pid, maps the same file at the same
 * address 0x401000 from file offset 0x1100 (so its 0x401000 is lj_main)
 */
static int32_t other_pid;
/* added to the binary's size recorded in objects[] */
static size_t object_size_delta;
/* when set: scope both (RTIT_CTL.OS too) */
static bool scope_both;
/* PTS_CPUF_* and wrapped of every CPU written */
static uint32_t cpu_flags;
static bool cpu_wrapped;
static uint64_t trig_tsc, cpu_stop_tsc[2];	/* 0: not recorded */
/*
 * pid 100's maps: at arm, 0x401000 maps the binary from file offset
 * arm_pgoff (0x1000: _start there; 0x1100: lj_main there); when
 * trigger_pgoff is set, its maps at the trigger map 0x401000 + trigger_at
 * from that offset.
 */
static uint64_t arm_pgoff = 0x1000, trigger_pgoff, trigger_at;
/* when mid_tsc is set: maps read while armed, of the program after the exec at mid_tsc */
static uint64_t mid_tsc, mid_pgoff;
/* when set: a capture of this pid whose CR3 filter could not be used (cr3_partial) */
static int32_t partial_pid;
/*
 * when set: pid 100 maps only a [vdso] (of user.elf's size, at 0x400000)
 * and has no vdso copy; pid 200 (other_pid) has one (user.elf's bytes)
 */
static bool vdso_reuse;
/* when set: the bundle's kernel/kallsyms */
static const char *kallsyms_text;
/* when set: objects[] is empty (a bundle that records nothing about the binary) */
static bool no_objects;
/* when set: the second process is listed without maps (nothing was read) */
static bool other_no_maps;
/* when set: the binary is named as the simulated unit's user code image */
static bool sim_code_path;
/* when set: pid 100 also maps executable memory of no file (a JIT's) at arm */
static bool anon_code;
#define SIM_USER_CODE "/sys/module/ptscope/sim_user_code"

static void write_bundle(enum pts_bundle_source source)
{
	struct pt_gen g, *gp = &g;
	static const struct sw_rec sw = { 0, 0, 101 };

	gen_main(&g);
	write_bundle_ex(source, &gp, 1, &sw, 1);
	gen_done(&g);
}

static void write_bundle_ex(enum pts_bundle_source source, struct pt_gen **gens, int ncpu,
			    const struct sw_rec *sws, int nsw)
{
	struct pts_bundle *b = pts_bundle_new();
	struct pts_bundle_process *p;
	struct pts_err err = { 0 };
	size_t n, elen = 0;
	void *ebytes = bt_read_file(elf, &elen);

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
	b->cpu_id.model = cpu_model;
	b->cpu_id.stepping = 4;
	b->cpu_id.cpuid_15[0] = no_cpuid_15 ? 0 : 2;
	b->cpu_id.cpuid_15[1] = no_cpuid_15 ? 0 : 308;
	b->cpu_id.nom_freq = 37;
	b->tsc_khz = 1000000;		/* 1 tick = 1 ns */
	b->config.scope = scope_both ? PTS_SCOPE_BOTH : PTS_SCOPE_USER;
	b->config.rtit_ctl = 0x2409 | ctl_or;	/* TraceEn, User, TSCEn, BranchEn */
	if (scope_both)
		b->config.rtit_ctl |= 0x4;	/* OS */
	if (nr_pairs) {
		b->time_pairs = calloc(nr_pairs, sizeof(*b->time_pairs));
		memcpy(b->time_pairs, pairs, nr_pairs * sizeof(*pairs));
		b->nr_time_pairs = nr_pairs;
	}
	if (addr0.cfg) {
		b->config.nr_addr = 1;
		b->config.addr[0] = addr0;
		b->config.rtit_ctl |= (uint64_t)addr0.cfg << 32;	/* ADDR0_CFG, bits 35:32 */
	}
	b->config.buffer_size = 4096;
	if (partial_pid) {
		b->config.filter_pid = partial_pid;
		b->config.cr3_partial = true;
	}
	if (trig_tsc) {
		snprintf(b->trigger.reason, sizeof(b->trigger.reason), "ioctl");
		b->trigger.tsc = trig_tsc;
	}

	b->nr_cpus = (size_t)ncpu;
	b->cpus = calloc((size_t)ncpu, sizeof(*b->cpus));
	for (int c = 0; c < ncpu; c++) {
		char name[32];

		/* no stream: an empty ring (nothing was written on that CPU) */
		n = gens[c] ? gen_len(gens[c]) : 0;
		snprintf(name, sizeof(name), "cpu%d.pt", c);
		CU_ASSERT_EQUAL_FATAL(pts_bundle_write_file(bdir, name, gens[c] ? gens[c]->buf :
							    (const uint8_t *)"", n, &err), 0);
		b->cpus[c].cpu = (uint32_t)c;
		snprintf(b->cpus[c].file, sizeof(b->cpus[c].file), "%s", name);
		/* a wrapped ring is stored whole (linearised): the file is the ring */
		b->cpus[c].buffer_size = cpu_wrapped ? n : 4096;
		b->cpus[c].head = cpu_wrapped ? 0 : n;
		b->cpus[c].flags = cpu_flags;
		b->cpus[c].stop_tsc = c < 2 ? cpu_stop_tsc[c] : 0;
		b->cpus[c].wrapped = cpu_wrapped;
	}

	/* the threads: sched_switch records (next_pid 100, next_tid given) */
	{
		struct ptscope_sb_switch *recs = calloc((size_t)nsw, sizeof(*recs));

		for (int k = 0; k < nsw; k++) {
			recs[k].hdr.type = PTSCOPE_SB_SCHED_SWITCH;
			recs[k].hdr.size = sizeof(recs[k]);
			recs[k].hdr.cpu = sws[k].cpu;
			recs[k].hdr.tsc = sws[k].tsc;
			recs[k].next_pid = 100;
			recs[k].next_tid = sws[k].tid;
			snprintf(recs[k].next_comm, sizeof(recs[k].next_comm), "userprog");
		}
		size_t sblen = (size_t)nsw * sizeof(*recs);
		uint8_t *sbbuf = malloc(sblen + 256);

		memcpy(sbbuf, recs, sblen);
		if (exec_tsc) {
			/* struct ptscope_sb_exec + "/opt/app/user\0", padded to 8 */
			struct ptscope_sb_exec *ex = (void *)(sbbuf + sblen);
			size_t sz = (sizeof(*ex) + sizeof("/opt/app/user") + 7) & ~(size_t)7;

			memset(ex, 0, sz);
			ex->hdr.type = PTSCOPE_SB_EXEC;
			ex->hdr.size = (uint16_t)sz;
			ex->hdr.cpu = 0;
			ex->hdr.tsc = exec_tsc;
			ex->pid = 100;
			ex->tid = 101;
			snprintf(ex->comm, sizeof(ex->comm), "newprog");
			memcpy(ex->filename, "/opt/app/user", sizeof("/opt/app/user"));
			sblen += sz;
		}
		if (extra_sb_len) {
			sbbuf = realloc(sbbuf, sblen + extra_sb_len);
			memcpy(sbbuf + sblen, extra_sb, extra_sb_len);
			sblen += extra_sb_len;
		}
		CU_ASSERT_EQUAL_FATAL(pts_bundle_write_file(bdir, "sideband.bin", sbbuf, sblen, &err), 0);
		free(sbbuf);
		free(recs);
	}
	b->sideband_file = strdup("sideband.bin");
	if (kallsyms_text) {
		CU_ASSERT_EQUAL_FATAL(pts_bundle_write_file(bdir, "kernel/kallsyms", kallsyms_text,
							    strlen(kallsyms_text), &err), 0);
		b->kallsyms_file = strdup("kernel/kallsyms");
	}

	/* the binary as captured: /opt/app/user, copied into the bundle */
	b->nr_objects = no_objects ? 0 : 1;
	b->objects = calloc(1, sizeof(*b->objects));
	b->objects[0].size = elen + object_size_delta;
	if (named_build_id) {
		/* --no-copy: the decoder reads the host's file at the same path */
		b->objects[0].path = strdup(elf);
		snprintf(b->objects[0].build_id, sizeof(b->objects[0].build_id), "%s",
			 named_build_id);
	} else {
		CU_ASSERT_EQUAL_FATAL(pts_bundle_write_file(bdir, "objects/user", ebytes, elen,
							    &err), 0);
		b->objects[0].path = strdup(sim_code_path ? SIM_USER_CODE : "/opt/app/user");
		b->objects[0].file = strdup("objects/user");
	}
	free(ebytes);
	b->nr_processes = other_pid ? 2 : 1;
	b->processes = calloc(2, sizeof(*b->processes));
	if (other_pid) {
		/* listed first: pid 100's section at 0x401000 is added after its */
		p = &b->processes[0];
		p->pid = other_pid;
		snprintf(p->comm, sizeof(p->comm), "other");
		p->exe = strdup("/opt/app/user");
		p->nr_maps_arm = other_no_maps ? 0 : 1;
		p->maps_arm = calloc(1, sizeof(*p->maps_arm));
		p->maps_arm[0].start = 0x401000;
		p->maps_arm[0].end = 0x401f00;
		p->maps_arm[0].pgoff = 0x1100;
		snprintf(p->maps_arm[0].perms, sizeof(p->maps_arm[0].perms), "r-xp");
		p->maps_arm[0].path = strdup("/opt/app/user");
	}
	p = &b->processes[b->nr_processes - 1];
	p->pid = 100;
	snprintf(p->comm, sizeof(p->comm), "userprog");
	p->exe = strdup(named_build_id ? elf : "/opt/app/user");
	p->nr_maps_arm = 1;
	p->maps_arm = calloc(1, sizeof(*p->maps_arm));
	p->maps_arm[0].start = 0x401000;
	p->maps_arm[0].end = 0x402000;
	p->maps_arm[0].pgoff = arm_pgoff;
	snprintf(p->maps_arm[0].perms, sizeof(p->maps_arm[0].perms), "r-xp");
	p->maps_arm[0].path = strdup(named_build_id ? elf : sim_code_path ? SIM_USER_CODE :
				     "/opt/app/user");
	if (anon_code) {
		p->maps_arm = realloc(p->maps_arm, 2 * sizeof(*p->maps_arm));
		CU_ASSERT_PTR_NOT_NULL_FATAL(p->maps_arm);
		p->maps_arm[1] = (struct pts_bundle_map){ .start = 0x7f0000000000,
							  .end = 0x7f0000001000 };
		snprintf(p->maps_arm[1].perms, sizeof(p->maps_arm[1].perms), "r-xp");
		p->maps_arm[1].path = strdup("");
		p->nr_maps_arm = 2;
	}
	if (vdso_reuse) {
		size_t vlen = 0;
		void *vbytes = bt_read_file(elf, &vlen);

		CU_ASSERT_PTR_NOT_NULL_FATAL(vbytes);
		free(p->maps_arm[0].path);
		p->maps_arm[0].path = strdup("[vdso]");
		p->maps_arm[0].start = 0x400000;
		p->maps_arm[0].end = 0x400000 + vlen;
		p->maps_arm[0].pgoff = 0;
		CU_ASSERT_EQUAL_FATAL(pts_bundle_write_file(bdir, "vdso/200.so", vbytes, vlen, &err),
				      0);
		b->processes[0].vdso_file = strdup("vdso/200.so");
		b->processes[0].vdso_addr = 0x7fff0000;
		free(vbytes);
	}
	if (trigger_pgoff) {
		p->nr_maps_trigger = 1;
		p->maps_trigger = calloc(1, sizeof(*p->maps_trigger));
		p->maps_trigger[0] = p->maps_arm[0];
		p->maps_trigger[0].start += trigger_at;
		p->maps_trigger[0].end += trigger_at;
		p->maps_trigger[0].pgoff = trigger_pgoff;
		p->maps_trigger[0].path = strdup(p->maps_arm[0].path);
	}
	if (mid_tsc) {
		p->nr_maps_exec = 1;
		p->maps_exec = calloc(1, sizeof(*p->maps_exec));
		p->maps_exec[0].exec_tsc = mid_tsc;
		p->maps_exec[0].nr_maps = 1;
		p->maps_exec[0].maps = calloc(1, sizeof(*p->maps_exec[0].maps));
		p->maps_exec[0].maps[0] = p->maps_arm[0];
		p->maps_exec[0].maps[0].pgoff = mid_pgoff;
		p->maps_exec[0].maps[0].path = strdup(p->maps_arm[0].path);
	}
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

struct time_check {
	size_t records;
	int32_t tid;
	uint64_t last;
	int backwards;
};

static int time_check_emit(void *ctx, const struct pts_tl_rec *rec, struct pts_err *err)
{
	struct time_check *c = ctx;

	(void)err;
	c->records++;
	if (rec->type != PTS_TL_BEGIN && rec->type != PTS_TL_END)
		return 0;
	if (rec->tid == c->tid && rec->ts_ns < c->last)
		c->backwards++;
	c->tid = rec->tid;
	c->last = rec->ts_ns;
	return 0;
}

/*
 * The shipped sample (samples/demo.ptscope, one thread, made by the
 * reference encoder) is a clean trace: its CPU's time only moves forward,
 * so the decoder must never hand the timeline an earlier time (libipt
 * reports the MODE.Exec that follows a TIP.PGE with the time of an
 * earlier packet; taking it made the timeline clamp one slice).
 */
static void shipped_sample_time_never_goes_backwards(void)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct time_check c = { 0 };
	char path[600];
	int rc;

	snprintf(path, sizeof(path), "%s/samples/demo.ptscope", pts_unit_src_dir());
	memset(&sum, 0, sizeof(sum));
	rc = pts_decode_bundle(path, NULL, time_check_emit, &c, &sum, &err);
	if (rc)
		fprintf(stderr, "decode: %s\n", err.msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT(c.records > 1000);
	CU_ASSERT_EQUAL(c.backwards, 0);
	CU_ASSERT_EQUAL(sum.diag[PTS_TLD_TIME_BACKWARDS], 0);
	CU_ASSERT_EQUAL(sum.gaps, 0);
	pts_decode_summary_free(&sum);
}

/*
 * A bundle whose copy of the binary was cut short (an interrupted copy of
 * the bundle, a disk that filled): the copy is not the captured file and
 * none of its bytes is read; the rest of the bundle decodes, as perf
 * decodes a trace whose dso is missing (gaps, the dso named). The copy,
 * both sizes and what to do are a notice, said without --summary. Then
 * the binary is looked for on this host as an uncopied one is (3.11),
 * under --sysroot: the file of the recorded size is the captured one and
 * decodes (the main path's 20 instructions); one of another size is not.
 * By hand, without a usable file: no code at 0x401000, so the first
 * block of the trace is a gap and no instruction decodes; /opt/app/user
 * does not exist here.
 */
static void decode_cut_copy(const char *sysroot, struct tl_sink *sink,
			    struct pts_decode_summary *sum, char *out, size_t len)
{
	struct pts_decode_opts o;
	struct pts_err err = { 0 };
	char why[256];
	FILE *f;
	int rc;

	pts_decode_opts_init(&o);
	o.sysroot = sysroot;
	memset(sink, 0, sizeof(*sink));
	rc = pts_decode_bundle(bdir, &o, tl_sink_emit, sink, sum, &err);
	if (rc)
		fprintf(stderr, "\n    %s\n", err.msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	if (!tl_sink_well_formed(sink, why, sizeof(why)))
		CU_FAIL(why);
	f = fmemopen(out, len - 1, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	pts_decode_summary_print(f, sum);
	fclose(f);
}

static void truncated_copy_of_a_binary_is_said_and_its_code_decodes_as_gaps(void)
{
	struct pts_decode_summary sum;
	struct tl_sink sink;
	char path[400], root[400], host[500], want[1200], out[8192];
	long size;

	write_bundle(PTS_SOURCE_HARDWARE);
	snprintf(path, sizeof(path), "%s/objects/user", bdir);
	size = file_size(path);
	CU_ASSERT_FATAL(size > 100);
	CU_ASSERT_EQUAL_FATAL(truncate(path, 100), 0);
	CU_ASSERT_FATAL(access("/opt/app/user", F_OK) != 0);
	snprintf(want, sizeof(want), "objects/user: 100 of %ld bytes present (truncated copy?): "
		 "/opt/app/user decodes as gaps; copy the bundle again, or give --sysroot DIR "
		 "with the original file at 'DIR/opt/app/user'", size);

	/* no host file: gaps, the rest of the trace decoded */
	decode_cut_copy(NULL, &sink, &sum, out, sizeof(out));
	CU_ASSERT_EQUAL_FATAL(sum.nr_notices, 1);
	CU_ASSERT_STRING_EQUAL(sum.notices[0], want);
	CU_ASSERT_EQUAL(sum.insns, 0);
	CU_ASSERT(sum.gaps >= 1);
	CU_ASSERT_EQUAL(sum.objects_damaged, 1);
	CU_ASSERT_EQUAL(sum.objects_copied, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "code files: 0 copied in the bundle, 0 host files "
				      "checked against the capture, 0 host files unchecked, 0 not "
				      "matching the capture, 1 damaged copy in the bundle (missing or not of the "
				      "recorded size)\n"));
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);

	/* --sysroot with the captured file (its recorded size): it decodes */
	snprintf(root, sizeof(root), "%s/sysroot", dir);
	snprintf(host, sizeof(host), "%s/opt/app/user", root);
	{
		char cmd[1400];

		snprintf(cmd, sizeof(cmd), "mkdir -p '%s/opt/app' && cp '%s' '%s'", root, elf, host);
		CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	}
	decode_cut_copy(root, &sink, &sum, out, sizeof(out));
	CU_ASSERT_EQUAL_FATAL(sum.nr_notices, 1);
	snprintf(want, sizeof(want), "objects/user: 100 of %ld bytes present (truncated copy?): "
		 "/opt/app/user decodes with %s, the captured file (same size)", size, host);
	CU_ASSERT_STRING_EQUAL(sum.notices[0], want);
	CU_ASSERT_EQUAL(sum.insns, 20);
	CU_ASSERT_EQUAL(sum.gaps, 0);
	CU_ASSERT_EQUAL(sum.objects_damaged, 1);
	CU_ASSERT_EQUAL(sum.objects_checked, 1);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);

	/* --sysroot with a file of another size: not the captured one, gaps */
	CU_ASSERT_EQUAL_FATAL(truncate(host, size - 1), 0);
	decode_cut_copy(root, &sink, &sum, out, sizeof(out));
	CU_ASSERT_EQUAL_FATAL(sum.nr_notices, 1);
	snprintf(want, sizeof(want), "objects/user: 100 of %ld bytes present (truncated copy?): "
		 "/opt/app/user decodes as gaps; copy the bundle again, or give --sysroot DIR "
		 "with the original file at 'DIR/opt/app/user' (%s is not the captured file: "
		 "%ld bytes, captured %ld, no build-id)", size, host, size - 1, size);
	/* a notice is cut to its slot: what to do comes before the details */
	CU_ASSERT_EQUAL(strncmp(sum.notices[0], want, sizeof(sum.notices[0]) - 1), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "1 not matching the capture"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.mismatched[0].why, "bytes, captured"));
	CU_ASSERT_EQUAL(sum.insns, 0);
	CU_ASSERT_EQUAL(sum.nr_mismatched, 1);
	CU_ASSERT_STRING_EQUAL(sum.mismatched[0].path, host);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/* Slices of one thread, rendered like tl_sink_shape. */
static const char *thread_shape(const struct tl_sink *s, int32_t tid, char *buf, size_t len)
{
	struct tl_sink one = { 0 };
	size_t i;

	one.recs = calloc(TL_SINK_MAX, sizeof(*one.recs));
	for (i = 0; i < s->n; i++)
		if (s->recs[i].r.tid == tid)
			one.recs[one.n++] = s->recs[i];
	tl_sink_shape(&one, buf, len);
	free(one.recs);
	return buf;
}

/*
 * Per-thread demultiplexing from the sideband (no PIP in user scope): CPU 0
 * runs tid 101 until its getpid syscall, then (switch at TSC 0x1500) tid
 * 102, which runs lj_main; tid 101 resumes on CPU 1 (switch at 0x1700,
 * trace from TSC 0x1800) after its syscall and runs to its exit. By hand:
 * each thread gets its own track; 101's [syscall] lasts from its PGD on
 * CPU 0 (TSC 0x1000, time 0) to its PGE on CPU 1 (0x1800: 0x800 ns).
 */
/*
 * Two threads over two CPUs, cpu_a and cpu_b of ncpu (the others' rings
 * empty): tid 101 runs main's first part on cpu_a, tid 102 the longjmp
 * program after it, then 101 comes back on cpu_b.
 */
static void demultiplex_two_cpus_of(int ncpu, int cpu_a, int cpu_b)
{
	const struct sw_rec sws[] = {
		{ (uint32_t)cpu_a, 0, 101 }, { (uint32_t)cpu_a, 0x1500, 102 },
		{ (uint32_t)cpu_b, 0x1700, 101 },
	};
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	struct pt_gen g0, g1, **gens = calloc((size_t)ncpu, sizeof(*gens));
	char shape[2048], why[256];
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(gens);
	gens[cpu_a] = &g0;
	gens[cpu_b] = &g1;
	gen_init(&g0);
	gen_psb_plus(&g0, 0x1000);
	gen_ip(&g0, ppt_tip_pge, 0x401000);
	gen_tnt(&g0, "TTNTT");
	gen_ip_suppressed(&g0, ppt_tip_pgd);	/* tid 101: getpid */
	gen_tsc(&g0, 0x1600);
	gen_ip(&g0, ppt_tip_pge, 0x401100);	/* tid 102: lj_main */
	gen_ip(&g0, ppt_tip, 0x401105);
	gen_ip_suppressed(&g0, ppt_tip_pgd);
	gen_init(&g1);
	gen_psb_plus(&g1, 0x1800);
	gen_ip(&g1, ppt_tip_pge, 0x40100c);	/* tid 101 back from getpid */
	gen_ip(&g1, ppt_tip, 0x401080);
	gen_tnt(&g1, "T");
	gen_ip_suppressed(&g1, ppt_tip_pgd);
	write_bundle_ex(PTS_SOURCE_REFERENCE_ENCODER, gens, ncpu, sws, 3);
	gen_done(&g0);
	gen_done(&g1);
	free(gens);
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	if (!tl_sink_well_formed(&sink, why, sizeof(why)))
		CU_FAIL(why);
	CU_ASSERT_STRING_EQUAL(thread_shape(&sink, 101, shape, sizeof(shape)),
		"B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall]|E1 [syscall]|"
		"B1 f3|E1 f3|E0 _start|B0 tail|B1 [syscall]|E1 [syscall]|E0 tail");
	CU_ASSERT_STRING_EQUAL(thread_shape(&sink, 102, shape, sizeof(shape)),
		"B0 lj_main|B1 lj_a|B2 lj_b|B3 lj_c|E3 lj_c|E2 lj_b|E1 lj_a|"
		"B1 [syscall]|E1 [syscall]|E0 lj_main");
	for (i = 0; i < sink.n; i++) {
		const struct pts_tl_rec *r = &sink.recs[i].r;

		if (r->type == PTS_TL_END && r->tid == 101 && !strcmp(sink.recs[i].name, "[syscall]")) {
			CU_ASSERT_EQUAL(r->ts_ns, 0x800);
			CU_ASSERT_EQUAL(r->cpu, (uint32_t)cpu_b);
			break;
		}
	}
	CU_ASSERT_EQUAL(sum.gaps, 0);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

static void threads_are_demultiplexed_across_cpus_by_the_sideband(void)
{
	demultiplex_two_cpus_of(2, 0, 1);
}

/*
 * A machine with 96 CPUs (more than 64): the same two threads on CPUs 70
 * and 95, the 94 other rings empty. Same timeline as on two CPUs.
 */
static void bundle_of_96_cpus_decodes_like_two(void)
{
	demultiplex_two_cpus_of(96, 70, 95);
}

/*
 * 1024 CPUs (the most a capture takes), every ring empty: it decodes,
 * and there is nothing in it (no instruction, no thread, no gap: an empty
 * ring holds no trace, not a damaged one).
 */
static void bundle_of_1024_empty_rings_decodes_to_nothing(void)
{
	const struct sw_rec sw = { 1023, 0, 101 };
	struct pt_gen **gens = calloc(1024, sizeof(*gens));
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	int rc;

	CU_ASSERT_PTR_NOT_NULL_FATAL(gens);
	write_bundle_ex(PTS_SOURCE_REFERENCE_ENCODER, gens, 1024, &sw, 1);
	free(gens);
	rc = pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err);
	if (rc)
		fprintf(stderr, "\n    %s\n", err.msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(sum.insns, 0);
	CU_ASSERT_EQUAL(sum.trace_bytes, 0);
	CU_ASSERT_EQUAL(sum.gaps, 0);
	CU_ASSERT_EQUAL(sink.n, 0);
	CU_ASSERT_EQUAL(sum.lost, 0);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * Executable memory of no file in the maps (a JIT's code): its bytes are
 * in no bundle. By hand: one warning naming the range, and the rest
 * decodes as without it (the trace never goes there: no gap).
 */
static void executable_memory_of_no_file_is_said(void)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };

	anon_code = true;
	write_bundle(PTS_SOURCE_REFERENCE_ENCODER);
	anon_code = false;
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT_EQUAL_FATAL(sum.nr_warnings, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.warnings[0], "pid 100: executable memory of no file at "
					"0x7f0000000000-0x7f0000001000"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.warnings[0], "not in the capture"));
	CU_ASSERT_EQUAL(sum.gaps, 0);
	CU_ASSERT(sum.insns > 0);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * A binary named by the bundle (not copied) whose file on this host has
 * another build-id than the captured one: its bytes would decode wrongly.
 * By hand: a warning names the file and both build-ids; no code is mapped,
 * so decoding stops at the first block with a gap; nothing crashes.
 */
static void changed_binary_is_a_warning_and_gaps(void)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	char why[256];

	named_build_id = "0123456789abcdef0123456789abcdef01234567";
	write_bundle(PTS_SOURCE_HARDWARE);
	named_build_id = NULL;
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT_EQUAL(sum.nr_warnings, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.warnings[0], "changed since capture"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.warnings[0], "0123456789abcdef"));
	/* and the summary lists it among the files that did not match */
	CU_ASSERT_EQUAL(sum.nr_mismatched, 1);
	CU_ASSERT_STRING_EQUAL(sum.mismatched[0].path, elf);
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.mismatched[0].why, "captured 0123456789abcdef"));
	CU_ASSERT_EQUAL(sum.objects_checked + sum.objects_copied + sum.objects_unchecked, 0);
	CU_ASSERT(sum.gaps >= 1);
	CU_ASSERT_EQUAL(sum.insns, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.source, "hardware"));
	if (!tl_sink_well_formed(&sink, why, sizeof(why)))
		CU_FAIL(why);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * A binary named by the bundle without a build-id (none in the file, or a
 * stripped one): the recorded size is what tells the captured file from
 * another (bundle-format.md 3.11). The host's file is 1 byte shorter than
 * recorded: a warning naming both sizes, its code decodes as gaps. With the
 * recorded size it decodes (the main path's 20 instructions).
 */
static void uncopied_binary_without_build_id_is_checked_by_size(void)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };

	for (int same = 0; same < 2; same++) {
		named_build_id = "";
		object_size_delta = same ? 0 : 1;
		write_bundle(PTS_SOURCE_HARDWARE);
		named_build_id = NULL;
		object_size_delta = 0;
		CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum,
							&err), 0);
		CU_ASSERT_EQUAL_FATAL(sum.nr_warnings, same ? 0 : 1);
		if (!same) {
			CU_ASSERT_PTR_NOT_NULL(strstr(sum.warnings[0], "changed since capture"));
			CU_ASSERT_PTR_NOT_NULL(strstr(sum.warnings[0], "no build-id"));
		}
		CU_ASSERT_EQUAL(sum.insns, same ? 20 : 0);
		pts_decode_summary_free(&sum);
		tl_sink_free(&sink);
		memset(&sink, 0, sizeof(sink));
	}
}

/*
 * A copy of the bundle whose cpu0.pt lost all its bytes: nothing to
 * decode, and every byte the manifest records is said to be missing (the
 * size the writer recorded is the file's size before it was cut), as a
 * notice, a gap of its own cause, and a loss (exit status 3). The
 * trace's other gap is the decoder's "no sync point" for an empty trace.
 */
static void truncated_cpu_file_is_a_notice_a_gap_and_a_loss(void)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	char path[400], want[160];
	unsigned int i, found = 0;
	long size;

	write_bundle(PTS_SOURCE_REFERENCE_ENCODER);
	snprintf(path, sizeof(path), "%s/cpu0.pt", bdir);
	size = file_size(path);
	CU_ASSERT_FATAL(size > 0);
	CU_ASSERT_EQUAL_FATAL(truncate(path, 0), 0);
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT_EQUAL(sum.lost, 1);
	CU_ASSERT_EQUAL(sum.nr_notices, 1);
	snprintf(want, sizeof(want), "cpu0.pt: 0 of %ld bytes present (truncated copy?); "
		 "decoding the bytes present", size);
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.notices[0], want));
	CU_ASSERT_EQUAL(sum.trace_bytes, 0);
	CU_ASSERT_EQUAL(sum.trace_bytes_missing, (uint64_t)size);
	snprintf(want, sizeof(want), "trace file truncated (%ld bytes missing)", size);
	for (i = 0; i < sum.nr_causes; i++)
		if (!strcmp(sum.causes[i].cause, want))
			found += (unsigned int)sum.causes[i].count;
	CU_ASSERT_EQUAL(found, 1);
	CU_ASSERT_EQUAL(sum.gaps, 2);
	CU_ASSERT_EQUAL(sum.insns, 0);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * Bytes appended to cpu0.pt after the manifest was written are not from
 * the capture: the decode is the whole bundle's (the shape of the first
 * test, derived there by hand) with a notice, no gap and no loss. The
 * bytes appended, a PSB then 0xff, would decode as an "unknown packet"
 * gap if they were read.
 */
static void longer_cpu_file_decodes_the_recorded_bytes_only(void)
{
	static const uint8_t extra[] = { 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
					 2, 0x82, 2, 0x82, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	char path[400], shape[2048];
	FILE *f;

	write_bundle(PTS_SOURCE_REFERENCE_ENCODER);
	snprintf(path, sizeof(path), "%s/cpu0.pt", bdir);
	f = fopen(path, "ab");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(fwrite(extra, 1, sizeof(extra), f), sizeof(extra));
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT_STRING_EQUAL(tl_sink_shape(&sink, shape, sizeof(shape)),
		"B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall]|E1 [syscall]|"
		"B1 f3|E1 f3|E0 _start|B0 tail|B1 [syscall]|E1 [syscall]|E0 tail");
	CU_ASSERT_EQUAL(sum.gaps, 0);
	CU_ASSERT_EQUAL(sum.lost, 0);
	CU_ASSERT_EQUAL(sum.nr_notices, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.notices[0], "the 32 bytes after them were added later "
				      "and are ignored"));
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/* What the capture recorded about each CPU's trace is said in the summary. */
static void capture_problems_of_a_cpu_are_warnings(void)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };

	cpu_flags = PTS_CPUF_STOPPED | PTS_CPUF_CLOBBERED;
	cpu_wrapped = true;
	write_bundle(PTS_SOURCE_SIMULATED_UNIT);
	cpu_flags = 0;
	cpu_wrapped = false;
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT_EQUAL(sum.nr_warnings, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.warnings[0], "cpu 0: the buffer filled"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.warnings[1], "changed by someone else"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.warnings[2], "the ring wrapped"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.source, "simulated"));
	/* the trace itself is whole: decoded as usual */
	CU_ASSERT_EQUAL(sum.insns, 20);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * The module records each CPU's stop TSC (GET_CPU_STATUS.stop_tsc) and the
 * trigger's: --summary says how long after the trigger each CPU stopped.
 * By hand, at 1 tick = 1 ns (tsc_khz 1000000): cpu 0 stopped 1500 ticks
 * after the trigger at 0x100000, i.e. +1.500 us.
 */
static void summary_says_how_long_after_the_trigger_each_cpu_stopped(void)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	char out[4096] = "";
	FILE *f;

	trig_tsc = 0x100000;
	cpu_stop_tsc[0] = 0x100000 + 1500;
	write_bundle(PTS_SOURCE_SIMULATED_UNIT);
	trig_tsc = 0;
	cpu_stop_tsc[0] = 0;
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT_EQUAL_FATAL(sum.nr_stops, 1);
	CU_ASSERT_EQUAL(sum.stops[0].cpu, 0);
	CU_ASSERT_EQUAL(sum.stops[0].ns, 1500);
	f = fmemopen(out, sizeof(out) - 1, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	pts_decode_summary_print(f, &sum);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "stopped after the trigger: cpu 0 +1.500 us\n"));
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * An exec in the sideband (ptscope EXEC record at TSC 0x1200) between the
 * old program's getpid syscall and the new program's first traced
 * instruction (TIP.PGE lj_main at 0x1300). By hand: the old frames end
 * when the exec is seen (at the next event, the enable), an "exec"
 * instant follows, and the new program's frames start from an empty stack
 * (without the exec, lj_main would nest on _start as a signal handler would).
 * The new program is the same binary at the same place: its maps are the
 * ones taken at the trigger (those at arm are the old program's).
 */
static void exec_in_the_sideband_starts_the_new_program_on_an_empty_stack(void)
{
	static const struct sw_rec sw = { 0, 0, 101 };
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	struct pt_gen g, *gp = &g;
	char shape[2048], why[256];

	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_tip_pge, 0x401000);
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);	/* execve */
	gen_tsc(&g, 0x1300);
	gen_ip(&g, ppt_tip_pge, 0x401100);	/* the new program: lj_main */
	gen_ip(&g, ppt_tip, 0x401105);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	exec_tsc = 0x1200;
	trigger_pgoff = 0x1000;
	write_bundle_ex(PTS_SOURCE_REFERENCE_ENCODER, &gp, 1, &sw, 1);
	exec_tsc = 0;
	trigger_pgoff = 0;
	gen_done(&g);
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	if (!tl_sink_well_formed(&sink, why, sizeof(why)))
		CU_FAIL(why);
	CU_ASSERT_STRING_EQUAL(tl_sink_shape(&sink, shape, sizeof(shape)),
		"B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall]|E1 [syscall]|E0 _start|I exec|"
		"B0 lj_main|B1 lj_a|B2 lj_b|B3 lj_c|E3 lj_c|E2 lj_b|E1 lj_a|B1 [syscall]|"
		"E1 [syscall]|E0 lj_main");
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * A thread that is never switched during the capture (a busy pinned
 * process): only the TRACE_START record of its CPU names it. The sideband
 * has a switch, on CPU 1, so it is not a switch-less one-process bundle.
 * The record is written after TraceEn (TSC 0x1100, after the first PSB's
 * 0x1000), as the module stamps records when it writes them: the thread
 * still runs from the start of CPU 0's trace. By hand: the main path on
 * pid 100 / tid 101, no gap; without the record's task, pid 0 / tid 0 and
 * code without a name (pid 0 has no maps).
 * A record of the first ABI (40 bytes, no task) is valid and names nobody.
 */
static void trace_start_names_the_thread_running_from_the_start(void)
{
	static const struct sw_rec sw = { 1, 0x1000, 102 };
	struct ptscope_sb_trace tr;
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	struct pt_gen g, *gp = &g;
	int32_t pid, tid;
	const char *name;
	size_t i;

	memset(&tr, 0, sizeof(tr));
	tr.hdr.type = PTSCOPE_SB_TRACE_START;
	tr.hdr.size = sizeof(tr);
	tr.hdr.cpu = 0;
	tr.hdr.tsc = 0x1100;
	tr.pid = 100;
	tr.tid = 101;
	for (int v = 0; v < 2; v++) {
		if (v)
			tr.hdr.size = PTSCOPE_SB_TRACE_SIZE_VER0;
		gen_main(&g);
		extra_sb = &tr;
		extra_sb_len = tr.hdr.size;
		write_bundle_ex(PTS_SOURCE_HARDWARE, &gp, 1, &sw, 1);
		extra_sb_len = 0;
		gen_done(&g);
		CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum,
							&err), 0);
		pid = tid = -1;
		name = NULL;
		for (i = 0; i < sink.n && !name; i++) {
			if (sink.recs[i].r.type == PTS_TL_BEGIN) {
				pid = sink.recs[i].r.pid;
				tid = sink.recs[i].r.tid;
				name = sink.recs[i].name;
			}
		}
		CU_ASSERT_EQUAL(pid, v ? 0 : 100);
		CU_ASSERT_EQUAL(tid, v ? 0 : 101);
		/* pid 0 has no maps: its code has no name */
		CU_ASSERT_STRING_EQUAL(name ? name : "", v ? "[unknown] 0x401000" : "_start");
		CU_ASSERT_EQUAL(sum.gaps, 0);
		CU_ASSERT_EQUAL(sum.lost, 0);
		CU_ASSERT_EQUAL(sum.nr_notices, 0);
		pts_decode_summary_free(&sum);
		tl_sink_free(&sink);
		memset(&sink, 0, sizeof(sink));
	}
}

/*
 * The main path's bundle (write_bundle) with len bytes of extra sideband
 * records sb, decoded into sink and sum; the decode must succeed.
 */
static void decode_main_with_sb(const void *sb, size_t len, struct tl_sink *sink,
				struct pts_decode_summary *sum)
{
	struct pts_err err = { 0 };

	extra_sb = sb;
	extra_sb_len = len;
	write_bundle(PTS_SOURCE_HARDWARE);
	extra_sb_len = 0;
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, sink, sum, &err), 0);
}

/*
 * The main path cut at TSC 0x1350 (lost records, a task out of sight):
 * the first segment (TSC 0x1000) on thread 100/101; nothing of the second
 * (TSC 0x1400) is pid 100's, neither its functions f3 and tail nor any
 * slice at its time, nor pid not_pid; and a gap.
 */
static void second_segment_is_no_pid_100(const struct tl_sink *sink,
					 const struct pts_decode_summary *sum, int32_t not_pid)
{
	size_t i;

	for (i = 0; i < sink->n; i++) {
		const struct pts_tl_rec *r = &sink->recs[i].r;

		if (r->type != PTS_TL_BEGIN)
			continue;
		if (!strcmp(sink->recs[i].name, "_start") || !strcmp(sink->recs[i].name, "f1")) {
			CU_ASSERT_EQUAL(r->pid, 100);
			CU_ASSERT_EQUAL(r->tid, 101);
		}
		CU_ASSERT_STRING_NOT_EQUAL(sink->recs[i].name, "f3");
		CU_ASSERT_STRING_NOT_EQUAL(sink->recs[i].name, "tail");
		if (r->ts_ns >= 0x1400 - 0x1000)
			CU_ASSERT(r->pid != 100 && r->pid != not_pid);
	}
	CU_ASSERT(sum->gaps >= 1);
}

/*
 * A LOST record: cpu 0's ring dropped 4 records after its EXIT record at
 * TSC 0x1300 (a switch among them would have changed the task), and said
 * so before its next record at 0x1350. The first segment (TSC 0x1000, on
 * the switch record's thread 101) decodes as in the main path; the second
 * (TSC 0x1400, after the loss, no switch since) belongs to an unknown
 * task: pid 0, no user image, its code a gap, never pid 100's functions
 * (the stale pid choosing the image). Said in a warning naming the CPU.
 */
static void lost_records_make_the_task_unknown_until_the_next_switch(void)
{
	struct {
		struct ptscope_sb_exit ex;
		struct ptscope_sb_lost lo;
		struct ptscope_sb_exit ex2;
	} sb;
	struct pts_decode_summary sum;
	struct tl_sink sink = { 0 };
	unsigned int w, said = 0;

	memset(&sb, 0, sizeof(sb));
	sb.ex.hdr.type = PTSCOPE_SB_EXIT;
	sb.ex.hdr.size = sizeof(sb.ex);
	sb.ex.hdr.tsc = 0x1300;
	sb.ex.pid = sb.ex.tid = 555;
	sb.lo.hdr.type = PTSCOPE_SB_LOST;
	sb.lo.hdr.size = sizeof(sb.lo);
	sb.lo.hdr.tsc = 0x1350;
	sb.lo.count = 4;
	sb.ex2 = sb.ex;
	sb.ex2.hdr.tsc = 0x1350;
	sb.ex2.pid = sb.ex2.tid = 556;
	decode_main_with_sb(&sb, sizeof(sb), &sink, &sum);
	/* before the loss on the switch's thread; never pid 100's image after it */
	second_segment_is_no_pid_100(&sink, &sum, 100);
	for (w = 0; w < sum.nr_warnings; w++)
		said += strstr(sum.warnings[w], "4 sideband records of cpu 0 are missing") != NULL;
	CU_ASSERT_EQUAL(said, 1);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * A capture configured in a container (docs/abi.md, "Pids"): at TSC 0x1350
 * cpu 0 switches to a host task, which the capture's pid namespace cannot
 * see: next_pid/next_tid -1 (PTSCOPE_PID_OUTSIDE). The first segment (TSC
 * 0x1000) decodes as in the main path, on thread 100/101; the second (TSC
 * 0x1400) is that host task's: no process of the bundle, so its code is a
 * gap, never pid 100's functions, and -1 never keys an image (it is the
 * image set's "every process" key).
 */
static void switch_to_a_task_outside_the_pid_namespace_is_no_process(void)
{
	struct ptscope_sb_switch sw;
	struct pts_decode_summary sum;
	struct tl_sink sink = { 0 };

	memset(&sw, 0, sizeof(sw));
	sw.hdr.type = PTSCOPE_SB_SCHED_SWITCH;
	sw.hdr.size = sizeof(sw);
	sw.hdr.tsc = 0x1350;
	sw.prev_pid = 100;
	sw.prev_tid = 101;
	sw.next_pid = sw.next_tid = PTSCOPE_PID_OUTSIDE;
	sw.next_cr3 = 0x7000;
	snprintf(sw.next_comm, sizeof(sw.next_comm), "hostd");
	decode_main_with_sb(&sw, sizeof(sw), &sink, &sum);
	second_segment_is_no_pid_100(&sink, &sum, PTSCOPE_PID_OUTSIDE);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * Erratum SKL014 (libipt's list: Skylake on, model 85 among them): a
 * TIP.PGD at a direct branch that leaves an address filter range may come
 * without its IP. The capture filtered ADDR0 = _start's 64 bytes
 * [0x401000, 0x40103f]; _start's `call f1` (0x401000) leaves it (TIP.PGD,
 * IP suppressed), `ret` from f1 to 0x401005 re-enters it (TIP.PGE), the
 * getpid syscall at 0x40100a leaves user mode (TIP.PGD). By hand: 3
 * instructions (call, mov, syscall), no gap. Without the filter in
 * libipt's configuration (or without the erratum) the first disable is
 * not bound to the call: libipt walks on into f1 and f2 up to the first
 * instruction that needs trace (f2's jnz at 0x401067) and binds it there,
 * silently: 7 instructions (call f2, mov, dec and jnz that never ran in
 * the trace), no gap.
 */
static void write_filtered_bundle(uint32_t model)
{
	static const struct sw_rec sw = { 0, 0, 101 };
	struct pt_gen g, *gp = &g;

	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_tip_pge, 0x401000);
	gen_ip_suppressed(&g, ppt_tip_pgd);	/* call f1: out of ADDR0 (SKL014) */
	gen_tsc(&g, 0x1400);
	gen_ip(&g, ppt_tip_pge, 0x401005);	/* back from f1 */
	gen_ip_suppressed(&g, ppt_tip_pgd);	/* syscall */
	addr0.a = 0x401000;
	addr0.b = 0x40103f;
	addr0.cfg = 1;
	cpu_model = model;
	write_bundle_ex(PTS_SOURCE_HARDWARE, &gp, 1, &sw, 1);
	cpu_model = 85;
	memset(&addr0, 0, sizeof(addr0));
	gen_done(&g);
}

static void filter_range_exit_without_ip_binds_to_the_branch_out_skl014(void)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };

	write_filtered_bundle(85);
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT_EQUAL(sum.insns, 3);
	CU_ASSERT_EQUAL(sum.gaps, 0);
	CU_ASSERT_FALSE(sum.errata_unknown);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * A CPU libipt 2.0.5 does not know (6/183: Raptor Lake) gets no errata:
 * said on stderr (a notice naming the model), and the SKL014 trace above
 * decodes wrongly (7 instructions, no gap). --cpu-model 6/85/4 decodes
 * it with Skylake's, so the SKL014 trace above decodes without a gap, and
 * the override is a notice (stderr) naming both models.
 */
static void unknown_cpu_is_said_and_cpu_model_overrides_it_for_bundles(void)
{
	struct pts_decode_opts o;
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };

	write_filtered_bundle(183);
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT(sum.errata_unknown);
	CU_ASSERT_EQUAL_FATAL(sum.nr_notices, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.notices[0], "6/183/4"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.notices[0], "--cpu-model"));
	CU_ASSERT_EQUAL(sum.insns, 7);	/* f1 and f2 decoded as traced: see above */
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
	memset(&sink, 0, sizeof(sink));

	pts_decode_opts_init(&o);
	o.family = 6;
	o.model = 85;
	o.stepping = 4;
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, &o, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT_FALSE(sum.errata_unknown);
	/* a notice: said on stderr too, since the decode leaves the manifest's CPU */
	CU_ASSERT_EQUAL(sum.nr_warnings, 0);
	CU_ASSERT_EQUAL_FATAL(sum.nr_notices, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.notices[0], "6/85/4"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.notices[0], "6/183/4"));
	CU_ASSERT_EQUAL(sum.insns, 3);
	CU_ASSERT_EQUAL(sum.gaps, 0);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/* Time of the end of tid 101's first [syscall] slice, ns (UINT64_MAX: none). */
static uint64_t syscall_end(const struct tl_sink *sink)
{
	size_t i;

	for (i = 0; i < sink->n; i++)
		if (sink->recs[i].r.type == PTS_TL_END && sink->recs[i].r.tid == 101 &&
		    !strcmp(sink->recs[i].name, "[syscall]"))
			return sink->recs[i].r.ts_ns;
	return UINT64_MAX;
}

/*
 * The start and stop time pairs measure the TSC rate over the capture.
 * tsc_khz says 1 GHz (1 tick = 1 ns); the pairs say 2e8 ticks in 1e8 ns of
 * CLOCK_MONOTONIC: 2 GHz. By hand: the main path's first [syscall] ends at
 * the TIP.PGE after TSC 0x1400, 0x400 ticks after the first PSB: 0x200 ns
 * at the measured rate (0x400 at the recorded one), with a warning naming
 * both rates. Pairs that agree with tsc_khz within 200 ppm (here 100 ppm)
 * leave it alone: 0x400 ns, no warning.
 */
static void time_pairs_check_and_refine_tsc_khz(void)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };

	memset(pairs, 0, sizeof(pairs));
	snprintf(pairs[0].when, sizeof(pairs[0].when), "start");
	pairs[0].tsc = 1000000000;
	pairs[0].monotonic_ns = 5000000000;
	snprintf(pairs[1].when, sizeof(pairs[1].when), "stop");
	pairs[1].tsc = 1200000000;
	pairs[1].monotonic_ns = 5100000000;
	nr_pairs = 2;
	for (int agree = 0; agree < 2; agree++) {
		if (agree)
			pairs[1].tsc = 1100010000;	/* 100 ppm above 1 GHz */
		write_bundle(PTS_SOURCE_HARDWARE);
		CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum,
							&err), 0);
		CU_ASSERT_EQUAL(syscall_end(&sink), agree ? 0x400 : 0x200);
		CU_ASSERT_EQUAL_FATAL(sum.nr_warnings, agree ? 0 : 1);
		if (!agree) {
			CU_ASSERT_PTR_NOT_NULL(strstr(sum.warnings[0], "tsc_khz 1000000"));
			CU_ASSERT_PTR_NOT_NULL(strstr(sum.warnings[0], "2000000 kHz"));
		}
		CU_ASSERT_EQUAL(sum.nr_notices, 0);
		pts_decode_summary_free(&sum);
		tl_sink_free(&sink);
		memset(&sink, 0, sizeof(sink));
	}
	nr_pairs = 0;
}

/*
 * MTC packets need CPUID.15H's TSC/crystal ratio (SDM 33.3.1); with EAX
 * and EBX 0 libipt ignores them. A capture with MTCEn (RTIT_CTL bit 9) and
 * no ratio gets a notice; the same capture with the ratio, none.
 */
static void mtc_without_cpuid_15_is_said(void)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };

	ctl_or = 1ULL << 9;
	for (int ratio = 0; ratio < 2; ratio++) {
		no_cpuid_15 = !ratio;
		write_bundle(PTS_SOURCE_HARDWARE);
		CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum,
							&err), 0);
		CU_ASSERT_EQUAL_FATAL(sum.nr_notices, ratio ? 0 : 1);
		if (!ratio)
			CU_ASSERT_PTR_NOT_NULL(strstr(sum.notices[0], "cpuid_15 EAX/EBX are 0"));
		pts_decode_summary_free(&sum);
		tl_sink_free(&sink);
		memset(&sink, 0, sizeof(sink));
	}
	no_cpuid_15 = false;
	ctl_or = 0;
}

/*
 * Scope both: two processes map code at the same address 0x401000 (pid
 * 100: _start; pid 200: lj_main, file offset 0x1100). The sideband names
 * their page-table roots (switch records on CPU 1: pid 100 0x1001000,
 * pid 200 0x2001000, the user roots of KPTI processes); CPU 0's trace has
 * no switch record, only a PIP with CR3 0x2001805 (pid 200's user root,
 * PCID 0x805 with the KPTI user bit 11; PIP drops bits 4:0). By hand: the
 * PIP names pid 200 (the root, bits 11:0 ignored), whose image decodes the
 * TIP.PGE at 0x401000 as lj_main, then lj_a, lj_b, lj_c up to the longjmp
 * (TIP 0x401005), on pid 200's track. Without the roots and the switch at
 * PIP: pid 0, and the union image's last section at 0x401000 (pid 100's
 * _start).
 */
static void pip_selects_the_process_and_its_image_by_cr3_root(void)
{
	static const struct sw_rec sw = { 1, 0x1000, 101 };
	struct ptscope_sb_switch rec[2];
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	struct pt_gen g, *gp = &g;
	size_t i;

	memset(rec, 0, sizeof(rec));
	for (i = 0; i < 2; i++) {
		rec[i].hdr.type = PTSCOPE_SB_SCHED_SWITCH;
		rec[i].hdr.size = sizeof(rec[i]);
		rec[i].hdr.cpu = 1;
		rec[i].hdr.tsc = 0x1100 + i;
		rec[i].next_pid = rec[i].next_tid = i ? 200 : 100;
		rec[i].next_cr3 = i ? 0x2001000 : 0x1001000;
	}
	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_pip(&g, 0x2001805);
	gen_ip(&g, ppt_tip_pge, 0x401000);	/* pid 200: lj_main */
	gen_ip(&g, ppt_tip, 0x401005);		/* lj_c's longjmp */
	gen_ip_suppressed(&g, ppt_tip_pgd);
	other_pid = 200;
	scope_both = true;
	extra_sb = rec;
	extra_sb_len = sizeof(rec);
	write_bundle_ex(PTS_SOURCE_HARDWARE, &gp, 1, &sw, 1);
	extra_sb_len = 0;
	other_pid = 0;
	scope_both = false;
	gen_done(&g);
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	for (i = 0; i < sink.n && sink.recs[i].r.type != PTS_TL_BEGIN; i++)
		;
	CU_ASSERT_FATAL(i < sink.n);
	CU_ASSERT_STRING_EQUAL(sink.recs[i].name, "lj_main");
	CU_ASSERT_EQUAL(sink.recs[i].r.pid, 200);
	CU_ASSERT_EQUAL(sum.gaps, 0);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/* One syscall record of thread 101 (pid 100) on CPU 0. */
static void sys_rec(struct ptscope_sb_syscall *r, uint16_t type, uint64_t tsc, int64_t nr,
		    int64_t ret, uint64_t ip)
{
	memset(r, 0, sizeof(*r));
	r->hdr.type = type;
	r->hdr.size = sizeof(*r);
	r->hdr.tsc = tsc;
	r->pid = 100;
	r->tid = 101;
	r->nr = nr;
	r->ret = ret;
	r->ip = ip;
}

/*
 * Syscall records name the main path's two untraced stretches. By hand
 * (user.S, 1 tick = 1 ns): getpid (39) at 0x40100a, traced until the PGD
 * at TSC 0x1000, returns to 0x40100c; exit (60) at 0x4010a7 after TSC
 * 0x1400, returns nowhere. Entry records stamped inside each stretch, with
 * the return IP after the 2-byte syscall: "[syscall getpid → 100]" and
 * "[syscall exit]" (no exit record). The summary counts both as matched.
 */
static void syscall_records_name_the_untraced_stretches(void)
{
	struct ptscope_sb_syscall rec[3];
	struct pts_decode_summary sum;
	struct tl_sink sink = { 0 };
	char shape[2048];

	sys_rec(&rec[0], PTSCOPE_SB_SYS_ENTER, 0x1100, 39, 0, 0x40100c);
	sys_rec(&rec[1], PTSCOPE_SB_SYS_EXIT, 0x1200, 39, 100, 0x40100c);
	sys_rec(&rec[2], PTSCOPE_SB_SYS_ENTER, 0x1500, 60, 0, 0x4010a9);
	decode_main_with_sb(rec, sizeof(rec), &sink, &sum);
	CU_ASSERT_STRING_EQUAL(tl_sink_shape(&sink, shape, sizeof(shape)),
		"B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall getpid \u2192 100]|"
		"E1 [syscall getpid \u2192 100]|B1 f3|E1 f3|E0 _start|B0 tail|B1 [syscall exit]|"
		"E1 [syscall exit]|E0 tail");
	CU_ASSERT_TRUE(sum.have_labels);
	CU_ASSERT_EQUAL(sum.labels.records, 2);
	CU_ASSERT_EQUAL(sum.labels.matched, 2);
	CU_ASSERT_EQUAL(sum.labels.unmatched + sum.labels.outside, 0);
	CU_ASSERT_EQUAL(sum.lost, 0);	/* the record types are known: nothing skipped */
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * Records that do not fit are counted, never guessed: getpid's entry
 * names another return IP (0x401010), exit's entry is stamped before the
 * trace's first TSC (0x0800: the stretch at 0x1400 is after it, but the
 * record belongs to a syscall the trace did not see). Both stretches keep
 * their plain name; the first record is unmatched within thread 101's
 * traced time, the second outside it (before its first event). An exit
 * record without its entry is counted apart.
 */
static void syscall_records_that_do_not_fit_are_counted_not_guessed(void)
{
	struct ptscope_sb_syscall rec[4];
	struct pts_decode_summary sum;
	struct tl_sink sink = { 0 };
	char shape[2048];

	sys_rec(&rec[0], PTSCOPE_SB_SYS_ENTER, 0x0800, 60, 0, 0x4010a9);
	sys_rec(&rec[1], PTSCOPE_SB_SYS_EXIT, 0x0900, 231, 0, 0x4010a9);
	sys_rec(&rec[2], PTSCOPE_SB_SYS_ENTER, 0x1100, 39, 0, 0x401010);
	sys_rec(&rec[3], PTSCOPE_SB_SYS_EXIT, 0x1200, 39, 100, 0x401010);
	decode_main_with_sb(rec, sizeof(rec), &sink, &sum);
	CU_ASSERT_STRING_EQUAL(tl_sink_shape(&sink, shape, sizeof(shape)),
		"B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall]|E1 [syscall]|"
		"B1 f3|E1 f3|E0 _start|B0 tail|B1 [syscall]|E1 [syscall]|E0 tail");
	CU_ASSERT_EQUAL(sum.labels.records, 2);
	CU_ASSERT_EQUAL(sum.labels.matched, 0);
	CU_ASSERT_EQUAL(sum.labels.unmatched, 1);
	CU_ASSERT_EQUAL(sum.labels.outside, 1);
	CU_ASSERT_EQUAL(sum.labels.unpaired_exits, 1);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * What names a process in a PIP: its root (CR3 bits 11:0 are the PCID,
 * SDM vol. 3A 4.10.1), and with KPTI also its kernel root, 4 KiB below the
 * user root the sideband records (PTI_PGTABLE_SWITCH_BIT).
 */
static void cr3_names_a_process_by_root_and_kpti_kernel_root(void)
{
	struct pts_imgset *set = NULL;
	struct pts_err err = { 0 };

	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	CU_ASSERT_EQUAL(pts_imgset_note_cr3(set, 200, 0x2001000), 0);
	CU_ASSERT_EQUAL(pts_imgset_note_cr3(set, 300, 0x3000000), 0);	/* no KPTI */
	CU_ASSERT_EQUAL(pts_imgset_pid_of_cr3(set, 0x2001000), 200);
	CU_ASSERT_EQUAL(pts_imgset_pid_of_cr3(set, 0x2001800), 200);	/* user PCID */
	CU_ASSERT_EQUAL(pts_imgset_pid_of_cr3(set, 0x2000005), 200);	/* kernel root */
	CU_ASSERT_EQUAL(pts_imgset_pid_of_cr3(set, 0x3000fe0), 300);
	CU_ASSERT_EQUAL(pts_imgset_pid_of_cr3(set, 0x4000000), -1);
	CU_ASSERT_EQUAL(pts_imgset_pid_of_cr3(set, 0), -1);
	pts_imgset_free(set);
}

/*
 * `ptscope run -- env ./prog`, `record` of a process that execs: one pid,
 * two programs. The old program's maps (at arm) map 0x401000 from file
 * offset 0x1100, so its code there is lj_main; the new program's (at the
 * trigger) from offset 0x1000, so there it is _start. The sideband's EXEC
 * (TSC 0x1200) splits them. Trace: lj_main's path up to its exit syscall
 * (TIP 0x401005: lj_c's longjmp, in the old layout), then, after the exec,
 * the main path's first part (TNT TTNTT) up to its getpid syscall. By
 * hand: lj_main, lj_a, lj_b, lj_c named in the old program, the exec, then
 * _start, f1, f2 in the new, no gap. With one snapshot for the whole
 * process (the trigger's), lj_main's path decodes against _start's code:
 * TIP 0x401005 meets f1's loop, which needs TNT.
 */
static void exec_splits_the_process_images_old_program_before_new_after(void)
{
	static const struct sw_rec sw = { 0, 0, 101 };
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	struct pt_gen g, *gp = &g;
	char shape[2048], why[256];

	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_tip_pge, 0x401000);	/* the old program: lj_main */
	gen_ip(&g, ppt_tip, 0x401005);		/* lj_c's longjmp */
	gen_ip_suppressed(&g, ppt_tip_pgd);	/* exit syscall (execve in real life) */
	gen_tsc(&g, 0x1300);
	gen_ip(&g, ppt_tip_pge, 0x401000);	/* the new program: _start */
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	exec_tsc = 0x1200;
	arm_pgoff = 0x1100;
	trigger_pgoff = 0x1000;
	write_bundle_ex(PTS_SOURCE_REFERENCE_ENCODER, &gp, 1, &sw, 1);
	exec_tsc = 0;
	arm_pgoff = 0x1000;
	trigger_pgoff = 0;
	gen_done(&g);
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	if (!tl_sink_well_formed(&sink, why, sizeof(why)))
		CU_FAIL(why);
	CU_ASSERT_STRING_EQUAL(tl_sink_shape(&sink, shape, sizeof(shape)),
		"B0 lj_main|B1 lj_a|B2 lj_b|B3 lj_c|E3 lj_c|E2 lj_b|E1 lj_a|B1 [syscall]|"
		"E1 [syscall]|E0 lj_main|I exec|"
		"B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall]|E1 [syscall]|E0 _start");
	CU_ASSERT_EQUAL(sum.gaps, 0);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * No exec: the maps at arm and at the trigger are one program's. Code
 * mapped at arm and unmapped before the trigger (a dlclose'd library)
 * still decodes: the trigger's maps hold the binary at 0x501000 only,
 * the arm's at 0x401000, where the main path runs. By hand: the main path
 * (20 instructions), no gap. With the trigger's maps alone: all gaps.
 */
static void code_unmapped_before_the_trigger_decodes_from_the_arm_maps(void)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };

	trigger_pgoff = 0x1000;
	trigger_at = 0x100000;
	write_bundle(PTS_SOURCE_REFERENCE_ENCODER);
	trigger_pgoff = 0;
	trigger_at = 0;
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT_EQUAL(sum.insns, 20);
	CU_ASSERT_EQUAL(sum.gaps, 0);
	CU_ASSERT_EQUAL(sum.objects_copied, 1);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * A process whose maps were not taken (pid 300: listed, no maps) runs
 * after pid 100 on the same CPU (switch at TSC 0x1200). Its code at
 * 0x401000 is unknown: by hand, pid 100's main path part up to getpid,
 * then gaps for pid 300 ("no memory mapped"), no function of pid 100's
 * binary on pid 300's track. Before: pid 300 borrowed pid 100's image and
 * showed _start, f1, f2 as its own.
 */
/*
 * Pid 300, listed without maps, runs the code at 0x401000 that pid 100 maps
 * (_start, f1, f2 as pid 100's trace does; sim_path: the binary is named as
 * the simulated unit's user code image). Returns pid 300's named frames; its
 * gap instants in *gaps, the summary's gaps in *sum_gaps.
 */
static size_t pid300_named_and_gaps(enum pts_bundle_source source, bool sim_path, size_t *gaps,
				    uint64_t *sum_gaps)
{
	static const struct sw_rec sw = { 0, 0, 101 };
	struct ptscope_sb_switch rec;
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	struct pt_gen g, *gp = &g;
	size_t i, named = 0;

	memset(&rec, 0, sizeof(rec));
	rec.hdr.type = PTSCOPE_SB_SCHED_SWITCH;
	rec.hdr.size = sizeof(rec);
	rec.hdr.tsc = 0x1200;
	rec.prev_pid = 100;
	rec.prev_tid = 101;
	rec.next_pid = rec.next_tid = 300;
	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_tip_pge, 0x401000);
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_tsc(&g, 0x1300);
	gen_ip(&g, ppt_tip_pge, 0x401000);	/* pid 300 */
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	other_pid = 300;
	other_no_maps = true;
	sim_code_path = sim_path;
	extra_sb = &rec;
	extra_sb_len = sizeof(rec);
	write_bundle_ex(source, &gp, 1, &sw, 1);
	extra_sb_len = 0;
	sim_code_path = false;
	other_no_maps = false;
	other_pid = 0;
	gen_done(&g);
	*gaps = 0;
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	for (i = 0; i < sink.n; i++) {
		const struct pts_tl_rec *r = &sink.recs[i].r;

		if (r->pid != 300)
			continue;
		if (r->type == PTS_TL_BEGIN && sink.recs[i].name[0] != '[')
			named++;
		if (r->type == PTS_TL_INSTANT && strstr(sink.recs[i].name, "gap"))
			(*gaps)++;
	}
	*sum_gaps = sum.gaps;
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
	return named;
}

static void process_without_maps_decodes_as_gaps_not_with_the_previous_image(void)
{
	uint64_t sum_gaps;
	size_t gaps;

	CU_ASSERT_EQUAL(pid300_named_and_gaps(PTS_SOURCE_REFERENCE_ENCODER, false, &gaps, &sum_gaps),
			0);
	CU_ASSERT(gaps >= 1);
	CU_ASSERT(sum_gaps >= 1);
}

/*
 * The simulated unit runs its user code image in whatever task is current
 * (docs/simulated-unit.md), also in a task whose maps were never read: in a
 * simulated bundle that image decodes in every address space; in a bundle
 * from another source the same layout stays a gap.
 */
static void simulated_unit_code_decodes_in_a_task_without_maps(void)
{
	uint64_t sum_gaps;
	size_t gaps, named;

	named = pid300_named_and_gaps(PTS_SOURCE_SIMULATED_UNIT, true, &gaps, &sum_gaps);
	CU_ASSERT(named >= 3);
	CU_ASSERT_EQUAL(gaps, 0);
	CU_ASSERT_EQUAL(sum_gaps, 0);
	CU_ASSERT_EQUAL(pid300_named_and_gaps(PTS_SOURCE_REFERENCE_ENCODER, true, &gaps, &sum_gaps),
			0);
	CU_ASSERT(gaps >= 1);
}

/*
 * A mapped file the bundle's objects[] does not mention (no copy, no
 * build-id, no size): the host's file at the path is all there is. By
 * hand: it is used (the main path decodes, 20 instructions) but never
 * silently: a warning says it is unchecked, and the summary counts it.
 */
static void host_file_the_bundle_does_not_record_is_used_but_said(void)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	char out[4096] = "";
	FILE *f;

	named_build_id = "";
	no_objects = true;
	write_bundle(PTS_SOURCE_REFERENCE_ENCODER);
	no_objects = false;
	named_build_id = NULL;
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT_EQUAL(sum.insns, 20);
	CU_ASSERT_EQUAL(sum.objects_unchecked, 1);
	CU_ASSERT_EQUAL(sum.nr_warnings, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.warnings[0], "used unchecked"));
	f = fmemopen(out, sizeof(out) - 1, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	pts_decode_summary_print(f, &sum);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "0 copied in the bundle, 0 host files checked against "
				      "the capture, 1 host file unchecked"));
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * Three programs in one process (`sh -c 'env ./prog'`): execs at TSC
 * 0x1200 (recorded with the fixture's EXEC) and 0x1400 (a second EXEC
 * record). The maps at arm (offset 0x1100: lj_main at 0x401000) are the
 * first program's, the maps read while armed after the first exec
 * (maps_exec, offset 0x1000: _start) the second's, the trigger's (offset
 * 0x1100 again) the third's. By hand: lj_main's path, exec, the main
 * path's first part, exec, lj_main's path, no gap. Without maps_exec the
 * middle program has no code (gaps); with one snapshot per process, two
 * of the three decode against the wrong layout.
 */
static void middle_program_decodes_with_the_maps_read_after_its_exec(void)
{
	static const struct sw_rec sw = { 0, 0, 101 };
	struct ptscope_sb_exec *ex;
	uint8_t exbuf[(sizeof(*ex) + sizeof("/opt/app/user") + 7) & ~(size_t)7];
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	struct pt_gen g, *gp = &g;
	char shape[2048], why[256];

	memset(exbuf, 0, sizeof(exbuf));
	ex = (void *)exbuf;
	ex->hdr.type = PTSCOPE_SB_EXEC;
	ex->hdr.size = sizeof(exbuf);
	ex->hdr.tsc = 0x1400;
	ex->pid = 100;
	ex->tid = 101;
	memcpy(ex->filename, "/opt/app/user", sizeof("/opt/app/user"));
	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_tip_pge, 0x401000);	/* first program: lj_main */
	gen_ip(&g, ppt_tip, 0x401005);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_tsc(&g, 0x1300);
	gen_ip(&g, ppt_tip_pge, 0x401000);	/* second: _start */
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_tsc(&g, 0x1500);
	gen_ip(&g, ppt_tip_pge, 0x401000);	/* third: lj_main */
	gen_ip(&g, ppt_tip, 0x401005);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	exec_tsc = 0x1200;
	extra_sb = exbuf;
	extra_sb_len = sizeof(exbuf);
	arm_pgoff = 0x1100;
	mid_tsc = 0x1200;
	mid_pgoff = 0x1000;
	trigger_pgoff = 0x1100;
	write_bundle_ex(PTS_SOURCE_REFERENCE_ENCODER, &gp, 1, &sw, 1);
	exec_tsc = 0;
	extra_sb_len = 0;
	arm_pgoff = 0x1000;
	mid_tsc = 0;
	trigger_pgoff = 0;
	gen_done(&g);
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	if (!tl_sink_well_formed(&sink, why, sizeof(why)))
		CU_FAIL(why);
	CU_ASSERT_STRING_EQUAL(tl_sink_shape(&sink, shape, sizeof(shape)),
		"B0 lj_main|B1 lj_a|B2 lj_b|B3 lj_c|E3 lj_c|E2 lj_b|E1 lj_a|B1 [syscall]|"
		"E1 [syscall]|E0 lj_main|I exec|"
		"B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall]|E1 [syscall]|E0 _start|I exec|"
		"B0 lj_main|B1 lj_a|B2 lj_b|B3 lj_c|E3 lj_c|E2 lj_b|E1 lj_a|B1 [syscall]|"
		"E1 [syscall]|E0 lj_main");
	CU_ASSERT_EQUAL(sum.gaps, 0);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/* A sched_switch record on CPU 0 to pid/tid at tsc with next_cr3 cr3. */
static struct ptscope_sb_switch switch_rec(uint64_t tsc, int32_t pid, uint64_t cr3)
{
	struct ptscope_sb_switch r;

	memset(&r, 0, sizeof(r));
	r.hdr.type = PTSCOPE_SB_SCHED_SWITCH;
	r.hdr.size = sizeof(r);
	r.hdr.tsc = tsc;
	r.prev_pid = 100;
	r.prev_tid = 101;
	r.next_pid = r.next_tid = pid;
	r.next_cr3 = cr3;
	return r;
}

/*
 * `ptscope run --scope both` under KPTI: one CR3_MATCH cannot match the
 * process's user and kernel roots, so the module traced every process
 * (config.cr3_partial, filter_pid 100). Pid 100 runs the main path's first
 * part, then (switch at TSC 0x1200, no CR3: applied at its time) pid 200
 * runs lj_main's path. By hand: only pid 100's slices are written, pid
 * 200's events are counted as left out, and a notice says why. Before:
 * pid 200's lj_main path was in the timeline.
 */
static void cr3_partial_capture_shows_only_the_traced_process(void)
{
	static const struct sw_rec sw = { 0, 0, 101 };
	struct ptscope_sb_switch rec = switch_rec(0x1200, 200, 0);
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	struct pt_gen g, *gp = &g;
	char shape[2048];
	size_t i, others = 0;

	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_tip_pge, 0x401000);	/* pid 100: _start */
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_tsc(&g, 0x1300);
	gen_ip(&g, ppt_tip_pge, 0x401000);	/* pid 200: lj_main */
	gen_ip(&g, ppt_tip, 0x401005);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	other_pid = 200;
	scope_both = true;
	partial_pid = 100;
	extra_sb = &rec;
	extra_sb_len = sizeof(rec);
	write_bundle_ex(PTS_SOURCE_SIMULATED_UNIT, &gp, 1, &sw, 1);
	extra_sb_len = 0;
	partial_pid = 0;
	scope_both = false;
	other_pid = 0;
	gen_done(&g);
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	for (i = 0; i < sink.n; i++)
		others += sink.recs[i].r.pid != 100 && sink.recs[i].r.type != PTS_TL_THREAD &&
			  sink.recs[i].r.type != PTS_TL_PROCESS;
	CU_ASSERT_EQUAL(others, 0);
	CU_ASSERT_STRING_EQUAL(tl_sink_thread_shape(&sink, 101, shape, sizeof(shape)),
		"B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall]|E1 [syscall]|E0 _start");
	CU_ASSERT(sum.other_events > 0);
	CU_ASSERT_FATAL(sum.nr_notices >= 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(sum.notices[sum.nr_notices - 1], "cr3_partial"));
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * Scope both: the sched_switch record (TSC 0x1200, to pid 200 with user
 * root 0x2001000) is stamped before the CPU writes pid 200's CR3; until
 * that write (its PIP, here at TSC 0x1400 carrying the KPTI kernel root
 * 0x2000000 with PCID 5) the CPU still runs pid 100 (the end of the
 * switch). Pid 100's trace at TSC 0x1300 (the main path's first part, in
 * its layout) is pid 100's; after the PIP, lj_main's path in pid 200's
 * layout is pid 200's. By hand: thread 101 shows the main path's part
 * twice (_start, f1, f2, the syscall), pid 200 lj_main's path once. Before: the switch took effect at its time, and the
 * 0x1300 part was pid 200's, decoded with pid 200's code.
 */
static void switch_takes_effect_at_the_cr3_write_not_at_its_record(void)
{
	static const struct sw_rec sw = { 0, 0, 101 };
	struct ptscope_sb_switch rec = switch_rec(0x1200, 200, 0x2001000);
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	struct pt_gen g, *gp = &g;
	char shape[2048];

	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_tip_pge, 0x401000);	/* pid 100 */
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_tsc(&g, 0x1300);
	gen_ip(&g, ppt_tip_pge, 0x401000);	/* still pid 100: before the CR3 write */
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_tsc(&g, 0x1400);
	gen_pip(&g, 0x2000005);			/* the switch's CR3 write */
	gen_ip(&g, ppt_tip_pge, 0x401000);	/* pid 200: lj_main */
	gen_ip(&g, ppt_tip, 0x401005);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	other_pid = 200;
	scope_both = true;
	extra_sb = &rec;
	extra_sb_len = sizeof(rec);
	write_bundle_ex(PTS_SOURCE_SIMULATED_UNIT, &gp, 1, &sw, 1);
	extra_sb_len = 0;
	scope_both = false;
	other_pid = 0;
	gen_done(&g);
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	/* both parts on thread 101, each in full (the timeline nests the second: scope both) */
	tl_sink_thread_shape(&sink, 101, shape, sizeof(shape));
	CU_ASSERT_PTR_NOT_NULL(strstr(shape, "B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall]|"
				      "E1 [syscall]|"));
	CU_ASSERT_PTR_NOT_NULL(strstr(shape, "B1 _start|B2 f1|B3 f2|E3 f2|E2 f1|B2 [syscall]|"
				      "E2 [syscall]|E1 _start|E0 _start"));
	CU_ASSERT_PTR_NULL(strstr(shape, "lj_"));
	CU_ASSERT_STRING_EQUAL(tl_sink_thread_shape(&sink, 200, shape, sizeof(shape)),
		"B0 lj_main|B1 lj_a|B2 lj_b|B3 lj_c|E3 lj_c|E2 lj_b|E1 lj_a|B1 [syscall]|"
		"E1 [syscall]|E0 lj_main");
	CU_ASSERT_EQUAL(sum.gaps, 0);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * A bundle captured with kptr_restrict=2: its kallsyms has every address
 * 0. By hand: the decode goes on (the user trace needs no kernel name), a
 * notice says the names cannot be placed and what to give; with
 * --kallsyms FILE (opts.kallsyms) that listing is used instead and there
 * is no notice; a --kallsyms FILE that is no listing is an error.
 */
static void zeroed_bundle_kallsyms_is_said_and_kallsyms_option_replaces_it(void)
{
	struct pts_decode_summary sum;
	struct pts_decode_opts o;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	char good[400], bad[400];
	unsigned int i;
	bool said = false;
	FILE *f;

	kallsyms_text = "0000000000000000 T _stext\n0000000000000000 t helper\n"
			"0000000000000000 T _etext\n";
	write_bundle(PTS_SOURCE_HARDWARE);
	kallsyms_text = NULL;
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT_EQUAL(sum.insns, 20);
	for (i = 0; i < sum.nr_notices && i < PTS_DEC_MAX_NOTICES; i++)
		said |= strstr(sum.notices[i], "every address is 0") &&
			strstr(sum.notices[i], "--kallsyms");
	CU_ASSERT_TRUE(said);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);

	snprintf(good, sizeof(good), "%s/good.kallsyms", dir);
	f = fopen(good, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("ffffffff81000000 T _stext\nffffffff81000100 t helper\n", f);
	fclose(f);
	pts_decode_opts_init(&o);
	o.kallsyms = good;
	memset(&sink, 0, sizeof(sink));
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, &o, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT_EQUAL(sum.nr_notices, 0);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);

	snprintf(bad, sizeof(bad), "%s/bad.kallsyms", dir);
	f = fopen(bad, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("not a listing\n", f);
	fclose(f);
	o.kallsyms = bad;
	memset(&sink, 0, sizeof(sink));
	CU_ASSERT_EQUAL(pts_decode_bundle(bdir, &o, tl_sink_emit, &sink, &sum, &err), -EINVAL);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * The vdso is one image per ABI: pid 100 exited before its vdso was read
 * (its maps name a [vdso] at 0x400000, no copy), pid 200's copy has the
 * line's size. Here the "vdso" is user.elf's bytes, so the main path at
 * 0x401000 (file offset 0x1000) runs in it. By hand: the main path's 20
 * instructions on pid 100, no gap. Before: pid 100 had no vdso: gaps.
 */
static void vdso_of_an_exited_process_is_another_process_copy(void)
{
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };

	other_pid = 200;
	vdso_reuse = true;
	write_bundle(PTS_SOURCE_REFERENCE_ENCODER);
	vdso_reuse = false;
	other_pid = 0;
	CU_ASSERT_EQUAL_FATAL(pts_decode_bundle(bdir, NULL, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT_EQUAL(sum.insns, 20);
	CU_ASSERT_EQUAL(sum.gaps, 0);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

PTS_SUITE(decode_bundle, suite_init, suite_cleanup,
	  PTS_TEST(bundle_with_copied_binary_and_sideband_decodes_the_main_path),
	  PTS_TEST(syscall_records_name_the_untraced_stretches),
	  PTS_TEST(syscall_records_that_do_not_fit_are_counted_not_guessed),
	  PTS_TEST(shipped_sample_time_never_goes_backwards),
	  PTS_TEST(truncated_copy_of_a_binary_is_said_and_its_code_decodes_as_gaps),
	  PTS_TEST(threads_are_demultiplexed_across_cpus_by_the_sideband),
	  PTS_TEST(bundle_of_96_cpus_decodes_like_two),
	  PTS_TEST(bundle_of_1024_empty_rings_decodes_to_nothing),
	  PTS_TEST(changed_binary_is_a_warning_and_gaps),
	  PTS_TEST(executable_memory_of_no_file_is_said),
	  PTS_TEST(uncopied_binary_without_build_id_is_checked_by_size),
	  PTS_TEST(truncated_cpu_file_is_a_notice_a_gap_and_a_loss),
	  PTS_TEST(longer_cpu_file_decodes_the_recorded_bytes_only),
	  PTS_TEST(capture_problems_of_a_cpu_are_warnings),
	  PTS_TEST(summary_says_how_long_after_the_trigger_each_cpu_stopped),
	  PTS_TEST(exec_in_the_sideband_starts_the_new_program_on_an_empty_stack),
	  PTS_TEST(trace_start_names_the_thread_running_from_the_start),
	  PTS_TEST(lost_records_make_the_task_unknown_until_the_next_switch),
	  PTS_TEST(switch_to_a_task_outside_the_pid_namespace_is_no_process),
	  PTS_TEST(filter_range_exit_without_ip_binds_to_the_branch_out_skl014),
	  PTS_TEST(unknown_cpu_is_said_and_cpu_model_overrides_it_for_bundles),
	  PTS_TEST(time_pairs_check_and_refine_tsc_khz),
	  PTS_TEST(mtc_without_cpuid_15_is_said),
	  PTS_TEST(pip_selects_the_process_and_its_image_by_cr3_root),
	  PTS_TEST(cr3_names_a_process_by_root_and_kpti_kernel_root),
	  PTS_TEST(exec_splits_the_process_images_old_program_before_new_after),
	  PTS_TEST(code_unmapped_before_the_trigger_decodes_from_the_arm_maps),
	  PTS_TEST(process_without_maps_decodes_as_gaps_not_with_the_previous_image),
	  PTS_TEST(simulated_unit_code_decodes_in_a_task_without_maps),
	  PTS_TEST(host_file_the_bundle_does_not_record_is_used_but_said),
	  PTS_TEST(middle_program_decodes_with_the_maps_read_after_its_exec),
	  PTS_TEST(cr3_partial_capture_shows_only_the_traced_process),
	  PTS_TEST(switch_takes_effect_at_the_cr3_write_not_at_its_record),
	  PTS_TEST(zeroed_bundle_kallsyms_is_said_and_kallsyms_option_replaces_it),
	  PTS_TEST(vdso_of_an_exited_process_is_another_process_copy));
