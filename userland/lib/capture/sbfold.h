/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Snapshot mode keeps the sideband of the trace window, not of the whole
 * arm period: the rings hold only the newest trace, so a record far older
 * than the window is needed only for the state it leaves behind, the task
 * each CPU runs. When the records read exceed a budget the oldest half is
 * folded into that state (docs/capture.md, "Sideband memory").
 */
#ifndef PTS_CAPTURE_SBFOLD_H
#define PTS_CAPTURE_SBFOLD_H

#include <stddef.h>
#include <stdint.h>

/* Records kept in snapshot mode before the oldest are folded, bytes. */
#define PTS_SB_KEEP_DEFAULT (64ULL << 20)

/*
 * Fold the records of buf[0, len) (whole ptscope sideband records in TSC
 * order, pts_sb_merge()) whose TSC is below horizon: of each CPU's records
 * there only its last task record is kept (SCHED_SWITCH, or TRACE_START
 * naming the task), preceded by a LOST record with that CPU's tsc and the
 * count of its records dropped (counts of LOST records among them
 * included), so a reader knows the CPU's task from the kept record on and
 * not before. A CPU whose last word there was a LOST record, or that had
 * no task record, keeps only a LOST record (its task stays unknown until
 * its next switch). TRIGGER records are kept. Records at or after horizon
 * are moved down unchanged. The result is still in TSC order, each CPU's
 * records in their order.
 * Returns the new length; *dropped (may be NULL) gets the records this fold
 * removed (not counting the module's losses LOST records already named).
 * -ENOMEM leaves buf untouched. Records with a CPU of 8192 or more, or bad
 * framing, end the folded part (kept as they are).
 */
long long pts_sb_fold(uint8_t *buf, size_t len, uint64_t horizon, uint64_t *dropped);

/*
 * Keep buf within budget bytes when it grew past it: merge it by TSC and
 * fold the records older than the TSC of the record at half its length.
 * Returns the new length (len unchanged when within budget), -ENOMEM.
 */
long long pts_sb_keep(uint8_t *buf, size_t len, size_t budget, uint64_t *dropped);

#endif
