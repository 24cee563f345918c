// SPDX-License-Identifier: GPL-2.0
/*
 * One /proc/kallsyms line (util/kallsyms_line.h) and the three readers
 * built on it. Lines are written by hand in the format the kernel prints
 * (kernel/kallsyms.c: "%px %c %s" and "\t[%s]" for a module's symbol).
 * The guard-page cases put a listing's last bytes just before a page that
 * cannot be read: a reader that runs past the listing's length (as
 * strtoull does over a buffer with no NUL) dies there, as the kallsyms
 * fuzz harness found (tests/fuzz/corpus/kallsyms/hex-to-the-end).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "unit.h"
#include "capture/kernel.h"
#include "capture/ktext_extra.h"
#include "util/kallsyms_line.h"

static int parse(const char *s, struct pts_kallsyms_line *l)
{
	return pts_kallsyms_line(s, s + strlen(s), l);
}

static void vmlinux_and_module_lines_give_their_fields(void)
{
	struct pts_kallsyms_line l;

	CU_ASSERT_EQUAL_FATAL(parse("ffffffff81000000 T _stext", &l), 0);
	CU_ASSERT_EQUAL(l.addr, 0xffffffff81000000ULL);
	CU_ASSERT_EQUAL(l.type, 'T');
	CU_ASSERT_EQUAL(l.name_len, 6);
	CU_ASSERT_NSTRING_EQUAL(l.name, "_stext", 6);
	CU_ASSERT_PTR_NULL(l.mod);
	CU_ASSERT_EQUAL_FATAL(parse("ffffffffc0a00010 t mod_fn\t[ptscope]\r", &l), 0);
	CU_ASSERT_EQUAL(l.addr, 0xffffffffc0a00010ULL);
	CU_ASSERT_EQUAL(l.type, 't');
	CU_ASSERT_NSTRING_EQUAL(l.name, "mod_fn", 6);
	CU_ASSERT_EQUAL(l.name_len, 6);
	CU_ASSERT_EQUAL(l.mod_len, 9);
	CU_ASSERT_NSTRING_EQUAL(l.mod, "[ptscope]", 9);
	/* kptr_restrict prints 16 zeros; upper-case hex is hex too */
	CU_ASSERT_EQUAL_FATAL(parse("0000000000000000 W weak_fn", &l), 0);
	CU_ASSERT_EQUAL(l.addr, 0);
	CU_ASSERT_EQUAL_FATAL(parse("  FFFFFFFF8100ABCD d data", &l), 0);
	CU_ASSERT_EQUAL(l.addr, 0xffffffff8100abcdULL);
}

static void lines_of_another_shape_are_refused(void)
{
	static const char *const bad[] = {
		"",					/* nothing */
		"ffffffff81000000",			/* address alone */
		"ffffffff81000000 T",			/* no name */
		"ffffffff81000000 T ",			/* no name, blank after the type */
		"1ffffffff81000000 T too_long",		/* 17 digits: past 64 bits */
		"0xffffffff81000000 T prefixed",	/* not as the kernel prints */
		"ffffffff81000000 1 digit_type",	/* type not a letter */
		"ffffffff81000000 TT two_letters",
		"ffffffff8100000g T not_hex",
		"ffffffff81000000 T name [mod",		/* module without its bracket */
		"ffffffff81000000 T name mod",		/* fourth field not a module */
		"ffffffff81000000 T name [mod] more",	/* something after the module */
	};
	struct pts_kallsyms_line l;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT_EQUAL(parse(bad[i], &l), -1);
	/* a NUL inside: binary data, not a line */
	CU_ASSERT_EQUAL(pts_kallsyms_line("ffffffff81000000 T a\0b", "ffffffff81000000 T a\0b" + 22,
					  &l), -1);
}

static void a_line_is_read_to_its_given_end_only(void)
{
	const char *s = "ffffffff81000000 T _stext [mod]";
	struct pts_kallsyms_line l;

	/* the end cuts the name: the name is what lies before it */
	CU_ASSERT_EQUAL_FATAL(pts_kallsyms_line(s, s + 22, &l), 0);
	CU_ASSERT_EQUAL(l.name_len, 3);
	CU_ASSERT_PTR_NULL(l.mod);
	/* the end cuts the address: no line */
	CU_ASSERT_EQUAL(pts_kallsyms_line(s, s + 8, &l), -1);
}

/* A page whose last len bytes are text, followed by one that cannot be read. */
static char *before_a_guard_page(const char *text, size_t len, void **map, size_t *map_len)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 2 * (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	CU_ASSERT_FATAL(m != MAP_FAILED);
	CU_ASSERT_FATAL(mprotect(m + pg, (size_t)pg, PROT_NONE) == 0);
	*map = m;
	*map_len = 2 * (size_t)pg;
	return memcpy(m + pg - len, text, len);
}

static void listings_ending_in_hex_digits_are_not_read_past_their_end(void)
{
	/* the last line is all address, no newline: nothing says where it stops but len */
	static const char ks[] = "ffffffff81000000 T _stext\nffffffff81e02000 T _etext\n"
				 "ffffffffc0000000 t bpf_prog_1 [bpf]\nffffffffc0001000";
	size_t len = sizeof(ks) - 1, map_len, nr = 0;
	struct pts_krange *r = NULL;
	struct pts_err err;
	uint64_t s = 0, e = 0;
	void *map;
	char *t = before_a_guard_page(ks, len, &map, &map_len);

	CU_ASSERT_EQUAL(pts_kallsyms_text_range(t, len, &s, &e, &err), 0);
	CU_ASSERT_EQUAL(s, 0xffffffff81000000ULL);
	CU_ASSERT_EQUAL(e, 0xffffffff81e02000ULL);
	CU_ASSERT_FALSE(pts_kallsyms_zeroed(t, len));
	/* the BPF program runs to the end of its page: the address line is no symbol */
	CU_ASSERT_EQUAL(pts_kallsyms_extra_text(t, len, &r, &nr), 0);
	CU_ASSERT_EQUAL_FATAL(nr, 1);
	CU_ASSERT_EQUAL(r[0].start, 0xffffffffc0000000ULL);
	CU_ASSERT_EQUAL(r[0].end, 0xffffffffc0001000ULL);
	free(r);
	munmap(map, map_len);
}

PTS_SUITE(util_kallsyms_line, NULL, NULL,
	  PTS_TEST(vmlinux_and_module_lines_give_their_fields),
	  PTS_TEST(lines_of_another_shape_are_refused),
	  PTS_TEST(a_line_is_read_to_its_given_end_only),
	  PTS_TEST(listings_ending_in_hex_digits_are_not_read_past_their_end))
