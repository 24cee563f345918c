// SPDX-License-Identifier: GPL-2.0
/*
 * A bundle's time: the TSC rate that turns its TSC values into ns, checked
 * against the start and stop time pairs, and whether the trace's MTC
 * packets can be placed in time at all (docs/decode.md, "Time").
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "session_int.h"

/* Time pairs this far apart measure the TSC rate to a few ppm. */
#define MEASURE_MIN_NS 100000000ULL
/* A recorded rate further than this from the measured one is not the TSC's. */
#define MEASURE_TOLERANCE_PPM 200

/*
 * The TSC rate over the capture, kHz: TSC ticks per CLOCK_MONOTONIC ns
 * between the "start" and "stop" time pairs (each read at one instant with
 * IRQs off, docs/abi.md "Lifecycle"); 0 without both pairs or when they
 * are less than MEASURE_MIN_NS apart (the clock reads' jitter would
 * dominate).
 */
static uint64_t measured_khz(const struct pts_bundle *b)
{
	const struct pts_bundle_time_pair *start = NULL, *stop = NULL;
	uint64_t dns, dtsc;
	size_t i;

	for (i = 0; i < b->nr_time_pairs; i++) {
		if (!strcmp(b->time_pairs[i].when, "start"))
			start = &b->time_pairs[i];
		else if (!strcmp(b->time_pairs[i].when, "stop"))
			stop = &b->time_pairs[i];
	}
	if (!start || !stop || stop->monotonic_ns <= start->monotonic_ns ||
	    stop->tsc <= start->tsc)
		return 0;
	dns = stop->monotonic_ns - start->monotonic_ns;
	dtsc = stop->tsc - start->tsc;
	if (dns < MEASURE_MIN_NS)
		return 0;
	return (uint64_t)((unsigned __int128)dtsc * 1000000 / dns);
}

/*
 * TSC to ns: the manifest's tsc_khz (timing., else cpu.), checked against
 * the rate measured over the capture: the kernel's tsc_khz is a boot-time
 * calibration and can be off (seen: 660 ppm in a VM), while the pairs
 * measure the TSC against the clock the user compares times with. Further
 * apart than MEASURE_TOLERANCE_PPM, the measured rate is used and said.
 * Without a recorded rate: the measured one, else, as raw mode does, the
 * nominal ratio x 100 MHz that an invariant TSC runs at (can be off by the
 * turbo/nominal difference), else TSC ticks; each said.
 */
static void time_base(const struct pts_bundle *b, struct pts_timeconv *tc,
		      struct pts_decode_summary *sum)
{
	uint64_t rec = b->tsc_khz ? b->tsc_khz : b->cpu_id.tsc_khz, m = measured_khz(b), diff;
	char msg[300];

	tc->mode = PTS_TC_KHZ;
	tc->tsc_khz = rec;
	if (rec && m) {
		diff = m > rec ? m - rec : rec - m;
		if (diff * 1000000 <= (uint64_t)MEASURE_TOLERANCE_PPM * rec)
			return;
		tc->tsc_khz = m;
		snprintf(msg, sizeof(msg), "manifest.json: tsc_khz %" PRIu64 " differs by %" PRIu64
			 " ppm from the TSC rate measured between the start and stop time pairs, %"
			 PRIu64 " kHz: times use the measured rate", rec, diff * 1000000 / rec, m);
		pts_decode_warn(sum, msg);
		return;
	}
	if (rec)
		return;
	if (m) {
		tc->tsc_khz = m;
		snprintf(msg, sizeof(msg), "manifest.json: tsc_khz is 0 (not recorded): times use "
			 "the TSC rate measured between the start and stop time pairs, %" PRIu64
			 " kHz", m);
	} else if (b->cpu_id.nom_freq) {
		tc->tsc_khz = (uint64_t)b->cpu_id.nom_freq * 100000;
		snprintf(msg, sizeof(msg), "manifest.json: tsc_khz is 0 (not recorded): times use "
			 "the nominal ratio %u x 100 MHz = %" PRIu64 " kHz as the TSC frequency",
			 b->cpu_id.nom_freq, tc->tsc_khz);
	} else {
		tc->mode = PTS_TC_NONE;
		snprintf(msg, sizeof(msg), "manifest.json: tsc_khz and nom_freq are 0 (not "
			 "recorded): times are TSC ticks, not ns");
	}
	pts_decode_notice(sum, msg);
}

/*
 * MTC packets count crystal (ART) ticks; libipt converts them with
 * CPUID.15H's TSC/ART ratio and ignores them when EAX or EBX is 0 (SDM
 * 33.3.1): time then advances only at TSC packets. Said, since the
 * timeline looks right but its times are coarse.
 */
static void mtc_usable(const struct pts_bundle *b, struct pts_decode_summary *sum)
{
	char msg[300];

	if (!(b->config.rtit_ctl & (1ULL << 9)) ||	/* RTIT_CTL.MTCEn */
	    (b->cpu_id.cpuid_15[0] && b->cpu_id.cpuid_15[1]))
		return;
	snprintf(msg, sizeof(msg), "manifest.json: timing.cpuid_15 EAX/EBX are 0 (no TSC/crystal "
		 "ratio, common in virtual machines): the trace's MTC packets cannot be used, "
		 "times advance only at TSC packets (each PSB)");
	pts_decode_notice(sum, msg);
}

void pts_decode_bundle_time(const struct pts_bundle *b, struct pts_timeconv *tc,
			    struct pts_decode_summary *sum)
{
	time_base(b, tc, sum);
	mtc_usable(b, sum);
}
