// SPDX-License-Identifier: GPL-2.0
/* CR3_MATCH derivation for a process (SDM 33.2.4.2 and 33.2.8.6). */
#include "pts_pure.h"

#define PTS_CR3_PCID_MASK	0xfffULL

u64 pts_cr3_user_root(u64 pgd_pa, bool kpti)
{
	u64 root = pgd_pa & ~PTS_CR3_PCID_MASK;

	return kpti ? root | (1ULL << PTS_CR3_PTI_USER_BIT) : root;
}

void pts_cr3_plan(u64 pgd_pa, u32 scope, bool pcid, bool kpti,
		  struct pts_cr3_plan *out)
{
	u64 kernel_root = pgd_pa & ~PTS_CR3_PCID_MASK;

	out->filter = true;
	out->statef = 0;
	out->cr3_match = kernel_root;
	if (pcid)
		out->statef |= PTSCOPE_STATEF_CR3_PCID;
	if (!kpti)
		return;
	out->statef |= PTSCOPE_STATEF_CR3_KPTI;
	switch (scope) {
	case PTSCOPE_SCOPE_USER:
		/* User code runs on the user root; with PCID its PCID has bit 11. */
		out->cr3_match = pts_cr3_user_root(pgd_pa, true);
		if (pcid)
			out->cr3_match |= 1ULL << PTS_CR3_PCID_USER_BIT;
		break;
	case PTSCOPE_SCOPE_KERNEL:
		break;
	default:
		/* One CR3_MATCH cannot cover both roots: filter by sideband. */
		out->filter = false;
		out->cr3_match = 0;
		out->statef |= PTSCOPE_STATEF_CR3_PARTIAL;
		break;
	}
}
