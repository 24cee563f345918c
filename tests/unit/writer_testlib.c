// SPDX-License-Identifier: GPL-2.0
#include "writer_testlib.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[256];

const char *wt_dir(void)
{
	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/pts-writer-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
		if (!mkdtemp(dir))
			dir[0] = '\0';
	}
	return dir;
}

void wt_cleanup(void)
{
	char cmd[300];

	if (!dir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	dir[0] = '\0';
}

const char *wt_path(const char *name)
{
	static char bufs[4][512];
	static int next;
	char *b = bufs[next++ % 4];

	snprintf(b, sizeof(bufs[0]), "%s/%s", wt_dir(), name);
	return b;
}

struct pts_tl_rec wt_rec(enum pts_tl_type type, enum pts_tl_kind kind, unsigned long long ts,
			 int pid, int tid, unsigned int depth, const char *name)
{
	struct pts_tl_rec r;

	memset(&r, 0, sizeof(r));
	r.type = type;
	r.kind = kind;
	r.ts_ns = ts;
	r.pid = pid;
	r.tid = tid;
	r.depth = depth;
	r.name = name;
	return r;
}

void wt_emit(struct pts_writer *w, const struct pts_tl_rec *rec)
{
	struct pts_err err;
	int rc = pts_writer_emit(w, rec, &err);

	if (rc)
		fprintf(stderr, "emit: %s\n", err.msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
}

void wt_expect_text(const char *name, enum pts_format fmt, const struct pts_tl_rec *recs,
		    size_t n, const char *want)
{
	struct pts_writer *w;
	struct pts_err err;
	char *got;
	size_t i;

	CU_ASSERT_EQUAL_FATAL(pts_writer_open(wt_path(name), fmt, &w, &err), 0);
	for (i = 0; i < n; i++)
		wt_emit(w, &recs[i]);
	CU_ASSERT_EQUAL_FATAL(pts_writer_close(w, true, &err), 0);
	got = bt_read_file(wt_path(name), NULL);
	CU_ASSERT_FATAL(got != NULL);
	if (strcmp(got, want))
		fprintf(stderr, "\n--- got:\n%s--- want:\n%s", got, want);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
}
