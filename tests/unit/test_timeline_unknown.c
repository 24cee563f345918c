// SPDX-License-Identifier: GPL-2.0
/*
 * Timeline builder: code no symbol covers. Its frames are named by the
 * builder, "[unknown] 0xADDR (OBJECT)" after the address they were
 * entered at (docs/decode.md), and flagged PTS_TLF_UNKNOWN with offset 0
 * (writer.h), so writers do not take that name for a symbol. Frames of
 * symbols and synthetic slices never carry the flag. Each test feeds
 * hand-written branch events for a made-up address space and states the
 * timeline shape and flags by hand (tl_sink.h rendering):
 *
 *   prog:    main 0x1000  foo 0x1100   (0x100 bytes each, object "prog")
 *   libx.so: 0x7000..0x7fff, no symbols
 *   kernel:  K = 0xffffffff81000000, no symbols
 */
#include "unit.h"
#include "tl_feed.h"

#define K 0xffffffff81000000ULL
#define MAIN 0x1000ULL
#define FOO 0x1100ULL
#define LIBX 0x7000ULL

static const struct tl_fn fns[] = { { "main", MAIN }, { "foo", FOO } };

static int sym(void *ctx, int32_t pid, uint64_t addr, struct pts_sym_info *out)
{
	(void)ctx;
	(void)pid;
	tl_fn_lookup(fns, sizeof(fns) / sizeof(fns[0]), addr, out);
	if (!out->name && addr >= LIBX && addr < LIBX + 0x1000)
		out->object = "libx.so";	/* an object without symbols */
	return 0;
}

static void start(enum pts_scope scope, pts_tl_symbolize_fn symbolize)
{
	tl_fx_start(scope, symbolize, 0, 0);
}

static void ev(enum pts_br_kind k, uint64_t from, uint64_t to, uint64_t ts, uint32_t flags,
	       uint8_t insn_len)
{
	tl_fx_ev(k, from, insn_len, to, ts, flags, NULL);
}

/* End the trace and free the builder; the records' shape. */
static const char *finish(void)
{
	const char *s = tl_fx_finish();

	tl_fx_done();
	return s;
}

#define rec tl_fx_rec

/*
 * main calls into libx.so (no symbol), which calls foo; both return;
 * main makes a syscall; then main returns past the known stack into
 * libx.so. By the rules in timeline.h: the call opens a frame named
 * "[unknown] 0x7010 (libx.so)"; the return past the stack ends main and
 * opens an inferred outer frame for the target, "[unknown] 0x7100
 * (libx.so)", beginning where main began (100), so everything seen nests
 * one level deeper inside it.
 */
static void a_call_into_code_without_a_symbol_is_flagged_unknown_with_offset_0(void)
{
	const struct pts_tl_rec *r;

	start(PTS_SCOPE_USER, sym);
	ev(PTS_BR_ENABLED, 0, MAIN, 100, 0, 0);
	ev(PTS_BR_CALL, MAIN + 5, LIBX + 0x10, 110, 0, 5);	/* saves MAIN + 10 */
	ev(PTS_BR_CALL, LIBX + 0x20, FOO, 120, 0, 5);		/* saves LIBX + 0x25 */
	ev(PTS_BR_RETURN, FOO + 4, LIBX + 0x25, 130, 0, 0);
	ev(PTS_BR_RETURN, LIBX + 0x40, MAIN + 10, 140, 0, 0);
	ev(PTS_BR_SYSCALL, MAIN + 12, 0, 150, PTS_BRF_TRACE_OFF, 2);
	ev(PTS_BR_ENABLED, 0, MAIN + 14, 160, PTS_BRF_RESUMED, 0);
	ev(PTS_BR_RETURN, MAIN + 20, LIBX + 0x100, 170, 0, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 [unknown] 0x7100 (libx.so)|B1 main|B2 [unknown] 0x7010 (libx.so)|"
		"B3 foo|E3 foo|E2 [unknown] 0x7010 (libx.so)|B2 [syscall]|E2 [syscall]|"
		"E1 main|E0 [unknown] 0x7100 (libx.so)");

	r = rec(PTS_TL_BEGIN, "[unknown] 0x7010 (libx.so)", 0);
	CU_ASSERT_EQUAL(r->flags, PTS_TLF_UNKNOWN);
	CU_ASSERT_EQUAL(r->offset, 0);
	CU_ASSERT_EQUAL(r->addr, LIBX + 0x10);
	CU_ASSERT_EQUAL(r->kind, PTS_TLK_CALL);
	CU_ASSERT_STRING_EQUAL(r->object, "libx.so");
	r = rec(PTS_TL_END, "[unknown] 0x7010 (libx.so)", 0);
	CU_ASSERT_EQUAL(r->flags, PTS_TLF_UNKNOWN);
	CU_ASSERT_EQUAL(r->offset, 0);

	/* the inferred outer frame: both flags, nothing else */
	r = rec(PTS_TL_BEGIN, "[unknown] 0x7100 (libx.so)", 0);
	CU_ASSERT_EQUAL(r->flags, PTS_TLF_INFERRED | PTS_TLF_UNKNOWN);
	CU_ASSERT_EQUAL(r->offset, 0);
	CU_ASSERT_EQUAL(r->ts_ns, 100);

	/* symbols and synthetic slices are not unknown code */
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "main", 0)->flags, 0);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "foo", 0)->flags, 0);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "foo", 0)->offset, 0);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "[syscall]", 0)->flags,
			PTS_TLF_SYNTHETIC | PTS_TLF_KERNEL);
	CU_ASSERT_EQUAL(rec(PTS_TL_END, "[syscall]", 0)->flags,
			PTS_TLF_SYNTHETIC | PTS_TLF_KERNEL);
}

/*
 * Without a symbolizer every address is unknown and has no object: the
 * name is "[unknown] 0xADDR" alone. Scope both: a syscall into unnamed
 * kernel code is a kernel frame, so it keeps PTS_TLF_KERNEL beside
 * PTS_TLF_UNKNOWN (its category stays "kernel" in the writers).
 */
static void unknown_code_without_an_object_and_in_the_kernel_keeps_its_other_flags(void)
{
	start(PTS_SCOPE_BOTH, NULL);
	ev(PTS_BR_ENABLED, 0, 0x9000, 100, 0, 0);
	ev(PTS_BR_SYSCALL, 0x9005, K, 110, 0, 2);	/* saves 0x9007 */
	ev(PTS_BR_SYSRET, K + 9, 0x9007, 120, 0, 0);
	CU_ASSERT_STRING_EQUAL(finish(),
		"B0 [unknown] 0x9000|B1 [unknown] 0xffffffff81000000|"
		"E1 [unknown] 0xffffffff81000000|E0 [unknown] 0x9000");
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "[unknown] 0x9000", 0)->flags, PTS_TLF_UNKNOWN);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "[unknown] 0xffffffff81000000", 0)->flags,
			PTS_TLF_KERNEL | PTS_TLF_UNKNOWN);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "[unknown] 0xffffffff81000000", 0)->kind,
			PTS_TLK_SYSCALL);
	CU_ASSERT_EQUAL(rec(PTS_TL_BEGIN, "[unknown] 0xffffffff81000000", 0)->offset, 0);
	CU_ASSERT_STRING_EQUAL(rec(PTS_TL_BEGIN, "[unknown] 0x9000", 0)->object, "");
}

static int cleanup(void)
{
	tl_sink_free(&tl_fx.sink);
	return 0;
}

PTS_SUITE(timeline_unknown, NULL, cleanup,
	  PTS_TEST(a_call_into_code_without_a_symbol_is_flagged_unknown_with_offset_0),
	  PTS_TEST(unknown_code_without_an_object_and_in_the_kernel_keeps_its_other_flags))
