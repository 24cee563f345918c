// SPDX-License-Identifier: GPL-2.0
/*
 * The manifest of a ptsynth bundle (docs/bundle-format.md): source
 * "reference-encoder", the CPU identity of the modelled PT CPU, the
 * RTIT_CTL the encoder modelled, one CPU file, the process with its maps
 * and vdso, the copied objects and the ground truth.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "capture/elfinfo.h"
#include "out.h"
#include "ptsynth_cpu.h"
#include "util/version.h"

static struct pts_bundle_map *dup_maps(const struct out_maps *m)
{
	struct pts_bundle_map *v = calloc(m->n ? m->n : 1, sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < m->n; i++) {
		v[i] = m->v[i];
		v[i].path = strdup(m->v[i].path);
		if (!v[i].path) {
			while (i--)
				free(v[i].path);
			free(v);
			return NULL;
		}
	}
	return v;
}

static int add_objects(struct pts_bundle *b, const struct out *out)
{
	const struct out_maps *m = out_image_maps(out);
	size_t i, j;

	b->objects = calloc(m->n ? m->n : 1, sizeof(*b->objects));
	if (!b->objects)
		return -ENOMEM;
	for (i = 0; i < m->n; i++) {
		const struct pts_bundle_map *mp = &m->v[i];
		struct pts_bundle_object *ob;
		bool dup = false;

		if (mp->path[0] != '/' || mp->perms[2] != 'x')
			continue;
		for (j = 0; j < b->nr_objects; j++)
			if (!strcmp(b->objects[j].path, mp->path))
				dup = true;
		if (dup)
			continue;
		ob = &b->objects[b->nr_objects++];
		ob->path = strdup(mp->path);
		if (asprintf(&ob->file, "objects%s", mp->path) < 0)
			ob->file = NULL;
		if (!ob->path || !ob->file)
			return -ENOMEM;
		ob->size = 0;		/* the writer takes the copy's size */
		if (pts_elf_build_id(mp->path, ob->build_id, NULL))
			ob->build_id[0] = 0;
	}
	return 0;
}

int out_write_manifest(struct out *out, struct ptsynth_enc *enc, uint64_t tsc,
		       uint64_t stream_len, const struct run_summary *sum, struct pts_err *err)
{
	const struct run_opts *o = out->o;
	struct pts_bundle *b = pts_bundle_new();
	struct pts_bundle_process *p;
	struct pts_bundle_cpu *c;
	struct utsname un;
	int e = -ENOMEM;

	if (!b)
		return pts_err_set(err, ENOMEM, "out of memory");
	b->source = PTS_SOURCE_REFERENCE_ENCODER;
	strcpy(b->producer, "ptsynth " PTS_VERSION);
	if (uname(&un) == 0) {
		/* uname fields are 65 bytes: keep what fits. */
		memcpy(b->hostname, un.nodename, sizeof(b->hostname) - 1);
		memcpy(b->kernel_release, un.release, sizeof(b->kernel_release) - 1);
	}
	ptsynth_cpu_id(&b->cpu_id);
	b->tsc_khz = b->cpu_id.tsc_khz;

	b->config.scope = PTS_SCOPE_USER;
	b->config.snapshot = o->wrap_size != 0;
	b->config.rtit_ctl = ptsynth_config_rtit_ctl(&o->cfg);
	b->config.syscall_records = o->syscalls;
	if (o->wrap_size) {
		b->config.buffer_size = o->wrap_size;
	} else {
		/* Full mode: a buffer large enough for the whole stream. */
		b->config.buffer_size = 4096;
		while (b->config.buffer_size < stream_len)
			b->config.buffer_size <<= 1;
	}

	b->time_pairs = calloc(1, sizeof(*b->time_pairs));
	if (!b->time_pairs)
		goto out;
	b->nr_time_pairs = 1;
	strcpy(b->time_pairs[0].when, "start");
	b->time_pairs[0].tsc = out->start_tsc;
	b->time_pairs[0].realtime_ns = out->start_realtime_ns;
	b->time_pairs[0].monotonic_ns = out->start_monotonic_ns;

	snprintf(b->trigger.reason, sizeof(b->trigger.reason), "%s",
		 sum->trigger_hit ? "uprobe" :
		 sum->exec_stopped || sum->limit_stopped ? "none" : "exit");
	b->trigger.tsc = tsc;
	b->trigger.cpu = 0;
	b->trigger.pid = out->pid;
	b->trigger.tid = out->pid;
	if (sum->trigger_hit) {
		snprintf(b->trigger.detail, sizeof(b->trigger.detail), "%#" PRIx64,
			 o->trigger_at);
		b->trigger.tid = sum->trigger_tid;
	}

	b->cpus = calloc(1, sizeof(*b->cpus));
	if (!b->cpus)
		goto out;
	b->nr_cpus = 1;
	c = &b->cpus[0];
	c->cpu = 0;
	snprintf(c->file, sizeof(c->file), "cpu0.pt");
	c->buffer_size = b->config.buffer_size;
	c->wrapped = o->wrap_size && stream_len > o->wrap_size;
	c->size = c->wrapped ? o->wrap_size : stream_len;
	c->head = o->wrap_size ? stream_len % o->wrap_size : stream_len;
	c->start_tsc = out->start_tsc;
	c->stop_tsc = tsc;

	b->sideband_file = strdup("sideband.bin");
	b->ground_truth_file = strdup("ground-truth.txt");
	b->processes = calloc(1, sizeof(*b->processes));
	if (!b->sideband_file || !b->ground_truth_file || !b->processes)
		goto out;
	b->nr_processes = 1;
	p = &b->processes[0];
	p->pid = out->pid;
	snprintf(p->comm, sizeof(p->comm), "%s", out->comm);
	p->exe = strdup(out->exe);
	p->maps_arm = dup_maps(&out->arm);
	p->nr_maps_arm = out->arm.n;
	p->maps_trigger = dup_maps(&out->exit);
	p->nr_maps_trigger = out->exit.n;
	p->tids = malloc((out->nr_tids ? out->nr_tids : 1) * sizeof(*p->tids));
	if (!p->exe || !p->maps_arm || !p->maps_trigger || !p->tids)
		goto out;
	memcpy(p->tids, out->tids, out->nr_tids * sizeof(*p->tids));
	p->nr_tids = out->nr_tids;
	if (out->vdso_size) {
		if (asprintf(&p->vdso_file, "vdso/%d.so", out->pid) < 0) {
			p->vdso_file = NULL;
			goto out;
		}
		p->vdso_addr = out->vdso_addr;
		p->vdso_size = out->vdso_size;
	}
	if (add_objects(b, out))
		goto out;
	e = pts_bundle_write_manifest(out->dir, b, err);
	pts_bundle_free(b);
	return e;
out:
	pts_bundle_free(b);
	return pts_err_set(err, e, "out of memory writing the manifest");
}
