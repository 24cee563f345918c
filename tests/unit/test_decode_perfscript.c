// SPDX-License-Identifier: GPL-2.0
/*
 * perf script branch text -> timelines. The two real listings in
 * ../shared/data/real/perf-script, with the expected timelines derived by
 * hand from their lines (derivations next to each test), plus the line
 * parser on each branch kind perf prints.
 */
#include <stdio.h>

#include "unit.h"
#include "tl_sink.h"
#include "decode/perfscript.h"
#include "session/session.h"

#define nth TL_SINK_NEED

static int decode(const char *file, struct tl_sink *sink, struct pts_decode_summary *sum)
{
	char path[512];
	struct pts_err err = { 0 };

	snprintf(path, sizeof(path), "%s/data/real/perf-script/%s", pts_unit_shared_dir(), file);
	return pts_decode_perfscript(path, PTS_SCOPE_BOTH, tl_sink_emit, sink, sum, &err);
}

#define ADD_ORDER "itch_bbo::book::Book::add_order"
#define MEMMOVE "__memmove_avx_unaligned_erms"

/*
 * memmove_decode_error.perf, by hand (times relative to the first line,
 * 47170.086912805 s):
 *  lines 1-3  jcc/jmp/jcc inside add_order: add_order is running    B0 add_order @0
 *  line 4     call add_order+0x51c -> memmove                       B1 memmove @19
 *  lines 5-7  jcc, jcc inside memmove; return -> add_order+0x522     E1 memmove @20
 *  line 8     call add_order+0x543 -> memmove                       B1 memmove @21
 *  line 9     Overflow packet error at ...826: both frames end       E1, E0 @21, I gap
 *  line 10    tr strt -> memmove+0x56 at ...872 (new segment)       B0 memmove @67
 *  lines 11-12 jcc; return memmove+0xa4 -> add_order+0x549: past the
 *             known stack, so add_order is inferred around the segment B0 add_order @67
 *             (memmove moves to depth 1) and memmove ends            E1 memmove @141
 *  lines 13-16 jmps inside add_order; end of trace                   E0 add_order @141
 */
static void memmove_overflow_shows_a_gap_and_an_inferred_caller_after_it(void)
{
	struct tl_sink sink = { 0 };
	struct pts_decode_summary sum;
	char shape[4096], why[256];

	CU_ASSERT_EQUAL_FATAL(decode("memmove_decode_error.perf", &sink, &sum), 0);
	CU_ASSERT_STRING_EQUAL(tl_sink_shape(&sink, shape, sizeof(shape)),
		"B0 " ADD_ORDER "|B1 " MEMMOVE "|E1 " MEMMOVE "|B1 " MEMMOVE "|E1 " MEMMOVE
		"|E0 " ADD_ORDER "|I gap|B0 " ADD_ORDER "|B1 " MEMMOVE "|E1 " MEMMOVE
		"|E0 " ADD_ORDER);
	if (!tl_sink_well_formed(&sink, why, sizeof(why)))
		CU_FAIL(why);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_BEGIN, MEMMOVE, 0)->ts_ns, 19);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_END, MEMMOVE, 0)->ts_ns, 20);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_END, MEMMOVE, 1)->kind, PTS_TLK_GAP);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_INSTANT, "gap", 0)->ts_ns, 21);
	CU_ASSERT_STRING_EQUAL(nth(&sink, PTS_TL_INSTANT, "gap", 0)->detail, "Overflow packet");
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_INSTANT, "gap", 0)->addr, 0x7ffff7327730);
	CU_ASSERT(nth(&sink, PTS_TL_BEGIN, ADD_ORDER, 1)->flags & PTS_TLF_INFERRED);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_BEGIN, ADD_ORDER, 1)->ts_ns, 67);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_BEGIN, MEMMOVE, 2)->ts_ns, 67);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_END, ADD_ORDER, 1)->ts_ns, 141);
	CU_ASSERT_FALSE(nth(&sink, PTS_TL_BEGIN, ADD_ORDER, 0)->flags & PTS_TLF_INFERRED);
	CU_ASSERT_EQUAL(sum.gaps, 1);
	CU_ASSERT_EQUAL(sum.nr_causes, 1);
	CU_ASSERT_STRING_EQUAL(sum.causes[0].cause, "Overflow packet");
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/*
 * page_fault.perf, by hand (times relative to 2472089.651284813):
 *  line 1   jmp call_destructors+0x67 -> _fini+0 (tail call)   B0 call_destructors, E0/B0 _fini @0
 *  line 2   Overflow packet at ...5037, ip = _fini+0             E0 _fini (gap), I gap @224
 *  line 3   tr strt -> asm_exc_page_fault (kernel) @224: _fini's first
 *           instruction faulted; the page-fault path follows (lines 4-488:
 *           calls and returns inside the kernel)
 *  line 489 iret native_irq_return_iret -> _fini+0 @1347: the kernel frames
 *           were entered from _fini: _fini is inferred around them
 *  line 490 return _fini+0xc -> _dl_catch_exception+0xe5 @1373: _fini's
 *           caller is inferred around everything after the gap
 * So after the gap: B0 _dl_catch_exception (inferred) > B1 _fini (inferred,
 * user) > B2 asm_exc_page_fault (kernel) > B3 error_entry ...; the kernel
 * frames are all at depth >= 2, i.e. nested under the interrupted user frame.
 */
static const char page_fault_start[] =
	"B0 call_destructors|E0 call_destructors|B0 _fini|E0 _fini|I gap|"
	"B0 _dl_catch_exception|B1 _fini|B2 asm_exc_page_fault|B3 error_entry|"
	"B4 sync_regs|E4 sync_regs|E3 error_entry|B3 exc_page_fault|B4 irqentry_enter|";

static void page_fault_kernel_frames_nest_under_the_interrupted_user_frame(void)
{
	struct tl_sink sink = { 0 };
	struct pts_decode_summary sum;
	const struct pts_tl_rec *r;
	char shape[65536], why[256];
	size_t i, gap_at = 0;

	CU_ASSERT_EQUAL_FATAL(decode("page_fault.perf", &sink, &sum), 0);
	if (!tl_sink_well_formed(&sink, why, sizeof(why)))
		CU_FAIL(why);
	tl_sink_shape(&sink, shape, sizeof(shape));
	CU_ASSERT_EQUAL(strncmp(shape, page_fault_start, strlen(page_fault_start)), 0);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_END, "call_destructors", 0)->kind, PTS_TLK_JUMP);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_END, "_fini", 0)->kind, PTS_TLK_GAP);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_INSTANT, "gap", 0)->ts_ns, 224);
	r = nth(&sink, PTS_TL_BEGIN, "_dl_catch_exception", 0);
	CU_ASSERT(r->flags & PTS_TLF_INFERRED);
	CU_ASSERT_EQUAL(r->depth, 0);
	CU_ASSERT_EQUAL(r->ts_ns, 224);
	r = nth(&sink, PTS_TL_BEGIN, "_fini", 1);
	CU_ASSERT(r->flags & PTS_TLF_INFERRED);
	CU_ASSERT_FALSE(r->flags & PTS_TLF_KERNEL);
	CU_ASSERT_EQUAL(r->depth, 1);
	r = nth(&sink, PTS_TL_BEGIN, "asm_exc_page_fault", 0);
	CU_ASSERT(r->flags & PTS_TLF_KERNEL);
	CU_ASSERT_EQUAL(r->depth, 2);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_BEGIN, "do_user_addr_fault", 0)->depth, 4);
	/* the iret at 1347 ends the kernel frames; _fini ends with its return at 1373 */
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_END, "native_irq_return_iret", 0)->kind, PTS_TLK_IRET);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_END, "native_irq_return_iret", 0)->ts_ns, 1347);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_END, "_fini", 1)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_END, "_fini", 1)->ts_ns, 1373);
	/* every kernel slice after the gap is inside the user frame */
	for (i = 0; i < sink.n; i++) {
		r = &sink.recs[i].r;
		if (r->type == PTS_TL_INSTANT)
			gap_at = i;
		if (gap_at && (r->type == PTS_TL_BEGIN || r->type == PTS_TL_END) &&
		    pts_addr_is_kernel(r->addr))
			CU_ASSERT(r->depth >= 2);
	}
	CU_ASSERT_EQUAL(sum.gaps, 1);
	CU_ASSERT_EQUAL(sum.branches, 489);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

static void line_parser_reads_each_branch_kind_perf_prints(void)
{
	struct pts_branch b;
	char l1[] = "1/2 10.000000100:   1 branches:u:   call   401000 main+0x5 (prog) =>   401100 foo+0x0 (prog)";
	char l2[] = "1/2 10.000000200:   1 branches:u:   tr end  syscall   40100a foo+0xa (prog) =>   0 [unknown] (prog)";
	char l3[] = "1/2 10.000000300:   1 branches:u:   tr strt   0 [unknown] (prog) =>   40100c foo+0xc (prog)";
	char l4[] = "1/2 10.000000400:   1 branches:uk:   hw int   40100c foo+0xc (prog) => ffffffff81000000 asm_common_interrupt+0x0 ([kernel.kallsyms])";
	char l5[] = "1/2 10.000000500:   1 branches:u:   tr end  async   40100c foo+0xc (prog) =>   0 [unknown] (prog)";
	char l6[] = "1/2 10.000000600:   1 branches:u:   jcc   401200 ns::f(int, char)+0x10 (prog) =>   401220 ns::f(int, char)+0x30 (prog)";
	char l7[] = " instruction trace error type 1 time 10.000000700 cpu 3 pid 1 tid 2 ip 0x401000 code 7: Overflow packet (prog)";
	char l8[] = "not a branch line";

	CU_ASSERT_EQUAL(pts_perfscript_line(l1, &b), 1);
	CU_ASSERT_EQUAL(b.kind, PTS_BR_CALL);
	CU_ASSERT_EQUAL(b.pid, 1);
	CU_ASSERT_EQUAL(b.tid, 2);
	CU_ASSERT_EQUAL(b.ts_ns, 10000000100ULL);
	CU_ASSERT_EQUAL(b.from, 0x401000);
	CU_ASSERT_EQUAL(b.to, 0x401100);
	CU_ASSERT_STRING_EQUAL(b.from_sym.name, "main");
	CU_ASSERT_EQUAL(b.from_sym.start, 0x400ffb);
	CU_ASSERT_STRING_EQUAL(b.to_sym.object, "prog");

	CU_ASSERT_EQUAL(pts_perfscript_line(l2, &b), 1);
	CU_ASSERT_EQUAL(b.kind, PTS_BR_SYSCALL);
	CU_ASSERT(b.flags & PTS_BRF_TRACE_OFF);
	CU_ASSERT_EQUAL(b.to, 0);

	CU_ASSERT_EQUAL(pts_perfscript_line(l3, &b), 1);
	CU_ASSERT_EQUAL(b.kind, PTS_BR_ENABLED);
	CU_ASSERT_EQUAL(b.to, 0x40100c);

	CU_ASSERT_EQUAL(pts_perfscript_line(l4, &b), 1);
	CU_ASSERT_EQUAL(b.kind, PTS_BR_INTERRUPT);
	CU_ASSERT_EQUAL(b.to, 0xffffffff81000000ULL);

	CU_ASSERT_EQUAL(pts_perfscript_line(l5, &b), 1);
	CU_ASSERT_EQUAL(b.kind, PTS_BR_DISABLED);
	CU_ASSERT(b.flags & PTS_BRF_ASYNC);

	CU_ASSERT_EQUAL(pts_perfscript_line(l6, &b), 1);
	CU_ASSERT_EQUAL(b.kind, PTS_BR_JUMP);
	CU_ASSERT_STRING_EQUAL(b.from_sym.name, "ns::f(int, char)");
	CU_ASSERT_EQUAL(b.from_sym.start, 0x4011f0);

	CU_ASSERT_EQUAL(pts_perfscript_line(l7, &b), 1);
	CU_ASSERT_EQUAL(b.kind, PTS_BR_GAP);
	CU_ASSERT_EQUAL(b.cpu, 3);
	CU_ASSERT_EQUAL(b.from, 0x401000);
	CU_ASSERT_STRING_EQUAL(b.detail, "Overflow packet");

	CU_ASSERT_EQUAL(pts_perfscript_line(l8, &b), 0);
}

/*
 * The same five branches of one thread, written by hand in the layouts
 * perf-script(1) documents for -F (fields come in perf's fixed order,
 * whichever are selected): a trace start in main, a call to foo, its
 * return, the syscall that stops user tracing, and a hardware interrupt.
 * By hand, every layout gives: ENABLED at 401000 (main), CALL 401005 ->
 * 401100 (foo), RETURN 401105 -> 40100a, SYSCALL (trace off) at 40100c,
 * INTERRUPT 401010 -> ffffffff81000000, at 100, 200, 300, 400, 500 ns
 * after 10 s (µs layouts: 1, 2, 3, 4, 5 µs).
 */
struct layout {
	const char *what;
	const char *lines[5];
	uint64_t unit;		/* ns per time step of the layout */
	bool syms, tids;
};

static const struct layout layouts[] = {
	{ "-F pid,tid,time,period,event,flags,ip,sym,symoff,dso,addr --ns (this project's earlier)", {
	  "1/2 10.000000100:   1 branches:u:   tr strt   0 [unknown] ([unknown]) =>   401000 main+0x0 (prog)",
	  "1/2 10.000000200:   1 branches:u:   call   401005 main+0x5 (prog) =>   401100 foo+0x0 (prog)",
	  "1/2 10.000000300:   1 branches:u:   return   401105 foo+0x5 (prog) =>   40100a main+0xa (prog)",
	  "1/2 10.000000400:   1 branches:u:   tr end  syscall   40100c main+0xc (prog) =>   0 [unknown] ([unknown])",
	  "1/2 10.000000500:   1 branches:uk:   hw int   401010 main+0x10 (prog) => ffffffff81000000 asm_common_interrupt+0x0 ([kernel.kallsyms])" },
	  100, true, true },
	{ "perf's default (comm tid cpu time period event) with +flags, µs", {
	  "            prog     2 [003]    10.000001:          1 branches:u:   tr strt                             0 [unknown] ([unknown]) =>           401000 main+0x0 (/usr/bin/prog)",
	  "            prog     2 [003]    10.000002:          1 branches:u:   call                           401005 main+0x5 (/usr/bin/prog) =>           401100 foo+0x0 (/usr/bin/prog)",
	  "            prog     2 [003]    10.000003:          1 branches:u:   return                         401105 foo+0x5 (/usr/bin/prog) =>           40100a main+0xa (/usr/bin/prog)",
	  "            prog     2 [003]    10.000004:          1 branches:u:   tr end  syscall                40100c main+0xc (/usr/bin/prog) =>                0 [unknown] ([unknown])",
	  "            prog     2 [003]    10.000005:          1 branches:uk:  hw int                         401010 main+0x10 (/usr/bin/prog) => ffffffff81000000 asm_common_interrupt+0x0 ([kernel.kallsyms])" },
	  1000, true, false },
	{ "magic-trace's -F pid,tid,time,flags,ip,addr,sym,symoff --ns: no event, no period, no DSO", {
	  "       1/2     10.000000100:   tr strt                             0 [unknown] =>           401000 main+0x0",
	  "       1/2     10.000000200:   call                           401005 main+0x5 =>           401100 foo+0x0",
	  "       1/2     10.000000300:   return                         401105 foo+0x5 =>           40100a main+0xa",
	  "       1/2     10.000000400:   tr end  syscall                40100c main+0xc =>                0 [unknown]",
	  "       1/2     10.000000500:   hw int                         401010 main+0x10 => ffffffff81000000 asm_common_interrupt+0x0" },
	  100, true, true },
	{ "-F comm,pid,tid,cpu,time,flags,ip,addr --ns: a comm with blanks and '/', no symbols", {
	  "Web Content/1 1/2 [000] 10.000000100:   tr strt   0 =>   401000",
	  "Web Content/1 1/2 [000] 10.000000200:   call   401005 =>   401100",
	  "Web Content/1 1/2 [000] 10.000000300:   return   401105 =>   40100a",
	  "Web Content/1 1/2 [000] 10.000000400:   tr end  syscall   40100c =>   0",
	  "Web Content/1 1/2 [000] 10.000000500:   hw int   401010 => ffffffff81000000" },
	  100, false, true },
	{ "flags as letters (perf prints letters for combinations it has no name for) and markers", {
	  "1/2 10.000000100: branches:u:   bB          0 [unknown] (prog) =>   401000 main+0x0 (prog)",
	  "1/2 10.000000200: branches:u:   bc     (x)  401005 main+0x5 (prog) =>   401100 foo+0x0 (prog)",
	  "1/2 10.000000300: branches:u:   br     (x)  401105 foo+0x5 (prog) =>   40100a main+0xa (prog)",
	  "1/2 10.000000400: branches:u:   bEbcs       40100c main+0xc (prog) =>   0 [unknown] (prog)",
	  "1/2 10.000000500: branches:u:   bcyi        401010 main+0x10 (prog) => ffffffff81000000 asm_common_interrupt+0x0 ([kernel.kallsyms])" },
	  100, true, true },
};

static const enum pts_br_kind layout_kinds[5] = {
	PTS_BR_ENABLED, PTS_BR_CALL, PTS_BR_RETURN, PTS_BR_SYSCALL, PTS_BR_INTERRUPT,
};
static const uint64_t layout_from[5] = { 0, 0x401005, 0x401105, 0x40100c, 0x401010 };
static const uint64_t layout_to[5] = { 0x401000, 0x401100, 0x40100a, 0, 0xffffffff81000000ULL };

static void every_perf_script_layout_gives_the_same_branches(void)
{
	size_t l, i;

	for (l = 0; l < sizeof(layouts) / sizeof(layouts[0]); l++) {
		const struct layout *ly = &layouts[l];

		for (i = 0; i < 5; i++) {
			struct pts_branch b;
			char line[400];
			int got;

			snprintf(line, sizeof(line), "%s\n", ly->lines[i]);
			got = pts_perfscript_line(line, &b);
			if (got != 1 || b.kind != layout_kinds[i] || b.from != layout_from[i] ||
			    b.to != layout_to[i] || b.ts_ns != 10000000000ULL + (i + 1) * ly->unit ||
			    b.tid != 2 || b.pid != (ly->tids ? 1 : 2))
				fprintf(stderr, "\n    layout %s, line %zu: got %d kind %d %llx -> %llx "
					"at %llu, %d/%d\n", ly->what, i + 1, got, (int)b.kind,
					(unsigned long long)b.from, (unsigned long long)b.to,
					(unsigned long long)b.ts_ns, (int)b.pid, (int)b.tid);
			CU_ASSERT_EQUAL(got, 1);
			CU_ASSERT_EQUAL(b.kind, layout_kinds[i]);
			CU_ASSERT_EQUAL(b.from, layout_from[i]);
			CU_ASSERT_EQUAL(b.to, layout_to[i]);
			CU_ASSERT_EQUAL(b.ts_ns, 10000000000ULL + (i + 1) * ly->unit);
			CU_ASSERT_EQUAL(b.tid, 2);
			if (i == 3)
				CU_ASSERT(b.flags & PTS_BRF_TRACE_OFF);
			if (i == 1 && ly->syms) {
				CU_ASSERT(b.to_sym.name && !strcmp(b.to_sym.name, "foo"));
				CU_ASSERT_EQUAL(b.to_sym.start, 0x401100);
			}
			if (i == 1 && !ly->syms)
				CU_ASSERT_PTR_NULL(b.to_sym.name);
		}
	}
}

/*
 * The synthesized events magic-trace sees (perf script --itrace=crp): a
 * "cbr" line is the core:bus ratio (a frequency sample), a "psb" line is
 * read and carries nothing; with or without the event column.
 */
static void cbr_and_psb_events_are_read(void)
{
	char c1[] = "1/2 10.000000100:          1 cbr:  cbr: 42 freq: 4200 MHz (175%)   401005 main+0x5 (prog)";
	char c2[] = "     prog     2 [000]    10.000001:  cbr: 37 freq: 3700 MHz (100%)";
	char p1[] = "1/2 10.000000100:          1 psb:  psb offs: 0x4b0   401005 main+0x5 (prog)";
	char p2[] = "1/2 10.000000100:  psb offs: 0x4b0";
	char i1[] = "1/2 10.000000100:          1 instructions:u:   401005 main+0x5 (prog)";
	struct pts_branch b;

	CU_ASSERT_EQUAL(pts_perfscript_line(c1, &b), 1);
	CU_ASSERT_EQUAL(b.kind, PTS_BR_CBR);
	CU_ASSERT_EQUAL(b.value, 42);
	CU_ASSERT_EQUAL(b.tid, 2);
	CU_ASSERT_EQUAL(pts_perfscript_line(c2, &b), 1);
	CU_ASSERT_EQUAL(b.kind, PTS_BR_CBR);
	CU_ASSERT_EQUAL(b.value, 37);
	CU_ASSERT_EQUAL(b.ts_ns, 10000001000ULL);
	CU_ASSERT_EQUAL(pts_perfscript_line(p1, &b), PTS_PERFSCRIPT_IGNORED);
	CU_ASSERT_EQUAL(pts_perfscript_line(p2, &b), PTS_PERFSCRIPT_IGNORED);
	/* an instruction sample is no branch: not understood (counted, skipped) */
	CU_ASSERT_EQUAL(pts_perfscript_line(i1, &b), 0);
}

/*
 * Whole listings of the first four branches (user scope), in perf's
 * default layout and in magic-trace's: the same timeline, by hand: main
 * begins at the trace start, foo nests in it and ends, the syscall is a
 * "[syscall]" slice until the listing ends.
 */
static void listing_layouts_decode_to_the_same_timeline(void)
{
	char shapes[2][2048];
	size_t l;

	for (l = 0; l < 3; l += 2) {
		char path[256];
		struct pts_decode_summary sum;
		struct pts_err err = { 0 };
		struct tl_sink sink = { 0 };
		FILE *f;
		size_t i;

		snprintf(path, sizeof(path), "%s/pts-perfscript-layout.%zu.txt",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", l);
		f = fopen(path, "w");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		for (i = 0; i < 4; i++)
			fprintf(f, "%s\n", layouts[l].lines[i]);
		fclose(f);
		CU_ASSERT_EQUAL_FATAL(pts_decode_perfscript(path, PTS_SCOPE_USER, tl_sink_emit, &sink,
							    &sum, &err), 0);
		CU_ASSERT_EQUAL(sum.perfscript_skipped, 0);
		tl_sink_shape(&sink, shapes[l / 2], sizeof(shapes[0]));
		pts_decode_summary_free(&sum);
		tl_sink_free(&sink);
		remove(path);
	}
	CU_ASSERT_STRING_EQUAL(shapes[0], "B0 main|B1 foo|E1 foo|B1 [syscall]|E1 [syscall]|E0 main");
	CU_ASSERT_STRING_EQUAL(shapes[1], shapes[0]);
}

PTS_SUITE(decode_perfscript, NULL, NULL,
	  PTS_TEST_SHARED(memmove_overflow_shows_a_gap_and_an_inferred_caller_after_it,
			  "data/real/perf-script/memmove_decode_error.perf"),
	  PTS_TEST_SHARED(page_fault_kernel_frames_nest_under_the_interrupted_user_frame,
			  "data/real/perf-script/page_fault.perf"),
	  PTS_TEST(line_parser_reads_each_branch_kind_perf_prints),
	  PTS_TEST(every_perf_script_layout_gives_the_same_branches),
	  PTS_TEST(cbr_and_psb_events_are_read),
	  PTS_TEST(listing_layouts_decode_to_the_same_timeline));
