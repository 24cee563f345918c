// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms files that are not entirely kallsyms: lines that are not
 * "ADDRESS TYPE NAME [MODULE]" (the /proc/kallsyms format, kernel
 * kernel/kallsyms.c s_show: "%px %c %s\t[%s]") are counted and the first
 * is shown; a file without a single such line is refused. The expected
 * counts below are the hand-written files' lines, counted by hand.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "decode/symtab.h"

static char path[300];

/* Write text (len bytes, may hold NULs) to a new temporary file at path. */
static void put(const char *text, size_t len)
{
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/pts-kallsyms.XXXXXX");
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	f = fdopen(fd, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(fwrite(text, 1, len, f), len);
	fclose(f);
}

static void mixed_file_keeps_the_good_lines_and_counts_the_bad(void)
{
	/*
	 * 7 non-blank lines: 1, 2 and 5 good text symbols, 6 a good data
	 * symbol (parsed, not a function), 3 ("not a line"), 4 (17 hex digits:
	 * wider than 64 bits) and 7 (type "TT": two letters) bad. Line 8 is
	 * blank and ignored.
	 */
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000100 t do_syscall_64\n"
		"not a line\n"
		"1ffffffff81000200 T too_wide\n"
		"ffffffffc0001000 t mod_fn\t[mymod]\n"
		"ffffffff81002000 D some_data\n"
		"ffffffff81003000 TT two_letters\n"
		"\n";
	struct pts_kallsyms_stats ks;
	struct pts_symtab st = { 0 };
	struct pts_err err = { 0 };
	const struct pts_sym *s;

	put(text, sizeof(text) - 1);
	CU_ASSERT_EQUAL_FATAL(pts_symtab_load_kallsyms(&st, path, &ks, &err), 0);
	CU_ASSERT_EQUAL(ks.lines, 7);
	CU_ASSERT_EQUAL(ks.bad, 3);
	CU_ASSERT_EQUAL(ks.first_bad, 3);
	CU_ASSERT_STRING_EQUAL(ks.first_bad_text, "not a line");
	CU_ASSERT_EQUAL(st.n, 3);
	s = pts_symtab_find(&st, 0xffffffff81000105ULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(s->name, "do_syscall_64");
	s = pts_symtab_find(&st, 0xffffffffc0001000ULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(s->name, "mod_fn [mymod]");
	pts_symtab_free(&st);
	remove(path);
}

static void long_or_binary_bad_line_is_shown_cut_and_printable(void)
{
	char text[300];
	struct pts_kallsyms_stats ks;
	struct pts_symtab st = { 0 };
	struct pts_err err = { 0 };
	size_t n;

	/* line 1 good; line 2: a NUL and 200 'x': binary, longer than the slot */
	n = (size_t)snprintf(text, sizeof(text), "ffffffff81000000 T _stext\nab");
	text[n++] = '\0';
	memset(text + n, 'x', 200);
	n += 200;
	text[n++] = '\n';
	put(text, n);
	CU_ASSERT_EQUAL_FATAL(pts_symtab_load_kallsyms(&st, path, &ks, &err), 0);
	CU_ASSERT_EQUAL(ks.bad, 1);
	CU_ASSERT_EQUAL(ks.first_bad, 2);
	/* 60 bytes shown (the slot less "..." and NUL), the NUL as '?' */
	CU_ASSERT_EQUAL(strlen(ks.first_bad_text), 63);
	CU_ASSERT_EQUAL(strncmp(ks.first_bad_text, "ab?xxx", 6), 0);
	CU_ASSERT_STRING_EQUAL(ks.first_bad_text + 60, "...");
	pts_symtab_free(&st);
	remove(path);
}

static void file_without_a_kallsyms_line_is_einval_saying_the_format(void)
{
	static const char garbage[] = "garbage\nmore garbage here\n";
	struct pts_kallsyms_stats ks;
	struct pts_symtab st = { 0 };
	struct pts_err err = { 0 };

	put(garbage, sizeof(garbage) - 1);
	CU_ASSERT_EQUAL(pts_symtab_load_kallsyms(&st, path, &ks, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, path));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no kallsyms lines (expected 'ADDRESS TYPE NAME "
				      "[MODULE]' as in /proc/kallsyms)"));
	CU_ASSERT_EQUAL(ks.bad, 2);
	CU_ASSERT_EQUAL(st.n, 0);
	remove(path);
	/* an empty file holds no symbol either */
	put("", 0);
	CU_ASSERT_EQUAL(pts_symtab_load_kallsyms(&st, path, NULL, &err), -EINVAL);
	remove(path);
}

PTS_SUITE(decode_kallsyms, NULL, NULL,
	  PTS_TEST(mixed_file_keeps_the_good_lines_and_counts_the_bad),
	  PTS_TEST(long_or_binary_bad_line_is_shown_cut_and_printable),
	  PTS_TEST(file_without_a_kallsyms_line_is_einval_saying_the_format))
