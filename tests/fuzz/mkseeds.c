// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the generated seeds of tests/fuzz/corpus (docs/fuzzing.md), the
 * ones made with libipt's encoder or laid out byte by byte; the others
 * are copies of the sample and of the decoder tests' programs, made by
 * tests/fuzz/make-seeds.sh, which builds and runs this. Usage: mkseeds DIR
 */
#include <intel-pt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t buf[4096];
static struct pt_encoder *enc;
static const char *dir;

static void pkt(enum pt_packet_type t, uint64_t v, int ipc)
{
	struct pt_packet p;

	memset(&p, 0, sizeof(p));
	p.type = t;
	if (t == ppt_tsc)
		p.payload.tsc.tsc = v;
	else if (t == ppt_cbr)
		p.payload.cbr.ratio = (uint8_t)v;
	else if (t == ppt_mode) {
		p.payload.mode.leaf = pt_mol_exec;
		p.payload.mode.bits.exec = pt_set_exec_mode(ptem_64bit);
	} else {
		p.payload.ip.ipc = (enum pt_ip_compression)ipc;
		p.payload.ip.ip = v;
	}
	if (pt_enc_next(enc, &p) < 0)
		abort();
}

/* TNT bits oldest first, "TTN" */
static void tnt(const char *bits)
{
	struct pt_packet p;
	size_t i;

	memset(&p, 0, sizeof(p));
	p.type = ppt_tnt_8;
	p.payload.tnt.bit_size = (uint8_t)strlen(bits);
	for (i = 0; bits[i]; i++)
		p.payload.tnt.payload = p.payload.tnt.payload << 1 | (bits[i] == 'T');
	if (pt_enc_next(enc, &p) < 0)
		abort();
}

static void start(void)
{
	struct pt_config c;

	memset(buf, 0, sizeof(buf));
	pt_config_init(&c);
	c.begin = buf;
	c.end = buf + sizeof(buf);
	enc = pt_alloc_encoder(&c);
	if (!enc)
		abort();
}

static void psb(uint64_t tsc)
{
	pkt(ppt_psb, 0, 0);
	pkt(ppt_tsc, tsc, 0);
	pkt(ppt_cbr, 37, 0);
	pkt(ppt_psbend, 0, 0);
	pkt(ppt_mode, 0, 0);
}

/* Write "corpus/SUB/NAME": the 8 option bytes of fuzz_raw_pt, then the trace. */
static void out(const char *sub, const char *name, const uint8_t *opt, size_t nopt)
{
	char path[1024];
	uint64_t len = 0;
	FILE *f;

	pt_enc_get_offset(enc, &len);
	pt_free_encoder(enc);
	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	f = fopen(path, "wb");
	if (!f || fwrite(opt, 1, nopt, f) != nopt || fwrite(buf, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static uint8_t *put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); return p + 4; }
static uint8_t *put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); return p + 8; }

/* perf sample_id trailer for sample_type 0x10086: TID, TIME, CPU, IDENTIFIER */
static uint8_t *sample_id(uint8_t *p, uint32_t pid, uint32_t tid, uint64_t t, uint32_t cpu)
{
	p = put32(p, pid);
	p = put32(p, tid);
	p = put64(p, t);
	p = put32(p, cpu);
	p = put32(p, 0);
	return put64(p, 1);
}

static uint8_t *hdr(uint8_t *p, uint32_t type, uint16_t misc, uint16_t size)
{
	p = put32(p, type);
	memcpy(p, &misc, 2);
	memcpy(p + 2, &size, 2);
	return p + 4;
}

static void pevent(void)
{
	static const uint8_t opt[16] = { 0x86, 0x00, 0x01, 0, 0, 0, 0, 0 };	/* 0x10086 */
	uint8_t rec[512], *p = rec, *r;
	char path[1024];
	FILE *f;

	/* COMM pid 100 tid 101 "main" at t 900 (1 GHz TSC: ns) */
	r = p;
	p = hdr(p, 3, 0, 0);
	p = put32(p, 100);
	p = put32(p, 101);
	memcpy(p, "main\0\0\0\0", 8);
	p = sample_id(p + 8, 100, 101, 900, 0);
	memcpy(r + 6, &(uint16_t){ (uint16_t)(p - r) }, 2);
	/* MMAP2 of user.elf's text, executable */
	r = p;
	p = hdr(p, 10, 2, 0);
	p = put32(p, 100);
	p = put32(p, 101);
	p = put64(p, 0x401000);
	p = put64(p, 0x1000);
	p = put64(p, 0);
	p = put32(p, 8);
	p = put32(p, 1);
	p = put64(p, 1234);
	p = put64(p, 0);
	p = put32(p, 5);
	p = put32(p, 2);
	memcpy(p, "/user.elf\0\0\0\0\0\0\0", 16);
	p = sample_id(p + 16, 100, 101, 910, 0);
	memcpy(r + 6, &(uint16_t){ (uint16_t)(p - r) }, 2);
	/* SWITCH_CPU_WIDE into 100/101 on CPU 0 at t 950, out at t 5000 */
	r = p;
	p = hdr(p, 15, 0, 0);
	p = put32(p, 1);
	p = put32(p, 1);
	p = sample_id(p, 100, 101, 950, 0);
	memcpy(r + 6, &(uint16_t){ (uint16_t)(p - r) }, 2);
	r = p;
	p = hdr(p, 15, 1u << 13, 0);
	p = put32(p, 7);
	p = put32(p, 7);
	p = sample_id(p, 100, 101, 5000, 0);
	memcpy(r + 6, &(uint16_t){ (uint16_t)(p - r) }, 2);
	snprintf(path, sizeof(path), "%s/pevent/comm-mmap2-switch", dir);
	f = fopen(path, "wb");
	if (!f || fwrite(opt, 1, sizeof(opt), f) != sizeof(opt) ||
	    fwrite(rec, 1, (size_t)(p - rec), f) != (size_t)(p - rec) || fclose(f)) {
		perror(path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	/* scope from the trace, thread 100/101, a known CPU, 1 GHz TSC; txt writer */
	static const uint8_t user[8] = { 0x34, 1, 3, 21, 0, 0, 0, 1 };
	static const uint8_t two[8] = { 0x14, 1, 3, 21, 1, 40, 0, 1 };

	if (argc != 2)
		return 2;
	dir = argv[1];
	/* issue 20 item 1: a trace that ends inside `jmp .` (spin.bin at 0x500000) */
	start();
	psb(1000);
	pkt(ppt_tip_pge, 0x500000, pt_ipc_sext_48);
	tnt("T");
	out("raw_pt", "spin-jmp-self", user, sizeof(user));
	start();
	psb(1000);
	pkt(ppt_tip_pge, 0x500000, pt_ipc_sext_48);
	tnt("T");
	psb(2000);
	pkt(ppt_tip_pge, 0x500003, pt_ipc_sext_48);
	pkt(ppt_tip_pgd, 0, pt_ipc_suppressed);
	out("raw_pt", "spin-then-next-psb", user, sizeof(user));
	/* user.S's main path (test_decode_synth.c: gen_user_main) */
	start();
	psb(1000);
	pkt(ppt_tip_pge, 0x401000, pt_ipc_sext_48);
	tnt("TTNTT");
	pkt(ppt_tip_pgd, 0, pt_ipc_suppressed);
	pkt(ppt_tsc, 0x1400, 0);
	pkt(ppt_tip_pge, 0x40100c, pt_ipc_sext_48);
	pkt(ppt_tip, 0x401080, pt_ipc_sext_48);
	tnt("T");
	pkt(ppt_tip_pgd, 0, pt_ipc_suppressed);
	out("raw_pt", "user-main", user, sizeof(user));
	start();
	psb(1000);
	pkt(ppt_tip_pge, 0x401000, pt_ipc_sext_48);
	tnt("TTNTT");
	pkt(ppt_tip_pgd, 0, pt_ipc_suppressed);
	psb(1100);
	pkt(ppt_tip_pge, 0x40100c, pt_ipc_sext_48);
	pkt(ppt_tip, 0x401080, pt_ipc_sext_48);
	tnt("T");
	pkt(ppt_tip_pgd, 0, pt_ipc_suppressed);
	out("raw_pt", "user-main-two-cpus", two, sizeof(two));
	pevent();
	return 0;
}
