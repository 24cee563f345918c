// SPDX-License-Identifier: GPL-2.0
/*
 * Build-ids, symbols and load addresses of user ELF files. See elfinfo.h.
 */
#include "elfinfo.h"
#include "../util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

static int elf_open(const char *path, int *fd, Elf **elf, struct pts_err *err)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return pts_err_set(err, EINVAL, "libelf: %s", elf_errmsg(-1));
	*fd = pts_file_open(path, "ELF file", NULL, err);
	if (*fd < 0)
		return *fd;
	*elf = elf_begin(*fd, ELF_C_READ, NULL);
	if (!*elf || elf_kind(*elf) != ELF_K_ELF) {
		if (*elf)
			elf_end(*elf);
		close(*fd);
		return pts_err_set(err, EINVAL, "%s is not an ELF file", path);
	}
	return 0;
}

static void elf_close(int fd, Elf *elf)
{
	elf_end(elf);
	close(fd);
}

/* Scan one note block for a GNU build-id. */
static bool find_build_id(Elf_Data *d, char hex[41])
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while (d && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		const unsigned char *desc = (const unsigned char *)d->d_buf + desc_off;
		size_t i;

		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
		    memcmp((const char *)d->d_buf + name_off, "GNU", 4))
			continue;
		if (nh.n_descsz == 0 || nh.n_descsz > 20)
			continue;
		for (i = 0; i < nh.n_descsz; i++)
			snprintf(hex + 2 * i, 3, "%02x", desc[i]);
		hex[2 * nh.n_descsz] = '\0';
		return true;
	}
	return false;
}

int pts_elf_build_id(const char *path, char hex[41], struct pts_err *err)
{
	Elf_Scn *scn = NULL;
	size_t phnum, i;
	int fd, ret;
	Elf *elf;

	hex[0] = '\0';
	ret = elf_open(path, &fd, &elf, err);
	if (ret)
		return ret;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE &&
		    find_build_id(elf_getdata(scn, NULL), hex))
			goto found;
	}
	if (!elf_getphdrnum(elf, &phnum)) {
		for (i = 0; i < phnum; i++) {
			GElf_Phdr ph;
			Elf_Data *d;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
				continue;
			d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz,
						 ELF_T_NHDR);
			if (find_build_id(d, hex))
				goto found;
		}
	}
	elf_close(fd, elf);
	return pts_err_set(err, ENOENT, "%s has no GNU build-id note", path);
found:
	elf_close(fd, elf);
	return 0;
}

static int sym_in(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, const char *name,
		  uint64_t *addr, uint64_t *size)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n;

	if (!d || !sh->sh_entsize)
		return -ENOENT;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym s;
		const char *nm;
		int type;

		if (!gelf_getsym(d, (int)i, &s) || s.st_shndx == SHN_UNDEF)
			continue;
		type = GELF_ST_TYPE(s.st_info);
		if (type != STT_FUNC && type != STT_OBJECT && type != STT_GNU_IFUNC)
			continue;
		nm = elf_strptr(elf, sh->sh_link, s.st_name);
		if (!nm || strcmp(nm, name))
			continue;
		*addr = s.st_value;
		*size = s.st_size;
		return 0;
	}
	return -ENOENT;
}

int pts_elf_symbol(const char *path, const char *name, uint64_t *addr, uint64_t *size,
		   int *is_pie, struct pts_err *err)
{
	static const unsigned int order[] = { SHT_SYMTAB, SHT_DYNSYM };
	GElf_Ehdr eh;
	unsigned int k;
	int fd, ret;
	Elf *elf;

	ret = elf_open(path, &fd, &elf, err);
	if (ret)
		return ret;
	*is_pie = gelf_getehdr(elf, &eh) && eh.e_type == ET_DYN;
	for (k = 0; k < 2; k++) {
		Elf_Scn *scn = NULL;

		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;

			if (!gelf_getshdr(scn, &sh) || sh.sh_type != order[k])
				continue;
			if (!sym_in(elf, scn, &sh, name, addr, size)) {
				elf_close(fd, elf);
				return 0;
			}
		}
	}
	elf_close(fd, elf);
	return pts_err_set(err, ENOENT, "no function or object named '%s' in %s "
			   "(stripped? give a hex START-END range instead)", name, path);
}

int pts_elf_runtime_addr(const char *path, uint64_t vaddr,
			 const struct pts_bundle_map *maps, size_t nr, uint64_t *runtime,
			 struct pts_err *err)
{
	size_t phnum, i;
	uint64_t off = 0;
	bool found = false;
	int fd, ret;
	Elf *elf;

	ret = elf_open(path, &fd, &elf, err);
	if (ret)
		return ret;
	if (!elf_getphdrnum(elf, &phnum)) {
		for (i = 0; i < phnum && !found; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			if (vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz) {
				off = vaddr - ph.p_vaddr + ph.p_offset;
				found = true;
			}
		}
	}
	elf_close(fd, elf);
	if (!found)
		return pts_err_set(err, ENOENT, "0x%" PRIx64 " is in no loadable segment of %s",
				   vaddr, path);
	for (i = 0; i < nr; i++) {
		if (!maps[i].path || strcmp(maps[i].path, path))
			continue;
		if (off >= maps[i].pgoff && off < maps[i].pgoff + (maps[i].end - maps[i].start)) {
			*runtime = maps[i].start + (off - maps[i].pgoff);
			return 0;
		}
	}
	return pts_err_set(err, ENOENT, "%s is not mapped at file offset 0x%" PRIx64
			   " in the process", path, off);
}

int pts_elf_load_kind(const char *path, struct pts_elf_load *l, struct pts_err *err)
{
	bool any = false;
	GElf_Ehdr eh;
	size_t n, i;
	int fd, ret;
	Elf *elf;

	ret = elf_open(path, &fd, &elf, err);
	if (ret)
		return ret;
	if (!gelf_getehdr(elf, &eh) || elf_getphdrnum(elf, &n)) {
		elf_close(fd, elf);
		return pts_err_set(err, EINVAL, "%s: its ELF headers cannot be read", path);
	}
	memset(l, 0, sizeof(*l));
	l->pie = eh.e_type == ET_DYN;
	l->entry = eh.e_entry;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph))
			continue;
		l->interp |= ph.p_type == PT_INTERP;
		if (ph.p_type == PT_LOAD && (!any || ph.p_vaddr < l->low_vaddr))
			l->low_vaddr = ph.p_vaddr;
		any |= ph.p_type == PT_LOAD;
	}
	elf_close(fd, elf);
	l->low_vaddr &= ~(uint64_t)4095;
	return any ? 0 : pts_err_set(err, EINVAL, "%s: no PT_LOAD segment", path);
}
