/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Process maps over time: while tracing is armed the poll loop reads the
 * maps of the traced process (run, attach) and of every process that
 * exec'd (record) again, and files each read under the program it
 * describes: the one the process ran at arm (exec TSC 0) or the one its
 * latest EXEC sideband record started (that record's TSC). A read during
 * which an exec record of the process arrived is not filed (it may
 * describe either program). The reads of one program are merged (a line
 * seen once is kept: a library dlclose'd before the trigger stays), and
 * written as processes[].maps_exec (docs/bundle-format.md 3.9).
 */
#ifndef PTS_CAPTURE_MAPS_TIME_H
#define PTS_CAPTURE_MAPS_TIME_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "capture.h"

/*
 * Note the EXEC records among records just read from the device (buf,
 * len bytes; the drain calls it before the sideband is folded, so every
 * exec of the capture is kept). 0 or -ENOMEM.
 */
int pts_capture_note_execs(struct pts_capture *c, const uint8_t *buf, size_t len);

/* Execs of pid noted so far; *tsc (may be NULL) the last one's TSC (0 none). */
size_t pts_capture_exec_count(const struct pts_capture *c, int32_t pid, uint64_t *tsc);

/*
 * File maps read for pid under the program after its exec_tsc (0: the
 * one at arm), merged with earlier reads of that program: lines not yet
 * there are appended, in the read's order. 0 or -ENOMEM (nothing filed).
 */
int pts_capture_maps_file(struct pts_capture *c, int32_t pid, uint64_t exec_tsc,
			  const struct pts_bundle_map *maps, size_t nr);

/*
 * The poll loop's step: read the maps of the target (run, attach) or of
 * each process with an exec noted (record: at most the 64 latest), drain
 * the sideband with drain (the device read; its errors are the caller's
 * to say and end the step), and file each read whose process had no new
 * exec record meanwhile. Processes that are gone are skipped.
 */
void pts_capture_refresh_maps(struct pts_capture *c,
			      int (*drain)(struct pts_capture *c, struct pts_err *err));

/* Free what pts_capture_note_execs and pts_capture_maps_file keep. */
void pts_capture_maps_time_free(struct pts_capture *c);

#endif
