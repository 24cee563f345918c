// SPDX-License-Identifier: GPL-2.0
/* A small open-addressing hash map: see hmap.h. */
#include "hmap.h"

#include <stdlib.h>
#include <string.h>

static uint64_t fnv1a(const void *key, size_t klen)
{
	const unsigned char *p = key;
	uint64_t h = 0xcbf29ce484222325ULL;

	while (klen--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static size_t probe(struct pts_hmap *m, uint64_t h, const void *key, size_t klen)
{
	size_t i = (size_t)h & (m->cap - 1);

	for (;;) {
		const struct pts_hent *e = m->slots[i];

		m->probes++;
		if (!e || (e->hash == h && e->klen == klen && !memcmp(e->key, key, klen)))
			return i;
		i = (i + 1) & (m->cap - 1);
	}
}

struct pts_hent *pts_hmap_find(struct pts_hmap *m, const void *key, size_t klen)
{
	if (!m->cap)
		return NULL;
	return m->slots[probe(m, fnv1a(key, klen), key, klen)];
}

static int grow(struct pts_hmap *m)
{
	size_t cap = m->cap ? 2 * m->cap : 64, i;
	struct pts_hent **old = m->slots;
	struct pts_hmap n = { calloc(cap, sizeof(*old)), cap, m->n, m->probes };

	if (!n.slots)
		return -1;
	for (i = 0; i < m->cap; i++)
		if (old[i])
			n.slots[probe(&n, old[i]->hash, old[i]->key, old[i]->klen)] = old[i];
	free(old);
	*m = n;
	return 0;
}

struct pts_hent *pts_hmap_get(struct pts_hmap *m, const void *key, size_t klen, bool *created)
{
	uint64_t h = fnv1a(key, klen);
	struct pts_hent *e;
	size_t i;

	*created = false;
	if ((m->n + 1) * 2 > m->cap && grow(m))
		return NULL;
	i = probe(m, h, key, klen);
	if (m->slots[i])
		return m->slots[i];
	e = calloc(1, sizeof(*e) + klen + 1);
	if (!e)
		return NULL;
	e->hash = h;
	e->klen = klen;
	memcpy(e->key, key, klen);
	m->slots[i] = e;
	m->n++;
	*created = true;
	return e;
}

void pts_hmap_clear(struct pts_hmap *m, void (*free_val)(struct pts_hent *e))
{
	size_t i;

	for (i = 0; i < m->cap; i++) {
		if (!m->slots[i])
			continue;
		if (free_val)
			free_val(m->slots[i]);
		free(m->slots[i]);
		m->slots[i] = NULL;
	}
	m->n = 0;
}

void pts_hmap_free(struct pts_hmap *m, void (*free_val)(struct pts_hent *e))
{
	pts_hmap_clear(m, free_val);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
