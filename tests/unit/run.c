// SPDX-License-Identifier: GPL-2.0
/*
 * CUnit runner for every suite registered with PTS_SUITE. Usage:
 *   unit-tests [SUITE...]   run all suites, or only the named ones.
 * Exit status: 0 when no assertion failed, 1 otherwise (CUnit's own
 * return value is not the failure count). The last line counts the tests
 * passed, failed and skipped, and says why tests were skipped; it is also
 * written to the file PTS_UNIT_SUMMARY names, if set (make check repeats
 * it at its end).
 */
#include "unit.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct pts_unit_suite *suites;

/* distinct skip reasons with their counts, for the last line */
#define MAX_REASONS 16
static struct { char text[160]; unsigned int n; } reasons[MAX_REASONS];
static unsigned int nr_reasons, nr_skipped, nr_skipped_running;

/* skips found while suites register (before main): counted if their suite runs */
#define MAX_EARLY 16
static struct { const char *suite, *test; char reason[160]; } early[MAX_EARLY];
static unsigned int nr_early;
static int started;

void pts_unit_skip(const char *suite, const char *test, const char *reason)
{
	unsigned int i;

	if (!started && nr_early < MAX_EARLY) {
		early[nr_early].suite = suite;
		early[nr_early].test = test;
		snprintf(early[nr_early].reason, sizeof(early[0].reason), "%s", reason);
		nr_early++;
		return;
	}
	printf("SKIP %s: %s: %s\n", suite, test, reason);
	nr_skipped++;
	if (CU_get_current_test())
		nr_skipped_running++;	/* CUnit counts it as run */
	for (i = 0; i < nr_reasons; i++)
		if (!strcmp(reasons[i].text, reason))
			break;
	if (i == nr_reasons) {
		if (i == MAX_REASONS)
			i--;	/* the last slot collects the rest */
		else
			snprintf(reasons[nr_reasons++].text, sizeof(reasons[i].text), "%s", reason);
	}
	reasons[i].n++;
}

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

/* 1 when the shared file a test reads is here; else the skip is recorded */
static int shared_present(const struct pts_unit_suite *s, const struct pts_unit_test *t)
{
	char path[1024], why[160];

	if (!t->needs_shared)
		return 1;
	snprintf(path, sizeof(path), "%s/%s", pts_unit_shared_dir(), t->needs_shared);
	if (!access(path, R_OK))
		return 1;
	snprintf(why, sizeof(why), "needs %s/data, absent here (CI has it; PTS_SHARED=DIR names a copy)",
		 pts_unit_shared_dir());
	pts_unit_skip(s->name, t->name, why);
	return 0;
}

/*
 * A suite whose set-up or tear-down failed counts as one failure beside
 * its tests': a failed set-up runs none of them, so they are neither
 * passed nor failed, and the passes are counted from the tests alone.
 */
static void print_totals(FILE *f, unsigned int tests_failed, unsigned int suites_failed)
{
	unsigned int run = CU_get_number_of_tests_run(), i;

	fprintf(f, "unit tests: %u passed, %u failed, %u skipped", run - nr_skipped_running - tests_failed,
		tests_failed + suites_failed, nr_skipped);
	if (suites_failed)
		fprintf(f, " (%u suite set-up/tear-down failure%s)", suites_failed,
			suites_failed > 1 ? "s" : "");
	for (i = 0; i < nr_reasons; i++)
		fprintf(f, "%s%u: %s", i ? "; " : " (", reasons[i].n, reasons[i].text);
	fprintf(f, "%s\n", nr_reasons ? ")" : "");
}

/* One line per suite whose set-up or tear-down failed; returns their number. */
static unsigned int report_suite_failures(void)
{
	CU_pFailureRecord r;
	unsigned int n = 0;

	for (r = CU_get_failure_list(); r; r = r->pNext) {
		if (r->type == CUF_SuiteInitFailed)
			printf("SETUP FAILED %s: its %u tests did not run\n", r->pSuite->pName,
			       r->pSuite->uiNumberOfTests);
		else if (r->type == CUF_SuiteCleanupFailed)
			printf("TEARDOWN FAILED %s\n", r->pSuite->pName);
		else
			continue;
		n++;
	}
	return n;
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
	const char *summary;
	unsigned int failed, tests_failed, suites_failed, i;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	started = 1;
	for (i = 0; i < nr_early; i++)
		if (wanted(early[i].suite, argc, argv))
			pts_unit_skip(early[i].suite, early[i].test, early[i].reason);
	for (s = suites; s; s = s->next) {
		const struct pts_unit_test *t;
		CU_pSuite cs = NULL;

		if (!wanted(s->name, argc, argv))
			continue;
		/* a suite all of whose tests skip is not added: its init may read the data */
		for (t = s->tests; t->name; t++) {
			if (!shared_present(s, t))
				continue;
			if (!cs)
				cs = CU_add_suite(s->name, s->init, s->cleanup);
			if (!cs || !CU_add_test(cs, t->name, t->fn))
				return 2;
		}
	}
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	tests_failed = CU_get_number_of_tests_failed();
	suites_failed = report_suite_failures();
	print_totals(stdout, tests_failed, suites_failed);
	summary = getenv("PTS_UNIT_SUMMARY");
	if (summary && *summary) {
		FILE *f = fopen(summary, "w");

		if (f) {
			print_totals(f, tests_failed, suites_failed);
			fclose(f);
		}
	}
	failed = tests_failed + suites_failed + CU_get_number_of_failures();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
