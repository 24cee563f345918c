/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A thread whose stack holds libipt's block decoder run without
 * end_on_call and end_on_jump (pts_ptdec_config.through).
 *
 * libipt 2.0.5 follows a direct branch kept in its block cache (every
 * direct call, every backward direct jump) by calling itself:
 * pt_blk_proceed_no_event_cached (libipt/src/pt_block_decoder.c) ends in
 * `return pt_blk_proceed_no_event_cached(...)` for a ptbq_decode entry
 * it may go on from and for a ptbq_again trampoline, a real call in
 * Debian's build (call at offset 0x1233c of libipt.so.2.0.5). Each level
 * adds the entry's instructions (at least 1) to the block's, a uint16_t
 * that the function does not let wrap (it ends the block first), so the
 * depth is at most 65,535; a loop of direct branches that no trace ends
 * (`jmp .`, `call .`, garbage code from a wrong image) reaches it. At the
 * bottom pt_blk_proceed_no_event_fill_cache recurses once per
 * instruction it caches, at most bcache_fill_steps (0x400) levels. Frames
 * in Debian's build (bookworm, 2.0.5-1): 208 bytes for the first (six
 * pushes, sub $0x98, the return address), 192 for the second: 13.0 MiB
 * + 0.2 MiB, more than the 8 MiB main thread stack (SIGSEGV:
 * tools/proto/blk_recursion.c, test_decode_through.c). PTS_DEEP_STACK
 * is nearly five times that bound: virtual memory, whose pages are
 * touched only as deep as a decode goes. A run's decode goes on such a
 * thread (session.c, pts_decode_run), and so do -j N's workers
 * (pardec_pool.c): N such stacks of address space, which an address
 * space limit (ulimit -v) or strict overcommit may refuse; then the run
 * keeps the block flags.
 */
#ifndef PTS_DECODE_DEEP_H
#define PTS_DECODE_DEEP_H

#include <pthread.h>

#define PTS_DEEP_STACK (64u << 20)

/*
 * at initialised with a stack of PTS_DEEP_STACK bytes, for a thread whose
 * decoders go through direct branches (the parallel decode's workers):
 * 0, or -1 when it cannot be (at then not initialised).
 */
int pts_deep_attr_init(pthread_attr_t *at);

/*
 * Run fn(arg) on a new thread with a stack of PTS_DEEP_STACK bytes and
 * wait for it: 0, or -1 when no such thread could be made (fn not run).
 */
int pts_deep_run(void (*fn)(void *arg), void *arg);

#endif
