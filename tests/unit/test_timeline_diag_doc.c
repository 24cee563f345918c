// SPDX-License-Identifier: GPL-2.0
/*
 * Every diagnostic `ptscope decode --summary` can print ("diagnostic: N x
 * WHAT", pts_tl_diag_name) is explained in docs/decode.md ("Summary
 * diagnostics"), in the words the summary prints: a new diagnostic
 * without its explanation fails here.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeline/timeline.h"
#include "capture/procfs.h"

static void every_summary_diagnostic_is_explained_in_decode_md(void)
{
	char path[1024], row[300];
	struct pts_err err;
	char *doc;
	size_t len;
	int d;

	snprintf(path, sizeof(path), "%s/docs/decode.md", pts_unit_src_dir());
	CU_ASSERT_EQUAL_FATAL(pts_read_file(path, &doc, &len, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(doc, "## Summary diagnostics"));
	for (d = 0; d < PTS_TLD_NR; d++) {
		/* a row of the table starts with the name as printed */
		snprintf(row, sizeof(row), "| `%s` |", pts_tl_diag_name((enum pts_tl_diag)d));
		if (!strstr(doc, row)) {
			printf("\n    not in docs/decode.md: %s\n", row);
			CU_FAIL("a --summary diagnostic is not explained");
		}
	}
	free(doc);
}

PTS_SUITE(timeline_diag_doc, NULL, NULL,
	  PTS_TEST(every_summary_diagnostic_is_explained_in_decode_md))
