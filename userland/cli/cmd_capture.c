// SPDX-License-Identifier: GPL-2.0
/*
 * ptscope run, attach and record: parse, then the shared capture loop.
 */
#include <stdio.h>
#include <stdlib.h>

#include "capture/options.h"
#include "capture_loop.h"
#include "commands.h"

static int capture_cmd(enum pts_capture_cmd cmd, int argc, char **argv)
{
	struct pts_capture_opts *o = malloc(sizeof(*o));
	struct pts_err err = { 0 };
	int rc;

	if (!o) {
		fprintf(stderr, "ptscope: out of memory\n");
		return 1;
	}
	if (pts_opts_parse(cmd, argc, argv, o, &err)) {
		fprintf(stderr, "ptscope: %s\n", err.msg);
		free(o);
		return 2;
	}
	if (o->help) {
		pts_opts_usage(cmd, stdout);
		free(o);
		return 0;
	}
	rc = pts_cli_capture(o);
	free(o);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	return capture_cmd(PTS_CMD_RUN, argc, argv);
}

int cmd_attach(int argc, char **argv)
{
	return capture_cmd(PTS_CMD_ATTACH, argc, argv);
}

int cmd_record(int argc, char **argv)
{
	return capture_cmd(PTS_CMD_RECORD, argc, argv);
}
