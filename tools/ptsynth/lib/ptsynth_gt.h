/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ground-truth file: what ran, and what a correct decoder must report,
 * one record per line, hex numbers without 0x (docs/ptsynth.md has the
 * full description):
 *
 *   # comment
 *   w OFFSET                  the trace file starts at stream byte OFFSET (ring wrap)
 *   m START END PGOFF FILE    executable image section [START,END) from FILE
 *                             (bundle-relative) at file offset PGOFF
 *   i IP CLASS [SIZE [SP]]    instruction retired and decodable (CLASS: ptsynth_iclass_name;
 *                             calls give their SIZE - the return address is IP + SIZE -
 *                             and, from ptsynth run, SP: the stack pointer after the call,
 *                             i.e. the address of the return address; a RET without an
 *                             immediate and an indirect JMP give SIZE and, as SP, the
 *                             slot just below their stack pointer after them: the one a
 *                             RET read, or a return done by a jump popped)
 *   l IP CLASS                instruction retired, packets lost to an overflow
 *   e IP                      tracing enabled at IP (TIP.PGE)
 *   d IP                      tracing disabled at the far transfer at IP (TIP.PGD)
 *   a IP                      asynchronous disable before IP (FUP + TIP.PGD)
 *   b IP TARGET               asynchronous branch from IP to TARGET (FUP + TIP)
 *   o IP                      overflow; decoding resumes at IP
 *   p OFFSET IP               PSB at stream byte OFFSET; FUP IP (0: tracing was off)
 *   k RING                    execution went to ring RING (ring transition, informative)
 *   t TID                     the CPU now runs thread TID (context switch, informative)
 */
#ifndef PTSYNTH_GT_H
#define PTSYNTH_GT_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "ptsynth_enc.h"
#include "util/err.h"

#define PTSYNTH_GT_HEADER "# ptsynth ground truth 1"

struct ptsynth_gt_map {
	uint64_t start, end, pgoff;
	char *file;
};

struct ptsynth_gt_ev {
	char kind;			/* one of the record letters above */
	uint8_t iclass;			/* enum ptsynth_iclass for i/l */
	uint64_t ip;
	uint64_t arg;			/* b: target; p: offset */
};

struct ptsynth_gt {
	uint64_t wrap_offset;		/* 'w' */
	struct ptsynth_gt_map *maps;
	size_t nr_maps;
	struct ptsynth_gt_ev *ev;
	size_t nr_ev;
};

/* Write one encoder record as a line. Returns 0 or -errno (-ENOSPC). */
int ptsynth_gt_write_rec(FILE *f, const struct ptsynth_gt_rec *r);
/* Same, adding sp (when not 0) to a CALL's line: the stack pointer after
 * it executed, which tells which frames are still alive at any later call
 * (longjmp and exceptions release frames without RETs); and to a RET's
 * line (with its size): the address of the slot it read its target from,
 * which tells the frame it ends from one of another stack that saved the
 * same address (swapcontext, a runtime's stack switch); and to an
 * indirect JMP's line (with its size): the slot just below its stack
 * pointer, which a switch that returns by a jump (`pop %r8; jmp *%r8`:
 * Boost.Context's jump_fcontext) popped its target from. */
int ptsynth_gt_write_rec_sp(FILE *f, const struct ptsynth_gt_rec *r, uint64_t sp);

/*
 * Read a ground-truth file. Errors: -ENOENT (missing), -EINVAL (bad line:
 * err says which line), -ENOMEM. Free with ptsynth_gt_free.
 */
int ptsynth_gt_read(const char *path, struct ptsynth_gt *gt, struct pts_err *err);
void ptsynth_gt_free(struct ptsynth_gt *gt);

/* Class letter/name parse: -1 if unknown. */
int ptsynth_iclass_parse(const char *name);

#endif /* PTSYNTH_GT_H */
