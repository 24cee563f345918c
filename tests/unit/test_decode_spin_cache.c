// SPDX-License-Identifier: GPL-2.0
/*
 * A loop that consumes no trace (test_decode_spin.c), decoded with
 * libipt's block cache empty and filled in another order; one that
 * reaches the bound of branches first, and one of blocks only the bound
 * of blocks ends. libipt 2.0.5 ends a block it decodes itself
 * (pt_blk_proceed_no_event_fill_cache) at the first instruction
 * already in the cache, so a block entered
 * above code another decode cached is cut in two there; from the cache
 * (pt_blk_proceed_no_event_cached) it runs to the branch. The cache is
 * the section's, shared by every decoder of the image section cache,
 * so a serial decode and chunks decoded in parallel meet either,
 * depending on what was decoded before. The loop watch (ptdec.c,
 * spinning()) and its bound must end the segment at the same branch
 * either way.
 *
 * Code (raw bytes mapped at 0x401000, decoded by hand):
 *   jumps:  401000 nop               401001 jmp 401005
 *           401003 nop; nop (never run)
 *           401005 nop               401006 jmp 401000
 *   calls:  401008 nop               401009 call 401010
 *           40100e nop; nop (never run)
 *           401010 nop               401011 jmp 401008
 *           401013 ret
 *   walk:   401014 nop               401015 jmp 401014
 *   lock:   401017 lock jmp 401017 (f0 eb fd)
 * The chain (a second code file, below): 10,000 pairs "nop; jmp" in a
 * loop, more distinct jumps than the spin watch sees come back before the
 * bound of 2^20 branches per trace position.
 * Streams (libipt's encoder): PSB+ TIP.PGE(entry) TNT(T), the TNT bit
 * never used; for the walk after the trace's end (ptdec.c, walk_loops)
 * without the TNT. Entered at the loop's jump or call (401001, 401009,
 * 401015), the loop's first block, decoded fresh, is cut at it on the
 * second pass: nop, then jump (or call); from the cache, after a decode
 * entered at the loop's top (401000, 401008, 401014), nop and jump are
 * one block.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "code_fixture.h"
#include "tl_sink.h"
#include "session/session.h"

#define JUMPS_TOP 0x401000u
#define JUMPS_JMP 0x401001u
#define CALLS_TOP 0x401008u
#define CALLS_CALL 0x401009u
#define WALK_TOP 0x401014u
#define WALK_JMP 0x401015u
#define LOCK_JMP 0x401017u

/*
 * The chain: CHAIN_PAIRS pairs "nop; jmp" at CODE_FIXTURE_BASE + 3 k, each
 * jump to the next pair (eb 00), the last back to the first (e9, rel32).
 * A loop of CHAIN_PAIRS distinct jumps: the spin watch, whose watched
 * branch must come back SPIN_REPEATS times before a span of branches that
 * doubles from 1 runs out (Brent), sees the 64th return of a jump only
 * after about 1.69 million branches (by a count of the watch's steps
 * over a cycle of 10,000), past the hard limit of 2^20 branches per
 * trace position: the limit ends it.
 */
#define CHAIN_PAIRS 10000u
#define CHAIN_TOP CODE_FIXTURE_BASE
#define CHAIN_JMP (CODE_FIXTURE_BASE + 1u)

static struct code_fixture fx, chain;

static int suite_init(void)
{
	static const uint8_t bytes[] = {
		0x90, 0xeb, 0x02, 0x90, 0x90, 0x90, 0xeb, 0xf8,
		0x90, 0xe8, 0x02, 0x00, 0x00, 0x00, 0x90, 0x90, 0x90, 0xeb, 0xf5, 0xc3,
		0x90, 0xeb, 0xfd,
		0xf0, 0xeb, 0xfd,
	};
	static uint8_t code[3 * CHAIN_PAIRS + 3];
	int32_t back = -(int32_t)sizeof(code);
	size_t k;

	for (k = 0; k < CHAIN_PAIRS; k++) {
		code[3 * k] = 0x90;
		code[3 * k + 1] = 0xeb;
		code[3 * k + 2] = 0x00;
	}
	/* the last pair's jump: 5 bytes, back to the first */
	code[3 * k - 2] = 0xe9;
	memcpy(&code[3 * k - 1], &back, sizeof(back));
	if (code_fixture_init(&fx, "spincache", bytes, sizeof(bytes)))
		return 1;
	return code_fixture_init(&chain, "spinchain", code, sizeof(code));
}

static int suite_cleanup(void)
{
	return code_fixture_cleanup(&fx) | code_fixture_cleanup(&chain);
}

/* Tracing on at entry; with spin, a TNT bit the loop never uses (else the trace ends there). */
static void loop_segment(struct pt_gen *g, uint64_t tsc, uint64_t entry, bool spin)
{
	gen_psb_plus(g, tsc);
	gen_ip(g, ppt_tip_pge, entry);
	if (spin)
		gen_tnt(g, "T");
}

/* What one decoder made of a stream: its events as text, and its counts. */
struct spin_seen {
	char events[16384];
	struct pts_ptdec_stats st;
};

/* The loop entered at entry, decoded over set (spin: loop_segment's). */
static void decode_loop(struct pts_imgset *set, uint64_t entry, bool spin, struct spin_seen *seen)
{
	struct pt_gen g;

	gen_init(&g);
	loop_segment(&g, 1000, entry, spin);
	code_fixture_events(&g, set, seen->events, sizeof(seen->events), &seen->st);
}

/*
 * The loop entered at entry: decoded with the block cache empty, and
 * after a decode entered at top filled it. The same events and
 * instructions; the blocks differ (the first decode's cut one).
 */
static void check_serial(uint64_t entry, uint64_t top, bool spin)
{
	static struct spin_seen fresh, warm, warm_up;
	struct pts_imgset *set = code_fixture_set(&fx);

	decode_loop(set, entry, spin, &fresh);
	pts_imgset_free(set);
	set = code_fixture_set(&fx);
	decode_loop(set, top, spin, &warm_up);
	decode_loop(set, entry, spin, &warm);
	pts_imgset_free(set);

	CU_ASSERT_NOT_EQUAL(fresh.st.blocks, warm.st.blocks);	/* the cut was made */
	CU_ASSERT_STRING_EQUAL(warm.events, fresh.events);
	CU_ASSERT_EQUAL(warm.st.insns, fresh.st.insns);
	CU_ASSERT_EQUAL(warm.st.gaps, fresh.st.gaps);
	CU_ASSERT_EQUAL(strstr(fresh.events, "endless loop") != NULL, spin);
	if (warm.st.insns != fresh.st.insns)
		fprintf(stderr, "spin_cache %llx: %llu instructions with the cache filled, %llu fresh\n",
			(unsigned long long)entry, (unsigned long long)warm.st.insns,
			(unsigned long long)fresh.st.insns);
}

static void jump_loop_ends_at_the_same_branch_with_its_blocks_cached_or_not(void)
{
	check_serial(JUMPS_JMP, JUMPS_TOP, true);
}

static void call_loop_ends_at_the_same_branch_with_its_blocks_cached_or_not(void)
{
	check_serial(CALLS_CALL, CALLS_TOP, true);
}

static void walk_after_the_trace_ends_at_the_same_branch_with_its_blocks_cached_or_not(void)
{
	check_serial(WALK_JMP, WALK_TOP, false);
}

/* What one decoder made of a long stream: its events counted, the last 4 as text, its counts. */
struct tail_seen {
	uint64_t events;
	char last[4][160];
	struct pts_ptdec_stats st;
};

/* A loop entered at entry (loop_segment's spin), decoded over set. */
static void decode_tail(struct pts_imgset *set, uint64_t entry, struct tail_seen *seen)
{
	const struct pts_branch *br;
	struct pts_ptdec *d;
	struct pt_gen g;

	memset(seen, 0, sizeof(*seen));
	gen_init(&g);
	loop_segment(&g, 1000, entry, true);
	d = code_fixture_decoder(&g, set);
	while (pts_ptdec_next(d, &br) == 1) {
		snprintf(seen->last[seen->events++ % 4], sizeof(seen->last[0]), "%s %llx>%llx %s",
			 pts_br_kind_name(br->kind), (unsigned long long)br->from,
			 (unsigned long long)br->to, br->detail ? br->detail : "");
	}
	pts_ptdec_stats(d, &seen->st);
	pts_ptdec_free(d);
	gen_done(&g);
}

/*
 * The chain (CHAIN_PAIRS) entered at its first jump, with the block cache
 * empty and after a decode entered at its top filled it: the hard limit
 * ends both at the same branch (once it counted blocks: the fresh
 * decode's first pair, cut, is one block more, and it ended one block
 * earlier). libipt's blocks differ; the events and instructions do not.
 */
static void chain_reaching_the_limit_ends_at_the_same_branch_with_its_blocks_cached_or_not(void)
{
	static struct tail_seen fresh, warm, warm_up;
	struct pts_imgset *set = code_fixture_set(&chain);
	int i;

	decode_tail(set, CHAIN_JMP, &fresh);
	pts_imgset_free(set);
	set = code_fixture_set(&chain);
	decode_tail(set, CHAIN_TOP, &warm_up);
	decode_tail(set, CHAIN_JMP, &warm);
	pts_imgset_free(set);

	CU_ASSERT_NOT_EQUAL(fresh.st.blocks, warm.st.blocks);	/* the cut was made */
	/* the limit, not the watch: at least 2^20 jumps, the segment ended */
	CU_ASSERT(fresh.st.branches >= 1u << 20);
	CU_ASSERT_PTR_NOT_NULL(strstr(fresh.last[(fresh.events - 1) % 4], "endless loop"));
	CU_ASSERT_EQUAL(warm.events, fresh.events);
	for (i = 0; i < 4; i++)
		CU_ASSERT_STRING_EQUAL(warm.last[i], fresh.last[i]);
	CU_ASSERT_EQUAL(warm.st.insns, fresh.st.insns);
	CU_ASSERT_EQUAL(warm.st.branches, fresh.st.branches);
	CU_ASSERT_EQUAL(warm.st.gaps, fresh.st.gaps);
	if (warm.st.insns != fresh.st.insns)
		fprintf(stderr, "spin_cache chain: %llu instructions with the cache filled, %llu fresh\n",
			(unsigned long long)warm.st.insns, (unsigned long long)fresh.st.insns);
}

/* What a session decode made of the trace: its records' shape and its summary. */
struct session_seen {
	struct tl_sink sink;
	char shape[65536];
	struct pts_decode_summary sum;
};

static void decode_session(const struct code_fixture *f, const char *trace, unsigned int jobs,
			   bool reverse, struct session_seen *seen)
{
	struct pts_decode_opts o;
	struct pts_err err = { 0 };

	memset(&seen->sink, 0, sizeof(seen->sink));
	code_fixture_raw_opts(f, trace, &o);
	o.scope = PTS_SCOPE_USER;
	o.jobs = jobs;
	o.par_reverse = reverse;
	o.chunk_bytes = 1;	/* a chunk at every PSB */
	CU_ASSERT_EQUAL(pts_decode_raw(&o, tl_sink_emit, &seen->sink, &seen->sum, &err), 0);
	tl_sink_shape(&seen->sink, seen->shape, sizeof(seen->shape));
}

/*
 * A loop of f's code entered at first, then, after the next PSB, at second (the
 * trace ending there without spin): serially the first segment is
 * decoded first; in parallel with the chunks decoded last first (the
 * pool's reverse option), the second is. The same records and counts.
 */
static void check_parallel(const struct code_fixture *f, uint64_t first, uint64_t second,
			   bool spin)
{
	static struct session_seen serial, par;
	struct pt_gen g;
	char trace[128];
	int k;

	snprintf(trace, sizeof(trace), "%s/trace.pt", fx.dir);
	gen_init(&g);
	loop_segment(&g, 1000, first, true);
	loop_segment(&g, 2000, second, spin);
	gen_save(&g, trace);
	gen_done(&g);

	decode_session(f, trace, 1, false, &serial);
	CU_ASSERT_EQUAL(serial.sum.gaps, spin ? 2 : 1);
	for (k = 0; k < 2; k++) {
		decode_session(f, trace, 2, k, &par);
		CU_ASSERT_STRING_EQUAL(par.shape, serial.shape);
		CU_ASSERT_EQUAL(par.sum.insns, serial.sum.insns);
		CU_ASSERT_EQUAL(par.sum.branches, serial.sum.branches);
		CU_ASSERT_EQUAL(par.sum.elided, serial.sum.elided);
		CU_ASSERT_EQUAL(par.sum.gaps, serial.sum.gaps);
		if (par.sum.insns != serial.sum.insns || par.sum.branches != serial.sum.branches)
			fprintf(stderr, "spin_cache%s: %llu instructions, %llu branches; serially %llu, %llu\n",
				k ? " reverse" : "", (unsigned long long)par.sum.insns,
				(unsigned long long)par.sum.branches,
				(unsigned long long)serial.sum.insns,
				(unsigned long long)serial.sum.branches);
		pts_decode_summary_free(&par.sum);
		tl_sink_free(&par.sink);
	}
	pts_decode_summary_free(&serial.sum);
	tl_sink_free(&serial.sink);
	unlink(trace);
}

/* serially the first loop's blocks are cut, in reverse not */
static void jump_loop_decoded_in_parallel_ends_at_the_serial_decodes_branch(void)
{
	check_parallel(&fx, JUMPS_JMP, JUMPS_TOP, true);
}

static void call_loop_decoded_in_parallel_ends_at_the_serial_decodes_branch(void)
{
	check_parallel(&fx, CALLS_CALL, CALLS_TOP, true);
}

/* in reverse the walk's blocks are cut, serially not */
static void walk_decoded_in_parallel_ends_at_the_serial_decodes_branch(void)
{
	check_parallel(&fx, WALK_TOP, WALK_JMP, false);
}

/*
 * serially the chain, entered at its first jump, is decoded fresh to the
 * limit and its first pair cut; in reverse after the walk over it (the
 * trace's end: the walk ends when a jump comes back) filled the cache
 */
static void chain_decoded_in_parallel_ends_at_the_serial_decodes_branch_at_the_limit(void)
{
	check_parallel(&chain, CHAIN_JMP, CHAIN_TOP, false);
}

/*
 * `lock jmp .` (f0 eb fd): libipt's instruction decoder follows the jump,
 * Zydis refuses the instruction (a LOCK prefix on a jump), so the spin
 * watch and the bound of branches never count it. The bound of blocks
 * ends the segment: 2^22 blocks of one instruction each.
 */
static void jump_the_classifier_refuses_ends_at_the_bound_of_blocks(void)
{
	static struct tail_seen seen;
	struct pts_imgset *set = code_fixture_set(&fx);

	decode_tail(set, LOCK_JMP, &seen);
	pts_imgset_free(set);
	CU_ASSERT_EQUAL(seen.st.blocks, 1u << 22);
	CU_ASSERT_EQUAL(seen.st.insns, 1u << 22);
	CU_ASSERT_EQUAL(seen.st.gaps, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(seen.last[(seen.events - 1) % 4], "endless loop"));
}

PTS_SUITE(decode_spin_cache, suite_init, suite_cleanup,
	  PTS_TEST(jump_loop_ends_at_the_same_branch_with_its_blocks_cached_or_not),
	  PTS_TEST(call_loop_ends_at_the_same_branch_with_its_blocks_cached_or_not),
	  PTS_TEST(walk_after_the_trace_ends_at_the_same_branch_with_its_blocks_cached_or_not),
	  PTS_TEST(jump_loop_decoded_in_parallel_ends_at_the_serial_decodes_branch),
	  PTS_TEST(call_loop_decoded_in_parallel_ends_at_the_serial_decodes_branch),
	  PTS_TEST(walk_decoded_in_parallel_ends_at_the_serial_decodes_branch),
	  PTS_TEST(chain_reaching_the_limit_ends_at_the_same_branch_with_its_blocks_cached_or_not),
	  PTS_TEST(chain_decoded_in_parallel_ends_at_the_serial_decodes_branch_at_the_limit),
	  PTS_TEST(jump_the_classifier_refuses_ends_at_the_bound_of_blocks));
