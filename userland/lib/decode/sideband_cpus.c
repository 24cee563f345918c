// SPDX-License-Identifier: GPL-2.0
/* Whether a perf sideband names the traces' CPUs (sideband_cpus.h). */
#include "sideband_cpus.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bundle/sideband.h"

/* CPUs listed in a message: enough to recognise a wrong --cpu */
#define LIST_MAX 8

/* The CPUs the switch records name: one pass, a bit per CPU a kernel numbers. */
struct cpu_set {
	uint64_t bits[PTS_SB_MAX_CPUS / 64];
	size_t nr;		/* distinct CPUs below PTS_SB_MAX_CPUS */
	bool any;		/* a switch record at all */
	bool impossible;	/* one names no CPU a kernel numbers (a trailer misread) */
};

static void cpu_set_fill(struct cpu_set *s, const struct pts_sideband *sb)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < sb->n; i++) {
		uint32_t c = sb->recs[i].cpu;

		if (sb->recs[i].type != PTS_SB_SWITCH)
			continue;
		s->any = true;
		if (c == UINT32_MAX)
			continue;	/* no PERF_SAMPLE_CPU */
		if (c >= PTS_SB_MAX_CPUS) {
			s->impossible = true;
			continue;
		}
		if (!(s->bits[c / 64] & (1ULL << (c % 64))))
			s->nr++;
		s->bits[c / 64] |= 1ULL << (c % 64);
	}
}

static bool cpu_set_has(const struct cpu_set *s, uint32_t c)
{
	return c < PTS_SB_MAX_CPUS && (s->bits[c / 64] & (1ULL << (c % 64)));
}

/* Append to msg at *at, never past size (vsnprintf truncates the rest). */
static void __attribute__((format(printf, 4, 5)))
put(char *msg, size_t size, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*at >= size)
		return;
	va_start(ap, fmt);
	k = vsnprintf(msg + *at, size - *at, fmt, ap);
	va_end(ap);
	*at += k > 0 ? (size_t)k : 0;
}

bool pts_sideband_cpus_check(const struct pts_sideband *sb, const uint32_t *cpus, size_t n,
			     uint64_t sample_type, char *msg, size_t size)
{
	struct cpu_set *s = calloc(1, sizeof(*s));
	size_t i, k, missing = 0, at = 0;
	uint32_t c;

	if (!s)
		return false;	/* a notice only: the decode goes on without it */
	cpu_set_fill(s, sb);
	for (i = 0; i < n; i++)
		missing += !cpu_set_has(s, cpus[i]);
	if (!missing) {
		free(s);
		return false;
	}
	if (!s->any)
		put(msg, size, &at, "the perf sideband holds no SWITCH, SWITCH_CPU_WIDE or "
		    "ITRACE_START record read with --pevent-sample-type 0x%" PRIx64 ": no "
		    "thread is known, each trace is one track of an unknown thread; give the "
		    "recording's perf_event_attr.sample_type", sample_type);
	else if (!s->nr && !s->impossible)
		put(msg, size, &at, "the perf sideband's records carry no CPU "
		    "(--pevent-sample-type 0x%" PRIx64 " lacks PERF_SAMPLE_CPU, 0x80): no thread "
		    "is placed on a CPU, each trace is one track of an unknown thread; give the "
		    "recording's perf_event_attr.sample_type", sample_type);
	if (at) {
		free(s);
		return true;
	}
	put(msg, size, &at, "the perf sideband places no thread on CPU%s", missing > 1 ? "s" : "");
	for (i = 0, k = 0; i < n; i++)
		if (!cpu_set_has(s, cpus[i]))
			put(msg, size, &at, "%s%" PRIu32, k++ ? ", " : " ", cpus[i]);
	put(msg, size, &at, " (of the --pt files): %s one track of an unknown thread",
	    missing > 1 ? "their traces are each" : "its trace is");
	if (s->nr)
		put(msg, size, &at, "; its records are of CPU%s", s->nr > 1 ? "s" : "");
	for (c = 0, k = 0; c < PTS_SB_MAX_CPUS && k < LIST_MAX; c++)
		if (cpu_set_has(s, c))
			put(msg, size, &at, "%s%" PRIu32, k++ ? ", " : " ", c);
	if (s->nr > LIST_MAX)
		put(msg, size, &at, " and %zu more", s->nr - LIST_MAX);
	if (s->impossible)
		put(msg, size, &at, "%s CPU numbers no kernel gives", s->nr ? ", and" :
		    "; its records name");
	/* a sample_type that is not the recording's reads plausible CPUs too */
	put(msg, size, &at, ": give each --pt the CPU it was recorded on (--cpu N after it), "
	    "and check --pevent-sample-type 0x%" PRIx64 " is the recording's", sample_type);
	free(s);
	return true;
}
