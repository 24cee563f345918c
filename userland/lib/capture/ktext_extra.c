// SPDX-License-Identifier: GPL-2.0
/* Kernel code outside vmlinux and module text, from kallsyms (ktext_extra.h). */
#include "ktext_extra.h"
#include "../util/kallsyms_line.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ksym {
	uint64_t addr;
	bool extra;		/* in one of the modules of ktext_extra.h */
	const char *name;	/* into the text, name_len bytes */
	size_t name_len;
};

/* Modules (kallsyms' last column) whose symbols are code outside any text section. */
static bool extra_module(const char *m, size_t n)
{
	static const char *const mods[] = { "[bpf]", "[__builtin__ftrace]",
					    "[__builtin__kprobes]" };
	size_t i;

	for (i = 0; i < sizeof(mods) / sizeof(mods[0]); i++)
		if (n == strlen(mods[i]) && !memcmp(m, mods[i], n))
			return true;
	return false;
}

/* One kallsyms line naming a symbol; false when it is not one. */
static bool parse(const char *p, const char *e, struct ksym *k)
{
	struct pts_kallsyms_line l;

	if (pts_kallsyms_line(p, e, &l))
		return false;
	k->addr = l.addr;
	k->name = l.name;
	k->name_len = l.name_len;
	k->extra = l.mod && extra_module(l.mod, l.mod_len);
	return true;
}

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int pts_kallsyms_extra_text(const char *text, size_t len, struct pts_krange **out, size_t *nr)
{
	const char *p = text, *e = text + len;
	struct ksym *v = NULL;
	struct pts_krange *r = NULL;
	size_t n = 0, cap = 0, nr_r = 0, i, j;

	*out = NULL;
	*nr = 0;
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		struct ksym k;

		if (parse(p, le, &k) && k.addr) {
			if (n == cap) {
				void *nv = realloc(v, (cap = cap ? cap * 2 : 1024) * sizeof(*v));

				if (!nv) {
					free(v);
					return -ENOMEM;
				}
				v = nv;
			}
			v[n++] = k;
		}
		p = le + 1;
	}
	if (n)
		qsort(v, n, sizeof(*v), by_addr);
	for (i = 0; i < n; i++) {
		uint64_t end;

		if (!v[i].extra)
			continue;
		for (j = i + 1; j < n && v[j].addr == v[i].addr; j++)
			;
		if (j < n)
			end = v[j].addr - v[i].addr > PTS_KTEXT_EXTRA_MAX ?
			      v[i].addr + PTS_KTEXT_EXTRA_MAX : v[j].addr;
		else if ((v[i].addr | 0xfff) != UINT64_MAX)
			end = (v[i].addr | 0xfff) + 1;
		else	/* the last page: its end, 2^64, does not fit; one byte short */
			end = UINT64_MAX;
		if (end <= v[i].addr)	/* at the last address: no byte to take */
			continue;
		if (nr_r && r[nr_r - 1].end >= v[i].addr) {
			if (end > r[nr_r - 1].end)
				r[nr_r - 1].end = end;
			continue;
		}
		if (!(nr_r & (nr_r - 1))) {
			void *nv = realloc(r, (nr_r ? nr_r * 2 : 1) * sizeof(*r));

			if (!nv) {
				free(r);
				free(v);
				return -ENOMEM;
			}
			r = nv;
		}
		snprintf(r[nr_r].name, sizeof(r[nr_r].name), "%.*s",
			 (int)(v[i].name_len < 63 ? v[i].name_len : 63), v[i].name);
		r[nr_r].start = v[i].addr;
		r[nr_r].end = end;
		nr_r++;
	}
	free(v);
	*out = r;
	*nr = nr_r;
	return 0;
}
