// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated PT unit's ToPA output (Intel SDM vol. 3C 33.2.7): entry
 * traversal, END links between tables, wrap, STOP, STATUS.Error for each
 * ToPA error condition, and OUTPUT_MASK_PTRS read-back. Tables are built
 * with rtit.h's encoder; expected positions are derived from the region
 * sizes, not read from the model.
 */
#include "unit.h"
#include "sim_harness.h"

/* libipt's packet decoder says a PSB starts at buf[0]. */
static bool psb_at(const u8 *buf, size_t len)
{
	struct pt_packet_decoder *dec;
	struct pt_packet pkt;
	struct pt_config cfg;
	bool ok;

	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	dec = pt_pkt_alloc_decoder(&cfg);
	ok = pt_pkt_sync_set(dec, 0) == 0 && pt_pkt_next(dec, &pkt, sizeof(pkt)) > 0 &&
	     pkt.type == ppt_psb;
	pt_pkt_free_decoder(dec);
	return ok;
}

static void output_moves_through_entries_and_mask_ptrs_tracks_the_head(void)
{
	struct simt t;
	u64 omp;
	size_t head;
	u8 *r0, *r1;

	simt_init(&t);
	simt_ring(&t, 4, 0, 0);
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, SIMT_CTL_USER, 1), 0);
	/* about 18 bytes per user-scope tick: 300 ticks end in the second 4 KiB region */
	simt_ticks(&t, 300, 1);
	simt_stop(&t);
	omp = simt_rd(&t, RTIT_MSR_OUTPUT_MASK_PTRS);
	CU_ASSERT_EQUAL(omp & RTIT_OMP_LOWER_MASK, RTIT_OMP_LOWER_MASK);
	CU_ASSERT_EQUAL(rtit_omp_entry_index(omp), 1);
	head = rtit_omp_output_offset(omp);
	CU_ASSERT(head > 0 && head < 4096);
	r0 = simt_map(&t, t.region_pa[0], 4096);
	r1 = simt_map(&t, t.region_pa[1], 4096);
	CU_ASSERT(psb_at(r0, 4096));
	/* the last written byte is the final TIP.PGD header (0x01); nothing after it */
	CU_ASSERT_EQUAL(r1[head - 1], 0x01);
	CU_ASSERT_EQUAL(r1[head], 0);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_OUTPUT_BASE), t.table);
	simt_fini(&t);
}

static void end_entry_links_to_the_next_table(void)
{
	u64 ta = SIMT_PA_BASE, tb = SIMT_PA_BASE + 0x1000;
	u64 ra = SIMT_PA_BASE + 0x2000, rb = SIMT_PA_BASE + 0x3000;
	struct simt t;
	u64 omp;

	simt_init(&t);
	/* table A: region A, END -> B; table B: region B, END -> A */
	simt_put64(&t, ta, topa_entry_encode(ra, 0, 0));
	simt_put64(&t, ta + 8, topa_entry_encode(tb, 0, TOPA_END));
	simt_put64(&t, tb, topa_entry_encode(rb, 0, 0));
	simt_put64(&t, tb + 8, topa_entry_encode(ta, 0, TOPA_END));
	t.table = ta;
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, SIMT_CTL_USER, 1), 0);
	simt_ticks(&t, 300, 1);
	/* the unit reports the table it writes through */
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_OUTPUT_BASE), tb);
	omp = simt_rd(&t, RTIT_MSR_OUTPUT_MASK_PTRS);
	CU_ASSERT_EQUAL(rtit_omp_entry_index(omp), 0);
	CU_ASSERT(rtit_omp_output_offset(omp) > 0);
	CU_ASSERT(psb_at(simt_map(&t, ra, 4096), 4096));
	/* table B's region holds the continuation (some non-zero bytes) */
	{
		const u8 *b = simt_map(&t, rb, 4096);
		size_t k, nz = 0;

		for (k = 0; k < 4096; k++)
			nz += b[k] != 0;
		CU_ASSERT(nz > 100);
	}
	simt_fini(&t);
}

static void ring_wraps_back_to_the_first_region(void)
{
	struct simt t;
	u64 omp;

	simt_init(&t);
	simt_ring(&t, 2, 0, 0);
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, SIMT_CTL_USER, 1), 0);
	/* > 8 KiB but < 12 KiB: back in region 0 */
	simt_ticks(&t, 600, 1);
	omp = simt_rd(&t, RTIT_MSR_OUTPUT_MASK_PTRS);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_OUTPUT_BASE), t.table);
	CU_ASSERT_EQUAL(rtit_omp_entry_index(omp), 0);
	CU_ASSERT(rtit_omp_output_offset(omp) > 0);
	/* region 0 no longer starts with the first PSB: it was overwritten */
	CU_ASSERT_FALSE(psb_at(simt_map(&t, t.region_pa[0], 4096), 4096));
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_STATUS) & (RTIT_STATUS_ERROR | RTIT_STATUS_STOPPED), 0);
	simt_fini(&t);
}

static void stop_region_sets_stopped_and_output_ends_there(void)
{
	struct simt t;
	u64 omp, status;

	simt_init(&t);
	simt_ring(&t, 2, 0, TOPA_STOP);
	CU_ASSERT_EQUAL_FATAL(simt_arm(&t, SIMT_CTL_USER, 1), 0);
	simt_ticks(&t, 1000, 1);
	status = simt_rd(&t, RTIT_MSR_STATUS);
	CU_ASSERT(status & RTIT_STATUS_STOPPED);
	CU_ASSERT_FALSE(status & RTIT_STATUS_ERROR);
	CU_ASSERT_FALSE(status & RTIT_STATUS_TRIGGEREN);
	/* TraceEn stays set: software stops it */
	CU_ASSERT(pts_sim_tracing(&t.cpu));
	omp = simt_rd(&t, RTIT_MSR_OUTPUT_MASK_PTRS);
	CU_ASSERT_EQUAL(rtit_omp_entry_index(omp), 1);
	CU_ASSERT_EQUAL(rtit_omp_output_offset(omp), 4096);
	/* no wrap: region 0 still starts with the enable PSB+ */
	CU_ASSERT(psb_at(simt_map(&t, t.region_pa[0], 4096), 4096));
	CU_ASSERT_EQUAL(simt_stop(&t), 0);
	/* a new enable with Stopped still set writes nothing (software must clear it) */
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_OUTPUT_MASK_PTRS, 0x7f, 0), 0);
	memset(simt_map(&t, t.region_pa[0], 4096), 0, 4096);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, SIMT_CTL_USER | RTIT_CTL_TRACEEN, 0), 0);
	simt_ticks(&t, 10, 1);
	CU_ASSERT_EQUAL(*(u8 *)simt_map(&t, t.region_pa[0], 1), 0);
	simt_fini(&t);
}

static void mask_ptrs_write_sets_where_output_resumes(void)
{
	struct simt t;
	u8 *r1;

	simt_init(&t);
	simt_ring(&t, 4, 0, 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_OUTPUT_BASE, t.table, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_OUTPUT_MASK_PTRS,
				      rtit_omp_encode(1, 0x100), 0), 0);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_OUTPUT_MASK_PTRS), rtit_omp_encode(1, 0x100));
	/* bits 6:0 read as ones whatever was written */
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_OUTPUT_MASK_PTRS, (1ULL << 7), 0), 0);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_OUTPUT_MASK_PTRS), (1ULL << 7) | 0x7f);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_OUTPUT_MASK_PTRS,
				      rtit_omp_encode(1, 0x100), 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_STATUS, 0, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t.cpu, RTIT_MSR_CTL, SIMT_CTL_USER | RTIT_CTL_TRACEEN, 5), 0);
	r1 = simt_map(&t, t.region_pa[1], 4096);
	CU_ASSERT_EQUAL(r1[0xff], 0);
	CU_ASSERT(psb_at(r1 + 0x100, 4096 - 0x100));
	CU_ASSERT_EQUAL(*(u8 *)simt_map(&t, t.region_pa[0], 1), 0);
	simt_fini(&t);
}

/* Arm on a hand-made table and return STATUS after `ticks` ticks. */
static u64 arm_on(struct simt *t, u64 table, u64 omp, unsigned int ticks)
{
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t->cpu, RTIT_MSR_OUTPUT_BASE, table, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t->cpu, RTIT_MSR_OUTPUT_MASK_PTRS, omp, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t->cpu, RTIT_MSR_STATUS, 0, 0), 0);
	CU_ASSERT_EQUAL(pts_sim_wrmsr(&t->cpu, RTIT_MSR_CTL, SIMT_CTL_USER | RTIT_CTL_TRACEEN, 1),
			0);
	simt_ticks(t, ticks, 1);
	return simt_rd(t, RTIT_MSR_STATUS);
}

struct topa_case {
	const char *what;
	u64 e0, e1;			/* entries 0 and 1 of the table at T */
	u64 table_off;			/* OUTPUT_BASE = T + table_off */
	u64 omp;
	bool no_mentry;
	enum topa_error err;
	unsigned int err_index;		/* entry the table offset points at */
	unsigned int ticks;
};

#define T	SIMT_PA_BASE
#define R	(SIMT_PA_BASE + 0x4000)	/* 16 KiB aligned */
#define OTHER	(SIMT_PA_BASE + 0x2000)


static void each_topa_error_sets_status_error_and_stops_output(void)
{
	/* entries use rtit.h's encoder, so the table is built at run time */
	const struct topa_case topa_cases[] = {
		{ "reserved bit 1", topa_entry_encode(R, 0, 0) | 2, 0, 0, 0x7f, false,
		  TOPA_ERR_RESERVED_BITS, 0, 0 },
		{ "reserved bit 10", topa_entry_encode(R, 0, 0) | (1 << 10), 0, 0, 0x7f, false,
		  TOPA_ERR_RESERVED_BITS, 0, 0 },
		{ "base above MAXPHYADDR", topa_entry_encode(1ULL << 46, 0, 0), 0, 0, 0x7f, false,
		  TOPA_ERR_ABOVE_MAXPHYADDR, 0, 0 },
		{ "8 KiB region at a 4 KiB boundary", topa_entry_encode(R + 0x1000, 1, 0), 0, 0, 0x7f,
		  false, TOPA_ERR_MISALIGNED_REGION, 0, 0 },
		{ "END with STOP", topa_entry_encode(R, 0, 0), topa_entry_encode(T, 0, TOPA_END) | TOPA_STOP,
		  0, 0x7f, false, TOPA_ERR_END_WITH_INT_STOP, 1, 300 },
		{ "END with INT", topa_entry_encode(R, 0, 0), topa_entry_encode(T, 0, TOPA_END) | TOPA_INT,
		  0, 0x7f, false, TOPA_ERR_END_WITH_INT_STOP, 1, 300 },
		{ "END at index 0", topa_entry_encode(T, 0, TOPA_END), 0, 0, 0x7f, false,
		  TOPA_ERR_END_AT_INDEX_0, 0, 0 },
		{ "OutputOffset = region size", topa_entry_encode(R, 0, 0), topa_entry_encode(T, 0, TOPA_END),
		  0, RTIT_OMP_LOWER_MASK | (4096ULL << 32), false, TOPA_ERR_OFFSET_BEYOND_REGION, 0, 0 },
		{ "table not 4 KiB aligned", 0, 0, 0x80, 0x7f, false, TOPA_ERR_MISALIGNED_TABLE, 0, 0 },
		{ "no MENTRY: entry 1 not END", topa_entry_encode(R, 0, 0), topa_entry_encode(R + 0x1000, 0, 0),
		  0, 0x7f, true, TOPA_ERR_NO_MENTRY_NOT_END, 1, 300 },
		{ "no MENTRY: END to another table", topa_entry_encode(R, 0, 0),
		  topa_entry_encode(OTHER, 0, TOPA_END), 0, 0x7f, true, TOPA_ERR_NO_MENTRY_BAD_LINK, 1, 300 },
	};
	struct pts_sim_model no_mentry = pts_sim_model_skx;
	unsigned int i;

	no_mentry.leaf14_0[2] &= ~PT_CPUID_ECX_MENTRY;
	for (i = 0; i < sizeof(topa_cases) / sizeof(topa_cases[0]); i++) {
		const struct topa_case *tc = &topa_cases[i];
		struct simt t;
		u64 status, omp;
		size_t k, written = 0;
		u8 *r;

		simt_init_model(&t, tc->no_mentry ? &no_mentry : &pts_sim_model_skx);
		simt_put64(&t, T, tc->e0);
		simt_put64(&t, T + 8, tc->e1);
		status = arm_on(&t, T + tc->table_off, tc->omp, tc->ticks);
		CU_ASSERT(status & RTIT_STATUS_ERROR);
		CU_ASSERT_FALSE(status & RTIT_STATUS_TRIGGEREN);
		CU_ASSERT_EQUAL(t.cpu.last_topa_err, tc->err);
		omp = simt_rd(&t, RTIT_MSR_OUTPUT_MASK_PTRS);
		CU_ASSERT_EQUAL(rtit_omp_entry_index(omp), tc->err_index);
		if (!(status & RTIT_STATUS_ERROR) || t.cpu.last_topa_err != tc->err)
			fprintf(stderr, "case %s: status %#llx err %s\n", tc->what,
				(unsigned long long)status, pts_sim_topa_err_str(t.cpu.last_topa_err));
		/* more ticks write nothing more */
		r = simt_map(&t, R, 0x4000);
		for (k = 0; k < 0x4000; k++)
			written += r[k] != 0;
		simt_ticks(&t, 50, 100000);
		for (k = 0; k < 0x4000; k++)
			written -= r[k] != 0;
		CU_ASSERT_EQUAL(written, 0);
		simt_fini(&t);
	}
}

static void single_entry_topa_wraps_in_place_without_mentry(void)
{
	struct pts_sim_model m = pts_sim_model_skx;
	struct simt t;
	u64 status;

	m.leaf14_0[2] &= ~PT_CPUID_ECX_MENTRY;
	simt_init_model(&t, &m);
	simt_put64(&t, T, topa_entry_encode(R, 0, 0));
	simt_put64(&t, T + 8, topa_entry_encode(T, 0, TOPA_END));
	status = arm_on(&t, T, 0x7f, 300);	/* > 4 KiB */
	CU_ASSERT_EQUAL(status & (RTIT_STATUS_ERROR | RTIT_STATUS_STOPPED), 0);
	CU_ASSERT_EQUAL(rtit_omp_entry_index(simt_rd(&t, RTIT_MSR_OUTPUT_MASK_PTRS)), 0);
	CU_ASSERT_EQUAL(simt_rd(&t, RTIT_MSR_OUTPUT_BASE), T);
	simt_fini(&t);
}

static void output_to_memory_that_is_not_ram_sets_error(void)
{
	struct simt t;
	u64 status;

	simt_init(&t);
	/* a legal entry whose region lies outside the fake RAM */
	simt_put64(&t, T, topa_entry_encode(0x100000000ULL, 0, 0));
	simt_put64(&t, T + 8, topa_entry_encode(T, 0, TOPA_END));
	status = arm_on(&t, T, 0x7f, 1);
	CU_ASSERT(status & RTIT_STATUS_ERROR);
	simt_fini(&t);
}

PTS_SUITE(sim_topa, NULL, NULL,
	  PTS_TEST(output_moves_through_entries_and_mask_ptrs_tracks_the_head),
	  PTS_TEST(end_entry_links_to_the_next_table),
	  PTS_TEST(ring_wraps_back_to_the_first_region),
	  PTS_TEST(stop_region_sets_stopped_and_output_ends_there),
	  PTS_TEST(mask_ptrs_write_sets_where_output_resumes),
	  PTS_TEST(each_topa_error_sets_status_error_and_stops_output),
	  PTS_TEST(single_entry_topa_wraps_in_place_without_mentry),
	  PTS_TEST(output_to_memory_that_is_not_ram_sets_error))
