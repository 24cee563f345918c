// SPDX-License-Identifier: GPL-2.0
/*
 * The .txt listing: one line per record, in the layout documented in
 * docs/output-formats.md. The expected text below is written by hand
 * from that layout, not captured from the writer: after the kind, padded
 * to 12 characters (end_of_trace), one space and two more per depth; no
 * "+0x0" at a function's entry; an END line ends with "took N ns", its
 * time minus its BEGIN's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "writer_testlib.h"

static void listing_has_one_line_per_call_return_and_transition(void)
{
	static const char want[] =
		"# ts_ns cpu pid/tid depth kind event\n"
		"# process 100 hello\n"
		"# thread 100/101 hello main\n"
		"# thread 100/102\n"
		"1000 0 100/101 0 call         > main (/bin/hello)\n"
		"1500 0 100/101 1 call           > foo+0x10 (/bin/hello)\n"
		"1600 2 100/101 2 syscall          > sys_write [kernel]\n"
		"1700 2 100/101 2 sysret           < sys_write [kernel] took 100 ns\n"
		"1750 2 100/101 1 gap            ! gap: overflow, 3 packets lost @0x401020\n"
		"1750 2 100/0 - counter = cpu_freq 2400\n"
		"1760 0 100/101 2 jump             > [unknown] 0x7f00 [inferred]\n"
		"1770 0 100/101 2 unwind           < [unknown] 0x7f00 [inferred] took 10 ns\n"
		"1780 0 100/101 2 syscall          > [syscall] [kernel] [synthetic]\n"
		"1790 0 100/101 2 sysret           < [syscall] [kernel] [synthetic] took 10 ns\n"
		"1800 0 100/101 1 return         < foo took 300 ns\n"
		"2001 1 100/101 0 end_of_trace < main took 1001 ns\n";
	struct pts_tl_rec r[20];
	size_t n = 0;

	r[n++] = wt_rec(PTS_TL_PROCESS, PTS_TLK_NONE, 0, 100, 0, 0, "hello");
	/* a newline in a name must not break the one-line-per-record rule */
	r[n++] = wt_rec(PTS_TL_THREAD, PTS_TLK_NONE, 0, 100, 101, 0, "hello\nmain");
	r[n++] = wt_rec(PTS_TL_THREAD, PTS_TLK_NONE, 0, 100, 102, 0, NULL);
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1000, 100, 101, 0, "main");
	r[n++].object = "/bin/hello";
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1500, 100, 101, 1, "foo");
	r[n].offset = 0x10;
	r[n++].object = "/bin/hello";
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_SYSCALL, 1600, 100, 101, 2, "sys_write");
	r[n].cpu = 2;
	r[n++].flags = PTS_TLF_KERNEL;
	r[n] = wt_rec(PTS_TL_END, PTS_TLK_SYSRET, 1700, 100, 101, 2, NULL);
	r[n++].cpu = 2;
	r[n] = wt_rec(PTS_TL_INSTANT, PTS_TLK_GAP, 1750, 100, 101, 1, "gap");
	r[n].cpu = 2;
	r[n].addr = 0x401020;
	r[n++].detail = "overflow, 3 packets lost";
	r[n] = wt_rec(PTS_TL_COUNTER, PTS_TLK_NONE, 1750, 100, 0, 0, "cpu_freq");
	r[n].cpu = 2;
	r[n++].value = 2400;
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_JUMP, 1760, 100, 101, 2, NULL);
	r[n].addr = 0x7f00;
	r[n++].flags = PTS_TLF_INFERRED;
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_UNWIND, 1770, 100, 101, 2, NULL);
	/* synthetic slices have a name but no symbol: no offset */
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_SYSCALL, 1780, 100, 101, 2, "[syscall]");
	r[n++].flags = PTS_TLF_KERNEL | PTS_TLF_SYNTHETIC;
	r[n] = wt_rec(PTS_TL_END, PTS_TLK_SYSRET, 1790, 100, 101, 2, "[syscall]");
	r[n++].flags = PTS_TLF_KERNEL | PTS_TLF_SYNTHETIC;
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 1800, 100, 101, 1, NULL);
	r[n] = wt_rec(PTS_TL_END, PTS_TLK_END_OF_TRACE, 2001, 100, 101, 0, NULL);
	r[n++].cpu = 1;

	wt_expect_text("a.txt", PTS_FMT_TXT, r, n, want);
}

/*
 * Code no symbol covers (PTS_TLF_UNKNOWN): the builder's name
 * "[unknown] 0xADDR (OBJECT)" is not a symbol and already says the
 * object. By the BEGIN row of docs/output-formats.md: its name, no
 * "+0x0", the object once, the other flags as usual ([inferred]; the
 * flag itself is not written). An END names the slice as its BEGIN did,
 * whether it carries the name or takes the frame's. A record with the
 * flag but no name is called "[unknown] 0xADDR" (common rules), which
 * does not say the object: "(obj)" follows it.
 */
static void code_without_a_symbol_shows_its_name_once_without_an_offset(void)
{
	static const char want[] =
		"# ts_ns cpu pid/tid depth kind event\n"
		"1000 0 100/101 0 call         > main (/bin/hello)\n"
		"1100 0 100/101 1 call           > [unknown] 0x1000 (obj)\n"
		"1200 0 100/101 1 jump           < [unknown] 0x1000 (obj) took 100 ns\n"
		"1300 0 100/101 1 return         > [unknown] 0x2000 (obj) [inferred]\n"
		"1400 0 100/101 1 unwind         < [unknown] 0x2000 (obj) [inferred] took 100 ns\n"
		"1500 0 100/101 1 call           > [unknown] 0x3000 (obj)\n"
		"1600 0 100/101 1 return         < [unknown] 0x3000 took 100 ns\n"
		"1700 0 100/101 0 end_of_trace < main took 700 ns\n";
	struct pts_tl_rec r[8];
	size_t n = 0;

	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1000, 100, 101, 0, "main");
	r[n++].object = "/bin/hello";
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1100, 100, 101, 1, "[unknown] 0x1000 (obj)");
	r[n].addr = 0x1000;
	r[n].object = "obj";
	r[n++].flags = PTS_TLF_UNKNOWN;
	/* the END as the timeline builder writes it: the frame's name, object and flags */
	r[n] = wt_rec(PTS_TL_END, PTS_TLK_JUMP, 1200, 100, 101, 1, "[unknown] 0x1000 (obj)");
	r[n].addr = 0x1000;
	r[n].object = "obj";
	r[n++].flags = PTS_TLF_UNKNOWN;
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_RETURN, 1300, 100, 101, 1, "[unknown] 0x2000 (obj)");
	r[n].addr = 0x2000;
	r[n].object = "obj";
	r[n++].flags = PTS_TLF_UNKNOWN | PTS_TLF_INFERRED;
	/* an END without a name or object: the frame's name, no object to repeat */
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_UNWIND, 1400, 100, 101, 1, NULL);
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 1500, 100, 101, 1, NULL);
	r[n].addr = 0x3000;
	r[n].object = "obj";
	r[n++].flags = PTS_TLF_UNKNOWN;
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 1600, 100, 101, 1, NULL);
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_END_OF_TRACE, 1700, 100, 101, 0, NULL);

	wt_expect_text("unknown.txt", PTS_FMT_TXT, r, n, want);
}

static int cleanup(void)
{
	wt_cleanup();
	return 0;
}

PTS_SUITE(writer_txt, NULL, cleanup,
	  PTS_TEST(listing_has_one_line_per_call_return_and_transition),
	  PTS_TEST(code_without_a_symbol_shows_its_name_once_without_an_offset))
