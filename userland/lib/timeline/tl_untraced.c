// SPDX-License-Identifier: GPL-2.0
/*
 * The synthetic slices of untraced time, and their names from the
 * capture's syscall and page-fault records.
 */
#include "tl_untraced.h"

#include <errno.h>
#include <string.h>

/*
 * The name of an untraced stretch of user scope that begins now: its
 * syscall or page-fault record's label when the capture has one that
 * fits (klabel.h: thread, order, time, user IP), else the plain name.
 * ip: the user IP the record must name. Returns name or buf.
 */
static const char *synthetic_label(struct pts_tl *tl, struct thread *t, const char *name,
				   enum pts_kl_kind kind, uint64_t ip, char *buf, size_t len)
{
	const struct pts_kl_rec *r;

	if (!tl->cfg.labels)
		return name;
	r = pts_kl_match(tl->cfg.labels, kind, t->at.tid, t->at.ts_ns, ip);
	return r ? pts_kl_label(r, true, buf, len) : name;
}

int tl_push_synthetic(struct pts_tl *tl, struct thread *t, const char *name, uint64_t addr,
		      uint64_t resume, enum pts_tl_kind kind, struct pts_err *err)
{
	char label[128];
	struct fn fn;
	int rc;

	memset(&fn, 0, sizeof(fn));
	if (!strcmp(name, "[syscall]"))
		name = synthetic_label(tl, t, name, PTS_KL_SYSCALL, resume, label, sizeof(label));
	else if (!strcmp(name, "[interrupted]"))
		name = synthetic_label(tl, t, name, PTS_KL_FAULT, addr, label, sizeof(label));
	fn.name = intern(tl, name);
	fn.kernel = !strcmp(name, "[user]") ? false : tl->cfg.scope != PTS_SCOPE_KERNEL;
	if (!fn.name)
		return pts_err_set(err, ENOMEM, "timeline: out of memory");
	rc = push(tl, t, &fn, addr, 0, PTS_TLF_SYNTHETIC, kind, err);
	if (!rc && top_synthetic(t))
		t->frames[t->n - 1].resume = resume;
	return rc;
}

int tl_close_synthetic(struct pts_tl *tl, struct thread *t, struct pts_err *err)
{
	const char *n;
	enum pts_tl_kind k = PTS_TLK_TRACE_BEGIN;

	if (!top_synthetic(t))
		return 0;
	n = t->frames[t->n - 1].fn.name;
	/* "[syscall]" or its label "[syscall write → 4096]", "[page fault ...]" */
	if (!strncmp(n, "[syscall", 8))
		k = PTS_TLK_SYSRET;
	else if (!strcmp(n, "[interrupted]") || !strncmp(n, "[page fault ", 12))
		k = PTS_TLK_IRET;
	return pop(tl, t, k, err);
}
