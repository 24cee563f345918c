// SPDX-License-Identifier: GPL-2.0
/*
 * CUnit runner for every suite registered with PTS_SUITE. Usage:
 *   unit-tests [SUITE...]   run all suites, or only the named ones.
 * Exit status: 0 when no assertion failed, 1 otherwise (CUnit's own
 * return value is not the failure count).
 */
#include "unit.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct pts_unit_suite *suites;

void pts_unit_register(struct pts_unit_suite *s)
{
	struct pts_unit_suite **p = &suites;

	/* keep registration order stable: sort by name */
	while (*p && strcmp((*p)->name, s->name) < 0)
		p = &(*p)->next;
	s->next = *p;
	*p = s;
}

const char *pts_unit_shared_dir(void)
{
	const char *d = getenv("PTS_SHARED");

	return d ? d : "../shared";
}

const char *pts_unit_src_dir(void)
{
	const char *d = getenv("PTS_SRCDIR");

	return d ? d : ".";
}

static int wanted(const char *name, int argc, char **argv)
{
	int i;

	if (argc < 2)
		return 1;
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct pts_unit_suite *s;
	unsigned int failed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	for (s = suites; s; s = s->next) {
		const struct pts_unit_test *t;
		CU_pSuite cs;

		if (!wanted(s->name, argc, argv))
			continue;
		cs = CU_add_suite(s->name, s->init, s->cleanup);
		if (!cs)
			return 2;
		for (t = s->tests; t->name; t++)
			if (!CU_add_test(cs, t->name, t->fn))
				return 2;
	}
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	if (CU_get_number_of_suites_failed())
		failed++;
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
