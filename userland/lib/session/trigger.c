// SPDX-License-Identifier: GPL-2.0
/* The capture's trigger as an instant on the timeline (trigger.h). */
#include "trigger.h"

#include <inttypes.h>
#include <string.h>

#include "../decode/timeconv.h"

/* "tracepoint sched:sched_process_exit on CPU 3, pid 4242" (tid when not the pid's) */
static void describe(const struct pts_bundle_trigger *t, char *out, size_t len)
{
	size_t n = (size_t)snprintf(out, len, "%s%s%s", t->reason, t->detail[0] ? " " : "",
				    t->detail);

	if (t->cpu >= 0 && n < len)
		n += (size_t)snprintf(out + n, len - n, " on CPU %d", t->cpu);
	if (t->pid >= 0 && n < len)
		n += (size_t)snprintf(out + n, len - n, ", pid %d", t->pid);
	if (t->tid >= 0 && t->tid != t->pid && n < len)
		snprintf(out + n, len - n, " tid %d", t->tid);
}

bool pts_trigger_branch(const struct pts_run_in *in, uint64_t origin, struct pts_branch *br,
			struct pts_decode_summary *sum)
{
	const struct pts_bundle_trigger *t = in->trigger;
	uint64_t ns;

	if (!t || !t->reason[0] || !strcmp(t->reason, "none"))
		return false;
	describe(t, sum->trigger, sizeof(sum->trigger));
	memset(br, 0, sizeof(*br));
	br->kind = PTS_BR_TRIGGER;
	br->detail = sum->trigger;
	br->cpu = t->cpu >= 0 ? (uint32_t)t->cpu : 0;
	if (in->per_cpu_names && in->pid < 0) {
		/* one track per CPU (no sideband): the CPU it fired on */
		br->pid = 0;
		br->tid = t->cpu;
	} else if (t->pid < 0 && in->pid >= 0) {
		/* the whole trace is one thread's */
		br->pid = in->pid;
		br->tid = in->tid >= 0 ? in->tid : in->pid;
	} else {
		br->pid = t->pid;
		br->tid = t->tid >= 0 ? t->tid : t->pid;
	}
	if (!t->tsc)
		sum->trigger_not_shown = "its time was not recorded";
	else if (br->pid < 0 || br->tid < 0)
		sum->trigger_not_shown = br->pid == 0 ? "no CPU recorded" : "no thread recorded";
	if (sum->trigger_not_shown)
		return false;
	ns = pts_tc_ns(&in->tc, t->tsc);
	br->ts_ns = ns > origin ? ns - origin : 0;
	sum->trigger_ns = br->ts_ns;
	return true;
}

void pts_trigger_print(FILE *f, const struct pts_decode_summary *s)
{
	uint64_t d;

	if (!s->trigger[0])
		return;
	if (s->trigger_not_shown) {
		fprintf(f, "trigger: %s (not on the timeline: %s)\n", s->trigger,
			s->trigger_not_shown);
		return;
	}
	d = s->end_ns >= s->trigger_ns ? s->end_ns - s->trigger_ns : s->trigger_ns - s->end_ns;
	fprintf(f, "trigger: %s, %" PRIu64 ".%" PRIu64 " \u00b5s %s the end of the trace\n",
		s->trigger, d / 1000, d % 1000 / 100,
		s->end_ns >= s->trigger_ns ? "before" : "after");
}
