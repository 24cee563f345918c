// SPDX-License-Identifier: GPL-2.0
/*
 * A join (session/pardec.h) with a chunk the calling thread decoded into
 * the merge's sink (pts_pool_options.self) on either side: as the
 * predecessor, whose events up to its end went to the sink unstored and
 * whose overlap was stored after them; and as the successor, joined
 * after its first events only, before the rest of it is decoded. The
 * other chunk is decoded as a worker decodes one, into its buffer.
 *
 * The order is made by hand, with no worker thread: the pool has none
 * and the self option, so the calling thread decodes into the sink each
 * chunk still queued when it needs it; the test takes the other chunk off
 * the queue first and decodes it with a view of its own, as a worker
 * does (pardec_pool.c). The trace: two chunks, the loop of
 * test_session_pardec.c (a TNT "TTN" and a TIP per iteration) with one
 * PSB+ in its middle. Every event handed out, and the statistics, must be
 * the serial decoder's; with the join rule broken on purpose (the pool's
 * brk, PTS_PARDEC_BREAK=1: the successor's first event dropped) they must
 * not, or the comparison could not see a wrong join.
 *
 *   401000 nop             _start
 *   401001 nop
 *   401002 nop             mid: the IP of the PSB+ in the middle
 *   401003 test %ecx, %ecx
 *   401005 jnz _start
 *   401007 push %rax
 *   401008 ret
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "asm_elf.h"
#include "bundle_fixture.h"
#include "pt_gen.h"
#include "session/pardec_int.h"

#define START 0x401000ULL
#define MID 0x401002ULL
#define ITERS 400u	/* loop iterations; the PSB+ after half of them */

static char *dir, *elf;
static struct pt_gen gen;

static int suite_init(void)
{
	static const char prog[] =
		"\t.text\n\t.globl _start\n_start:\n"
		"\tnop\n\tnop\nmid:\n\tnop\n\ttest %ecx, %ecx\n\tjnz _start\n\tpush %rax\n\tret\n";

	dir = bt_tmpdir();
	if (!dir)
		return 1;
	elf = asm_elf_build_text(dir, "loop.elf", prog, "-static -Ttext=0x401000 -e _start");
	return elf ? 0 : 1;
}

static int suite_cleanup(void)
{
	bt_rmtree(dir);
	free(dir);
	free(elf);
	return 0;
}

/* The loop's trace in gen: two chunks of ITERS / 2 iterations at a byte a chunk. */
static void write_trace(void)
{
	unsigned int i;

	gen_init(&gen);
	gen_psb_plus(&gen, 0x1000);
	gen_ip(&gen, ppt_tip_pge, START);
	for (i = 1; i <= ITERS; i++) {
		gen_tnt(&gen, "TTN");
		gen_ip(&gen, ppt_tip, START);
		if (i == ITERS / 2) {
			gen_simple(&gen, ppt_psb);
			gen_tsc(&gen, 0x1000 + i);
			gen_cbr(&gen, 37);
			gen_mode_exec64(&gen);
			gen_ip(&gen, ppt_fup, MID);
			gen_simple(&gen, ppt_psbend);
		}
	}
	gen_tnt(&gen, "TTN");
	gen_ip_suppressed(&gen, ppt_tip_pgd);
}

/* An event as handed out, every field the decoders set. */
struct ev {
	struct pts_branch br;
	char detail[160];
};

struct evs {
	struct ev *e;
	size_t n, cap;
};

static void keep(struct evs *v, const struct pts_branch *br)
{
	struct ev *e;

	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 1024;
		v->e = realloc(v->e, v->cap * sizeof(*v->e));
		CU_ASSERT_PTR_NOT_NULL_FATAL(v->e);
	}
	e = &v->e[v->n++];
	e->br = *br;
	snprintf(e->detail, sizeof(e->detail), "%s", br->detail ? br->detail : "");
	e->br.detail = NULL;
}

/* The first index where a and b differ, or their common length if one is a prefix of the other. */
static size_t first_difference(const struct evs *a, const struct evs *b)
{
	size_t i;

	for (i = 0; i < a->n && i < b->n; i++) {
		const struct pts_branch *x = &a->e[i].br, *y = &b->e[i].br;

		if (x->kind != y->kind || x->flags != y->flags || x->from != y->from ||
		    x->to != y->to || x->ts_ns != y->ts_ns || x->pid != y->pid || x->tid != y->tid ||
		    x->insn_len != y->insn_len || x->offset != y->offset || x->value != y->value ||
		    strcmp(a->e[i].detail, b->e[i].detail))
			return i;
	}
	return i;
}

static void config(struct pts_ptdec_config *cfg, struct pts_imgset *set)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->buf = gen.buf;	/* zeroed beyond the stream: padded */
	cfg->size = gen_len(&gen);
	cfg->padded = true;
	cfg->nom_freq = 37;
	cfg->pid = 100;
	cfg->tid = 101;
	cfg->images = set;
}

/* The serial decoder's events and statistics. */
static void decode_serially(struct pts_imgset *set, struct evs *out, struct pts_ptdec_stats *st)
{
	struct pts_ptdec_config cfg;
	const struct pts_branch *br;
	struct pts_ptdec *d;
	struct pts_err err = { 0 };
	int rc;

	config(&cfg, set);
	CU_ASSERT_EQUAL_FATAL(pts_ptdec_new(&cfg, &d, &err), 0);
	while ((rc = pts_ptdec_next(d, &br)) == 1)
		keep(out, br);
	CU_ASSERT_EQUAL(rc, 0);
	pts_ptdec_stats(d, st);
	pts_ptdec_free(d);
}

/* Queued chunk c decoded into its buffer as a worker decodes it (pardec_pool.c, worker). */
static void decode_as_a_worker(struct pts_pool *pool, struct pts_imgset *set, struct chunk *c)
{
	struct pts_imgview *view = NULL;
	int rc;

	CU_ASSERT_EQUAL_FATAL(pts_imgview_new(set, &view), 0);
	pthread_mutex_lock(&pool->mu);
	CU_ASSERT_EQUAL_FATAL(c->state, CH_QUEUED);
	pardec_pool_unqueue(pool, c);
	c->state = CH_RUNNING;
	pthread_mutex_unlock(&pool->mu);
	rc = pardec_decode_chunk(c, view, NULL);
	CU_ASSERT_EQUAL(rc, 0);
	pthread_mutex_lock(&pool->mu);
	c->state = rc ? CH_FAILED : CH_DONE;
	pthread_mutex_unlock(&pool->mu);
	pts_imgview_free(view);
}

/*
 * The parallel decode of the trace, chunk sink_at (0 the first, 1 the
 * second) decoded into the sink and the other one as a worker would,
 * with the pool's brk: its events, statistics and joins.
 */
static void decode_in_chunks(struct pts_imgset *set, unsigned int sink_at,
			     enum pts_pardec_break brk, struct evs *out, struct pts_ptdec_stats *st,
			     uint64_t *joined, uint64_t *refused)
{
	struct pts_pool_options po = { .threads = 0, .chunks = 2, .self = true, .brk = brk };
	struct pts_ptdec_config cfg;
	const struct pts_branch *br;
	struct pts_err err = { 0 };
	const struct chunk *seen = NULL;
	bool sink_seen[2] = { false, false };
	unsigned int k = 0;
	struct pts_pool *pool;
	struct pts_pcpu *p;
	int rc;

	config(&cfg, set);
	CU_ASSERT_EQUAL_FATAL(pts_pool_new(&po, set, &pool, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_pcpu_new(pool, &cfg, 1, NULL, &p, &err), 0);
	/* the two chunks, queued; no third */
	CU_ASSERT_PTR_NOT_NULL_FATAL(p->cur);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p->cur->next);
	CU_ASSERT_EQUAL_FATAL(p->cur->next->end, cfg.size);
	decode_as_a_worker(pool, set, sink_at ? p->cur : p->cur->next);
	while ((rc = pts_pcpu_next(p, &br, &err)) == 1) {
		keep(out, br);
		/* which chunk the event came from, and whether it was decoded into the sink */
		if (p->cur != seen) {
			seen = p->cur;
			if (k < 2)
				sink_seen[k] = seen->sink;
			k++;
		}
	}
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_EQUAL(k, 2);
	CU_ASSERT(sink_seen[sink_at]);
	CU_ASSERT(!sink_seen[!sink_at]);
	pts_pcpu_stats(p, st);
	pts_pcpu_joins(p, joined, refused);
	pts_pcpu_free(p);
	pts_pool_free(pool, NULL);
}

/*
 * The case of sink_at (as decode_in_chunks): as the serial decode with
 * the join made, and not with the rule broken.
 */
static void joined_as_serially(unsigned int sink_at)
{
	struct pts_ptdec_stats serial, par;
	struct evs s = { 0 }, j = { 0 }, b = { 0 };
	uint64_t joined, refused;
	struct pts_imgset *set;
	struct pts_err err = { 0 };
	size_t at;

	write_trace();
	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_add_elf(set, PTS_PID_ALL, elf, 0, &err), 0);
	decode_serially(set, &s, &serial);
	/* by hand: 17 instructions per iteration, and those of the last (pt_gen.h's loop) */
	CU_ASSERT_EQUAL(serial.insns, 17 * (ITERS + 1));
	CU_ASSERT(s.n > ITERS);

	decode_in_chunks(set, sink_at, PTS_PARDEC_BREAK_NONE, &j, &par, &joined, &refused);
	CU_ASSERT_EQUAL(joined, 1);
	CU_ASSERT_EQUAL(refused, 0);
	at = first_difference(&s, &j);
	CU_ASSERT_EQUAL(j.n, s.n);
	CU_ASSERT_EQUAL(at, s.n);
	if (at < s.n || j.n != s.n)
		fprintf(stderr, "pardec, the sink chunk the %s: %zu events, serial %zu; "
			"the first differing is %zu\n", sink_at ? "successor" : "predecessor",
			j.n, s.n, at);
	CU_ASSERT_EQUAL(par.insns, serial.insns);
	CU_ASSERT_EQUAL(par.branches, serial.branches);
	CU_ASSERT_EQUAL(par.others, serial.others);
	CU_ASSERT_EQUAL(par.gaps, serial.gaps);
	CU_ASSERT_EQUAL(par.events, serial.events);

	/* the rule broken on purpose: the join drops an event, and that shows */
	decode_in_chunks(set, sink_at, PTS_PARDEC_BREAK_JOINS, &b, &par, &joined, &refused);
	CU_ASSERT_EQUAL(joined, 1);
	CU_ASSERT(b.n != s.n || first_difference(&s, &b) < s.n);

	free(s.e);
	free(j.e);
	free(b.e);
	pts_imgset_free(set);
	gen_done(&gen);
}

static void chunk_decoded_into_the_sink_joins_into_a_worker_chunk_as_serially(void)
{
	joined_as_serially(0);
}

static void worker_chunk_joins_into_a_chunk_decoded_into_the_sink_as_serially(void)
{
	joined_as_serially(1);
}

PTS_SUITE(session_pardec_sink, suite_init, suite_cleanup,
	  PTS_TEST(chunk_decoded_into_the_sink_joins_into_a_worker_chunk_as_serially),
	  PTS_TEST(worker_chunk_joins_into_a_chunk_decoded_into_the_sink_as_serially));
