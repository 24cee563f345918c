// SPDX-License-Identifier: GPL-2.0
/* Folding of old sideband records into each CPU's task. See sbfold.h. */
#include "sbfold.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>
#include "uapi/ptscope.h"

#include "sbmerge.h"

#define FOLD_MAX_CPUS 8192U	/* as the bundle reader's PTS_SB_MAX_CPUS */

/* What the folded part says about one CPU. */
struct cpu_fold {
	size_t task_off;	/* its last task record, SIZE_MAX none (or a LOST after it) */
	uint64_t last_tsc;	/* of its last record */
	uint64_t dropped;	/* records dropped, LOST counts included: the new LOST count */
	uint64_t removed;	/* records removed by this fold (LOST records not counted) */
	bool seen;
};

struct out_rec {
	uint64_t tsc;
	uint32_t cpu;
	size_t off;		/* a kept record in buf, SIZE_MAX: a LOST record to make */
	uint64_t count;		/* that LOST record's count */
};

static int cmp_out(const void *a, const void *b)
{
	const struct out_rec *x = a, *y = b;

	if (x->tsc != y->tsc)
		return x->tsc < y->tsc ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	/* a CPU's LOST record before its kept record */
	return (x->off != SIZE_MAX) - (y->off != SIZE_MAX);
}

static bool is_task_record(const struct ptscope_sb_hdr *h)
{
	return (h->type == PTSCOPE_SB_SCHED_SWITCH && h->size >= sizeof(struct ptscope_sb_switch)) ||
	       (h->type == PTSCOPE_SB_TRACE_START && h->size >= sizeof(struct ptscope_sb_trace));
}

long long pts_sb_fold(uint8_t *buf, size_t len, uint64_t horizon, uint64_t *dropped)
{
	struct cpu_fold *cpus = calloc(FOLD_MAX_CPUS, sizeof(*cpus));
	struct out_rec *outs = NULL;
	size_t off = 0, nout = 0, capout = 0, i, pos, need = 0;
	uint64_t ndrop = 0;
	uint8_t *head;

	if (!cpus)
		return -ENOMEM;
	for (i = 0; i < FOLD_MAX_CPUS; i++)
		cpus[i].task_off = SIZE_MAX;
	/* the folded part: whole records below the horizon */
	while (off + sizeof(struct ptscope_sb_hdr) <= len) {
		struct ptscope_sb_hdr h;
		struct cpu_fold *c;

		memcpy(&h, buf + off, sizeof(h));
		if (h.size < sizeof(h) || h.size % 8 || h.size > len - off ||
		    h.cpu >= FOLD_MAX_CPUS || h.tsc >= horizon)
			break;
		c = &cpus[h.cpu];
		c->seen = true;
		c->last_tsc = h.tsc;
		c->dropped++;
		c->removed++;
		if (is_task_record(&h)) {
			c->task_off = off;
		} else if (h.type == PTSCOPE_SB_LOST && h.size >= sizeof(struct ptscope_sb_lost)) {
			struct ptscope_sb_lost l;

			memcpy(&l, buf + off, sizeof(l));
			c->dropped += l.count - 1;	/* this record is not dropped by itself */
			c->removed--;
			c->task_off = SIZE_MAX;
		} else if (h.type == PTSCOPE_SB_TRIGGER) {
			c->dropped--;
			c->removed--;
			if (nout == capout) {
				size_t nc = capout ? capout * 2 : 64;
				struct out_rec *no = realloc(outs, nc * sizeof(*no));

				if (!no)
					goto nomem;
				outs = no;
				capout = nc;
			}
			outs[nout++] = (struct out_rec){ h.tsc, h.cpu, off, 0 };
			need += h.size;
		}
		off += h.size;
	}
	for (i = 0; i < FOLD_MAX_CPUS; i++) {
		struct cpu_fold *c = &cpus[i];
		struct ptscope_sb_hdr h;

		if (!c->seen)
			continue;
		if (nout + 2 > capout) {
			size_t nc = capout ? capout * 2 : 64;
			struct out_rec *no = realloc(outs, nc * sizeof(*no));

			if (!no)
				goto nomem;
			outs = no;
			capout = nc;
		}
		if (c->task_off != SIZE_MAX) {
			memcpy(&h, buf + c->task_off, sizeof(h));
			c->dropped--;
			c->removed--;
			outs[nout++] = (struct out_rec){ h.tsc, i, c->task_off, 0 };
			need += h.size;
			if (c->dropped)
				outs[nout++] = (struct out_rec){ h.tsc, i, SIZE_MAX, c->dropped };
		} else if (c->dropped) {
			outs[nout++] = (struct out_rec){ c->last_tsc, i, SIZE_MAX, c->dropped };
		}
		if (c->dropped)
			need += sizeof(struct ptscope_sb_lost);
		ndrop += c->removed;
	}
	free(cpus);
	cpus = NULL;
	qsort(outs, nout, sizeof(*outs), cmp_out);
	head = malloc(need ? need : 1);
	if (!head)
		goto nomem;
	for (i = 0, pos = 0; i < nout; i++) {
		if (outs[i].off == SIZE_MAX) {
			struct ptscope_sb_lost l;

			memset(&l, 0, sizeof(l));
			l.hdr.type = PTSCOPE_SB_LOST;
			l.hdr.size = sizeof(l);
			l.hdr.cpu = outs[i].cpu;
			l.hdr.tsc = outs[i].tsc;
			l.count = outs[i].count;
			memcpy(head + pos, &l, sizeof(l));
			pos += sizeof(l);
		} else {
			struct ptscope_sb_hdr h;

			memcpy(&h, buf + outs[i].off, sizeof(h));
			memcpy(head + pos, buf + outs[i].off, h.size);
			pos += h.size;
		}
	}
	free(outs);
	if (pos > off) {
		/* only records of unknown types shorter than a LOST record: keep all */
		free(head);
		if (dropped)
			*dropped = 0;
		return (long long)len;
	}
	memmove(buf + pos, buf + off, len - off);
	memcpy(buf, head, pos);
	free(head);
	if (dropped)
		*dropped = ndrop;
	return (long long)(pos + len - off);
nomem:
	free(cpus);
	free(outs);
	return -ENOMEM;
}

long long pts_sb_keep(uint8_t *buf, size_t len, size_t budget, uint64_t *dropped)
{
	struct ptscope_sb_hdr h;
	long long merged;
	size_t off = 0;

	if (dropped)
		*dropped = 0;
	if (len <= budget)
		return (long long)len;
	merged = pts_sb_merge(buf, len);
	if (merged < 0)
		return merged;
	/* the horizon: the TSC of the record at half the length */
	while (off + sizeof(h) <= (size_t)merged) {
		memcpy(&h, buf + off, sizeof(h));
		if (off >= len / 2)
			break;
		off += h.size;
	}
	if (off + sizeof(h) > (size_t)merged)
		return (long long)len;
	return pts_sb_fold(buf, len, h.tsc, dropped);
}
