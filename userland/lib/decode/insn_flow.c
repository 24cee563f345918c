// SPDX-License-Identifier: GPL-2.0
/* Direct branches as libipt's instruction flow decoder steps code (insn_flow.h). */
#include "insn_flow.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* PSB (16 bytes), MODE.Exec (2), PSBEND (2), TIP.PGE with the IP uncompressed (9) */
#define FLOW_TRACE 29

struct pts_insn_flow {
	struct pt_encoder *enc;
	struct pt_insn_decoder *dec;
	uint8_t buf[FLOW_TRACE];	/* the decoders' trace, rewritten for each stretch */
	/*
	 * Where the decoder stands after pts_insn_flow_branch found a direct
	 * branch: the instruction at its target, decoded, and its status, in
	 * image (NULL: nothing held) and mode. A stretch that starts there
	 * goes on from it instead of a new trace: a block's direct branches,
	 * asked for one after another (ptdec.c, flow_walk and walk_inner),
	 * are walked in one pass. A new trace and its synchronisation for
	 * each one cost far more than decoding the instructions between
	 * them, which a block of many direct jumps made seconds (fuzz
	 * finding 30).
	 */
	struct pt_image *held_image;
	enum pt_exec_mode held_mode;
	struct pt_insn held;
	int held_st;
};

static int flow_new(struct pts_insn_flow **out)
{
	struct pts_insn_flow *f = calloc(1, sizeof(*f));
	struct pt_config cfg;

	if (!f)
		return -pte_nomem;
	pt_config_init(&cfg);
	cfg.begin = f->buf;
	cfg.end = f->buf + sizeof(f->buf);
	f->enc = pt_alloc_encoder(&cfg);
	f->dec = pt_insn_alloc_decoder(&cfg);
	if (!f->enc || !f->dec) {
		pts_insn_flow_free(f);
		return -pte_nomem;
	}
	*out = f;
	return 0;
}

/* The trace that starts the stretch at ip in mode: written, the decoder synchronised on it. */
static int flow_start(struct pts_insn_flow *f, struct pt_image *image, enum pt_exec_mode mode,
		      uint64_t ip)
{
	struct pt_packet p[4];
	uint64_t off = 0;
	int st, i;

	memset(p, 0, sizeof(p));
	p[0].type = ppt_psb;
	p[1].type = ppt_mode;
	p[1].payload.mode.leaf = pt_mol_exec;
	p[1].payload.mode.bits.exec = pt_set_exec_mode(mode);
	p[2].type = ppt_psbend;
	p[3].type = ppt_tip_pge;
	p[3].payload.ip.ipc = pt_ipc_full;
	p[3].payload.ip.ip = ip;
	st = pt_enc_sync_set(f->enc, 0);
	for (i = 0; st >= 0 && i < 4; i++)
		st = pt_enc_next(f->enc, &p[i]);
	if (st >= 0)
		st = pt_enc_get_offset(f->enc, &off);
	if (st < 0)
		return st;
	if (off != sizeof(f->buf))
		return -pte_internal;
	st = pt_insn_set_image(f->dec, image);
	if (st >= 0)
		st = pt_insn_sync_set(f->dec, 0);
	return st;
}

/* The next instruction, the events before it drained (the enabling at ip, the mode). */
static int flow_next(struct pts_insn_flow *f, int st, struct pt_insn *in)
{
	while (st >= 0 && (st & pts_event_pending)) {
		struct pt_event ev;

		st = pt_insn_event(f->dec, &ev, sizeof(ev));
	}
	if (st < 0)
		return st;
	return pt_insn_next(f->dec, in, sizeof(*in));
}

/*
 * The stretch's first instruction: the one held at ip (the last direct
 * branch's target, decoded as a new trace would decode it: the same bytes,
 * no trace needed before it), else the first of a new trace at ip.
 */
static int flow_first(struct pts_insn_flow *f, struct pt_image *image, enum pt_exec_mode mode,
		      uint64_t ip, struct pt_insn *in)
{
	bool held = f->held_image == image && f->held_mode == mode && f->held.ip == ip;

	f->held_image = NULL;
	if (held) {
		*in = f->held;
		return f->held_st;
	}
	return flow_next(f, flow_start(f, image, mode, ip), in);
}

int pts_insn_flow_branch(struct pts_insn_flow **f, struct pt_image *image, enum pt_exec_mode mode,
			 uint64_t ip, uint32_t n, struct pts_flow_branch *out)
{
	struct pt_insn in;
	uint32_t i;
	int st = 0;

	memset(out, 0, sizeof(*out));
	out->site = ip;
	if (!*f && (st = flow_new(f)) < 0)
		return st;
	for (i = 0; i < n; i++) {
		st = i ? flow_next(*f, st, &in) : flow_first(*f, image, mode, ip, &in);
		if (st < 0)
			return st;
		/*
		 * A near call or jump that needed no trace, which one among
		 * instructions that all needed none is: a direct one. Its
		 * target is the next instruction's address, which libipt
		 * gives with the instruction even where that one fails (it
		 * may need trace: pt_insn_next fills in the IP first).
		 */
		if (in.iclass == ptic_call || in.iclass == ptic_jump) {
			out->site = in.ip;
			out->idx = i;
			out->len = in.iclass == ptic_call ? in.size : 0;
			memset(&in, 0, sizeof(in));
			st = flow_next(*f, st, &in);
			if (st < 0 && !in.ip)
				return st;
			out->to = in.ip;
			(*f)->held_image = image;
			(*f)->held_mode = mode;
			(*f)->held = in;
			(*f)->held_st = st;
			return 1;
		}
		out->site = in.ip + in.size;
	}
	return 0;
}

int pts_insn_flow_list(struct pts_insn_flow **f, struct pt_image *image, enum pt_exec_mode mode,
		       uint64_t ip, uint32_t n, void (*fn)(void *ctx, uint64_t ip), void *ctx)
{
	struct pt_insn in;
	uint32_t i;
	int st;

	if (!*f && (st = flow_new(f)) < 0)
		return st;
	(*f)->held_image = NULL;
	st = flow_start(*f, image, mode, ip);
	for (i = 0; i < n; i++) {
		memset(&in, 0, sizeof(in));
		st = flow_next(*f, st, &in);
		/* the last one may need trace: decoded all the same (pt_insn_next(3)) */
		if (st < 0 && (i + 1 < n || in.iclass == ptic_error))
			return st;
		fn(ctx, in.ip);
	}
	return 0;
}

void pts_insn_flow_free(struct pts_insn_flow *f)
{
	if (!f)
		return;
	if (f->dec)
		pt_insn_free_decoder(f->dec);
	if (f->enc)
		pt_free_encoder(f->enc);
	free(f);
}
