// SPDX-License-Identifier: GPL-2.0
/*
 * Where a uprobe trigger goes (capture/uprobe_sym.h), checked against
 * binutils on programs gcc builds here: the symbol's address from nm, the
 * file offset from readelf's program headers (the loadable segment that
 * holds the address: file offset = address - p_vaddr + p_offset), which
 * is not how the code computes it (from the symbol's section).
 */
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture/uprobe_sym.h"

static char dir[256];

#define PROGRAM \
	"int counter = 3;\n" \
	"__attribute__((noinline)) int probe_main(int x) { counter += x; return counter * 3 + x; }\n" \
	"static int impl(void) { return 7; }\n" \
	"static int (*resolve(void))(void) { return impl; }\n" \
	"int ifn(void) __attribute__((ifunc(\"resolve\")));\n" \
	"int main(int argc, char **argv) { (void)argv; return probe_main(argc) + ifn(); }\n"

static int sh(const char *fmt, const char *a)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), fmt, a, a, a, a, a);
	return system(cmd);
}

static char *path_of(const char *name)
{
	static char p[4][512];
	static int k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static int write_file(const char *name, const char *text)
{
	FILE *f = fopen(path_of(name), "w");

	return !f || fputs(text, f) < 0 || fclose(f) ? -1 : 0;
}

static int suite_init(void)
{
	snprintf(dir, sizeof(dir), "/tmp/pts-uprobe-sym.XXXXXX");
	if (!mkdtemp(dir) || write_file("p.c", PROGRAM))
		return 1;
	/* two versions of foo at two addresses: foo@VERS_1, foo@@VERS_2 (default) */
	if (write_file("v.s", ".text\n.globl foo_v1\n.type foo_v1,@function\nfoo_v1: nop\nret\n"
		       ".size foo_v1,2\n.globl foo_v2\n.type foo_v2,@function\nfoo_v2: nop\nnop\n"
		       "ret\n.size foo_v2,3\n.symver foo_v1,foo@VERS_1\n.symver foo_v2,foo@@VERS_2\n"
		       ".data\n.globl table\n.type table,@object\ntable: .quad 1\n.size table,8\n") ||
	    write_file("v.map", "VERS_1 { global: foo; table; local: *; };\n"
		       "VERS_2 { global: foo; } VERS_1;\n") ||
	    /* symbols without .size: +OFF is bounded by the section only */
	    write_file("n.s", ".text\n.globl _start\n_start: nop\nnop\nnop\nnop\n"
		       ".globl later\nlater: nop\nret\n"))
		return 1;
	return sh("cd %s && gcc -O1 -fpie -pie -o pie p.c && gcc -O1 -fno-pie -no-pie -o nopie p.c && "
		  "strip -o pie.stripped pie && "
		  "gcc -shared -nostdlib -Wl,--version-script=v.map -o libv.so v.s && "
		  "strip -o libv.stripped.so libv.so && gcc -nostdlib -static -o nosize n.s", dir) ? 1 : 0;
}

static int suite_cleanup(void)
{
	return sh("rm -rf '%s'", dir) == 0 ? 0 : 1;
}

/* nm's address of the symbol printed exactly as `name` (e.g. foo@@VERS_2); 0 none. */
static uint64_t nm_addr(const char *file, const char *name)
{
	char cmd[1024], line[512], nm[256], type;
	uint64_t addr = 0, a;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "nm '%s' 2>/dev/null", file);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, "%" SCNx64 " %c %255s", &a, &type, nm) == 3 && !strcmp(nm, name))
			addr = a;
	pclose(p);
	return addr;
}

/* File offset of address addr from readelf -lW's LOAD lines; ~0 none. */
static uint64_t readelf_offset(const char *file, uint64_t addr)
{
	char cmd[1024], line[512];
	uint64_t off = ~0ULL, o, va, pa, fsz, msz;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "readelf -lW '%s' 2>/dev/null", file);
	p = popen(cmd, "r");
	if (!p)
		return off;
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, " LOAD 0x%" SCNx64 " 0x%" SCNx64 " 0x%" SCNx64 " 0x%" SCNx64
			   " 0x%" SCNx64, &o, &va, &pa, &fsz, &msz) == 5 &&
		    addr >= va && addr < va + fsz)
			off = addr - va + o;
	pclose(p);
	return off;
}

static void expect(const char *file, const char *spec, const char *nm_name, uint64_t plus)
{
	struct pts_uprobe_target t;
	struct pts_err err = { 0 };
	uint64_t addr = nm_addr(file, nm_name);

	CU_ASSERT_FATAL(addr != 0);
	CU_ASSERT_EQUAL_FATAL(pts_uprobe_resolve(file, spec, &t, &err), 0);
	CU_ASSERT_EQUAL(t.vaddr, addr + plus);
	CU_ASSERT_EQUAL(t.file_offset, readelf_offset(file, addr + plus));
	CU_ASSERT_STRING_EQUAL(t.section, ".text");
}

static void pie_function_is_at_the_offset_readelf_gives_for_nm_address(void)
{
	expect(path_of("pie"), "probe_main", "probe_main", 0);
}

static void non_pie_function_is_at_the_offset_readelf_gives_for_nm_address(void)
{
	/* non-PIE: address 0x401xxx, file offset 0x1xxx: the two differ */
	expect(path_of("nopie"), "probe_main", "probe_main", 0);
	CU_ASSERT(nm_addr(path_of("nopie"), "probe_main") >= 0x400000);
}

static void plus_offset_moves_the_probe_inside_the_function(void)
{
	struct pts_uprobe_target t;
	struct pts_err err = { 0 };

	expect(path_of("pie"), "probe_main+4", "probe_main", 4);
	expect(path_of("pie"), "probe_main+0x2", "probe_main", 2);
	CU_ASSERT_EQUAL(pts_uprobe_resolve(path_of("pie"), "probe_main+100000", &t, &err),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "past the end"));
	CU_ASSERT_EQUAL(pts_uprobe_resolve(path_of("pie"), "probe_main+x", &t, &err), -EINVAL);
}

static void default_version_is_taken_when_none_is_given(void)
{
	struct pts_uprobe_target t;
	struct pts_err err = { 0 };

	expect(path_of("libv.so"), "foo", "foo@@VERS_2", 0);
	CU_ASSERT_EQUAL(pts_uprobe_resolve(path_of("libv.so"), "foo", &t, &err), 0);
	CU_ASSERT_STRING_EQUAL(t.version, "VERS_2");
}

static void a_named_version_is_that_version(void)
{
	struct pts_uprobe_target t;
	struct pts_err err = { 0 };

	expect(path_of("libv.so"), "foo@VERS_1", "foo@VERS_1", 0);
	expect(path_of("libv.so"), "foo@@VERS_2+1", "foo@@VERS_2", 1);
	CU_ASSERT_EQUAL(pts_uprobe_resolve(path_of("libv.so"), "foo@VERS_9", &t, &err), -ENOENT);
}

/* strip keeps .dynsym, .gnu.version and .gnu.version_d: versions come from there */
static void versions_of_a_stripped_library_come_from_gnu_version(void)
{
	const char *lib = path_of("libv.stripped.so");
	uint64_t v1 = nm_addr(path_of("libv.so"), "foo@VERS_1");
	uint64_t v2 = nm_addr(path_of("libv.so"), "foo@@VERS_2");
	struct pts_uprobe_target t;
	struct pts_err err = { 0 };

	CU_ASSERT_FATAL(v1 && v2 && v1 != v2);
	CU_ASSERT_EQUAL_FATAL(nm_addr(lib, "foo@VERS_1"), 0);	/* no .symtab left */
	CU_ASSERT_EQUAL_FATAL(pts_uprobe_resolve(lib, "foo@VERS_1", &t, &err), 0);
	CU_ASSERT_EQUAL(t.vaddr, v1);
	CU_ASSERT_EQUAL(t.file_offset, readelf_offset(lib, v1));
	CU_ASSERT_EQUAL_FATAL(pts_uprobe_resolve(lib, "foo", &t, &err), 0);
	CU_ASSERT_EQUAL(t.vaddr, v2);
	CU_ASSERT_STRING_EQUAL(t.version, "VERS_2");
}

/*
 * A symbol without a size: OFF may run to the end of its section, and an
 * OFF so large that symbol + OFF wraps round is outside the section, not
 * a probe placed before the symbol (later - 2 is inside _start).
 */
static void offset_of_a_sizeless_symbol_stays_inside_its_section(void)
{
	const char *file = path_of("nosize");
	struct pts_uprobe_target t;
	struct pts_err err = { 0 };

	expect(file, "later+1", "later", 1);
	CU_ASSERT_EQUAL(pts_uprobe_resolve(file, "later+2", &t, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "outside its section"));
	/* 2^64 - 2 */
	CU_ASSERT_EQUAL(pts_uprobe_resolve(file, "later+18446744073709551614", &t, &err),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "outside its section"));
}

static void variable_is_refused_as_not_executable(void)
{
	struct pts_uprobe_target t;
	struct pts_err err = { 0 };

	CU_ASSERT_EQUAL(pts_uprobe_resolve(path_of("pie"), "counter", &t, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not executable"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, ".data"));
	CU_ASSERT_EQUAL(pts_uprobe_resolve(path_of("libv.so"), "table", &t, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not executable"));
}

static void ifunc_is_refused_with_the_reason(void)
{
	struct pts_uprobe_target t;
	struct pts_err err = { 0 };

	CU_ASSERT_EQUAL(pts_uprobe_resolve(path_of("pie"), "ifn", &t, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "IFUNC"));
}

static void missing_symbol_is_enoent_and_says_where_it_looked(void)
{
	struct pts_uprobe_target t;
	struct pts_err err = { 0 };

	CU_ASSERT_EQUAL(pts_uprobe_resolve(path_of("pie"), "no_such_fn", &t, &err), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no symbol 'no_such_fn'"));
	/* a stripped executable keeps no .symtab, and main is not exported */
	CU_ASSERT_EQUAL(pts_uprobe_resolve(path_of("pie.stripped"), "probe_main", &t, &err),
			-ENOENT);
	CU_ASSERT_EQUAL(pts_uprobe_resolve("/nonexistent/prog", "main", &t, &err), -ENOENT);
	CU_ASSERT_EQUAL(pts_uprobe_resolve(path_of("p.c"), "main", &t, &err), -EINVAL);
}

/*
 * Make `out` a copy of `in` whose second .gnu.version_d entry's vd_next
 * (offset 16 of an Elf64_Verdef) leads back to the first entry once
 * added as a 32-bit offset would wrap round: 2^32 - (offset of the
 * second entry). 0, or -1 when the file has no two such entries.
 */
static int verdef_loop(const char *in, const char *out)
{
	char cmd[1200];
	uint32_t next1, next2;
	uint64_t off = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int fd, rc = -1;
	Elf *elf;

	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", in, out);
	if (system(cmd) || elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	fd = open(out, O_RDWR);
	elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	while (elf && (scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_GNU_verdef)
			off = sh.sh_offset;
	if (elf)
		elf_end(elf);
	if (off && pread(fd, &next1, 4, (off_t)off + 16) == 4 && next1) {
		next2 = (uint32_t)(0x100000000ULL - next1);
		if (pwrite(fd, &next2, 4, (off_t)(off + next1 + 16)) == 4)
			rc = 0;
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

/*
 * A damaged .gnu.version_d whose chain of entries comes back to its start
 * (vd_next near 2^32: the int offset libelf takes wraps round) ends the
 * search for a version's name: the resolution returns, within seconds
 * (run in a child with an alarm, as the search once never ended). foo's
 * address is still the default version's.
 */
static void version_chain_that_loops_back_ends(void)
{
	const char *lib = path_of("libv.loop.so");
	uint64_t v2 = nm_addr(path_of("libv.so"), "foo@@VERS_2");
	int status = 0;
	pid_t pid;

	CU_ASSERT_FATAL(v2 != 0);
	CU_ASSERT_EQUAL_FATAL(verdef_loop(path_of("libv.stripped.so"), lib), 0);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		struct pts_uprobe_target t;
		struct pts_err err = { 0 };

		alarm(20);
		_exit(pts_uprobe_resolve(lib, "foo", &t, &err) == 0 && t.vaddr == v2 ? 0 : 1);
	}
	CU_ASSERT_EQUAL_FATAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT_FALSE(WIFSIGNALED(status));	/* SIGALRM: still searching after 20 s */
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* The system libc: versioned .dynsym, malloc@@GLIBC_2.2.5 as nm -D lists it. */
static void libc_malloc_is_where_nm_dynamic_puts_it(void)
{
	static const char *const libs[] = { "/lib/x86_64-linux-gnu/libc.so.6",
					    "/usr/lib/x86_64-linux-gnu/libc.so.6" };
	struct pts_uprobe_target t;
	struct pts_err err = { 0 };
	char cmd[512], line[512], name[256], type;
	uint64_t want = 0, a;
	const char *lib = NULL;
	size_t i;
	FILE *p;

	for (i = 0; i < 2 && !lib; i++)
		if (!access(libs[i], R_OK))
			lib = libs[i];
	if (!lib)
		PTS_SKIP("no x86-64 libc.so.6 at the Debian path");
	snprintf(cmd, sizeof(cmd), "nm -D --with-symbol-versions '%s' 2>/dev/null", lib);
	p = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, "%" SCNx64 " %c %255s", &a, &type, name) == 3 &&
		    !strncmp(name, "malloc@@", 8))
			want = a;
	pclose(p);
	if (!want)
		PTS_SKIP("nm -D lists no malloc@@ version in libc");
	CU_ASSERT_EQUAL_FATAL(pts_uprobe_resolve(lib, "malloc", &t, &err), 0);
	CU_ASSERT_EQUAL(t.vaddr, want);
	CU_ASSERT_EQUAL(t.file_offset, readelf_offset(lib, want));
	CU_ASSERT_EQUAL(pts_uprobe_resolve(lib, "memcpy", &t, &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "IFUNC"));
}

PTS_SUITE(capture_uprobe_sym, suite_init, suite_cleanup,
	  PTS_TEST(pie_function_is_at_the_offset_readelf_gives_for_nm_address),
	  PTS_TEST(non_pie_function_is_at_the_offset_readelf_gives_for_nm_address),
	  PTS_TEST(plus_offset_moves_the_probe_inside_the_function),
	  PTS_TEST(default_version_is_taken_when_none_is_given),
	  PTS_TEST(a_named_version_is_that_version),
	  PTS_TEST(versions_of_a_stripped_library_come_from_gnu_version),
	  PTS_TEST(offset_of_a_sizeless_symbol_stays_inside_its_section),
	  PTS_TEST(variable_is_refused_as_not_executable),
	  PTS_TEST(ifunc_is_refused_with_the_reason),
	  PTS_TEST(missing_symbol_is_enoent_and_says_where_it_looked),
	  PTS_TEST(version_chain_that_loops_back_ends),
	  PTS_TEST(libc_malloc_is_where_nm_dynamic_puts_it));
