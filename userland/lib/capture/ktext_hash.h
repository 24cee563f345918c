/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel code changed during a capture. Code is patched while the kernel
 * runs (text_poke: static keys, ftrace, kprobes; livepatch) and BPF
 * programs, trampolines and modules come and go; a bundle copies the code
 * once, at the end. The same ranges (ktext_plan.h) are hashed at arm and
 * the copies at the end; a range whose hash differs, one that appeared and
 * one that went away are recorded in the bundle (docs/bundle-format.md
 * 3.10) and said by the capture and by `decode --summary`.
 *
 * The hash is CRC-32 as zlib computes it (crc32(), the ISO-HDLC
 * polynomial): zlib is already linked, in the static build too. It tells
 * changed code from unchanged code, not a forgery from the original: a
 * changed range goes unnoticed with probability 2^-32.
 */
#ifndef PTS_CAPTURE_KTEXT_HASH_H
#define PTS_CAPTURE_KTEXT_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "../bundle/bundle.h"
#include "../util/err.h"
#include "ktext_plan.h"

/* One range as hashed at arm. */
struct pts_ktext_sum {
	char name[64];
	uint64_t vaddr, size;	/* bytes actually hashed */
	uint32_t crc32;
};

/* CRC-32 of len bytes (zlib crc32()). */
uint32_t pts_ktext_crc32(const void *buf, uint64_t len);

/* The files the sums are read from; tests give their own. */
struct pts_ktext_files {
	const char *kallsyms;		/* "/proc/kallsyms" */
	const char *modules;		/* "/proc/modules" */
	const char *kcore;		/* "/proc/kcore" */
	struct pts_ktext_src src;	/* sysfs and vmallocinfo */
};

/* The running system's files. */
extern const struct pts_ktext_files pts_ktext_live;

/*
 * Hash every range of the plan as it is now. *out malloc'd. 0, or -errno
 * with err set when there is no kernel text to hash (kallsyms or kcore
 * unreadable): the capture then says nothing of changes. A range that
 * cannot be read is left out.
 */
int pts_ktext_sums(const struct pts_ktext_files *f, struct pts_ktext_sum **out, size_t *nr,
		   struct pts_err *err);

/*
 * Compare the bundle's kernel.text[] (with crc32 set) to the sums taken
 * at arm: each range at the same address and of the same size gets
 * crc32_arm; the ranges of arm with no such copy become ktext_gone[] (so
 * code replaced by other code at its address is one range gone and one
 * loaded); ktext_hashed is set. 0 or -ENOMEM.
 */
int pts_ktext_compare(struct pts_bundle *b, const struct pts_ktext_sum *arm, size_t nr_arm);

#endif
