// SPDX-License-Identifier: GPL-2.0
/* Symbols for PLT entries, from the relocation tables (see plt.h). */
#include "plt.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One GOT slot a relocation fills: its address and what names it. */
struct plt_slot {
	uint64_t got;		/* r_offset: link address of the slot */
	uint64_t ifunc;		/* R_X86_64_IRELATIVE: resolver address (addend) */
	const char *name;	/* symbol name (libelf's string), NULL for IRELATIVE */
};

/* An STT_GNU_IFUNC symbol: names IRELATIVE slots whose addend is its value. */
struct plt_ifunc {
	uint64_t value;
	const char *name;
};

struct plt_ctx {
	Elf *elf;
	struct plt_slot *slots;
	size_t nr_slots;
	struct plt_ifunc *ifuncs;
	size_t nr_ifuncs;
};

size_t pts_sym_unversioned_len(const char *name)
{
	const char *at = strchr(name, '@');

	if (!at || !strcmp(at, "@plt"))
		return strlen(name);
	return (size_t)(at - name);
}

/* Room for element n of *arr, whose capacity is max(16, n rounded up to a power of two). */
static int grow(void **arr, size_t n, size_t elem)
{
	void *p;

	if (n && (n < 16 || (n & (n - 1))))
		return 0;
	p = realloc(*arr, (n ? n * 2 : 16) * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	return 0;
}

/* Name of symbol idx of the symbol table in section symscn (NULL if none). */
static const char *sym_name(Elf *elf, size_t symscn, size_t idx, GElf_Sym *sym)
{
	Elf_Scn *scn = elf_getscn(elf, symscn);
	GElf_Shdr sh;
	Elf_Data *data;

	if (!scn || !gelf_getshdr(scn, &sh) || !(data = elf_getdata(scn, NULL)))
		return NULL;
	if (!gelf_getsym(data, (int)idx, sym))
		return NULL;
	return elf_strptr(elf, sh.sh_link, sym->st_name);
}

static int add_slot(struct plt_ctx *c, uint64_t got, uint64_t ifunc, const char *name)
{
	if (grow((void **)&c->slots, c->nr_slots, sizeof(*c->slots)))
		return -ENOMEM;
	c->slots[c->nr_slots++] = (struct plt_slot){ .got = got, .ifunc = ifunc, .name = name };
	return 0;
}

/* Entries of a table section (relocations, symbols) and its data; 0 when it holds no bytes. */
static size_t table_entries(Elf_Scn *scn, const GElf_Shdr *sh, Elf_Data **data)
{
	*data = elf_getdata(scn, NULL);
	if (!*data || !(*data)->d_buf || !sh->sh_entsize)
		return 0;
	return sh->sh_size / sh->sh_entsize;
}

/* The GOT slots named by one dynamic relocation section (.rela.plt, .rela.dyn). */
static int read_rela(struct plt_ctx *c, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data;
	size_t i, n = table_entries(scn, sh, &data);

	for (i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *name;
		int rc = 0;

		if (!gelf_getrela(data, (int)i, &r))
			continue;
		switch (GELF_R_TYPE(r.r_info)) {
		case R_X86_64_JUMP_SLOT:
		case R_X86_64_GLOB_DAT:
			name = sym_name(c->elf, sh->sh_link, GELF_R_SYM(r.r_info), &sym);
			if (name && *name)
				rc = add_slot(c, r.r_offset, 0, name);
			break;
		case R_X86_64_IRELATIVE:
			rc = add_slot(c, r.r_offset, (uint64_t)r.r_addend, NULL);
			break;
		}
		if (rc)
			return rc;
	}
	return 0;
}

/* IFUNC symbols of one symbol table, for naming IRELATIVE slots. */
static int read_ifuncs(struct plt_ctx *c, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data;
	size_t i, n = table_entries(scn, sh, &data);

	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(c->elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		if (grow((void **)&c->ifuncs, c->nr_ifuncs, sizeof(*c->ifuncs)))
			return -ENOMEM;
		c->ifuncs[c->nr_ifuncs++] = (struct plt_ifunc){ sym.st_value, name };
	}
	return 0;
}

static int cmp_slot(const void *a, const void *b)
{
	const struct plt_slot *x = a, *y = b;

	return x->got < y->got ? -1 : x->got > y->got;
}

static const struct plt_slot *find_slot(const struct plt_ctx *c, uint64_t got)
{
	struct plt_slot key = { .got = got };

	return bsearch(&key, c->slots, c->nr_slots, sizeof(key), cmp_slot);
}

/* Leading underscores: of aliases (__rawmemchr, rawmemchr) the public name wins. */
static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

static bool better_alias(const char *a, const char *b)
{
	size_t ua = underscores(a), ub = underscores(b);

	if (ua != ub)
		return ua < ub;
	if (strlen(a) != strlen(b))
		return strlen(a) < strlen(b);
	return strcmp(a, b) < 0;
}

static const char *ifunc_name(const struct plt_ctx *c, uint64_t resolver)
{
	const char *best = NULL;
	size_t i;

	for (i = 0; i < c->nr_ifuncs; i++)
		if (c->ifuncs[i].value == resolver && (!best || better_alias(c->ifuncs[i].name, best)))
			best = c->ifuncs[i].name;
	return best;
}

/*
 * The GOT slot an entry jumps through: [endbr64] [bnd] jmp *disp32(%rip)
 * (ff 25), the forms ld writes for .plt, .plt.sec, .plt.got and .plt.bnd.
 * PLT0 (push first) and IBT lazy stubs (endbr64; push) have none.
 */
static bool entry_slot(const uint8_t *b, size_t n, uint64_t addr, uint64_t *got)
{
	static const uint8_t endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	size_t p = 0;
	int32_t disp;

	if (n >= sizeof(endbr64) && !memcmp(b, endbr64, sizeof(endbr64)))
		p = sizeof(endbr64);
	if (p < n && b[p] == 0xf2)
		p++;
	if (p + 6 > n || b[p] != 0xff || b[p + 1] != 0x25)
		return false;
	disp = (int32_t)((uint32_t)b[p + 2] | (uint32_t)b[p + 3] << 8 | (uint32_t)b[p + 4] << 16 |
			 (uint32_t)b[p + 5] << 24);
	*got = addr + p + 6 + (uint64_t)(int64_t)disp;
	return true;
}

/* "NAME@plt" for a slot (NULL: ENOMEM), the version stripped. */
static char *entry_name(const struct plt_ctx *c, const struct plt_slot *s)
{
	const char *base = s->name ? s->name : ifunc_name(c, s->ifunc);
	char *d, *out;
	int len;

	if (!base) {
		/* objdump's name for an IRELATIVE slot without an IFUNC symbol */
		if (asprintf(&out, "*ABS*+0x%llx@plt", (unsigned long long)s->ifunc) < 0)
			return NULL;
		return out;
	}
	d = strndup(base, pts_sym_unversioned_len(base));
	if (!d)
		return NULL;
	out = pts_demangle(d);
	free(d);
	if (!out)
		return NULL;
	d = out;
	len = asprintf(&out, "%s@plt", d);
	free(d);
	return len < 0 ? NULL : out;
}

/* Add [start, end) as one symbol named after the section, when not empty. */
static int add_section_run(struct pts_symtab *st, const char *sec, uint64_t start, uint64_t end)
{
	return end > start ? pts_symtab_add(st, start, end - start, sec) : 0;
}

static int add_section(struct pts_symtab *st, const struct plt_ctx *c, Elf_Scn *scn,
		       const GElf_Shdr *sh, const char *sec)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	/* a static executable's .plt (IRELATIVE only) has 8-byte entries and no sh_entsize */
	uint64_t ent = sh->sh_entsize ? sh->sh_entsize : 8;
	uint64_t off, run = sh->sh_addr;
	int rc = 0;

	if (!data || !data->d_buf || data->d_size < sh->sh_size)
		return 0;	/* NOBITS: a debug file's copy of the section */
	if (ent != 8 && ent != 16)
		return add_section_run(st, sec, sh->sh_addr, sh->sh_addr + sh->sh_size);
	for (off = 0; !rc && off + ent <= sh->sh_size; off += ent) {
		const struct plt_slot *s;
		uint64_t got, addr = sh->sh_addr + off;
		char *name;

		if (!entry_slot((const uint8_t *)data->d_buf + off, ent, addr, &got) ||
		    !(s = find_slot(c, got)))
			continue;
		rc = add_section_run(st, sec, run, addr);
		name = rc ? NULL : entry_name(c, s);
		if (!rc && !name)
			rc = -ENOMEM;
		if (!rc)
			rc = pts_symtab_add(st, addr, ent, name);
		free(name);
		run = addr + ent;
	}
	return rc ? rc : add_section_run(st, sec, run, sh->sh_addr + sh->sh_size);
}

static bool is_plt_section(const char *sec)
{
	return !strcmp(sec, ".plt") || !strcmp(sec, ".plt.sec") || !strcmp(sec, ".plt.got") ||
	       !strcmp(sec, ".plt.bnd");
}

/* Pass 1: the slots and IFUNC symbols; pass 2: the entries. */
static int collect(struct plt_ctx *c)
{
	Elf_Scn *scn = NULL;
	int rc = 0;

	while (!rc && (scn = elf_nextscn(c->elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_RELA && (sh.sh_flags & SHF_ALLOC))
			rc = read_rela(c, scn, &sh);
		else if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM)
			rc = read_ifuncs(c, scn, &sh);
	}
	if (!rc && c->nr_slots)
		qsort(c->slots, c->nr_slots, sizeof(*c->slots), cmp_slot);
	return rc;
}

int pts_plt_add_syms(struct pts_symtab *st, Elf *elf)
{
	struct plt_ctx c = { .elf = elf };
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	size_t shstrndx;
	int rc;

	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64 ||
	    gelf_getclass(elf) != ELFCLASS64 || elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	rc = collect(&c);
	while (!rc && c.nr_slots && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *sec;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		sec = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sec && is_plt_section(sec))
			rc = add_section(st, &c, scn, &sh, sec);
	}
	free(c.slots);
	free(c.ifuncs);
	return rc;
}

int pts_plt_load(struct pts_symtab *st, const char *path)
{
	Elf *elf;
	int fd, rc;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		return -EINVAL;
	}
	rc = pts_plt_add_syms(st, elf);
	elf_end(elf);
	close(fd);
	if (!rc)
		pts_symtab_finish(st);
	return rc;
}
