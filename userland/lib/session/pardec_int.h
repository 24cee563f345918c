/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the parallel decode (pardec.h): the chunk buffers and their
 * records, the pool and one CPU's state, shared by its files:
 *   pardec.c        one CPU's chunks: queued, waited for, joined, handed out
 *   pardec_chunk.c  a chunk decoded into its buffer (a worker's work)
 *   pardec_join.c   where two chunks' events join, and their statistics
 *   pardec_pool.c   the worker threads, and which chunks they decode first
 *   pardec_cyc.c    the CYC scan of a chunk's trace
 */
#ifndef PTS_SESSION_PARDEC_INT_H
#define PTS_SESSION_PARDEC_INT_H

#include <intel-pt.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../decode/evstore.h"
#include "../decode/image.h"
#include "pardec.h"
#include "pardec_hold.h"

/*
 * Events are stored as struct pts_rec (decode/evstore.h). The fields few
 * events set (gaps, instants, CBR) go to a side array of the chunk, x[xi].
 */
struct pex {
	uint64_t offset, value;
	char detail[160];
};

/*
 * A run of jumps (decode/evstore.h): consecutive PTS_BR_JUMP events of one
 * thread with nothing else between them (with several CPUs, also of one
 * time: the merge hands such jumps out back to back, pardec.h), stored as
 * one event (flag PTS_REC_RUN, ts_ns and position of its first jump) whose
 * jumps are jumps[xi, xi + n). Its from (lo) and from + span bound every
 * from and to: when both lie in the consumer's elide window, every jump
 * of the run would be dropped one by one (nothing is fed between them, so
 * the window does not move), and the run is dropped at once; otherwise
 * its jumps are handed out singly.
 */

/*
 * Decoder statistics when event idx was handed out, but for insns: those
 * counted when it was queued (pts_ptdec_insns_before).
 */
struct snap {
	uint64_t idx;
	uint64_t nev;		/* events its decoder made before it (pts_ptdec_nev_before) */
	struct pts_ptdec_stats st;
};

enum chunk_state { CH_QUEUED, CH_RUNNING, CH_DONE, CH_FAILED };

struct chunk {
	struct pts_pcpu *owner;
	uint64_t start;		/* its PSB (ignored for the first chunk) */
	bool first;		/* the trace's first chunk: synchronised as the serial decoder */
	uint64_t end;		/* the next chunk's PSB, or the trace's length */
	uint64_t key;		/* when the merge needs it: its PSB's time (pardec_pool.c) */
	/*
	 * Under the pool's lock, and it hands the chunk over between threads:
	 * the rest of the chunk (its buffer, dec aside) is the worker's from
	 * when it takes the chunk off the queue (CH_RUNNING) to when it sets
	 * CH_DONE or CH_FAILED, and the calling thread's otherwise, which
	 * reads it only after it saw that state under the lock (wait_chunk,
	 * pardec_pool_await): the lock orders the worker's writes before.
	 * owner, start, first and key are set before the chunk is queued,
	 * and end is changed only once it is done; next is the calling
	 * thread's (docs/decode.md, "Parallel decode": threads).
	 */
	enum chunk_state state;
	struct chunk *next;	/* the CPU's next chunk */
	struct chunk *qnext;	/* the pool's queue, by key */
	/* events [base, base + n); pos[i]: ev[i]'s trace position (decode/evstore.h) */
	struct pts_rec *ev;
	size_t n, cap;
	uint64_t *pos;
	size_t cappos;
	/* the thread of ev[i]: thr[k] of the greatest thr[k].i <= i (decode/evstore.h) */
	struct pts_thr *thr;
	size_t nthr, capthr;
	uint64_t base;
	struct pex *x;
	size_t nx, capx;
	struct pts_jump *jumps;
	size_t njumps, capjumps;
	/*
	 * The most events the arrays above ever held when a chunk was used up
	 * (retire_chunk): their pages written before, which the next write
	 * finds without a page fault. They move with the arrays
	 * (pardec_pool_take).
	 */
	size_t hot;
	/*
	 * The decoder writes events and jumps into ev[] (and pos[], thr[])
	 * and jumps[] itself (store, decode/evstore.h); n, nthr and njumps count
	 * them once pardec_chunk.c has caught up (after each call of the
	 * decoder). store.open: the decoder's last event began or extended
	 * that run; store.any_time: owner->single.
	 */
	struct pts_evstore store;
	/* ... or began a run before skip_to, not stored: its bounds skip */
	bool run_skipped;
	struct pts_run_bounds skip;
	uint64_t over;		/* index of the first event past end (UINT64_MAX: none yet) */
	struct snap *snaps;	/* at indexes < PTS_PAR_SKIP, from over on, and at skip_to */
	size_t nsnaps, capsnaps;
	struct pts_ptdec_stats fin;	/* when decoding stopped */
	bool complete;		/* the decoder reached the end of the trace */
	bool risky;		/* decoded what a fresh start may get wrong (pardec.h) */
	uint64_t risk_at;	/* ... first at this index (UINT64_MAX: nowhere) */
	struct pts_ptdec *dec;	/* kept when the consumer decodes on with it */
	/*
	 * The calling thread decodes it (pardec.c, wait_chunk): its first
	 * events and its overlap stored, the rest handed to the merge's sink
	 * by its decoder as it decodes (pts_ptdec_sink)
	 */
	bool sink;
	uint64_t dec_next;	/* index of the decoder's next event */
	uint64_t skip_to;	/* events before this index are decoded again, not stored */
};

struct pts_pool {
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	struct chunk *qhead;		/* chunks no thread has taken, by key (under mu) */
	struct chunk *awaited;		/* the chunk the calling thread waits for (under mu) */
	struct chunk *awaited2;		/* ... and, if not NULL, this one too (under mu) */
	bool stop;
	unsigned int n;
	pthread_t *th;
	struct pts_imgset *set;
	uint64_t worker_cpu_ns;		/* CPU time of the workers that ended (under mu) */
	uint64_t queued;		/* chunks ever queued (under mu): pts_pool_cpu.chunks */
	uint64_t sunk;			/* ... decoded into the sink (the calling thread's) */
	/* pts_pool_cpu's idle counts and times (under mu) */
	uint64_t caller_waits, caller_wait_ns, worker_idles, worker_idle_ns;
	bool reverse;			/* pts_pool_options.reverse */
	bool self;			/* pts_pool_options.self */
	bool deep;			/* pts_pool_options.deep, and every worker got its stack */
	enum pts_pardec_break brk;	/* pts_pool_options.brk */
	/* the calling thread's: */
	unsigned int chunks;		/* pts_pool_options.chunks */
	unsigned int live;		/* chunks of every CPU, not yet used up */
	struct pts_pcpu *cpus;		/* the CPUs decoded, by pts_pcpu.pnext */
	/*
	 * chunks used up, kept with their arrays for the next ones of any
	 * CPU (a chunk's arrays are MiBs: freed and grown again per chunk,
	 * the workers' time went to page faults and copies); with live, at
	 * most as many as were ever live at once
	 */
	struct chunk *spare;
	/* the last decoder it was done with, for its next chunk (pts_ptdec_config.spare) */
	struct pts_ptdec *caller_dec;
};

struct pts_pcpu {
	struct pts_pool *pool;
	struct pts_ptdec_config cfg;	/* the chunks' decoders' (no elide, no page release) */
	struct pts_br_elide *elide;	/* applied at hand-out */
	size_t chunk_bytes;
	bool release;			/* the trace is mapped: drop the pages behind */
	/* the CPU's, for the packets read beside the decoders (pt_cpu.h) */
	struct pt_errata errata;
	unsigned int nchunks;
	struct chunk *cur, *tail;
	struct pts_pcpu *pnext;		/* the pool's next CPU */
	uint64_t next_key;		/* the key of the chunk after tail */
	uint64_t r;			/* index in cur of the next event to hand out */
	uint64_t lim;			/* r below this: cur's event r is ready (set by ready()) */
	/*
	 * The hand-out's fast path: at is cur's event r, at_end its event
	 * lim or where the thread changes, or at itself where the next event
	 * needs the slow path (a run half handed out, extra fields to clear, a
	 * broken rule): set by view(), moved on with r.
	 */
	const struct pts_rec *at, *at_end;
	/* the thread of cur's event r; cur->thr[thr_k]: the next change, which view() passes */
	int32_t pid, tid;
	size_t thr_k;
	uint64_t stop;			/* cur's events end here (UINT64_MAX: not decided) */
	uint64_t next_r;		/* ... and the successor's begin here */
	int rc;				/* an error met in peek, reported by next */
	struct pts_err err;
	struct pts_ptdec_stats acc;	/* contributions of the chunks done */
	struct pts_ptdec_stats start_st;	/* cur's statistics at its first event used */
	/* no more joins: the consumer decodes the rest as the serial decoder (decode_on_serially) */
	bool serial;
	bool ended;
	bool cur_done;			/* cur was waited for (wait_chunk) */
	/* cur's decoder hands its events to the sink itself (pts_ptdec_sink) */
	bool sinking;
	uint64_t sink_elided0;		/* its elided count when it began */
	uint64_t lead_until;		/* the merge's last promise (pts_pcpu_lead) */
	/* the pool's brk (pts_pool_options): a rule broken on purpose */
	bool break_joins, break_runs;
	bool single;			/* the only CPU of the decode: runs are not cut at time changes */
	bool alone;			/* the only CPU (not by a broken rule): next drops and goes on */
	/*
	 * The trace holds CYC packets (pardec.h): one chunk, the whole trace,
	 * that the calling thread decodes alone, never queued. Set before the
	 * first chunk is made, read-only after (the workers' decoders read it
	 * in pardec_new_decoder).
	 */
	bool cyc;
	/* where the serial decoder holds an event across a PSB: no join there (set with cyc) */
	struct pts_pt_hold hold;
	uint32_t sub;			/* jumps of the run at r handed out singly so far */
	uint64_t elided, joined, refused, dropped;
	struct pts_branch out;		/* the event handed out (cpu set once) */
	bool out_extra;			/* out's offset, value or detail are set */
	char detail[160];
};

/* Grow *p (capacity *cap, elements of size bytes) to hold need: 0, or -ENOMEM. */
int pardec_grow_slow(void **p, size_t *cap, size_t need, size_t size);

/* Room for need elements of size bytes in *p (capacity *cap): 0, or -ENOMEM. */
static inline int grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (__builtin_expect(need <= *cap, 1))
		return 0;
	return pardec_grow_slow(p, cap, need, size);
}

/* --- pardec.c --- */

/* Queue the CPU's next chunk (p->tail not at the trace's end). 0, or -ENOMEM. */
int pardec_add_chunk(struct pts_pcpu *p);

/* --- pardec_pool.c --- */

/* Queue c for the workers, before every chunk of a greater key. */
void pardec_pool_queue(struct pts_pool *pool, struct chunk *c);
/*
 * Wait until c is no longer being decoded, nor the chunk after it if a
 * worker is decoding that one too: the caller holds pool->mu.
 */
void pardec_pool_await(struct pts_pool *pool, struct chunk *c);
/* Take c (queued) off the queue: the caller holds pool->mu. */
void pardec_pool_unqueue(struct pts_pool *pool, struct chunk *c);
/*
 * pardec_pool_unqueue, for a thread about to decode c: a chunk that fill
 * (a worker's, or one the calling thread decodes into its buffer) takes
 * the arrays of the queued chunk that held the most events, if they held
 * more than its own, and one decoded into the sink the least, by
 * swapping them with it (queued chunks' arrays are nobody's until taken:
 * the caller holds pool->mu). The decode then writes again into pages
 * written before (docs/performance.md, seventeenth round).
 */
void pardec_pool_take(struct pts_pool *pool, struct chunk *c, bool fill);
/*
 * Queue chunks while fewer than pool->chunks are live, of the CPU whose
 * next chunk the merge needs soonest. 0, or -ENOMEM.
 */
int pardec_pool_fill(struct pts_pool *pool);

/* --- pardec_chunk.c --- */

/* The chunk's arrays and decoder freed (the chunk itself is not). */
void pardec_chunk_free_data(struct chunk *c);
/*
 * A decoder for c at its PSB (view: the worker's images, NULL the shared
 * ones), made of *spare if there is one (pts_ptdec_config.spare: the
 * calling thread's pool->caller_dec, a worker's own). -ENOMEM...
 */
int pardec_new_decoder(struct chunk *c, struct pts_imgview *view, struct pts_ptdec **spare,
		       struct pts_ptdec **out);
/* Decode on with dec into c's buffer (pardec_chunk.c says how far). 0, or -ENOMEM. */
int pardec_run(struct chunk *c, struct pts_ptdec *dec, uint64_t limit);
/*
 * The whole chunk with a decoder of its own (view and spare as
 * pardec_new_decoder; the decoder goes back to *spare). 0, or -ENOMEM.
 */
int pardec_decode_chunk(struct chunk *c, struct pts_imgview *view, struct pts_ptdec **spare);
/*
 * c->dec, in the calling thread, which decodes c on with it alone (a
 * trace with CYC, pardec.h); nothing decoded yet. 0, or -ENOMEM.
 */
int pardec_start_alone(struct chunk *c);
/*
 * c->dec, in the calling thread, with c's first events stored (a join's);
 * the rest it hands to the sink (pardec.c). 0, or -ENOMEM.
 */
int pardec_start_sink(struct chunk *c);

/* --- pardec_join.c --- */

/* a += b - minus, field by field. */
void pardec_st_add(struct pts_ptdec_stats *a, const struct pts_ptdec_stats *b,
		   const struct pts_ptdec_stats *minus);
/* The statistics snapshot of c's event idx, or NULL if none was taken. */
const struct pts_ptdec_stats *pardec_snap_at(const struct chunk *c, uint64_t idx);
/*
 * Where a's events (from index from on) hand over to b's: *ia (index in
 * a) and *jb (in b). false: no join (pardec.h).
 */
bool pardec_find_join(const struct chunk *a, uint64_t from, const struct chunk *b, uint64_t *ia,
		      uint64_t *jb);

#endif /* PTS_SESSION_PARDEC_INT_H */
