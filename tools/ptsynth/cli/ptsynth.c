// SPDX-License-Identifier: GPL-2.0
/*
 * ptsynth: the reference Intel PT encoder. It runs a program under
 * ptrace single-step and writes the trace an Intel PT unit would have
 * written for that execution, with the executed instructions as ground
 * truth. Not hardware: the bundle's source says "reference-encoder".
 *
 *   ptsynth run [options] -o NAME.ptscope -- CMD [ARGS...]
 *   ptsynth check [--insn-list FILE] NAME.ptscope
 *   ptsynth check --pt FILE --image FILE:VADDR:PGOFF:SIZE... --insn-list FILE
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bundle/bundle.h"
#include "bundle/sideband.h"
#include "ptsynth_check.h"
#include "ptsynth_cpu.h"
#include "ptsynth_list.h"
#include "run.h"
#include "util/version.h"

static void usage(FILE *f)
{
	fputs("Usage: ptsynth run [options] -o NAME.ptscope -- CMD [ARGS...]\n"
	      "  or:  ptsynth check [--insn-list FILE] NAME.ptscope\n"
	      "  or:  ptsynth check --pt FILE --image FILE:VADDR:PGOFF:SIZE [--image ...]\n"
	      "                     [--cpu-model F/M/S] --insn-list FILE\n"
	      "  or:  ptsynth --version\n"
	      "\n"
	      "The reference Intel PT encoder: the trace a PT unit would have written for\n"
	      "a real execution, with its ground truth (not hardware: its bundles say\n"
	      "\"reference-encoder\").\n"
	      "\n"
	      "Run: single-step CMD with ptrace and write the Intel PT trace a PT unit\n"
	      "would have written (user scope), plus ground-truth.txt.\n"
	      "  -o, --output DIR       bundle directory to create (must not exist)\n"
	      "  --scope user           trace scope (only user: ptrace sees no kernel code)\n"
	      "  --psb-period BYTES     PSB+ every BYTES of trace: 2048 << n, n = 0..15 (default 2048)\n"
	      "  --noretcomp            set DisRETC: every RET gets a TIP\n"
	      "  --timing LIST          comma list of tsc, mtc, cyc, or none (default tsc,mtc)\n"
	      "  --mtc-period N         MTCFreq encoding, MTC every 2^N crystal ticks (default 3)\n"
	      "  --long-tnt             gather up to 47 branches per TNT (long TNT packets)\n"
	      "  --wrap SIZE            snapshot ring of SIZE bytes (K/M suffix): keep the last SIZE\n"
	      "  --ovf-every N          inject an internal-buffer overflow every N instructions\n"
	      "  --ovf-lost N           instructions lost per overflow (default 16)\n"
	      "  --max-insns N          stop tracing after N instructions (the command runs on)\n"
	      "  --stop-full            with --max-insns: the trace ends there as a full ToPA\n"
	      "                         STOP region ends it, without a disable (no TIP.PGD)\n"
	      "  --trigger-at ADDR      a uprobe trigger at user address ADDR (hex): the first\n"
	      "                         thread to reach it traps there and the trace ends\n"
	      "                         (reason uprobe, that thread's tid); non-PIE or --no-aslr\n"
	      "  --trim-objects         zero pages of copied binaries that never executed\n"
	      "  --no-pin               do not pin ptsynth and the command to one CPU\n"
	      "  --no-aslr              run CMD without address randomisation (stable addresses)\n"
	      "  --follow-exec          when CMD execs, trace the new program from its start\n"
	      "                         (else tracing stops at the exec)\n"
	      "  --syscalls             sideband SYS_ENTER/SYS_EXIT records of every syscall, as\n"
	      "                         ptscope record --syscalls writes them\n"
	      "  -q, --quiet            no summary\n"
	      "  -h, --help             show this help\n"
	      "\n"
	      "Check: decode NAME.ptscope/cpu0.pt with libipt's instruction decoder and compare\n"
	      "with NAME.ptscope/ground-truth.txt; exit 0 when every record matches.\n"
	      "  --insn-list FILE       also write every instruction libipt's decoder reports\n"
	      "                         (hex IP, one a line, as ptscope decode --insn-list)\n"
	      "  --pt FILE              a raw stream instead of a bundle: list only (no ground\n"
	      "                         truth); code from --image (FILE bytes from PGOFF, SIZE\n"
	      "                         of them, at VADDR), errata of --cpu-model (default the\n"
	      "                         modelled 6/85/4)\n"
	      "  --image FILE:VADDR:PGOFF:SIZE\n"
	      "                         code of the --pt stream: SIZE bytes of FILE from PGOFF\n"
	      "                         at VADDR (repeatable, up to 64)\n"
	      "  --cpu-model F/M/S      recording CPU whose errata libipt works around\n"
	      "\n"
	      "Exit status: 0 done (check: every record matches), 1 failure or a mismatch,\n"
	      "2 bad usage.\n", f);
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	if (*end == 'K' || *end == 'k')
		*v <<= 10, end++;
	else if (*end == 'M' || *end == 'm')
		*v <<= 20, end++;
	return *end ? -1 : 0;
}

static int check_bundle(const char *dir, FILE *list)
{
	struct ptsynth_check_result res;
	struct pts_err err = { 0 };
	struct pts_bundle *b = NULL;
	char *pt, *gt;
	int rc;

	/* The manifest must read back: every file present with its size. */
	rc = pts_bundle_read(dir, &b, &err);
	if (rc) {
		fprintf(stderr, "ptsynth check: %s\n", err.msg);
		return 1;
	}
	if (b->source != PTS_SOURCE_REFERENCE_ENCODER || b->nr_cpus != 1 ||
	    !b->ground_truth_file) {
		fprintf(stderr, "ptsynth check: %s: not a ptsynth bundle (source %s, %zu CPUs, %s)\n",
			dir, pts_source_name(b->source), b->nr_cpus,
			b->ground_truth_file ? "ground truth" : "no ground truth");
		pts_bundle_free(b);
		return 1;
	}
	/* The sideband must read back record by record, time never going back. */
	{
		struct pts_sb_reader rd;
		const struct ptscope_sb_hdr *h;
		uint64_t last = 0, n = 0;

		rc = pts_sb_reader_open(&rd, b, &err);
		if (!rc && !b->sideband_file)
			rc = pts_err_set(&err, ENOENT, "no sideband");
		while (!rc && (rc = pts_sb_next(&rd, &h, &err)) == 1) {
			if (h->tsc < last) {
				rc = pts_err_set(&err, EINVAL, "sideband record %" PRIu64
						 " goes back in time", n);
				break;
			}
			last = h->tsc;
			n++;
			rc = 0;
		}
		pts_sb_reader_close(&rd);
		if (rc) {
			fprintf(stderr, "ptsynth check: %s: sideband: %s\n", dir, err.msg);
			pts_bundle_free(b);
			return 1;
		}
	}
	pt = pts_bundle_path(b, b->cpus[0].file);
	gt = pts_bundle_path(b, b->ground_truth_file);
	rc = pt && gt ? ptsynth_check_files(pt, gt, dir, list, &res, &err)
		      : pts_err_set(&err, ENOMEM, "out of memory");
	free(pt);
	free(gt);
	pts_bundle_free(b);
	if (rc) {
		fprintf(stderr, "ptsynth check: %s: MISMATCH: %s\n", dir, err.msg);
		return 1;
	}
	printf("ptsynth check: %s: OK: %" PRIu64 " instructions and %" PRIu64
	       " enable/disable/async/overflow events match the ground truth"
	       " (%" PRIu64 " records before the first PSB skipped)",
	       dir, res.insns, res.events, res.skipped);
	if (res.walked)
		printf("; the trace ends while enabled: libipt walked on %" PRIu64
		       " instruction%s, %" PRIu64 " in all",
		       res.walked, res.walked == 1 ? "" : "s", res.insns + res.walked);
	printf("\n");
	return 0;
}

/* FILE:VADDR:PGOFF:SIZE, numbers in C notation (0x for hex). */
static int add_image_arg(struct pt_image_section_cache *isc, struct pt_image *image,
			 char *arg, struct pts_err *err)
{
	char *f[4], *save = NULL, *tok;
	uint64_t v[3];
	int n = 0;

	for (tok = strtok_r(arg, ":", &save); tok && n < 4; tok = strtok_r(NULL, ":", &save))
		f[n++] = tok;
	if (n != 4 || tok || parse_u64(f[1], &v[0]) || parse_u64(f[2], &v[1]) ||
	    parse_u64(f[3], &v[2]) || !v[2])
		return pts_err_set(err, EINVAL, "--image wants FILE:VADDR:PGOFF:SIZE "
				   "(e.g. hello:0x401000:0x1000:0x27)");
	return ptsynth_image_add(isc, image, f[0], v[1], v[2], v[0], err);
}

/* Raw stream + images: list libipt's instruction flow, nothing to compare. */
static int list_raw(const char *pt_path, char **images, int nr_images,
		    const struct pt_cpu *cpu, FILE *list)
{
	struct pt_image_section_cache *isc = pt_iscache_alloc(NULL);
	struct pt_image *image = pt_image_alloc(NULL);
	struct ptsynth_list_result res;
	struct pts_err err = { 0 };
	uint8_t *pt = NULL;
	size_t len = 0;
	int i, rc = 0;

	if (!isc || !image)
		rc = pts_err_set(&err, ENOMEM, "out of memory");
	for (i = 0; i < nr_images && !rc; i++)
		rc = add_image_arg(isc, image, images[i], &err);
	if (!rc)
		rc = ptsynth_read_file(pt_path, &pt, &len, &err);
	if (!rc)
		rc = ptsynth_list_stream(pt, len, image, cpu, list, &res, &err);
	free(pt);
	pt_image_free(image);
	pt_iscache_free(isc);
	if (rc) {
		fprintf(stderr, "ptsynth check: %s: %s\n", pt_path, err.msg);
		return 1;
	}
	printf("ptsynth check: %s: libipt listed %" PRIu64 " instructions (%" PRIu64
	       " decode errors, %" PRIu64 " synchronisations)\n", pt_path, res.insns, res.errors,
	       res.syncs);
	return 0;
}

static int cmd_check(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "insn-list", required_argument, 0, 'l' },
		{ "pt", required_argument, 0, 'p' },
		{ "image", required_argument, 0, 'i' },
		{ "cpu-model", required_argument, 0, 'c' },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	struct pt_cpu cpu = { .vendor = pcv_intel, .family = PTSYNTH_CPU_FAMILY,
			      .model = PTSYNTH_CPU_MODEL, .stepping = PTSYNTH_CPU_STEPPING };
	const char *list_path = NULL, *pt_path = NULL;
	char *images[64];
	int nr_images = 0, c, rc;
	unsigned int fam, mod, step;
	FILE *list = NULL;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+", lo, NULL)) != -1) {
		switch (c) {
		case 'l':
			list_path = optarg;
			break;
		case 'p':
			pt_path = optarg;
			break;
		case 'i':
			if (nr_images == (int)(sizeof(images) / sizeof(images[0]))) {
				fprintf(stderr, "ptsynth check: at most 64 --image\n");
				return 2;
			}
			images[nr_images++] = optarg;
			break;
		case 'c':
			if (sscanf(optarg, "%u/%u/%u", &fam, &mod, &step) != 3) {
				fprintf(stderr, "ptsynth check: --cpu-model wants F/M/S (6/85/4)\n");
				return 2;
			}
			cpu.family = (uint16_t)fam;
			cpu.model = (uint8_t)mod;
			cpu.stepping = (uint8_t)step;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (pt_path ? (optind != argc || !list_path || !nr_images)
		    : (optind != argc - 1 || nr_images)) {
		usage(stderr);
		return 2;
	}
	if (list_path) {
		list = fopen(list_path, "w");
		if (!list) {
			fprintf(stderr, "ptsynth check: cannot create %s: %s\n", list_path,
				strerror(errno));
			return 1;
		}
	}
	rc = pt_path ? list_raw(pt_path, images, nr_images, &cpu, list)
		     : check_bundle(argv[optind], list);
	if (list && fclose(list) && !rc) {
		fprintf(stderr, "ptsynth check: writing %s: %s\n", list_path, strerror(errno));
		rc = 1;
	}
	return rc;
}

enum { O_SCOPE = 256, O_PSB, O_NORETC, O_TIMING, O_MTC, O_LONGTNT, O_WRAP, O_OVF, O_OVFLOST,
       O_MAX, O_STOPFULL, O_TRIGAT, O_TRIM, O_NOPIN, O_NOASLR, O_FOLLOWEXEC, O_SYSCALLS };

/* What a run option with a bad value takes (the option is named by the caller). */
static const char *bad_value_hint(int opt)
{
	switch (opt) {
	case O_WRAP:
		return "give the ring size in bytes, at least 4096 (4K), e.g. 64K";
	case O_OVF:
		return "give a number of packets above 0, e.g. 5000";
	case O_OVFLOST:
		return "give a number of packets from 1 to 4294967295";
	case O_MAX:
		return "give a number of instructions, e.g. 100000 or 1M";
	case O_PSB:
		return "give a byte count from 2K to 64K, a power of two";
	}
	return "see ptsynth --help";
}

static int cmd_run(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, 0, 'o' },
		{ "quiet", no_argument, 0, 'q' },
		{ "scope", required_argument, 0, O_SCOPE },
		{ "psb-period", required_argument, 0, O_PSB },
		{ "noretcomp", no_argument, 0, O_NORETC },
		{ "timing", required_argument, 0, O_TIMING },
		{ "mtc-period", required_argument, 0, O_MTC },
		{ "long-tnt", no_argument, 0, O_LONGTNT },
		{ "wrap", required_argument, 0, O_WRAP },
		{ "ovf-every", required_argument, 0, O_OVF },
		{ "ovf-lost", required_argument, 0, O_OVFLOST },
		{ "max-insns", required_argument, 0, O_MAX },
		{ "stop-full", no_argument, 0, O_STOPFULL },
		{ "trigger-at", required_argument, 0, O_TRIGAT },
		{ "trim-objects", no_argument, 0, O_TRIM },
		{ "no-pin", no_argument, 0, O_NOPIN },
		{ "no-aslr", no_argument, 0, O_NOASLR },
		{ "follow-exec", no_argument, 0, O_FOLLOWEXEC },
		{ "syscalls", no_argument, 0, O_SYSCALLS },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	struct run_opts o;
	struct run_summary sum;
	struct pts_err err = { 0 };
	uint64_t v;
	int c, rc, idx = 0;

	memset(&o, 0, sizeof(o));
	ptsynth_config_default(&o.cfg);
	o.cfg.ovf_lost = 16;
	o.pin_cpu = true;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:qh", lo, &idx)) != -1) {
		switch (c) {
		case 'o':
			o.out = optarg;
			break;
		case 'q':
			o.quiet = true;
			break;
		case O_SCOPE:
			if (strcmp(optarg, "user")) {
				fprintf(stderr, "ptsynth: --scope %s: only 'user' can be produced "
					"(ptrace does not see kernel instructions)\n", optarg);
				return 2;
			}
			break;
		case O_PSB: {
			unsigned int n;

			if (parse_u64(optarg, &v))
				goto bad;
			for (n = 0; n <= 15 && (2048ULL << n) != v; n++)
				;
			if (!ptsynth_cpu_allows(PTSYNTH_CPU_PSB_PERIODS, n, true)) {
				fprintf(stderr, "ptsynth: --psb-period %s: the modelled CPU allows "
					"2048 << n bytes, n = 0..5, i.e. 2K to 64K "
					"(CPUID.14H.1:EBX[31:16] = 0x3f)\n", optarg);
				return 2;
			}
			o.cfg.psb_freq = n;
			break;
		}
		case O_NORETC:
			o.cfg.disretc = true;
			break;
		case O_TIMING: {
			char *s = strdup(optarg), *tok, *save = NULL;

			o.cfg.tsc_en = o.cfg.mtc_en = o.cfg.cyc_en = false;
			for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				if (!strcmp(tok, "tsc"))
					o.cfg.tsc_en = true;
				else if (!strcmp(tok, "mtc"))
					o.cfg.mtc_en = true;
				else if (!strcmp(tok, "cyc"))
					o.cfg.cyc_en = true;
				else if (strcmp(tok, "none")) {
					fprintf(stderr, "ptsynth: --timing: unknown '%s' "
						"(use tsc, mtc, cyc or none)\n", tok);
					free(s);
					return 2;
				}
			}
			free(s);
			break;
		}
		case O_MTC:
			if (parse_u64(optarg, &v) ||
			    !ptsynth_cpu_allows(PTSYNTH_CPU_MTC_PERIODS, (unsigned int)v, false)) {
				fprintf(stderr, "ptsynth: --mtc-period %s: the modelled CPU allows "
					"0, 3, 6 or 9 (CPUID.14H.1:EAX[31:16] = 0x249)\n", optarg);
				return 2;
			}
			o.cfg.mtc_freq = (unsigned int)v;
			break;
		case O_LONGTNT:
			o.cfg.long_tnt = true;
			break;
		case O_WRAP:
			if (parse_u64(optarg, &v) || v < 4096)
				goto bad;
			o.wrap_size = v;
			break;
		case O_OVF:
			if (parse_u64(optarg, &v) || !v)
				goto bad;
			o.cfg.ovf_every = v;
			break;
		case O_OVFLOST:
			if (parse_u64(optarg, &v) || !v || v > UINT32_MAX)
				goto bad;
			o.cfg.ovf_lost = (uint32_t)v;
			break;
		case O_MAX:
			if (parse_u64(optarg, &v))
				goto bad;
			o.max_insns = v;
			break;
		case O_STOPFULL:
			o.stop_full = true;
			break;
		case O_TRIGAT: {
			char *end;

			errno = 0;
			o.trigger_at = strtoull(optarg, &end, 16);
			if (errno || *end || !o.trigger_at)
				goto bad;
			break;
		}
		case O_TRIM:
			o.trim_objects = true;
			break;
		case O_NOPIN:
			o.pin_cpu = false;
			break;
		case O_NOASLR:
			o.no_aslr = true;
			break;
		case O_FOLLOWEXEC:
			o.follow_exec = true;
			break;
		case O_SYSCALLS:
			o.syscalls = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!o.out || optind >= argc) {
		fprintf(stderr, "ptsynth run: need -o NAME.ptscope and a command after --\n");
		usage(stderr);
		return 2;
	}
	if (o.stop_full && !o.max_insns) {
		fprintf(stderr, "ptsynth run: --stop-full needs --max-insns N (where the trace ends)\n");
		return 2;
	}
	o.argv = argv + optind;
	/*
	 * A long run says how far it is, once a second on a terminal;
	 * PTSYNTH_PROGRESS=SECONDS asks for it anywhere, that often (0: at
	 * every check, for tests).
	 */
	o.progress_every_s = 1.0;
	if (getenv("PTSYNTH_PROGRESS"))
		o.progress_every_s = strtod(getenv("PTSYNTH_PROGRESS"), NULL);
	if (!o.quiet && (isatty(STDERR_FILENO) || getenv("PTSYNTH_PROGRESS")))
		o.progress = stderr;
	rc = ptsynth_run(&o, &sum, &err);
	if (rc) {
		fprintf(stderr, "ptsynth: %s\n", err.msg);
		return 1;
	}
	if (!o.quiet) {
		fprintf(stderr, "ptsynth: %s: %" PRIu64 " instructions (%" PRIu64 " syscalls, %"
			PRIu64 " signals, %" PRIu64 " context switches) in %.2f s: %.0f "
			"instructions/s%s%s\n",
			o.out, sum.insns, sum.syscalls, sum.signals, sum.switches, sum.seconds,
			sum.seconds > 0 ? sum.insns / sum.seconds : 0.0,
			sum.exec_stopped ? "; stopped at exec (not covered)" : "",
			sum.limit_stopped ? "; stopped at --max-insns" :
			sum.trigger_hit ? "; stopped at --trigger-at" : "");
		if (!sum.exited)
			fprintf(stderr, "ptsynth: %s: exit status unknown\n", o.argv[0]);
		else if (WIFEXITED(sum.exit_status))
			fprintf(stderr, "ptsynth: %s exited with status %d\n", o.argv[0],
				WEXITSTATUS(sum.exit_status));
		else if (WIFSIGNALED(sum.exit_status))
			fprintf(stderr, "ptsynth: %s killed by signal %d\n", o.argv[0],
				WTERMSIG(sum.exit_status));
	}
	return 0;
bad:
	fprintf(stderr, "ptsynth: --%s: bad value '%s'; %s\n", lo[idx].name, optarg,
		bad_value_hint(lo[idx].val));
	return 2;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("ptsynth %s\n", PTS_VERSION);	/* its bundles' "producer" */
		return 0;
	}
	fprintf(stderr, "ptsynth: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
