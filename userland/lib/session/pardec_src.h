/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One CPU's raw PT decoded in chunks by the worker pool (pardec.h) as a
 * branch source (decode/brsrc.h): the same events as the serial source
 * (decode/ptdec_src.h), so the session merges either the same way.
 */
#ifndef PTS_SESSION_PARDEC_SRC_H
#define PTS_SESSION_PARDEC_SRC_H

#include "../decode/brsrc.h"
#include "pardec.h"

/*
 * As pts_pcpu_new (cfg, chunk_bytes, scan; the pool outlives the
 * source). The source's cpu is cfg->cpu; done counts trace bytes; its
 * stats include the joins made and refused. Errors: -ENOMEM.
 */
int pts_pardec_src_new(struct pts_pool *pool, const struct pts_ptdec_config *cfg,
		       size_t chunk_bytes, struct pts_pcpu_scan *scan, struct pts_brsrc **out,
		       struct pts_err *err);

#endif /* PTS_SESSION_PARDEC_SRC_H */
