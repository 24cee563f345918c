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
#include <stdio.h>
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
 * records, their files relative to base_dir. When `list` is not NULL,
 * every instruction libipt's decoder reports is first written to it
 * (ptsynth_list_stream), whether or not it matches. Errors as above, plus
 * -ENOENT for a missing file, -EIO when the list cannot be written.
 */
int ptsynth_check_files(const char *pt_path, const char *gt_path, const char *base_dir,
			FILE *list, struct ptsynth_check_result *res, struct pts_err *err);

/*
 * An instruction decoder for pt[0..len) over `image`: the bytes are copied
 * (with padding, see the .c), errata from `cpu` (NULL: none). On success
 * *decp and *copyp belong to the caller (pt_insn_free_decoder, free).
 * Errors: -ENOMEM, -EPROTO (libipt refused the image).
 */
int ptsynth_insn_decoder(const uint8_t *pt, size_t len, struct pt_image *image,
			 const struct pt_cpu *cpu, struct pt_insn_decoder **decp,
			 uint8_t **copyp, struct pts_err *err);

/*
 * Add `size` bytes of file `path` from `offset` at `vaddr` to `image`
 * through `isc`. Errors: -ENOENT (file unreadable or range outside it),
 * -EINVAL (libipt refused the section).
 */
int ptsynth_image_add(struct pt_image_section_cache *isc, struct pt_image *image,
		      const char *path, uint64_t offset, uint64_t size, uint64_t vaddr,
		      struct pts_err *err);

/* Read a whole file into *buf (malloc'ed, *len bytes). Errors: -errno of
 * fopen (e.g. -ENOENT), -ENOMEM. */
int ptsynth_read_file(const char *path, uint8_t **buf, size_t *len, struct pts_err *err);

#endif /* PTSYNTH_CHECK_H */
