// SPDX-License-Identifier: GPL-2.0
#include "kcore.h"
#include "../util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int pts_kcore_add(struct pts_imgset *set, const char *dir, struct pts_err *err)
{
	struct pts_err e2 = { 0 };
	char path[4096], ks[4096];
	size_t n, i;
	Elf *elf;
	int fd, rc = 0;

	snprintf(path, sizeof(path), "%s/kcore", dir);
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	fd = pts_file_open(path, "kcore", NULL, &e2);
	if (fd < 0)
		return pts_err_set(err, fd, "%s (--kcore wants a directory with the files kcore and "
				   "kallsyms, as perf record --kcore writes)", e2.msg);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &n)) {
		if (elf)
			elf_end(elf);
		close(fd);
		return pts_err_set(err, EINVAL, "%s is not an ELF core file", path);
	}
	for (i = 0; i < n && !rc; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || !ph.p_filesz)
			continue;
		rc = pts_imgset_add_file(set, PTS_PID_ALL, path, ph.p_offset, ph.p_filesz,
					 ph.p_vaddr, "[kernel.kallsyms]", NULL, err);
	}
	elf_end(elf);
	close(fd);
	if (rc)
		return rc;
	if (access(ks, R_OK) == 0)
		return pts_imgset_add_kallsyms(set, ks, NULL, err);
	return 0;
}
