// SPDX-License-Identifier: GPL-2.0
/*
 * ptscope caps [--json]: the PT unit's and the module's capabilities;
 * without the module, what CPUID read here says about this machine.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "capture/caps.h"
#include "capture/device.h"
#include "capture/hostcpu.h"
#include "commands.h"

/* No device: the module is not loaded (or not ours to open); CPUID says the rest. */
static int caps_without_module(const struct pts_err *err, int json)
{
	struct pts_host_cpu cpu;
	char verdict[256];

	pts_host_cpu_read(&cpu);
	pts_host_cpu_verdict(&cpu, verdict, sizeof(verdict));
	if (json) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "module_loaded", json_object_new_boolean(0));
		json_object_object_add(o, "error", json_object_new_string(strerror(-err->code)));
		json_object_object_add(o, "vendor", json_object_new_string(cpu.vendor));
		json_object_object_add(o, "family", json_object_new_int64(cpu.family));
		json_object_object_add(o, "model", json_object_new_int64(cpu.model));
		json_object_object_add(o, "stepping", json_object_new_int64(cpu.stepping));
		json_object_object_add(o, "max_leaf", json_object_new_int64(cpu.max_leaf));
		json_object_object_add(o, "cpuid_7_ebx", json_object_new_int64(cpu.cpuid_7_ebx));
		json_object_object_add(o, "hypervisor", json_object_new_boolean(cpu.hypervisor));
		json_object_object_add(o, "pt", json_object_new_boolean(cpu.intel_pt));
		json_object_object_add(o, "can_decode", json_object_new_boolean(1));
		json_object_object_add(o, "can_capture", json_object_new_boolean(0));
		json_object_object_add(o, "verdict", json_object_new_string(verdict));
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							      JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	} else {
		printf("module        not loaded (%s)\n", strerror(-err->code));
		printf("CPU           %s family %u model %u (0x%x) stepping %u%s (CPUID read by "
		       "ptscope)\n", cpu.vendor, cpu.family, cpu.model, cpu.model, cpu.stepping,
		       cpu.hypervisor ? ", virtual machine" : "");
		printf("Intel PT      %s (CPUID.07H:EBX[25] is %u%s)\n", cpu.intel_pt ? "yes" : "no",
		       (cpu.cpuid_7_ebx >> 25) & 1, cpu.max_leaf < 0x14 ? ", max leaf below 14H" : "");
		printf("\n%s\n", verdict);
	}
	fprintf(stderr, "ptscope: %s\n", err->msg);
	return 1;
}

int cmd_caps(int argc, char **argv)
{
	struct ptscope_caps caps;
	struct pts_err err = { 0 };
	int json = 0, fd, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) {
			json = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("Usage: ptscope caps [--json]\n\n"
			       "Show whether the module is loaded, whether the PT unit is real or\n"
			       "simulated, the CPU identity and timing inputs, and each PT feature\n"
			       "(CPUID leaf 14H) with what its absence means, the key that a\n"
			       "hotkey trigger fires on, and which permission rules the module\n"
			       "applies on this kernel (perf_event_paranoid is not readable by a\n"
			       "module: kernel scope needs CAP_PERFMON on 6.1 and 6.12, plus\n"
			       "perf_allow_kernel()'s LSM hook on 6.12). Without the module, what\n"
			       "CPUID read here says: whether this CPU has Intel PT at all.\n\n"
			       "Options:\n"
			       "  -j, --json   one JSON object instead of the table\n"
			       "  -h, --help   show this help\n\n"
			       "Exit status: 0 the module answered, 1 it cannot be opened (the CPU\n"
			       "facts are printed all the same), 2 bad usage.\n");
			return 0;
		} else {
			fprintf(stderr, "ptscope caps: unknown option '%s' (see ptscope caps --help)\n",
				argv[i]);
			return 2;
		}
	}
	fd = pts_dev_open(&err);
	if (fd < 0)
		return caps_without_module(&err, json);
	if (pts_dev_get_caps(fd, &caps, &err)) {
		fprintf(stderr, "ptscope: %s\n", err.msg);
		close(fd);
		return 1;
	}
	close(fd);
	if (json)
		pts_caps_print_json(&caps, pts_dev_default_hotkey(), stdout);
	else {
		pts_caps_print_table(&caps, pts_dev_default_hotkey(), stdout);
		pts_caps_print_permissions(&caps, pts_perf_event_paranoid(), stdout);
	}
	return 0;
}
