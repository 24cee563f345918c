/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the writer tests: a scratch directory, building timeline
 * records in one line, and reading a written file back.
 */
#ifndef PTS_TEST_WRITER_TESTLIB_H
#define PTS_TEST_WRITER_TESTLIB_H

#include <stddef.h>

#include "bundle_fixture.h"	/* bt_read_file: a written file read back */
#include "writer/writer.h"

/* A fresh scratch directory (mkdtemp under $TMPDIR or /tmp); removed by wt_cleanup. */
const char *wt_dir(void);
void wt_cleanup(void);

/* dir/name in a static buffer (one of a few rotating buffers). */
const char *wt_path(const char *name);

/* A record with the common fields; the rest zero. */
struct pts_tl_rec wt_rec(enum pts_tl_type type, enum pts_tl_kind kind, unsigned long long ts,
			 int pid, int tid, unsigned int depth, const char *name);

/* Emit and assert success (CUnit assertion on failure). */
void wt_emit(struct pts_writer *w, const struct pts_tl_rec *rec);

/*
 * Write n records to dir/name in format fmt and assert the file is exactly
 * want (the difference is printed when it is not).
 */
void wt_expect_text(const char *name, enum pts_format fmt, const struct pts_tl_rec *recs,
		    size_t n, const char *want);

#endif
