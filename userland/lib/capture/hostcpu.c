// SPDX-License-Identifier: GPL-2.0
/*
 * CPUID from userland (see hostcpu.h). Leaf numbers and bits: SDM vol. 2A,
 * "CPUID"; PT enumeration: SDM vol. 3C 33.3.1.
 */
#include "hostcpu.h"

#include <cpuid.h>
#include <stdio.h>
#include <string.h>

#define CPUID_7_EBX_INTEL_PT	(1u << 25)
#define CPUID_1_ECX_HYPERVISOR	(1u << 31)
#define CPUID_LEAF_PT		0x14

void pts_host_cpu_from_regs(struct pts_host_cpu *c, uint32_t max_leaf, const char vendor[12],
			    uint32_t leaf1_eax, uint32_t leaf1_ecx, uint32_t leaf7_ebx)
{
	uint32_t base_family = (leaf1_eax >> 8) & 0xf;

	memset(c, 0, sizeof(*c));
	memcpy(c->vendor, vendor, 12);
	c->max_leaf = max_leaf;
	c->stepping = leaf1_eax & 0xf;
	c->family = base_family;
	if (base_family == 0xf)
		c->family += (leaf1_eax >> 20) & 0xff;
	c->model = (leaf1_eax >> 4) & 0xf;
	if (base_family == 0x6 || base_family == 0xf)
		c->model |= ((leaf1_eax >> 16) & 0xf) << 4;
	c->hypervisor = !!(leaf1_ecx & CPUID_1_ECX_HYPERVISOR);
	c->cpuid_7_ebx = max_leaf >= 7 ? leaf7_ebx : 0;
	c->intel_pt = max_leaf >= CPUID_LEAF_PT && (c->cpuid_7_ebx & CPUID_7_EBX_INTEL_PT);
}

void pts_host_cpu_read(struct pts_host_cpu *c)
{
	unsigned int max = 0, eax = 0, ebx = 0, ecx = 0, edx = 0, l1a = 0, l1c = 0, l7b = 0;
	char vendor[12];

	__cpuid(0, max, ebx, ecx, edx);
	memcpy(vendor, &ebx, 4);
	memcpy(vendor + 4, &edx, 4);
	memcpy(vendor + 8, &ecx, 4);
	if (max >= 1)
		__cpuid(1, l1a, ebx, l1c, edx);
	if (max >= 7)
		__cpuid_count(7, 0, eax, l7b, ecx, edx);
	pts_host_cpu_from_regs(c, max, vendor, l1a, l1c, l7b);
}

const char *pts_host_cpu_verdict(const struct pts_host_cpu *c, char *buf, size_t len)
{
	if (!c->intel_pt)
		snprintf(buf, len, "this CPU (%s) has no Intel PT: decode works here; capture "
			 "needs an Intel CPU, or `simulate=1` for a dry run (as root: modprobe "
			 "ptscope simulate=1 once installed, insmod kmod/ptscope.ko simulate=1 "
			 "from the build tree)", c->vendor);
	else
		snprintf(buf, len, "this CPU (%s family %u model %u) has Intel PT: load the module "
			 "to capture (as root: modprobe ptscope once installed, e.g. by ptscope-dkms, "
			 "insmod kmod/ptscope.ko from the build tree)", c->vendor, c->family,
			 c->model);
	return buf;
}
