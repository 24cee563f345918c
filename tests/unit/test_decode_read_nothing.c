// SPDX-License-Identifier: GPL-2.0
/*
 * The trace position and time of each branch where the decoder does not
 * ask libipt for its position after every block (ptdec.c, read_nothing):
 * after a block that ends at a direct call or jump, and after a
 * conditional branch whose bit libipt's TNT cache already held. Every
 * branch must still get the time and position of the packet that decided
 * it, or for a direct branch of the one that decided the branch before it.
 * By hand, from libipt 2.0.5: a conditional branch takes a bit of the TNT
 * packet last read, and reads the next TNT packet only when none is left;
 * libipt's time is that of the last TNT or TIP packet it read, and its
 * position is past that packet and the timing packets after it, at the
 * next TNT or TIP (pt_qry_read_ahead).
 *
 * Code (raw bytes mapped at 0x401000, decoded by hand):
 *   401000 call 401010        e8 0b 00 00 00
 *   401005 jnz 401000         75 f9
 *   401007 jmp *0x0(%rip)     ff 25 00 00 00 00
 *   40100d nop (x3, never run)
 *   401010 jmp 401005         eb f3
 * A pass through the loop: a direct call, a direct jump, a conditional
 * branch (a TNT bit); not taken, the indirect jump takes a TIP. The
 * indirect jump reads its target through a RIP-relative operand, which
 * Zydis marks relative as it does a direct jump's displacement
 * (ZYDIS_ATTRIB_IS_RELATIVE): a decoder that took that mark for a direct
 * branch fails an_indirect_jump_after_direct_branches_gets_its_tip_time_and_position.
 */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "code_fixture.h"

#define CALL_AT 0x401000u
#define JNZ_AT 0x401005u
#define IJMP_AT 0x401007u
#define JMP_AT 0x401010u

CODE_FIXTURE_SUITE(fx, "readnothing",
		   0xe8, 0x0b, 0x00, 0x00, 0x00, 0x75, 0xf9, 0xff, 0x25, 0x00, 0x00, 0x00, 0x00,
		   0x90, 0x90, 0x90, 0xeb, 0xf3);

/* One event as decoded: kind, from, to, time, position. */
struct seen {
	enum pts_br_kind kind;
	uint64_t from, to, ts, pos;
};

/* Decode g's stream over the code into ev (at most max); returns their number. */
static size_t decode(struct pt_gen *g, struct seen *ev, size_t max)
{
	struct pts_imgset *set = code_fixture_set(&fx);
	struct pts_ptdec *d = code_fixture_decoder(g, set);
	const struct pts_branch *br;
	size_t n = 0;

	while (pts_ptdec_next(d, &br) == 1 && n < max) {
		ev[n] = (struct seen){ br->kind, br->from, br->to, br->ts_ns, pts_ptdec_pos(d) };
		n++;
	}
	pts_ptdec_free(d);
	pts_imgset_free(set);
	gen_done(g);
	return n;
}

/* The start of every stream here: PSB+ at time 1000, tracing on at the loop's top, a TSC of 2000. */
static void stream_begin(struct pt_gen *g)
{
	gen_init(g);
	gen_psb_plus(g, 1000);
	gen_ip(g, ppt_tip_pge, CALL_AT);
	gen_tsc(g, 2000);
}

/*
 * The end of every stream here: a TSC of tsc, then the last pass's bit
 * not taken, and the indirect jump's TIP.PGD. Returns the offset of that
 * TNT packet.
 */
static uint64_t stream_end(struct pt_gen *g, uint64_t tsc)
{
	uint64_t at;

	gen_tsc(g, tsc);
	at = gen_len(g);
	gen_tnt(g, "N");
	gen_ip_suppressed(g, ppt_tip_pgd);
	return at;
}

/* Events of kind from>to among ev[0, n), in order, into out; returns their number. */
static size_t pick(const struct seen *ev, size_t n, enum pts_br_kind kind, uint64_t from,
		   uint64_t to, struct seen *out)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (ev[i].kind == kind && ev[i].from == from && ev[i].to == to)
			out[k++] = ev[i];
	return k;
}

/*
 * TNT packets of 1 to 6 bits, each after a TSC of its own: every taken
 * conditional branch has its packet's TSC and the position after it (at
 * the next TNT packet: the TSC before it is read ahead); the calls and direct
 * jumps of the pass after it the same. The first bit of each packet is
 * the one whose call reads it; a decoder that counted the bits one too
 * many would give that branch the packet before's.
 */
static void branches_get_their_tnt_packets_time_and_position_whatever_its_bit_count(void)
{
	static const char *const tnt[] = { "T", "TT", "TTT", "TTTT", "TTTTT", "TTTTTT" };
	static struct seen ev[256], jnz[64], call[64], jmp[64];
	uint64_t at[7], tsc[6];
	struct pt_gen g;
	size_t n, i, j, k = 0;

	stream_begin(&g);
	for (i = 0; i < 6; i++) {
		tsc[i] = 2000 + 1000 * i;
		if (i)
			gen_tsc(&g, tsc[i]);
		at[i] = gen_len(&g);
		gen_tnt(&g, tnt[i]);
	}
	at[6] = stream_end(&g, 9000);
	n = decode(&g, ev, 256);

	CU_ASSERT_EQUAL_FATAL(pick(ev, n, PTS_BR_JUMP, JNZ_AT, CALL_AT, jnz), 21);
	CU_ASSERT_EQUAL_FATAL(pick(ev, n, PTS_BR_CALL, CALL_AT, JMP_AT, call), 22);
	CU_ASSERT_EQUAL_FATAL(pick(ev, n, PTS_BR_JUMP, JMP_AT, JNZ_AT, jmp), 22);
	for (i = 0; i < 6; i++) {
		for (j = 0; j <= i; j++, k++) {
			/* the taken branch, then the call and jump of the pass it starts */
			CU_ASSERT_EQUAL(jnz[k].ts, tsc[i]);
			CU_ASSERT_EQUAL(jnz[k].pos, at[i + 1]);
			CU_ASSERT_EQUAL(call[k + 1].ts, tsc[i]);
			CU_ASSERT_EQUAL(call[k + 1].pos, at[i + 1]);
			CU_ASSERT_EQUAL(jmp[k + 1].ts, tsc[i]);
			CU_ASSERT_EQUAL(jmp[k + 1].pos, at[i + 1]);
			if (jnz[k].ts != tsc[i] || jnz[k].pos != at[i + 1])
				fprintf(stderr, "bit %zu of packet %zu: time %llu at %llu\n", j, i,
					(unsigned long long)jnz[k].ts,
					(unsigned long long)jnz[k].pos);
		}
	}
}

/*
 * Direct calls and jumps read nothing; the indirect jump that ends the
 * same kind of pass reads its TIP: its event has the time of the TSC
 * before the TIP and the position after it (and the TSC read ahead), as
 * the call after it; the call before it those of the TNT packet.
 */
static void an_indirect_jump_after_direct_branches_gets_its_tip_time_and_position(void)
{
	static struct seen ev[64], ijmp[4], call[8];
	uint64_t tip_at, end_at;
	struct pt_gen g;
	size_t n;

	stream_begin(&g);
	gen_tnt(&g, "TN");
	gen_tsc(&g, 3000);
	tip_at = gen_len(&g);
	gen_ip(&g, ppt_tip, CALL_AT);	/* the indirect jump, back to the top */
	end_at = stream_end(&g, 4000);
	n = decode(&g, ev, 64);

	CU_ASSERT_EQUAL_FATAL(pick(ev, n, PTS_BR_JUMP, IJMP_AT, CALL_AT, ijmp), 1);
	CU_ASSERT_EQUAL(ijmp[0].ts, 3000);
	CU_ASSERT_EQUAL(ijmp[0].pos, end_at);
	/* the calls: after the enable, after the taken bit, after the TIP */
	CU_ASSERT_EQUAL_FATAL(pick(ev, n, PTS_BR_CALL, CALL_AT, JMP_AT, call), 3);
	CU_ASSERT_EQUAL(call[1].ts, 2000);
	CU_ASSERT_EQUAL(call[1].pos, tip_at);
	CU_ASSERT_EQUAL(call[2].ts, 3000);
	CU_ASSERT_EQUAL(call[2].pos, end_at);
}

/*
 * An interrupt read with the last bit of a TNT packet (libipt's trailing
 * event: its FUP and TIP follow the TNT), whose IP the decode reaches two
 * direct branches later: the call between has the position after the
 * interrupt's TIP, which the last bit's call read. A decoder that thought
 * a bit still cached there would not ask, and give the call the position
 * before it. (The FUP is read ahead with the TNT: the calls before are at
 * the TIP.)
 */
static void a_call_after_an_interrupt_read_with_the_last_bit_gets_the_position_after_it(void)
{
	static struct seen ev[64], call[8], irq[2];
	uint64_t tip_at, end_at;
	struct pt_gen g;
	size_t n;

	stream_begin(&g);
	gen_tnt(&g, "TT");
	gen_ip(&g, ppt_fup, JNZ_AT);	/* interrupted before the third jnz */
	tip_at = gen_len(&g);
	gen_ip(&g, ppt_tip, CALL_AT);
	end_at = stream_end(&g, 3000);
	n = decode(&g, ev, 64);

	CU_ASSERT_EQUAL_FATAL(pick(ev, n, PTS_BR_INTERRUPT, JNZ_AT, CALL_AT, irq), 1);
	CU_ASSERT_EQUAL_FATAL(pick(ev, n, PTS_BR_CALL, CALL_AT, JMP_AT, call), 4);
	CU_ASSERT_EQUAL(call[1].pos, tip_at);
	CU_ASSERT_EQUAL(call[2].pos, end_at);
	CU_ASSERT_EQUAL(call[2].ts, 2000);
}

PTS_SUITE(decode_read_nothing, suite_init, suite_cleanup,
	  PTS_TEST(branches_get_their_tnt_packets_time_and_position_whatever_its_bit_count),
	  PTS_TEST(an_indirect_jump_after_direct_branches_gets_its_tip_time_and_position),
	  PTS_TEST(a_call_after_an_interrupt_read_with_the_last_bit_gets_the_position_after_it));
