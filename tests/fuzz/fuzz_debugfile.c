// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness: where the names of a stripped binary are found
 * (pts_debug_file: --sysroot, .gnu_debuglink, perf's build-id cache,
 * decode/symtab.h), and what a file given as an input is
 * (util/file_magic.h; ptscope decode refusing a file of another kind).
 * The input: an option byte, the binary, SEP_DEBUG, a debug file (absent:
 * the binary again). The binary is SYSROOT/usr/bin/prog; the option bits
 * put the debug file at the places the lookup tries:
 *   0: SYSROOT/usr/lib/debug/.build-id/xx/rest.debug (the binary's id)
 *   1: SYSROOT/usr/bin/prog.debug (the seeds' .gnu_debuglink name)
 *   2: SYSROOT/usr/lib/debug/usr/bin/prog.debug
 *   3: CACHE/.build-id/xx/rest/debug
 *   4: CACHE/usr/bin/prog/BUILDID/elf
 * 5: look with --sysroot SYSROOT (else none: this host's paths, read
 * only); 6: the original path /usr/bin/prog is given; 7: look in CACHE.
 * A file found must have the binary's build-id when it has one, and
 * always when it came from the cache (perf's rule, symsrc__init); its
 * symbols are then loaded. Each part is also given to ptscope decode's
 * checks of its inputs as a bundle, --pt and --perf-script: a refusal
 * must say why.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "capture/elfinfo.h"
#include "decode/buildid_cache.h"
#include "decode/symtab.h"
#include "session/decode_options.h"
#include "util/file_magic.h"

#define SEP_DEBUG "\n@@ptscope-fuzz debug@@\n"
#define NR_PLACES 5

static char sysroot[512], cache[512], placed[NR_PLACES][1024];

/* path's directories made (a debug file's place). */
static void mkdirs(char *path)
{
	char *p;

	for (p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			abort();
		*p = '/';
	}
}

static void write_at(char *path, const uint8_t *data, size_t len)
{
	FILE *f;

	mkdirs(path);
	f = fopen(path, "wb");
	if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f))
		abort();
}

/* The places of bit k for build-id id ("" none: those by build-id are skipped). */
static void place(unsigned int k, const char *id, char *out, size_t len)
{
	out[0] = '\0';
	if ((k == 0 || k == 3 || k == 4) && strlen(id) < 3)
		return;
	switch (k) {
	case 0:
		snprintf(out, len, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", sysroot, id, id + 2);
		break;
	case 1:
		snprintf(out, len, "%s/usr/bin/prog.debug", sysroot);
		break;
	case 2:
		snprintf(out, len, "%s/usr/lib/debug/usr/bin/prog.debug", sysroot);
		break;
	case 3:
		pts_bic_link_path(out, len, cache, id, PTS_BIC_DEBUG);
		break;
	case 4:
		snprintf(out, len, "%s/usr/bin/prog/%s/elf", cache, id);
		break;
	}
}

/* The decode's input checks on path in role ("" a bundle, "--pt", "--perf-script"). */
static void input_checks(const char *role, const char *path)
{
	char *argv[6] = { "decode" };
	struct pts_decode_req *r = malloc(sizeof(*r));
	struct pts_err err = { 0 };
	int argc = 1, rc;

	if (!r)
		abort();
	if (role[0])
		argv[argc++] = (char *)role;
	argv[argc++] = (char *)path;
	argv[argc++] = "-o";
	argv[argc++] = "/dev/null.txt";
	rc = pts_decode_req_parse(argc, argv, 1, r, &err);
	if (!rc)
		rc = pts_decode_req_validate(r, &err);
	if (rc && !err.msg[0]) {
		fprintf(stderr, "fuzz: %s %s refused (%d) without a message\n", role, path, rc);
		abort();
	}
	free(r);
}

static void magic(const char *path)
{
	enum pts_magic m = pts_file_magic(path);

	if (!pts_magic_name(m) || (m != PTS_MAGIC_NONE && !pts_magic_name(m)[0]))
		abort();
	pts_magic_cat(m);
	input_checks("", path);
	input_checks("--pt", path);
	input_checks("--perf-script", path);
}

/* The lookup's answer obeys the build-id rule; its symbols load. */
static void check_found(const char *found, const char *id)
{
	struct pts_symtab st = { 0 };
	char fid[41] = "";

	if (!found)
		return;
	if (pts_elf_build_id(found, fid, NULL))
		fid[0] = '\0';
	if (id[0] && fid[0] && strcmp(fid, id)) {
		fprintf(stderr, "fuzz: %s (build-id %s) taken for a binary of build-id %s\n",
			found, fid, id);
		abort();
	}
	if (!strncmp(found, cache, strlen(cache)) && strcmp(fid, id)) {
		fprintf(stderr, "fuzz: %s from the cache has build-id '%s', not %s\n", found,
			fid, id);
		abort();
	}
	if (!pts_symtab_load_elf(&st, found, NULL))
		pts_symtab_find(&st, 0x401000);
	pts_symtab_free(&st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *bin, *dbg;
	size_t nbin, ndbg;
	char prog[600], id[41] = "", looked[1024];
	char *found, *bic;
	unsigned int k;
	uint8_t opt;

	if (!size)
		return 0;
	opt = data[0];
	fuzz_split(data + 1, size - 1, SEP_DEBUG, 0, &bin, &nbin);
	fuzz_split(data + 1, size - 1, SEP_DEBUG, 1, &dbg, &ndbg);
	if (!memmem(data + 1, size - 1, SEP_DEBUG, strlen(SEP_DEBUG))) {
		dbg = bin;
		ndbg = nbin;
	}
	if (!sysroot[0]) {
		snprintf(sysroot, sizeof(sysroot), "%s/sysroot", fuzz_dir());
		snprintf(cache, sizeof(cache), "%s/cache", fuzz_dir());
		if (mkdir(sysroot, 0755) || mkdir(cache, 0755))
			abort();
	}
	snprintf(prog, sizeof(prog), "%s/usr/bin/prog", sysroot);
	write_at(prog, bin, nbin);
	if (pts_elf_build_id(prog, id, NULL))
		id[0] = '\0';
	for (k = 0; k < NR_PLACES; k++) {
		place(k, id, placed[k], sizeof(placed[k]));
		if (placed[k][0] && (opt & (1u << k)))
			write_at(placed[k], dbg, ndbg);
	}
	found = pts_debug_file(prog, (opt & 0x40) ? "/usr/bin/prog" : NULL,
			       (opt & 0x20) ? sysroot : NULL, (opt & 0x80) ? cache : NULL,
			       looked, sizeof(looked));
	if (strnlen(looked, sizeof(looked)) == sizeof(looked))
		abort();
	check_found(found, id);
	free(found);
	for (k = PTS_BIC_ELF; k <= PTS_BIC_DEBUG; k++) {
		bic = pts_bic_find(cache, id, "/usr/bin/prog", (enum pts_bic_kind)k, k == PTS_BIC_ELF);
		check_found(bic, id);
		if (bic && strncmp(bic, cache, strlen(cache)))
			abort();
		free(bic);
	}
	magic(prog);
	for (k = 0; k < NR_PLACES; k++)
		if (placed[k][0] && (opt & (1u << k)))
			magic(placed[k]);
	for (k = 0; k < NR_PLACES; k++)
		if (placed[k][0])
			unlink(placed[k]);
	return 0;
}
