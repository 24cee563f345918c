/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptsynth encoder: turns a stream of retired instructions (IP, class,
 * next IP, ring, time) and asynchronous transfers into the Intel PT
 * packet stream a PT unit would write for them under a given RTIT_CTL,
 * using libipt's packet encoder (pt_enc_next) for the bytes. Every rule
 * cites the SDM, Vol. 3C chapter 33 "Intel Processor Trace"; section
 * numbers follow the 2023+ editions (older editions: chapter 35/36).
 *
 * Alongside the bytes it reports, through a callback, what a correct
 * decoder must give back: each instruction (or that it is lost to an
 * overflow), each disable/enable and each PSB offset. That is the ground
 * truth the self-check compares libipt's instruction decoder against.
 *
 * Units: IPs are linear addresses, time is TSC ticks, sizes are bytes.
 * Rings are CPL values (0 kernel, 3 user).
 */
#ifndef PTSYNTH_ENC_H
#define PTSYNTH_ENC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptsynth_iclass.h"

/*
 * Depth of the RET-compression call stack. SDM §33.4.2.2 ("Indirect
 * Transfer Compression for Returns") leaves the processor's stack depth
 * to the implementation and tells decoders to keep 64 RET targets;
 * libipt's pt_retstack holds 64 as well. We model 64: a RET whose CALL
 * was pushed out of the stack is not compressed.
 */
#define PTSYNTH_RETSTACK_DEPTH	64

/* RTIT_CTL bits ptsynth models (include/ptscope/rtit.h has the layout). */
struct ptsynth_config {
	bool trace_user;	/* RTIT_CTL.User: trace CPL > 0 */
	bool trace_os;		/* RTIT_CTL.OS: trace CPL 0 */
	bool disretc;		/* RTIT_CTL.DisRETC: every RET gets a TIP */
	unsigned int psb_freq;	/* RTIT_CTL.PSBFreq: PSB+ after 2 KiB << psb_freq bytes (0..15) */
	bool tsc_en;		/* RTIT_CTL.TSCEn: TSC in PSB+ */
	bool mtc_en;		/* RTIT_CTL.MTCEn: TMA in PSB+, MTC on ART toggles */
	unsigned int mtc_freq;	/* RTIT_CTL.MTCFreq: MTC every 2^mtc_freq ART ticks */
	bool cyc_en;		/* RTIT_CTL.CYCEn (CycThresh 0): CYC before each
				 * TNT/TIP/FUP packet */
	bool long_tnt;		/* gather up to 47 bits in a long TNT (else short, 6) */
	uint8_t cbr;		/* core:bus ratio reported in CBR (core clock = cbr * 100 MHz) */
	uint8_t nom_freq;	/* MSR_PLATFORM_INFO[15:8]: TSC = nom_freq * 100 MHz */
	uint32_t art_num;	/* CPUID.15H:EBX: TSC = ART * art_num / art_den */
	uint32_t art_den;	/* CPUID.15H:EAX */
	uint64_t ovf_every;	/* 0: off; else an internal-buffer overflow after every
				 * ovf_every traced instructions */
	uint32_t ovf_lost;	/* traced instructions whose packets each overflow loses (>= 1) */
};

/* Fill *c with the defaults: user scope, PSBFreq 0 (2 KiB), TSC + MTC
 * (MTCFreq 3), no CYC, short TNT, Skylake-SP timing (see ptsynth_cpu.h). */
void ptsynth_config_default(struct ptsynth_config *c);

/* The RTIT_CTL value (TraceEn set) that this configuration models:
 * ToPA, BranchEn, TSCEn/MTCEn/MTCFreq/CYCEn, PSBFreq, DisRETC, OS, User. */
uint64_t ptsynth_config_rtit_ctl(const struct ptsynth_config *c);

/* One retired instruction. */
struct ptsynth_insn {
	uint64_t ip;		/* address of the instruction */
	uint64_t next_ip;	/* address of the next instruction executed (branch
				 * target, fall-through, or where the other ring resumed) */
	uint64_t tsc;		/* model time at which it retired, TSC ticks */
	enum ptsynth_iclass iclass;
	uint8_t size;		/* bytes */
	uint8_t ring;		/* CPL it ran at */
	uint8_t next_ring;	/* CPL at next_ip */
};

/* What a correct decoder must report, in order. */
enum ptsynth_gt_kind {
	PTSYNTH_GT_INSN = 'i',		/* instruction executed and decodable */
	PTSYNTH_GT_LOST = 'l',		/* instruction executed, packets lost (OVF) */
	PTSYNTH_GT_ENABLE = 'e',	/* TIP.PGE at ip */
	PTSYNTH_GT_DISABLE = 'd',	/* TIP.PGD at a far transfer (after its insn) */
	PTSYNTH_GT_ASYNC_DISABLE = 'a',	/* FUP(ip) + TIP.PGD: interrupted before ip */
	PTSYNTH_GT_ASYNC = 'b',		/* FUP(ip) + TIP(target): traced async branch */
	PTSYNTH_GT_OVERFLOW = 'o',	/* OVF, decoding resumes at ip */
	PTSYNTH_GT_PSB = 'p',		/* PSB at byte offset `offset` */
};

struct ptsynth_gt_rec {
	enum ptsynth_gt_kind kind;
	uint64_t ip;		/* INSN/LOST/ENABLE/ASYNC*: the IP; OVERFLOW: resume IP;
				 * PSB: FUP IP or 0 when tracing was disabled */
	uint64_t target;	/* ASYNC: branch target */
	uint64_t offset;	/* byte offset in the stream of the first packet for it */
	uint64_t tsc;
	enum ptsynth_iclass iclass;	/* INSN/LOST */
	uint8_t size;			/* INSN/LOST: instruction bytes */
	uint8_t ring;
};

typedef void (*ptsynth_gt_fn)(void *ctx, const struct ptsynth_gt_rec *rec);

/* Counters for the summary. */
struct ptsynth_stats {
	uint64_t insns, insns_lost, bytes;
	uint64_t tnt_bits, tnt_short, tnt_long, tip, tip_pge, tip_pgd, fup;
	uint64_t ret_compressed, ret_uncompressed;
	uint64_t psb, mtc, cyc, ovf, mode_exec;
};

struct ptsynth_enc;

/*
 * Create an encoder. gt may be NULL. Returns NULL and sets errno
 * (EINVAL: bad config — psb_freq > 15, mtc_freq > 15, art_den 0,
 * neither User nor OS, ovf_every set with ovf_lost 0; ENOMEM).
 * The stream starts with PSB+ (TraceEn 0 -> 1 with
 * RTIT_STATUS.PacketByteCnt 0 sends PSB+, SDM §33.4.2.17 "PSB").
 */
struct ptsynth_enc *ptsynth_enc_new(const struct ptsynth_config *cfg,
				    ptsynth_gt_fn gt, void *gt_ctx);
void ptsynth_enc_free(struct ptsynth_enc *e);

/*
 * Feed one retired instruction, in program order. Returns 0, -ENOMEM,
 * or -EPROTO when libipt's pt_enc_next refuses a packet (a bug).
 */
int ptsynth_enc_insn(struct ptsynth_enc *e, const struct ptsynth_insn *in);

/*
 * An asynchronous transfer (interrupt, exception, signal delivery) taken
 * before the instruction at `at` retired; execution continues at
 * `target` in ring `target_ring` at time tsc. SDM §33.2.1.3: FUP(at)
 * then TIP(target), or TIP.PGD when the target is not traced (IP
 * suppressed on a CPL change out of the traced rings, §33.4.2.2 "IP
 * compression": IPBytes 000). Nothing is emitted while packets are
 * disabled (the transfer happened in an untraced ring).
 */
int ptsynth_enc_async(struct ptsynth_enc *e, uint64_t at, uint64_t target,
		      uint8_t target_ring, uint64_t tsc);

/*
 * ContextEn goes 1 -> 0 before the instruction at `at`: the traced task
 * is switched out (per-task tracing disabled by the scheduler hook, or a
 * CR3 filter no longer matching; SDM §33.2.5 "Trace Filtering", PacketEn
 * needs ContextEn). Emitted like an asynchronous disable: FUP(at) then
 * TIP.PGD with the IP suppressed. The next instruction fed (the task
 * switched back in) re-enables with MODE.Exec + TIP.PGE at its IP.
 * Nothing is emitted while packets are already disabled. Returns 0 or a
 * negative error as ptsynth_enc_insn.
 */
int ptsynth_enc_context_off(struct ptsynth_enc *e, uint64_t at, uint64_t tsc);

/*
 * Let model time pass to tsc without retired traced instructions (time
 * spent in an untraced ring): emits the MTCs that fall due (SDM
 * §33.4.2.12 "MTC": sent while TriggerEn, independent of PacketEn).
 */
int ptsynth_enc_advance(struct ptsynth_enc *e, uint64_t tsc);

/* End of trace: flush the pending TNT. Returns 0 or a negative error. */
int ptsynth_enc_finish(struct ptsynth_enc *e, uint64_t tsc);

/* The stream so far (valid until the next call that emits). */
const uint8_t *ptsynth_enc_data(const struct ptsynth_enc *e, size_t *len);
const struct ptsynth_stats *ptsynth_enc_stats(const struct ptsynth_enc *e);

/* True while packets are enabled (PacketEn: TraceEn && ContextEn && FilterEn). */
bool ptsynth_enc_packet_en(const struct ptsynth_enc *e);

#endif /* PTSYNTH_ENC_H */
