/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libipt's instruction flow: every instruction libipt's instruction
 * decoder (pt_insn_*) reports for a stream, in order, one address a line.
 * The reference the decoder-fidelity check (tests/fidelity) compares
 * `ptscope decode --insn-list` with, on streams of any origin (reference
 * encoder, libipt's encoder, real captures, whole-system traces).
 */
#ifndef PTSYNTH_LIST_H
#define PTSYNTH_LIST_H

#include <intel-pt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/err.h"

struct ptsynth_list_result {
	uint64_t insns;		/* instructions written */
	uint64_t errors;	/* decode errors, each followed by a resync at the next PSB */
	uint64_t syncs;		/* synchronisations (the first one included) */
};

/*
 * Decode pt[0..len) over `image` (errata from cpu; NULL: none) and write
 * the IP of every instruction the decoder returns as lower-case hex
 * without 0x, one a line, as `ptscope decode --insn-list` does. As ptxed
 * does, a decode error ends the current run and decoding goes on from the
 * next PSB (res->errors counts them; the list shows no marker, since the
 * other list has none); a stream without a PSB lists nothing.
 * Returns 0; -ENOMEM; -EPROTO when libipt refuses the image; -EIO when
 * writing to `out` fails.
 */
int ptsynth_list_stream(const uint8_t *pt, size_t len, struct pt_image *image,
			const struct pt_cpu *cpu, FILE *out, struct ptsynth_list_result *res,
			struct pts_err *err);

#endif /* PTSYNTH_LIST_H */
