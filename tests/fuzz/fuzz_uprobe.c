// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness: a user-function trigger's SYMBOL[@VERSION][+OFF] in an
 * ELF file (ptscope run --trigger, capture/uprobe_sym.h). The input is
 * the spec up to the first newline, then the ELF file. When it resolves,
 * the answer must keep uprobe_sym.h's promise, checked here with libelf
 * on its own: the address lies in an executable PROGBITS section whose
 * bytes are at the file offset given, and an executable PT_LOAD holds
 * that offset; the address is the symbol's plus OFF, so not below OFF
 * (an address that wrapped round).
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "capture/uprobe_sym.h"

static void broken(const char *spec, const struct pts_uprobe_target *t, const char *rule)
{
	fprintf(stderr, "fuzz: '%s' resolved to address %#llx, file offset %#llx (%s): %s\n",
		spec, (unsigned long long)t->vaddr, (unsigned long long)t->file_offset,
		t->section, rule);
	abort();
}

static void check(const char *path, const char *spec, const struct pts_uprobe_target *t)
{
	bool in_section = false, in_segment = false;
	Elf_Scn *scn = NULL;
	const char *plus;
	size_t i, phnum;
	GElf_Shdr sh;
	int fd = open(path, O_RDONLY);
	Elf *elf;

	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE)
		abort();
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf)
		abort();
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS &&
		    (sh.sh_flags & SHF_EXECINSTR) && t->vaddr >= sh.sh_addr &&
		    t->vaddr - sh.sh_addr < sh.sh_size &&
		    t->file_offset == sh.sh_offset + (t->vaddr - sh.sh_addr))
			in_section = true;
	if (!elf_getphdrnum(elf, &phnum))
		for (i = 0; i < phnum; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
			    (ph.p_flags & PF_X) && t->file_offset >= ph.p_offset &&
			    t->file_offset - ph.p_offset < ph.p_filesz)
				in_segment = true;
		}
	elf_end(elf);
	close(fd);
	plus = strrchr(spec, '+');
	if (plus && t->vaddr < strtoull(plus + 1, NULL, 0))
		broken(spec, t, "below OFF: symbol + OFF wrapped round");
	if (!in_section)
		broken(spec, t, "in no executable section at that file offset");
	if (!in_segment)
		broken(spec, t, "in no executable PT_LOAD");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	struct pts_uprobe_target t;
	struct pts_err err;
	const char *path;
	char spec[300];
	size_t n;

	if (!nl || (n = (size_t)(nl - data)) >= sizeof(spec) || memchr(data, 0, n))
		return 0;
	memcpy(spec, data, n);
	spec[n] = 0;
	path = fuzz_file(0, "uprobe.elf", nl + 1, size - n - 1);
	if (!pts_uprobe_resolve(path, spec, &t, &err))
		check(path, spec, &t);
	return 0;
}
