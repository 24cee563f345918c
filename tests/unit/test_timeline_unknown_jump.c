// SPDX-License-Identifier: GPL-2.0
/*
 * Jumps into unknown code (no symbol): unknown code is one function per
 * object to the builder, so a jump into it matches any unnamed frame of
 * that object open deeper. Such a match is a longjmp's unwind only where
 * the jump can be one: not out of a PLT (lazy binding's PLT0 jumping into
 * ld.so's resolver), nor from named code of the target's own object (a
 * tail call to one of its hidden functions: __sigsetjmp's `jmp
 * __sigjmp_save`). Seen in the shipped sample decoded without libc6-dbg:
 * 9 returns taken as jumps, each after such an unwind. The address space
 * (made up; a name of NULL is unknown code of the object):
 *
 *   demo 0x1000-0x2000: unnamed
 *   libc.so.6 0x10000-0x20000: .plt 0x10000, foo@plt 0x10010,
 *     __sigsetjmp 0x10100, longjmp 0x10200, exported 0x10300,
 *     foo 0x10400 (0x100 bytes each but .plt, 0x10); the rest unnamed
 *   ld-linux-x86-64.so.2 0x30000-0x40000: unnamed
 */
#include "unit.h"
#include "tl_feed.h"

#define LIBC_PLT0 0x10000ULL
#define FOO_PLT 0x10010ULL
#define SIGSETJMP 0x10100ULL
#define LONGJMP 0x10200ULL
#define EXPORTED 0x10300ULL
#define FOO 0x10400ULL

struct obj_fn {
	const char *name;
	uint64_t start, size;
};

static const struct obj_fn libc_fns[] = {
	{ ".plt", LIBC_PLT0, 0x10 }, { "foo@plt", FOO_PLT, 0x10 },
	{ "__sigsetjmp", SIGSETJMP, 0x100 }, { "longjmp", LONGJMP, 0x100 },
	{ "exported", EXPORTED, 0x100 }, { "foo", FOO, 0x100 },
};

static int symbolize(void *ctx, int32_t pid, uint64_t addr, struct pts_sym_info *out)
{
	size_t i;

	(void)ctx;
	(void)pid;
	memset(out, 0, sizeof(*out));
	if (addr >= 0x1000 && addr < 0x2000)
		out->object = "demo";
	else if (addr >= 0x30000 && addr < 0x40000)
		out->object = "ld-linux-x86-64.so.2";
	if (addr < 0x10000 || addr >= 0x20000)
		return 0;
	out->object = "libc.so.6";
	for (i = 0; i < sizeof(libc_fns) / sizeof(libc_fns[0]); i++)
		if (addr >= libc_fns[i].start && addr < libc_fns[i].start + libc_fns[i].size) {
			out->name = libc_fns[i].name;
			out->start = libc_fns[i].start;
			out->size = libc_fns[i].size;
		}
	return 0;
}

#define ev tl_fx_br

/*
 * ld.so's unnamed code calls exported (libc), which calls foo through its
 * PLT, bound lazily: foo@plt jumps to PLT0, PLT0 into ld.so's resolver
 * (unnamed, like the frame at depth 0), the resolver on to foo, whose
 * return goes back to exported.
 */
static void lazy_binding_from_plt0_into_unnamed_ldso_is_no_unwind(void)
{
	tl_fx_start(PTS_SCOPE_USER, symbolize, 0, 0);
	ev(PTS_BR_ENABLED, 0, 0, 0x38000, 100, 0);
	ev(PTS_BR_CALL, 0x38010, 5, EXPORTED, 110, 0);		/* saves 0x38015 */
	ev(PTS_BR_CALL, EXPORTED + 0x10, 5, FOO_PLT, 120, 0);	/* saves EXPORTED+0x15 */
	ev(PTS_BR_JUMP, FOO_PLT + 6, 0, LIBC_PLT0, 121, 0);
	ev(PTS_BR_JUMP, LIBC_PLT0 + 0xb, 0, 0x39000, 122, 0);	/* the resolver */
	ev(PTS_BR_JUMP, 0x39050, 0, FOO, 130, 0);
	ev(PTS_BR_RETURN, FOO + 0x50, 0, EXPORTED + 0x15, 140, 0);
	ev(PTS_BR_RETURN, EXPORTED + 0x50, 0, 0x38015, 150, 0);
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(),
		"B0 [unknown] 0x38000 (ld-linux-x86-64.so.2)|B1 exported|B2 foo@plt|E2 foo@plt|"
		"B2 .plt|E2 .plt|B2 [unknown] 0x39000 (ld-linux-x86-64.so.2)|"
		"E2 [unknown] 0x39000 (ld-linux-x86-64.so.2)|B2 foo|E2 foo|E1 exported|"
		"E0 [unknown] 0x38000 (ld-linux-x86-64.so.2)");
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "foo", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "exported", 0)->kind, PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_RETURN_AS_JUMP), 0);
	tl_fx_done();
}

/* libc's unnamed code calls __sigsetjmp, which tail-calls an unnamed libc function. */
static void named_code_jumping_into_unnamed_code_of_its_object_is_a_tail_call(void)
{
	tl_fx_start(PTS_SCOPE_USER, symbolize, 0, 0);
	ev(PTS_BR_ENABLED, 0, 0, 0x18000, 100, 0);
	ev(PTS_BR_CALL, 0x18010, 5, SIGSETJMP, 110, 0);		/* saves 0x18015 */
	ev(PTS_BR_JUMP, SIGSETJMP + 0x20, 0, 0x1a000, 111, 0);
	ev(PTS_BR_RETURN, 0x1a010, 0, 0x18015, 120, 0);
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(),
		"B0 [unknown] 0x18000 (libc.so.6)|B1 __sigsetjmp|E1 __sigsetjmp|"
		"B1 [unknown] 0x1a000 (libc.so.6)|E1 [unknown] 0x1a000 (libc.so.6)|"
		"E0 [unknown] 0x18000 (libc.so.6)");
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "[unknown] 0x1a000 (libc.so.6)", 0)->kind,
			PTS_TLK_RETURN);
	CU_ASSERT_EQUAL(pts_tl_diag_count(tl_fx.tl, PTS_TLD_RETURN_AS_JUMP), 0);
	tl_fx_done();
}

/* The control: a longjmp from libc into the middle of the program's unnamed code unwinds. */
static void longjmp_into_unnamed_code_of_another_object_still_unwinds(void)
{
	tl_fx_start(PTS_SCOPE_USER, symbolize, 0, 0);
	ev(PTS_BR_ENABLED, 0, 0, 0x1800, 100, 0);
	ev(PTS_BR_CALL, 0x1810, 5, LONGJMP, 110, 0);		/* saves 0x1815 */
	ev(PTS_BR_JUMP, LONGJMP + 0x20, 0, 0x1830, 120, 0);	/* to a setjmp point */
	CU_ASSERT_STRING_EQUAL(tl_fx_finish(),
		"B0 [unknown] 0x1800 (demo)|B1 longjmp|E1 longjmp|E0 [unknown] 0x1800 (demo)");
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "longjmp", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(tl_fx_rec(PTS_TL_END, "longjmp", 0)->ts_ns, 120);
	tl_fx_done();
}

PTS_SUITE(timeline_unknown_jump, NULL, NULL,
	  PTS_TEST(lazy_binding_from_plt0_into_unnamed_ldso_is_no_unwind),
	  PTS_TEST(named_code_jumping_into_unnamed_code_of_its_object_is_a_tail_call),
	  PTS_TEST(longjmp_into_unnamed_code_of_another_object_still_unwinds))
