// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration -> RTIT_CTL (kmod/pure/ctl_encode.c). Expected RTIT_CTL
 * values are summed by hand from table 33-6 of the SDM (pt-facts
 * section 2): ToPA 0x100, BranchEn 0x2000, User 0x8, OS 0x4, TSCEn 0x400,
 * MTCEn 0x200, MTCFreq 17:14, CYCEn 0x2, CycThresh 22:19, PSBFreq 27:24,
 * CR3Filter 0x80, DisRETC 0x800, PTWEn 0x1000, FUPonPTW 0x20,
 * PwrEvtEn 0x10, ADDRn_CFG 32+4n.
 */
#define PTS_HOST 1
#include "unit.h"

#include <stddef.h>
#include "../../kmod/pure/pts_pure.h"

/* A Skylake-like unit: everything but event trace and TNT disable. */
static void full_caps(struct pts_caps *c)
{
	memset(c, 0, sizeof(*c));
	c->pt = true;
	c->cpuid_14_0[1] = 0x3f;	/* CR3, PSB/CYC, IP filter, MTC, PTWRITE, PWR */
	c->cpuid_14_0[2] = 0x7;		/* ToPA, MENTRY, single range */
	c->cpuid_14_1[0] = 0x02490002;	/* 2 ranges, MTC periods {0,3,6,9} */
	c->cpuid_14_1[1] = 0x003f1fff;	/* CYC 0..12, PSB 0..5 */
	c->family = 6;
	c->model = 0x55;
	c->va_bits = 48;
	c->max_phys_addr = 46;
}

static void user_cfg(struct ptscope_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->hdr.size = sizeof(*cfg);
	cfg->scope = PTSCOPE_SCOPE_USER;
	cfg->mode = PTSCOPE_MODE_SNAPSHOT;
	cfg->timing = PTSCOPE_TIMING_TSC;
	cfg->buffer_size = 1 << 20;
}

static int check(const struct pts_caps *c, const struct ptscope_config *cfg,
		 struct pts_ctl_plan *plan, struct pts_refusal *why)
{
	return pts_config_check(c, cfg, plan, why);
}

static void user_scope_sets_user_topa_branchen_tscen_only(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	CU_ASSERT_EQUAL(plan.rtit_ctl, 0x2508ULL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_NONE);
	CU_ASSERT_EQUAL(plan.sideband_size, 256ULL << 10);
}

static void kernel_and_both_scopes_map_to_os_and_os_plus_user(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.scope = PTSCOPE_SCOPE_KERNEL;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	CU_ASSERT_EQUAL(plan.rtit_ctl, 0x2504ULL);
	cfg.scope = PTSCOPE_SCOPE_BOTH;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	CU_ASSERT_EQUAL(plan.rtit_ctl, 0x250cULL);
}

static void scope_outside_1_to_3_is_einval_bad_scope(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.scope = 0;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_SCOPE);
	cfg.scope = 4;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.arg, 4);
}

static void mtc_period_3_sets_mtcen_and_mtcfreq_bits_17_14(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.timing |= PTSCOPE_TIMING_MTC;
	cfg.mtc_freq = 3;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	CU_ASSERT_EQUAL(plan.rtit_ctl, 0x2508ULL | 0x200ULL | (3ULL << 14));
}

static void mtc_period_missing_from_bitmap_is_eopnotsupp(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.timing |= PTSCOPE_TIMING_MTC;
	cfg.mtc_freq = 4;	/* bitmap 0x249 has 0, 3, 6, 9 */
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_MTC_PERIOD);
	CU_ASSERT_EQUAL(why.arg, 4);
}

static void mtc_without_cpuid_bit_3_is_eopnotsupp_no_mtc(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	c.cpuid_14_0[1] &= ~PT_CPUID_EBX_MTC;
	user_cfg(&cfg);
	cfg.timing |= PTSCOPE_TIMING_MTC;
	cfg.mtc_freq = 3;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_NO_MTC);
}

static void mtc_value_without_mtc_timing_flag_is_einval_timing_flags(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.mtc_freq = 3;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_TIMING_FLAGS);
}

static void cyc_threshold_zero_is_always_legal_and_bitmap_gates_the_rest(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	c.cpuid_14_1[1] = 0x00000002;	/* CYC: only 1; PSB: none */
	user_cfg(&cfg);
	cfg.timing |= PTSCOPE_TIMING_CYC;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	CU_ASSERT_EQUAL(plan.rtit_ctl, 0x2508ULL | 0x2ULL);
	cfg.cyc_thresh = 1;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	CU_ASSERT_EQUAL(plan.rtit_ctl, 0x2508ULL | 0x2ULL | (1ULL << 19));
	cfg.cyc_thresh = 2;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_CYC_THRESH);
}

static void psb_period_needs_cpuid_bit_1_and_its_bitmap_bit(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.psb_freq = 5;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	CU_ASSERT_EQUAL(plan.rtit_ctl, 0x2508ULL | (5ULL << 24));
	cfg.psb_freq = 6;	/* PSB bitmap 0x3f: 0..5 */
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_PSB_PERIOD);
	c.cpuid_14_0[1] &= ~PT_CPUID_EBX_PSB_CYC;
	cfg.psb_freq = 1;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_NO_CYC);
}

static void ptwrite_fuponptw_pwrevt_disretc_map_to_their_bits(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.trace_flags = PTSCOPE_TRACE_PTWRITE | PTSCOPE_TRACE_FUP_ON_PTW |
			  PTSCOPE_TRACE_PWR_EVT | PTSCOPE_TRACE_DISRETC;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	CU_ASSERT_EQUAL(plan.rtit_ctl, 0x2508ULL | 0x1000 | 0x20 | 0x10 | 0x800);
}

static void ptwrite_without_cpuid_bit_4_is_eopnotsupp(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	c.cpuid_14_0[1] &= ~PT_CPUID_EBX_PTWRITE;
	user_cfg(&cfg);
	cfg.trace_flags = PTSCOPE_TRACE_PTWRITE;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_NO_PTWRITE);
}

static void power_events_without_cpuid_bit_5_is_eopnotsupp(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	c.cpuid_14_0[1] &= ~PT_CPUID_EBX_POWER_EVENT;
	user_cfg(&cfg);
	cfg.trace_flags = PTSCOPE_TRACE_PWR_EVT;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_NO_PWR_EVT);
}

static void clearing_branchen_on_broadwell_is_refused_bdm106(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.trace_flags = PTSCOPE_TRACE_NO_BRANCH;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	CU_ASSERT_EQUAL(plan.rtit_ctl, 0x0508ULL);	/* BranchEn cleared */
	c.model = 0x4f;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_NEED_BRANCH_EN);
	/* without the request BranchEn stays set on Broadwell as anywhere */
	cfg.trace_flags = 0;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	CU_ASSERT_EQUAL(plan.rtit_ctl & RTIT_CTL_BRANCHEN, RTIT_CTL_BRANCHEN);
}

static void cr3_filter_sets_bit_7_and_needs_cpuid_bit_0(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.flags = PTSCOPE_CFG_CR3_FILTER;
	cfg.cr3_pid = 42;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	CU_ASSERT_EQUAL(plan.rtit_ctl, 0x2588ULL);
	c.cpuid_14_0[1] &= ~PT_CPUID_EBX_CR3_FILTER;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_NO_CR3_FILTER);
	cfg.cr3_pid = 0;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_NO_SUCH_PID);
}

static void address_ranges_set_addrn_cfg_and_the_bounds(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.nr_addr_ranges = 2;
	cfg.addr[0].start = 0x400000;
	cfg.addr[0].end = 0x4fffff;
	cfg.addr[0].cfg = PTSCOPE_ADDR_FILTER;
	cfg.addr[1].start = 0xffffffff81000000ULL;
	cfg.addr[1].end = 0xffffffff81000000ULL;
	cfg.addr[1].cfg = PTSCOPE_ADDR_STOP;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	/* ADDR0_CFG = 1 at bit 32, ADDR1_CFG = 2 at bit 36 */
	CU_ASSERT_EQUAL(plan.rtit_ctl, 0x2508ULL | (1ULL << 32) | (2ULL << 36));
	CU_ASSERT_EQUAL(plan.addr_a[0], 0x400000ULL);
	CU_ASSERT_EQUAL(plan.addr_b[0], 0x4fffffULL);
	CU_ASSERT_EQUAL(plan.addr_a[1], 0xffffffff81000000ULL);
}

static void more_ranges_than_cpuid_14_1_eax_allows_is_eopnotsupp(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;
	int i;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.nr_addr_ranges = 3;	/* unit has 2 */
	for (i = 0; i < 3; i++) {
		cfg.addr[i].start = 0x1000;
		cfg.addr[i].end = 0x2000;
		cfg.addr[i].cfg = PTSCOPE_ADDR_FILTER;
	}
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_TOO_MANY_RANGES);
	cfg.nr_addr_ranges = 5;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_TOO_MANY_RANGES);
}

static void non_canonical_or_inverted_range_is_einval(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.nr_addr_ranges = 1;
	cfg.addr[0].start = 0x0000800000000000ULL;	/* first non-canonical */
	cfg.addr[0].end = 0x0000800000001000ULL;
	cfg.addr[0].cfg = PTSCOPE_ADDR_FILTER;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_ADDR_NOT_CANONICAL);
	CU_ASSERT_EQUAL(why.arg, 0x0000800000000000ULL);
	cfg.addr[0].start = 0x2000;
	cfg.addr[0].end = 0x1000;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_ADDR_RANGE);
	cfg.addr[0].end = 0x3000;
	cfg.addr[0].cfg = 3;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_ADDR_CFG);
}

static void unused_range_slots_must_be_zero(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.addr[3].start = 0x1000;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_RESERVED_NONZERO);
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, addr[3].start));
}

static void buffer_size_must_be_power_of_two_from_4k_to_1g(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;
	const unsigned long long bad[] = { 0, 2048, 6000, 3 << 20, 2ULL << 30 };
	unsigned int i;

	full_caps(&c);
	user_cfg(&cfg);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cfg.buffer_size = bad[i];
		CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
		CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_BUFFER_SIZE);
		CU_ASSERT_EQUAL(why.arg, bad[i]);
	}
	cfg.buffer_size = 4096;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	cfg.buffer_size = 1ULL << 30;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
}

static void sideband_size_zero_means_256kib_per_cpu_and_others_must_be_pow2(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.sideband_size = 12288;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_SIDEBAND_SIZE);
	cfg.sideband_size = 65536;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	CU_ASSERT_EQUAL(plan.sideband_size, 65536ULL);
}

static void unknown_flag_bits_and_reserved_fields_are_einval(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.flags = 0x4;	/* the first bit past PTSCOPE_CFG_ALL */
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_FLAGS);
	user_cfg(&cfg);
	cfg.trace_flags = 0x20;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_FLAGS);
	user_cfg(&cfg);
	cfg.reserved[7] = 1;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_RESERVED_NONZERO);
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, reserved[7]));
	user_cfg(&cfg);
	cfg.reserved0 = 1;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, reserved0));
	user_cfg(&cfg);
	cfg.trigger.reserved[0] = 1;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_RESERVED_NONZERO);
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, trigger.reserved[0]));
	user_cfg(&cfg);
	cfg.addr[2].reserved = 1;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, addr[2].reserved));
	user_cfg(&cfg);
	cfg.cr3_pid = 42;	/* without PTSCOPE_CFG_CR3_FILTER */
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_RESERVED_NONZERO);
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, cr3_pid));
	user_cfg(&cfg);
	cfg.mode = 2;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_MODE);
}

static void malformed_request_is_einval_even_without_pt(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	memset(&c, 0, sizeof(c));
	user_cfg(&cfg);
	cfg.scope = 9;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_SCOPE);
	user_cfg(&cfg);
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -ENODEV);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_NO_PT);
}

static void unit_without_topa_output_is_eopnotsupp_no_topa(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	c.cpuid_14_0[2] = PT_CPUID_ECX_SINGLE_RANGE;
	user_cfg(&cfg);
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_NO_TOPA);
}

static void trigger_spec_needs_nul_terminated_name_matching_kinds_and_bounded_delay(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.trigger.kinds = PTSCOPE_TRIG_TRACEPOINT;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);	/* no name */
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_TRIGGER);
	/* reason_arg: the refused field's offset (docs/abi.md, "reason_arg") */
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, trigger.tracepoint));
	strcpy(cfg.trigger.tracepoint, "sched:sched_process_exec");
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	cfg.trigger.tracepoint_pid = -3;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, trigger.tracepoint_pid));
	cfg.trigger.tracepoint_pid = 0;
	memset(cfg.trigger.tracepoint, 'a', sizeof(cfg.trigger.tracepoint));
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);	/* no NUL */
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, trigger.tracepoint));
	user_cfg(&cfg);
	cfg.trigger.tracepoint_pid = 42;	/* a pid without the TRACEPOINT kind */
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, trigger.tracepoint_pid));
	user_cfg(&cfg);
	cfg.trigger.hotkey = 'x';	/* hotkey without the HOTKEY kind */
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, trigger.hotkey));
	cfg.trigger.kinds = PTSCOPE_TRIG_HOTKEY;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	cfg.trigger.post_trigger_us = 10000001;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_TRIGGER);
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, trigger.post_trigger_us));
	cfg.trigger.post_trigger_us = 0;
	cfg.trigger.flags = 0x4;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_FLAGS);
}

/* PTSCOPE_TRIGF_TID: tracepoint_pid names a thread; it needs one. */
static void thread_trigger_needs_a_tracepoint_pid(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.trigger.kinds = PTSCOPE_TRIG_TRACEPOINT;
	strcpy(cfg.trigger.tracepoint, "sched:sched_process_exit");
	cfg.trigger.flags = PTSCOPE_TRIGF_TID;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_TRIGGER);
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, trigger.flags));
	cfg.trigger.tracepoint_pid = 42;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
}

/*
 * The uprobe part (docs/abi.md, Triggers): only with PTSCOPE_TRIG_UPROBE,
 * all zero otherwise (as an ABI 1 caller's zero-extended struct has it);
 * no negative fd or pid; no unknown flag; reserved fields zero.
 */
static void uprobe_part_only_with_its_kind_and_never_negative(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.uprobe.offset = 0x1139;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_TRIGGER);
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, uprobe.offset));
	cfg.trigger.kinds = PTSCOPE_TRIG_UPROBE;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	cfg.uprobe.fd = 3;
	cfg.uprobe.pid = 42;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	cfg.uprobe.fd = -1;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_TRIGGER);
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, uprobe.fd));
	cfg.uprobe.fd = 3;
	cfg.uprobe.pid = -2;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_TRIGGER);
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, uprobe.pid));
	cfg.uprobe.pid = 0;
	cfg.uprobe.flags = 1;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_FLAGS);
	cfg.uprobe.flags = 0;
	cfg.uprobe.reserved[2] = 1;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
	CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_RESERVED_NONZERO);
	CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, uprobe.reserved[2]));
	/* the struct grew by exactly the uprobe part after ABI 1 */
	CU_ASSERT_EQUAL(offsetof(struct ptscope_config, uprobe), PTSCOPE_CONFIG_SIZE_VER0);
}

/* drivers/tty/sysrq.c: sysrq_key_table has 62 slots, 0-9 a-z A-Z. */
static void hotkey_outside_0_9_a_z_A_Z_is_bad_trigger(void)
{
	static const u32 ok[] = { '0', '9', 'a', 'x', 'z', 'A', 'Z' };
	static const u32 bad[] = { '!', '/', ':', '@', '[', '`', '{', '~' };
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;
	unsigned int i;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.trigger.kinds = PTSCOPE_TRIG_HOTKEY;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		cfg.trigger.hotkey = ok[i];
		CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cfg.trigger.hotkey = bad[i];
		CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), -EINVAL);
		CU_ASSERT_EQUAL(why.reason, PTSCOPE_R_BAD_TRIGGER);
		CU_ASSERT_EQUAL(why.arg, offsetof(struct ptscope_config, trigger.hotkey));
	}
}

static void encoded_ctl_never_has_reserved_bits_traceen_or_eventen(void)
{
	struct pts_caps c;
	struct ptscope_config cfg;
	struct pts_ctl_plan plan;
	struct pts_refusal why;

	full_caps(&c);
	user_cfg(&cfg);
	cfg.scope = PTSCOPE_SCOPE_BOTH;
	cfg.timing = PTSCOPE_TIMING_ALL;
	cfg.mtc_freq = 9;
	cfg.cyc_thresh = 12;
	cfg.psb_freq = 5;
	cfg.trace_flags = PTSCOPE_TRACE_ALL & ~PTSCOPE_TRACE_NO_BRANCH;
	cfg.flags = PTSCOPE_CFG_CR3_FILTER;
	cfg.cr3_pid = 1;
	CU_ASSERT_EQUAL(check(&c, &cfg, &plan, &why), 0);
	CU_ASSERT_EQUAL(plan.rtit_ctl & (RTIT_CTL_RESERVED_MASK | 0x80000001ULL), 0);
	/* 0x2508|4|0x200|9<<14|2|12<<19|5<<24|0x1000|0x20|0x10|0x800|0x80 */
	CU_ASSERT_EQUAL(plan.rtit_ctl, 0x2508ULL | 0x4 | 0x200 | (9ULL << 14) |
			0x2 | (12ULL << 19) | (5ULL << 24) | 0x1000 | 0x20 |
			0x10 | 0x800 | 0x80);
}

PTS_SUITE(kmod_ctl_encode, NULL, NULL,
	  PTS_TEST(uprobe_part_only_with_its_kind_and_never_negative),
	  PTS_TEST(user_scope_sets_user_topa_branchen_tscen_only),
	  PTS_TEST(kernel_and_both_scopes_map_to_os_and_os_plus_user),
	  PTS_TEST(scope_outside_1_to_3_is_einval_bad_scope),
	  PTS_TEST(mtc_period_3_sets_mtcen_and_mtcfreq_bits_17_14),
	  PTS_TEST(mtc_period_missing_from_bitmap_is_eopnotsupp),
	  PTS_TEST(mtc_without_cpuid_bit_3_is_eopnotsupp_no_mtc),
	  PTS_TEST(mtc_value_without_mtc_timing_flag_is_einval_timing_flags),
	  PTS_TEST(cyc_threshold_zero_is_always_legal_and_bitmap_gates_the_rest),
	  PTS_TEST(psb_period_needs_cpuid_bit_1_and_its_bitmap_bit),
	  PTS_TEST(ptwrite_fuponptw_pwrevt_disretc_map_to_their_bits),
	  PTS_TEST(ptwrite_without_cpuid_bit_4_is_eopnotsupp),
	  PTS_TEST(power_events_without_cpuid_bit_5_is_eopnotsupp),
	  PTS_TEST(clearing_branchen_on_broadwell_is_refused_bdm106),
	  PTS_TEST(cr3_filter_sets_bit_7_and_needs_cpuid_bit_0),
	  PTS_TEST(address_ranges_set_addrn_cfg_and_the_bounds),
	  PTS_TEST(more_ranges_than_cpuid_14_1_eax_allows_is_eopnotsupp),
	  PTS_TEST(non_canonical_or_inverted_range_is_einval),
	  PTS_TEST(unused_range_slots_must_be_zero),
	  PTS_TEST(buffer_size_must_be_power_of_two_from_4k_to_1g),
	  PTS_TEST(sideband_size_zero_means_256kib_per_cpu_and_others_must_be_pow2),
	  PTS_TEST(unknown_flag_bits_and_reserved_fields_are_einval),
	  PTS_TEST(malformed_request_is_einval_even_without_pt),
	  PTS_TEST(unit_without_topa_output_is_eopnotsupp_no_topa),
	  PTS_TEST(trigger_spec_needs_nul_terminated_name_matching_kinds_and_bounded_delay),
	  PTS_TEST(hotkey_outside_0_9_a_z_A_Z_is_bad_trigger),
	  PTS_TEST(thread_trigger_needs_a_tracepoint_pid),
	  PTS_TEST(encoded_ctl_never_has_reserved_bits_traceen_or_eventen));
