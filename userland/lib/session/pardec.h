/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One CPU's trace decoded in chunks by a pool of worker threads, handed
 * out as exactly the events the serial decoder (decode/ptdec.h) gives.
 *
 * Chunks start at PSBs. A worker decodes a chunk with a decoder of its own
 * synchronised at the chunk's PSB (pt_blk_sync_set), and goes on past the
 * next chunk's PSB for PTS_PAR_OVERLAP more events. What a fresh decoder
 * at a PSB does not know — the call stack, the return-compression stack,
 * the last instruction of the block before (whose branch the next block's
 * address completes), the thread the sideband ran there long before —
 * shows in its first events only; the packets of a PSB+ (SDM 33.3.7:
 * TSC, TMA, MODE, PIP, FUP) give the time, mode, address space and IP.
 * The stitch (join) therefore takes the predecessor's events up to the
 * first of its overlap events that begins a run of identical events
 * (every field, the trace position included) in the successor's first
 * events, and the successor's from there: the predecessor's own branch
 * across the PSB and the successor's start-up events are decided by the
 * predecessor, everything after by the successor.
 *
 * Where no such run is found, or the successor decoded something a fresh
 * start can get wrong later (a return compressed against a call before
 * its PSB: "return stack empty"), the chunk is not used: the consumer
 * decodes on from the predecessor's start itself and tries the join
 * again at the next PSB boundary. A predecessor that is not the trace's
 * first chunk lacks the calls before its own PSB as well, and would meet
 * that return without them where the serial decoder has them: after
 * "return stack empty" the consumer decodes on instead with a decoder
 * synchronised as the serial one, from the trace's first PSB (the events
 * already handed out decoded again and dropped, found by their count:
 * pts_ptdec_nev_before), and joins nothing more of that CPU. Only a
 * damaged trace gets there: only returns whose call was seen since the
 * last PSB may be compressed (SDM Vol. 3C 36.2.1.2).
 *
 * The calling thread decodes chunks too: one that no worker has started
 * when it needs it it decodes itself, into its buffer as a worker does.
 * With the pool's self option (pardec_opts.h; the session's default, -j N
 * being N - 1 workers and the calling thread: docs/performance.md, "The
 * calling thread's schedule (sixteenth round)") it decodes such a chunk
 * into the sink instead (one worker takes the last queued chunk, several
 * the second, leaving it the first), storing its first events (what the join with the chunk
 * before compares) and its overlap, and handing the rest to the merge's
 * sink as the serial decoder does (pts_ptdec_sink): neither stored nor
 * read back. Such a chunk is joined before it is decoded, so its decoder
 * may meet "return stack empty" after the join: it stops before handing
 * out that gap, and the consumer decodes on from there as the serial
 * decoder, as above.
 *
 * A trace with CYC packets anywhere is never joined. The time libipt
 * gives a CYC depends on a calibration (the core:bus ratio of a CBR, the
 * cycles counted between MTCs or TSCs) that carries over from every PSB
 * before it: a decoder started at a later PSB gives it another time. No
 * chunk's own bytes need to hold one for that: a joined chunk's decoder
 * decodes on past its end (where the join after it is refused, or to the
 * end of the trace within its overlap), over CYC packets its fresh start
 * timed differently. So such a trace is one chunk, never queued: the
 * calling thread decodes it with a decoder synchronised as the serial
 * one, a batch of events at a time, and no worker decodes any of it.
 * (Once its later chunks were queued all the same, decoded by the
 * workers and every join refused, while the first chunk's decoder
 * decoded the whole trace: the trace decoded twice.)
 *
 * No join is made at a PSB where the serial decoder holds an event that
 * binds to a packet after it (a MODE.Exec waiting for its TIP, ...:
 * pardec_hold.h): the successor's decoder never reads the event's
 * packet, and the predecessor's reports it where its events are no
 * longer used. The scan for CYC finds those PSBs.
 *
 * Statistics (instructions, branches, events, gaps: the summary) are
 * taken at the join points and add up to the serial decoder's. libipt's
 * block count does not: chunked decoders hand out the same instructions
 * cut into another number of blocks (the shipped sample: 29117 serial,
 * 29071 in chunks of 32 bytes); nothing prints it.
 *
 * Jumps (most of a trace's branches, nearly all of them inside the
 * function executing, which the consumer's elide window drops) are stored
 * by the workers as runs: consecutive jumps of one thread with nothing
 * between them — with several CPUs, also of one time, so that the merge
 * by time would hand them out back to back — as one event with the
 * bounds of their addresses. The consumer drops a run whole, with one
 * compare, when the bounds lie in the window (each of its jumps would have
 * been dropped, the window not moving between them), and hands its jumps
 * out one by one otherwise. A worker stops only after an event that is
 * not a jump, so where runs begin and end depends on the events alone.
 *
 * Threads: the pool's workers decode, and the thread that calls
 * pts_pcpu_next (or _emit), which runs everything else and decodes the
 * chunks as said above. Memory: the pool keeps
 * pts_pool_options.chunks chunks decoded ahead, across the CPUs, and each
 * CPU two at least (events of 48 bytes, about two per trace byte).
 */
#ifndef PTS_SESSION_PARDEC_H
#define PTS_SESSION_PARDEC_H

#include <stddef.h>
#include <stdint.h>

#include "../decode/brsrc.h"
#include "../decode/ptdec.h"
#include "../util/err.h"
#include "pardec_hold.h"
#include "pardec_opts.h"

/*
 * Events a chunk's decoder goes on past the next chunk's PSB: the joins
 * seen were all made within 10 events past it (docs/decode.md), and take
 * PTS_PAR_MATCH more; this leaves room for a join 32 events past it.
 * Every chunk decodes these twice (docs/performance.md, "The work of -j2
 * per chunk (fourteenth round)"); where no join fits, the consumer
 * decodes on instead, the output the same.
 */
#define PTS_PAR_OVERLAP 48
/* Start-up events of a chunk the join may skip. */
#define PTS_PAR_SKIP 32
/* Identical events that make a join (with at least two trace positions among them). */
#define PTS_PAR_MATCH 16

struct pts_pool;

/*
 * opt->threads worker threads (none with opt->reverse) decoding with
 * their own libipt images of set (pts_imgview). Errors: -ENOMEM, -errno
 * of pthread_create.
 */
int pts_pool_new(const struct pts_pool_options *opt, struct pts_imgset *set,
		 struct pts_pool **out, struct pts_err *err);
/*
 * Stops and joins the workers; every pts_pcpu of the pool must be freed
 * first. cpu (or NULL): where the CPU time went.
 */
void pts_pool_free(struct pts_pool *pool, struct pts_pool_cpu *cpu);

struct pts_pcpu;

/*
 * A CPU's trace scanned before pts_pcpu_new (pts_pt_trace_has_cyc), beside
 * the other scans of a decode (session/prescan.h: on the run's threads):
 * whether it holds CYC, and where not, where the serial decoder holds an
 * event across a PSB.
 */
struct pts_pcpu_scan {
	bool cyc;
	struct pts_pt_hold hold;
};

/*
 * One CPU's trace (cfg as for pts_ptdec_new: buf padded; cfg->elide is
 * applied when an event is handed out; cfg->on_insn must be NULL) in
 * chunks of about chunk_bytes, decoded ahead as the pool's options say.
 * scan: the trace's scan, whose hold is taken over (left empty), or NULL
 * to scan it here. Errors: -ENOMEM.
 */
int pts_pcpu_new(struct pts_pool *pool, const struct pts_ptdec_config *cfg, size_t chunk_bytes,
		 struct pts_pcpu_scan *scan, struct pts_pcpu **out, struct pts_err *err);

/*
 * As pts_ptdec_next: 1 and *out (valid until the next call on p), 0 at
 * the end, 2 for a jump cfg->elide dropped; -ENOMEM when a decoder could
 * not be made (err says so). The decode's only CPU (cfg->elide_queued)
 * drops jumps and goes on to the next event in the same call, as the
 * serial decoder does: it says 2 only with several CPUs.
 */
int pts_pcpu_next(struct pts_pcpu *p, const struct pts_branch **out, struct pts_err *err);

/*
 * As pts_ptdec_next_before: pts_pcpu_next while the next event's time is
 * before until_ns (ns since the origin); 3 when it is not (nothing handed
 * out). Jumps dropped before until_ns are followed by the next event in
 * the same call (decode/brsrc.h), never by a 2.
 */
int pts_pcpu_next_before(struct pts_pcpu *p, uint64_t until_ns, const struct pts_branch **out,
			 struct pts_err *err);

/*
 * pts_pcpu_next_before's events (before false: pts_pcpu_next's, every
 * one) each handed to to->event, in one call: as brsrc.h's emit.
 */
int pts_pcpu_emit(struct pts_pcpu *p, bool before, uint64_t until_ns,
		  const struct pts_brsrc_to *to, struct pts_err *err);

/* As pts_ptdec_elide_until (brsrc.h's lead): for the decoder of a chunk the calling thread decodes. */
void pts_pcpu_lead(struct pts_pcpu *p, uint64_t until_ns);

/* As pts_ptdec_peek_time; UINT64_MAX at the end (or after an error, which next reports). */
uint64_t pts_pcpu_peek_time(struct pts_pcpu *p);

/* As pts_ptdec_stats (complete once next returned 0). */
void pts_pcpu_stats(const struct pts_pcpu *p, struct pts_ptdec_stats *out);

/*
 * Bytes of the trace handed out so far: the trace position of the next
 * event (pts_ptdec_pos), or the start of the chunk in use before its
 * first; the trace's length at the end. For progress reports.
 */
uint64_t pts_pcpu_done(const struct pts_pcpu *p);

/* The error met by pts_pcpu_peek_time (which then said UINT64_MAX), or 0. */
int pts_pcpu_error(const struct pts_pcpu *p, struct pts_err *err);

/* Joins made, and joins refused (decoded on by the consumer). */
void pts_pcpu_joins(const struct pts_pcpu *p, uint64_t *joined, uint64_t *refused);

void pts_pcpu_free(struct pts_pcpu *p);

#endif /* PTS_SESSION_PARDEC_H */
