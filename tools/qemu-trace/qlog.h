/* SPDX-License-Identifier: GPL-2.0 */
/*
 * QEMU TCG log reader: turns a log written with `-d exec,nochain,int,in_asm`
 * (or the HMP `log` command with those items) into the exact sequence of
 * executed guest instructions and asynchronous transfers of one CPU.
 *
 * What the log holds (QEMU 7.2, x86_64 system emulation):
 *   in_asm  "IN:" then one line per instruction, "0xADDR:  bb bb ..  text",
 *           printed when a translation block (TB) is translated; long
 *           instructions continue on a second "0xADDR:  bb" line. Only the
 *           bytes are used: instructions are re-decoded with Zydis through
 *           ptsynth_classify (QEMU prints unknown opcodes as .byte).
 *   exec    "Trace N: HOST [cs_base/pc/flags/cflags]" before each TB
 *           execution (nochain: every one); CPL = flags & 3.
 *           "Stopped execution of TB chain before HOST [pc]": the TB just
 *           announced did not run.
 *   int     "Servicing hardware INT=0xVV" (hardware interrupt) or
 *           "check_exception old: .. new 0xVV" (exception), then
 *           "N: v=VV e=EEEE i=I cpl=C IP=SEL:IP pc=PC SP=..." with a
 *           register dump (CR3 on its own line).
 * Rules: a hardware interrupt is taken between TBs, at pc = the next
 * unexecuted instruction; an exception cuts the current TB at the
 * faulting instruction pc (it did not retire and re-executes); a
 * REP-prefixed string instruction is executed once per iteration (a TB per
 * iteration) and retires once; a TB may be retranslated: each execution
 * uses the most recent translation of its pc.
 */
#ifndef QLOG_H
#define QLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

enum qx_kind {
	QX_INSN = 1,		/* an instruction retired */
	QX_ASYNC,		/* interrupt or exception taken before `ip` */
};

#define QX_F_REP	0x01	/* REP string instruction */
#define QX_F_SYSCALL	0x02	/* SYSCALL/SYSENTER */
#define QX_F_EXC	0x04	/* QX_ASYNC: an exception (fault) */
#define QX_F_HW		0x08	/* QX_ASYNC: a hardware interrupt */

/* One executed item. */
struct qx {
	uint64_t ip;		/* QX_INSN: its address; QX_ASYNC: where the
				 * interrupted code resumes (FUP IP) */
	uint8_t kind;		/* enum qx_kind */
	uint8_t size;		/* QX_INSN: bytes */
	uint8_t ring;		/* CPL the instruction ran at / was interrupted at */
	uint8_t iclass;		/* QX_INSN: enum ptsynth_iclass */
	uint8_t vector;		/* QX_ASYNC: IDT vector */
	uint8_t flags;		/* QX_F_* */
	uint64_t cr3;		/* QX_ASYNC: CR3 at the transfer */
	uint64_t sp;		/* QX_ASYNC: interrupted RSP */
};

/* The guest's executed code bytes (every translated instruction). */
struct qlog_bytes {
	uint64_t base;		/* first address of the window */
	size_t len;		/* bytes in the window */
	uint8_t *data;		/* 0xcc where nothing was translated */
	uint64_t lo, hi;	/* lowest and highest+1 translated address in it */
};

struct qlog {
	struct qx *x;
	size_t n, cap;
	/* statistics of the log */
	uint64_t tb_exec, tb_stopped, translations, retranslations, rep_merged;
	uint64_t exceptions, hw_interrupts, sw_interrupts, unplaced;
	uint64_t untranslated;	/* TB executions with no translation in the log */
	struct qlog_bytes kernel;	/* kernel text, [kbase, kbase + klen) */
};

/*
 * Read the log at `path`; kernel code bytes inside [kbase, kbase + klen)
 * are collected into q->kernel. Returns 0, -ENOENT (cannot open), -EINVAL
 * (a line that does not parse: err names the line), -ENOMEM.
 */
int qlog_read(const char *path, uint64_t kbase, size_t klen, struct qlog *q,
	      struct pts_err *err);
void qlog_free(struct qlog *q);

#endif
