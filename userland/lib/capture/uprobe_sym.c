// SPDX-License-Identifier: GPL-2.0
/*
 * SYMBOL[+OFF] of an ELF file to the file offset of a uprobe. See
 * uprobe_sym.h. Symbol versions (ELF gABI, GNU extensions: .gnu.version
 * holds one version index per .dynsym entry, bit 15 = hidden, i.e. not
 * the default; .gnu.version_d names the indices a file defines).
 */
#include "uprobe_sym.h"
#include "../util/file.h"

#include <ctype.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VERSYM_HIDDEN	0x8000
#define VERSYM_INDEX	0x7fff
#define MAX_CANDIDATES	16

struct want {
	char name[256];
	char version[64];	/* "" any */
	uint64_t off;
};

struct cand {
	uint64_t value, size;
	size_t shndx;
	int type;
	bool is_default;	/* "@@", or a .dynsym entry without the hidden bit */
	char version[64];
};

static int parse_spec(const char *spec, struct want *w, struct pts_err *err)
{
	const char *plus = strrchr(spec, '+');
	size_t len = plus ? (size_t)(plus - spec) : strlen(spec);
	char *at, *end;

	memset(w, 0, sizeof(*w));
	if (plus) {
		errno = 0;
		w->off = strtoull(plus + 1, &end, 0);
		if (!plus[1] || *end || errno || !isdigit((unsigned char)plus[1]))
			return pts_err_set(err, EINVAL, "'%s': the offset after + must be a "
					   "number of bytes (decimal or 0x hex), e.g. main+4", spec);
	}
	if (!len || len >= sizeof(w->name))
		return pts_err_set(err, EINVAL, "'%s' is not SYMBOL[@VERSION][+OFF]", spec);
	memcpy(w->name, spec, len);
	at = strchr(w->name, '@');
	if (at) {
		const char *v = at[1] == '@' ? at + 2 : at + 1;

		if (!*v || strlen(v) >= sizeof(w->version))
			return pts_err_set(err, EINVAL, "'%s': empty or too long symbol version",
					   spec);
		snprintf(w->version, sizeof(w->version), "%s", v);
		*at = '\0';
		if (!w->name[0])
			return pts_err_set(err, EINVAL, "'%s' has no symbol name", spec);
	}
	return 0;
}

/* Name of version index ndx from .gnu.version_d, "" when not found. */
static void verdef_name(Elf *elf, Elf_Scn *vd_scn, size_t strndx, unsigned int ndx,
			char *out, size_t len)
{
	Elf_Data *d = vd_scn ? elf_getdata(vd_scn, NULL) : NULL;
	size_t off = 0;

	out[0] = '\0';
	while (d) {
		GElf_Verdef vd;
		GElf_Verdaux va;

		if (!gelf_getverdef(d, (int)off, &vd))
			return;
		if (vd.vd_ndx == ndx && vd.vd_aux < d->d_size - off &&
		    gelf_getverdaux(d, (int)(off + vd.vd_aux), &va)) {
			const char *n = elf_strptr(elf, strndx, va.vda_name);

			snprintf(out, len, "%s", n ? n : "");
			return;
		}
		/*
		 * Forward and inside the section: a vd_next near 2^32 would bring
		 * the int offset libelf takes back to an entry already seen.
		 */
		if (!vd.vd_next || vd.vd_next >= d->d_size - off)
			return;
		off += vd.vd_next;
	}
}

/* Candidates for w in one symbol table; returns how many were added. */
static size_t scan_table(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, Elf_Scn *versym,
			 Elf_Scn *verdef, size_t verdef_str, const struct want *w,
			 struct cand *c, size_t nc)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	Elf_Data *vs = versym ? elf_getdata(versym, NULL) : NULL;
	size_t i, n, added = 0;

	if (!d || !sh->sh_entsize)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n && nc + added < MAX_CANDIDATES; i++) {
		struct cand *k = &c[nc + added];
		const char *nm, *at;
		size_t base;
		GElf_Sym s;
		GElf_Versym v;

		if (!gelf_getsym(d, (int)i, &s) || s.st_shndx == SHN_UNDEF ||
		    GELF_ST_TYPE(s.st_info) == STT_SECTION || GELF_ST_TYPE(s.st_info) == STT_FILE)
			continue;
		nm = elf_strptr(elf, sh->sh_link, s.st_name);
		if (!nm)
			continue;
		at = strchr(nm, '@');
		base = at ? (size_t)(at - nm) : strlen(nm);
		if (base != strlen(w->name) || strncmp(nm, w->name, base))
			continue;
		memset(k, 0, sizeof(*k));
		k->value = s.st_value;
		k->size = s.st_size;
		k->shndx = s.st_shndx;
		k->type = GELF_ST_TYPE(s.st_info);
		if (at) {		/* .symtab of a versioned object: name@V or name@@V */
			k->is_default = at[1] == '@';
			snprintf(k->version, sizeof(k->version), "%s", at + 1 + k->is_default);
		} else if (vs && gelf_getversym(vs, (int)i, &v)) {
			k->is_default = !(v & VERSYM_HIDDEN);
			if ((v & VERSYM_INDEX) > 1)
				verdef_name(elf, verdef, verdef_str, v & VERSYM_INDEX,
					    k->version, sizeof(k->version));
		} else {
			k->is_default = true;
		}
		if (w->version[0] && strcmp(w->version, k->version))
			continue;
		added++;
	}
	return added;
}

/* Collect the candidates: .symtab first (the whole file), else .dynsym. */
static size_t find_candidates(Elf *elf, const struct want *w, struct cand *c)
{
	static const unsigned int order[] = { SHT_SYMTAB, SHT_DYNSYM };
	Elf_Scn *scn, *versym = NULL, *verdef = NULL;
	size_t verdef_str = 0, nc = 0;
	unsigned int k;
	GElf_Shdr sh;

	for (scn = NULL; (scn = elf_nextscn(elf, scn));) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_GNU_versym)
			versym = scn;
		if (sh.sh_type == SHT_GNU_verdef) {
			verdef = scn;
			verdef_str = sh.sh_link;
		}
	}
	for (k = 0; k < 2 && !nc; k++)
		for (scn = NULL; (scn = elf_nextscn(elf, scn));)
			if (gelf_getshdr(scn, &sh) && sh.sh_type == order[k])
				nc += scan_table(elf, scn, &sh, k ? versym : NULL, verdef,
						 verdef_str, w, c, nc);
	return nc;
}

/* One address among the candidates, or -EINVAL (ambiguous) with err set. */
static int choose(const char *path, const struct want *w, struct cand *c, size_t nc,
		  struct cand *out, struct pts_err *err)
{
	const struct cand *pick = NULL;
	bool many = false;
	size_t i;
	int pass;

	/* pass 0: every candidate; pass 1: default versions only */
	for (pass = 0; pass < 2; pass++) {
		pick = NULL;
		many = false;
		for (i = 0; i < nc; i++) {
			if (pass && !c[i].is_default)
				continue;
			if (pick && pick->value != c[i].value)
				many = true;
			if (!pick || (c[i].version[0] && !pick->version[0]))
				pick = &c[i];
		}
		if (pick && !many)
			break;
	}
	if (!pick || many)
		return pts_err_set(err, EINVAL, "'%s' names %zu different addresses in %s; "
				   "give its version, e.g. %s@VERSION (readelf --dyn-syms -W %s)",
				   w->name, nc, path, w->name, path);
	*out = *pick;
	return 0;
}

/* The executable PT_LOAD holding file offset off, or false. */
static bool in_exec_segment(Elf *elf, uint64_t off)
{
	size_t phnum, i;

	if (elf_getphdrnum(elf, &phnum))
		return false;
	for (i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    (ph.p_flags & PF_X) && off >= ph.p_offset && off < ph.p_offset + ph.p_filesz)
			return true;
	}
	return false;
}

static int resolve_in(Elf *elf, const char *path, const char *spec, const struct want *w,
		      struct pts_uprobe_target *t, struct pts_err *err)
{
	struct cand c[MAX_CANDIDATES], k;
	size_t nc, shstrndx;
	const char *secname;
	Elf_Scn *scn;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	int ret;

	if (!gelf_getehdr(elf, &eh) || (eh.e_type != ET_EXEC && eh.e_type != ET_DYN))
		return pts_err_set(err, EINVAL, "%s is not an executable or shared object", path);
	nc = find_candidates(elf, w, c);
	if (!nc)
		return pts_err_set(err, ENOENT, "no symbol '%s'%s%s in %s (.symtab and .dynsym "
				   "searched; a stripped file keeps only its exported symbols)",
				   w->name, w->version[0] ? " of version " : "", w->version, path);
	ret = choose(path, w, c, nc, &k, err);
	if (ret)
		return ret;
	if (k.type == STT_GNU_IFUNC)
		return pts_err_set(err, EINVAL, "'%s' in %s is an IFUNC: its address is the "
				   "resolver, which runs once when the object is loaded; probe the "
				   "implementation the resolver returns instead", w->name, path);
	if (k.shndx >= SHN_LORESERVE || !(scn = elf_getscn(elf, k.shndx)) ||
	    !gelf_getshdr(scn, &sh))
		return pts_err_set(err, EINVAL, "'%s' in %s is not in a section (absolute or "
				   "common symbol): nothing to probe", w->name, path);
	if (elf_getshdrstrndx(elf, &shstrndx) || !(secname = elf_strptr(elf, shstrndx, sh.sh_name)))
		secname = "?";
	if (!(sh.sh_flags & SHF_EXECINSTR) || sh.sh_type != SHT_PROGBITS)
		return pts_err_set(err, EINVAL, "'%s' in %s is in section %s, which is not "
				   "executable code (a variable?): a trigger needs a function",
				   w->name, path, secname);
	if (k.size && w->off >= k.size)
		return pts_err_set(err, EINVAL, "'%s': +%" PRIu64 " is past the end of %s "
				   "(%" PRIu64 " bytes)", spec, w->off, w->name, k.size);
	/* not k.value + off: an OFF near 2^64 would wrap to an address before the symbol */
	if (k.value < sh.sh_addr || k.value - sh.sh_addr >= sh.sh_size ||
	    w->off >= sh.sh_size - (k.value - sh.sh_addr))
		return pts_err_set(err, EINVAL, "'%s' lies outside its section %s in %s",
				   spec, secname, path);
	t->vaddr = k.value + w->off;
	t->file_offset = sh.sh_offset + (t->vaddr - sh.sh_addr);
	t->sym_size = k.size;
	snprintf(t->section, sizeof(t->section), "%s", secname);
	snprintf(t->version, sizeof(t->version), "%s", k.version);
	if (!in_exec_segment(elf, t->file_offset))
		return pts_err_set(err, EINVAL, "'%s' in %s: file offset 0x%" PRIx64 " is in no "
				   "executable loadable segment", spec, path, t->file_offset);
	return 0;
}

int pts_uprobe_resolve(const char *path, const char *spec,
		       struct pts_uprobe_target *t, struct pts_err *err)
{
	struct want w;
	Elf *elf;
	int fd, ret;

	memset(t, 0, sizeof(*t));
	ret = parse_spec(spec, &w, err);
	if (ret)
		return ret;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return pts_err_set(err, EINVAL, "libelf: %s", elf_errmsg(-1));
	fd = pts_file_open(path, "ELF file", NULL, err);
	if (fd < 0)
		return fd;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		ret = pts_err_set(err, EINVAL, "%s is not an ELF file", path);
	else
		ret = resolve_in(elf, path, spec, &w, t, err);
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}
