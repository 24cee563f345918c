// SPDX-License-Identifier: GPL-2.0
/*
 * The builder's output. A writer with a frame path takes BEGIN and END as
 * the thread's struct pts_tl_at and the frame's struct pts_tl_slice: the
 * frames hand theirs over directly (tl_segment.h, put_frame); a record
 * that was held is taken apart here.
 */
#include "tl_out.h"

void tl_out_init(struct pts_tl *tl)
{
	const struct pts_tl_config *cfg = &tl->cfg;

	if (cfg->emit == pts_writer_sink && pts_writer_frames(cfg->emit_ctx)) {
		tl->w = cfg->emit_ctx;
		tl->wf = *pts_writer_frames(tl->w);
	}
}

int tl_emit_frame(struct pts_tl *tl, const struct pts_tl_rec *r, struct pts_err *err)
{
	const struct pts_tl_at at = { r->pid, r->tid, r->cpu, r->ts_ns };
	struct pts_tl_slice s = {
		r->name, r->object, r->addr, r->offset, r->flags, r->nargs, r->args, 0, 0,
	};

	if (r->type == PTS_TL_BEGIN)
		return tl->wf.begin(tl->w, &at, &s, r->kind, err);
	return tl->wf.end(tl->w, &at, &s, r->kind, err);
}
