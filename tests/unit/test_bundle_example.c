// SPDX-License-Identifier: GPL-2.0
/*
 * The reader against the hand-written example of docs/bundle-format.md
 * section 6 (tests/golden/bundle/example.ptscope). Every expected value
 * below is typed from the document, not produced by the writer; the
 * data files next to the manifest were made to the sizes the document
 * states (see tests/golden/bundle/README.md).
 */
#include "unit.h"
#include "bundle_fixture.h"

#include <string.h>

#include "bundle/bundle.h"

static struct pts_bundle *b;

static int example_init(void)
{
	struct pts_err err = { 0 };

	if (pts_bundle_read(bt_example_dir(), &b, &err)) {
		fprintf(stderr, "example bundle: %s\n", err.msg);
		b = NULL;
	}
	return 0;
}

static int example_cleanup(void)
{
	pts_bundle_free(b);
	return 0;
}

static void example_is_accepted_and_incomplete_with_its_reason(void)
{
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(b->version, 1);
	CU_ASSERT_FALSE(b->complete);
	CU_ASSERT_STRING_EQUAL(b->incomplete_reason,
		"copying /usr/lib/x86_64-linux-gnu/libc.so.6: No space left on device");
	CU_ASSERT_EQUAL(b->source, PTS_SOURCE_SIMULATED_UNIT);
	CU_ASSERT_STRING_EQUAL(b->producer, "ptscope 0.1");
	CU_ASSERT_STRING_EQUAL(b->hostname, "lab7");
	CU_ASSERT_STRING_EQUAL(b->kernel_release, "6.1.0-27-amd64");
	CU_ASSERT_PTR_NOT_NULL(strstr(b->dir, "example.ptscope"));
}

static void example_cpu_identity_and_raw_cpuid_leaves(void)
{
	const struct pts_bundle_cpu_id *id;

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	id = &b->cpu_id;
	CU_ASSERT_STRING_EQUAL(id->vendor, "GenuineIntel");
	CU_ASSERT_EQUAL(id->family, 6);
	CU_ASSERT_EQUAL(id->model, 85);
	CU_ASSERT_EQUAL(id->stepping, 4);
	CU_ASSERT_EQUAL(id->max_phys_addr, 46);
	CU_ASSERT_EQUAL(id->cpuid_14_0[0], 0x1);
	CU_ASSERT_EQUAL(id->cpuid_14_0[1], 0xf);
	CU_ASSERT_EQUAL(id->cpuid_14_0[2], 0x7);
	CU_ASSERT_EQUAL(id->cpuid_14_0[3], 0x0);
	CU_ASSERT_EQUAL(id->cpuid_14_1[0], 0x2490002);
	CU_ASSERT_EQUAL(id->cpuid_14_1[1], 0x3f3fff);
	CU_ASSERT_EQUAL(id->cpuid_14_1[2], 0);
	CU_ASSERT_EQUAL(id->cpuid_14_1[3], 0);
	CU_ASSERT_EQUAL(id->tsc_khz, 2095078);
}

static void example_config_has_exact_register_values(void)
{
	const struct pts_bundle_config *c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	c = &b->config;
	CU_ASSERT_EQUAL(c->scope, PTS_SCOPE_USER);
	CU_ASSERT_TRUE(c->snapshot);
	CU_ASSERT_EQUAL(c->rtit_ctl, 0x10000e789ULL);
	CU_ASSERT_EQUAL(c->cr3_match, 0x10a4e000ULL);
	CU_ASSERT_EQUAL(c->nr_addr, 1);
	CU_ASSERT_EQUAL(c->addr[0].a, 0x555555554000ULL);
	CU_ASSERT_EQUAL(c->addr[0].b, 0x555555558fffULL);
	CU_ASSERT_EQUAL(c->addr[0].cfg, 1);
	CU_ASSERT_EQUAL(c->buffer_size, 4096);
	CU_ASSERT_EQUAL(c->filter_pid, 4242);
	CU_ASSERT_FALSE(c->cr3_partial);
	CU_ASSERT_STRING_EQUAL(c->trigger_spec, "tracepoint:sched:sched_process_exit:pid=4242");
	CU_ASSERT_EQUAL(c->post_trigger_us, 50);
}

static void example_timing_inputs_and_time_pairs(void)
{
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(b->cpu_id.cpuid_15[0], 2);
	CU_ASSERT_EQUAL(b->cpu_id.cpuid_15[1], 0x134);	/* 308 */
	CU_ASSERT_EQUAL(b->cpu_id.cpuid_15[2], 0);
	CU_ASSERT_EQUAL(b->cpu_id.nom_freq, 37);
	CU_ASSERT_EQUAL(b->tsc_khz, 2095078);
	/* MTCFreq 3: RTIT_CTL bits 17:14 of 0x10000e789 (0xc000 >> 14). */
	CU_ASSERT_EQUAL(pts_bundle_mtc_freq(b), 3);
	CU_ASSERT_EQUAL_FATAL(b->nr_time_pairs, 2);
	CU_ASSERT_STRING_EQUAL(b->time_pairs[0].when, "start");
	CU_ASSERT_EQUAL(b->time_pairs[0].tsc, 1234567890123ULL);
	CU_ASSERT_EQUAL(b->time_pairs[0].realtime_ns, 1764370000000000000ULL);
	CU_ASSERT_EQUAL(b->time_pairs[0].monotonic_ns, 589000000000ULL);
	CU_ASSERT_STRING_EQUAL(b->time_pairs[1].when, "stop");
	CU_ASSERT_EQUAL(b->time_pairs[1].tsc, 1236662968123ULL);
	CU_ASSERT_EQUAL(b->time_pairs[1].realtime_ns, 1764370001000000000ULL);
	CU_ASSERT_EQUAL(b->time_pairs[1].monotonic_ns, 590000000000ULL);
}

static void example_trigger(void)
{
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_STRING_EQUAL(b->trigger.reason, "tracepoint");
	CU_ASSERT_STRING_EQUAL(b->trigger.detail, "sched:sched_process_exit");
	CU_ASSERT_EQUAL(b->trigger.tsc, 1236662000000ULL);
	CU_ASSERT_EQUAL(b->trigger.cpu, 1);
	CU_ASSERT_EQUAL(b->trigger.pid, 4242);
	CU_ASSERT_EQUAL(b->trigger.tid, 4242);
}

static void example_per_cpu_files_head_wrapped_status_flags(void)
{
	const struct pts_bundle_cpu *c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL_FATAL(b->nr_cpus, 2);
	c = &b->cpus[0];
	CU_ASSERT_EQUAL(c->cpu, 0);
	CU_ASSERT_STRING_EQUAL(c->file, "cpu0.pt");
	CU_ASSERT_EQUAL(c->size, 4096);
	CU_ASSERT_EQUAL(c->buffer_size, 4096);
	CU_ASSERT_EQUAL(c->head, 1024);
	CU_ASSERT_TRUE(c->wrapped);
	CU_ASSERT_EQUAL(c->rtit_status, 0x2);
	CU_ASSERT_EQUAL(c->flags, 0);
	CU_ASSERT_EQUAL(c->start_tsc, 1234567890000ULL);
	CU_ASSERT_EQUAL(c->stop_tsc, 1236662968000ULL);
	c = &b->cpus[1];
	CU_ASSERT_EQUAL(c->cpu, 1);
	CU_ASSERT_STRING_EQUAL(c->file, "cpu1.pt");
	CU_ASSERT_EQUAL(c->size, 40);
	CU_ASSERT_EQUAL(c->head, 40);
	CU_ASSERT_FALSE(c->wrapped);
	/* Error (bit 4) with PacketByteCnt 0x10 in bits 48:32. */
	CU_ASSERT_EQUAL(c->rtit_status, 0x1000000010ULL);
	CU_ASSERT_EQUAL(c->flags, PTS_CPUF_ERROR | PTS_CPUF_CLOBBERED);
	CU_ASSERT_EQUAL(c->start_tsc, 1234567890100ULL);
	CU_ASSERT_EQUAL(c->stop_tsc, 1236662968100ULL);
}

static void example_sideband_process_maps_and_vdso(void)
{
	const struct pts_bundle_process *p;

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_STRING_EQUAL(b->sideband_file, "sideband.bin");
	CU_ASSERT_EQUAL(b->sideband_size, 80);
	CU_ASSERT_EQUAL(b->sideband_lost, 2);
	CU_ASSERT_EQUAL_FATAL(b->nr_processes, 1);
	p = &b->processes[0];
	CU_ASSERT_EQUAL(p->pid, 4242);
	CU_ASSERT_STRING_EQUAL(p->comm, "true");
	CU_ASSERT_STRING_EQUAL(p->exe, "/usr/bin/true");
	CU_ASSERT_EQUAL(p->cr3, 0x10a4e000ULL);
	CU_ASSERT_EQUAL_FATAL(p->nr_maps_arm, 3);
	CU_ASSERT_EQUAL(p->maps_arm[1].start, 0x555555556000ULL);
	CU_ASSERT_EQUAL(p->maps_arm[1].end, 0x555555559000ULL);
	CU_ASSERT_EQUAL(p->maps_arm[1].pgoff, 0x2000);
	CU_ASSERT_STRING_EQUAL(p->maps_arm[1].perms, "r-xp");
	CU_ASSERT_EQUAL(p->maps_arm[1].dev_major, 8);
	CU_ASSERT_EQUAL(p->maps_arm[1].dev_minor, 1);
	CU_ASSERT_EQUAL(p->maps_arm[1].inode, 1835021);
	CU_ASSERT_STRING_EQUAL(p->maps_arm[1].path, "/usr/bin/true");
	/* dev and inode are optional: defaults 00:00 and 0 */
	CU_ASSERT_STRING_EQUAL(p->maps_arm[2].path, "[vdso]");
	CU_ASSERT_EQUAL(p->maps_arm[2].dev_major, 0);
	CU_ASSERT_EQUAL(p->maps_arm[2].inode, 0);
	CU_ASSERT_EQUAL_FATAL(p->nr_maps_trigger, 1);
	CU_ASSERT_EQUAL(p->maps_trigger[0].start, 0x555555556000ULL);
	CU_ASSERT_STRING_EQUAL(p->vdso_file, "vdso/4242.so");
	CU_ASSERT_EQUAL(p->vdso_size, 8);
	CU_ASSERT_EQUAL(p->vdso_addr, 0x7ffff7fc1000ULL);
	CU_ASSERT_EQUAL_FATAL(p->nr_tids, 2);
	CU_ASSERT_EQUAL(p->tids[0], 4242);
	CU_ASSERT_EQUAL(p->tids[1], 4243);
}

static void example_kernel_text_symbols_and_objects(void)
{
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_STRING_EQUAL(b->kallsyms_file, "kernel/kallsyms");
	CU_ASSERT_EQUAL(b->kallsyms_size, 59);
	CU_ASSERT_STRING_EQUAL(b->modules_file, "kernel/modules");
	CU_ASSERT_EQUAL(b->modules_size, 0);
	CU_ASSERT_EQUAL_FATAL(b->nr_ktext, 1);
	CU_ASSERT_STRING_EQUAL(b->ktext[0].name, "vmlinux");
	CU_ASSERT_STRING_EQUAL(b->ktext[0].file, "kernel/vmlinux.text");
	CU_ASSERT_EQUAL(b->ktext[0].size, 16);
	CU_ASSERT_EQUAL(b->ktext[0].vaddr, 0xffffffff81000000ULL);
	CU_ASSERT_EQUAL_FATAL(b->nr_objects, 2);
	CU_ASSERT_STRING_EQUAL(b->objects[0].path, "/usr/bin/true");
	CU_ASSERT_STRING_EQUAL(b->objects[0].file, "objects/usr/bin/true");
	CU_ASSERT_EQUAL(b->objects[0].size, 4);
	CU_ASSERT_STRING_EQUAL(b->objects[0].build_id, "0123456789abcdef0123456789abcdef01234567");
	/* not copied: only path and size */
	CU_ASSERT_STRING_EQUAL(b->objects[1].path, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	CU_ASSERT_PTR_NULL(b->objects[1].file);
	CU_ASSERT_EQUAL(b->objects[1].size, 1922136);
	CU_ASSERT_STRING_EQUAL(b->objects[1].build_id, "");
	CU_ASSERT_PTR_NULL(b->ground_truth_file);
}

PTS_SUITE(bundle_example, example_init, example_cleanup,
	  PTS_TEST(example_is_accepted_and_incomplete_with_its_reason),
	  PTS_TEST(example_cpu_identity_and_raw_cpuid_leaves),
	  PTS_TEST(example_config_has_exact_register_values),
	  PTS_TEST(example_timing_inputs_and_time_pairs),
	  PTS_TEST(example_trigger),
	  PTS_TEST(example_per_cpu_files_head_wrapped_status_flags),
	  PTS_TEST(example_sideband_process_maps_and_vdso),
	  PTS_TEST(example_kernel_text_symbols_and_objects))
