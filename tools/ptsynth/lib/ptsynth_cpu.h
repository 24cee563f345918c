/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PT CPU ptsynth models: an Intel Xeon Skylake-SP, family 6 model 85
 * (0x55) stepping 4, 2.1 GHz nominal (MSR_PLATFORM_INFO[15:8] = 21) with
 * a 25 MHz crystal (CPUID.15H: TSC = crystal * 168 / 2). CPUID.14H
 * values are those of that part: CR3 filtering, PSB+CYC, IP filtering
 * and MTC (leaf 0 EBX = 0xf), ToPA with multiple entries and single-range
 * output (ECX = 0x7); two address ranges, MTC periods {0,3,6,9}
 * (EAX[31:16] = 0x249), cycle thresholds 0..13 (EBX[15:0] = 0x3fff),
 * PSB periods 2K..64K (EBX[31:16] = 0x3f).
 * libipt's errata for it: bdm70, skd022, skl014 (pt_cpu_errata).
 */
#ifndef PTSYNTH_CPU_H
#define PTSYNTH_CPU_H

#include <stdbool.h>

#include "bundle/bundle.h"

#define PTSYNTH_CPU_FAMILY	6
#define PTSYNTH_CPU_MODEL	85
#define PTSYNTH_CPU_STEPPING	4
#define PTSYNTH_CPU_NOM_FREQ	21
#define PTSYNTH_CPU_TSC_KHZ	2100000
#define PTSYNTH_CPU_MTC_PERIODS	0x249	/* CPUID.14H.1:EAX[31:16] */
#define PTSYNTH_CPU_PSB_PERIODS	0x3f	/* CPUID.14H.1:EBX[31:16] */

/* Fill the bundle's CPU identity with the model above. */
void ptsynth_cpu_id(struct pts_bundle_cpu_id *id);

/* Is encoding n allowed by a CPUID.14H.1 bitmap? PSBFreq/CycThresh: n == 0 or
 * bit n; MTCFreq: bit n (pt-facts §1). */
bool ptsynth_cpu_allows(unsigned int bitmap, unsigned int n, bool zero_always);

#endif
