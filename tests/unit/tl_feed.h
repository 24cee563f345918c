/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A timeline builder fed branch events by hand: the fixture of the
 * timeline tests. One builder at a time (tl_fx_start, events, then
 * tl_fx_finish and tl_fx_done); its records are kept in tl_fx.sink
 * (tl_sink.h); every event is thread 10/11.
 */
#ifndef PTS_TEST_TL_FEED_H
#define PTS_TEST_TL_FEED_H

#include <string.h>

#include "unit.h"
#include "tl_branch.h"
#include "tl_sink.h"
#include "timeline/timeline.h"

static struct {
	struct tl_sink sink;
	struct pts_tl *tl;
	char shape[8192];
	struct pts_klabels *labels;	/* given to the next builder, or NULL */
	struct tl_fns fns;		/* the symbolizer's ctx (tl_fx_start_fns) */
} tl_fx;

/* A new builder for scope; max_depth, segment_cap: 0 for the builder's defaults. */
static inline void tl_fx_start(enum pts_scope scope, pts_tl_symbolize_fn symbolize,
			       uint32_t max_depth, uint32_t segment_cap)
{
	struct pts_tl_config c;
	struct pts_err err;

	tl_sink_free(&tl_fx.sink);
	memset(&c, 0, sizeof(c));
	c.scope = scope;
	c.symbolize = symbolize;
	c.sym_ctx = &tl_fx.fns;
	c.emit = tl_sink_emit;
	c.emit_ctx = &tl_fx.sink;
	c.max_depth = max_depth;
	c.segment_cap = segment_cap;
	c.labels = tl_fx.labels;
	CU_ASSERT_EQUAL_FATAL(pts_tl_new(&c, &tl_fx.tl, &err), 0);
}

/* tl_fx_start with the functions of fns as the only names (tl_fns_symbolize). */
static inline void tl_fx_start_fns(enum pts_scope scope, struct tl_fns fns, uint32_t max_depth,
				   uint32_t segment_cap)
{
	tl_fx.fns = fns;
	tl_fx_start(scope, tl_fns_symbolize, max_depth, segment_cap);
}

/* One branch event (tl_branch.h) to the fixture's builder. */
static inline void tl_fx_ev(enum pts_br_kind k, uint64_t from, uint8_t len, uint64_t to,
			    uint64_t ts, uint32_t flags, const char *detail)
{
	tl_feed_branch(tl_fx.tl, k, from, len, to, ts, flags, detail);
}

/* The same without detail; len: bytes of the instruction at from (0 unknown). */
static inline void tl_fx_br(enum pts_br_kind k, uint64_t from, uint8_t len, uint64_t to,
			    uint64_t ts, uint32_t flags)
{
	tl_feed_branch(tl_fx.tl, k, from, len, to, ts, flags, NULL);
}

/*
 * A call of 5 bytes (its return address known: from + 5), a jump or a
 * return, from from to to at ts ns, no flags: the branches of a test
 * that writes a thread's flow by hand.
 */
static inline void tl_fx_call(uint64_t from, uint64_t to, uint64_t ts)
{
	tl_fx_br(PTS_BR_CALL, from, 5, to, ts, 0);
}

static inline void tl_fx_jump(uint64_t from, uint64_t to, uint64_t ts)
{
	tl_fx_br(PTS_BR_JUMP, from, 0, to, ts, 0);
}

static inline void tl_fx_ret(uint64_t from, uint64_t to, uint64_t ts)
{
	tl_fx_br(PTS_BR_RETURN, from, 0, to, ts, 0);
}

/* End the trace; check the records' structure; their shape (tl_sink_shape). */
static inline const char *tl_fx_finish(void)
{
	struct pts_err err;
	char why[256];

	CU_ASSERT_EQUAL(pts_tl_finish(tl_fx.tl, &err), 0);
	if (!tl_sink_well_formed(&tl_fx.sink, why, sizeof(why)))
		CU_FAIL(why);
	return tl_sink_shape(&tl_fx.sink, tl_fx.shape, sizeof(tl_fx.shape));
}

static inline void tl_fx_done(void)
{
	pts_tl_free(tl_fx.tl);
	tl_fx.tl = NULL;
}

/* The n-th record (0-based) of a type with this name; a zeroed record and a failure if none. */
static inline const struct pts_tl_rec *tl_fx_rec(enum pts_tl_type type, const char *name, int n)
{
	static const struct pts_tl_rec none;
	const struct pts_tl_rec *r = tl_sink_nth(&tl_fx.sink, type, name, n);

	if (r)
		return r;
	CU_FAIL("record not found");
	return &none;
}

#endif
