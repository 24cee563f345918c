// SPDX-License-Identifier: GPL-2.0
/*
 * A loaded module's code extent (capture/kmodtext.h). The layouts are
 * written by hand after the kernel's module loader: Linux 6.1 puts a
 * module's code, read-only data and data in one allocation (code first,
 * read-only data from a page boundary); from 6.4 (struct module_memory)
 * each kind has its own allocation and /proc/modules gives the code's
 * base with the size of all of them. /proc/vmallocinfo lines follow
 * mm/vmalloc.c's s_show() ("0x%pK-0x%pK %7ld %pS pages=%d ...").
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/kernel.h"
#include "capture/kmodtext.h"

#define A_TEXT 0xffffffffc0a00000ULL	/* module a's code allocation (6.4+ layout) */
#define B_TEXT 0xffffffffc0a03000ULL	/* module b's, right after a's and its guard page */

static void section_names_that_are_code(void)
{
	CU_ASSERT_TRUE(pts_ksection_is_text(".text"));
	CU_ASSERT_TRUE(pts_ksection_is_text(".text.unlikely"));
	CU_ASSERT_TRUE(pts_ksection_is_text(".noinstr.text"));
	CU_ASSERT_TRUE(pts_ksection_is_text(".exit.text"));
	CU_ASSERT_TRUE(pts_ksection_is_text(".altinstr_replacement"));
	CU_ASSERT_TRUE(pts_ksection_is_text(".altinstr_aux"));
	CU_ASSERT_FALSE(pts_ksection_is_text(".altinstructions"));
	CU_ASSERT_FALSE(pts_ksection_is_text(".init.text"));
	CU_ASSERT_FALSE(pts_ksection_is_text(".rodata"));
	CU_ASSERT_FALSE(pts_ksection_is_text(".data"));
	CU_ASSERT_FALSE(pts_ksection_is_text("__ksymtab"));
	CU_ASSERT_FALSE(pts_ksection_is_text(".static_call_sites"));
}

static void vmallocinfo_gives_each_area_its_mapped_pages(void)
{
	const char *vi =
		"0xffffc90000000000-0xffffc90000002000    8192 hpet_enable+0x3d/0x2b0 phys=0x00000000fed00000 ioremap\n"
		"0xffffffffc0a00000-0xffffffffc0a03000   12288 execmem_alloc+0x8f/0x130 pages=2 vmalloc N0=2\n"
		"0xffffffffc0a03000-0xffffffffc0a06000   12288 execmem_alloc+0x8f/0x130 pages=2 vmalloc N0=2\n"
		"not an area\n"
		"0xffffc90000100000-0xffffc90000105000   20480 unpurged vm_area\n";
	struct pts_vmarea *v = NULL;
	size_t n = 0;

	CU_ASSERT_EQUAL_FATAL(pts_vmallocinfo_parse(vi, strlen(vi), &v, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	/* sorted by start; without pages= the guard page is left out */
	CU_ASSERT_EQUAL(v[0].start, 0xffffc90000000000ULL);
	CU_ASSERT_EQUAL(v[0].end, 0xffffc90000001000ULL);
	CU_ASSERT_EQUAL(v[1].end, 0xffffc90000104000ULL);
	CU_ASSERT_EQUAL(v[2].start, A_TEXT);
	CU_ASSERT_EQUAL(v[2].end, A_TEXT + 0x2000);
	CU_ASSERT_EQUAL(v[3].start, B_TEXT);
	free(v);
}

/*
 * ptscope.ko for 6.12 as built here (readelf -S): .text 0xb860 bytes,
 * .exit.text, .altinstr_replacement, then .altinstr_aux at 0xb9be, 0x24
 * bytes, the last code; its code allocation is 12 pages (vmallocinfo).
 * The code is the whole allocation, .altinstr_aux included.
 */
static void code_sections_after_text_stay_in(void)
{
	const struct pts_ksection secs[] = {
		{ ".text", A_TEXT },
		{ ".exit.text", A_TEXT + 0xb860 },
		{ ".altinstr_replacement", A_TEXT + 0xb8db },
		{ ".altinstr_aux", A_TEXT + 0xb9be },
		{ ".rodata", 0xffffffffc0b10000ULL },
	};
	const struct pts_vmarea area = { A_TEXT, A_TEXT + 0xc000 };
	uint64_t t, sz;

	CU_ASSERT_TRUE_FATAL(pts_kmodule_text_extent(secs, 5, A_TEXT, 0x1b000, &area, 1, &t, &sz));
	CU_ASSERT_EQUAL(t, A_TEXT);
	CU_ASSERT_EQUAL(sz, 0xc000);
	CU_ASSERT(t + sz >= A_TEXT + 0xb9be + 0x24);
}

/*
 * 6.4+: a's code is 8 KiB in its own allocation; /proc/modules says
 * base A_TEXT, size 0x20000 (code + read-only data + data). base + size
 * would take module b's code (at B_TEXT) as a's.
 */
static void modules_since_6_4_end_at_their_code_allocation(void)
{
	const struct pts_ksection secs[] = {
		{ ".text", A_TEXT },
		{ ".text.unlikely", A_TEXT + 0x1800 },
		{ ".noinstr.text", A_TEXT + 0x1000 },
		{ ".rodata", 0xffffffffc0b10000ULL },
		{ ".data", 0xffffffffc0b20000ULL },
		{ ".init.text", 0xffffffffc0c00000ULL },
		{ "__ksymtab", 0xffffffffc0b11000ULL },
	};
	const struct pts_vmarea areas[] = {
		{ A_TEXT, A_TEXT + 0x2000 },
		{ B_TEXT, B_TEXT + 0x2000 },
		{ 0xffffffffc0b10000ULL, 0xffffffffc0b12000ULL },
	};
	uint64_t t, sz;

	CU_ASSERT_TRUE_FATAL(pts_kmodule_text_extent(secs, 7, A_TEXT, 0x20000, areas, 3, &t, &sz));
	CU_ASSERT_EQUAL(t, A_TEXT);
	CU_ASSERT_EQUAL(sz, 0x2000);
	CU_ASSERT(t + sz <= B_TEXT);
}

/*
 * 6.1: one allocation; the code ends where .rodata starts (a page
 * boundary). An executable section of a name not known as code
 * (".x_exec", after .altinstr_aux) is inside the code's last page: it
 * does not end the code.
 */
static void modules_of_6_1_end_at_their_read_only_data(void)
{
	const struct pts_ksection secs[] = {
		{ ".rodata", A_TEXT + 0x3000 },
		{ ".text", A_TEXT },
		{ ".altinstr_replacement", A_TEXT + 0x2f00 },
		{ ".data", A_TEXT + 0x5000 },
		{ ".bss", A_TEXT + 0x6000 },
		{ ".altinstr_aux", A_TEXT + 0x2fe3 },
		{ ".x_exec", A_TEXT + 0x2ff0 },
	};
	const struct pts_vmarea area = { A_TEXT, A_TEXT + 0xf000 };
	uint64_t t, sz;

	CU_ASSERT_TRUE_FATAL(pts_kmodule_text_extent(secs, 7, A_TEXT, 0xf000, &area, 1, &t, &sz));
	CU_ASSERT_EQUAL(t, A_TEXT);
	CU_ASSERT_EQUAL(sz, 0x3000);
	/* the same without /proc/vmallocinfo */
	CU_ASSERT_TRUE_FATAL(pts_kmodule_text_extent(secs, 7, A_TEXT, 0xf000, NULL, 0, &t, &sz));
	CU_ASSERT_EQUAL(sz, 0x3000);
	/* no code section, or no address: nothing */
	CU_ASSERT_FALSE(pts_kmodule_text_extent(secs, 1, A_TEXT, 0xf000, NULL, 0, &t, &sz));
	CU_ASSERT_EQUAL(sz, 0);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/*
 * The whole path through the files: sysfs sections of two modules and a
 * vmallocinfo, 6.4+ layout. Module a's code must not run into b's.
 */
static void module_text_read_from_sysfs_and_vmallocinfo(void)
{
	const char *mt = "a 131072 0 - Live 0xffffffffc0a00000\n"
			 "b 131072 0 - Live 0xffffffffc0a03000\n";
	char dir[] = "/tmp/pts-kmodtext-XXXXXX", p[512], vi[600];
	struct pts_kmodule *m = NULL;
	struct pts_err err;
	size_t n = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/a", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/a/sections", dir);
	mkdir(p, 0755);
	put(p, ".text", "0xffffffffc0a00000\n");
	put(p, ".rodata", "0xffffffffc0b10000\n");
	snprintf(p, sizeof(p), "%s/b", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/b/sections", dir);
	mkdir(p, 0755);
	put(p, ".text", "0xffffffffc0a03000\n");
	put(dir, "vmallocinfo",
	    "0xffffffffc0a00000-0xffffffffc0a03000   12288 execmem_alloc+0x8f/0x130 pages=2 vmalloc\n"
	    "0xffffffffc0a03000-0xffffffffc0a05000    8192 execmem_alloc+0x8f/0x130 pages=1 vmalloc\n");
	snprintf(vi, sizeof(vi), "%s/vmallocinfo", dir);
	CU_ASSERT_EQUAL_FATAL(pts_modules_parse(mt, strlen(mt), &m, &n, &err), 0);
	pts_kmodules_text(m, n, dir, vi);
	CU_ASSERT_EQUAL(m[0].text, A_TEXT);
	CU_ASSERT_EQUAL(m[0].text_size, 0x2000);
	CU_ASSERT_EQUAL(m[1].text, B_TEXT);
	CU_ASSERT_EQUAL(m[1].text_size, 0x1000);
	free(m);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(p), 0);
}

PTS_SUITE(capture_kmodtext, NULL, NULL,
	  PTS_TEST(section_names_that_are_code),
	  PTS_TEST(vmallocinfo_gives_each_area_its_mapped_pages),
	  PTS_TEST(modules_since_6_4_end_at_their_code_allocation),
	  PTS_TEST(modules_of_6_1_end_at_their_read_only_data),
	  PTS_TEST(code_sections_after_text_stay_in),
	  PTS_TEST(module_text_read_from_sysfs_and_vmallocinfo))
