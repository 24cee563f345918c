// SPDX-License-Identifier: GPL-2.0
/*
 * The parallel decode's summary (session/pardec.h): instructions joined
 * from the chunks' decoders add up to the serial decode's, whatever
 * libipt's block cache held when each decoder got somewhere.
 *
 * The program (assembled and linked when the suite starts, _start pinned
 * at 0x401000) is a loop: a conditional jump back to _start taken twice,
 * then a computed return (push %rax; ret) to _start, whose TIP gives the
 * target; one TNT "TTN" and one TIP per iteration:
 *
 *   401000 nop             _start
 *   401001 nop
 *   401002 nop             mid: the IP of every PSB+ after the first
 *   401003 test %ecx, %ecx
 *   401005 jnz _start
 *   401007 push %rax
 *   401008 ret
 *
 * By hand: 5 instructions from _start to the jnz, three times, then push
 * and ret: 17 per iteration; the first starts at the TIP.PGE, the last
 * ends at the ret the TIP.PGD (IP suppressed) binds to, which libipt
 * counts: 17 * (ITERS + 1).
 *
 * Why the order of the chunks matters: libipt's block decoder keeps a
 * block cache per section, shared by every decoder of the section while
 * it is mapped. A decoder that meets code not in the cache walks it one
 * instruction at a time and ends the block where it meets an instruction
 * already cached; with the cache filled it goes to the branch in one
 * block. A chunk's decoder that starts at mid (its PSB's FUP) with no
 * entries there caches mid..jnz, and its first jump back makes the block
 * _start..401001 (2 instructions), where the previous chunk's decoder,
 * past the PSB, has _start..jnz (5). The chunks join at that jump (the
 * first event of the successor whose trace position the predecessor's
 * equals). A join that counted the instructions after the block at the
 * jump's target took the 5 from one decoder and went on from the 2 of
 * the other: 3 too many (10,220 for 10,217 before the fix, at one of the
 * 6 joins: the decoders of the others found the cache filled).
 * The pool's reverse option decodes every chunk's successors before it in
 * the calling thread, an order worker threads can take, made repeatable.
 *
 * The same loop with a CYC packet in its last chunk and a core:bus ratio
 * (CBR) in its first PSB+ only: the serial decoder times the CYC with the
 * ratio (libipt's calibration carries over PSBs), a decoder started at a
 * later PSB has none and leaves the time as it was (fuzz findings 14 and
 * 15). The chunks before the last have no CYC and joined; the one before
 * the last decoded on over it, where the join into the last was refused
 * (its CYC) or, the last being short, within its overlap to the trace's
 * end: every record after the CYC came a few hundred ns early, and the
 * summary had one libipt tick event fewer. Such a trace is one chunk,
 * decoded by the calling thread alone: none is queued for the workers
 * (each one after the first was once decoded and its join refused, the
 * first chunk's decoder decoding the whole trace all the same).
 *
 * The loop with a MODE.Exec (64-bit, the mode already in force) written
 * before one PSB+ in the middle, after an iteration's TIP: damaged, as a
 * MODE.Exec comes right before the TIP or TIP.PGE it binds to (SDM
 * 33.4.2.8). libipt's decoder holds its event until the next TIP, the
 * next iteration's, past the PSB; a decoder started at the PSB never
 * reads it. The chunk before was joined at the next iteration's first
 * jump, before that TIP: the summary had one exec mode event fewer than
 * the serial decode's (fuzz finding 20).
 *
 * The loop with a CYC in its last chunk, as above, and in the last PSB+ a
 * TMA whose reserved bits are set (FC bit 9), then a PAD, decoded as a
 * Skylake server (CPU 6/85/4): libipt works around its erratum SKZ84 by
 * passing over such a TMA with the byte after it (pt_qry_decode_tma,
 * pt_pkt_decode_tma), so the serial decoder reads the PSB+ and the CYC
 * after it. The CYC scan read the packets without the CPU's errata: the
 * TMA was damage, the scan went on at the next PSB (there is none) and
 * found no CYC, and the trace was joined as if it had none, the last
 * chunk's CYC timed its own way (fuzz finding 21, where every PSB+ of a
 * trace full of CYC had such a TMA).
 *
 * A damaged trace of another program (calls.elf, below) has returns
 * compressed against calls made before the PSB before them: f, called
 * from _start before the first PSB, loops calling g, and returns, its
 * return compressed, after the last. The last chunk's decoder meets that
 * return with no call ("return stack empty"), and its join is refused;
 * the chunk before it, joined, had decoded on over it without the call
 * the serial decoder has, and gave a gap where the serial decode has none.
 *
 *   401000 call f          _start
 *   401005 push %rax
 *   401006 ret             TIP.PGD, IP suppressed
 *   401007 call g          f: the IP of every PSB+ after the first
 *   40100c test %ecx, %ecx
 *   40100e jnz f
 *   401010 ret
 *   401011 ret             g
 *
 * A damaged trace of a third program (callg.elf) where the serial
 * decoder meets an error just past a PSB and a decoder started there does
 * not: before the PSB, a pass ends (the jnz not taken) without the TIP of
 * the return after it, so the serial decoder, at that return, finds TNT
 * after the PSB+ (a gap, "compressed return without call") and
 * resynchronises at the next PSB. The chunk's decoder, started at the
 * first PSB, follows the two passes before the next and holds a MODE.Exec
 * written right before it (libipt reads the packets after a MODE.Exec up
 * to the next event: a TNT there is an error, a PSB is not) across it, to
 * the first TIP after it, ten passes on. The chunk before was joined at
 * the first events past that PSB, where both decoders agree again, and
 * the held MODE.Exec counted from the chunk's decoder: one exec mode
 * event more than the serial decode's, the records equal (fuzz finding
 * 22, whose trace had this shape; now no join is made after a gap past
 * the chunk's PSB).
 *
 *   401000 call g          _start: the IP of every PSB+
 *   401005 test %ecx, %ecx
 *   401007 jnz _start
 *   401009 push %rax
 *   40100a ret
 *   40100b ret             g
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "asm_elf.h"
#include "bundle_fixture.h"
#include "pt_gen.h"
#include "session/pardec.h"
#include "session/session.h"

#define START 0x401000ULL
#define MID 0x401002ULL
#define ITERS 600u	/* loop iterations */
#define EVERY 50u	/* a PSB+ after every EVERY iterations */

#define CALLS_F 0x401007ULL

static char *dir, *elf, *calls_elf, *callg_elf, trace[300];
static uint64_t last_psb_off;	/* write_loop's last PSB, with cyc_at */
static bool skz84;		/* write_loop's last PSB+ has a TMA SKZ84 corrupted; CPU 6/85/4 */
static const char *prog_elf;	/* the program decoded, when not loop.elf */
static size_t chunk_bytes = 1;	/* the decodes' --chunk-size: a chunk at every PSB */

static int suite_init(void)
{
	static const char prog[] =
		"\t.text\n\t.globl _start\n_start:\n"
		"\tnop\n\tnop\nmid:\n\tnop\n\ttest %ecx, %ecx\n\tjnz _start\n\tpush %rax\n\tret\n";
	static const char calls[] =
		"\t.text\n\t.globl _start\n_start:\n\tcall f\n\tpush %rax\n\tret\n"
		"f:\n\tcall g\n\ttest %ecx, %ecx\n\tjnz f\n\tret\ng:\n\tret\n";
	static const char callg[] =
		"\t.text\n\t.globl _start\n_start:\n\tcall g\n\ttest %ecx, %ecx\n\tjnz _start\n"
		"\tpush %rax\n\tret\ng:\n\tret\n";

	dir = bt_tmpdir();
	if (!dir)
		return 1;
	snprintf(trace, sizeof(trace), "%s/trace.pt", dir);
	elf = asm_elf_build_text(dir, "loop.elf", prog, "-static -Ttext=0x401000 -e _start");
	calls_elf = asm_elf_build_text(dir, "calls.elf", calls, "-static -Ttext=0x401000 -e _start");
	callg_elf = asm_elf_build_text(dir, "callg.elf", callg, "-static -Ttext=0x401000 -e _start");
	return elf && calls_elf && callg_elf ? 0 : 1;
}

static int suite_cleanup(void)
{
	bt_rmtree(dir);
	free(dir);
	free(elf);
	free(calls_elf);
	free(callg_elf);
	return 0;
}

/*
 * A TMA after the TSC of a PSB+, its FC's reserved bit 9 set, as SKZ84
 * corrupts it (libipt's check, pt_pkt_read_tma), and a PAD: libipt
 * passes over the TMA's 7 bytes and one more
 */
static void gen_tma_skz84(struct pt_gen *g)
{
	struct pt_packet p = { .type = ppt_tma, .payload.tma = { .ctc = 0x12, .fc = 0x34 } };
	size_t at = gen_len(g);

	gen_pkt(g, &p);
	CU_ASSERT_EQUAL_FATAL(gen_len(g), at + 7);
	g->buf[at + 6] |= 0x02;		/* FC[15:8]: bit 0 is FC bit 8, the rest reserved */
	gen_simple(g, ppt_pad);
}

/*
 * PSB+ in the middle of the trace: time, frequency (cbr, unless 0), mode
 * and the IP executing (FUP); with tma_skz84, a TMA SKZ84 corrupted
 */
static void psb_plus_at(struct pt_gen *g, uint64_t tsc, uint8_t cbr, uint64_t ip, bool tma_skz84)
{
	gen_simple(g, ppt_psb);
	gen_tsc(g, tsc);
	if (tma_skz84)
		gen_tma_skz84(g);
	if (cbr)
		gen_cbr(g, cbr);
	gen_mode_exec64(g);
	gen_ip(g, ppt_fup, ip);
	gen_simple(g, ppt_psbend);
}

/* The start of both programs' traces: PSB+, tracing on at _start. */
static void trace_begin(struct pt_gen *g)
{
	gen_init(g);
	gen_psb_plus(g, 0x1000);
	gen_ip(g, ppt_tip_pge, START);
}

/* Tracing off at the program's last return (TIP.PGD, IP suppressed); the trace saved. */
static void trace_end(struct pt_gen *g)
{
	gen_ip_suppressed(g, ppt_tip_pgd);
	gen_save(g, trace);
	gen_done(g);
}

/*
 * The loop, a PSB+ after every EVERY iterations; with cyc_at, a last PSB+
 * after iteration last_psb instead, a CBR in the first PSB+ only, and a
 * CYC packet of 1000 cycles before iteration cyc_at's TIP; with
 * mode_at, a MODE.Exec before the PSB+ after iteration mode_at.
 */
static void write_loop_mode(unsigned int last_psb, unsigned int cyc_at, unsigned int mode_at)
{
	struct pt_gen g;
	unsigned int i;

	trace_begin(&g);
	for (i = 1; i <= ITERS; i++) {
		gen_tnt(&g, "TTN");
		if (i == cyc_at) {
			struct pt_packet p = { .type = ppt_cyc, .payload.cyc.value = 1000 };

			gen_pkt(&g, &p);
		}
		gen_ip(&g, ppt_tip, START);
		if (cyc_at && i == last_psb)
			last_psb_off = gen_len(&g);
		if (i == mode_at)
			gen_mode_exec64(&g);
		if (cyc_at ? (i % EVERY == 0 && i < last_psb) || i == last_psb :
			     i % EVERY == 0 && i < ITERS)
			psb_plus_at(&g, 0x1000 + i, cyc_at ? 0 : 37, MID,
				    skz84 && cyc_at && i == last_psb);
	}
	gen_tnt(&g, "TTN");
	trace_end(&g);
}

static void write_loop(unsigned int last_psb, unsigned int cyc_at)
{
	write_loop_mode(last_psb, cyc_at, 0);
}

static void write_trace(void)
{
	write_loop(0, 0);
}

/* What the records of a decode say: how many, and their times added up. */
struct recs_seen {
	uint64_t n, ts_sum;
};

static int discard(void *ctx, const struct pts_tl_rec *r, struct pts_err *err)
{
	struct recs_seen *seen = ctx;

	if (seen) {
		seen->n++;
		seen->ts_sum += r->ts_ns;
	}
	return 0;
}

/*
 * order: 0 the default (the calling thread and jobs - 1 workers), 1 reverse,
 * 2 no worker (every chunk decoded into the sink), 3 jobs workers, the
 * calling thread decoding no chunk
 */
static void decode_seen(unsigned int jobs, int order, struct pts_decode_summary *sum,
			struct recs_seen *seen)
{
	struct pts_decode_opts o;
	struct pts_err err = { 0 };
	int rc;

	pts_decode_opts_init(&o);
	o.pt[0].path = trace;
	o.pt[0].cpu = 0;
	o.nr_pt = 1;
	o.elf[0].path = prog_elf ? prog_elf : elf;
	o.nr_elf = 1;
	o.scope = PTS_SCOPE_USER;
	o.tsc_khz = 1000000;
	o.nom_freq = 21;	/* CYC timed with the CBR's ratio */
	o.pid = 100;
	o.tid = 101;
	o.jobs = jobs;
	o.par_reverse = order == 1;
	o.par_sink = order == 2;
	o.par_workers = order == 3;
	o.chunk_bytes = chunk_bytes;
	if (skz84) {
		o.family = 6;	/* Skylake server: libipt applies SKZ84 */
		o.model = 85;
		o.stepping = 4;
	}
	rc = pts_decode_raw(&o, discard, seen, sum, &err);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc)
		fprintf(stderr, "decode -j %u: %s\n", jobs, err.msg);
}

static void decode(unsigned int jobs, int order, struct pts_decode_summary *sum)
{
	decode_seen(jobs, order, sum, NULL);
}

static void joined_instruction_count_is_the_serial_one_whichever_chunk_filled_the_block_cache(void)
{
	struct pts_decode_summary serial, par;

	write_trace();
	decode(1, false, &serial);
	CU_ASSERT_EQUAL(serial.insns, 17 * (ITERS + 1));
	decode(2, true, &par);
	/* joins were made (a refused one is the serial decode), at most ITERS / EVERY - 1 */
	CU_ASSERT(par.par_joins >= ITERS / EVERY / 2);
	CU_ASSERT_EQUAL(par.insns, serial.insns);
	CU_ASSERT_EQUAL(par.branches, serial.branches);
	CU_ASSERT_EQUAL(par.gaps, serial.gaps);
	if (par.insns != serial.insns || par.par_joins < ITERS / EVERY / 2)
		fprintf(stderr, "pardec: %llu instructions, serial %llu; %llu joins, %llu refused\n",
			(unsigned long long)par.insns, (unsigned long long)serial.insns,
			(unsigned long long)par.par_joins, (unsigned long long)par.par_refused);
	pts_decode_summary_free(&par);
	/* and with worker threads, in whatever order they take */
	decode(2, false, &par);
	CU_ASSERT_EQUAL(par.insns, serial.insns);
	pts_decode_summary_free(&serial);
	pts_decode_summary_free(&par);
}

/*
 * Serial and parallel decodes (the four orders) of the trace written: the
 * same records and counts.
 */
static void parallel_is_serial(void)
{
	static const char *const order[] = { "", " reverse", " sink", " workers" };
	struct pts_decode_summary serial, par;
	struct recs_seen s = { 0 }, p;
	int k;

	decode_seen(1, 0, &serial, &s);
	CU_ASSERT(s.n > ITERS);
	for (k = 0; k < 4; k++) {
		p = (struct recs_seen){ 0 };
		decode_seen(2, k, &par, &p);
		CU_ASSERT_EQUAL(p.n, s.n);
		CU_ASSERT_EQUAL(p.ts_sum, s.ts_sum);
		CU_ASSERT_EQUAL(par.insns, serial.insns);
		CU_ASSERT_EQUAL(par.branches, serial.branches);
		CU_ASSERT_EQUAL(par.gaps, serial.gaps);
		CU_ASSERT_EQUAL(par.events, serial.events);
		CU_ASSERT_EQUAL(par.by_event[ptev_tick], serial.by_event[ptev_tick]);
		if (p.ts_sum != s.ts_sum || par.by_event[ptev_tick] != serial.by_event[ptev_tick] ||
		    par.gaps != serial.gaps)
			fprintf(stderr, "pardec%s: record times add up to %llu, serial %llu; "
				"%llu ticks, serial %llu; %llu gaps, serial %llu\n", order[k],
				(unsigned long long)p.ts_sum, (unsigned long long)s.ts_sum,
				(unsigned long long)par.by_event[ptev_tick],
				(unsigned long long)serial.by_event[ptev_tick],
				(unsigned long long)par.gaps, (unsigned long long)serial.gaps);
		pts_decode_summary_free(&par);
	}
	pts_decode_summary_free(&serial);
}

static void cyc_after_joins_decoded_on_past_a_refused_join_is_timed_as_serially(void)
{
	/* the last chunk (EVERY iterations) is longer than the overlap: its join is refused */
	write_loop(ITERS - EVERY, ITERS - EVERY / 2);
	parallel_is_serial();
}

static void cyc_after_joins_decoded_to_the_end_in_the_overlap_is_timed_as_serially(void)
{
	/* the last chunk is short: the one before reaches the trace's end in its overlap */
	write_loop(ITERS - 5, ITERS - 2);
	parallel_is_serial();
}

static void trace_with_cyc_is_one_chunk_none_queued_for_the_workers(void)
{
	struct pts_decode_summary par;
	int k;

	/* without CYC: a chunk at every PSB, each queued once */
	write_trace();
	decode(2, false, &par);
	CU_ASSERT_EQUAL(par.par_cpu.chunks, ITERS / EVERY);
	pts_decode_summary_free(&par);
	write_loop(ITERS - EVERY, ITERS - EVERY / 2);
	for (k = 0; k < 2; k++) {
		decode(2, k, &par);
		CU_ASSERT_EQUAL(par.par_cpu.chunks, 0);
		CU_ASSERT_EQUAL(par.par_joins, 0);
		CU_ASSERT_EQUAL(par.par_refused, 0);
		CU_ASSERT_EQUAL(par.insns, 17 * (ITERS + 1));
		pts_decode_summary_free(&par);
	}
}

/* The trace written, read into a buffer followed by zero padding (*len: its bytes). */
static uint8_t *read_padded(size_t *len)
{
	char *file = bt_read_file(trace, len);
	uint8_t *buf;

	CU_ASSERT_PTR_NOT_NULL_FATAL(file);
	buf = calloc(1, *len + PTS_PT_PAD);
	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	memcpy(buf, file, *len);
	free(file);
	return buf;
}

/* The positions p reported after each event handed out, up to the end. */
struct progress {
	uint64_t events, moves, last;
	bool backwards;
};

static void follow_progress(struct pts_pcpu *p, struct progress *pr)
{
	const struct pts_branch *br;
	struct pts_err err = { 0 };
	uint64_t pos;
	int rc;

	memset(pr, 0, sizeof(*pr));
	while ((rc = pts_pcpu_next(p, &br, &err)) > 0) {
		pr->events++;
		pos = pts_pcpu_done(p);
		pr->backwards |= pos < pr->last;
		pr->moves += pos > pr->last;
		if (pos > pr->last)
			pr->last = pos;
	}
	CU_ASSERT_EQUAL(rc, 0);
}

/*
 * The progress line (session.c, show_progress) reads each CPU's position
 * in its trace (pts_brsrc_done). A trace with CYC is one chunk that the
 * calling thread decodes on a batch of events at a time: its position
 * was the chunk's start, 0, up to the end, and the line stayed at 0 %.
 * By hand: every iteration's TIP moves the decoder on in the trace, so
 * the events of the ITERS iterations are handed out at ITERS positions
 * or more, growing; those after the last PSB+ are past it.
 */
static void trace_with_cyc_decoded_in_parallel_reports_its_position_as_it_goes(void)
{
	struct pts_pool_options po = { .threads = 2, .chunks = 4 };
	struct pts_ptdec_config cfg = { 0 };
	struct pts_err err = { 0 };
	struct pts_imgset *set;
	struct pts_pool *pool;
	struct pts_pcpu *p;
	struct progress pr;

	write_loop(ITERS - EVERY, ITERS - EVERY / 2);
	cfg.buf = read_padded(&cfg.size);
	cfg.padded = true;
	cfg.nom_freq = 21;
	cfg.pid = 100;
	cfg.tid = 101;
	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_add_elf(set, PTS_PID_ALL, elf, 0, &err), 0);
	cfg.images = set;
	CU_ASSERT_EQUAL_FATAL(pts_pool_new(&po, set, &pool, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_pcpu_new(pool, &cfg, 1, NULL, &p, &err), 0);
	follow_progress(p, &pr);
	CU_ASSERT(pr.events > ITERS);
	CU_ASSERT(!pr.backwards);
	CU_ASSERT(pr.moves >= ITERS);
	CU_ASSERT(pr.last > last_psb_off && pr.last <= cfg.size);
	CU_ASSERT_EQUAL(pts_pcpu_done(p), cfg.size);
	if (pr.moves < ITERS || pr.last <= last_psb_off)
		fprintf(stderr, "pardec progress: %llu moves over %llu events, last at %llu of %zu "
			"(last PSB at %llu)\n", (unsigned long long)pr.moves,
			(unsigned long long)pr.events, (unsigned long long)pr.last, cfg.size,
			(unsigned long long)last_psb_off);
	pts_pcpu_free(p);
	pts_pool_free(pool, NULL);
	pts_imgset_free(set);
	free((void *)cfg.buf);
}

/* A parallel decode into *par (reverse: in reverse order): exec mode events and events as serial's. */
static void decode_exec_mode_as_serially(bool reverse, const struct pts_decode_summary *serial,
					 struct pts_decode_summary *par)
{
	decode(2, reverse, par);
	CU_ASSERT_EQUAL(par->by_event[ptev_exec_mode], serial->by_event[ptev_exec_mode]);
	CU_ASSERT_EQUAL(par->events, serial->events);
	if (par->by_event[ptev_exec_mode] != serial->by_event[ptev_exec_mode])
		fprintf(stderr, "pardec%s: %llu exec mode events, serial %llu; "
			"%llu joins, %llu refused\n", reverse ? " reverse" : "",
			(unsigned long long)par->by_event[ptev_exec_mode],
			(unsigned long long)serial->by_event[ptev_exec_mode],
			(unsigned long long)par->par_joins,
			(unsigned long long)par->par_refused);
}

/*
 * By hand: an exec mode event at the TIP.PGE (the MODE.Exec after the
 * first PSB+), one at the PSBEND of each of the ITERS / EVERY - 1 PSB+
 * after it, and the damaged one's.
 */
static void mode_exec_waiting_for_its_tip_across_a_psb_is_counted_as_serially(void)
{
	struct pts_decode_summary serial, par;
	int k;

	write_loop_mode(0, 0, ITERS / 2);
	decode(1, false, &serial);
	CU_ASSERT_EQUAL(serial.by_event[ptev_exec_mode], 1 + (ITERS / EVERY - 1) + 1);
	for (k = 0; k < 2; k++) {
		decode_exec_mode_as_serially(k, &serial, &par);
		/* the other PSBs are joined at */
		CU_ASSERT(par.par_joins >= ITERS / EVERY / 2);
		pts_decode_summary_free(&par);
	}
	parallel_is_serial();
	pts_decode_summary_free(&serial);
}

static void cyc_behind_a_tma_libipt_passes_over_for_skz84_keeps_the_trace_one_chunk(void)
{
	struct pts_decode_summary par;
	int k;

	skz84 = true;
	write_loop(ITERS - EVERY, ITERS - EVERY / 2);
	for (k = 0; k < 2; k++) {
		decode(2, k, &par);
		CU_ASSERT_EQUAL(par.par_cpu.chunks, 0);
		CU_ASSERT_EQUAL(par.par_joins, 0);
		CU_ASSERT_EQUAL(par.insns, 17 * (ITERS + 1));
		if (par.par_cpu.chunks)
			fprintf(stderr, "pardec%s: %llu chunks queued, %llu joins, %llu refused\n",
				k ? " reverse" : "", (unsigned long long)par.par_cpu.chunks,
				(unsigned long long)par.par_joins,
				(unsigned long long)par.par_refused);
		pts_decode_summary_free(&par);
	}
	parallel_is_serial();
	skz84 = false;
}

/* n passes of callg.elf's loop (g's return compressed, the jnz taken), then its exit and return */
static void callg_round(struct pt_gen *g, unsigned int n)
{
	while (n--)
		gen_tnt(g, "TT");
	gen_tnt(g, "TN");
	gen_ip(g, ppt_tip, START);
}

/*
 * callg.elf's trace damaged before a PSB (returned: its offset): rounds
 * of its loop, then a round without its TIP (its return has none), the
 * PSB+, two passes, a MODE.Exec, the next PSB+ at once, and rounds again.
 */
static uint64_t write_gap_past_psb(void)
{
	struct pt_gen g;
	unsigned int i;
	uint64_t psb;

	trace_begin(&g);
	for (i = 0; i < 20; i++)
		callg_round(&g, 4);
	gen_tnt(&g, "TN");
	psb = gen_len(&g);
	psb_plus_at(&g, 0x2000, 37, START, false);
	gen_tnt(&g, "TT");
	gen_tnt(&g, "TT");
	gen_mode_exec64(&g);
	psb_plus_at(&g, 0x2100, 37, START, false);
	for (i = 0; i < 20; i++)
		callg_round(&g, 10);
	gen_tnt(&g, "TN");
	trace_end(&g);
	return psb;
}

/*
 * By hand: the serial decoder's exec mode events are the first PSB+'s and
 * the one's it resynchronised at; the chunk's decoder, at the PSB after
 * the damage, has those of both PSB+ and the MODE.Exec.
 */
static void mode_exec_held_past_a_gap_of_the_serial_decoder_is_counted_as_serially(void)
{
	struct pts_decode_summary serial, par;
	int k;

	prog_elf = callg_elf;
	/* two chunks: the trace's start, and the damaged PSB's up to the end */
	chunk_bytes = write_gap_past_psb();
	decode(1, false, &serial);
	CU_ASSERT_EQUAL(serial.gaps, 1);
	CU_ASSERT_EQUAL(serial.by_event[ptev_exec_mode], 2);
	for (k = 0; k < 2; k++) {
		decode_exec_mode_as_serially(k, &serial, &par);
		CU_ASSERT_EQUAL(par.par_cpu.chunks, 2);
		pts_decode_summary_free(&par);
	}
	parallel_is_serial();
	pts_decode_summary_free(&serial);
	chunk_bytes = 1;
	prog_elf = NULL;
}

/* calls.elf's trace: ITERS calls of g from f's loop, a PSB+ at f every EVERY, f's return at the end */
static void write_calls(void)
{
	struct pt_gen g;
	unsigned int i;

	trace_begin(&g);
	for (i = 1; i <= ITERS; i++) {
		/* g's return (compressed), the jnz; the last time out of the loop and f's return */
		gen_tnt(&g, i < ITERS ? "TT" : "TNT");
		if (i % EVERY == 0 && i < ITERS)
			psb_plus_at(&g, 0x1000 + i, 37, CALLS_F, false);
	}
	trace_end(&g);
}

static void return_compressed_against_a_call_before_the_joined_chunk_is_decoded_as_serially(void)
{
	write_calls();
	prog_elf = calls_elf;
	parallel_is_serial();
	prog_elf = NULL;
}

PTS_SUITE(session_pardec, suite_init, suite_cleanup,
	  PTS_TEST(joined_instruction_count_is_the_serial_one_whichever_chunk_filled_the_block_cache),
	  PTS_TEST(cyc_after_joins_decoded_on_past_a_refused_join_is_timed_as_serially),
	  PTS_TEST(cyc_after_joins_decoded_to_the_end_in_the_overlap_is_timed_as_serially),
	  PTS_TEST(trace_with_cyc_is_one_chunk_none_queued_for_the_workers),
	  PTS_TEST(trace_with_cyc_decoded_in_parallel_reports_its_position_as_it_goes),
	  PTS_TEST(return_compressed_against_a_call_before_the_joined_chunk_is_decoded_as_serially),
	  PTS_TEST(mode_exec_waiting_for_its_tip_across_a_psb_is_counted_as_serially),
	  PTS_TEST(cyc_behind_a_tma_libipt_passes_over_for_skz84_keeps_the_trace_one_chunk),
	  PTS_TEST(mode_exec_held_past_a_gap_of_the_serial_decoder_is_counted_as_serially));
