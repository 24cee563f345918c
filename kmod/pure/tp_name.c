// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint trigger names: "subsystem:event" or "event", and the list of
 * tracepoints a trigger can be armed on (include/ptscope/tp_triggers.h).
 */
#include "pts_pure.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

const char *pts_tracepoint_event(const char *spec)
{
	const char *colon = strchr(spec, ':');
	const char *event = colon ? colon + 1 : spec;

	if (!*event || strchr(event, ':') || (colon && colon == spec))
		return NULL;
	return event;
}

const struct pts_tp_trigger_name pts_tp_triggers[] = {
#define PTSCOPE_TP(sys, ev) { .subsystem = #sys, .event = #ev },
#include "../../include/ptscope/tp_triggers.h"
#undef PTSCOPE_TP
};

const unsigned int pts_tp_nr_triggers = ARRAY_SIZE(pts_tp_triggers);

int pts_tp_trigger_lookup(const char *spec)
{
	const char *event = pts_tracepoint_event(spec);
	size_t sys_len = event ? (size_t)(event - spec) : 0;
	unsigned int i;

	if (!event)
		return -ENOENT;
	if (sys_len)
		sys_len--;		/* the colon */
	for (i = 0; i < pts_tp_nr_triggers; i++) {
		const struct pts_tp_trigger_name *t = &pts_tp_triggers[i];

		if (strcmp(t->event, event))
			continue;
		if (event != spec && (strlen(t->subsystem) != sys_len ||
				      strncmp(t->subsystem, spec, sys_len)))
			return -ENOENT;
		return i;
	}
	return -EOPNOTSUPP;
}
