// SPDX-License-Identifier: GPL-2.0
/*
 * Sharing the PT unit with another owner (perf's intel_pt, KVM, firmware):
 * save every RTIT MSR ptscope writes at arm, give back the ones nobody
 * else has changed at stop, and classify what the stop finds in
 * RTIT_CTL. See pts_pure.h and docs/abi.md ("Another owner of the PT
 * unit"). Section numbers are those of Intel SDM vol. 3C chapter 33.
 */
#include "pts_pure.h"

static void owner_add(struct pts_owner_save *s, u32 msr, bool output)
{
	struct pts_owner_msr *m = &s->m[s->nr++];

	m->msr = msr;
	m->saved = 0;
	m->wrote = 0;
	m->written = false;
	m->output = output;
}

void pts_owner_init(struct pts_owner_save *s, unsigned int nr_ranges, bool cr3)
{
	unsigned int i;

	if (nr_ranges > PTSCOPE_MAX_ADDR_RANGES)
		nr_ranges = PTSCOPE_MAX_ADDR_RANGES;
	s->nr = 0;
	/* Output state: the unit itself moves these while tracing. */
	owner_add(s, RTIT_MSR_OUTPUT_BASE, true);
	owner_add(s, RTIT_MSR_OUTPUT_MASK_PTRS, true);
	owner_add(s, RTIT_MSR_STATUS, true);
	for (i = 0; i < nr_ranges; i++) {
		owner_add(s, RTIT_MSR_ADDR_A(i), false);
		owner_add(s, RTIT_MSR_ADDR_B(i), false);
	}
	if (cr3)
		owner_add(s, RTIT_MSR_CR3_MATCH, false);
	/* Last: restoring it may set bits that #GP while TraceEn is set. */
	owner_add(s, RTIT_MSR_CTL, false);
}

int pts_owner_save(const struct pts_msr_io *io, struct pts_owner_save *s)
{
	u32 i;

	for (i = 0; i < s->nr; i++) {
		s->m[i].written = false;
		if (io->rd(io->ctx, s->m[i].msr, &s->m[i].saved))
			return -EIO;
	}
	return 0;
}

bool pts_owner_foreign(const struct pts_owner_save *s)
{
	u32 i;

	for (i = 0; i < s->nr; i++) {
		u64 v = s->m[i].saved;

		/* OUTPUT_MASK_PTRS bits 6:0 read as 1 in ToPA mode (33.2.8.8). */
		if (s->m[i].msr == RTIT_MSR_OUTPUT_MASK_PTRS)
			v &= ~RTIT_OMP_LOWER_MASK;
		if (v)
			return true;
	}
	return false;
}

int pts_owner_write(const struct pts_msr_io *io, struct pts_owner_save *s,
		    u32 msr, u64 val)
{
	u32 i;

	for (i = 0; i < s->nr; i++) {
		if (s->m[i].msr != msr)
			continue;
		s->m[i].wrote = val;
		s->m[i].written = true;
		break;
	}
	return io->wr(io->ctx, msr, val);
}

/*
 * Restore rules (SDM 33.2.8: every RTIT MSR but CTL #GPs while TraceEn is
 * set, so the caller has cleared TraceEn): an MSR whose value is still
 * the one ptscope wrote gets the saved value back; one that another owner
 * rewrote since is that owner's now and is left alone. The output MSRs
 * change under tracing (the write pointer, PacketByteCnt), so "still
 * ours" means OUTPUT_BASE still points at ptscope's tables.
 */
int pts_owner_restore(const struct pts_msr_io *io,
		      const struct pts_owner_save *s, bool output_ours,
		      u32 *kept)
{
	int err = 0;
	u32 i;

	*kept = 0;
	for (i = 0; i < s->nr; i++) {
		const struct pts_owner_msr *m = &s->m[i];
		bool ours;
		u64 now = 0;

		if (!m->written)
			continue;
		if (m->output) {
			ours = output_ours;
		} else {
			if (io->rd(io->ctx, m->msr, &now)) {
				err = -EIO;
				continue;
			}
			/* CTL: compare without TraceEn, which the stop cleared. */
			if (m->msr == RTIT_MSR_CTL)
				ours = (now & ~RTIT_CTL_TRACEEN) ==
				       (m->wrote & ~RTIT_CTL_TRACEEN);
			else
				ours = now == m->wrote;
		}
		if (!ours) {
			(*kept)++;
			continue;
		}
		if (io->wr(io->ctx, m->msr, m->saved))
			err = -EIO;
	}
	return err;
}

enum pts_owner_stop pts_owner_stop_kind(u64 ours, u64 ctl_now, bool base_ours)
{
	if (ctl_now == ours)
		return PTS_OWNER_STOP_OURS;
	if (!(ctl_now & RTIT_CTL_TRACEEN))
		return PTS_OWNER_STOP_CLEARED;
	return base_ours ? PTS_OWNER_STOP_FOREIGN_OURS :
			   PTS_OWNER_STOP_FOREIGN_LIVE;
}
