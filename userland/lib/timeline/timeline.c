// SPDX-License-Identifier: GPL-2.0
/*
 * Timeline builder: per-thread call stacks from branch events. See
 * timeline.h for the semantics and timeline_int.h for the file that
 * holds each part of them; this file is the builder's life: its start,
 * the names it is given, its end, and what it counted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_elide.h"
#include "tl_stack.h"

static const char *const diag_names[PTS_TLD_NR] = {
	[PTS_TLD_TIME_BACKWARDS] = "time going backwards (clamped)",
	[PTS_TLD_OUT_OF_SCOPE] = "event impossible in the recorded scope",
	[PTS_TLD_DISABLE_WITHOUT_ENABLE] = "tracing disabled without a matching enable",
	[PTS_TLD_EVENT_WHILE_DISABLED] = "branch while tracing was off",
	[PTS_TLD_FELL_THROUGH] = "ran on into another function without a call (slice renamed, nothing lost)",
	[PTS_TLD_INFERRED] = "return past the known stack (inferred frame)",
	[PTS_TLD_INFERRED_LATE] =
		"inferred frame opened late (segment already written, or past a kernel entry from user mode)",
	[PTS_TLD_TOO_DEEP] = "calls beyond the maximum stack depth",
	[PTS_TLD_UNKNOWN_TARGET] = "branch with an unknown target",
	[PTS_TLD_RETURN_AS_JUMP] = "return to no open frame's return address (taken as a jump)",
	[PTS_TLD_KERNEL_LEFT_OPEN] = "kernel frames left open at a return to user (closed)",
	[PTS_TLD_UNWIND_GUESSED] =
		"jump back into a function open in several frames (unwound to the innermost)",
};

const char *pts_tl_diag_name(enum pts_tl_diag d)
{
	return (unsigned int)d < PTS_TLD_NR ? diag_names[d] : "?";
}

int pts_tl_new(const struct pts_tl_config *cfg, struct pts_tl **out, struct pts_err *err)
{
	struct pts_tl *tl;

	if (!cfg || !cfg->emit)
		return pts_err_set(err, EINVAL, "timeline: no output given");
	tl = calloc(1, sizeof(*tl));
	if (!tl)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	tl->cfg = *cfg;
	tl->in_scope_below = UINT64_MAX;
	if (cfg->scope == PTS_SCOPE_USER) {
		tl->oos_lo = KERNEL_HALF;
		tl->oos_len = 0 - KERNEL_HALF;
		tl->in_scope_below = KERNEL_HALF;
	} else if (cfg->scope == PTS_SCOPE_KERNEL) {
		tl->oos_lo = 1;
		tl->oos_len = KERNEL_HALF - 1;
		tl->in_scope_below = 0;
	}
	tl_out_init(tl);
	if (!tl->cfg.max_depth)
		tl->cfg.max_depth = 512;
	if (!tl->cfg.segment_cap)
		tl->cfg.segment_cap = 1024;
	tl->pool = pts_strpool_new();
	if (!tl->pool) {
		free(tl);
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	}
	*out = tl;
	return 0;
}

void pts_tl_free(struct pts_tl *tl)
{
	size_t i;

	if (!tl)
		return;
	for (i = 0; i < tl->nth; i++)
		tl_thread_free(tl->th[i]);
	free(tl->th);
	pts_hmap_free(&tl->by_id, NULL);
	pts_hmap_free(&tl->pids, NULL);
	pts_strpool_free(tl->pool);
	free(tl);
}

int pts_tl_set_name(struct pts_tl *tl, int32_t pid, int32_t tid, const char *name,
		    struct pts_err *err)
{
	struct thread *t;
	const char *n = intern(tl, name);

	if (!n)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	if (tid == 0)
		tid = pid;
	t = thread_get(tl, pid, tid);
	if (!t)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	if (t->name == n)
		return 0;
	t->name = n;
	t->st.name = n;
	if (t->announced) {
		struct pts_tl_rec r = { .type = PTS_TL_THREAD, .pid = pid, .tid = tid, .name = n };

		return emit(tl, &r, err);
	}
	return 0;
}

struct pts_br_elide *pts_tl_elide(struct pts_tl *tl)
{
	return &tl->elide;
}

int pts_tl_finish(struct pts_tl *tl, struct pts_err *err)
{
	size_t i;
	int rc;

	account_elided(tl);
	tl->elide.hi = 0;

	for (i = 0; i < tl->nth; i++) {
		struct thread *t = tl->th[i];

		rc = tl_pop_all(tl, t, PTS_TLK_END_OF_TRACE, err);
		if (!rc)
			rc = tl_flush(tl, t, err);
		if (rc)
			return rc;
	}
	return 0;
}

uint64_t pts_tl_diag_count(const struct pts_tl *tl, enum pts_tl_diag d)
{
	return (unsigned int)d < PTS_TLD_NR ? tl->diag[d] : 0;
}

/* "A -> B (object)": a function's object is said once when both share it */
static void fn_pair_text(const struct fn *a, const struct fn *b, char *buf, size_t size)
{
	const char *oa = a->known && a->object ? a->object : NULL;
	const char *ob = b->known && b->object ? b->object : NULL;

	if (oa && ob && !strcmp(oa, ob))
		snprintf(buf, size, "%s -> %s (%s)", a->name, b->name, ob);
	else
		snprintf(buf, size, "%s%s%s%s -> %s%s%s%s", a->name, oa ? " (" : "", oa ? oa : "",
			 oa ? ")" : "", b->name, ob ? " (" : "", ob ? ob : "", ob ? ")" : "");
}

void pts_tl_diag_first(const struct pts_tl *tl, enum pts_tl_diag d, char *buf, size_t size)
{
	if (size)
		buf[0] = '\0';
	if (d == PTS_TLD_FELL_THROUGH && tl->diag[d] && tl->fell_from.name && tl->fell_to.name)
		fn_pair_text(&tl->fell_from, &tl->fell_to, buf, size);
}

size_t pts_tl_nr_threads(const struct pts_tl *tl)
{
	return tl->nth;
}

uint64_t pts_tl_id_probes(const struct pts_tl *tl)
{
	return tl->by_id.probes + tl->pids.probes;
}

int pts_tl_thread_stats(const struct pts_tl *tl, size_t i, struct pts_tl_thread_stats *out)
{
	if (i >= tl->nth)
		return -ERANGE;
	*out = tl->th[i]->st;
	out->last_ns = tl_thread_last_ns(tl->th[i]);
	out->events = thread_events(tl->th[i]);
	return 0;
}
