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
#include "asm_elf.h"
#include "bundle_fixture.h"
#include "ipt_ref.h"
#include "pt_gen.h"
#include "tl_sink.h"
#include "decode/ptdec.h"
#include "session/session.h"

#define START 0x401000ULL
#define AFTER_SYSCALL 0x40100cULL
#define AFTER_ICALL 0x401015ULL
#define F1 0x401040ULL
#define F2 0x401060ULL
#define F3 0x401080ULL
#define TAIL 0x4010a0ULL
#define LJ_MAIN 0x401100ULL
#define LJ_RESUME 0x401105ULL
#define SPIN 0x401200ULL
#define K 0xffffffff81000000ULL
#define ENTRY K
#define DO_SYSCALL (K + 0x20)
#define DO_EXIT (K + 0x40)
#define IRQ (K + 0x60)
#define HANDLE_IRQ (K + 0x80)
#define PGF (K + 0xa0)
#define EXC_PGF (K + 0xc0)

static char *dir, *user_elf, *kernel_elf, trace[300];

static int suite_init(void)
{
	dir = bt_tmpdir();
	if (!dir)
		return 1;
	snprintf(trace, sizeof(trace), "%s/trace.pt", dir);
	user_elf = asm_elf_build(dir, "user.elf", ASM_ELF_USER_S,
				 "-static -Ttext=0x401000 -e _start");
	kernel_elf = asm_elf_build(dir, "kernel.elf", "tests/golden/decode/kernel.S",
				   "-static -Ttext=0xffffffff81000000 -e entry_SYSCALL_64");
	return user_elf && kernel_elf ? 0 : 1;
}

static int suite_cleanup(void)
{
	bt_rmtree(dir);
	free(dir);
	free(user_elf);
	free(kernel_elf);
	return 0;
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

/* Decode len bytes of g (or of buf when given) in scope (0: none given); check well-formedness. */
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
	if (scope)	/* 0: no --scope, the default */
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

/* the n-th record of a type and name; a failure (not a crash) when it is missing */
#define nth(r, t, name, n) TL_SINK_NEED(&(r)->sink, t, name, n)

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

/*
 * The times of records named in want, "B f1 @0|E f2 @0x30": the first
 * begin (B) or end (E) of each name, at ns after the origin (hex, or 0),
 * written to got in the same form.
 */
static const char *times_of(const struct result *r, const char *want, char *got, size_t len)
{
	const char *item = want;
	size_t o = 0;

	got[0] = '\0';
	while (*item && o < len) {
		const char *at = strstr(item, " @"), *next = strchr(item, '|');
		char name[64];
		uint64_t ns;

		if (!at || at - item < 3 || (size_t)(at - item - 2) >= sizeof(name)) {
			CU_FAIL("times: not \"B name @ns|...\"");
			break;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(at - item - 2), item + 2);
		ns = nth(r, item[0] == 'B' ? PTS_TL_BEGIN : PTS_TL_END, name, 0)->ts_ns;
		o += (size_t)snprintf(got + o, len - o, ns ? "%s%c %s @%#llx" : "%s%c %s @0",
				      o ? "|" : "", item[0], name, (unsigned long long)ns);
		item = next ? next + 1 : item + strlen(item);
	}
	return got;
}

#define ASSERT_TIMES(r, want)						\
	do {								\
		char got_[512];						\
									\
		times_of((r), (want), got_, sizeof(got_));		\
		if (strcmp(got_, (want)))				\
			fprintf(stderr, "\n got: %s\nwant: %s\n", got_, (want)); \
		CU_ASSERT_STRING_EQUAL(got_, (want));			\
	} while (0)

/* The instructions of the user program's main path, _start to the exit syscall. */
static const uint64_t main_path[] = {
	0x401000, 0x401040, 0x401060, 0x401065, 0x401067, 0x401065, 0x401067,
	0x401065, 0x401067, 0x401069, 0x401045, 0x401005, 0x40100a,
	0x40100c, 0x401013, 0x401080, 0x401015, 0x4010a0, 0x4010a5, 0x4010a7,
};

static uint64_t pts_tl_diag_count_sum(const struct result *r)
{
	uint64_t n = 0;
	int d;

	for (d = 0; d < PTS_TLD_NR; d++)
		n += r->sum.diag[d];
	return n;
}

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

/* A new stream: a PSB+ at TSC tsc, then tracing enabled (TIP.PGE) at ip. */
static void gen_traced_from(struct pt_gen *g, uint64_t tsc, uint64_t ip)
{
	gen_init(g);
	gen_psb_plus(g, tsc);
	gen_ip(g, ppt_tip_pge, ip);
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

/* The main path's shape up to its first syscall, where tracing stops. */
static const char first_syscall_shape[] =
	"B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall]|E1 [syscall]|E0 _start";

/* The first syscall ends tracing (TIP.PGD, no IP); g decoded in user scope has that shape. */
static void decode_to_first_syscall(struct pt_gen *g, struct result *r)
{
	gen_ip_suppressed(g, ppt_tip_pgd);
	decode_gen(g, PTS_SCOPE_USER, r);
	ASSERT_SHAPE(r, first_syscall_shape);
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
	/*
	 * Branch events, by hand: enable at _start, call f1, call f2, jnz
	 * taken twice, ret, ret, syscall (trace off), enable at 40100c,
	 * call *%rbx, ret, jmp tail, exit syscall: 13. The two taken jnz stay
	 * inside f2 (the only function with a size, 401060..40106a) while f2
	 * is on top: dropped by the decoder, yet counted for the thread as if
	 * fed, so the stats match a decode that fed them (the shape above is
	 * the one that feeding them gives).
	 */
	CU_ASSERT_EQUAL(r.sum.branches, 13);
	CU_ASSERT_EQUAL(r.sum.elided, 2);
	CU_ASSERT_EQUAL_FATAL(r.sum.nr_threads, 1);
	/* the thread's events: those 13 and the PSB+'s CBR */
	CU_ASSERT_EQUAL(r.sum.threads[0].events, 14);
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

	gen_traced_from(&g, 0x1000, START);
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

	gen_traced_from(&g, 0x1000, START);
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
	/* the instant says what was lost and where in the trace file */
	CU_ASSERT_EQUAL(strncmp(nth(&r, PTS_TL_INSTANT, "gap", 0)->detail,
				"trace overflow (OVF): packets lost (cpu 0 trace offset 0x", 57), 0);
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_END, "f2", 0)->kind, PTS_TLK_GAP);
	/* after the gap: f3's ret, the jump, and tail's three instructions */
	CU_ASSERT_EQUAL(insns[ninsns - 5], F3);
	CU_ASSERT_EQUAL(insns[ninsns - 1], 0x4010a7);
	result_free(&r);
}

static const char main_shape[] =
	"B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall]|E1 [syscall]|"
	"B1 f3|E1 f3|E0 _start|B0 tail|B1 [syscall]|E1 [syscall]|E0 tail";

/*
 * kernel scope (OS only): tracing is on from the syscall entry (TIP.PGE)
 * to the sysretq (TIP.PGD). By hand: getpid: entry calls do_syscall, je
 * not taken (N), ret (T), sysretq leaves -> "[user]" until the next
 * TIP.PGE; exit: je taken (T) -> do_exit replaces do_syscall, jmp *%rdx
 * leaves the traced code -> "[user]" to the end.
 */
static void gen_kernel_main(struct pt_gen *g)
{
	gen_traced_from(g, 0x1000, ENTRY);
	gen_tnt(g, "NT");
	gen_ip_suppressed(g, ppt_tip_pgd);	/* sysretq */
	gen_tsc(g, 0x1200);
	gen_ip(g, ppt_tip_pge, ENTRY);
	gen_tnt(g, "T");
	gen_ip_suppressed(g, ppt_tip_pgd);	/* jmp *%rdx */
}

static const char kernel_main_shape[] =
	"B0 entry_SYSCALL_64|B1 do_syscall|E1 do_syscall|E0 entry_SYSCALL_64|"
	"B0 [user]|E0 [user]|B0 entry_SYSCALL_64|B1 do_syscall|E1 do_syscall|"
	"B1 do_exit|E1 do_exit|E0 entry_SYSCALL_64|B0 [user]|E0 [user]";

static void kernel_scope_syscalls_with_user_time_as_user_slices(void)
{
	struct pt_gen g;
	struct result r;

	gen_kernel_main(&g);
	decode_gen(&g, PTS_SCOPE_KERNEL, &r);
	ASSERT_SHAPE(&r, kernel_main_shape);
	CU_ASSERT(nth(&r, PTS_TL_BEGIN, "do_syscall", 0)->flags & PTS_TLF_KERNEL);
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_END, "entry_SYSCALL_64", 0)->kind, PTS_TLK_SYSRET);
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_END, "[user]", 0)->ts_ns, 0x200);
	CU_ASSERT_EQUAL(ninsns, 4 + 5);
	CU_ASSERT_EQUAL(r.sum.gaps, 0);
	CU_ASSERT_EQUAL(pts_tl_diag_count_sum(&r), 0);
	result_free(&r);
}

/*
 * both scopes: the main path with the kernel traced. By hand: the getpid
 * syscall enters entry_SYSCALL_64 (kernel frame under _start), do_syscall
 * is called and returns, sysretq returns to 40100c in _start; f3 is
 * called; `jmp tail`; the exit syscall enters the kernel again, do_exit
 * replaces do_syscall and the trace ends with TIP.PGD (no IP): "[untraced]".
 */
static void gen_both_main(struct pt_gen *g)
{
	gen_traced_from(g, 0x1000, START);
	gen_tnt(g, "TTNTT");
	gen_ip(g, ppt_tip, ENTRY);		/* syscall */
	gen_tnt(g, "NT");
	gen_ip(g, ppt_tip, AFTER_SYSCALL);	/* sysretq */
	gen_ip(g, ppt_tip, F3);
	gen_tnt(g, "T");
	gen_ip(g, ppt_tip, ENTRY);		/* exit syscall */
	gen_tnt(g, "T");
	gen_ip_suppressed(g, ppt_tip_pgd);
}

static const char both_main_shape[] =
	"B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 entry_SYSCALL_64|B2 do_syscall|"
	"E2 do_syscall|E1 entry_SYSCALL_64|B1 f3|E1 f3|E0 _start|B0 tail|"
	"B1 entry_SYSCALL_64|B2 do_syscall|E2 do_syscall|B2 do_exit|B3 [untraced]|"
	"E3 [untraced]|E2 do_exit|E1 entry_SYSCALL_64|E0 tail";

static void both_scopes_kernel_frames_nest_under_the_user_frame(void)
{
	struct pt_gen g;
	struct result r;

	gen_both_main(&g);
	decode_gen(&g, PTS_SCOPE_BOTH, &r);
	ASSERT_SHAPE(&r, both_main_shape);
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_BEGIN, "entry_SYSCALL_64", 0)->kind, PTS_TLK_SYSCALL);
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_END, "entry_SYSCALL_64", 0)->kind, PTS_TLK_SYSRET);
	CU_ASSERT(nth(&r, PTS_TL_BEGIN, "entry_SYSCALL_64", 0)->flags & PTS_TLF_KERNEL);
	CU_ASSERT_FALSE(nth(&r, PTS_TL_BEGIN, "_start", 0)->flags & PTS_TLF_KERNEL);
	CU_ASSERT_EQUAL(r.sum.gaps, 0);
	CU_ASSERT_EQUAL(pts_tl_diag_count_sum(&r), 0);
	result_free(&r);
}

/*
 * both scopes: an interrupt (FUP f2 + TIP asm_common_interrupt) before
 * f2 runs; the handler calls handle_irq, which takes a page fault at its
 * first instruction (FUP handle_irq + TIP asm_exc_page_fault, nested);
 * each iretq (TIP) returns to the interrupted instruction. By hand: the
 * frames nest _start > f1 > f2 > asm_common_interrupt > handle_irq >
 * asm_exc_page_fault > exc_page_fault and unwind in order; then the main
 * path to the first syscall, whose TIP.PGD ends tracing.
 */
static void both_scopes_nested_interrupts_nest_and_return(void)
{
	struct pt_gen g;
	struct result r;

	gen_traced_from(&g, 0x1000, START);
	gen_ip(&g, ppt_fup, F2);
	gen_ip(&g, ppt_tip, IRQ);
	gen_ip(&g, ppt_fup, HANDLE_IRQ);
	gen_ip(&g, ppt_tip, PGF);
	gen_tnt(&g, "T");			/* exc_page_fault ret */
	gen_ip(&g, ppt_tip, HANDLE_IRQ);	/* iretq */
	gen_tnt(&g, "T");			/* handle_irq ret */
	gen_ip(&g, ppt_tip, F2);		/* iretq */
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);	/* syscall */
	decode_gen(&g, PTS_SCOPE_BOTH, &r);
	ASSERT_SHAPE(&r, "B0 _start|B1 f1|B2 f2|B3 asm_common_interrupt|B4 handle_irq|"
		     "B5 asm_exc_page_fault|B6 exc_page_fault|E6 exc_page_fault|"
		     "E5 asm_exc_page_fault|E4 handle_irq|E3 asm_common_interrupt|E2 f2|E1 f1|"
		     "B1 [syscall]|E1 [syscall]|E0 _start");
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_BEGIN, "asm_common_interrupt", 0)->kind, PTS_TLK_INTERRUPT);
	/* Linux's exception entries are named asm_exc_*: shown as an exception */
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_BEGIN, "asm_exc_page_fault", 0)->kind, PTS_TLK_EXCEPTION);
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_END, "asm_exc_page_fault", 0)->kind, PTS_TLK_IRET);
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_END, "asm_common_interrupt", 0)->kind, PTS_TLK_IRET);
	CU_ASSERT_EQUAL(r.sum.gaps, 0);
	result_free(&r);
}

/*
 * pt-facts §8 "longjmp/exception unwinding several frames": lj_main calls
 * lj_a, lj_b, lj_c (direct), lj_c jumps back into lj_main (jmp *%rax, TIP
 * 401105). By hand: lj_c, lj_b, lj_a are unwound at that jump; lj_main
 * goes on to its exit syscall.
 */
static void longjmp_unwinds_several_frames(void)
{
	struct pt_gen g;
	struct result r;

	gen_traced_from(&g, 0x1000, LJ_MAIN);
	gen_ip(&g, ppt_tip, LJ_RESUME);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	decode_gen(&g, PTS_SCOPE_USER, &r);
	ASSERT_SHAPE(&r, "B0 lj_main|B1 lj_a|B2 lj_b|B3 lj_c|E3 lj_c|E2 lj_b|E1 lj_a|"
		     "B1 [syscall]|E1 [syscall]|E0 lj_main");
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_END, "lj_c", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_END, "lj_a", 0)->kind, PTS_TLK_UNWIND);
	CU_ASSERT_EQUAL(ninsns, 3 + 2 + 3);	/* 3 calls, lea + jmp, nop mov syscall */
	result_free(&r);
}

/* pt-facts §8 "buffer with no PSB (short capture)": one gap saying so. */
static void buffer_without_psb_is_one_no_sync_point_gap(void)
{
	uint8_t buf[200];
	struct result r;

	memset(buf, 0, sizeof(buf));	/* PAD packets */
	buf[100] = 0x06;		/* a TNT-8 byte: trace, but no sync point */
	decode_bytes(buf, sizeof(buf), PTS_SCOPE_USER, &r);
	ASSERT_SHAPE(&r, "I gap");
	CU_ASSERT_EQUAL(r.sum.gaps, 1);
	CU_ASSERT_STRING_EQUAL(r.sum.causes[0].cause, "no sync point: no PSB in 200 bytes of trace");
	CU_ASSERT_EQUAL(ninsns, 0);
	result_free(&r);
}

/* pt-facts §8 "a single PSB in a large buffer": 60000 bytes before it are skipped. */
static void single_psb_after_a_large_unsynchronised_prefix_decodes_fully(void)
{
	static uint8_t buf[70000];
	struct pt_gen g;
	struct result r;
	size_t n;

	gen_init(&g);
	gen_user_main(&g, 0x1000);
	n = gen_len(&g);
	memset(buf, 0, 60000);
	memcpy(buf + 60000, g.buf, n);
	gen_done(&g);
	decode_bytes(buf, 60000 + n, PTS_SCOPE_USER, &r);
	ASSERT_SHAPE(&r, main_shape);
	assert_insns(main_path, sizeof(main_path) / sizeof(main_path[0]));
	CU_ASSERT_EQUAL(r.sum.gaps, 0);
	result_free(&r);
}

/*
 * pt-facts §8 "snapshot wrap with a torn first packet and a PSB split
 * across the wrap point": the linearised ring starts with the second half
 * of a PSB and a cut TIP, and ends with the first half of the PSB. By
 * hand: nothing before the first whole PSB can be decoded; the stream
 * after it is whole (the main path); the half PSB at the end holds nothing.
 */
static void wrapped_ring_with_torn_start_and_split_psb_decodes_the_whole_part(void)
{
	static const uint8_t psb[16] = { 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
					 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82 };
	static uint8_t buf[4096];
	struct pt_gen g;
	struct result r;
	size_t n, o = 0;

	memcpy(buf, psb + 7, 9);		/* second half of the split PSB */
	o = 9;
	buf[o++] = 0x4d;			/* TIP, 6-byte IP ... */
	buf[o++] = 0x10;			/* ... cut after 1 byte */
	gen_init(&g);
	gen_user_main(&g, 0x1000);
	n = gen_len(&g);
	memcpy(buf + o, g.buf, n);
	o += n;
	gen_done(&g);
	memcpy(buf + o, psb, 7);		/* first half of the split PSB */
	o += 7;
	decode_bytes(buf, o, PTS_SCOPE_USER, &r);
	ASSERT_SHAPE(&r, main_shape);
	assert_insns(main_path, sizeof(main_path) / sizeof(main_path[0]));
	result_free(&r);
}

/*
 * pt-facts §8 "PSB+ without PSBEND (torn header) -> skip to the next PSB":
 * a PSB TSC CBR with no PSBEND, then a whole PSB+ and the main path. By
 * hand: the torn header holds no instructions; the main path decodes in
 * full after the second PSB.
 */
static void torn_psb_header_skips_to_the_next_psb(void)
{
	struct pt_gen g;
	struct result r;

	gen_init(&g);
	gen_simple(&g, ppt_psb);
	gen_tsc(&g, 0x800);
	gen_cbr(&g, 37);
	gen_user_main(&g, 0x1000);
	decode_gen(&g, PTS_SCOPE_USER, &r);
	CU_ASSERT(strstr(r.shape, main_shape) != NULL);
	assert_insns(main_path, sizeof(main_path) / sizeof(main_path[0]));
	CU_ASSERT(r.sum.gaps <= 1);
	result_free(&r);
}

/*
 * pt-facts §8 "return-compression failure after untraced code": tracing
 * starts in f3 (TIP.PGE), whose ret is given as a taken TNT bit although
 * no call was traced: the return stack is empty, the decoder cannot go on.
 * By hand: f3 opens, a gap with libipt's cause closes it, and decoding
 * resumes at the next PSB with the main path.
 */
static void compressed_return_without_a_traced_call_is_a_gap_then_resync(void)
{
	struct pt_gen g;
	struct result r;

	gen_traced_from(&g, 0x800, F3);
	gen_tnt(&g, "T");
	gen_user_main(&g, 0x1000);
	decode_gen(&g, PTS_SCOPE_USER, &r);
	{
		char want[1024];

		snprintf(want, sizeof(want), "B0 f3|E0 f3|I gap|%s", main_shape);
		ASSERT_SHAPE(&r, want);
	}
	CU_ASSERT_EQUAL(r.sum.gaps, 1);
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_END, "f3", 0)->kind, PTS_TLK_GAP);
	result_free(&r);
}

/*
 * pt-facts §8 "a disable with no matching enable": a TIP.PGD while
 * tracing is already off (no FUP in the PSB+), then the main path. By
 * hand: the lone disable carries nothing; the main path decodes fully.
 */
static void disable_without_enable_is_harmless(void)
{
	struct pt_gen g;
	struct result r;

	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_ip(&g, ppt_tip_pge, START);
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	decode_gen(&g, PTS_SCOPE_USER, &r);
	CU_ASSERT(strstr(r.shape, first_syscall_shape) != NULL);
	CU_ASSERT_EQUAL(ninsns, 13);
	result_free(&r);
}

/*
 * pt-facts §8 "same-timestamp ordering of an error and the next kernel
 * entry" (both scopes): at TSC 0x2000 an OVF, and tracing resumes (FUP) in
 * the page-fault entry; its iretq returns to 401065 in f2, which then
 * leaves tracing at its ret (TIP.PGD). By hand: the gap instant comes
 * before the kernel frame, both at the same time; f2 is inferred around
 * the fault frames (the iret shows whose fault it was).
 */
static void error_and_kernel_entry_at_the_same_time_keep_their_order(void)
{
	struct pt_gen g;
	struct result r;
	size_t i, gi = 0, ki = 0;

	gen_traced_from(&g, 0x1000, START);
	gen_tnt(&g, "T");
	gen_tsc(&g, 0x2000);
	gen_simple(&g, ppt_ovf);
	gen_ip(&g, ppt_fup, PGF);
	gen_tnt(&g, "T");			/* exc_page_fault ret */
	gen_ip(&g, ppt_tip, 0x401065);		/* iretq */
	gen_tnt(&g, "N");			/* jnz not taken */
	gen_ip_suppressed(&g, ppt_tip_pgd);	/* ret: leaves tracing */
	decode_gen(&g, PTS_SCOPE_BOTH, &r);
	ASSERT_SHAPE(&r, "B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|E0 _start|I gap|B0 f2|"
		     "B1 asm_exc_page_fault|B2 exc_page_fault|E2 exc_page_fault|"
		     "E1 asm_exc_page_fault|B1 [untraced]|E1 [untraced]|E0 f2");
	for (i = 0; i < r.sink.n; i++) {
		if (r.sink.recs[i].r.type == PTS_TL_INSTANT && !gi)
			gi = i;
		if (r.sink.recs[i].r.type == PTS_TL_BEGIN &&
		    !strcmp(r.sink.recs[i].name, "asm_exc_page_fault"))
			ki = i;
	}
	CU_ASSERT(gi && ki && gi < ki);
	CU_ASSERT_EQUAL(r.sink.recs[gi].r.ts_ns, r.sink.recs[ki].r.ts_ns);
	CU_ASSERT_EQUAL(r.sink.recs[gi].r.ts_ns, 0x1000);
	CU_ASSERT(nth(&r, PTS_TL_BEGIN, "f2", 1)->flags & PTS_TLF_INFERRED);
	result_free(&r);
}

/*
 * pt-facts §8 "time going backwards for one thread": the second PSB+
 * carries an earlier TSC than the first. By hand: the thread's times are
 * clamped (never decrease) and the event is counted.
 */
static void time_going_backwards_is_clamped_and_counted(void)
{
	struct pt_gen g;
	struct result r;

	gen_traced_from(&g, 0x3000, START);
	gen_tnt(&g, "TTNTT");
	gen_tsc(&g, 0x3100);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_tip_pge, AFTER_SYSCALL);
	gen_ip(&g, ppt_tip, F3);
	gen_tnt(&g, "T");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	decode_gen(&g, PTS_SCOPE_USER, &r);
	ASSERT_SHAPE(&r, main_shape);
	CU_ASSERT(r.sum.diag[PTS_TLD_TIME_BACKWARDS] >= 1);
	result_free(&r);
}

/*
 * Jumps the decoder drops (inside f2, the function on top) still carry
 * their time to the thread: tracing starts at f2 (TSC 0x5000), jnz is
 * taken (time 0x5000), a TSC packet moves the time to 0x5100, jnz is
 * taken again (libipt's tick event gives it 0x5100), then not taken, and
 * the trace ends before f2's ret (a jump is known taken once the next
 * block starts, hence the N). By hand: f2 is open from 0 (origin 0x5000) and
 * ends with the trace at the last jump's time, 0x100 — not at 0, the
 * time of the last event fed.
 */
static void elided_jumps_at_the_end_still_set_the_threads_last_time(void)
{
	struct pt_gen g;
	struct result r;

	gen_traced_from(&g, 0x5000, F2);
	gen_tnt(&g, "T");
	gen_tsc(&g, 0x5100);
	gen_tnt(&g, "TN");
	decode_gen(&g, PTS_SCOPE_USER, &r);
	ASSERT_SHAPE(&r, "B0 f2|E0 f2");
	CU_ASSERT_EQUAL(r.sum.elided, 2);
	ASSERT_TIMES(&r, "B f2 @0|E f2 @0x100");
	CU_ASSERT_EQUAL_FATAL(r.sum.nr_threads, 1);
	CU_ASSERT_EQUAL(r.sum.threads[0].last_ns, 0x100);
	result_free(&r);
}

/*
 * A branch takes the time of its own packet: one TNT bit per packet, a
 * TSC before each. By hand (origin 0x1000): _start calls f1, f1 calls f2
 * (direct calls: no packet) before the TSC 0x1008 that precedes the
 * first jnz's TNT: both at 0; the jnz go T, T, N after the TSCs 0x1008,
 * 0x1010, 0x1020; f2's ret (T) follows the TSC 0x1030, f1's the TSC
 * 0x1040; the syscall's TIP.PGD comes after that: 0x40.
 */
static void each_branch_takes_the_time_of_its_own_packet(void)
{
	static const char *const bits[] = { "T", "T", "N", "T", "T" };
	struct pt_gen g;
	struct result r;
	size_t i;

	gen_traced_from(&g, 0x1000, START);
	for (i = 0; i < 5; i++) {
		gen_tsc(&g, 0x1000 + (i ? 0x10 * i : 8));
		gen_tnt(&g, bits[i]);
	}
	decode_to_first_syscall(&g, &r);
	ASSERT_TIMES(&r, "B f1 @0|B f2 @0|E f2 @0x30|E f1 @0x40|B [syscall] @0x40");
	result_free(&r);
}

/*
 * The branches of one TNT packet keep its time when a TSC follows it
 * and the event after the TSC is read in the same call of libipt's as
 * the last of them (its trailing event): by hand (origin 0x1000), the
 * loop and both returns come from the TNT before the TSC 0x1010: f2 and
 * f1 end at 0; the syscall's TIP.PGD follows the TSC: [syscall] at 0x10.
 */
static void branches_before_a_tsc_keep_their_time_when_the_event_after_it_is_read(void)
{
	struct pt_gen g;
	struct result r;

	gen_traced_from(&g, 0x1000, START);
	gen_tnt(&g, "TTNTT");
	gen_tsc(&g, 0x1010);
	decode_to_first_syscall(&g, &r);
	ASSERT_TIMES(&r, "E f2 @0|E f1 @0|B [syscall] @0x10");
	result_free(&r);
}

/*
 * An interrupt after a TSC that follows a return: f3's ret (TNT T, after
 * the TSC 0x1400 of the resume at 40100c) and the direct `jmp tail` after
 * it run before the TSC 0x1500; the interrupt (FUP 4010a5 + TIP.PGD)
 * follows it, and libipt reads the FUP in the call that decides the ret.
 * By hand (origin 0x1000): f3 ends and tail begins at 0x400; the
 * interrupt at tail's xor lasts from 0x500 to the TIP.PGE after the TSC
 * 0x1600.
 */
static void branches_before_an_interrupt_keep_the_time_of_their_packet(void)
{
	struct pt_gen g;
	struct result r;

	gen_traced_from(&g, 0x1000, START);
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_tsc(&g, 0x1400);
	gen_ip(&g, ppt_tip_pge, AFTER_SYSCALL);
	gen_ip(&g, ppt_tip, F3);
	gen_tnt(&g, "T");
	gen_tsc(&g, 0x1500);
	gen_ip(&g, ppt_fup, 0x4010a5);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_tsc(&g, 0x1600);
	gen_ip(&g, ppt_tip_pge, 0x4010a5);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	decode_gen(&g, PTS_SCOPE_USER, &r);
	ASSERT_SHAPE(&r, "B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall]|E1 [syscall]|"
		     "B1 f3|E1 f3|E0 _start|B0 tail|B1 [interrupted]|E1 [interrupted]|"
		     "B1 [syscall]|E1 [syscall]|E0 tail");
	ASSERT_TIMES(&r, "B f3 @0x400|E f3 @0x400|B tail @0x400|"
		     "B [interrupted] @0x500|E [interrupted] @0x600");
	result_free(&r);
}

/*
 * A far branch with MODE.Exec: the syscall's TIP (with the MODE.Exec
 * bound to it) follows a TSC 0x1010 after the TNT of the loop and both
 * returns; libipt reads the MODE.Exec in the call that decides f1's ret.
 * By hand (origin 0x1000): f2 and f1 end at 0, the syscall enters the
 * kernel at 0x10; do_syscall's je (N) and ret (T) follow the TSC 0x1020:
 * do_syscall ends at 0x20; the sysretq's TIP follows the TSC 0x1030.
 */
static void a_far_branch_with_mode_exec_takes_the_time_of_its_tip(void)
{
	struct pt_gen g;
	struct result r;

	gen_traced_from(&g, 0x1000, START);
	gen_tnt(&g, "TTNTT");
	gen_tsc(&g, 0x1010);
	gen_mode_exec64(&g);
	gen_ip(&g, ppt_tip, ENTRY);
	gen_tsc(&g, 0x1020);
	gen_tnt(&g, "NT");
	gen_tsc(&g, 0x1030);
	gen_mode_exec64(&g);
	gen_ip(&g, ppt_tip, AFTER_SYSCALL);
	gen_ip(&g, ppt_tip, F3);
	gen_tnt(&g, "T");
	gen_ip(&g, ppt_tip, ENTRY);
	gen_tnt(&g, "T");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	decode_gen(&g, PTS_SCOPE_BOTH, &r);
	ASSERT_SHAPE(&r, both_main_shape);
	ASSERT_TIMES(&r, "E f2 @0|E f1 @0|B entry_SYSCALL_64 @0x10|B do_syscall @0x10|"
		     "E do_syscall @0x20|E entry_SYSCALL_64 @0x30");
	result_free(&r);
}

/*
 * Two CPUs merged by time: jumps are checked when handed out (the filter
 * describes the thread fed last). Each CPU runs the main path on its own
 * track (no pid/tid given: tid = CPU); by hand each has the shape of one
 * CPU's decode, and each drops its two jnz inside f2.
 */
static void two_cpus_drop_jumps_at_hand_out_and_keep_each_shape(void)
{
	struct pt_gen g0, g1;
	struct pts_decode_opts o;
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink;
	char path1[320], shape[4096], why[256];

	gen_init(&g0);
	gen_user_main(&g0, 0x1000000);
	gen_init(&g1);
	gen_user_main(&g1, 0x1000080);
	gen_save(&g0, trace);
	snprintf(path1, sizeof(path1), "%s.1", trace);
	gen_save(&g1, path1);
	gen_done(&g0);
	gen_done(&g1);
	memset(&sink, 0, sizeof(sink));
	memset(&sum, 0, sizeof(sum));
	pts_decode_opts_init(&o);
	o.pt[0].path = trace;
	o.pt[0].cpu = 0;
	o.pt[1].path = path1;
	o.pt[1].cpu = 1;
	o.nr_pt = 2;
	o.elf[0].path = user_elf;
	o.nr_elf = 1;
	o.scope = PTS_SCOPE_USER;
	o.tsc_khz = 1000000;
	CU_ASSERT_EQUAL_FATAL(pts_decode_raw(&o, tl_sink_emit, &sink, &sum, &err), 0);
	if (!tl_sink_well_formed(&sink, why, sizeof(why)))
		CU_FAIL(why);
	CU_ASSERT_EQUAL(sum.elided, 4);
	CU_ASSERT_EQUAL(sum.branches, 26);
	CU_ASSERT_STRING_EQUAL(tl_sink_thread_shape(&sink, 0, shape, sizeof(shape)), main_shape);
	CU_ASSERT_STRING_EQUAL(tl_sink_thread_shape(&sink, 1, shape, sizeof(shape)), main_shape);
	tl_sink_free(&sink);
	pts_decode_summary_free(&sum);
	unlink(path1);
}

/*
 * pt-facts §8 "branches into code with no image (JIT, BPF) -> gap, not
 * crash": call *%rbx goes to 7f0000001000, where nothing is mapped. By
 * hand: _start runs to the call; decoding stops there with a gap ("no
 * memory mapped"); no later PSB, so the trace ends.
 */
static void branch_into_code_without_image_is_a_gap(void)
{
	struct pt_gen g;
	struct result r;

	gen_traced_from(&g, 0x1000, AFTER_SYSCALL);
	gen_ip(&g, ppt_tip, 0x7f0000001000ULL);
	gen_tnt(&g, "T");
	decode_gen(&g, PTS_SCOPE_USER, &r);
	CU_ASSERT_EQUAL(strncmp(r.shape, "B0 _start|", 10), 0);
	CU_ASSERT(strstr(r.shape, "I gap") != NULL);
	CU_ASSERT_EQUAL(r.sum.gaps, 1);
	CU_ASSERT_EQUAL(ninsns, 2);	/* lea, call *%rbx */
	result_free(&r);
}

#define PW 0x4011c0ULL
#define KPW (K + 0xe0)

static void gen_power(struct pt_gen *g)
{
	struct pt_packet p;

	memset(&p, 0, sizeof(p));
	p.type = ppt_pwre;
	p.payload.pwre.state = 2;
	gen_pkt(g, &p);
	memset(&p, 0, sizeof(p));
	p.type = ppt_pwrx;
	p.payload.pwrx.last = 2;
	p.payload.pwrx.deepest = 2;
	p.payload.pwrx.interrupt = 1;
	gen_pkt(g, &p);
}

/* MWAIT + EXSTOP (IP bit) + FUP: a power-state change at ip (SDM "Power Event Tracing") */
static void gen_mwait_exstop(struct pt_gen *g, uint64_t ip)
{
	struct pt_packet p;

	memset(&p, 0, sizeof(p));
	p.type = ppt_mwait;
	p.payload.mwait.hints = 0x20;
	gen_pkt(g, &p);
	memset(&p, 0, sizeof(p));
	p.type = ppt_exstop;
	p.payload.exstop.ip = 1;
	gen_pkt(g, &p);
	gen_ip(g, ppt_fup, ip);
}

PT_GEN_ONE_FIELD(gen_mnt, ppt_mnt, mnt.payload, uint64_t)
PT_GEN_ONE_FIELD(gen_vmcs, ppt_vmcs, vmcs.base, uint64_t)

/*
 * Every event kind that can occur in user scope. By hand, in stream order:
 * PSB+ (TSC, CBR 37: frequency sample 3700 MHz, exec mode); TIP.PGE _start
 * (enabled); _start calls f1 calls f2; jnz T,T; MTC (a time change); MODE.TSX begin
 * bound to the third dec (tsx, no slice); CBR 40 (sample 4000 MHz);
 * MODE.TSX abort at the third jnz with TIP to f2's ret (tsx abort instant,
 * a jump inside f2); rets T,T; syscall: TIP.PGD -> [syscall]. New PSB+
 * (CBR 37 again); TIP.PGE at pw: [syscall] ends, the kernel resumed the
 * thread in pw (as for a signal handler): pw nests on _start; PTW + FUP pw
 * (ptwrite instant); pw's ret (TIP) lands in _start at 401015; `jmp tail`; PWRE,
 * PWRX, MNT, MWAIT + EXSTOP bound to tail's xor (power and maintenance
 * events: counted, no slice); tail's syscall: TIP.PGD -> [syscall];
 * STOP (TraceStop instant).
 */
static void every_user_scope_event_kind(void)
{
	struct pt_gen g;
	struct result r;

	gen_traced_from(&g, 0x1000, START);
	gen_tnt(&g, "TT");
	gen_mtc(&g, 1);
	gen_mode_tsx(&g, 1, 0);
	gen_ip(&g, ppt_fup, 0x401065);
	gen_cbr(&g, 40);
	gen_mode_tsx(&g, 0, 1);
	gen_ip(&g, ppt_fup, 0x401067);
	gen_ip(&g, ppt_tip, 0x401069);
	gen_tnt(&g, "TT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_psb_plus(&g, 0x2000);
	gen_ip(&g, ppt_tip_pge, PW);
	gen_ptw(&g, 0x1234, 1);
	gen_ip(&g, ppt_fup, PW);
	gen_ip(&g, ppt_tip, AFTER_ICALL);
	gen_power(&g);
	gen_mnt(&g, 0x42);
	gen_mwait_exstop(&g, 0x4010a5);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_simple(&g, ppt_stop);
	decode_gen(&g, PTS_SCOPE_USER, &r);
	ASSERT_SHAPE(&r, "B0 _start|B1 f1|B2 f2|I TSX abort|E2 f2|E1 f1|B1 [syscall]|"
		     "E1 [syscall]|B1 pw|I ptwrite 0x1234|E1 pw|E0 _start|"
		     "B0 tail|B1 [syscall]|I TraceStop|E1 [syscall]|E0 tail");
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_enabled], 2);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_disabled], 2);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_async_branch], 1);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_tsx], 2);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_ptwrite], 1);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_pwre], 1);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_pwrx], 1);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_mwait], 1);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_exstop], 1);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_mnt], 1);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_stop], 1);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_cbr], 3);
	/* the decoder reads libipt's time itself (ptdec.c): no tick events asked for */
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_tick], 0);
	CU_ASSERT(r.sum.by_event[ptev_exec_mode] >= 1);
	CU_ASSERT_EQUAL(count(&r, PTS_TL_COUNTER, NULL), 3);
	CU_ASSERT_EQUAL(r.sink.recs[2].r.type, PTS_TL_COUNTER);
	CU_ASSERT_DOUBLE_EQUAL(r.sink.recs[2].r.value, 3700.0, 0.001);
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_INSTANT, "ptwrite 0x1234", 0)->addr, PW);
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_INSTANT, "TSX abort", 0)->addr, 0x401067);
	CU_ASSERT_EQUAL(r.sum.gaps, 0);
	result_free(&r);
}

/*
 * Kernel scope. By hand: TIP.PGE entry; do_syscall called, je N, ret T;
 * VMCS and PIP bind to the sysretq, whose TIP.PGD leaves for [user]
 * (paging and vmcs events: counted, no slice). TIP.PGE at kpw: [user]
 * ends; PTW + FUP kpw (ptwrite instant); kpw's ret (TIP) lands in entry
 * at K+5: entry inferred around kpw; PIP + sysretq TIP.PGD -> [user].
 */
static void every_kernel_scope_event_kind(void)
{
	struct pt_gen g;
	struct result r;

	gen_traced_from(&g, 0x1000, ENTRY);
	gen_tnt(&g, "NT");
	gen_vmcs(&g, 0x5000);
	gen_pip(&g, 0x3000);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_tsc(&g, 0x1100);
	gen_ip(&g, ppt_tip_pge, KPW);
	gen_ptw(&g, 0x5678, 1);
	gen_ip(&g, ppt_fup, KPW);
	gen_ip(&g, ppt_tip, ENTRY + 5);
	gen_pip(&g, 0x4000);
	gen_ip_suppressed(&g, ppt_tip_pgd);
	decode_gen(&g, PTS_SCOPE_KERNEL, &r);
	ASSERT_SHAPE(&r, "B0 entry_SYSCALL_64|B1 do_syscall|E1 do_syscall|E0 entry_SYSCALL_64|"
		     "B0 [user]|E0 [user]|B0 entry_SYSCALL_64|B1 kpw|I ptwrite 0x5678|E1 kpw|"
		     "E0 entry_SYSCALL_64|B0 [user]|E0 [user]");
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_paging], 2);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_vmcs], 1);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_ptwrite], 1);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_enabled], 2);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_disabled], 2);
	CU_ASSERT(nth(&r, PTS_TL_BEGIN, "entry_SYSCALL_64", 1)->flags & PTS_TLF_INFERRED);
	CU_ASSERT_EQUAL(r.sum.gaps, 0);
	result_free(&r);
}

/*
 * Both scopes. By hand: the main path; PIP binds to the syscall's far
 * branch (TIP entry); after sysretq an interrupt (FUP 40100c, with VMCS
 * and PIP between it and the TIP: async vmcs and async paging) + TIP kpw)
 * runs kpw (PTW + FUP: ptwrite instant), whose ret goes back to 40100c
 * (unwinding kpw to _start); f3; `jmp tail`; the exit syscall: entry,
 * do_syscall, je T -> do_exit, jmp *%rdx: TIP.PGD -> [untraced]; STOP.
 */
static void every_both_scopes_event_kind(void)
{
	struct pt_gen g;
	struct result r;

	gen_traced_from(&g, 0x1000, START);
	gen_tnt(&g, "TTNTT");
	gen_pip(&g, 0x2000);
	gen_ip(&g, ppt_tip, ENTRY);
	gen_tnt(&g, "NT");
	gen_ip(&g, ppt_tip, AFTER_SYSCALL);
	gen_ip(&g, ppt_fup, AFTER_SYSCALL);
	gen_vmcs(&g, 0x6000);
	gen_pip(&g, 0x7000);
	gen_ip(&g, ppt_tip, KPW);
	gen_ptw(&g, 0x9abc, 1);
	gen_ip(&g, ppt_fup, KPW);
	gen_ip(&g, ppt_tip, AFTER_SYSCALL);
	gen_ip(&g, ppt_tip, F3);
	gen_tnt(&g, "T");
	gen_ip(&g, ppt_tip, ENTRY);
	gen_tnt(&g, "T");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_simple(&g, ppt_stop);
	decode_gen(&g, PTS_SCOPE_BOTH, &r);
	ASSERT_SHAPE(&r, "B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 entry_SYSCALL_64|B2 do_syscall|"
		     "E2 do_syscall|E1 entry_SYSCALL_64|B1 kpw|I ptwrite 0x9abc|E1 kpw|B1 f3|E1 f3|"
		     "E0 _start|B0 tail|B1 entry_SYSCALL_64|B2 do_syscall|E2 do_syscall|B2 do_exit|"
		     "B3 [untraced]|I TraceStop|E3 [untraced]|E2 do_exit|E1 entry_SYSCALL_64|E0 tail");
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_paging], 1);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_async_paging], 1);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_async_vmcs], 1);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_async_branch], 1);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_ptwrite], 1);
	CU_ASSERT_EQUAL(r.sum.by_event[ptev_stop], 1);
	CU_ASSERT_EQUAL(nth(&r, PTS_TL_BEGIN, "kpw", 0)->kind, PTS_TLK_INTERRUPT);
	CU_ASSERT_EQUAL(r.sum.gaps, 0);
	result_free(&r);
}

/* The summary's scope line ("scope: both (from the trace: ...)"), in line. */
static void summary_scope_line(const struct result *r, char *line, size_t len)
{
	char *text = NULL, *nl;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	pts_decode_summary_print(f, &r->sum);
	fclose(f);
	nl = strstr(text, "scope: ");
	snprintf(line, len, "%s", nl ? nl : "");
	nl = strchr(line, '\n');
	if (nl)
		*nl = '\0';
	free(text);
}

/* Decode g with no --scope: scope, shape, no out-of-scope event, the summary's line. */
static void expect_scope_from_the_trace(struct pt_gen *g, enum pts_scope scope,
					const char *shape, const char *line_want)
{
	struct result r;
	char line[200];

	decode_gen(g, 0, &r);
	CU_ASSERT_EQUAL(r.sum.scope, scope);
	ASSERT_SHAPE(&r, shape);
	CU_ASSERT_EQUAL(pts_tl_diag_count_sum(&r), 0);
	summary_scope_line(&r, line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, line_want);
	result_free(&r);
}

/* libipt's instruction decoder (ipt_ref.h) on the bytes of g over the test programs. */
static long reference_insns(struct pt_gen *g, uint64_t *out, size_t max)
{
	const char *elf[] = { user_elf, kernel_elf };
	size_t len = gen_len(g);
	uint8_t *copy = calloc(1, len + PTS_PT_PAD);
	long n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
	memcpy(copy, g->buf, len);
	n = ipt_ref_insns(copy, len, elf, 2, out, max);
	free(copy);
	return n;
}

/*
 * A trace that stops while tracing is enabled (software cleared TraceEn:
 * every snapshot ends so) has no TIP.PGD: libipt raises pts_eos when the
 * packets are used up, and its decoders go on returning the instructions
 * whose addresses need no further trace (pt_blk_next(3)). Stream: PSB+,
 * TIP.PGE _start, TNT "T", end. By hand: _start's call f1 (401000), f1's
 * call f2 (401040), f2's mov (401060), dec (401065), jnz (401067) taken
 * (the T), then dec and jnz again: that jnz needs a TNT bit the trace does
 * not have, so the flow ends there, 7 instructions, as libipt's
 * instruction decoder lists them on the same bytes. _start, f1 and f2 are
 * open when the trace ends.
 */
static void trace_ending_without_a_disable_keeps_its_last_block(void)
{
	static const uint64_t want[] = { 0x401000, 0x401040, 0x401060, 0x401065,
					 0x401067, 0x401065, 0x401067 };
	uint64_t ref[64];
	struct pt_gen g;
	struct result r;
	long nref;

	gen_traced_from(&g, 0x1000, START);
	gen_tnt(&g, "T");
	nref = reference_insns(&g, ref, 64);
	CU_ASSERT_EQUAL(nref, 7);
	decode_gen(&g, PTS_SCOPE_USER, &r);
	assert_insns(want, 7);
	CU_ASSERT_EQUAL(r.sum.insns, (uint64_t)nref);
	CU_ASSERT_EQUAL(memcmp(insns, ref, sizeof(want)), 0);
	ASSERT_SHAPE(&r, "B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|E0 _start");
	CU_ASSERT_EQUAL(r.sum.gaps, 0);
	result_free(&r);
}

/*
 * No --scope: the user + kernel stream above holds user-space (_start,
 * f3) and kernel (entry_SYSCALL_64) addresses in its TIPs: scope both,
 * and the timeline is the one worked out for both scopes, with no event
 * "impossible in the recorded scope". (Decoded as user scope, the
 * kernel entries are out of scope: the assumption this replaces.)
 */
static void both_scopes_stream_without_scope_takes_both_from_the_trace(void)
{
	struct pt_gen g;

	gen_both_main(&g);
	expect_scope_from_the_trace(&g, PTS_SCOPE_BOTH, both_main_shape,
				    "scope: both (from the trace: user-space and kernel addresses)");
}

/* No --scope, user-only stream (TIP.PGD/TIP.PGE at each syscall): user. */
static void user_scope_stream_without_scope_takes_user_from_the_trace(void)
{
	struct pt_gen g;

	gen_init(&g);
	gen_user_main(&g, 0x1000);
	/* IPs: TIP.PGE _start, TIP.PGE 40100c, TIP f3; the 2 PGDs carry none */
	expect_scope_from_the_trace(&g, PTS_SCOPE_USER, main_shape,
				    "scope: user (from the trace: only user-space addresses (3), "
				    "2 tracing disables)");
}

/* No --scope, the kernel-only stream of kernel_scope_...: kernel, [user] slices. */
static void kernel_scope_stream_without_scope_takes_kernel_from_the_trace(void)
{
	struct pt_gen g;

	gen_kernel_main(&g);
	expect_scope_from_the_trace(&g, PTS_SCOPE_KERNEL, kernel_main_shape,
				    "scope: kernel (from the trace: only kernel addresses (2), "
				    "2 tracing disables)");
}

/* --scope stays an override: the user + kernel stream decoded as user, as asked. */
static void given_scope_overrides_what_the_trace_shows(void)
{
	struct pt_gen g;
	struct result r;
	char line[200];

	gen_both_main(&g);
	decode_gen(&g, PTS_SCOPE_USER, &r);
	CU_ASSERT_EQUAL(r.sum.scope, PTS_SCOPE_USER);
	CU_ASSERT(r.sum.diag[PTS_TLD_OUT_OF_SCOPE] > 0);
	summary_scope_line(&r, line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, "scope: user (given with --scope)");
	result_free(&r);
}

/*
 * The same with no TNT at all: the trace ends right after TIP.PGE _start.
 * By hand: call f1, call f2 (direct: no trace needed), mov, dec, jnz (the
 * first branch that needs trace): 5 instructions, the two calls open f1
 * and f2.
 */
static void trace_ending_right_after_the_enable_walks_to_the_first_branch_needing_trace(void)
{
	static const uint64_t want[] = { 0x401000, 0x401040, 0x401060, 0x401065, 0x401067 };
	uint64_t ref[64];
	struct pt_gen g;
	struct result r;

	gen_traced_from(&g, 0x1000, START);
	CU_ASSERT_EQUAL(reference_insns(&g, ref, 64), 5);
	decode_gen(&g, PTS_SCOPE_USER, &r);
	assert_insns(want, 5);
	ASSERT_SHAPE(&r, "B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|E0 _start");
	result_free(&r);
}

/*
 * Walking on after the last packet can meet a loop that needs no trace
 * (`jmp .`): libipt would return its block for ever. Stream: PSB+,
 * TIP.PGE spin, end. The decode ends (alarm: a hang fails the suite
 * rather than blocking it), with spin's jump listed and spin open.
 */
static void trace_ending_inside_a_loop_of_direct_jumps_ends(void)
{
	struct pt_gen g;
	struct result r;

	gen_traced_from(&g, 0x1000, SPIN);
	alarm(20);
	decode_gen(&g, PTS_SCOPE_USER, &r);
	alarm(0);
	CU_ASSERT(ninsns >= 1);
	CU_ASSERT_EQUAL(insns[0], SPIN);
	ASSERT_SHAPE(&r, "B0 spin|E0 spin");
	CU_ASSERT_EQUAL(r.sum.gaps, 0);
	result_free(&r);
}

PTS_SUITE(decode_synth, suite_init, suite_cleanup,
	  PTS_TEST(user_scope_calls_syscalls_and_tail_jump),
	  PTS_TEST(user_scope_interrupt_is_an_interrupted_slice),
	  PTS_TEST(overflow_mid_call_then_fup_resume_restarts_without_splicing),
	  PTS_TEST(kernel_scope_syscalls_with_user_time_as_user_slices),
	  PTS_TEST(both_scopes_kernel_frames_nest_under_the_user_frame),
	  PTS_TEST(both_scopes_nested_interrupts_nest_and_return),
	  PTS_TEST(longjmp_unwinds_several_frames),
	  PTS_TEST(buffer_without_psb_is_one_no_sync_point_gap),
	  PTS_TEST(single_psb_after_a_large_unsynchronised_prefix_decodes_fully),
	  PTS_TEST(wrapped_ring_with_torn_start_and_split_psb_decodes_the_whole_part),
	  PTS_TEST(torn_psb_header_skips_to_the_next_psb),
	  PTS_TEST(compressed_return_without_a_traced_call_is_a_gap_then_resync),
	  PTS_TEST(disable_without_enable_is_harmless),
	  PTS_TEST(error_and_kernel_entry_at_the_same_time_keep_their_order),
	  PTS_TEST(time_going_backwards_is_clamped_and_counted),
	  PTS_TEST(elided_jumps_at_the_end_still_set_the_threads_last_time),
	  PTS_TEST(each_branch_takes_the_time_of_its_own_packet),
	  PTS_TEST(branches_before_a_tsc_keep_their_time_when_the_event_after_it_is_read),
	  PTS_TEST(branches_before_an_interrupt_keep_the_time_of_their_packet),
	  PTS_TEST(a_far_branch_with_mode_exec_takes_the_time_of_its_tip),
	  PTS_TEST(trace_ending_without_a_disable_keeps_its_last_block),
	  PTS_TEST(trace_ending_right_after_the_enable_walks_to_the_first_branch_needing_trace),
	  PTS_TEST(trace_ending_inside_a_loop_of_direct_jumps_ends),
	  PTS_TEST(two_cpus_drop_jumps_at_hand_out_and_keep_each_shape),
	  PTS_TEST(branch_into_code_without_image_is_a_gap),
	  PTS_TEST(every_user_scope_event_kind),
	  PTS_TEST(every_kernel_scope_event_kind),
	  PTS_TEST(every_both_scopes_event_kind),
	  PTS_TEST(both_scopes_stream_without_scope_takes_both_from_the_trace),
	  PTS_TEST(user_scope_stream_without_scope_takes_user_from_the_trace),
	  PTS_TEST(kernel_scope_stream_without_scope_takes_kernel_from_the_trace),
	  PTS_TEST(given_scope_overrides_what_the_trace_shows));
