// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration validation and RTIT_CTL encoding (SDM 33.2.8.2, table
 * 33-6; legal encodings from CPUID leaf 14H, SDM 33.3.1). Structural
 * errors are reported before capability errors so that a malformed
 * request is never mistaken for a missing CPU feature.
 */
#include "pts_pure.h"

static int refuse(struct pts_refusal *why, int err, u32 reason, u64 arg)
{
	why->reason = reason;
	why->arg = arg;
	return err;
}

static bool is_pow2_in(u64 v, u64 lo, u64 hi)
{
	return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

/*
 * BAD_TRIGGER and RESERVED_NONZERO name the refused field by its byte
 * offset in struct ptscope_config (docs/abi.md, "reason_arg"): the same
 * reason covers many fields, and the caller holds the value it sent.
 */
#define CFG_AT(field) ((u64)offsetof(struct ptscope_config, field))

/* Offset of the first non-zero byte of p, len when there is none. */
static size_t first_nonzero(const void *p, size_t len)
{
	const u8 *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i])
			break;
	return i;
}

static int check_reserved(const struct ptscope_config *cfg,
			  struct pts_refusal *why)
{
	const struct ptscope_trigger_spec *t = &cfg->trigger;
	size_t at;
	u32 i;

	if (cfg->reserved0)
		return refuse(why, -EINVAL, PTSCOPE_R_RESERVED_NONZERO, CFG_AT(reserved0));
	at = first_nonzero(cfg->reserved, sizeof(cfg->reserved));
	if (at < sizeof(cfg->reserved))
		return refuse(why, -EINVAL, PTSCOPE_R_RESERVED_NONZERO, CFG_AT(reserved) + at);
	if (t->reserved0)
		return refuse(why, -EINVAL, PTSCOPE_R_RESERVED_NONZERO,
			      CFG_AT(trigger.reserved0));
	at = first_nonzero(t->reserved, sizeof(t->reserved));
	if (at < sizeof(t->reserved))
		return refuse(why, -EINVAL, PTSCOPE_R_RESERVED_NONZERO,
			      CFG_AT(trigger.reserved) + at);
	for (i = 0; i < PTSCOPE_MAX_ADDR_RANGES; i++)
		if (cfg->addr[i].reserved)
			return refuse(why, -EINVAL, PTSCOPE_R_RESERVED_NONZERO,
				      CFG_AT(addr) + i * sizeof(cfg->addr[0]) +
				      offsetof(struct ptscope_addr_range, reserved));
	if (cfg->uprobe.reserved0)
		return refuse(why, -EINVAL, PTSCOPE_R_RESERVED_NONZERO,
			      CFG_AT(uprobe.reserved0));
	at = first_nonzero(cfg->uprobe.reserved, sizeof(cfg->uprobe.reserved));
	if (at < sizeof(cfg->uprobe.reserved))
		return refuse(why, -EINVAL, PTSCOPE_R_RESERVED_NONZERO,
			      CFG_AT(uprobe.reserved) + at);
	return 0;
}

/*
 * The uprobe part: only with PTSCOPE_TRIG_UPROBE (all zero otherwise, as
 * a caller of the smaller ABI 1 struct sends it); an fd and a pid are
 * never negative. Whether the fd is a regular file open for reading and
 * the offset inside it is the module's check (it needs the file).
 */
static int check_uprobe(const struct ptscope_trigger_spec *t,
			const struct ptscope_uprobe_spec *u,
			struct pts_refusal *why)
{
	if (u->flags)
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_FLAGS, u->flags);
	if (!(t->kinds & PTSCOPE_TRIG_UPROBE)) {
		if (u->fd)
			return refuse(why, -EINVAL, PTSCOPE_R_BAD_TRIGGER, CFG_AT(uprobe.fd));
		if (u->pid)
			return refuse(why, -EINVAL, PTSCOPE_R_BAD_TRIGGER, CFG_AT(uprobe.pid));
		if (u->offset)
			return refuse(why, -EINVAL, PTSCOPE_R_BAD_TRIGGER,
				      CFG_AT(uprobe.offset));
		return 0;
	}
	if (u->fd < 0)
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_TRIGGER, CFG_AT(uprobe.fd));
	if (u->pid < 0)
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_TRIGGER, CFG_AT(uprobe.pid));
	return 0;
}

/*
 * Keys the sysrq core dispatches: its key table has slots for 0-9, a-z
 * and A-Z only (drivers/tty/sysrq.c, sysrq_key_table); any other key
 * registers without error and never fires.
 */
bool pts_sysrq_key_ok(u32 key)
{
	return (key >= '0' && key <= '9') || (key >= 'a' && key <= 'z') ||
	       (key >= 'A' && key <= 'Z');
}

static int check_trigger(const struct ptscope_trigger_spec *t,
			 struct pts_refusal *why)
{
	size_t len;

	if (t->kinds & ~PTSCOPE_TRIG_KINDS_ALL)
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_FLAGS, t->kinds);
	if (t->flags & ~PTSCOPE_TRIGF_ALL)
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_FLAGS, t->flags);
	len = strnlen(t->tracepoint, sizeof(t->tracepoint));
	if (len == sizeof(t->tracepoint))	/* not NUL-terminated */
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_TRIGGER, CFG_AT(trigger.tracepoint));
	if (t->kinds & PTSCOPE_TRIG_TRACEPOINT) {
		if (!len)
			return refuse(why, -EINVAL, PTSCOPE_R_BAD_TRIGGER,
				      CFG_AT(trigger.tracepoint));
		if (t->tracepoint_pid < 0)
			return refuse(why, -EINVAL, PTSCOPE_R_BAD_TRIGGER,
				      CFG_AT(trigger.tracepoint_pid));
	} else if (len) {
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_TRIGGER, CFG_AT(trigger.tracepoint));
	} else if (t->tracepoint_pid) {
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_TRIGGER,
			      CFG_AT(trigger.tracepoint_pid));
	}
	/* A thread to name needs a tracepoint pid. */
	if ((t->flags & PTSCOPE_TRIGF_TID) && t->tracepoint_pid <= 0)
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_TRIGGER, CFG_AT(trigger.flags));
	if (t->hotkey && (!(t->kinds & PTSCOPE_TRIG_HOTKEY) ||
			  !pts_sysrq_key_ok(t->hotkey)))
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_TRIGGER, CFG_AT(trigger.hotkey));
	if (t->post_trigger_us > PTS_POST_TRIGGER_MAX_US)
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_TRIGGER,
			      CFG_AT(trigger.post_trigger_us));
	return 0;
}

static int check_structure(const struct ptscope_config *cfg,
			   struct pts_refusal *why)
{
	int err;

	if (cfg->flags & ~PTSCOPE_CFG_ALL)
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_FLAGS, cfg->flags);
	if (cfg->timing & ~PTSCOPE_TIMING_ALL)
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_FLAGS, cfg->timing);
	if (cfg->trace_flags & ~PTSCOPE_TRACE_ALL)
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_FLAGS,
			      cfg->trace_flags);
	err = check_reserved(cfg, why);
	if (err)
		return err;
	if (cfg->scope < PTSCOPE_SCOPE_USER || cfg->scope > PTSCOPE_SCOPE_BOTH)
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_SCOPE, cfg->scope);
	if (cfg->mode != PTSCOPE_MODE_SNAPSHOT && cfg->mode != PTSCOPE_MODE_FULL)
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_MODE, cfg->mode);
	if (!is_pow2_in(cfg->buffer_size, PTS_BUFFER_MIN, PTS_BUFFER_MAX))
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_BUFFER_SIZE,
			      cfg->buffer_size);
	if (cfg->sideband_size &&
	    !is_pow2_in(cfg->sideband_size, PTS_SIDEBAND_MIN, PTS_SIDEBAND_MAX))
		return refuse(why, -EINVAL, PTSCOPE_R_BAD_SIDEBAND_SIZE,
			      cfg->sideband_size);
	if (cfg->mtc_freq && !(cfg->timing & PTSCOPE_TIMING_MTC))
		return refuse(why, -EINVAL, PTSCOPE_R_TIMING_FLAGS, cfg->mtc_freq);
	if (cfg->cyc_thresh && !(cfg->timing & PTSCOPE_TIMING_CYC))
		return refuse(why, -EINVAL, PTSCOPE_R_TIMING_FLAGS,
			      cfg->cyc_thresh);
	if (cfg->flags & PTSCOPE_CFG_CR3_FILTER) {
		if (cfg->cr3_pid <= 0)
			return refuse(why, -EINVAL, PTSCOPE_R_NO_SUCH_PID,
				      (u64)(s64)cfg->cr3_pid);
	} else if (cfg->cr3_pid) {
		return refuse(why, -EINVAL, PTSCOPE_R_RESERVED_NONZERO, CFG_AT(cr3_pid));
	}
	err = check_trigger(&cfg->trigger, why);
	if (err)
		return err;
	return check_uprobe(&cfg->trigger, &cfg->uprobe, why);
}

/* Address ranges (SDM 33.2.4.3): canonical bounds, A <= B, cfg 0..2. */
static int check_ranges(const struct pts_caps *caps,
			const struct ptscope_config *cfg,
			struct pts_ctl_plan *plan, struct pts_refusal *why)
{
	u32 avail = pt_cpuid_nr_addr_ranges(caps->cpuid_14_1[0]);
	u32 i;

	if (!(caps->cpuid_14_0[1] & PT_CPUID_EBX_IP_FILTER))
		avail = 0;
	if (cfg->nr_addr_ranges > PTSCOPE_MAX_ADDR_RANGES)
		return refuse(why, -EINVAL, PTSCOPE_R_TOO_MANY_RANGES,
			      cfg->nr_addr_ranges);
	for (i = cfg->nr_addr_ranges; i < PTSCOPE_MAX_ADDR_RANGES; i++) {
		const struct ptscope_addr_range *r = &cfg->addr[i];

		if (r->start || r->end || r->cfg)
			return refuse(why, -EINVAL, PTSCOPE_R_RESERVED_NONZERO,
				      CFG_AT(addr) + i * sizeof(*r) +
				      (r->start ? offsetof(struct ptscope_addr_range, start) :
				       r->end ? offsetof(struct ptscope_addr_range, end) :
				       offsetof(struct ptscope_addr_range, cfg)));
	}
	for (i = 0; i < cfg->nr_addr_ranges; i++) {
		const struct ptscope_addr_range *r = &cfg->addr[i];

		if (r->cfg > PTSCOPE_ADDR_STOP)
			return refuse(why, -EINVAL, PTSCOPE_R_BAD_ADDR_CFG, r->cfg);
		if (!pt_addr_is_canonical(r->start, caps->va_bits))
			return refuse(why, -EINVAL, PTSCOPE_R_ADDR_NOT_CANONICAL,
				      r->start);
		if (!pt_addr_is_canonical(r->end, caps->va_bits))
			return refuse(why, -EINVAL, PTSCOPE_R_ADDR_NOT_CANONICAL,
				      r->end);
		if (r->start > r->end)
			return refuse(why, -EINVAL, PTSCOPE_R_BAD_ADDR_RANGE, i);
	}
	if (cfg->nr_addr_ranges > avail)
		return refuse(why, -EOPNOTSUPP, PTSCOPE_R_TOO_MANY_RANGES,
			      cfg->nr_addr_ranges);
	for (i = 0; i < cfg->nr_addr_ranges; i++) {
		plan->rtit_ctl |= ((u64)cfg->addr[i].cfg <<
				   RTIT_CTL_ADDR_CFG_SHIFT(i)) &
				  RTIT_CTL_ADDR_CFG_MASK(i);
		plan->addr_a[i] = cfg->addr[i].start;
		plan->addr_b[i] = cfg->addr[i].end;
	}
	return 0;
}

/* Timing packets (SDM 33.2.8.2): CPUID gates and the leaf 14H.1 bitmaps. */
static int encode_timing(const struct pts_caps *caps,
			 const struct ptscope_config *cfg,
			 struct pts_ctl_plan *plan, struct pts_refusal *why)
{
	u32 ebx0 = caps->cpuid_14_0[1];
	u64 ctl = 0;

	if (cfg->timing & PTSCOPE_TIMING_TSC)
		ctl |= RTIT_CTL_TSCEN;
	if (cfg->timing & PTSCOPE_TIMING_MTC) {
		if (!(ebx0 & PT_CPUID_EBX_MTC))
			return refuse(why, -EOPNOTSUPP, PTSCOPE_R_NO_MTC, 0);
		if (!pt_encoding_allowed(pt_cpuid_mtc_bitmap(caps->cpuid_14_1[0]),
					 cfg->mtc_freq, 0))
			return refuse(why, -EOPNOTSUPP, PTSCOPE_R_BAD_MTC_PERIOD,
				      cfg->mtc_freq);
		ctl |= RTIT_CTL_MTCEN;
		ctl = rtit_ctl_field_set(ctl, RTIT_CTL_MTCFREQ_MASK,
					 RTIT_CTL_MTCFREQ_SHIFT, cfg->mtc_freq);
	}
	if (cfg->timing & PTSCOPE_TIMING_CYC) {
		if (!(ebx0 & PT_CPUID_EBX_PSB_CYC))
			return refuse(why, -EOPNOTSUPP, PTSCOPE_R_NO_CYC, 0);
		if (!pt_encoding_allowed(pt_cpuid_cyc_bitmap(caps->cpuid_14_1[1]),
					 cfg->cyc_thresh, 1))
			return refuse(why, -EOPNOTSUPP, PTSCOPE_R_BAD_CYC_THRESH,
				      cfg->cyc_thresh);
		ctl |= RTIT_CTL_CYCEN;
		ctl = rtit_ctl_field_set(ctl, RTIT_CTL_CYCTHRESH_MASK,
					 RTIT_CTL_CYCTHRESH_SHIFT,
					 cfg->cyc_thresh);
	}
	if (cfg->psb_freq) {
		if (!(ebx0 & PT_CPUID_EBX_PSB_CYC))
			return refuse(why, -EOPNOTSUPP, PTSCOPE_R_NO_CYC,
				      cfg->psb_freq);
		if (!pt_encoding_allowed(pt_cpuid_psb_bitmap(caps->cpuid_14_1[1]),
					 cfg->psb_freq, 1))
			return refuse(why, -EOPNOTSUPP, PTSCOPE_R_BAD_PSB_PERIOD,
				      cfg->psb_freq);
		ctl = rtit_ctl_field_set(ctl, RTIT_CTL_PSBFREQ_MASK,
					 RTIT_CTL_PSBFREQ_SHIFT, cfg->psb_freq);
	}
	plan->rtit_ctl |= ctl;
	return 0;
}

static int encode_trace_flags(const struct pts_caps *caps,
			      const struct ptscope_config *cfg,
			      struct pts_ctl_plan *plan,
			      struct pts_refusal *why)
{
	u32 ebx0 = caps->cpuid_14_0[1];
	u32 tf = cfg->trace_flags;

	if (tf & PTSCOPE_TRACE_NO_BRANCH) {
		/* Erratum BDM106: clearing BranchEn #GPs on these models. */
		if (pt_erratum_bdm106(caps->family, caps->model))
			return refuse(why, -EOPNOTSUPP, PTSCOPE_R_NEED_BRANCH_EN,
				      caps->model);
	} else {
		plan->rtit_ctl |= RTIT_CTL_BRANCHEN;
	}
	if (tf & PTSCOPE_TRACE_DISRETC)
		plan->rtit_ctl |= RTIT_CTL_DISRETC;
	if (tf & (PTSCOPE_TRACE_PTWRITE | PTSCOPE_TRACE_FUP_ON_PTW)) {
		if (!(ebx0 & PT_CPUID_EBX_PTWRITE))
			return refuse(why, -EOPNOTSUPP, PTSCOPE_R_NO_PTWRITE, 0);
		if (tf & PTSCOPE_TRACE_PTWRITE)
			plan->rtit_ctl |= RTIT_CTL_PTWEN;
		if (tf & PTSCOPE_TRACE_FUP_ON_PTW)
			plan->rtit_ctl |= RTIT_CTL_FUPONPTW;
	}
	if (tf & PTSCOPE_TRACE_PWR_EVT) {
		if (!(ebx0 & PT_CPUID_EBX_POWER_EVENT))
			return refuse(why, -EOPNOTSUPP, PTSCOPE_R_NO_PWR_EVT, 0);
		plan->rtit_ctl |= RTIT_CTL_PWREVTEN;
	}
	if (cfg->flags & PTSCOPE_CFG_CR3_FILTER) {
		if (!(ebx0 & PT_CPUID_EBX_CR3_FILTER))
			return refuse(why, -EOPNOTSUPP, PTSCOPE_R_NO_CR3_FILTER, 0);
		plan->rtit_ctl |= RTIT_CTL_CR3FILTER;
	}
	return 0;
}

int pts_config_check(const struct pts_caps *caps,
		     const struct ptscope_config *cfg,
		     struct pts_ctl_plan *plan, struct pts_refusal *why)
{
	int err;

	memset(plan, 0, sizeof(*plan));
	why->reason = PTSCOPE_R_NONE;
	why->arg = 0;

	err = check_structure(cfg, why);
	if (err)
		return err;
	plan->sideband_size = cfg->sideband_size ? cfg->sideband_size :
			      PTS_SIDEBAND_DEFAULT;

	if (!caps->pt)
		return refuse(why, -ENODEV, PTSCOPE_R_NO_PT, 0);
	if (!(caps->cpuid_14_0[2] & PT_CPUID_ECX_TOPA))
		return refuse(why, -EOPNOTSUPP, PTSCOPE_R_NO_TOPA, 0);

	/* Output to ToPA; scope is exactly the OS and User bits. */
	plan->rtit_ctl = RTIT_CTL_TOPA;
	if (cfg->scope & PTSCOPE_SCOPE_USER)
		plan->rtit_ctl |= RTIT_CTL_USER;
	if (cfg->scope & PTSCOPE_SCOPE_KERNEL)
		plan->rtit_ctl |= RTIT_CTL_OS;

	err = encode_timing(caps, cfg, plan, why);
	if (!err)
		err = encode_trace_flags(caps, cfg, plan, why);
	if (!err)
		err = check_ranges(caps, cfg, plan, why);
	if (err)
		return err;
	/* Never EventEn (libipt 2.0.5 cannot decode it), never TraceEn here. */
	if (plan->rtit_ctl & (RTIT_CTL_RESERVED_MASK | RTIT_CTL_TRACEEN))
		return refuse(why, -EINVAL, PTSCOPE_R_RESERVED_NONZERO,
			      PTSCOPE_ARG_NO_FIELD);
	return 0;
}
