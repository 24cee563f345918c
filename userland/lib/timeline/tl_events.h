/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events that are not branches (decode/branch.h, PTS_BR_ENABLED and
 * after): tracing enabled and disabled, gaps, instants, CBR, exec, the
 * trigger.
 */
#ifndef PTS_TIMELINE_TL_EVENTS_H
#define PTS_TIMELINE_TL_EVENTS_H

#include "timeline_int.h"

/* One event of kind PTS_BR_ENABLED or after, for thread t. */
int tl_feed_other(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		  struct pts_err *err);

#endif /* PTS_TIMELINE_TL_EVENTS_H */
