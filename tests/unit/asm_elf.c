// SPDX-License-Identifier: GPL-2.0
#include "asm_elf.h"
#include "bundle_fixture.h"
#include "capture/elfinfo.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 1 when an executable tool is in one of $PATH's directories */
static int on_path(const char *tool)
{
	const char *path = getenv("PATH"), *p, *end;
	char file[4096];

	for (p = path ? path : ""; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		snprintf(file, sizeof(file), "%.*s/%s", (int)(end - p), p, tool);
		if (end > p && access(file, X_OK) == 0)
			return 1;
	}
	return 0;
}

static int have_binutils(const char *name)
{
	static const char *const tools[] = { "as", "ld" };
	size_t i;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		if (!on_path(tools[i])) {
			fprintf(stderr, "asm_elf: cannot build %s: '%s' is not on PATH "
				"(install GNU binutils)\n", name, tools[i]);
			return 0;
		}
	}
	return 1;
}

char *asm_elf_build(const char *dir, const char *name, const char *src, const char *ld_flags)
{
	char *elf, *cmd;
	int rc;

	if (!have_binutils(name))
		return NULL;
	if (asprintf(&elf, "%s/%s", dir, name) < 0)
		return NULL;
	if (asprintf(&cmd, "as -o '%s.o' '%s%s%s' && ld %s -o '%s' '%s.o'", elf,
		     src[0] == '/' ? "" : pts_unit_src_dir(), src[0] == '/' ? "" : "/", src,
		     ld_flags, elf, elf) < 0) {
		free(elf);
		return NULL;
	}
	rc = system(cmd);
	free(cmd);
	if (rc) {
		fprintf(stderr, "asm_elf: building %s from %s failed (as or ld said why above)\n",
			name, src);
		free(elf);
		return NULL;
	}
	return elf;
}

char *asm_elf_build_text(const char *dir, const char *name, const char *text,
			 const char *ld_flags)
{
	char file[256], src[4096];

	snprintf(file, sizeof(file), "%s.S", name);
	snprintf(src, sizeof(src), "%s/%s", dir, file);
	if (bt_write_text(dir, file, text)) {
		fprintf(stderr, "asm_elf: cannot write %s\n", src);
		return NULL;
	}
	return asm_elf_build(dir, name, src, ld_flags);
}

int asm_elf_two_builds(const char *dir, char **elf, char **other, char id[41])
{
	*elf = asm_elf_build(dir, "user.elf", ASM_ELF_USER_S,
			     "-static --build-id -Ttext=0x401000 -e _start");
	*other = asm_elf_build(dir, "other.elf", ASM_ELF_USER_S,
			       "-static --build-id -Ttext=0x402000 -e _start");
	if (*elf && *other && !pts_elf_build_id(*elf, id, NULL) && strlen(id) >= 3)
		return 0;
	fprintf(stderr, "asm_elf: no two builds of %s with build-ids\n", ASM_ELF_USER_S);
	return -1;
}

void asm_elf_two_builds_free(char *dir, char *elf, char *other)
{
	if (dir)
		bt_rmtree(dir);
	free(dir);
	free(elf);
	free(other);
}
