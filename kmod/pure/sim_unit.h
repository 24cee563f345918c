/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulated PT unit's model: one model CPU's CPUID answers, and per
 * CPU the RTIT MSRs, the SDM's write rules (#GP), ToPA output and the
 * packet stream it writes. Pure C (see pure.h): the kernel glue
 * (kmod/sim_kernel.c) and the host tests supply the physical memory
 * accessor and the TSC. docs/simulated-unit.md lists what is modelled
 * and what is not.
 *
 * SDM references are to Intel SDM vol. 3C, chapter 33 "Intel Processor
 * Trace": 33.2.7 (ToPA), 33.2.8 (MSRs and their #GP rules), 33.3.1
 * (CPUID leaf 14H), 33.4 (packets), 33.2.4 (CPL, CR3 and IP filtering,
 * TraceStop), 33.2.5 (the enables: ContextEn, FilterEn, PacketEn).
 *
 * Context: every function acts on one struct pts_sim_cpu, which its
 * caller serialises (the kernel glue: IRQs off on the owning CPU).
 */
#ifndef PTSCOPE_SIM_UNIT_H
#define PTSCOPE_SIM_UNIT_H

#include "pure.h"
#include "sim_packets.h"

/* The model CPU: what CPUID and MSR_PLATFORM_INFO say about it. */
struct pts_sim_model {
	const char *name;
	u32 max_leaf;		/* CPUID.0:EAX */
	u32 signature;		/* CPUID.1:EAX (family/model/stepping) */
	u32 leaf14_0[4];	/* CPUID.(14H,0) EAX EBX ECX EDX */
	u32 leaf14_1[4];	/* CPUID.(14H,1) EAX EBX ECX EDX */
	u32 leaf15[3];		/* CPUID.15H EAX EBX ECX */
	u32 leaf16[3];		/* CPUID.16H EAX EBX ECX (MHz) */
	u8 maxphyaddr;		/* CPUID.80000008H:EAX[7:0], bits */
	u8 va_bits;		/* CPUID.80000008H:EAX[15:8], bits */
	u8 nom_ratio;		/* MSR_PLATFORM_INFO[15:8] */
};

/* A Skylake-SP-like CPU, family 6 model 0x55 stepping 4 (see the docs). */
extern const struct pts_sim_model pts_sim_model_skx;

/*
 * Physical memory as the unit sees it: map() returns a pointer to `len`
 * contiguous bytes at physical address `pa`, or NULL when that is not
 * memory the model may touch (the unit then sets STATUS.Error).
 */
struct pts_sim_mem {
	void *(*map)(void *ctx, u64 pa, u64 len);
	void *ctx;
};

/* Why the last MSR access faulted (#GP, returned as -EIO). */
enum pts_sim_gp {
	PTS_SIM_GP_NONE = 0,
	PTS_SIM_GP_UNKNOWN_MSR,		/* not an MSR of the model */
	PTS_SIM_GP_TRACEEN_SET,		/* non-CTL RTIT write while TraceEn = 1 */
	PTS_SIM_GP_CTL_CHANGE_ENABLED,	/* CTL change other than clearing TraceEn */
	PTS_SIM_GP_CTL_RESERVED,	/* a reserved RTIT_CTL bit set */
	PTS_SIM_GP_CTL_NO_PSB_CYC,	/* CYCEn/CycThresh/PSBFreq, no 14H.0:EBX[1] */
	PTS_SIM_GP_CTL_CYC_THRESH,	/* CycThresh not in 14H.1:EBX[15:0] */
	PTS_SIM_GP_CTL_PSB_FREQ,	/* PSBFreq not in 14H.1:EBX[31:16] */
	PTS_SIM_GP_CTL_NO_MTC,		/* MTCEn/MTCFreq without 14H.0:EBX[3] */
	PTS_SIM_GP_CTL_MTC_FREQ,	/* MTCFreq not in 14H.1:EAX[31:16] */
	PTS_SIM_GP_CTL_NO_PTWRITE,	/* PTWEn/FUPonPTW without 14H.0:EBX[4] */
	PTS_SIM_GP_CTL_NO_PWR_EVT,	/* PwrEvtEn without 14H.0:EBX[5] */
	PTS_SIM_GP_CTL_NO_CR3_FILTER,	/* CR3Filter without 14H.0:EBX[0] */
	PTS_SIM_GP_CTL_ADDR_RANGE,	/* ADDRn_CFG != 0 for n >= range count */
	PTS_SIM_GP_CTL_ADDR_CFG,	/* ADDRn_CFG encoding > 2 */
	PTS_SIM_GP_CTL_NO_EVENT_TRACE,	/* EventEn without 14H.0:EBX[7] */
	PTS_SIM_GP_CTL_NO_TNT_DISABLE,	/* DisTNT without 14H.0:EBX[8] */
	PTS_SIM_GP_CTL_NO_PSB_PMI,	/* InjectPsbPmiOnEnable without 14H.0:EBX[6] */
	PTS_SIM_GP_CTL_NO_TRANSPORT,	/* FabricEn without 14H.0:ECX[3] */
	PTS_SIM_GP_CTL_NO_TOPA,		/* ToPA without 14H.0:ECX[0] */
	PTS_SIM_GP_CTL_NO_SINGLE_RANGE,	/* TraceEn, ToPA = 0, no 14H.0:ECX[2] */
	PTS_SIM_GP_STATUS_RESERVED,	/* reserved or read-only STATUS bit set */
	PTS_SIM_GP_OUTPUT_BASE,		/* bits 6:0 or >= MAXPHYADDR set */
	PTS_SIM_GP_CR3_MATCH,		/* bits 4:0 or >= MAXPHYADDR set */
	PTS_SIM_GP_NO_CR3_MSR,		/* CR3_MATCH without 14H.0:EBX[0] */
	PTS_SIM_GP_ADDR_NONCANONICAL,	/* ADDRn_A/B not canonical */
	PTS_SIM_GP_NO_ADDR_MSR,		/* ADDRn_A/B for n >= range count */
	PTS_SIM_GP_DEBUGCTL_RESERVED,	/* IA32_DEBUGCTL bit 2-5 or 16-63 set */
};

/* Text for a #GP reason, for log lines. */
const char *pts_sim_gp_str(enum pts_sim_gp gp);

/* Text for a ToPA error (enum topa_error in rtit.h). */
const char *pts_sim_topa_err_str(enum topa_error err);

/*
 * The context the simulated program runs in on one CPU, as the kernel
 * glue reads it when a tick fires (docs/simulated-unit.md, "Context"):
 * the CR3 the CPU holds while it runs kernel code and user code there
 * (they differ with KPTI), and whether that context has user code at
 * all (not for a kernel thread or the idle task).
 */
struct pts_sim_ctx {
	u64 kernel_cr3;
	u64 user_cr3;
	bool no_user;
};

/* Per-CPU state of the simulated unit. */
struct pts_sim_cpu {
	const struct pts_sim_model *model;
	struct pts_sim_mem mem;
	u64 kernel_base;	/* address of the kernel code image */
	u64 user_base;		/* address of the user code image */

	/* Architectural MSR state (SDM 33.2.8). */
	u64 ctl;
	u64 status;		/* without PacketByteCnt: see byte_cnt */
	u64 output_base;
	u32 table_index;	/* OUTPUT_MASK_PTRS.MaskOrTableOffset >> 3 */
	u32 output_offset;	/* OUTPUT_MASK_PTRS.OutputOffset */
	u64 cr3_match;
	u64 addr[8];		/* ADDR0_A, ADDR0_B, ADDR1_A, ... */
	u32 byte_cnt;		/* STATUS.PacketByteCnt: bytes since the last PSB */
	/*
	 * IA32_DEBUGCTL, stored only: a test sets LBR/TR/BTS in it to play an
	 * LBR or BTS user; the model records no branches and its PT output
	 * does not depend on it (docs/simulated-unit.md, "Another owner").
	 */
	u64 debugctl;

	/* The ToPA entry being written (valid while tracing, no error). */
	bool region_valid;
	u64 region_base;
	u64 region_size;
	bool region_stop;

	/* Packet state. */
	struct pts_pkt_ip ip_state;
	u8 tnt_bits;		/* pending TNT outcomes, oldest in the high bit */
	u8 tnt_count;
	u32 calls_since_psb;	/* RET compression only for calls after the PSB */
	bool mode_since_psb;	/* a MODE.Exec was sent since the last PSB */
	u64 cur_ip;		/* next instruction: the IP a PSB+ FUP gives */
	bool packet_en;		/* between TIP.PGE and TIP.PGD */
	u64 tsc;		/* TSC of the current tick */

	/* Context and filtering (33.2.4). */
	struct pts_sim_ctx ctx;	/* the context of the current tick */
	u64 cr3;		/* CR3 the model CPU holds now (last PIP value) */
	bool in_user;		/* the model CPU is in ring 3 */
	bool filter_en;		/* FilterEn at the last branch target */

	/* Overflow injection (33.4.2.16). */
	u32 lose_rounds;	/* rounds still to lose, then OVF */
	bool lost;		/* packets go nowhere (internal buffer full) */
	u64 overflows;		/* OVF packets written */

	/* Diagnostics. */
	enum pts_sim_gp last_gp;
	enum topa_error last_topa_err;
	u64 rounds;		/* completed rounds (one per tick) */
};

/*
 * Reset one CPU's unit to its power-on state: every RTIT MSR 0.
 * kernel_base / user_base: addresses of the code images.
 */
void pts_sim_cpu_init(struct pts_sim_cpu *c, const struct pts_sim_model *model,
		      const struct pts_sim_mem *mem, u64 kernel_base, u64 user_base);

/*
 * CPUID: regs holds the real CPU's EAX..EDX for (leaf, subleaf) on entry;
 * the leaves the model answers are overwritten (0, 1 EAX, 7.0 EBX[25],
 * 14H, 15H, 16H, 80000008H EAX); every other leaf is left as it is.
 */
void pts_sim_cpuid(const struct pts_sim_model *m, u32 leaf, u32 subleaf, u32 regs[4]);

/*
 * RDMSR/WRMSR of the model. Returns 0, or -EIO where the SDM says the
 * instruction raises #GP (reason in c->last_gp). tsc: the current TSC,
 * used for the PSB+ written when a write sets TraceEn.
 */
int pts_sim_rdmsr(struct pts_sim_cpu *c, u32 msr, u64 *val);
int pts_sim_wrmsr(struct pts_sim_cpu *c, u32 msr, u64 val, u64 tsc);

/* TraceEn is set (the glue keeps its tick timer running while true). */
static inline bool pts_sim_tracing(const struct pts_sim_cpu *c)
{
	return c->ctl & RTIT_CTL_TRACEEN;
}

/*
 * One tick: write the packets of one round of the simulated program
 * (docs/simulated-unit.md, "Timeline") at TSC `tsc`. Returns false when
 * TraceEn is clear (nothing written), true otherwise, even when
 * output has stopped (STATUS.Stopped or Error).
 */
bool pts_sim_tick(struct pts_sim_cpu *c, u64 tsc);

/*
 * Context of the next ticks (glue: read on the CPU before each tick and
 * MSR write). A changed CR3 is a context switch: PIP when OS = 1, and
 * CR3 filtering against the new values (33.2.4.2).
 */
void pts_sim_set_ctx(struct pts_sim_cpu *c, const struct pts_sim_ctx *ctx);

/*
 * Overflow injection: the next `rounds` rounds of packets are lost as
 * in an internal buffer overflow, then the unit writes OVF (and a FUP
 * when PacketEn is 1), 33.4.2.16. 0 cancels a pending injection.
 */
void pts_sim_inject_overflow(struct pts_sim_cpu *c, u32 rounds);

/* PSB period in bytes for a PSBFreq encoding: 2 KiB << n (SDM 33.2.8.2). */
static inline u32 pts_sim_psb_period(unsigned int psbfreq)
{
	return 2048U << (psbfreq & 0xf);
}

#endif /* PTSCOPE_SIM_UNIT_H */
