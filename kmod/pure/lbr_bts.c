// SPDX-License-Identifier: GPL-2.0
/*
 * LBR and BTS beside PT: perf's intel_pt takes
 * x86_add_exclusive(x86_lbr_exclusive_pt), which refuses a PT event while
 * an LBR or BTS event exists and the reverse, except where the core PMU
 * driver set x86_pmu.lbr_pt_coexist. That symbol is not exported, so
 * ptscope reads IA32_DEBUGCTL instead (docs/abi.md, "LBR and BTS users").
 * See pts_pure.h for the rules and their sources.
 */
#include "pts_pure.h"

bool pts_lbr_pt_exclusive(u32 family, u32 model)
{
	if (family != 6)
		return false;
	switch (model) {
	case 0x3d: case 0x47: case 0x4f: case 0x56:	/* Broadwell */
	case 0x4e: case 0x5e: case 0x55:		/* Skylake */
	case 0x8e: case 0x9e:				/* Kaby/Coffee Lake */
	case 0xa5: case 0xa6:				/* Comet Lake */
	case 0x66:	/* Cannon Lake: no case in perf, its default */
		return true;
	default:
		return false;
	}
}

u32 pts_lbr_bts_reason(bool exclusive, u64 debugctl)
{
	if (!exclusive)
		return PTSCOPE_R_NONE;
	if (debugctl & RTIT_DEBUGCTL_LBR)
		return PTSCOPE_R_LBR_ACTIVE;
	if (debugctl & (RTIT_DEBUGCTL_TR | RTIT_DEBUGCTL_BTS))
		return PTSCOPE_R_BTS_ACTIVE;
	return PTSCOPE_R_NONE;
}
