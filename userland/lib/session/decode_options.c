// SPDX-License-Identifier: GPL-2.0
/*
 * ptscope decode's options (decode_options.h): the table, the parse of
 * each value, and the checks of the request as a whole.
 */
#include "decode_options.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../bundle/bundle.h"
#include "../bundle/sideband.h"
#include "../util/bytes.h"
#include "../util/file_magic.h"
#include "../util/opttab.h"
#include "../writer/writer.h"

/* perf script's recommended fields (docs/decode.md, "Outputs") */
#define PERF_SCRIPT_CMD	"perf script --itrace=cr --ns -F pid,tid,time,flags,ip,sym,symoff,dso,addr"

enum dopt_id {
	D_OUTPUT, D_HELP, D_PT, D_CPU, D_ELF, D_RAW, D_KCORE, D_KALLSYMS, D_VMLINUX,
	D_CPU_MODEL, D_MTC, D_NOM, D_CPUID15, D_TSC_KHZ, D_PEV_PRI, D_PEV_SEC, D_PEV_ST,
	D_PEV_SHIFT, D_PEV_MULT, D_PEV_ZERO, D_SYSROOT, D_BUILDID_DIR, D_SCOPE, D_PERF_SCRIPT, D_FORMAT,
	D_SUMMARY, D_INSN_LIST, D_PID, D_TID, D_TIME, D_JOBS, D_CHUNK,
	D_NR
};

#define DECODE 1u	/* the table's one command */
#define R PTS_OPTARG_REQUIRED
#define N PTS_OPTARG_NONE

/*
 * The help of ptscope decode is these rows (util/opttab.h: pts_opt_help),
 * in the sections of dopt_sections; tests/unit/test_util_opttab.c checks that every row
 * has its line and the help names only options of the table.
 */
static const struct pts_optdef dopt_table[] = {
	{ "output", 'o', NULL, R, "FILE", DECODE, D_OUTPUT,
	  ".fxt (Perfetto), .json (Chrome trace), .txt, .folded; - = stdout; "
	  "FILE.fxt.gz, FILE.json.gz, ...: gzip-compressed" },
	{ "format", 0, NULL, R, "F", DECODE, D_FORMAT,
	  "fxt|json|txt|folded|null (default: from the -o extension)" },
	{ "pid", 0, NULL, R, "N", DECODE, D_PID,
	  "a bundle or perf script text: only this process; raw PT without sideband: "
	  "the process the trace is of" },
	{ "tid", 0, NULL, R, "N", DECODE, D_TID,
	  "a bundle or perf script text: only this thread; raw PT without sideband: "
	  "the thread the trace is of" },
	{ "time", 0, NULL, R, "START..END", DECODE, D_TIME,
	  "only this window of the timeline (ns, us, ms, s; e.g. 1ms..2ms, 1.5us.., ..3us): "
	  "slices are cut at its edges" },
	{ "summary", 0, NULL, N, NULL, DECODE, D_SUMMARY,
	  "print instructions, branches, gaps by cause, time per thread" },
	{ "insn-list", 0, NULL, R, "FILE", DECODE, D_INSN_LIST,
	  "write every decoded instruction address (hex, one a line)" },
	{ "jobs", 'j', NULL, R, "N", DECODE, D_JOBS,
	  "decoder threads (default: the online CPUs; 1: no threads); the output is the "
	  "same for every N" },
	{ "chunk-size", 0, NULL, R, "BYTES", DECODE, D_CHUNK,
	  "trace bytes per chunk of a parallel decode, 1 or more (default 32K; chunks "
	  "start at PSBs)" },
	{ "help", 'h', NULL, N, NULL, DECODE, D_HELP, "show this help" },
	{ "sysroot", 0, NULL, R, "DIR", DECODE, D_SYSROOT,
	  "find mapped files (the sideband's, a bundle's uncopied binaries) and debug "
	  "files under DIR (as perf --symfs; this host's /usr/lib/debug too when the "
	  "build-ids match)" },
	{ "buildid-dir", 0, NULL, R, "DIR", DECODE, D_BUILDID_DIR,
	  "perf's build-id cache, where debug files and binaries the bundle lacks are "
	  "also found by build-id (as perf --buildid-dir; default $HOME/.debug)" },
	{ "cpu-model", 0, NULL, R, "F/M/S", DECODE, D_CPU_MODEL,
	  "recording CPU, whose errata libipt works around; for a bundle it overrides the "
	  "manifest's (a model newer than libipt)" },
	{ "kcore", 0, NULL, R, "DIR", DECODE, D_KCORE,
	  "kernel text: DIR/kcore, DIR/kallsyms (as perf record --kcore); for a bundle, "
	  "captured elsewhere (a bundle taken under lockdown, in a container, with "
	  "kptr_restrict=2)" },
	{ "kallsyms", 0, NULL, R, "FILE", DECODE, D_KALLSYMS,
	  "kernel symbol names (for a bundle: captured elsewhere, as --kcore)" },
	{ "vmlinux", 0, NULL, R, "FILE", DECODE, D_VMLINUX,
	  "a bundle only: the kernel's ELF, for code the bundle lacks and names, moved by "
	  "the bundle's kallsyms (KASLR)" },
	{ "pt", 0, NULL, R, "FILE", DECODE, D_PT,
	  "raw trace of one CPU (repeatable)" },
	{ "cpu", 0, NULL, R, "N", DECODE, D_CPU,
	  "the CPU of the --pt before it (default: 0, 1, ... in order)" },
	{ "elf", 0, NULL, R, "FILE[:BASE]", DECODE, D_ELF,
	  "ELF executable code; BASE: load address of a PIE/shared object" },
	{ "raw", 0, NULL, R, "FILE:OFFSET:VADDR", DECODE, D_RAW,
	  "raw code bytes from FILE at OFFSET, mapped at VADDR" },
	{ "scope", 0, NULL, R, "user|kernel|both", DECODE, D_SCOPE,
	  "what the trace recorded (default: read from the trace)" },
	{ "mtc-freq", 0, NULL, R, "N", DECODE, D_MTC,
	  "MTCFreq the trace was recorded with (RTIT_CTL bits 17:14)" },
	{ "nom-freq", 0, NULL, R, "N", DECODE, D_NOM,
	  "nominal core:bus ratio (MSR_PLATFORM_INFO[15:8])" },
	{ "cpuid-15", 0, NULL, R, "EAX,EBX", DECODE, D_CPUID15,
	  "CPUID leaf 15H: TSC / crystal clock ratio (EBX/EAX)" },
	{ "tsc-khz", 0, NULL, R, "N", DECODE, D_TSC_KHZ,
	  "TSC frequency in kHz, to convert TSC to ns" },
	{ "pevent-primary", 0, NULL, R, "FILE", DECODE, D_PEV_PRI,
	  "perf sideband records (repeatable)" },
	{ "pevent-secondary", 0, NULL, R, "FILE", DECODE, D_PEV_SEC,
	  "the same (ptxed's spelling for other CPUs' records)" },
	{ "pevent-sample-type", 0, NULL, R, "N", DECODE, D_PEV_ST,
	  "perf_event_attr.sample_type of those records (needed)" },
	{ "pevent-time-shift", 0, NULL, R, "N", DECODE, D_PEV_SHIFT,
	  "perf's TSC conversion: perf_event_mmap_page time_shift" },
	{ "pevent-time-mult", 0, NULL, R, "N", DECODE, D_PEV_MULT,
	  "perf's TSC conversion: perf_event_mmap_page time_mult" },
	{ "pevent-time-zero", 0, NULL, R, "N", DECODE, D_PEV_ZERO,
	  "perf's TSC conversion: perf_event_mmap_page time_zero" },
	{ "perf-script", 0, NULL, R, "FILE", DECODE, D_PERF_SCRIPT,
	  "the text of " PERF_SCRIPT_CMD "; - = standard input" },
};

#undef R
#undef N

_Static_assert(PTS_DEC_CHUNK_BYTES == 32768, "--chunk-size's help line says the default");

/* the help's sections, each before its first row */
static const struct pts_optsect dopt_sections[] = {
	{ D_OUTPUT, "Output" },
	{ D_SYSROOT, "Inputs" },
	{ D_PT, "Raw PT (as ptxed)" },
	{ D_MTC, "Timing (raw PT; a bundle records them)" },
	{ D_PEV_PRI, "Perf sideband (raw PT, as ptxed --pevent)" },
	{ D_PERF_SCRIPT, "Perf text" },
};

static const struct pts_optab dopt_tab = {
	dopt_table, sizeof(dopt_table) / sizeof(dopt_table[0]),
	dopt_sections, sizeof(dopt_sections) / sizeof(dopt_sections[0])
};

const struct pts_optab *pts_decode_optab(void)
{
	return &dopt_tab;
}

void pts_decode_usage(FILE *f)
{
	fputs("Usage: ptscope decode NAME.ptscope -o OUT [--format F] [--summary]\n"
	      "  or:  ptscope decode --pt FILE [--cpu N]... [raw PT options] -o OUT\n"
	      "  or:  ptscope decode --perf-script FILE -o OUT\n"
	      "\n"
	      "Turn a capture bundle, raw PT streams or a perf script listing into one\n"
	      "timeline per thread: .fxt for ui.perfetto.dev, .json, .txt or .folded.\n"
	      "\n", f);
	pts_opt_help(&dopt_tab, DECODE, f);
	fputs("\nExit status: 0 decoded cleanly, 3 decoded with gaps or from a damaged input,\n"
	      "1 error, 2 bad usage.\n", f);
}

static int num(const char *opt, const char *s, uint64_t max, uint64_t *out, struct pts_err *err)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	/* strtoull takes "-1" as 2^64 - 1: a sign is no number here */
	if (errno || end == s || *end || *out > max || strchr(s, '-'))
		return pts_err_set(err, EINVAL, "%s wants a number up to %" PRIu64 ", not '%s'",
				   opt, max, s);
	return 0;
}

static int too_many(struct pts_err *err)
{
	return pts_err_set(err, EINVAL, "at most %d of each input", PTS_DEC_MAX_INPUTS);
}

/* FAMILY/MODEL[/STEPPING] */
static int parse_cpu_model(const char *s, struct pts_decode_opts *o, struct pts_err *err)
{
	unsigned int f, m, st = 0;
	int end = -1;

	/* %n after the last field read: trailing text ("6/85/", "6/85x") and
	 * signs (%u takes "-1") are refused, not silently dropped */
	if (sscanf(s, "%u/%u%n/%u%n", &f, &m, &end, &st, &end) < 2 || end < 0 || s[end] ||
	    strchr(s, '-') || strchr(s, '+') || f > 0xffff || m > 0xff || st > 0xff)
		return pts_err_set(err, EINVAL, "--cpu-model wants FAMILY/MODEL[/STEPPING], e.g. 6/85/4");
	/* family 0 is the options' "not given": taken, it would silently mean no CPU at all */
	if (!f)
		return pts_err_set(err, EINVAL, "--cpu-model %s: family 0 is no CPU's (Intel's with"
				   " PT are family 6); leave --cpu-model out to decode without"
				   " errata workarounds", s);
	o->family = (uint16_t)f;
	o->model = (uint8_t)m;
	o->stepping = (uint8_t)st;
	return 0;
}

static int parse_cpuid15(const char *s, struct pts_decode_opts *o, struct pts_err *err)
{
	unsigned int a, b;
	int end = -1;

	if (sscanf(s, "%u,%u%n", &a, &b, &end) != 2 || end < 0 || s[end] || strchr(s, '-') ||
	    strchr(s, '+'))
		return pts_err_set(err, EINVAL, "--cpuid-15 wants EAX,EBX (denominator,numerator), e.g. 2,308");
	o->cpuid_15_eax = a;
	o->cpuid_15_ebx = b;
	return 0;
}

/* --raw FILE:OFFSET:VADDR (FILE may hold ':': the last two are the numbers) */
static int parse_raw(char *s, struct pts_decode_opts *o, struct pts_err *err)
{
	char *vaddr = strrchr(s, ':'), *off;

	if (o->nr_raw == PTS_DEC_MAX_INPUTS)
		return too_many(err);
	if (!vaddr)
		return pts_err_set(err, EINVAL, "--raw wants FILE:OFFSET:VADDR");
	*vaddr++ = '\0';
	off = strrchr(s, ':');
	if (!off)
		return pts_err_set(err, EINVAL, "--raw wants FILE:OFFSET:VADDR");
	*off++ = '\0';
	o->raw[o->nr_raw].path = s;
	if (num("--raw OFFSET", off, UINT64_MAX, &o->raw[o->nr_raw].offset, err) ||
	    num("--raw VADDR", vaddr, UINT64_MAX, &o->raw[o->nr_raw].vaddr, err))
		return -EINVAL;
	o->nr_raw++;
	return 0;
}

static int parse_scope(const char *s, struct pts_decode_opts *o, struct pts_err *err)
{
	if (!strcmp(s, "user"))
		o->scope = PTS_SCOPE_USER;
	else if (!strcmp(s, "kernel"))
		o->scope = PTS_SCOPE_KERNEL;
	else if (!strcmp(s, "both"))
		o->scope = PTS_SCOPE_BOTH;
	else
		return pts_err_set(err, EINVAL, "--scope is user, kernel or both");
	return 0;
}

/* One option's value into r. */
static int apply(struct pts_decode_req *r, int id, char *val, struct pts_err *err)
{
	struct pts_decode_opts *o = &r->o;
	uint64_t v;
	char *colon;

	switch (id) {
	case D_OUTPUT:
		if (r->out)
			return pts_err_set(err, EINVAL, "-o given twice (%s and %s): one timeline "
					   "per decode", r->out, val);
		r->out = val;
		return 0;
	case D_HELP:
		r->help = true;
		return 0;
	case D_TIME:
		if (pts_tl_select_parse_time(val, &r->sel, err))
			return -EINVAL;
		r->time_given = true;
		return 0;
	case D_JOBS:
		/* one message for 0, -1, 257 and "four": the range, and what no -j gives */
		if (num("-j", val, 256, &v, err) || !v)
			return pts_err_set(err, EINVAL, "-j wants a number of decoder threads from"
					   " 1 to 256, not '%s' (1: no threads; without -j: one"
					   " a CPU)", val);
		o->jobs = (unsigned int)v;
		return 0;
	case D_CHUNK:
		/* a size as capture's --size takes it (64K), or a number (hex too) */
		if ((pts_parse_size(val, &v) && num("--chunk-size", val, UINT32_MAX, &v, err)) ||
		    v > UINT32_MAX)
			return pts_err_set(err, EINVAL, "--chunk-size wants a size up to %" PRIu32
					   " bytes (e.g. 32K, 1M), not '%s'", UINT32_MAX, val);
		/* 0 would be no chunk at all; the smallest chunk is one PSB's */
		if (!v)
			return pts_err_set(err, EINVAL, "--chunk-size wants 1 or more trace bytes"
					   " per chunk (1: a chunk at every PSB; default %u)",
					   PTS_DEC_CHUNK_BYTES);
		o->chunk_bytes = v;
		return 0;
	case D_PT:
		if (o->nr_pt == PTS_DEC_MAX_INPUTS)
			return too_many(err);
		o->pt[o->nr_pt].path = val;
		o->pt[o->nr_pt].cpu = o->nr_pt;
		o->nr_pt++;
		return 0;
	case D_CPU:
		if (!o->nr_pt)
			return pts_err_set(err, EINVAL, "--cpu names the CPU of the --pt before it");
		/* x86-64 Linux numbers CPUs below 8192 (NR_CPUS; the bundle sideband's bound) */
		if (num("--cpu", val, PTS_SB_MAX_CPUS - 1, &v, err))
			return -EINVAL;
		o->pt[o->nr_pt - 1].cpu = (uint32_t)v;
		return 0;
	case D_ELF:
		if (o->nr_elf == PTS_DEC_MAX_INPUTS)
			return too_many(err);
		o->elf[o->nr_elf].path = val;
		colon = strrchr(val, ':');
		if (colon) {
			*colon = '\0';
			if (num("--elf FILE:BASE", colon + 1, UINT64_MAX, &o->elf[o->nr_elf].base, err))
				return -EINVAL;
		}
		o->nr_elf++;
		return 0;
	case D_RAW:
		return parse_raw(val, o, err);
	case D_KCORE:
		o->kcore_dir = val;
		return 0;
	case D_KALLSYMS:
		o->kallsyms = val;
		return 0;
	case D_VMLINUX:
		o->vmlinux = val;
		return 0;
	case D_CPU_MODEL:
		return parse_cpu_model(val, o, err);
	case D_MTC:
		if (num("--mtc-freq", val, 15, &v, err))
			return -EINVAL;
		o->mtc_freq = (uint8_t)v;
		return 0;
	case D_NOM:
		if (num("--nom-freq", val, 255, &v, err))
			return -EINVAL;
		o->nom_freq = (uint8_t)v;
		return 0;
	case D_CPUID15:
		return parse_cpuid15(val, o, err);
	case D_TSC_KHZ:
		return num("--tsc-khz", val, UINT32_MAX, &o->tsc_khz, err);
	case D_PEV_PRI:
	case D_PEV_SEC:
		if (o->nr_pevent == PTS_DEC_MAX_INPUTS)
			return too_many(err);
		o->pevent[o->nr_pevent++] = val;
		return 0;
	case D_PEV_ST:
		return num("--pevent-sample-type", val, UINT64_MAX, &o->pevent_sample_type, err);
	case D_PEV_SHIFT:
		if (num("--pevent-time-shift", val, 63, &v, err))
			return -EINVAL;
		o->time_shift = (uint16_t)v;
		o->have_perf_time = true;
		return 0;
	case D_PEV_MULT:
		if (num("--pevent-time-mult", val, UINT32_MAX, &v, err))
			return -EINVAL;
		o->time_mult = (uint32_t)v;
		o->have_perf_time = true;
		return 0;
	case D_PEV_ZERO:
		if (num("--pevent-time-zero", val, UINT64_MAX, &o->time_zero, err))
			return -EINVAL;
		o->have_perf_time = true;
		return 0;
	case D_SYSROOT:
		o->sysroot = val;
		return 0;
	case D_BUILDID_DIR:
		o->buildid_dir = val;
		return 0;
	case D_SCOPE:
		return parse_scope(val, o, err);
	case D_PERF_SCRIPT:
		/* "-": standard input, as in `perf script ... | ptscope decode --perf-script -` */
		r->perf_script = strcmp(val, "-") ? val : "/dev/stdin";
		return 0;
	case D_FORMAT:
		r->fmt_name = val;
		return 0;
	case D_SUMMARY:
		r->summary = true;
		return 0;
	case D_INSN_LIST:
		r->insn_list = val;
		return 0;
	case D_PID:
	case D_TID:
		if (num(id == D_PID ? "--pid" : "--tid", val, INT32_MAX, &v, err))
			return -EINVAL;
		if (id == D_PID)
			o->pid = (int32_t)v;
		else
			o->tid = (int32_t)v;
		return 0;
	}
	return pts_err_set(err, EINVAL, "option %d not handled", id);
}

/*
 * perf's -i/--input FILE (perf report, perf script): ptscope decode takes
 * its input as a word, so the scanner would call -i unknown; say how to
 * give it instead (with FILE when given). 0 not that, -EINVAL said.
 */
static int perf_input(const struct pts_optscan *s, struct pts_err *err)
{
	const char *a = s->i < s->argc && !s->words_only ? s->argv[s->i] : NULL, *file = NULL;

	if (!a || (strcmp(a, "-i") && strcmp(a, "--input") && strncmp(a, "--input=", 8)))
		return 0;
	if (a[1] == '-' && a[7])
		file = a + 8;
	else if (s->i + 1 < s->argc)
		file = s->argv[s->i + 1];
	if (!file || !file[0] || file[0] == '-')
		file = "NAME.ptscope";
	return pts_err_set(err, EINVAL, "no option %.*s: the input is a plain argument, not "
			   "perf's -i/--input: ptscope decode %s -o OUT (a bundle; --pt FILE for "
			   "raw PT, --perf-script FILE for perf script's text)",
			   a[1] == 'i' ? 2 : 7, a, file);
}

int pts_decode_req_parse(int argc, char **argv, long online_cpus, struct pts_decode_req *r,
			 struct pts_err *err)
{
	struct pts_optscan s = { .t = &dopt_tab, .cmd = DECODE, .prog = "ptscope decode",
				 .argc = argc, .argv = argv, .i = 1 };
	const struct pts_optdef *d;
	const char *val;
	int rc;

	memset(r, 0, sizeof(*r));
	pts_decode_opts_init(&r->o);
	r->o.jobs = online_cpus > 1 ? (unsigned int)(online_cpus > 256 ? 256 : online_cpus) : 1;
	while (!(rc = perf_input(&s, err)) && (rc = pts_opt_next(&s, &d, &val, err)) > 0) {
		if (rc == PTS_OPT_WORD) {
			if (r->bundle)
				return pts_err_set(err, EINVAL, "one bundle at a time (extra argument %s)",
						   val);
			r->bundle = val;
			continue;
		}
		/* the value is a word of argv: --elf and --raw cut it at their ':' */
		if (apply(r, d->id, (char *)val, err))
			return -EINVAL;
		r->given |= 1ull << d->id;
		if (r->help)
			return 0;
	}
	/* perf's default cache (perf's set_buildid_dir): used when it is there */
	if (!rc && !r->o.buildid_dir && getenv("HOME") && getenv("HOME")[0]) {
		snprintf(r->home_cache, sizeof(r->home_cache), "%s/.debug", getenv("HOME"));
		r->o.buildid_dir = r->home_cache;
	}
	return rc;
}

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
static const char *clobbered_input(const char *out, const struct pts_decode_req *r)
{
	const struct pts_decode_opts *o = &r->o;
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
	if (r->perf_script)
		in[n++] = r->perf_script;
	if (o->kallsyms)
		in[n++] = o->kallsyms;
	for (i = 0; i < n; i++)
		if (same_inode(in[i], &so))
			return in[i];
	return r->bundle && bundle_file(r->bundle, &so) ? r->bundle : NULL;
}

/*
 * The file a path names once written: the path with its directory resolved
 * (the file itself may not exist yet). NULL when the directory does not
 * resolve; the caller frees it.
 */
static char *resolved_output(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir, *rd, *res = NULL;

	if (!slash)
		dir = strdup(".");
	else
		dir = strndup(path, slash == path ? 1 : (size_t)(slash - path));
	rd = dir ? realpath(dir, NULL) : NULL;
	if (rd && asprintf(&res, "%s/%s", rd, slash ? slash + 1 : path) < 0)
		res = NULL;
	free(rd);
	free(dir);
	return res;
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

/* Whether path is a directory (err says what to give instead). */
static bool dir_given(const char *opt, const char *path, struct pts_err *err)
{
	struct stat st;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return false;
	/* "dir/" and "/" take the file's name without another '/' */
	pts_err_set(err, EINVAL, "%s %s is a directory: name a file (in it, e.g. %s%s%s)", opt,
		    path, path, path[0] && path[strlen(path) - 1] == '/' ? "" : "/",
		    !strcmp(opt, "-o") ? "trace.fxt" : "insns.txt");
	return true;
}

/* Whether dir is a capture bundle's directory: it holds a manifest. */
static bool holds_manifest(const char *dir)
{
	struct stat st;
	char *path;
	bool yes;

	if (asprintf(&path, "%s/%s", dir, PTS_BUNDLE_MANIFEST) < 0)
		return false;
	yes = !stat(path, &st) && S_ISREG(st.st_mode);
	free(path);
	return yes;
}

/*
 * The bundle that path, which is none itself, lies inside: its nearest
 * ancestor that holds a manifest ("." or "/" when that is the one). A
 * file or folder of a bundle given where the bundle goes. Returns a new
 * string (caller frees), NULL when none.
 */
static char *enclosing_bundle(const char *path)
{
	char *p = holds_manifest(path) ? NULL : strdup(path), *slash;
	size_t n;

	while (p) {
		n = strlen(p);
		while (n > 1 && p[n - 1] == '/')
			p[--n] = '\0';
		slash = strrchr(p, '/');
		if (!slash || slash == p) {
			/* the last ancestor: "." for a relative name, "/" for an absolute one */
			free(p);
			p = strdup(slash ? "/" : ".");
			if (p && !holds_manifest(p)) {
				free(p);
				p = NULL;
			}
			return p;
		}
		*slash = '\0';
		if (holds_manifest(p))
			return p;
	}
	return NULL;
}

/*
 * An input given in another input's place, said with what to give
 * instead: a bundle's manifest, another of its files or one of its
 * folders where the bundle goes (the directory is the bundle), a
 * directory as --pt or --perf-script (a bundle, decoded without
 * them, or a folder of files). Read as a file, each would fail with a
 * message about regular files that does not say what to give.
 */
static int input_misplaced(const struct pts_decode_req *r, struct pts_err *err)
{
	const struct pts_decode_opts *o = &r->o;
	struct stat st;
	const char *base;
	unsigned int i;
	char *in;
	int rc;

	if (r->bundle && !stat(r->bundle, &st) && S_ISREG(st.st_mode)) {
		base = strrchr(r->bundle, '/');
		base = base ? base + 1 : r->bundle;
		/* the directory's name as given: "." for a bare name, "/" for the root */
		if (!strcmp(base, PTS_BUNDLE_MANIFEST))
			return pts_err_set(err, ENOTDIR, "%s is a bundle's manifest: give the bundle,"
					   " its directory (ptscope decode %.*s)", r->bundle,
					   base - r->bundle > 1 ? (int)(base - 1 - r->bundle) : 1,
					   base == r->bundle ? "." : r->bundle);
	}
	/* another file or a folder of a bundle: its directory is the bundle */
	if (r->bundle && !stat(r->bundle, &st) && (in = enclosing_bundle(r->bundle))) {
		rc = pts_err_set(err, ENOTDIR, "%s is %s of the bundle %s: give the bundle, its"
				 " directory (ptscope decode %s -o OUT)", r->bundle,
				 S_ISDIR(st.st_mode) ? "a folder" : "a file", in, in);
		free(in);
		return rc;
	}
	for (i = 0; i < o->nr_pt; i++) {
		/* "-" is standard input for --perf-script and -o; a trace is mapped, not streamed */
		if (!strcmp(o->pt[i].path, "-"))
			return pts_err_set(err, EINVAL, "--pt -: a raw trace is mapped from a file, not"
					   " read from standard input; save it to a file and give"
					   " that");
		if (stat(o->pt[i].path, &st) || !S_ISDIR(st.st_mode))
			continue;
		if (holds_manifest(o->pt[i].path))
			return pts_err_set(err, EISDIR, "--pt %s is a capture bundle (it holds %s):"
					   " decode it without --pt (ptscope decode %s -o OUT)",
					   o->pt[i].path, PTS_BUNDLE_MANIFEST, o->pt[i].path);
		return pts_err_set(err, EISDIR, "--pt %s is a directory: give a file of one CPU's"
				   " raw trace (--pt FILE --cpu N, once per CPU)", o->pt[i].path);
	}
	/* read as text, a directory fails with a bare EISDIR: say which file */
	if (r->perf_script && !stat(r->perf_script, &st) && S_ISDIR(st.st_mode))
		return pts_err_set(err, EISDIR, "--perf-script %s is a directory: give the file"
				   " `" PERF_SCRIPT_CMD "` wrote%s%s%s",
				   r->perf_script, holds_manifest(r->perf_script) ?
				   " (this is a capture bundle: ptscope decode " : "",
				   holds_manifest(r->perf_script) ? r->perf_script : "",
				   holds_manifest(r->perf_script) ? " -o OUT decodes it)" : "");
	return 0;
}

/*
 * Whether the input file opt names at path can be read by this process
 * (its effective ids, as open() checks them): else err names the option,
 * the reason and what to give, want (a missing file) or read access (a
 * file of another user: a capture copied with sudo is root's). -errno.
 */
static int input_readable(const char *opt, const char *path, const char *want,
			  struct pts_err *err)
{
	int e;

	if (!faccessat(AT_FDCWD, path, R_OK, AT_EACCESS))
		return 0;
	e = errno;
	if (e == EACCES)
		return pts_err_set(err, e, "%s %s: %s: this user may not read it (ls -l shows its"
				   " owner and mode; one written with sudo is root's): give yourself"
				   " read access (sudo chown $USER FILE, or chmod a+r), or decode as"
				   " its owner", opt, path, strerror(e));
	return pts_err_set(err, e, "%s %s: %s: give %s", opt, path, strerror(e), want);
}

/*
 * Every input file named by an option, before any is read: a name that is
 * wrong is said with its option and what the option wants, not as the
 * open() of "code file" or "trace file" somewhere in the decode.
 */
int pts_decode_req_inputs_readable(const struct pts_decode_req *r, struct pts_err *err)
{
	const struct pts_decode_opts *o = &r->o;
	unsigned int i;
	int rc = 0;

	for (i = 0; !rc && i < o->nr_pt; i++)
		rc = input_readable("--pt", o->pt[i].path, "a file of one CPU's raw trace", err);
	for (i = 0; !rc && i < o->nr_elf; i++)
		rc = input_readable("--elf", o->elf[i].path, "the traced program or library"
				    " (--elf FILE[:BASE], its copy from the traced machine)", err);
	for (i = 0; !rc && i < o->nr_raw; i++)
		rc = input_readable("--raw", o->raw[i].path, "the file of the code's bytes"
				    " (--raw FILE:OFFSET:VADDR)", err);
	for (i = 0; !rc && i < o->nr_pevent; i++)
		rc = input_readable("--pevent-primary/-secondary", o->pevent[i],
				    "a file of perf's sideband records", err);
	if (!rc && o->kallsyms)
		rc = input_readable("--kallsyms", o->kallsyms, "a copy of the traced machine's"
				    " /proc/kallsyms", err);
	if (!rc && o->vmlinux)
		rc = input_readable("--vmlinux", o->vmlinux, "the kernel's ELF image, vmlinux"
				    " (Debian: the linux-image-*-dbg package's)", err);
	if (!rc && r->perf_script && strcmp(r->perf_script, "-"))
		rc = input_readable("--perf-script", r->perf_script, "the file `" PERF_SCRIPT_CMD
				    "` wrote", err);
	return rc;
}

/*
 * What to do with input, given as role ("bundle", "--pt", "--perf-script"),
 * when its first bytes say it is a file of kind m that is not that input
 * (file_magic.h). Returns the error with the advice in err, 0 when m is
 * none of those kinds. -ENOTDIR for a bundle, -ENOEXEC for --pt and
 * --perf-script: errors of the input (exit 1), as a directory given there.
 */
static int other_kind(const char *role, const char *input, enum pts_magic m, struct pts_err *err)
{
	const char *what = pts_magic_name(m), *cat = pts_magic_cat(m);
	bool bundle = !strcmp(role, "bundle");
	int e = bundle ? ENOTDIR : ENOEXEC;	/* an error of the input (exit 1), not of usage */
	char head[600];

	snprintf(head, sizeof(head), "%s%s%s is %s, not %s", bundle ? "" : role,
		 bundle ? "" : " ", input, what,
		 bundle ? "a bundle (the NAME.ptscope directory that ptscope run, attach or record"
		 " writes)" : !strcmp(role, "--pt") ? "a raw PT trace" : "perf script's text");
	switch (m) {
	case PTS_MAGIC_ELF:
		return pts_err_set(err, e, "%s: it is the code of a trace: give it with --elf"
				   " %s[:BASE] beside --pt TRACE", head, input);
	case PTS_MAGIC_PERF_DATA:
		/* perf script would say only that its samples have no ADDR */
		if (!pts_perf_data_has_aux(input))
			return pts_err_set(err, e, "%s, and it holds no Intel PT trace (no"
					   " AUXTRACE feature nor AUXTRACE_INFO record: it was"
					   " recorded without -e intel_pt//): perf decodes no branch"
					   " from it. Record one with perf record -e intel_pt//u --"
					   " CMD, then " PERF_SCRIPT_CMD " -i perf.data >"
					   " branches.txt and ptscope decode --perf-script"
					   " branches.txt -o OUT", head);
		return pts_err_set(err, e, "%s: ptscope reads the branches perf decodes from"
				   " it: " PERF_SCRIPT_CMD " -i %s > branches.txt, then ptscope"
				   " decode --perf-script branches.txt -o OUT", head, input);
	case PTS_MAGIC_TAR:
		return pts_err_set(err, e, "%s: unpack it (tar xf %s) and decode the"
				   " NAME.ptscope directory it holds", head, input);
	case PTS_MAGIC_ZIP:
		return pts_err_set(err, e, "%s: unpack it (unzip %s) and decode the"
				   " NAME.ptscope directory it holds", head, input);
	case PTS_MAGIC_FXT:
		return pts_err_set(err, e, "%s: it is a timeline to open at ui.perfetto.dev"
				   " (fxtcheck --dump %s lists it), not an input", head, input);
	case PTS_MAGIC_GZIP:
	case PTS_MAGIC_XZ:
	case PTS_MAGIC_ZSTD:
	case PTS_MAGIC_BZIP2:
		if (bundle)
			return pts_err_set(err, e, "%s: a packed bundle unpacks with tar xf %s"
					   " (then decode the NAME.ptscope directory); a compressed"
					   " trace or listing with %s %s > FILE", head, input, cat,
					   input);
		if (!strcmp(role, "--pt"))
			return pts_err_set(err, e, "%s: a trace is read as it is; decompress"
					   " it (%s %s > FILE) and give --pt FILE", head, cat, input);
		return pts_err_set(err, e, "%s: decompress it as it is read: %s %s |"
				   " ptscope decode --perf-script - -o OUT", head, cat, input);
	case PTS_MAGIC_NONE:
		break;
	}
	return 0;
}

/* A bundle, --pt or --perf-script that is another kind of file (other_kind). */
static int input_other_kind(const struct pts_decode_req *r, struct pts_err *err)
{
	unsigned int i;
	int rc = 0;

	if (r->bundle)
		rc = other_kind("bundle", r->bundle, pts_file_magic(r->bundle), err);
	for (i = 0; !rc && i < r->o.nr_pt; i++)
		rc = other_kind("--pt", r->o.pt[i].path, pts_file_magic(r->o.pt[i].path), err);
	if (!rc && r->perf_script && strcmp(r->perf_script, "-"))
		rc = other_kind("--perf-script", r->perf_script, pts_file_magic(r->perf_script),
				err);
	return rc;
}

/*
 * The format of -o's last component, in any case ("T.TXT", "t.fxt.gz":
 * names from systems that upper-case them). PTS_FMT_NONE if the extension
 * is none of the formats'.
 */
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

/* Options of raw --pt traces only: a bundle records these, perf script text needs none. */
static const int raw_only[] = {
	D_ELF, D_RAW, D_MTC, D_NOM, D_CPUID15, D_TSC_KHZ, D_PEV_PRI, D_PEV_SEC, D_PEV_ST,
	D_PEV_SHIFT, D_PEV_MULT, D_PEV_ZERO,
};

/* Options of PT traces (a bundle or --pt): perf script text has no code to read. */
static const int pt_only[] = { D_KCORE, D_KALLSYMS, D_SYSROOT, D_BUILDID_DIR, D_CPU_MODEL };

static const char *opt_name(int id)
{
	size_t i;

	for (i = 0; i < dopt_tab.n; i++)
		if (dopt_table[i].id == id)
			return dopt_table[i].name;
	return "?";
}

/* An option given that the input kind does not use: said, with what to do. */
static int unused_options(const struct pts_decode_req *r, struct pts_err *err)
{
	size_t i;

	for (i = 0; i < sizeof(raw_only) / sizeof(raw_only[0]); i++) {
		if (!(r->given & (1ull << raw_only[i])))
			continue;
		if (r->bundle)
			return pts_err_set(err, EINVAL, "--%s is for raw --pt traces: bundle %s"
					   " records its own code, timing and sideband; leave"
					   " --%s out (code the bundle lacks: --sysroot DIR)",
					   opt_name(raw_only[i]), r->bundle, opt_name(raw_only[i]));
		if (r->perf_script)
			return pts_err_set(err, EINVAL, "--%s is for raw --pt traces: perf script"
					   " text names its symbols and times itself; leave --%s"
					   " out", opt_name(raw_only[i]), opt_name(raw_only[i]));
	}
	if (!r->perf_script)
		return 0;
	for (i = 0; i < sizeof(pt_only) / sizeof(pt_only[0]); i++)
		if (r->given & (1ull << pt_only[i]))
			return pts_err_set(err, EINVAL, "--%s is for PT traces (a bundle or --pt):"
					   " perf script text names its symbols itself; leave --%s"
					   " out", opt_name(pt_only[i]), opt_name(pt_only[i]));
	if (r->insn_list)
		return pts_err_set(err, EINVAL, "--insn-list needs a PT trace (a bundle or --pt):"
				   " perf script text lists branches, not instructions");
	return 0;
}

/* The output format: --format, else -o's extension; "-" alone is text. */
static int settle_format(struct pts_decode_req *r, struct pts_err *err)
{
	if (r->fmt_name) {
		int named;

		r->fmt = pts_format_from_name(r->fmt_name);
		if (r->fmt < 0)
			return pts_err_set(err, EINVAL, "unknown --format %s: give fxt (opens in "
					   "ui.perfetto.dev), json (Chrome trace), txt, folded or "
					   "null", r->fmt_name);
		/*
		 * A file named for one format written in another (x.fxt holding
		 * JSON) misleads every tool that goes by the name; null writes none
		 */
		named = r->out ? format_from_path(r->out) : PTS_FMT_NONE;
		if (named != PTS_FMT_NONE && r->fmt != PTS_FMT_NONE && named != r->fmt)
			return pts_err_set(err, EINVAL, "-o %s names another format than --format"
					   " %s: name the file for its format, or leave --format"
					   " out", r->out, r->fmt_name);
	} else if (r->out) {
		r->fmt = format_from_path(r->out);
		if (r->fmt == PTS_FMT_NONE && strcmp(r->out, "-"))
			return pts_err_set(err, EINVAL, "cannot tell the format of %s: name it .fxt"
					   " (opens in ui.perfetto.dev), .json, .txt or .folded, or "
					   "give --format", r->out);
		if (!strcmp(r->out, "-"))
			r->fmt = PTS_FMT_TXT;
	} else {
		r->fmt = PTS_FMT_NONE;
	}
	/* the writer refuses it too (-EINVAL); asked for on the command line it is bad usage */
	if (r->out && !strcmp(r->out, "-") && r->fmt == PTS_FMT_FXT)
		return pts_err_set(err, EINVAL, "the fxt format is binary and cannot go to standard"
				   " output; name a file with -o (FILE.fxt, or FILE.fxt.gz"
				   " compressed); into a pipe: -o /dev/stdout --format fxt");
	return 0;
}

int pts_decode_req_validate(struct pts_decode_req *r, struct pts_err *err)
{
	struct pts_decode_opts *o = &r->o;
	const char *w, *in;
	struct stat st;
	unsigned int i, j;
	int rc;

	if (r->bundle && (o->nr_pt || r->perf_script))
		return pts_err_set(err, EINVAL, "give a bundle, or --pt files, or --perf-script:"
				   " not several");
	if (o->nr_pt && r->perf_script)
		return pts_err_set(err, EINVAL, "give --pt files or --perf-script, not both: perf"
				   " script text is a trace perf decoded already");
	rc = input_misplaced(r, err);
	if (rc)
		return rc;
	rc = input_other_kind(r, err);
	if (rc)
		return rc;
	/* a regular file where a bundle goes: a raw trace or a perf script listing */
	if (r->bundle && !stat(r->bundle, &st) && S_ISREG(st.st_mode))
		return pts_err_set(err, ENOTDIR, "bundle %s is not a directory but a file (a bundle"
				   " is the NAME.ptscope directory): for a raw PT trace use --pt %s"
				   " (with --elf, --kcore for its code), for a perf script listing"
				   " --perf-script %s", r->bundle, r->bundle, r->bundle);
	if (r->bundle && o->scope)	/* 0: not given (session.h) */
		return pts_err_set(err, EINVAL, "--scope is for --pt and --perf-script: a bundle"
				   " records its own scope (its manifest's config.scope)");
	if (!r->bundle && o->vmlinux)
		return pts_err_set(err, EINVAL, "--vmlinux is for a bundle (moved by its kallsyms);"
				   " for --pt give the kernel with --elf FILE or --kcore DIR");
	rc = unused_options(r, err);
	if (rc)
		return rc;
	/*
	 * Files are looked up under --sysroot only when the bundle lacks them,
	 * so a misspelt one would otherwise pass unnoticed, and the code the
	 * user meant it for decode as gaps.
	 */
	if (o->sysroot && stat(o->sysroot, &st))
		return pts_err_set(err, errno, "--sysroot %s: %s: give the directory that holds"
				   " the capture machine's files at their paths (DIR/usr/lib/...)",
				   o->sysroot, strerror(errno));
	if (o->sysroot && !S_ISDIR(st.st_mode))
		return pts_err_set(err, ENOTDIR, "--sysroot %s is not a directory: give the"
				   " directory that holds the capture machine's files at their"
				   " paths (DIR/usr/lib/...)", o->sysroot);
	/* the same for a cache named on the command line; $HOME/.debug may well be absent */
	if ((r->given & (1ull << D_BUILDID_DIR)) &&
	    (stat(o->buildid_dir, &st) || !S_ISDIR(st.st_mode)))
		return pts_err_set(err, ENOTDIR, "--buildid-dir %s is not a directory: give perf's"
				   " build-id cache (perf buildid-cache --add, perf archive; by"
				   " default $HOME/.debug)", o->buildid_dir);
	/* a bundle's sideband and perf script text name every thread: --pid/--tid select */
	if (r->bundle || r->perf_script) {
		r->sel.pid = o->pid > 0 ? o->pid : 0;
		r->sel.tid = o->tid > 0 ? o->tid : 0;
		/* 0 is a task too: the idle task (swapper) of a kernel trace */
		r->sel.has_pid = o->pid >= 0;
		r->sel.has_tid = o->tid >= 0;
		o->pid = o->tid = -1;
	}
	if (o->have_perf_time && !o->time_mult)
		return pts_err_set(err, EINVAL, "--pevent-time-mult is needed (and not 0) with the"
				   " other --pevent-time-* options (perf's time_mult)");
	/* One trace per CPU: two files of one CPU would be merged as if they
	 * were one stream and break each other's decoder state. */
	for (i = 0; i < o->nr_pt; i++)
		for (j = i + 1; j < o->nr_pt; j++)
			if (o->pt[i].cpu == o->pt[j].cpu)
				return pts_err_set(err, EINVAL, "--pt %s and --pt %s are both CPU"
						   " %u: give each --pt its own --cpu N",
						   o->pt[i].path, o->pt[j].path, o->pt[i].cpu);
	if (o->nr_pevent && !o->pevent_sample_type)
		return pts_err_set(err, EINVAL, "--pevent-sample-type is needed to read perf"
				   " sideband files");
	if (!r->bundle && !r->perf_script && !o->nr_pt) {
		r->show_usage = true;
		return pts_err_set(err, EINVAL, "nothing to decode: give a bundle, --pt FILE or"
				   " --perf-script FILE");
	}
	w = clobbered_input(r->out, r) ? r->out : r->insn_list;
	in = clobbered_input(w, r);
	if (in)
		return pts_err_set(err, EINVAL, "%s is %s %s: writing it would destroy the trace;"
				   " choose another output name", w,
				   in == r->bundle ? "a file of the bundle" : "the input", in);
	/* a directory is neither a file to replace nor a device to write to */
	if ((r->out && dir_given("-o", r->out, err)) ||
	    (r->insn_list && dir_given("--insn-list", r->insn_list, err)))
		return -EINVAL;
	if (same_output(r->out, r->insn_list))
		return pts_err_set(err, EINVAL, "-o %s and --insn-list %s are one file: one would"
				   " replace the other; give the instruction list another name",
				   r->out, r->insn_list);
	/* --format null writes nothing (docs/output-formats.md): it needs no -o */
	if (!r->out && !r->summary && !r->insn_list &&
	    !(r->fmt_name && pts_format_from_name(r->fmt_name) == PTS_FMT_NONE))
		return pts_err_set(err, EINVAL, "say where the timeline goes: -o FILE.fxt|.json|"
				   ".txt|.folded (or --summary)");
	return settle_format(r, err);
}
