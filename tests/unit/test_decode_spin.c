// SPDX-License-Identifier: GPL-2.0
/*
 * A trace that ends inside a loop of direct jumps (issue 20 item 1). A
 * direct jump needs no packet, so nothing in the trace ends such a loop:
 * the decoder must see that it loops without consuming trace, end the
 * segment with a gap that says so, and go on at the next PSB.
 *
 * Code (raw bytes mapped at 0x401000, decoded by hand):
 *   401000 nop            401001 jmp 401001 (eb fe: `jmp .`)
 *   401003 ret
 * Stream (libipt's encoder): PSB+ TIP.PGE(401000) TNT(T) — the TNT bit is
 * never used, so libipt does not report the end of the trace while it
 * follows the jump — then, in the second case, PSB+ TIP.PGE(401003)
 * TIP.PGD(suppressed) binding to the ret.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"
#include "code_fixture.h"
#include "tl_sink.h"
#include "session/session.h"

#define SPIN_CAUSE "endless loop of direct jumps that consumes no trace: segment ended"

static struct code_fixture fx;
static char trace[128];
static uint64_t ninsns, last_ip;

static void on_insn(void *ctx, uint32_t cpu, uint64_t ip)
{
	(void)ctx;
	(void)cpu;
	ninsns++;
	last_ip = ip;
}

static void on_alarm(int sig)
{
	static const char msg[] = "decode_spin: the decoder did not end (loop of direct jumps)\n";

	(void)sig;
	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(1);
}

static int suite_init(void)
{
	static const uint8_t bytes[] = { 0x90, 0xeb, 0xfe, 0xc3 };

	if (code_fixture_init(&fx, "spin", bytes, sizeof(bytes)))
		return 1;
	snprintf(trace, sizeof(trace), "%s/trace.pt", fx.dir);
	return 0;
}

static int suite_cleanup(void)
{
	unlink(trace);
	return code_fixture_cleanup(&fx);
}

/* Decode g's stream over the code; a decoder that never ends fails the run. */
static void decode(struct pt_gen *g, struct tl_sink *sink, struct pts_decode_summary *sum)
{
	struct pts_decode_opts o;
	struct pts_err err = { 0 };
	char why[256];

	gen_save(g, trace);
	gen_done(g);
	code_fixture_raw_opts(&fx, trace, &o);
	o.on_insn = on_insn;
	ninsns = 0;
	signal(SIGALRM, on_alarm);
	alarm(20);
	CU_ASSERT_EQUAL(pts_decode_raw(&o, tl_sink_emit, sink, sum, &err), 0);
	alarm(0);
	if (!tl_sink_well_formed(sink, why, sizeof(why)))
		CU_FAIL(why);
}

static void spin_segment(struct pt_gen *g)
{
	gen_psb_plus(g, 1000);
	gen_ip(g, ppt_tip_pge, 0x401000);
	gen_tnt(g, "T");
}

static int has_spin_gap(const struct pts_decode_summary *sum)
{
	unsigned int i;

	for (i = 0; i < sum->nr_causes; i++)
		if (!strcmp(sum->causes[i].cause, SPIN_CAUSE))
			return sum->causes[i].count == 1;
	return 0;
}

/*
 * The nop and the jump (one block), then the jump alone: the loop is
 * found once the jump came back SPIN_REPEATS (64) times after it was
 * first watched, which is within the first few passes: 2 + 64 to
 * 2 + 2 * 64 instructions are listed.
 */
static void trace_ending_in_jmp_to_itself_ends_with_a_loop_gap(void)
{
	struct pt_gen g;
	struct tl_sink sink = { 0 };
	struct pts_decode_summary sum;

	gen_init(&g);
	spin_segment(&g);
	decode(&g, &sink, &sum);
	CU_ASSERT(ninsns >= 2 + 64 && ninsns <= 2 + 2 * 64);
	CU_ASSERT_EQUAL(last_ip, 0x401001);
	CU_ASSERT_EQUAL(sum.gaps, 1);
	CU_ASSERT(has_spin_gap(&sum));
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/* The loop ends its segment only: the next PSB's segment (the ret) is decoded. */
static void loop_without_trace_resumes_at_the_next_psb(void)
{
	struct pt_gen g;
	struct tl_sink sink = { 0 };
	struct pts_decode_summary sum;

	gen_init(&g);
	spin_segment(&g);
	gen_psb_plus(&g, 2000);
	gen_ip(&g, ppt_tip_pge, 0x401003);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	decode(&g, &sink, &sum);
	CU_ASSERT(ninsns >= 2 + 64 + 1 && ninsns <= 2 + 2 * 64 + 1);
	CU_ASSERT_EQUAL(last_ip, 0x401003);
	CU_ASSERT(has_spin_gap(&sum));
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

PTS_SUITE(decode_spin, suite_init, suite_cleanup,
	  PTS_TEST(trace_ending_in_jmp_to_itself_ends_with_a_loop_gap),
	  PTS_TEST(loop_without_trace_resumes_at_the_next_psb));
