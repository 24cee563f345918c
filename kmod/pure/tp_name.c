// SPDX-License-Identifier: GPL-2.0
/* Tracepoint trigger names: "subsystem:event" or "event". */
#include "pts_pure.h"

const char *pts_tracepoint_event(const char *spec)
{
	const char *colon = strchr(spec, ':');
	const char *event = colon ? colon + 1 : spec;

	if (!*event || strchr(event, ':') || (colon && colon == spec))
		return NULL;
	return event;
}
