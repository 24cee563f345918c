// SPDX-License-Identifier: GPL-2.0
/*
 * What a panic makes of the capture's run state (lifecycle.c's panic
 * notifier): the state a crash-dump reader finds in the module's memory.
 */
#include "pts_pure.h"

/*
 * A capture still tracing when the kernel panics ends there: the
 * notifier stops the panicking CPU, and panic() has halted the others.
 * Leaving it ARMED or POST_TRIGGER would tell a dump reader that it was
 * still running (and the post-trigger hrtimer, if its CPU ever ran
 * again, would finish a capture that already ended). Both end as
 * TRIGGERED: the rings are a snapshot. From ARMED the panic is the
 * trigger; in the post-trigger delay the trigger that started the delay
 * stays the capture's trigger (reason, CPU, pid, TSC: where the snapshot
 * is about), and only its delay was cut short. Any other state had no
 * CPU tracing: left as it is.
 */
struct pts_panic_end pts_panic_end(u32 run)
{
	struct pts_panic_end e = { .run = run };

	if (run == PTSCOPE_STATE_ARMED || run == PTSCOPE_STATE_POST_TRIGGER) {
		e.run = PTSCOPE_STATE_TRIGGERED;
		e.ended = true;
		e.panic_is_trigger = run == PTSCOPE_STATE_ARMED;
	}
	return e;
}
