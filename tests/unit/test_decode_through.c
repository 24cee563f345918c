// SPDX-License-Identifier: GPL-2.0
/*
 * Blocks through direct calls and jumps (pts_ptdec_config.through): libipt
 * runs on through the direct branches that end_on_call and end_on_jump
 * end a block at, and the decoder hands out the branches inside each
 * block as the blocks the flags make. The events must be the flags'
 * events, in 64-, 32- and 16-bit code (a target is libipt's arithmetic on
 * rel8, rel16 or rel32), with more branches in a block than the path
 * cache holds and than the event queue holds (16), and where the loop
 * watches end a segment: a loop of direct branches that no trace ends,
 * which libipt follows by recursion to 65,535 instructions. That is
 * ~13 MiB of stack in libipt 2.0.5 (decode/deep.h): the through decodes
 * here run on pts_deep_run's thread; on the 8 MiB main thread the first
 * one dies of SIGSEGV inside pt_blk_next.
 *
 * Code (raw bytes mapped at 0x401000, decoded by hand):
 *   jump:   401000 nop               401001 jmp 401001 (eb fe)
 *   call:   401003 nop               401004 call 401004 (e8 fb ff ff ff)
 *   chain:  401009 + 6 k, k < 20: call +1 (e8 01 00 00 00), nop never run;
 *           401081 jmp 401081
 *   32-bit: 401083 call 401089 (e8 01 00 00 00)  401088 nop (never run)
 *           401089 jmp 40108c (eb 01)            40108b nop (never run)
 *           40108c call 40108c (e8 fb ff ff ff)
 *   16-bit: 401091 call 401095 (e8 01 00: rel16)  401094 nop (never run)
 *           401095 jmp 401098 (eb 01)             401097 nop (never run)
 *           401098 call 401098 (e8 fd ff: rel16 -3)
 * Streams (libipt's encoder): PSB+ with MODE.Exec of the code's mode,
 * TIP.PGE(entry), a TNT bit never used (or none: the walk after the
 * trace's end, ptdec.c walk_loops).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "code_fixture.h"
#include "tl_sink.h"
#include "decode/deep.h"
#include "session/session.h"

#define JUMP 0x401000u
#define CALL 0x401003u
#define CHAIN 0x401009u
#define CHAIN_CALLS 20u
#define CODE32 0x401083u
#define CODE16 0x401091u

static struct code_fixture fx;
static char trace[128];

static int suite_init(void)
{
	static uint8_t bytes[0xa0];
	static const uint8_t head[] = { 0x90, 0xeb, 0xfe, 0x90, 0xe8, 0xfb, 0xff, 0xff, 0xff };
	static const uint8_t tail[] = {
		0xeb, 0xfe,
		0xe8, 0x01, 0x00, 0x00, 0x00, 0x90, 0xeb, 0x01, 0x90, 0xe8, 0xfb, 0xff, 0xff, 0xff,
		0xe8, 0x01, 0x00, 0x90, 0xeb, 0x01, 0x90, 0xe8, 0xfd, 0xff,
	};
	static const uint8_t call1[] = { 0xe8, 0x01, 0x00, 0x00, 0x00, 0x90 };
	size_t n = 0, k;

	memcpy(bytes, head, sizeof(head));
	n = sizeof(head);
	for (k = 0; k < CHAIN_CALLS; k++, n += sizeof(call1))
		memcpy(bytes + n, call1, sizeof(call1));
	memcpy(bytes + n, tail, sizeof(tail));
	n += sizeof(tail);
	if (code_fixture_init(&fx, "through", bytes, n))
		return 1;
	snprintf(trace, sizeof(trace), "%s/trace.pt", fx.dir);
	return 0;
}

static int suite_cleanup(void)
{
	unlink(trace);
	return code_fixture_cleanup(&fx);
}

/* PSB+ in mode, tracing on at entry; with spin, a TNT bit the code never uses. */
static void segment(struct pt_gen *g, enum pt_exec_mode mode, uint64_t entry, bool spin)
{
	gen_init(g);
	gen_simple(g, ppt_psb);
	gen_tsc(g, 1000);
	gen_cbr(g, 37);
	gen_simple(g, ppt_psbend);
	gen_mode_exec(g, mode);
	gen_ip(g, ppt_tip_pge, entry);
	if (spin)
		gen_tnt(g, "T");
}

/* One decode's events as text and its counts (code_fixture_events_with). */
struct seen {
	struct pt_gen g;
	bool through;
	char events[32768];
	struct pts_ptdec_stats st;
};

static void decode_seen(void *p)
{
	struct seen *s = p;
	struct pts_imgset *set = code_fixture_set(&fx);

	code_fixture_events_with(&s->g, set, s->through, s->events, sizeof(s->events), &s->st);
	pts_imgset_free(set);
}

/*
 * The stream from entry in mode, decoded with the flags (this thread) and
 * through direct branches (a deep stack), each over a fresh image set
 * (an empty block cache): the same events, instructions and branches.
 * The through decode's events in *out.
 */
static void check(enum pt_exec_mode mode, uint64_t entry, bool spin, struct seen *out)
{
	static struct seen flags;

	segment(&flags.g, mode, entry, spin);
	flags.through = false;
	decode_seen(&flags);
	segment(&out->g, mode, entry, spin);
	out->through = true;
	CU_ASSERT_EQUAL_FATAL(pts_deep_run(decode_seen, out), 0);
	CU_ASSERT_STRING_EQUAL(out->events, flags.events);
	CU_ASSERT_EQUAL(out->st.insns, flags.st.insns);
	CU_ASSERT_EQUAL(out->st.branches, flags.st.branches);
	CU_ASSERT_EQUAL(out->st.gaps, flags.st.gaps);
	if (strcmp(out->events, flags.events))
		fprintf(stderr, "through %llx:\n%s\nflags:\n%s\n", (unsigned long long)entry,
			out->events, flags.events);
}

static bool spin_gap(const struct seen *s)
{
	return strstr(s->events, "endless loop of direct jumps") != NULL;
}

static void jump_to_itself_ends_with_the_loop_gap_as_with_the_flags(void)
{
	static struct seen s;

	check(ptem_64bit, JUMP, true, &s);
	CU_ASSERT(spin_gap(&s));
	CU_ASSERT_EQUAL(s.st.gaps, 1);
}

static void call_to_itself_ends_with_the_loop_gap_as_with_the_flags(void)
{
	static struct seen s;

	check(ptem_64bit, CALL, true, &s);
	CU_ASSERT(spin_gap(&s));
	CU_ASSERT(strstr(s.events, "call 401004>401004\n") != NULL);
}

/* The walk after the trace's end (no TNT): ended at a loop of the block's inner jumps. */
static void walk_after_the_end_ends_in_a_loop_of_inner_jumps(void)
{
	static struct seen s;

	check(ptem_64bit, JUMP, false, &s);
	CU_ASSERT(!spin_gap(&s));
	CU_ASSERT_EQUAL(s.st.gaps, 0);
}

/* More direct calls in one block than the path cache's entry and the queue hold: each its event. */
static void calls_in_one_block_each_their_event_in_order(void)
{
	static struct seen s;
	char want[64];
	const char *at = NULL;
	unsigned int k;

	check(ptem_64bit, CHAIN, true, &s);
	for (k = 0, at = s.events; k < CHAIN_CALLS && at; k++) {
		snprintf(want, sizeof(want), "call %x>%x\n", CHAIN + 6 * k, CHAIN + 6 * k + 6);
		at = strstr(at, want);
	}
	CU_ASSERT_PTR_NOT_NULL(at);
	CU_ASSERT(spin_gap(&s));
}

/* rel32 in 32-bit code: the targets libipt computes, a call to itself that loops. */
static void direct_branches_of_32_bit_code(void)
{
	static struct seen s;

	check(ptem_32bit, CODE32, true, &s);
	CU_ASSERT(strstr(s.events, "call 401083>401089\n") != NULL);
	CU_ASSERT(strstr(s.events, "call 40108c>40108c\n") != NULL);
	CU_ASSERT(spin_gap(&s));
}

/* rel16 in 16-bit code, forward and back (e8 fd ff: -3). */
static void direct_branches_of_16_bit_code(void)
{
	static struct seen s;

	check(ptem_16bit, CODE16, true, &s);
	CU_ASSERT(strstr(s.events, "call 401091>401095\n") != NULL);
	CU_ASSERT(strstr(s.events, "call 401098>401098\n") != NULL);
	CU_ASSERT(spin_gap(&s));
}

/*
 * A session's serial decode (pts_decode_raw, -j 1, no instruction
 * listing) runs through direct branches on a thread of its own
 * (session.c, pts_decode_run): the call loop ends in its gap there too.
 */
static void session_decode_of_a_call_loop_ends_with_the_loop_gap(void)
{
	struct pts_decode_opts o;
	struct pts_decode_summary sum;
	struct tl_sink sink = { 0 };
	struct pts_err err = { 0 };
	struct pt_gen g;
	unsigned int i, n = 0;

	segment(&g, ptem_64bit, CALL, true);
	gen_save(&g, trace);
	gen_done(&g);
	code_fixture_raw_opts(&fx, trace, &o);
	CU_ASSERT_EQUAL_FATAL(pts_decode_raw(&o, tl_sink_emit, &sink, &sum, &err), 0);
	for (i = 0; i < sum.nr_causes; i++)
		if (strstr(sum.causes[i].cause, "endless loop of direct jumps"))
			n += sum.causes[i].count;
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(sum.gaps, 1);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * A parallel decode (-j 2, every chunk a worker's: par_workers) of four
 * PSB periods, each a call loop: each chunk's decoder goes through direct
 * branches on its worker (pts_pool_options.deep), whose stack holds
 * libipt's recursion (on a default 8 MiB stack the first chunk dies of
 * SIGSEGV inside pt_blk_next): each period ends in its loop gap, as the
 * serial decode's do.
 */
static void workers_decode_call_loops_with_the_loop_gaps_of_the_serial_decode(void)
{
	struct pts_decode_summary sum[2];
	struct pts_decode_opts o;
	struct tl_sink sink = { 0 };
	struct pts_err err = { 0 };
	struct pt_gen g;
	unsigned int i, k, n;

	gen_init(&g);
	for (k = 0; k < 4; k++) {
		gen_simple(&g, ppt_psb);
		gen_tsc(&g, 1000 + 1000 * k);
		gen_cbr(&g, 37);
		gen_simple(&g, ppt_psbend);
		gen_mode_exec(&g, ptem_64bit);
		gen_ip(&g, ppt_tip_pge, CALL);
		gen_tnt(&g, "T");
	}
	gen_save(&g, trace);
	gen_done(&g);
	for (k = 0; k < 2; k++) {
		code_fixture_raw_opts(&fx, trace, &o);
		o.jobs = k ? 2 : 1;
		o.chunk_bytes = 32;
		o.par_workers = true;
		CU_ASSERT_EQUAL_FATAL(pts_decode_raw(&o, tl_sink_emit, &sink, &sum[k], &err), 0);
		for (i = 0, n = 0; i < sum[k].nr_causes; i++)
			if (strstr(sum[k].causes[i].cause, "endless loop of direct jumps"))
				n += sum[k].causes[i].count;
		CU_ASSERT_EQUAL(n, 4);
		CU_ASSERT_EQUAL(sum[k].gaps, 4);
		CU_ASSERT_EQUAL(sum[k].branches, sum[0].branches);
		tl_sink_free(&sink);
		memset(&sink, 0, sizeof(sink));
	}
	CU_ASSERT_EQUAL(sum[1].par_cpu.workers, 2);
	CU_ASSERT(sum[1].par_joins + sum[1].par_refused >= 3);
	pts_decode_summary_free(&sum[0]);
	pts_decode_summary_free(&sum[1]);
}

PTS_SUITE(decode_through, suite_init, suite_cleanup,
	  PTS_TEST(jump_to_itself_ends_with_the_loop_gap_as_with_the_flags),
	  PTS_TEST(call_to_itself_ends_with_the_loop_gap_as_with_the_flags),
	  PTS_TEST(walk_after_the_end_ends_in_a_loop_of_inner_jumps),
	  PTS_TEST(calls_in_one_block_each_their_event_in_order),
	  PTS_TEST(direct_branches_of_32_bit_code),
	  PTS_TEST(direct_branches_of_16_bit_code),
	  PTS_TEST(session_decode_of_a_call_loop_ends_with_the_loop_gap),
	  PTS_TEST(workers_decode_call_loops_with_the_loop_gaps_of_the_serial_decode));
