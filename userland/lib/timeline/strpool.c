// SPDX-License-Identifier: GPL-2.0
/* String interning with an open-addressing hash table (FNV-1a). */
#include "strpool.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pts_strpool {
	char **slot;
	size_t cap, count;	/* cap is a power of two */
};

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

struct pts_strpool *pts_strpool_new(void)
{
	struct pts_strpool *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->cap = 256;
	p->slot = calloc(p->cap, sizeof(*p->slot));
	if (!p->slot) {
		free(p);
		return NULL;
	}
	return p;
}

static int grow(struct pts_strpool *p)
{
	size_t ncap = p->cap * 2, i;
	char **ns = calloc(ncap, sizeof(*ns));

	if (!ns)
		return -1;
	for (i = 0; i < p->cap; i++) {
		size_t j;

		if (!p->slot[i])
			continue;
		j = fnv1a(p->slot[i]) & (ncap - 1);
		while (ns[j])
			j = (j + 1) & (ncap - 1);
		ns[j] = p->slot[i];
	}
	free(p->slot);
	p->slot = ns;
	p->cap = ncap;
	return 0;
}

const char *pts_strpool_intern(struct pts_strpool *p, const char *s)
{
	size_t i;

	if (!s)
		return NULL;
	if ((p->count + 1) * 2 > p->cap && grow(p))
		return NULL;
	i = fnv1a(s) & (p->cap - 1);
	while (p->slot[i]) {
		if (!strcmp(p->slot[i], s))
			return p->slot[i];
		i = (i + 1) & (p->cap - 1);
	}
	p->slot[i] = strdup(s);
	if (!p->slot[i])
		return NULL;
	p->count++;
	return p->slot[i];
}

size_t pts_strpool_count(const struct pts_strpool *p)
{
	return p->count;
}

void pts_strpool_free(struct pts_strpool *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->cap; i++)
		free(p->slot[i]);
	free(p->slot);
	free(p);
}
