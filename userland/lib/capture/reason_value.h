/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a refused ioctl's reason_arg means, in words, and which of the
 * user's options a refusal of CONFIGURE comes from. The module fills
 * reason_arg for some reasons only (docs/abi.md, the CONFIGURE and START
 * error tables): printed raw, the others read "value 0", a value nobody
 * gave. Pure.
 */
#ifndef PTS_CAPTURE_REASON_VALUE_H
#define PTS_CAPTURE_REASON_VALUE_H

#include <stddef.h>
#include <stdint.h>

struct pts_capture_opts;

/*
 * reason_arg of `reason` refused to the call `what` ("CONFIGURE",
 * "START") as the table of docs/abi.md names it: "CPU 7", "pid 4242",
 * "limit 1 MiB", "bits 0x40". Returns buf, or NULL when the module sets
 * no value for that reason (NOT_ARMED, NO_MTC, NEED_CAP_ADMIN, ...).
 */
const char *pts_reason_value(const char *what, uint32_t reason, uint64_t arg, char *buf,
			     size_t len);

/*
 * The options of o that a CONFIGURE refused for `reason` comes from, as
 * the user gave them: "-C/--cpus 7", "--size 8 MiB", "--scope kernel",
 * "--trigger tracepoint:sched:nope", "ptscope record (every process)".
 * Returns buf, or NULL when no option of o is behind the reason.
 */
const char *pts_opts_refused_by(const struct pts_capture_opts *o, uint32_t reason, char *buf,
				size_t len);

#endif /* PTS_CAPTURE_REASON_VALUE_H */
