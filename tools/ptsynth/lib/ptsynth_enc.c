// SPDX-License-Identifier: GPL-2.0
/*
 * The packet-generation rules of a PT unit, applied to a retired
 * instruction stream. Section numbers: SDM Vol. 3C chapter 33.
 */
#include "ptsynth_enc.h"

#include <errno.h>
#include <intel-pt.h>
#include <ptscope/rtit.h>
#include <stdlib.h>
#include <string.h>

#define TNT_SHORT_MAX	6	/* TNT-8 carries up to 6 bits (libipt 2.0.5 encoder limit) */
#define TNT_LONG_MAX	47	/* TNT-64 carries up to 47 bits, §33.4.2.1 */

struct ptsynth_enc {
	struct ptsynth_config cfg;
	ptsynth_gt_fn gt;
	void *gt_ctx;

	struct pt_encoder *penc;
	uint8_t scratch[64];		/* one packet at a time, then appended */

	uint8_t *buf;			/* the stream */
	size_t len, cap;
	size_t psb_at;			/* offset of the last PSB */

	bool packet_en;			/* PacketEn (§33.2.5): TraceEn && ContextEn && FilterEn */
	bool have_ip;			/* last-IP valid (cleared by PSB and OVF) */
	uint64_t last_ip;		/* last-IP state, §33.4.2.2 "IP compression" */

	uint64_t tnt_bits;		/* pending TNT bits, oldest in the MSB */
	unsigned int tnt_n;

	uint64_t retstack[PTSYNTH_RETSTACK_DEPTH];
	unsigned int rs_top, rs_count;	/* ring: rs_top is the next free slot */

	uint64_t tsc;			/* model time reached */
	uint64_t mtc_period_idx;	/* ART >> mtc_freq at the last MTC */
	uint64_t cyc_tsc;		/* time of the last CYC */

	bool started;			/* the opening PSB+ is out */
	uint64_t traced_count;		/* traced instructions, for ovf_every */
	uint32_t lost_left;		/* instructions still lost to the current overflow */
	bool in_overflow;
	bool ovf_armed;			/* an overflow is due at the next packet boundary */
	bool last_had_packet;		/* the last traced instruction produced a packet */

	struct ptsynth_stats st;
};

void ptsynth_config_default(struct ptsynth_config *c)
{
	memset(c, 0, sizeof(*c));
	c->trace_user = true;
	c->psb_freq = 0;
	c->tsc_en = true;
	c->mtc_en = true;
	c->mtc_freq = 3;
	/* Skylake-SP 6/85/4 at 2.1 GHz nominal, 25 MHz crystal: 168/2. */
	c->cbr = 21;
	c->nom_freq = 21;
	c->art_num = 168;
	c->art_den = 2;
}

uint64_t ptsynth_config_rtit_ctl(const struct ptsynth_config *c)
{
	uint64_t v = RTIT_CTL_TRACEEN | RTIT_CTL_TOPA | RTIT_CTL_BRANCHEN;

	v |= c->trace_os ? RTIT_CTL_OS : 0;
	v |= c->trace_user ? RTIT_CTL_USER : 0;
	v |= c->disretc ? RTIT_CTL_DISRETC : 0;
	v |= c->tsc_en ? RTIT_CTL_TSCEN : 0;
	v |= c->cyc_en ? RTIT_CTL_CYCEN : 0;
	if (c->mtc_en)
		v |= RTIT_CTL_MTCEN | ((uint64_t)c->mtc_freq << RTIT_CTL_MTCFREQ_SHIFT);
	v |= (uint64_t)c->psb_freq << RTIT_CTL_PSBFREQ_SHIFT;
	return v;
}

static bool ring_traced(const struct ptsynth_enc *e, uint8_t ring)
{
	return ring ? e->cfg.trace_user : e->cfg.trace_os;
}

static void gt_sized(struct ptsynth_enc *e, enum ptsynth_gt_kind kind, uint64_t ip,
		     uint64_t target, enum ptsynth_iclass ic, uint8_t ring, uint8_t size)
{
	struct ptsynth_gt_rec r;

	if (!e->gt)
		return;
	r.kind = kind;
	r.ip = ip;
	r.target = target;
	r.offset = e->len;
	r.tsc = e->tsc;
	r.iclass = ic;
	r.ring = ring;
	r.size = size;
	e->gt(e->gt_ctx, &r);
}

static void gt(struct ptsynth_enc *e, enum ptsynth_gt_kind kind, uint64_t ip,
	       uint64_t target, enum ptsynth_iclass ic, uint8_t ring)
{
	gt_sized(e, kind, ip, target, ic, ring, 0);
}

static int append(struct ptsynth_enc *e, const uint8_t *p, size_t n)
{
	if (e->len + n > e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 1 << 16;
		uint8_t *nb;

		while (cap < e->len + n)
			cap *= 2;
		nb = realloc(e->buf, cap);
		if (!nb)
			return -ENOMEM;
		e->buf = nb;
		e->cap = cap;
	}
	memcpy(e->buf + e->len, p, n);
	e->len += n;
	e->st.bytes = e->len;
	return 0;
}

static int put(struct ptsynth_enc *e, struct pt_packet *pkt)
{
	int n;

	/* libipt refuses only malformed packets (e.g. a TNT-8 of 7 bits):
	 * a bug here, reported as -EPROTO. */
	n = pt_enc_sync_set(e->penc, 0);
	if (n < 0)
		return -EPROTO;
	n = pt_enc_next(e->penc, pkt);
	if (n < 0)
		return -EPROTO;
	return append(e, e->scratch, (size_t)n);
}

static int put_simple(struct ptsynth_enc *e, enum pt_packet_type type)
{
	struct pt_packet pkt;

	memset(&pkt, 0, sizeof(pkt));
	pkt.type = type;
	return put(e, &pkt);
}

/* CYC (§33.4.2.14): with CycThresh 0 the cycle count since the last CYC
 * precedes the next CYC-eligible packet. Core clock == TSC here
 * (cbr == nom_freq by default), so cycles are TSC ticks scaled by
 * cbr / nom_freq. */
static int put_cyc(struct ptsynth_enc *e)
{
	struct pt_packet pkt;
	uint64_t cyc;

	if (!e->cfg.cyc_en || e->tsc <= e->cyc_tsc)
		return 0;
	cyc = (e->tsc - e->cyc_tsc) * e->cfg.cbr / (e->cfg.nom_freq ? e->cfg.nom_freq : 1);
	e->cyc_tsc = e->tsc;
	if (!cyc)
		return 0;
	memset(&pkt, 0, sizeof(pkt));
	pkt.type = ppt_cyc;
	pkt.payload.cyc.value = cyc;
	e->st.cyc++;
	return put(e, &pkt);
}

/*
 * Pick the shortest IP compression the decoder can expand from its
 * last-IP (§33.4.2.2 "IP compression", Table 33-"Compressed IP"):
 * 001 update 16, 010 update 32, 011 sign-extend 48, 100 update 48,
 * 110 full. After PSB or OVF last-IP is unknown: only 011/110 are safe.
 */
static enum pt_ip_compression pick_ipc(const struct ptsynth_enc *e, uint64_t ip)
{
	uint64_t sext48 = (uint64_t)(((int64_t)(ip << 16)) >> 16);

	if (e->have_ip) {
		if ((ip >> 16) == (e->last_ip >> 16))
			return pt_ipc_update_16;
		if ((ip >> 32) == (e->last_ip >> 32))
			return pt_ipc_update_32;
	}
	if (sext48 == ip)
		return pt_ipc_sext_48;
	if (e->have_ip && (ip >> 48) == (e->last_ip >> 48))
		return pt_ipc_update_48;
	return pt_ipc_full;
}

static int put_ip(struct ptsynth_enc *e, enum pt_packet_type type, uint64_t ip,
		  bool suppressed)
{
	struct pt_packet pkt;
	int err;

	err = put_cyc(e);
	if (err)
		return err;
	memset(&pkt, 0, sizeof(pkt));
	pkt.type = type;
	if (suppressed) {
		/* IPBytes 000: last-IP is left as it was (§33.4.2.2). */
		pkt.payload.ip.ipc = pt_ipc_suppressed;
	} else {
		pkt.payload.ip.ipc = pick_ipc(e, ip);
		pkt.payload.ip.ip = ip;
		e->last_ip = ip;
		e->have_ip = true;
	}
	switch (type) {
	case ppt_tip: e->st.tip++; break;
	case ppt_tip_pge: e->st.tip_pge++; break;
	case ppt_tip_pgd: e->st.tip_pgd++; break;
	case ppt_fup: e->st.fup++; break;
	default: break;
	}
	return put(e, &pkt);
}

/* Send the pending TNT bits: every TIP, FUP, PSB, MODE and OVF forces
 * them out first so that packet order matches retirement order (§33.4.2.3
 * "Deferred TIPs" lists the packets that force out a pending TNT; we
 * never defer TIPs). */
static int flush_tnt(struct ptsynth_enc *e)
{
	struct pt_packet pkt;
	int err;

	if (!e->tnt_n)
		return 0;
	err = put_cyc(e);
	if (err)
		return err;
	memset(&pkt, 0, sizeof(pkt));
	if (e->tnt_n <= TNT_SHORT_MAX) {
		pkt.type = ppt_tnt_8;
		e->st.tnt_short++;
	} else {
		pkt.type = ppt_tnt_64;
		e->st.tnt_long++;
	}
	pkt.payload.tnt.bit_size = (uint8_t)e->tnt_n;
	pkt.payload.tnt.payload = e->tnt_bits;
	e->tnt_n = 0;
	e->tnt_bits = 0;
	return put(e, &pkt);
}

static int add_tnt(struct ptsynth_enc *e, bool taken)
{
	e->tnt_bits = (e->tnt_bits << 1) | (taken ? 1 : 0);
	e->tnt_n++;
	e->st.tnt_bits++;
	if (e->tnt_n >= (e->cfg.long_tnt ? TNT_LONG_MAX : TNT_SHORT_MAX))
		return flush_tnt(e);
	return 0;
}

static int put_mode_exec(struct ptsynth_enc *e)
{
	struct pt_packet pkt;

	/* 64-bit code only: CS.L = 1, CS.D = 0 (§33.4.2.8 "MODE.Exec"). */
	memset(&pkt, 0, sizeof(pkt));
	pkt.type = ppt_mode;
	pkt.payload.mode.leaf = pt_mol_exec;
	pkt.payload.mode.bits.exec = pt_set_exec_mode(ptem_64bit);
	e->st.mode_exec++;
	return put(e, &pkt);
}

static uint64_t art_of(const struct ptsynth_enc *e, uint64_t tsc)
{
	/* TSC = ART * EBX / EAX (CPUID.15H), so ART = TSC * EAX / EBX. */
	return (uint64_t)((unsigned __int128)tsc * e->cfg.art_den / e->cfg.art_num);
}

/* Timing packets due up to time tsc: one MTC for each 2^MTCFreq ART
 * period boundary crossed, payload ART[MTCFreq+7:MTCFreq] (§33.4.2.12). */
static int put_psb_plus(struct ptsynth_enc *e, uint64_t ip);

static int advance(struct ptsynth_enc *e, uint64_t tsc)
{
	uint64_t idx, i;
	int err;

	if (!e->started) {
		/* TraceEn 0 -> 1: the stream opens with PSB+ at the first time. */
		e->started = true;
		e->tsc = tsc;
		e->mtc_period_idx = art_of(e, tsc) >> e->cfg.mtc_freq;
		return put_psb_plus(e, 0);
	}

	if (tsc <= e->tsc)
		return 0;
	e->tsc = tsc;
	if (!e->cfg.mtc_en || e->in_overflow)
		return 0;
	idx = art_of(e, tsc) >> e->cfg.mtc_freq;
	/* Bound the burst after a long untraced stretch: 256 MTCs cover the
	 * 8-bit CTC payload's whole wrap, so the decoder's time stays exact. */
	i = idx - e->mtc_period_idx > 256 ? idx - 256 : e->mtc_period_idx + 1;
	for (; i <= idx; i++) {
		struct pt_packet pkt;

		if (e->cfg.cyc_en) {
			/* MTC is CYC-eligible (§33.3.6): the cycles up to the ART
			 * period boundary go in a CYC just before it, so a decoder
			 * that restarts its cycle count at each MTC stays exact. */
			uint64_t at = (uint64_t)(((unsigned __int128)(i << e->cfg.mtc_freq) *
						  e->cfg.art_num + e->cfg.art_den - 1) /
						 e->cfg.art_den);
			uint64_t now = e->tsc;

			if (at > now)
				at = now;
			e->tsc = at;
			err = put_cyc(e);
			e->tsc = now;
			if (err)
				return err;
		}
		memset(&pkt, 0, sizeof(pkt));
		pkt.type = ppt_mtc;
		pkt.payload.mtc.ctc = (uint8_t)(i & 0xff);
		err = put(e, &pkt);
		if (err)
			return err;
		e->st.mtc++;
	}
	e->mtc_period_idx = idx;
	return 0;
}

/*
 * PSB+ (§33.4.2.17 "PSB", §33.4.2.18 "PSBEND"): PSB, TSC (TSCEn), TMA
 * (MTCEn), CBR, and while PacketEn MODE.Exec and FUP with the IP of the
 * next instruction to retire, then PSBEND. PSB resets last-IP (§33.4.2.2)
 * and RETs whose CALL came before it are not compressed (§33.2.1.2).
 */
static int put_psb_plus(struct ptsynth_enc *e, uint64_t ip)
{
	struct pt_packet pkt;
	int err;

	err = flush_tnt(e);
	if (err)
		return err;
	e->psb_at = e->len;
	gt(e, PTSYNTH_GT_PSB, e->packet_en ? ip : 0, 0, PTSYNTH_IC_OTHER, 0);
	err = put_simple(e, ppt_psb);
	if (err)
		return err;
	e->st.psb++;
	e->have_ip = false;
	e->last_ip = 0;
	e->rs_count = 0;
	if (e->cfg.tsc_en) {
		memset(&pkt, 0, sizeof(pkt));
		pkt.type = ppt_tsc;
		pkt.payload.tsc.tsc = e->tsc;
		err = put(e, &pkt);
		if (err)
			return err;
	}
	if (e->cfg.mtc_en) {
		uint64_t art = art_of(e, e->tsc);
		/* FastCounter: core cycles since the last ART tick. */
		uint64_t art_tsc = (uint64_t)((unsigned __int128)art * e->cfg.art_num /
					      e->cfg.art_den);

		memset(&pkt, 0, sizeof(pkt));
		pkt.type = ppt_tma;
		pkt.payload.tma.ctc = (uint16_t)(art & 0xffff);
		pkt.payload.tma.fc = (uint16_t)((e->tsc - art_tsc) & 0x1ff);
		err = put(e, &pkt);
		if (err)
			return err;
	}
	memset(&pkt, 0, sizeof(pkt));
	pkt.type = ppt_cbr;
	pkt.payload.cbr.ratio = e->cfg.cbr;
	err = put(e, &pkt);
	if (err)
		return err;
	if (e->packet_en) {
		err = put_mode_exec(e);
		if (!err)
			err = put_ip(e, ppt_fup, ip, false);
		if (err)
			return err;
	}
	e->cyc_tsc = e->tsc;
	return put_simple(e, ppt_psbend);
}

static bool psb_due(const struct ptsynth_enc *e)
{
	return e->len - e->psb_at >= ((size_t)2048 << e->cfg.psb_freq);
}

struct ptsynth_enc *ptsynth_enc_new(const struct ptsynth_config *cfg,
				    ptsynth_gt_fn gtfn, void *gt_ctx)
{
	struct ptsynth_enc *e;
	struct pt_config pc;

	if (cfg->psb_freq > 15 || cfg->mtc_freq > 15 || !cfg->art_den || !cfg->art_num ||
	    (!cfg->trace_user && !cfg->trace_os) || (cfg->ovf_every && !cfg->ovf_lost)) {
		errno = EINVAL;
		return NULL;
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		errno = ENOMEM;
		return NULL;
	}
	e->cfg = *cfg;
	e->gt = gtfn;
	e->gt_ctx = gt_ctx;
	pt_config_init(&pc);
	pc.begin = e->scratch;
	pc.end = e->scratch + sizeof(e->scratch);
	e->penc = pt_alloc_encoder(&pc);
	if (!e->penc) {
		free(e);
		errno = ENOMEM;
		return NULL;
	}
	e->psb_at = 0;
	return e;
}

void ptsynth_enc_free(struct ptsynth_enc *e)
{
	if (!e)
		return;
	pt_free_encoder(e->penc);
	free(e->buf);
	free(e);
}

static void rs_push(struct ptsynth_enc *e, uint64_t ip)
{
	e->retstack[e->rs_top] = ip;
	e->rs_top = (e->rs_top + 1) % PTSYNTH_RETSTACK_DEPTH;
	if (e->rs_count < PTSYNTH_RETSTACK_DEPTH)
		e->rs_count++;
}

static bool rs_top_is(const struct ptsynth_enc *e, uint64_t ip)
{
	unsigned int t;

	if (!e->rs_count)
		return false;
	t = (e->rs_top + PTSYNTH_RETSTACK_DEPTH - 1) % PTSYNTH_RETSTACK_DEPTH;
	return e->retstack[t] == ip;
}

static void rs_pop(struct ptsynth_enc *e)
{
	e->rs_top = (e->rs_top + PTSYNTH_RETSTACK_DEPTH - 1) % PTSYNTH_RETSTACK_DEPTH;
	e->rs_count--;
}

/* A near branch or far transfer leaving the traced rings: TIP.PGD with the
 * IP suppressed, so no kernel address leaks into a user trace (§33.4.2.2,
 * "the TIP.PGD sent on a SYSCALL when tracing only USR code"). */
static int disable(struct ptsynth_enc *e)
{
	int err = flush_tnt(e);

	if (!err)
		err = put_ip(e, ppt_tip_pgd, 0, true);
	e->packet_en = false;
	return err;
}

/*
 * Overflow model (§33.4.2.16 "OVF"): the unit's internal buffer fills,
 * the packets of the next ovf_lost traced instructions are dropped, then
 * OVF is sent and, with PacketEn, a FUP with the IP where tracing
 * resumes. last-IP is unknown afterwards and the call stack is cleared
 * (libipt resets neither, but starting over is always decodable).
 */
static int overflow_step(struct ptsynth_enc *e, const struct ptsynth_insn *in,
			 bool traced, bool *lost)
{
	int err;

	*lost = false;
	if (!e->cfg.ovf_every || !traced)
		return e->in_overflow ? (*lost = true, 0) : 0;
	if (e->in_overflow) {
		if (e->lost_left) {
			e->lost_left--;
			*lost = true;
			return 0;
		}
		/* Resume: OVF + FUP(ip). */
		e->in_overflow = false;
		e->have_ip = false;
		e->rs_count = 0;
		e->mtc_period_idx = art_of(e, e->tsc) >> e->cfg.mtc_freq;
		gt(e, PTSYNTH_GT_OVERFLOW, in->ip, 0, PTSYNTH_IC_OTHER, in->ring);
		err = put_simple(e, ppt_ovf);
		if (err)
			return err;
		e->st.ovf++;
		e->packet_en = true;
		return put_ip(e, ppt_fup, in->ip, false);
	}
	if (e->packet_en && ++e->traced_count % e->cfg.ovf_every == 0)
		e->ovf_armed = true;
	/* Start losing packets right after an instruction that produced one
	 * (a TNT bit or an IP packet): a decoder reports the OVF as soon as
	 * it has used up the last packet before it, so straight-line
	 * instructions between that packet and the overflow point cannot be
	 * attributed to either side. */
	if (e->ovf_armed && e->packet_en && e->last_had_packet) {
		err = flush_tnt(e);
		if (err)
			return err;
		e->ovf_armed = false;
		e->in_overflow = true;
		e->lost_left = e->cfg.ovf_lost - 1;
		*lost = true;
	}
	return 0;
}

int ptsynth_enc_insn(struct ptsynth_enc *e, const struct ptsynth_insn *in)
{
	bool traced = ring_traced(e, in->ring);
	bool lost;
	int err;

	err = advance(e, in->tsc);
	if (err)
		return err;

	if (!e->in_overflow && psb_due(e)) {
		err = put_psb_plus(e, in->ip);
		if (err)
			return err;
	}
	err = overflow_step(e, in, traced, &lost);
	if (err)
		return err;
	if (lost) {
		/* Track what the unit tracks while dropping packets; report the
		 * instruction as lost. */
		if (traced) {
			e->st.insns_lost++;
			gt_sized(e, PTSYNTH_GT_LOST, in->ip, 0, in->iclass, in->ring, in->size);
		}
		e->packet_en = traced && ring_traced(e, in->next_ring);
		e->tnt_n = 0;
		return 0;
	}

	if (!traced) {
		if (e->packet_en)
			err = disable(e);
		return err;
	}
	if (!e->packet_en) {
		/* Tracing (re)starts at this IP: MODE.Exec then TIP.PGE
		 * (§33.4.2.4 "TIP.PGE", §33.4.2.8: MODE.Exec precedes it). */
		err = flush_tnt(e);
		if (!err)
			err = put_mode_exec(e);
		if (!err)
			err = put_ip(e, ppt_tip_pge, in->ip, false);
		if (err)
			return err;
		e->packet_en = true;
		gt(e, PTSYNTH_GT_ENABLE, in->ip, 0, PTSYNTH_IC_OTHER, in->ring);
	}

	e->st.insns++;
	gt_sized(e, PTSYNTH_GT_INSN, in->ip, 0, in->iclass, in->ring, in->size);
	e->last_had_packet = in->iclass == PTSYNTH_IC_JCC || in->iclass == PTSYNTH_IC_RET ||
			     in->iclass == PTSYNTH_IC_JMP_INDIRECT ||
			     in->iclass == PTSYNTH_IC_CALL_INDIRECT || in->iclass == PTSYNTH_IC_FAR;

	if (!ring_traced(e, in->next_ring)) {
		/* Far transfer into an untraced ring (SYSCALL in user scope). */
		err = disable(e);
		if (!err)
			gt(e, PTSYNTH_GT_DISABLE, in->ip, 0, in->iclass, in->ring);
		return err;
	}

	switch (in->iclass) {
	case PTSYNTH_IC_OTHER:
	case PTSYNTH_IC_JMP_DIRECT:
		return 0;
	case PTSYNTH_IC_JCC:
		/* §33.4.2.1: one bit per conditional branch, 1 = taken. */
		return add_tnt(e, in->next_ip != in->ip + in->size);
	case PTSYNTH_IC_CALL_DIRECT:
		/* A CALL to the next instruction (displacement 0, used to read
		 * the IP) is no call for RET compression; libipt's decoder does
		 * not push it either. */
		if (in->next_ip != in->ip + in->size)
			rs_push(e, in->ip + in->size);
		return 0;
	case PTSYNTH_IC_CALL_INDIRECT:
		rs_push(e, in->ip + in->size);
		err = flush_tnt(e);
		return err ? err : put_ip(e, ppt_tip, in->next_ip, false);
	case PTSYNTH_IC_RET:
		/* §33.4.2.2 "Indirect Transfer Compression for Returns": a RET
		 * to the IP after its CALL is one taken TNT bit, unless
		 * DisRETC. Otherwise a TIP; the stack is then left alone,
		 * as libipt's decoder leaves its own. */
		if (!e->cfg.disretc && rs_top_is(e, in->next_ip)) {
			rs_pop(e);
			e->st.ret_compressed++;
			return add_tnt(e, true);
		}
		e->st.ret_uncompressed++;
		err = flush_tnt(e);
		return err ? err : put_ip(e, ppt_tip, in->next_ip, false);
	case PTSYNTH_IC_JMP_INDIRECT:
	case PTSYNTH_IC_FAR:
		/* §33.2.1.2/§33.2.1.3: indirect and far transfers give a TIP. */
		err = flush_tnt(e);
		return err ? err : put_ip(e, ppt_tip, in->next_ip, false);
	}
	return 0;
}

int ptsynth_enc_async(struct ptsynth_enc *e, uint64_t at, uint64_t target,
		      uint8_t target_ring, uint64_t tsc)
{
	int err = advance(e, tsc);

	if (err)
		return err;
	if (e->in_overflow) {
		e->packet_en = ring_traced(e, target_ring);
		return 0;
	}
	if (!e->packet_en)
		return 0;
	err = flush_tnt(e);
	if (!err)
		err = put_ip(e, ppt_fup, at, false);
	if (err)
		return err;
	if (ring_traced(e, target_ring)) {
		gt(e, PTSYNTH_GT_ASYNC, at, target, PTSYNTH_IC_OTHER, 0);
		return put_ip(e, ppt_tip, target, false);
	}
	gt(e, PTSYNTH_GT_ASYNC_DISABLE, at, 0, PTSYNTH_IC_OTHER, 0);
	err = put_ip(e, ppt_tip_pgd, 0, true);
	e->packet_en = false;
	return err;
}

int ptsynth_enc_context_off(struct ptsynth_enc *e, uint64_t at, uint64_t tsc)
{
	int err = advance(e, tsc);

	if (err)
		return err;
	if (!e->packet_en || e->in_overflow) {
		e->packet_en = false;
		return 0;
	}
	err = flush_tnt(e);
	if (!err)
		err = put_ip(e, ppt_fup, at, false);
	if (err)
		return err;
	gt(e, PTSYNTH_GT_ASYNC_DISABLE, at, 0, PTSYNTH_IC_OTHER, 0);
	err = put_ip(e, ppt_tip_pgd, 0, true);
	e->packet_en = false;
	return err;
}

int ptsynth_enc_advance(struct ptsynth_enc *e, uint64_t tsc)
{
	return advance(e, tsc);
}

int ptsynth_enc_finish(struct ptsynth_enc *e, uint64_t tsc)
{
	int err = advance(e, tsc);

	return err ? err : flush_tnt(e);
}

const uint8_t *ptsynth_enc_data(const struct ptsynth_enc *e, size_t *len)
{
	*len = e->len;
	return e->buf;
}

const struct ptsynth_stats *ptsynth_enc_stats(const struct ptsynth_enc *e)
{
	return &e->st;
}

bool ptsynth_enc_packet_en(const struct ptsynth_enc *e)
{
	return e->packet_en;
}
