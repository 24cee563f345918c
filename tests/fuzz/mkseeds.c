// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the generated seeds of tests/fuzz/corpus (docs/fuzzing.md), the
 * ones made with libipt's encoder or laid out byte by byte; the others
 * are copies of the sample and of the decoder tests' programs, made by
 * tests/fuzz/make-seeds.sh, which builds and runs this. Usage: mkseeds DIR
 */
#include <intel-pt.h>
#include <stdbool.h>
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
	else if (t == ppt_ptw) {
		p.payload.ptw.plc = 0;	/* 4 bytes */
		p.payload.ptw.payload = v;
	}
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

/* A PSB+ of a trace with tracing on: its time, mode and the IP decoding resumes at. */
static void psb_at(uint64_t tsc, uint64_t ip)
{
	pkt(ppt_psb, 0, 0);
	pkt(ppt_tsc, tsc, 0);
	pkt(ppt_mode, 0, 0);
	pkt(ppt_fup, ip, pt_ipc_sext_48);
	pkt(ppt_psbend, 0, 0);
}

/*
 * One pass of user.S's _start, twice: first through f1 and f2, whose loop
 * (dec %ecx at 0x401065, jnz back to it) is taken 11 times (a run of
 * jumps inside one function), with a PSB+ inside the loop when psb_tsc
 * is not 0; then f3's indirect call made to pw instead, whose ptwrite is
 * an instant. Returns go by TIP, compressed (TNT) only when compress:
 * a fresh decoder at the PSB then has no return stack for f2's and f1's
 * (pardec.h: the join is refused, the consumer decodes on). Every pass
 * ends at a syscall (tracing off in user scope). About 14 events in 40
 * bytes; the time moves every pass.
 */
static void pass(uint64_t *tsc, uint64_t psb_tsc, bool compress)
{
	pkt(ppt_tip_pge, 0x401000, pt_ipc_sext_48);
	tnt("TTTTTT");
	if (psb_tsc)
		psb_at(psb_tsc, 0x401065);
	tnt("TTTTTN");
	if (compress) {
		tnt("TT");
	} else {
		pkt(ppt_tip, 0x401045, pt_ipc_sext_48);
		pkt(ppt_tip, 0x401005, pt_ipc_update_16);
	}
	pkt(ppt_tip_pgd, 0, pt_ipc_suppressed);
	pkt(ppt_tip_pge, 0x40100c, pt_ipc_sext_48);
	pkt(ppt_tip, 0x4011c0, pt_ipc_update_16);
	pkt(ppt_ptw, *tsc, 0);
	pkt(ppt_tip, 0x401015, pt_ipc_update_16);
	pkt(ppt_tip_pgd, 0, pt_ipc_suppressed);
	*tsc += 10;
	pkt(ppt_tsc, *tsc, 0);
}

/*
 * n passes from *tsc, a PSB+ inside the first loop of every 12th (about
 * 170 events apart: a chunk's decoder goes on PTS_PAR_OVERLAP (48)
 * events past the next PSB, so that each successor is joined or refused
 * before the trace ends).
 */
static void passes(unsigned int n, uint64_t *tsc, bool compress)
{
	unsigned int i;

	for (i = 1; i <= n; i++)
		pass(tsc, i % 12 ? 0 : *tsc + 5, compress);
}

/*
 * A trace that ends a segment inside `jmp .` (spin.bin at 0x500000), its
 * TNT bit never used, then the next PSB's segment: its ret.
 */
static void spin_then_next_psb(void)
{
	start();
	psb(1000);
	pkt(ppt_tip_pge, 0x500000, pt_ipc_sext_48);
	tnt("T");
	psb(2000);
	pkt(ppt_tip_pge, 0x500003, pt_ipc_sext_48);
	pkt(ppt_tip_pgd, 0, pt_ipc_suppressed);
}

/*
 * Seeds of fuzz_pardec.c in raw mode: chunks of 32 bytes (a chunk per
 * PSB) in traces of 2 to 3 KiB.
 */
static void pardec_seeds(void)
{
	/* raw mode, chunks of 32 B, 2 or 3 workers, a CPU model; [1..2]: CPU 1's share */
	static const uint8_t one[4] = { 0x01, 0, 0, 1 }, three[4] = { 0x11, 0, 0, 1 };
	uint8_t two[4] = { 0x81, 0, 0, 1 };
	uint64_t tsc = 1000, len = 0;

	/* runs of jumps across every chunk's end, each successor joined */
	start();
	psb(tsc);
	passes(60, &tsc, false);
	out("pardec", "jump-runs-across-chunks", one, sizeof(one));
	/* returns compressed against calls before the PSB: every join refused */
	start();
	tsc = 1000;
	psb(tsc);
	passes(40, &tsc, true);
	out("pardec", "returns-past-psb-refused", three, sizeof(three));
	/*
	 * Two CPUs of different lengths merged by time: CPU 0 as the first
	 * seed, CPU 1 (the input's last bytes) a third as long, its times
	 * falling between CPU 0's
	 */
	start();
	tsc = 1000;
	psb(tsc);
	passes(48, &tsc, false);
	pt_enc_get_offset(enc, &len);
	two[1] = (uint8_t)len;
	two[2] = (uint8_t)(len >> 8);
	tsc = 1003;
	psb(tsc);
	passes(16, &tsc, false);
	out("pardec", "two-cpus-uneven", two, sizeof(two));
	/*
	 * The serial decode runs through direct branches, the chunks with
	 * libipt's end_on_call and end_on_jump (session.c, pts_decode_run):
	 * a loop of direct jumps no trace ends (spin.bin's `jmp .`, one
	 * block of 65,535 instructions through them), ended by the spin
	 * watch at the same branch both ways, then the next PSB's segment
	 */
	spin_then_next_psb();
	out("pardec", "spin-through-then-next-psb", one, sizeof(one));
}

/*
 * A TMA whose FC bit 9 (reserved) is set, as erratum SKZ84 corrupts it on
 * a Skylake server, and a PAD: libipt with the CPU's errata passes over
 * both (pt_pkt_decode_tma); a reader without them takes the TMA for
 * damage and resynchronises at the next PSB (fuzz finding 21, the scope
 * scan's dc00f76; tests/unit/skz84_tma.h)
 */
static void tma_skz84(void)
{
	struct pt_packet p;
	uint64_t at = 0;

	memset(&p, 0, sizeof(p));
	p.type = ppt_tma;
	p.payload.tma.ctc = 0x12;
	p.payload.tma.fc = 0x34;
	pt_enc_get_offset(enc, &at);
	if (pt_enc_next(enc, &p) != 7)
		abort();
	buf[at + 6] |= 0x02;	/* FC[15:8]: bit 0 is FC bit 8, the rest reserved */
	pkt(ppt_pad, 0, 0);
}

/* A PSB+ of a Skylake server: time, an SKZ84 TMA, frequency, then the mode (binds to a TIP.PGE). */
static void psb_skz84(uint64_t tsc)
{
	pkt(ppt_psb, 0, 0);
	pkt(ppt_tsc, tsc, 0);
	tma_skz84();
	pkt(ppt_cbr, 37, 0);
	pkt(ppt_psbend, 0, 0);
	pkt(ppt_mode, 0, 0);
}

/*
 * kernel.S's getpid (entry_SYSCALL_64 calls do_syscall: je not taken, ret
 * compressed; sysretq leaves the kernel) n times, the time moving each
 * time; TIP.PGE compressed against the last IP after the first
 */
static void getpids(unsigned int n, uint64_t *tsc)
{
	while (n--) {
		pkt(ppt_tip_pge, 0xffffffff81000000ULL, pt_ipc_update_16);
		tnt("NT");
		pkt(ppt_tip_pgd, 0, pt_ipc_suppressed);
		*tsc += 10;
		pkt(ppt_tsc, *tsc, 0);
	}
}

/*
 * Kernel-only traces of a Skylake server, an SKZ84 TMA in every PSB+, the
 * scope left to the scan (check 69): its evidence, the TIP.PGE into
 * entry_SYSCALL_64, lies behind the TMA, which the scan reads past only
 * with the CPU's errata; without them it finds no address and assumes
 * user space. For fuzz_raw_pt.c: getpid and exit (je taken, do_exit's
 * jmp *%rdx leaves the traced code) across two PSBs. For fuzz_pardec.c
 * (raw mode, chunks of 32 B): getpids with a PSB+ every 50 (about 150
 * events apart: joins).
 */
static void skz84_seeds(void)
{
	/* raw_pt: scope from the trace, thread 100/101, CPU 6/85/4, 1 GHz TSC; txt writer */
	static const uint8_t raw[8] = { 0x34, 1, 3, 21, 0, 0, 0, 1 };
	/* pardec: raw mode, chunks of 32 B, 2 workers, scope from the trace, CPU 6/85/4 */
	static const uint8_t par[4] = { 0x01, 0, 0, 1 };
	uint64_t tsc = 0x1000;
	unsigned int i;

	start();
	psb_skz84(tsc);
	pkt(ppt_tip_pge, 0xffffffff81000000ULL, pt_ipc_sext_48);
	tnt("NT");
	pkt(ppt_tip_pgd, 0, pt_ipc_suppressed);
	psb_skz84(0x1200);
	pkt(ppt_tip_pge, 0xffffffff81000000ULL, pt_ipc_sext_48);
	tnt("T");
	pkt(ppt_tip_pgd, 0, pt_ipc_suppressed);
	out("raw_pt", "skz84-kernel-scope-from-scan", raw, sizeof(raw));

	start();
	for (i = 0; i < 4; i++) {
		psb_skz84(tsc);
		pkt(ppt_tip_pge, 0xffffffff81000000ULL, pt_ipc_sext_48);
		tnt("NT");
		pkt(ppt_tip_pgd, 0, pt_ipc_suppressed);
		getpids(49, &tsc);
	}
	out("pardec", "skz84-kernel-scope-from-scan", par, sizeof(par));
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
	spin_then_next_psb();
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
	pardec_seeds();
	skz84_seeds();
	return 0;
}
