// SPDX-License-Identifier: GPL-2.0
/*
 * CPUID.01H:EAX -> display family/model/stepping (SDM vol. 2A, CPUID,
 * "Version Information": extended model added for families 6 and 0xF,
 * extended family added for family 0xF). Signatures from Intel's and
 * AMD's published CPUID values.
 */
#define PTS_HOST 1
#include "unit.h"
#include "../../kmod/pure/pts_pure.h"

static void skylake_sp_signature_is_6_55_4(void)
{
	u32 f, m, s;

	pts_cpuid_fms(0x00050654, &f, &m, &s);
	CU_ASSERT_EQUAL(f, 6);
	CU_ASSERT_EQUAL(m, 0x55);
	CU_ASSERT_EQUAL(s, 4);
}

static void broadwell_signature_is_6_3d_4(void)
{
	u32 f, m, s;

	pts_cpuid_fms(0x000306d4, &f, &m, &s);
	CU_ASSERT_EQUAL(f, 6);
	CU_ASSERT_EQUAL(m, 0x3d);
	CU_ASSERT_EQUAL(s, 4);
}

static void family_f_adds_the_extended_family(void)
{
	u32 f, m, s;

	pts_cpuid_fms(0x00800f12, &f, &m, &s);	/* AMD Zen: 0x17/0x01/2 */
	CU_ASSERT_EQUAL(f, 0x17);
	CU_ASSERT_EQUAL(m, 0x01);
	CU_ASSERT_EQUAL(s, 2);
}

static void other_families_ignore_the_extended_model(void)
{
	u32 f, m, s;

	pts_cpuid_fms(0x00010543, &f, &m, &s);	/* family 5: ext model not used */
	CU_ASSERT_EQUAL(f, 5);
	CU_ASSERT_EQUAL(m, 4);
	CU_ASSERT_EQUAL(s, 3);
}

PTS_SUITE(kmod_caps, NULL, NULL,
	  PTS_TEST(skylake_sp_signature_is_6_55_4),
	  PTS_TEST(broadwell_signature_is_6_3d_4),
	  PTS_TEST(family_f_adds_the_extended_family),
	  PTS_TEST(other_families_ignore_the_extended_model));
