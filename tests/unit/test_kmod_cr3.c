// SPDX-License-Identifier: GPL-2.0
/*
 * CR3_MATCH from a process's page-table root (kmod/pure/cr3.c).
 * SDM 33.2.8.6: CR3_MATCH bits 4:0 reserved. Linux x86 (KPTI): the user
 * root is the kernel root + 4 KiB (bit 12); with PCID the user PCID has
 * bit 11 set and the dynamic ASIDs 1..6 sit in bits 4:0.
 */
#define PTS_HOST 1
#include "unit.h"
#include "../../kmod/pure/pts_pure.h"

static void plain_cr3_is_the_root_with_filter_on(void)
{
	struct pts_cr3_plan p;

	pts_cr3_plan(0x12345000ULL, PTSCOPE_SCOPE_BOTH, false, false, &p);
	CU_ASSERT_TRUE(p.filter);
	CU_ASSERT_EQUAL(p.cr3_match, 0x12345000ULL);
	CU_ASSERT_EQUAL(p.statef, 0);
}

static void pcid_bits_are_masked_and_flagged(void)
{
	struct pts_cr3_plan p;

	/* a CR3 read with PCID 5 in bits 11:0 */
	pts_cr3_plan(0x12345005ULL, PTSCOPE_SCOPE_KERNEL, true, false, &p);
	CU_ASSERT_EQUAL(p.cr3_match, 0x12345000ULL);
	CU_ASSERT_EQUAL(p.cr3_match & 0x1f, 0);
	CU_ASSERT_EQUAL(p.statef, PTSCOPE_STATEF_CR3_PCID);
}

static void kpti_user_scope_matches_the_user_root_one_page_up(void)
{
	struct pts_cr3_plan p;

	pts_cr3_plan(0x12344000ULL, PTSCOPE_SCOPE_USER, false, true, &p);
	CU_ASSERT_TRUE(p.filter);
	CU_ASSERT_EQUAL(p.cr3_match, 0x12345000ULL);
	CU_ASSERT_EQUAL(p.statef, PTSCOPE_STATEF_CR3_KPTI);
}

static void kpti_with_pcid_user_scope_includes_the_user_pcid_bit_11(void)
{
	struct pts_cr3_plan p;

	pts_cr3_plan(0x12344000ULL, PTSCOPE_SCOPE_USER, true, true, &p);
	CU_ASSERT_EQUAL(p.cr3_match, 0x12345800ULL);
	CU_ASSERT_EQUAL(p.statef, PTSCOPE_STATEF_CR3_KPTI | PTSCOPE_STATEF_CR3_PCID);
}

static void kpti_kernel_scope_matches_the_kernel_root(void)
{
	struct pts_cr3_plan p;

	pts_cr3_plan(0x12344000ULL, PTSCOPE_SCOPE_KERNEL, true, true, &p);
	CU_ASSERT_TRUE(p.filter);
	CU_ASSERT_EQUAL(p.cr3_match, 0x12344000ULL);
}

static void kpti_both_scopes_cannot_be_one_match_and_is_partial(void)
{
	struct pts_cr3_plan p;

	pts_cr3_plan(0x12344000ULL, PTSCOPE_SCOPE_BOTH, false, true, &p);
	CU_ASSERT_FALSE(p.filter);
	CU_ASSERT_EQUAL(p.cr3_match, 0);
	CU_ASSERT_EQUAL(p.statef, PTSCOPE_STATEF_CR3_KPTI | PTSCOPE_STATEF_CR3_PARTIAL);
}

static void sideband_user_root_is_kernel_root_plus_4k_with_kpti(void)
{
	CU_ASSERT_EQUAL(pts_cr3_user_root(0x12344000ULL, true), 0x12345000ULL);
	CU_ASSERT_EQUAL(pts_cr3_user_root(0x12344000ULL, false), 0x12344000ULL);
}

PTS_SUITE(kmod_cr3, NULL, NULL,
	  PTS_TEST(plain_cr3_is_the_root_with_filter_on),
	  PTS_TEST(pcid_bits_are_masked_and_flagged),
	  PTS_TEST(kpti_user_scope_matches_the_user_root_one_page_up),
	  PTS_TEST(kpti_with_pcid_user_scope_includes_the_user_pcid_bit_11),
	  PTS_TEST(kpti_kernel_scope_matches_the_kernel_root),
	  PTS_TEST(kpti_both_scopes_cannot_be_one_match_and_is_partial),
	  PTS_TEST(sideband_user_root_is_kernel_root_plus_4k_with_kpti));
