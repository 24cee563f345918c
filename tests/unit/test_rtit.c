// SPDX-License-Identifier: GPL-2.0
/*
 * include/ptscope/rtit.h against the SDM (vol. 3C chapter 33; bit numbers
 * as listed in pt-facts sections 1-3). Every expected value below is
 * written from the SDM tables by hand, never from the header itself.
 */
#include "unit.h"

#include <stdint.h>
#include "ptscope/rtit.h"

/* Table 33-6 (IA32_RTIT_CTL): bit positions. */
static void rtit_ctl_single_bits_sit_where_table_33_6_puts_them(void)
{
	CU_ASSERT_EQUAL(RTIT_CTL_TRACEEN, 0x1ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_CYCEN, 0x2ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_OS, 0x4ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_USER, 0x8ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_PWREVTEN, 0x10ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_FUPONPTW, 0x20ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_FABRICEN, 0x40ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_CR3FILTER, 0x80ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_TOPA, 0x100ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_MTCEN, 0x200ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_TSCEN, 0x400ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_DISRETC, 0x800ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_PTWEN, 0x1000ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_BRANCHEN, 0x2000ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_EVENTEN, 0x80000000ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_DISTNT, 0x0080000000000000ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_INJECTPSBPMI, 0x0100000000000000ULL);
}

static void rtit_ctl_multibit_fields_cover_the_sdm_bit_ranges(void)
{
	/* MTCFreq 17:14, CycThresh 22:19, PSBFreq 27:24, ADDRn_CFG 35+4n:32+4n */
	CU_ASSERT_EQUAL(RTIT_CTL_MTCFREQ_MASK, 0x3c000ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_CYCTHRESH_MASK, 0x780000ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_PSBFREQ_MASK, 0xf000000ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_ADDR_CFG_MASK(0), 0xf00000000ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_ADDR_CFG_MASK(1), 0xf000000000ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_ADDR_CFG_MASK(2), 0xf0000000000ULL);
	CU_ASSERT_EQUAL(RTIT_CTL_ADDR_CFG_MASK(3), 0xf00000000000ULL);
	/* MTCFreq = 3 -> 3 << 14 */
	CU_ASSERT_EQUAL(rtit_ctl_field_set(0, RTIT_CTL_MTCFREQ_MASK,
					   RTIT_CTL_MTCFREQ_SHIFT, 3), 0xc000ULL);
	/* a value wider than the field must not spill into bit 18 */
	CU_ASSERT_EQUAL(rtit_ctl_field_set(0, RTIT_CTL_MTCFREQ_MASK,
					   RTIT_CTL_MTCFREQ_SHIFT, 0x1f), 0x3c000ULL);
	CU_ASSERT_EQUAL(rtit_ctl_field_get(0x5000000ULL, RTIT_CTL_PSBFREQ_MASK,
					   RTIT_CTL_PSBFREQ_SHIFT), 5);
}

static void rtit_ctl_reserved_mask_is_exactly_the_undefined_bits(void)
{
	/* Undefined in table 33-6: 18, 23, 30:28, 54:48, 63:57. */
	uint64_t reserved = (1ULL << 18) | (1ULL << 23) | (7ULL << 28) |
			    (0x7fULL << 48) | (0x7fULL << 57);

	CU_ASSERT_EQUAL(RTIT_CTL_RESERVED_MASK, reserved);
}

/* Table 33-7 (IA32_RTIT_STATUS). */
static void rtit_status_bits_and_packet_byte_count_follow_table_33_7(void)
{
	CU_ASSERT_EQUAL(RTIT_STATUS_FILTEREN, 0x1ULL);
	CU_ASSERT_EQUAL(RTIT_STATUS_CONTEXTEN, 0x2ULL);
	CU_ASSERT_EQUAL(RTIT_STATUS_TRIGGEREN, 0x4ULL);
	CU_ASSERT_EQUAL(RTIT_STATUS_ERROR, 0x10ULL);
	CU_ASSERT_EQUAL(RTIT_STATUS_STOPPED, 0x20ULL);
	CU_ASSERT_EQUAL(RTIT_STATUS_PENDPSB, 0x40ULL);
	CU_ASSERT_EQUAL(RTIT_STATUS_PENDTOPAPMI, 0x80ULL);
	/* PacketByteCnt is bits 48:32: bit 49 is not part of it. */
	CU_ASSERT_EQUAL(rtit_status_bytecnt(0x0001ffff00000030ULL), 0x1ffff);
	CU_ASSERT_EQUAL(rtit_status_bytecnt(0x0002000000000000ULL), 0);
	CU_ASSERT_EQUAL(rtit_status_bytecnt(0x0000012300000000ULL), 0x123);
}

static void rtit_msr_numbers_match_the_sdm(void)
{
	CU_ASSERT_EQUAL(RTIT_MSR_OUTPUT_BASE, 0x560);
	CU_ASSERT_EQUAL(RTIT_MSR_OUTPUT_MASK_PTRS, 0x561);
	CU_ASSERT_EQUAL(RTIT_MSR_CTL, 0x570);
	CU_ASSERT_EQUAL(RTIT_MSR_STATUS, 0x571);
	CU_ASSERT_EQUAL(RTIT_MSR_CR3_MATCH, 0x572);
	CU_ASSERT_EQUAL(RTIT_MSR_ADDR_A(0), 0x580);
	CU_ASSERT_EQUAL(RTIT_MSR_ADDR_B(0), 0x581);
	CU_ASSERT_EQUAL(RTIT_MSR_ADDR_A(3), 0x586);
	CU_ASSERT_EQUAL(RTIT_MSR_ADDR_B(3), 0x587);
	CU_ASSERT_EQUAL(RTIT_MSR_PLATFORM_INFO, 0xce);
	CU_ASSERT_EQUAL(RTIT_CR3_MATCH_RESERVED_MASK, 0x1fULL);
}

/* Figure 33-2 / table 33-3: END 0, INT 2, STOP 4, Size 9:6, base 12+. */
static void topa_entry_above_64gib_keeps_every_base_bit(void)
{
	/* 64 GiB = 0x10_0000_0000: bit 36, lost by a 24-bit base bitfield */
	uint64_t e = topa_entry_encode(0x1000000000ULL, 3, TOPA_STOP);

	CU_ASSERT_EQUAL(e, 0x1000000000ULL | (3ULL << 6) | 0x10ULL);
	CU_ASSERT_EQUAL(topa_entry_base(e), 0x1000000000ULL);
	CU_ASSERT_EQUAL(topa_entry_size_code(e), 3);
	/* 0x123_4567_8000 with 2 MiB... use 4 KiB (code 0): any page works */
	e = topa_entry_encode(0x12345678000ULL, 0, 0);
	CU_ASSERT_EQUAL(e, 0x12345678000ULL);
}

static void topa_entry_at_52_bit_physical_address_round_trips(void)
{
	uint64_t top = 0x000ffffffffff000ULL;	/* highest 4 KiB page, 52 bits */
	uint64_t e = topa_entry_encode(top, 0, TOPA_END);

	CU_ASSERT_EQUAL(e, top | 1ULL);
	CU_ASSERT_EQUAL(topa_entry_base(e), top);
	CU_ASSERT_EQUAL(topa_base_mask(52), 0x000ffffffffff000ULL);
	CU_ASSERT_EQUAL(topa_base_mask(46), 0x00003ffffffff000ULL);
	CU_ASSERT_EQUAL(topa_entry_check(e, 1, top, 52, 1), TOPA_OK);
	CU_ASSERT_EQUAL(topa_entry_check(e, 1, top, 46, 1),
			TOPA_ERR_ABOVE_MAXPHYADDR);
}

static void topa_encode_drops_flags_outside_end_int_stop(void)
{
	/* bits 1, 3, 5 must never be produced by the encoder */
	uint64_t e = topa_entry_encode(0x200000, 1, 0x2a | TOPA_INT);

	CU_ASSERT_EQUAL(e, 0x200000ULL | (1ULL << 6) | 0x4ULL);
}

static void topa_region_sizes_go_from_4k_to_128m(void)
{
	CU_ASSERT_EQUAL(topa_region_size(0), 4096ULL);
	CU_ASSERT_EQUAL(topa_region_size(9), 2ULL << 20);
	CU_ASSERT_EQUAL(topa_region_size(15), 128ULL << 20);
	CU_ASSERT_EQUAL(topa_size_code(4096), 0);
	CU_ASSERT_EQUAL(topa_size_code(4ULL << 20), 10);
	CU_ASSERT_EQUAL(topa_size_code(128ULL << 20), 15);
	CU_ASSERT_EQUAL(topa_size_code(256ULL << 20), -1);
	CU_ASSERT_EQUAL(topa_size_code(6000), -1);
	CU_ASSERT_EQUAL(topa_size_code(2048), -1);
}

/* SDM 33.2.7.2 "ToPA Errors": one test per condition. */
static void topa_check_rejects_reserved_bits_1_3_5_11_10(void)
{
	uint64_t ok = topa_entry_encode(0x100000, 0, 0);

	CU_ASSERT_EQUAL(topa_entry_check(ok, 0, 0x1000, 46, 1), TOPA_OK);
	CU_ASSERT_EQUAL(topa_entry_check(ok | 0x2, 0, 0x1000, 46, 1), TOPA_ERR_RESERVED_BITS);
	CU_ASSERT_EQUAL(topa_entry_check(ok | 0x8, 0, 0x1000, 46, 1), TOPA_ERR_RESERVED_BITS);
	CU_ASSERT_EQUAL(topa_entry_check(ok | 0x20, 0, 0x1000, 46, 1), TOPA_ERR_RESERVED_BITS);
	CU_ASSERT_EQUAL(topa_entry_check(ok | 0x400, 0, 0x1000, 46, 1), TOPA_ERR_RESERVED_BITS);
	CU_ASSERT_EQUAL(topa_entry_check(ok | 0x800, 0, 0x1000, 46, 1), TOPA_ERR_RESERVED_BITS);
}

static void topa_check_rejects_region_not_aligned_to_its_size(void)
{
	/* 8 KiB region (code 1) at 0x101000: not 8 KiB aligned */
	CU_ASSERT_EQUAL(topa_entry_check(topa_entry_encode(0x101000, 1, 0), 0,
					 0x1000, 46, 1), TOPA_ERR_MISALIGNED_REGION);
	CU_ASSERT_EQUAL(topa_entry_check(topa_entry_encode(0x102000, 1, 0), 0,
					 0x1000, 46, 1), TOPA_OK);
	/* 2 MiB region (code 9) at 1 MiB */
	CU_ASSERT_EQUAL(topa_entry_check(topa_entry_encode(0x100000, 9, 0), 0,
					 0x1000, 46, 1), TOPA_ERR_MISALIGNED_REGION);
}

static void topa_check_rejects_end_with_int_or_stop(void)
{
	CU_ASSERT_EQUAL(topa_entry_check(topa_entry_encode(0x1000, 0, TOPA_END | TOPA_INT),
					 1, 0x1000, 46, 1), TOPA_ERR_END_WITH_INT_STOP);
	CU_ASSERT_EQUAL(topa_entry_check(topa_entry_encode(0x1000, 0, TOPA_END | TOPA_STOP),
					 1, 0x1000, 46, 1), TOPA_ERR_END_WITH_INT_STOP);
}

static void topa_check_rejects_end_at_index_0(void)
{
	CU_ASSERT_EQUAL(topa_entry_check(topa_entry_encode(0x1000, 0, TOPA_END),
					 0, 0x1000, 46, 1), TOPA_ERR_END_AT_INDEX_0);
}

/*
 * TOPA_ERR_MISALIGNED_TABLE and TOPA_ERR_OFFSET_BEYOND_REGION concern the
 * OUTPUT_BASE / OUTPUT_MASK_PTRS values, not one entry: an entry's base
 * field starts at bit 12, so an END target is 4 KiB aligned by
 * construction. Both are exercised in test_sim_topa.c.
 */
static void topa_entry_base_field_cannot_hold_a_misaligned_table(void)
{
	uint64_t e = topa_entry_encode(0x123456789ULL, 0, TOPA_END);

	CU_ASSERT_EQUAL(topa_entry_base(e) & 0xfff, 0);
	CU_ASSERT_EQUAL(topa_entry_base(e), 0x123456000ULL);
}

static void topa_check_without_mentry_requires_end_at_1_linking_to_itself(void)
{
	uint64_t region = topa_entry_encode(0x200000, 0, 0);

	CU_ASSERT_EQUAL(topa_entry_check(region, 0, 0x5000, 46, 0), TOPA_OK);
	CU_ASSERT_EQUAL(topa_entry_check(region, 1, 0x5000, 46, 0),
			TOPA_ERR_NO_MENTRY_NOT_END);
	CU_ASSERT_EQUAL(topa_entry_check(topa_entry_encode(0x6000, 0, TOPA_END),
					 1, 0x5000, 46, 0), TOPA_ERR_NO_MENTRY_BAD_LINK);
	CU_ASSERT_EQUAL(topa_entry_check(topa_entry_encode(0x5000, 0, TOPA_END),
					 1, 0x5000, 46, 0), TOPA_OK);
	/* with MENTRY the same link to another table is fine */
	CU_ASSERT_EQUAL(topa_entry_check(topa_entry_encode(0x6000, 0, TOPA_END),
					 1, 0x5000, 46, 1), TOPA_OK);
	CU_ASSERT_EQUAL(topa_entry_check(region, 1, 0x5000, 46, 1), TOPA_OK);
}

/* SDM 33.2.8.8: 6:0 read 1, 31:7 entry index, 63:32 OutputOffset. */
static void output_mask_ptrs_decodes_index_and_offset(void)
{
	uint64_t omp = 0x0000123400000a7fULL;	/* 0xa7f >> 7 = 0x14 */

	CU_ASSERT_EQUAL(rtit_omp_entry_index(omp), 20);
	CU_ASSERT_EQUAL(rtit_omp_output_offset(omp), 0x1234);
	CU_ASSERT_EQUAL(rtit_omp_encode(20, 0x1234), omp);
	CU_ASSERT_EQUAL(rtit_omp_encode(0, 0), 0x7fULL);
	/* the largest index of a 4 KiB table is 511: 511 << 7 = 0xff80 */
	CU_ASSERT_EQUAL(rtit_omp_encode(511, 0), 0xffffULL);
	CU_ASSERT_EQUAL(rtit_omp_entry_index(0xffffULL), 511);
}

/* SDM 33.3.1: leaf 14H sub-leaf 1 layout and encoding legality. */
static void cpuid_14_1_fields_decode_with_a_3_bit_range_count(void)
{
	CU_ASSERT_EQUAL(pt_cpuid_nr_addr_ranges(0x02490004), 4);
	CU_ASSERT_EQUAL(pt_cpuid_nr_addr_ranges(0x0249000a), 2);
	CU_ASSERT_EQUAL(pt_cpuid_mtc_bitmap(0x02490002), 0x0249);
	CU_ASSERT_EQUAL(pt_cpuid_cyc_bitmap(0x003f1fff), 0x1fff);
	CU_ASSERT_EQUAL(pt_cpuid_psb_bitmap(0x003f1fff), 0x003f);
	CU_ASSERT_EQUAL(PT_CPUID_7_EBX_PT, 1U << 25);
	CU_ASSERT_EQUAL(PT_CPUID_ECX_MENTRY, 0x2U);
	CU_ASSERT_EQUAL(PT_CPUID_ECX_LIP, 0x80000000U);
	CU_ASSERT_EQUAL(PT_CPUID_EBX_TNT_DISABLE, 0x100U);
}

static void encoding_zero_is_legal_for_psb_and_cyc_but_mtc_needs_its_bit(void)
{
	CU_ASSERT_TRUE(pt_encoding_allowed(0x0000, 0, 1));	/* PSB/CYC 0 */
	CU_ASSERT_FALSE(pt_encoding_allowed(0x0000, 0, 0));	/* MTC 0 needs bit 0 */
	CU_ASSERT_TRUE(pt_encoding_allowed(0x0001, 0, 0));
	CU_ASSERT_TRUE(pt_encoding_allowed(0x0249, 3, 0));
	CU_ASSERT_FALSE(pt_encoding_allowed(0x0249, 4, 0));
	CU_ASSERT_TRUE(pt_encoding_allowed(0x8000, 15, 1));
	CU_ASSERT_FALSE(pt_encoding_allowed(0xffff, 16, 1));
}

static void canonical_addresses_for_48_and_57_bit_linear_space(void)
{
	CU_ASSERT_TRUE(pt_addr_is_canonical(0x00007fffffffffffULL, 48));
	CU_ASSERT_FALSE(pt_addr_is_canonical(0x0000800000000000ULL, 48));
	CU_ASSERT_TRUE(pt_addr_is_canonical(0xffff800000000000ULL, 48));
	CU_ASSERT_FALSE(pt_addr_is_canonical(0xfffe800000000000ULL, 48));
	CU_ASSERT_TRUE(pt_addr_is_canonical(0, 48));
	CU_ASSERT_TRUE(pt_addr_is_canonical(0x00ffffffffffffffULL, 57));
	CU_ASSERT_FALSE(pt_addr_is_canonical(0x0100000000000000ULL, 57));
	CU_ASSERT_TRUE(pt_addr_is_canonical(0xff00000000000000ULL, 57));
	CU_ASSERT_TRUE(pt_addr_is_canonical(0x0000800000000000ULL, 57));
}

static void bdm106_applies_to_the_four_broadwell_models_only(void)
{
	CU_ASSERT_TRUE(pt_erratum_bdm106(6, 0x3d));
	CU_ASSERT_TRUE(pt_erratum_bdm106(6, 0x47));
	CU_ASSERT_TRUE(pt_erratum_bdm106(6, 0x4f));
	CU_ASSERT_TRUE(pt_erratum_bdm106(6, 0x56));
	CU_ASSERT_FALSE(pt_erratum_bdm106(6, 0x3c));	/* Haswell */
	CU_ASSERT_FALSE(pt_erratum_bdm106(6, 0x55));	/* Skylake-SP */
	CU_ASSERT_FALSE(pt_erratum_bdm106(0xf, 0x3d));
}

PTS_SUITE(rtit, NULL, NULL,
	  PTS_TEST(rtit_ctl_single_bits_sit_where_table_33_6_puts_them),
	  PTS_TEST(rtit_ctl_multibit_fields_cover_the_sdm_bit_ranges),
	  PTS_TEST(rtit_ctl_reserved_mask_is_exactly_the_undefined_bits),
	  PTS_TEST(rtit_status_bits_and_packet_byte_count_follow_table_33_7),
	  PTS_TEST(rtit_msr_numbers_match_the_sdm),
	  PTS_TEST(topa_entry_above_64gib_keeps_every_base_bit),
	  PTS_TEST(topa_entry_at_52_bit_physical_address_round_trips),
	  PTS_TEST(topa_encode_drops_flags_outside_end_int_stop),
	  PTS_TEST(topa_region_sizes_go_from_4k_to_128m),
	  PTS_TEST(topa_check_rejects_reserved_bits_1_3_5_11_10),
	  PTS_TEST(topa_check_rejects_region_not_aligned_to_its_size),
	  PTS_TEST(topa_check_rejects_end_with_int_or_stop),
	  PTS_TEST(topa_check_rejects_end_at_index_0),
	  PTS_TEST(topa_entry_base_field_cannot_hold_a_misaligned_table),
	  PTS_TEST(topa_check_without_mentry_requires_end_at_1_linking_to_itself),
	  PTS_TEST(output_mask_ptrs_decodes_index_and_offset),
	  PTS_TEST(cpuid_14_1_fields_decode_with_a_3_bit_range_count),
	  PTS_TEST(encoding_zero_is_legal_for_psb_and_cyc_but_mtc_needs_its_bit),
	  PTS_TEST(canonical_addresses_for_48_and_57_bit_linear_space),
	  PTS_TEST(bdm106_applies_to_the_four_broadwell_models_only));
