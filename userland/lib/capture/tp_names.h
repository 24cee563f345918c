/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracepoints a snapshot trigger can be armed on, by name
 * ("subsystem:event"), from the list the module is built with
 * (<ptscope/tp_triggers.h>): --trigger tracepoint:NAME is checked against
 * it while the options are parsed, before the device is opened or CMD
 * started, as perf checks an event name before it opens anything; the
 * module's refusal of another name stays the authority.
 */
#ifndef PTS_CAPTURE_TP_NAMES_H
#define PTS_CAPTURE_TP_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Is name ("sched:sched_switch") one a trigger can be armed on? */
bool pts_tp_trigger_supported(const char *name);

/* The names, separated by spaces, in buf (cut at len); returns buf. */
const char *pts_tp_trigger_names(char *buf, size_t len);

/* The names as lines of at most width columns, each starting with indent. */
void pts_tp_trigger_names_print(FILE *f, const char *indent, size_t width);

#endif /* PTS_CAPTURE_TP_NAMES_H */
