// SPDX-License-Identifier: GPL-2.0
/*
 * What VMX operation means for a capture (kmod/pure/caps_decode.c),
 * by hand from SDM vol. 3C chapter 33 "Tracing post-VMXON": with
 * IA32_VMX_MISC[14] = 1 PT keeps tracing in VMX operation; with 0,
 * VMXON clears TraceEn and RTIT_CTL cannot be set in VMX operation.
 */
#define PTS_HOST 1
#include "unit.h"
#include "../../kmod/pure/pts_pure.h"

static void vmx_verdict_by_hand(void)
{
	const u64 bit14 = 1ULL << 14, other = 0x00000000000401e7ULL; /* bits 14 clear */

	/* no VMX at all: nothing can stop the trace that way */
	CU_ASSERT_EQUAL(pts_vmx_verdict(false, 0, false), PTS_VMX_OK);
	CU_ASSERT_EQUAL(pts_vmx_verdict(false, 0, true), PTS_VMX_OK);
	/* VMX and bit 14: tracing goes on in VMX operation */
	CU_ASSERT_EQUAL(pts_vmx_verdict(true, other | bit14, false), PTS_VMX_OK);
	CU_ASSERT_EQUAL(pts_vmx_verdict(true, other | bit14, true), PTS_VMX_OK);
	/* VMX without bit 14: warn outside VMX operation, refuse inside */
	CU_ASSERT_EQUAL(pts_vmx_verdict(true, other, false), PTS_VMX_WARN);
	CU_ASSERT_EQUAL(pts_vmx_verdict(true, other, true), PTS_VMX_REFUSE);
	CU_ASSERT_EQUAL(pts_vmx_verdict(true, 0, true), PTS_VMX_REFUSE);
}

PTS_SUITE(kmod_vmx, NULL, NULL,
	  PTS_TEST(vmx_verdict_by_hand))
