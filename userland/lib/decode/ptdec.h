/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One CPU's raw PT -> branch events, with libipt's block decoder
 * (pt-facts §5-§8). An iterator: pts_ptdec_next() returns the CPU's
 * events in trace order, each stamped with the thread running there
 * (from the sideband) and its time in ns since the origin.
 *
 * Rules applied: events are drained before each pt_blk_next; a block
 * returned together with an error is used, then the error handled; every
 * error becomes a PTS_BR_GAP (cause = pt_errstr, offset, last IP) and
 * decoding resynchronises at the next PSB with pt_blk_sync_forward —
 * nothing is spliced across a gap; a buffer with no PSB gives one gap
 * "no PSB (sync point) in N bytes"; the trace must be followed by zero
 * padding (libipt 2.0.5 sync may read past the end): given padded, or
 * copied into a padded buffer.
 */
#ifndef PTS_DECODE_PTDEC_H
#define PTS_DECODE_PTDEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../util/err.h"
#include "branch.h"
#include "brsrc.h"
#include "elide.h"
#include "image.h"
#include "evstore.h"
#include "sideband.h"
#include "timeconv.h"

struct pts_ptdec_config {
	const uint8_t *buf;		/* trace bytes */
	size_t size;
	bool padded;			/* buf is followed by >= PTS_PT_PAD zero bytes (not copied) */
	/*
	 * buf is a page-aligned read-only private file mapping
	 * (pts_decode_map_trace): the decoder drops the pages it has
	 * decoded (MADV_DONTNEED; a page read again faults back in from the
	 * file), so resident memory does not grow with the trace size.
	 */
	bool mapped;
	uint32_t cpu;			/* CPU number stamped on events */
	/* decoder parameters of the recording CPU (pt_config) */
	uint16_t family;		/* 0: unknown (no errata applied) */
	uint8_t model, stepping;
	uint8_t mtc_freq;		/* RTIT_CTL.MTCFreq encoding */
	uint8_t nom_freq;		/* MSR_PLATFORM_INFO[15:8] */
	uint32_t cpuid_15_eax, cpuid_15_ebx;
	/*
	 * RTIT_ADDRn_A/B and RTIT_CTL.ADDRn_CFG of the capture (all zero:
	 * no filter). libipt needs them for the SKL014 workaround (a TIP.PGD
	 * without IP at a direct branch leaving a filter range).
	 */
	struct pt_conf_addr_filter addr_filter;
	struct pts_imgset *images;
	/*
	 * optional: where this decoder's libipt images come from when it
	 * runs beside others on the same images (one view per thread,
	 * pts_imgview_new); NULL: images' own
	 */
	struct pts_imgview *view;
	/*
	 * optional: a decoder this thread is done with (pts_ptdec_free_to),
	 * of the same images, taken over and emptied to NULL: its memory and
	 * its classification cache, whose entries (by address space and
	 * mode) stay true, so that a decoder per chunk of a parallel decode
	 * neither zeroes the cache nor classifies each instruction again
	 * (docs/performance.md, seventeenth round). NULL: a new one.
	 */
	struct pts_ptdec **spare;
	/*
	 * sync_at_psb: start at the PSB at byte sync_off (pt_blk_sync_set),
	 * as a decoder that reaches it from the start would resynchronise
	 * there after an error; otherwise at the first PSB of the buffer
	 */
	bool sync_at_psb;
	uint64_t sync_off;
	struct pts_timeconv tc;
	uint64_t origin_ns;		/* subtracted from every time */
	const struct pts_sideband *sb;	/* may be NULL */
	int32_t pid, tid;		/* thread before any sideband switch (-1 unknown) */
	bool images_by_pid;		/* the process named (sideband, PIP) picks the image */
	/*
	 * The trace has PIP packets (OS traced): a sched_switch record to
	 * another address space takes effect at the CPU's next PIP, the
	 * CR3 write of the switch, not at its time (which precedes it).
	 */
	bool switch_at_pip;
	/*
	 * optional: jumps the consumer does not need (elide.h);
	 * checked when an event is handed out, when every event before it
	 * has been consumed
	 */
	struct pts_br_elide *elide;
	/*
	 * The caller consumes each event before it asks for the next (it
	 * decodes one CPU): with an empty queue every earlier event has been
	 * consumed, so a jump can be checked against elide when it is
	 * queued, before it is built.
	 */
	bool elide_queued;
	/*
	 * optional: offered each jump before it is built, when every event
	 * before it has been handed out (nothing queued, no sideband record
	 * due), with the trace position it would have (pts_ptdec_pos once
	 * handed out); true: the consumer took it (counted in the statistics
	 * as a branch, never handed out). Lets a consumer that stores events
	 * keep jumps its own way without the queue.
	 */
	bool (*take_jump)(void *ctx, int32_t pid, int32_t tid, uint64_t from, uint64_t to,
			  uint64_t ts_ns, uint64_t pos);
	void *jump_ctx;
	/*
	 * optional, with take_jump: where the consumer stores events
	 * (evstore.h; it owns the memory). Jumps and near calls and returns
	 * that the store takes (every event before them handed out, no
	 * sideband work due, room, below store->below) are written there
	 * instead of queued: never handed out, counted as branches, at the
	 * indexes they would have had. The rest is queued, or offered to
	 * take_jump, as without a store.
	 */
	struct pts_evstore *store;
	/*
	 * Blocks through direct calls and jumps: libipt's block decoder
	 * without end_on_call and end_on_jump (fewer, longer blocks: ~7.5 %
	 * fewer instructions on one thread, docs/performance.md, eighteenth
	 * round), the direct branches inside each block found again from a
	 * cache of block paths and handed out as the blocks that end at them
	 * would have been (queued, stored or handed out): the same events.
	 * Not with on_insn; only on a thread whose stack holds libipt's
	 * recursion (deep.h); elsewhere a loop of direct branches overflows
	 * the stack. A decoder recycled (spare) keeps its path cache.
	 */
	bool through;
	/* optional: every executed instruction, in order */
	void (*on_insn)(void *ctx, uint32_t cpu, uint64_t ip);
	void *insn_ctx;
};

#define PTS_PTEV_MAX 32	/* > every enum pt_event_type of libipt 2.0.5 */

/* Zero bytes the decoder needs after a trace (libipt 2.0.5 sync over-read). */
#define PTS_PT_PAD 64

struct pts_ptdec_stats {
	uint64_t insns, blocks, branches, gaps, events;
	uint64_t others;		/* events made that are not branches: gaps, instants, CBR, exec */
	uint64_t elided;		/* jumps the elide filter dropped (in branches) */
	uint64_t by_event[PTS_PTEV_MAX];	/* libipt events by enum pt_event_type */
	bool errata_unknown;		/* pt_cpu_errata: -pte_bad_cpu (none known) */
};

struct pts_ptdec;

/* Errors: -ENOMEM, -EINVAL (libipt refused the configuration; err says why). */
int pts_ptdec_new(const struct pts_ptdec_config *cfg, struct pts_ptdec **out, struct pts_err *err);

/*
 * Next event: 1 and *out points at it, 0 at the end, 2 if the next event
 * was a jump the config's elide filter drops (nothing handed out: when
 * merging CPUs, pick the earliest again). The event and its strings stay
 * valid until the next call of pts_ptdec_next, pts_ptdec_next_before or
 * pts_ptdec_peek_time on d (handed in place: no copy per event).
 */
int pts_ptdec_next(struct pts_ptdec *d, const struct pts_branch **out);

/*
 * As pts_ptdec_next while the next event's time is before until_ns (ns
 * since the origin); 3 when it is not (nothing handed out or dropped).
 */
int pts_ptdec_next_before(struct pts_ptdec *d, uint64_t until_ns, const struct pts_branch **out);

/*
 * The events pts_ptdec_next_before would hand out (bounded false:
 * pts_ptdec_next, every one), each to to->event in turn, in one call: 0 at
 * the end, 3 at an event not before until_ns, or to->event's nonzero
 * return (brsrc.h's emit). Jumps dropped are passed over.
 */
int pts_ptdec_emit(struct pts_ptdec *d, bool bounded, uint64_t until_ns,
		   const struct pts_brsrc_to *to, struct pts_err *err);

/*
 * Trace position of the event pts_ptdec_next (or pts_ptdec_next_before)
 * last handed out: the decoder's byte offset in the trace after the libipt
 * call before the one that produced it (monotonic over a decode without
 * errors; two decoders in the same state give their events the same
 * positions). Not kept for the events of pts_ptdec_emit.
 */
uint64_t pts_ptdec_pos(const struct pts_ptdec *d);

/*
 * Instructions counted (pts_ptdec_stats' insns) when the event
 * pts_ptdec_next (or pts_ptdec_next_before) last handed out was queued,
 * not kept for pts_ptdec_emit's, as pts_ptdec_pos: for a branch, every
 * instruction up to and including it, not the block at its target. The
 * stats' count after the event includes that block, whose length varies:
 * where libipt ends a block depends on the state of its block cache, which
 * the decoders of one section cache share and fill in whatever order
 * their threads run (pardec.h). This count does not depend on it.
 */
uint64_t pts_ptdec_insns_before(const struct pts_ptdec *d);

/*
 * The caller consumes d's events before ns until_ns (since the origin)
 * each before it asks for the next, and nothing else in between (a merge
 * of CPUs by time, when d's are the earliest): a jump before then is
 * checked against the config's elide when it is queued, as with
 * elide_queued. 0: none (the start, unless elide_queued).
 */
void pts_ptdec_elide_until(struct pts_ptdec *d, uint64_t until_ns);

/* pts_ptdec_emit's return when its next event lies past pts_ptdec_sink's end ... */
#define PTS_PTDEC_PAST 4
/* ... or is a gap "return stack empty" (what a decoder started at a PSB may get wrong: pardec.h) */
#define PTS_PTDEC_RISK 5

/*
 * The events d made before the one pts_ptdec_next last handed out, as the
 * statistics count them (branches + others): every jump, whether dropped,
 * stored or handed out, and every other event. Two decoders in the same
 * state count alike from there on (pardec.c finds an event of the serial
 * decode by it).
 */
uint64_t pts_ptdec_nev_before(const struct pts_ptdec *d);
/* The same of the event the next call hands out, UINT64_MAX at the end. */
uint64_t pts_ptdec_head_nev(struct pts_ptdec *d);

/*
 * A decoder with a store (cfg.store) made to decode as one without, into
 * pts_ptdec_emit's sink as the serial decoder does (elide and elide_queued
 * as cfg's), up to the first event past trace position end that is not a
 * jump (PTS_PTDEC_PAST), or a gap "return stack empty" (PTS_PTDEC_RISK),
 * which emit leaves queued; pts_ptdec_unsink goes back to storing. Called
 * between two calls of the decoder (the parallel decode, pardec.h).
 */
void pts_ptdec_sink(struct pts_ptdec *d, struct pts_br_elide *elide, bool elide_queued,
		    uint64_t end);
void pts_ptdec_unsink(struct pts_ptdec *d);
/* Whether the next event is the sink's (1), or not (PTS_PTDEC_PAST, _RISK), or none (0). */
int pts_ptdec_sink_peek(struct pts_ptdec *d);

/* Time of the event the next call returns (ns since origin), UINT64_MAX at the end. */
uint64_t pts_ptdec_peek_time(struct pts_ptdec *d);

void pts_ptdec_stats(const struct pts_ptdec *d, struct pts_ptdec_stats *out);

/* Bytes of the trace decoded so far (for progress reports). */
uint64_t pts_ptdec_done(const struct pts_ptdec *d);
void pts_ptdec_free(struct pts_ptdec *d);
/*
 * pts_ptdec_free, but d kept in *spare for the next pts_ptdec_new of the
 * same images (pts_ptdec_config.spare) when *spare is empty.
 */
void pts_ptdec_free_to(struct pts_ptdec *d, struct pts_ptdec **spare);

/* Name of a libipt event type ("enabled", "async branch", ...). */
const char *pts_ptev_name(int type);

struct pt_errata;

/*
 * First TSC value of a PT buffer (packet decoder), for the time origin.
 * buf must be followed by PTS_PT_PAD zero bytes. The packet decoder is
 * given the recording CPU's errata (errata, NULL: none), so that it reads
 * the packets the decoders read (pt_cpu.h: with SKZ84 a TMA whose
 * reserved bits are set is passed over, not damage that skips to the next
 * PSB and its TSC). -ENOENT: none.
 */
int pts_pt_first_tsc(const uint8_t *buf, size_t size, const struct pt_errata *errata,
		     uint64_t *tsc);

#endif
