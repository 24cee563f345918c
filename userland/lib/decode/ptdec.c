// SPDX-License-Identifier: GPL-2.0
/* One CPU's PT trace through libipt's block decoder, as branch events. */
#include "ptdec.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <intel-pt.h>

#include "elide.h"
#include "insn_class.h"
#include "insn_flow.h"
#include "pt_cpu.h"
#include "pt_read.h"
#include "pt_step.h"
#include "util/assume.h"

#define QCAP 16
#define PAD PTS_PT_PAD

struct qent {
	struct pts_branch br;
	uint64_t pos;		/* good_off when queued (pts_ptdec_pos) */
	uint64_t insns;		/* st.insns when queued (pts_ptdec_insns_before) */
	uint64_t nev;		/* events made before it: st.branches + st.others */
	char detail[160];
};

/*
 * Classification cache: the last instruction of nearly every block is
 * classified (Zydis), and the same few thousand branch sites recur all
 * through a trace, so a direct-mapped cache keyed by (address space,
 * IP, mode) saves the decode. Images do not change while a decoder
 * runs (the session sets them all up first), so entries never go stale.
 * ICACHE_SIZE entries of 24 bytes (power of two).
 */
#define ICACHE_SIZE 4096

/* tnt_spare when the last call of libipt's was not the block loop's: below -1, and stays */
#define TNT_NONE (INT32_MIN / 2)

/* A mapped trace's decoded pages are dropped in steps of DROP_STEP bytes,
 * keeping the DROP_KEEP bytes before the decoder's position resident. */
#define DROP_STEP (8u << 20)
#define DROP_KEEP (1u << 20)

/*
 * Loops that consume no trace. A direct jump or call needs no packet, so
 * libipt follows a loop of them (`jmp .`, glibc's `hlt; jmp` in abort)
 * for as long as it is asked to when the trace ends, or is cut, inside
 * it. The branches that end the blocks decoded while the trace position
 * stays put are watched (spinning()): a branch seen SPIN_REPEATS times
 * there means some pass between two of them consumed nothing — one TNT
 * packet carries at most 47 bits (SDM 33.4.2.2, Long TNT), a TIP moves
 * the position — so the decoder's state repeats and the loop never ends.
 * SPIN_MAX_BRANCHES bounds the branches decoded per trace position
 * whatever the code does: the watch needs about 2 * SPIN_REPEATS passes
 * of a loop of L branches, past the bound for L of about 8,200 or more
 * (a chain of that many direct jumps, test_decode_spin_cache.c).
 *
 * Branches, not blocks: libipt 2.0.5 cuts a block it decodes itself at
 * the first instruction its block cache holds
 * (pt_blk_proceed_no_event_fill_cache ends at a valid entry for the next
 * instruction), where from the cache the same instructions are one block
 * up to the branch (pt_blk_proceed_no_event_cached). The cache is the
 * section's, shared by every decoder of the image section cache, so where
 * a loop's blocks start depends on what was decoded before, in whatever
 * order the threads ran; which branches end them does not. The bound
 * counts branches too: counting blocks, it ended such a chain a block
 * early where libipt had cut one.
 *
 * SPIN_MAX_BLOCKS is the last resort, for blocks that end at no branch
 * the classifier knows, which it never counts: libipt's instruction
 * decoder follows some that Zydis refuses (`lock jmp .`, f0 eb fd).
 * Elsewhere a block ends without a branch only where libipt cut it (at a
 * cached instruction, the end of a section, 65,535 instructions), each
 * time before the next instruction in a straight run, which the next
 * branch ends: more than 4 blocks a branch would take 4 such cuts in
 * every branch-free run of the loop.
 */
#define SPIN_REPEATS 64
#define SPIN_MAX_BRANCHES (1u << 20)
#define SPIN_MAX_BLOCKS (1u << 22)
#define SPIN_GAP "endless loop of direct jumps that consumes no trace: segment ended"

struct icache_ent {
	uint64_t ip;
	uint64_t key;		/* ICACHE_KEY of its space and mode; 0: empty */
	struct pts_insn insn;
};

/*
 * The address space (image.h: a space id) and mode bits an entry was
 * classified in, as one word: one compare per lookup. Never 0 (mode_bits
 * is 16, 32 or 64).
 */
#define ICACHE_KEY(space, mode_bits) (((uint64_t)(uint32_t)(space) << 8) | (uint8_t)(mode_bits))

/*
 * Blocks through direct calls and jumps (pts_ptdec_config.through):
 * libipt runs on through the direct branches that end_on_call and
 * end_on_jump would end a block at, and the decoder finds them again in
 * the block: from its start, ninsn - 1 instructions, each direct call or
 * jump followed to its target (pts_insn_direct_target, libipt's
 * arithmetic), the rest by their length. The walk is kept in a cache of
 * block paths, direct-mapped by the block's start and keyed by its
 * instruction count, address space and mode (a block's path depends on
 * its bytes alone, which do not change while a decoder runs: as the
 * classification cache), with the class of the block's last instruction,
 * so that a block needs one lookup, as it needed the classification
 * cache's. An entry holds the first PATH_INLINE direct branches, and up
 * to PATH_SPILL more in an array of its own (a sixth of the direct
 * branches inside blocks of the bench-gen trace come third or later in
 * theirs); a block with more still (a loop of direct branches followed
 * to 65,535 instructions: `more`) has the rest walked again when met.
 * Where the walk meets an instruction Zydis cannot decode, or does not
 * end at the block's last instruction (libipt's length decoder and
 * Zydis's differ), the block is walked again by libipt's instruction flow
 * decoder (flow_walk, insn_flow.h); where that fails too (bytes not
 * libipt's) it keeps no branch and is handed out whole; but for a block of
 * libipt's class ptic_error (one from the block cache whose last class
 * libipt did not fill in: an indirect branch, or a cut after a
 * trampoline, trampoline_cut), which is walked again each time it comes
 * (PATH_CUT, rare). 64-byte entries.
 */
#define PATH_SIZE 4096
#define PATH_INLINE 2
#define PATH_SPILL 64
#define PATH_MORE 1
#define PATH_CUT 2
#define PATH_FLOW_MORE 3

/* A direct branch inside a block: struct path_ent's arrays as one. */
struct path_br {
	uint64_t to;
	uint32_t off;
	uint16_t idx;
	uint8_t len;
};

struct path_ent {
	uint64_t ip;		/* the block's start */
	uint64_t key;		/* ICACHE_KEY | ninsn << 40 (ICACHE_KEY < 2^40); 0: none */
	struct pts_insn last;	/* the block's last instruction, as end_insn classifies it */
	uint64_t to[PATH_INLINE];	/* each direct branch's target */
	uint32_t off[PATH_INLINE];	/* its address less the start of its piece */
	uint16_t idx[PATH_INLINE];	/* its index among the block's instructions */
	uint8_t len[PATH_INLINE];	/* a call's length; 0: a jump */
	uint8_t n;		/* direct branches held: inline, then in spill */
	/*
	 * PATH_MORE: more after them; PATH_FLOW_MORE: the same, the path
	 * libipt's (flow_walk); PATH_CUT: trampoline_cut
	 */
	uint8_t more;
	struct path_br *spill;	/* the ones past PATH_INLINE (malloc'd; freed with the cache) */
};

_Static_assert(sizeof(struct path_ent) <= 64, "a path entry in one cache line");

/*
 * Brent's cycle search over block start addresses: the start of the block
 * at each power of two of steps is watched, and a loop of L blocks brings
 * it back within 2 L blocks of the loop's start, then every L blocks.
 */
struct loop_watch {
	uint64_t ip;		/* watched block start (UINT64_MAX: none) */
	uint32_t steps, span, hits;
};

static void loop_reset(struct loop_watch *w)
{
	w->ip = UINT64_MAX;
	w->steps = 0;
	w->span = 1;
	w->hits = 0;
}

/* One more block, starting at ip: how many times the watched start came back. */
static uint32_t loop_step(struct loop_watch *w, uint64_t ip)
{
	if (ip == w->ip)
		return ++w->hits;
	if (++w->steps >= w->span) {
		w->ip = ip;
		w->steps = 0;
		w->span *= 2;
		w->hits = 0;
	}
	return 0;
}

/*
 * Where the decoder is in its trace (as perf's decoder has its pkt_state):
 *
 *   START --sync--> SYNCED --pts_eos--> WALK_EOS --loop/error--> ENDED
 *     |               |  ^                 |
 *     |             error |               error (spinning)
 *     |               v  |                 |
 *     +--torn PSB+--> RESYNC <-------------+
 *
 * START: the first sync point is still to be found (from the start of the
 * buffer, or at cfg.sync_off). RESYNC: after an error, at the first PSB
 * after sync_off. WALK_EOS: the packets are used up, and the blocks still
 * returned are those whose addresses need no further trace
 * (pt_blk_next(3)), up to the first branch that would need some; a loop
 * of such blocks (`jmp .`) would never end: the walk ends after a block
 * whose branch came before (Brent's cycle detection: struct loop_watch;
 * walk_loops). ENDED:
 * nothing more comes. Any state but START and ENDED may also end when no
 * PSB is left to resynchronise at.
 */
enum ptdec_state { PTDEC_START, PTDEC_RESYNC, PTDEC_SYNCED, PTDEC_WALK_EOS, PTDEC_ENDED };

struct pts_ptdec {
	struct pts_ptdec_config cfg;
	/*
	 * what fill() runs when synced with nothing pending: blocks_plain,
	 * blocks_store (cfg.store), either through direct branches
	 * (cfg.through: blocks_through, blocks_store_through), their copies
	 * while sinking (pts_ptdec_sink), or step (cfg.on_insn: every block
	 * through on_block, its instructions listed): blocks_of
	 */
	void (*blocks)(struct pts_ptdec *d);
	const uint8_t *buf;
	uint8_t *copy;		/* padded copy when the caller's buffer is not padded */
	struct pt_block_decoder *blk;
	int status;		/* pts_* flags of the last libipt call */
	enum ptdec_state state;
	struct loop_watch walk;	/* WALK_EOS: block starts watched for a loop */
	int64_t sync_off;	/* offset of the PSB the decoder last synced at */
	uint64_t good_off;	/* decoder position after the last call that succeeded */
	/* good_off before the last move of it, and before the move before (time_moved) */
	uint64_t read_from, read_prev;
	/*
	 * The last move read one TNT or TIP packet (no timing packet after
	 * it) and left tsc at libipt's time: libipt's time cannot change
	 * while the moves that follow read one such packet each.
	 */
	bool time_plain;
	/*
	 * What the block loop knows of libipt's decoder before its next
	 * pt_blk_next (read_nothing): TNT_NONE nothing, as after any other
	 * call of libipt's; else the last call was the block loop's and
	 * returned no event, and the next tnt_spare blocks that end at a
	 * conditional branch or a return take a bit libipt's TNT cache holds
	 * and read nothing (-1: none known to).
	 */
	int32_t tnt_spare;
	uint64_t dropped;	/* mapped: bytes [0, dropped) released (MADV_DONTNEED) */
	uint64_t drop_at;	/* good_off from which to release more (UINT64_MAX: never) */
	/* blocks since the trace position last moved or an event (spinning()) */
	uint32_t spin_blocks;
	uint32_t spin_branches;	/* ... of them ending at a branch, from SPIN_REPEATS blocks on */
	struct loop_watch spin;	/* from the SPIN_REPEATS + 1st block on */
	uint64_t spin_ends[SPIN_REPEATS];	/* the first SPIN_REPEATS blocks' last IPs */
	bool tsx_abort;		/* a TSX abort at tsx_abort_ip was just reported */
	bool exec_pending;	/* the sideband says the thread exec'd */
	uint64_t sb_check;	/* sb_recheck */
	uint64_t tsx_abort_ip;
	/*
	 * last_ip: the last instruction of the previous block, or the IP an
	 * event left. pend_insn: that instruction's class when its target,
	 * the next IP, is still to be resolved (pending); PTS_IC_OTHER when
	 * none is (drop_pend). The IP of a pending branch is always last_ip:
	 * whatever moves last_ip drops or resolves the pending branch first.
	 */
	struct pts_insn pend_insn;
	uint64_t last_ip;
	uint64_t tsc;
	/*
	 * The time: read at sync, taken from events, and read from libipt
	 * (pt_blk_time) after a call that moved its position: libipt's time
	 * is that of the last TNT, TIP or event packet it read, so it changes
	 * only when its position moves, and after a block it is the time of
	 * the branch that ends the block, read after that block resolved the
	 * branch before it. Not asked of libipt as tick events: libipt 2.0
	 * compares its time after every conditional and indirect branch it
	 * queries (pt_blk_tick), about 6 % of a decode's instructions.
	 * Where a call read an event's packets too, libipt's time is the
	 * event's, not the branch's (time_moved): a branch never gets the
	 * time of a timing packet after it.
	 */
	bool have_tsc;
	/*
	 * tsc in ns (pts_tc_ns, two 64-bit divisions): converted when tsc
	 * changes (set_tsc), not per event; now is since the origin, 0
	 * before the first time.
	 */
	uint64_t abs, now;
	int mode_bits;
	/*
	 * libipt's decoder's mode: ptem_unknown from a sync to the first exec
	 * mode event (the PSB+'s MODE.Exec), then each one's (a block it
	 * decodes itself has that mode, one from its block cache the mode it
	 * was cached in: mode_unknown); mode_bits follows it
	 */
	enum pt_exec_mode mode;
	uint64_t ikey;		/* ICACHE_KEY(space, mode_bits) */
	bool pid_changed;	/* the image set is to be asked about pid */
	/* thread on this CPU (side by side: pts_pid_tid) */
	int32_t pid, tid;
	size_t sb_pos;
	uint64_t sb_due;	/* time (abs ns) of recs[sb_pos], UINT64_MAX: none left */
	/*
	 * The address space pid runs in now (its program: pts_imgset_space_at),
	 * the one whose image the decoder holds, and one found to have no
	 * sections of its own (-2: none). Images are keyed by space.
	 */
	int32_t space;
	int32_t image_pid;
	int32_t no_image_pid;
	int image_bits;		/* the mode_bits of the image held (image_of) */
	/*
	 * A switch recorded but not yet done (cfg.switch_at_pip): its task
	 * runs from the next PIP on. last_root: root of the last PIP (bit
	 * 12, KPTI's user/kernel half, cleared), 0 none yet.
	 */
	bool sw_pending;
	int32_t sw_pid, sw_tid;
	uint64_t last_root;
	/*
	 * sideband records of this CPU were lost: the thread running is
	 * unknown (pid 0) until its next switch record, and no process's
	 * image may decode its user code
	 */
	bool task_lost;
	/* event queue */
	struct qent q[QCAP];
	unsigned int qh, qn;
	uint64_t out_pos;	/* pos of the event last handed out */
	uint64_t out_insns;	/* insns of the event last handed out */
	uint64_t out_nev;	/* nev of the event last handed out */
	/*
	 * The call or return pts_ptdec_emit hands out from the block loop
	 * (push_near): the fields no such event changes set once
	 */
	struct pts_branch direct;
	struct pts_br_elide *elide_q;	/* cfg.elide */
	uint64_t elide_until;	/* a jump is checked when queued before this now */
	/*
	 * jump's one test of time: a jump before this abs may go to the
	 * elide window (elide_q, now < elide_until) with no sideband work
	 * due (abs < sb_check); 0: none may (jump_recheck)
	 */
	uint64_t jump_until;
	/*
	 * pts_ptdec_sink: emit hands out no event but a jump whose trace
	 * position lies past this (UINT64_MAX: not sinking); the store's
	 * config kept meanwhile
	 */
	uint64_t sink_end;
	struct pts_evstore *sink_store;
	bool (*sink_take)(void *ctx, int32_t pid, int32_t tid, uint64_t from, uint64_t to,
			  uint64_t ts_ns, uint64_t pos);
	struct pts_ptdec_stats st;
	/*
	 * cfg.through: a block libipt returned with direct branches inside
	 * it (hp, its path), whose pieces, one per branch, each handed out
	 * as the block the flags would have ended at it, were cut short (an
	 * event queued, the sink said stop: one_block, step_piece): the rest
	 * of it (block_rest) is still to come, with the status held_st of
	 * the call; hk the next branch, hip and hidx the next piece's start
	 * and its index among the block's instructions. NULL hp: none held.
	 */
	const struct path_ent *hp;
	struct pt_block held;
	int held_st;
	uint32_t hk, hidx;
	uint64_t hip;
	struct path_ent *paths;	/* the cache of block paths (cfg.through) */
	struct pts_insn_flow *flow;	/* flow_walk's decoder, made when first needed */
	/* the last member: kept when the decoder is recycled (pts_ptdec_config.spare) */
	struct icache_ent icache[ICACHE_SIZE];
};

_Static_assert(offsetof(struct pts_ptdec, tid) == offsetof(struct pts_ptdec, pid) + 4,
	       "pts_pid_tid: pid and tid side by side");
_Static_assert(offsetof(struct pts_ptdec, icache) + sizeof(((struct pts_ptdec *)0)->icache) ==
		       sizeof(struct pts_ptdec),
	       "pts_ptdec_new empties a recycled decoder up to its classification cache");

/* Whether follow_sideband has work: a record due, or an image to select. */
static inline bool sideband_due(const struct pts_ptdec *d)
{
	return d->cfg.sb && d->have_tsc && (d->pid_changed || d->abs >= d->sb_due);
}

/*
 * Set jump_until from sb_check and elide_until. set_tsc makes now
 * abs - origin, or 0 up to the origin, so for an abs below UINT64_MAX
 * now < elide_until holds exactly when abs < elide_until + origin (as
 * much as fits), or never for an elide_until of 0.
 */
static inline void jump_recheck(struct pts_ptdec *d)
{
	uint64_t e = d->elide_until, o = d->cfg.origin_ns;
	uint64_t until = !d->elide_q || !e ? 0 : e > UINT64_MAX - o ? UINT64_MAX : e + o;

	d->jump_until = until < d->sb_check ? until : d->sb_check;
}

/*
 * Set sb_check, the time (abs ns) from which push may have work before
 * the event itself (sideband_due or exec_pending): 0 when it has some
 * now. Called wherever exec_pending, pid_changed, have_tsc or sb_due
 * change. At abs == UINT64_MAX it may say so without work (harmless:
 * push checks each).
 */
static inline void sb_recheck(struct pts_ptdec *d)
{
	bool sb = d->cfg.sb && d->have_tsc;

	if (d->exec_pending || (sb && d->pid_changed))
		d->sb_check = 0;
	else
		d->sb_check = sb ? d->sb_due : UINT64_MAX;
	jump_recheck(d);
}

static inline bool pending(const struct pts_ptdec *d)
{
	return d->pend_insn.cls != PTS_IC_OTHER;
}

static inline void drop_pend(struct pts_ptdec *d)
{
	d->pend_insn.cls = PTS_IC_OTHER;
}

/*
 * Take tsc as the current time. keep_later: tsc belongs to a packet that
 * came before the point its event is bound to (see on_event), so an
 * earlier tsc than the current one is not a step back in time and is not
 * taken. Any other earlier time is taken: the timeline clamps and counts it.
 */
static void set_tsc(struct pts_ptdec *d, uint64_t tsc, bool keep_later)
{
	if (d->have_tsc && (tsc == d->tsc || (keep_later && tsc < d->tsc)))
		return;
	d->tsc = tsc;
	d->have_tsc = true;
	sb_recheck(d);
	d->abs = pts_tc_ns(&d->cfg.tc, tsc);
	d->now = d->abs > d->cfg.origin_ns ? d->abs - d->cfg.origin_ns : 0;
}

/*
 * The libipt image of pid for code of the decoder's mode: the decoder's
 * own view's, or the set's. 16- and 32-bit code has images of its own,
 * whose sections hold blocks of that mode only in their libipt block
 * cache (pts_imgset_image_mode, set_mode).
 */
static struct pt_image *image_of(struct pts_ptdec *d, int32_t pid)
{
	return d->cfg.view ? pts_imgview_image_mode(d->cfg.view, pid, d->mode) :
			     pts_imgset_image_mode(d->cfg.images, pid, d->mode);
}

/* Whether pid has sections of its own (from the view, when the decoder has one). */
static int has_pid(struct pts_ptdec *d, int32_t pid)
{
	return d->cfg.view ? pts_imgview_has_pid(d->cfg.view, pid) :
			     pts_imgset_has_pid(d->cfg.images, pid);
}

/*
 * The process named (sideband, PIP) and the program it runs at this time
 * (its execs) pick the address space (user-only traces carry no PIP). The
 * image set does not change while decoding, so a space without sections
 * is remembered rather than searched for again. A known process without
 * sections of its own (its maps were not taken) decodes its user code as
 * gaps ("no memory mapped") with only the shared sections, never with the
 * previous process's image; an unknown thread (pid 0: no sideband names
 * it) keeps the image held, at first the union of every process's.
 */
static void select_image(struct pts_ptdec *d)
{
	struct pt_image *img;
	int32_t space;

	space = pts_imgset_space_at(d->cfg.images, d->pid, d->have_tsc ? d->abs : 0);
	d->space = space;	/* our own reads follow the process in any case */
	d->ikey = ICACHE_KEY(space, d->mode_bits);
	if (!d->cfg.images_by_pid || space == d->image_pid ||
	    (space == d->no_image_pid && !d->task_lost))
		return;
	/*
	 * After lost sideband records the held image is a guess at best: the
	 * unknown task's own image (no user sections) makes its code a gap.
	 */
	if (!has_pid(d, space)) {
		d->no_image_pid = space;
		if (d->pid <= 0 && !d->task_lost)
			return;
	}
	img = image_of(d, space);
	if (img && pt_blk_set_image(d->blk, img) >= 0) {
		d->image_pid = space;
		d->image_bits = d->mode_bits;
	}
}

/* A page-table root with KPTI's user/kernel half bit (12) cleared. */
#define ROOT_OF(cr3) ((cr3) & PTS_CR3_ROOT_MASK & ~(1ULL << 12))

/*
 * Whether switch record r takes effect at the next PIP rather than at
 * its time: the trace has PIPs, the record was stamped before the CR3
 * write, and a CR3 write will come (another process, a user address space
 * other than the last PIP's; a kernel thread keeps the old one). Until
 * then the previous task runs the end of the switch in the kernel.
 */
static bool switch_waits(const struct pts_ptdec *d, const struct pts_sb_rec *r)
{
	return d->cfg.switch_at_pip && r->before_cr3_write && r->pid != d->pid &&
	       ROOT_OF(r->cr3) && ROOT_OF(r->cr3) != d->last_root;
}

/* Apply sideband switches on this CPU up to the current time. */
static void follow_sideband(struct pts_ptdec *d)
{
	const struct pts_sideband *sb = d->cfg.sb;
	uint64_t abs;

	if (!sb || !d->have_tsc)
		return;
	abs = d->abs;
	while (d->sb_pos < sb->n && sb->recs[d->sb_pos].time_ns <= abs) {
		const struct pts_sb_rec *r = &sb->recs[d->sb_pos++];

		if (r->type == PTS_SB_EXEC && r->tid == d->tid &&
		    (r->cpu == d->cfg.cpu || r->cpu == UINT32_MAX))
			d->exec_pending = true;
		if (r->type == PTS_SB_LOST && r->cpu == d->cfg.cpu) {
			d->pid_changed |= !d->task_lost;
			d->task_lost = true;
			d->sw_pending = false;
			d->pid = 0;
			d->tid = 0;
			continue;
		}
		/* a new program: its address space from here on */
		if (r->type == PTS_SB_EXEC && r->pid == d->pid)
			d->pid_changed = true;
		if (r->type != PTS_SB_SWITCH || r->cpu != d->cfg.cpu)
			continue;
		if (switch_waits(d, r)) {
			d->sw_pending = true;
			d->sw_pid = r->pid;
			d->sw_tid = r->tid;
			continue;
		}
		d->sw_pending = false;
		d->pid_changed |= d->pid != r->pid || d->task_lost;
		d->task_lost = false;
		d->pid = r->pid;
		d->tid = r->tid;
	}
	d->sb_due = d->sb_pos < sb->n ? sb->recs[d->sb_pos].time_ns : UINT64_MAX;
	if (d->pid_changed) {
		d->pid_changed = false;
		select_image(d);
	}
	sb_recheck(d);
}

/*
 * Fill a queue entry's branch. Every field the decoder sets is written
 * here; from_sym/to_sym stay as pts_ptdec_new zeroed them (the decoder
 * names no symbols). Field by field: zeroing the whole struct costs a
 * `rep stos` per event.
 */
static inline void set_branch(struct pts_ptdec *d, struct pts_branch *br, enum pts_br_kind kind,
			      uint64_t from, uint64_t to)
{
	br->kind = kind;
	br->flags = 0;
	br->from = from;
	br->to = to;
	br->ts_ns = d->now;
	br->cpu = d->cfg.cpu;
	br->pid = d->pid;
	br->tid = d->tid;
	br->offset = 0;
	br->value = 0;
	br->detail = NULL;
	br->insn_len = 0;
}

/* Queue an event at the decoder's current time, thread and trace position. */
static inline struct qent *queue(struct pts_ptdec *d, enum pts_br_kind kind, uint64_t from,
				 uint64_t to)
{
	struct qent *e = &d->q[(d->qh + d->qn++) % QCAP];

	/* br.detail points at e->detail only where an event sets it */
	set_branch(d, &e->br, kind, from, to);
	e->pos = d->good_off;
	e->insns = d->st.insns;
	e->nev = d->st.branches + d->st.others;
	if (kind != PTS_BR_GAP && kind != PTS_BR_INSTANT && kind != PTS_BR_CBR)
		d->st.branches++;
	else
		d->st.others++;
	return e;
}

static struct qent *push(struct pts_ptdec *d, enum pts_br_kind kind, uint64_t from, uint64_t to)
{
	struct qent *e;

	if (d->qn >= QCAP - 1)	/* cannot happen: one step queues at most 4 */
		return NULL;
	if (d->abs >= d->sb_check) {
		if (sideband_due(d))
			follow_sideband(d);
		if (d->exec_pending) {
			/* the thread's exec comes before what it runs next */
			d->exec_pending = false;
			sb_recheck(d);
			e = &d->q[(d->qh + d->qn++) % QCAP];
			set_branch(d, &e->br, PTS_BR_EXEC, 0, 0);
			e->pos = d->good_off;
			e->insns = d->st.insns;
			e->nev = d->st.branches + d->st.others;
			d->st.others++;
		}
	}
	if (kind == PTS_BR_JUMP && !d->qn && d->elide_q && d->now < d->elide_until &&
	    pts_br_elide_drop_thread(d->elide_q, pts_pid_tid(&d->pid), from, to, d->now,
				     d->cfg.cpu)) {
		d->st.branches++;
		d->st.elided++;
		return NULL;
	}
	/* the consumer takes the jump itself: every event before it was handed out */
	if (kind == PTS_BR_JUMP && !d->qn && d->cfg.take_jump &&
	    d->cfg.take_jump(d->cfg.jump_ctx, d->pid, d->tid, from, to, d->now, d->good_off)) {
		d->st.branches++;
		return NULL;
	}
	return queue(d, kind, from, to);
}

/*
 * The sink pts_ptdec_emit hands its events to, with its bound, for the
 * block loop compiled into it: rc is the sink's nonzero return, which
 * ends the call.
 */
struct emit_to {
	const struct pts_brsrc_to *to;
	bool bounded;
	uint64_t until_ns;
	struct pts_err *err;
	int rc;
};

/*
 * A near call or return handed to et's sink at once, as hand_out would
 * after queueing it (nothing is queued): no queue entry and no pass out
 * of the block loop for the two kinds that make most events. To the
 * sink's entry for its kind (kind is a constant in each copy of the
 * block loop: the class it resolved), which need not test it again.
 * True when the sink says stop.
 */
static inline __attribute__((always_inline)) bool
emit_near(struct pts_ptdec *d, struct emit_to *et, enum pts_br_kind kind, uint64_t from,
	  uint64_t to, uint8_t insn_len)
{
	struct pts_branch *br = &d->direct;

	br->kind = kind;
	br->from = from;
	br->to = to;
	br->ts_ns = d->now;
	br->pid = d->pid;
	br->tid = d->tid;
	br->insn_len = insn_len;
	d->st.branches++;
	/* out_pos and out_insns are pts_ptdec_next's: no sink of emit asks */
	et->rc = (kind == PTS_BR_CALL ? et->to->call : et->to->ret)(et->to->ctx, et->to->idx, br,
								    et->err);
	return et->rc != 0;
}

/*
 * push of a near call or return (insn_len: the call's length, 0 for a
 * return) with nothing queued and no sideband work due: handed to et's
 * sink (emit_near) when it takes it now; else the entry built in place,
 * as push would; or stored in the consumer's store (evstore.h) where it
 * may take it, never handed out. True when et's sink says stop.
 */
static inline __attribute__((always_inline)) bool
push_near(struct pts_ptdec *d, enum pts_br_kind kind, uint64_t from, uint64_t to, uint8_t insn_len,
	  bool store, struct emit_to *et, bool sink)
{
	struct qent *e;

	if (d->qn || d->abs >= d->sb_check) {
		e = push(d, kind, from, to);
		if (e)
			e->br.insn_len = insn_len;
		return false;
	}
	if (et && !(et->bounded && d->now >= et->until_ns) && !(sink && d->good_off > d->sink_end))
		return emit_near(d, et, kind, from, to, insn_len);
	if (store && pts_evstore_can(d->cfg.store, d->good_off, false)) {
		/* stored where the consumer keeps it: not queued, not handed out */
		pts_evstore_put(d->cfg.store, kind, from, to, d->now, d->good_off, d->pid,
				d->tid)->insn_len = insn_len;
		d->st.branches++;
		return false;
	}
	e = &d->q[d->qh];
	d->qn = 1;
	set_branch(d, &e->br, kind, from, to);
	e->br.insn_len = insn_len;
	e->pos = d->good_off;
	e->insns = d->st.insns;
	e->nev = d->st.branches + d->st.others;
	d->st.branches++;
	return false;
}

static void update_time(struct pts_ptdec *d)
{
	uint64_t t;
	uint32_t lost_mtc, lost_cyc;

	if (pt_blk_time(d->blk, &t, &lost_mtc, &lost_cyc) >= 0)
		set_tsc(d, t, false);
}

/* A gap at trace offset off (what the event says: detail, offset). */
static void gap_at(struct pts_ptdec *d, const char *cause, uint64_t resume_ip, uint64_t off)
{
	struct qent *e;

	d->st.gaps++;
	e = push(d, PTS_BR_GAP, d->last_ip, resume_ip);
	if (!e)
		return;
	e->br.offset = off;
	snprintf(e->detail, sizeof(e->detail), "%s", cause);
	e->br.detail = e->detail;
	drop_pend(d);
}

/* A gap where libipt's decoder is now. */
static void gap(struct pts_ptdec *d, const char *cause, uint64_t resume_ip)
{
	uint64_t off = 0;

	pt_blk_get_offset(d->blk, &off);
	gap_at(d, cause, resume_ip, off);
}

/*
 * A gap for libipt's error st, where its decoder is now. Where libipt
 * found a packet it could not take for the query it asked
 * (pte_bad_query) and that packet does not decode at all, the gap is
 * named by that packet's error: which query libipt asked there depends
 * on where its blocks end, with or without the block flags
 * (cfg.through: a TNT bit for the conditional branch after a direct
 * jump, where the flags ask for an event first), and the damage is the
 * packet's (docs/fuzzing.md, finding 24). Gaps are rare: a packet
 * decoder made for each.
 */
static __attribute__((noinline, cold)) void gap_err(struct pts_ptdec *d, int st)
{
	struct pt_packet_decoder *pd;
	struct pt_errata errata;
	int code = pt_errcode(st);
	struct pt_packet pkt;
	uint64_t off = 0;
	int rc;

	pt_blk_get_offset(d->blk, &off);
	if (code == pte_bad_query) {
		pts_pt_errata(&errata, d->cfg.family, d->cfg.model, d->cfg.stepping);
		pd = pts_pt_pkt_decoder(d->buf, d->cfg.size, &errata);
		if (pd && pt_pkt_sync_set(pd, off) >= 0) {
			rc = pt_pkt_next(pd, &pkt, sizeof(pkt));
			if (rc < 0 && rc != -pte_eos)
				code = pt_errcode(rc);
		}
		pt_pkt_free_decoder(pd);
	}
	gap_at(d, pt_errstr(code), 0, off);
}

/*
 * A jump for the consumer's store (cfg.store) that does not extend its
 * open run: it begins a run there if the store allows, else it is offered
 * to take_jump, and queued if not taken; with something queued or
 * sideband work due, it goes through push (which offers it too). Out of
 * line, so that jump() stays small enough to inline.
 */
static __attribute__((noinline)) void store_jump(struct pts_ptdec *d, uint64_t from, uint64_t to)
{
	struct pts_evstore *s = d->cfg.store;

	if (d->qn || d->abs >= d->sb_check) {
		push(d, PTS_BR_JUMP, from, to);
		return;
	}
	if (pts_evstore_can(s, d->good_off, true)) {
		pts_evstore_begin_run(s, d->pid, d->tid, from, to, d->now, d->good_off);
	} else if (!d->cfg.take_jump(d->cfg.jump_ctx, d->pid, d->tid, from, to, d->now,
				     d->good_off)) {
		queue(d, PTS_BR_JUMP, from, to);
		return;
	}
	d->st.branches++;
}

/* A jump for the store: extends its open run inline, else store_jump. */
static inline __attribute__((always_inline)) void store_jump_fast(struct pts_ptdec *d,
								   uint64_t from, uint64_t to)
{
	struct pts_evstore *s = d->cfg.store;

	if (!d->qn && d->abs < d->sb_check &&
	    pts_evstore_add_jump(s, d->pid, d->tid, from, to, d->now)) {
		d->st.branches++;
	} else {
		store_jump(d, from, to);
	}
}

/*
 * A jump of a decoder without a store that its consumer's window does not
 * drop: queued (push). Rare (the window drops nearly every jump a block
 * ends at) and out of the block loop's way: the loop falls through to
 * the next block after a dropped jump.
 */
static __attribute__((noinline, cold)) void jump_queued(struct pts_ptdec *d, uint64_t from,
							uint64_t to)
{
	push(d, PTS_BR_JUMP, from, to);
}

/*
 * A jump: most are inside the function executing and the consumer's
 * elide filter drops them. The common case is decided here without the
 * sideband walk push does: nothing queued, no sideband record due, no
 * exec or address-space change pending (push would do nothing before
 * its own check of the window, or offer it to take_jump: the store takes
 * it as take_jump would); the times in one test (jump_until).
 */
static inline __attribute__((always_inline)) void jump(struct pts_ptdec *d, uint64_t from,
						       uint64_t to, bool store)
{
	if (__builtin_expect(!d->qn && d->abs < d->jump_until, 1) &&
	    pts_br_elide_drop_thread(d->elide_q, pts_pid_tid(&d->pid), from, to, d->now,
				     d->cfg.cpu)) {
		d->st.branches++;
		d->st.elided++;
		return;
	}
	if (store)
		store_jump_fast(d, from, to);
	else
		jump_queued(d, from, to);
}

/* The previous block's last instruction went to next_ip: emit its branch. */
static void resolve(struct pts_ptdec *d, uint64_t next_ip)
{
	uint64_t from = d->last_ip, fall = d->last_ip + d->pend_insn.len;
	enum pts_icls cls = d->pend_insn.cls;
	struct qent *e;

	if (cls == PTS_IC_OTHER)
		return;
	drop_pend(d);
	/*
	 * Conditional branches end most blocks: tested first, with a plain
	 * test rather than the switch's jump table (an indirect branch the
	 * CPU mispredicts as the classes alternate).
	 */
	if (cls == PTS_IC_COND) {
		if (next_ip != fall)
			jump(d, from, next_ip, d->cfg.store);
		return;
	}
	switch (cls) {
	case PTS_IC_CALL:
		if (next_ip != fall) {
			e = push(d, PTS_BR_CALL, from, next_ip);
			if (e)
				e->br.insn_len = d->pend_insn.len;
		}
		break;
	case PTS_IC_RET:
		push(d, PTS_BR_RETURN, from, next_ip);
		break;
	case PTS_IC_JUMP:
	case PTS_IC_FAR_JUMP:
		jump(d, from, next_ip, d->cfg.store);
		break;
	case PTS_IC_SYSCALL:
		e = push(d, PTS_BR_SYSCALL, from, next_ip);
		if (e)
			e->br.insn_len = d->pend_insn.len;
		break;
	case PTS_IC_SYSRET:
		push(d, PTS_BR_SYSRET, from, next_ip);
		break;
	case PTS_IC_IRET:
		push(d, PTS_BR_IRET, from, next_ip);
		break;
	default:
		break;
	}
}

/*
 * resolve, with the near branches that end nearly every block decided
 * inline (a conditional one not taken yields nothing). Tested in the
 * order of their share of the blocks (conditional about half, calls and
 * returns a fifth each): fewer instructions than the switch's table. The
 * conditional one marked likely: the compiler otherwise builds the
 * other cases' operands before the test. True when et's sink says stop
 * (push_near). known: the class pending where the block loop knows it
 * (one_block, a constant there), else negative.
 */
static inline __attribute__((always_inline)) bool resolve_fast(struct pts_ptdec *d,
							      uint64_t next_ip, bool store,
							      struct emit_to *et, int known,
							      bool sink)
{
	enum pts_icls cls = known >= 0 ? (enum pts_icls)known : d->pend_insn.cls;
	uint64_t from = d->last_ip;
	uint8_t len = d->pend_insn.len;

	if (__builtin_expect(cls == PTS_IC_COND, 1)) {
		drop_pend(d);
		if (next_ip != from + len)
			jump(d, from, next_ip, store);
	} else if (cls == PTS_IC_CALL) {
		drop_pend(d);
		if (next_ip != from + len)
			return push_near(d, PTS_BR_CALL, from, next_ip, len, store, et, sink);
	} else if (cls == PTS_IC_RET) {
		drop_pend(d);
		return push_near(d, PTS_BR_RETURN, from, next_ip, 0, store, et, sink);
	} else if (cls == PTS_IC_JUMP) {
		drop_pend(d);
		jump(d, from, next_ip, store);
	} else if (cls != PTS_IC_OTHER) {
		resolve(d, next_ip);
	}
	return false;
}

/*
 * resolve_fast of the branch a piece of a block ends at (one_block): a
 * direct call or jump.
 */
static inline __attribute__((always_inline)) bool resolve_direct(struct pts_ptdec *d,
								uint64_t next_ip, bool store,
								struct emit_to *et, bool sink)
{
	uint64_t from = d->last_ip;
	uint8_t len = d->pend_insn.len;
	bool call = d->pend_insn.cls == PTS_IC_CALL;

	drop_pend(d);
	if (!call) {
		jump(d, from, next_ip, store);
		return false;
	}
	if (next_ip != from + len)
		return push_near(d, PTS_BR_CALL, from, next_ip, len, store, et, sink);
	return false;
}

/* The classification cache's entry for ip. */
static inline struct icache_ent *icache_at(struct pts_ptdec *d, uint64_t ip)
{
	return &d->icache[(ip ^ (ip >> 12)) & (ICACHE_SIZE - 1)];
}

/*
 * Up to 16 bytes of code at ip, as the block decoder read them: from the
 * address space's image; where d->pid has no section, from the image the
 * block decoder holds (image_pid's, or the union one; follow_sideband
 * keeps it for a pid without sections of its own), so every instruction
 * it decoded is listed, and *cacheable is cleared: that image changes
 * with the sideband.
 */
static size_t read_code(struct pts_ptdec *d, uint64_t ip, uint8_t *buf, bool *cacheable)
{
	size_t n = pts_imgset_read(d->cfg.images, d->space, ip, buf, 16);

	if (!n && d->image_pid != d->space) {
		if (d->image_pid == PTS_PID_ALL)
			n = pts_imgset_read_any(d->cfg.images, ip, buf, 16);
		else
			n = pts_imgset_read(d->cfg.images, d->image_pid, ip, buf, 16);
		*cacheable = false;
	}
	return n;
}

/*
 * classify, when the cache does not have it (raw: never cached);
 * cacheable, when not NULL, cleared when the bytes were not (read_code).
 */
static void classify_slow(struct pts_ptdec *d, uint64_t ip, const uint8_t *raw, size_t rawlen,
			  struct pts_insn *out, bool *cacheable)
{
	struct icache_ent *c = raw ? NULL : icache_at(d, ip);
	uint8_t buf[16];
	size_t n = rawlen;
	bool cache = true;

	if (!raw) {
		n = read_code(d, ip, buf, &cache);
		if (!cache) {
			c = NULL;
			if (cacheable)
				*cacheable = false;
		}
		raw = buf;
	}
	if (!n || pts_insn_classify(raw, n, d->mode_bits, out))
		memset(out, 0, sizeof(*out));
	if (c) {
		c->ip = ip;
		c->key = d->ikey;
		c->insn = *out;
	}
}

/* The class of the instruction at ip, its bytes from the images: cacheable. */
static inline void classify(struct pts_ptdec *d, uint64_t ip, struct pts_insn *out)
{
	const struct icache_ent *c = icache_at(d, ip);

	if (__builtin_expect(c->ip == ip && c->key == d->ikey, 1))
		*out = c->insn;
	else
		classify_slow(d, ip, NULL, 0, out, NULL);
}

/* classify, clearing *cacheable where the bytes were not (read_code). */
static void classify_walk(struct pts_ptdec *d, uint64_t ip, struct pts_insn *out, bool *cacheable)
{
	const struct icache_ent *c = icache_at(d, ip);

	if (c->ip == ip && c->key == d->ikey)
		*out = c->insn;
	else
		classify_slow(d, ip, NULL, 0, out, cacheable);
}

/* The target of the direct call or jump at ip (pts_insn_direct_target): false if none. */
static bool direct_target(struct pts_ptdec *d, uint64_t ip, uint64_t *to, bool *cacheable)
{
	uint8_t buf[16];
	size_t n = read_code(d, ip, buf, cacheable);

	return n && !pts_insn_direct_target(buf, n, d->mode_bits, ip, to);
}

/*
 * Block b's path as libipt's instruction flow decoder steps it
 * (insn_flow.h), for path_fill where the walk with Zydis does not follow
 * libipt's block decoder: its direct branches in br, *n of them, *more
 * PATH_FLOW_MORE when there are more than br holds (walk_inner then
 * finds them the same way), the rest walked on to check the end. False
 * where that walk fails too, or does not end at the block's last
 * instruction.
 */
static __attribute__((noinline, cold)) bool flow_walk(struct pts_ptdec *d, const struct pt_block *b,
						       struct path_br *br, unsigned int *n, uint8_t *more)
{
	uint64_t ip = b->ip, start = b->ip;
	struct pts_flow_branch fb;
	uint32_t i = 0;
	int r;

	*n = 0;
	*more = 0;
	while (i + 1 < b->ninsn) {
		r = pts_insn_flow_branch(&d->flow, pt_blk_get_image(d->blk), b->mode, ip,
					 b->ninsn - 1 - i, &fb);
		if (r < 0)
			return false;
		if (!r) {
			ip = fb.site;
			break;
		}
		if (*n == PATH_INLINE + PATH_SPILL || fb.site - start > UINT32_MAX)
			*more = PATH_FLOW_MORE;
		else if (!*more)
			br[(*n)++] = (struct path_br){ fb.to, (uint32_t)(fb.site - start),
						       (uint16_t)(i + fb.idx), fb.len };
		i += fb.idx + 1;
		start = ip = fb.to;
	}
	return ip == b->end_ip;
}

/*
 * Block b's path walked into e (struct path_ent), under key: with Zydis,
 * and where that walk meets an instruction Zydis cannot decode or does
 * not end at the block's last instruction (libipt's length decoder and
 * Zydis's differ: an opcode invalid in 64-bit mode, which Zydis refuses,
 * met where a damaged trace returns into the middle of an instruction),
 * as libipt's instruction flow decoder steps it (flow_walk), so that the
 * pieces are the blocks the flags would have given (fuzz finding 28).
 * Kept under the same rule either way: the bytes of the instructions
 * read came from the address space's image (read_code).
 */
static __attribute__((noinline)) void path_fill(struct pts_ptdec *d, const struct pt_block *b,
						struct path_ent *e, uint64_t key)
{
	struct path_br br[PATH_INLINE + PATH_SPILL];
	uint64_t ip = b->ip, start = b->ip, to;
	bool cacheable = true, flowed = false;
	struct pts_insn in;
	unsigned int n = 0, k;
	uint32_t i;

	e->ip = b->ip;
	e->more = 0;
	for (i = 0; i + 1 < b->ninsn; i++) {
		classify_walk(d, ip, &in, &cacheable);
		if (!in.len)
			goto flow;
		if (!in.direct) {
			ip += in.len;
			continue;
		}
		if (!direct_target(d, ip, &to, &cacheable))
			goto flow;
		if (n == PATH_INLINE + PATH_SPILL || ip - start > UINT32_MAX) {
			/* the rest walked where it is met (walk_inner); on, to check the end */
			e->more = PATH_MORE;
		} else if (!e->more) {
			br[n] = (struct path_br){ to, (uint32_t)(ip - start), (uint16_t)i,
						  in.cls == PTS_IC_CALL ? in.len : 0 };
			n++;
		}
		start = ip = to;
	}
	if (ip != b->end_ip) {
		if (b->iclass != ptic_error)
			goto flow;
		goto cut;
	}
keep:
	free(e->spill);
	e->spill = NULL;
	if (n > PATH_INLINE) {
		e->spill = malloc((n - PATH_INLINE) * sizeof(*e->spill));
		if (!e->spill) {
			/* walked again where met, the way it was walked here */
			n = PATH_INLINE;
			e->more = flowed ? PATH_FLOW_MORE : PATH_MORE;
		} else {
			memcpy(e->spill, br + PATH_INLINE, (n - PATH_INLINE) * sizeof(*e->spill));
		}
	}
	for (k = 0; k < n && k < PATH_INLINE; k++) {
		e->to[k] = br[k].to;
		e->off[k] = br[k].off;
		e->idx[k] = br[k].idx;
		e->len[k] = br[k].len;
	}
	e->n = (uint8_t)n;
	goto last;
flow:
	if (flow_walk(d, b, br, &n, &e->more)) {
		flowed = true;
		goto keep;
	}
	if (b->iclass != ptic_error)
		goto whole;
cut:
	/* end_ip may be the next instruction's (trampoline_cut): no path, not kept */
	e->n = 0;
	e->more = PATH_CUT;
	cacheable = false;
	goto last;
whole:
	e->n = 0;
	e->more = 0;
last:
	if (b->iclass != ptic_other && b->iclass != ptic_ptwrite && !b->truncated)
		classify_walk(d, b->end_ip, &e->last, &cacheable);
	else
		memset(&e->last, 0, sizeof(e->last));
	/* kept for the block in hand (the held one's pieces read it), found by no other */
	e->key = cacheable ? key : 0;
}

/* The cache of block paths freed, with the entries' own arrays. */
static void paths_free(struct path_ent *paths)
{
	size_t i;

	for (i = 0; paths && i < PATH_SIZE; i++)
		free(paths[i].spill);
	free(paths);
}

/*
 * A block libipt cut right after a trampoline of its block cache
 * (cfg.through), which it marks ptic_error: in libipt 2.0.5 a ptbq_again
 * entry sets the block's end_ip to the entry's target, the next
 * instruction, before pt_blk_proceed_no_event_cached finds that the next
 * entry no longer fits the block's uint16_t count and ends it there. The
 * instructions counted are the ninsn from ip, and the next block starts
 * at end_ip. Libipt adds a trampoline after bcache_fill_steps (1,024)
 * instructions it decodes without a decision point, which the flags make
 * of every direct branch, so through direct branches a loop of them meets
 * it. Made the block it is: end_ip its last instruction, the class that
 * instruction's (a direct call or jump, whose target is the next block's
 * start, or none), so that its path and pending branch are those of any
 * other block. Left as libipt gave it where the walk fails.
 */
static __attribute__((noinline, cold)) void trampoline_cut(struct pts_ptdec *d,
							    struct pt_block *b)
{
	uint64_t ip = b->ip, to;
	bool cacheable = true;
	struct pts_insn in;
	uint32_t i;

	for (i = 0; i + 1 < b->ninsn; i++) {
		classify_walk(d, ip, &in, &cacheable);
		if (!in.len)
			return;
		if (!in.direct)
			ip += in.len;
		else if (direct_target(d, ip, &to, &cacheable))
			ip = to;
		else
			return;
	}
	classify_walk(d, ip, &in, &cacheable);
	if (!in.len)
		return;
	if (!in.direct) {
		if (ip + in.len != b->end_ip || in.cls != PTS_IC_OTHER)
			return;
		b->iclass = ptic_other;
	} else {
		if (!direct_target(d, ip, &to, &cacheable) || to != b->end_ip)
			return;
		b->iclass = in.cls == PTS_IC_CALL ? ptic_call : ptic_jump;
	}
	b->end_ip = ip;
}

/* Block b's path (cfg.through): from the cache, else walked. */
static inline const struct path_ent *path_at(struct pts_ptdec *d, const struct pt_block *b)
{
	uint64_t key = d->ikey | (uint64_t)b->ninsn << 40;
	struct path_ent *e = &d->paths[(b->ip ^ (b->ip >> 12)) & (PATH_SIZE - 1)];

	if (__builtin_expect(e->ip != b->ip || e->key != key, 0))
		path_fill(d, b, e, key);
	return e;
}

/*
 * The direct branches of a block whose path is e, from the k th on, the
 * next piece starting at ip, the ix th of the block's n instructions
 * (struct pts_ptdec, hk, hip, hidx): where the next piece ends.
 */
struct piece_at {
	const struct path_ent *e;
	uint32_t k, ix;
	uint64_t ip;
	uint16_t n;
};

/*
 * next_inner past the path's entry (more): walked from the next piece's
 * start, as path_fill walked it (with Zydis, or PATH_FLOW_MORE: flow_walk's way).
 */
static __attribute__((noinline)) bool walk_inner(struct pts_ptdec *d, const struct piece_at *p,
						 uint64_t *site, uint64_t *to, uint32_t *idx,
						 uint8_t *len)
{
	uint64_t ip = p->ip;
	bool cacheable = true;
	struct pts_insn in;
	uint32_t i;

	if (p->e->more == PATH_FLOW_MORE) {
		struct pts_flow_branch fb;

		if (p->ix + 1 >= p->n ||
		    pts_insn_flow_branch(&d->flow, pt_blk_get_image(d->blk), d->mode, p->ip,
					 p->n - 1 - p->ix, &fb) != 1)
			return false;
		*site = fb.site;
		*to = fb.to;
		*idx = p->ix + fb.idx;
		*len = fb.len;
		return true;
	}
	for (i = p->ix; i + 1 < p->n; i++) {
		classify_walk(d, ip, &in, &cacheable);
		if (!in.len)
			return false;
		if (in.direct) {
			if (!direct_target(d, ip, to, &cacheable))
				return false;
			*site = ip;
			*idx = i;
			*len = in.cls == PTS_IC_CALL ? in.len : 0;
			return true;
		}
		ip += in.len;
	}
	return false;
}

/*
 * The next direct branch inside a block (p): its address, target, index
 * among the block's instructions and length (a call's; 0: a jump); false
 * when only the rest of the block is left.
 */
static inline bool next_inner(struct pts_ptdec *d, const struct piece_at *p, uint64_t *site,
			      uint64_t *to, uint32_t *idx, uint8_t *len)
{
	const struct path_ent *e = p->e;

	if (__builtin_expect(p->k < PATH_INLINE && p->k < e->n, 1)) {
		*site = p->ip + e->off[p->k];
		*to = e->to[p->k];
		*idx = e->idx[p->k];
		*len = e->len[p->k];
		return true;
	}
	if (p->k < e->n) {
		const struct path_br *br = &e->spill[p->k - PATH_INLINE];

		*site = p->ip + br->off;
		*to = br->to;
		*idx = br->idx;
		*len = br->len;
		return true;
	}
	return e->more && walk_inner(d, p, site, to, idx, len);
}

/*
 * The piece that ends at the direct branch at site (next_inner), counted
 * as a block; the next one starts at its target. Its start, and in *n its
 * instructions, which the caller counts once the branch before the piece
 * is resolved, as a block's are counted after the branch at its start:
 * an event queued carries the instructions before its branch only
 * (pts_ptdec_insns_before), which a parallel decode's joins add up.
 */
static inline uint64_t take_piece(struct pts_ptdec *d, struct piece_at *p, uint64_t to,
				  uint32_t idx, uint32_t *n)
{
	uint64_t ip = p->ip;

	d->st.blocks++;
	*n = idx - p->ix + 1;
	p->ip = to;
	p->ix = idx + 1;
	p->k++;
	return ip;
}

/* The pending branch of a piece that ends at a direct call of length len, or a jump (0). */
static inline void piece_pend(struct pts_ptdec *d, uint64_t site, uint8_t len)
{
	d->last_ip = site;
	d->pend_insn = (struct pts_insn){ .cls = len ? PTS_IC_CALL : PTS_IC_JUMP, .len = len,
					  .direct = 1 };
}

/*
 * Block b's path where libipt may have cut it after a trampoline
 * (PATH_CUT): b made the block it is (trampoline_cut), and its path;
 * neither kept in the cache, whose entries for the same start and count
 * are for libipt's blocks as it gives them.
 */
static __attribute__((noinline, cold)) const struct path_ent *cut_path(struct pts_ptdec *d,
								       struct pt_block *b)
{
	struct path_ent *e;

	trampoline_cut(d, b);
	e = &d->paths[(b->ip ^ (b->ip >> 12)) & (PATH_SIZE - 1)];
	path_fill(d, b, e, 0);
	return e;
}

/* Block b, returned with status st, the rest of it from p: held (struct pts_ptdec, hp). */
static inline void hold(struct pts_ptdec *d, const struct pt_block *b, int st,
			const struct piece_at *p)
{
	d->held = *b;
	d->held_st = st;
	d->hp = p->e;
	d->hk = p->k;
	d->hip = p->ip;
	d->hidx = p->ix;
}

/* Where the held block goes on (hold). */
static inline void held_at(const struct pts_ptdec *d, struct piece_at *p)
{
	*p = (struct piece_at){ d->hp, d->hk, d->hidx, d->hip, d->held.ninsn };
}

/* Block b from p on, the rest of it past its last direct branch. */
static inline __attribute__((always_inline)) void block_rest(struct pt_block *b, const struct piece_at *p)
{
	b->ip = p->ip;
	b->ninsn = (uint16_t)(b->ninsn - p->ix);
}


/*
 * libipt's decoder changed its mode (an exec mode event, a sync): the
 * image of the address space held, for code of that mode. libipt 2.0.5
 * takes a block from its block cache in the mode the block was cached
 * in, without comparing it with its decoder's (decoding the block itself,
 * it uses the decoder's); the cache is the section's, and the sections
 * of the image section cache are shared by every decoder of the set. A
 * block decoded as 32-bit code by one decode was then taken as 32-bit
 * code by another decoding it as 64-bit code, or not, depending on what
 * had been decoded before, in whatever order the threads ran: a serial
 * decode and chunks differed (fuzz finding 17, docs/fuzzing.md). With an
 * image of its own sections per mode, every cache holds blocks of one
 * mode, the mode they are decoded in.
 */
static void set_mode(struct pts_ptdec *d, enum pt_exec_mode mode)
{
	struct pt_image *img;

	d->mode = mode;
	d->mode_bits = mode == ptem_16bit ? 16 : mode == ptem_32bit ? 32 : 64;
	d->ikey = ICACHE_KEY(d->space, d->mode_bits);
	if (d->mode_bits == d->image_bits)
		return;
	img = image_of(d, d->image_pid);
	if (img && pt_blk_set_image(d->blk, img) >= 0)
		d->image_bits = d->mode_bits;
}

/* The instruction that ends block b: the next block's start is its target. */
/* The class of block b's last instruction, a branch, as the pending one. */
static inline void end_insn(struct pts_ptdec *d, const struct pt_block *b)
{
	/* a block that carries the bytes of its last instruction: never cached */
	if (__builtin_expect(b->truncated, 0))
		classify_slow(d, b->end_ip, b->raw, b->size, &d->pend_insn, NULL);
	else
		classify(d, b->end_ip, &d->pend_insn);
}

static inline void end_block(struct pts_ptdec *d, const struct pt_block *b)
{
	d->last_ip = b->end_ip;
	if (b->iclass == ptic_other || b->iclass == ptic_ptwrite)
		return;
	end_insn(d, b);
}

/* The instruction listing's rest of a block (on_block), past the first instruction given. */
struct flow_list {
	struct pts_ptdec *d;
	bool skip;
};

static void flow_listed(void *ctx, uint64_t ip)
{
	struct flow_list *l = ctx;

	if (l->skip)
		l->skip = false;
	else
		l->d->cfg.on_insn(l->d->cfg.insn_ctx, l->d->cfg.cpu, ip);
}

/*
 * The rest of block b listed from ip, its i th instruction (listed
 * already), which Zydis cannot decode: as libipt's instruction flow
 * decoder steps it (insn_flow.h; the reason path_fill has flow_walk).
 */
static __attribute__((noinline, cold)) void list_flow(struct pts_ptdec *d, const struct pt_block *b,
						       uint64_t ip, uint16_t i)
{
	struct flow_list l = { d, true };

	(void)pts_insn_flow_list(&d->flow, pt_blk_get_image(d->blk), b->mode, ip,
				 (uint32_t)(b->ninsn - i), flow_listed, &l);
}

static inline void on_block(struct pts_ptdec *d, const struct pt_block *b)
{
	if (b->mode != d->mode)
		set_mode(d, b->mode);
	resolve(d, b->ip);
	d->st.blocks++;
	d->st.insns += b->ninsn;
	if (d->cfg.on_insn) {
		/* end_on_call/end_on_jump: a block's instructions are contiguous */
		uint64_t ip = b->ip;
		uint16_t i;

		for (i = 0; i < b->ninsn; i++) {
			struct pts_insn in;

			d->cfg.on_insn(d->cfg.insn_ctx, d->cfg.cpu, ip);
			if (i + 1 == b->ninsn)
				break;
			classify(d, ip, &in);
			if (!in.len) {
				list_flow(d, b, ip, i);
				break;
			}
			ip += in.len;
		}
	}
	end_block(d, b);
}

static bool pend_is_far(const struct pts_ptdec *d)
{
	return d->pend_insn.cls == PTS_IC_SYSCALL || d->pend_insn.cls == PTS_IC_SYSRET ||
	       d->pend_insn.cls == PTS_IC_IRET;
}

static void on_event(struct pts_ptdec *d, const struct pt_event *ev)
{
	struct qent *e;

	d->st.events++;
	if ((unsigned int)ev->type < PTS_PTEV_MAX)
		d->st.by_event[ev->type]++;
	/*
	 * MODE.Exec, MODE.TSX, PIP and VMCS packets precede the TIP/FUP
	 * whose IP their event is bound to, and the event carries the time
	 * of the packet: after the enable at that IP (a later time) it must
	 * not move the time back.
	 */
	if (ev->has_tsc)
		set_tsc(d, ev->tsc, ev->type == ptev_exec_mode || ev->type == ptev_tsx ||
			ev->type == ptev_paging || ev->type == ptev_vmcs);
	switch (ev->type) {
	case ptev_enabled:
		drop_pend(d);
		e = push(d, PTS_BR_ENABLED, 0, ev->variant.enabled.ip);
		if (e && ev->variant.enabled.resumed)
			e->br.flags |= PTS_BRF_RESUMED;
		d->last_ip = ev->variant.enabled.ip;
		break;
	case ptev_disabled: {
		uint64_t at = ev->ip_suppressed ? 0 : ev->variant.disabled.ip;

		if (pend_is_far(d)) {
			/* syscall/sysret/iret leaving the traced privilege level */
			static const enum pts_br_kind k[] = {
				[PTS_IC_SYSCALL] = PTS_BR_SYSCALL,
				[PTS_IC_SYSRET] = PTS_BR_SYSRET,
				[PTS_IC_IRET] = PTS_BR_IRET,
			};
			e = push(d, k[d->pend_insn.cls], d->last_ip, 0);
			if (e)
				e->br.flags |= PTS_BRF_TRACE_OFF;
		} else {
			e = push(d, PTS_BR_DISABLED, pending(d) || !at ? d->last_ip : at, 0);
		}
		drop_pend(d);
		break;
	}
	case ptev_async_disabled:
		resolve(d, ev->variant.async_disabled.at);
		e = push(d, PTS_BR_DISABLED, ev->variant.async_disabled.at, 0);
		if (e)
			e->br.flags |= PTS_BRF_ASYNC;
		d->last_ip = ev->variant.async_disabled.at;
		break;
	case ptev_async_branch:
		resolve(d, ev->variant.async_branch.from);
		/* a TSX abort (MODE.TSX + FUP + TIP) jumps to the abort handler */
		push(d, d->tsx_abort && d->tsx_abort_ip == ev->variant.async_branch.from ?
			PTS_BR_JUMP : PTS_BR_INTERRUPT,
		     ev->variant.async_branch.from, ev->variant.async_branch.to);
		d->tsx_abort = false;
		d->last_ip = ev->variant.async_branch.to;
		break;
	case ptev_overflow:
		gap(d, "trace overflow (OVF): packets lost",
		    ev->ip_suppressed ? 0 : ev->variant.overflow.ip);
		break;
	case ptev_exec_mode:
		set_mode(d, ev->variant.exec_mode.mode);
		break;
	case ptev_tsx:
		if (ev->variant.tsx.aborted) {
			d->tsx_abort = !ev->ip_suppressed;
			d->tsx_abort_ip = ev->variant.tsx.ip;
			e = push(d, PTS_BR_INSTANT, ev->ip_suppressed ? 0 : ev->variant.tsx.ip, 0);
			if (e) {
				snprintf(e->detail, sizeof(e->detail), "TSX abort");
				e->br.detail = e->detail;
			}
		}
		break;
	case ptev_stop:
		e = push(d, PTS_BR_INSTANT, d->last_ip, 0);
		if (e) {
			snprintf(e->detail, sizeof(e->detail), "TraceStop");
			e->br.detail = e->detail;
		}
		break;
	case ptev_ptwrite:
		e = push(d, PTS_BR_INSTANT, ev->ip_suppressed ? 0 : ev->variant.ptwrite.ip, 0);
		if (e) {
			e->br.value = ev->variant.ptwrite.payload;
			snprintf(e->detail, sizeof(e->detail), "ptwrite 0x%" PRIx64,
				 ev->variant.ptwrite.payload);
			e->br.detail = e->detail;
		}
		break;
	case ptev_cbr:
		e = push(d, PTS_BR_CBR, 0, 0);
		if (e)
			e->br.value = ev->variant.cbr.ratio;
		break;
	case ptev_tick:
		/* timing only: the time was taken above */
		break;
	case ptev_paging:
	case ptev_async_paging: {
		/*
		 * The CR3 written names the process (its root, PCID bits
		 * ignored), whose image decodes from here on: before the next
		 * block, not at the next event handed out.
		 */
		uint64_t cr3 = ev->type == ptev_paging ? ev->variant.paging.cr3 :
						       ev->variant.async_paging.cr3;
		int32_t pid = pts_imgset_pid_of_cr3(d->cfg.images, cr3);

		/* a switch recorded up to now: this PIP is its CR3 write */
		follow_sideband(d);
		d->last_root = ROOT_OF(cr3);
		if (d->sw_pending) {
			d->sw_pending = false;
			d->pid_changed |= d->pid != d->sw_pid || d->task_lost;
			d->task_lost = false;
			d->pid = d->sw_pid;
			d->tid = d->sw_tid;
			select_image(d);
		} else if (pid >= 0 && (pid != d->pid || d->task_lost)) {
			/* a PIP names the process even after lost sideband records */
			d->pid_changed = true;
			d->task_lost = false;
			d->pid = pid;
			d->tid = pid;
			select_image(d);
		}
		sb_recheck(d);
		break;
	}
	default:
		/* vmcs, exstop, mwait, pwre, pwrx, mnt: counted, no timeline effect */
		break;
	}
}

const char *pts_ptev_name(int type)
{
	static const char *const names[] = {
		[ptev_enabled] = "enabled",
		[ptev_disabled] = "disabled",
		[ptev_async_disabled] = "async disabled",
		[ptev_async_branch] = "async branch",
		[ptev_paging] = "paging",
		[ptev_async_paging] = "async paging",
		[ptev_overflow] = "overflow",
		[ptev_exec_mode] = "exec mode",
		[ptev_tsx] = "tsx",
		[ptev_stop] = "stop",
		[ptev_vmcs] = "vmcs",
		[ptev_async_vmcs] = "async vmcs",
		[ptev_exstop] = "exstop",
		[ptev_mwait] = "mwait",
		[ptev_pwre] = "pwre",
		[ptev_pwrx] = "pwrx",
		[ptev_ptwrite] = "ptwrite",
		[ptev_tick] = "tick",
		[ptev_cbr] = "cbr",
		[ptev_mnt] = "mnt",
	};

	if (type < 0 || (size_t)type >= sizeof(names) / sizeof(names[0]) || !names[type])
		return "other";
	return names[type];
}

int pts_pt_first_tsc(const uint8_t *buf, size_t size, const struct pt_errata *errata,
		     uint64_t *tsc)
{
	struct pt_packet_decoder *pd;
	struct pt_packet pkt;
	int rc = -ENOENT;

	pd = pts_pt_pkt_decoder(buf, size, errata);
	if (!pd)
		return -ENOMEM;
	while (rc && pt_pkt_sync_forward(pd) >= 0) {
		while (pt_pkt_next(pd, &pkt, sizeof(pkt)) >= 0) {
			if (pkt.type == ppt_tsc) {
				*tsc = pkt.payload.tsc.tsc;
				rc = 0;
				break;
			}
		}
	}
	pt_pkt_free_decoder(pd);
	return rc;
}

static void blocks_plain(struct pts_ptdec *d);
static void blocks_store(struct pts_ptdec *d);
static void blocks_through(struct pts_ptdec *d);
static void blocks_store_through(struct pts_ptdec *d);
static void blocks_sink(struct pts_ptdec *d);
static void blocks_sink_through(struct pts_ptdec *d);
static void step(struct pts_ptdec *d);

/* The block loop of a decoder not sinking (pts_ptdec.blocks), by its config. */
static void (*blocks_of(const struct pts_ptdec *d))(struct pts_ptdec *d)
{
	if (d->cfg.on_insn)
		return step;
	if (d->cfg.store)
		return d->cfg.through ? blocks_store_through : blocks_store;
	return d->cfg.through ? blocks_through : blocks_plain;
}

int pts_ptdec_new(const struct pts_ptdec_config *cfg, struct pts_ptdec **out, struct pts_err *err)
{
	struct pts_ptdec *d = cfg->spare ? *cfg->spare : NULL;
	struct path_ent *paths = NULL;
	struct pt_config pc;
	struct pt_image *img;

	if (d) {
		*cfg->spare = NULL;
		paths = d->paths;
		if (d->cfg.images == cfg->images) {
			/*
			 * As calloc'd, but the classification cache (the last
			 * member) and the cache of block paths, whose entries
			 * depend on the same bytes: a worker's chunks share
			 * them (docs/performance.md, nineteenth round).
			 */
			memset(d, 0, offsetof(struct pts_ptdec, icache));
		} else {
			free(d);
			d = NULL;
			paths_free(paths);
			paths = NULL;
		}
	}
	if (!d)
		d = calloc(1, sizeof(*d));
	if (!d) {
		paths_free(paths);
		return pts_err_set(err, ENOMEM, "out of memory");
	}
	d->cfg = *cfg;
	d->cfg.spare = NULL;
	/* the instruction listing takes every block as libipt ends it */
	d->cfg.through = cfg->through && !cfg->on_insn;
	if (!d->cfg.through) {
		paths_free(paths);
	} else if (paths) {
		d->paths = paths;
	} else {
		d->paths = calloc(PATH_SIZE, sizeof(*d->paths));
		if (!d->paths) {
			free(d);
			return pts_err_set(err, ENOMEM, "out of memory");
		}
	}
	d->pid = cfg->pid;
	d->tid = cfg->tid;
	d->direct.cpu = cfg->cpu;	/* the rest of it zero, as set_branch's */
	d->space = cfg->pid;
	d->image_pid = PTS_PID_ALL;
	d->no_image_pid = -2;
	d->mode_bits = 64;
	d->mode = ptem_64bit;
	d->ikey = ICACHE_KEY(d->space, d->mode_bits);
	d->tnt_spare = TNT_NONE;
	d->drop_at = cfg->mapped ? DROP_STEP + DROP_KEEP : UINT64_MAX;
	d->sb_due = cfg->sb && cfg->sb->n ? cfg->sb->recs[0].time_ns : UINT64_MAX;
	d->pid_changed = true;
	sb_recheck(d);
	d->blocks = blocks_of(d);
	d->elide_q = cfg->elide;
	d->elide_until = cfg->elide_queued ? UINT64_MAX : 0;
	d->sink_end = UINT64_MAX;
	jump_recheck(d);
	if (cfg->padded) {
		d->buf = cfg->buf;
	} else {
		d->copy = calloc(1, cfg->size + PAD);
		if (!d->copy) {
			paths_free(d->paths);
			free(d);
			return pts_err_set(err, ENOMEM, "out of memory");
		}
		memcpy(d->copy, cfg->buf, cfg->size);
		d->buf = d->copy;
	}
	pt_config_init(&pc);
	pc.begin = (uint8_t *)d->buf;	/* libipt only reads it */
	pc.end = (uint8_t *)d->buf + cfg->size;
	/* a CPU newer than the library: no errata known, not fatal (pt-facts §6) */
	if (pts_pt_config_cpu(&pc, cfg->family, cfg->model, cfg->stepping) == -pte_bad_cpu)
		d->st.errata_unknown = true;
	pc.mtc_freq = cfg->mtc_freq;
	pc.nom_freq = cfg->nom_freq;
	pc.cpuid_0x15_eax = cfg->cpuid_15_eax;
	pc.cpuid_0x15_ebx = cfg->cpuid_15_ebx;
	pc.addr_filter = cfg->addr_filter;
	/* libipt's recursion without them: deep.h */
	pc.flags.variant.block.end_on_call = !d->cfg.through;
	pc.flags.variant.block.end_on_jump = !d->cfg.through;
	d->blk = pt_blk_alloc_decoder(&pc);
	if (!d->blk) {
		free(d->copy);
		paths_free(d->paths);
		free(d);
		return pts_err_set(err, EINVAL, "libipt refused the decoder configuration of cpu %u",
				   cfg->cpu);
	}
	d->image_bits = d->mode_bits;
	img = image_of(d, PTS_PID_ALL);
	if (!img || pt_blk_set_image(d->blk, img) < 0) {
		pts_ptdec_free(d);
		return pts_err_set(err, ENOMEM, "out of memory (image)");
	}
	*out = d;
	return 0;
}

/* Offset of the first PSB starting after offset `after`, or -1. */
static int64_t next_psb(const struct pts_ptdec *d, int64_t after)
{
	static const uint8_t psb[16] = { 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
					 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82 };
	size_t i = after < 0 ? 0 : (size_t)after + 1;

	for (; i + sizeof(psb) <= d->cfg.size; i++)
		if (d->buf[i] == 2 && !memcmp(d->buf + i, psb, sizeof(psb)))
			return (int64_t)i;
	return -1;
}

/*
 * After an error: resynchronise at the first PSB at or after the position
 * of the last call that succeeded (libipt reads ahead, so its position at
 * the error may be past a whole PSB), and after the PSB last synced at
 * (never decode a stretch twice).
 */
static void lose_sync(struct pts_ptdec *d)
{
	int64_t from = (int64_t)d->good_off - 1;

	d->state = PTDEC_RESYNC;
	d->hp = NULL;	/* the rest of a held block is not decoded */
	if (from > d->sync_off)
		d->sync_off = from;
}

static void drop_pages(struct pts_ptdec *d)
{
	/* page-aligned: the mapping is, and DROP_STEP is a page multiple */
	uint64_t to = (d->good_off - DROP_KEEP) & ~(uint64_t)(DROP_STEP - 1);

	if (to > d->dropped &&
	    !madvise((void *)(uintptr_t)(d->buf + d->dropped), to - d->dropped, MADV_DONTNEED))
		d->dropped = to;
	d->drop_at = d->dropped + DROP_STEP + DROP_KEEP;
}

/*
 * The position after a call that succeeded. Most blocks consume no new
 * packet: what follows a move (the spin watch's new run, the pages
 * dropped, the time read) is decided only when it moved. True when it
 * moved.
 */
static inline bool mark_good(struct pts_ptdec *d)
{
	uint64_t off;

	if (pt_blk_get_offset(d->blk, &off) < 0 || off == d->good_off)
		return false;
	d->read_prev = d->read_from;
	d->read_from = d->good_off;
	d->good_off = off;
	d->spin_blocks = 0;
	if (off >= d->drop_at)
		drop_pages(d);
	return true;
}

/*
 * The time after a call of libipt's that moved its position: libipt's
 * (pt_blk_time, that of the last TNT, TIP or event packet it read) when
 * that is the time of the branch the call decided, the branch that ends
 * the block (struct pts_ptdec, have_tsc); else, when the call also read
 * an event's packets after timing packets that follow the branch (an
 * interrupt's FUP after a CYC), the branch's time is libipt's before the
 * call: the time kept, or a TSC read ahead last; the event sets its own
 * when libipt hands it out. Only where MTC or CYC packets came both
 * before and after the branch's is the time kept that of a packet before
 * the branch's, earlier than the tick event's (pt_read.h). plain: the
 * call read one TNT or TIP packet and nothing else (time_plain).
 */
static __attribute__((noinline)) void time_moved(struct pts_ptdec *d, bool plain)
{
	struct pts_pt_read r, prev;
	uint64_t t;
	uint32_t lost_mtc, lost_cyc;
	bool bound = false;

	d->time_plain = false;
	if (pt_blk_time(d->blk, &t, &lost_mtc, &lost_cyc) < 0)
		return;
	if (d->have_tsc && t != d->tsc) {
		/* a TIP first: is it the one a FUP or MODE read before waits for? */
		prev.unknown = true;
		if ((d->buf[d->read_from] & 0x1f) == 0x0d || !d->buf[d->read_from]) {
			pts_pt_read_scan(d->buf, d->read_prev, d->read_from, false, &prev);
			bound = prev.bound || prev.unknown;
		}
		pts_pt_read_scan(d->buf, d->read_from, d->good_off, bound, &r);
		if (!pts_pt_read_branch_time(&r)) {
			/*
			 * The branch's time is libipt's after the call before
			 * (the packets it read ahead are timed at the branch's):
			 * the time kept when that call read no timing packet after
			 * the packet that set it, that of a TSC it read last.
			 */
			if (r.branch_first && prev.unknown)
				pts_pt_read_scan(d->buf, d->read_prev, d->read_from, false, &prev);
			if (r.branch_first && !prev.unknown && prev.tail_tsc)
				set_tsc(d, prev.tsc, false);
			return;
		}
	}
	set_tsc(d, t, false);
	d->time_plain = plain;
}

/*
 * Whether buf[0, n) is one TNT-8 (an even byte from 04 on) or one TIP
 * (bits 4:0 0d, its length by its IP compression: pt_step.h).
 */
static inline bool plain_branch(const uint8_t *buf, uint64_t n)
{
	uint8_t b = buf[0];

	if (n == 1)
		return !(b & 1) && b > 2;
	return (b & 0x1f) == 0x0d && pts_pt_first_len[b] == n;
}

/*
 * mark_good after a block: libipt's time moves only with its position,
 * so it is read only then, after the block's own pending branch was
 * resolved at the time before it; and not when no timing packet came
 * since the last read (time_plain).
 */
static inline __attribute__((always_inline)) bool mark_good_timed(struct pts_ptdec *d)
{
	uint64_t from = d->good_off;
	bool plain;

	if (!mark_good(d))
		return false;
	plain = plain_branch(d->buf + from, d->good_off - from);
	if (!plain || !d->time_plain)
		time_moved(d, plain);
	return true;
}

/* Whether the packet at libipt's position is a TNT-8 (pt_read.h, pts_pt_tnt_bits). */
static inline __attribute__((always_inline)) bool tnt8_next(const struct pts_ptdec *d)
{
	uint8_t p = d->buf[d->good_off];

	return !(p & 1) && p > 2;
}

/* The classes of a block whose last instruction takes a TNT bit (read_nothing). */
#define TNT_CLASSES ((1u << ptic_cond_jump) | (1u << ptic_return))

/*
 * mark_good_timed after a block of the block loop that may have read
 * packets (read_nothing). Where its conditional branch or return began
 * its reading with a TNT packet of n bits, libipt's cache was empty (it
 * fills it only so: pt_tnt_cache_update_tnt) and holds the n - 1 the
 * branch left: the next n - 2 such branches read nothing, and the last
 * one too when the next packet is a TNT packet (the query decoder reads
 * ahead up to the next TNT, TIP or event packet, where its position
 * stays), for then no event can be pending after it (pt_qry_will_event).
 */
static inline __attribute__((always_inline)) void mark_good_loop(struct pts_ptdec *d,
								 const struct pt_block *b)
{
	uint64_t from = d->good_off;

	d->tnt_spare = -1;
	if (!mark_good_timed(d))
		return;
	if ((1u << b->iclass) & TNT_CLASSES) {
		unsigned int bits = pts_pt_tnt_bits(d->buf + from);

		if (bits)
			d->tnt_spare = (int32_t)bits - 2 + tnt8_next(d);
	}
}

/*
 * A block read_nothing says read no packet: checked against libipt in
 * checked builds (util/assume.h), where a broken rule aborts at the block
 * it broke at rather than shifting the positions and times after it.
 */
static inline void checked_unmoved(struct pts_ptdec *d)
{
#ifdef PTS_ASSUME_CHECKED
	uint64_t off = d->good_off;

	pt_blk_get_offset(d->blk, &off);
	PTS_ASSUME(off == d->good_off);
#else
	(void)d;
#endif
}

/*
 * Does the block whose last instruction is at end_ip end at a branch (a
 * block cut before one does not)? Asked of the loop watches only, off the
 * block loop's common path: the classification cache has most answers.
 */
static bool ends_at_branch(struct pts_ptdec *d, uint64_t end_ip)
{
	struct pts_insn in;

	classify(d, end_ip, &in);
	return in.cls != PTS_IC_OTHER;
}

/*
 * True when the block ending at end_ip is one more pass of a loop that
 * consumes no trace (see SPIN_REPEATS): found within about
 * 2 * SPIN_REPEATS * L branches for a loop of L blocks, or at the
 * SPIN_MAX_BRANCHES th branch. Only the blocks that end at a branch are
 * watched and counted, so the answer comes at the same branch however
 * libipt cut the blocks before it.
 */
static bool spinning_on(struct pts_ptdec *d, uint64_t end_ip)
{
	uint32_t i;

	if (d->spin_blocks == SPIN_REPEATS) {
		loop_reset(&d->spin);
		d->spin_branches = 0;
		for (i = 0; i < SPIN_REPEATS; i++) {
			if (ends_at_branch(d, d->spin_ends[i])) {
				d->spin_branches++;
				loop_step(&d->spin, d->spin_ends[i]);
			}
		}
	}
	if (++d->spin_blocks >= SPIN_MAX_BLOCKS)
		return true;
	if (!ends_at_branch(d, end_ip))
		return false;
	return ++d->spin_branches >= SPIN_MAX_BRANCHES ||
	       loop_step(&d->spin, end_ip) >= SPIN_REPEATS;
}

/*
 * The watch counts no repeat within the first SPIN_REPEATS blocks at a
 * position (the first branch only starts it, and a run of SPIN_REPEATS
 * blocks holds at most that many branches): their last IPs are kept, and
 * the watch runs over them only when a run of blocks gets longer. Nearly
 * every run is a few blocks: one store each.
 */
static inline bool spinning(struct pts_ptdec *d, uint64_t end_ip)
{
	if (__builtin_expect(d->spin_blocks < SPIN_REPEATS, 1)) {
		d->spin_ends[d->spin_blocks++] = end_ip;
		return false;
	}
	return spinning_on(d, end_ip);
}

/*
 * After pts_eos: does the block ending at end_ip, just used, close a loop
 * of blocks that need no trace? Such a walk never ends (nothing left to
 * decide a branch): the CPU was in the loop when the trace ended. Watched
 * by the branches that end blocks, as spinning_on: the walk ends after
 * the same instruction however libipt cut the blocks.
 */
static bool walk_loops(struct pts_ptdec *d, uint64_t end_ip)
{
	return ends_at_branch(d, end_ip) && loop_step(&d->walk, end_ip) > 0;
}

/*
 * A block whose mode is not libipt's decoder's came from its block cache
 * (struct pts_ptdec, mode). libipt 2.0.5 decodes an instruction it has not
 * cached in its decoder's mode, but takes a cached block in the mode of
 * the cache entry (pt_blk_proceed_no_event_cached compares neither). In
 * a damaged trace whose PSB+ lacks MODE.Exec, the decoder's mode is
 * unknown until the next exec mode event: decoded by libipt itself, the
 * first instruction fails ("unknown instruction", nothing consumed); from
 * the cache the decode goes on, in the mode of whichever decode filled
 * it. The cache is the section's, shared by every decoder of the image
 * section cache, so a serial decode and chunks met either depending on
 * what had been decoded before, in whatever order the threads ran (fuzz
 * finding 16, docs/fuzzing.md). The decoder takes the first answer in
 * both cases: the block is dropped, and the gap is at the trace offset
 * of the last call that succeeded, where libipt's failing decode stays.
 * (A block cached in one known mode and met in another, an exec mode
 * event between two decodes of the same code, is still taken in the
 * cache's mode: what libipt would decode itself cannot be had from it.)
 */
static __attribute__((noinline)) void mode_unknown(struct pts_ptdec *d)
{
	/* as after_next for the error of an empty block */
	if (d->state == PTDEC_WALK_EOS) {
		d->state = PTDEC_ENDED;
		return;
	}
	gap_at(d, pt_errstr(pte_bad_insn), 0, d->good_off);
	lose_sync(d);
}

/*
 * Block b's mode is not the decoder's: one from libipt's block cache
 * (mode_unknown), or, from a cache of another mode, taken in its mode.
 * True when the block is dropped. Out of line: the block loop's test only.
 */
static __attribute__((noinline)) bool other_mode(struct pts_ptdec *d, const struct pt_block *b)
{
	if (d->mode == ptem_unknown) {
		mode_unknown(d);
		return true;
	}
	set_mode(d, b->mode);
	return false;
}

/*
 * What step does with the block b (when b->ninsn) and the status st that
 * pt_blk_next returned.
 *
 * A TIP whose IP is suppressed (IPBytes 000, or compressed with no IP
 * since the PSB) at a branch that needs one: libipt 2.0 fails the block
 * with -pte_noip the first time it decodes the branch's block, but from
 * its block cache (pt_blk_proceed_no_event_cached: ptbq_ind_call,
 * ptbq_return, ptbq_indirect) it goes on at the branch itself, its state
 * otherwise the same (the return address pushed, the TIP used, a tick
 * event pending). The cache is per section and shared by every decoder
 * of the image section cache, so which of the two a decode met would
 * depend on what was decoded before: a serial decode and chunks started
 * at PSBs (session/pardec.c) would differ. Both are taken as the cached
 * path: the decode goes on, and a damaged trace fails at its next query.
 * (libipt's later event-based block decoder, upstream commit ed9222c7,
 * fails the branch in both cases; libipt 2.0.x is what Debian 12 has.)
 */
static void step_piece(struct pts_ptdec *d);

/*
 * whole: b is the rest of a held block (block_rest), not to be held
 * again; else a block of libipt's, held for its pieces where it has
 * direct branches inside it (cfg.through): its first piece now, the
 * others by step (step_piece) or the block loop, then the rest here.
 */
static void after_next(struct pts_ptdec *d, const struct pt_block *blk, int st, bool whole)
{
	struct pt_block c = *blk;
	const struct pt_block *b = &c;

	d->tnt_spare = TNT_NONE;	/* for read_nothing: a call that may have read an event */
	if (b->ninsn && b->mode != d->mode && d->mode == ptem_unknown) {
		mode_unknown(d);
		return;
	}
	if (d->cfg.through && !whole && b->ninsn) {
		const struct path_ent *e;

		if (c.mode != d->mode)
			set_mode(d, c.mode);	/* as on_block: the path's key */
		if (c.ninsn > 1 || c.iclass == ptic_error) {
			e = path_at(d, &c);
			if (e->more == PATH_CUT)
				e = cut_path(d, &c);
			if (e->n) {
				struct piece_at p = { e, 0, 0, c.ip, c.ninsn };

				hold(d, &c, st, &p);
				step_piece(d);
				return;
			}
		}
	}
	/* a block may come with an error: use the block, then the error */
	if (b->ninsn)
		on_block(d, b);
	if (b->ninsn && d->state == PTDEC_WALK_EOS && walk_loops(d, b->end_ip)) {
		d->state = PTDEC_ENDED;
		return;
	}
	if (st == -pte_noip && b->ninsn && pending(d) && d->pend_insn.tip)
		st = 0;		/* as from libipt's block cache (above) */
	if (st < 0) {
		/*
		 * The end of the trace: -pte_eos where the next instruction
		 * needs trace; any other error after pts_eos is met walking
		 * on past the last packet (code without an image), with no
		 * trace left to lose: the end too, not a gap.
		 */
		if (st == -pte_eos || d->state == PTDEC_WALK_EOS) {
			d->state = PTDEC_ENDED;
			return;
		}
		gap_err(d, st);
		lose_sync(d);
		return;
	}
	d->status = st;
	mark_good_timed(d);
	if (b->ninsn && spinning(d, b->end_ip)) {
		gap(d, SPIN_GAP, 0);
		lose_sync(d);
	}
}

/*
 * The held block's next piece (after_next): as after_next for a block of
 * libipt's that ended at the piece's direct branch, but that the call
 * which returned the block read what it read: its position, time and
 * status are taken with the rest of the block, the last piece.
 */
static void step_piece(struct pts_ptdec *d)
{
	uint64_t site, to;
	struct piece_at p;
	uint32_t idx;
	uint8_t len;
	uint32_t n;

	held_at(d, &p);
	if (!next_inner(d, &p, &site, &to, &idx, &len)) {
		struct pt_block b = d->held;

		d->hp = NULL;
		block_rest(&b, &p);
		after_next(d, &b, d->held_st, true);
		return;
	}
	resolve(d, take_piece(d, &p, to, idx, &n));
	d->st.insns += n;
	d->hk = p.k;
	d->hip = p.ip;
	d->hidx = p.ix;
	piece_pend(d, site, len);
	if (d->state == PTDEC_WALK_EOS && walk_loops(d, site)) {
		d->state = PTDEC_ENDED;
		d->hp = NULL;
		return;
	}
	if (spinning(d, site)) {
		gap(d, SPIN_GAP, 0);
		lose_sync(d);
	}
}

static __attribute__((noinline)) void step(struct pts_ptdec *d)
{
	struct pt_block b;
	int st;

	d->tnt_spare = TNT_NONE;	/* a call of libipt's other than the block loop's (read_nothing) */
	if (d->hp) {
		/* a held block's pieces first: synced (lose_sync drops it), nothing pending */
		step_piece(d);
		return;
	}

	if (d->state == PTDEC_START || d->state == PTDEC_RESYNC) {
		int64_t tried = -1;

		if (d->state == PTDEC_RESYNC) {
			/*
			 * Resynchronise at the first PSB after the one the failed
			 * segment started from: pt_blk_sync_forward would search
			 * from where the decoder stopped, which may be past a PSB
			 * that is whole (a torn PSB+ runs into the next PSB).
			 */
			int64_t off = next_psb(d, d->sync_off);

			if (off < 0) {
				d->state = PTDEC_ENDED;
				return;
			}
			st = pt_blk_sync_set(d->blk, (uint64_t)off);
			tried = off;
		} else if (d->cfg.sync_at_psb) {
			st = pt_blk_sync_set(d->blk, d->cfg.sync_off);
			tried = (int64_t)d->cfg.sync_off;
		} else {
			st = pt_blk_sync_forward(d->blk);
			tried = next_psb(d, -1);
		}
		if (st < 0 && st != -pte_eos && tried >= 0) {
			/* a PSB+ that cannot be read (torn header): try the next PSB */
			gap(d, pt_errstr(pt_errcode(st)), 0);
			d->state = PTDEC_RESYNC;
			d->sync_off = tried;
			return;
		}
		if (st < 0) {
			bool never = d->state == PTDEC_START;

			d->state = PTDEC_ENDED;
			if (st == -pte_eos && never) {
				char msg[120];

				snprintf(msg, sizeof(msg),
					 "no sync point: no PSB in %zu byte%s of trace",
					 d->cfg.size, d->cfg.size == 1 ? "" : "s");
				gap(d, msg, 0);
			} else if (st != -pte_eos) {
				gap(d, pt_errstr(pt_errcode(st)), 0);
			}
			return;
		}
		d->state = PTDEC_SYNCED;
		d->status = st;
		set_mode(d, ptem_unknown);	/* libipt's, until the PSB+'s MODE.Exec */
		{
			uint64_t so = 0;

			pt_blk_get_sync_offset(d->blk, &so);
			d->sync_off = (int64_t)so;
		}
		mark_good(d);
		d->read_prev = d->read_from = d->good_off;	/* nothing read since the sync */
		d->time_plain = false;
		drop_pend(d);
		update_time(d);
		return;
	}
	if (d->status & pts_event_pending) {
		struct pt_event ev;
		bool moved;

		st = pt_blk_event(d->blk, &ev, sizeof(ev));
		if (st < 0) {
			gap_err(d, st);
			lose_sync(d);
			return;
		}
		d->status = st;
		moved = mark_good(d);
		d->spin_blocks = 0;	/* an event is progress */
		on_event(d, &ev);
		/* libipt may have decided a branch after it (its trailing events) */
		d->time_plain = false;
		if (moved)
			time_moved(d, false);
		return;
	}
	if ((d->status & pts_eos) && d->state == PTDEC_SYNCED) {
		d->state = PTDEC_WALK_EOS;
		loop_reset(&d->walk);
	}
	/* pt_blk_next zeroes b itself (a block returned with an error is whole) */
	st = pt_blk_next(d->blk, &b, sizeof(b));
	after_next(d, &b, st, false);
}

/*
 * Whether the call of pt_blk_next that returned the block just decoded in
 * the block loop read no packet, so that libipt's position is where it was (no
 * pt_blk_get_offset). libipt 2.0.5's block decoder reads packets only
 * when it asks its query decoder for a conditional branch, an indirect
 * one or an event (pt_qry_cond_branch, pt_qry_indirect_branch,
 * pt_qry_event); in a call of pt_blk_next that is
 *
 *   - at the start, an event whose query the last call's status left
 *     pending (pt_blk_fetch_event): never after a call of pt_blk_next
 *     that returned no event, which fetched it itself (its trailing
 *     event) or had none to fetch; after pt_blk_event or a sync it may
 *     be (tnt_spare TNT_NONE);
 *   - at the block's last instruction, when it needs trace to go on
 *     (pt_blk_proceed_with_trace and the block cache's ptbq_cond,
 *     ptbq_return, ptbq_ind_call, ptbq_indirect): a conditional branch,
 *     a return, an indirect or far branch; never a direct call or jump,
 *     at which end_on_call and end_on_jump end a block without a query
 *     (through them, cfg.through, libipt follows them without one, and
 *     a block ends at one only where libipt cut it);
 *   - after it, an event whose query that last instruction's left
 *     pending (pt_blk_proceed_trailing_event): the query decoder says
 *     an event is pending only once its TNT cache is empty
 *     (pt_qry_status_flags).
 *
 * A conditional branch or a compressed return takes a bit of the TNT
 * cache, and reads a TNT packet only when the cache is empty
 * (pt_qry_cond_branch); a return with bits in the cache is a compressed
 * one. So a block that ends at one (by libipt's class, TNT_CLASSES)
 * reads nothing while the cache holds its bit and no event can follow
 * (tnt_spare, mark_good_loop); a block that ends at a direct call or
 * jump (by its class: libipt's does not tell direct from indirect, and
 * a block's last instruction is the one that needed trace if any did)
 * reads nothing after a call of the block loop.
 *
 * tnt: the block ends at one of TNT_CLASSES; else at a call or jump (or a
 * far branch), whose class end_insn has given (pend_insn).
 */
static inline __attribute__((always_inline)) bool read_nothing(struct pts_ptdec *d, bool tnt)
{
	bool none = tnt ? --d->tnt_spare >= 0 : d->pend_insn.direct && d->tnt_spare >= -1;

	if (none)
		checked_unmoved(d);
	return none;
}

/*
 * What the block loop does next (blocks_run): resolve the branch of a
 * block of this class (enum pts_icls, PTS_IC_OTHER: none), of the class
 * pending whatever it is (NEXT_ANY), or end the loop (NEXT_STOP).
 */
#define NEXT_ANY (-1)
#define NEXT_STOP (-2)

/*
 * The end of a block of the loop, its branch classified (pend_insn) and
 * the position marked: NEXT_STOP when it was one more pass of a loop
 * that consumes no trace (which ends the segment), when the sink said
 * stop (sink_stop), or when an event is queued or libipt's status says
 * step must see it; else next, the class of the branch pending.
 */
static inline __attribute__((always_inline)) int block_next(struct pts_ptdec *d,
							   const struct pt_block *b, int st,
							   bool sink_stop, int next)
{
	if (spinning(d, b->end_ip)) {
		gap(d, SPIN_GAP, 0);
		lose_sync(d);
		return NEXT_STOP;
	}
	if (sink_stop || d->qn || (st & (pts_event_pending | pts_eos)))
		return NEXT_STOP;
	return next;
}

/* end_insn, from block b's path pe where it has one (cfg.through). */
static inline __attribute__((always_inline)) void block_insn(struct pts_ptdec *d,
							    const struct pt_block *b,
							    const struct path_ent *pe)
{
	if (pe && __builtin_expect(!b->truncated, 1))
		d->pend_insn = pe->last;
	else
		end_insn(d, b);
}

/*
 * One block of the loop, the branch before it of class known (NEXT_ANY:
 * the one pending, whatever it is): what to do next (block_next).
 *
 * The block's class is tested once: each of its outcomes returns a
 * constant, which blocks_run's dispatch on it then follows directly,
 * to the copy of this function for that class. The block after a
 * conditional branch, a call or a return resolves it without testing
 * its class again, a test the CPU mispredicts as often as the classes
 * alternate (a few times in ten blocks). (Ordered so that the outcomes
 * are the last thing done: the position is marked before the
 * conditional branch's and the return's classification, which neither
 * reads nor changes.)
 */
static inline __attribute__((always_inline)) int one_block(struct pts_ptdec *d, int known,
							  bool store, struct emit_to *et, bool sink,
							  bool through, bool resume)
{
	struct piece_at p;
	struct pt_block b;
	uint64_t site, to;
	uint32_t idx;
	uint8_t len;
	uint32_t n;
	bool sink_stop;
	int st;

	if (through && resume) {
		/* the held block (blocks_run: d->hp), its next piece or its rest */
		held_at(d, &p);
		b = d->held;
		st = d->held_st;
		d->hp = NULL;
		if (next_inner(d, &p, &site, &to, &idx, &len))
			goto pieces;
		block_rest(&b, &p);
		if (__builtin_expect(st < 0, 0)) {
			after_next(d, &b, st, true);
			return NEXT_STOP;
		}
		sink_stop = resolve_fast(d, b.ip, store, et, known, sink);
		goto resolved;
	}
	st = pt_blk_next(d->blk, &b, sizeof(b));
	/*
	 * Nothing is queued here (fill_with's test, the loop's own): said to
	 * the compiler, which then drops the tests of it inlined below;
	 * checked in sanitizer builds (util/assume.h).
	 */
	PTS_ASSUME(!d->qn);
	if (__builtin_expect(st < 0 || !b.ninsn, 0)) {
		after_next(d, &b, st, false);
		return NEXT_STOP;
	}
	if (__builtin_expect(b.mode != d->mode, 0) && other_mode(d, &b))
		return NEXT_STOP;
	if (through) {
		/* every block's: its last instruction's class is the path's too */
		p.e = path_at(d, &b);
		/* PATH_MORE comes with n > 0: one test for the three */
		if (__builtin_expect((p.e->n | p.e->more) != 0, 0) &&
		    (p.e->more != PATH_CUT || (p.e = cut_path(d, &b))->n)) {
			p.k = 0;
			p.ix = 0;
			p.ip = b.ip;
			p.n = b.ninsn;
			site = b.ip + p.e->off[0];
			to = p.e->to[0];
			idx = p.e->idx[0];
			len = p.e->len[0];
			goto pieces;
		}
	}
	/* other_mode queued nothing where it keeps the block: said again after the call */
	PTS_ASSUME(!d->qn);
	PTS_ASSUME(known == NEXT_ANY || known == (int)d->pend_insn.cls);
	/* the sink said stop: the loop ends after the block */
	sink_stop = resolve_fast(d, b.ip, store, et, known, sink);
	goto resolved;
pieces:
	/*
	 * Block b has direct branches inside it (cfg.through): each piece
	 * that ends at one handed out as the block the flags would have
	 * ended there: the branch pending before it resolved at its start,
	 * its own pending after it, the spin watch. The call that returned
	 * b read only for b's last instruction: the pieces have no status
	 * and no position of their own (read_nothing: a block that ends at
	 * a direct branch reads nothing), and their time is the time before
	 * the call. Where an event is queued or the sink says stop, the
	 * rest is held (hold) for the next call of the loop (blocks_run) or
	 * of step (step_piece).
	 */
	PTS_ASSUME(!d->qn);
	sink_stop = resolve_fast(d, take_piece(d, &p, to, idx, &n), store, et, known, sink);
	d->st.insns += n;
	for (;;) {
		piece_pend(d, site, len);
		if (spinning(d, site)) {
			gap(d, SPIN_GAP, 0);
			lose_sync(d);
			return NEXT_STOP;
		}
		if (sink_stop || d->qn) {
			hold(d, &b, st, &p);
			return NEXT_STOP;
		}
		if (!next_inner(d, &p, &site, &to, &idx, &len))
			break;
		sink_stop = resolve_direct(d, take_piece(d, &p, to, idx, &n), store, et, sink);
		d->st.insns += n;
	}
	block_rest(&b, &p);
	if (resume && __builtin_expect(st < 0, 0)) {
		/*
		 * The held block came with an error (after_next held it):
		 * its rest, then the error, as step_piece does. Taken as a
		 * block without one, the error became libipt's status (every
		 * bit set, pts_eos among them): the trace was taken as used
		 * up and its next error as the end, not a gap (fuzz findings
		 * 26 and 27, docs/fuzzing.md). Only the held block's resumed
		 * pieces get here: a block of the loop's own comes with an
		 * error to after_next, never to its pieces.
		 */
		after_next(d, &b, st, true);
		return NEXT_STOP;
	}
	sink_stop = resolve_direct(d, b.ip, store, et, sink);
resolved:
	d->st.blocks++;
	d->st.insns += b.ninsn;
	d->last_ip = b.end_ip;
	d->status = st;
	/*
	 * Most blocks read nothing (about five in six that end at a
	 * conditional branch or a return), and such a block ends nearly
	 * always at a conditional branch: marked so, the compiler lays the
	 * common way out straight, with fewer taken jumps and instructions
	 * (docs/performance.md, fifteenth round).
	 */
	if ((1u << b.iclass) & TNT_CLASSES) {
		if (__builtin_expect(!read_nothing(d, true), 0))
			mark_good_loop(d, &b);
		/*
		 * A near return (libipt's ptic_return: C3, C2) is what Zydis
		 * classes PTS_IC_RET, and its branch needs no length
		 * (resolve_fast): not looked up.
		 */
		if (b.iclass == ptic_return && !b.truncated) {
			d->pend_insn = (struct pts_insn){ .cls = PTS_IC_RET, .tip = 1 };
			return block_next(d, &b, st, sink_stop, PTS_IC_RET);
		}
		block_insn(d, &b, through ? p.e : NULL);
		if (__builtin_expect(d->pend_insn.cls == PTS_IC_COND, 1))
			return block_next(d, &b, st, sink_stop, PTS_IC_COND);
		return block_next(d, &b, st, sink_stop, NEXT_ANY);
	}
	if (b.iclass == ptic_other || b.iclass == ptic_ptwrite) {
		/* nothing pending: resolve_fast dropped what was */
		mark_good_loop(d, &b);
		return block_next(d, &b, st, sink_stop, PTS_IC_OTHER);
	}
	block_insn(d, &b, through ? p.e : NULL);
	if (__builtin_expect(!read_nothing(d, false), 0))
		mark_good_loop(d, &b);
	if (d->pend_insn.cls == PTS_IC_CALL)
		return block_next(d, &b, st, sink_stop, PTS_IC_CALL);
	return block_next(d, &b, st, sink_stop, NEXT_ANY);
}

/*
 * The common block: synced, no event pending, the trace not used up, no
 * instruction listing (fill). Blocks are decoded in a row, each as step
 * would, until one queues an event or pt_blk_next returns a status that
 * step must see (an event, the end of the trace, an error): step's
 * dispatch on the state and its frame once per run, not per block.
 * store: cfg.store is set (a constant: the decoder without one runs code
 * without its tests, blocks_plain). et: pts_ptdec_emit's sink, which
 * takes calls and returns from the loop itself (emit_near), else NULL.
 * A copy of one_block per class of the branch before the block, entered
 * from the test of the class (one_block).
 */
static inline __attribute__((always_inline)) void blocks_run(struct pts_ptdec *d, bool store,
							    struct emit_to *et, bool sink,
							    bool through)
{
	int next = NEXT_ANY;

	/*
	 * A block held with pieces left (one_block) goes on first; the loop's
	 * blocks hold none but where they end it (NEXT_STOP).
	 */
	if (through && d->hp)
		next = one_block(d, NEXT_ANY, store, et, sink, true, true);
	for (;;) {
		switch (next) {
		case PTS_IC_COND:
			next = one_block(d, PTS_IC_COND, store, et, sink, through, false);
			break;
		case PTS_IC_CALL:
			next = one_block(d, PTS_IC_CALL, store, et, sink, through, false);
			break;
		case PTS_IC_RET:
			next = one_block(d, PTS_IC_RET, store, et, sink, through, false);
			break;
		case PTS_IC_OTHER:
			next = one_block(d, PTS_IC_OTHER, store, et, sink, through, false);
			break;
		case NEXT_STOP:
			return;
		default:
			next = one_block(d, NEXT_ANY, store, et, sink, through, false);
			break;
		}
	}
}

/*
 * blocks_run of a decoder without a store, with one, and through direct
 * branches (cfg.through) (pts_ptdec.blocks).
 */
static void blocks_plain(struct pts_ptdec *d)
{
	blocks_run(d, false, NULL, false, false);
}

static void blocks_store(struct pts_ptdec *d)
{
	blocks_run(d, true, NULL, false, false);
}

static void blocks_through(struct pts_ptdec *d)
{
	blocks_run(d, false, NULL, false, true);
}

static void blocks_store_through(struct pts_ptdec *d)
{
	blocks_run(d, true, NULL, false, true);
}

/*
 * blocks_plain of a decoder between pts_ptdec_sink and _unsink: the same
 * loop, but pts_ptdec_emit's copy of it (fill_with) hands out no call or
 * return past sink_end (a test the serial decoder's copy is spared).
 */
static void blocks_sink(struct pts_ptdec *d)
{
	blocks_run(d, false, NULL, false, false);
}

static void blocks_sink_through(struct pts_ptdec *d)
{
	blocks_run(d, false, NULL, false, true);
}

/*
 * Decode until an event is queued or the trace ends. et: pts_ptdec_emit's
 * sink, given the plain block loop compiled in rather than called through
 * blocks (no call and no saving of registers per event), which hands it
 * calls and returns itself; decoding also ends when it says stop.
 */
static inline __attribute__((always_inline)) void fill_with(struct pts_ptdec *d,
							    struct emit_to *et, bool sink)
{
	while (!d->qn && d->state != PTDEC_ENDED) {
		if (d->state != PTDEC_SYNCED || (d->status & (pts_event_pending | pts_eos)))
			step(d);
		else if (et && !sink && d->blocks == blocks_through)
			blocks_run(d, false, et, false, true);
		else if (et && !sink && d->blocks == blocks_plain)
			blocks_run(d, false, et, false, false);
		else if (et && sink && d->blocks == blocks_sink)
			blocks_run(d, false, et, true, false);
		else if (et && sink && d->blocks == blocks_sink_through)
			blocks_run(d, false, et, true, true);
		else
			d->blocks(d);
		if (et && et->rc)
			return;
	}
}

static inline __attribute__((always_inline)) void fill(struct pts_ptdec *d)
{
	fill_with(d, NULL, false);
}

/*
 * A jump was just dropped (elide window): the jumps after it of the same
 * time that the window drops too go now. A merge of CPUs by time would
 * hand them out back to back (this CPU's key stays the least), and the
 * window does not move while nothing is fed: the same as one by one,
 * without a round through the merge for each.
 */
static void drop_same_time(struct pts_ptdec *d, uint64_t ts)
{
	for (;;) {
		struct qent *e;

		fill(d);
		if (!d->qn)
			return;
		e = &d->q[d->qh];
		if (e->br.kind != PTS_BR_JUMP || e->br.ts_ns != ts ||
		    !pts_br_elide_drop(d->cfg.elide, e->br.pid, e->br.tid, e->br.from, e->br.to,
				       e->br.ts_ns, e->br.cpu))
			return;
		d->qh = (d->qh + 1) % QCAP;
		d->qn--;
		d->out_pos = e->pos;
		d->st.elided++;
	}
}

/* The queue's first event handed out (1) or dropped (2); the queue is not empty. */
static inline int hand_out(struct pts_ptdec *d, const struct pts_branch **out)
{
	/*
	 * Handed out in place: the entry is rewritten only by a later step,
	 * which runs inside a later call (fill), after the caller is done.
	 */
	struct qent *e = &d->q[d->qh];

	d->qh = (d->qh + 1) % QCAP;
	d->qn--;
	d->out_pos = e->pos;
	d->out_insns = e->insns;
	d->out_nev = e->nev;
	if (e->br.kind == PTS_BR_JUMP && d->cfg.elide &&
	    pts_br_elide_drop(d->cfg.elide, e->br.pid, e->br.tid, e->br.from, e->br.to, e->br.ts_ns,
		   e->br.cpu)) {
		d->st.elided++;
		drop_same_time(d, e->br.ts_ns);
		return 2;
	}
	*out = &e->br;
	return 1;
}

int pts_ptdec_next(struct pts_ptdec *d, const struct pts_branch **out)
{
	fill(d);
	return d->qn ? hand_out(d, out) : 0;
}

int pts_ptdec_next_before(struct pts_ptdec *d, uint64_t until_ns, const struct pts_branch **out)
{
	fill(d);
	if (!d->qn)
		return 0;
	return d->q[d->qh].br.ts_ns < until_ns ? hand_out(d, out) : 3;
}

uint64_t pts_ptdec_pos(const struct pts_ptdec *d)
{
	return d->out_pos;
}

uint64_t pts_ptdec_nev_before(const struct pts_ptdec *d)
{
	return d->out_nev;
}

uint64_t pts_ptdec_head_nev(struct pts_ptdec *d)
{
	fill(d);
	return d->qn ? d->q[d->qh].nev : UINT64_MAX;
}

/* A gap of a return compressed against a call before the decoder's PSB (pardec.h). */
static inline bool risky_head(const struct pts_ptdec *d)
{
	const struct qent *e = &d->q[d->qh];

	return e->br.kind == PTS_BR_GAP && e->br.detail &&
	       !strcmp(e->br.detail, pt_errstr(pte_retstack_empty));
}

uint64_t pts_ptdec_insns_before(const struct pts_ptdec *d)
{
	return d->out_insns;
}

void pts_ptdec_elide_until(struct pts_ptdec *d, uint64_t until_ns)
{
	d->elide_until = d->cfg.elide_queued ? UINT64_MAX : until_ns;
	jump_recheck(d);
}

/*
 * pts_ptdec_emit's loop, bounded known: the block loop and hand_out
 * inline, so that an event costs the sink's call and no call, return code
 * and out pointer of its own through the source interface and the merge;
 * calls and returns go to the sink from the block loop (emit_near).
 */
static inline __attribute__((always_inline)) int emit(struct pts_ptdec *d, bool bounded,
						      uint64_t until_ns,
						      const struct pts_brsrc_to *to,
						      struct pts_err *err, bool sink)
{
	struct emit_to et = { to, bounded, until_ns, err, 0 };

	for (;;) {
		const struct pts_branch *br;
		int rc;

		fill_with(d, &et, sink);
		if (et.rc)
			return et.rc;
		if (!d->qn)
			return PTS_BRSRC_END;
		if (bounded && d->q[d->qh].br.ts_ns >= until_ns)
			return PTS_BRSRC_LATER;
		if (sink && d->q[d->qh].pos > d->sink_end && d->q[d->qh].br.kind != PTS_BR_JUMP)
			return PTS_PTDEC_PAST;
		if (sink && risky_head(d))
			return PTS_PTDEC_RISK;
		if (hand_out(d, &br) != PTS_BRSRC_EVENT)
			continue;	/* dropped: nothing fed, the window unmoved */
		rc = to->event(to->ctx, to->idx, br, err);
		if (rc)
			return rc;
	}
}

/*
 * pts_ptdec_emit between pts_ptdec_sink and _unsink: copies with their
 * stops, kept out of the serial decoder's function (its code laid out
 * as it was before the sinking copies through direct branches came)
 */
static __attribute__((noinline)) int emit_sinking(struct pts_ptdec *d, bool bounded,
						  uint64_t until_ns, const struct pts_brsrc_to *to,
						  struct pts_err *err)
{
	return bounded ? emit(d, true, until_ns, to, err, true) : emit(d, false, 0, to, err, true);
}

int pts_ptdec_emit(struct pts_ptdec *d, bool bounded, uint64_t until_ns,
		   const struct pts_brsrc_to *to, struct pts_err *err)
{
	if (d->blocks == blocks_sink || d->blocks == blocks_sink_through)
		return emit_sinking(d, bounded, until_ns, to, err);
	if (bounded)
		return emit(d, true, until_ns, to, err, false);
	return emit(d, false, 0, to, err, false);
}

void pts_ptdec_sink(struct pts_ptdec *d, struct pts_br_elide *elide, bool elide_queued,
		    uint64_t end)
{
	d->sink_store = d->cfg.store;
	d->sink_take = d->cfg.take_jump;
	d->cfg.store = NULL;
	d->cfg.take_jump = NULL;
	d->cfg.elide = elide;
	d->cfg.elide_queued = elide_queued;
	d->elide_q = elide;
	d->elide_until = elide_queued ? UINT64_MAX : 0;
	jump_recheck(d);
	d->blocks = d->cfg.through ? blocks_sink_through : blocks_sink;
	d->sink_end = end;
}

void pts_ptdec_unsink(struct pts_ptdec *d)
{
	d->cfg.store = d->sink_store;
	d->cfg.take_jump = d->sink_take;
	d->cfg.elide = NULL;
	d->cfg.elide_queued = false;
	d->elide_q = NULL;
	d->elide_until = 0;
	jump_recheck(d);
	d->blocks = blocks_of(d);
	d->sink_end = UINT64_MAX;
}

int pts_ptdec_sink_peek(struct pts_ptdec *d)
{
	fill(d);
	if (!d->qn)
		return PTS_BRSRC_END;
	if (d->q[d->qh].pos > d->sink_end && d->q[d->qh].br.kind != PTS_BR_JUMP)
		return PTS_PTDEC_PAST;
	if (risky_head(d))
		return PTS_PTDEC_RISK;
	return 1;
}

uint64_t pts_ptdec_peek_time(struct pts_ptdec *d)
{
	fill(d);
	return d->qn ? d->q[d->qh].br.ts_ns : UINT64_MAX;
}

void pts_ptdec_stats(const struct pts_ptdec *d, struct pts_ptdec_stats *out)
{
	*out = d->st;
}

uint64_t pts_ptdec_done(const struct pts_ptdec *d)
{
	return d->state == PTDEC_ENDED ? d->cfg.size : d->good_off;
}

void pts_ptdec_free(struct pts_ptdec *d)
{
	pts_ptdec_free_to(d, NULL);
}

void pts_ptdec_free_to(struct pts_ptdec *d, struct pts_ptdec **spare)
{
	if (!d)
		return;
	if (d->blk)
		pt_blk_free_decoder(d->blk);
	free(d->copy);
	pts_insn_flow_free(d->flow);
	d->flow = NULL;
	d->hp = NULL;
	if (spare && !*spare) {
		/* the caches kept (pts_ptdec_new) */
		d->blk = NULL;
		d->copy = NULL;
		*spare = d;
	} else {
		paths_free(d->paths);
		free(d);
	}
}
