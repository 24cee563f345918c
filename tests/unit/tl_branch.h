/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One hand-made branch event fed to a timeline builder, as thread 10/11:
 * the event every timeline test is written in.
 */
#ifndef PTS_TEST_TL_BRANCH_H
#define PTS_TEST_TL_BRANCH_H

#include <string.h>

#include "unit.h"
#include "timeline/timeline.h"

/* len: bytes of the instruction at from (0 unknown); detail may be NULL. */
static inline void tl_feed_branch(struct pts_tl *tl, enum pts_br_kind k, uint64_t from,
				  uint8_t len, uint64_t to, uint64_t ts, uint32_t flags,
				  const char *detail)
{
	struct pts_branch b;
	struct pts_err err;

	memset(&b, 0, sizeof(b));
	b.kind = k;
	b.from = from;
	b.insn_len = len;
	b.to = to;
	b.ts_ns = ts;
	b.flags = flags;
	b.pid = 10;
	b.tid = 11;
	b.detail = detail;
	CU_ASSERT_EQUAL(pts_tl_feed(tl, &b, &err), 0);
}

#endif
