// SPDX-License-Identifier: GPL-2.0
/* Min-heap of CPUs by the time of their next event (cpuheap.h). */
#include "cpuheap.h"

#include <errno.h>
#include <stdlib.h>

int pts_cpuheap_init(struct pts_cpuheap *h, unsigned int cap)
{
	h->v = calloc(cap ? cap : 1, sizeof(*h->v));
	h->n = 0;
	h->cap = cap;
	return h->v ? 0 : -ENOMEM;
}

void pts_cpuheap_free(struct pts_cpuheap *h)
{
	free(h->v);
	h->v = NULL;
	h->n = h->cap = 0;
}

static bool less(const struct pts_cpuheap_ent *a, const struct pts_cpuheap_ent *b)
{
	return a->key < b->key || (a->key == b->key && a->idx < b->idx);
}

static void swap(struct pts_cpuheap *h, unsigned int i, unsigned int j)
{
	struct pts_cpuheap_ent t = h->v[i];

	h->v[i] = h->v[j];
	h->v[j] = t;
}

static void sift_down(struct pts_cpuheap *h, unsigned int i)
{
	for (;;) {
		unsigned int l = 2 * i + 1, r = l + 1, m = i;

		if (l < h->n && less(&h->v[l], &h->v[m]))
			m = l;
		if (r < h->n && less(&h->v[r], &h->v[m]))
			m = r;
		if (m == i)
			return;
		swap(h, i, m);
		i = m;
	}
}

void pts_cpuheap_push(struct pts_cpuheap *h, uint64_t key, unsigned int idx)
{
	unsigned int i;

	if (h->n == h->cap)
		return;
	i = h->n++;
	h->v[i].key = key;
	h->v[i].idx = idx;
	while (i && less(&h->v[i], &h->v[(i - 1) / 2])) {
		swap(h, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

const struct pts_cpuheap_ent *pts_cpuheap_second(const struct pts_cpuheap *h)
{
	if (h->n < 2)
		return NULL;
	/* the top's children: every other entry is after one of them */
	if (h->n == 2 || less(&h->v[1], &h->v[2]))
		return &h->v[1];
	return &h->v[2];
}

void pts_cpuheap_update_top(struct pts_cpuheap *h, uint64_t key)
{
	if (!h->n)
		return;
	h->v[0].key = key;
	sift_down(h, 0);
}

void pts_cpuheap_pop(struct pts_cpuheap *h)
{
	if (!h->n)
		return;
	h->v[0] = h->v[--h->n];
	sift_down(h, 0);
}
