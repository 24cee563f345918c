// SPDX-License-Identifier: GPL-2.0
/*
 * A block through direct branches (pts_ptdec_config.through) whose code
 * Zydis cannot walk: the decoder finds the direct branches inside
 * libipt's block by walking its instructions (ptdec.c, path_fill), and an
 * opcode invalid in 64-bit mode (0x27, DAA), which Zydis refuses and
 * libipt's length decoder takes as one byte, ended that walk. The block
 * was then handed out whole, its direct call lost: the frame the call
 * opens was missing and the next one was named after the block's last
 * instruction (fuzz finding 28, docs/fuzzing.md: a damaged trace returned
 * into the middle of `mov $39, %eax`, whose 0x27 byte then ran, and on
 * into f1 and its call of f2). The rule: the block's pieces are the
 * blocks the flags would have given (a block ends at every direct
 * branch), however the block's code decodes; where Zydis cannot walk it,
 * libipt's instruction flow decoder does (decode/insn_flow.h).
 *
 * Code (raw bytes mapped at 0x401000, decoded by hand):
 *   401000 27 (DAA, invalid in 64-bit mode)  401001 call 401008 (e8 02 00 00 00)
 *   401006 nop; nop (never run)               401008 je 401000 (74 f6)
 *   40100a ret
 * The first pass from 401000 fills libipt's block cache, whose block ends
 * at the call; the second one, from the cache, runs through direct
 * branches over the DAA and the call to the je, whose bit it asks for:
 * the block the walk could not follow.
 * Streams (libipt's encoder): PSB+, TIP.PGE(401000), TNT(T), TNT(N),
 * TIP.PGD (suppressed) at the ret; and, for a block that comes with an
 * error, the same up to TNT(N), then a byte that is no packet (0x05:
 * "unknown opcode"): libipt's query decoder reads ahead past the TNT
 * packet it takes the second je's bit from, and fails that query.
 *
 * By hand: tracing enabled at 401000, the call 401001>401008, the je
 * back, the call again, tracing disabled at the ret (or the gap "unknown
 * opcode" at the second je). The oracle, libipt's instruction flow
 * decoder on the same bytes: 401000, the call at 401001 (the next
 * instruction 401008), 401008, twice, and 40100a (7 instructions, 2
 * calls), or for the damaged stream the error at the damaged byte (6
 * instructions, the je whose query failed among them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "code_fixture.h"
#include "ipt_ref.h"
#include "decode/deep.h"

CODE_FIXTURE_SUITE(fx, "badOp", 0x27, 0xe8, 0x02, 0x00, 0x00, 0x00, 0x90, 0x90, 0x74, 0xf6, 0xc3);

/* Where the damaged byte lies in the damaged stream (its trace offset). */
static uint64_t damage_at;

static void stream(struct pt_gen *g, bool damaged)
{
	gen_init(g);
	gen_psb_plus(g, 1000);
	gen_ip(g, ppt_tip_pge, 0x401000);
	gen_tnt(g, "T");
	gen_tnt(g, "N");
	if (damaged) {
		damage_at = gen_len(g);
		g->buf[damage_at] = 0x05;
		CU_ASSERT_EQUAL_FATAL(pt_enc_sync_set(g->enc, damage_at + 1), 0);
		return;
	}
	gen_ip_suppressed(g, ppt_tip_pgd);
}

struct seen {
	bool through, damaged;
	char events[1024];
	struct pts_ptdec_stats st;
};

/* The stream decoded serially: its events as lines, its counts. */
static void decode_seen(void *p)
{
	struct seen *s = p;
	struct pts_imgset *set = code_fixture_set(&fx);
	struct pt_gen g;

	stream(&g, s->damaged);
	code_fixture_events_with(&g, set, s->through, s->events, sizeof(s->events), &s->st);
	pts_imgset_free(set);
}

/* What the oracle saw: ipt_ref_run's result, the instructions' addresses. */
struct oracle {
	struct ipt_ref_result r;
	uint64_t ip[16];
	uint64_t calls;		/* the call at 401001 followed by 401008, its target */
};

/*
 * The oracle: libipt's instruction flow decoder (pt_insn_*, which walks
 * no block) on the same bytes and code (ipt_ref.h): the instructions it
 * lists (one returned with an error counted), its errors and the first
 * one's trace offset, and the calls among the instructions (the call at
 * 401001 and, next, its target).
 */
static void libipt_flow(bool damaged, struct oracle *o)
{
	struct ipt_ref_raw code = { fx.code, fx.n, CODE_FIXTURE_BASE };
	struct pt_gen g;
	long i;

	memset(o, 0, sizeof(*o));
	stream(&g, damaged);
	CU_ASSERT_EQUAL_FATAL(ipt_ref_run(g.buf, gen_len(&g), ipt_ref_add_raw, &code, o->ip,
					  sizeof(o->ip) / sizeof(o->ip[0]), &o->r), 0);
	gen_done(&g);
	CU_ASSERT_FATAL(o->r.insns <= (long)(sizeof(o->ip) / sizeof(o->ip[0])));
	for (i = 0; i + 1 < o->r.insns; i++)
		o->calls += o->ip[i] == 0x401001 && o->ip[i + 1] == 0x401008;
}

/* How many times s holds what. */
static uint64_t count(const char *s, const char *what)
{
	uint64_t n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

/* The stream decoded with the flags and through direct branches: both as the oracle says. */
static void check_against_flags(bool damaged, struct seen *flags, struct seen *through,
				struct oracle *o)
{
	flags->through = false;
	flags->damaged = damaged;
	decode_seen(flags);
	through->through = true;
	through->damaged = damaged;
	CU_ASSERT_EQUAL_FATAL(pts_deep_run(decode_seen, through), 0);
	libipt_flow(damaged, o);
	/* the oracle: a call 401001 to 401008 in each pass, over the DAA libipt decoded */
	CU_ASSERT_EQUAL(o->ip[0], 0x401000);
	CU_ASSERT_EQUAL(o->calls, 2);
	/* the flags' decode: the oracle's calls, frame by frame */
	CU_ASSERT_EQUAL(count(flags->events, "call "), o->calls);
	CU_ASSERT_EQUAL(count(flags->events, "call 401001>401008\n"), o->calls);
	/* through direct branches: the same events and counts */
	CU_ASSERT_STRING_EQUAL(through->events, flags->events);
	CU_ASSERT_EQUAL(through->st.insns, flags->st.insns);
	CU_ASSERT_EQUAL(through->st.branches, flags->st.branches);
	CU_ASSERT_EQUAL(through->st.gaps, flags->st.gaps);
	if (strcmp(through->events, flags->events))
		fprintf(stderr, "through:\n%s\nflags:\n%s\n", through->events, flags->events);
}

/*
 * The block from 401000 ends at the je, which takes its bit: its call is
 * handed out as the block the flags end there, and the ret's disable.
 */
static void call_after_an_opcode_zydis_refuses_is_handed_out_as_with_the_flags(void)
{
	static struct seen flags, through;
	static const uint64_t ips[] = { 0x401000, 0x401001, 0x401008, 0x401000, 0x401001,
					0x401008, 0x40100a };
	struct oracle o;

	check_against_flags(false, &flags, &through, &o);
	CU_ASSERT_EQUAL(o.r.insns, 7);
	CU_ASSERT_EQUAL(o.r.errors, 0);
	CU_ASSERT_EQUAL(memcmp(o.ip, ips, sizeof(ips)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(flags.events, "disabled 40100a>0\n"));
	CU_ASSERT_EQUAL(flags.st.insns, (uint64_t)o.r.insns);
}

/*
 * The block from 401000 comes with the je's failed query (after_next):
 * its call, then the gap at the je, at the damaged byte.
 */
static void call_in_a_block_with_an_error_after_an_opcode_zydis_refuses(void)
{
	static struct seen flags, through;
	struct oracle o;
	char gap[96];

	check_against_flags(true, &flags, &through, &o);
	/* the first pass's three; 401000, the call and the je whose query failed */
	CU_ASSERT_EQUAL(o.r.insns, 6);
	CU_ASSERT_EQUAL(o.r.errors, 1);
	CU_ASSERT_EQUAL(o.r.err_off, damage_at);
	snprintf(gap, sizeof(gap), "gap 401008>0 unknown opcode @%llu\n",
		 (unsigned long long)o.r.err_off);
	CU_ASSERT_PTR_NOT_NULL(strstr(flags.events, gap));
	CU_ASSERT_EQUAL(flags.st.gaps, (uint64_t)o.r.errors);
	CU_ASSERT_EQUAL(flags.st.insns, (uint64_t)o.r.insns);
}

PTS_SUITE(decode_through_bad_opcode, suite_init, suite_cleanup,
	  PTS_TEST(call_after_an_opcode_zydis_refuses_is_handed_out_as_with_the_flags),
	  PTS_TEST(call_in_a_block_with_an_error_after_an_opcode_zydis_refuses));
