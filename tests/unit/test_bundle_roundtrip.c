// SPDX-License-Identifier: GPL-2.0
/*
 * Write then read a bundle with every field of struct pts_bundle set, and
 * compare field by field against the values this test chose (not against
 * anything the writer produced). Values are picked to catch the classic
 * losses: 64-bit registers above 2^53 (a JSON double would round them),
 * integers above INT64_MAX, negative pids, strings at their maximum length,
 * paths with spaces, every CPU flag, all four address ranges.
 */
#include "unit.h"
#include "bundle_fixture.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <json-c/json.h>

#include "bundle/bundle.h"
#include "ptscope/rtit.h"

static char *dir;

/* RTIT_CTL for scope both, ADDR0..3 cfg 1,2,0,1, MTCFreq 9, PSBFreq 5. */
#define RT_CTL (RTIT_CTL_TRACEEN | RTIT_CTL_OS | RTIT_CTL_USER | RTIT_CTL_TOPA | \
		RTIT_CTL_BRANCHEN | RTIT_CTL_TSCEN | RTIT_CTL_MTCEN |	\
		(9ULL << RTIT_CTL_MTCFREQ_SHIFT) | (5ULL << RTIT_CTL_PSBFREQ_SHIFT) | \
		(1ULL << RTIT_CTL_ADDR_CFG_SHIFT(0)) | (2ULL << RTIT_CTL_ADDR_CFG_SHIFT(1)) | \
		(1ULL << RTIT_CTL_ADDR_CFG_SHIFT(3)))

static const char LONG_PATH[] = "/opt/my app/lib with spaces/libx.so (deleted)";

static struct pts_bundle_map *maps(size_t n, uint64_t base)
{
	struct pts_bundle_map *m = calloc(n, sizeof(*m));
	size_t i;

	for (i = 0; i < n; i++) {
		m[i].start = base + i * 0x10000;
		m[i].end = base + i * 0x10000 + 0x3000;
		m[i].pgoff = i * 0x1000;
		strcpy(m[i].perms, i % 2 ? "r-xp" : "rw-s");
		m[i].path = strdup(i == 0 ? LONG_PATH : i == 1 ? "[vdso]" : "");
		m[i].dev_major = i == 0 ? 0x103 : 0;
		m[i].dev_minor = i == 0 ? 0xfe : 0;
		m[i].inode = i == 0 ? 18446744073709551557ULL : 0;
	}
	return m;
}

static int write_data(const char *name, size_t len, struct pts_err *err)
{
	char *buf = malloc(len ? len : 1);
	size_t i;
	int rc;

	for (i = 0; i < len; i++)
		buf[i] = (char)(i * 7 + 1);
	rc = pts_bundle_write_file(dir, name, buf, len, err);
	free(buf);
	return rc;
}

/* The fully populated bundle; data files are written into dir. */
static struct pts_bundle *populate(void)
{
	struct pts_bundle *b = pts_bundle_new();
	struct pts_err err = { 0 };
	struct iovec iov[2];
	char seg1[3000], seg2[1096], src[4096];
	size_t i;

	memset(seg1, 0xa5, sizeof(seg1));
	memset(seg2, 0x5a, sizeof(seg2));
	b->complete = true;
	strcpy(b->incomplete_reason, "");
	b->source = PTS_SOURCE_REFERENCE_ENCODER;
	strcpy(b->producer, "ptsynth 0.1");
	strcpy(b->hostname, "host-with-a-63-character-name-0123456789abcdef0123456789abcdefg");
	strcpy(b->kernel_release, "6.12.9+bpo-amd64");
	strcpy(b->cpu_id.vendor, "GenuineIntel");
	b->cpu_id.family = 6;
	b->cpu_id.model = 0x8f;
	b->cpu_id.stepping = 8;
	b->cpu_id.max_phys_addr = 52;
	for (i = 0; i < 4; i++) {
		b->cpu_id.cpuid_14_0[i] = 0xfffffff0u + (uint32_t)i;
		b->cpu_id.cpuid_14_1[i] = 0x80000000u >> i;
	}
	b->cpu_id.cpuid_15[0] = 2;
	b->cpu_id.cpuid_15[1] = 176;
	b->cpu_id.cpuid_15[2] = 25000000;
	b->cpu_id.nom_freq = 20;
	b->cpu_id.tsc_khz = 1999999;
	b->config.scope = PTS_SCOPE_BOTH;
	b->config.snapshot = false;
	b->config.rtit_ctl = RT_CTL;
	b->config.cr3_match = 0xfffffffffffff000ULL;
	b->config.nr_addr = 4;
	for (i = 0; i < 4; i++) {
		b->config.addr[i].a = 0xffff800000000000ULL + i;
		b->config.addr[i].b = 0x00007fffffffffffULL - i;
	}
	b->config.addr[0].cfg = 1;
	b->config.addr[1].cfg = 2;
	b->config.addr[2].cfg = 0;
	b->config.addr[3].cfg = 1;
	b->config.buffer_size = 4096;
	b->config.filter_pid = 2147483647;
	strcpy(b->config.trigger_spec, "hotkey:t");
	b->config.post_trigger_us = 4000000000u;
	b->config.cr3_partial = true;
	b->tsc_khz = 2000001;
	b->nr_time_pairs = 3;
	b->time_pairs = calloc(3, sizeof(*b->time_pairs));
	strcpy(b->time_pairs[0].when, "start");
	b->time_pairs[0].tsc = (1ULL << 53) + 1;		/* not a double */
	b->time_pairs[0].realtime_ns = 18446744073709551615ULL; /* > INT64_MAX */
	b->time_pairs[0].monotonic_ns = 0;
	strcpy(b->time_pairs[1].when, "stop");
	b->time_pairs[1].tsc = 9007199254740993ULL;
	b->time_pairs[1].realtime_ns = 1764370001000000001ULL;
	b->time_pairs[1].monotonic_ns = 590000000001ULL;
	strcpy(b->time_pairs[2].when, "free text 15 ch");
	b->time_pairs[2].tsc = 1;
	strcpy(b->trigger.reason, "hotkey");
	strcpy(b->trigger.detail, "sysrq t");
	b->trigger.tsc = 0xfedcba9876543210ULL;
	b->trigger.cpu = -1;
	b->trigger.pid = -1;
	b->trigger.tid = -2147483647 - 1;

	b->nr_cpus = 2;
	b->cpus = calloc(2, sizeof(*b->cpus));
	/* CPU 3: a wrapped ring written as two segments (ring.h order) */
	iov[0].iov_base = seg1;
	iov[0].iov_len = sizeof(seg1);
	iov[1].iov_base = seg2;
	iov[1].iov_len = sizeof(seg2);
	CU_ASSERT_EQUAL(pts_bundle_write_filev(dir, "cpu3.pt", iov, 2, &err), 0);
	b->cpus[0].cpu = 3;
	strcpy(b->cpus[0].file, "cpu3.pt");
	b->cpus[0].size = 4096;
	b->cpus[0].buffer_size = 4096;
	b->cpus[0].head = 1096;
	b->cpus[0].wrapped = true;
	b->cpus[0].rtit_status = 0x0001ffff000000f7ULL;
	b->cpus[0].flags = PTS_CPUF_ERROR | PTS_CPUF_STOPPED | PTS_CPUF_CLOBBERED |
			   PTS_CPUF_OFFLINED | PTS_CPUF_MSR_FAULT;
	b->cpus[0].start_tsc = 0x8000000000000001ULL;
	b->cpus[0].stop_tsc = 0xffffffffffffffffULL;
	/* CPU 0: empty, never wrote anything */
	CU_ASSERT_EQUAL(write_data("cpu0.pt", 0, &err), 0);
	b->cpus[1].cpu = 0;
	strcpy(b->cpus[1].file, "cpu0.pt");
	b->cpus[1].buffer_size = 4096;

	CU_ASSERT_EQUAL(write_data("sb/side band.bin", 48, &err), 0);
	b->sideband_file = strdup("sb/side band.bin");
	b->sideband_size = 48;
	b->sideband_lost = 123456789012ULL;

	b->nr_processes = 2;
	b->processes = calloc(2, sizeof(*b->processes));
	b->processes[0].pid = 1;
	strcpy(b->processes[0].comm, "fifteen-chars-x");
	b->processes[0].exe = strdup("/usr/lib/systemd/systemd");
	b->processes[0].cr3 = 0x000ffffffffff000ULL;
	b->processes[0].nr_maps_arm = 3;
	b->processes[0].maps_arm = maps(3, 0x7f0000000000ULL);
	b->processes[0].nr_maps_trigger = 2;
	b->processes[0].maps_trigger = maps(2, 0x550000000000ULL);
	CU_ASSERT_EQUAL(write_data("vdso/1.so", 8192, &err), 0);
	b->processes[0].vdso_file = strdup("vdso/1.so");
	b->processes[0].vdso_addr = 0x7ffd12345000ULL;
	b->processes[0].vdso_size = 8192;
	b->processes[0].nr_tids = 3;
	b->processes[0].tids = calloc(3, sizeof(int32_t));
	b->processes[0].tids[0] = 1;
	b->processes[0].tids[1] = 2147483647;
	b->processes[0].tids[2] = 77;
	/* a second process with nothing optional */
	b->processes[1].pid = 99;
	strcpy(b->processes[1].comm, "kworker/0:1");

	CU_ASSERT_EQUAL(write_data("kernel/kallsyms", 100, &err), 0);
	b->kallsyms_file = strdup("kernel/kallsyms");
	b->kallsyms_size = 100;
	CU_ASSERT_EQUAL(write_data("kernel/modules", 33, &err), 0);
	b->modules_file = strdup("kernel/modules");
	/* modules_size left 0: the writer takes the file's size (33) */
	b->nr_ktext = 2;
	b->ktext = calloc(2, sizeof(*b->ktext));
	CU_ASSERT_EQUAL(write_data("kernel/vmlinux.text", 4096, &err), 0);
	strcpy(b->ktext[0].name, "vmlinux");
	b->ktext[0].file = strdup("kernel/vmlinux.text");
	b->ktext[0].vaddr = 0xffffffff81000000ULL;
	b->ktext[0].size = 4096;
	CU_ASSERT_EQUAL(write_data("kernel/nf_tables.text", 17, &err), 0);
	strcpy(b->ktext[1].name, "nf_tables");
	b->ktext[1].file = strdup("kernel/nf_tables.text");
	b->ktext[1].vaddr = 0xffffffffc0a00000ULL;
	b->ktext[1].size = 17;

	/* an object copied with pts_bundle_copy_file from outside the bundle */
	snprintf(src, sizeof(src), "%s/kernel/vmlinux.text", dir);
	b->nr_objects = 2;
	b->objects = calloc(2, sizeof(*b->objects));
	b->objects[0].path = strdup("/usr/lib/systemd/systemd");
	b->objects[0].file = strdup("objects/usr/lib/systemd/systemd");
	CU_ASSERT_EQUAL(pts_bundle_copy_file(dir, b->objects[0].file, src,
					     &b->objects[0].size, &err), 0);
	strcpy(b->objects[0].build_id, "ffeeddccbbaa99887766554433221100ffeeddcc");
	b->objects[1].path = strdup(LONG_PATH);
	b->objects[1].size = 0x123456789ULL;

	CU_ASSERT_EQUAL(write_data("ground-truth.txt", 5, &err), 0);
	b->ground_truth_file = strdup("ground-truth.txt");
	b->ground_truth_size = 5;
	return b;
}

static int rt_init(void)
{
	dir = bt_tmpdir();
	return dir ? 0 : 1;
}

static int rt_cleanup(void)
{
	bt_rmtree(dir);
	free(dir);
	return 0;
}

static void check_maps(const struct pts_bundle_map *m, size_t n, uint64_t base)
{
	size_t i;

	for (i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(m[i].start, base + i * 0x10000);
		CU_ASSERT_EQUAL(m[i].end, base + i * 0x10000 + 0x3000);
		CU_ASSERT_EQUAL(m[i].pgoff, i * 0x1000);
		CU_ASSERT_STRING_EQUAL(m[i].perms, i % 2 ? "r-xp" : "rw-s");
		CU_ASSERT_STRING_EQUAL(m[i].path, i == 0 ? LONG_PATH : i == 1 ? "[vdso]" : "");
		CU_ASSERT_EQUAL(m[i].dev_major, i == 0 ? 0x103u : 0u);
		CU_ASSERT_EQUAL(m[i].dev_minor, i == 0 ? 0xfeu : 0u);
		CU_ASSERT_EQUAL(m[i].inode, i == 0 ? 18446744073709551557ULL : 0);
	}
}

static void every_field_survives_write_then_read(void)
{
	struct pts_bundle *w = populate(), *b = NULL;
	struct pts_err err = { 0 };
	size_t i;

	CU_ASSERT_EQUAL_FATAL(pts_bundle_write_manifest(dir, w, &err), 0);
	pts_bundle_free(w);
	CU_ASSERT_EQUAL_FATAL(pts_bundle_read(dir, &b, &err), 0);

	CU_ASSERT_STRING_EQUAL(b->dir, dir);
	CU_ASSERT_EQUAL(b->version, 1);
	CU_ASSERT_TRUE(b->complete);
	CU_ASSERT_STRING_EQUAL(b->incomplete_reason, "");
	CU_ASSERT_EQUAL(b->source, PTS_SOURCE_REFERENCE_ENCODER);
	CU_ASSERT_STRING_EQUAL(b->producer, "ptsynth 0.1");
	CU_ASSERT_STRING_EQUAL(b->hostname,
		"host-with-a-63-character-name-0123456789abcdef0123456789abcdefg");
	CU_ASSERT_STRING_EQUAL(b->kernel_release, "6.12.9+bpo-amd64");
	CU_ASSERT_STRING_EQUAL(b->cpu_id.vendor, "GenuineIntel");
	CU_ASSERT_EQUAL(b->cpu_id.family, 6);
	CU_ASSERT_EQUAL(b->cpu_id.model, 0x8f);
	CU_ASSERT_EQUAL(b->cpu_id.stepping, 8);
	CU_ASSERT_EQUAL(b->cpu_id.max_phys_addr, 52);
	for (i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(b->cpu_id.cpuid_14_0[i], 0xfffffff0u + i);
		CU_ASSERT_EQUAL(b->cpu_id.cpuid_14_1[i], 0x80000000u >> i);
	}
	CU_ASSERT_EQUAL(b->cpu_id.cpuid_15[0], 2);
	CU_ASSERT_EQUAL(b->cpu_id.cpuid_15[1], 176);
	CU_ASSERT_EQUAL(b->cpu_id.cpuid_15[2], 25000000);
	CU_ASSERT_EQUAL(b->cpu_id.nom_freq, 20);
	CU_ASSERT_EQUAL(b->cpu_id.tsc_khz, 1999999);

	CU_ASSERT_EQUAL(b->config.scope, PTS_SCOPE_BOTH);
	CU_ASSERT_FALSE(b->config.snapshot);
	CU_ASSERT_EQUAL(b->config.rtit_ctl, RT_CTL);
	CU_ASSERT_EQUAL(b->config.cr3_match, 0xfffffffffffff000ULL);
	CU_ASSERT_EQUAL_FATAL(b->config.nr_addr, 4);
	for (i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(b->config.addr[i].a, 0xffff800000000000ULL + i);
		CU_ASSERT_EQUAL(b->config.addr[i].b, 0x00007fffffffffffULL - i);
	}
	CU_ASSERT_EQUAL(b->config.addr[0].cfg, 1);
	CU_ASSERT_EQUAL(b->config.addr[1].cfg, 2);
	CU_ASSERT_EQUAL(b->config.addr[2].cfg, 0);
	CU_ASSERT_EQUAL(b->config.addr[3].cfg, 1);
	CU_ASSERT_EQUAL(b->config.buffer_size, 4096);
	CU_ASSERT_EQUAL(b->config.filter_pid, 2147483647);
	CU_ASSERT_STRING_EQUAL(b->config.trigger_spec, "hotkey:t");
	CU_ASSERT_EQUAL(b->config.post_trigger_us, 4000000000u);
	CU_ASSERT_TRUE(b->config.cr3_partial);
	CU_ASSERT_EQUAL(b->tsc_khz, 2000001);
	CU_ASSERT_EQUAL(pts_bundle_mtc_freq(b), 9);

	CU_ASSERT_EQUAL_FATAL(b->nr_time_pairs, 3);
	CU_ASSERT_STRING_EQUAL(b->time_pairs[0].when, "start");
	CU_ASSERT_EQUAL(b->time_pairs[0].tsc, (1ULL << 53) + 1);
	CU_ASSERT_EQUAL(b->time_pairs[0].realtime_ns, 18446744073709551615ULL);
	CU_ASSERT_EQUAL(b->time_pairs[0].monotonic_ns, 0);
	CU_ASSERT_STRING_EQUAL(b->time_pairs[1].when, "stop");
	CU_ASSERT_EQUAL(b->time_pairs[1].tsc, 9007199254740993ULL);
	CU_ASSERT_EQUAL(b->time_pairs[1].realtime_ns, 1764370001000000001ULL);
	CU_ASSERT_EQUAL(b->time_pairs[1].monotonic_ns, 590000000001ULL);
	CU_ASSERT_STRING_EQUAL(b->time_pairs[2].when, "free text 15 ch");
	CU_ASSERT_EQUAL(b->time_pairs[2].tsc, 1);

	CU_ASSERT_STRING_EQUAL(b->trigger.reason, "hotkey");
	CU_ASSERT_STRING_EQUAL(b->trigger.detail, "sysrq t");
	CU_ASSERT_EQUAL(b->trigger.tsc, 0xfedcba9876543210ULL);
	CU_ASSERT_EQUAL(b->trigger.cpu, -1);
	CU_ASSERT_EQUAL(b->trigger.pid, -1);
	CU_ASSERT_EQUAL(b->trigger.tid, -2147483647 - 1);

	CU_ASSERT_EQUAL_FATAL(b->nr_cpus, 2);
	CU_ASSERT_EQUAL(b->cpus[0].cpu, 3);
	CU_ASSERT_STRING_EQUAL(b->cpus[0].file, "cpu3.pt");
	CU_ASSERT_EQUAL(b->cpus[0].size, 4096);
	CU_ASSERT_EQUAL(b->cpus[0].buffer_size, 4096);
	CU_ASSERT_EQUAL(b->cpus[0].head, 1096);
	CU_ASSERT_TRUE(b->cpus[0].wrapped);
	CU_ASSERT_EQUAL(b->cpus[0].rtit_status, 0x0001ffff000000f7ULL);
	CU_ASSERT_EQUAL(b->cpus[0].flags, 0x1f);
	CU_ASSERT_EQUAL(b->cpus[0].start_tsc, 0x8000000000000001ULL);
	CU_ASSERT_EQUAL(b->cpus[0].stop_tsc, 0xffffffffffffffffULL);
	CU_ASSERT_EQUAL(b->cpus[1].cpu, 0);
	CU_ASSERT_STRING_EQUAL(b->cpus[1].file, "cpu0.pt");
	CU_ASSERT_EQUAL(b->cpus[1].size, 0);
	CU_ASSERT_EQUAL(b->cpus[1].head, 0);
	CU_ASSERT_FALSE(b->cpus[1].wrapped);
	CU_ASSERT_EQUAL(b->cpus[1].flags, 0);

	CU_ASSERT_STRING_EQUAL(b->sideband_file, "sb/side band.bin");
	CU_ASSERT_EQUAL(b->sideband_size, 48);
	CU_ASSERT_EQUAL(b->sideband_lost, 123456789012ULL);

	CU_ASSERT_EQUAL_FATAL(b->nr_processes, 2);
	CU_ASSERT_EQUAL(b->processes[0].pid, 1);
	CU_ASSERT_STRING_EQUAL(b->processes[0].comm, "fifteen-chars-x");
	CU_ASSERT_STRING_EQUAL(b->processes[0].exe, "/usr/lib/systemd/systemd");
	CU_ASSERT_EQUAL(b->processes[0].cr3, 0x000ffffffffff000ULL);
	CU_ASSERT_EQUAL_FATAL(b->processes[0].nr_maps_arm, 3);
	check_maps(b->processes[0].maps_arm, 3, 0x7f0000000000ULL);
	CU_ASSERT_EQUAL_FATAL(b->processes[0].nr_maps_trigger, 2);
	check_maps(b->processes[0].maps_trigger, 2, 0x550000000000ULL);
	CU_ASSERT_STRING_EQUAL(b->processes[0].vdso_file, "vdso/1.so");
	CU_ASSERT_EQUAL(b->processes[0].vdso_addr, 0x7ffd12345000ULL);
	CU_ASSERT_EQUAL(b->processes[0].vdso_size, 8192);
	CU_ASSERT_EQUAL_FATAL(b->processes[0].nr_tids, 3);
	CU_ASSERT_EQUAL(b->processes[0].tids[0], 1);
	CU_ASSERT_EQUAL(b->processes[0].tids[1], 2147483647);
	CU_ASSERT_EQUAL(b->processes[0].tids[2], 77);
	CU_ASSERT_EQUAL(b->processes[1].pid, 99);
	CU_ASSERT_STRING_EQUAL(b->processes[1].comm, "kworker/0:1");
	CU_ASSERT_PTR_NULL(b->processes[1].exe);
	CU_ASSERT_EQUAL(b->processes[1].cr3, 0);
	CU_ASSERT_EQUAL(b->processes[1].nr_maps_arm, 0);
	CU_ASSERT_EQUAL(b->processes[1].nr_maps_trigger, 0);
	CU_ASSERT_PTR_NULL(b->processes[1].vdso_file);
	CU_ASSERT_EQUAL(b->processes[1].nr_tids, 0);

	CU_ASSERT_STRING_EQUAL(b->kallsyms_file, "kernel/kallsyms");
	CU_ASSERT_EQUAL(b->kallsyms_size, 100);
	CU_ASSERT_STRING_EQUAL(b->modules_file, "kernel/modules");
	CU_ASSERT_EQUAL(b->modules_size, 33);
	CU_ASSERT_EQUAL_FATAL(b->nr_ktext, 2);
	CU_ASSERT_STRING_EQUAL(b->ktext[0].name, "vmlinux");
	CU_ASSERT_STRING_EQUAL(b->ktext[0].file, "kernel/vmlinux.text");
	CU_ASSERT_EQUAL(b->ktext[0].vaddr, 0xffffffff81000000ULL);
	CU_ASSERT_EQUAL(b->ktext[0].size, 4096);
	CU_ASSERT_STRING_EQUAL(b->ktext[1].name, "nf_tables");
	CU_ASSERT_EQUAL(b->ktext[1].vaddr, 0xffffffffc0a00000ULL);
	CU_ASSERT_EQUAL(b->ktext[1].size, 17);

	CU_ASSERT_EQUAL_FATAL(b->nr_objects, 2);
	CU_ASSERT_STRING_EQUAL(b->objects[0].path, "/usr/lib/systemd/systemd");
	CU_ASSERT_STRING_EQUAL(b->objects[0].file, "objects/usr/lib/systemd/systemd");
	CU_ASSERT_EQUAL(b->objects[0].size, 4096);
	CU_ASSERT_STRING_EQUAL(b->objects[0].build_id, "ffeeddccbbaa99887766554433221100ffeeddcc");
	CU_ASSERT_STRING_EQUAL(b->objects[1].path, LONG_PATH);
	CU_ASSERT_PTR_NULL(b->objects[1].file);
	CU_ASSERT_EQUAL(b->objects[1].size, 0x123456789ULL);
	CU_ASSERT_STRING_EQUAL(b->objects[1].build_id, "");

	CU_ASSERT_STRING_EQUAL(b->ground_truth_file, "ground-truth.txt");
	CU_ASSERT_EQUAL(b->ground_truth_size, 5);
	pts_bundle_free(b);
}

/* The data bytes themselves: segments land in order, copies are exact. */
static void data_files_hold_the_bytes_given(void)
{
	char path[4096], *data;
	size_t len, i;
	int bad = 0;

	snprintf(path, sizeof(path), "%s/cpu3.pt", dir);
	data = bt_read_file(path, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(data);
	CU_ASSERT_EQUAL_FATAL(len, 4096);
	for (i = 0; i < len; i++)
		bad += (unsigned char)data[i] != (i < 3000 ? 0xa5 : 0x5a);
	CU_ASSERT_EQUAL(bad, 0);
	free(data);
	snprintf(path, sizeof(path), "%s/objects/usr/lib/systemd/systemd", dir);
	data = bt_read_file(path, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(data);
	CU_ASSERT_EQUAL(len, 4096);
	CU_ASSERT_EQUAL((unsigned char)data[0], 1);
	CU_ASSERT_EQUAL((unsigned char)data[1], 8);
	free(data);
}

/*
 * The JSON types the document prescribes (section 2): registers and
 * addresses are "0x..." strings, sizes and TSC are integers, flags are
 * names. Checked on the raw manifest text with json-c, not with our reader.
 */
static void manifest_uses_the_documented_json_types(void)
{
	char path[4096];
	json_object *root, *o, *v, *cpu0, *a;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	root = json_object_from_file(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	CU_ASSERT_TRUE(json_object_object_get_ex(root, "format", &v));
	CU_ASSERT_STRING_EQUAL(json_object_get_string(v), "ptscope-bundle");
	CU_ASSERT_TRUE(json_object_object_get_ex(root, "version", &v));
	CU_ASSERT_EQUAL(json_object_get_type(v), json_type_int);
	CU_ASSERT_EQUAL(json_object_get_int(v), 1);
	CU_ASSERT_TRUE(json_object_object_get_ex(root, "source", &v));
	CU_ASSERT_STRING_EQUAL(json_object_get_string(v), "reference-encoder");
	CU_ASSERT_TRUE_FATAL(json_object_object_get_ex(root, "config", &o));
	CU_ASSERT_TRUE(json_object_object_get_ex(o, "rtit_ctl", &v));
	CU_ASSERT_EQUAL(json_object_get_type(v), json_type_string);
	/*
	 * RT_CTL by hand: 0xd (bits 0,2,3) + 0x700 (8,9,10) + 0x2000 (13) +
	 * 0x24000 (MTCFreq 9 << 14) + 0x5000000 (PSBFreq 5 << 24) + 1 << 32 +
	 * 2 << 36 + 1 << 44 (ADDR0/1/3_CFG).
	 */
	CU_ASSERT_STRING_EQUAL(json_object_get_string(v), "0x10210502670d");
	CU_ASSERT_TRUE(json_object_object_get_ex(o, "scope", &v));
	CU_ASSERT_STRING_EQUAL(json_object_get_string(v), "both");
	CU_ASSERT_TRUE(json_object_object_get_ex(o, "mode", &v));
	CU_ASSERT_STRING_EQUAL(json_object_get_string(v), "full");
	CU_ASSERT_TRUE_FATAL(json_object_object_get_ex(root, "cpus", &a));
	cpu0 = json_object_array_get_idx(a, 0);
	CU_ASSERT_TRUE(json_object_object_get_ex(cpu0, "size", &v));
	CU_ASSERT_EQUAL(json_object_get_type(v), json_type_int);
	CU_ASSERT_TRUE(json_object_object_get_ex(cpu0, "stop_tsc", &v));
	CU_ASSERT_EQUAL(json_object_get_type(v), json_type_int);
	CU_ASSERT_EQUAL(json_object_get_uint64(v), 0xffffffffffffffffULL);
	CU_ASSERT_TRUE(json_object_object_get_ex(cpu0, "rtit_status", &v));
	CU_ASSERT_STRING_EQUAL(json_object_get_string(v), "0x1ffff000000f7");
	CU_ASSERT_TRUE(json_object_object_get_ex(cpu0, "flags", &v));
	CU_ASSERT_EQUAL_FATAL(json_object_array_length(v), 5);
	CU_ASSERT_STRING_EQUAL(json_object_get_string(json_object_array_get_idx(v, 0)), "error");
	CU_ASSERT_STRING_EQUAL(json_object_get_string(json_object_array_get_idx(v, 4)), "msr_fault");
	CU_ASSERT_TRUE_FATAL(json_object_object_get_ex(root, "timing", &o));
	CU_ASSERT_TRUE(json_object_object_get_ex(o, "mtc_freq", &v));
	CU_ASSERT_EQUAL(json_object_get_int(v), 9);
	CU_ASSERT_TRUE(json_object_object_get_ex(o, "cpuid_15", &v));
	CU_ASSERT_STRING_EQUAL(json_object_get_string(json_object_array_get_idx(v, 1)), "0xb0");
	json_object_put(root);
}

PTS_SUITE(bundle_roundtrip, rt_init, rt_cleanup,
	  PTS_TEST(every_field_survives_write_then_read),
	  PTS_TEST(data_files_hold_the_bytes_given),
	  PTS_TEST(manifest_uses_the_documented_json_types))
