/* SPDX-License-Identifier: GPL-2.0 */
/*
 * This machine's CPU read with CPUID from userland, for when the module
 * is not loaded: whether it has Intel PT at all, so that ptscope can say
 * "capture needs an Intel CPU" instead of "load the module" on a machine
 * where loading it would not help.
 */
#ifndef PTS_CAPTURE_HOSTCPU_H
#define PTS_CAPTURE_HOSTCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pts_host_cpu {
	char vendor[13];	/* CPUID.00H EBX, EDX, ECX: "GenuineIntel", "AuthenticAMD" */
	uint32_t max_leaf;	/* CPUID.00H:EAX */
	uint32_t family, model, stepping;	/* CPUID.01H:EAX, displayed (SDM vol. 2A, CPUID) */
	uint32_t cpuid_7_ebx;	/* CPUID.(EAX=07H,ECX=0):EBX, 0 when max_leaf < 7 */
	bool hypervisor;	/* CPUID.01H:ECX[31]: running in a virtual machine */
	bool intel_pt;		/* CPUID.07H:EBX[25] and max_leaf >= 14H (pt-facts 1) */
};

/*
 * Fill c from the raw CPUID values (pure; the tests' entry): vendor is the
 * 12 bytes of EBX, EDX, ECX of leaf 0; leaf7_ebx is ignored below leaf 7.
 */
void pts_host_cpu_from_regs(struct pts_host_cpu *c, uint32_t max_leaf, const char vendor[12],
			    uint32_t leaf1_eax, uint32_t leaf1_ecx, uint32_t leaf7_ebx);

/* Read this CPU's CPUID (any CPU: the leaves read here are the same on all). */
void pts_host_cpu_read(struct pts_host_cpu *c);

/*
 * One sentence for the user into buf: what this machine can do. Without
 * PT: "this CPU (AuthenticAMD) has no Intel PT: decode works here; capture
 * needs an Intel CPU, or `simulate=1` for a dry run (insmod
 * kmod/ptscope.ko simulate=1)". With PT: it has Intel PT and the module
 * is what is missing. Returns buf.
 */
const char *pts_host_cpu_verdict(const struct pts_host_cpu *c, char *buf, size_t len);

#endif
