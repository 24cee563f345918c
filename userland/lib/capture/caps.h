/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding of struct ptscope_caps (PTSCOPE_IOC_GET_CAPS) into named
 * features, each with the CPUID bit it comes from and what its absence
 * costs, for `ptscope caps` (table and --json). Pure.
 */
#ifndef PTS_CAPTURE_CAPS_H
#define PTS_CAPTURE_CAPS_H

#include <stdbool.h>
#include <stdio.h>

#include <uapi/ptscope.h>

struct pts_caps_feature {
	const char *name;		/* "cr3_filter" */
	const char *cpuid;		/* "CPUID.14H.0:EBX[0]" */
	bool present;
	const char *if_missing;		/* why it matters when absent */
};

#define PTS_CAPS_MAX_FEATURES 16

/*
 * Fill out[] (PTS_CAPS_MAX_FEATURES entries) from caps; returns the count.
 * Bits per SDM vol. 3C 33.3.1 (CPUID leaf 14H).
 */
unsigned int pts_caps_features(const struct ptscope_caps *caps,
			       struct pts_caps_feature *out);

/* Allowed encodings of a CPUID.14H.1 bitmap as "0,3,6,9" ("none"). */
void pts_caps_bitmap_list(unsigned int bitmap, char *buf, size_t len);

/*
 * The human table of `ptscope caps`. hotkey: the key of `--trigger
 * hotkey` (the module's hotkey parameter, pts_dev_default_hotkey()), 0
 * when unknown.
 */
void pts_caps_print_table(const struct ptscope_caps *caps, int hotkey, FILE *f);

/*
 * The module's permission rules on this kernel, for `ptscope caps`:
 * which rule kernel scope gets (PTSCOPE_CAPS_PERF_ALLOW_KERNEL: 6.12's
 * perf_allow_kernel() or, on 6.1, perfmon_capable() alone), with
 * @paranoid the value of /proc/sys/kernel/perf_event_paranoid
 * (PTS_PARANOID_UNKNOWN when unreadable), which a module cannot read.
 */
#define PTS_PARANOID_UNKNOWN (-1000)
void pts_caps_print_permissions(const struct ptscope_caps *caps, int paranoid, FILE *f);

/* /proc/sys/kernel/perf_event_paranoid, or PTS_PARANOID_UNKNOWN. */
int pts_perf_event_paranoid(void);

/* The --json document of `ptscope caps` (one object, newline-terminated); "hotkey" null when 0. */
void pts_caps_print_json(const struct ptscope_caps *caps, int hotkey, FILE *f);

#endif
