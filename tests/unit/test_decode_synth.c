// SPDX-License-Identifier: GPL-2.0
/*
 * Synthetic PT streams, built packet by packet with libipt's encoder over
 * the small programs tests/golden/decode/user.S and kernel.S (assembled
 * and linked when the suite starts, with `as` and `ld`). Every function
 * there sits at a pinned address (see the .S files), so each stream's
 * right answer — instructions executed and timeline shape — is worked
 * out by hand from the code and the packets, in the comment of each test.
 *
 * Scopes: user (RTIT_CTL.User), kernel (OS), both. Addresses:
 *   _start 401000 (call f1; mov; syscall @40100a; lea @40100c; call *%rbx @401013;
 *                  jmp tail @401015)
 *   f1 401040 (call f2; ret @401045)   f2 401060 (mov; dec @401065; jnz @401067; ret @401069)
 *   f3 401080 (ret)   tail 4010a0 (mov; xor; syscall @4010a7)
 *   K = ffffffff81000000: entry_SYSCALL_64 K (call do_syscall; sysretq @K+5)
 *   do_syscall K+20 (cmp; je do_exit; ret)  do_exit K+40 (jmp *%rdx)
 *   asm_common_interrupt K+60 (call handle_irq; iretq)  handle_irq K+80 (ret)
 *   asm_exc_page_fault K+a0 (call exc_page_fault; iretq)  exc_page_fault K+c0 (ret)
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"
#include "pt_gen.h"
#include "tl_sink.h"
#include "decode/session.h"

#define START 0x401000ULL
#define AFTER_SYSCALL 0x40100cULL
#define AFTER_ICALL 0x401015ULL
#define F1 0x401040ULL
#define F2 0x401060ULL
#define F3 0x401080ULL
#define TAIL 0x4010a0ULL
#define LJ_MAIN 0x401100ULL
#define LJ_RESUME 0x401105ULL
#define K 0xffffffff81000000ULL
#define ENTRY K
#define DO_SYSCALL (K + 0x20)
#define DO_EXIT (K + 0x40)
#define IRQ (K + 0x60)
#define HANDLE_IRQ (K + 0x80)
#define PGF (K + 0xa0)
#define EXC_PGF (K + 0xc0)

static char dir[256], user_elf[300], kernel_elf[300], trace[300];
static int have_tools;

static int suite_init(void)
{
	char cmd[2048];
	const char *src = pts_unit_src_dir();

	snprintf(dir, sizeof(dir), "/tmp/pts-decode-synth.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(user_elf, sizeof(user_elf), "%s/user.elf", dir);
	snprintf(kernel_elf, sizeof(kernel_elf), "%s/kernel.elf", dir);
	snprintf(trace, sizeof(trace), "%s/trace.pt", dir);
	snprintf(cmd, sizeof(cmd),
		 "as -o %s/u.o %s/tests/golden/decode/user.S && "
		 "ld -static -Ttext=0x401000 -e _start -o %s %s/u.o && "
		 "as -o %s/k.o %s/tests/golden/decode/kernel.S && "
		 "ld -static -Ttext=0xffffffff81000000 -e entry_SYSCALL_64 -o %s %s/k.o",
		 dir, src, user_elf, dir, dir, src, kernel_elf, dir);
	have_tools = system(cmd) == 0;
	return have_tools ? 0 : 1;
}

static int suite_cleanup(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : 1;
}

static uint64_t insns[256];
static size_t ninsns;

static void on_insn(void *ctx, uint32_t cpu, uint64_t ip)
{
	(void)ctx;
	(void)cpu;
	if (ninsns < 256)
		insns[ninsns++] = ip;
}

struct result {
	struct tl_sink sink;
	struct pts_decode_summary sum;
	char shape[8192];
	int rc;
};

/* Decode len bytes of g (or of buf when given) in scope; check well-formedness. */
static void decode_bytes(const uint8_t *buf, size_t len, enum pts_scope scope, struct result *r)
{
	struct pts_decode_opts o;
	struct pts_err err = { 0 };
	char why[256];
	FILE *f = fopen(trace, "wb");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(fwrite(buf, 1, len, f), len);
	fclose(f);
	memset(r, 0, sizeof(*r));
	pts_decode_opts_init(&o);
	o.pt[0].path = trace;
	o.pt[0].cpu = 0;
	o.nr_pt = 1;
	o.elf[0].path = user_elf;
	o.elf[1].path = kernel_elf;
	o.nr_elf = 2;
	o.scope = scope;
	o.tsc_khz = 1000000;	/* 1 GHz: 1 tick = 1 ns */
	o.pid = 100;
	o.tid = 101;
	o.on_insn = on_insn;
	ninsns = 0;
	r->rc = pts_decode_raw(&o, tl_sink_emit, &r->sink, &r->sum, &err);
	CU_ASSERT_EQUAL(r->rc, 0);
	if (r->rc)
		fprintf(stderr, "decode: %s\n", err.msg);
	tl_sink_shape(&r->sink, r->shape, sizeof(r->shape));
	if (!tl_sink_well_formed(&r->sink, why, sizeof(why))) {
		fprintf(stderr, "not well formed: %s\n%s\n", why, r->shape);
		CU_FAIL("timeline not well formed");
	}
}

static void decode_gen(struct pt_gen *g, enum pts_scope scope, struct result *r)
{
	decode_bytes(g->buf, gen_len(g), scope, r);
	gen_done(g);
}

static void result_free(struct result *r)
{
	tl_sink_free(&r->sink);
	pts_decode_summary_free(&r->sum);
}

static const struct pts_tl_rec *nth(const struct result *r, enum pts_tl_type t, const char *name,
				    int n)
{
	size_t i;

	for (i = 0; i < r->sink.n; i++)
		if (r->sink.recs[i].r.type == t && !strcmp(r->sink.recs[i].name, name) && !n--)
			return &r->sink.recs[i].r;
	return NULL;
}

static size_t count(const struct result *r, enum pts_tl_type t, const char *name)
{
	size_t i, n = 0;

	for (i = 0; i < r->sink.n; i++)
		if (r->sink.recs[i].r.type == t && (!name || !strcmp(r->sink.recs[i].name, name)))
			n++;
	return n;
}

#define ASSERT_SHAPE(r, want)						\
	do {								\
		if (strcmp((r)->shape, (want)))				\
			fprintf(stderr, "\n got: %s\nwant: %s\n", (r)->shape, (want)); \
		CU_ASSERT_STRING_EQUAL((r)->shape, (want));		\
	} while (0)

/* The instructions of the user program's main path, _start to the exit syscall. */
static const uint64_t main_path[] = {
	0x401000, 0x401040, 0x401060, 0x401065, 0x401067, 0x401065, 0x401067,
	0x401065, 0x401067, 0x401069, 0x401045, 0x401005, 0x40100a,
	0x40100c, 0x401013, 0x401080, 0x401015, 0x4010a0, 0x4010a5, 0x4010a7,
};

static void assert_insns(const uint64_t *want, size_t n)
{
	size_t i;

	CU_ASSERT_EQUAL(ninsns, n);
	for (i = 0; i < n && i < ninsns; i++)
		if (insns[i] != want[i]) {
			fprintf(stderr, "insn %zu: got %llx want %llx\n", i,
				(unsigned long long)insns[i], (unsigned long long)want[i]);
			CU_FAIL("instruction sequence differs");
			break;
		}
}

/* User-scope stream of the main path (also the tail of other tests). */
static void gen_user_main(struct pt_gen *g, uint64_t t)
{
	gen_psb_plus(g, t);
	gen_ip(g, ppt_tip_pge, START);
	gen_tnt(g, "TTNTT");	/* jnz T,T,N; f2 ret T; f1 ret T (compressed returns) */
	gen_ip_suppressed(g, ppt_tip_pgd);	/* syscall: tracing off, IP suppressed */
	gen_tsc(g, t + 0x400);
	gen_ip(g, ppt_tip_pge, AFTER_SYSCALL);	/* back from the kernel */
	gen_ip(g, ppt_tip, F3);			/* call *%rbx */
	gen_tnt(g, "T");			/* f3 ret */
	gen_ip_suppressed(g, ppt_tip_pgd);	/* exit syscall */
}

/*
 * user scope: calls, a loop, two syscalls (TIP.PGD with no IP), an
 * indirect call and a cross-function jump. By hand: _start calls f1, f1
 * calls f2, both return; the syscall is "[syscall]" until TIP.PGE at
 * 40100c; f3 is called and returns; `jmp tail` replaces _start by tail;
 * the exit syscall never returns.
 */
static void user_scope_calls_syscalls_and_tail_jump(void)
{
	struct pt_gen g;
	struct result r;

	gen_init(&g);
	gen_user_main(&g, 0x1000000);
	decode_gen(&g, PTS_SCOPE_USER, &r);
	assert_insns(main_path, sizeof(main_path) / sizeof(main_path[0]));
	ASSERT_SHAPE(&r, "B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall]|E1 [syscall]|"
		     "B1 f3|E1 f3|E0 _start|B0 tail|B1 [syscall]|E1 [syscall]|E0 tail");
	CU_ASSERT_EQUAL(r.sum.gaps, 0);
	/* [syscall] lasts from the PGD (TSC 0x1000000) to the PGE (TSC +0x400) */
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_END, "[syscall]", 0)->ts_ns -
			nth(&r, PTS_TL_BEGIN, "[syscall]", 0)->ts_ns, 0x400);
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_BEGIN, "tail", 0)->kind, PTS_TLK_JUMP);
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_BEGIN, "[syscall]", 1)->addr, 0x4010a7);
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_BEGIN, "f1", 0)->pid, 100);
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_BEGIN, "f1", 0)->tid, 101);
	/* the CBR 37 of the PSB+ becomes a frequency counter sample: 3700 MHz */
	CU_ASSERT_EQUAL(count(&r, PTS_TL_COUNTER, NULL), 1);
	result_free(&r);
}

/*
 * user scope, interrupt: FUP f2 + TIP.PGD (no IP) before f2's first
 * instruction runs is an asynchronous disable; TIP.PGE f2 resumes there.
 * By hand: [interrupted] nests in f2, then the main path goes on.
 */
static void user_scope_interrupt_is_an_interrupted_slice(void)
{
	struct pt_gen g;
	struct result r;

	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_tip_pge, START);
	gen_ip(&g, ppt_fup, F2);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_tsc(&g, 0x1100);
	gen_ip(&g, ppt_tip_pge, F2);
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	decode_gen(&g, PTS_SCOPE_USER, &r);
	ASSERT_SHAPE(&r, "B0 _start|B1 f1|B2 f2|B3 [interrupted]|E3 [interrupted]|E2 f2|E1 f1|"
		     "B1 [syscall]|E1 [syscall]|E0 _start");
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_END, "[interrupted]", 0)->ts_ns -
			nth(&r, PTS_TL_BEGIN, "[interrupted]", 0)->ts_ns, 0x100);
	CU_ASSERT_EQUAL(ninsns, 13);	/* main_path up to the first syscall */
	CU_ASSERT_EQUAL(r.sum.gaps, 0);
	result_free(&r);
}

/*
 * pt-facts §8 "OVF in mid-call then FUP resume": _start calls f1 calls f2,
 * whose first jnz is taken (TNT T: so execution is known to be in f2),
 * then OVF; FUP f3 says where tracing resumes. By hand: f2, f1, _start end
 * at the gap; the new segment starts in f3, whose return (a TIP: the return
 * stack is gone) lands in _start at 401015: _start is inferred around f3;
 * `jmp tail` replaces it; the exit syscall ends the trace.
 */
static void overflow_mid_call_then_fup_resume_restarts_without_splicing(void)
{
	struct pt_gen g;
	struct result r;

	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_tip_pge, START);
	gen_tnt(&g, "T");
	gen_simple(&g, ppt_ovf);
	gen_ip(&g, ppt_fup, F3);
	gen_ip(&g, ppt_tip, AFTER_ICALL);	/* f3: ret, uncompressed */
	gen_ip_suppressed(&g, ppt_tip_pgd);
	decode_gen(&g, PTS_SCOPE_USER, &r);
	ASSERT_SHAPE(&r, "B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|E0 _start|I gap|"
		     "B0 _start|B1 f3|E1 f3|E0 _start|B0 tail|B1 [syscall]|E1 [syscall]|E0 tail");
	CU_ASSERT_EQUAL(r.sum.gaps, 1);
	CU_ASSERT(nth(&r, PTS_TL_BEGIN, "_start", 1)->flags & PTS_TLF_INFERRED);
	CU_ASSERT_PTR_NOT_NULL_FATAL(nth(&r, PTS_TL_END, "f2", 0));
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_END, "f2", 0)->kind, PTS_TLK_GAP);
	/* after the gap: f3's ret, the jump, and tail's three instructions */
	CU_ASSERT_EQUAL(insns[ninsns - 5], F3);
	CU_ASSERT_EQUAL(insns[ninsns - 1], 0x4010a7);
	result_free(&r);
}

PTS_SUITE(decode_synth, suite_init, suite_cleanup,
	  PTS_TEST(user_scope_calls_syscalls_and_tail_jump),
	  PTS_TEST(user_scope_interrupt_is_an_interrupted_slice),
	  PTS_TEST(overflow_mid_call_then_fup_resume_restarts_without_splicing));
