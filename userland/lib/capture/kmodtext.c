// SPDX-License-Identifier: GPL-2.0
/* A loaded module's code extent (kmodtext.h). */
#include "kmodtext.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool pts_ksection_is_text(const char *name)
{
	size_t n = strlen(name);

	if (!strncmp(name, ".init", 5))
		return false;
	return !strcmp(name, ".text") || !strncmp(name, ".text.", 6) ||
	       (n > 5 && !strcmp(name + n - 5, ".text")) ||
	       !strncmp(name, ".altinstr_", 10) || !strcmp(name, ".fixup");
}

static int by_start(const void *a, const void *b)
{
	const struct pts_vmarea *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

int pts_vmallocinfo_parse(const char *text, size_t len, struct pts_vmarea **out, size_t *nr)
{
	const char *p = text, *e = text + len;
	struct pts_vmarea *v = NULL;
	size_t n = 0, cap = 0;

	*out = NULL;
	*nr = 0;
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		char line[512];
		unsigned long long s, t, pages;
		const char *pg;

		if ((size_t)(le - p) < sizeof(line)) {
			memcpy(line, p, (size_t)(le - p));
			line[le - p] = '\0';
			if (sscanf(line, "0x%llx-0x%llx", &s, &t) == 2 && t > s) {
				pg = strstr(line, " pages=");
				if (pg && sscanf(pg, " pages=%llu", &pages) == 1 &&
				    pages <= (t - s) / 4096)
					t = s + pages * 4096;
				else if (t - s > 4096)
					t -= 4096;	/* the guard page */
				if (n == cap) {
					void *nv = realloc(v, (cap = cap ? cap * 2 : 256) * sizeof(*v));

					if (!nv) {
						free(v);
						return -ENOMEM;
					}
					v = nv;
				}
				v[n].start = s;
				v[n].end = t;
				n++;
			}
		}
		p = le + 1;
	}
	if (n)
		qsort(v, n, sizeof(*v), by_start);
	*out = v;
	*nr = n;
	return 0;
}

bool pts_kmodule_text_extent(const struct pts_ksection *secs, size_t nr_secs, uint64_t base,
			     uint64_t size, const struct pts_vmarea *areas, size_t nr_areas,
			     uint64_t *text, uint64_t *text_size)
{
	uint64_t lo = UINT64_MAX, hi = 0, end = 0;
	size_t i;

	*text = 0;
	*text_size = 0;
	for (i = 0; i < nr_secs; i++) {
		if (!secs[i].addr || !pts_ksection_is_text(secs[i].name))
			continue;
		if (secs[i].addr < lo)
			lo = secs[i].addr;
		if (secs[i].addr > hi)
			hi = secs[i].addr;
	}
	if (lo == UINT64_MAX)
		return false;
	for (i = 0; i < nr_areas; i++)
		if (areas[i].start <= lo && lo < areas[i].end) {
			end = areas[i].end;
			break;
		}
	if (!end)
		end = base && base <= lo && lo < base + size ? base + size : lo + size;
	/*
	 * The first non-code section after the code at a page boundary ends
	 * it (6.1: the read-only data starts on a page of its own). Code
	 * sections of names not known here start anywhere in the code's last
	 * pages: a page boundary keeps them in.
	 */
	for (i = 0; i < nr_secs; i++)
		if (secs[i].addr > hi && secs[i].addr < end && !(secs[i].addr & 0xfff) &&
		    !pts_ksection_is_text(secs[i].name) && strncmp(secs[i].name, ".init", 5))
			end = secs[i].addr;
	if (end <= lo)
		return false;
	*text = lo;
	*text_size = end - lo;
	return true;
}
