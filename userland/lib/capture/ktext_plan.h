/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kernel code a kernel-scope bundle carries: vmlinux _stext.._etext
 * (kallsyms), each module's code (kmodtext.h) and the code kallsyms names
 * outside both (ktext_extra.h), with the bundle file each goes to. The same
 * list is read twice: hashed at arm and copied (and hashed) at the end, so
 * that code changed or loaded/unloaded during the capture can be told
 * (ktext_hash.h).
 */
#ifndef PTS_CAPTURE_KTEXT_PLAN_H
#define PTS_CAPTURE_KTEXT_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../util/err.h"
#include "kernel.h"

struct pts_ktext_range {
	char name[64];		/* "vmlinux", the module's name, the first symbol */
	char file[128];		/* bundle file: kernel/NAME.text, kernel/extraN.text */
	uint64_t vaddr, size;	/* kernel virtual address, bytes */
	bool extra;		/* code outside the text sections: may end at its page */
};

/* Where the plan reads from; tests give their own files. */
struct pts_ktext_src {
	const char *sysdir;		/* "/sys/module" */
	const char *vmallocinfo;	/* "/proc/vmallocinfo", NULL none */
};

/*
 * The ranges for kallsyms text ks (kslen bytes) and /proc/modules text mt
 * (NULL: no modules). *out malloc'd. 0, or -errno with err set when there
 * is no vmlinux range (no _stext/_etext, zeroed addresses): the kernel text
 * cannot be placed then.
 */
int pts_ktext_plan(const char *ks, size_t kslen, const char *mt, size_t mtlen,
		   const struct pts_ktext_src *src, struct pts_ktext_range **out, size_t *nr,
		   struct pts_err *err);

/*
 * Read range r from kcore into a malloc'd *buf; *len is r->size, or for
 * extra code that cannot be read whole, its bytes to the end of its 4 KiB
 * page. 0 or -errno with err set.
 */
int pts_ktext_read(struct pts_kcore *kc, const struct pts_ktext_range *r, void **buf,
		   uint64_t *len, struct pts_err *err);

#endif
