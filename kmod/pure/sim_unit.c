// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated PT unit's model (see sim_unit.h and
 * docs/simulated-unit.md). Section numbers are those of Intel SDM
 * vol. 3C, chapter 33 "Intel Processor Trace".
 */
#include "sim_unit.h"
#include "sim_code.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/*
 * Skylake-SP (Xeon Scalable, family 6 model 0x55 stepping 4): CPUID 14H
 * as such a part reports it, except single-range output, which the model
 * does not implement and so does not advertise (ECX[2] = 0).
 *   14H.0 EBX 0x0f: CR3 filter, PSB/CYC, IP filter + TraceStop, MTC;
 *                   no PTWRITE, no power events, no event trace.
 *   14H.0 ECX 0x03: ToPA, multiple ToPA entries (MENTRY).
 *   14H.1 EAX 0x02490002: 2 address ranges, MTC periods {0, 3, 6, 9}.
 *   14H.1 EBX 0x003f3fff: CycThresh 0..13, PSBFreq 0..5.
 *   15H: crystal 25 MHz, TSC/crystal = 192/2 (2.4 GHz); 16H: 2400 MHz.
 *   MAXPHYADDR 46, 48-bit linear addresses, nominal ratio 24 (2.4 GHz).
 */
const struct pts_sim_model pts_sim_model_skx = {
	.name = "Skylake-SP-like PT CPU (family 6, model 0x55, stepping 4)",
	.max_leaf = 0x16,
	.signature = 0x00050654,
	.leaf14_0 = { 1, 0x0f, 0x03, 0 },
	.leaf14_1 = { 0x02490002, 0x003f3fff, 0, 0 },
	.leaf15 = { 2, 192, 25000000 },
	.leaf16 = { 2400, 3700, 100 },
	.maxphyaddr = 46,
	.va_bits = 48,
	.nom_ratio = 24,
};

static const char * const pts_sim_gp_names[] = {
	[PTS_SIM_GP_NONE] = "no fault",
	[PTS_SIM_GP_UNKNOWN_MSR] = "MSR not implemented by the model",
	[PTS_SIM_GP_TRACEEN_SET] = "RTIT MSR written while RTIT_CTL.TraceEn is set",
	[PTS_SIM_GP_CTL_CHANGE_ENABLED] = "RTIT_CTL changed while TraceEn is set",
	[PTS_SIM_GP_CTL_RESERVED] = "reserved RTIT_CTL bit set",
	[PTS_SIM_GP_CTL_NO_PSB_CYC] = "CYCEn/CycThresh/PSBFreq without CPUID.14H.0:EBX[1]",
	[PTS_SIM_GP_CTL_CYC_THRESH] = "CycThresh not in CPUID.14H.1:EBX[15:0]",
	[PTS_SIM_GP_CTL_PSB_FREQ] = "PSBFreq not in CPUID.14H.1:EBX[31:16]",
	[PTS_SIM_GP_CTL_NO_MTC] = "MTCEn/MTCFreq without CPUID.14H.0:EBX[3]",
	[PTS_SIM_GP_CTL_MTC_FREQ] = "MTCFreq not in CPUID.14H.1:EAX[31:16]",
	[PTS_SIM_GP_CTL_NO_PTWRITE] = "PTWEn/FUPonPTW without CPUID.14H.0:EBX[4]",
	[PTS_SIM_GP_CTL_NO_PWR_EVT] = "PwrEvtEn without CPUID.14H.0:EBX[5]",
	[PTS_SIM_GP_CTL_NO_CR3_FILTER] = "CR3Filter without CPUID.14H.0:EBX[0]",
	[PTS_SIM_GP_CTL_ADDR_RANGE] = "ADDRn_CFG set beyond CPUID.14H.1:EAX[2:0] ranges",
	[PTS_SIM_GP_CTL_ADDR_CFG] = "reserved ADDRn_CFG encoding",
	[PTS_SIM_GP_CTL_NO_EVENT_TRACE] = "EventEn without CPUID.14H.0:EBX[7]",
	[PTS_SIM_GP_CTL_NO_TNT_DISABLE] = "DisTNT without CPUID.14H.0:EBX[8]",
	[PTS_SIM_GP_CTL_NO_PSB_PMI] = "InjectPsbPmiOnEnable without CPUID.14H.0:EBX[6]",
	[PTS_SIM_GP_CTL_NO_TRANSPORT] = "FabricEn without CPUID.14H.0:ECX[3]",
	[PTS_SIM_GP_CTL_NO_TOPA] = "ToPA without CPUID.14H.0:ECX[0]",
	[PTS_SIM_GP_CTL_NO_SINGLE_RANGE] = "TraceEn with ToPA clear, no single-range output",
	[PTS_SIM_GP_STATUS_RESERVED] = "reserved RTIT_STATUS bit set",
	[PTS_SIM_GP_OUTPUT_BASE] = "RTIT_OUTPUT_BASE bits 6:0 or above MAXPHYADDR set",
	[PTS_SIM_GP_CR3_MATCH] = "RTIT_CR3_MATCH bits 4:0 or above MAXPHYADDR set",
	[PTS_SIM_GP_NO_CR3_MSR] = "RTIT_CR3_MATCH without CPUID.14H.0:EBX[0]",
	[PTS_SIM_GP_ADDR_NONCANONICAL] = "RTIT_ADDRn value not canonical",
	[PTS_SIM_GP_NO_ADDR_MSR] = "RTIT_ADDRn beyond CPUID.14H.1:EAX[2:0] ranges",
	[PTS_SIM_GP_DEBUGCTL_RESERVED] = "IA32_DEBUGCTL reserved bit set",
};

const char *pts_sim_gp_str(enum pts_sim_gp gp)
{
	if ((unsigned int)gp >= ARRAY_SIZE(pts_sim_gp_names) || !pts_sim_gp_names[gp])
		return "unknown";
	return pts_sim_gp_names[gp];
}

static const char * const pts_sim_topa_err_names[] = {
	[TOPA_OK] = "no error",
	[TOPA_ERR_RESERVED_BITS] = "reserved ToPA entry bit set",
	[TOPA_ERR_ABOVE_MAXPHYADDR] = "ToPA base above MAXPHYADDR",
	[TOPA_ERR_MISALIGNED_REGION] = "ToPA region not aligned to its size",
	[TOPA_ERR_END_WITH_INT_STOP] = "ToPA END entry with INT or STOP",
	[TOPA_ERR_END_AT_INDEX_0] = "ToPA END entry at index 0",
	[TOPA_ERR_NO_MENTRY_NOT_END] = "entry 1 not END on a single-entry ToPA CPU",
	[TOPA_ERR_NO_MENTRY_BAD_LINK] = "END not back to its own table on a single-entry ToPA CPU",
	[TOPA_ERR_OFFSET_BEYOND_REGION] = "OutputOffset beyond the region size",
	[TOPA_ERR_MISALIGNED_TABLE] = "ToPA table not 4 KiB aligned",
};

const char *pts_sim_topa_err_str(enum topa_error err)
{
	if ((unsigned int)err >= ARRAY_SIZE(pts_sim_topa_err_names) ||
	    !pts_sim_topa_err_names[err])
		return "unknown";
	return pts_sim_topa_err_names[err];
}

void pts_sim_cpu_init(struct pts_sim_cpu *c, const struct pts_sim_model *model,
		      const struct pts_sim_mem *mem, u64 kernel_base, u64 user_base)
{
	memset(c, 0, sizeof(*c));
	c->model = model;
	c->mem = *mem;
	c->kernel_base = kernel_base;
	c->user_base = user_base;
}

void pts_sim_cpuid(const struct pts_sim_model *m, u32 leaf, u32 subleaf, u32 regs[4])
{
	unsigned int i;

	switch (leaf) {
	case 0:
		regs[0] = m->max_leaf;
		regs[1] = 0x756e6547;	/* "Genu" */
		regs[3] = 0x49656e69;	/* "ineI" */
		regs[2] = 0x6c65746e;	/* "ntel" */
		break;
	case 1:
		regs[0] = m->signature;
		break;
	case 7:
		if (subleaf == 0)
			regs[1] |= PT_CPUID_7_EBX_PT;
		break;
	case 0x14:
		for (i = 0; i < 4; i++)
			regs[i] = subleaf == 0 ? m->leaf14_0[i] :
				  subleaf == 1 ? m->leaf14_1[i] : 0;
		break;
	case 0x15:
		for (i = 0; i < 3; i++)
			regs[i] = m->leaf15[i];
		regs[3] = 0;
		break;
	case 0x16:
		for (i = 0; i < 3; i++)
			regs[i] = m->leaf16[i];
		regs[3] = 0;
		break;
	case 0x80000008:
		regs[0] = (regs[0] & ~0xffffU) | ((u32)m->va_bits << 8) | m->maxphyaddr;
		break;
	default:
		break;
	}
}

static unsigned int pts_sim_nr_ranges(const struct pts_sim_model *m)
{
	if (!(m->leaf14_0[1] & PT_CPUID_EBX_IP_FILTER))
		return 0;
	return pt_cpuid_nr_addr_ranges(m->leaf14_1[0]);
}

/* ---- output: ToPA traversal (SDM 33.2.7) ---------------------------- */

static bool pts_sim_mentry(const struct pts_sim_cpu *c)
{
	return c->model->leaf14_0[2] & PT_CPUID_ECX_MENTRY;
}

static void pts_sim_set_error(struct pts_sim_cpu *c, enum topa_error err)
{
	c->status |= RTIT_STATUS_ERROR;
	c->last_topa_err = err;
	c->region_valid = false;
	c->packet_en = false;
}

/*
 * Read the entry at (OUTPUT_BASE, table_index) and make it the current
 * region, following one END link (an END to a table whose entry 0 is
 * END again is an error, so this terminates). Sets STATUS.Error and
 * returns false on a ToPA error (33.2.7.2 "ToPA Errors"); the table
 * offset then points at the entry in error.
 */
static bool pts_sim_topa_load(struct pts_sim_cpu *c)
{
	int hops;

	for (hops = 0; hops < 2; hops++) {
		u64 pa = c->output_base + (u64)c->table_index * 8;
		const u8 *p = c->mem.map(c->mem.ctx, pa, 8);
		enum topa_error err;
		u64 entry = 0;
		unsigned int i;

		if (!p) {
			c->status |= RTIT_STATUS_ERROR;
			c->last_topa_err = TOPA_OK;
			c->region_valid = false;
			c->packet_en = false;
			return false;
		}
		for (i = 0; i < 8; i++)
			entry |= (u64)p[i] << (8 * i);
		err = topa_entry_check(entry, c->table_index, c->output_base,
				       c->model->maxphyaddr, pts_sim_mentry(c));
		if (err != TOPA_OK) {
			pts_sim_set_error(c, err);
			return false;
		}
		if (entry & TOPA_END) {
			/* The processor updates OUTPUT_BASE to the next table. */
			c->output_base = topa_entry_base(entry);
			c->table_index = 0;
			continue;
		}
		c->region_base = topa_entry_base(entry);
		c->region_size = topa_region_size(topa_entry_size_code(entry));
		c->region_stop = entry & TOPA_STOP;
		c->region_valid = true;
		return true;
	}
	pts_sim_set_error(c, TOPA_ERR_END_AT_INDEX_0);
	return false;
}

/* Start output at TraceEn 0 -> 1: table alignment and OutputOffset rules. */
static bool pts_sim_topa_start(struct pts_sim_cpu *c)
{
	if (c->output_base & (TOPA_TABLE_ALIGN - 1)) {
		pts_sim_set_error(c, TOPA_ERR_MISALIGNED_TABLE);
		return false;
	}
	if (!pts_sim_topa_load(c))
		return false;
	if (c->output_offset >= c->region_size) {
		pts_sim_set_error(c, TOPA_ERR_OFFSET_BEYOND_REGION);
		return false;
	}
	return true;
}

static bool pts_sim_output_on(const struct pts_sim_cpu *c)
{
	return (c->ctl & RTIT_CTL_TRACEEN) && c->region_valid &&
	       !(c->status & (RTIT_STATUS_ERROR | RTIT_STATUS_STOPPED));
}

/* ---- filtering (33.2.4) --------------------------------------------- */

/*
 * CR3 filtering (33.2.4.2): with CR3Filter set, ContextEn needs
 * CR3[63:5] == IA32_RTIT_CR3_MATCH[63:5] (bits 4:0 of CR3_MATCH are
 * reserved, so a PCID below 32 in CR3 does not matter).
 */
static bool pts_sim_cr3_ok(const struct pts_sim_cpu *c, u64 cr3)
{
	return !(c->ctl & RTIT_CTL_CR3FILTER) || !((cr3 ^ c->cr3_match) & ~0x1fULL);
}

/*
 * ContextEn (33.2.5.3) for code of one ring under CR3 `cr3`: CPL
 * filtering (33.2.4.1: OS for ring 0, User for ring 3) and CR3 filtering.
 */
static bool pts_sim_context_en(const struct pts_sim_cpu *c, bool user, u64 cr3)
{
	return (c->ctl & (user ? RTIT_CTL_USER : RTIT_CTL_OS)) && pts_sim_cr3_ok(c, cr3);
}

static u64 pts_sim_ring_cr3(const struct pts_sim_cpu *c, bool user)
{
	return user ? c->ctx.user_cr3 : c->ctx.kernel_cr3;
}

/*
 * IP filtering (33.2.4.3): does `ip` lie in a range ADDRn_A <= ip <=
 * ADDRn_B whose ADDRn_CFG is `cfg`? *any tells whether a range with that
 * encoding is configured at all.
 */
static bool pts_sim_in_range(const struct pts_sim_cpu *c, u64 ip, unsigned int cfg, bool *any)
{
	unsigned int n, nr = pts_sim_nr_ranges(c->model);
	bool in = false;

	*any = false;
	for (n = 0; n < nr && n < 4; n++) {
		if (rtit_ctl_field_get(c->ctl, RTIT_CTL_ADDR_CFG_MASK(n),
				       RTIT_CTL_ADDR_CFG_SHIFT(n)) != cfg)
			continue;
		*any = true;
		if (ip >= c->addr[2 * n] && ip <= c->addr[2 * n + 1])
			in = true;
	}
	return in;
}

/*
 * FilterEn for `ip` (33.2.5.5): 1 when no filter range is configured
 * (ADDRn_CFG != 1 for every n), else whether ip is in one of them.
 */
static bool pts_sim_filter_en(const struct pts_sim_cpu *c, u64 ip)
{
	bool any, in = pts_sim_in_range(c, ip, RTIT_ADDR_CFG_FILTER, &any);

	return !any || in;
}

/* TraceStop (33.2.4.3): ip is in a range with ADDRn_CFG = 2. */
static bool pts_sim_in_tracestop(const struct pts_sim_cpu *c, u64 ip)
{
	bool any;

	return pts_sim_in_range(c, ip, RTIT_ADDR_CFG_STOP, &any);
}

/*
 * Append bytes to the trace output, across regions, END links and the
 * wrap back to the first table. A full STOP region sets STATUS.Stopped
 * and ends output there (33.2.7.2); the rest of the packet is lost.
 */
static void pts_sim_emit(struct pts_sim_cpu *c, const u8 *buf, size_t n)
{
	/* An overflowed internal buffer: these bytes never reach the output. */
	if (c->lost)
		return;
	u64 cnt = (u64)c->byte_cnt + n;

	c->byte_cnt = cnt > 0x1ffff ? 0x1ffff : (u32)cnt;
	while (n && pts_sim_output_on(c)) {
		u64 room = c->region_size - c->output_offset;
		size_t k = n < room ? n : (size_t)room;
		u8 *dst = c->mem.map(c->mem.ctx, c->region_base + c->output_offset, k);

		if (!dst) {
			c->status |= RTIT_STATUS_ERROR;
			c->last_topa_err = TOPA_OK;
			c->region_valid = false;
			return;
		}
		memcpy(dst, buf, k);
		buf += k;
		n -= k;
		c->output_offset += (u32)k;
		if (c->output_offset < c->region_size)
			continue;
		if (c->region_stop) {
			c->status |= RTIT_STATUS_STOPPED;
			c->region_valid = false;
			return;
		}
		c->table_index++;
		c->output_offset = 0;
		pts_sim_topa_load(c);
	}
}

/* ---- packets ------------------------------------------------------- */

static void pts_sim_tnt_flush(struct pts_sim_cpu *c)
{
	u8 pkt[PTS_PKT_MAX];

	if (!c->tnt_count)
		return;
	pts_sim_emit(c, pkt, pts_pkt_tnt8(pkt, c->tnt_bits, c->tnt_count));
	c->tnt_bits = 0;
	c->tnt_count = 0;
}

/* Crystal clock (CTC) value for a TSC value: TSC * 15H.EAX / 15H.EBX. */
static u64 pts_sim_ctc(const struct pts_sim_cpu *c, u64 tsc)
{
	u64 den = c->model->leaf15[0], num = c->model->leaf15[1];

	if (!num)
		return 0;
	return (tsc / num) * den + ((tsc % num) * den) / num;
}

/* TSC (TSCEn), TMA (TSCEn and MTCEn), CBR: the timing state. */
static void pts_sim_timing_state(struct pts_sim_cpu *c)
{
	u8 pkt[PTS_PKT_MAX];

	if (c->ctl & RTIT_CTL_TSCEN) {
		pts_sim_emit(c, pkt, pts_pkt_tsc(pkt, c->tsc));
		if (c->ctl & RTIT_CTL_MTCEN)
			pts_sim_emit(c, pkt, pts_pkt_tma(pkt, (u16)pts_sim_ctc(c, c->tsc), 0));
	}
	pts_sim_emit(c, pkt, pts_pkt_cbr(pkt, c->model->nom_ratio));
}

/*
 * PSB+ (33.4.2.17 and 33.3.7 "PSB+"): PSB, TSC, TMA, CBR, PIP (OS = 1
 * and ContextEn), then while PacketEn is 1 MODE.Exec and a FUP of the
 * next instruction, PSBEND.
 * Pending TNT bits go out first. Resets PacketByteCnt, the last IP and
 * RET compression (33.2.1.2: only RETs of CALLs seen since the last PSB
 * are compressed).
 */
static void pts_sim_psb_plus(struct pts_sim_cpu *c)
{
	u8 pkt[PTS_PKT_MAX];

	pts_sim_tnt_flush(c);
	c->byte_cnt = 0;
	c->calls_since_psb = 0;
	c->mode_since_psb = false;
	pts_sim_emit(c, pkt, pts_pkt_psb(pkt, &c->ip_state));
	pts_sim_timing_state(c);
	/* PIP of the current CR3 when OS = 1 and ContextEn (33.4.2.7). */
	if ((c->ctl & RTIT_CTL_OS) && pts_sim_context_en(c, c->in_user, c->cr3))
		pts_sim_emit(c, pkt, pts_pkt_pip(pkt, c->cr3));
	if (c->packet_en) {
		pts_sim_emit(c, pkt, pts_pkt_mode_exec64(pkt));
		c->mode_since_psb = true;
		pts_sim_emit(c, pkt, pts_pkt_ip(pkt, &c->ip_state, PTS_PKT_FUP, c->cur_ip, false));
	}
	pts_sim_emit(c, pkt, pts_pkt_psbend(pkt));
}

/* A PSB+ is due once PacketByteCnt reaches 2 KiB << PSBFreq. */
static void pts_sim_psb_check(struct pts_sim_cpu *c)
{
	unsigned int freq = rtit_ctl_field_get(c->ctl, RTIT_CTL_PSBFREQ_MASK,
					       RTIT_CTL_PSBFREQ_SHIFT);

	if (c->byte_cnt >= pts_sim_psb_period(freq))
		pts_sim_psb_plus(c);
}

static void pts_sim_tnt(struct pts_sim_cpu *c, bool taken)
{
	pts_sim_psb_check(c);
	c->tnt_bits = (u8)((c->tnt_bits << 1) | taken);
	if (++c->tnt_count == 6)
		pts_sim_tnt_flush(c);
}

static void pts_sim_ip_pkt(struct pts_sim_cpu *c, u8 header, u64 ip, bool suppressed)
{
	u8 pkt[PTS_PKT_MAX];

	pts_sim_tnt_flush(c);
	pts_sim_emit(c, pkt, pts_pkt_ip(pkt, &c->ip_state, header, ip, suppressed));
}

/*
 * TIP.PGE at ip, preceded by MODE.Exec when none was sent since the last
 * PSB (the mode never changes: 64-bit code only), as the SDM's packet
 * generation scenarios (33.7) have it.
 */
static void pts_sim_pge(struct pts_sim_cpu *c, u64 ip)
{
	u8 pkt[PTS_PKT_MAX];

	if (!c->mode_since_psb) {
		pts_sim_emit(c, pkt, pts_pkt_mode_exec64(pkt));
		c->mode_since_psb = true;
	}
	pts_sim_ip_pkt(c, PTS_PKT_TIP_PGE, ip, false);
}

/*
 * A CR3 write (always at CPL 0). PIP(new CR3) when it changes the value
 * and TriggerEn && ContextEn && OS hold afterwards, ContextEn evaluated
 * for ring 0 with the new CR3 (33.4.2.7 "PIP", dependencies; 33.7's
 * "MOV to CR3" rows: no PIP when the write clears ContextEn). NR is 0:
 * the model is never in VMX non-root operation.
 */
static void pts_sim_load_cr3(struct pts_sim_cpu *c, u64 cr3)
{
	u8 pkt[PTS_PKT_MAX];

	if (cr3 == c->cr3)
		return;
	c->cr3 = cr3;
	if (!pts_sim_output_on(c) || !pts_sim_context_en(c, false, cr3))
		return;
	pts_sim_psb_check(c);
	pts_sim_tnt_flush(c);
	pts_sim_emit(c, pkt, pts_pkt_pip(pkt, cr3));
}

/*
 * TraceStop (33.2.4.3, 33.4.2.10): the IP reached a TraceStop range with
 * ContextEn = 1. TriggerEn clears (TIP.PGD with the target IP first when
 * PacketEn was 1, as the SDM's packet generation table has it), the
 * TraceStop packet follows, STATUS.Stopped is set and nothing more is
 * written until software clears it.
 */
static void pts_sim_tracestop(struct pts_sim_cpu *c, u64 ip)
{
	u8 pkt[PTS_PKT_MAX];

	if (c->packet_en)
		pts_sim_ip_pkt(c, PTS_PKT_TIP_PGD, ip, false);
	pts_sim_tnt_flush(c);
	pts_sim_emit(c, pkt, pts_pkt_tracestop(pkt));
	c->status |= RTIT_STATUS_STOPPED;
	c->packet_en = false;
	c->region_valid = false;
}

/* Kinds of control transfer in the code images. */
enum pts_sim_br {
	PTS_SIM_BR_CALL,	/* call rel32: no packet while PacketEn stays 1 */
	PTS_SIM_BR_JMP,		/* jmp rel8: no packet while PacketEn stays 1 */
	PTS_SIM_BR_COND,	/* jnz: one TNT bit */
	PTS_SIM_BR_RET,		/* ret: a compressed TNT bit or a TIP */
	PTS_SIM_BR_INDIRECT,	/* jmp *%rax: TIP */
	PTS_SIM_BR_FAR,		/* syscall/sysretq, or entry from untraced code */
};

/*
 * One control transfer to `target` in ring `user`, with the packets the
 * PacketEn transition calls for (PacketEn = TriggerEn && ContextEn &&
 * FilterEn && BranchEn, 33.2.5; BranchEn is 1 here):
 *  - 1 -> 1: the branch's own packet (33.4.2: TNT, TIP; none for a
 *    direct call);
 *  - 1 -> 0: TIP.PGD, its IP suppressed when ContextEn cleared (a ring
 *    change, 33.2.5.3), the target IP when FilterEn cleared (33.2.5.5:
 *    direct and indirect branches leaving a filter range carry it);
 *  - 0 -> 1: TIP.PGE(target) (33.4.2.3);
 *  - TraceStop when the target is in a TraceStop range and ContextEn is 1.
 * A far transfer loads its ring's CR3 first (PIP: pts_sim_load_cr3).
 * FilterEn is evaluated at branch targets only: the images' functions
 * are entered and left by branches, so a range that starts and ends on
 * function boundaries is exact; linear flow across a boundary inside a
 * function is not modelled (docs/simulated-unit.md).
 */
static void pts_sim_branch(struct pts_sim_cpu *c, enum pts_sim_br kind, u64 target,
			   bool user, bool taken)
{
	bool before, ctx_en, after;

	if (kind == PTS_SIM_BR_FAR) {
		pts_sim_load_cr3(c, pts_sim_ring_cr3(c, user));
		c->in_user = user;
	}
	if (!pts_sim_output_on(c)) {
		c->packet_en = false;
		c->cur_ip = target;
		return;
	}
	/* A PSB+ due here names the block the branch ends (FUP of cur_ip). */
	pts_sim_psb_check(c);
	c->cur_ip = target;
	before = c->packet_en;
	ctx_en = pts_sim_context_en(c, c->in_user, c->cr3);
	c->filter_en = pts_sim_filter_en(c, target);
	after = ctx_en && c->filter_en;
	if (ctx_en && pts_sim_in_tracestop(c, target)) {
		if (before && kind == PTS_SIM_BR_COND)
			pts_sim_tnt(c, taken);
		pts_sim_tracestop(c, target);
		return;
	}
	if (before && after) {
		switch (kind) {
		case PTS_SIM_BR_CALL:
			c->calls_since_psb++;
			break;
		case PTS_SIM_BR_JMP:
			break;
		case PTS_SIM_BR_COND:
			pts_sim_tnt(c, taken);
			break;
		case PTS_SIM_BR_RET:
			/* 33.4.2.1 "RET compression": CALLs seen since the last PSB. */
			if (!(c->ctl & RTIT_CTL_DISRETC) && c->calls_since_psb) {
				c->calls_since_psb--;
				pts_sim_tnt(c, true);
				break;
			}
			if (c->calls_since_psb)
				c->calls_since_psb--;
			pts_sim_ip_pkt(c, PTS_PKT_TIP, target, false);
			break;
		default:
			pts_sim_ip_pkt(c, PTS_PKT_TIP, target, false);
			break;
		}
	} else if (before) {
		if (kind == PTS_SIM_BR_COND)
			pts_sim_tnt(c, taken);
		pts_sim_ip_pkt(c, PTS_PKT_TIP_PGD, target, !ctx_en);
	} else if (after) {
		pts_sim_pge(c, target);
	}
	c->packet_en = after;
}

/*
 * One pass of an image's function from its entry to the far branch at
 * PTS_SIM_OFF_FAR: three calls of the leaf, then the indirect jump to
 * the exit stub.
 */
static void pts_sim_run_function(struct pts_sim_cpu *c, u64 base, bool user)
{
	bool again;
	int i;

	for (i = 0; i < PTS_SIM_LOOP_COUNT; i++) {
		pts_sim_branch(c, PTS_SIM_BR_CALL, base + PTS_SIM_OFF_LEAF, user, true);
		pts_sim_branch(c, PTS_SIM_BR_RET, base + PTS_SIM_OFF_DEC, user, true);
		again = i + 1 < PTS_SIM_LOOP_COUNT;
		pts_sim_branch(c, PTS_SIM_BR_COND,
			       base + (again ? PTS_SIM_OFF_CALL : PTS_SIM_OFF_LEA), user, again);
	}
	/* lea; jmp *%rax */
	pts_sim_branch(c, PTS_SIM_BR_INDIRECT, base + PTS_SIM_OFF_EXIT, user, true);
	c->cur_ip = base + PTS_SIM_OFF_FAR;
}

/*
 * The context the tick runs in changed (a context switch since the last
 * tick): its CR3 was written at CPL 0 (PIP: pts_sim_load_cr3). That ran
 * in code outside the images (an interrupt, the scheduler), so while
 * PacketEn is 1 (both rings traced, the program standing at the user
 * resume point) the trace first leaves the images there: an asynchronous
 * disable, FUP of where the program stands and TIP.PGD without IP, as at
 * a stop. The next round enters again by TIP.PGE. A PIP inside straight
 * code of the images would bind to no instruction a decoder can see.
 */
static void pts_sim_switch_context(struct pts_sim_cpu *c)
{
	u64 cr3 = pts_sim_ring_cr3(c, c->in_user);
	u8 pkt[PTS_PKT_MAX];

	if (cr3 == c->cr3)
		return;
	if (c->packet_en && pts_sim_output_on(c)) {
		pts_sim_psb_check(c);
		pts_sim_tnt_flush(c);
		pts_sim_emit(c, pkt, pts_pkt_ip(pkt, &c->ip_state, PTS_PKT_FUP, c->cur_ip, false));
		pts_sim_emit(c, pkt, pts_pkt_ip(pkt, &c->ip_state, PTS_PKT_TIP_PGD, 0, true));
	}
	c->packet_en = false;
	pts_sim_load_cr3(c, cr3);
}

/* The packets of one round (docs/simulated-unit.md, "Timeline"). */
static void pts_sim_round(struct pts_sim_cpu *c)
{
	u64 user = c->user_base, kern = c->kernel_base;
	bool trace_user = c->ctl & RTIT_CTL_USER;
	bool trace_os = c->ctl & RTIT_CTL_OS;

	if (!(c->ctl & RTIT_CTL_BRANCHEN) || !(trace_user || trace_os))
		return;
	pts_sim_switch_context(c);
	/* The program is user code and its system calls: not in a kernel thread. */
	if ((c->ctl & RTIT_CTL_CR3FILTER) && c->ctx.no_user)
		return;
	if (trace_user && trace_os) {
		/* Both rings: user code, syscall, kernel code, sysret. */
		if (!c->packet_en)
			pts_sim_branch(c, PTS_SIM_BR_FAR, user + PTS_SIM_OFF_RESUME, true, true);
		pts_sim_branch(c, PTS_SIM_BR_JMP, user + PTS_SIM_OFF_ENTRY, true, true);
		pts_sim_run_function(c, user, true);
		pts_sim_branch(c, PTS_SIM_BR_FAR, kern + PTS_SIM_OFF_ENTRY, false, true);
		pts_sim_run_function(c, kern, false);
		pts_sim_branch(c, PTS_SIM_BR_FAR, user + PTS_SIM_OFF_RESUME, true, true);
	} else if (trace_user) {
		/* Back from the kernel at the resume point, out again by syscall. */
		pts_sim_branch(c, PTS_SIM_BR_FAR, user + PTS_SIM_OFF_RESUME, true, true);
		pts_sim_branch(c, PTS_SIM_BR_JMP, user + PTS_SIM_OFF_ENTRY, true, true);
		pts_sim_run_function(c, user, true);
		pts_sim_branch(c, PTS_SIM_BR_FAR, kern + PTS_SIM_OFF_ENTRY, false, true);
	} else {
		/* Kernel entry from untraced user space, back out by sysretq. */
		pts_sim_branch(c, PTS_SIM_BR_FAR, kern + PTS_SIM_OFF_ENTRY, false, true);
		pts_sim_run_function(c, kern, false);
		pts_sim_branch(c, PTS_SIM_BR_FAR, user + PTS_SIM_OFF_RESUME, true, true);
	}
}

/*
 * Internal buffer overflow (33.4.2.16 "OVF"): the packets of the lost
 * rounds never reach the output; when the overflow resolves the unit
 * writes OVF and, if PacketEn is 1 at that point, a FUP with the IP
 * tracing resumes at. Whatever state the lost packets carried is
 * written again as if none had been sent: the FUP (and the next IP
 * packet) with a full IP, MODE.Exec before the next TIP.PGE (it may have
 * gone out only in the lost bytes), RET compression restarted.
 */
static void pts_sim_overflow_end(struct pts_sim_cpu *c)
{
	u8 pkt[PTS_PKT_MAX];

	c->lost = false;
	c->tnt_bits = 0;
	c->tnt_count = 0;
	c->calls_since_psb = 0;
	c->mode_since_psb = false;
	pts_pkt_ip_reset(&c->ip_state);
	if (!pts_sim_output_on(c))
		return;
	pts_sim_emit(c, pkt, pts_pkt_ovf(pkt));
	c->overflows++;
	if (c->packet_en)
		pts_sim_emit(c, pkt, pts_pkt_ip(pkt, &c->ip_state, PTS_PKT_FUP, c->cur_ip, false));
}

bool pts_sim_tick(struct pts_sim_cpu *c, u64 tsc)
{
	u8 pkt[PTS_PKT_MAX];

	if (!(c->ctl & RTIT_CTL_TRACEEN))
		return false;
	c->tsc = tsc;
	if (!pts_sim_output_on(c))
		return true;
	if (c->lose_rounds)
		c->lost = true;
	pts_sim_psb_check(c);
	/* Timing first: the CPU wakes from the idle time between ticks. */
	if (c->ctl & RTIT_CTL_TSCEN)
		pts_sim_emit(c, pkt, pts_pkt_tsc(pkt, tsc));
	if (c->ctl & RTIT_CTL_MTCEN) {
		unsigned int f = rtit_ctl_field_get(c->ctl, RTIT_CTL_MTCFREQ_MASK,
						    RTIT_CTL_MTCFREQ_SHIFT);

		pts_sim_emit(c, pkt, pts_pkt_mtc(pkt, (u8)(pts_sim_ctc(c, tsc) >> f)));
	}
	pts_sim_round(c);
	if (c->lost && !--c->lose_rounds)
		pts_sim_overflow_end(c);
	c->rounds++;
	return true;
}

void pts_sim_set_ctx(struct pts_sim_cpu *c, const struct pts_sim_ctx *ctx)
{
	c->ctx = *ctx;
}

void pts_sim_inject_overflow(struct pts_sim_cpu *c, u32 rounds)
{
	c->lose_rounds = rounds;
}

/* ---- TraceEn transitions ------------------------------------------- */

static void pts_sim_enable(struct pts_sim_cpu *c, u64 tsc)
{
	c->tsc = tsc;
	c->packet_en = false;
	c->tnt_bits = 0;
	c->tnt_count = 0;
	c->calls_since_psb = 0;
	c->mode_since_psb = false;
	c->region_valid = false;
	c->lost = false;
	/* The enabling WRMSR runs in ring 0 under the context's kernel CR3. */
	c->in_user = false;
	c->cr3 = c->ctx.kernel_cr3;
	c->filter_en = true;
	pts_pkt_ip_reset(&c->ip_state);
	/* Stopped or Error still set: no output until software clears them. */
	if (c->status & (RTIT_STATUS_ERROR | RTIT_STATUS_STOPPED))
		return;
	if (!pts_sim_topa_start(c))
		return;
	/*
	 * TraceEn 0 -> 1 (33.2.7.3): a full PSB+ when PacketByteCnt is 0,
	 * otherwise only the timing packets.
	 */
	if (c->byte_cnt == 0)
		pts_sim_psb_plus(c);
	else
		pts_sim_timing_state(c);
}

/*
 * TraceEn 1 -> 0 while the simulated program is inside traced code:
 * the disable shows as asynchronous (FUP of the next instruction, then
 * TIP.PGD without IP), which is how a decoder sees tracing end at an
 * instruction that is not a branch.
 */
static void pts_sim_disable(struct pts_sim_cpu *c)
{
	u8 pkt[PTS_PKT_MAX];

	if (pts_sim_output_on(c)) {
		pts_sim_tnt_flush(c);
		if (c->packet_en && (c->ctl & RTIT_CTL_BRANCHEN)) {
			pts_sim_emit(c, pkt, pts_pkt_ip(pkt, &c->ip_state, PTS_PKT_FUP,
							c->cur_ip, false));
			pts_sim_emit(c, pkt, pts_pkt_ip(pkt, &c->ip_state, PTS_PKT_TIP_PGD,
							0, true));
		}
	}
	c->packet_en = false;
	c->region_valid = false;
}

/* ---- MSRs (33.2.8) ------------------------------------------------- */

static int pts_sim_gp(struct pts_sim_cpu *c, enum pts_sim_gp gp)
{
	c->last_gp = gp;
	return -EIO;
}

/*
 * RTIT_CTL value checks of 33.2.8.2 / table 33-6 ("IA32_RTIT_CTL MSR"),
 * each a #GP at WRMSR; the CPUID bits are those of 33.3.1 (leaf 14H).
 */
static enum pts_sim_gp pts_sim_ctl_check(const struct pts_sim_model *m, u64 v)
{
	u32 ebx = m->leaf14_0[1], ecx = m->leaf14_0[2];
	unsigned int n;

	/* Table 33-6: every bit not defined there is reserved. */
	if (v & RTIT_CTL_RESERVED_MASK)
		return PTS_SIM_GP_CTL_RESERVED;
	/* 33.2.8.2 CYCEn, CycThresh, PSBFreq: 14H.0:EBX[1] and 14H.1:EBX. */
	if (!(ebx & PT_CPUID_EBX_PSB_CYC)) {
		if (v & (RTIT_CTL_CYCEN | RTIT_CTL_CYCTHRESH_MASK | RTIT_CTL_PSBFREQ_MASK))
			return PTS_SIM_GP_CTL_NO_PSB_CYC;
	} else {
		if (!pt_encoding_allowed(pt_cpuid_cyc_bitmap(m->leaf14_1[1]),
					 rtit_ctl_field_get(v, RTIT_CTL_CYCTHRESH_MASK,
							    RTIT_CTL_CYCTHRESH_SHIFT), 1))
			return PTS_SIM_GP_CTL_CYC_THRESH;
		if (!pt_encoding_allowed(pt_cpuid_psb_bitmap(m->leaf14_1[1]),
					 rtit_ctl_field_get(v, RTIT_CTL_PSBFREQ_MASK,
							    RTIT_CTL_PSBFREQ_SHIFT), 1))
			return PTS_SIM_GP_CTL_PSB_FREQ;
	}
	/* 33.2.8.2 MTCEn, MTCFreq: 14H.0:EBX[3] and 14H.1:EAX[31:16]. */
	if (!(ebx & PT_CPUID_EBX_MTC)) {
		if (v & (RTIT_CTL_MTCEN | RTIT_CTL_MTCFREQ_MASK))
			return PTS_SIM_GP_CTL_NO_MTC;
	} else if (!pt_encoding_allowed(pt_cpuid_mtc_bitmap(m->leaf14_1[0]),
					rtit_ctl_field_get(v, RTIT_CTL_MTCFREQ_MASK,
							   RTIT_CTL_MTCFREQ_SHIFT), 0)) {
		return PTS_SIM_GP_CTL_MTC_FREQ;
	}
	/* 33.2.8.2 PTWEn, FUPonPTW, PwrEvtEn, CR3Filter: their CPUID bits. */
	if ((v & (RTIT_CTL_PTWEN | RTIT_CTL_FUPONPTW)) && !(ebx & PT_CPUID_EBX_PTWRITE))
		return PTS_SIM_GP_CTL_NO_PTWRITE;
	if ((v & RTIT_CTL_PWREVTEN) && !(ebx & PT_CPUID_EBX_POWER_EVENT))
		return PTS_SIM_GP_CTL_NO_PWR_EVT;
	if ((v & RTIT_CTL_CR3FILTER) && !(ebx & PT_CPUID_EBX_CR3_FILTER))
		return PTS_SIM_GP_CTL_NO_CR3_FILTER;
	/* 33.2.8.2 ADDRn_CFG: n < 14H.1:EAX[2:0], encodings 0..2 (33.2.4.3). */
	for (n = 0; n < 4; n++) {
		u64 cfg = rtit_ctl_field_get(v, RTIT_CTL_ADDR_CFG_MASK(n),
					     RTIT_CTL_ADDR_CFG_SHIFT(n));

		if (!cfg)
			continue;
		if (n >= pts_sim_nr_ranges(m))
			return PTS_SIM_GP_CTL_ADDR_RANGE;
		if (cfg > RTIT_ADDR_CFG_STOP)
			return PTS_SIM_GP_CTL_ADDR_CFG;
	}
	/* 33.2.8.2 EventEn, DisTNT, InjectPsbPmiOnEnable, FabricEn, ToPA. */
	if ((v & RTIT_CTL_EVENTEN) && !(ebx & PT_CPUID_EBX_EVENT_TRACE))
		return PTS_SIM_GP_CTL_NO_EVENT_TRACE;
	if ((v & RTIT_CTL_DISTNT) && !(ebx & PT_CPUID_EBX_TNT_DISABLE))
		return PTS_SIM_GP_CTL_NO_TNT_DISABLE;
	if ((v & RTIT_CTL_INJECTPSBPMI) && !(ebx & PT_CPUID_EBX_PSB_PMI_PRESERVE))
		return PTS_SIM_GP_CTL_NO_PSB_PMI;
	if ((v & RTIT_CTL_FABRICEN) && !(ecx & PT_CPUID_ECX_TRANSPORT))
		return PTS_SIM_GP_CTL_NO_TRANSPORT;
	if ((v & RTIT_CTL_TOPA) && !(ecx & PT_CPUID_ECX_TOPA))
		return PTS_SIM_GP_CTL_NO_TOPA;
	/* 33.2.7.1: TraceEn with ToPA = 0 selects single-range output. */
	if ((v & RTIT_CTL_TRACEEN) && !(v & RTIT_CTL_TOPA) &&
	    !(ecx & PT_CPUID_ECX_SINGLE_RANGE))
		return PTS_SIM_GP_CTL_NO_SINGLE_RANGE;
	return PTS_SIM_GP_NONE;
}

/*
 * WRMSR IA32_RTIT_CTL (33.2.8.2 "IA32_RTIT_CTL MSR"):
 *  - while TraceEn = 1, a write that changes any bit #GPs unless the same
 *    write also clears TraceEn; a write of the identical value does not
 *    #GP and changes nothing (33.2.8.2, TraceEn). A write that clears
 *    TraceEn may change every other bit at once: that is how another
 *    owner (perf's pt_config_stop()) stops with its own value;
 *  - the value itself must pass table 33-6's checks whatever TraceEn
 *    was before (reserved bits, CPUID-gated fields, encodings:
 *    pts_sim_ctl_check());
 *  - TraceEn 0 -> 1 starts output (33.2.7.3), 1 -> 0 ends it.
 */
static int pts_sim_write_ctl(struct pts_sim_cpu *c, u64 v, u64 tsc)
{
	enum pts_sim_gp gp;

	if (c->ctl & RTIT_CTL_TRACEEN) {
		if (v == c->ctl)
			return 0;
		if (v & RTIT_CTL_TRACEEN)
			return pts_sim_gp(c, PTS_SIM_GP_CTL_CHANGE_ENABLED);
	}
	gp = pts_sim_ctl_check(c->model, v);
	if (gp)
		return pts_sim_gp(c, gp);
	if (c->ctl & RTIT_CTL_TRACEEN) {
		/* The disable's packets follow the value tracing ran with. */
		pts_sim_disable(c);
		c->ctl = v;
		return 0;
	}
	c->ctl = v;
	if (v & RTIT_CTL_TRACEEN)
		pts_sim_enable(c, tsc);
	return 0;
}

/*
 * IA32_DEBUGCTL bits a Skylake defines (SDM vol. 3B 18.4.1 and 18.15.1:
 * LBR, BTF, then TR to RTM_DEBUG at 6-15); the others are reserved, #GP.
 */
#define PTS_SIM_DEBUGCTL_DEFINED	0xffc3ULL

/* Bits software may write in RTIT_STATUS (table 33-7); 2:0 are read-only. */
#define PTS_SIM_STATUS_WRITABLE						\
	(RTIT_STATUS_ERROR | RTIT_STATUS_STOPPED | RTIT_STATUS_PENDPSB |	\
	 RTIT_STATUS_PENDTOPAPMI | RTIT_STATUS_BYTECNT_MASK)
#define PTS_SIM_STATUS_READONLY						\
	(RTIT_STATUS_FILTEREN | RTIT_STATUS_CONTEXTEN | RTIT_STATUS_TRIGGEREN)

static bool pts_sim_addr_msr(const struct pts_sim_cpu *c, u32 msr, unsigned int *slot)
{
	if (msr < RTIT_MSR_ADDR_A(0) || msr > RTIT_MSR_ADDR_B(3))
		return false;
	*slot = msr - RTIT_MSR_ADDR_A(0);
	return true;
}

static bool pts_sim_rtit_msr(u32 msr)
{
	return msr == RTIT_MSR_OUTPUT_BASE || msr == RTIT_MSR_OUTPUT_MASK_PTRS ||
	       msr == RTIT_MSR_CTL || msr == RTIT_MSR_STATUS ||
	       msr == RTIT_MSR_CR3_MATCH ||
	       (msr >= RTIT_MSR_ADDR_A(0) && msr <= RTIT_MSR_ADDR_B(3));
}

int pts_sim_rdmsr(struct pts_sim_cpu *c, u32 msr, u64 *val)
{
	const struct pts_sim_model *m = c->model;
	unsigned int slot;
	u64 v;

	c->last_gp = PTS_SIM_GP_NONE;
	switch (msr) {
	case RTIT_MSR_PLATFORM_INFO:
		*val = (u64)m->nom_ratio << 8;
		return 0;
	case RTIT_MSR_CTL:
		*val = c->ctl;
		return 0;
	case RTIT_MSR_STATUS:
		v = c->status | ((u64)c->byte_cnt << RTIT_STATUS_BYTECNT_SHIFT);
		if (pts_sim_output_on(c))
			v |= RTIT_STATUS_TRIGGEREN;
		if (pts_sim_output_on(c) && c->filter_en)
			v |= RTIT_STATUS_FILTEREN;
		if (pts_sim_output_on(c) && c->packet_en)
			v |= RTIT_STATUS_CONTEXTEN;
		*val = v;
		return 0;
	case RTIT_MSR_OUTPUT_BASE:
		*val = c->output_base;
		return 0;
	case RTIT_MSR_OUTPUT_MASK_PTRS:
		*val = rtit_omp_encode(c->table_index, c->output_offset);
		return 0;
	case RTIT_MSR_CR3_MATCH:
		if (!(m->leaf14_0[1] & PT_CPUID_EBX_CR3_FILTER))
			return pts_sim_gp(c, PTS_SIM_GP_NO_CR3_MSR);
		*val = c->cr3_match;
		return 0;
	case RTIT_MSR_DEBUGCTL:
		*val = c->debugctl;
		return 0;
	default:
		break;
	}
	if (pts_sim_addr_msr(c, msr, &slot)) {
		if (slot / 2 >= pts_sim_nr_ranges(m))
			return pts_sim_gp(c, PTS_SIM_GP_NO_ADDR_MSR);
		*val = c->addr[slot];
		return 0;
	}
	return pts_sim_gp(c, PTS_SIM_GP_UNKNOWN_MSR);
}

int pts_sim_wrmsr(struct pts_sim_cpu *c, u32 msr, u64 val, u64 tsc)
{
	const struct pts_sim_model *m = c->model;
	u64 phys_top = ~topa_base_mask(m->maxphyaddr) & ~0xfffULL;
	unsigned int slot;

	c->last_gp = PTS_SIM_GP_NONE;
	if (msr == RTIT_MSR_DEBUGCTL) {
		if (val & ~PTS_SIM_DEBUGCTL_DEFINED)
			return pts_sim_gp(c, PTS_SIM_GP_DEBUGCTL_RESERVED);
		c->debugctl = val;
		return 0;
	}
	if (!pts_sim_rtit_msr(msr))
		return pts_sim_gp(c, PTS_SIM_GP_UNKNOWN_MSR);
	if (msr == RTIT_MSR_CTL)
		return pts_sim_write_ctl(c, val, tsc);
	/*
	 * 33.2.8.4-33.2.8.8 (STATUS, ADDRn, CR3_MATCH, OUTPUT_BASE,
	 * OUTPUT_MASK_PTRS): a write while TraceEn = 1 #GPs. Reads never do.
	 */
	if (c->ctl & RTIT_CTL_TRACEEN)
		return pts_sim_gp(c, PTS_SIM_GP_TRACEEN_SET);
	switch (msr) {
	case RTIT_MSR_STATUS:
		/* 33.2.8.4 table 33-7: reserved bits #GP, bits 2:0 read-only. */
		if (val & ~(PTS_SIM_STATUS_WRITABLE | PTS_SIM_STATUS_READONLY))
			return pts_sim_gp(c, PTS_SIM_GP_STATUS_RESERVED);
		c->status = val & (PTS_SIM_STATUS_WRITABLE & ~RTIT_STATUS_BYTECNT_MASK);
		c->byte_cnt = rtit_status_bytecnt(val);
		return 0;
	case RTIT_MSR_OUTPUT_BASE:
		/* 33.2.8.7: bits 6:0 and bits at or above MAXPHYADDR #GP. */
		if ((val & 0x7f) || (val & phys_top))
			return pts_sim_gp(c, PTS_SIM_GP_OUTPUT_BASE);
		c->output_base = val;
		return 0;
	case RTIT_MSR_OUTPUT_MASK_PTRS:
		c->table_index = rtit_omp_entry_index(val);
		c->output_offset = rtit_omp_output_offset(val);
		return 0;
	case RTIT_MSR_CR3_MATCH:
		/* 33.2.8.6: needs 14H.0:EBX[0]; bits 4:0 and >= MAXPHYADDR #GP. */
		if (!(m->leaf14_0[1] & PT_CPUID_EBX_CR3_FILTER))
			return pts_sim_gp(c, PTS_SIM_GP_NO_CR3_MSR);
		if ((val & RTIT_CR3_MATCH_RESERVED_MASK) || (val & phys_top))
			return pts_sim_gp(c, PTS_SIM_GP_CR3_MATCH);
		c->cr3_match = val;
		return 0;
	default:
		break;
	}
	/* 33.2.8.5: ADDRn exists for n < 14H.1:EAX[2:0]; values canonical. */
	slot = msr - RTIT_MSR_ADDR_A(0);
	if (slot / 2 >= pts_sim_nr_ranges(m))
		return pts_sim_gp(c, PTS_SIM_GP_NO_ADDR_MSR);
	if (!pt_addr_is_canonical(val, m->va_bits))
		return pts_sim_gp(c, PTS_SIM_GP_ADDR_NONCANONICAL);
	c->addr[slot] = val;
	return 0;
}
