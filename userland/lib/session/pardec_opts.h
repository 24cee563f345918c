/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a pool of parallel decoders (pardec.h) is run, set by its caller:
 * the library reads no environment. The test knobs are zero for a
 * decode; the CLI maps PTS_PARDEC_ORDER and PTS_PARDEC_BREAK to them for
 * scripted checks (tests/check.d/76-parallel-identical.sh).
 */
#ifndef PTS_SESSION_PARDEC_OPTS_H
#define PTS_SESSION_PARDEC_OPTS_H

#include <stdbool.h>
#include <stdint.h>

/* A rule of the joins or the runs broken on purpose: the self-tests of check 76. */
enum pts_pardec_break {
	PTS_PARDEC_BREAK_NONE = 0,
	PTS_PARDEC_BREAK_JOINS,	/* every join drops the successor's first event */
	PTS_PARDEC_BREAK_RUNS,	/* a run is dropped whole when its first jump lies in the window */
	PTS_PARDEC_BREAK_TIME,	/* runs of several CPUs are not cut where the time changes */
};

struct pts_pool_options {
	unsigned int threads;	/* worker threads */
	/*
	 * Chunks decoded ahead, across the CPUs: each CPU has the two a
	 * join needs (the one in use and the next) whatever this says; the
	 * rest go to the chunks the merge needs soonest
	 */
	unsigned int chunks;
	/*
	 * Tests: no worker threads; the calling thread decodes the chunks
	 * queued after a chunk before it, one of the orders a pool of
	 * threads can decode them in, made repeatable (the libipt block
	 * cache the decoders share filled in an order threads take only
	 * now and then)
	 */
	bool reverse;
	/*
	 * The calling thread decodes each chunk no worker has started when
	 * it needs it itself, into the merge's sink as the serial decoder
	 * does (pardec.h); the workers take the chunks after it (pardec_pool.c).
	 * The session's default (-j N: N - 1 workers). With threads 0 it
	 * decodes every chunk so (tests: every join between such chunks).
	 * Not with reverse.
	 */
	bool self;
	/*
	 * The calling thread's stack holds libipt's recursion through direct
	 * branches (decode/deep.h): the workers get such stacks too, and the
	 * pool's decoders go through direct branches where their config says
	 * (pts_ptdec_config.through), but keep the block flags, all of them,
	 * where a worker could not get one
	 */
	bool deep;
	enum pts_pardec_break brk;
};

/* Where a pool's CPU time went (tools/bench/parallel.sh), ns; and on what. */
struct pts_pool_cpu {
	uint64_t calling_ns;	/* the thread that freed the pool, since it started */
	uint64_t workers_ns;	/* every worker thread, added up */
	unsigned int workers;
	/*
	 * Chunks queued for the workers, each decoded once (by a worker, or
	 * by the calling thread when none had started it); none of a trace
	 * with CYC, which the calling thread decodes alone (pardec.h)
	 */
	uint64_t chunks;
	uint64_t sunk;		/* ... of them decoded by the calling thread into the sink */
	/*
	 * Idle time (wall, ns) and its count: the calling thread waiting for
	 * a chunk a worker was decoding; workers finding no chunk to take
	 */
	uint64_t caller_waits, caller_wait_ns;
	uint64_t worker_idles, worker_idle_ns;
};

#endif /* PTS_SESSION_PARDEC_OPTS_H */
