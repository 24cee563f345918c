/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PTS_CLI_CAPTURE_LOOP_H
#define PTS_CLI_CAPTURE_LOOP_H

#include "capture/options.h"

/*
 * Run a whole capture for parsed options (run, attach or record): arm,
 * wait, snapshot, write the bundle(s), disarm. Returns the exit status:
 * 0 every bundle complete, 1 failure or an incomplete bundle, 130 aborted
 * by a second Ctrl-C.
 */
int pts_cli_capture(struct pts_capture_opts *o);

#endif
