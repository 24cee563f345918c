// SPDX-License-Identifier: GPL-2.0
/* Kernel code hashed at arm and at the end (ktext_hash.h). */
#include "ktext_hash.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kernel.h"
#include "procfs.h"

const struct pts_ktext_files pts_ktext_live = {
	.kallsyms = "/proc/kallsyms",
	.modules = "/proc/modules",
	.kcore = "/proc/kcore",
	.src = { .sysdir = "/sys/module", .vmallocinfo = "/proc/vmallocinfo" },
};

uint32_t pts_ktext_crc32(const void *buf, uint64_t len)
{
	const uint8_t *p = buf;
	uLong crc = crc32(0L, Z_NULL, 0);

	/* crc32() takes a uInt length: feed it in pieces */
	while (len) {
		uInt n = len > (1u << 30) ? (1u << 30) : (uInt)len;

		crc = crc32(crc, p, n);
		p += n;
		len -= n;
	}
	return (uint32_t)crc;
}

int pts_ktext_sums(const struct pts_ktext_files *f, struct pts_ktext_sum **out, size_t *nr,
		   struct pts_err *err)
{
	struct pts_ktext_range *plan = NULL;
	struct pts_ktext_sum *v = NULL;
	struct pts_kcore *kc = NULL;
	char *ks = NULL, *mt = NULL;
	size_t kslen = 0, mtlen = 0, np = 0, n = 0, i;
	struct pts_err e;
	int rc;

	*out = NULL;
	*nr = 0;
	rc = pts_read_file(f->kallsyms, &ks, &kslen, err);
	if (!rc && pts_read_file(f->modules, &mt, &mtlen, &e))
		mt = NULL;
	if (!rc)
		rc = pts_ktext_plan(ks, kslen, mt, mtlen, &f->src, &plan, &np, err);
	if (!rc)
		rc = pts_kcore_open(f->kcore, &kc, err);
	if (!rc && np) {
		v = calloc(np, sizeof(*v));
		if (!v)
			rc = pts_err_set(err, ENOMEM, "out of memory");
	}
	for (i = 0; !rc && i < np; i++) {
		uint64_t len;
		void *buf;

		if (pts_ktext_read(kc, &plan[i], &buf, &len, &e))
			continue;
		memcpy(v[n].name, plan[i].name, sizeof(v[n].name));
		v[n].vaddr = plan[i].vaddr;
		v[n].size = len;
		v[n].crc32 = pts_ktext_crc32(buf, len);
		n++;
		free(buf);
	}
	pts_kcore_close(kc);
	free(plan);
	free(ks);
	free(mt);
	if (rc) {
		free(v);
		return rc;
	}
	*out = v;
	*nr = n;
	return 0;
}

int pts_ktext_compare(struct pts_bundle *b, const struct pts_ktext_sum *arm, size_t nr_arm)
{
	size_t i, j;

	b->ktext_hashed = true;
	for (i = 0; i < b->nr_ktext; i++)
		b->ktext[i].has_crc32_arm = false;
	for (j = 0; j < nr_arm; j++) {
		bool found = false;

		for (i = 0; i < b->nr_ktext && !found; i++) {
			struct pts_bundle_ktext *k = &b->ktext[i];

			/* other bytes at that address (a BPF program replaced): loaded + gone */
			if (k->vaddr != arm[j].vaddr || k->size != arm[j].size || k->has_crc32_arm)
				continue;
			found = true;
			k->has_crc32_arm = true;
			k->crc32_arm = arm[j].crc32;
		}
		if (!found) {
			struct pts_bundle_ktext_gone *g =
				realloc(b->ktext_gone, (b->nr_ktext_gone + 1) * sizeof(*g));

			if (!g)
				return -ENOMEM;
			b->ktext_gone = g;
			g += b->nr_ktext_gone++;
			memset(g, 0, sizeof(*g));
			memcpy(g->name, arm[j].name, sizeof(g->name));
			g->vaddr = arm[j].vaddr;
			g->size = arm[j].size;
			g->crc32_arm = arm[j].crc32;
		}
	}
	return 0;
}
