// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated PT unit's CPUID answers and RTIT MSR rules: every #GP
 * rule of Intel SDM vol. 3C 33.2.8 that the unit models faults (-EIO)
 * for the intended reason and leaves the MSR as it was; the legal
 * sequences are accepted. Expected values come from the SDM's tables
 * and the documented model CPU (docs/simulated-unit.md), not from the
 * model's own output.
 */
#include "unit.h"
#include "sim_harness.h"

#include <errno.h>

static void cpuid_reports_pt_on_a_skylake_sp_model(void)
{
	u32 r[4];

	memset(r, 0, sizeof(r));
	pts_sim_cpuid(&pts_sim_model_skx, 0, 0, r);
	CU_ASSERT_EQUAL(r[0], 0x16);
	CU_ASSERT_EQUAL(memcmp(&r[1], "Genu", 4), 0);
	CU_ASSERT_EQUAL(memcmp(&r[3], "ineI", 4), 0);
	CU_ASSERT_EQUAL(memcmp(&r[2], "ntel", 4), 0);

	memset(r, 0, sizeof(r));
	pts_sim_cpuid(&pts_sim_model_skx, 1, 0, r);
	/* family 6, model 0x55 (ext 5, base 5), stepping 4 (SDM vol. 2A CPUID) */
	CU_ASSERT_EQUAL(r[0] & 0xf, 4);
	CU_ASSERT_EQUAL((r[0] >> 4) & 0xf, 5);
	CU_ASSERT_EQUAL((r[0] >> 8) & 0xf, 6);
	CU_ASSERT_EQUAL((r[0] >> 16) & 0xf, 5);

	/* leaf 7: bit 25 set, the real CPU's other bits kept */
	r[0] = 1; r[1] = 0x01d843a9; r[2] = 7; r[3] = 9;
	pts_sim_cpuid(&pts_sim_model_skx, 7, 0, r);
	CU_ASSERT_EQUAL(r[1], 0x01d843a9 | (1U << 25));
	CU_ASSERT_EQUAL(r[0], 1);
	CU_ASSERT_EQUAL(r[2], 7);

	pts_sim_cpuid(&pts_sim_model_skx, 0x14, 0, r);
	CU_ASSERT_EQUAL(r[0], 1);		/* max sub-leaf */
	CU_ASSERT_EQUAL(r[1], 0x0f);
	CU_ASSERT_EQUAL(r[2], PT_CPUID_ECX_TOPA | PT_CPUID_ECX_MENTRY);
	pts_sim_cpuid(&pts_sim_model_skx, 0x14, 1, r);
	CU_ASSERT_EQUAL(pt_cpuid_nr_addr_ranges(r[0]), 2);
	CU_ASSERT_EQUAL(pt_cpuid_mtc_bitmap(r[0]), 0x249);
	CU_ASSERT_EQUAL(pt_cpuid_cyc_bitmap(r[1]), 0x3fff);
	CU_ASSERT_EQUAL(pt_cpuid_psb_bitmap(r[1]), 0x3f);

	pts_sim_cpuid(&pts_sim_model_skx, 0x15, 0, r);
	CU_ASSERT_EQUAL(r[0], 2);
	CU_ASSERT_EQUAL(r[1], 192);

	r[0] = 0x3030; r[1] = 5;
	pts_sim_cpuid(&pts_sim_model_skx, 0x80000008, 0, r);
	CU_ASSERT_EQUAL(r[0] & 0xff, 46);
	CU_ASSERT_EQUAL((r[0] >> 8) & 0xff, 48);
	CU_ASSERT_EQUAL(r[1], 5);
}

static void cpuid_passes_other_leaves_through(void)
{
	u32 r[4] = { 1, 2, 3, 4 };

	pts_sim_cpuid(&pts_sim_model_skx, 0xd, 0, r);
	CU_ASSERT(r[0] == 1 && r[1] == 2 && r[2] == 3 && r[3] == 4);
	pts_sim_cpuid(&pts_sim_model_skx, 0x80000001, 0, r);
	CU_ASSERT(r[0] == 1 && r[1] == 2 && r[2] == 3 && r[3] == 4);
}

static void platform_info_reads_the_nominal_ratio(void)
{
	struct simt t;

	simt_init(&t);
	CU_ASSERT_EQUAL((simt_rd(&t, RTIT_MSR_PLATFORM_INFO) >> 8) & 0xff, 24);
	simt_fini(&t);
}

struct ctl_case {
	const char *what;
	u64 ctl;
	enum pts_sim_gp gp;
};

static const struct ctl_case ctl_cases[] = {
	{ "reserved bit 18", 1ULL << 18, PTS_SIM_GP_CTL_RESERVED },
	{ "reserved bit 23", 1ULL << 23, PTS_SIM_GP_CTL_RESERVED },
	{ "reserved bit 30", 1ULL << 30, PTS_SIM_GP_CTL_RESERVED },
	{ "reserved bit 48", 1ULL << 48, PTS_SIM_GP_CTL_RESERVED },
	{ "reserved bit 63", 1ULL << 63, PTS_SIM_GP_CTL_RESERVED },
	/* MTC bitmap 0x249: 0, 3, 6, 9 only */
	{ "MTCFreq 1", 1ULL << RTIT_CTL_MTCFREQ_SHIFT, PTS_SIM_GP_CTL_MTC_FREQ },
	{ "MTCFreq 15", 15ULL << RTIT_CTL_MTCFREQ_SHIFT, PTS_SIM_GP_CTL_MTC_FREQ },
	/* CycThresh bitmap 0x3fff: 14 and 15 not allowed */
	{ "CycThresh 14", 14ULL << RTIT_CTL_CYCTHRESH_SHIFT, PTS_SIM_GP_CTL_CYC_THRESH },
	/* PSBFreq bitmap 0x3f: 6 and up not allowed */
	{ "PSBFreq 6", 6ULL << RTIT_CTL_PSBFREQ_SHIFT, PTS_SIM_GP_CTL_PSB_FREQ },
	{ "PTWEn", RTIT_CTL_PTWEN, PTS_SIM_GP_CTL_NO_PTWRITE },
	{ "FUPonPTW", RTIT_CTL_FUPONPTW, PTS_SIM_GP_CTL_NO_PTWRITE },
	{ "PwrEvtEn", RTIT_CTL_PWREVTEN, PTS_SIM_GP_CTL_NO_PWR_EVT },
	{ "EventEn", RTIT_CTL_EVENTEN, PTS_SIM_GP_CTL_NO_EVENT_TRACE },
	{ "DisTNT", RTIT_CTL_DISTNT, PTS_SIM_GP_CTL_NO_TNT_DISABLE },
	{ "InjectPsbPmiOnEnable", RTIT_CTL_INJECTPSBPMI, PTS_SIM_GP_CTL_NO_PSB_PMI },
	{ "FabricEn", RTIT_CTL_FABRICEN, PTS_SIM_GP_CTL_NO_TRANSPORT },
	/* two ranges: ADDR2_CFG and ADDR3_CFG must stay 0 */
	{ "ADDR2_CFG 1", 1ULL << RTIT_CTL_ADDR_CFG_SHIFT(2), PTS_SIM_GP_CTL_ADDR_RANGE },
	{ "ADDR3_CFG 2", 2ULL << RTIT_CTL_ADDR_CFG_SHIFT(3), PTS_SIM_GP_CTL_ADDR_RANGE },
	{ "ADDR0_CFG 3", 3ULL << RTIT_CTL_ADDR_CFG_SHIFT(0), PTS_SIM_GP_CTL_ADDR_CFG },
	{ "ADDR1_CFG 15", 15ULL << RTIT_CTL_ADDR_CFG_SHIFT(1), PTS_SIM_GP_CTL_ADDR_CFG },
	/* no single-range output: TraceEn needs ToPA */
	{ "TraceEn without ToPA", RTIT_CTL_TRACEEN | RTIT_CTL_USER | RTIT_CTL_BRANCHEN,
	  PTS_SIM_GP_CTL_NO_SINGLE_RANGE },
};

static void ctl_write_faults_on_each_reserved_or_unsupported_encoding(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(ctl_cases) / sizeof(ctl_cases[0]); i++) {
		struct simt t;
		int rc;

		simt_init(&t);
		rc = pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, ctl_cases[i].ctl, 0);
		CU_ASSERT_EQUAL(rc, -EIO);
		CU_ASSERT_EQUAL(t.cpu.last_gp, ctl_cases[i].gp);
		if (rc != -EIO || t.cpu.last_gp != ctl_cases[i].gp)
			fprintf(stderr, "case %s: rc %d gp %s\n", ctl_cases[i].what, rc,
				pts_sim_gp_str(t.cpu.last_gp));
		/* the faulting write changed nothing */
		CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_CTL), 0);
		simt_fini(&t);
	}
}

static void ctl_write_accepts_every_supported_feature_together(void)
{
	u64 ctl = RTIT_CTL_TOPA | RTIT_CTL_USER | RTIT_CTL_OS | RTIT_CTL_BRANCHEN |
		  RTIT_CTL_TSCEN | RTIT_CTL_MTCEN | (9ULL << RTIT_CTL_MTCFREQ_SHIFT) |
		  RTIT_CTL_CYCEN | (13ULL << RTIT_CTL_CYCTHRESH_SHIFT) |
		  (5ULL << RTIT_CTL_PSBFREQ_SHIFT) | RTIT_CTL_CR3FILTER | RTIT_CTL_DISRETC |
		  (1ULL << RTIT_CTL_ADDR_CFG_SHIFT(0)) | (2ULL << RTIT_CTL_ADDR_CFG_SHIFT(1));
	struct simt t;

	simt_init(&t);
	simt_ring(&t, 2, 0, 0);
	CU_ASSERT_EQUAL(simt_arm(&t, ctl, 1), 0);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_CTL), ctl | RTIT_CTL_TRACEEN);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_STATUS) & RTIT_STATUS_ERROR, 0);
	CU_ASSERT(simt_rd(&t, RTIT_MSR_STATUS) & RTIT_STATUS_TRIGGEREN);
	simt_fini(&t);
}

/* A model CPU with features taken away, for the "without the feature" rules. */
static void ctl_write_faults_on_features_the_model_lacks(void)
{
	struct pts_sim_model m = pts_sim_model_skx;
	struct simt t;

	m.leaf14_0[1] &= ~(PT_CPUID_EBX_MTC | PT_CPUID_EBX_PSB_CYC |
			   PT_CPUID_EBX_CR3_FILTER | PT_CPUID_EBX_IP_FILTER);
	m.leaf14_0[2] &= ~PT_CPUID_ECX_TOPA;
	simt_init_model(&t, &m);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, RTIT_CTL_MTCEN, 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_CTL_NO_MTC);
	/* MTCFreq 0 is fine with MTC, but any MTCFreq without it is not */
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, 3ULL << RTIT_CTL_MTCFREQ_SHIFT, 0),
			-EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_CTL_NO_MTC);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, RTIT_CTL_CYCEN, 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_CTL_NO_PSB_CYC);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, 1ULL << RTIT_CTL_PSBFREQ_SHIFT, 0),
			-EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_CTL_NO_PSB_CYC);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, RTIT_CTL_CR3FILTER, 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_CTL_NO_CR3_FILTER);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL,
				      1ULL << RTIT_CTL_ADDR_CFG_SHIFT(0), 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_CTL_ADDR_RANGE);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, RTIT_CTL_TOPA, 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_CTL_NO_TOPA);
	/* the MSRs of absent features fault too */
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CR3_MATCH, 0x1000, 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_NO_CR3_MSR);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_ADDR_A(0), 0x1000, 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_NO_ADDR_MSR);
	simt_fini(&t);
}

static void rtit_writes_other_than_ctl_fault_while_traceen_is_set(void)
{
	static const u32 msrs[] = {
		RTIT_MSR_OUTPUT_BASE, RTIT_MSR_OUTPUT_MASK_PTRS, RTIT_MSR_STATUS,
		RTIT_MSR_CR3_MATCH, RTIT_MSR_ADDR_A(0), RTIT_MSR_ADDR_B(1),
	};
	unsigned int i;
	struct simt t;

	simt_init(&t);
	simt_ring(&t, 2, 0, 0);
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, SIMT_CTL_USER, 1), 0);
	for (i = 0; i < sizeof(msrs) / sizeof(msrs[0]); i++) {
		CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, msrs[i], 0, 0), -EIO);
		CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_TRACEEN_SET);
	}
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_OUTPUT_BASE), t.table);
	/* reads are always allowed */
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_CTL), SIMT_CTL_USER | RTIT_CTL_TRACEEN);
	simt_fini(&t);
}

static void ctl_change_while_enabled_faults_but_clearing_traceen_does_not(void)
{
	u64 on = SIMT_CTL_USER | RTIT_CTL_TRACEEN;
	struct simt t;

	simt_init(&t);
	simt_ring(&t, 2, 0, 0);
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, SIMT_CTL_USER, 1), 0);
	/* changing the scope while tracing */
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, on | RTIT_CTL_OS, 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_CTL_CHANGE_ENABLED);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_CTL), on);
	/* rewriting the same value is harmless */
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, on, 0), 0);
	/* the stop write */
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, on & ~RTIT_CTL_TRACEEN, 0), 0);
	CU_ASSERT_FALSE(pts_sim_tracing(&t.cpu));
	/* and now the other MSRs are writable again */
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_STATUS, 0, 0), 0);
	simt_fini(&t);
}

/*
 * SDM vol. 3C 33.2.8.2 (IA32_RTIT_CTL): a write while TraceEn = 1 #GPs
 * "unless the same write also clears TraceEn". So a stop that writes
 * another owner's whole value without TraceEn (perf's pt_config_stop()
 * writes its event's config) is legal, and the new bits take effect; the
 * value still has to pass the table 33-6 checks.
 */
static void ctl_write_clearing_traceen_may_change_other_bits(void)
{
	u64 on = SIMT_CTL_USER | RTIT_CTL_TRACEEN;
	u64 other = RTIT_CTL_TOPA | RTIT_CTL_BRANCHEN | RTIT_CTL_OS | RTIT_CTL_MTCEN |
		    (3ULL << RTIT_CTL_MTCFREQ_SHIFT);
	struct simt t;

	simt_init(&t);
	simt_ring(&t, 2, 0, 0);
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, SIMT_CTL_USER, 1), 0);
	/* clearing TraceEn and a reserved bit: still #GP, still tracing */
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, (1ULL << 18) | SIMT_CTL_USER, 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_CTL_RESERVED);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_CTL), on);
	/* clearing TraceEn together with TSCEn */
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, on & ~(RTIT_CTL_TRACEEN | RTIT_CTL_TSCEN),
				      0), 0);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_CTL), SIMT_CTL_USER & ~RTIT_CTL_TSCEN);
	CU_ASSERT_FALSE(pts_sim_tracing(&t.cpu));

	/* another owner's whole value (scope, MTC) in the stop write */
	CU_ASSERT_EQUAL_FATAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, on, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, other, 0), 0);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_CTL), other);
	CU_ASSERT_FALSE(pts_sim_tracing(&t.cpu));
	/* the disable wrote its packets: nothing goes out after it */
	{
		size_t head = simt_head(&t);

		simt_ticks(&t, 3, 10);
		CU_ASSERT_EQUAL(simt_head(&t), head);
	}
	simt_fini(&t);
}

static void output_base_faults_on_bits_6_0_and_above_maxphyaddr(void)
{
	struct simt t;

	simt_init(&t);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_OUTPUT_BASE, 0x40000001, 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_OUTPUT_BASE);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_OUTPUT_BASE, 0x40000040, 0), -EIO);
	/* MAXPHYADDR 46: bit 46 is reserved, bit 45 is not */
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_OUTPUT_BASE, 1ULL << 46, 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_OUTPUT_BASE);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_OUTPUT_BASE, 1ULL << 45, 0), 0);
	/* 128-byte aligned is a legal write (ToPA then errors at enable) */
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_OUTPUT_BASE, 0x40000080, 0), 0);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_OUTPUT_BASE), 0x40000080);
	simt_fini(&t);
}

static void cr3_match_faults_on_bits_4_0_and_above_maxphyaddr(void)
{
	struct simt t;

	simt_init(&t);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CR3_MATCH, 0x12345001, 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_CR3_MATCH);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CR3_MATCH, 0x12345010, 0), -EIO);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CR3_MATCH, 1ULL << 50, 0), -EIO);
	/* bits 11:5 are allowed (the SDM reserves only 4:0) */
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CR3_MATCH, 0x12345020, 0), 0);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_CR3_MATCH), 0x12345020);
	simt_fini(&t);
}

static void addr_msrs_need_canonical_values_and_an_existing_range(void)
{
	struct simt t;
	u64 v;

	simt_init(&t);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_ADDR_A(0), 0x0000800000000000ULL, 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_ADDR_NONCANONICAL);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_ADDR_B(1), 0xffff7fffffffffffULL, 0), -EIO);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_ADDR_A(0), 0x00007fffffffffffULL, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_ADDR_B(1), 0xffffffff81000000ULL, 0), 0);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_ADDR_B(1)), 0xffffffff81000000ULL);
	/* range 2 does not exist on a two-range CPU: read and write fault */
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_ADDR_A(2), 0x1000, 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_NO_ADDR_MSR);
	CU_ASSERT_EQUAL(pts_sim_rdmsr(&t.cpu, RTIT_MSR_ADDR_B(3), &v), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_NO_ADDR_MSR);
	simt_fini(&t);
}

static void status_faults_on_reserved_bits_and_keeps_packet_byte_cnt(void)
{
	struct simt t;

	simt_init(&t);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_STATUS, 1ULL << 3, 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_STATUS_RESERVED);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_STATUS, 1ULL << 49, 0), -EIO);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_STATUS,
				      RTIT_STATUS_STOPPED | (0x1234ULL << 32), 0), 0);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_STATUS), RTIT_STATUS_STOPPED | (0x1234ULL << 32));
	simt_fini(&t);
}

static void unknown_msrs_fault(void)
{
	struct simt t;
	u64 v;

	simt_init(&t);
	CU_ASSERT_EQUAL(pts_sim_rdmsr(&t.cpu, 0x10, &v), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_UNKNOWN_MSR);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_PLATFORM_INFO, 0, 0), -EIO);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, 0x588, 0, 0), -EIO);
	simt_fini(&t);
}

/*
 * IA32_DEBUGCTL is stored for tests that play an LBR or BTS user: the
 * bits SDM vol. 3B 18.4.1 defines (LBR 0, BTF 1, TR 6 ... RTM_DEBUG 15)
 * read back, the reserved ones (2-5, 16-63) fault, and tracing neither
 * changes it nor is refused because of it (no hardware rule is modelled).
 */
static void debugctl_is_stored_and_faults_on_reserved_bits(void)
{
	const u64 lbr_tr_bts = (1ULL << 0) | (1ULL << 6) | (1ULL << 7);
	struct simt t;
	u64 v = 1;

	simt_init(&t);
	CU_ASSERT_EQUAL(pts_sim_rdmsr(&t.cpu, 0x1d9, &v), 0);
	CU_ASSERT_EQUAL(v, 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, 0x1d9, lbr_tr_bts, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_rdmsr(&t.cpu, 0x1d9, &v), 0);
	CU_ASSERT_EQUAL(v, lbr_tr_bts);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, 0x1d9, 1ULL << 2, 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_DEBUGCTL_RESERVED);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, 0x1d9, 1ULL << 16, 0), -EIO);
	CU_ASSERT_EQUAL(t.cpu.last_gp, PTS_SIM_GP_DEBUGCTL_RESERVED);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, 0x1d9, 0xffc3, 0), 0);
	simt_ring(&t, 2, 0, 0);
	CU_ASSERT_EQUAL(simt_arm(&t, SIMT_CTL_USER, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_rdmsr(&t.cpu, 0x1d9, &v), 0);
	CU_ASSERT_EQUAL(v, 0xffc3);
	simt_fini(&t);
}

PTS_SUITE(sim_msr, NULL, NULL,
	  PTS_TEST(debugctl_is_stored_and_faults_on_reserved_bits),
	  PTS_TEST(cpuid_reports_pt_on_a_skylake_sp_model),
	  PTS_TEST(cpuid_passes_other_leaves_through),
	  PTS_TEST(platform_info_reads_the_nominal_ratio),
	  PTS_TEST(ctl_write_faults_on_each_reserved_or_unsupported_encoding),
	  PTS_TEST(ctl_write_accepts_every_supported_feature_together),
	  PTS_TEST(ctl_write_faults_on_features_the_model_lacks),
	  PTS_TEST(rtit_writes_other_than_ctl_fault_while_traceen_is_set),
	  PTS_TEST(ctl_change_while_enabled_faults_but_clearing_traceen_does_not),
	  PTS_TEST(ctl_write_clearing_traceen_may_change_other_bits),
	  PTS_TEST(output_base_faults_on_bits_6_0_and_above_maxphyaddr),
	  PTS_TEST(cr3_match_faults_on_bits_4_0_and_above_maxphyaddr),
	  PTS_TEST(addr_msrs_need_canonical_values_and_an_existing_range),
	  PTS_TEST(status_faults_on_reserved_bits_and_keeps_packet_byte_cnt),
	  PTS_TEST(unknown_msrs_fault))
