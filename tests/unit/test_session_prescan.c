// SPDX-License-Identifier: GPL-2.0
/*
 * The scans before a decode (session/prescan.h), taken by one thread or
 * by several at once, give the answers of one scan of each trace in
 * order: the scope evidence of every slice added up, to both halves'
 * addresses wherever in the traces they lie, and the CYC answer of each
 * CPU's whole trace. The traces are files mapped as a decode maps them
 * (the scans drop the pages behind them) and longer than a slice (8 MiB).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "unit.h"
#include "bundle_fixture.h"
#include "session/prescan.h"
#include "session/session_int.h"

/* A PSB period: 64 KiB from a PSB, one TIP (IPBytes 3), then PAD. */
#define PERIOD (64u << 10)
/* Periods of a trace: 9 MiB, two slices of the scope scan. */
#define PERIODS 144u

/* What a period holds after its PSB+ besides its TIP. */
enum extra { NONE, CYC };

/*
 * The period at p: PSB, PSBEND, a TIP to a user-space or (kernel) an
 * upper-half address, then extra, then PAD (the bytes are zero).
 */
static void period(uint8_t *p, bool kernel, enum extra extra)
{
	static const uint8_t psb[16] = { 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
					 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82 };
	/* TIP, IPBytes 3 (sext_48): bits 47:0, bit 47 the half */
	uint8_t tip[7] = { 0x6d, 0x10, 0x20, 0x40, 0x00, 0x00, 0x00 };

	if (kernel) {
		tip[4] = 0x80;
		tip[5] = 0xff;
		tip[6] = 0xff;
	}
	memcpy(p, psb, sizeof(psb));
	p[16] = 0x02;
	p[17] = 0x23;	/* PSBEND */
	memcpy(p + 18, tip, sizeof(tip));
	if (extra == CYC)
		p[25] = 0x0b;	/* CYC, 1 cycle, no extension */
}

/* The held events of the traces' CYC scans (none here: no event waits across a PSB). */
static struct pts_pt_hold holds[3];

/*
 * A trace file of PERIODS periods in dir, user-space addresses but for
 * the period kernel_at (PERIODS: none), a CYC in period cyc_at (PERIODS:
 * none); mapped into *t, with the hold of its CYC scan holds[i]. Returns
 * the mapping's length for munmap.
 */
static size_t trace(const char *dir, const char *name, unsigned int kernel_at, unsigned int cyc_at,
		    struct pts_prescan_cpu *t)
{
	char path[512];
	uint8_t *buf = calloc(PERIODS, PERIOD);
	size_t len, maplen;
	struct pts_err err;
	unsigned int i;
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	for (i = 0; i < PERIODS; i++)
		period(buf + (size_t)i * PERIOD, i == kernel_at, i == cyc_at ? CYC : NONE);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(fwrite(buf, PERIOD, PERIODS, f), PERIODS);
	CU_ASSERT_EQUAL_FATAL(fclose(f), 0);
	free(buf);
	memset(t, 0, sizeof(*t));
	CU_ASSERT_EQUAL_FATAL(pts_decode_map_trace(path, UINT64_MAX, &t->buf, &len, &maplen, &err),
			      0);
	t->len = len;
	t->scan_cyc = true;
	t->hold = &holds[name[3] - '0'];	/* cpuN.pt */
	pts_pt_hold_free(t->hold);
	pts_pt_hold_init(t->hold);
	return maplen;
}

static void user_space_only_counts_every_address_of_every_slice(void)
{
	char *dir = bt_tmpdir();
	unsigned int threads;

	for (threads = 1; threads <= 3; threads++) {
		struct pts_prescan_cpu t[2];
		struct pts_scope_evidence ev;
		size_t m0 = trace(dir, "cpu0.pt", PERIODS, PERIODS, &t[0]);
		size_t m1 = trace(dir, "cpu1.pt", PERIODS, PERIODS, &t[1]);

		memset(&ev, 0, sizeof(ev));
		CU_ASSERT_EQUAL(pts_prescan(t, 2, threads, &ev), 0);
		/* one TIP and one PSB a period, in both traces */
		CU_ASSERT_EQUAL(ev.user_ips, 2 * PERIODS);
		CU_ASSERT_EQUAL(ev.kernel_ips, 0);
		CU_ASSERT_EQUAL(ev.psbs, 2 * PERIODS);
		CU_ASSERT_EQUAL(ev.pge, 0);
		CU_ASSERT_EQUAL(ev.pgd, 0);
		CU_ASSERT_FALSE(t[0].cyc);
		CU_ASSERT_FALSE(t[1].cyc);
		CU_ASSERT_EQUAL(holds[0].n, 0);
		CU_ASSERT_FALSE(holds[0].nomem);
		munmap(t[0].buf, m0);
		munmap(t[1].buf, m1);
	}
	bt_rmtree(dir);
	free(dir);
}

static void a_kernel_address_in_the_last_slice_shows_both_halves(void)
{
	char *dir = bt_tmpdir();
	unsigned int threads;

	for (threads = 1; threads <= 3; threads++) {
		struct pts_prescan_cpu t;
		struct pts_scope_evidence ev;
		size_t m = trace(dir, "cpu0.pt", PERIODS - 1, PERIODS, &t);

		memset(&ev, 0, sizeof(ev));
		CU_ASSERT_EQUAL(pts_prescan(&t, 1, threads, &ev), 0);
		CU_ASSERT(ev.user_ips > 0);
		CU_ASSERT_EQUAL(ev.kernel_ips, 1);
		munmap(t.buf, m);
	}
	bt_rmtree(dir);
	free(dir);
}

static void each_cpu_has_the_cyc_answer_of_its_whole_trace(void)
{
	char *dir = bt_tmpdir();
	unsigned int threads;

	for (threads = 1; threads <= 3; threads++) {
		struct pts_prescan_cpu t[3];
		struct pts_scope_evidence ev;
		/* a CYC in the last period of CPU 0 and the first of CPU 2, which is not asked */
		size_t m0 = trace(dir, "cpu0.pt", PERIODS, PERIODS - 1, &t[0]);
		size_t m1 = trace(dir, "cpu1.pt", PERIODS, PERIODS, &t[1]);
		size_t m2 = trace(dir, "cpu2.pt", PERIODS, 0, &t[2]);

		t[2].scan_cyc = false;
		memset(&ev, 0, sizeof(ev));
		CU_ASSERT_EQUAL(pts_prescan(t, 3, threads, threads == 2 ? &ev : NULL), 0);
		CU_ASSERT_TRUE(t[0].cyc);
		CU_ASSERT_FALSE(t[1].cyc);
		CU_ASSERT_FALSE(t[2].cyc);
		if (threads == 2)
			CU_ASSERT_EQUAL(ev.user_ips, 3 * PERIODS);
		munmap(t[0].buf, m0);
		munmap(t[1].buf, m1);
		munmap(t[2].buf, m2);
	}
	bt_rmtree(dir);
	free(dir);
}

PTS_SUITE(session_prescan, NULL, NULL,
	  PTS_TEST(user_space_only_counts_every_address_of_every_slice),
	  PTS_TEST(a_kernel_address_in_the_last_slice_shows_both_halves),
	  PTS_TEST(each_cpu_has_the_cyc_answer_of_its_whole_trace));
