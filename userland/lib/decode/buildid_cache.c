// SPDX-License-Identifier: GPL-2.0
/*
 * Files of perf's build-id cache, by build-id. See buildid_cache.h.
 */
#include "buildid_cache.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../capture/elfinfo.h"

static const char *kind_name(enum pts_bic_kind kind)
{
	return kind == PTS_BIC_DEBUG ? "debug" : "elf";
}

void pts_bic_link_path(char *out, size_t len, const char *cache, const char *id,
		       enum pts_bic_kind kind)
{
	snprintf(out, len, "%s/.build-id/%.2s/%s/%s", cache, id, id + 2, kind_name(kind));
}

/* Whether the ELF file at path has a .symtab section (SHT_SYMTAB). */
static bool has_symtab(const char *path)
{
	Elf_Scn *scn = NULL;
	bool found = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	Elf *elf;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && elf_kind(elf) == ELF_K_ELF && !found && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		found = gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB;
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}

/* Whether path is a regular file of build-id id (and a .symtab when asked). */
static bool is_it(const char *path, const char *id, bool need_symtab)
{
	struct stat st;
	char cid[41];

	/* a FIFO or device named like a cache file is never opened (it could block) */
	if (stat(path, &st) || !S_ISREG(st.st_mode) || access(path, R_OK))
		return false;
	if (pts_elf_build_id(path, cid, NULL) || strcmp(cid, id))
		return false;
	return !need_symtab || has_symtab(path);
}

char *pts_bic_find(const char *cache, const char *id, const char *orig, enum pts_bic_kind kind,
		   bool need_symtab)
{
	char cand[4096];

	if (!cache || !cache[0] || !id || strlen(id) < 3)
		return NULL;
	pts_bic_link_path(cand, sizeof(cand), cache, id, kind);
	if (is_it(cand, id, need_symtab))
		return strdup(cand);
	if (kind == PTS_BIC_ELF) {
		snprintf(cand, sizeof(cand), "%s/.build-id/%.2s/%s", cache, id, id + 2);
		if (is_it(cand, id, need_symtab))
			return strdup(cand);
	}
	if (orig && orig[0] == '/') {
		snprintf(cand, sizeof(cand), "%s%s/%s/%s", cache, orig, id, kind_name(kind));
		if (is_it(cand, id, need_symtab))
			return strdup(cand);
	}
	return NULL;
}
