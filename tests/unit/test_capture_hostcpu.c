// SPDX-License-Identifier: GPL-2.0
/*
 * CPUID read from userland (userland/lib/capture/hostcpu.c). The leaf 1
 * EAX values are CPU signatures worked by hand from the SDM vol. 2A
 * CPUID layout (stepping 3:0, model 7:4, family 11:8, extended model
 * 19:16, extended family 27:20): Skylake-SP 06_55H stepping 4 is
 * 0x00050654 (the dynamorio-hello capture's CPU), an AMD family 1AH
 * model 02H stepping 1 is 0x00B00F21.
 */
#include "unit.h"

#include <string.h>

#include "capture/hostcpu.h"

#define PT_BIT (1u << 25)	/* CPUID.07H:EBX[25] */

static void skylake_sp_with_pt_bit_and_leaf_14h_has_pt(void)
{
	struct pts_host_cpu c;
	char v[256];

	pts_host_cpu_from_regs(&c, 0x16, "GenuineIntel", 0x00050654, 0, PT_BIT);
	CU_ASSERT_STRING_EQUAL(c.vendor, "GenuineIntel");
	CU_ASSERT_EQUAL(c.family, 6);
	CU_ASSERT_EQUAL(c.model, 85);
	CU_ASSERT_EQUAL(c.stepping, 4);
	CU_ASSERT(c.intel_pt);
	CU_ASSERT_FALSE(c.hypervisor);
	pts_host_cpu_verdict(&c, v, sizeof(v));
	CU_ASSERT_PTR_NOT_NULL(strstr(v, "has Intel PT"));
	/* installed (package, make modules_install) and from the build tree */
	CU_ASSERT_PTR_NOT_NULL(strstr(v, "modprobe ptscope"));
	CU_ASSERT_PTR_NOT_NULL(strstr(v, "insmod kmod/ptscope.ko"));
}

static void amd_family_1ah_has_no_pt_and_says_decode_works_here(void)
{
	struct pts_host_cpu c;
	char v[256];

	/* bit 31 of leaf 1 ECX: a hypervisor; leaf 7 EBX without bit 25 */
	pts_host_cpu_from_regs(&c, 0x10, "AuthenticAMD", 0x00B00F21, 1u << 31, 0xf1bf07ab & ~PT_BIT);
	CU_ASSERT_EQUAL(c.family, 0x1a);
	CU_ASSERT_EQUAL(c.model, 2);
	CU_ASSERT_EQUAL(c.stepping, 1);
	CU_ASSERT(c.hypervisor);
	CU_ASSERT_FALSE(c.intel_pt);
	pts_host_cpu_verdict(&c, v, sizeof(v));
	CU_ASSERT_PTR_NOT_NULL(strstr(v, "this CPU (AuthenticAMD) has no Intel PT: decode works here; "
				      "capture needs an Intel CPU, or `simulate=1` for a dry run"));
	CU_ASSERT_PTR_NOT_NULL(strstr(v, "modprobe ptscope simulate=1"));
}

static void pt_bit_without_leaf_14h_is_no_pt(void)
{
	struct pts_host_cpu c;

	/* pt-facts 1: PT needs the bit and max leaf >= 14H */
	pts_host_cpu_from_regs(&c, 0x0d, "GenuineIntel", 0x000306a9, 0, PT_BIT);
	CU_ASSERT_FALSE(c.intel_pt);
	/* below leaf 7 the leaf 7 value is not read at all */
	pts_host_cpu_from_regs(&c, 5, "GenuineIntel", 0x000006f6, 0, PT_BIT);
	CU_ASSERT_EQUAL(c.cpuid_7_ebx, 0);
	CU_ASSERT_FALSE(c.intel_pt);
}

static void this_machine_reads_a_vendor(void)
{
	struct pts_host_cpu c;

	pts_host_cpu_read(&c);
	CU_ASSERT_EQUAL(strlen(c.vendor), 12);
	CU_ASSERT(c.max_leaf >= 1);
}

PTS_SUITE(capture_hostcpu, NULL, NULL,
	  PTS_TEST(skylake_sp_with_pt_bit_and_leaf_14h_has_pt),
	  PTS_TEST(amd_family_1ah_has_no_pt_and_says_decode_works_here),
	  PTS_TEST(pt_bit_without_leaf_14h_is_no_pt),
	  PTS_TEST(this_machine_reads_a_vendor))
