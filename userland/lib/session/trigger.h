/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capture's trigger on the timeline: the bundle records what stopped
 * the capture (reason, detail, TSC, CPU, pid/tid: docs/bundle-format.md
 * §3.6); the decode places it as an instant "trigger" on the triggering
 * thread's track, among that thread's events in time order, and the
 * summary says it ("trigger: tracepoint sched:sched_process_exit on CPU 3,
 * pid 4242, 12.3 µs before the end of the trace").
 */
#ifndef PTS_SESSION_TRIGGER_H
#define PTS_SESSION_TRIGGER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../decode/branch.h"
#include "session_int.h"

/*
 * Describe in->trigger in sum->trigger and, when it can be placed, fill
 * *br (a PTS_BR_TRIGGER at its time, ns since origin, on the thread it
 * names, or on the CPU's track when the decode has one track per CPU;
 * br->detail points at sum->trigger) and return true. False when there is
 * no trigger (none recorded, reason "none") or it cannot be placed (no
 * time or no thread recorded: sum->trigger_not_shown says which).
 */
bool pts_trigger_branch(const struct pts_run_in *in, uint64_t origin, struct pts_branch *br,
			struct pts_decode_summary *sum);

/* The summary's "trigger: ..." line, when there is a trigger. */
void pts_trigger_print(FILE *f, const struct pts_decode_summary *sum);

#endif
