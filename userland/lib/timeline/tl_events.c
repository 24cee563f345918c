// SPDX-License-Identifier: GPL-2.0
/*
 * One handler per event kind that is not a branch (tl_feed_other
 * dispatches): tracing enabled and disabled, gaps, instants, CBR, exec
 * and the trigger.
 */
#include "tl_events.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tl_left.h"
#include "tl_resume.h"
#include "tl_thread.h"
#include "tl_untraced.h"

/*
 * A gap or an exec, past which nothing of the thread's stack continues:
 * its open frames close (as end) and r, an instant whose name, detail,
 * kind and address the caller gave, marks it on the thread's track at its
 * last time.
 */
static int end_stack_at(struct pts_tl *tl, struct thread *t, enum pts_tl_kind end,
			struct pts_tl_rec *r, struct pts_err *err)
{
	int rc = tl_pop_all(tl, t, end, err);

	if (!rc)
		rc = tl_flush(tl, t, err);
	if (rc)
		return rc;
	r->type = PTS_TL_INSTANT;
	r->ts_ns = t->at.ts_ns;
	r->pid = t->at.pid;
	r->tid = t->at.tid;
	r->cpu = t->at.cpu;
	return emit(tl, r, err);
}

static int on_gap(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		  struct pts_err *err)
{
	char detail[256];
	struct pts_tl_rec r = { .kind = PTS_TLK_GAP, .name = "gap", .addr = br->from };
	int rc;

	t->st.gaps++;
	r.detail = br->detail ? br->detail : "decode error";
	if (br->offset) {
		/* where in the CPU's trace file, for a look with a packet dump */
		snprintf(detail, sizeof(detail), "%s (cpu %u trace offset 0x%llx)", r.detail,
			 br->cpu, (unsigned long long)br->offset);
		r.detail = detail;
	}
	rc = end_stack_at(tl, t, PTS_TLK_GAP, &r, err);
	if (rc)
		return rc;
	/* nothing before the gap is continued: resume at its IP if it names one */
	if (br->to) {
		check_scope(tl, br->to);
		return tl_resume_at(tl, t, br->to, &br->to_sym, false, 0, err);
	}
	return 0;
}

static int on_instant(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		      struct pts_err *err)
{
	struct pts_tl_rec r;

	memset(&r, 0, sizeof(r));
	r.type = PTS_TL_INSTANT;
	r.name = intern(tl, br->detail ? br->detail : "event");
	if (!r.name)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	r.addr = br->from ? br->from : br->value;
	r.depth = t->n;
	return put(tl, t, &r, err);
}

static int on_cbr(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		  struct pts_err *err)
{
	struct pts_tl_rec r;

	memset(&r, 0, sizeof(r));
	r.type = PTS_TL_COUNTER;
	/* CBR is the core:bus ratio; the bus clock is 100 MHz (SDM "CBR Packet") */
	r.name = "CPU frequency (MHz)";
	r.value = (double)br->value * 100.0;
	return put(tl, t, &r, err);
}

/*
 * The trigger: an instant "trigger" on its thread's track at its time,
 * which is no event of the thread's code (its stats keep their times; a
 * thread never traced gets a track for it all the same).
 */
static int on_trigger(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		      struct pts_err *err)
{
	struct pts_tl_rec r;
	int rc = announce(tl, t, err);

	if (rc)
		return rc;
	if (!t->have_ts || br->ts_ns > t->at.ts_ns)
		tl_thread_trigger_time(t, br->ts_ns);
	memset(&r, 0, sizeof(r));
	r.type = PTS_TL_INSTANT;
	r.name = "trigger";
	r.detail = intern(tl, br->detail ? br->detail : "");
	if (!r.detail)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	r.depth = t->n;
	return put(tl, t, &r, err);
}

static int on_enabled(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		      struct pts_err *err)
{
	enum pts_scope scope = tl->cfg.scope;
	bool was_kernel = top_synthetic(t) && (t->frames[t->n - 1].s.flags & PTS_TLF_KERNEL);
	uint64_t resume = top_synthetic(t) ? t->frames[t->n - 1].resume : 0;
	int rc;

	rc = tl_close_synthetic(tl, t, err);
	if (rc)
		return rc;
	/* scope both: the kernel went back to user space untraced */
	if (scope == PTS_SCOPE_BOTH && br->to && !pts_addr_is_kernel(br->to) &&
	    tl_kernel_frames_open(t))
		return tl_return_to_user(tl, t, br->to, &br->to_sym, PTS_TLK_UNWIND, false, err);
	if (scope != PTS_SCOPE_KERNEL || t->n || t->excess || (br->flags & PTS_BRF_RESUMED))
		return tl_resume_at(tl, t, br->to, &br->to_sym, was_kernel, resume, err);
	/* scope kernel, nothing open: a kernel entry from user mode? */
	rc = tl_resume_at(tl, t, br->to, &br->to_sym, was_kernel, resume, err);
	if (!rc && t->n == 1 && tl_is_user_entry(&t->frames[0].fn, br->to)) {
		t->bottom_user_entry = true;
		t->bottom_syscall = tl->cfg.labels &&
				    !strcmp(t->frames[0].fn.name, "entry_SYSCALL_64");
		push_bound(tl, t);
	}
	return rc;
}

static int on_disabled(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		       struct pts_err *err)
{
	int rc;

	if (top_synthetic(t)) {
		tl->diag[PTS_TLD_DISABLE_WITHOUT_ENABLE]++;
		return 0;
	}
	rc = ensure_at(tl, t, br->from, &br->from_sym, err);
	if (rc)
		return rc;
	if (tl->cfg.scope == PTS_SCOPE_KERNEL) {
		while (!rc && t->n && !t->excess && (t->frames[t->n - 1].s.flags & PTS_TLF_KERNEL))
			rc = pop(tl, t, PTS_TLK_TRACE_END, err);
		if (rc)
			return rc;
		return tl_push_synthetic(tl, t, "[user]", br->from, 0, PTS_TLK_TRACE_END, err);
	}
	if (br->flags & PTS_BRF_ASYNC)
		return tl_push_synthetic(tl, t, "[interrupted]", br->from, br->from,
					 PTS_TLK_INTERRUPT, err);
	return tl_push_synthetic(tl, t, "[untraced]", br->from, 0, PTS_TLK_TRACE_END, err);
}

static int on_exec(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		   struct pts_err *err)
{
	struct pts_tl_rec r = { .name = "exec", .detail = t->name };

	/* a new program: nothing of the old stack continues, no old name holds */
	memset(tl->lcache, 0, sizeof(tl->lcache));
	if (!t->n && !t->excess) {
		/* no frame to end, but stacks the old program left may be kept */
		tl_left_forget(t);
		return 0;
	}
	return end_stack_at(tl, t, PTS_TLK_TRACE_END, &r, err);
}

int tl_feed_other(struct pts_tl *tl, struct thread *t, const struct pts_branch *br,
		  struct pts_err *err)
{
	int rc;

	if (br->kind == PTS_BR_TRIGGER)
		return on_trigger(tl, t, br, err);
	t->st.events++;
	rc = take_event(tl, t, br, err);
	if (rc)
		return rc;
	check_scope(tl, br->from);
	/* in scope kernel, tracing may resume in user code */
	if (br->kind != PTS_BR_ENABLED || tl->cfg.scope != PTS_SCOPE_KERNEL)
		check_scope(tl, br->to);
	switch (br->kind) {
	case PTS_BR_ENABLED:
		return on_enabled(tl, t, br, err);
	case PTS_BR_DISABLED:
		return on_disabled(tl, t, br, err);
	case PTS_BR_GAP:
		return on_gap(tl, t, br, err);
	case PTS_BR_INSTANT:
		return on_instant(tl, t, br, err);
	case PTS_BR_CBR:
		return on_cbr(tl, t, br, err);
	case PTS_BR_EXEC:
		return on_exec(tl, t, br, err);
	default:
		break;	/* TRIGGER: placed before the thread's accounting (on_trigger) */
	}
	return 0;
}
