// SPDX-License-Identifier: GPL-2.0
/* The serial PT decoder behind the branch-source interface (brsrc.h). */
#include "ptdec_src.h"

#include <errno.h>
#include <stdlib.h>

struct ptdec_src {
	struct pts_brsrc base;		/* first: the interface's pointer is ours */
	struct pts_ptdec *dec;
};

static int ps_next(struct pts_brsrc *s, const struct pts_branch **out, struct pts_err *err)
{
	(void)err;	/* the decoder's errors are gap events, not failures */
	return pts_ptdec_next(((struct ptdec_src *)s)->dec, out);
}

static int ps_next_before(struct pts_brsrc *s, uint64_t until_ns, const struct pts_branch **out,
			  struct pts_err *err)
{
	(void)err;
	/* the decoder's 0, 1, 2 and 3 are brsrc.h's */
	return pts_ptdec_next_before(((struct ptdec_src *)s)->dec, until_ns, out);
}

static int ps_emit(struct pts_brsrc *s, bool bounded, uint64_t until_ns,
		   const struct pts_brsrc_to *to, struct pts_err *err)
{
	return pts_ptdec_emit(((struct ptdec_src *)s)->dec, bounded, until_ns, to, err);
}

static int ps_peek(struct pts_brsrc *s, uint64_t *ns, struct pts_err *err)
{
	(void)err;
	*ns = pts_ptdec_peek_time(((struct ptdec_src *)s)->dec);
	return *ns != UINT64_MAX;
}

static void ps_lead(struct pts_brsrc *s, uint64_t until_ns)
{
	pts_ptdec_elide_until(((struct ptdec_src *)s)->dec, until_ns);
}

static uint64_t ps_done(const struct pts_brsrc *s)
{
	return pts_ptdec_done(((const struct ptdec_src *)s)->dec);
}

void pts_ptdec_src_stats(const struct pts_ptdec_stats *d, struct pts_brsrc_stats *st)
{
	unsigned int k;

	st->insns = d->insns;
	st->blocks = d->blocks;
	st->branches = d->branches;
	st->elided = d->elided;
	st->events = d->events;
	for (k = 0; k < PTS_PTEV_MAX && k < 32; k++)
		st->by_event[k] = d->by_event[k];
	st->errata_unknown = d->errata_unknown;
}

static void ps_stats(const struct pts_brsrc *s, struct pts_brsrc_stats *st)
{
	struct pts_ptdec_stats d;

	pts_ptdec_stats(((const struct ptdec_src *)s)->dec, &d);
	pts_ptdec_src_stats(&d, st);
}

static void ps_close(struct pts_brsrc *s)
{
	pts_ptdec_free(((struct ptdec_src *)s)->dec);
	free(s);
}

static const struct pts_brsrc_ops ptdec_src_ops = {
	.next = ps_next,
	.next_before = ps_next_before,
	.emit = ps_emit,
	.peek = ps_peek,
	.lead = ps_lead,
	.done = ps_done,
	.stats = ps_stats,
	.close = ps_close,
};

int pts_ptdec_src_new(const struct pts_ptdec_config *cfg, struct pts_brsrc **out,
		      struct pts_err *err)
{
	struct ptdec_src *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		return pts_err_set(err, ENOMEM, "out of memory for the decoder of cpu %u", cfg->cpu);
	rc = pts_ptdec_new(cfg, &s->dec, err);
	if (rc) {
		free(s);
		return rc;
	}
	s->base.ops = &ptdec_src_ops;
	s->base.cpu = cfg->cpu;
	*out = &s->base;
	return 0;
}
