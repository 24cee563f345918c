// SPDX-License-Identifier: GPL-2.0
/*
 * The real capture ../shared/data/real/dynamorio-hello (Skylake-SP 6/85/4,
 * user scope, perf) decoded in raw mode. The right answer is the one its
 * README derives from the program (`write(1, msg, 14)` then `exit(0)`)
 * and perf 6.1 agrees with:
 *  - exactly 8 instructions: 401000 401005 40100a 401014 401019(syscall)
 *    40101b 401020 401025(syscall);
 *  - tracing is disabled asynchronously at 0x401000 before the first
 *    instruction executes, and re-enabled there  -> "[interrupted]";
 *  - each syscall is followed by a disable with the IP suppressed (user
 *    scope)  -> "[syscall]" at 0x401019 (ended by the enable at 0x40101b)
 *    and at 0x401025 (exit: never returns, ended by the end of the trace).
 * So the timeline is _start holding [interrupted], [syscall], [syscall].
 */
#include <stdio.h>

#include "unit.h"
#include "tl_sink.h"
#include "session/session.h"

static char pt[512], elf[512], pri[512], sec[512];
static uint64_t insns[64];
static size_t ninsns;

static void on_insn(void *ctx, uint32_t cpu, uint64_t ip)
{
	(void)ctx;
	(void)cpu;
	if (ninsns < 64)
		insns[ninsns++] = ip;
}

static void opts_for_hello(struct pts_decode_opts *o, bool sideband)
{
	const char *d = pts_unit_shared_dir();

	snprintf(pt, sizeof(pt), "%s/data/real/dynamorio-hello/pt.bin", d);
	snprintf(elf, sizeof(elf), "%s/data/real/dynamorio-hello/hello", d);
	snprintf(pri, sizeof(pri), "%s/data/real/dynamorio-hello/primary.sideband.pevent", d);
	snprintf(sec, sizeof(sec), "%s/data/real/dynamorio-hello/secondary.sideband.pevent", d);
	pts_decode_opts_init(o);
	o->pt[0].path = pt;
	o->pt[0].cpu = 9;
	o->nr_pt = 1;
	o->elf[0].path = elf;
	o->nr_elf = 1;
	o->family = 6;
	o->model = 85;
	o->stepping = 4;
	o->mtc_freq = 3;
	o->nom_freq = 37;
	o->cpuid_15_eax = 2;
	o->cpuid_15_ebx = 308;
	o->scope = PTS_SCOPE_USER;
	o->on_insn = on_insn;
	if (sideband) {
		o->pevent[0] = pri;
		o->pevent[1] = sec;
		o->nr_pevent = 2;
		o->pevent_sample_type = 0x10086;
		o->have_perf_time = true;
		o->time_shift = 31;
		o->time_mult = 581029125;
		o->time_zero = 18444502336406842448ULL;
	}
}

#define nth tl_sink_nth

static void check_hello(bool sideband)
{
	static const uint64_t want[] = { 0x401000, 0x401005, 0x40100a, 0x401014,
					 0x401019, 0x40101b, 0x401020, 0x401025 };
	struct pts_decode_opts o;
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	char shape[2048], why[256];
	size_t i;

	opts_for_hello(&o, sideband);
	ninsns = 0;
	CU_ASSERT_EQUAL_FATAL(pts_decode_raw(&o, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT_EQUAL(ninsns, 8);
	for (i = 0; i < 8 && i < ninsns; i++)
		CU_ASSERT_EQUAL(insns[i], want[i]);
	CU_ASSERT_EQUAL(sum.insns, 8);
	CU_ASSERT_EQUAL(sum.gaps, 0);
	CU_ASSERT_STRING_EQUAL(tl_sink_shape(&sink, shape, sizeof(shape)),
		"B0 _start|B1 [interrupted]|E1 [interrupted]|B1 [syscall]|E1 [syscall]|"
		"B1 [syscall]|E1 [syscall]|E0 _start");
	if (!tl_sink_well_formed(&sink, why, sizeof(why)))
		CU_FAIL(why);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_BEGIN, "_start", 0)->addr, 0x401000);
	CU_ASSERT_STRING_EQUAL(nth(&sink, PTS_TL_BEGIN, "_start", 0)->object, "hello");
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_BEGIN, "[interrupted]", 0)->addr, 0x401000);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_BEGIN, "[syscall]", 0)->addr, 0x401019);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_END, "[syscall]", 0)->kind, PTS_TLK_SYSRET);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_BEGIN, "[syscall]", 1)->addr, 0x401025);
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_END, "[syscall]", 1)->kind, PTS_TLK_END_OF_TRACE);
	CU_ASSERT(nth(&sink, PTS_TL_BEGIN, "[syscall]", 0)->flags & PTS_TLF_SYNTHETIC);
	/* the first syscall returns before the second one is made */
	CU_ASSERT(nth(&sink, PTS_TL_END, "[syscall]", 0)->ts_ns <
		  nth(&sink, PTS_TL_BEGIN, "[syscall]", 1)->ts_ns);
	CU_ASSERT(nth(&sink, PTS_TL_BEGIN, "[interrupted]", 0)->ts_ns <
		  nth(&sink, PTS_TL_END, "[interrupted]", 0)->ts_ns);
	if (sideband) {
		/* ITRACE_START puts pid/tid 223991 on CPU 9; COMM names it hello */
		const struct pts_tl_rec *b = nth(&sink, PTS_TL_BEGIN, "_start", 0);

		CU_ASSERT_EQUAL(b->pid, 223991);
		CU_ASSERT_EQUAL(b->tid, 223991);
		CU_ASSERT_EQUAL(sum.nr_threads >= 1, 1);
		for (i = 0; i < sum.nr_threads; i++)
			if (sum.threads[i].tid == 223991)
				CU_ASSERT_STRING_EQUAL(sum.threads[i].name, "hello");
	} else {
		CU_ASSERT_EQUAL(nth(&sink, PTS_TL_BEGIN, "_start", 0)->tid, 9);
	}
	CU_ASSERT_EQUAL(nth(&sink, PTS_TL_BEGIN, "_start", 0)->cpu, 9);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

static void hello_without_sideband_decodes_to_its_eight_instructions_and_two_syscalls(void)
{
	check_hello(false);
}

static void hello_with_perf_sideband_decodes_the_same_on_its_own_thread(void)
{
	check_hello(true);
}

static void hello_with_the_elf_given_at_a_wrong_base_gives_gaps_not_a_crash(void)
{
	struct pts_decode_opts o;
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	char why[256];

	opts_for_hello(&o, false);
	/* load the code 1 MiB too high: nothing is mapped at 0x401000 */
	o.elf[0].base = 0x501000;
	ninsns = 0;
	CU_ASSERT_EQUAL_FATAL(pts_decode_raw(&o, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT(sum.gaps >= 1);
	CU_ASSERT_EQUAL(ninsns, 0);
	CU_ASSERT(sum.nr_causes >= 1);
	if (!tl_sink_well_formed(&sink, why, sizeof(why)))
		CU_FAIL(why);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

/* A CPU model libipt does not know: no errata applied, said in the summary, decoded all the same. */
static void hello_with_an_unknown_cpu_model_decodes_without_errata(void)
{
	struct pts_decode_opts o;
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };

	opts_for_hello(&o, false);
	o.model = 250;
	ninsns = 0;
	CU_ASSERT_EQUAL_FATAL(pts_decode_raw(&o, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT(sum.errata_unknown);
	CU_ASSERT_EQUAL(ninsns, 8);
	CU_ASSERT_EQUAL(sum.gaps, 0);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

PTS_SUITE(decode_dynamorio, NULL, NULL,
	  PTS_TEST_SHARED(hello_without_sideband_decodes_to_its_eight_instructions_and_two_syscalls,
			  "data/real/dynamorio-hello/pt.bin"),
	  PTS_TEST_SHARED(hello_with_perf_sideband_decodes_the_same_on_its_own_thread,
			  "data/real/dynamorio-hello/pt.bin"),
	  PTS_TEST_SHARED(hello_with_the_elf_given_at_a_wrong_base_gives_gaps_not_a_crash,
			  "data/real/dynamorio-hello/pt.bin"),
	  PTS_TEST_SHARED(hello_with_an_unknown_cpu_model_decodes_without_errata,
			  "data/real/dynamorio-hello/pt.bin"));
