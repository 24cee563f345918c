/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One CPU's raw PT decoded in the calling thread (decode/ptdec.h) as a
 * branch source (decode/brsrc.h): raw --pt files and a bundle's per-CPU
 * traces both reach the session this way.
 */
#ifndef PTS_DECODE_PTDEC_SRC_H
#define PTS_DECODE_PTDEC_SRC_H

#include "brsrc.h"
#include "ptdec.h"

/*
 * A decoder for cfg (as pts_ptdec_new: its buffer and images must outlive
 * the source). The source's cpu is cfg->cpu; done counts trace bytes.
 * Errors: those of pts_ptdec_new (-ENOMEM, -EINVAL).
 */
int pts_ptdec_src_new(const struct pts_ptdec_config *cfg, struct pts_brsrc **out,
		      struct pts_err *err);

/*
 * st from a PT decoder's statistics d (the serial decoder's or those a
 * parallel decode joined): every field but joins and refused.
 */
void pts_ptdec_src_stats(const struct pts_ptdec_stats *d, struct pts_brsrc_stats *st);

#endif /* PTS_DECODE_PTDEC_SRC_H */
