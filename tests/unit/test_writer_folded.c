// SPDX-License-Identifier: GPL-2.0
/*
 * Folded stacks: self time per distinct stack, in ns, process name as
 * the root frame, kernel frames marked "_[k]", lines sorted. The counts
 * below are worked out by hand from the record times in the comments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "writer_testlib.h"

static void self_time_is_summed_per_stack_across_threads_of_a_process(void)
{
	/*
	 * Thread 100/101: main [0,100), foo [10,30) and [40,60), write (kernel)
	 * [45,55). Thread 100/102: main [5,20), "a;b" [6,9). Process 200 (named
	 * ""): x [0,7).
	 *   hello;main               101: 10 + 10 + 40 = 60, 102: 1 + 11 = 12 -> 72
	 *   hello;main;foo           101: 20 + 5 + 5                        -> 30
	 *   hello;main;foo;write_[k] 101: 10                                -> 10
	 *   hello;main;a:b           102: 3 (';' in a name becomes ':')     -> 3
	 *   pid 200;x                7
	 */
	static const char want[] =
		"hello;main 72\n"
		"hello;main;a:b 3\n"
		"hello;main;foo 30\n"
		"hello;main;foo;write_[k] 10\n"
		"pid 200;x 7\n";
	struct pts_tl_rec r[20];
	size_t n = 0;

	r[n++] = wt_rec(PTS_TL_PROCESS, PTS_TLK_NONE, 0, 100, 0, 0, "hello");
	/* an empty name is no name: the root stays "pid 200" */
	r[n++] = wt_rec(PTS_TL_PROCESS, PTS_TLK_NONE, 0, 200, 0, 0, "");
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 0, 100, 101, 0, "main");
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 0, 200, 201, 0, "x");
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 5, 100, 102, 0, "main");
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 6, 100, 102, 1, "a;b");
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_END_OF_TRACE, 7, 200, 201, 0, NULL);
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 9, 100, 102, 1, NULL);
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 10, 100, 101, 1, "foo");
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 20, 100, 102, 0, NULL);
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 30, 100, 101, 1, NULL);
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 40, 100, 101, 1, "foo");
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_SYSCALL, 45, 100, 101, 2, "write");
	r[n++].flags = PTS_TLF_KERNEL;
	/* instants and counters carry no time of their own */
	r[n++] = wt_rec(PTS_TL_INSTANT, PTS_TLK_GAP, 50, 100, 101, 2, "gap");
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_SYSRET, 55, 100, 101, 2, NULL);
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 60, 100, 101, 1, NULL);
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 100, 100, 101, 0, NULL);

	wt_expect_text("a.folded", PTS_FMT_FOLDED, r, n, want);
}

/*
 * Code no symbol covers (PTS_TLF_UNKNOWN) is a frame named as the record
 * names it, once, nothing appended but the kernel mark: main [0,100),
 * "[unknown] 0x1000 (obj)" [10,40), unnamed kernel code [20,30).
 *   hello;main                                              100 - 30 = 70
 *   hello;main;[unknown] 0x1000 (obj)                        30 - 10 = 20
 *   hello;main;[unknown] 0x1000 (obj);[unknown] 0xffffffff81000000_[k]  10
 */
static void code_without_a_symbol_is_one_frame_named_once(void)
{
	static const char want[] =
		"hello;main 70\n"
		"hello;main;[unknown] 0x1000 (obj) 20\n"
		"hello;main;[unknown] 0x1000 (obj);[unknown] 0xffffffff81000000_[k] 10\n";
	struct pts_tl_rec r[8];
	size_t n = 0;

	r[n++] = wt_rec(PTS_TL_PROCESS, PTS_TLK_NONE, 0, 100, 0, 0, "hello");
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 0, 100, 101, 0, "main");
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 10, 100, 101, 1, "[unknown] 0x1000 (obj)");
	r[n].addr = 0x1000;
	r[n].object = "obj";
	r[n++].flags = PTS_TLF_UNKNOWN;
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_SYSCALL, 20, 100, 101, 2,
		      "[unknown] 0xffffffff81000000");
	r[n].addr = 0xffffffff81000000ULL;
	r[n++].flags = PTS_TLF_UNKNOWN | PTS_TLF_KERNEL;
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_SYSRET, 30, 100, 101, 2, NULL);
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 40, 100, 101, 1, NULL);
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 100, 100, 101, 0, NULL);

	wt_expect_text("u.folded", PTS_FMT_FOLDED, r, n, want);
}

/*
 * A function that only its FDE bounds ("[unknown] 0xSTART", no
 * PTS_TLF_UNKNOWN, the object in its field) gets its object after its
 * name: main [0,100), "[unknown] 0x2000" of libx.so [10,40), a frame of
 * no object named so [50,60).
 *   hello;main                                   100 - 30 - 10 = 60
 *   hello;main;[unknown] 0x2000 (libx.so)                        30
 *   hello;main;[unknown] 0x3000                                  10
 */
static void unnamed_function_carries_its_object(void)
{
	static const char want[] =
		"hello;main 60\n"
		"hello;main;[unknown] 0x2000 (libx.so) 30\n"
		"hello;main;[unknown] 0x3000 10\n";
	struct pts_tl_rec r[8];
	size_t n = 0;

	r[n++] = wt_rec(PTS_TL_PROCESS, PTS_TLK_NONE, 0, 100, 0, 0, "hello");
	r[n++] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 0, 100, 101, 0, "main");
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 10, 100, 101, 1, "[unknown] 0x2000");
	r[n].addr = 0x2000;
	r[n++].object = "libx.so";
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 40, 100, 101, 1, NULL);
	r[n] = wt_rec(PTS_TL_BEGIN, PTS_TLK_CALL, 50, 100, 101, 1, "[unknown] 0x3000");
	r[n++].addr = 0x3000;
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 60, 100, 101, 1, NULL);
	r[n++] = wt_rec(PTS_TL_END, PTS_TLK_RETURN, 100, 100, 101, 0, NULL);

	wt_expect_text("f.folded", PTS_FMT_FOLDED, r, n, want);
}

static int cleanup(void)
{
	wt_cleanup();
	return 0;
}

PTS_SUITE(writer_folded, NULL, cleanup,
	  PTS_TEST(self_time_is_summed_per_stack_across_threads_of_a_process),
	  PTS_TEST(code_without_a_symbol_is_one_frame_named_once),
	  PTS_TEST(unnamed_function_carries_its_object))
