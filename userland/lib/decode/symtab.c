// SPDX-License-Identifier: GPL-2.0
/* ELF and kallsyms symbol tables. */
#include "symtab.h"
#include "../util/file.h"
#include "../util/kallsyms_line.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libiberty/demangle.h>

#include "../capture/elfinfo.h"
#include "buildid_cache.h"
#include "ehframe.h"
#include "plt.h"

char *pts_demangle(const char *name)
{
	/*
	 * No style bit: libiberty then recognises C++ (Itanium) as well as
	 * Rust legacy and v0 names. Setting DMGL_RUST would restrict it to
	 * Rust and leave C++ names mangled.
	 */
	int opts = DMGL_PARAMS | DMGL_ANSI;
	char *d;

	/* "_Z" C++/Rust legacy, "_R" Rust v0 */
	if (name[0] == '_' && (name[1] == 'Z' || name[1] == 'R')) {
		d = cplus_demangle(name, opts);
		if (d)
			return d;
	}
	return strdup(name);
}

int pts_symtab_add(struct pts_symtab *st, uint64_t start, uint64_t size, const char *name)
{
	return pts_symtab_add_n(st, start, size, name, strlen(name));
}

int pts_symtab_add_n(struct pts_symtab *st, uint64_t start, uint64_t size, const char *name,
		     size_t len)
{
	struct pts_sym *ns;
	char *copy;

	if ((st->n & (st->n - 1)) == 0) {
		size_t nc = st->n ? st->n * 2 : 64;

		ns = realloc(st->syms, nc * sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		st->syms = ns;
	}
	copy = strndup(name, len);
	st->syms[st->n].name = copy ? pts_demangle(copy) : NULL;
	free(copy);
	if (!st->syms[st->n].name)
		return -ENOMEM;
	st->syms[st->n].start = start;
	st->syms[st->n].size = size;
	st->syms[st->n].unnamed = false;
	st->syms[st->n].part = false;
	st->n++;
	return 0;
}

int pts_symtab_add_unnamed(struct pts_symtab *st, uint64_t start, uint64_t size, bool part)
{
	int rc = pts_symtab_add_n(st, start, size, "", 0);

	if (!rc) {
		st->syms[st->n - 1].unnamed = true;
		st->syms[st->n - 1].part = part;
	}
	return rc;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct pts_sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->unnamed != y->unnamed)
		return x->unnamed ? 1 : -1;
	/* prefer sized symbols, then the name, for a deterministic pick */
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return strcmp(x->name, y->name);
}

void pts_symtab_finish(struct pts_symtab *st)
{
	size_t i, j;

	if (!st->n)
		return;
	qsort(st->syms, st->n, sizeof(*st->syms), cmp_sym);
	/* one symbol per start address (aliases: keep the first) */
	for (i = 1, j = 0; i < st->n; i++) {
		if (st->syms[i].start == st->syms[j].start) {
			free(st->syms[i].name);
			continue;
		}
		st->syms[++j] = st->syms[i];
	}
	st->n = j + 1;
	for (i = 0; i + 1 < st->n; i++)
		if (!st->syms[i].size)
			st->syms[i].size = st->syms[i + 1].start - st->syms[i].start;
}

const struct pts_sym *pts_symtab_find(const struct pts_symtab *st, uint64_t addr)
{
	size_t lo = 0, hi = st->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	lo--;
	if (st->syms[lo].size && addr - st->syms[lo].start >= st->syms[lo].size)
		return NULL;
	return &st->syms[lo];
}

/* Note the first reason names are missing (st->damage). */
static void damaged(struct pts_symtab *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void damaged(struct pts_symtab *st, const char *fmt, ...)
{
	va_list ap;

	if (st->damage[0])
		return;
	va_start(ap, fmt);
	vsnprintf(st->damage, sizeof(st->damage), fmt, ap);
	va_end(ap);
}

/*
 * libelf reads section headers that lie past the end of the file as no
 * section headers at all: a file that has them (e_shoff) but yields none
 * is damaged, not stripped.
 */
static void check_shdrs(struct pts_symtab *st, Elf *elf)
{
	GElf_Ehdr eh;
	size_t shnum = 0;

	if (!gelf_getehdr(elf, &eh))
		damaged(st, "its ELF header cannot be read (%s)", elf_errmsg(-1));
	else if (eh.e_shoff && (elf_getshdrnum(elf, &shnum) || !shnum))
		damaged(st, "its section headers (at offset %llu) lie outside the file or cannot "
			"be read", (unsigned long long)eh.e_shoff);
}

static int load_section_syms(struct pts_symtab *st, Elf *elf, Elf_Scn *scn, GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n;

	if (!data && sh->sh_size)
		damaged(st, "its symbol table (section %zu) cannot be read (%s)", elf_ndxscn(scn),
			elf_errmsg(-1));
	if (!data || !sh->sh_entsize)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		GElf_Shdr tsh;
		Elf_Scn *tscn;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
			continue;
		if (type != STT_FUNC && type != STT_NOTYPE && type != STT_GNU_IFUNC)
			continue;
		tscn = elf_getscn(elf, sym.st_shndx);
		if (!tscn || !gelf_getshdr(tscn, &tsh) || !(tsh.sh_flags & SHF_EXECINSTR))
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name || name[0] == '$' || !strncmp(name, ".L", 2))
			continue;
		/* "memcpy@@GLIBC_2.14" in a shared library's .symtab: the version is no part of the name */
		if (pts_symtab_add_n(st, sym.st_value, sym.st_size, name, pts_sym_unversioned_len(name)))
			return -ENOMEM;
	}
	return 0;
}

/*
 * A stripped object (no .symtab) still has two functions that code of
 * other objects enters: _init and _fini, the .init and .fini sections
 * that DT_INIT and DT_FINI name (crti.o's and crtn.o's halves), run by
 * the loader; glibc's _dl_call_fini enters _fini by a tail jump. Unnamed,
 * that jump was one into the middle of the object's unknown code (one
 * function to the timeline), which unwound every frame down to the
 * object's outermost open one (an executable's _start or main, under
 * exit), and _fini's return then went to no open frame. Named from their
 * sections, as an unstripped object's symbol table names them.
 */
static int add_init_fini(struct pts_symtab *st, Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *sn;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || !sh.sh_size)
			continue;
		sn = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sn && (!strcmp(sn, ".init") || !strcmp(sn, ".fini")) &&
		    pts_symtab_add(st, sh.sh_addr, sh.sh_size, sn[1] == 'i' ? "_init" : "_fini"))
			return -ENOMEM;
	}
	return 0;
}

int pts_symtab_load_elf(struct pts_symtab *st, const char *path, struct pts_err *err)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	bool have_symtab = false;
	Elf *elf;
	int fd, rc = 0;

	elf_version(EV_CURRENT);
	fd = pts_file_open(path, "symbol file", NULL, err);
	if (fd < 0)
		return fd;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		return pts_err_set(err, EINVAL, "%s is not an ELF file", path);
	}
	check_shdrs(st, elf);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh)) {
			damaged(st, "the header of its section %zu cannot be read (%s)",
				elf_ndxscn(scn), elf_errmsg(-1));
			continue;
		}
		if (sh.sh_type == SHT_SYMTAB) {
			have_symtab = true;
			rc = load_section_syms(st, elf, scn, &sh);
		} else if (sh.sh_type == SHT_DYNSYM) {
			dyn = scn;
		}
		if (rc)
			break;
	}
	st->full = have_symtab;
	/* stripped: .dynsym still names the exported functions */
	if (!rc && !have_symtab && dyn) {
		GElf_Shdr sh;

		if (gelf_getshdr(dyn, &sh))
			rc = load_section_syms(st, elf, dyn, &sh);
	}
	if (!rc && !have_symtab)
		rc = add_init_fini(st, elf);
	if (!rc)
		rc = pts_plt_add_syms(st, elf);
	/*
	 * Stripped: unknown code is one function per object to the timeline,
	 * so a jump between two of its functions (a tail call through a
	 * pointer, a landing pad's cleanup) looked like one inside a frame
	 * open deeper. The FDEs the unwinder needs (and strip keeps) bound
	 * each function.
	 */
	if (!rc && !have_symtab) {
		pts_symtab_finish(st);
		rc = pts_ehframe_add_fdes(st, elf);
	}
	elf_end(elf);
	close(fd);
	if (rc)
		return pts_err_set(err, ENOMEM, "out of memory reading symbols of %s", path);
	pts_symtab_finish(st);
	return 0;
}

/* Skip blanks (space, tab, CR) from p. */
static char *skip_blank(char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static void note_bad(struct pts_kallsyms_stats *ks, uint64_t lineno, const char *line, size_t len)
{
	size_t i, n = len < sizeof(ks->first_bad_text) - 4 ? len : sizeof(ks->first_bad_text) - 4;

	if (ks->bad++)
		return;
	ks->first_bad = lineno;
	for (i = 0; i < n; i++)
		ks->first_bad_text[i] = isprint((unsigned char)line[i]) ? line[i] : '?';
	ks->first_bad_text[n] = '\0';
	if (n < len)
		strcat(ks->first_bad_text, "...");
}

int pts_symtab_load_kallsyms(struct pts_symtab *st, const char *path,
			     struct pts_kallsyms_stats *stats, struct pts_err *err)
{
	struct pts_kallsyms_stats local;
	FILE *f;
	uint64_t lineno = 0, parsed = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	int rc = 0;

	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof(*stats));
	rc = pts_file_fopen(path, "kallsyms file", &f, err);
	if (rc)
		return rc;
	while ((got = getline(&line, &cap, f)) >= 0) {
		size_t len = (size_t)got;
		struct pts_kallsyms_line k;
		char full[600];

		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!*skip_blank(line) && strlen(line) == len)
			continue;	/* blank line */
		stats->lines++;
		if (pts_kallsyms_line(line, line + len, &k)) {
			note_bad(stats, lineno, line, len);
			continue;
		}
		parsed++;
		if (!strchr("tTwW", k.type))
			continue;
		stats->text++;
		stats->text_zero += !k.addr;
		if (k.mod)
			snprintf(full, sizeof(full), "%.*s %.*s", (int)(k.name_len < 511 ? k.name_len : 511),
				 k.name, (int)(k.mod_len < 80 ? k.mod_len : 80), k.mod);
		else
			snprintf(full, sizeof(full), "%.*s", (int)(k.name_len < 511 ? k.name_len : 511),
				 k.name);
		if (pts_symtab_add(st, k.addr, 0, full)) {
			rc = pts_err_set(err, ENOMEM, "out of memory reading %s", path);
			break;
		}
	}
	if (!rc && ferror(f))
		rc = pts_err_set(err, EIO, "reading %s: %s", path, strerror(errno));
	free(line);
	fclose(f);
	if (!rc && !parsed)
		rc = pts_err_set(err, EINVAL, "%s: no kallsyms lines (expected 'ADDRESS TYPE NAME "
				 "[MODULE]' as in /proc/kallsyms)", path);
	/* all at 0 would make one symbol of the whole kernel: names nothing right */
	if (!rc && stats->text && stats->text_zero == stats->text)
		rc = pts_err_set(err, EACCES, "%s: every address is 0 (read under kptr_restrict, "
				 "or without privilege): the names cannot be placed", path);
	if (rc == -EACCES)
		pts_symtab_free(st);
	if (!rc)
		pts_symtab_finish(st);
	return rc;
}

void pts_symtab_free(struct pts_symtab *st)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		free(st->syms[i].name);
	free(st->syms);
	st->syms = NULL;
	st->n = 0;
	st->damage[0] = '\0';
}

static Elf *open_elf(const char *path, int *fd)
{
	Elf *elf;

	elf_version(EV_CURRENT);
	*fd = pts_file_open(path, NULL, NULL, NULL);
	if (*fd < 0)
		return NULL;
	elf = elf_begin(*fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(*fd);
		*fd = -1;
		return NULL;
	}
	return elf;
}

/* .gnu_debuglink file name of an ELF file, or NULL. */
static char *debuglink(const char *path)
{
	Elf_Scn *scn = NULL;
	char *name = NULL;
	size_t shstrndx;
	int fd;
	Elf *elf = open_elf(path, &fd);

	if (!elf)
		return NULL;
	if (!elf_getshdrstrndx(elf, &shstrndx)) {
		while (!name && (scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			Elf_Data *data;
			const char *sn;

			if (!gelf_getshdr(scn, &sh))
				continue;
			sn = elf_strptr(elf, shstrndx, sh.sh_name);
			if (!sn || strcmp(sn, ".gnu_debuglink"))
				continue;
			data = elf_getdata(scn, NULL);
			if (data && data->d_size > 1)
				name = strndup(data->d_buf, data->d_size);
		}
	}
	elf_end(elf);
	close(fd);
	return name;
}

/*
 * Whether cand is a readable debug file for a binary of build-id id ("":
 * none): perf's symsrc__init refuses a debug file whose build-id differs
 * from the binary's, and so does this. A candidate without a build-id is
 * taken unless strict (a file found by the build-id's name alone, outside
 * the sysroot: nothing else ties it to the binary).
 */
static bool debug_ok(const char *cand, const char *id, bool strict)
{
	char cid[41];

	if (access(cand, R_OK))
		return false;
	if (!id[0])
		return !strict;
	if (pts_elf_build_id(cand, cid, NULL) || !cid[0])
		return !strict;
	return !strcmp(cid, id);
}

/* cand under root by build-id: ROOT/usr/lib/debug/.build-id/xx/rest.debug */
static void by_build_id(char *cand, size_t len, const char *root, const char *id)
{
	snprintf(cand, len, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", root, id, id + 2);
}

/* Appends s to the ", "-separated looked-for list (cut when full). */
static void looked_add(char *looked, size_t len, const char *s)
{
	size_t n;

	if (!looked || !len)
		return;
	n = strlen(looked);
	snprintf(looked + n, len - n, "%s%s", n ? ", " : "", s);
}

/*
 * The .gnu_debuglink candidates of path (its original path orig, on the
 * capture machine) under root, as gdb and perf look: the binary's own
 * directory and its .debug/, the original directory under root and its
 * .debug/, and ROOT/usr/lib/debug/ORIGDIR/. The first that debug_ok()
 * takes, or NULL.
 */
static char *by_debuglink(const char *path, const char *orig, const char *root, bool rooted,
			  const char *id)
{
	char cand[4096], dir[2048], odir[2048];
	char *link = debuglink(path), *slash;
	const char *fmt[] = { "%s%s/%s", "%s%s/.debug/%s", "%s/usr/lib/debug%s/%s" };
	unsigned int k;

	if (!link)
		return NULL;
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	snprintf(odir, sizeof(odir), "%s", orig);
	slash = strrchr(odir, '/');
	if (slash)
		*slash = '\0';
	snprintf(cand, sizeof(cand), "%s/%s", dir, link);
	if (strcmp(cand, path) && debug_ok(cand, id, false))
		goto found;
	snprintf(cand, sizeof(cand), "%s/.debug/%s", dir, link);
	if (debug_ok(cand, id, false))
		goto found;
	for (k = rooted ? 0 : 2; odir[0] == '/' && k < 3; k++) {
		snprintf(cand, sizeof(cand), fmt[k], root, odir, link);
		if (strcmp(cand, path) && debug_ok(cand, id, false))
			goto found;
	}
	free(link);
	return NULL;
found:
	free(link);
	return strdup(cand);
}

/*
 * The debug file of build-id id in perf's build-id cache: its debug file,
 * else its copy of the binary when that has a .symtab (a binary perf
 * record saw unstripped). Both are found by name alone: taken only with
 * the binary's build-id. The places looked at go to looked when the cache
 * is there at all (a machine that never ran perf has none to list).
 */
static char *in_buildid_cache(const char *cache, const char *id, const char *orig, char *looked,
			      size_t len)
{
	char cand[4096];
	struct stat st;
	char *found;

	if (!cache || !cache[0] || !id[0] || stat(cache, &st) || !S_ISDIR(st.st_mode))
		return NULL;
	pts_bic_link_path(cand, sizeof(cand), cache, id, PTS_BIC_DEBUG);
	looked_add(looked, len, cand);
	pts_bic_link_path(cand, sizeof(cand), cache, id, PTS_BIC_ELF);
	looked_add(looked, len, cand);
	found = pts_bic_find(cache, id, orig, PTS_BIC_DEBUG, false);
	return found ? found : pts_bic_find(cache, id, orig, PTS_BIC_ELF, true);
}

char *pts_debug_file(const char *path, const char *orig, const char *sysroot, const char *cache,
		     char *looked, size_t len)
{
	const char *root = sysroot ? sysroot : "";
	char id[41] = "", cand[4096];
	bool by_name;
	char *found;

	if (looked && len)
		looked[0] = '\0';
	if (!orig || orig[0] != '/')
		orig = path;
	if (pts_elf_build_id(path, id, NULL))
		id[0] = '\0';
	/*
	 * A build-id of one byte names no .build-id/xx/rest path, but still
	 * refuses a debuglink candidate that is not the binary's.
	 */
	by_name = strlen(id) > 2;
	if (by_name) {
		by_build_id(cand, sizeof(cand), root, id);
		looked_add(looked, len, cand);
		if (debug_ok(cand, id, false))
			return strdup(cand);
	}
	found = by_debuglink(path, orig, root, sysroot != NULL, id);
	if (found || !by_name)
		return found;
	/* perf's build-id cache: after the files the user pointed at, before the host's own */
	found = in_buildid_cache(cache, id, orig, looked, len);
	if (found || !sysroot)
		return found;
	/* this host's own, outside the sysroot: the build-id must be the binary's */
	by_build_id(cand, sizeof(cand), "", id);
	looked_add(looked, len, cand);
	if (debug_ok(cand, id, true))
		return strdup(cand);
	return NULL;
}
