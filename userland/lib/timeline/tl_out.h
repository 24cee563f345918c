/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The builder's output: the sink of its configuration (cfg.emit), and,
 * when that sink is a writer with a frame path (pts_writer_sink and
 * writer.h, struct pts_writer_frames), that path for every BEGIN and END.
 */
#ifndef PTS_TIMELINE_TL_OUT_H
#define PTS_TIMELINE_TL_OUT_H

#include "timeline_int.h"

/* Take the writer's frame path if cfg.emit is a writer that has one. */
void tl_out_init(struct pts_tl *tl);
/* A BEGIN or END record through the writer's frame path. */
int tl_emit_frame(struct pts_tl *tl, const struct pts_tl_rec *r, struct pts_err *err);

/* Write r: every BEGIN and END through the frame path when there is one. */
static inline int emit(struct pts_tl *tl, const struct pts_tl_rec *r, struct pts_err *err)
{
	if (tl->w && (r->type == PTS_TL_BEGIN || r->type == PTS_TL_END))
		return tl_emit_frame(tl, r, err);
	return tl->cfg.emit(tl->cfg.emit_ctx, r, err);
}

#endif /* PTS_TIMELINE_TL_OUT_H */
