// SPDX-License-Identifier: GPL-2.0
/*
 * Sharing the PT unit with another owner (kmod/pure/owner.c), played on
 * the simulated unit (kmod/pure/sim_unit.c), whose MSR rules follow SDM
 * vol. 3C 33.2.8. The module's start/stop (kmod/pt_cpu.c) runs exactly
 * these steps: save, write through pts_owner_write(), classify RTIT_CTL
 * at stop, clear TraceEn, restore. The "foreign" values below are made
 * up by hand (legal for the model CPU) and compared with what the unit
 * holds afterwards, never with what the code under test computed.
 */
#include "unit.h"
#include "sim_harness.h"
#include "../../kmod/pure/pts_pure.h"

#include <errno.h>

/* Another owner's configuration, TraceEn clear (a perf event off-CPU). */
#define F_CTL	 (RTIT_CTL_TOPA | RTIT_CTL_BRANCHEN | RTIT_CTL_OS | RTIT_CTL_USER | \
		  RTIT_CTL_TSCEN | (1ULL << RTIT_CTL_ADDR_CFG_SHIFT(0)))
#define F_BASE	 0x3f0000000ULL		/* not in the fake memory */
#define F_OMP	 (0x7fULL | (3ULL << 7) | (0x40ULL << 32))
#define F_STATUS ((0x123ULL << 32) | RTIT_STATUS_STOPPED)
#define F_CR3	 0x12340000ULL
#define F_A0	 0x400000ULL
#define F_B0	 0x4fffffULL
#define F_A1	 0xffffffff81000000ULL
#define F_B1	 0xffffffff81ffffffULL

/* ptscope's own values. */
#define O_CTL	 (SIMT_CTL_BOTH | (1ULL << RTIT_CTL_ADDR_CFG_SHIFT(0)) | \
		  (1ULL << RTIT_CTL_ADDR_CFG_SHIFT(1)) | RTIT_CTL_CR3FILTER | RTIT_CTL_TRACEEN)
#define O_CR3	 0x7ffe000ULL

struct ofix {
	struct simt t;
	struct pts_msr_io io;
	struct pts_owner_save s;
};

static int o_rd(void *ctx, u32 msr, u64 *val)
{
	struct simt *t = ctx;

	return pts_sim_rdmsr(&t->cpu, msr, val);
}

static int o_wr(void *ctx, u32 msr, u64 val)
{
	struct simt *t = ctx;

	return pts_sim_wrmsr(&t->cpu, msr, val, 100);
}

static const u32 f_msrs[] = {
	RTIT_MSR_OUTPUT_BASE, RTIT_MSR_OUTPUT_MASK_PTRS, RTIT_MSR_STATUS,
	RTIT_MSR_CR3_MATCH, RTIT_MSR_ADDR_A(0), RTIT_MSR_ADDR_B(0),
	RTIT_MSR_ADDR_A(1), RTIT_MSR_ADDR_B(1), RTIT_MSR_CTL,
};
static const u64 f_vals[] = {
	F_BASE, F_OMP, F_STATUS, F_CR3, F_A0, F_B0, F_A1, F_B1, F_CTL,
};

static void ofix_init(struct ofix *f)
{
	unsigned int i;

	simt_init(&f->t);
	simt_ring(&f->t, 4, 0, 0);
	f->io.rd = o_rd;
	f->io.wr = o_wr;
	f->io.ctx = &f->t;
	/* the other owner's values in every RTIT MSR, CTL last */
	for (i = 0; i < sizeof(f_msrs) / sizeof(f_msrs[0]); i++)
		CU_ASSERT_EQUAL_FATAL(pts_sim_wrmsr(&f->t.cpu, f_msrs[i], f_vals[i], 0), 0);
}

/* pts_cpu_start_local()'s order, two address ranges and CR3 filtering. */
static void ofix_arm(struct ofix *f)
{
	struct pts_owner_save *s = &f->s;
	const struct pts_msr_io *io = &f->io;

	pts_owner_init(s, 2, true);
	CU_ASSERT_EQUAL_FATAL(pts_owner_save(io, s), 0);
	CU_ASSERT_TRUE(pts_owner_foreign(s));
	CU_ASSERT_EQUAL(pts_owner_write(io, s, RTIT_MSR_OUTPUT_BASE, f->t.table), 0);
	CU_ASSERT_EQUAL(pts_owner_write(io, s, RTIT_MSR_OUTPUT_MASK_PTRS, RTIT_OMP_LOWER_MASK), 0);
	CU_ASSERT_EQUAL(pts_owner_write(io, s, RTIT_MSR_STATUS, 0), 0);
	CU_ASSERT_EQUAL(pts_owner_write(io, s, RTIT_MSR_ADDR_A(0), PTS_SIM_USER_BASE), 0);
	CU_ASSERT_EQUAL(pts_owner_write(io, s, RTIT_MSR_ADDR_B(0), PTS_SIM_USER_BASE + 0xfff), 0);
	CU_ASSERT_EQUAL(pts_owner_write(io, s, RTIT_MSR_ADDR_A(1), SIMT_KERNEL_BASE), 0);
	CU_ASSERT_EQUAL(pts_owner_write(io, s, RTIT_MSR_ADDR_B(1), SIMT_KERNEL_BASE + 0xfff), 0);
	CU_ASSERT_EQUAL(pts_owner_write(io, s, RTIT_MSR_CR3_MATCH, O_CR3), 0);
	CU_ASSERT_EQUAL_FATAL(pts_owner_write(io, s, RTIT_MSR_CTL, O_CTL), 0);
	CU_ASSERT_TRUE(pts_sim_tracing(&f->t.cpu));
	simt_ticks(&f->t, 3, 1000);
}

static bool ofix_base_ours(struct ofix *f)
{
	return simt_rd(&f->t, RTIT_MSR_OUTPUT_BASE) == f->t.table;
}

static void every_msr_is_the_other_owners_again_after_a_clean_capture(void)
{
	struct ofix f;
	unsigned int i;
	u32 kept = 99;
	u64 ctl;

	ofix_init(&f);
	ofix_arm(&f);
	ctl = simt_rd(&f.t, RTIT_MSR_CTL);
	CU_ASSERT_EQUAL(pts_owner_stop_kind(O_CTL, ctl, ofix_base_ours(&f)), PTS_OWNER_STOP_OURS);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&f.t.cpu, RTIT_MSR_CTL, O_CTL & ~RTIT_CTL_TRACEEN, 0), 0);
	CU_ASSERT_TRUE(simt_head(&f.t) > 0);	/* ptscope's capture happened */
	CU_ASSERT_EQUAL(pts_owner_restore(&f.io, &f.s, ofix_base_ours(&f), &kept), 0);
	CU_ASSERT_EQUAL(kept, 0);
	for (i = 0; i < sizeof(f_msrs) / sizeof(f_msrs[0]); i++)
		CU_ASSERT_EQUAL(simt_rd(&f.t, f_msrs[i]), f_vals[i]);
	simt_fini(&f.t);
}

static void a_failed_arm_gives_every_value_back(void)
{
	struct ofix f;
	unsigned int i;
	u32 kept;

	ofix_init(&f);
	pts_owner_init(&f.s, 1, false);
	CU_ASSERT_EQUAL_FATAL(pts_owner_save(&f.io, &f.s), 0);
	CU_ASSERT_EQUAL(pts_owner_write(&f.io, &f.s, RTIT_MSR_OUTPUT_BASE, f.t.table), 0);
	CU_ASSERT_EQUAL(pts_owner_write(&f.io, &f.s, RTIT_MSR_STATUS, 0), 0);
	/* a non-canonical ADDR0_A #GPs (33.2.8.5): the arm fails here */
	CU_ASSERT_EQUAL(pts_owner_write(&f.io, &f.s, RTIT_MSR_ADDR_A(0), 1ULL << 50), -EIO);
	CU_ASSERT_EQUAL(pts_owner_restore(&f.io, &f.s, true, &kept), 0);
	for (i = 0; i < sizeof(f_msrs) / sizeof(f_msrs[0]); i++)
		CU_ASSERT_EQUAL(simt_rd(&f.t, f_msrs[i]), f_vals[i]);
	simt_fini(&f.t);
}

/*
 * The other owner's task runs while ptscope is armed: its stop clears
 * TraceEn with its own CTL value (legal, 33.2.8.2), then it reprograms
 * OUTPUT_BASE and ADDR0_A for itself. ptscope's stop must keep those
 * and give back only what still holds ptscope's values.
 */
static void values_the_other_owner_rewrote_meanwhile_are_kept(void)
{
	const u64 f2_base = 0x3e0000000ULL, f2_a0 = 0x500000ULL;
	struct ofix f;
	u32 kept = 0;
	u64 ctl;

	ofix_init(&f);
	ofix_arm(&f);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&f.t.cpu, RTIT_MSR_CTL, F_CTL, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&f.t.cpu, RTIT_MSR_OUTPUT_BASE, f2_base, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&f.t.cpu, RTIT_MSR_ADDR_A(0), f2_a0, 0), 0);

	ctl = simt_rd(&f.t, RTIT_MSR_CTL);
	CU_ASSERT_EQUAL(pts_owner_stop_kind(O_CTL, ctl, ofix_base_ours(&f)),
			PTS_OWNER_STOP_CLEARED);
	CU_ASSERT_EQUAL(pts_owner_restore(&f.io, &f.s, ofix_base_ours(&f), &kept), 0);
	/* kept: CTL, ADDR0_A, and the three output MSRs (base not ours) */
	CU_ASSERT_EQUAL(kept, 5);
	CU_ASSERT_EQUAL(simt_rd(&f.t, RTIT_MSR_CTL), F_CTL);
	CU_ASSERT_EQUAL(simt_rd(&f.t, RTIT_MSR_OUTPUT_BASE), f2_base);
	CU_ASSERT_EQUAL(simt_rd(&f.t, RTIT_MSR_ADDR_A(0)), f2_a0);
	/* untouched by the other owner: its values from before the arm */
	CU_ASSERT_EQUAL(simt_rd(&f.t, RTIT_MSR_ADDR_B(0)), F_B0);
	CU_ASSERT_EQUAL(simt_rd(&f.t, RTIT_MSR_ADDR_A(1)), F_A1);
	CU_ASSERT_EQUAL(simt_rd(&f.t, RTIT_MSR_ADDR_B(1)), F_B1);
	CU_ASSERT_EQUAL(simt_rd(&f.t, RTIT_MSR_CR3_MATCH), F_CR3);
	simt_fini(&f.t);
}

/*
 * The other owner sets TraceEn while OUTPUT_BASE still points at
 * ptscope's table (its cache said the MSR already held its value):
 * ptscope's stop must clear TraceEn, or PT would write into pages about
 * to be freed.
 */
static void foreign_traceen_into_our_tables_is_cleared(void)
{
	struct ofix f;
	size_t head;
	u32 kept;
	u64 ctl;

	ofix_init(&f);
	ofix_arm(&f);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&f.t.cpu, RTIT_MSR_CTL, F_CTL, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&f.t.cpu, RTIT_MSR_CTL, F_CTL | RTIT_CTL_TRACEEN, 0), 0);
	CU_ASSERT_TRUE_FATAL(pts_sim_tracing(&f.t.cpu));

	ctl = simt_rd(&f.t, RTIT_MSR_CTL);
	CU_ASSERT_TRUE(ofix_base_ours(&f));
	CU_ASSERT_EQUAL(pts_owner_stop_kind(O_CTL, ctl, ofix_base_ours(&f)),
			PTS_OWNER_STOP_FOREIGN_OURS);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&f.t.cpu, RTIT_MSR_CTL, ctl & ~RTIT_CTL_TRACEEN, 0), 0);
	CU_ASSERT_FALSE(pts_sim_tracing(&f.t.cpu));
	CU_ASSERT_EQUAL(pts_owner_restore(&f.io, &f.s, ofix_base_ours(&f), &kept), 0);
	CU_ASSERT_EQUAL(kept, 1);	/* CTL: the other owner's value, TraceEn clear */
	CU_ASSERT_EQUAL(simt_rd(&f.t, RTIT_MSR_CTL), F_CTL);
	CU_ASSERT_EQUAL(simt_rd(&f.t, RTIT_MSR_OUTPUT_BASE), F_BASE);
	head = simt_head(&f.t);
	simt_ticks(&f.t, 3, 9000);
	CU_ASSERT_EQUAL(simt_head(&f.t), head);
	simt_fini(&f.t);
}

/*
 * The other owner stops ptscope's tracing and starts its own with its
 * own buffer: that unit is the other owner's now. The stop must not
 * write anything (every RTIT write but a TraceEn clear would #GP, and
 * clearing it would cut that owner's trace).
 */
static void foreign_traceen_with_its_own_buffer_is_left_alone(void)
{
	struct ofix f;
	u64 ctl;

	ofix_init(&f);
	ofix_arm(&f);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&f.t.cpu, RTIT_MSR_CTL, F_CTL, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&f.t.cpu, RTIT_MSR_OUTPUT_BASE, F_BASE, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&f.t.cpu, RTIT_MSR_CTL, F_CTL | RTIT_CTL_TRACEEN, 0), 0);
	ctl = simt_rd(&f.t, RTIT_MSR_CTL);
	CU_ASSERT_FALSE(ofix_base_ours(&f));
	CU_ASSERT_EQUAL(pts_owner_stop_kind(O_CTL, ctl, ofix_base_ours(&f)),
			PTS_OWNER_STOP_FOREIGN_LIVE);
	CU_ASSERT_EQUAL(simt_rd(&f.t, RTIT_MSR_CTL), F_CTL | RTIT_CTL_TRACEEN);
	simt_fini(&f.t);
}

/* The classification, by hand from 33.2.8.2. */
static void stop_kind_follows_traceen_and_the_output_base(void)
{
	const u64 ours = O_CTL;

	CU_ASSERT_EQUAL(pts_owner_stop_kind(ours, ours, true), PTS_OWNER_STOP_OURS);
	CU_ASSERT_EQUAL(pts_owner_stop_kind(ours, ours & ~RTIT_CTL_TRACEEN, true),
			PTS_OWNER_STOP_CLEARED);
	CU_ASSERT_EQUAL(pts_owner_stop_kind(ours, F_CTL, false), PTS_OWNER_STOP_CLEARED);
	CU_ASSERT_EQUAL(pts_owner_stop_kind(ours, F_CTL | RTIT_CTL_TRACEEN, true),
			PTS_OWNER_STOP_FOREIGN_OURS);
	CU_ASSERT_EQUAL(pts_owner_stop_kind(ours, F_CTL | RTIT_CTL_TRACEEN, false),
			PTS_OWNER_STOP_FOREIGN_LIVE);
}

static void a_clean_unit_has_no_foreign_state(void)
{
	struct ofix f;

	simt_init(&f.t);
	f.io.rd = o_rd;
	f.io.wr = o_wr;
	f.io.ctx = &f.t;
	pts_owner_init(&f.s, 2, true);
	CU_ASSERT_EQUAL(f.s.nr, 3 + 4 + 1 + 1);
	CU_ASSERT_EQUAL(f.s.m[f.s.nr - 1].msr, RTIT_MSR_CTL);
	CU_ASSERT_EQUAL(pts_owner_save(&f.io, &f.s), 0);
	CU_ASSERT_FALSE(pts_owner_foreign(&f.s));
	simt_fini(&f.t);
}

PTS_SUITE(kmod_owner, NULL, NULL,
	  PTS_TEST(every_msr_is_the_other_owners_again_after_a_clean_capture),
	  PTS_TEST(a_failed_arm_gives_every_value_back),
	  PTS_TEST(values_the_other_owner_rewrote_meanwhile_are_kept),
	  PTS_TEST(foreign_traceen_into_our_tables_is_cleared),
	  PTS_TEST(foreign_traceen_with_its_own_buffer_is_left_alone),
	  PTS_TEST(stop_kind_follows_traceen_and_the_output_base),
	  PTS_TEST(a_clean_unit_has_no_foreign_state))
