// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall and page-fault records as the arguments of kernel entry slices
 * (kernel and combined scope; timeline/klabel.h, docs/decode.md "Syscall
 * and fault labels"). Hand-written branch events and sideband records go
 * through the timeline builder into the .fxt, .json and .txt writers at
 * once; each file is read back (fxt_reader.c, json-c, the text's lines)
 * and every expected argument is written out by hand below. The kernel
 * frames keep their names.
 *
 * Made-up code, functions 0x100 bytes each:
 *   main 0x401000 (prog)
 *   entry_SYSCALL_64 K+0x000  do_syscall_64 K+0x100  __x64_sys_write K+0x200
 *   __x64_sys_newfstat K+0x300  asm_exc_page_fault K+0x400
 *   exc_page_fault K+0x500  asm_sysvec_apic_timer_interrupt K+0x600
 *   entry_INT80_compat K+0x700
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "fxt_reader.h"
#include "tl_branch.h"
#include "tl_sink.h"
#include "writer_testlib.h"
#include "timeline/klabel.h"
#include "timeline/timeline.h"

#define MAIN		0x401000ULL
#define K		0xffffffff81000000ULL
#define ENTRY		(K + 0x000)
#define DOSYS		(K + 0x100)
#define SYS_WRITE	(K + 0x200)
#define SYS_FSTAT	(K + 0x300)
#define PGF		(K + 0x400)
#define EXCPGF		(K + 0x500)
#define TIMER		(K + 0x600)
#define INT80		(K + 0x700)

/* the thread tl_feed_branch feeds (tl_branch.h) */
#define PID 10
#define TID 11

static const struct tl_fn fns[] = {
	{ "main", MAIN }, { "entry_SYSCALL_64", ENTRY }, { "do_syscall_64", DOSYS },
	{ "__x64_sys_write", SYS_WRITE }, { "__x64_sys_newfstat", SYS_FSTAT },
	{ "asm_exc_page_fault", PGF }, { "exc_page_fault", EXCPGF },
	{ "asm_sysvec_apic_timer_interrupt", TIMER }, { "entry_INT80_compat", INT80 },
};
static struct tl_fns syms = { fns, sizeof(fns) / sizeof(fns[0]) };

/* One builder writing .fxt, .json and .txt at once. */
static struct {
	struct pts_writer *w[3];
	struct pts_tl *tl;
	struct pts_klabels *kl;
} fx;

static const char *const names[3] = { "k.fxt", "k.json", "k.txt" };

static int emit3(void *ctx, const struct pts_tl_rec *rec, struct pts_err *err)
{
	int i, rc = 0;

	(void)ctx;
	for (i = 0; !rc && i < 3; i++)
		rc = pts_writer_emit(fx.w[i], rec, err);
	return rc;
}

static void start(enum pts_scope scope)
{
	static const enum pts_format fmts[3] = { PTS_FMT_FXT, PTS_FMT_JSON, PTS_FMT_TXT };
	struct pts_tl_config c;
	struct pts_err err;
	int i;

	for (i = 0; i < 3; i++)
		CU_ASSERT_EQUAL_FATAL(pts_writer_open(wt_path(names[i]), fmts[i], &fx.w[i], &err),
				      0);
	CU_ASSERT_EQUAL_FATAL(pts_kl_prepare(fx.kl, 0), 0);
	memset(&c, 0, sizeof(c));
	c.scope = scope;
	c.symbolize = tl_fns_symbolize;
	c.sym_ctx = &syms;
	c.emit = emit3;
	c.labels = fx.kl;
	CU_ASSERT_EQUAL_FATAL(pts_tl_new(&c, &fx.tl, &err), 0);
}

static void ev(enum pts_br_kind k, uint64_t from, uint8_t len, uint64_t to, uint64_t ts,
	       uint32_t flags)
{
	tl_feed_branch(fx.tl, k, from, len, to, ts, flags, NULL);
}

static int span(void *ctx, int32_t tid, uint64_t *first, uint64_t *last)
{
	(void)ctx;
	*first = 0;
	*last = 10000;
	return tid == TID ? 0 : -1;
}

/* Finish the builder and the files; the records' counts. */
static void finish(struct pts_kl_stats *st)
{
	struct pts_err err;
	int i;

	CU_ASSERT_EQUAL(pts_tl_finish(fx.tl, &err), 0);
	for (i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(pts_writer_close(fx.w[i], true, &err), 0);
	pts_kl_stats(fx.kl, span, NULL, st);
	pts_tl_free(fx.tl);
	pts_kl_free(fx.kl);
	memset(&fx, 0, sizeof(fx));
}

/*
 * The expected arguments of one slice, as the .txt writes them: "" for
 * none, else "k=v k=v" (strings as such, signed numbers in decimal, the
 * error code and addresses in hex).
 */
struct want {
	const char *name;	/* the slice (never renamed) */
	const char *args;
};

/* The extra arguments of an fxt slice as "k=v ...", in the writer's order. */
static void fxt_args_text(const struct fxtr_args *a, char *buf, size_t len)
{
	static const char *const fixed[] = { "addr", "symbol", "offset", "object", "kind",
					     "cpu", "inferred", "synthetic" };
	size_t i, j, o = 0;

	buf[0] = '\0';
	for (i = 0; i < a->n; i++) {
		const struct fxtr_arg *x = &a->v[i];
		bool skip = false;

		for (j = 0; j < sizeof(fixed) / sizeof(fixed[0]); j++)
			skip |= !strcmp(x->name, fixed[j]);
		if (skip)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s=", o ? " " : "", x->name);
		if (x->type == FXTR_STRING)
			o += (size_t)snprintf(buf + o, len - o, "%s", x->s);
		else if (x->type == FXTR_I64)
			o += (size_t)snprintf(buf + o, len - o, "%lld", (long long)(int64_t)x->u);
		else if (x->type == FXTR_POINTER || x->type == FXTR_U32 || x->type == FXTR_U64)
			o += (size_t)snprintf(buf + o, len - o, "0x%llx", (unsigned long long)x->u);
		else
			o += (size_t)snprintf(buf + o, len - o, "?type%d", (int)x->type);
	}
}

static int slice_begin_cmp(const void *a, const void *b)
{
	const struct fxtr_slice *x = *(const struct fxtr_slice *const *)a;
	const struct fxtr_slice *y = *(const struct fxtr_slice *const *)b;

	return x->begin < y->begin ? -1 : x->begin > y->begin;
}

/* The kernel slices of the .fxt, by begin time, are want[] with those arguments. */
static void check_fxt(const struct want *want, size_t n)
{
	struct fxtr_trace t;
	const struct fxtr_slice *k[64];
	size_t i, nk = 0;
	char got[256];

	memset(&t, 0, sizeof(t));
	CU_ASSERT_EQUAL_FATAL(fxtr_read_file(wt_path("k.fxt"), &t), 0);
	for (i = 0; i < t.n_slices && nk < 64; i++)
		if (!strncmp(t.slices[i].name, "entry_", 6) ||
		    !strncmp(t.slices[i].name, "asm_", 4))
			k[nk++] = &t.slices[i];
	qsort(k, nk, sizeof(k[0]), slice_begin_cmp);
	CU_ASSERT_EQUAL(nk, n);
	for (i = 0; i < n && i < nk; i++) {
		CU_ASSERT_STRING_EQUAL(k[i]->name, want[i].name);
		fxt_args_text(&k[i]->args, got, sizeof(got));
		if (strcmp(got, want[i].args))
			fprintf(stderr, "fxt %s: got \"%s\", want \"%s\"\n", want[i].name, got,
				want[i].args);
		CU_ASSERT_STRING_EQUAL(got, want[i].args);
	}
	fxtr_free(&t);
}

/* The extra arguments of a JSON args object as "k=v ...". */
static void json_args_text(json_object *args, char *buf, size_t len)
{
	static const char *const fixed[] = { "addr", "symbol", "offset", "object", "kind",
					     "cpu", "inferred", "synthetic" };
	size_t j, o = 0;

	buf[0] = '\0';
	json_object_object_foreach(args, key, v) {
		bool skip = false;

		for (j = 0; j < sizeof(fixed) / sizeof(fixed[0]); j++)
			skip |= !strcmp(key, fixed[j]);
		if (skip)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s=", o ? " " : "", key);
		if (json_object_is_type(v, json_type_string))
			o += (size_t)snprintf(buf + o, len - o, "%s", json_object_get_string(v));
		else if (json_object_is_type(v, json_type_int) && !strcmp(key, "error_code"))
			o += (size_t)snprintf(buf + o, len - o, "0x%llx",
					      (unsigned long long)json_object_get_int64(v));
		else if (json_object_is_type(v, json_type_int))
			o += (size_t)snprintf(buf + o, len - o, "%lld",
					      (long long)json_object_get_int64(v));
		else
			o += (size_t)snprintf(buf + o, len - o, "?");
	}
}

/* The "B" events of kernel entries in the .json, in order, are want[]; each E repeats. */
static void check_json(const struct want *want, size_t n)
{
	json_object *root = json_object_from_file(wt_path("k.json")), *events, *e, *v, *args;
	size_t i, len, nk = 0;
	char got[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	CU_ASSERT_FATAL(json_object_object_get_ex(root, "traceEvents", &events));
	len = json_object_array_length(events);
	for (i = 0; i < len; i++) {
		const char *name;

		e = json_object_array_get_idx(events, i);
		if (!json_object_object_get_ex(e, "ph", &v) ||
		    strcmp(json_object_get_string(v), "B"))
			continue;
		json_object_object_get_ex(e, "name", &v);
		name = json_object_get_string(v);
		if (strncmp(name, "entry_", 6) && strncmp(name, "asm_", 4))
			continue;
		CU_ASSERT_FATAL(json_object_object_get_ex(e, "args", &args));
		if (nk < n) {
			CU_ASSERT_STRING_EQUAL(name, want[nk].name);
			json_args_text(args, got, sizeof(got));
			if (strcmp(got, want[nk].args))
				fprintf(stderr, "json %s: got \"%s\", want \"%s\"\n", name, got,
					want[nk].args);
			CU_ASSERT_STRING_EQUAL(got, want[nk].args);
		}
		nk++;
	}
	CU_ASSERT_EQUAL(nk, n);
	json_object_put(root);
}

/* The "> entry_..." and "> asm_..." lines of the .txt, in order, end in want[]'s {args}. */
static void check_txt(const struct want *want, size_t n)
{
	FILE *f = fopen(wt_path("k.txt"), "r");
	char line[512], tail[256];
	size_t nk = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "> "), *brace;

		if (!p || (strncmp(p + 2, "entry_", 6) && strncmp(p + 2, "asm_", 4)))
			continue;
		line[strcspn(line, "\n")] = '\0';
		brace = strchr(p, '{');
		snprintf(tail, sizeof(tail), "%s", brace ? brace + 1 : "");
		if (brace)
			CU_ASSERT_EQUAL(tail[strlen(tail) - 1], '}');
		if (tail[0])
			tail[strlen(tail) - 1] = '\0';
		if (nk < n) {
			CU_ASSERT(!strncmp(p + 2, want[nk].name, strlen(want[nk].name)));
			if (strcmp(tail, want[nk].args))
				fprintf(stderr, "txt %s: got \"%s\", want \"%s\"\n", want[nk].name,
					tail, want[nk].args);
			CU_ASSERT_STRING_EQUAL(tail, want[nk].args);
		}
		nk++;
	}
	fclose(f);
	CU_ASSERT_EQUAL(nk, n);
}

static void check_all(const struct want *want, size_t n)
{
	check_fxt(want, n);
	check_json(want, n);
	check_txt(want, n);
}

/*
 * Scope both: the syscall instruction's next byte and the faulting IP
 * (the FUP) pick the record, as in user scope. A timer interrupt at the
 * faulting instruction takes nothing (only asm_exc_page_fault takes a
 * fault), a syscall whose record names another IP keeps no arguments, nor
 * does a compat entry (int 0x80) whose record's IP fits.
 */
static void combined_scope_entry_slices_carry_the_records(void)
{
	static const struct want want[] = {
		{ "entry_SYSCALL_64", "syscall=write nr=1 ret=4096" },
		{ "asm_sysvec_apic_timer_interrupt", "" },
		{ "asm_exc_page_fault", "address=0x7f0000001000 access=write error_code=0x6" },
		{ "entry_SYSCALL_64", "syscall=openat nr=257 ret=-2 errno=ENOENT" },
		{ "entry_SYSCALL_64", "" },
		{ "asm_exc_page_fault",
		  "address=0x7f0000002000 access=read error_code=0xd bits=present,rsvd" },
		{ "entry_INT80_compat", "" },
	};
	struct pts_kl_stats st;

	fx.kl = pts_kl_new();
	CU_ASSERT_PTR_NOT_NULL_FATAL(fx.kl);
	/* write(): entered at 210, back at 260 with 4096; returns to main+0x12 */
	CU_ASSERT_EQUAL(pts_kl_add_enter(fx.kl, PID, TID, 210, 1, MAIN + 0x12), 0);
	CU_ASSERT_EQUAL(pts_kl_add_exit(fx.kl, PID, TID, 260, 1, 4096, MAIN + 0x12), 0);
	/* a write fault at main+0x20 (error code 6: W, U), after the timer's stop there */
	CU_ASSERT_EQUAL(pts_kl_add_fault(fx.kl, PID, TID, 405, 0x7f0000001000ULL, 6, MAIN + 0x20),
			0);
	/* openat() -> -ENOENT, returning to main+0x42 */
	CU_ASSERT_EQUAL(pts_kl_add_enter(fx.kl, PID, TID, 505, 257, MAIN + 0x42), 0);
	CU_ASSERT_EQUAL(pts_kl_add_exit(fx.kl, PID, TID, 540, 257, -2, MAIN + 0x42), 0);
	/* getpid() recorded at another IP than the syscall at main+0x60: not taken */
	CU_ASSERT_EQUAL(pts_kl_add_enter(fx.kl, PID, TID, 605, 39, 0x999), 0);
	CU_ASSERT_EQUAL(pts_kl_add_exit(fx.kl, PID, TID, 640, 39, 10, 0x999), 0);
	/* a read of a present page with a reserved bit set (P, U, RSVD: 0xd) at main+0x80 */
	CU_ASSERT_EQUAL(pts_kl_add_fault(fx.kl, PID, TID, 705, 0x7f0000002000ULL, 0xd,
					 MAIN + 0x80), 0);
	/* int 0x80 at main+0xa0: i386 getpid (20, x86-64's lseek): not taken */
	CU_ASSERT_EQUAL(pts_kl_add_enter(fx.kl, PID, TID, 905, 20, MAIN + 0xa2), 0);
	CU_ASSERT_EQUAL(pts_kl_add_exit(fx.kl, PID, TID, 940, 20, 10, MAIN + 0xa2), 0);
	start(PTS_SCOPE_BOTH);

	ev(PTS_BR_ENABLED, 0, 0, MAIN, 100, 0);
	ev(PTS_BR_SYSCALL, MAIN + 0x10, 2, ENTRY, 200, 0);
	ev(PTS_BR_CALL, ENTRY + 0x10, 5, DOSYS, 220, 0);
	ev(PTS_BR_RETURN, DOSYS + 0x20, 1, ENTRY + 0x15, 250, 0);
	ev(PTS_BR_SYSRET, ENTRY + 0x30, 3, MAIN + 0x12, 270, 0);
	ev(PTS_BR_INTERRUPT, MAIN + 0x20, 0, TIMER, 300, 0);
	ev(PTS_BR_IRET, TIMER + 0x10, 2, MAIN + 0x20, 320, 0);
	ev(PTS_BR_INTERRUPT, MAIN + 0x20, 0, PGF, 400, 0);
	ev(PTS_BR_CALL, PGF + 0x10, 5, EXCPGF, 410, 0);
	ev(PTS_BR_RETURN, EXCPGF + 0x20, 1, PGF + 0x15, 420, 0);
	ev(PTS_BR_IRET, PGF + 0x30, 2, MAIN + 0x20, 430, 0);
	ev(PTS_BR_SYSCALL, MAIN + 0x40, 2, ENTRY, 500, 0);
	ev(PTS_BR_SYSRET, ENTRY + 0x30, 3, MAIN + 0x42, 550, 0);
	ev(PTS_BR_SYSCALL, MAIN + 0x60, 2, ENTRY, 600, 0);
	ev(PTS_BR_SYSRET, ENTRY + 0x30, 3, MAIN + 0x62, 650, 0);
	ev(PTS_BR_INTERRUPT, MAIN + 0x80, 0, PGF, 700, 0);
	ev(PTS_BR_IRET, PGF + 0x30, 2, MAIN + 0x80, 720, 0);
	ev(PTS_BR_JUMP, MAIN + 0x84, 2, MAIN + 0x90, 800, 0);
	ev(PTS_BR_SYSCALL, MAIN + 0xa0, 2, INT80, 900, 0);
	ev(PTS_BR_IRET, INT80 + 0x30, 2, MAIN + 0xa2, 950, 0);
	finish(&st);

	check_all(want, sizeof(want) / sizeof(want[0]));
	CU_ASSERT_EQUAL(st.records, 6);
	CU_ASSERT_EQUAL(st.matched, 4);
	CU_ASSERT_EQUAL(st.unmatched, 2);
}

/*
 * Scope kernel: no user IP. A syscall entry from user mode (TIP.PGE at
 * entry_SYSCALL_64) takes the thread's next syscall record only when the
 * handler the trace shows the kernel calling is that syscall's
 * (__x64_sys_write: write; __x64_sys_newfstat: fstat); a fault entry has
 * no such check and takes nothing: its record is counted, not guessed.
 */
static void kernel_scope_syscall_entries_carry_the_record_of_their_handler(void)
{
	static const struct want want[] = {
		{ "entry_SYSCALL_64", "syscall=write nr=1 ret=4096" },
		{ "entry_SYSCALL_64", "syscall=fstat nr=5 ret=0" },
		{ "entry_SYSCALL_64", "" },
		{ "asm_exc_page_fault", "" },
	};
	struct pts_kl_stats st;

	fx.kl = pts_kl_new();
	CU_ASSERT_PTR_NOT_NULL_FATAL(fx.kl);
	CU_ASSERT_EQUAL(pts_kl_add_enter(fx.kl, PID, TID, 105, 1, MAIN + 0x12), 0);
	CU_ASSERT_EQUAL(pts_kl_add_exit(fx.kl, PID, TID, 145, 1, 4096, MAIN + 0x12), 0);
	CU_ASSERT_EQUAL(pts_kl_add_enter(fx.kl, PID, TID, 205, 5, MAIN + 0x32), 0);
	CU_ASSERT_EQUAL(pts_kl_add_exit(fx.kl, PID, TID, 240, 5, 0, MAIN + 0x32), 0);
	/* the third entry calls __x64_sys_write, but the record is getpid's */
	CU_ASSERT_EQUAL(pts_kl_add_enter(fx.kl, PID, TID, 305, 39, MAIN + 0x52), 0);
	CU_ASSERT_EQUAL(pts_kl_add_exit(fx.kl, PID, TID, 340, 39, 10, MAIN + 0x52), 0);
	CU_ASSERT_EQUAL(pts_kl_add_fault(fx.kl, PID, TID, 405, 0x7f0000001000ULL, 6, MAIN + 0x60),
			0);
	start(PTS_SCOPE_KERNEL);

	ev(PTS_BR_ENABLED, 0, 0, ENTRY, 100, 0);
	ev(PTS_BR_CALL, ENTRY + 0x10, 5, DOSYS, 110, 0);
	ev(PTS_BR_CALL, DOSYS + 0x10, 5, SYS_WRITE, 120, 0);
	ev(PTS_BR_RETURN, SYS_WRITE + 0x20, 1, DOSYS + 0x15, 130, 0);
	ev(PTS_BR_RETURN, DOSYS + 0x20, 1, ENTRY + 0x15, 140, 0);
	ev(PTS_BR_SYSRET, ENTRY + 0x30, 3, 0, 150, PTS_BRF_TRACE_OFF);

	ev(PTS_BR_ENABLED, 0, 0, ENTRY, 200, 0);
	ev(PTS_BR_CALL, ENTRY + 0x10, 5, DOSYS, 210, 0);
	ev(PTS_BR_CALL, DOSYS + 0x10, 5, SYS_FSTAT, 220, 0);
	ev(PTS_BR_RETURN, SYS_FSTAT + 0x20, 1, DOSYS + 0x15, 230, 0);
	ev(PTS_BR_RETURN, DOSYS + 0x20, 1, ENTRY + 0x15, 240, 0);
	ev(PTS_BR_SYSRET, ENTRY + 0x30, 3, 0, 250, PTS_BRF_TRACE_OFF);

	ev(PTS_BR_ENABLED, 0, 0, ENTRY, 300, 0);
	ev(PTS_BR_CALL, ENTRY + 0x10, 5, DOSYS, 310, 0);
	ev(PTS_BR_CALL, DOSYS + 0x10, 5, SYS_WRITE, 320, 0);
	ev(PTS_BR_RETURN, SYS_WRITE + 0x20, 1, DOSYS + 0x15, 330, 0);
	ev(PTS_BR_RETURN, DOSYS + 0x20, 1, ENTRY + 0x15, 340, 0);
	ev(PTS_BR_SYSRET, ENTRY + 0x30, 3, 0, 350, PTS_BRF_TRACE_OFF);

	ev(PTS_BR_ENABLED, 0, 0, PGF, 400, 0);
	ev(PTS_BR_CALL, PGF + 0x10, 5, EXCPGF, 410, 0);
	ev(PTS_BR_RETURN, EXCPGF + 0x20, 1, PGF + 0x15, 420, 0);
	ev(PTS_BR_IRET, PGF + 0x30, 2, 0, 430, PTS_BRF_TRACE_OFF);
	finish(&st);

	check_all(want, sizeof(want) / sizeof(want[0]));
	CU_ASSERT_EQUAL(st.records, 4);
	CU_ASSERT_EQUAL(st.matched, 2);
	CU_ASSERT_EQUAL(st.unmatched, 2);
}

static int cleanup(void)
{
	wt_cleanup();
	return 0;
}

PTS_SUITE(timeline_kargs, NULL, cleanup,
	  PTS_TEST(combined_scope_entry_slices_carry_the_records),
	  PTS_TEST(kernel_scope_syscall_entries_carry_the_record_of_their_handler))
