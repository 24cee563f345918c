// SPDX-License-Identifier: GPL-2.0
/*
 * ptscope trigger: fire the snapshot trigger of the capture armed by
 * another ptscope (--trigger manual, or any armed capture).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "capture/device.h"
#include "commands.h"

int cmd_trigger(int argc, char **argv)
{
	struct ptscope_state st;
	struct pts_err err = { 0 };
	int fd, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("Usage: ptscope trigger\n\n"
			       "Fire the trigger of the armed capture (PTSCOPE_IOC_TRIGGER): the\n"
			       "module stops tracing (after --post-trigger, if set) and the ptscope\n"
			       "run/attach/record that armed it writes the bundle.\n\n"
			       "Options:\n"
			       "  -h, --help  show this help\n\n"
			       "Exit status: 0 fired, 1 the device cannot be opened or nothing is\n"
			       "armed, 2 bad usage.\n");
			return 0;
		}
		fprintf(stderr, "ptscope trigger: unknown argument '%s' (see ptscope trigger --help)\n",
			argv[i]);
		return 2;
	}
	fd = pts_dev_open(&err);
	if (fd < 0) {
		fprintf(stderr, "ptscope: %s\n", err.msg);
		return 1;
	}
	if (pts_dev_cmd(fd, PTSCOPE_IOC_TRIGGER, "TRIGGER", &err)) {
		fprintf(stderr, "ptscope: %s\n", err.msg);
		close(fd);
		return 1;
	}
	if (!pts_dev_get_state(fd, &st, &err))
		printf("ptscope: trigger fired; capture now %s\n", pts_state_text(st.state));
	else
		printf("ptscope: trigger fired\n");
	close(fd);
	return 0;
}
