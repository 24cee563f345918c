// SPDX-License-Identifier: GPL-2.0
/*
 * ptscope caps: what the CPU's PT unit and the module can do.
 * Feature bits: Intel SDM vol. 3C, 33.3.1 "Detection of Intel Processor
 * Trace and Capability Enumeration" (CPUID leaf 14H).
 */
#include "caps.h"

#include <json-c/json.h>
#include <string.h>

#include "options.h"

struct feature_def {
	const char *name;
	int reg;		/* index into cpuid_14_0: 1 = EBX, 2 = ECX */
	unsigned int bit;
	const char *cpuid;
	const char *if_missing;
};

static const struct feature_def feature_defs[] = {
	{ "cr3_filter", 1, 0, "CPUID.14H.0:EBX[0]",
	  "ptscope run/attach cannot restrict tracing to one process's address space" },
	{ "psb_cyc", 1, 1, "CPUID.14H.0:EBX[1]",
	  "no CYC packets and no PSBFreq control: coarser timing (--timing normal/high fall back)" },
	{ "ip_filter", 1, 2, "CPUID.14H.0:EBX[2]",
	  "--filter address ranges and TraceStop are unavailable" },
	{ "mtc", 1, 3, "CPUID.14H.0:EBX[3]",
	  "no MTC packets: time between TSC packets is interpolated only" },
	{ "ptwrite", 1, 4, "CPUID.14H.0:EBX[4]",
	  "PTWRITE values from the program are not traced" },
	{ "power_event", 1, 5, "CPUID.14H.0:EBX[5]",
	  "no power event packets (C-state/frequency changes are not visible)" },
	{ "psb_pmi_preserve", 1, 6, "CPUID.14H.0:EBX[6]",
	  "(not used by ptscope)" },
	{ "event_trace", 1, 7, "CPUID.14H.0:EBX[7]",
	  "(not used: libipt 2.0.5 cannot decode event trace packets)" },
	{ "tnt_disable", 1, 8, "CPUID.14H.0:EBX[8]",
	  "(not used by ptscope)" },
	{ "topa", 2, 0, "CPUID.14H.0:ECX[0]",
	  "no ToPA output: the module cannot trace at all on this CPU" },
	{ "topa_multi_entry", 2, 1, "CPUID.14H.0:ECX[1]",
	  "ToPA tables have one region: the buffer per CPU is limited to one contiguous region" },
	{ "single_range", 2, 2, "CPUID.14H.0:ECX[2]",
	  "(not used by ptscope)" },
	{ "lip", 2, 31, "CPUID.14H.0:ECX[31]",
	  "(present means IPs include the CS base; irrelevant in 64-bit mode)" },
};

#define NR_FEATURES (sizeof(feature_defs) / sizeof(feature_defs[0]))

unsigned int pts_caps_features(const struct ptscope_caps *caps,
			       struct pts_caps_feature *out)
{
	bool leaf14 = caps->max_leaf >= 0x14 || (caps->flags & PTSCOPE_CAPS_SIMULATED);
	unsigned int i;

	for (i = 0; i < NR_FEATURES && i < PTS_CAPS_MAX_FEATURES; i++) {
		const struct feature_def *d = &feature_defs[i];

		out[i].name = d->name;
		out[i].cpuid = d->cpuid;
		out[i].present = leaf14 && (caps->flags & PTSCOPE_CAPS_PT) &&
				 (caps->cpuid_14_0[d->reg] & (1U << d->bit));
		out[i].if_missing = d->if_missing;
	}
	return i;
}

void pts_caps_bitmap_list(unsigned int bitmap, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int n;

	buf[0] = '\0';
	for (n = 0; n < 16 && off < len; n++)
		if (bitmap & (1U << n))
			off += (size_t)snprintf(buf + off, len - off, "%s%u", off ? "," : "", n);
	if (!buf[0])
		snprintf(buf, len, "none");
}

static const char *pt_source(const struct ptscope_caps *caps)
{
	if (caps->flags & PTSCOPE_CAPS_SIMULATED)
		return "simulated PT unit (module loaded with simulate=1): traces are synthetic, not hardware";
	if (caps->flags & PTSCOPE_CAPS_PT)
		return "hardware Intel PT";
	return "none: this CPU has no Intel PT (CPUID.07H:EBX[25] is 0)";
}

void pts_caps_print_table(const struct ptscope_caps *caps, int hotkey, FILE *f)
{
	struct pts_caps_feature feat[PTS_CAPS_MAX_FEATURES];
	unsigned int n = pts_caps_features(caps, feat), i, missing = 0;
	char buf[96], sz1[32], sz2[32];

	fprintf(f, "module        loaded (ABI %u%s)\n", caps->abi_version,
		caps->abi_version == PTSCOPE_ABI_VERSION ? "" : ", differs from this ptscope's");
	fprintf(f, "PT unit       %s\n", pt_source(caps));
	fprintf(f, "CPU           %.16s family %u model %u (0x%x) stepping %u, MAXPHYADDR %u\n",
		caps->vendor, caps->family, caps->model, caps->model, caps->stepping,
		caps->max_phys_addr);
	fprintf(f, "CPUs          %u online of %u\n", pts_cpu_mask_count(caps->online_mask),
		caps->nr_cpus);
	pts_format_size(caps->min_buffer_size, sz1, sizeof(sz1));
	pts_format_size(caps->max_buffer_size, sz2, sizeof(sz2));
	fprintf(f, "buffer/CPU    %s .. %s\n", sz1, sz2);
	fprintf(f, "TSC           %u kHz; TSC/crystal ratio %u/%u (CPUID.15H EBX/EAX), "
		"crystal %u Hz (0: not enumerated); max non-turbo ratio %u\n",
		caps->tsc_khz, caps->cpuid_15[1], caps->cpuid_15[0], caps->cpuid_15[2],
		caps->nom_freq);
	fprintf(f, "addr ranges   %u\n", caps->nr_addr_ranges);
	pts_caps_bitmap_list(caps->mtc_period_bitmap, buf, sizeof(buf));
	fprintf(f, "MTC periods   %s\n", buf);
	pts_caps_bitmap_list(caps->cyc_thresh_bitmap, buf, sizeof(buf));
	fprintf(f, "CYC thresh    %s (0 always allowed)\n", buf);
	pts_caps_bitmap_list(caps->psb_period_bitmap, buf, sizeof(buf));
	fprintf(f, "PSB periods   %s (0 always allowed)\n", buf);
	fprintf(f, "perfmon cap   %s\n", caps->flags & PTSCOPE_CAPS_CAP_PERFMON ?
		"kernel knows CAP_PERFMON (CAP_PERFMON or CAP_SYS_ADMIN)" :
		"kernel predates CAP_PERFMON: CAP_SYS_ADMIN needed");
	if (caps->flags & PTSCOPE_CAPS_BDM106)
		fprintf(f, "erratum       BDM106: BranchEn must stay set on this CPU\n");
	/* docs/abi.md, "What a PANIC snapshot can promise" */
	fprintf(f, "kdump         %s\n", caps->flags & PTSCOPE_CAPS_CRASH_STOP ?
		"the module stops PT on the crashing CPU before a crash kernel runs" :
		"no crash-kexec probe: with a crash kernel loaded, the crashing CPU traces on "
		"into it unless crash_kexec_post_notifiers is Y");
	/* which key fires `--trigger hotkey`: the user must know it before arming */
	if (hotkey)
		fprintf(f, "hotkey        %c: --trigger hotkey fires on Alt+SysRq+%c (or as root: "
			"echo %c > /proc/sysrq-trigger); the module's hotkey parameter, "
			"hotkey:KEY for another\n", hotkey, hotkey, hotkey);
	else
		fprintf(f, "hotkey        unknown (/sys/module/ptscope/parameters/hotkey unreadable): "
			"--trigger hotkey:KEY names the key\n");
	fprintf(f, "\n%-18s %-20s %s\n", "feature", "source", "state");
	for (i = 0; i < n; i++) {
		fprintf(f, "%-18s %-20s %s\n", feat[i].name, feat[i].cpuid,
			feat[i].present ? "yes" : "no");
		if (!feat[i].present)
			missing++;
	}
	if (missing) {
		fprintf(f, "\nmissing features and what that means:\n");
		for (i = 0; i < n; i++)
			if (!feat[i].present)
				fprintf(f, "  %-18s %s\n", feat[i].name, feat[i].if_missing);
	}
	if (!(caps->flags & (PTSCOPE_CAPS_PT | PTSCOPE_CAPS_SIMULATED)))
		fprintf(f, "\nNo Intel PT here. For a dry run of the whole tool chain load the "
			"simulated unit:\n  rmmod ptscope; modprobe ptscope simulate=1\n"
			"  (from the build tree: insmod kmod/ptscope.ko simulate=1)\n");
}

int pts_perf_event_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = PTS_PARANOID_UNKNOWN;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = PTS_PARANOID_UNKNOWN;
		fclose(f);
	}
	return v;
}

/*
 * perf_event_paranoid is not exported to modules on 6.1 or 6.12: the
 * module cannot apply it, only the kernel's own perf_allow_kernel() can
 * (6.12), whose paranoid test a perfmon_capable() caller always passes,
 * leaving its LSM hook (docs/abi.md, Permissions).
 */
void pts_caps_print_permissions(const struct ptscope_caps *caps, int paranoid, FILE *f)
{
	char pv[32];

	if (paranoid == PTS_PARANOID_UNKNOWN)
		snprintf(pv, sizeof(pv), "unreadable here");
	else
		snprintf(pv, sizeof(pv), "%d here", paranoid);
	fprintf(f, "\npermissions (the module's rules on this kernel; docs/abi.md, Permissions):\n");
	fprintf(f, "  kernel scope, system-wide captures, CPU-wide triggers: CAP_PERFMON or "
		"CAP_SYS_ADMIN, whatever perf_event_paranoid says\n");
	if (caps->flags & PTSCOPE_CAPS_PERF_ALLOW_KERNEL)
		fprintf(f, "  kernel scope also goes through the kernel's perf_allow_kernel() (6.12): "
			"the perf LSM hook (security_perf_event_open) may refuse it; its "
			"perf_event_paranoid test (%s) never refuses a CAP_PERFMON caller\n", pv);
	else
		fprintf(f, "  this kernel exports neither perf_event_paranoid nor perf_allow_kernel() "
			"to modules (6.1): perf_event_paranoid (%s) and the perf LSM hook are not "
			"applied, CAP_PERFMON or CAP_SYS_ADMIN alone decide\n", pv);
	fprintf(f, "  one process of one's own (user scope, ptscope run/attach): ptrace access to it, "
		"no capability; perf_event_paranoid is not applied to it on any kernel: who may "
		"open /dev/ptscope decides (module parameter group=)\n");
	fprintf(f, "  uprobe (user-function) triggers: CAP_SYS_ADMIN, as perf's uprobes\n");
}

static json_object *u32_array(const __u32 *v, int n)
{
	json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int64(v[i]));
	return a;
}

void pts_caps_print_json(const struct ptscope_caps *caps, int hotkey, FILE *f)
{
	struct pts_caps_feature feat[PTS_CAPS_MAX_FEATURES];
	unsigned int n = pts_caps_features(caps, feat), i;
	json_object *o = json_object_new_object();
	json_object *fo = json_object_new_object();
	json_object *missing = json_object_new_array();
	json_object *cpus = json_object_new_array();
	char vendor[17];

	memcpy(vendor, caps->vendor, 16);
	vendor[16] = '\0';
	json_object_object_add(o, "module_loaded", json_object_new_boolean(1));
	json_object_object_add(o, "abi_version", json_object_new_int64(caps->abi_version));
	json_object_object_add(o, "pt", json_object_new_boolean(!!(caps->flags & PTSCOPE_CAPS_PT)));
	json_object_object_add(o, "simulated",
			       json_object_new_boolean(!!(caps->flags & PTSCOPE_CAPS_SIMULATED)));
	json_object_object_add(o, "cap_perfmon_known",
			       json_object_new_boolean(!!(caps->flags & PTSCOPE_CAPS_CAP_PERFMON)));
	json_object_object_add(o, "perf_allow_kernel",
			       json_object_new_boolean(!!(caps->flags & PTSCOPE_CAPS_PERF_ALLOW_KERNEL)));
	json_object_object_add(o, "crash_stop",
			       json_object_new_boolean(!!(caps->flags & PTSCOPE_CAPS_CRASH_STOP)));
	json_object_object_add(o, "bdm106",
			       json_object_new_boolean(!!(caps->flags & PTSCOPE_CAPS_BDM106)));
	json_object_object_add(o, "vendor", json_object_new_string(vendor));
	json_object_object_add(o, "family", json_object_new_int64(caps->family));
	json_object_object_add(o, "model", json_object_new_int64(caps->model));
	json_object_object_add(o, "stepping", json_object_new_int64(caps->stepping));
	json_object_object_add(o, "max_phys_addr", json_object_new_int64(caps->max_phys_addr));
	json_object_object_add(o, "max_leaf", json_object_new_int64(caps->max_leaf));
	json_object_object_add(o, "cpuid_7_ebx", json_object_new_int64(caps->cpuid_7_ebx));
	json_object_object_add(o, "cpuid_14_0", u32_array(caps->cpuid_14_0, 4));
	json_object_object_add(o, "cpuid_14_1", u32_array(caps->cpuid_14_1, 4));
	json_object_object_add(o, "cpuid_15", u32_array(caps->cpuid_15, 3));
	json_object_object_add(o, "nom_freq", json_object_new_int64(caps->nom_freq));
	json_object_object_add(o, "platform_info", json_object_new_int64((int64_t)caps->platform_info));
	json_object_object_add(o, "tsc_khz", json_object_new_int64(caps->tsc_khz));
	json_object_object_add(o, "nr_addr_ranges", json_object_new_int64(caps->nr_addr_ranges));
	if (hotkey) {
		char k[2] = { (char)hotkey, '\0' };

		json_object_object_add(o, "hotkey", json_object_new_string(k));
	} else {
		json_object_object_add(o, "hotkey", NULL);
	}
	json_object_object_add(o, "mtc_period_bitmap", json_object_new_int64(caps->mtc_period_bitmap));
	json_object_object_add(o, "cyc_thresh_bitmap", json_object_new_int64(caps->cyc_thresh_bitmap));
	json_object_object_add(o, "psb_period_bitmap", json_object_new_int64(caps->psb_period_bitmap));
	json_object_object_add(o, "nr_cpus", json_object_new_int64(caps->nr_cpus));
	for (i = 0; i < PTSCOPE_MAX_CPUS && i < caps->nr_cpus; i++)
		if (caps->online_mask[i / 64] & (1ULL << (i % 64)))
			json_object_array_add(cpus, json_object_new_int64(i));
	json_object_object_add(o, "online_cpus", cpus);
	json_object_object_add(o, "min_buffer_size", json_object_new_int64((int64_t)caps->min_buffer_size));
	json_object_object_add(o, "max_buffer_size", json_object_new_int64((int64_t)caps->max_buffer_size));
	for (i = 0; i < n; i++) {
		json_object_object_add(fo, feat[i].name, json_object_new_boolean(feat[i].present));
		if (!feat[i].present) {
			json_object *m = json_object_new_object();

			json_object_object_add(m, "feature", json_object_new_string(feat[i].name));
			json_object_object_add(m, "cpuid", json_object_new_string(feat[i].cpuid));
			json_object_object_add(m, "impact", json_object_new_string(feat[i].if_missing));
			json_object_array_add(missing, m);
		}
	}
	json_object_object_add(o, "features", fo);
	json_object_object_add(o, "missing", missing);
	fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							  JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}
