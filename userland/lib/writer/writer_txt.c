// SPDX-License-Identifier: GPL-2.0
/*
 * Text listing (.txt): one line per call, return and transition, fields
 * separated by white space so awk can take them apart; the event is
 * indented by its depth so the nesting reads at a glance:
 *
 *   TS_NS CPU PID/TID DEPTH KIND  INDENT> SYMBOL[+0xOFFSET] (OBJECT) [FLAGS] {ARGS}  BEGIN
 *                                  (no offset at a function's entry; a
 *                                  synthetic slice: its name, no offset;
 *                                  code without a symbol: "[unknown] 0xADDR
 *                                  (OBJECT)", no offset, object once)
 *   TS_NS CPU PID/TID DEPTH KIND  INDENT< SYMBOL[+0xOFFSET] (OBJECT) took N ns  END
 *   TS_NS CPU PID/TID DEPTH KIND  INDENT! NAME: DETAIL @0xADDR                  INSTANT
 *   TS_NS CPU PID/TID - counter = NAME VALUE                                   COUNTER
 *   # process PID NAME / # thread PID/TID NAME                                 names
 *
 * KIND is the enum pts_tl_kind name (call, return, jump, syscall, ...),
 * padded to the longest one; INDENT is two spaces per depth (at most
 * TXT_MAX_INDENT levels). An END names the slice it closes (its BEGIN's
 * name) unless the record carries its own name, then it is that name with
 * the record's offset; "took N ns" is the slice's duration. FLAGS:
 * [kernel] [inferred] [synthetic]; a BEGIN's extra arguments follow as
 * {NAME=VALUE ...}. docs/output-formats.md has the full description.
 */
#include "writer_int.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

/* s with control characters (newlines, tabs) as spaces: one line per event. */
static int line_str(struct pts_writer *w, const char *s)
{
	int rc = 0;

	while (!rc && *s) {
		size_t n = 0;

		while (s[n] && (unsigned char)s[n] >= 0x20)
			n++;
		rc = pts_wout(w, s, n);
		s += n;
		if (!rc && *s) {
			rc = pts_wout(w, " ", 1);
			s++;
		}
	}
	return rc;
}

/* " NAME\n", or just "\n" for a process or thread without a name */
static int name_tail(struct pts_writer *w, const char *name)
{
	if (name && name[0])
		return pts_wout(w, " ", 1) ?: line_str(w, name) ?: pts_wout(w, "\n", 1);
	return pts_wout(w, "\n", 1);
}

#define TXT_KIND_WIDTH	12	/* strlen("end_of_trace"), the longest kind name */
#define TXT_MAX_INDENT	64	/* levels indented; deeper ones line up at this one */

/* "TS CPU PID/TID DEPTH KIND" padded, the depth's indent, "MARK " */
static int common(struct pts_writer *w, const struct pts_tl_rec *rec, char mark)
{
	const char *kind = pts_tl_kind_name(rec->kind);
	size_t klen = strlen(kind), indent;
	char line[128 + 2 * TXT_MAX_INDENT], *p = line;

	p = pts_fmt_u64(p, rec->ts_ns);
	*p++ = ' ';
	p = pts_fmt_u64(p, rec->cpu);
	*p++ = ' ';
	p = pts_fmt_i64(p, rec->pid);
	*p++ = '/';
	p = pts_fmt_i64(p, rec->tid);
	*p++ = ' ';
	p = pts_fmt_u64(p, rec->depth);
	*p++ = ' ';
	memcpy(p, kind, klen);	/* kind names are short: see pts_tl_kind_name */
	p += klen;
	indent = 1 + (klen < TXT_KIND_WIDTH ? TXT_KIND_WIDTH - klen : 0) +
		 2 * (rec->depth < TXT_MAX_INDENT ? rec->depth : TXT_MAX_INDENT);
	memset(p, ' ', indent);
	p += indent;
	*p++ = mark;
	*p++ = ' ';
	return pts_wout(w, line, (size_t)(p - line));
}

/*
 * Does the name printed say the object itself? The builder's name for
 * code without a symbol (PTS_TLF_UNKNOWN) is "[unknown] 0xADDR (OBJECT)":
 * a second " (OBJECT)" would only repeat it.
 */
static bool names_object(const char *name, uint32_t flags)
{
	return (flags & PTS_TLF_UNKNOWN) && name && name[0];
}

/*
 * A BEGIN's extra arguments (writer.h): " {NAME=VALUE ...}", numbers in
 * decimal, bits and addresses in hex; nothing when it has none.
 */
static int args(struct pts_writer *w, const struct pts_tl_rec *rec)
{
	uint32_t i, n = rec->nargs < PTS_TL_MAX_ARGS ? rec->nargs : PTS_TL_MAX_ARGS;
	int rc = 0;

	for (i = 0; !rc && i < n; i++) {
		const struct pts_tl_arg *a = &rec->args[i];

		rc = pts_wout_str(w, i ? " " : " {") ?: line_str(w, a->name) ?: pts_wout(w, "=", 1);
		if (rc)
			break;
		if (a->type == PTS_TLA_STR)
			rc = line_str(w, a->s ? a->s : "");
		else if (a->type == PTS_TLA_INT)
			rc = pts_wprintf(w, "%" PRId64, a->i);
		else
			rc = pts_wprintf(w, "0x%" PRIx64, a->u);
	}
	return rc ?: (n ? pts_wout(w, "}", 1) : 0);
}

/*
 * " (OBJECT) [FLAGS]\n"; object=false leaves the object out. ended: the
 * frame an END closes, whose duration " took N ns" ends the line; NULL
 * for a BEGIN.
 */
static int tail(struct pts_writer *w, const struct pts_tl_rec *rec, uint32_t flags, bool object,
		const struct pts_wframe *ended)
{
	int rc = 0;

	if (object && rec->object && rec->object[0])
		rc = pts_wout_str(w, " (") ?: line_str(w, rec->object) ?: pts_wout(w, ")", 1);
	if (!rc && (flags & PTS_TLF_KERNEL))
		rc = pts_wout_str(w, " [kernel]");
	if (!rc && (flags & PTS_TLF_INFERRED))
		rc = pts_wout_str(w, " [inferred]");
	if (!rc && (flags & PTS_TLF_SYNTHETIC))
		rc = pts_wout_str(w, " [synthetic]");
	if (!rc && !ended)
		rc = args(w, rec);
	if (!rc && ended)
		rc = pts_wprintf(w, " took %" PRIu64 " ns", rec->ts_ns - ended->ts);
	return rc ?: pts_wout(w, "\n", 1);
}

/* SYMBOL+0xOFFSET; at the function's entry (offset 0) just SYMBOL */
static int symbol(struct pts_writer *w, const struct pts_tl_rec *rec)
{
	char buf[64], off[24] = "+";

	if (pts_wsymbol(rec))
		return line_str(w, rec->name) ?: (rec->offset ?
		       pts_wout(w, off, (size_t)(pts_fmt_hex(off + 1, rec->offset) - off)) : 0);
	return line_str(w, pts_wname(rec, buf, sizeof(buf)));
}


static int txt_emit(struct pts_writer *w, const struct pts_tl_rec *rec)
{
	struct pts_wthread *t;
	const struct pts_wframe *f;
	char buf[64];
	int rc;

	switch (rec->type) {
	case PTS_TL_PROCESS:
		return pts_wprintf(w, "# process %d", rec->pid) ?: name_tail(w, rec->name);
	case PTS_TL_THREAD:
		return pts_wprintf(w, "# thread %d/%d", rec->pid, rec->tid) ?: name_tail(w, rec->name);
	case PTS_TL_BEGIN:
	case PTS_TL_END:
		rc = pts_wthread_enter(w, rec, &t);
		if (rc)
			return rc;
		if (rec->type == PTS_TL_BEGIN) {
			rc = common(w, rec, '>') ?: symbol(w, rec) ?:
			     tail(w, rec, rec->flags, !names_object(rec->name, rec->flags), NULL);
			return rc ?: pts_wthread_push(w, t, rec);
		}
		f = &t->frames[t->depth - 1];
		rc = common(w, rec, '<');
		if (!rc && rec->name && rec->name[0])
			rc = symbol(w, rec) ?:
			     tail(w, rec, f->flags, !names_object(rec->name, rec->flags), f);
		else if (!rc)
			rc = line_str(w, pts_wframe_name(f, buf, sizeof(buf))) ?:
			     tail(w, rec, f->flags, !names_object(f->name, f->flags), f);
		if (!rc)
			pts_wthread_pop(t);
		return rc;
	case PTS_TL_INSTANT:
		rc = common(w, rec, '!') ?:
		     line_str(w, rec->name && rec->name[0] ? rec->name : pts_tl_kind_name(rec->kind));
		if (!rc && rec->detail && rec->detail[0])
			rc = pts_wout(w, ": ", 2) ?: line_str(w, rec->detail);
		return rc ?: pts_wprintf(w, " @0x%" PRIx64 "\n", rec->addr);
	case PTS_TL_COUNTER:
		return pts_wprintf(w, "%" PRIu64 " %u %d/%d - counter = ", rec->ts_ns, rec->cpu,
				   rec->pid, rec->tid) ?:
		       line_str(w, rec->name ? rec->name : "counter") ?:
		       pts_wprintf(w, " %.15g\n", rec->value);
	}
	return pts_wfail(w, EINVAL, "unknown timeline record type %d", (int)rec->type);
}

static int txt_start(struct pts_writer *w)
{
	return pts_wout_str(w, "# ts_ns cpu pid/tid depth kind event\n");
}

const struct pts_writer_ops pts_writer_txt_ops = {
	.name = "txt",
	.start = txt_start,
	.emit = txt_emit,
};
