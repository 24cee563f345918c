/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packet stream builder for decoder tests, on libipt's encoder
 * (pt_alloc_encoder / pt_enc_next). The encoder does no IP compression:
 * every IP here is written in full (sign-extended 48-bit form), which is
 * valid after a PSB and anywhere else. TNT bits are given oldest first as
 * a "TTN" string (at most 6 per packet, test-rig notes).
 */
#ifndef PTS_TEST_PT_GEN_H
#define PTS_TEST_PT_GEN_H

#include <intel-pt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

struct pt_gen {
	uint8_t buf[1 << 16];
	struct pt_encoder *enc;
	struct pt_config cfg;
};

static inline void gen_init(struct pt_gen *g)
{
	memset(g->buf, 0, sizeof(g->buf));
	pt_config_init(&g->cfg);
	g->cfg.begin = g->buf;
	g->cfg.end = g->buf + sizeof(g->buf);
	g->enc = pt_alloc_encoder(&g->cfg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g->enc);
}

static inline size_t gen_len(struct pt_gen *g)
{
	uint64_t off = 0;

	pt_enc_get_offset(g->enc, &off);
	return (size_t)off;
}

/* Write the stream so far to path (replacing it); the test stops if it cannot. */
static inline void gen_save(struct pt_gen *g, const char *path)
{
	FILE *f = fopen(path, "wb");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(fwrite(g->buf, 1, gen_len(g), f), gen_len(g));
	fclose(f);
}

/*
 * The code a test's streams run over, as a file: dir, a mkdtemp template
 * ("/tmp/pts-NAME.XXXXXX", made a new directory in place), gets code.bin
 * holding the n bytes, whose path goes to code (len bytes). For a suite's
 * init: 0, or -1 when it cannot run.
 */
static inline int gen_code_file(char *dir, char *code, size_t len, const uint8_t *bytes, size_t n)
{
	FILE *f;

	if (!mkdtemp(dir))
		return -1;
	snprintf(code, len, "%s/code.bin", dir);
	f = fopen(code, "wb");
	if (!f)
		return -1;
	if (fwrite(bytes, 1, n, f) != n) {
		fclose(f);
		return -1;
	}
	return fclose(f) ? -1 : 0;
}

static inline void gen_done(struct pt_gen *g)
{
	pt_free_encoder(g->enc);
	g->enc = NULL;
}

static inline void gen_pkt(struct pt_gen *g, struct pt_packet *p)
{
	int rc = pt_enc_next(g->enc, p);

	CU_ASSERT_FATAL(rc >= 0);
}

static inline void gen_simple(struct pt_gen *g, enum pt_packet_type t)
{
	struct pt_packet p;

	memset(&p, 0, sizeof(p));
	p.type = t;
	gen_pkt(g, &p);
}

/* An IP packet with the IP compression ipc: the payload bits as the SDM gives them */
static inline void gen_ip_ipc(struct pt_gen *g, enum pt_packet_type t,
			      enum pt_ip_compression ipc, uint64_t ip)
{
	struct pt_packet p;

	memset(&p, 0, sizeof(p));
	p.type = t;
	p.payload.ip.ipc = ipc;
	p.payload.ip.ip = ip;
	gen_pkt(g, &p);
}

static inline void gen_ip(struct pt_gen *g, enum pt_packet_type t, uint64_t ip)
{
	gen_ip_ipc(g, t, pt_ipc_sext_48, ip);
}

/* IP-less form (TIP.PGD with the IP suppressed, SDM "IP compression 000b") */
static inline void gen_ip_suppressed(struct pt_gen *g, enum pt_packet_type t)
{
	struct pt_packet p;

	memset(&p, 0, sizeof(p));
	p.type = t;
	p.payload.ip.ipc = pt_ipc_suppressed;
	gen_pkt(g, &p);
}

static inline void gen_tnt(struct pt_gen *g, const char *bits)
{
	struct pt_packet p;
	size_t i, n = strlen(bits);

	memset(&p, 0, sizeof(p));
	p.type = ppt_tnt_8;
	p.payload.tnt.bit_size = (uint8_t)n;
	for (i = 0; i < n; i++)
		p.payload.tnt.payload = (p.payload.tnt.payload << 1) | (bits[i] == 'T');
	gen_pkt(g, &p);
}

/*
 * gen_NAME(g, v): one packet of type TYPE whose only payload field, FIELD
 * (a member path under pt_packet.payload), is v; the rest zero. The
 * timing packets and PIP each carry one value, so one definition serves.
 */
#define PT_GEN_ONE_FIELD(NAME, TYPE, FIELD, VTYPE)			\
	static inline void NAME(struct pt_gen *g, VTYPE v)		\
	{								\
		struct pt_packet p;					\
									\
		memset(&p, 0, sizeof(p));				\
		p.type = TYPE;						\
		p.payload.FIELD = v;					\
		gen_pkt(g, &p);						\
	}

PT_GEN_ONE_FIELD(gen_tsc, ppt_tsc, tsc.tsc, uint64_t)
PT_GEN_ONE_FIELD(gen_mtc, ppt_mtc, mtc.ctc, uint8_t)
PT_GEN_ONE_FIELD(gen_cyc, ppt_cyc, cyc.value, uint64_t)
PT_GEN_ONE_FIELD(gen_cbr, ppt_cbr, cbr.ratio, uint8_t)
PT_GEN_ONE_FIELD(gen_pip, ppt_pip, pip.cr3, uint64_t)

static inline void gen_mode_exec(struct pt_gen *g, enum pt_exec_mode mode)
{
	struct pt_packet p;

	memset(&p, 0, sizeof(p));
	p.type = ppt_mode;
	p.payload.mode.leaf = pt_mol_exec;
	p.payload.mode.bits.exec = pt_set_exec_mode(mode);
	gen_pkt(g, &p);
}

static inline void gen_mode_exec64(struct pt_gen *g)
{
	gen_mode_exec(g, ptem_64bit);
}

static inline void gen_mode_tsx(struct pt_gen *g, int intx, int abrt)
{
	struct pt_packet p;

	memset(&p, 0, sizeof(p));
	p.type = ppt_mode;
	p.payload.mode.leaf = pt_mol_tsx;
	p.payload.mode.bits.tsx.intx = intx ? 1 : 0;
	p.payload.mode.bits.tsx.abrt = abrt ? 1 : 0;
	gen_pkt(g, &p);
}

static inline void gen_ptw(struct pt_gen *g, uint64_t payload, int ip)
{
	struct pt_packet p;

	memset(&p, 0, sizeof(p));
	p.type = ppt_ptw;
	p.payload.ptw.plc = 1;	/* 8-byte payload */
	p.payload.ptw.payload = payload;
	p.payload.ptw.ip = ip ? 1 : 0;
	gen_pkt(g, &p);
}

/* PSB+ (PSB TSC CBR PSBEND), then MODE.exec 64-bit */
static inline void gen_psb_plus(struct pt_gen *g, uint64_t tsc)
{
	gen_simple(g, ppt_psb);
	gen_tsc(g, tsc);
	gen_cbr(g, 37);
	gen_simple(g, ppt_psbend);
	gen_mode_exec64(g);
}

#endif
