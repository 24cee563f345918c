// SPDX-License-Identifier: GPL-2.0
/* Merge of the per-CPU sideband streams by TSC. See sbmerge.h. */
#include "sbmerge.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>
#include "uapi/ptscope.h"

struct sbref {
	uint64_t tsc;
	size_t off;		/* in the input: also the tie-break (stability) */
	uint16_t size;
};

static int cmp_ref(const void *a, const void *b)
{
	const struct sbref *x = a, *y = b;

	if (x->tsc != y->tsc)
		return x->tsc < y->tsc ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

long long pts_sb_merge(uint8_t *buf, size_t len)
{
	struct sbref *refs = NULL;
	size_t n = 0, cap = 0, off = 0, i, out;
	uint8_t *tmp;

	while (off + sizeof(struct ptscope_sb_hdr) <= len) {
		struct ptscope_sb_hdr h;

		memcpy(&h, buf + off, sizeof(h));
		if (h.size < sizeof(h) || h.size % 8 || h.size > len - off)
			break;
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 256;
			struct sbref *nr = realloc(refs, nc * sizeof(*nr));

			if (!nr) {
				free(refs);
				return -ENOMEM;
			}
			refs = nr;
			cap = nc;
		}
		refs[n].tsc = h.tsc;
		refs[n].off = off;
		refs[n].size = h.size;
		n++;
		off += h.size;
	}
	if (!n) {
		free(refs);
		return 0;
	}
	tmp = malloc(off);
	if (!tmp) {
		free(refs);
		return -ENOMEM;
	}
	qsort(refs, n, sizeof(*refs), cmp_ref);
	for (i = 0, out = 0; i < n; i++) {
		memcpy(tmp + out, buf + refs[i].off, refs[i].size);
		out += refs[i].size;
	}
	memcpy(buf, tmp, off);
	free(tmp);
	free(refs);
	return (long long)off;
}
