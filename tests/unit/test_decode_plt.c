// SPDX-License-Identifier: GPL-2.0
/*
 * PLT entries named as objdump names them ("signal@plt"), and symbol
 * versions stripped from names.
 *
 * Oracle: binutils, independent of this code. The test compiles a small C
 * program with gcc in the layouts ld writes (lazy and -z now, with and
 * without IBT: -fcf-protection -z ibtplt gives .plt.sec, non-PIE), runs
 * `objdump -d` on its PLT sections and reads the labels objdump derives
 * from the relocations ("0000000000001030 <puts@plt>:"). Every such label
 * must be our symbol at that address, and we must name no PLT entry that
 * objdump does not. The lazy-binding header, which objdump shows as
 * "<.plt>" or "<puts@plt-0x10>" (nearest symbol), must be ".plt", not
 * "_init+0x20".
 *
 * IRELATIVE entries (libc's internal PLT, a static executable's) have no
 * symbol; objdump labels them "*ABS*+0x9f550@plt" or not at all. Their
 * resolver address comes from objdump's label or from `readelf -r` (the
 * addend of the slot objdump's jmp comment names), and the expected names
 * are the IFUNC symbols `nm` lists at that address (any alias).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "decode/image.h"
#include "decode/symtab.h"
#include "timeline/timeline.h"

static char dir[256];

#define PROGRAM \
	"#include <signal.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n" \
	"static void h(int s) { (void)s; }\n" \
	"int (*fp)(const char *) = puts;\n" \
	"int main(int argc, char **argv) { signal(SIGUSR1, h); puts(\"x\"); fp(\"y\");\n" \
	"  printf(\"%zu\\n\", strlen(argv[0])); return abs(argc) - 1; }\n"

static int sh(const char *fmt, const char *a)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), fmt, a, a, a, a);
	return system(cmd);
}

static char *path_of(const char *name)
{
	static char p[512];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

static int write_file(const char *name, const char *text)
{
	FILE *f = fopen(path_of(name), "w");

	return !f || fputs(text, f) < 0 || fclose(f) ? -1 : 0;
}

static int suite_init(void)
{
	snprintf(dir, sizeof(dir), "/tmp/pts-decode-plt.XXXXXX");
	if (!mkdtemp(dir) || write_file("p.c", PROGRAM))
		return 1;
	/* versioned definitions: .symtab holds "foo@VERS_1" and "foo@@VERS_2" */
	if (write_file("v.s", ".text\n.globl foo_v1\n.type foo_v1,@function\nfoo_v1: ret\n"
		       ".size foo_v1,1\n.globl foo_v2\n.type foo_v2,@function\nfoo_v2: ret\n"
		       ".size foo_v2,1\n.symver foo_v1,foo@VERS_1\n.symver foo_v2,foo@@VERS_2\n") ||
	    write_file("v.map", "VERS_1 { global: foo; local: *; };\n"
		       "VERS_2 { global: foo; } VERS_1;\n"))
		return 1;
	return sh("cd %s && gcc -O1 -o lazy p.c && gcc -O1 -Wl,-z,now -o now p.c && "
		  "gcc -O1 -fcf-protection -Wl,-z,ibtplt -o ibt p.c && "
		  "gcc -O1 -fcf-protection -Wl,-z,ibtplt -Wl,-z,now -o ibtnow p.c && "
		  "gcc -O1 -fno-pie -no-pie -o nopie p.c && "
		  "gcc -shared -nostdlib -Wl,--version-script=v.map -o libv.so v.s && "
		  "objcopy --only-keep-debug lazy lazy.debug && "
		  "objcopy --strip-all --add-gnu-debuglink=lazy.debug lazy lazy.linked", dir) ? 1 : 0;
}

static int suite_cleanup(void)
{
	return sh("rm -rf '%s'", dir) == 0 ? 0 : 1;
}

static bool ends_with_plt(const char *s)
{
	size_t n = strlen(s);

	return n > 4 && !strcmp(s + n - 4, "@plt");
}

/* The names nm lists for IFUNC symbols at addr in file, space-separated, in out. */
static void ifunc_names(const char *file, uint64_t addr, char *out, size_t len)
{
	char cmd[1024], line[512];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "nm %s '%s' 2>/dev/null; nm -D '%s' 2>/dev/null",
		 strstr(strrchr(file, '/') ? strrchr(file, '/') : file, ".so") ? "-D" : "",
		 file, file);
	out[0] = ' ';
	out[1] = '\0';
	p = popen(cmd, "r");
	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		unsigned long long a;
		char t, name[400];

		if (sscanf(line, "%llx %c %399s", &a, &t, name) == 3 && t == 'i' && a == addr &&
		    strlen(out) + strlen(name) + 2 < len) {
			name[strcspn(name, "@")] = '\0';
			strcat(strcat(out, name), " ");
		}
	}
	pclose(p);
}

/* Our name at addr is one of the IFUNC names at resolver, with "@plt". */
static void expect_ifunc_entry(const struct pts_symtab *st, const char *file, uint64_t addr,
			       uint64_t resolver)
{
	const struct pts_sym *s = pts_symtab_find(st, addr);
	char names[4096], want[420];

	ifunc_names(file, resolver, names, sizeof(names));
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(s->start, addr);
	CU_ASSERT_TRUE_FATAL(ends_with_plt(s->name));
	snprintf(want, sizeof(want), " %.*s ", (int)strlen(s->name) - 4, s->name);
	if (!strstr(names, want))
		fprintf(stderr, "\n    %s: %#llx is %s, IFUNCs at %#llx:%s\n", file,
			(unsigned long long)addr, s->name, (unsigned long long)resolver, names);
	CU_ASSERT_PTR_NOT_NULL(strstr(names, want));
}

/*
 * Every PLT label objdump prints for file is our symbol there; returns the
 * number of "NAME@plt" labels. Labels relative to a symbol ("x@plt-0x10")
 * and "<.plt>" mark code that is no entry: we name it ".plt".
 */
static size_t compare_with_objdump(const struct pts_symtab *st, const char *file)
{
	char cmd[1024], line[1024];
	size_t entries = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "objdump -d -j .plt -j .plt.sec -j .plt.got '%s' 2>/dev/null", file);
	p = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	while (fgets(line, sizeof(line), p)) {
		unsigned long long addr, resolver;
		const struct pts_sym *s;
		char label[800];

		if (sscanf(line, "%llx <%799[^>]>:", &addr, label) != 2)
			continue;
		s = pts_symtab_find(st, addr);
		CU_ASSERT_PTR_NOT_NULL(s);
		if (!s)
			continue;
		if (!ends_with_plt(label)) {
			CU_ASSERT_STRING_EQUAL(s->name, ".plt");
			continue;
		}
		entries++;
		if (sscanf(label, "*ABS*+0x%llx@plt", &resolver) == 1) {
			expect_ifunc_entry(st, file, addr, resolver);
			continue;
		}
		CU_ASSERT_EQUAL(s->start, addr);
		if (strcmp(s->name, label))
			fprintf(stderr, "\n    %s: %#llx is %s, objdump: %s\n", file, addr, s->name,
				label);
		CU_ASSERT_STRING_EQUAL(s->name, label);
	}
	CU_ASSERT_EQUAL(pclose(p), 0);
	return entries;
}

static size_t our_plt_entries(const struct pts_symtab *st)
{
	size_t i, n = 0;

	for (i = 0; i < st->n; i++)
		n += ends_with_plt(st->syms[i].name);
	return n;
}

static void expect_as_objdump(const char *name, size_t want_entries)
{
	struct pts_symtab st = { 0 };
	struct pts_err err = { 0 };
	const char *file = path_of(name);

	CU_ASSERT_EQUAL_FATAL(pts_symtab_load_elf(&st, file, &err), 0);
	/* puts, strlen, printf, signal; PIE: __cxa_finalize in .plt.got */
	CU_ASSERT_EQUAL(compare_with_objdump(&st, file), want_entries);
	CU_ASSERT_EQUAL(our_plt_entries(&st), want_entries);
	pts_symtab_free(&st);
}

static void lazy_plt_entries_are_named_as_objdump_names_them(void)
{
	expect_as_objdump("lazy", 5);
}

static void bind_now_plt_entries_are_named_as_objdump_names_them(void)
{
	expect_as_objdump("now", 5);
}

static void ibt_plt_sec_entries_are_named_as_objdump_names_them(void)
{
	expect_as_objdump("ibt", 5);
	expect_as_objdump("ibtnow", 5);
}

static void non_pie_plt_entries_are_named_as_objdump_names_them(void)
{
	expect_as_objdump("nopie", 4);
}

/* Address of objdump's label "<label>:" in file (its PLT sections), 0 if none. */
static uint64_t objdump_label(const char *file, const char *label)
{
	char cmd[1024], line[1024], want[300];
	unsigned long long addr = 0, a;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "objdump -d -j .plt -j .plt.sec -j .plt.got '%s'", file);
	snprintf(want, sizeof(want), " <%s>:", label);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p))
		if (strstr(line, want) && sscanf(line, "%llx", &a) == 1)
			addr = a;
	pclose(p);
	return addr;
}

/*
 * The image of binary loaded at base names the entry objdump labels
 * label in plt_file (the same code) as label, from its first byte on.
 */
static void expect_image_names(const char *binary, const char *plt_file, const char *label,
			       uint64_t base)
{
	uint64_t entry = objdump_label(path_of(plt_file), label);
	struct pts_imgset *set;
	struct pts_sym_info si;
	struct pts_err err = { 0 };

	CU_ASSERT_NOT_EQUAL_FATAL(entry, 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_add_elf(set, 7, path_of(binary), base, &err), 0);
	pts_imgset_symbolize(set, 7, base + entry + 4, &si);
	CU_ASSERT_PTR_NOT_NULL_FATAL(si.name);
	CU_ASSERT_STRING_EQUAL(si.name, label);
	CU_ASSERT_EQUAL(si.start, base + entry);
	pts_imgset_free(set);
}

/* The call the issue saw: signal() through .plt.sec, as the decoder names it. */
static void call_through_the_plt_is_named_signal_at_plt_in_the_image(void)
{
	/* loaded at 0x555555554000 (the PIE's first PT_LOAD at file offset 0) */
	expect_image_names("ibt", "ibt", "signal@plt", 0x555555554000ULL);
}

/*
 * Names from a separate debug file (a stripped binary with a
 * .gnu_debuglink): the debug file's .plt holds no bytes, so the entries
 * are read from the binary itself, as objdump reads them from lazy.
 */
static void stripped_binary_with_debug_file_keeps_its_plt_names(void)
{
	expect_image_names("lazy.linked", "lazy", "puts@plt", 0x10000000ULL);
}

/* libc's own PLT: JUMP_SLOT entries (realloc@plt) and IRELATIVE ones (IFUNCs). */
static void libc_internal_plt_entries_are_named(void)
{
	static const char *const libcs[] = { "/lib/x86_64-linux-gnu/libc.so.6",
					     "/usr/lib/x86_64-linux-gnu/libc.so.6", "/lib64/libc.so.6" };
	struct pts_symtab st = { 0 };
	struct pts_err err = { 0 };
	const char *libc = NULL;
	size_t i, n;

	for (i = 0; i < sizeof(libcs) / sizeof(libcs[0]) && !libc; i++)
		if (!access(libcs[i], R_OK))
			libc = libcs[i];
	if (!libc) {
		printf("\n    SKIP: no x86-64 libc.so.6 on this machine\n");
		return;
	}
	CU_ASSERT_EQUAL_FATAL(pts_symtab_load_elf(&st, libc, &err), 0);
	n = compare_with_objdump(&st, libc);
	CU_ASSERT_EQUAL(our_plt_entries(&st), n);
	/* Debian 12's libc has 54 entries; any libc has some */
	CU_ASSERT(n > 10);
	pts_symtab_free(&st);
}

/* addend of the R_X86_64_IRELATIVE relocation of slot got (readelf -r), 0 if none */
static uint64_t irelative_addend(const char *file, uint64_t got)
{
	char cmd[600], line[512];
	uint64_t addend = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "readelf -rW '%s'", file);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p)) {
		unsigned long long off, info, a;

		if (sscanf(line, "%llx %llx R_X86_64_IRELATIVE %llx", &off, &info, &a) == 3 &&
		    off == got)
			addend = a;
	}
	pclose(p);
	return addend;
}

/*
 * A static executable's .plt (8-byte IRELATIVE entries, no sh_entsize):
 * objdump labels none; each entry's jmp comment gives its slot, readelf -r
 * the slot's resolver, nm the IFUNC there.
 */
static void static_executable_plt_entries_are_named_after_their_ifunc(void)
{
	struct pts_symtab st = { 0 };
	struct pts_err err = { 0 };
	char cmd[600], line[1024];
	size_t n = 0;
	FILE *p;

	if (sh("cd %s && gcc -O1 -static -o static p.c 2>/dev/null", dir)) {
		printf("\n    SKIP: no static libc (libc6-dev's libc.a) to link with\n");
		return;
	}
	CU_ASSERT_EQUAL_FATAL(pts_symtab_load_elf(&st, path_of("static"), &err), 0);
	snprintf(cmd, sizeof(cmd), "objdump -d -j .plt '%s'", path_of("static"));
	p = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	while (fgets(line, sizeof(line), p)) {
		unsigned long long addr, got;
		char *hash = strstr(line, "# ");

		if (!strstr(line, "jmp    *") || !hash || sscanf(line, " %llx:", &addr) != 1 ||
		    sscanf(hash + 2, "%llx", &got) != 1)
			continue;
		expect_ifunc_entry(&st, path_of("static"), addr,
				   irelative_addend(path_of("static"), got));
		n++;
	}
	pclose(p);
	CU_ASSERT(n > 0);
	CU_ASSERT_EQUAL(our_plt_entries(&st), n);
	pts_symtab_free(&st);
}

/* nm: "1000 T foo@VERS_1", "1001 T foo@@VERS_2" (and the local foo_v1, foo_v2 aliases) */
static void symbol_versions_are_not_part_of_names(void)
{
	struct pts_symtab st = { 0 };
	struct pts_err err = { 0 };
	const struct pts_sym *s;

	CU_ASSERT_EQUAL_FATAL(pts_symtab_load_elf(&st, path_of("libv.so"), &err), 0);
	s = pts_symtab_find(&st, 0x1000);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(s->name, "foo");
	s = pts_symtab_find(&st, 0x1001);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(s->name, "foo");
	pts_symtab_free(&st);
}

PTS_SUITE(decode_plt, suite_init, suite_cleanup,
	  PTS_TEST(lazy_plt_entries_are_named_as_objdump_names_them),
	  PTS_TEST(bind_now_plt_entries_are_named_as_objdump_names_them),
	  PTS_TEST(ibt_plt_sec_entries_are_named_as_objdump_names_them),
	  PTS_TEST(non_pie_plt_entries_are_named_as_objdump_names_them),
	  PTS_TEST(call_through_the_plt_is_named_signal_at_plt_in_the_image),
	  PTS_TEST(stripped_binary_with_debug_file_keeps_its_plt_names),
	  PTS_TEST(libc_internal_plt_entries_are_named),
	  PTS_TEST(static_executable_plt_entries_are_named_after_their_ifunc),
	  PTS_TEST(symbol_versions_are_not_part_of_names));
