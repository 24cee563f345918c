/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel text for decoding: a kcore directory as `perf record --kcore`
 * writes it (DIR/kcore: an ELF core whose PT_LOAD segments hold kernel
 * bytes at their virtual addresses; DIR/kallsyms: symbol names).
 */
#ifndef PTS_DECODE_KCORE_H
#define PTS_DECODE_KCORE_H

#include "../util/err.h"
#include "image.h"

/*
 * Add DIR/kcore's PT_LOAD segments as kernel sections (every address
 * space) and DIR/kallsyms (if present) for names. Errors: -ENOENT no
 * DIR/kcore, -EINVAL not an ELF file, errors of pts_imgset_add_file.
 */
int pts_kcore_add(struct pts_imgset *set, const char *dir, struct pts_err *err);

#endif
