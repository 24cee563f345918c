// SPDX-License-Identifier: GPL-2.0
/*
 * Images and symbols: load bias of a PIE mapped the way the loader maps
 * it, ELF images at a load address, stripped binaries, kernel symbols
 * from kallsyms with module names, C++ and Rust demangling.
 *
 * The PIE is tests/golden/decode/user.S linked with
 * `ld -pie --section-start=.text=0x5000`: its executable PT_LOAD has file
 * offset 0x1000 and vaddr 0x5000 (p_vaddr - p_offset = 0x4000), while the
 * first, read-only PT_LOAD has offset 0 and vaddr 0 (difference 0). The
 * loader maps the executable segment at base + 0x5000 from file offset
 * 0x1000 (/proc/PID/maps: "base+5000-... r-xp 00001000 ... user.pie").
 * By hand, with base = 0x555555554000: _start (link 0x5000) is at
 * 0x555555559000 and f1 (link 0x5040) at 0x555555559040. Using the
 * read-only PT_LOAD for the bias would put every name 0x4000 off.
 */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"
#include "asm_elf.h"
#include "bundle_fixture.h"
#include "pt_gen.h"
#include "tl_sink.h"
#include "decode/image.h"
#include "decode/ptdec.h"
#include "session/session.h"
#include "decode/symtab.h"

#define BASE 0x555555554000ULL

static char *dir, *pie, *stripped, ksyms[300], linked[300];

static int suite_init(void)
{
	char cmd[8192], *full;
	FILE *f;

	dir = bt_tmpdir();
	if (!dir)
		return 1;
	snprintf(ksyms, sizeof(ksyms), "%s/kallsyms", dir);
	snprintf(linked, sizeof(linked), "%s/user.linked", dir);
	pie = asm_elf_build(dir, "user.pie", ASM_ELF_USER_S,
			    "-pie --section-start=.text=0x5000 -e _start");
	stripped = asm_elf_build(dir, "user.stripped", ASM_ELF_USER_S,
				 "-static -Ttext=0x401000 -e _start -s");
	full = asm_elf_build(dir, "user.full", ASM_ELF_USER_S, "-static -Ttext=0x401000 -e _start");
	if (!pie || !stripped || !full) {
		free(full);
		return 1;
	}
	free(full);
	/* a stripped binary whose names live in a separate file named by .gnu_debuglink */
	snprintf(cmd, sizeof(cmd),
		 "cd %s && objcopy --only-keep-debug user.full user.debug && "
		 "objcopy --strip-all --add-gnu-debuglink=user.debug user.full user.linked && "
		 "objcopy -O binary -j .text user.full user.bin", dir);
	if (system(cmd))
		return 1;
	f = fopen(ksyms, "w");
	if (!f)
		return 1;
	fputs("ffffffff81000000 T _text\n"
	      "ffffffff81000000 T entry_SYSCALL_64\n"
	      "ffffffff81000100 t do_syscall_64\n"
	      "ffffffff81000200 D some_data\n"
	      "ffffffffc0001000 t mod_fn\t[mymod]\n"
	      "ffffffffc0001080 t mod_other\t[mymod]\n", f);
	return fclose(f) ? 1 : 0;
}

static int suite_cleanup(void)
{
	bt_rmtree(dir);
	free(dir);
	free(pie);
	free(stripped);
	return 0;
}

static void pie_mapping_takes_the_bias_from_the_executable_pt_load(void)
{
	struct pts_imgset *set;
	struct pts_sym_info si;
	struct pts_err err = { 0 };
	uint8_t b[5];

	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	/* as /proc/PID/maps shows it: start base+0x5000, pgoff 0x1000, 0x1c6 bytes used */
	CU_ASSERT_EQUAL_FATAL(pts_imgset_add_file(set, 7, pie, 0x1000, 0x1c6, BASE + 0x5000,
						  "/opt/user.pie", NULL, &err), 0);
	pts_imgset_symbolize(set, 7, BASE + 0x5045, &si);
	CU_ASSERT_PTR_NOT_NULL_FATAL(si.name);
	CU_ASSERT_STRING_EQUAL(si.name, "f1");
	CU_ASSERT_EQUAL(si.start, BASE + 0x5040);
	CU_ASSERT_STRING_EQUAL(si.object, "user.pie");
	pts_imgset_symbolize(set, 7, BASE + 0x5000, &si);
	CU_ASSERT_PTR_NOT_NULL_FATAL(si.name);
	CU_ASSERT_STRING_EQUAL(si.name, "_start");
	/* the bytes at _start are its call f1 (e8) */
	CU_ASSERT_EQUAL(pts_imgset_read(set, 7, BASE + 0x5000, b, sizeof(b)), sizeof(b));
	CU_ASSERT_EQUAL(b[0], 0xe8);
	/* another process does not see pid 7's mapping */
	pts_imgset_symbolize(set, 8, BASE + 0x5045, &si);
	CU_ASSERT_PTR_NULL(si.name);
	pts_imgset_free(set);
}

/*
 * lld's layout (and GNU ld's with .text placed so): the executable
 * segment begins mid-page in the file, p_offset 0x960 at p_vaddr 0x5960,
 * in the page that holds the headers. /proc/PID/maps shows its r-x
 * mapping at base+0x5000 with pgoff 0, a file offset that the read-only
 * segment (p_vaddr == p_offset) holds too: the bias is the executable
 * segment's. Taken from the segment holding pgoff, none of the code
 * was named (clang -fuse-ld=lld, rustc).
 */
static void mapping_of_a_packed_executable_segment_takes_its_bias(void)
{
	struct pts_imgset *set;
	struct pts_sym_info si;
	struct pts_err err = { 0 };
	char *lld = asm_elf_build(dir, "user.packed", ASM_ELF_USER_S,
				  "-pie -z separate-code --section-start=.text=0x5960 -e _start");

	CU_ASSERT_PTR_NOT_NULL_FATAL(lld);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_add_file(set, 7, lld, 0, 0xb62, BASE + 0x5000,
						  "/opt/user.packed", NULL, &err), 0);
	pts_imgset_symbolize(set, 7, BASE + 0x59a5, &si);
	CU_ASSERT_PTR_NOT_NULL_FATAL(si.name);
	CU_ASSERT_STRING_EQUAL(si.name, "f1");
	CU_ASSERT_EQUAL(si.start, BASE + 0x59a0);
	pts_imgset_free(set);
	free(lld);
}

/*
 * The union image (pts_imgset_image(PTS_PID_ALL)) holds every process's
 * sections, and the block decoder keeps an image across a switch to a
 * pid without sections of its own; pts_imgset_read_any reads what that
 * image holds, pts_imgset_read only the pid's own space.
 */
static void read_any_finds_a_section_of_another_address_space(void)
{
	struct pts_imgset *set;
	struct pts_err err = { 0 };
	uint8_t b[5] = { 0 };

	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_add_file(set, 7, pie, 0x1000, 0x1c6, BASE + 0x5000,
						  "/opt/user.pie", NULL, &err), 0);
	CU_ASSERT_EQUAL(pts_imgset_read(set, 8, BASE + 0x5000, b, sizeof(b)), 0);
	CU_ASSERT_EQUAL(pts_imgset_read_any(set, BASE + 0x5000, b, sizeof(b)), sizeof(b));
	/* _start's call f1 (e8), as pid 7 reads it */
	CU_ASSERT_EQUAL(b[0], 0xe8);
	/* the read stops at the end of the mapping (0x1c6 bytes used) */
	CU_ASSERT_EQUAL(pts_imgset_read_any(set, BASE + 0x5000 + 0x1c6 - 2, b, sizeof(b)), 2);
	/* no section anywhere */
	CU_ASSERT_EQUAL(pts_imgset_read_any(set, BASE + 0x100000, b, sizeof(b)), 0);
	pts_imgset_free(set);
}

/* --elf FILE:BASE: the PIE's lowest PT_LOAD (vaddr 0) goes to BASE. */
static void pie_given_with_a_load_address_decodes_at_that_address(void)
{
	struct pts_decode_opts o;
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	struct pt_gen g;
	char trace[400], shape[1024];

	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_tip_pge, BASE + 0x5000);	/* _start */
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	snprintf(trace, sizeof(trace), "%s/pie.pt", dir);
	gen_save(&g, trace);
	gen_done(&g);
	pts_decode_opts_init(&o);
	o.pt[0].path = trace;
	o.nr_pt = 1;
	o.elf[0].path = pie;
	o.elf[0].base = BASE;
	o.nr_elf = 1;
	CU_ASSERT_EQUAL_FATAL(pts_decode_raw(&o, tl_sink_emit, &sink, &sum, &err), 0);
	CU_ASSERT_STRING_EQUAL(tl_sink_shape(&sink, shape, sizeof(shape)),
		"B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall]|E1 [syscall]|E0 _start");
	CU_ASSERT_EQUAL(sum.insns, 13);
	CU_ASSERT_EQUAL(sum.gaps, 0);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

static void stripped_binary_code_is_named_unknown_with_address_and_object(void)
{
	struct pts_decode_opts o;
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	struct pt_gen g;
	char trace[400], shape[1024];

	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_tip_pge, 0x401000);
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	snprintf(trace, sizeof(trace), "%s/stripped.pt", dir);
	gen_save(&g, trace);
	gen_done(&g);
	pts_decode_opts_init(&o);
	o.pt[0].path = trace;
	o.nr_pt = 1;
	o.elf[0].path = stripped;
	o.nr_elf = 1;
	CU_ASSERT_EQUAL_FATAL(pts_decode_raw(&o, tl_sink_emit, &sink, &sum, &err), 0);
	/*
	 * No names: all code of one object is one "[unknown]" frame named by
	 * where it was entered (calls into the same unknown object still nest).
	 */
	CU_ASSERT_STRING_EQUAL(tl_sink_shape(&sink, shape, sizeof(shape)),
		"B0 [unknown] 0x401000 (user.stripped)|B1 [unknown] 0x401040 (user.stripped)|"
		"B2 [unknown] 0x401060 (user.stripped)|E2 [unknown] 0x401060 (user.stripped)|"
		"E1 [unknown] 0x401040 (user.stripped)|B1 [syscall]|E1 [syscall]|"
		"E0 [unknown] 0x401000 (user.stripped)");
	CU_ASSERT_EQUAL(sum.insns, 13);
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

static void kallsyms_names_kernel_and_module_text(void)
{
	struct pts_imgset *set;
	struct pts_sym_info si;
	struct pts_err err = { 0 };

	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_add_kallsyms(set, ksyms, NULL, &err), 0);
	pts_imgset_symbolize(set, 1, 0xffffffff81000105ULL, &si);
	CU_ASSERT_PTR_NOT_NULL_FATAL(si.name);
	CU_ASSERT_STRING_EQUAL(si.name, "do_syscall_64");
	CU_ASSERT_EQUAL(si.start, 0xffffffff81000100ULL);
	pts_imgset_symbolize(set, 1, 0xffffffffc0001010ULL, &si);
	CU_ASSERT_PTR_NOT_NULL_FATAL(si.name);
	CU_ASSERT_STRING_EQUAL(si.name, "mod_fn [mymod]");
	/* data symbols (D) are not functions */
	pts_imgset_symbolize(set, 1, 0xffffffff81000201ULL, &si);
	CU_ASSERT_PTR_NOT_NULL_FATAL(si.name);
	CU_ASSERT_STRING_EQUAL(si.name, "do_syscall_64");
	pts_imgset_free(set);
}

/*
 * A kallsyms listing read under kptr_restrict=2 (every address 0) would
 * be one symbol for the whole kernel: refused (-EACCES, nothing kept), so
 * kernel code stays [unknown] rather than all named by the last symbol.
 * A listing given later replaces an earlier one (--kallsyms over a
 * bundle's).
 */
static void zeroed_kallsyms_is_refused_and_a_later_listing_replaces(void)
{
	struct pts_imgset *set;
	struct pts_sym_info si;
	struct pts_err err = { 0 };
	char zero[400];
	FILE *f;

	snprintf(zero, sizeof(zero), "%s/kallsyms.zero", dir);
	f = fopen(zero, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("0000000000000000 T _text\n0000000000000000 t do_syscall_64\n"
	      "0000000000000000 T zz_last\n", f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	CU_ASSERT_EQUAL(pts_imgset_add_kallsyms(set, zero, NULL, &err), -EACCES);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "every address is 0"));
	pts_imgset_symbolize(set, 1, 0xffffffff81000105ULL, &si);
	CU_ASSERT_PTR_NULL(si.name);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_add_kallsyms(set, ksyms, NULL, &err), 0);
	pts_imgset_symbolize(set, 1, 0xffffffff81000105ULL, &si);
	CU_ASSERT_PTR_NOT_NULL_FATAL(si.name);
	CU_ASSERT_STRING_EQUAL(si.name, "do_syscall_64");
	pts_imgset_free(set);
}

/*
 * --vmlinux: an ELF moved by a slide (KASLR: runtime _stext - link
 * _stext). user.full linked at 0x401000, moved by 0x10000: f1 (link
 * 0x401040) is at 0x411040, with its bytes and its name.
 */
static void elf_moved_by_a_slide_has_its_code_and_names_there(void)
{
	struct pts_imgset *set;
	struct pts_sym_info si;
	struct pts_err err = { 0 };
	uint8_t a[8], b[8];
	char full[300];

	snprintf(full, sizeof(full), "%s/user.full", dir);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_add_elf_moved(set, PTS_PID_ALL, full, 0x10000, &err), 0);
	CU_ASSERT_EQUAL(pts_imgset_read(set, 1, 0x401040, a, sizeof(a)), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_read(set, 1, 0x411040, a, sizeof(a)), sizeof(a));
	pts_imgset_free(set);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_add_elf(set, PTS_PID_ALL, full, 0, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_read(set, 1, 0x401040, b, sizeof(b)), sizeof(b));
	CU_ASSERT_EQUAL(memcmp(a, b, sizeof(a)), 0);
	pts_imgset_free(set);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_add_elf_moved(set, PTS_PID_ALL, full, 0x10000, &err), 0);
	pts_imgset_symbolize(set, 1, 0x411041, &si);
	CU_ASSERT_PTR_NOT_NULL_FATAL(si.name);
	CU_ASSERT_STRING_EQUAL(si.name, "f1");
	CU_ASSERT_EQUAL(si.start, 0x411040);
	pts_imgset_free(set);
}

static void cxx_and_rust_names_are_demangled(void)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "_ZN3foo3barEi", "foo::bar(int)" },
		{ "_ZNSt6vectorIiSaIiEE9push_backERKi",
		  "std::vector<int, std::allocator<int> >::push_back(int const&)" },
		{ "_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write" },
		{ "_RNvCs1234_7mycrate3foo", "mycrate::foo" },
		{ "main", "main" },
		{ "_Znot_mangled", "_Znot_mangled" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *d = pts_demangle(cases[i].in);

		CU_ASSERT_PTR_NOT_NULL_FATAL(d);
		CU_ASSERT_STRING_EQUAL(d, cases[i].out);
		free(d);
	}
}

static void stripped_binary_takes_names_from_its_debuglink_file(void)
{
	struct pts_imgset *set;
	struct pts_sym_info si;
	struct pts_err err = { 0 };

	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_add_elf(set, PTS_PID_ALL, linked, 0, &err), 0);
	pts_imgset_symbolize(set, 1, 0x401062, &si);
	CU_ASSERT_PTR_NOT_NULL_FATAL(si.name);
	CU_ASSERT_STRING_EQUAL(si.name, "f2");
	CU_ASSERT_EQUAL(si.start, 0x401060);
	/* the object shown is the binary that was mapped, not the debug file */
	CU_ASSERT_STRING_EQUAL(si.object, "user.linked");
	pts_imgset_free(set);
}

/*
 * The symbol table of an executable linked from the assembly text with
 * ld's options ld (asm_elf_build_text, named name in the suite's
 * directory) into *st; the test stops if it cannot be built or loaded.
 */
static void symtab_of_text(const char *name, const char *text, const char *ld,
			   struct pts_symtab *st)
{
	struct pts_err err = { 0 };
	char *elf = asm_elf_build_text(dir, name, text, ld);
	int rc;

	CU_ASSERT_PTR_NOT_NULL_FATAL(elf);
	rc = pts_symtab_load_elf(st, elf, &err);
	free(elf);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
}

/* The symbol of st at addr; the test stops if there is none. */
static const struct pts_sym *sym_at(const struct pts_symtab *st, uint64_t addr)
{
	const struct pts_sym *s = pts_symtab_find(st, addr);

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	return s;
}

/*
 * A stripped executable's _fini (its .fini section, DT_FINI) is entered
 * by ld.so's tail jump at exit, with the executable's outermost frame
 * open: named, that jump is a tail call to its first byte, where
 * unnamed it unwound to that frame (gzip, sort, mawk of Debian). The
 * rest of the code stays unknown.
 */
static void stripped_binary_names_its_init_and_fini_sections(void)
{
	static const char text[] =
		"\t.section .init,\"ax\"\n\t.globl _init\n_init:\n\tsub $8, %rsp\n\tadd $8, %rsp\n\tret\n"
		"\t.section .fini,\"ax\"\n\t.globl _fini\n_fini:\n\tsub $8, %rsp\n\tadd $8, %rsp\n\tret\n"
		"\t.text\n\t.globl _start\n_start:\n\tcall _init\n\tnop\n\tret\n";
	struct pts_symtab st = { 0 };

	symtab_of_text("initfini", text,
		       "-static -s -e _start --section-start=.init=0x400100 "
		       "--section-start=.fini=0x400200 -Ttext=0x401000", &st);
	CU_ASSERT_STRING_EQUAL(sym_at(&st, 0x400200)->name, "_fini");
	CU_ASSERT_EQUAL(sym_at(&st, 0x400200)->start, 0x400200);
	CU_ASSERT_STRING_EQUAL(sym_at(&st, 0x400104)->name, "_init");
	CU_ASSERT_PTR_NULL(pts_symtab_find(&st, 0x401000));
	pts_symtab_free(&st);
}

/*
 * A stripped executable's other functions: the FDEs of its .eh_frame
 * (as GNU as writes them from .cfi_* directives) give each one's start
 * and size, unnamed; one whose first rule defines the CFA (entered with
 * a frame set up: f's cold part) is a part. Code without an FDE (g)
 * stays unknown. Laid out by hand: _start 0x401000 (11 bytes), f
 * 0x401010 (3), its part 0x401020 (2), g 0x401030.
 */
static void stripped_binary_bounds_its_functions_by_their_fdes(void)
{
	static const char text[] =
		"\t.text\n\t.globl _start\n_start:\n\t.cfi_startproc\n\t.cfi_undefined rip\n"
		"\tcall f\n\tcall g\n\tret\n\t.cfi_endproc\n"
		"\t.p2align 4\nf:\n\t.cfi_startproc\n\tpush %rbx\n\t.cfi_def_cfa_offset 16\n"
		"\t.cfi_offset %rbx, -16\n\tjmp f_part\n\t.cfi_endproc\n"
		"\t.p2align 4\nf_part:\n\t.cfi_startproc\n\t.cfi_def_cfa_offset 16\n"
		"\t.cfi_offset %rbx, -16\n\tpop %rbx\n\t.cfi_def_cfa_offset 8\n\tret\n"
		"\t.cfi_endproc\n"
		"\t.p2align 4\ng:\n\tret\n";
	struct pts_symtab st = { 0 };
	const struct pts_sym *s;

	symtab_of_text("fdes", text, "-static -s -e _start -Ttext=0x401000", &st);
	s = sym_at(&st, 0x40100a);
	CU_ASSERT(s->unnamed && !s->part);
	CU_ASSERT_EQUAL(s->start, 0x401000);
	CU_ASSERT_EQUAL(s->size, 11);
	s = sym_at(&st, 0x401011);
	CU_ASSERT(s->unnamed && !s->part);
	CU_ASSERT_EQUAL(s->start, 0x401010);
	CU_ASSERT_EQUAL(s->size, 3);
	s = sym_at(&st, 0x401020);
	CU_ASSERT(s->unnamed && s->part);
	CU_ASSERT_EQUAL(s->size, 2);
	CU_ASSERT_PTR_NULL(pts_symtab_find(&st, 0x401013));
	CU_ASSERT_PTR_NULL(pts_symtab_find(&st, 0x401030));
	pts_symtab_free(&st);
}

/*
 * The same code with its symbol table: names, and no FDE's bounds
 * besides them.
 */
static void unstripped_binary_takes_no_bounds_from_its_fdes(void)
{
	static const char text[] =
		"\t.text\n\t.globl _start\n_start:\n\t.cfi_startproc\n\tcall f\n\tret\n"
		"\t.cfi_endproc\n\t.p2align 4\n\t.type f, @function\nf:\n\t.cfi_startproc\n"
		"\tret\n\t.cfi_endproc\n\t.size f, 1\n\t.p2align 4\nhidden:\n\t.cfi_startproc\n"
		"\tret\n\t.cfi_endproc\n";
	struct pts_symtab st = { 0 };
	size_t i;

	symtab_of_text("fdes_full", text, "-static -e _start -Ttext=0x401000", &st);
	for (i = 0; i < st.n; i++)
		CU_ASSERT_FALSE(st.syms[i].unnamed);
	CU_ASSERT_PTR_NOT_NULL(pts_symtab_find(&st, 0x401010));
	pts_symtab_free(&st);
}

/* PSB+ carrying the current CR3 (PIP), then MODE.exec 64-bit */
static void gen_psb_plus_cr3(struct pt_gen *g, uint64_t tsc, uint64_t cr3)
{
	gen_simple(g, ppt_psb);
	gen_tsc(g, tsc);
	gen_pip(g, cr3);
	gen_cbr(g, 37);
	gen_simple(g, ppt_psbend);
	gen_mode_exec64(g);
}

/* Slices of one thread, rendered like tl_sink_shape. */
/*
 * Kernel traced (PIP packets), two processes with different binaries at
 * the same address 0x401000: pid 100 (CR3 0x1000) runs the binary with
 * symbols, pid 200 (CR3 0x2000) the stripped one. With no sideband, the
 * PIP in each PSB+ must pick both the code (libipt's CR3-keyed sections)
 * and the process. By hand: pid 100 shows _start > f1 > f2; pid 200 the
 * same flow as [unknown] frames of user.stripped.
 */
static void pip_selects_the_address_space_and_the_process(void)
{
	struct pts_imgset *set;
	struct pts_ptdec *dec;
	struct pts_ptdec_config dc;
	struct pts_tl_config tc;
	struct pts_tl *tl;
	const struct pts_branch *br;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	struct pt_gen g;
	char full[300], shape[1024], why[256];

	snprintf(full, sizeof(full), "%s/user.full", dir);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_add_elf(set, 100, full, 0, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_add_elf(set, 200, stripped, 0, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_set_cr3(set, 100, 0x1000), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_set_cr3(set, 200, 0x2000), 0);
	gen_init(&g);
	gen_psb_plus_cr3(&g, 0x1000, 0x1000);
	gen_ip(&g, ppt_tip_pge, 0x401000);
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	gen_psb_plus_cr3(&g, 0x1100, 0x2000);
	gen_ip(&g, ppt_tip_pge, 0x401000);
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	memset(&dc, 0, sizeof(dc));
	dc.buf = g.buf;
	dc.size = gen_len(&g);
	dc.images = set;
	dc.pid = -1;
	dc.tid = -1;
	CU_ASSERT_EQUAL_FATAL(pts_ptdec_new(&dc, &dec, &err), 0);
	memset(&tc, 0, sizeof(tc));
	tc.scope = PTS_SCOPE_BOTH;
	tc.symbolize = pts_imgset_symbolize;
	tc.sym_ctx = set;
	tc.emit = tl_sink_emit;
	tc.emit_ctx = &sink;
	CU_ASSERT_EQUAL_FATAL(pts_tl_new(&tc, &tl, &err), 0);
	while (pts_ptdec_next(dec, &br) == 1)
		CU_ASSERT_EQUAL(pts_tl_feed(tl, br, &err), 0);
	CU_ASSERT_EQUAL(pts_tl_finish(tl, &err), 0);
	if (!tl_sink_well_formed(&sink, why, sizeof(why)))
		CU_FAIL(why);
	CU_ASSERT_STRING_EQUAL(tl_sink_thread_shape(&sink, 100, shape, sizeof(shape)),
		"B0 _start|B1 f1|B2 f2|E2 f2|E1 f1|B1 [syscall]|E1 [syscall]|E0 _start");
	CU_ASSERT_STRING_EQUAL(tl_sink_thread_shape(&sink, 200, shape, sizeof(shape)),
		"B0 [unknown] 0x401000 (user.stripped)|B1 [unknown] 0x401040 (user.stripped)|"
		"B2 [unknown] 0x401060 (user.stripped)|E2 [unknown] 0x401060 (user.stripped)|"
		"E1 [unknown] 0x401040 (user.stripped)|B1 [syscall]|E1 [syscall]|"
		"E0 [unknown] 0x401000 (user.stripped)");
	pts_tl_free(tl);
	pts_ptdec_free(dec);
	gen_done(&g);
	pts_imgset_free(set);
	tl_sink_free(&sink);
}

/* --raw FILE:OFFSET:VADDR: the .text bytes alone (objcopy -O binary) at 0x401000. */
static void raw_code_bytes_decode_like_the_elf(void)
{
	struct pts_decode_opts o;
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	struct tl_sink sink = { 0 };
	struct pt_gen g;
	char trace[400], bin[400], shape[1024];

	gen_init(&g);
	gen_psb_plus(&g, 0x1000);
	gen_ip(&g, ppt_tip_pge, 0x401000);
	gen_tnt(&g, "TTNTT");
	gen_ip_suppressed(&g, ppt_tip_pgd);
	snprintf(trace, sizeof(trace), "%s/raw.pt", dir);
	snprintf(bin, sizeof(bin), "%s/user.bin", dir);
	gen_save(&g, trace);
	gen_done(&g);
	pts_decode_opts_init(&o);
	o.pt[0].path = trace;
	o.nr_pt = 1;
	o.raw[0].path = bin;
	o.raw[0].offset = 0;
	o.raw[0].vaddr = 0x401000;
	o.nr_raw = 1;
	CU_ASSERT_EQUAL_FATAL(pts_decode_raw(&o, tl_sink_emit, &sink, &sum, &err), 0);
	/* 13 instructions as with the ELF; no names: [unknown] frames of user.bin */
	CU_ASSERT_EQUAL(sum.insns, 13);
	CU_ASSERT_EQUAL(sum.gaps, 0);
	CU_ASSERT_STRING_EQUAL(tl_sink_shape(&sink, shape, sizeof(shape)),
		"B0 [unknown] 0x401000 (user.bin)|B1 [unknown] 0x401040 (user.bin)|"
		"B2 [unknown] 0x401060 (user.bin)|E2 [unknown] 0x401060 (user.bin)|"
		"E1 [unknown] 0x401040 (user.bin)|B1 [syscall]|E1 [syscall]|"
		"E0 [unknown] 0x401000 (user.bin)");
	pts_decode_summary_free(&sum);
	tl_sink_free(&sink);
}

PTS_SUITE(decode_symbols, suite_init, suite_cleanup,
	  PTS_TEST(pie_mapping_takes_the_bias_from_the_executable_pt_load),
	  PTS_TEST(read_any_finds_a_section_of_another_address_space),
	  PTS_TEST(pie_given_with_a_load_address_decodes_at_that_address),
	  PTS_TEST(stripped_binary_code_is_named_unknown_with_address_and_object),
	  PTS_TEST(kallsyms_names_kernel_and_module_text),
	  PTS_TEST(cxx_and_rust_names_are_demangled),
	  PTS_TEST(stripped_binary_takes_names_from_its_debuglink_file),
	  PTS_TEST(stripped_binary_names_its_init_and_fini_sections),
	  PTS_TEST(stripped_binary_bounds_its_functions_by_their_fdes),
	  PTS_TEST(unstripped_binary_takes_no_bounds_from_its_fdes),
	  PTS_TEST(mapping_of_a_packed_executable_segment_takes_its_bias),
	  PTS_TEST(pip_selects_the_address_space_and_the_process),
	  PTS_TEST(raw_code_bytes_decode_like_the_elf),
	  PTS_TEST(zeroed_kallsyms_is_refused_and_a_later_listing_replaces),
	  PTS_TEST(elf_moved_by_a_slide_has_its_code_and_names_there));
