// SPDX-License-Identifier: GPL-2.0
/*
 * The test-only fxt reader (fxt_reader.c) must itself follow the format
 * reference and reject broken traces, or the writer tests that rely on
 * it prove nothing. Each trace here is built word by word by hand.
 */
#include <stdint.h>
#include <string.h>

#include "fxt_reader.h"
#include "unit.h"

#define MAGIC 0x0016547846040010ULL	/* the reference gives this value */

/* Inline string ref of length n: high bit set, length in the low 15 bits. */
#define INL(n) (0x8000ULL | (n))

/* Event header: [0..3] 4, [4..15] size, [16..19] type, [20..23] nargs,
 * [24..31] thread ref, [32..47] category ref, [48..63] name ref. */
static uint64_t ev(unsigned int size, unsigned int type, unsigned int nargs, unsigned int th,
		   uint64_t cat, uint64_t name)
{
	return 4 | (uint64_t)size << 4 | (uint64_t)type << 16 | (uint64_t)nargs << 20 |
	       (uint64_t)th << 24 | cat << 32 | name << 48;
}

/* A string of up to 8 bytes as the word holding it, little-endian order. */
static uint64_t sw(const char *s)
{
	uint64_t w = 0;
	size_t i;

	for (i = 0; i < 8 && s[i]; i++)
		w |= (uint64_t)(unsigned char)s[i] << (8 * i);
	return w;
}

static int read_words(const uint64_t *w, size_t n, struct fxtr_trace *t)
{
	unsigned char buf[64 * 8];
	size_t i, b;

	/* serialise little-endian explicitly, whatever the host order */
	for (i = 0; i < n; i++)
		for (b = 0; b < 8; b++)
			buf[8 * i + b] = (unsigned char)(w[i] >> (8 * b));
	return fxtr_read(buf, 8 * n, t);
}

static void hand_built_begin_end_with_inline_thread_and_strings_is_one_slice(void)
{
	const uint64_t w[] = {
		MAGIC,
		/* begin: ts, inline pid/tid, "cat", "work", one uint32 arg "n"=42 */
		ev(8, 2, 1, 0, INL(3), INL(4)), 5, 10, 11, sw("cat"), sw("work"),
		2 | 2 << 4 | INL(1) << 16 | 42ULL << 32, sw("n"),
		/* end: same thread and names, no args */
		ev(6, 3, 0, 0, INL(3), INL(4)), 9, 10, 11, sw("cat"), sw("work"),
	};
	struct fxtr_trace t;

	CU_ASSERT_EQUAL_FATAL(read_words(w, sizeof(w) / 8, &t), 0);
	CU_ASSERT_EQUAL_FATAL(t.n_slices, 1);
	CU_ASSERT_STRING_EQUAL(t.slices[0].name, "work");
	CU_ASSERT_STRING_EQUAL(t.slices[0].category, "cat");
	CU_ASSERT_EQUAL(t.slices[0].pid, 10);
	CU_ASSERT_EQUAL(t.slices[0].tid, 11);
	CU_ASSERT_EQUAL(t.slices[0].begin, 5);
	CU_ASSERT_EQUAL(t.slices[0].end, 9);
	CU_ASSERT_EQUAL_FATAL(t.slices[0].args.n, 1);
	CU_ASSERT_STRING_EQUAL(t.slices[0].args.v[0].name, "n");
	CU_ASSERT_EQUAL(t.slices[0].args.v[0].u, 42);
	fxtr_free(&t);
}

static void indexed_strings_and_threads_resolve_through_their_tables(void)
{
	const uint64_t w[] = {
		MAGIC,
		/* string record: [16..30] index 5, [32..46] length 2 */
		2 | 2 << 4 | 5 << 16 | 2ULL << 32, sw("go"),
		/* thread record: [16..23] index 9; pid 3, tid 4 */
		3 | 3 << 4 | 9 << 16, 3, 4,
		ev(2, 0, 0, 9, 5, 5), 77,	/* instant "go"/"go" on thread 9 */
	};
	struct fxtr_trace t;

	CU_ASSERT_EQUAL_FATAL(read_words(w, sizeof(w) / 8, &t), 0);
	CU_ASSERT_EQUAL_FATAL(t.n_points, 1);
	CU_ASSERT_STRING_EQUAL(t.points[0].name, "go");
	CU_ASSERT_EQUAL(t.points[0].pid, 3);
	CU_ASSERT_EQUAL(t.points[0].tid, 4);
	CU_ASSERT_EQUAL(t.points[0].ts, 77);
	fxtr_free(&t);
}

/* Expect failure with msg in the error text. */
static void refused(const uint64_t *w, size_t n, const char *msg)
{
	struct fxtr_trace t;

	CU_ASSERT_EQUAL(read_words(w, n, &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(t.error, msg));
	fxtr_free(&t);
}

static void trace_without_magic_first_is_refused(void)
{
	const uint64_t w[] = { 1 | 2 << 4, 1000000000 };

	refused(w, 2, "magic");
}

/* a timeline of another format (ptscope's .json), whose length is no multiple of 8 */
static void a_file_of_another_format_is_refused_as_no_fxt(void)
{
	static const char json[] = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n]}\n";
	struct fxtr_trace t;

	CU_ASSERT_NOT_EQUAL(strlen(json) % 8, 0);
	CU_ASSERT_EQUAL(fxtr_read(json, strlen(json), &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(t.error, "does not start with the magic number record: not"
				      " an fxt file"));
	fxtr_free(&t);
	CU_ASSERT_EQUAL(fxtr_read(json, 0, &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(t.error, "not an fxt file"));
	fxtr_free(&t);
}

static void string_record_with_bit_31_set_is_refused(void)
{
	const uint64_t w[] = { MAGIC, 2 | 2 << 4 | 1 << 16 | 1ULL << 31 | 2ULL << 32, sw("go") };

	refused(w, 3, "must be zero");
}

static void record_size_past_the_end_is_refused(void)
{
	const uint64_t w[] = { MAGIC, 1 | 3 << 4, 1000000000 };

	refused(w, 3, "does not fit");
}

static void argument_size_disagreeing_with_its_type_is_refused(void)
{
	/* a uint64 argument ([0..3] = 4) has a value word, 2 words, but claims 1 */
	const uint64_t w[] = {
		MAGIC, ev(7, 0, 1, 0, 0, INL(1)), 1, 2, 3, sw("x"), 4 | 1 << 4 | 0 << 16, 99,
	};

	refused(w, 8, "argument 0");
}

static void end_without_begin_is_refused(void)
{
	const uint64_t w[] = { MAGIC, ev(5, 3, 0, 0, 0, INL(1)), 1, 2, 3, sw("x") };

	refused(w, 6, "no open begin");
}

static void end_naming_another_slice_is_refused(void)
{
	const uint64_t w[] = {
		MAGIC,
		ev(5, 2, 0, 0, 0, INL(1)), 1, 2, 3, sw("a"),
		ev(5, 3, 0, 0, 0, INL(1)), 2, 2, 3, sw("b"),
	};

	refused(w, 11, "does not match");
}

static void begin_left_open_is_refused(void)
{
	const uint64_t w[] = { MAGIC, ev(5, 2, 0, 0, 0, INL(1)), 1, 2, 3, sw("a") };

	refused(w, 6, "open slices");
}

static void time_going_back_on_a_thread_is_refused(void)
{
	const uint64_t w[] = {
		MAGIC,
		ev(5, 0, 0, 0, 0, INL(1)), 9, 2, 3, sw("a"),
		ev(5, 0, 0, 0, 0, INL(1)), 8, 2, 3, sw("a"),
	};

	refused(w, 11, "time goes back");
}

static void unregistered_string_ref_is_refused(void)
{
	const uint64_t w[] = { MAGIC, ev(4, 0, 0, 0, 0, 7), 1, 2, 3 };

	refused(w, 5, "never registered");
}

PTS_SUITE(fxt_reader, NULL, NULL,
	  PTS_TEST(hand_built_begin_end_with_inline_thread_and_strings_is_one_slice),
	  PTS_TEST(indexed_strings_and_threads_resolve_through_their_tables),
	  PTS_TEST(trace_without_magic_first_is_refused),
	  PTS_TEST(a_file_of_another_format_is_refused_as_no_fxt),
	  PTS_TEST(string_record_with_bit_31_set_is_refused),
	  PTS_TEST(record_size_past_the_end_is_refused),
	  PTS_TEST(argument_size_disagreeing_with_its_type_is_refused),
	  PTS_TEST(end_without_begin_is_refused),
	  PTS_TEST(end_naming_another_slice_is_refused),
	  PTS_TEST(begin_left_open_is_refused),
	  PTS_TEST(time_going_back_on_a_thread_is_refused),
	  PTS_TEST(unregistered_string_ref_is_refused))
