// SPDX-License-Identifier: GPL-2.0
/*
 * ptscope decode: traces -> timelines (.fxt, .json, .txt, .folded).
 *
 * Exit status: 0 decoded without gaps; 3 decoded, with gaps (the
 * timeline marks each with its cause; --summary counts them) or from a
 * damaged input of which a part could not be used; 1 error
 * (unreadable input, output not written); 2 usage error (commands.h).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bundle/bundle.h"
#include "bundle/sideband.h"
#include "commands.h"
#include "decode_out.h"
#include "session/session.h"
#include "timeline/select.h"
#include "writer/writer.h"

static void usage(FILE *f)
{
	fputs("Usage: ptscope decode NAME.ptscope -o OUT [--format F] [--summary]\n"
	      "  or:  ptscope decode --pt FILE [--cpu N]... [raw PT options] -o OUT\n"
	      "  or:  ptscope decode --perf-script FILE -o OUT\n"
	      "\n"
	      "Turn a capture bundle, raw PT streams or a perf script listing into one\n"
	      "timeline per thread: .fxt for ui.perfetto.dev, .json, .txt or .folded.\n"
	      "\n"
	      "Output:\n"
	      "  -o, --output FILE       .fxt (Perfetto), .json (Chrome trace), .txt, .folded; - = stdout;\n"
	      "                          FILE.fxt.gz, FILE.json.gz, ...: gzip-compressed\n"
	      "  --format F              fxt|json|txt|folded|null (default: from the -o extension)\n"
	      "  --pid N, --tid N        a bundle: only this process / thread (as perf script)\n"
	      "  --time START..END       only this window of the timeline (ns, us, ms, s; e.g.\n"
	      "                          1ms..2ms, 5000.., ..3us): slices are cut at its edges\n"
	      "  --summary               print instructions, branches, gaps by cause, time per thread\n"
	      "  --insn-list FILE        write every decoded instruction address (hex, one a line)\n"
	      "  -j, --jobs N            decoder threads (default: the online CPUs; 1: no threads);\n"
	      "                          the output is the same for every N\n"
	      "  --chunk-size BYTES      trace bytes per chunk of a parallel decode (default 32768;\n"
	      "                          chunks start at PSBs)\n"
	      "  -h, --help              show this help\n"
	      "\n"
	      "Inputs:\n"
	      "  --sysroot DIR           find mapped files (the sideband's, a bundle's uncopied\n"
	      "                          binaries) and debug files under DIR\n"
	      "  --cpu-model F/M/S       recording CPU, whose errata libipt works around; for a\n"
	      "                          bundle it overrides the manifest's (a model newer than libipt)\n"
	      "\n"
	      "Raw PT (as ptxed):\n"
	      "  --pt FILE               raw trace of one CPU (repeatable)\n"
	      "  --cpu N                 the CPU of the --pt before it (default: 0, 1, ... in order)\n"
	      "  --elf FILE[:BASE]       ELF executable code; BASE: load address of a PIE/shared object\n"
	      "  --raw FILE:OFFSET:VADDR\n"
	      "                          raw code bytes from FILE at OFFSET, mapped at VADDR\n"
	      "  --kcore DIR             kernel text (DIR/kcore, DIR/kallsyms, as perf record --kcore)\n"
	      "  --kallsyms FILE         kernel symbol names\n"
	      "  --scope user|kernel|both  what the trace recorded (default: read from the trace)\n"
	      "  --pid N, --tid N        thread of a trace without sideband (a bundle: a filter)\n"
	      "\n"
	      "Timing (raw PT; a bundle records them):\n"
	      "  --mtc-freq N            MTCFreq the trace was recorded with (RTIT_CTL bits 17:14)\n"
	      "  --nom-freq N            nominal core:bus ratio (MSR_PLATFORM_INFO[15:8])\n"
	      "  --cpuid-15 EAX,EBX      CPUID leaf 15H: TSC / crystal clock ratio (EBX/EAX)\n"
	      "  --tsc-khz N             TSC frequency in kHz, to convert TSC to ns\n"
	      "\n"
	      "Perf sideband (raw PT, as ptxed --pevent):\n"
	      "  --pevent-primary FILE   perf sideband records (repeatable)\n"
	      "  --pevent-secondary FILE\n"
	      "                          the same (ptxed's spelling for other CPUs' records)\n"
	      "  --pevent-sample-type N  perf_event_attr.sample_type of those records (needed)\n"
	      "  --pevent-time-shift N, --pevent-time-mult N, --pevent-time-zero N\n"
	      "                          perf's TSC conversion (perf_event_mmap_page time_*)\n"
	      "\n"
	      "Perf text:\n"
	      "  --perf-script FILE      perf script --itrace=cr -F +flags output\n"
	      "\n"
	      "Exit status: 0 decoded cleanly, 3 decoded with gaps or from a damaged input,\n"
	      "1 error, 2 bad usage.\n", f);
}

enum {
	OPT_PT = 256, OPT_CPU, OPT_ELF, OPT_RAW, OPT_KCORE, OPT_KALLSYMS, OPT_CPU_MODEL,
	OPT_MTC, OPT_NOM, OPT_CPUID15, OPT_TSC_KHZ, OPT_PEV_PRI, OPT_PEV_SEC, OPT_PEV_ST,
	OPT_PEV_SHIFT, OPT_PEV_MULT, OPT_PEV_ZERO, OPT_SYSROOT, OPT_SCOPE, OPT_PERF_SCRIPT,
	OPT_FORMAT, OPT_SUMMARY, OPT_INSN_LIST, OPT_PID, OPT_TID, OPT_TIME, OPT_CHUNK,
};

static const struct option opts[] = {
	{ "output", required_argument, 0, 'o' },
	{ "help", no_argument, 0, 'h' },
	{ "pt", required_argument, 0, OPT_PT },
	{ "cpu", required_argument, 0, OPT_CPU },
	{ "elf", required_argument, 0, OPT_ELF },
	{ "raw", required_argument, 0, OPT_RAW },
	{ "kcore", required_argument, 0, OPT_KCORE },
	{ "kallsyms", required_argument, 0, OPT_KALLSYMS },
	{ "cpu-model", required_argument, 0, OPT_CPU_MODEL },
	{ "mtc-freq", required_argument, 0, OPT_MTC },
	{ "nom-freq", required_argument, 0, OPT_NOM },
	{ "cpuid-15", required_argument, 0, OPT_CPUID15 },
	{ "tsc-khz", required_argument, 0, OPT_TSC_KHZ },
	{ "pevent-primary", required_argument, 0, OPT_PEV_PRI },
	{ "pevent-secondary", required_argument, 0, OPT_PEV_SEC },
	{ "pevent-sample-type", required_argument, 0, OPT_PEV_ST },
	{ "pevent-time-shift", required_argument, 0, OPT_PEV_SHIFT },
	{ "pevent-time-mult", required_argument, 0, OPT_PEV_MULT },
	{ "pevent-time-zero", required_argument, 0, OPT_PEV_ZERO },
	{ "sysroot", required_argument, 0, OPT_SYSROOT },
	{ "scope", required_argument, 0, OPT_SCOPE },
	{ "perf-script", required_argument, 0, OPT_PERF_SCRIPT },
	{ "format", required_argument, 0, OPT_FORMAT },
	{ "summary", no_argument, 0, OPT_SUMMARY },
	{ "insn-list", required_argument, 0, OPT_INSN_LIST },
	{ "pid", required_argument, 0, OPT_PID },
	{ "tid", required_argument, 0, OPT_TID },
	{ "time", required_argument, 0, OPT_TIME },
	{ "jobs", required_argument, 0, 'j' },
	{ "chunk-size", required_argument, 0, OPT_CHUNK },
	{ 0, 0, 0, 0 },
};

static int num(const char *opt, const char *s, uint64_t max, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || end == s || *end || *out > max) {
		fprintf(stderr, "ptscope decode: %s wants a number up to %" PRIu64 ", not '%s'\n",
			opt, max, s);
		return -1;
	}
	return 0;
}

struct out_ctx {
	struct pts_writer *w;
};

static bool same_inode(const char *path, const struct stat *so)
{
	struct stat si;

	return path && !stat(path, &si) && si.st_dev == so->st_dev && si.st_ino == so->st_ino;
}

/*
 * Whether the regular file `so` is the bundle's manifest or a file it
 * names. A directory without a manifest (or whose manifest does not read)
 * is not checked: the decode fails on it first, with its own message, and
 * nothing is renamed. Other files in the bundle directory (an earlier
 * decode's output) are no part of the trace.
 */
static bool bundle_file(const char *bundle, const struct stat *so)
{
	struct pts_bundle *b = NULL;
	struct pts_err e = { 0 };
	const char *rel[8];
	bool hit = false;
	size_t i, j, n;
	char *path;

	if (asprintf(&path, "%s/manifest.json", bundle) < 0)
		return false;
	hit = same_inode(path, so);
	free(path);
	if (hit || pts_bundle_read_flags(bundle, PTS_BUNDLE_READ_PARTIAL, &b, &e))
		return hit;
	for (i = 0; !hit && i < b->nr_cpus + b->nr_ktext + b->nr_objects + b->nr_processes + 1; i++) {
		n = 0;
		if (i < b->nr_cpus) {
			rel[n++] = b->cpus[i].file;
		} else if ((j = i - b->nr_cpus) < b->nr_ktext) {
			rel[n++] = b->ktext[j].file;
		} else if ((j -= b->nr_ktext) < b->nr_objects) {
			rel[n++] = b->objects[j].file;
		} else if ((j -= b->nr_objects) < b->nr_processes) {
			rel[n++] = b->processes[j].vdso_file;
		} else {
			rel[n++] = b->sideband_file;
			rel[n++] = b->kallsyms_file;
			rel[n++] = b->modules_file;
			rel[n++] = b->ground_truth_file;
		}
		for (j = 0; j < n && !hit; j++) {
			if (!rel[j])
				continue;
			path = pts_bundle_path(b, rel[j]);
			hit = same_inode(path, so);
			free(path);
		}
	}
	pts_bundle_free(b);
	return hit;
}

/*
 * Whether writing out would overwrite an input: the same file as an input
 * file, or the bundle's manifest or a file it names. The outputs are
 * renamed over their names when the decode succeeds, so this would lose
 * the trace. Returns the input's name, or NULL.
 */
static const char *clobbered_input(const char *out, const struct pts_decode_opts *o,
				   const char *bundle, const char *perf_script)
{
	const char *in[3 * PTS_DEC_MAX_INPUTS + 2];
	struct stat so;
	size_t n = 0, i;

	if (!out || !strcmp(out, "-") || stat(out, &so) || !S_ISREG(so.st_mode))
		return NULL;	/* a new file, stdout, a FIFO or device clobber nothing */
	for (i = 0; i < o->nr_pt; i++)
		in[n++] = o->pt[i].path;
	for (i = 0; i < o->nr_elf; i++)
		in[n++] = o->elf[i].path;
	for (i = 0; i < o->nr_raw; i++)
		in[n++] = o->raw[i].path;
	for (i = 0; i < o->nr_pevent && n < sizeof(in) / sizeof(in[0]) - 2; i++)
		in[n++] = o->pevent[i];
	if (perf_script)
		in[n++] = perf_script;
	if (o->kallsyms)
		in[n++] = o->kallsyms;
	for (i = 0; i < n; i++)
		if (same_inode(in[i], &so))
			return in[i];
	return bundle && bundle_file(bundle, &so) ? bundle : NULL;
}

/*
 * The file a path names once written: the path with its directory resolved
 * (the file itself may not exist yet). NULL when the directory does not
 * resolve; the caller frees it.
 */
static char *resolved_output(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir, *rd, *r = NULL;

	if (!slash)
		dir = strdup(".");
	else
		dir = strndup(path, slash == path ? 1 : (size_t)(slash - path));
	rd = dir ? realpath(dir, NULL) : NULL;
	if (rd && asprintf(&r, "%s/%s", rd, slash ? slash + 1 : path) < 0)
		r = NULL;
	free(rd);
	free(dir);
	return r;
}

/*
 * Whether -o and --insn-list name one regular file (or one new file): the
 * second rename would replace the first output. Devices and FIFOs (and
 * stdout) are written directly and may be shared.
 */
static bool same_output(const char *a, const char *b)
{
	struct stat sa, sb;
	bool ea, eb, same;
	char *ra, *rb;

	if (!a || !b || !strcmp(a, "-") || !strcmp(b, "-"))
		return false;
	ea = !stat(a, &sa);
	eb = !stat(b, &sb);
	if ((ea && !S_ISREG(sa.st_mode)) || (eb && !S_ISREG(sb.st_mode)))
		return false;
	if (ea && eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (ea != eb)
		return false;
	ra = resolved_output(a);
	rb = resolved_output(b);
	same = ra && rb ? !strcmp(ra, rb) : !strcmp(a, b);
	free(ra);
	free(rb);
	return same;
}

/* Whether path is a directory (said, with what to give instead). */
static bool dir_given(const char *opt, const char *path)
{
	struct stat st;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return false;
	fprintf(stderr, "ptscope decode: %s %s is a directory: name a file (in it, e.g. %s/%s)\n",
		opt, path, path, !strcmp(opt, "-o") ? "trace.fxt" : "insns.txt");
	return true;
}

/*
 * The format of an -o name from its extension, in any case (OUT.TXT is a
 * .txt file: names from systems that upper-case them). PTS_FMT_NONE if
 * the extension is none of the formats'.
 */
/* The format of -o's last component, in any case ("T.TXT", "t.fxt.gz") */
static int format_from_path(const char *path)
{
	const char *base = strrchr(path, '/');
	char low[64];
	size_t i, len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len >= sizeof(low))		/* the extensions are at the end: keep those */
		base += len - (sizeof(low) - 1);
	for (i = 0; base[i]; i++)
		low[i] = (char)tolower((unsigned char)base[i]);
	low[i] = '\0';
	return pts_format_from_path(low);
}

/*
 * A regular file given where a bundle goes: a raw trace or a perf script
 * listing, which have their own options. Says so; true if it was a file.
 */
static bool bundle_given_a_file(const char *path)
{
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	fprintf(stderr, "ptscope decode: bundle %s is not a directory but a file (a bundle is"
		" the NAME.ptscope directory): for a raw PT trace use --pt %s (with --elf,"
		" --kcore for its code), for a perf script listing --perf-script %s\n",
		path, path, path);
	return true;
}

static int emit_rec(void *ctx, const struct pts_tl_rec *rec, struct pts_err *err)
{
	struct out_ctx *c = ctx;

	return pts_writer_emit(c->w, rec, err);
}

/*
 * Damaged inputs decoded anyway (a truncated trace file, a damaged
 * sideband, kallsyms lines that do not parse) are said even without
 * --summary: the user must know the timeline is built from part of them.
 */
static void print_notices(const struct pts_decode_summary *sum)
{
	unsigned int i;

	for (i = 0; i < sum->nr_notices && i < PTS_DEC_MAX_NOTICES; i++)
		fprintf(stderr, "ptscope decode: warning: %s\n", sum->notices[i]);
	if (sum->nr_notices > PTS_DEC_MAX_NOTICES)
		fprintf(stderr, "ptscope decode: warning: ... %u more damaged inputs (see --summary)\n",
			sum->nr_notices - PTS_DEC_MAX_NOTICES);
}

static void insn_out(void *ctx, uint32_t cpu, uint64_t ip)
{
	fprintf(ctx, "%" PRIx64 "\n", ip);
}

int cmd_decode(int argc, char **argv)
{
	struct pts_decode_opts o;
	struct pts_decode_summary sum;
	struct pts_err err = { 0 };
	const char *out = NULL, *fmt_name = NULL, *perf_script = NULL, *insn_list = NULL;
	const char *bundle = NULL;
	bool summary = false, insn_bad = false;
	int fmt, c, rc, idx;
	struct insn_file il = { 0 };
	sigset_t held;
	struct out_ctx oc = { 0 };
	struct pts_tl_select_opts sel = { 0 };
	struct pts_tl_select *selp = NULL;
	pts_tl_emit_fn emit = emit_rec;
	void *emit_ctx = &oc;
	bool time_given = false;
	uint64_t v;
	unsigned int i, j;
	static char prog[] = "ptscope decode";

	pts_decode_opts_init(&o);
	optind = 1;
	/* getopt names argv[0] in its messages: make them "ptscope decode: ..." */
	argv[0] = prog;
	/* the online CPUs (sysconf: those the scheduler may use now) */
	{
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		o.jobs = n > 1 ? (unsigned int)(n > 256 ? 256 : n) : 1;
	}
	while ((c = getopt_long(argc, argv, "o:hj:", opts, &idx)) != -1) {
		char *colon;

		switch (c) {
		case 'o':
			if (out) {
				fprintf(stderr, "ptscope decode: -o given twice (%s and %s): one"
					" timeline per decode\n", out, optarg);
				return 2;
			}
			out = optarg;
			break;
		case OPT_TIME:
			if (pts_tl_select_parse_time(optarg, &sel, &err)) {
				fprintf(stderr, "ptscope decode: %s\n", err.msg);
				return 2;
			}
			time_given = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'j':
			if (num("-j", optarg, 256, &v))
				return 2;
			if (!v) {
				fprintf(stderr, "ptscope decode: -j wants 1 or more threads\n");
				return 2;
			}
			o.jobs = (unsigned int)v;
			break;
		case OPT_CHUNK:
			if (num("--chunk-size", optarg, UINT32_MAX, &v))
				return 2;
			o.chunk_bytes = v ? v : 1;
			break;
		case OPT_PT:
			if (o.nr_pt == PTS_DEC_MAX_INPUTS)
				goto too_many;
			o.pt[o.nr_pt].path = optarg;
			o.pt[o.nr_pt].cpu = o.nr_pt;
			o.nr_pt++;
			break;
		case OPT_CPU:
			if (!o.nr_pt) {
				fprintf(stderr, "ptscope decode: --cpu names the CPU of the --pt before it\n");
				return 2;
			}
			/* x86-64 Linux numbers CPUs below 8192 (NR_CPUS; the bundle sideband's bound) */
			if (num("--cpu", optarg, PTS_SB_MAX_CPUS - 1, &v))
				return 2;
			o.pt[o.nr_pt - 1].cpu = (uint32_t)v;
			break;
		case OPT_ELF:
			if (o.nr_elf == PTS_DEC_MAX_INPUTS)
				goto too_many;
			o.elf[o.nr_elf].path = optarg;
			colon = strrchr(optarg, ':');
			if (colon) {
				*colon = '\0';
				if (num("--elf FILE:BASE", colon + 1, UINT64_MAX, &o.elf[o.nr_elf].base))
					return 2;
			}
			o.nr_elf++;
			break;
		case OPT_RAW: {
			char *vaddr = strrchr(optarg, ':'), *off;

			if (o.nr_raw == PTS_DEC_MAX_INPUTS)
				goto too_many;
			if (!vaddr)
				goto bad_raw;
			*vaddr++ = '\0';
			off = strrchr(optarg, ':');
			if (!off)
				goto bad_raw;
			*off++ = '\0';
			o.raw[o.nr_raw].path = optarg;
			if (num("--raw OFFSET", off, UINT64_MAX, &o.raw[o.nr_raw].offset) ||
			    num("--raw VADDR", vaddr, UINT64_MAX, &o.raw[o.nr_raw].vaddr))
				return 2;
			o.nr_raw++;
			break;
bad_raw:
			fprintf(stderr, "ptscope decode: --raw wants FILE:OFFSET:VADDR\n");
			return 2;
		}
		case OPT_KCORE:
			o.kcore_dir = optarg;
			break;
		case OPT_KALLSYMS:
			o.kallsyms = optarg;
			break;
		case OPT_CPU_MODEL: {
			unsigned int f, m, s = 0;
			int end = -1;

			/* %n after the last field read: trailing text ("6/85/", "6/85x") and
			 * signs (%u takes "-1") are refused, not silently dropped */
			if (sscanf(optarg, "%u/%u%n/%u%n", &f, &m, &end, &s, &end) < 2 ||
			    end < 0 || optarg[end] || strchr(optarg, '-') || strchr(optarg, '+') ||
			    f > 0xffff || m > 0xff || s > 0xff) {
				fprintf(stderr, "ptscope decode: --cpu-model wants FAMILY/MODEL[/STEPPING], e.g. 6/85/4\n");
				return 2;
			}
			o.family = (uint16_t)f;
			o.model = (uint8_t)m;
			o.stepping = (uint8_t)s;
			break;
		}
		case OPT_MTC:
			if (num("--mtc-freq", optarg, 15, &v))
				return 2;
			o.mtc_freq = (uint8_t)v;
			break;
		case OPT_NOM:
			if (num("--nom-freq", optarg, 255, &v))
				return 2;
			o.nom_freq = (uint8_t)v;
			break;
		case OPT_CPUID15: {
			unsigned int a, b;
			int end = -1;

			if (sscanf(optarg, "%u,%u%n", &a, &b, &end) != 2 || end < 0 || optarg[end] ||
			    strchr(optarg, '-') || strchr(optarg, '+')) {
				fprintf(stderr, "ptscope decode: --cpuid-15 wants EAX,EBX (denominator,numerator), e.g. 2,308\n");
				return 2;
			}
			o.cpuid_15_eax = a;
			o.cpuid_15_ebx = b;
			break;
		}
		case OPT_TSC_KHZ:
			if (num("--tsc-khz", optarg, UINT32_MAX, &o.tsc_khz))
				return 2;
			break;
		case OPT_PEV_PRI:
		case OPT_PEV_SEC:
			if (o.nr_pevent == PTS_DEC_MAX_INPUTS)
				goto too_many;
			o.pevent[o.nr_pevent++] = optarg;
			break;
		case OPT_PEV_ST:
			if (num("--pevent-sample-type", optarg, UINT64_MAX, &o.pevent_sample_type))
				return 2;
			break;
		case OPT_PEV_SHIFT:
			if (num("--pevent-time-shift", optarg, 63, &v))
				return 2;
			o.time_shift = (uint16_t)v;
			o.have_perf_time = true;
			break;
		case OPT_PEV_MULT:
			if (num("--pevent-time-mult", optarg, UINT32_MAX, &v))
				return 2;
			o.time_mult = (uint32_t)v;
			o.have_perf_time = true;
			break;
		case OPT_PEV_ZERO:
			if (num("--pevent-time-zero", optarg, UINT64_MAX, &o.time_zero))
				return 2;
			o.have_perf_time = true;
			break;
		case OPT_SYSROOT:
			o.sysroot = optarg;
			break;
		case OPT_SCOPE:
			if (!strcmp(optarg, "user"))
				o.scope = PTS_SCOPE_USER;
			else if (!strcmp(optarg, "kernel"))
				o.scope = PTS_SCOPE_KERNEL;
			else if (!strcmp(optarg, "both"))
				o.scope = PTS_SCOPE_BOTH;
			else {
				fprintf(stderr, "ptscope decode: --scope is user, kernel or both\n");
				return 2;
			}
			break;
		case OPT_PERF_SCRIPT:
			perf_script = optarg;
			break;
		case OPT_FORMAT:
			fmt_name = optarg;
			break;
		case OPT_SUMMARY:
			summary = true;
			break;
		case OPT_INSN_LIST:
			insn_list = optarg;
			break;
		case OPT_PID:
		case OPT_TID:
			if (num(c == OPT_PID ? "--pid" : "--tid", optarg, INT32_MAX, &v))
				return 2;
			if (c == OPT_PID)
				o.pid = (int32_t)v;
			else
				o.tid = (int32_t)v;
			break;
		default:	/* getopt said what is wrong; the usage is 30 lines */
			fprintf(stderr, "(see ptscope decode --help)\n");
			return 2;
		}
	}
	if (optind < argc)
		bundle = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "ptscope decode: one bundle at a time (extra argument %s)\n",
			argv[optind]);
		return 2;
	}
	if (bundle && (o.nr_pt || perf_script)) {
		fprintf(stderr, "ptscope decode: give a bundle, or --pt files, or --perf-script: not several\n");
		return 2;
	}
	if (bundle && bundle_given_a_file(bundle))
		return 1;	/* as any input that is no bundle */
	if (bundle && o.scope) {	/* 0: not given (session.h) */
		fprintf(stderr, "ptscope decode: --scope is for --pt and --perf-script: a bundle"
			" records its own scope (its manifest's config.scope)\n");
		return 2;
	}
	/* a bundle's sideband names every thread: --pid/--tid select, as in perf script */
	if (bundle) {
		sel.pid = o.pid > 0 ? o.pid : 0;
		sel.tid = o.tid > 0 ? o.tid : 0;
		o.pid = o.tid = -1;
	}
	if (o.have_perf_time && !o.time_mult) {
		fprintf(stderr, "ptscope decode: --pevent-time-mult is needed (and not 0) with the"
			" other --pevent-time-* options (perf's time_mult)\n");
		return 2;
	}
	/* One trace per CPU: two files of one CPU would be merged as if they
	 * were one stream and break each other's decoder state. */
	for (i = 0; i < o.nr_pt; i++)
		for (j = i + 1; j < o.nr_pt; j++)
			if (o.pt[i].cpu == o.pt[j].cpu) {
				fprintf(stderr, "ptscope decode: --pt %s and --pt %s are both CPU %u:"
					" give each --pt its own --cpu N\n", o.pt[i].path,
					o.pt[j].path, o.pt[i].cpu);
				return 2;
			}
	if (o.nr_pevent && !o.pevent_sample_type) {
		fprintf(stderr, "ptscope decode: --pevent-sample-type is needed to read perf sideband files\n");
		return 2;
	}
	if (perf_script) {
		struct stat st;

		/* read as text, a directory fails with a bare EISDIR: say which file */
		if (!stat(perf_script, &st) && S_ISDIR(st.st_mode)) {
			fprintf(stderr, "ptscope decode: --perf-script %s is a directory: give the"
				" file `perf script --itrace=cr -F +flags` wrote\n", perf_script);
			return 1;
		}
	}
	if (!bundle && !perf_script && !o.nr_pt) {
		fprintf(stderr, "ptscope decode: nothing to decode: give a bundle, --pt FILE or --perf-script FILE\n");
		usage(stderr);
		return 2;
	}
	if (clobbered_input(out, &o, bundle, perf_script) ||
	    clobbered_input(insn_list, &o, bundle, perf_script)) {
		const char *w = clobbered_input(out, &o, bundle, perf_script) ? out : insn_list;
		const char *in = clobbered_input(w, &o, bundle, perf_script);

		fprintf(stderr, "ptscope decode: %s is %s %s: writing it would destroy the"
			" trace; choose another output name\n", w,
			in == bundle ? "a file of the bundle" : "the input", in);
		return 2;
	}
	/* --format null writes nothing (docs/output-formats.md): it needs no -o */
	/* a directory is neither a file to replace nor a device to write to */
	if ((out && dir_given("-o", out)) || (insn_list && dir_given("--insn-list", insn_list)))
		return 2;
	if (same_output(out, insn_list)) {
		fprintf(stderr, "ptscope decode: -o %s and --insn-list %s are one file: one would"
			" replace the other; give the instruction list another name\n", out, insn_list);
		return 2;
	}
	if (!out && !summary && !insn_list &&
	    !(fmt_name && pts_format_from_name(fmt_name) == PTS_FMT_NONE)) {
		fprintf(stderr, "ptscope decode: say where the timeline goes: -o FILE.fxt|.json|.txt|.folded (or --summary)\n");
		return 2;
	}
	if (fmt_name) {
		fmt = pts_format_from_name(fmt_name);
		if (fmt < 0) {
			fprintf(stderr, "ptscope decode: unknown --format %s (fxt, json, txt, folded, null)\n",
				fmt_name);
			return 2;
		}
	} else if (out) {
		fmt = format_from_path(out);
		if (fmt == PTS_FMT_NONE && strcmp(out, "-")) {
			fprintf(stderr, "ptscope decode: cannot tell the format of %s: name it .fxt, .json, .txt or .folded, or give --format\n",
				out);
			return 2;
		}
		if (!strcmp(out, "-"))
			fmt = PTS_FMT_TXT;
	} else {
		fmt = PTS_FMT_NONE;
	}
	/* the writer refuses it too (-EINVAL); asked for on the command line it is bad usage */
	if (out && !strcmp(out, "-") && fmt == PTS_FMT_FXT) {
		fprintf(stderr, "ptscope decode: the fxt format is binary and cannot go to standard"
			" output; name a file with -o\n");
		return 2;
	}
	/* streaming progress on a terminal only (item 8) */
	if (isatty(STDERR_FILENO) && !getenv("PTSCOPE_NO_PROGRESS"))
		o.progress = stderr;
	/* from here on outputs exist under temporary names: a signal removes them */
	decode_out_catch_signals();
	if (insn_list) {
		if (insn_file_open(&il, insn_list))
			return 1;
		o.on_insn = insn_out;
		o.insn_ctx = il.f;
	}
	decode_out_hold_signals(&held);
	rc = pts_writer_open(out ? out : "/dev/null", (enum pts_format)fmt, &oc.w, &err);
	if (!rc && pts_writer_tmp_path(oc.w) && decode_out_register(pts_writer_tmp_path(oc.w))) {
		pts_writer_close(oc.w, false, NULL);
		rc = pts_err_set(&err, ENOMEM, "out of memory");
	}
	decode_out_release_signals(&held);
	if (rc) {
		fprintf(stderr, "ptscope decode: %s\n", err.msg);
		insn_file_end(&il, false);
		decode_out_forget();
		return 1;
	}
	/* every record comes from the timeline builder, whose strings are interned */
	pts_writer_strings_interned(oc.w);
	if (sel.pid || sel.tid || time_given) {
		rc = pts_tl_select_new(&sel, emit_rec, &oc, &selp, &err);
		emit = pts_tl_select_emit;
		emit_ctx = selp;
	}
	if (!rc && bundle)
		rc = pts_decode_bundle(bundle, &o, emit, emit_ctx, &sum, &err);
	else if (!rc && perf_script)
		rc = pts_decode_perfscript(perf_script, o.scope, emit, emit_ctx, &sum, &err);
	else if (!rc)
		rc = pts_decode_raw(&o, emit, emit_ctx, &sum, &err);
	if (!rc && selp && !pts_tl_select_kept(selp))
		fprintf(stderr, "ptscope decode: warning: nothing in the trace matches the"
			" --pid/--tid/--time selection\n");
	pts_tl_select_free(selp);
	if (rc) {
		struct pts_err e2 = { 0 };

		fprintf(stderr, "ptscope decode: %s\n", err.msg);
		pts_writer_close(oc.w, false, &e2);
		insn_file_end(&il, false);
		decode_out_forget();
		pts_decode_summary_free(&sum);
		return 1;
	}
	/*
	 * Exit 1 says the output is not written: a failed instruction list
	 * keeps the timeline from being renamed into place too, and a failed
	 * timeline the list (a streamed -o - cannot be taken back).
	 */
	insn_bad = insn_file_close(&il, out && strcmp(out, "-") &&
					pts_writer_tmp_path(oc.w) ? out : NULL) != 0;
	rc = pts_writer_close(oc.w, !insn_bad, &err);
	if (rc)
		fprintf(stderr, "ptscope decode: %s\n", err.msg);
	if (insn_file_end(&il, !rc && !insn_bad))
		rc = -1;
	decode_out_forget();
	if (rc || insn_bad) {
		pts_decode_summary_free(&sum);
		return 1;
	}
	if (summary)
		pts_decode_summary_print(out && !strcmp(out, "-") ? stderr : stdout, &sum);
	else
		print_notices(&sum);
	/* how the parallel decode went (tests/check.d/76-parallel-identical.sh) */
	if (getenv("PTS_PARDEC_STATS"))
		fprintf(stderr, "pardec: %" PRIu64 " joins, %" PRIu64 " refused\n",
			sum.par_joins, sum.par_refused);
	/* a damaged input decoded in part is "decoded with gaps" even without a trace gap */
	rc = sum.gaps || sum.lost ? 3 : 0;
	if (sum.gaps && !summary)
		fprintf(stderr, "ptscope decode: %" PRIu64 " gap(s) in the trace (see --summary)\n",
			sum.gaps);
	if (sum.perfscript_skipped && !summary)
		fprintf(stderr, "ptscope decode: %" PRIu64 " perf script line(s) not understood,"
			" skipped (see --summary)\n", sum.perfscript_skipped);
	pts_decode_summary_free(&sum);
	return rc;
too_many:
	fprintf(stderr, "ptscope decode: at most %d of each input\n", PTS_DEC_MAX_INPUTS);
	return 2;
}
