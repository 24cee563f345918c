/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intel PT register and ToPA bit layouts: the one definition shared by
 * ptscope.ko and the host unit tests. Pure C, no kernel headers beyond
 * <linux/types.h>, no state.
 *
 * Source: Intel SDM vol. 3C, chapter "Intel Processor Trace"
 * (section 33.2.7 "Trace Output" for ToPA, 33.2.8 "MSRs" for RTIT_*,
 * 33.3.1 for CPUID leaf 14H). Bit numbers are also listed in
 * shared docs pt-facts sections 1-3.
 */
#ifndef _PTSCOPE_RTIT_H
#define _PTSCOPE_RTIT_H

#include <linux/types.h>
#include <linux/const.h>

/* MSR numbers (SDM vol. 4, table 2-2). */
#define RTIT_MSR_OUTPUT_BASE		0x560
#define RTIT_MSR_OUTPUT_MASK_PTRS	0x561
#define RTIT_MSR_CTL			0x570
#define RTIT_MSR_STATUS			0x571
#define RTIT_MSR_CR3_MATCH		0x572
#define RTIT_MSR_ADDR_A(n)		(0x580 + 2 * (n))
#define RTIT_MSR_ADDR_B(n)		(0x581 + 2 * (n))
#define RTIT_MSR_PLATFORM_INFO		0xCE
#define RTIT_MSR_VMX_MISC		0x485
/* IA32_VMX_MISC[14]: Intel PT may be used in VMX operation (SDM vol. 3C). */
#define RTIT_VMX_MISC_PT_IN_VMX		_BITULL(14)
/*
 * IA32_DEBUGCTL (SDM vol. 3B 18.4.1, figure 18-3): the branch recording
 * enables that perf keeps apart from PT on some parts (kmod/pure/lbr_bts.c).
 */
#define RTIT_MSR_DEBUGCTL		0x1D9
#define RTIT_DEBUGCTL_LBR		_BITULL(0)	/* last branch records */
#define RTIT_DEBUGCTL_BTF		_BITULL(1)	/* single-step on branches */
#define RTIT_DEBUGCTL_TR		_BITULL(6)	/* branch trace messages */
#define RTIT_DEBUGCTL_BTS		_BITULL(7)	/* branch trace store */
#define RTIT_DEBUGCTL_BTINT		_BITULL(8)	/* BTS buffer-full interrupt */

/* IA32_RTIT_CTL (SDM 33.2.8.2, table 33-6). */
#define RTIT_CTL_TRACEEN	_BITULL(0)
#define RTIT_CTL_CYCEN		_BITULL(1)
#define RTIT_CTL_OS		_BITULL(2)
#define RTIT_CTL_USER		_BITULL(3)
#define RTIT_CTL_PWREVTEN	_BITULL(4)
#define RTIT_CTL_FUPONPTW	_BITULL(5)
#define RTIT_CTL_FABRICEN	_BITULL(6)
#define RTIT_CTL_CR3FILTER	_BITULL(7)
#define RTIT_CTL_TOPA		_BITULL(8)
#define RTIT_CTL_MTCEN		_BITULL(9)
#define RTIT_CTL_TSCEN		_BITULL(10)
#define RTIT_CTL_DISRETC	_BITULL(11)
#define RTIT_CTL_PTWEN		_BITULL(12)
#define RTIT_CTL_BRANCHEN	_BITULL(13)
#define RTIT_CTL_MTCFREQ_SHIFT	14
#define RTIT_CTL_MTCFREQ_MASK	(0xfULL << RTIT_CTL_MTCFREQ_SHIFT)
#define RTIT_CTL_CYCTHRESH_SHIFT 19
#define RTIT_CTL_CYCTHRESH_MASK	(0xfULL << RTIT_CTL_CYCTHRESH_SHIFT)
#define RTIT_CTL_PSBFREQ_SHIFT	24
#define RTIT_CTL_PSBFREQ_MASK	(0xfULL << RTIT_CTL_PSBFREQ_SHIFT)
#define RTIT_CTL_EVENTEN	_BITULL(31)
#define RTIT_CTL_ADDR_CFG_SHIFT(n)	(32 + 4 * (n))
#define RTIT_CTL_ADDR_CFG_MASK(n)	(0xfULL << RTIT_CTL_ADDR_CFG_SHIFT(n))
#define RTIT_CTL_DISTNT		_BITULL(55)
#define RTIT_CTL_INJECTPSBPMI	_BITULL(56)

/* Every bit the SDM defines; the rest are reserved and #GP when set. */
#define RTIT_CTL_DEFINED_MASK						\
	(RTIT_CTL_TRACEEN | RTIT_CTL_CYCEN | RTIT_CTL_OS | RTIT_CTL_USER | \
	 RTIT_CTL_PWREVTEN | RTIT_CTL_FUPONPTW | RTIT_CTL_FABRICEN |	\
	 RTIT_CTL_CR3FILTER | RTIT_CTL_TOPA | RTIT_CTL_MTCEN |		\
	 RTIT_CTL_TSCEN | RTIT_CTL_DISRETC | RTIT_CTL_PTWEN |		\
	 RTIT_CTL_BRANCHEN | RTIT_CTL_MTCFREQ_MASK |			\
	 RTIT_CTL_CYCTHRESH_MASK | RTIT_CTL_PSBFREQ_MASK |		\
	 RTIT_CTL_EVENTEN | RTIT_CTL_ADDR_CFG_MASK(0) |			\
	 RTIT_CTL_ADDR_CFG_MASK(1) | RTIT_CTL_ADDR_CFG_MASK(2) |	\
	 RTIT_CTL_ADDR_CFG_MASK(3) | RTIT_CTL_DISTNT | RTIT_CTL_INJECTPSBPMI)
#define RTIT_CTL_RESERVED_MASK	(~RTIT_CTL_DEFINED_MASK)

/* ADDRn_CFG encodings (SDM 33.2.4.3). */
#define RTIT_ADDR_CFG_OFF	0
#define RTIT_ADDR_CFG_FILTER	1
#define RTIT_ADDR_CFG_STOP	2

static inline __u64 rtit_ctl_field_get(__u64 ctl, __u64 mask, unsigned int shift)
{
	return (ctl & mask) >> shift;
}

static inline __u64 rtit_ctl_field_set(__u64 ctl, __u64 mask, unsigned int shift,
				       __u64 val)
{
	return (ctl & ~mask) | ((val << shift) & mask);
}

/* IA32_RTIT_STATUS (SDM 33.2.8.4, table 33-7). */
#define RTIT_STATUS_FILTEREN		_BITULL(0)
#define RTIT_STATUS_CONTEXTEN		_BITULL(1)
#define RTIT_STATUS_TRIGGEREN		_BITULL(2)
#define RTIT_STATUS_ERROR		_BITULL(4)
#define RTIT_STATUS_STOPPED		_BITULL(5)
#define RTIT_STATUS_PENDPSB		_BITULL(6)
#define RTIT_STATUS_PENDTOPAPMI		_BITULL(7)
#define RTIT_STATUS_BYTECNT_SHIFT	32
#define RTIT_STATUS_BYTECNT_MASK	(0x1ffffULL << RTIT_STATUS_BYTECNT_SHIFT)

static inline __u32 rtit_status_bytecnt(__u64 status)
{
	return (__u32)((status & RTIT_STATUS_BYTECNT_MASK) >> RTIT_STATUS_BYTECNT_SHIFT);
}

/*
 * ToPA table entry (SDM 33.2.7.2, figure 33-2 and table 33-3):
 * bit 0 END, bit 2 INT, bit 4 STOP, bits 9:6 Size (region = 4 KiB << Size),
 * bits MAXPHYADDR-1:12 output region base (or next table for END).
 * Bits 1, 3, 5, 11:10 and bits at or above MAXPHYADDR are reserved.
 * Built only with 64-bit masks: narrow bitfields truncated bases above
 * 64 GiB in the kernel's own driver twice.
 */
#define TOPA_END		_BITULL(0)
#define TOPA_INT		_BITULL(2)
#define TOPA_STOP		_BITULL(4)
#define TOPA_SIZE_SHIFT		6
#define TOPA_SIZE_MASK		(0xfULL << TOPA_SIZE_SHIFT)
#define TOPA_LOW_RESERVED_MASK	(_BITULL(1) | _BITULL(3) | _BITULL(5) | (3ULL << 10))
#define TOPA_BASE_SHIFT		12
#define TOPA_SIZE_CODE_MAX	15		/* 4 KiB << 15 = 128 MiB */
#define TOPA_REGION_MIN		4096ULL
#define TOPA_REGION_MAX		(TOPA_REGION_MIN << TOPA_SIZE_CODE_MAX)
#define TOPA_TABLE_ALIGN	4096ULL	/* a table must be 4 KiB aligned */
#define TOPA_ENTRIES_PER_PAGE	512

/* Mask of the base field for a CPU with the given MAXPHYADDR (bits). */
static inline __u64 topa_base_mask(unsigned int maxphyaddr)
{
	__u64 top = maxphyaddr >= 64 ? ~0ULL : (1ULL << maxphyaddr) - 1;

	return top & ~((1ULL << TOPA_BASE_SHIFT) - 1);
}

/* Region size in bytes for a Size code (0..15). */
static inline __u64 topa_region_size(unsigned int size_code)
{
	return TOPA_REGION_MIN << (size_code & 0xf);
}

/* Size code for a region of `bytes` (power of two, 4 KiB..128 MiB), -1 otherwise. */
static inline int topa_size_code(__u64 bytes)
{
	int code;

	for (code = 0; code <= TOPA_SIZE_CODE_MAX; code++)
		if (topa_region_size(code) == bytes)
			return code;
	return -1;
}

/*
 * Encode one entry. base: physical address of the region (or of the next
 * table when flags has TOPA_END); flags: TOPA_END/INT/STOP. No checking:
 * use topa_entry_check() for the SDM's rules.
 */
static inline __u64 topa_entry_encode(__u64 base, unsigned int size_code, __u64 flags)
{
	return (base & ~((1ULL << TOPA_BASE_SHIFT) - 1)) |
	       (((__u64)size_code << TOPA_SIZE_SHIFT) & TOPA_SIZE_MASK) |
	       (flags & (TOPA_END | TOPA_INT | TOPA_STOP));
}

static inline __u64 topa_entry_base(__u64 entry)
{
	return entry & ~((1ULL << TOPA_BASE_SHIFT) - 1);
}

static inline unsigned int topa_entry_size_code(__u64 entry)
{
	return (unsigned int)((entry & TOPA_SIZE_MASK) >> TOPA_SIZE_SHIFT);
}

/*
 * ToPA error conditions (SDM 33.2.7.2 "ToPA Errors"). Each makes the CPU
 * set RTIT_STATUS.Error and stop tracing when it reads the entry.
 */
enum topa_error {
	TOPA_OK = 0,
	TOPA_ERR_RESERVED_BITS,		/* bits 1, 3, 5, 11:10 set */
	TOPA_ERR_ABOVE_MAXPHYADDR,	/* base bits >= MAXPHYADDR set */
	TOPA_ERR_MISALIGNED_REGION,	/* region base not aligned to its size */
	TOPA_ERR_END_WITH_INT_STOP,	/* END entry also has INT or STOP */
	TOPA_ERR_END_AT_INDEX_0,	/* first entry of a table is END */
	TOPA_ERR_NO_MENTRY_NOT_END,	/* single-entry CPU: entry 1 not END */
	TOPA_ERR_NO_MENTRY_BAD_LINK,	/* single-entry CPU: END not to itself */
	TOPA_ERR_OFFSET_BEYOND_REGION,	/* OutputOffset >= region size */
	TOPA_ERR_MISALIGNED_TABLE,	/* OUTPUT_BASE/END target not 4 KiB aligned */
};

/*
 * Check one entry read at `index` of a table at physical `table_base`.
 * mentry: CPUID.14H.0:ECX[1]. Returns TOPA_OK or the first error found.
 */
static inline enum topa_error topa_entry_check(__u64 entry, unsigned int index,
					       __u64 table_base,
					       unsigned int maxphyaddr,
					       int mentry)
{
	__u64 base = topa_entry_base(entry);

	if (entry & TOPA_LOW_RESERVED_MASK)
		return TOPA_ERR_RESERVED_BITS;
	if (base & ~topa_base_mask(maxphyaddr))
		return TOPA_ERR_ABOVE_MAXPHYADDR;
	if (entry & TOPA_END) {
		if (entry & (TOPA_INT | TOPA_STOP))
			return TOPA_ERR_END_WITH_INT_STOP;
		if (index == 0)
			return TOPA_ERR_END_AT_INDEX_0;
		if (base & (TOPA_TABLE_ALIGN - 1))
			return TOPA_ERR_MISALIGNED_TABLE;
		if (!mentry && base != table_base)
			return TOPA_ERR_NO_MENTRY_BAD_LINK;
		return TOPA_OK;
	}
	if (!mentry && index == 1)
		return TOPA_ERR_NO_MENTRY_NOT_END;
	if (base & (topa_region_size(topa_entry_size_code(entry)) - 1))
		return TOPA_ERR_MISALIGNED_REGION;
	return TOPA_OK;
}

/*
 * IA32_RTIT_OUTPUT_MASK_PTRS with ToPA output (SDM 33.2.8.8):
 * bits 6:0 read as 1 (LowerMask), bits 31:7 MaskOrTableOffset = current
 * entry index (entry byte offset >> 3, stored << 7), bits 63:32
 * OutputOffset = byte offset inside the current region.
 */
#define RTIT_OMP_LOWER_MASK		0x7fULL
#define RTIT_OMP_TABLE_OFFSET_SHIFT	7
#define RTIT_OMP_TABLE_OFFSET_MASK	(0x1ffffffULL << RTIT_OMP_TABLE_OFFSET_SHIFT)
#define RTIT_OMP_OUTPUT_OFFSET_SHIFT	32

static inline __u64 rtit_omp_encode(unsigned int entry_index, __u32 output_offset)
{
	return RTIT_OMP_LOWER_MASK |
	       (((__u64)entry_index << RTIT_OMP_TABLE_OFFSET_SHIFT) & RTIT_OMP_TABLE_OFFSET_MASK) |
	       ((__u64)output_offset << RTIT_OMP_OUTPUT_OFFSET_SHIFT);
}

static inline unsigned int rtit_omp_entry_index(__u64 omp)
{
	return (unsigned int)((omp & RTIT_OMP_TABLE_OFFSET_MASK) >> RTIT_OMP_TABLE_OFFSET_SHIFT);
}

static inline __u32 rtit_omp_output_offset(__u64 omp)
{
	return (__u32)(omp >> RTIT_OMP_OUTPUT_OFFSET_SHIFT);
}

/* CPUID.(EAX=14H,ECX=0) EBX feature bits (SDM 33.3.1, table 33-10). */
#define PT_CPUID_EBX_CR3_FILTER		_BITUL(0)
#define PT_CPUID_EBX_PSB_CYC		_BITUL(1)
#define PT_CPUID_EBX_IP_FILTER		_BITUL(2)
#define PT_CPUID_EBX_MTC		_BITUL(3)
#define PT_CPUID_EBX_PTWRITE		_BITUL(4)
#define PT_CPUID_EBX_POWER_EVENT	_BITUL(5)
#define PT_CPUID_EBX_PSB_PMI_PRESERVE	_BITUL(6)
#define PT_CPUID_EBX_EVENT_TRACE	_BITUL(7)
#define PT_CPUID_EBX_TNT_DISABLE	_BITUL(8)
/* CPUID.(EAX=14H,ECX=0) ECX. */
#define PT_CPUID_ECX_TOPA		_BITUL(0)
#define PT_CPUID_ECX_MENTRY		_BITUL(1)
#define PT_CPUID_ECX_SINGLE_RANGE	_BITUL(2)
#define PT_CPUID_ECX_TRANSPORT		_BITUL(3)
#define PT_CPUID_ECX_LIP		_BITUL(31)
/* CPUID.07H:EBX[25]: Intel PT present. */
#define PT_CPUID_7_EBX_PT		_BITUL(25)

/* CPUID.(EAX=14H,ECX=1) decoders. */
static inline unsigned int pt_cpuid_nr_addr_ranges(__u32 eax1)
{
	return eax1 & 0x7;	/* 3 bits, not 2 */
}

static inline __u32 pt_cpuid_mtc_bitmap(__u32 eax1)
{
	return eax1 >> 16;
}

static inline __u32 pt_cpuid_cyc_bitmap(__u32 ebx1)
{
	return ebx1 & 0xffff;
}

static inline __u32 pt_cpuid_psb_bitmap(__u32 ebx1)
{
	return ebx1 >> 16;
}

/*
 * Legal encodings (SDM 33.2.8.2): PSBFreq and CycThresh accept 0 always
 * and N if bit N of their bitmap is set; MTCFreq needs bit N set.
 */
static inline int pt_encoding_allowed(__u32 bitmap, unsigned int n, int zero_ok)
{
	if (n > 15)
		return 0;
	if (n == 0 && zero_ok)
		return 1;
	return (bitmap >> n) & 1;
}

/* Erratum BDM106: clearing BranchEn #GPs on these Broadwell models. */
static inline int pt_erratum_bdm106(unsigned int family, unsigned int model)
{
	return family == 6 &&
	       (model == 0x3d || model == 0x47 || model == 0x4f || model == 0x56);
}

/*
 * Canonical linear address for a CPU with `va_bits` (48, or 57 with
 * LA57): bits 63..va_bits-1 all equal (SDM vol. 1, 3.3.7.1).
 */
static inline int pt_addr_is_canonical(__u64 addr, unsigned int va_bits)
{
	__u64 upper = addr >> (va_bits - 1);

	return upper == 0 || upper == (~0ULL >> (va_bits - 1));
}

/* RTIT_CR3_MATCH bits 4:0 are reserved (SDM 33.2.8.6). */
#define RTIT_CR3_MATCH_RESERVED_MASK	0x1fULL

#endif /* _PTSCOPE_RTIT_H */
