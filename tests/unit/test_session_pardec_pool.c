// SPDX-License-Identifier: GPL-2.0
/*
 * Which chunks a parallel decode's pool decodes first (session/
 * pardec_pool.c): the merge of several CPUs needs their chunks in the
 * order of their start times, the time of the TSC in each chunk's PSB+.
 * Each CPU has the two chunks a join needs whatever the pool's count
 * says; the chunks beyond those go to the CPU whose next chunk starts
 * first, and the workers take queued chunks by start time.
 *
 * The traces are PSB+ after PSB+ (PSB TSC CBR PSBEND MODE, 32 bytes
 * each), decoded in chunks of a byte: a chunk at every PSB, whose start
 * time is its TSC (no conversion given: 1 tick = 1 ns). The pool has no
 * worker threads, so what was queued stays queued; nothing is decoded.
 *
 * A trace with a CYC packet is never joined (pardec.h): its chunks after
 * the first were once queued all the same, decoded by the workers and
 * refused, while the first chunk's decoder decoded the whole trace. It
 * is one chunk, the calling thread's, that no worker sees.
 */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "pt_gen.h"
#include "session/pardec_int.h"

/* CPU a's PSBs at 100, 200, ... 700; b's at 350, 450, ... 950 */
static const uint64_t tsc_a[] = { 100, 200, 300, 400, 500, 600, 700 };
static const uint64_t tsc_b[] = { 350, 450, 550, 650, 750, 850, 950 };

static struct pt_gen gen_a, gen_b;

/* PSB+ at each of the n times; with cyc_after, a CYC after that many */
static void gen_trace_cyc(struct pt_gen *g, const uint64_t *tsc, size_t n, size_t cyc_after)
{
	struct pt_packet cyc = { .type = ppt_cyc, .payload.cyc.value = 1000 };
	size_t i;

	gen_init(g);
	for (i = 0; i < n; i++) {
		if (cyc_after && i == cyc_after)
			gen_pkt(g, &cyc);
		gen_psb_plus(g, tsc[i]);
	}
}

static void gen_trace(struct pt_gen *g, const uint64_t *tsc, size_t n)
{
	gen_trace_cyc(g, tsc, n, 0);
}

static struct pts_pcpu *open_cpu(struct pts_pool *pool, struct pt_gen *g, uint32_t cpu)
{
	struct pts_ptdec_config cfg;
	struct pts_pcpu *p = NULL;
	struct pts_err err;

	memset(&cfg, 0, sizeof(cfg));
	cfg.buf = g->buf;	/* zeroed beyond the stream: padded */
	cfg.size = gen_len(g);
	cfg.padded = true;
	cfg.cpu = cpu;
	CU_ASSERT_EQUAL_FATAL(pts_pcpu_new(pool, &cfg, 1, NULL, &p, &err), 0);
	return p;
}

/*
 * A pool of 6 chunks, no workers, and CPUs a (0) and b (1) of it; with
 * a_cyc_after, a's trace has a CYC after that many PSB+.
 */
static struct pts_pool *open_pool_cyc(struct pts_pcpu **a, struct pts_pcpu **b,
				      size_t a_cyc_after)
{
	struct pts_pool_options opt = { .threads = 0, .chunks = 6 };
	struct pts_pool *pool;
	struct pts_err err;

	gen_trace_cyc(&gen_a, tsc_a, 7, a_cyc_after);
	gen_trace(&gen_b, tsc_b, 7);
	CU_ASSERT_EQUAL_FATAL(pts_pool_new(&opt, NULL, &pool, &err), 0);
	*a = open_cpu(pool, &gen_a, 0);
	*b = open_cpu(pool, &gen_b, 1);
	return pool;
}

static struct pts_pool *open_pool(struct pts_pcpu **a, struct pts_pcpu **b)
{
	return open_pool_cyc(a, b, 0);
}

static void close_pool(struct pts_pool *pool)
{
	CU_ASSERT_EQUAL(pool->live, 0);
	pts_pool_free(pool, NULL);
	gen_done(&gen_a);
	gen_done(&gen_b);
}

/* The queue, as the owner (a or b) and key of each chunk in order. */
static void queue_is(struct pts_pool *pool, struct pts_pcpu *a, const char *owners,
		     const uint64_t *keys)
{
	const struct chunk *c;
	size_t i = 0;

	for (c = pool->qhead; c; c = c->qnext, i++) {
		CU_ASSERT_FATAL(owners[i] != 0);
		CU_ASSERT_EQUAL(c->owner == a ? 'a' : 'b', owners[i]);
		CU_ASSERT_EQUAL(c->key, keys[i]);
	}
	CU_ASSERT_EQUAL(owners[i], 0);
}

static void chunks_beyond_each_cpus_two_go_where_the_merge_goes_first(void)
{
	static const uint64_t keys[] = { 0, 0, 200, 300, 400, 450 };
	struct pts_pcpu *a, *b;
	struct pts_pool *pool = open_pool(&a, &b);

	/*
	 * By hand: a's chunks at 0 (the first: needed at once) and 200, b's
	 * at 0 and 450; of the two more, a's at 300 and 400 start before
	 * b's next at 550. Queued by start time, chunks of one time in the
	 * order they were queued: a's first, b's first, then a's three, b's.
	 */
	CU_ASSERT_EQUAL(pardec_pool_fill(pool), 0);
	CU_ASSERT_EQUAL(pool->live, 6);
	CU_ASSERT_EQUAL(a->nchunks, 4);
	CU_ASSERT_EQUAL(b->nchunks, 2);
	queue_is(pool, a, "abaaab", keys);
	pts_pcpu_free(b);
	pts_pcpu_free(a);
	close_pool(pool);
}

static void a_cpu_alone_gets_the_chunks_the_others_used(void)
{
	static const uint64_t keys[] = { 0, 200, 300, 400, 500, 600 };
	struct pts_pcpu *a, *b;
	struct pts_pool *pool = open_pool(&a, &b);

	/* b's trace is done with: its two chunks are a's to decode ahead */
	pts_pcpu_free(b);
	CU_ASSERT_EQUAL(pardec_pool_fill(pool), 0);
	CU_ASSERT_EQUAL(a->nchunks, 6);
	queue_is(pool, a, "aaaaaa", keys);
	pts_pcpu_free(a);
	close_pool(pool);
}

static void a_trace_with_cyc_is_one_chunk_no_worker_decodes(void)
{
	static const uint64_t keys[] = { 0, 450, 550, 650, 750 };
	struct pts_pcpu *a, *b;
	struct pts_pool *pool = open_pool_cyc(&a, &b, 4);

	/*
	 * By hand: a's CYC (after its fourth PSB+) makes a's trace one chunk,
	 * from 0 to its end, not queued; of the six, b has the other five.
	 */
	CU_ASSERT_EQUAL(pardec_pool_fill(pool), 0);
	CU_ASSERT_EQUAL(pool->live, 6);
	CU_ASSERT_EQUAL(a->nchunks, 1);
	CU_ASSERT_EQUAL(a->cur->end, gen_len(&gen_a));
	CU_ASSERT_EQUAL(b->nchunks, 5);
	queue_is(pool, a, "bbbbb", keys);
	pts_pcpu_free(b);
	pts_pcpu_free(a);
	close_pool(pool);
}

PTS_SUITE(session_pardec_pool, NULL, NULL,
	  PTS_TEST(chunks_beyond_each_cpus_two_go_where_the_merge_goes_first),
	  PTS_TEST(a_cpu_alone_gets_the_chunks_the_others_used),
	  PTS_TEST(a_trace_with_cyc_is_one_chunk_no_worker_decodes));
