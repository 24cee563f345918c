// SPDX-License-Identifier: GPL-2.0
/*
 * ptscope: subcommand dispatch.
 */
#include <stdio.h>
#include <string.h>

#include <sys/stat.h>

#include "commands.h"
#include "util/version.h"

/*
 * The decoder (cmd_decode.c) links libipt, which has no static library:
 * the static capture-only build (make static) leaves it out and this
 * fallback answers instead.
 */
__attribute__((weak)) int cmd_decode(int argc, char **argv)
{
	fprintf(stderr, "ptscope: decode not built into this binary (the static capture "
		"build has no libipt); run `ptscope decode` from a full build\n");
	return 1;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "caps", cmd_caps, "show what the PT unit and the module can do (--json)" },
	{ "run", cmd_run, "run CMD held at exec, trace it, write a bundle" },
	{ "attach", cmd_attach, "trace a running process (-p PID)" },
	{ "record", cmd_record, "trace system-wide (all CPUs or -C LIST)" },
	{ "trigger", cmd_trigger, "fire the trigger of an armed capture (--trigger manual)" },
	{ "status", cmd_status, "show the armed state and per-CPU buffer heads" },
	{ "decode", cmd_decode, "turn a bundle into a timeline (fxt, json, text, folded)" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: ptscope COMMAND [OPTIONS]   (ptscope COMMAND --help for its options)\n"
		"  or:  ptscope --version\n\n"
		"Commands:\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\nA typical session:\n"
		"  $ ptscope caps\n"
		"  $ ptscope run -o t.ptscope -- ./prog args\n"
		"  $ ptscope decode t.ptscope -o t.fxt      (open t.fxt in ui.perfetto.dev)\n"
		"\nOptions:\n"
		"  -h, --help     show this help\n"
		"  -V, --version  print the version (also every bundle's producer)\n"
		"\nExit status: 0 done, 1 failed, 2 bad usage; decode: 3 decoded with gaps\n"
		"or from a damaged input (the timeline is written; each gap is marked with\n"
		"its cause, each damage said). Each command's --help gives its own.\n");
}

/*
 * Edits (insertions, deletions, substitutions, swaps of two neighbours)
 * that turn a into b, counted up to 3: a misspelt command is within 2.
 */
static unsigned int edits(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned int d[16][16];

	if (la > 14 || lb > 14)
		return 3;
	for (i = 0; i <= la; i++)
		d[i][0] = (unsigned int)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			unsigned int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb] < 3 ? d[la][lb] : 3;
}

/*
 * What to say of a word that is no command: perf's name of decode, the
 * command it misspells, or that it names a bundle or file to decode (the
 * command left out).
 */
static void unknown_command(const char *w)
{
	static const char *const perf_decodes[] = { "report", "script" };
	struct stat st;
	size_t i, best = NR_COMMANDS;
	unsigned int e, best_e = 3;

	for (i = 0; i < sizeof(perf_decodes) / sizeof(perf_decodes[0]); i++) {
		if (!strcmp(w, perf_decodes[i])) {
			fprintf(stderr, "ptscope: unknown command '%s': perf %s's counterpart is "
				"'ptscope decode' (ptscope decode --help)\n\n", w, w);
			return;
		}
	}
	for (i = 0; i < NR_COMMANDS; i++) {
		e = edits(w, commands[i].name);
		if (e < best_e && e < strlen(commands[i].name) / 2 + 1) {
			best = i;
			best_e = e;
		}
	}
	if (best < NR_COMMANDS) {
		fprintf(stderr, "ptscope: unknown command '%s': did you mean 'ptscope %s'?\n\n", w,
			commands[best].name);
		return;
	}
	if (!stat(w, &st) && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "ptscope: '%s' is a directory, not a command: to decode a bundle, "
			"ptscope decode %s -o OUT.fxt\n\n", w, w);
		return;
	}
	if (!stat(w, &st)) {
		fprintf(stderr, "ptscope: '%s' is a file, not a command: ptscope decode reads a "
			"bundle (a directory), --pt FILE or --perf-script FILE (ptscope decode "
			"--help)\n\n", w);
		return;
	}
	fprintf(stderr, "ptscope: unknown command '%s'\n\n", w);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	/* `ptscope help decode` as git's `help`: the command's own --help */
	if (!strcmp(argv[1], "help") && argc > 2) {
		for (i = 0; i < NR_COMMANDS; i++)
			if (!strcmp(argv[2], commands[i].name))
				return commands[i].fn(2, (char *[]){ argv[2], "--help", NULL });
		fprintf(stderr, "ptscope: help: unknown command '%s'\n\n", argv[2]);
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("ptscope %s\n", PTS_VERSION);	/* the bundles' "producer" */
		return 0;
	}
	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	/* -v, --verbose, ... before any command: an option, not a misspelt command */
	if (argv[1][0] == '-')
		fprintf(stderr, "ptscope: unknown option '%s' (ptscope takes -h/--help and "
			"-V/--version; a command's options go after it, e.g. ptscope decode "
			"--help)\n\n", argv[1]);
	else
		unknown_command(argv[1]);
	usage(stderr);
	return 2;
}
