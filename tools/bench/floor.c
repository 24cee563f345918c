// SPDX-License-Identifier: GPL-2.0
/*
 * bench-floor: the fastest decode libipt allows over a trace, the floor
 * `ptscope decode` is measured against (docs/performance.md). A bare
 * block-decoder loop: pt_blk_sync_forward, pt_blk_next, events drained
 * with pt_blk_event, resync at the next PSB after an error; instructions
 * counted from each block's ninsn; no symbols, no timeline, no output.
 * The timing parameters (MTCFreq, nominal ratio, CPUID 0x15) are set as
 * ptscope decode sets them, so libipt tracks time the same way.
 * Images come through the image section cache (pt_iscache_add_file +
 * pt_image_add_cached), as pt-facts §6 asks, so the per-section block
 * cache is on.
 *
 *   bench-floor --pt FILE --elf FILE              raw trace, static ELF image
 *   bench-floor --bundle NAME.ptscope             cpu0.pt of a ptsynth/ptscope bundle
 *   --timeline-flags   the block-decoder flags a call timeline needs, as
 *                      ptscope decode sets them (end_on_call, end_on_jump):
 *                      blocks end at every call and jump, so more, shorter
 *                      blocks (no tick events: ptscope reads the time
 *                      itself, ptdec.c)
 *
 * Prints one line of key=value results: bytes, insns, blocks, events,
 * errors (decode errors resynced over), seconds (CPU time of the loop).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <inttypes.h>
#include <intel-pt.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bundle/bundle.h"
#include "util/err.h"

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "bench-floor: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

/* The executable PT_LOAD segments of a static (non-PIE) ELF, at their
 * link addresses. */
static void add_elf(struct pt_image_section_cache *isc, struct pt_image *img, const char *path,
		    uint64_t bias)
{
	GElf_Ehdr eh;
	size_t n;
	Elf *elf;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("cannot open %s", path);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || !gelf_getehdr(elf, &eh) || elf_getphdrnum(elf, &n))
		die("%s: not an ELF file", path);
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		int isid;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		isid = pt_iscache_add_file(isc, path, ph.p_offset, ph.p_filesz, ph.p_vaddr + bias);
		if (isid < 0 || pt_image_add_cached(img, isc, isid, NULL) < 0)
			die("%s: libipt refused the image section", path);
	}
	elf_end(elf);
	close(fd);
}

/* Every executable file mapping of the bundle's processes (arm and
 * trigger maps: libraries are mapped after exec), from the bundle's
 * copies of the objects, and the vdso bytes. */
static void add_bundle(struct pt_image_section_cache *isc, struct pt_image *img,
		       const struct pts_bundle *b)
{
	char path[4096];

	for (size_t p = 0; p < b->nr_processes; p++) {
		const struct pts_bundle_process *pr = &b->processes[p];

		for (int which = 0; which < 2; which++) {
			const struct pts_bundle_map *maps = which ? pr->maps_trigger : pr->maps_arm;
			size_t nr = which ? pr->nr_maps_trigger : pr->nr_maps_arm;

			for (size_t m = 0; m < nr; m++) {
				const struct pts_bundle_map *mp = &maps[m];
				const char *file = NULL;
				int isid;

				if (mp->perms[2] != 'x' || !mp->path || mp->path[0] != '/')
					continue;
				for (size_t o = 0; o < b->nr_objects; o++)
					if (!strcmp(b->objects[o].path, mp->path) && b->objects[o].file)
						file = b->objects[o].file;
				if (file)
					snprintf(path, sizeof(path), "%s/%s", b->dir, file);
				else
					snprintf(path, sizeof(path), "%s", mp->path);
				isid = pt_iscache_add_file(isc, path, mp->pgoff, mp->end - mp->start,
							   mp->start);
				/* a section past the file's end (bss-like tail) is not code */
				if (isid >= 0)
					pt_image_add_cached(img, isc, isid, NULL);
			}
		}
		if (pr->vdso_file) {
			struct stat st;
			int isid;

			snprintf(path, sizeof(path), "%s/%s", b->dir, pr->vdso_file);
			if (stat(path, &st))
				die("cannot stat %s", path);
			isid = pt_iscache_add_file(isc, path, 0, st.st_size, pr->vdso_addr);
			if (isid >= 0)
				pt_image_add_cached(img, isc, isid, NULL);
		}
	}
}

static uint8_t *read_all(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *buf;
	FILE *f = fopen(path, "r");

	if (!f || fstat(fileno(f), &st))
		die("cannot open %s", path);
	/* libipt 2.0.5 sync may read a byte past a PSB cut at the end
	 * (pt-facts §6): pad */
	buf = calloc(1, st.st_size + 64);
	if (!buf || fread(buf, 1, st.st_size, f) != (size_t)st.st_size)
		die("cannot read %s", path);
	fclose(f);
	*len = st.st_size;
	return buf;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pt", required_argument, 0, 'p' }, { "elf", required_argument, 0, 'e' },
		{ "bundle", required_argument, 0, 'b' },
		{ "timeline-flags", no_argument, 0, 't' }, { 0, 0, 0, 0 },
	};
	const char *pt = NULL, *elf = NULL, *bundle = NULL;
	uint64_t insns = 0, blocks = 0, events = 0, errors = 0;
	struct pt_image_section_cache *isc;
	struct pts_bundle *b = NULL;
	struct pt_block_decoder *dec;
	struct pt_config cfg;
	char ptpath[4096];
	size_t len;
	uint8_t *buf;
	double t0, t1;
	int c, status;
	bool tl_flags = false;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'p': pt = optarg; break;
		case 'e': elf = optarg; break;
		case 'b': bundle = optarg; break;
		case 't': tl_flags = true; break;
		default:
			fputs("usage: bench-floor [--timeline-flags] --pt FILE --elf FILE | --bundle NAME.ptscope\n",
		      stderr);
			return 2;
		}
	}
	if (!bundle == !(pt && elf)) {
		fputs("usage: bench-floor [--timeline-flags] --pt FILE --elf FILE | --bundle NAME.ptscope\n",
		      stderr);
		return 2;
	}

	pt_config_init(&cfg);
	if (bundle) {
		struct pts_err err = { 0 };

		if (pts_bundle_read(bundle, &b, &err))
			die("%s", err.msg);
		if (b->nr_cpus < 1)
			die("%s: no CPU trace", bundle);
		snprintf(ptpath, sizeof(ptpath), "%s/%s", b->dir, b->cpus[0].file);
		pt = ptpath;
		cfg.cpu.vendor = pcv_intel;
		cfg.cpu.family = b->cpu_id.family;
		cfg.cpu.model = b->cpu_id.model;
		cfg.cpu.stepping = b->cpu_id.stepping;
		cfg.mtc_freq = (uint8_t)pts_bundle_mtc_freq(b);
		cfg.nom_freq = (uint8_t)b->cpu_id.nom_freq;
		cfg.cpuid_0x15_eax = b->cpu_id.cpuid_15[0];
		cfg.cpuid_0x15_ebx = b->cpu_id.cpuid_15[1];
	} else {
		/* the generator's model CPU (tools/ptsynth/lib/ptsynth_cpu.h) */
		cfg.cpu.vendor = pcv_intel;
		cfg.cpu.family = 6;
		cfg.cpu.model = 85;
		cfg.cpu.stepping = 4;
		cfg.mtc_freq = 3;
		cfg.nom_freq = 21;
		cfg.cpuid_0x15_eax = 2;
		cfg.cpuid_0x15_ebx = 168;
	}
	/* -pte_bad_cpu: a model newer than the library, no errata known */
	(void)pt_cpu_errata(&cfg.errata, &cfg.cpu);
	if (tl_flags) {
		cfg.flags.variant.block.end_on_call = 1;
		cfg.flags.variant.block.end_on_jump = 1;
	}
	buf = read_all(pt, &len);
	cfg.begin = buf;
	cfg.end = buf + len;

	t0 = cpu_seconds();
	dec = pt_blk_alloc_decoder(&cfg);
	isc = pt_iscache_alloc(NULL);
	if (!dec || !isc)
		die("%s", "libipt: cannot allocate the decoder");
	if (b)
		add_bundle(isc, pt_blk_get_image(dec), b);
	else
		add_elf(isc, pt_blk_get_image(dec), elf, 0);

	for (;;) {
		status = pt_blk_sync_forward(dec);
		if (status < 0) {
			if (status == -pte_eos)
				break;
			die("sync: %s", pt_errstr(pt_errcode(status)));
		}
		for (;;) {
			struct pt_block block;

			while (status & pts_event_pending) {
				struct pt_event ev;

				status = pt_blk_event(dec, &ev, sizeof(ev));
				if (status < 0)
					break;
				events++;
			}
			if (status < 0)
				break;
			block.ninsn = 0;
			status = pt_blk_next(dec, &block, sizeof(block));
			/* a block may come with an error: count its instructions first */
			insns += block.ninsn;
			blocks += block.ninsn != 0;
			if (status < 0)
				break;
		}
		if (status == -pte_eos)
			break;
		errors++;
	}
	t1 = cpu_seconds();
	printf("bytes=%zu insns=%" PRIu64 " blocks=%" PRIu64 " events=%" PRIu64 " errors=%" PRIu64
	       " seconds=%.3f\n", len, insns, blocks, events, errors, t1 - t0);
	pt_blk_free_decoder(dec);
	pt_iscache_free(isc);
	free(buf);
	pts_bundle_free(b);
	return 0;
}
