// SPDX-License-Identifier: GPL-2.0
/*
 * A bundle's ptscope sideband (include/uapi/ptscope.h records) as decoder
 * sideband: thread switches, names and execs. A damaged file is used up
 * to its first damaged record and the rest is said to be lost
 * (docs/decode.md, "Damaged bundles").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>
#include "uapi/ptscope.h"

#include "../bundle/sideband.h"
#include "../util/bytes.h"
#include "session_int.h"

/*
 * What the sideband file lacks or holds beyond the manifest's size (the
 * reader accepted it, PTS_BUNDLE_READ_PARTIAL). A truncated copy loses the
 * records after the cut even when it falls between two records.
 */
static void sideband_file_size(const struct pts_bundle *b, struct pts_decode_summary *sum)
{
	char text[PTS_BYTES_TEXT_LEN], msg[320];
	uint64_t have = b->sideband_file_size, want = b->sideband_size;

	if (b->sideband_missing) {
		snprintf(msg, sizeof(msg), "%s is missing from the bundle (a copy that did not "
			 "finish?): its %s of records %s lost; copy the bundle again", b->sideband_file,
			 pts_bytes_text(want, text, sizeof(text)), want == 1 ? "is" : "are");
		pts_decode_lost(sum, msg);
	} else if (have < want) {
		snprintf(msg, sizeof(msg), "%s: %" PRIu64 " of %" PRIu64 " bytes present (truncated "
			 "copy?); using the records before the cut, the missing %s %s lost",
			 b->sideband_file, have, want, pts_bytes_text(want - have, text, sizeof(text)),
			 want - have == 1 ? "is" : "are");
		pts_decode_lost(sum, msg);
	} else if (have > want) {
		snprintf(msg, sizeof(msg), "%s: %" PRIu64 " bytes, the manifest says %" PRIu64
			 ": using the records the capture wrote; the %s after them %s added "
			 "later and %s ignored", b->sideband_file, have, want,
			 pts_bytes_text(have - want, text, sizeof(text)),
			 have - want == 1 ? "was" : "were", have - want == 1 ? "is" : "are");
		pts_decode_notice(sum, msg);
	}
}

/*
 * The first damaged record ends the sideband: its framing (or its time)
 * cannot be trusted, so nothing after it is guessed at. Said with the
 * file, the byte offset and what is wrong.
 */
static void sideband_damaged(const struct pts_bundle *b, size_t off, size_t len, const char *why,
			     struct pts_decode_summary *sum)
{
	char text[PTS_BYTES_TEXT_LEN], before[64], msg[400];

	if (!off)
		snprintf(before, sizeof(before), "no record before it is used");
	else
		snprintf(before, sizeof(before), "the %zu byte%s before it %s used", off,
			 off == 1 ? "" : "s", off == 1 ? "is" : "are");
	snprintf(msg, sizeof(msg), "%s: damaged record at byte offset %zu: %s; %s, the %s from "
		 "there on %s not used", b->sideband_file, off, why, before,
		 pts_bytes_text(len - off, text, sizeof(text)), len - off == 1 ? "is" : "are");
	pts_decode_lost(sum, msg);
}

/*
 * The LOST records of each CPU, said once per CPU (docs/decode.md): the
 * thread running there is unknown from the CPU's record before the loss
 * until its next switch, and that stretch decodes without a user image.
 */
static void sideband_lost_per_cpu(const struct pts_bundle *b, const uint64_t *lost,
				  struct pts_decode_summary *sum)
{
	char msg[300];
	uint32_t cpu;

	for (cpu = 0; cpu < PTS_SB_MAX_CPUS; cpu++) {
		if (!lost[cpu])
			continue;
		snprintf(msg, sizeof(msg), "%s: %llu sideband record%s of cpu %u %s missing (its "
			 "ring in the module was full, or a long snapshot capture folded old "
			 "records): the thread running there is unknown from its record before "
			 "them until its next switch, and its user code there is a gap",
			 b->sideband_file, (unsigned long long)lost[cpu],
			 lost[cpu] == 1 ? "" : "s", cpu, lost[cpu] == 1 ? "is" : "are");
		pts_decode_warn(sum, msg);
	}
}

/*
 * One ptscope record as decoder sideband records. since_ns: time of the
 * previous record of the record's CPU (0 when it is the first). 0 or
 * -ENOMEM.
 */
static int sideband_add_rec(const struct ptscope_sb_hdr *h, const struct pts_timeconv *tc,
			    uint64_t since_ns, struct pts_sideband *sb)
{
	struct pts_sb_rec r;
	/* an EXEC's filename: at most 255 bytes and its NUL (docs/abi.md) */
	char comm[PTSCOPE_COMM_LEN + 1], file[256];
	int rc = 0;

	memset(&r, 0, sizeof(r));
	r.time_ns = pts_tc_ns(tc, h->tsc);
	r.cpu = h->cpu;
	if (h->type == PTSCOPE_SB_TRACE_START && h->size >= sizeof(struct ptscope_sb_trace)) {
		const struct ptscope_sb_trace *tr = (const void *)h;

		/*
		 * The task current when tracing began on this CPU. The record is
		 * stamped after TraceEn was set, so the trace's first packets are
		 * earlier than it; no task changed on this CPU since its previous
		 * record (that would be a switch record), so the task runs from
		 * that record on, and from the start when there is none.
		 */
		r.type = tr->pid == PTSCOPE_PID_OUTSIDE ? PTS_SB_LOST : PTS_SB_SWITCH;
		r.time_ns = since_ns;
		r.pid = tr->pid;
		r.tid = tr->tid;
		r.cr3 = tr->cr3;
		rc = pts_sideband_add(sb, &r);
	} else if (h->type == PTSCOPE_SB_SCHED_SWITCH) {
		const struct ptscope_sb_switch *sw = (const void *)h;

		/*
		 * A task outside the capture's pid namespace (docs/abi.md,
		 * "Pids"): no process of the bundle, and -1 is no pid to key
		 * images by; the CPU's task is unknown until its next switch, as
		 * after lost records (its user code decodes as a gap).
		 */
		r.type = sw->next_pid == PTSCOPE_PID_OUTSIDE ? PTS_SB_LOST : PTS_SB_SWITCH;
		r.pid = sw->next_pid;
		r.tid = sw->next_tid;
		r.cr3 = sw->next_cr3;
		r.before_cr3_write = true;	/* the tracepoint runs before switch_mm */
		rc = pts_sideband_add(sb, &r);
		r.before_cr3_write = false;
		if (!rc && sw->next_comm[0] && sw->next_pid != PTSCOPE_PID_OUTSIDE) {
			snprintf(comm, sizeof(comm), "%.*s", PTSCOPE_COMM_LEN, sw->next_comm);
			r.type = PTS_SB_COMM;
			r.name = comm;
			rc = pts_sideband_add(sb, &r);
		}
	} else if (h->type == PTSCOPE_SB_LOST) {
		/*
		 * Records of this CPU were dropped after its previous record (its
		 * ring was full): a switch among them would have changed the
		 * task, so from that record on the task is unknown.
		 */
		r.type = PTS_SB_LOST;
		r.time_ns = since_ns;
		rc = pts_sideband_add(sb, &r);
	} else if (h->type == PTSCOPE_SB_EXEC) {
		const struct ptscope_sb_exec *ex = (const void *)h;

		snprintf(comm, sizeof(comm), "%.*s", PTSCOPE_COMM_LEN, ex->comm);
		r.type = PTS_SB_COMM;
		r.pid = ex->pid;
		r.tid = ex->tid;
		r.cr3 = ex->cr3;
		r.name = comm;
		rc = pts_sideband_add(sb, &r);
		/* the program's file as exec was given it (the reader checked its NUL) */
		r.type = PTS_SB_EXEC;
		snprintf(file, sizeof(file), "%.*s", (int)(h->size - sizeof(*ex)), ex->filename);
		r.name = file[0] ? file : NULL;
		if (!rc)
			rc = pts_sideband_add(sb, &r);
	}
	return rc;
}

/*
 * A syscall or page-fault record into *kl (made at the first one).
 * 1: it was one, 0: another type, -ENOMEM.
 */
static int labels_add_rec(const struct ptscope_sb_hdr *h, const struct pts_timeconv *tc,
			  struct pts_klabels **kl)
{
	uint64_t ns = pts_tc_ns(tc, h->tsc);

	if (h->type != PTSCOPE_SB_SYS_ENTER && h->type != PTSCOPE_SB_SYS_EXIT &&
	    h->type != PTSCOPE_SB_PAGE_FAULT)
		return 0;
	if (!kl)
		return 1;
	if (!*kl && !(*kl = pts_kl_new()))
		return -ENOMEM;
	if (h->type == PTSCOPE_SB_PAGE_FAULT) {
		const struct ptscope_sb_fault *f = (const void *)h;

		return pts_kl_add_fault(*kl, f->pid, f->tid, ns, f->address, f->error_code,
					f->ip) ?: 1;
	}
	{
		const struct ptscope_sb_syscall *s = (const void *)h;

		if (h->type == PTSCOPE_SB_SYS_ENTER)
			return pts_kl_add_enter(*kl, s->pid, s->tid, ns, s->nr, s->ip) ?: 1;
		return pts_kl_add_exit(*kl, s->pid, s->tid, ns, s->nr, s->ret, s->ip) ?: 1;
	}
}

int pts_decode_bundle_sideband(const struct pts_bundle *b, const struct pts_timeconv *tc,
			       struct pts_sideband *sb, struct pts_klabels **labels,
			       struct pts_decode_summary *sum, struct pts_err *err)
{
	const struct ptscope_sb_hdr *h;
	struct pts_sb_reader rd;
	struct pts_err e2 = { 0 };
	uint64_t *last_tsc = NULL, *lost = NULL, unknown = 0, since_ns;
	bool *seen = NULL;
	size_t unknown_off = 0, i, prev_off = 0;
	uint16_t unknown_type = 0;
	int rc;

	/* process names first: the sideband may not see every process start */
	for (i = 0; i < b->nr_processes; i++) {
		struct pts_sb_rec r;
		char comm[sizeof(b->processes[i].comm) + 1];

		if (!b->processes[i].comm[0])
			continue;
		snprintf(comm, sizeof(comm), "%s", b->processes[i].comm);
		memset(&r, 0, sizeof(r));
		r.type = PTS_SB_COMM;
		r.pid = r.tid = b->processes[i].pid;
		r.cpu = UINT32_MAX;
		r.name = comm;
		if (pts_sideband_add(sb, &r))
			return pts_err_set(err, ENOMEM, "out of memory");
	}
	rc = pts_sb_reader_open(&rd, b, err);
	if (rc || !b->sideband_file) {
		pts_sb_reader_close(&rd);
		return rc;
	}
	sideband_file_size(b, sum);
	/*
	 * TSC of each CPU's last record, and whether it has one: every u64 is a
	 * TSC a damaged record can hold (UINT64_MAX too), so none can mean
	 * "no record yet". hdr.cpu < PTS_SB_MAX_CPUS (the reader checks it).
	 */
	last_tsc = calloc(PTS_SB_MAX_CPUS, sizeof(*last_tsc));
	lost = calloc(PTS_SB_MAX_CPUS, sizeof(*lost));
	seen = calloc(PTS_SB_MAX_CPUS, sizeof(*seen));
	if (!last_tsc || !seen || !lost) {
		free(last_tsc);
		free(lost);
		free(seen);
		pts_sb_reader_close(&rd);
		return pts_err_set(err, ENOMEM, "out of memory");
	}
	while ((rc = pts_sb_next(&rd, &h, &e2)) == 1) {
		size_t off = prev_off;

		prev_off = rd.off;
		/* the module writes each CPU's records in TSC order (docs/abi.md) */
		if (seen[h->cpu] && h->tsc < last_tsc[h->cpu]) {
			char why[200];

			const char *type = pts_sb_type_name(h->type) ? pts_sb_type_name(h->type) :
					   "unknown-type";

			snprintf(why, sizeof(why), "%s %s record of CPU %u at TSC %llu, before the "
				 "record ahead of it on that CPU (TSC %llu): times go back",
				 strchr("aeiou", type[0]) ? "an" : "a", type,
				 h->cpu, (unsigned long long)h->tsc,
				 (unsigned long long)last_tsc[h->cpu]);
			sideband_damaged(b, off, rd.total, why, sum);
			break;
		}
		since_ns = seen[h->cpu] ? pts_tc_ns(tc, last_tsc[h->cpu]) : 0;
		last_tsc[h->cpu] = h->tsc;
		seen[h->cpu] = true;
		if (!pts_sb_type_name(h->type)) {
			if (!unknown++) {
				unknown_type = h->type;
				unknown_off = off;
			}
			continue;
		}
		if (h->type == PTSCOPE_SB_LOST && h->size >= sizeof(struct ptscope_sb_lost))
			lost[h->cpu] += ((const struct ptscope_sb_lost *)h)->count;
		if (labels_add_rec(h, tc, labels) < 0 || sideband_add_rec(h, tc, since_ns, sb)) {
			free(last_tsc);
			free(lost);
			free(seen);
			pts_sb_reader_close(&rd);
			return pts_err_set(err, ENOMEM, "out of memory");
		}
	}
	if (rc < 0)
		sideband_damaged(b, rd.off, rd.total, rd.why, sum);
	if (unknown) {
		char msg[256];

		snprintf(msg, sizeof(msg), "%s: %llu record(s) of unknown type skipped (the first: "
			 "type %u at byte offset %zu): written by a newer ptscope.ko, or damaged",
			 b->sideband_file, (unsigned long long)unknown, unknown_type, unknown_off);
		pts_decode_lost(sum, msg);
	}
	sideband_lost_per_cpu(b, lost, sum);
	free(last_tsc);
	free(lost);
	free(seen);
	pts_sb_reader_close(&rd);
	return 0;
}
