// SPDX-License-Identifier: GPL-2.0
/*
 * Capture bundle input: the manifest's CPU identity, timing, images
 * (copied binaries, kernel text, vdso), CR3s and ptscope sideband
 * (bundle_sideband.c) become one decode run.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../capture/filter_scope.h"
#include "../util/bytes.h"
#include "session_int.h"

/*
 * A per-CPU trace file whose size is not the manifest's (the reader
 * accepted it, PTS_BUNDLE_READ_PARTIAL); the file is mapped up to the
 * manifest's size. Shorter: a truncated copy; the bytes present are
 * decoded (the decoder synchronises at PSBs and ends where the bytes end)
 * and the missing tail becomes a gap. Longer: the manifest records the
 * bytes the capture wrote (the writer takes each size from disk and
 * writes the manifest last, and a ring holds no more); bytes after them
 * were added later, are not from this capture and are not decoded.
 */
static void cpu_file_size(const struct pts_bundle_cpu *c, struct pts_run_in *in, size_t i,
			  struct pts_decode_summary *sum)
{
	char miss[PTS_BYTES_TEXT_LEN], msg[320];

	if ((uint64_t)in->pt[i].len < c->size) {
		in->pt[i].missing = c->size - in->pt[i].len;
		snprintf(msg, sizeof(msg), "%s: %zu of %" PRIu64 " bytes present (truncated copy?); "
			 "decoding the bytes present, the missing %s %s a gap at the end of cpu %u",
			 c->file, in->pt[i].len, c->size,
			 pts_bytes_text(in->pt[i].missing, miss, sizeof(miss)),
			 in->pt[i].missing == 1 ? "is" : "are", c->cpu);
		pts_decode_lost(sum, msg);
	} else if (c->file_size > c->size) {
		snprintf(msg, sizeof(msg), "%s: %" PRIu64 " bytes, the manifest says %" PRIu64
			 ": decoding the bytes the capture wrote; the %s after them %s added "
			 "later and %s ignored", c->file, c->file_size, c->size,
			 pts_bytes_text(c->file_size - c->size, miss, sizeof(miss)),
			 c->file_size - c->size == 1 ? "was" : "were",
			 c->file_size - c->size == 1 ? "is" : "are");
		pts_decode_notice(sum, msg);
	}
}

/*
 * The page-table roots the sideband names for each process (switch, exec
 * and trace-start records): a PIP carrying one of them names the process
 * and selects its image (kernel and both scopes, docs/decode.md). Roots
 * are the sideband's: physical, or per-capture identities for a capture
 * read without CAP_SYS_ADMIN (docs/abi.md, "Permissions"), which no PIP
 * carries: then the sideband alone selects. 0 or -ENOMEM.
 */
static int sideband_roots(const struct pts_sideband *sb, struct pts_imgset *set)
{
	size_t i;

	for (i = 0; i < sb->n; i++) {
		const struct pts_sb_rec *r = &sb->recs[i];

		if ((r->type == PTS_SB_SWITCH || r->type == PTS_SB_EXEC) && r->pid > 0 &&
		    pts_imgset_note_cr3(set, r->pid, r->cr3))
			return -ENOMEM;
	}
	return 0;
}

/*
 * The capture's ADDRn ranges and their RTIT_CTL.ADDRn_CFG as libipt's
 * filter configuration. With it libipt applies its SKL014 workaround
 * (models it lists, Skylake on: a TIP.PGD at a direct branch that leaves
 * a filter range, or enters a TraceStop one, may lack its IP); without
 * it the disable binds to a later instruction and decoding runs on into
 * code the trace does not cover.
 */
static void bundle_addr_filter(const struct pts_bundle *b, struct pt_conf_addr_filter *f)
{
	uint64_t *ab[4][2] = {
		{ &f->addr0_a, &f->addr0_b }, { &f->addr1_a, &f->addr1_b },
		{ &f->addr2_a, &f->addr2_b }, { &f->addr3_a, &f->addr3_b },
	};
	uint32_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < b->config.nr_addr && i < 4; i++) {
		f->config.addr_cfg |= (uint64_t)(b->config.addr[i].cfg & 0xf) << (4 * i);
		*ab[i][0] = b->config.addr[i].a;
		*ab[i][1] = b->config.addr[i].b;
	}
}

/*
 * The CPU identity libipt picks its errata by: the manifest's, or the
 * one given with --cpu-model (a model newer than libipt, decoded with the
 * errata of a known one), which is said on stderr as well as in the
 * summary: the decode no longer follows the manifest. A model libipt does not know
 * gets no errata workaround (pt-facts section 6): said on stderr, since
 * the decode may then be wrong where an erratum applies.
 */
static void bundle_cpu(const struct pts_bundle *b, const struct pts_decode_opts *o,
		       struct pts_run_in *in, struct pts_decode_summary *sum)
{
	char msg[320];

	in->family = (uint16_t)b->cpu_id.family;
	in->model = (uint8_t)b->cpu_id.model;
	in->stepping = (uint8_t)b->cpu_id.stepping;
	/* the capture's own CPU given again: nothing is overridden, nothing to say */
	if (o && o->family && (o->family != in->family || o->model != in->model ||
			       o->stepping != in->stepping)) {
		snprintf(msg, sizeof(msg), "--cpu-model %u/%u/%u: decoding with the errata of that "
			 "CPU; the capture's CPU is %u/%u/%u", o->family, o->model, o->stepping,
			 b->cpu_id.family, b->cpu_id.model, b->cpu_id.stepping);
		pts_decode_notice(sum, msg);
		in->family = o->family;
		in->model = o->model;
		in->stepping = o->stepping;
	}
	pts_decode_cpu_notice(in, sum);
}

/*
 * A damaged sideband, or one that holds no thread switch (lost from its
 * start), does not say which thread ran: each CPU's trace before its first
 * switch record would be pid 0 (no code images, every name [unknown]). A
 * bundle of one process (ptscope run, attach) still knows: that process,
 * the trigger's thread when the trigger names it (else the main thread),
 * as --pid/--tid do in raw mode; switch records that were read still
 * apply after their time. Said, since a thread of another process would be
 * taken for it. A whole sideband with switches keeps pid 0 before them.
 */
static void single_process(const struct pts_bundle *b, struct pts_run_in *in, bool damaged,
			   struct pts_decode_summary *sum)
{
	const struct pts_bundle_process *p = b->processes;
	bool by_trigger;
	char msg[400];
	size_t i;

	if (!b->sideband_file || b->nr_processes != 1 || p->pid <= 0)
		return;
	for (i = 0; i < in->sb.n && !damaged; i++)
		if (in->sb.recs[i].type == PTS_SB_SWITCH)
			return;
	by_trigger = b->trigger.pid == p->pid && b->trigger.tid > 0;
	in->pid = p->pid;
	in->tid = by_trigger ? b->trigger.tid : p->pid;
	snprintf(msg, sizeof(msg), "%s %s: trace without a thread switch before it is attributed "
		 "to the bundle's only process, pid %d%s%.16s, thread %d (%s)", b->sideband_file,
		 damaged ? "is damaged" : "holds no thread switch", p->pid, p->comm[0] ? " " : "",
		 p->comm, in->tid, by_trigger ? "the trigger's" : "its main thread");
	pts_decode_notice(sum, msg);
}

/*
 * A capture of one process (run, attach: config.filter_pid) whose CR3
 * filter could not cover the process (config.cr3_partial: with KPTI in
 * scope both one CR3_MATCH cannot match the user and the kernel root,
 * docs/abi.md) traced every process: only the traced one's events are
 * decoded into the timeline, by the sideband's (and PIP's) attribution,
 * and the others are counted. Said once, as a notice.
 */
static void only_traced_process(const struct pts_bundle *b, struct pts_run_in *in,
				struct pts_decode_summary *sum)
{
	char msg[300];

	if (!b->config.cr3_partial || b->config.filter_pid <= 0)
		return;
	in->only_pid = b->config.filter_pid;
	snprintf(msg, sizeof(msg), "the capture could not filter on pid %d's page tables "
		 "(cr3_partial: KPTI with scope both) and traced every process: only pid %d's "
		 "events are shown, as the sideband attributes them", b->config.filter_pid,
		 b->config.filter_pid);
	pts_decode_notice(sum, msg);
}

/*
 * A filter range the recorded scope cannot trace (a kernel range in scope
 * user): nothing inside it was traced, which the timeline alone does not
 * say. A notice, never an error: the bundle decodes as recorded.
 */
static void filters_outside_scope(const struct pts_bundle *b, struct pts_decode_summary *sum)
{
	char what[300], msg[384];

	if (!pts_bundle_filters_outside_scope(&b->config, what, sizeof(what)))
		return;
	snprintf(msg, sizeof(msg), "the capture's %s: nothing inside it was traced (decoded as "
		 "recorded)", what);
	pts_decode_notice(sum, msg);
}

/* Each CPU's stop, relative to the trigger (bundle-format.md: stop_tsc). */
static void trigger_to_stop(const struct pts_bundle *b, const struct pts_timeconv *tc,
			    struct pts_decode_summary *sum)
{
	uint64_t trig;
	size_t i;

	if (!b->trigger.tsc)
		return;
	trig = pts_tc_ns(tc, b->trigger.tsc);
	for (i = 0; i < b->nr_cpus && sum->nr_stops < PTS_DEC_MAX_INPUTS; i++) {
		if (!b->cpus[i].stop_tsc)
			continue;
		sum->stops[sum->nr_stops].cpu = b->cpus[i].cpu;
		sum->stops[sum->nr_stops].ns = (int64_t)(pts_tc_ns(tc, b->cpus[i].stop_tsc) - trig);
		sum->nr_stops++;
	}
}

int pts_decode_bundle(const char *dir, const struct pts_decode_opts *o, pts_tl_emit_fn emit,
		      void *emit_ctx, struct pts_decode_summary *sum, struct pts_err *err)
{
	struct pts_bundle *b = NULL;
	struct pts_run_in in;
	unsigned int lost;
	size_t i;
	int rc;

	memset(sum, 0, sizeof(*sum));
	memset(&in, 0, sizeof(in));
	rc = pts_bundle_read_flags(dir, PTS_BUNDLE_READ_PARTIAL, &b, err);
	if (rc)
		return rc;
	sum->scope = b->config.scope;
	snprintf(sum->scope_why, sizeof(sum->scope_why), "recorded in the bundle");
	switch (b->source) {
	case PTS_SOURCE_HARDWARE:
		sum->source = "hardware (a real Intel PT unit)";
		break;
	case PTS_SOURCE_SIMULATED_UNIT:
		sum->source = "simulated PT unit of ptscope.ko (not a hardware trace)";
		break;
	case PTS_SOURCE_REFERENCE_ENCODER:
		sum->source = "reference encoder, ptsynth (not a hardware trace)";
		break;
	default:
		sum->source = "imported raw PT (origin as recorded in the bundle)";
		break;
	}
	if (!b->complete) {
		char msg[512];

		/*
		 * A notice, not only a summary warning: without --summary the user
		 * would take the timeline for the whole capture (bundle-format.md:
		 * "Readers still decode what is there and warn").
		 */
		snprintf(msg, sizeof(msg), "bundle incomplete (manifest.json: \"complete\": false): "
			 "%.250s; decoding what is there, parts of the capture may be missing",
			 b->incomplete_reason[0] ? b->incomplete_reason : "no reason recorded");
		pts_decode_notice(sum, msg);
	}
	if (!b->nr_cpus) {
		rc = pts_err_set(err, ENOENT, "%s: the bundle holds no CPU trace (manifest.json: "
				 "\"cpus\" is empty): nothing to decode; capture again (ptscope "
				 "status shows whether a capture is still armed)", dir);
		goto out;
	}
	/* as many CPUs as the manifest holds (its reader bounds them: NR_CPUS) */
	rc = pts_decode_run_alloc(&in, (unsigned int)b->nr_cpus, err) ?:
	     pts_imgset_new(&in.set, err);
	if (!rc && o && ((o->sysroot && pts_imgset_set_sysroot(in.set, o->sysroot)) ||
			 (o->buildid_dir && pts_imgset_set_buildid_dir(in.set, o->buildid_dir))))
		rc = pts_err_set(err, ENOMEM, "out of memory");
	for (i = 0; !rc && i < b->nr_processes; i++)
		if (b->processes[i].cr3 &&
		    pts_imgset_set_cr3(in.set, b->processes[i].pid, b->processes[i].cr3))
			rc = pts_err_set(err, ENOMEM, "out of memory");
	if (rc)
		goto out;
	bundle_cpu(b, o, &in, sum);
	bundle_addr_filter(b, &in.addr_filter);
	filters_outside_scope(b, sum);
	in.mtc_freq = (uint8_t)((b->config.rtit_ctl >> 14) & 0xf);	/* RTIT_CTL.MTCFreq, bits 17:14 */
	in.nom_freq = (uint8_t)b->cpu_id.nom_freq;
	in.cpuid_15_eax = b->cpu_id.cpuid_15[0];
	in.cpuid_15_ebx = b->cpu_id.cpuid_15[1];
	pts_decode_bundle_time(b, &in.tc, sum);
	trigger_to_stop(b, &in.tc, sum);
	in.scope = b->config.scope;
	in.trigger = &b->trigger;
	in.pid = o && o->pid >= 0 ? o->pid : -1;
	in.tid = o && o->tid >= 0 ? o->tid : -1;
	if (o) {
		in.on_insn = o->on_insn;
		in.insn_ctx = o->insn_ctx;
		in.segment_cap = o->segment_cap;
		in.progress = o->progress;
		in.jobs = o->jobs;
		in.chunk_bytes = o->chunk_bytes;
		in.par_reverse = o->par_reverse;
		in.par_sink = o->par_sink;
		in.par_workers = o->par_workers;
		in.par_flags = o->par_flags;
		in.par_break = o->par_break;
	}
	lost = sum->lost;
	rc = pts_decode_bundle_sideband(b, &in.tc, &in.sb, &in.labels, sum, err);
	if (!rc && sideband_roots(&in.sb, in.set))
		rc = pts_err_set(err, ENOMEM, "out of memory");
	if (!rc)
		rc = pts_decode_bundle_images(b, in.set, &in.sb, &in.tc, o, sum, err);
	if (rc)
		goto out;
	if (in.pid < 0 && in.tid < 0)
		single_process(b, &in, sum->lost != lost, sum);
	only_traced_process(b, &in, sum);
	in.per_cpu_names = !b->sideband_file;
	for (i = 0; i < b->nr_cpus && !rc; i++) {
		char *path = pts_bundle_path(b, b->cpus[i].file);
		struct pts_run_cpu *c = &in.pt[in.nr_pt];

		if (!path) {
			rc = pts_err_set(err, ENOMEM, "out of memory");
			break;
		}
		rc = pts_decode_map_trace(path, b->cpus[i].size, &c->buf, &c->len, &c->maplen, err);
		c->cpu = b->cpus[i].cpu;
		free(path);
		if (rc)
			break;
		cpu_file_size(&b->cpus[i], &in, in.nr_pt, sum);
		/* an empty ring: nothing was traced on that CPU (not a damaged trace) */
		if (!c->len && !c->missing) {
			munmap(c->buf, c->maplen);
			memset(c, 0, sizeof(*c));
			continue;
		}
		in.nr_pt++;
	}
	if (rc)
		goto out;
	for (i = 0; i < b->nr_cpus; i++) {
		static const struct { uint32_t flag; const char *what; } f[] = {
			{ PTS_CPUF_ERROR, "RTIT_STATUS.Error was set at stop: tracing stopped on an output error, the trace may end early" },
			{ PTS_CPUF_STOPPED, "the buffer filled (RTIT_STATUS.Stopped): tracing stopped before the end of the capture" },
			{ PTS_CPUF_CLOBBERED, "RTIT_CTL was changed by someone else while tracing: the trace is partial" },
			{ PTS_CPUF_OFFLINED, "the CPU went offline while tracing" },
			{ PTS_CPUF_MSR_FAULT, "an RTIT MSR access faulted: the trace may be incomplete" },
			{ PTS_CPUF_CONFLICT, "another PT user (perf intel_pt, KVM) changed the PT unit, or an LBR/BTS user that perf keeps apart from PT ran, during the capture: the trace may end early or hold that user's data at its end" },
			{ PTS_CPUF_TRACESTOP, "a TraceStop address range was reached (RTIT_STATUS.Stopped): tracing stopped there as configured" },
			{ PTS_CPUF_VMX, "the CPU was in VMX operation (KVM) during the capture: guest time is missing or the trace ends early" },
		};
		char msg[256];
		size_t k;

		for (k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
			if (!(b->cpus[i].flags & f[k].flag))
				continue;
			/* Stopped by a TraceStop range: the buffer did not fill. */
			if (f[k].flag == PTS_CPUF_STOPPED &&
			    (b->cpus[i].flags & PTS_CPUF_TRACESTOP))
				continue;
			snprintf(msg, sizeof(msg), "cpu %u: %s", b->cpus[i].cpu, f[k].what);
			pts_decode_warn(sum, msg);
		}
		if (b->cpus[i].wrapped) {
			snprintf(msg, sizeof(msg),
				 "cpu %u: the ring wrapped: older trace was overwritten, decoding starts at the first whole PSB",
				 b->cpus[i].cpu);
			pts_decode_warn(sum, msg);
		}
	}
	if (b->sideband_lost) {
		char msg[128];

		snprintf(msg, sizeof(msg), "%llu sideband records were lost: thread attribution may be wrong in places",
			 (unsigned long long)b->sideband_lost);
		pts_decode_warn(sum, msg);
	}
	rc = pts_decode_run(&in, emit, emit_ctx, sum, err);
out:
	pts_decode_run_free(&in);
	pts_bundle_free(b);
	return rc;
}

