// SPDX-License-Identifier: GPL-2.0
/*
 * ptscope caps [--json]: the PT unit's and the module's capabilities.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "capture/caps.h"
#include "capture/device.h"
#include "commands.h"

int cmd_caps(int argc, char **argv)
{
	struct ptscope_caps caps;
	struct pts_err err = { 0 };
	int json = 0, fd, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) {
			json = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: ptscope caps [--json]\n\n"
			       "Show whether the module is loaded, whether the PT unit is real or\n"
			       "simulated, the CPU identity and timing inputs, and each PT feature\n"
			       "(CPUID leaf 14H) with what its absence means.\n\n"
			       "  -j, --json   one JSON object instead of the table\n");
			return 0;
		} else {
			fprintf(stderr, "ptscope caps: unknown option '%s' (see ptscope caps --help)\n",
				argv[i]);
			return 2;
		}
	}
	fd = pts_dev_open(&err);
	if (fd < 0) {
		if (json)
			printf("{ \"module_loaded\": false, \"error\": \"%s\" }\n",
			       strerror(-fd));
		fprintf(stderr, "ptscope: %s\n", err.msg);
		return 1;
	}
	if (pts_dev_get_caps(fd, &caps, &err)) {
		fprintf(stderr, "ptscope: %s\n", err.msg);
		close(fd);
		return 1;
	}
	close(fd);
	if (json)
		pts_caps_print_json(&caps, stdout);
	else
		pts_caps_print_table(&caps, stdout);
	return 0;
}
