// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel code changed during a capture (docs/bundle-format.md 3.10):
 * hashed at arm and at the end by the capture (capture/ktext_hash.h),
 * recorded in the manifest, said by `decode --summary`.
 *
 * Expected values: CRC-32 of "123456789" is 0xcbf43926, the check value
 * of CRC-32/ISO-HDLC (the CRC catalogue); the rest is worked out by hand
 * from the ranges each test lays out.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundle/bundle.h"
#include "bundle_fixture.h"
#include "capture/ktext_hash.h"
#include "session/session.h"
#include "timeline/timeline.h"

static void crc32_is_the_iso_hdlc_crc(void)
{
	CU_ASSERT_EQUAL(pts_ktext_crc32("123456789", 9), 0xcbf43926u);
	CU_ASSERT_EQUAL(pts_ktext_crc32("", 0), 0);
}

static void ktext_add(struct pts_bundle *b, const char *name, uint64_t vaddr, uint64_t size,
		      uint32_t crc)
{
	struct pts_bundle_ktext *k;

	b->ktext = realloc(b->ktext, (b->nr_ktext + 1) * sizeof(*b->ktext));
	k = &b->ktext[b->nr_ktext++];
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->file = strdup("kernel/x.text");
	k->vaddr = vaddr;
	k->size = size;
	k->has_crc32 = true;
	k->crc32 = crc;
}

/*
 * At arm: vmlinux, ext4, bpf_prog_old. At the end: vmlinux (same bytes),
 * ext4 (patched), bpf_prog_new (loaded), and a BPF program at
 * bpf_prog_old's address with another size (replaced): 1 changed, 2
 * loaded, 1 gone.
 */
static void compare_tells_changed_loaded_and_unloaded_code(void)
{
	const struct pts_ktext_sum arm[] = {
		{ "vmlinux", 0xffffffff81000000ULL, 0xe00000, 0x11111111 },
		{ "ext4", 0xffffffffc0200000ULL, 0x40000, 0x22222222 },
		{ "bpf_prog_old", 0xffffffffc0100000ULL, 0x80, 0x33333333 },
	};
	struct pts_bundle *b = pts_bundle_new();
	size_t changed, loaded, gone;
	char text[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	ktext_add(b, "vmlinux", 0xffffffff81000000ULL, 0xe00000, 0x11111111);
	ktext_add(b, "ext4", 0xffffffffc0200000ULL, 0x40000, 0x22222223);
	ktext_add(b, "bpf_prog_new", 0xffffffffc0101000ULL, 0x100, 0x44444444);
	ktext_add(b, "bpf_prog_other", 0xffffffffc0100000ULL, 0xc0, 0x55555555);
	CU_ASSERT_EQUAL_FATAL(pts_ktext_compare(b, arm, 3), 0);
	CU_ASSERT_TRUE(b->ktext_hashed);
	CU_ASSERT_TRUE(b->ktext[0].has_crc32_arm);
	CU_ASSERT_EQUAL(b->ktext[0].crc32_arm, 0x11111111);
	CU_ASSERT_TRUE(b->ktext[1].has_crc32_arm);
	CU_ASSERT_EQUAL(b->ktext[1].crc32_arm, 0x22222222);
	CU_ASSERT_FALSE(b->ktext[2].has_crc32_arm);
	CU_ASSERT_FALSE(b->ktext[3].has_crc32_arm);
	CU_ASSERT_EQUAL_FATAL(b->nr_ktext_gone, 1);
	CU_ASSERT_STRING_EQUAL(b->ktext_gone[0].name, "bpf_prog_old");
	CU_ASSERT_EQUAL(b->ktext_gone[0].size, 0x80);
	pts_bundle_ktext_changes(b, &changed, &loaded, &gone);
	CU_ASSERT_EQUAL(changed, 1);
	CU_ASSERT_EQUAL(loaded, 2);
	CU_ASSERT_EQUAL(gone, 1);
	CU_ASSERT_EQUAL(pts_bundle_ktext_change_text(b, text, sizeof(text)), 4);
	CU_ASSERT_STRING_EQUAL(text, "1 changed: ext4; 2 loaded: bpf_prog_new, bpf_prog_other; "
			       "1 unloaded (no copy): bpf_prog_old");
	pts_bundle_free(b);
}

/* A writer that did not hash at arm says nothing, whatever text[] holds. */
static void no_arm_hashes_no_changes(void)
{
	struct pts_bundle *b = pts_bundle_new();
	size_t changed, loaded, gone;
	char text[64];

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	ktext_add(b, "vmlinux", 0xffffffff81000000ULL, 0x1000, 1);
	pts_bundle_ktext_changes(b, &changed, &loaded, &gone);
	CU_ASSERT_EQUAL(changed + loaded + gone, 0);
	CU_ASSERT_EQUAL(pts_bundle_ktext_change_text(b, text, sizeof(text)), 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	pts_bundle_free(b);
}

/* The sample bundle (user scope, no kernel text) with kernel text added by hand. */
static char *sample_with_kernel(const char *kernel_json)
{
	char *dir = bt_tmpdir(), cmd[1200], *from;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	snprintf(cmd, sizeof(cmd), "cp -r '%s/samples/demo.ptscope/.' '%s/' && mkdir -p '%s/kernel'",
		 pts_unit_src_dir(), dir, dir);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	CU_ASSERT_EQUAL_FATAL(bt_write_text(dir, "kernel/a.text", "0123456789abcdef"), 0);
	CU_ASSERT_EQUAL_FATAL(bt_write_text(dir, "kernel/b.text", "fedcba9876543210"), 0);
	from = "\"kernel\": {\n    \"text\": [\n    ]\n  }";
	CU_ASSERT_EQUAL_FATAL(bt_edit(dir, "manifest.json", from, kernel_json), 0);
	return dir;
}

static int drop(void *ctx, const struct pts_tl_rec *rec, struct pts_err *err)
{
	return 0;
}

static int decode_warnings(const char *dir, struct pts_decode_summary *sum)
{
	struct pts_err err = { 0 };
	int rc = pts_decode_bundle(dir, NULL, drop, NULL, sum, &err);

	if (rc)
		fprintf(stderr, "\n    %s\n", err.msg);
	return rc;
}

static const char *find_warning(const struct pts_decode_summary *sum, const char *s)
{
	unsigned int i;

	for (i = 0; i < sum->nr_warnings && i < PTS_DEC_MAX_WARNINGS; i++)
		if (strstr(sum->warnings[i], s))
			return sum->warnings[i];
	return NULL;
}

/*
 * A manifest written by hand as docs/bundle-format.md 3.10 says: vmlinux
 * changed (crc32 0x2 at the end, 0x1 at arm), mod_b the same, a BPF program
 * gone. decode --summary warns, naming each; with equal hashes and nothing
 * gone it does not.
 */
static void summary_warns_of_kernel_code_changed_during_the_capture(void)
{
	const char *changed =
		"\"kernel\": { \"text\": ["
		" { \"name\": \"vmlinux\", \"file\": \"kernel/a.text\", \"size\": 16,"
		"   \"vaddr\": \"0xffffffff81000000\", \"crc32\": \"0x2\", \"crc32_arm\": \"0x1\" },"
		" { \"name\": \"mod_b\", \"file\": \"kernel/b.text\", \"size\": 16,"
		"   \"vaddr\": \"0xffffffffc0000000\", \"crc32\": \"0x5\", \"crc32_arm\": \"0x5\" } ],"
		" \"text_hashed_at_arm\": true,"
		" \"text_gone\": [ { \"name\": \"bpf_prog_9\", \"vaddr\": \"0xffffffffc0100000\","
		"   \"size\": 128, \"crc32_arm\": \"0x7\" } ] }";
	const char *same =
		"\"kernel\": { \"text\": ["
		" { \"name\": \"vmlinux\", \"file\": \"kernel/a.text\", \"size\": 16,"
		"   \"vaddr\": \"0xffffffff81000000\", \"crc32\": \"0x2\", \"crc32_arm\": \"0x2\" } ],"
		" \"text_hashed_at_arm\": true, \"text_gone\": [] }";
	struct pts_decode_summary sum;
	const char *w;
	char *dir;

	dir = sample_with_kernel(changed);
	CU_ASSERT_EQUAL_FATAL(decode_warnings(dir, &sum), 0);
	w = find_warning(&sum, "kernel code changed during the capture");
	CU_ASSERT_PTR_NOT_NULL(w);
	if (w) {
		CU_ASSERT_PTR_NOT_NULL(strstr(w, "1 changed: vmlinux"));
		CU_ASSERT_PTR_NOT_NULL(strstr(w, "1 unloaded (no copy): bpf_prog_9"));
		CU_ASSERT_PTR_NULL(strstr(w, "mod_b"));
	}
	pts_decode_summary_free(&sum);
	bt_rmtree(dir);
	free(dir);

	dir = sample_with_kernel(same);
	CU_ASSERT_EQUAL_FATAL(decode_warnings(dir, &sum), 0);
	CU_ASSERT_PTR_NULL(find_warning(&sum, "kernel code changed"));
	pts_decode_summary_free(&sum);
	bt_rmtree(dir);
	free(dir);
}

/* The keys survive a write and a read. */
static void hashes_round_trip_through_the_manifest(void)
{
	const struct pts_ktext_sum arm[] = {
		{ "vmlinux", 0xffffffff81000000ULL, 16, 0xdeadbeef },
		{ "bpf_prog_9", 0xffffffffc0100000ULL, 128, 0x7 },
	};
	struct pts_bundle *b = pts_bundle_new(), *r = NULL;
	struct pts_err err = { 0 };
	char *dir = bt_tmpdir();

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	snprintf(b->producer, sizeof(b->producer), "test");
	CU_ASSERT_EQUAL_FATAL(pts_bundle_write_file(dir, "kernel/vmlinux.text", "0123456789abcdef",
						    16, &err), 0);
	ktext_add(b, "vmlinux", 0xffffffff81000000ULL, 16, 0x1234abcd);
	free(b->ktext[0].file);
	b->ktext[0].file = strdup("kernel/vmlinux.text");
	CU_ASSERT_EQUAL_FATAL(pts_ktext_compare(b, arm, 2), 0);
	CU_ASSERT_EQUAL_FATAL(pts_bundle_write_manifest(dir, b, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_bundle_read(dir, &r, &err), 0);
	CU_ASSERT_TRUE(r->ktext_hashed);
	CU_ASSERT_EQUAL_FATAL(r->nr_ktext, 1);
	CU_ASSERT_TRUE(r->ktext[0].has_crc32);
	CU_ASSERT_EQUAL(r->ktext[0].crc32, 0x1234abcd);
	CU_ASSERT_TRUE(r->ktext[0].has_crc32_arm);
	CU_ASSERT_EQUAL(r->ktext[0].crc32_arm, 0xdeadbeef);
	CU_ASSERT_EQUAL_FATAL(r->nr_ktext_gone, 1);
	CU_ASSERT_STRING_EQUAL(r->ktext_gone[0].name, "bpf_prog_9");
	CU_ASSERT_EQUAL(r->ktext_gone[0].vaddr, 0xffffffffc0100000ULL);
	CU_ASSERT_EQUAL(r->ktext_gone[0].size, 128);
	CU_ASSERT_EQUAL(r->ktext_gone[0].crc32_arm, 0x7);
	pts_bundle_free(b);
	pts_bundle_free(r);
	bt_rmtree(dir);
	free(dir);
}

PTS_SUITE(ktext_changes, NULL, NULL,
	  PTS_TEST(crc32_is_the_iso_hdlc_crc),
	  PTS_TEST(compare_tells_changed_loaded_and_unloaded_code),
	  PTS_TEST(no_arm_hashes_no_changes),
	  PTS_TEST(summary_warns_of_kernel_code_changed_during_the_capture),
	  PTS_TEST(hashes_round_trip_through_the_manifest))
