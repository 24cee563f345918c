/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CUnit glue: each tests/unit/test_*.c file declares its suite with
 * PTS_SUITE(name, setup, teardown, tests...) and is picked up by the
 * runner (run.c) without a central list. Test names read as
 * specifications: the behaviour they require.
 */
#ifndef PTS_TEST_UNIT_H
#define PTS_TEST_UNIT_H

#include <CUnit/CUnit.h>

struct pts_unit_test {
	const char *name;
	void (*fn)(void);
	/* file under the shared test data (pts_unit_shared_dir()) the test reads, or NULL */
	const char *needs_shared;
};

struct pts_unit_suite {
	const char *name;
	int (*init)(void);
	int (*cleanup)(void);
	const struct pts_unit_test *tests;
	struct pts_unit_suite *next;
};

void pts_unit_register(struct pts_unit_suite *s);

/* Directory of the shared test data (../shared/data), from PTS_SHARED or the default. */
const char *pts_unit_shared_dir(void);
/* Directory of the project's source tree (for tests/golden etc.). */
const char *pts_unit_src_dir(void);

/*
 * A skip is never a pass: the runner counts it, prints "SKIP suite: test:
 * reason" and gives the reasons in its last line. pts_unit_skip() records
 * one; a test that cannot run here calls PTS_SKIP(reason) and returns.
 */
void pts_unit_skip(const char *suite, const char *test, const char *reason);
#define PTS_SKIP(reason)						\
	do {								\
		pts_unit_skip(CU_get_current_suite()->pName,		\
			      CU_get_current_test()->pName, reason);	\
		return;							\
	} while (0)

#define PTS_TEST(fn) { #fn, fn, NULL }
/*
 * A test of outside data (../shared/data, PTS_SHARED): not run, and counted
 * as skipped, when PATH (relative to that directory) is absent, so a clone
 * with nothing beside it passes; CI has the data and runs it.
 */
#define PTS_TEST_SHARED(fn, path) { #fn, fn, path }

#define PTS_SUITE(sname, sinit, scleanup, ...)				\
	static const struct pts_unit_test sname##_tests[] = {		\
		__VA_ARGS__, { 0, 0, 0 } };				\
	static struct pts_unit_suite sname##_suite = {			\
		#sname, sinit, scleanup, sname##_tests, 0 };		\
	__attribute__((constructor)) static void sname##_register(void)	\
	{ pts_unit_register(&sname##_suite); }

#endif
