// SPDX-License-Identifier: GPL-2.0
/*
 * bench-gen: a deterministic synthetic Intel PT trace of a chosen size,
 * for the benchmark (docs/performance.md). It walks a real code image
 * (tools/bench/workload.S, linked static) instruction by instruction:
 * each instruction is classified from its bytes (ptsynth_classify,
 * Zydis), conditional branches are decided by a seeded xorshift
 * generator, indirect branches take a target listed for that site in the
 * image's .benchmeta section, calls push and returns pop a model stack,
 * SYSCALL leaves the traced ring for a while, and a timer interrupt
 * arrives every --irq-every instructions. The retired instructions go
 * to ptsynth's encoder (user scope, its default RTIT_CTL), which writes
 * the packets with libipt's pt_enc_next. A synthetic stream: never a
 * hardware result.
 *
 *   bench-gen --elf FILE --size BYTES -o OUT.pt [--seed N] [--irq-every N] [--cyc]
 *
 * --cyc records with cycle-accurate timing (RTIT_CTL.CYCEn, ptsynth's
 * cyc_en): a CYC before each TNT, TIP and FUP, the trace the parallel
 * decode leaves to its calling thread (docs/decode.md).
 *
 * Prints one line of key=value results on stdout: bytes, insns,
 * seconds (CPU time of the encoding loop, without writing the file),
 * and the generation rates.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ptsynth_enc.h"
#include "ptsynth_iclass.h"

/* Cycle costs (TSC ticks) of the time model: one per instruction, extra
 * for taken branches, a syscall's and an interrupt's time in the kernel. */
#define COST_INSN	1
#define COST_TAKEN	2
#define COST_SYSCALL	600
#define COST_IRQ	3000
#define STACK_MAX	4096
#define KERNEL_HANDLER	0xffffffff81a00000ull	/* where the model's interrupt goes */

struct site {
	uint64_t ip;
	size_t first, count;	/* range in targets[] */
};

struct image {
	uint64_t base, size, entry;
	uint8_t *text;
	struct ptsynth_decoded *dec;	/* by offset; size 0 = not an instruction start */
	bool *rare;			/* by offset: a rarely taken conditional branch */
	struct site *sites;
	size_t nr_sites;
	uint64_t *targets;
	size_t nr_targets;
};

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "bench-gen: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static int cmp_site(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/* The image's executable .text, its .benchmeta records, and every
 * instruction of .text classified by a linear sweep (the workload has no
 * data in .text). */
static void load_image(struct image *im, const char *path)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	size_t shstrndx;
	uint64_t *meta = NULL;
	size_t nmeta = 0;
	Elf *elf;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("cannot open %s", path);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || !gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx))
		die("%s: not an ELF file (make builds it from tools/bench/workload.S)", path);
	im->entry = eh.e_entry;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		gelf_getshdr(scn, &sh);
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			continue;
		d = elf_getdata(scn, NULL);
		if (!strcmp(name, ".text") && d) {
			im->base = sh.sh_addr;
			im->size = d->d_size;
			im->text = malloc(d->d_size);
			if (!im->text)
				die("%s", "out of memory");
			memcpy(im->text, d->d_buf, d->d_size);
		} else if (!strcmp(name, ".benchmeta") && d) {
			nmeta = d->d_size / 24;
			meta = malloc(d->d_size);
			if (!meta)
				die("%s", "out of memory");
			memcpy(meta, d->d_buf, nmeta * 24);
		}
	}
	elf_end(elf);
	close(fd);
	if (!im->text || !meta)
		die("%s: no .text or no .benchmeta section (not the benchmark workload)", path);

	im->dec = calloc(im->size, sizeof(*im->dec));
	im->rare = calloc(im->size, sizeof(*im->rare));
	im->sites = calloc(nmeta, sizeof(*im->sites));
	im->targets = calloc(nmeta, sizeof(*im->targets));
	if (!im->dec || !im->rare || !im->sites || !im->targets)
		die("%s", "out of memory");
	for (uint64_t off = 0; off < im->size;) {
		struct ptsynth_decoded d;
		size_t len = im->size - off < 15 ? im->size - off : 15;

		if (ptsynth_classify(im->base + off, im->text + off, len, &d))
			die("%s: undecodable bytes in .text", path);
		im->dec[off] = d;
		off += d.size;
	}
	/* Records of one site are adjacent (the ITARGET macros follow the
	 * branch); sort sites by IP for the binary search. */
	for (size_t i = 0; i < nmeta; i++) {
		uint64_t kind = meta[3 * i], ip = meta[3 * i + 1], tgt = meta[3 * i + 2];

		if (ip < im->base || ip >= im->base + im->size || !im->dec[ip - im->base].size)
			die("%s: .benchmeta names an address that is not an instruction", path);
		if (kind == 2) {
			im->rare[ip - im->base] = true;
			continue;
		}
		if (!im->nr_sites || im->sites[im->nr_sites - 1].ip != ip)
			im->sites[im->nr_sites++] = (struct site){ ip, im->nr_targets, 0 };
		im->sites[im->nr_sites - 1].count++;
		im->targets[im->nr_targets++] = tgt;
	}
	qsort(im->sites, im->nr_sites, sizeof(*im->sites), cmp_site);
	free(meta);
}

static const struct site *find_site(const struct image *im, uint64_t ip)
{
	size_t lo = 0, hi = im->nr_sites;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (im->sites[mid].ip == ip)
			return &im->sites[mid];
		if (im->sites[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
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
		{ "elf", required_argument, 0, 'e' }, { "size", required_argument, 0, 's' },
		{ "seed", required_argument, 0, 'r' }, { "irq-every", required_argument, 0, 'i' },
		{ "output", required_argument, 0, 'o' }, { "cyc", no_argument, 0, 'c' },
		{ 0, 0, 0, 0 },
	};
	static const char usage[] = "usage: bench-gen --elf FILE --size BYTES -o OUT.pt "
				    "[--seed N] [--irq-every N] [--cyc]\n";
	const char *elf = NULL, *out = NULL;
	uint64_t size = 0, seed = 1, irq_every = 2000000;
	bool cyc = false;
	uint64_t stack[STACK_MAX];
	size_t sp = 0, len = 0;
	struct ptsynth_config cfg;
	struct ptsynth_enc *enc;
	struct image im = { 0 };
	uint64_t ip, tsc = 1000, insns = 0;
	bool in_kernel = false;
	const uint8_t *data;
	double t0, t1;
	FILE *f;
	int c;

	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (c) {
		case 'e': elf = optarg; break;
		case 's': size = strtoull(optarg, NULL, 0); break;
		case 'r': seed = strtoull(optarg, NULL, 0) | 1; break;
		case 'i': irq_every = strtoull(optarg, NULL, 0); break;
		case 'o': out = optarg; break;
		case 'c': cyc = true; break;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (!elf || !out || !size) {
		fputs(usage, stderr);
		return 2;
	}
	load_image(&im, elf);
	ptsynth_config_default(&cfg);
	cfg.cyc_en = cyc;
	enc = ptsynth_enc_new(&cfg, NULL, NULL);
	if (!enc)
		die("ptsynth_enc_new: %s", strerror(errno));

	t0 = cpu_seconds();
	ip = im.entry;
	while (len < size) {
		const struct ptsynth_decoded *d;
		struct ptsynth_insn in;
		uint64_t next;
		bool far = false;
		int e;

		if (ip < im.base || ip >= im.base + im.size || !im.dec[ip - im.base].size)
			die("%s: walked off the instructions (workload bug)", elf);
		d = &im.dec[ip - im.base];
		switch (d->iclass) {
		case PTSYNTH_IC_JCC: {
			uint64_t r = xorshift(&seed);
			bool taken;

			if (im.rare[ip - im.base])
				taken = (r & 255) == 0;
			else if (d->target <= ip)
				taken = (r & 7) != 0;	/* loops: 8 iterations on average */
			else
				taken = r & 1;
			next = taken ? d->target : ip + d->size;
			break;
		}
		case PTSYNTH_IC_JMP_DIRECT:
			next = d->target;
			break;
		case PTSYNTH_IC_CALL_DIRECT:
		case PTSYNTH_IC_CALL_INDIRECT:
		case PTSYNTH_IC_JMP_INDIRECT:
			if (d->iclass != PTSYNTH_IC_JMP_INDIRECT) {
				if (sp == STACK_MAX)
					die("%s: call stack overflow (workload recursion?)", elf);
				stack[sp++] = ip + d->size;
			}
			if (d->iclass == PTSYNTH_IC_CALL_DIRECT) {
				next = d->target;
			} else {
				const struct site *s = find_site(&im, ip);

				if (!s)
					die("%s: indirect branch without .benchmeta targets", elf);
				next = im.targets[s->first + xorshift(&seed) % s->count];
			}
			break;
		case PTSYNTH_IC_RET:
			if (!sp)
				die("%s: return with an empty stack (workload bug)", elf);
			next = stack[--sp];
			break;
		case PTSYNTH_IC_FAR:
			/* SYSCALL: to the kernel, back at the next instruction */
			next = ip + d->size;
			far = true;
			break;
		default:
			next = ip + d->size;
			break;
		}
		if (in_kernel) {
			e = ptsynth_enc_advance(enc, tsc);
			if (e)
				die("encoder: %s", strerror(-e));
			in_kernel = false;
		}
		in = (struct ptsynth_insn){
			.ip = ip, .next_ip = next, .tsc = tsc, .iclass = d->iclass,
			.size = d->size, .ring = 3, .next_ring = far ? 0 : 3,
		};
		e = ptsynth_enc_insn(enc, &in);
		if (e)
			die("encoder: %s", strerror(-e));
		insns++;
		tsc += COST_INSN + (next != ip + d->size ? COST_TAKEN : 0);
		if (far) {
			tsc += COST_SYSCALL;
			in_kernel = true;
		} else if (irq_every && insns % irq_every == 0) {
			/* timer interrupt before `next` retires: FUP + TIP.PGD, later TIP.PGE */
			e = ptsynth_enc_async(enc, next, KERNEL_HANDLER, 0, tsc);
			if (e)
				die("encoder: %s", strerror(-e));
			tsc += COST_IRQ;
			in_kernel = true;
		}
		ip = next;
		if ((insns & 1023) == 0)
			ptsynth_enc_data(enc, &len);
	}
	if (ptsynth_enc_finish(enc, tsc))
		die("%s", "encoder: finish failed");
	t1 = cpu_seconds();
	data = ptsynth_enc_data(enc, &len);

	f = fopen(out, "w");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		die("cannot write %s", out);
	printf("bytes=%zu insns=%" PRIu64 " seconds=%.3f mb_per_s=%.2f minsn_per_s=%.2f\n",
	       len, insns, t1 - t0, len / 1e6 / (t1 - t0), insns / 1e6 / (t1 - t0));
	ptsynth_enc_free(enc);
	return 0;
}
