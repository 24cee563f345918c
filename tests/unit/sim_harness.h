/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host harness for the simulated PT unit's tests (test_sim_*.c): a fake
 * physical memory, ToPA ring set-up, the arm/stop sequences of the SDM
 * (pt-facts section 4) and a libipt decode of what the unit wrote.
 * libipt is the independent judge of the packet stream: nothing here
 * parses packets by hand.
 */
#ifndef PTS_TEST_SIM_HARNESS_H
#define PTS_TEST_SIM_HARNESS_H

/* The pure model headers take their host types from pure.h's PTS_HOST side. */
#ifndef PTS_HOST
#define PTS_HOST
#endif

#include <intel-pt.h>
#include <stdlib.h>
#include <string.h>

#include "../../kmod/pure/sim_unit.h"
#include "../../kmod/pure/sim_code.h"

/* Fake physical memory: 8 MiB at 1 GiB, so "physical" != host addresses. */
#define SIMT_PA_BASE	0x40000000ULL
#define SIMT_PA_SIZE	(8ULL << 20)
/* Where the tests put the kernel image (a module-area address). */
#define SIMT_KERNEL_BASE 0xffffffffc0a01000ULL

struct simt {
	struct pts_sim_cpu cpu;
	struct pts_sim_mem mem;
	u8 *phys;		/* SIMT_PA_SIZE bytes, "physical" SIMT_PA_BASE */
	u64 table;		/* physical address of the first ToPA table */
	unsigned int nregions;
	u64 region_pa[64];
	u64 region_size[64];
};

static inline void *simt_map(void *ctx, u64 pa, u64 len)
{
	struct simt *t = ctx;

	if (pa < SIMT_PA_BASE || len > SIMT_PA_SIZE || pa - SIMT_PA_BASE > SIMT_PA_SIZE - len)
		return NULL;
	return t->phys + (pa - SIMT_PA_BASE);
}

static inline void simt_init_model(struct simt *t, const struct pts_sim_model *model)
{
	memset(t, 0, sizeof(*t));
	t->phys = calloc(1, SIMT_PA_SIZE);
	t->mem.map = simt_map;
	t->mem.ctx = t;
	pts_sim_cpu_init(&t->cpu, model, &t->mem, SIMT_KERNEL_BASE, PTS_SIM_USER_BASE);
}

static inline void simt_init(struct simt *t)
{
	simt_init_model(t, &pts_sim_model_skx);
}

static inline void simt_fini(struct simt *t)
{
	free(t->phys);
	t->phys = NULL;
}

static inline void simt_put64(struct simt *t, u64 pa, u64 v)
{
	u8 *p = simt_map(t, pa, 8);
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (u8)(v >> (8 * i));
}

/*
 * One ToPA table at SIMT_PA_BASE with `n` regions of 4 KiB << size_code
 * each, laid out after the table and naturally aligned, then an END
 * entry back to the table (a ring). last_flags: TOPA_STOP/INT for the
 * last region.
 */
static inline void simt_ring(struct simt *t, unsigned int n, unsigned int size_code,
			     u64 last_flags)
{
	u64 size = topa_region_size(size_code);
	u64 pa = SIMT_PA_BASE + size;	/* first size-aligned address after the table */
	unsigned int i;

	if (pa < SIMT_PA_BASE + 4096)
		pa = SIMT_PA_BASE + 4096;
	t->table = SIMT_PA_BASE;
	t->nregions = n;
	for (i = 0; i < n; i++, pa += size) {
		t->region_pa[i] = pa;
		t->region_size[i] = size;
		simt_put64(t, t->table + 8 * i,
			   topa_entry_encode(pa, size_code, i + 1 == n ? last_flags : 0));
	}
	simt_put64(t, t->table + 8 * n, topa_entry_encode(t->table, 0, TOPA_END));
}

/* Scope and feature bits of a typical capture, TraceEn excluded. */
#define SIMT_CTL_USER	(RTIT_CTL_TOPA | RTIT_CTL_BRANCHEN | RTIT_CTL_TSCEN | RTIT_CTL_USER)
#define SIMT_CTL_KERNEL	(RTIT_CTL_TOPA | RTIT_CTL_BRANCHEN | RTIT_CTL_TSCEN | RTIT_CTL_OS)
#define SIMT_CTL_BOTH	(SIMT_CTL_USER | RTIT_CTL_OS)

/* pt-facts section 4 start sequence; returns the first failing wrmsr. */
static inline int simt_arm(struct simt *t, u64 ctl, u64 tsc)
{
	int rc;

	rc = pts_sim_wrmsr(&t->cpu, RTIT_MSR_OUTPUT_BASE, t->table, tsc);
	if (!rc)
		rc = pts_sim_wrmsr(&t->cpu, RTIT_MSR_OUTPUT_MASK_PTRS, RTIT_OMP_LOWER_MASK, tsc);
	if (!rc)
		rc = pts_sim_wrmsr(&t->cpu, RTIT_MSR_STATUS, 0, tsc);
	if (!rc)
		rc = pts_sim_wrmsr(&t->cpu, RTIT_MSR_CTL, ctl | RTIT_CTL_TRACEEN, tsc);
	return rc;
}

static inline int simt_stop(struct simt *t)
{
	u64 ctl = 0;

	pts_sim_rdmsr(&t->cpu, RTIT_MSR_CTL, &ctl);
	return pts_sim_wrmsr(&t->cpu, RTIT_MSR_CTL, ctl & ~RTIT_CTL_TRACEEN, 0);
}

static inline u64 simt_rd(struct simt *t, u32 msr)
{
	u64 v = 0;

	pts_sim_rdmsr(&t->cpu, msr, &v);
	return v;
}

static inline void simt_ticks(struct simt *t, unsigned int n, u64 tsc0)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		pts_sim_tick(&t->cpu, tsc0 + 1000ULL * (i + 1));
}

/* Bytes written so far in a single-table ring (no wrap): regions before the head + offset. */
static inline size_t simt_head(struct simt *t)
{
	u64 omp = simt_rd(t, RTIT_MSR_OUTPUT_MASK_PTRS);
	unsigned int idx = rtit_omp_entry_index(omp);
	size_t pos = 0;
	unsigned int i;

	for (i = 0; i < idx && i < t->nregions; i++)
		pos += t->region_size[i];
	return pos + rtit_omp_output_offset(omp);
}

/*
 * The ring's bytes oldest first: [head, end) + [0, head) when wrapped,
 * [0, head) otherwise. Caller frees; *len gets the size.
 */
static inline u8 *simt_linear(struct simt *t, bool wrapped, size_t *len)
{
	size_t total = 0, head = simt_head(t), pos = 0;
	unsigned int i;
	u8 *flat, *out;

	for (i = 0; i < t->nregions; i++)
		total += t->region_size[i];
	flat = malloc(total + 64);
	for (i = 0; i < t->nregions; i++) {
		memcpy(flat + pos, simt_map(t, t->region_pa[i], t->region_size[i]),
		       t->region_size[i]);
		pos += t->region_size[i];
	}
	out = calloc(1, total + 64);	/* padded: libipt 2.0.5 may read past a cut PSB */
	if (wrapped) {
		memcpy(out, flat + head, total - head);
		memcpy(out + total - head, flat, head);
		*len = total;
	} else {
		memcpy(out, flat, head);
		*len = head;
	}
	free(flat);
	return out;
}

/* ---- libipt decode ---------------------------------------------------- */

static inline int simt_read_image(uint8_t *buffer, size_t size, const struct pt_asid *asid,
				  uint64_t ip, void *context)
{
	const u8 *img;
	u64 base, off;
	size_t n;

	(void)asid;
	(void)context;
	if (ip >= PTS_SIM_USER_BASE && ip < PTS_SIM_USER_BASE + PTS_SIM_CODE_SIZE) {
		img = pts_sim_user_code;
		base = PTS_SIM_USER_BASE;
	} else if (ip >= SIMT_KERNEL_BASE && ip < SIMT_KERNEL_BASE + PTS_SIM_CODE_SIZE) {
		img = pts_sim_kernel_code;
		base = SIMT_KERNEL_BASE;
	} else {
		return -pte_nomap;
	}
	off = ip - base;
	n = PTS_SIM_CODE_SIZE - off;
	if (n > size)
		n = size;
	memcpy(buffer, img + off, n);
	return (int)n;
}

#define SIMT_MAX_INSNS 200000
#define SIMT_MAX_EVENTS 20000

struct simt_decoded {
	u64 *ip;		/* instruction addresses in execution order */
	size_t n;
	int enabled, disabled, async_disabled, overflow;
	u64 first_enabled_ip;
	int error;		/* 0, or the libipt error that ended decoding early */
	u64 last_tsc;		/* pt_insn_time after the last instruction */
	int psb_syncs;		/* number of sync points used */
};

static inline void simt_decoded_free(struct simt_decoded *d)
{
	free(d->ip);
	memset(d, 0, sizeof(*d));
}

static inline int simt_drain(struct pt_insn_decoder *dec, int status, struct simt_decoded *d)
{
	while (status & pts_event_pending) {
		struct pt_event ev;

		status = pt_insn_event(dec, &ev, sizeof(ev));
		if (status < 0)
			return status;
		switch (ev.type) {
		case ptev_enabled:
			if (!d->enabled++)
				d->first_enabled_ip = ev.variant.enabled.ip;
			break;
		case ptev_disabled:
			d->disabled++;
			break;
		case ptev_async_disabled:
			d->async_disabled++;
			break;
		case ptev_overflow:
			d->overflow++;
			break;
		default:
			break;
		}
	}
	return status;
}

/*
 * Decode buf with libipt's instruction decoder (the stricter one) over
 * the two code images, from every PSB to the end. A decode error ends
 * it (recorded in d->error): the streams under test must have none.
 */
static inline void simt_decode(const u8 *buf, size_t len, struct simt_decoded *d)
{
	struct pt_insn_decoder *dec;
	struct pt_config cfg;
	int status;

	memset(d, 0, sizeof(*d));
	d->ip = calloc(SIMT_MAX_INSNS, sizeof(*d->ip));
	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	dec = pt_insn_alloc_decoder(&cfg);
	if (!dec) {
		d->error = -pte_nomem;
		return;
	}
	pt_image_set_callback(pt_insn_get_image(dec), simt_read_image, NULL);
	status = pt_insn_sync_forward(dec);
	if (status < 0) {
		d->error = status == -pte_eos ? 0 : status;
		pt_insn_free_decoder(dec);
		return;
	}
	d->psb_syncs = 1;
	for (;;) {
		struct pt_insn insn;
		uint32_t lost_mtc, lost_cyc;
		uint64_t tsc;

		status = simt_drain(dec, status, d);
		if (status < 0)
			break;
		status = pt_insn_next(dec, &insn, sizeof(insn));
		if (status < 0)
			break;
		if (d->n < SIMT_MAX_INSNS)
			d->ip[d->n++] = insn.ip;
		if (pt_insn_time(dec, &tsc, &lost_mtc, &lost_cyc) >= 0)
			d->last_tsc = tsc;
	}
	d->error = status == -pte_eos ? 0 : status;
	pt_insn_free_decoder(dec);
}

/* Block decoder instruction count over the same stream (cross-check). */
static inline long simt_blk_count(const u8 *buf, size_t len, int *error)
{
	struct pt_block_decoder *dec;
	struct pt_config cfg;
	long count = 0;
	int status;

	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	dec = pt_blk_alloc_decoder(&cfg);
	pt_image_set_callback(pt_blk_get_image(dec), simt_read_image, NULL);
	status = pt_blk_sync_forward(dec);
	while (status >= 0) {
		struct pt_block block;

		while (status & pts_event_pending) {
			struct pt_event ev;

			status = pt_blk_event(dec, &ev, sizeof(ev));
			if (status < 0)
				break;
		}
		if (status < 0)
			break;
		status = pt_blk_next(dec, &block, sizeof(block));
		count += block.ninsn;
		if (status < 0)
			break;
	}
	*error = status == -pte_eos ? 0 : status;
	pt_blk_free_decoder(dec);
	return count;
}

/* ---- the documented instruction sequences (docs/simulated-unit.md) ---- */

/*
 * One pass of an image's function, hand-derived from the listing in
 * kmod/pure/sim_code.c: entry, mov, 3 x (call, inc, ret, dec, jnz),
 * lea, jmp *%rax, endbr64, then the far branch. 21 instructions.
 */
static inline size_t simt_expect_function(u64 base, u64 *out)
{
	size_t n = 0;
	int i;

	out[n++] = base + 0x00;
	out[n++] = base + 0x04;
	for (i = 0; i < 3; i++) {
		out[n++] = base + 0x09;
		out[n++] = base + 0x1c;
		out[n++] = base + 0x1e;
		out[n++] = base + 0x0e;
		out[n++] = base + 0x10;
	}
	out[n++] = base + 0x12;
	out[n++] = base + 0x19;
	out[n++] = base + 0x20;
	out[n++] = base + 0x24;
	return n;
}

/* The instruction sequence of `rounds` ticks in a scope ("user", "kernel", "both"). */
static inline size_t simt_expect(const char *scope, unsigned int rounds, u64 *out)
{
	size_t n = 0;
	unsigned int r;

	for (r = 0; r < rounds; r++) {
		if (strcmp(scope, "kernel")) {
			out[n++] = PTS_SIM_USER_BASE + 0x26;	/* resume: jmp entry */
			n += simt_expect_function(PTS_SIM_USER_BASE, out + n);
		}
		if (strcmp(scope, "user"))
			n += simt_expect_function(SIMT_KERNEL_BASE, out + n);
	}
	return n;
}

/* d's instructions are exactly want[off .. off + d->n). */
static inline bool simt_matches_at(const struct simt_decoded *d, const u64 *want,
				   size_t nwant, size_t off)
{
	return off + d->n <= nwant && !memcmp(d->ip, want + off, d->n * sizeof(u64));
}

#endif /* PTS_TEST_SIM_HARNESS_H */
