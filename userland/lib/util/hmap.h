/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small open-addressing hash map (FNV-1a, linear probing, load <= 1/2)
 * with byte-string keys and one 64-bit or pointer value: the writers'
 * interning tables, thread stacks and folded-stack counts, and the
 * timeline's threads and processes. Entries are never removed one by
 * one, only all at once. A zeroed struct pts_hmap is an empty map.
 */
#ifndef PTS_UTIL_HMAP_H
#define PTS_UTIL_HMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pts_hent {
	uint64_t hash;
	size_t klen;
	union {
		uint64_t u;
		void *p;
	} v;
	char key[];		/* klen bytes, then a NUL (keys may be strings) */
};

struct pts_hmap {
	struct pts_hent **slots;	/* open addressing, cap is a power of 2 */
	size_t cap, n;
	/* slots looked at by finds and gets: the cost of lookups, for tests */
	uint64_t probes;
};

/* Entry with this key, or NULL. */
struct pts_hent *pts_hmap_find(struct pts_hmap *m, const void *key, size_t klen);

/*
 * Entry with this key, created (value zeroed, *created = true) if absent.
 * Returns NULL when out of memory.
 */
struct pts_hent *pts_hmap_get(struct pts_hmap *m, const void *key, size_t klen, bool *created);

/* Remove every entry; free_val (may be NULL) is called on each first. */
void pts_hmap_clear(struct pts_hmap *m, void (*free_val)(struct pts_hent *e));

/* pts_hmap_clear, and the slot array freed: the map is empty and zeroed. */
void pts_hmap_free(struct pts_hmap *m, void (*free_val)(struct pts_hent *e));

#endif /* PTS_UTIL_HMAP_H */
