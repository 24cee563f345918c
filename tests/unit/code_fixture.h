/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The code a suite's generated streams run over (pt_gen.h), mapped at
 * CODE_FIXTURE_BASE, a serial decoder of a stream over it and its events
 * as text, and a session decode's options: the set-up of the decoder
 * suites that hand-assemble a few bytes of code (test_decode_emit.c,
 * test_decode_spin.c, test_decode_tip_suppressed.c, test_decode_mode_*.c,
 * test_decode_spin_cache.c, test_decode_through_held_error.c).
 */
#ifndef PTS_TEST_CODE_FIXTURE_H
#define PTS_TEST_CODE_FIXTURE_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "pt_gen.h"
#include "decode/image.h"
#include "decode/ptdec.h"
#include "session/session.h"

#define CODE_FIXTURE_BASE 0x401000u
#define CODE_FIXTURE_PID 100

struct code_fixture {
	char dir[64];		/* the suite's temporary directory */
	char code[128];		/* dir/code.bin */
	size_t n;		/* its bytes */
};

/*
 * For a suite's init: a new directory /tmp/pts-NAME.XXXXXX holding the n
 * bytes as code.bin. 0, or 1 when the suite cannot run.
 */
static inline int code_fixture_init(struct code_fixture *f, const char *name,
				    const uint8_t *bytes, size_t n)
{
	snprintf(f->dir, sizeof(f->dir), "/tmp/pts-%s.XXXXXX", name);
	f->n = n;
	return gen_code_file(f->dir, f->code, sizeof(f->code), bytes, n) ? 1 : 0;
}

/* For a suite's cleanup (after the suite removed its other files): 0, or 1. */
static inline int code_fixture_cleanup(struct code_fixture *f)
{
	unlink(f->code);
	return rmdir(f->dir) ? 1 : 0;
}

/*
 * The fixture f of a suite whose set-up is its code alone (the bytes
 * given, in a directory named after name): defines f and the suite's
 * suite_init and suite_cleanup, for PTS_SUITE.
 */
#define CODE_FIXTURE_SUITE(f, name, ...)						\
	static struct code_fixture f;							\
	static int suite_init(void)							\
	{										\
		static const uint8_t bytes[] = { __VA_ARGS__ };				\
											\
		return code_fixture_init(&f, name, bytes, sizeof(bytes));		\
	}										\
	static int suite_cleanup(void)							\
	{										\
		return code_fixture_cleanup(&f);					\
	}										\
	static struct code_fixture f	/* again, for the caller's ';' */

/* An image set with the code at CODE_FIXTURE_BASE for every process; the test stops if it fails. */
static inline struct pts_imgset *code_fixture_set(const struct code_fixture *f)
{
	struct pts_imgset *set;
	struct pts_err err = { 0 };

	CU_ASSERT_EQUAL_FATAL(pts_imgset_new(&set, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_imgset_add_file(set, PTS_PID_ALL, f->code, 0, f->n,
						  CODE_FIXTURE_BASE, NULL, NULL, &err), 0);
	return set;
}

/*
 * The options of a session decode (pts_decode_raw) of the raw trace file
 * trace over the code, as thread CODE_FIXTURE_PID, with a TSC of 1 GHz.
 */
static inline void code_fixture_raw_opts(const struct code_fixture *f, const char *trace,
					 struct pts_decode_opts *o)
{
	pts_decode_opts_init(o);
	o->pt[0].path = trace;
	o->nr_pt = 1;
	o->raw[0].path = f->code;
	o->raw[0].vaddr = CODE_FIXTURE_BASE;
	o->nr_raw = 1;
	o->tsc_khz = 1000000;
	o->pid = CODE_FIXTURE_PID;
	o->tid = CODE_FIXTURE_PID;
}

/*
 * A serial decoder of g's stream over set, of process and thread
 * CODE_FIXTURE_PID; through: blocks through direct branches
 * (pts_ptdec_config.through: only on a deep stack, decode/deep.h);
 * elide: the jumps it drops as they are queued (pts_ptdec_config.elide,
 * elide_queued), or NULL.
 */
static inline struct pts_ptdec *code_fixture_decoder_elide(struct pt_gen *g,
							   struct pts_imgset *set, bool through,
							   struct pts_br_elide *elide)
{
	struct pts_ptdec_config dc = { 0 };
	struct pts_ptdec *d;
	struct pts_err err = { 0 };

	dc.buf = g->buf;
	dc.size = gen_len(g);
	dc.images = set;
	dc.pid = CODE_FIXTURE_PID;
	dc.tid = CODE_FIXTURE_PID;
	dc.through = through;
	dc.elide = elide;
	dc.elide_queued = elide != NULL;
	CU_ASSERT_EQUAL_FATAL(pts_ptdec_new(&dc, &d, &err), 0);
	return d;
}

/* code_fixture_decoder_elide with no jump dropped. */
static inline struct pts_ptdec *code_fixture_decoder_with(struct pt_gen *g, struct pts_imgset *set,
							  bool through)
{
	return code_fixture_decoder_elide(g, set, through, NULL);
}

/* A serial decoder of g's stream over set, of process and thread CODE_FIXTURE_PID. */
static inline struct pts_ptdec *code_fixture_decoder(struct pt_gen *g, struct pts_imgset *set)
{
	return code_fixture_decoder_with(g, set, false);
}

/*
 * The events of g's stream decoded over set (code_fixture_decoder_elide),
 * one line each into out: "kind from>to", with a gap's cause and trace
 * offset after it ("gap 401000>0 unknown instruction @18"); the jumps
 * elide drops are not listed; the decoder's statistics in *st when st is
 * not NULL. g is done with.
 */
static inline void code_fixture_events_elide(struct pt_gen *g, struct pts_imgset *set,
					     bool through, struct pts_br_elide *elide, char *out,
					     size_t len, struct pts_ptdec_stats *st)
{
	struct pts_ptdec *d = code_fixture_decoder_elide(g, set, through, elide);
	const struct pts_branch *br;
	size_t n = 0;
	int rc;

	out[0] = '\0';
	while ((rc = pts_ptdec_next(d, &br)) > 0 && n < len) {
		if (rc != 1)
			continue;	/* 2: a jump elide dropped */
		n += (size_t)snprintf(out + n, len - n, "%s %llx>%llx", pts_br_kind_name(br->kind),
				      (unsigned long long)br->from, (unsigned long long)br->to);
		if (n < len && br->kind == PTS_BR_GAP)
			n += (size_t)snprintf(out + n, len - n, " %s @%llu", br->detail,
					      (unsigned long long)br->offset);
		if (n < len)
			n += (size_t)snprintf(out + n, len - n, "\n");
	}
	if (st)
		pts_ptdec_stats(d, st);
	pts_ptdec_free(d);
	gen_done(g);
}

/* code_fixture_events_elide with no jump dropped. */
static inline void code_fixture_events_with(struct pt_gen *g, struct pts_imgset *set,
					    bool through, char *out, size_t len,
					    struct pts_ptdec_stats *st)
{
	code_fixture_events_elide(g, set, through, NULL, out, len, st);
}

/* code_fixture_events_with, the blocks as libipt ends them at every direct branch. */
static inline void code_fixture_events(struct pt_gen *g, struct pts_imgset *set, char *out,
				       size_t len, struct pts_ptdec_stats *st)
{
	code_fixture_events_with(g, set, false, out, len, st);
}

#endif /* PTS_TEST_CODE_FIXTURE_H */
