// SPDX-License-Identifier: GPL-2.0
/* The chunked parallel PT decode behind the branch-source interface (brsrc.h). */
#include "pardec_src.h"
#include "../decode/ptdec_src.h"

#include <errno.h>
#include <stdlib.h>

struct pardec_src {
	struct pts_brsrc base;		/* first: the interface's pointer is ours */
	struct pts_pcpu *p;
};

static int pd_next(struct pts_brsrc *s, const struct pts_branch **out, struct pts_err *err)
{
	return pts_pcpu_next(((struct pardec_src *)s)->p, out, err);
}

static int pd_next_before(struct pts_brsrc *s, uint64_t until_ns, const struct pts_branch **out,
			  struct pts_err *err)
{
	/* pardec's 0, 1, 2 and 3 are brsrc.h's */
	return pts_pcpu_next_before(((struct pardec_src *)s)->p, until_ns, out, err);
}

static int pd_emit(struct pts_brsrc *s, bool bounded, uint64_t until_ns,
		   const struct pts_brsrc_to *to, struct pts_err *err)
{
	return pts_pcpu_emit(((struct pardec_src *)s)->p, bounded, until_ns, to, err);
}

/* The pool reports a failure (no decoder could be made) as the end: asked for here. */
static int pd_peek(struct pts_brsrc *s, uint64_t *ns, struct pts_err *err)
{
	struct pts_pcpu *p = ((struct pardec_src *)s)->p;

	*ns = pts_pcpu_peek_time(p);
	if (*ns != UINT64_MAX)
		return 1;
	return pts_pcpu_error(p, err) ? -ENOMEM : 0;
}

static void pd_lead(struct pts_brsrc *s, uint64_t until_ns)
{
	pts_pcpu_lead(((struct pardec_src *)s)->p, until_ns);
}

static uint64_t pd_done(const struct pts_brsrc *s)
{
	return pts_pcpu_done(((const struct pardec_src *)s)->p);
}

static void pd_stats(const struct pts_brsrc *s, struct pts_brsrc_stats *st)
{
	const struct pts_pcpu *p = ((const struct pardec_src *)s)->p;
	struct pts_ptdec_stats d;

	pts_pcpu_stats(p, &d);
	pts_ptdec_src_stats(&d, st);
	pts_pcpu_joins(p, &st->joins, &st->refused);
}

static void pd_close(struct pts_brsrc *s)
{
	pts_pcpu_free(((struct pardec_src *)s)->p);
	free(s);
}

static const struct pts_brsrc_ops pardec_src_ops = {
	.next = pd_next,
	.next_before = pd_next_before,
	.emit = pd_emit,
	.peek = pd_peek,
	.lead = pd_lead,
	.done = pd_done,
	.stats = pd_stats,
	.close = pd_close,
};

int pts_pardec_src_new(struct pts_pool *pool, const struct pts_ptdec_config *cfg,
		       size_t chunk_bytes, struct pts_pcpu_scan *scan, struct pts_brsrc **out,
		       struct pts_err *err)
{
	struct pardec_src *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		return pts_err_set(err, ENOMEM, "out of memory for the decoder of cpu %u", cfg->cpu);
	rc = pts_pcpu_new(pool, cfg, chunk_bytes, scan, &s->p, err);
	if (rc) {
		free(s);
		return rc;
	}
	s->base.ops = &pardec_src_ops;
	s->base.cpu = cfg->cpu;
	*out = &s->base;
	return 0;
}
