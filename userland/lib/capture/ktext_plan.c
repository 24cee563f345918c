// SPDX-License-Identifier: GPL-2.0
/* The kernel code ranges a bundle carries (ktext_plan.h). */
#include "ktext_plan.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktext_extra.h"

static int add(struct pts_ktext_range **v, size_t *n, const char *name, const char *file,
	       uint64_t vaddr, uint64_t size, bool extra)
{
	struct pts_ktext_range *nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	memset(&nv[*n], 0, sizeof(nv[*n]));
	snprintf(nv[*n].name, sizeof(nv[*n].name), "%s", name);
	snprintf(nv[*n].file, sizeof(nv[*n].file), "%s", file);
	nv[*n].vaddr = vaddr;
	nv[*n].size = size;
	nv[*n].extra = extra;
	(*n)++;
	return 0;
}

int pts_ktext_plan(const char *ks, size_t kslen, const char *mt, size_t mtlen,
		   const struct pts_ktext_src *src, struct pts_ktext_range **out, size_t *nr,
		   struct pts_err *err)
{
	struct pts_ktext_range *v = NULL;
	struct pts_kmodule *mods = NULL;
	struct pts_krange *extra = NULL;
	size_t n = 0, nr_mods = 0, nr_extra = 0, i;
	struct pts_err e;
	uint64_t s, t;
	int rc;

	*out = NULL;
	*nr = 0;
	rc = pts_kallsyms_text_range(ks, kslen, &s, &t, err);
	if (rc)
		return rc;
	rc = add(&v, &n, "vmlinux", "kernel/vmlinux.text", s, t - s, false);
	if (!rc && mt && !pts_modules_parse(mt, mtlen, &mods, &nr_mods, &e)) {
		pts_kmodules_text(mods, nr_mods, src->sysdir, src->vmallocinfo);
		for (i = 0; i < nr_mods && !rc; i++) {
			char file[128];

			if (!mods[i].text || !mods[i].text_size)
				continue;
			snprintf(file, sizeof(file), "kernel/%s.text", mods[i].name);
			rc = add(&v, &n, mods[i].name, file, mods[i].text, mods[i].text_size, false);
		}
	}
	if (!rc && !pts_kallsyms_extra_text(ks, kslen, &extra, &nr_extra))
		for (i = 0; i < nr_extra && !rc; i++) {
			char file[64];

			snprintf(file, sizeof(file), "kernel/extra%zu.text", i);
			rc = add(&v, &n, extra[i].name, file, extra[i].start,
				 extra[i].end - extra[i].start, true);
		}
	free(mods);
	free(extra);
	if (rc) {
		free(v);
		return pts_err_set(err, -rc, "out of memory");
	}
	*out = v;
	*nr = n;
	return 0;
}

int pts_ktext_read(struct pts_kcore *kc, const struct pts_ktext_range *r, void **buf,
		   uint64_t *len, struct pts_err *err)
{
	/* the bytes left in vaddr's page: 1 to 4096 (its end may be 2^64, which no uint64_t holds) */
	uint64_t n = r->size, to_page_end = 0x1000 - (r->vaddr & 0xfff);
	void *b;
	int rc;

	*buf = NULL;
	*len = 0;
	if (!n || n > (1ULL << 30))
		return pts_err_set(err, EINVAL, "%s: %" PRIu64 " bytes of text", r->name, n);
	b = malloc(n);
	if (!b)
		return pts_err_set(err, ENOMEM, "out of memory");
	rc = pts_kcore_read(kc, r->vaddr, b, n, err);
	/* the next symbol may lie past the code's allocation: its page then */
	if (rc && r->extra && n > to_page_end) {
		n = to_page_end;
		rc = pts_kcore_read(kc, r->vaddr, b, n, err);
	}
	if (rc) {
		free(b);
		return rc;
	}
	*buf = b;
	*len = n;
	return 0;
}
