/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Self-check: decode a ptsynth stream with libipt's instruction decoder
 * (pt_insn_*) and compare, record by record, with the ground truth:
 * every instruction, every enable, disable, asynchronous transfer and
 * overflow, in order. Timing events are not compared.
 */
#ifndef PTSYNTH_CHECK_H
#define PTSYNTH_CHECK_H

#include <intel-pt.h>
#include <stddef.h>
#include <stdint.h>

#include "ptsynth_gt.h"
#include "util/err.h"

struct ptsynth_check_result {
	uint64_t insns;			/* instructions matched */
	uint64_t events;		/* enable/disable/async/overflow matched */
	uint64_t expected_insns;	/* decodable instructions in the ground truth */
	uint64_t skipped;		/* ground-truth records before the first sync point */
	/*
	 * Instructions libipt decoded past the ground truth's last one: a
	 * trace that stops while enabled (no TIP.PGD) is walked on to the
	 * first branch that needs trace. insns + walked: every instruction
	 * libipt's instruction decoder returns for the stream.
	 */
	uint64_t walked;
};

/*
 * Decode pt[0..len) (the trace file; gt->wrap_offset is the stream offset
 * of its first byte) with libipt's instruction decoder over `image` and
 * compare with gt. cpu may be NULL (no errata). Returns 0 when every
 * record matches; -EPROTO on the first difference or decode error
 * (err->msg names the record index, the expected and the decoded item);
 * -ENOMEM.
 */
int ptsynth_check_stream(const uint8_t *pt, size_t len, const struct ptsynth_gt *gt,
			 struct pt_image *image, const struct pt_cpu *cpu,
			 struct ptsynth_check_result *res, struct pts_err *err);

/*
 * Same, reading `pt_path` and `gt_path`; image sections are the gt's 'm'
 * records, their files relative to base_dir. Errors as above, plus
 * -ENOENT for a missing file.
 */
int ptsynth_check_files(const char *pt_path, const char *gt_path, const char *base_dir,
			struct ptsynth_check_result *res, struct pts_err *err);

#endif /* PTSYNTH_CHECK_H */
