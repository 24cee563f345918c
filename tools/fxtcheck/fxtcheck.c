// SPDX-License-Identifier: GPL-2.0
/*
 * fxtcheck: validate a Fuchsia trace format file with the independent
 * reader of the tests (tests/unit/fxt_reader.c, written from the format
 * reference, not from ptscope's writer) and summarise it. For scripted
 * checks of `ptscope decode -o X.fxt` output.
 *
 *   fxtcheck [--dump] FILE.fxt      (FILE.fxt.gz too: read through zlib)
 *
 * Exit status: 0 when the file is valid (every record well formed,
 * every begin matched by an end on its thread, time monotonic per
 * thread), 1 when it is not (the reason goes to stderr), 2 on usage
 * (--help prints the usage and exits 0; --version prints "fxtcheck 0.1").
 * --dump prints one line per slice, instant, counter and named object:
 *   slice PID/TID DEPTH BEGIN END CATEGORY NAME
 *   instant PID/TID TS CATEGORY NAME
 *   counter PID TS NAME VALUE
 *   process KOID NAME / thread KOID PROCESS NAME
 */
#include <stdio.h>
#include <string.h>

#include <zlib.h>

#include "../../tests/unit/fxt_reader.h"
#include "util/version.h"

static void dump(const struct fxtr_trace *t)
{
	size_t i;

	for (i = 0; i < t->n_kobjs; i++) {
		const struct fxtr_kobj *k = &t->kobjs[i];

		if (k->obj_type == 1)
			printf("process %llu %s\n", (unsigned long long)k->koid, k->name);
		else if (k->obj_type == 2)
			printf("thread %llu %llu %s\n", (unsigned long long)k->koid,
			       (unsigned long long)k->process, k->name);
	}
	for (i = 0; i < t->n_slices; i++) {
		const struct fxtr_slice *s = &t->slices[i];

		printf("slice %llu/%llu %u %llu %llu %s %s\n", (unsigned long long)s->pid,
		       (unsigned long long)s->tid, s->depth, (unsigned long long)s->begin,
		       (unsigned long long)s->end, s->category, s->name);
	}
	for (i = 0; i < t->n_points; i++) {
		const struct fxtr_point *p = &t->points[i];
		const struct fxtr_arg *v = fxtr_arg(&p->args, "value");

		if (p->event_type == 0)
			printf("instant %llu/%llu %llu %s %s\n", (unsigned long long)p->pid,
			       (unsigned long long)p->tid, (unsigned long long)p->ts, p->category,
			       p->name);
		else
			printf("counter %llu %llu %s %.15g\n", (unsigned long long)p->pid,
			       (unsigned long long)p->ts, p->name,
			       v && v->type == FXTR_DOUBLE ? v->d : v ? (double)v->u : 0.0);
	}
}

/*
 * What a file that is no fxt holds instead, told by its first bytes (read
 * through zlib, which passes a file that is not gzip through as it is), and
 * what to do with it: "" when the file is an fxt or nothing is known.
 */
static const char *not_fxt(const char *path)
{
	static const unsigned char fxt[8] = { 0x10, 0x00, 0x04, 0x46, 0x78, 0x54, 0x16, 0x00 };
	unsigned char h[16] = { 0 };
	gzFile f = gzopen(path, "rb");
	int n = f ? gzread(f, h, sizeof(h)) : -1;
	int i = 0;

	if (f)
		gzclose(f);
	if (n < 0)
		return "";
	if (n == 0)
		return " (the file is empty: a decode that did not finish? decode again)";
	if (n >= 8 && !memcmp(h, fxt, 8))
		return "";
	while (i < n - 1 && (h[i] == ' ' || h[i] == '\n' || h[i] == '\t' || h[i] == '\r'))
		i++;
	if (h[i] == '{' || h[i] == '[')
		return " (it is JSON: a Chrome JSON timeline, ptscope decode -o X.json, opens in"
		       " ui.perfetto.dev as it is; fxtcheck checks the .fxt that ptscope decode"
		       " -o X.fxt writes)";
	if (n >= 7 && !memcmp(h, "# ts_ns", 7))
		return " (it is ptscope decode's text timeline, -o X.txt, to read as it is;"
		       " fxtcheck checks the .fxt that ptscope decode -o X.fxt writes)";
	if (n >= 8 && (!memcmp(h, "PERFILE2", 8) || !memcmp(h, "2ELIFREP", 8)))
		return " (it is a perf.data file: ptscope decode --perf-script reads perf script's"
		       " text of it, see ptscope decode --help; fxtcheck checks .fxt files)";
	if (n >= 4 && !memcmp(h, "\177ELF", 4))
		return " (it is an ELF file, a program or library; fxtcheck checks the .fxt that"
		       " ptscope decode -o X.fxt writes)";
	return " (give the .fxt that ptscope decode -o X.fxt wrote)";
}

/* Bad usage: what is wrong, the usage line; exit status 2. */
static int usage(const char *what, const char *arg)
{
	fprintf(stderr, "fxtcheck: %s%s%s%s\nUsage: fxtcheck [--dump] FILE.fxt  (fxtcheck --help)\n",
		what, arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
	return 2;
}

int main(int argc, char **argv)
{
	struct fxtr_trace t;
	const char *path = NULL;
	int i, want_dump = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			/* asked for: not a usage error */
			printf("Usage: fxtcheck [--dump] FILE.fxt\n"
			       "  or:  fxtcheck --version\n\n"
			       "Check that FILE.fxt is a valid Fuchsia trace format file (every record\n"
			       "well formed, every slice begin matched by an end on its thread, time\n"
			       "monotonic per thread) with a reader written from the format reference,\n"
			       "independent of ptscope's writer. A gzip-compressed FILE.fxt.gz is\n"
			       "read as its contents.\n\n"
			       "Options:\n"
			       "  --dump       list every slice, instant, counter and named object,\n"
			       "               one a line (docs/output-formats.md):\n"
			       "                 slice PID/TID DEPTH BEGIN END CATEGORY NAME\n"
			       "                 instant PID/TID TS CATEGORY NAME\n"
			       "                 counter PID TS NAME VALUE\n"
			       "                 process KOID NAME, thread KOID PROCESS NAME\n"
			       "               (DEPTH 0 outermost, slices in the order they end;\n"
			       "               times in ticks: ns in ptscope's files)\n"
			       "  -h, --help   show this help\n\n"
			       "Exit status: 0 valid, 1 not valid (the reason on stderr), 2 bad usage.\n");
			return 0;
		}
		if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-V")) {
			printf("fxtcheck %s\n", PTS_VERSION);
			return 0;
		}
		if (!strcmp(argv[i], "--dump")) {
			want_dump = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return usage("unknown option", argv[i]);
		} else if (path) {
			return usage("one FILE at a time, extra argument", argv[i]);
		} else {
			path = argv[i];
		}
	}
	if (!path)
		return usage("no FILE given", NULL);
	if (fxtr_read_file(path, &t)) {
		fprintf(stderr, "fxtcheck: %s: %s%s\n", path, t.error, not_fxt(path));
		fxtr_free(&t);
		return 1;
	}
	if (want_dump)
		dump(&t);
	else
		printf("%s: valid; %zu slices, %zu instants/counters, %zu named objects, "
		       "%lu string and %lu thread records, %llu ticks/s\n", path, t.n_slices,
		       t.n_points, t.n_kobjs, t.string_records, t.thread_records,
		       (unsigned long long)t.ticks_per_second);
	fxtr_free(&t);
	return 0;
}
