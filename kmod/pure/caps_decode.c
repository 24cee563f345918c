// SPDX-License-Identifier: GPL-2.0
/* CPUID decoding shared by the probe and the host tests. */
#include "pts_pure.h"

void pts_cpuid_fms(u32 eax1, u32 *family, u32 *model, u32 *stepping)
{
	u32 base_family = (eax1 >> 8) & 0xf;
	u32 base_model = (eax1 >> 4) & 0xf;
	u32 ext_family = (eax1 >> 20) & 0xff;
	u32 ext_model = (eax1 >> 16) & 0xf;

	*stepping = eax1 & 0xf;
	*family = base_family;
	if (base_family == 0xf)
		*family += ext_family;
	*model = base_model;
	if (base_family == 0x6 || base_family == 0xf)
		*model += ext_model << 4;
}

enum pts_vmx_verdict pts_vmx_verdict(bool vmx, u64 vmx_misc, bool in_vmx)
{
	if (!vmx || (vmx_misc & RTIT_VMX_MISC_PT_IN_VMX))
		return PTS_VMX_OK;
	return in_vmx ? PTS_VMX_REFUSE : PTS_VMX_WARN;
}
