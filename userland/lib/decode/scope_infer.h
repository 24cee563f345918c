/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which privilege levels a raw trace recorded, read from the trace itself.
 *
 * Packets carry no privilege level, but their IPs do: the upper canonical
 * half is the kernel's. A trace that holds user-space and kernel addresses
 * in the IPs of TIP, TIP.PGE and FUP packets (code that ran traced) was
 * recorded with RTIT_CTL.OS and .User (scope both); only user-space
 * addresses: User only; only kernel addresses: OS only. TIP.PGD IPs do not
 * count: they name where tracing went off, code that was not traced. The
 * enable/disable pattern agrees: with one level traced, every crossing to
 * the other is a TIP.PGD/TIP.PGE pair, with both there are none (SDM
 * §33.4.2.3, §33.2.3 "Filtering by Current Privilege Level").
 */
#ifndef PTS_DECODE_SCOPE_INFER_H
#define PTS_DECODE_SCOPE_INFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../bundle/bundle.h"

struct pt_errata;

struct pts_scope_evidence {
	uint64_t user_ips;	/* TIP, TIP.PGE and FUP IPs in the lower canonical half */
	uint64_t kernel_ips;	/* ... in the upper half */
	uint64_t pge, pgd;	/* tracing enabled / disabled packets */
	uint64_t psbs;		/* synchronisation points found */
};

/*
 * Add the evidence of one trace buffer (len bytes at buf, as written by
 * one CPU; the scan starts at its first PSB) to ev. IPs are decompressed
 * against the last IP as the SDM describes (§33.4.2.2, "IP Compression"):
 * reset at PSB and OVF. Stops early once both halves were seen. The
 * packets are the ones the decoders read: libipt's packet decoder is given
 * the recording CPU's errata (errata, NULL: none; pt_cpu.h: with SKZ84 a
 * TMA whose reserved bits are set is passed over, not damage after which
 * the scan would resynchronise at the next PSB and miss the IPs between).
 * Errors: -ENOMEM (libipt's packet decoder cannot be allocated).
 */
int pts_scope_scan(const uint8_t *buf, size_t len, const struct pt_errata *errata,
		   struct pts_scope_evidence *ev);

/*
 * The most buffers pts_scope_scan_parts reads in step. More did not pay:
 * the scan keeps a last IP and four counts per buffer, and with three or
 * four the registers ran out (on a 10 MB bench-gen trace 12.3 ms with
 * two, 13.0 and 13.8 ms with three and four; docs/performance.md, "The
 * scans in step").
 */
#define PTS_SCOPE_CHAINS 2

/*
 * pts_scope_scan of each of the n buffers buf[i] (len[i] bytes; each
 * usually from a PSB on), PTS_SCOPE_CHAINS at a time read in step: each
 * packet's offset waits for the packet before it, so one scan leaves the
 * CPU idle where several fill it. ev as after the n calls; where both
 * halves were seen, the counts are of the packets read up to then (both
 * nonzero), as pts_scope_scan's are. Errors: -ENOMEM.
 */
int pts_scope_scan_parts(const uint8_t *const *buf, const size_t *len, unsigned int n,
			 const struct pt_errata *errata, struct pts_scope_evidence *ev);

/*
 * The scope the evidence shows, and in why (why_len bytes) a phrase that
 * says so for the summary ("from the trace: user-space and kernel
 * addresses"). False when the trace shows none: it holds no IP of traced
 * code, so no instruction of it can be decoded in any scope; *scope is then
 * PTS_SCOPE_USER and why says so and names --scope.
 */
bool pts_scope_decide(const struct pts_scope_evidence *ev, enum pts_scope *scope, char *why,
		      size_t why_len);

#endif
