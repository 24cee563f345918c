// SPDX-License-Identifier: GPL-2.0
/*
 * ptscope: subcommand dispatch.
 */
#include <stdio.h>
#include <string.h>

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
		fprintf(stderr, "ptscope: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 2;
}
