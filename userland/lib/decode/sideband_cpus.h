/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether a perf sideband can tell the threads of the traces given.
 *
 * A raw trace is one CPU's (--pt FILE --cpu N); the perf sideband's
 * SWITCH, SWITCH_CPU_WIDE and ITRACE_START records say which thread ran
 * on which CPU. A trace whose CPU no record names (a --cpu that is not
 * the recording's, or a --pevent-sample-type without PERF_SAMPLE_CPU or
 * not the recording's, which reads the trailer's fields from the wrong
 * place) decodes as one track of an unknown thread, with every record of
 * the sideband unused: said here, so the user does not take that track
 * for the trace's thread.
 */
#ifndef PTS_DECODE_SIDEBAND_CPUS_H
#define PTS_DECODE_SIDEBAND_CPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sideband.h"

/*
 * Check that a thread-switch record of sb names each of the n CPUs in
 * cpus (the traces' CPUs). Returns false when every one is named;
 * otherwise true, with msg (of size bytes) saying which CPUs are not,
 * which CPUs the records name and what to give. sample_type is the one
 * the records were read with (named in the message).
 */
bool pts_sideband_cpus_check(const struct pts_sideband *sb, const uint32_t *cpus, size_t n,
			     uint64_t sample_type, char *msg, size_t size);

#endif
