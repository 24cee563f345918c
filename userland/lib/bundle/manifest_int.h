/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal to userland/lib/bundle: consistency rules shared by the manifest
 * reader and writer (docs/bundle-format.md sections 3.4 and 3.7), so that a
 * bundle the writer accepts is one the reader accepts.
 */
#ifndef PTS_MANIFEST_INT_H
#define PTS_MANIFEST_INT_H

#include <stdint.h>

#include "bundle.h"
#include "ptscope/rtit.h"

/* Scope encoded by RTIT_CTL.OS (bit 2) and User (bit 3); 0 if neither. */
static inline enum pts_scope pts_manifest_scope_of_ctl(uint64_t ctl)
{
	return (enum pts_scope)(((ctl & RTIT_CTL_USER) ? PTS_SCOPE_USER : 0) |
				((ctl & RTIT_CTL_OS) ? PTS_SCOPE_KERNEL : 0));
}

/* RTIT_CTL.ADDRn_CFG (bits 35+4n:32+4n, SDM table 33-6). */
static inline uint32_t pts_manifest_addr_cfg_of_ctl(uint64_t ctl, unsigned int n)
{
	return (uint32_t)rtit_ctl_field_get(ctl, RTIT_CTL_ADDR_CFG_MASK(n),
					    RTIT_CTL_ADDR_CFG_SHIFT(n));
}

/*
 * Bytes a per-CPU file holds when nothing was lost: the whole ring once it
 * wrapped, the bytes before the head otherwise (section 3.7).
 */
static inline uint64_t pts_manifest_cpu_full_size(const struct pts_bundle_cpu *c)
{
	return c->wrapped ? c->buffer_size : c->head;
}

#endif /* PTS_MANIFEST_INT_H */
