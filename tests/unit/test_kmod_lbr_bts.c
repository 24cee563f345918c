// SPDX-License-Identifier: GPL-2.0
/*
 * LBR and BTS beside PT (kmod/pure/lbr_bts.c), by hand from two sources:
 * the IA32_DEBUGCTL layout of SDM vol. 3B 18.4.1 figure 18-3 (LBR bit 0,
 * BTF 1, TR 6, BTS 7, BTINT 8, BTS_OFF_OS 9, BTS_OFF_USR 10,
 * FREEZE_LBRS_ON_PMI 11), and the models for which perf's
 * intel_pmu_init() (arch/x86/events/intel/core.c) does or does not set
 * x86_pmu.lbr_pt_coexist.
 */
#define PTS_HOST 1
#include "unit.h"
#include "../../kmod/pure/pts_pure.h"

/* Family 6 models by name, from the kernel's intel-family.h. */
static const u32 exclusive_models[] = {
	0x3d, 0x47, 0x4f, 0x56,	/* Broadwell, Broadwell-G, -X, -D */
	0x4e, 0x5e, 0x55,	/* Skylake-L, Skylake, Skylake-X */
	0x8e, 0x9e,		/* Kaby Lake-L, Kaby Lake (and Coffee Lake) */
	0xa5, 0xa6,		/* Comet Lake, Comet Lake-L */
	0x66,			/* Cannon Lake-L */
};

static const u32 coexist_models[] = {
	0x5c, 0x5f,		/* Goldmont, Goldmont-D */
	0x7a,			/* Goldmont Plus */
	0x86, 0x96, 0x9c,	/* Tremont-D, Tremont, Tremont-L */
	0x7d, 0x7e, 0x6a, 0x6c,	/* Ice Lake, Ice Lake-L, -X, -D */
	0x8c, 0x8d,		/* Tiger Lake-L, Tiger Lake */
	0x97, 0x9a,		/* Alder Lake, Alder Lake-L */
	0x8f,			/* Sapphire Rapids-X */
	0xb7, 0xba,		/* Raptor Lake, Raptor Lake-P */
	0xaa, 0xac,		/* Meteor Lake-L, Meteor Lake */
	0x3c, 0x45, 0x46, 0x3f,	/* Haswell: no PT, nothing to keep apart */
};

static void lbr_pt_exclusive_models(void)
{
	size_t i;

	for (i = 0; i < sizeof(exclusive_models) / sizeof(exclusive_models[0]); i++)
		CU_ASSERT_TRUE(pts_lbr_pt_exclusive(6, exclusive_models[i]));
	for (i = 0; i < sizeof(coexist_models) / sizeof(coexist_models[0]); i++)
		CU_ASSERT_FALSE(pts_lbr_pt_exclusive(6, coexist_models[i]));
	/* Skylake's model number in another family is not Skylake. */
	CU_ASSERT_FALSE(pts_lbr_pt_exclusive(0xf, 0x55));
	CU_ASSERT_FALSE(pts_lbr_pt_exclusive(0x13, 0x4e));
}

static void lbr_bts_reason_by_bit(void)
{
	/* IA32_DEBUGCTL bits, numbered as in figure 18-3. */
	const u64 lbr = 1ULL << 0, btf = 1ULL << 1, tr = 1ULL << 6,
		  bts = 1ULL << 7, btint = 1ULL << 8, off_os = 1ULL << 9,
		  off_usr = 1ULL << 10, freeze_lbr = 1ULL << 11;

	CU_ASSERT_EQUAL(pts_lbr_bts_reason(true, 0), PTSCOPE_R_NONE);
	CU_ASSERT_EQUAL(pts_lbr_bts_reason(true, lbr), PTSCOPE_R_LBR_ACTIVE);
	CU_ASSERT_EQUAL(pts_lbr_bts_reason(true, lbr | freeze_lbr), PTSCOPE_R_LBR_ACTIVE);
	/* perf's intel_bts sets TR, BTS and the CPL bits it traces. */
	CU_ASSERT_EQUAL(pts_lbr_bts_reason(true, tr | bts | off_os), PTSCOPE_R_BTS_ACTIVE);
	CU_ASSERT_EQUAL(pts_lbr_bts_reason(true, tr | bts | off_usr | btint),
			PTSCOPE_R_BTS_ACTIVE);
	/* TR alone: branch trace messages, still branch tracing hardware. */
	CU_ASSERT_EQUAL(pts_lbr_bts_reason(true, tr), PTSCOPE_R_BTS_ACTIVE);
	CU_ASSERT_EQUAL(pts_lbr_bts_reason(true, bts), PTSCOPE_R_BTS_ACTIVE);
	/* Both: LBR is named first. */
	CU_ASSERT_EQUAL(pts_lbr_bts_reason(true, lbr | tr | bts), PTSCOPE_R_LBR_ACTIVE);
	/* Bits that record nothing by themselves. */
	CU_ASSERT_EQUAL(pts_lbr_bts_reason(true, btf | btint | off_os | off_usr | freeze_lbr),
			PTSCOPE_R_NONE);
	/* A part where perf lets them coexist: never a reason. */
	CU_ASSERT_EQUAL(pts_lbr_bts_reason(false, lbr | tr | bts), PTSCOPE_R_NONE);
	CU_ASSERT_EQUAL(pts_lbr_bts_reason(false, ~0ULL), PTSCOPE_R_NONE);
}

PTS_SUITE(kmod_lbr_bts, NULL, NULL,
	  PTS_TEST(lbr_pt_exclusive_models),
	  PTS_TEST(lbr_bts_reason_by_bit))
