// SPDX-License-Identifier: GPL-2.0
/*
 * ptscope decode's command line (session/decode_options.h): each refusal
 * of the parse and of the validation, with the words of its message that
 * say what to give instead, and the settled request of good lines. The
 * refusals marked "new" were accepted before the option table: the value
 * or option was silently used as something else or ignored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "session/decode_options.h"
#include "util/file_magic.h"
#include "writer/writer.h"

#define MAX_WORDS 200

/* A command line: its words copied (the parse cuts --elf and --raw values in place). */
struct line {
	char buf[4096];
	char *argv[MAX_WORDS];
	int argc;
};

static void split(struct line *l, const char *text)
{
	char *p;

	snprintf(l->buf, sizeof(l->buf), "decode %s", text);
	l->argc = 0;
	for (p = strtok(l->buf, " "); p && l->argc < MAX_WORDS - 1; p = strtok(NULL, " "))
		l->argv[l->argc++] = p;
	l->argv[l->argc] = NULL;
}

static struct line L;
static struct pts_decode_req R;
static struct pts_err E;

static int parse(const char *text)
{
	split(&L, text);
	memset(&E, 0, sizeof(E));
	return pts_decode_req_parse(L.argc, L.argv, 2, &R, &E);
}

/* Parse (which must pass) and validate. */
static int check(const char *text)
{
	int rc = parse(text);

	CU_ASSERT_EQUAL(rc, 0);
	if (rc) {
		printf("\n  parse refused '%s': %s\n", text, E.msg);
		return rc;
	}
	return pts_decode_req_validate(&R, &E);
}

/* The refusal's message holds want (printed when it does not). */
#define SAYS(want)							\
	do {								\
		CU_ASSERT_PTR_NOT_NULL(strstr(E.msg, want));		\
		if (!strstr(E.msg, want))				\
			printf("\n  message: %s\n  wanted: %s\n", E.msg, want); \
	} while (0)

static char dir[256], file[300], bundle[512];

static int setup(void)
{
	const char *t = getenv("TMPDIR");
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/decode-options-XXXXXX", t ? t : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	snprintf(file, sizeof(file), "%s/trace.pt", dir);
	f = fopen(file, "w");
	if (!f)
		return -1;
	fputs("x", f);
	fclose(f);
	snprintf(bundle, sizeof(bundle), "%s/samples/demo.ptscope", pts_unit_src_dir());
	return 0;
}

static int teardown(void)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static void each_bad_option_or_value_is_refused_with_the_form_to_give(void)
{
	static const struct { const char *line, *says; } bad[] = {
		{ "--no-such-option", "unknown option '--no-such-option' for ptscope decode (see ptscope decode --help)" },
		/* new: -output was -o with the value "utput", -summary "unknown option" alone */
		{ "-output x.fxt", "unknown option '-output' for ptscope decode: a long option takes two dashes: --output" },
		{ "-summary", "unknown option '-summary' for ptscope decode: a long option takes two dashes: --summary" },
		{ "-output=x.fxt", "a long option takes two dashes: --output=x.fxt" },
		{ "--pt", "--pt needs a value: --pt FILE" },
		{ "--summary=yes", "option '--summary' takes no value" },
		{ "-qx", "unknown option '-qx'" },
		{ "-o a.txt -o b.txt", "-o given twice (a.txt and b.txt)" },
		/* each says the whole range: 0 and -1 were "1 or more", "up to 256, not '-1'" */
		{ "-j 0", "-j wants a number of decoder threads from 1 to 256, not '0' (1: no threads; without -j: one a CPU)" },
		{ "-j -1", "-j wants a number of decoder threads from 1 to 256, not '-1'" },
		{ "-j 257", "-j wants a number of decoder threads from 1 to 256, not '257'" },
		{ "--jobs=four", "-j wants a number of decoder threads from 1 to 256, not 'four'" },
		{ "--chunk-size 4294967296", "--chunk-size wants a size up to 4294967295 bytes" },
		{ "--chunk-size 4G", "--chunk-size wants a size up to 4294967295 bytes (e.g. 32K, 1M), not '4G'" },
		{ "--chunk-size 64Q", "--chunk-size wants a size up to 4294967295 bytes" },
		{ "--cpu 1", "--cpu names the CPU of the --pt before it" },
		{ "--pt a --cpu 8192", "--cpu wants a number up to 8191, not '8192'" },
		{ "--elf a.out:zz", "--elf FILE:BASE wants a number" },
		{ "--raw code.bin:1", "--raw wants FILE:OFFSET:VADDR" },
		{ "--raw code.bin:x:1", "--raw OFFSET wants a number" },
		{ "--cpu-model 6/85x", "--cpu-model wants FAMILY/MODEL[/STEPPING], e.g. 6/85/4" },
		{ "--cpuid-15 2", "--cpuid-15 wants EAX,EBX" },
		{ "--mtc-freq 16", "--mtc-freq wants a number up to 15, not '16'" },
		{ "--nom-freq 256", "--nom-freq wants a number up to 255" },
		{ "--tsc-khz 1x", "--tsc-khz wants a number" },
		{ "--pevent-time-shift 64", "--pevent-time-shift wants a number up to 63" },
		{ "--scope users", "--scope is user, kernel or both" },
		{ "--pid x", "--pid wants a number" },
		{ "--tid 2147483648", "--tid wants a number up to 2147483647" },
		{ "--time 2ms..1ms", "--time" },
		{ "a.ptscope b.ptscope", "one bundle at a time (extra argument b.ptscope)" },
		/* new: perf's -i/--input was "unknown option '-i' (see --help)" alone */
		{ "-i d.ptscope -o x.fxt", "no option -i: the input is a plain argument, not perf's "
		  "-i/--input: ptscope decode d.ptscope -o OUT (a bundle; --pt FILE for raw PT, "
		  "--perf-script FILE for perf script's text)" },
		{ "--input=d.ptscope", "no option --input: the input is a plain argument, not "
		  "perf's -i/--input: ptscope decode d.ptscope -o OUT" },
		{ "-o x.fxt --input", "no option --input: the input is a plain argument, not "
		  "perf's -i/--input: ptscope decode NAME.ptscope -o OUT" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(parse(bad[i].line), -EINVAL);
		SAYS(bad[i].says);
	}
}

/* New: 0 bytes per chunk was taken as 1; it is refused, saying what 1 means. */
static void chunk_size_0_is_refused(void)
{
	CU_ASSERT_EQUAL(parse("--pt a.pt -o x.txt --chunk-size 0"), -EINVAL);
	SAYS("--chunk-size wants 1 or more trace bytes per chunk (1: a chunk at every PSB;"
	     " default 32768)");
	CU_ASSERT_EQUAL(parse("--pt a.pt -o x.txt --chunk-size 1"), 0);
	CU_ASSERT_EQUAL(R.o.chunk_bytes, 1);
}

/* --chunk-size takes sizes as capture's --size does (64K), besides plain numbers. */
static void chunk_size_takes_a_size_with_a_unit(void)
{
	CU_ASSERT_EQUAL(parse("--pt a.pt -o x.txt --chunk-size 64K"), 0);
	CU_ASSERT_EQUAL(R.o.chunk_bytes, 65536);
	CU_ASSERT_EQUAL(parse("--pt a.pt -o x.txt --chunk-size 1MiB"), 0);
	CU_ASSERT_EQUAL(R.o.chunk_bytes, 1048576);
	CU_ASSERT_EQUAL(parse("--pt a.pt -o x.txt --chunk-size 0x100"), 0);
	CU_ASSERT_EQUAL(R.o.chunk_bytes, 256);
	CU_ASSERT_EQUAL(parse("--pt a.pt -o x.txt --chunk-size 0K"), -EINVAL);
	SAYS("--chunk-size wants 1 or more trace bytes");
}

/* New: a sign made strtoull wrap ("-5": 2^64 - 5) where 64-bit values are taken. */
static void negative_numbers_are_refused(void)
{
	static const char *const bad[] = {
		"--pevent-time-zero -5", "--pevent-sample-type -1", "--elf a.out:-4096",
		"--raw code.bin:-1:4096",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(parse(bad[i]), -EINVAL);
		SAYS("wants a number up to 18446744073709551615");
	}
}

/* 65 --pt files: one past PTS_DEC_MAX_INPUTS. */
static void too_many_inputs_are_refused(void)
{
	char text[2048] = "";
	int i;

	for (i = 0; i <= PTS_DEC_MAX_INPUTS; i++)
		strcat(text, "--pt a ");
	CU_ASSERT_EQUAL(parse(text), -EINVAL);
	SAYS("at most 64 of each input");
}

/* Words, values and defaults of a good line; -h stops the parse at once. */
static void a_good_line_is_parsed_in_any_order(void)
{
	CU_ASSERT_EQUAL_FATAL(parse("-j4 --chunk-size=4096 B.ptscope -o t.fxt --summary --pid 7"), 0);
	CU_ASSERT_STRING_EQUAL(R.bundle, "B.ptscope");
	CU_ASSERT_STRING_EQUAL(R.out, "t.fxt");
	CU_ASSERT_EQUAL(R.o.jobs, 4);
	CU_ASSERT_EQUAL(R.o.chunk_bytes, 4096);
	CU_ASSERT(R.summary);
	CU_ASSERT_EQUAL(R.o.pid, 7);
	CU_ASSERT_EQUAL(R.o.tid, -1);
	CU_ASSERT_EQUAL_FATAL(parse("--pt a.pt --cpu 3 --elf prog:0x400000 --raw f:x:y:16:0x1000 -o -"), 0);
	CU_ASSERT_EQUAL(R.o.jobs, 2);	/* the online CPUs given to the parse */
	CU_ASSERT_EQUAL(R.o.pt[0].cpu, 3);
	CU_ASSERT_STRING_EQUAL(R.o.elf[0].path, "prog");
	CU_ASSERT_EQUAL(R.o.elf[0].base, 0x400000);
	CU_ASSERT_STRING_EQUAL(R.o.raw[0].path, "f:x:y");
	CU_ASSERT_EQUAL(R.o.raw[0].offset, 16);
	CU_ASSERT_EQUAL(R.o.raw[0].vaddr, 0x1000);
	CU_ASSERT_EQUAL_FATAL(parse("-o x.txt -- -odd.ptscope"), 0);
	CU_ASSERT_STRING_EQUAL(R.bundle, "-odd.ptscope");
	CU_ASSERT_EQUAL_FATAL(parse("--pt a -h --no-such-option"), 0);
	CU_ASSERT(R.help);
}

static void each_bad_combination_is_refused_before_any_work(void)
{
	char text[1400];

	CU_ASSERT_EQUAL(check("B.ptscope --pt a.pt -o x.txt"), -EINVAL);
	SAYS("give a bundle, or --pt files, or --perf-script: not several");
	CU_ASSERT_EQUAL(check("B.ptscope --perf-script p.txt -o x.txt"), -EINVAL);
	SAYS("not several");
	snprintf(text, sizeof(text), "%s -o x.txt", file);
	CU_ASSERT_EQUAL(check(text), -ENOTDIR);
	SAYS("is not a directory but a file (a bundle is the NAME.ptscope directory): for a raw"
	     " PT trace use --pt");
	CU_ASSERT_EQUAL(check("B.ptscope --scope user -o x.txt"), -EINVAL);
	SAYS("--scope is for --pt and --perf-script");
	CU_ASSERT_EQUAL(check("--pt a.pt --vmlinux vmlinux -o x.txt"), -EINVAL);
	SAYS("for --pt give the kernel with --elf FILE or --kcore DIR");
	CU_ASSERT_EQUAL(check("--pt a.pt --pevent-time-shift 3 -o x.txt"), -EINVAL);
	SAYS("--pevent-time-mult is needed (and not 0)");
	CU_ASSERT_EQUAL(check("--pt a.pt --pt b.pt --cpu 0 -o x.txt"), -EINVAL);
	SAYS("--pt a.pt and --pt b.pt are both CPU 0: give each --pt its own --cpu N");
	CU_ASSERT_EQUAL(check("--pt a.pt --pevent-primary s.bin -o x.txt"), -EINVAL);
	SAYS("--pevent-sample-type is needed");
	snprintf(text, sizeof(text), "--perf-script %s -o x.txt", dir);
	CU_ASSERT_EQUAL(check(text), -EISDIR);
	SAYS("is a directory: give the file `perf script --itrace=cr --ns -F pid,tid,time,flags,ip,sym,symoff,dso,addr` wrote");
	CU_ASSERT_EQUAL(check("-o x.txt --summary"), -EINVAL);
	SAYS("nothing to decode: give a bundle, --pt FILE or --perf-script FILE");
	CU_ASSERT(R.show_usage);
	CU_ASSERT_EQUAL(check("--pt a.pt"), -EINVAL);
	SAYS("say where the timeline goes: -o FILE.fxt|.json|.txt|.folded (or --summary)");
	CU_ASSERT_EQUAL(check("--pt a.pt -o x.txt --format svg"), -EINVAL);
	SAYS("unknown --format svg: give fxt (opens in ui.perfetto.dev), json (Chrome trace), "
	     "txt, folded or null");
	/* any case, as -o's extension */
	CU_ASSERT_EQUAL(check("--pt a.pt -o x.fxt --format FXT"), 0);
	CU_ASSERT_EQUAL(check("--pt a.pt -o x.unknownext"), -EINVAL);
	SAYS("cannot tell the format of x.unknownext: name it .fxt (opens in ui.perfetto.dev), "
	     ".json, .txt or .folded, or give --format");
	CU_ASSERT_EQUAL(check("--pt a.pt -o - --format fxt"), -EINVAL);
	SAYS("the fxt format is binary and cannot go to standard output");
	/* new: where a pipe goes instead (a device is written as it is, writer.h) */
	SAYS("into a pipe: -o /dev/stdout --format fxt");
	/* a name for one format written in another: every tool going by the name is misled */
	CU_ASSERT_EQUAL(check("--pt a.pt -o t.fxt --format json"), -EINVAL);
	SAYS("-o t.fxt names another format than --format json");
	CU_ASSERT_EQUAL(check("--pt a.pt -o t.folded.gz --format txt"), -EINVAL);
	SAYS("-o t.folded.gz names another format than --format txt");
	CU_ASSERT_EQUAL(check("--pt a.pt -o t.JSON.gz --format json"), 0);
	CU_ASSERT_EQUAL(check("--pt a.pt -o t.out --format json"), 0);
	CU_ASSERT_EQUAL(check("--pt a.pt -o t.fxt --format null"), 0);
	/* a misspelt --sysroot: used only for what the bundle lacks, it would pass unseen */
	snprintf(text, sizeof(text), "%s --sysroot %s/no-such-root -o x.txt", bundle, dir);
	CU_ASSERT_EQUAL(check(text), -ENOENT);
	SAYS("/no-such-root: No such file or directory: give the directory that holds the"
	     " capture machine's files");
	snprintf(text, sizeof(text), "--pt a.pt --sysroot %s -o x.txt", file);
	CU_ASSERT_EQUAL(check(text), -ENOTDIR);
	SAYS("/trace.pt is not a directory: give the directory");
	snprintf(text, sizeof(text), "%s --sysroot %s -o x.txt", bundle, dir);
	CU_ASSERT_EQUAL(check(text), 0);
	/* standard input is a stream; a raw trace is mapped */
	CU_ASSERT_EQUAL(check("--pt - -o t.fxt"), -EINVAL);
	SAYS("--pt -: a raw trace is mapped from a file, not read from standard input");
}

/* Outputs that would destroy an input or each other, or that are directories. */
static void outputs_that_would_destroy_an_input_are_refused(void)
{
	char text[1400];

	snprintf(text, sizeof(text), "--pt %s -o %s --format txt", file, file);
	CU_ASSERT_EQUAL(check(text), -EINVAL);
	SAYS("writing it would destroy the trace; choose another output name");
	snprintf(text, sizeof(text), "%s -o %s/cpu0.pt --format txt", bundle, bundle);
	CU_ASSERT_EQUAL(check(text), -EINVAL);
	SAYS("is a file of the bundle");
	snprintf(text, sizeof(text), "--pt a.pt -o %s", dir);
	CU_ASSERT_EQUAL(check(text), -EINVAL);
	SAYS("is a directory: name a file (in it, e.g.");
	snprintf(text, sizeof(text), "--pt a.pt -o %s/t.txt --insn-list %s/t.txt", dir, dir);
	CU_ASSERT_EQUAL(check(text), -EINVAL);
	SAYS("are one file: one would replace the other; give the instruction list another name");
}

/*
 * New: options the input kind does not use were ignored without a word
 * (a raw PT --elf given with a bundle, code options and --insn-list with
 * perf script text, --pt together with --perf-script: the text was
 * decoded, the trace not).
 */
static void options_the_input_does_not_use_are_refused(void)
{
	static const char *const raw_only[] = {
		"--elf a.out", "--raw f:0:0", "--mtc-freq 3", "--nom-freq 20", "--cpuid-15 2,308",
		"--tsc-khz 2000000", "--pevent-primary s --pevent-sample-type 7",
		"--pevent-sample-type 7",
	};
	char text[1400];
	size_t i;

	for (i = 0; i < sizeof(raw_only) / sizeof(raw_only[0]); i++) {
		snprintf(text, sizeof(text), "%s %s -o x.txt", bundle, raw_only[i]);
		CU_ASSERT_EQUAL(check(text), -EINVAL);
		SAYS("is for raw --pt traces: bundle");
		SAYS("records its own code, timing and sideband; leave");
		snprintf(text, sizeof(text), "--perf-script p.txt %s -o x.txt", raw_only[i]);
		CU_ASSERT_EQUAL(check(text), -EINVAL);
		SAYS("is for raw --pt traces: perf script text names its symbols and times itself");
	}
	CU_ASSERT_EQUAL(check("--perf-script p.txt --sysroot / -o x.txt"), -EINVAL);
	SAYS("--sysroot is for PT traces (a bundle or --pt): perf script text names its symbols"
	     " itself; leave --sysroot out");
	CU_ASSERT_EQUAL(check("--perf-script p.txt --kcore k -o x.txt"), -EINVAL);
	SAYS("--kcore is for PT traces");
	CU_ASSERT_EQUAL(check("--perf-script p.txt --cpu-model 6/85 -o x.txt"), -EINVAL);
	SAYS("--cpu-model is for PT traces");
	CU_ASSERT_EQUAL(check("--perf-script p.txt --insn-list i.txt -o x.txt"), -EINVAL);
	SAYS("--insn-list needs a PT trace (a bundle or --pt): perf script text lists branches,"
	     " not instructions");
	CU_ASSERT_EQUAL(check("--pt a.pt --perf-script p.txt -o x.txt"), -EINVAL);
	SAYS("give --pt files or --perf-script, not both");
}

/*
 * A good request settled: the format from -o in any case, "-" is text;
 * --pid/--tid of a bundle select (as in perf script), and of perf script
 * text too (new: ignored before); of raw PT they name the trace's thread.
 */
static void a_good_request_is_settled(void)
{
	char text[1400];

	CU_ASSERT_EQUAL(check("--pt a.pt -o T.JSON"), 0);
	CU_ASSERT_EQUAL(R.fmt, PTS_FMT_JSON);
	CU_ASSERT_EQUAL(check("--pt a.pt -o -"), 0);
	CU_ASSERT_EQUAL(R.fmt, PTS_FMT_TXT);
	CU_ASSERT_EQUAL(check("--pt a.pt --format null"), 0);
	CU_ASSERT_EQUAL(R.fmt, PTS_FMT_NONE);
	CU_ASSERT_EQUAL(check("--pt a.pt --pid 7 -o x.txt"), 0);
	CU_ASSERT_EQUAL(R.o.pid, 7);
	CU_ASSERT_EQUAL(R.sel.pid, 0);
	snprintf(text, sizeof(text), "%s --pid 7 --tid 8 -o x.fxt", bundle);
	CU_ASSERT_EQUAL(check(text), 0);
	CU_ASSERT_EQUAL(R.sel.pid, 7);
	CU_ASSERT_EQUAL(R.sel.tid, 8);
	CU_ASSERT_EQUAL(R.o.pid, -1);
	CU_ASSERT_EQUAL(check("--perf-script p.txt --tid 8 -o x.fxt"), 0);
	CU_ASSERT_EQUAL(R.sel.tid, 8);
	CU_ASSERT_EQUAL(R.o.tid, -1);
	/* 0 is asked for (the idle task), not "no selection" */
	snprintf(text, sizeof(text), "%s --tid 0 -o x.fxt", bundle);
	CU_ASSERT_EQUAL(check(text), 0);
	CU_ASSERT_EQUAL(R.sel.tid, 0);
	CU_ASSERT_TRUE(R.sel.has_tid);
	CU_ASSERT_FALSE(R.sel.has_pid);
	CU_ASSERT_EQUAL(check("--perf-script p.txt --pid 0 -o x.fxt"), 0);
	CU_ASSERT_TRUE(R.sel.has_pid);
	CU_ASSERT_FALSE(R.sel.has_tid);
}

/* A file of head's n bytes (then zeros to 512) at dir/name; its path in out. */
static void kind_file(const char *name, const void *head, size_t n, char *out, size_t len)
{
	char buf[512] = { 0 };
	FILE *f;

	snprintf(out, len, "%s/%s", dir, name);
	memcpy(buf, head, n);
	f = fopen(out, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(fwrite(buf, 1, sizeof(buf), f), sizeof(buf));
	fclose(f);
}

static void files_of_another_kind_are_refused_with_what_to_give(void)
{
	static const unsigned char fxt[8] = { 0x10, 0x00, 0x04, 0x46, 0x78, 0x54, 0x16, 0x00 };
	char elf[400], perf[400], gz[400], tar[400], fx[400], text[1400];
	unsigned char t[262] = { 0 };

	kind_file("prog", "\177ELF\2\1\1", 7, elf, sizeof(elf));
	kind_file("perf.data", "PERFILE2", 8, perf, sizeof(perf));
	kind_file("t.gz", "\x1f\x8b\x08", 3, gz, sizeof(gz));
	memcpy(t + 257, "ustar", 5);
	kind_file("b.tar", t, sizeof(t), tar, sizeof(tar));
	kind_file("t.fxt", fxt, sizeof(fxt), fx, sizeof(fx));
	CU_ASSERT_EQUAL(pts_file_magic(elf), PTS_MAGIC_ELF);
	CU_ASSERT_EQUAL(pts_file_magic(file), PTS_MAGIC_NONE);	/* "x": a raw trace may be anything */
	CU_ASSERT_EQUAL(pts_file_magic(dir), PTS_MAGIC_NONE);

	snprintf(text, sizeof(text), "%s -o x.txt", elf);
	CU_ASSERT_EQUAL(check(text), -ENOTDIR);
	SAYS("is an ELF file (a program or library), not a bundle");
	SAYS("give it with --elf");
	snprintf(text, sizeof(text), "--pt %s -o x.txt", elf);
	CU_ASSERT_EQUAL(check(text), -ENOEXEC);
	SAYS("is an ELF file (a program or library), not a raw PT trace");
	snprintf(text, sizeof(text), "--pt %s -o x.txt", perf);
	CU_ASSERT_EQUAL(check(text), -ENOEXEC);
	SAYS("is a perf.data file (perf record's), not a raw PT trace");
	SAYS("perf script --itrace=cr --ns -F pid,tid,time,flags,ip,sym,symoff,dso,addr -i ");
	snprintf(text, sizeof(text), "--perf-script %s -o x.txt", perf);
	CU_ASSERT_EQUAL(check(text), -ENOEXEC);
	SAYS("not perf script's text");
	snprintf(text, sizeof(text), "--perf-script %s -o x.txt", gz);
	CU_ASSERT_EQUAL(check(text), -ENOEXEC);
	SAYS("is gzip-compressed, not perf script's text: decompress it as it is read: zcat ");
	snprintf(text, sizeof(text), "--pt %s -o x.txt", gz);
	CU_ASSERT_EQUAL(check(text), -ENOEXEC);
	SAYS("decompress it (zcat ");
	snprintf(text, sizeof(text), "%s -o x.txt", tar);
	CU_ASSERT_EQUAL(check(text), -ENOTDIR);
	SAYS("is a tar archive, not a bundle");
	SAYS("unpack it (tar xf ");
	snprintf(text, sizeof(text), "%s -o x.txt", fx);
	CU_ASSERT_EQUAL(check(text), -ENOTDIR);
	SAYS("is a Perfetto .fxt timeline (ptscope decode's output)");
	/* a file of no known kind is still taken for a trace */
	snprintf(text, sizeof(text), "--pt %s -o x.txt", file);
	CU_ASSERT_EQUAL(check(text), 0);
}

/*
 * New: an input file named by an option that cannot be read was said as
 * the open() of a "code file" or "trace file" deep in the decode, without
 * its option or what to give (--raw's said "cannot read it" alone).
 */
static void input_files_that_cannot_be_read_are_named_by_option(void)
{
	/* each line: INPUT OPT DIR/nx[TAIL] -o x.txt, INPUT the trace (--pt FILE), the bundle or none */
	enum { TRACE, BUNDLE, NONE };
	static const struct { int in; const char *opt, *tail, *says; } bad[] = {
		{ NONE, "--pt", "", "give a file of one CPU's raw trace" },
		{ TRACE, "--elf", ":0x1000", "give the traced program or library (--elf FILE[:BASE]" },
		{ TRACE, "--kallsyms", "", "give a copy of the traced machine's /proc/kallsyms" },
		{ TRACE, "--pevent-primary", " --pevent-sample-type 1", "give a file of perf's sideband records" },
		{ TRACE, "--pevent-secondary", " --pevent-sample-type 1", "give a file of perf's sideband records" },
		{ TRACE, "--raw", ":0:0x1000", "give the file of the code's bytes (--raw FILE:OFFSET:VADDR)" },
		{ BUNDLE, "--vmlinux", "", "give the kernel's ELF image, vmlinux" },
		{ NONE, "--perf-script", "", "give the file `perf script --itrace=cr" },
	};
	char text[1400], want[1400];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "%s%s %s %s/nx%s -o x.txt",
			 bad[i].in == TRACE ? "--pt " : "", bad[i].in == TRACE ? file :
			 bad[i].in == BUNDLE ? bundle : "", bad[i].opt, dir, bad[i].tail);
		CU_ASSERT_EQUAL(check(text), 0);
		CU_ASSERT_EQUAL(pts_decode_req_inputs_readable(&R, &E), -ENOENT);
		/* both --pevent options are said as one (their files are one list) */
		snprintf(want, sizeof(want), "%s %s/nx: No such file or directory: %s",
			 strncmp(bad[i].opt, "--pevent", 8) ? bad[i].opt :
			 "--pevent-primary/-secondary", dir, bad[i].says);
		SAYS(want);
	}
	/* files that are there; standard input is not a file */
	snprintf(text, sizeof(text), "--pt %s --elf %s:0x1000 -o x.txt", file, file);
	CU_ASSERT_EQUAL(check(text), 0);
	CU_ASSERT_EQUAL(pts_decode_req_inputs_readable(&R, &E), 0);
	CU_ASSERT_EQUAL(check("--perf-script - -o x.txt"), 0);
	CU_ASSERT_EQUAL(pts_decode_req_inputs_readable(&R, &E), 0);
	/* -o naming a directory with its '/': the example file has one '/' */
	snprintf(text, sizeof(text), "--pt %s -o %s/", file, dir);
	CU_ASSERT_EQUAL(check(text), -EINVAL);
	snprintf(want, sizeof(want), "(in it, e.g. %s/trace.fxt)", dir);
	SAYS(want);
}

/*
 * New: a file or folder of a bundle where the bundle goes was "not a
 * directory but a file ... use --pt" or "not a bundle": the bundle it
 * lies in is named, to decode instead (the manifest itself keeps its own
 * message, checked above).
 */
static void a_file_or_folder_of_a_bundle_names_the_bundle(void)
{
	static const char *const in[] = { "cpu0.pt", "sideband.bin", "objects",
					  "objects/tmp/ptscope-sample/demo" };
	char text[1400], want[2400];
	size_t i;

	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		snprintf(text, sizeof(text), "%s/%s -o x.txt", bundle, in[i]);
		CU_ASSERT_EQUAL(check(text), -ENOTDIR);
		snprintf(want, sizeof(want), "%s/%s is a %s of the bundle %s: give the bundle, its"
			 " directory (ptscope decode %s -o OUT)", bundle, in[i],
			 strcmp(in[i], "objects") ? "file" : "folder", bundle, bundle);
		SAYS(want);
	}
	/* a directory outside any bundle is still "not a bundle" */
	snprintf(text, sizeof(text), "%s -o x.txt", dir);
	CU_ASSERT_EQUAL(check(text), 0);
}

PTS_SUITE(session_decode_options, setup, teardown,
	  PTS_TEST(each_bad_option_or_value_is_refused_with_the_form_to_give),
	  PTS_TEST(chunk_size_0_is_refused),
	  PTS_TEST(chunk_size_takes_a_size_with_a_unit),
	  PTS_TEST(negative_numbers_are_refused),
	  PTS_TEST(too_many_inputs_are_refused),
	  PTS_TEST(a_good_line_is_parsed_in_any_order),
	  PTS_TEST(each_bad_combination_is_refused_before_any_work),
	  PTS_TEST(outputs_that_would_destroy_an_input_are_refused),
	  PTS_TEST(options_the_input_does_not_use_are_refused),
	  PTS_TEST(a_good_request_is_settled),
	  PTS_TEST(files_of_another_kind_are_refused_with_what_to_give),
	  PTS_TEST(input_files_that_cannot_be_read_are_named_by_option),
	  PTS_TEST(a_file_or_folder_of_a_bundle_names_the_bundle));
