// SPDX-License-Identifier: GPL-2.0
#include "ptsynth_cpu.h"

#include <string.h>

void ptsynth_cpu_id(struct pts_bundle_cpu_id *id)
{
	memset(id, 0, sizeof(*id));
	strcpy(id->vendor, "GenuineIntel");
	id->family = PTSYNTH_CPU_FAMILY;
	id->model = PTSYNTH_CPU_MODEL;
	id->stepping = PTSYNTH_CPU_STEPPING;
	id->max_phys_addr = 46;
	id->cpuid_14_0[0] = 1;
	id->cpuid_14_0[1] = 0xf;
	id->cpuid_14_0[2] = 0x7;
	id->cpuid_14_1[0] = (PTSYNTH_CPU_MTC_PERIODS << 16) | 2;
	id->cpuid_14_1[1] = (PTSYNTH_CPU_PSB_PERIODS << 16) | 0x3fff;
	id->cpuid_15[0] = 2;
	id->cpuid_15[1] = 168;
	id->cpuid_15[2] = 25000000;
	id->nom_freq = PTSYNTH_CPU_NOM_FREQ;
	id->tsc_khz = PTSYNTH_CPU_TSC_KHZ;
}

bool ptsynth_cpu_allows(unsigned int bitmap, unsigned int n, bool zero_always)
{
	if (n > 15)
		return false;
	return (zero_always && n == 0) || ((bitmap >> n) & 1);
}
