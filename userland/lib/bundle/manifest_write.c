// SPDX-License-Identifier: GPL-2.0
/*
 * manifest.json writer: struct pts_bundle -> JSON as docs/bundle-format.md
 * section 3 lays it out. Registers and addresses go out as "0x..." strings,
 * counts/sizes/TSC as 64-bit JSON integers. Every named file is stat'ed so
 * the recorded sizes are the real ones.
 */
#include "bundle_int.h"
#include "manifest_int.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

struct wr {
	const char *dir;
	struct pts_err *err;
	int rc;			/* first error, sticky */
};

static int wr_fail(struct wr *w, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int wr_fail(struct wr *w, int code, const char *fmt, ...)
{
	char msg[PTS_ERR_MSG_LEN];
	va_list ap;

	if (w->rc)
		return w->rc;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	w->rc = pts_err_set(w->err, code, "writing %s/%s: %s", w->dir,
			    PTS_BUNDLE_MANIFEST, msg);
	return w->rc;
}

static json_object *hex(uint64_t v)
{
	char s[24];

	snprintf(s, sizeof(s), "0x%" PRIx64, v);
	return json_object_new_string(s);
}

static void put(json_object *o, const char *key, json_object *v)
{
	json_object_object_add(o, key, v);
}

static void put_hex(json_object *o, const char *key, uint64_t v)
{
	put(o, key, hex(v));
}

static void put_uint(json_object *o, const char *key, uint64_t v)
{
	put(o, key, json_object_new_uint64(v));
}

static void put_int(json_object *o, const char *key, int32_t v)
{
	put(o, key, json_object_new_int(v));
}

static void put_bool(json_object *o, const char *key, bool v)
{
	put(o, key, json_object_new_boolean(v));
}

/* A fixed-size char array must hold a NUL: else the struct is corrupt. */
static void put_buf(struct wr *w, json_object *o, const char *at, const char *key,
		    const char *buf, size_t size)
{
	if (strnlen(buf, size) == size) {
		wr_fail(w, EINVAL, "%s%s: string is not NUL-terminated within %zu bytes",
			at, key, size);
		return;
	}
	put(o, key, json_object_new_string(buf));
}

static void put_str(json_object *o, const char *key, const char *s)
{
	put(o, key, json_object_new_string(s ? s : ""));
}

/*
 * "file" and "size" keys for a bundle file; the size is the file's own.
 * want = 0 takes it; otherwise it must agree.
 */
static uint64_t put_file(struct wr *w, json_object *o, const char *at,
			 const char *name, uint64_t want)
{
	uint64_t got = 0;
	struct stat st;
	char *path;

	if (!pts_bundle_name_ok(name)) {
		wr_fail(w, EINVAL, "%sfile: bad bundle file name \"%s\" (relative, no \"..\")",
			at, name ? name : "(null)");
		return 0;
	}
	if (asprintf(&path, "%s/%s", w->dir, name) < 0) {
		wr_fail(w, ENOMEM, "out of memory");
		return 0;
	}
	if (stat(path, &st) < 0) {
		wr_fail(w, errno, "%sfile: %s: %s (write the data files before the manifest; "
			"drop the reference and mark the bundle incomplete if it could not be written)",
			at, path, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		wr_fail(w, EINVAL, "%sfile: %s is not a regular file", at, path);
	} else if (want && (uint64_t)st.st_size != want) {
		wr_fail(w, EINVAL, "%ssize: the struct says %" PRIu64 " bytes but %s has %jd",
			at, want, path, (intmax_t)st.st_size);
	} else {
		got = (uint64_t)st.st_size;
		put_str(o, "file", name);
		put_uint(o, "size", got);
	}
	free(path);
	return got;
}

static json_object *file_obj(struct wr *w, const char *at, const char *name,
			     uint64_t want)
{
	json_object *o = json_object_new_object();

	put_file(w, o, at, name, want);
	return o;
}

static json_object *u32_hex_array(const uint32_t *v, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, hex(v[i]));
	return a;
}

static void check_ctl(struct wr *w, const struct pts_bundle *b)
{
	const struct pts_bundle_config *c = &b->config;
	unsigned int n;

	if (c->nr_addr > 4) {
		wr_fail(w, EINVAL, "config.addr_ranges: %u ranges, at most 4 (ADDR0..ADDR3)",
			c->nr_addr);
		return;
	}
	if (pts_scope_name(c->scope)[0] == '?') {
		wr_fail(w, EINVAL, "config.scope: %d is not user, kernel or both", c->scope);
		return;
	}
	if (!c->rtit_ctl)	/* unknown (imported trace): nothing to agree with */
		return;
	if (pts_manifest_scope_of_ctl(c->rtit_ctl) != c->scope) {
		wr_fail(w, EINVAL, "config.scope \"%s\" disagrees with RTIT_CTL 0x%" PRIx64
			" (OS bit 2, User bit 3)", pts_scope_name(c->scope), c->rtit_ctl);
		return;
	}
	for (n = 0; n < 4; n++) {
		uint32_t cfg = n < c->nr_addr ? c->addr[n].cfg : 0;

		if (pts_manifest_addr_cfg_of_ctl(c->rtit_ctl, n) != cfg) {
			wr_fail(w, EINVAL, "config.addr_ranges[%u].cfg %u disagrees with RTIT_CTL.ADDR%u_CFG %u",
				n, cfg, n, pts_manifest_addr_cfg_of_ctl(c->rtit_ctl, n));
			return;
		}
	}
}

static json_object *w_config(struct wr *w, const struct pts_bundle *b)
{
	const struct pts_bundle_config *c = &b->config;
	json_object *o = json_object_new_object(), *a;
	uint32_t n;

	check_ctl(w, b);
	put_str(o, "scope", pts_scope_name(c->scope));
	put_str(o, "mode", c->snapshot ? "snapshot" : "full");
	put_hex(o, "rtit_ctl", c->rtit_ctl);
	put_hex(o, "cr3_match", c->cr3_match);
	a = json_object_new_array();
	for (n = 0; n < c->nr_addr && n < 4; n++) {
		json_object *r = json_object_new_object();

		put_hex(r, "a", c->addr[n].a);
		put_hex(r, "b", c->addr[n].b);
		put_uint(r, "cfg", c->addr[n].cfg);
		json_object_array_add(a, r);
	}
	put(o, "addr_ranges", a);
	put_uint(o, "buffer_size", c->buffer_size);
	put_int(o, "filter_pid", c->filter_pid);
	put_bool(o, "cr3_partial", c->cr3_partial);
	if (c->syscall_records)
		put_bool(o, "syscall_records", true);
	put_buf(w, o, "config.", "trigger_spec", c->trigger_spec, sizeof(c->trigger_spec));
	put_uint(o, "post_trigger_us", c->post_trigger_us);
	return o;
}

static json_object *w_cpu(struct wr *w, const struct pts_bundle *b,
			  const struct pts_bundle_cpu *c, size_t i)
{
	uint64_t size, full = pts_manifest_cpu_full_size(c);
	json_object *o = json_object_new_object(), *fl;
	char at[48];
	unsigned int bit;

	snprintf(at, sizeof(at), "cpus[%zu].", i);
	if (c->head > c->buffer_size)
		wr_fail(w, EINVAL, "%shead %" PRIu64 " is beyond buffer_size %" PRIu64,
			at, c->head, c->buffer_size);
	if (c->flags & ~PTS_CPUF_ALL)
		wr_fail(w, EINVAL, "%sflags 0x%x has unknown bits", at, c->flags);
	put_uint(o, "cpu", c->cpu);
	size = put_file(w, o, at, c->file, c->size);
	if (!w->rc && (size > full || (b->complete && size != full)))
		wr_fail(w, EINVAL, "%ssize: %s has %" PRIu64 " bytes but %s ring with head %" PRIu64
			" holds %" PRIu64 " (linearise it with ring.h)", at, c->file, size,
			c->wrapped ? "a wrapped" : "an unwrapped", c->head, full);
	put_uint(o, "buffer_size", c->buffer_size);
	put_uint(o, "head", c->head);
	put_bool(o, "wrapped", c->wrapped);
	put_hex(o, "rtit_status", c->rtit_status);
	fl = json_object_new_array();
	for (bit = 0; bit < PTS_CPUF_NR; bit++)
		if (c->flags & (1U << bit))
			json_object_array_add(fl,
				json_object_new_string(pts_bundle_cpu_flag_names[bit]));
	put(o, "flags", fl);
	put_uint(o, "start_tsc", c->start_tsc);
	put_uint(o, "stop_tsc", c->stop_tsc);
	return o;
}

static json_object *w_maps(const struct pts_bundle_map *m, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++) {
		json_object *o = json_object_new_object();
		char dev[24];

		put_hex(o, "start", m[i].start);
		put_hex(o, "end", m[i].end);
		put_hex(o, "pgoff", m[i].pgoff);
		put_str(o, "perms", m[i].perms);
		snprintf(dev, sizeof(dev), "%02x:%02x", m[i].dev_major, m[i].dev_minor);
		put_str(o, "dev", dev);
		put_uint(o, "inode", m[i].inode);
		put_str(o, "path", m[i].path);
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *w_process(struct wr *w, const struct pts_bundle_process *p, size_t i)
{
	json_object *o = json_object_new_object(), *t;
	char at[64];
	size_t k;

	snprintf(at, sizeof(at), "processes[%zu].", i);
	put_int(o, "pid", p->pid);
	put_buf(w, o, at, "comm", p->comm, sizeof(p->comm));
	if (p->exe)
		put_str(o, "exe", p->exe);
	put_hex(o, "cr3", p->cr3);
	put(o, "maps_arm", w_maps(p->maps_arm, p->nr_maps_arm));
	put(o, "maps_trigger", w_maps(p->maps_trigger, p->nr_maps_trigger));
	if (p->nr_maps_exec) {
		json_object *x = json_object_new_array();

		for (k = 0; k < p->nr_maps_exec; k++) {
			json_object *e = json_object_new_object();

			put_uint(e, "exec_tsc", p->maps_exec[k].exec_tsc);
			put(e, "maps", w_maps(p->maps_exec[k].maps, p->maps_exec[k].nr_maps));
			json_object_array_add(x, e);
		}
		put(o, "maps_exec", x);
	}
	if (p->vdso_file) {
		json_object *v;

		snprintf(at, sizeof(at), "processes[%zu].vdso.", i);
		v = file_obj(w, at, p->vdso_file, p->vdso_size);
		put_hex(v, "addr", p->vdso_addr);
		put(o, "vdso", v);
	}
	t = json_object_new_array();
	for (k = 0; k < p->nr_tids; k++)
		json_object_array_add(t, json_object_new_int(p->tids[k]));
	put(o, "tids", t);
	return o;
}

static json_object *w_kernel(struct wr *w, const struct pts_bundle *b)
{
	json_object *o = json_object_new_object(), *a;
	size_t i;

	if (b->kallsyms_file)
		put(o, "kallsyms", file_obj(w, "kernel.kallsyms.", b->kallsyms_file,
					    b->kallsyms_size));
	if (b->modules_file)
		put(o, "modules", file_obj(w, "kernel.modules.", b->modules_file,
					   b->modules_size));
	a = json_object_new_array();
	for (i = 0; i < b->nr_ktext; i++) {
		const struct pts_bundle_ktext *k = &b->ktext[i];
		json_object *t = json_object_new_object();
		char at[48];

		snprintf(at, sizeof(at), "kernel.text[%zu].", i);
		put_buf(w, t, at, "name", k->name, sizeof(k->name));
		put_file(w, t, at, k->file, k->size);
		put_hex(t, "vaddr", k->vaddr);
		if (k->has_crc32)
			put_hex(t, "crc32", k->crc32);
		if (k->has_crc32_arm)
			put_hex(t, "crc32_arm", k->crc32_arm);
		json_object_array_add(a, t);
	}
	put(o, "text", a);
	if (b->ktext_hashed) {
		put_bool(o, "text_hashed_at_arm", true);
		a = json_object_new_array();
		for (i = 0; i < b->nr_ktext_gone; i++) {
			const struct pts_bundle_ktext_gone *g = &b->ktext_gone[i];
			json_object *t = json_object_new_object();
			char at[48];

			snprintf(at, sizeof(at), "kernel.text_gone[%zu].", i);
			put_buf(w, t, at, "name", g->name, sizeof(g->name));
			put_hex(t, "vaddr", g->vaddr);
			put_uint(t, "size", g->size);
			put_hex(t, "crc32_arm", g->crc32_arm);
			json_object_array_add(a, t);
		}
		put(o, "text_gone", a);
	}
	return o;
}

static json_object *w_objects(struct wr *w, const struct pts_bundle *b)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < b->nr_objects; i++) {
		const struct pts_bundle_object *ob = &b->objects[i];
		json_object *o = json_object_new_object();
		char at[48];

		snprintf(at, sizeof(at), "objects[%zu].", i);
		if (!ob->path || ob->path[0] != '/')
			wr_fail(w, EINVAL, "%spath: must be an absolute path, got \"%s\"",
				at, ob->path ? ob->path : "(null)");
		put_str(o, "path", ob->path);
		if (ob->file)
			put_file(w, o, at, ob->file, ob->size); /* sets "size" too */
		else
			put_uint(o, "size", ob->size);
		put_buf(w, o, at, "build_id", ob->build_id, sizeof(ob->build_id));
		/* only when said: a bundle whose files were all read is as before */
		if (ob->not_copied[0])
			put_buf(w, o, at, "not_copied", ob->not_copied, sizeof(ob->not_copied));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *build(struct wr *w, const struct pts_bundle *b)
{
	json_object *root = json_object_new_object(), *o, *a;
	const struct pts_bundle_cpu_id *id = &b->cpu_id;
	size_t i;

	put_str(root, "format", PTS_BUNDLE_FORMAT);
	put_uint(root, "version", PTS_BUNDLE_VERSION);
	put_bool(root, "complete", b->complete);
	put_buf(w, root, "", "incomplete_reason", b->incomplete_reason,
		sizeof(b->incomplete_reason));
	if (pts_source_name(b->source)[0] == '?')
		wr_fail(w, EINVAL, "source: %d is not a known source", b->source);
	put_str(root, "source", pts_source_name(b->source));
	put_buf(w, root, "", "producer", b->producer, sizeof(b->producer));

	o = json_object_new_object();
	put_buf(w, o, "host.", "hostname", b->hostname, sizeof(b->hostname));
	put_buf(w, o, "host.", "kernel_release", b->kernel_release,
		sizeof(b->kernel_release));
	put(root, "host", o);

	o = json_object_new_object();
	put_buf(w, o, "cpu.", "vendor", id->vendor, sizeof(id->vendor));
	put_uint(o, "family", id->family);
	put_uint(o, "model", id->model);
	put_uint(o, "stepping", id->stepping);
	put_uint(o, "max_phys_addr", id->max_phys_addr);
	put(o, "cpuid_14_0", u32_hex_array(id->cpuid_14_0, 4));
	put(o, "cpuid_14_1", u32_hex_array(id->cpuid_14_1, 4));
	put_uint(o, "tsc_khz", id->tsc_khz);
	put(root, "cpu", o);

	put(root, "config", w_config(w, b));

	o = json_object_new_object();
	put(o, "cpuid_15", u32_hex_array(id->cpuid_15, 3));
	put_uint(o, "nom_freq", id->nom_freq);
	put_uint(o, "tsc_khz", b->tsc_khz);
	put_uint(o, "mtc_freq", pts_bundle_mtc_freq(b));
	a = json_object_new_array();
	for (i = 0; i < b->nr_time_pairs; i++) {
		const struct pts_bundle_time_pair *t = &b->time_pairs[i];
		json_object *p = json_object_new_object();
		char at[48];

		snprintf(at, sizeof(at), "timing.time_pairs[%zu].", i);
		put_buf(w, p, at, "when", t->when, sizeof(t->when));
		put_uint(p, "tsc", t->tsc);
		put_uint(p, "realtime_ns", t->realtime_ns);
		put_uint(p, "monotonic_ns", t->monotonic_ns);
		json_object_array_add(a, p);
	}
	put(o, "time_pairs", a);
	put(root, "timing", o);

	o = json_object_new_object();
	put_buf(w, o, "trigger.", "reason", b->trigger.reason, sizeof(b->trigger.reason));
	put_buf(w, o, "trigger.", "detail", b->trigger.detail, sizeof(b->trigger.detail));
	put_uint(o, "tsc", b->trigger.tsc);
	put_int(o, "cpu", b->trigger.cpu);
	put_int(o, "pid", b->trigger.pid);
	put_int(o, "tid", b->trigger.tid);
	put(root, "trigger", o);

	a = json_object_new_array();
	for (i = 0; i < b->nr_cpus; i++)
		json_object_array_add(a, w_cpu(w, b, &b->cpus[i], i));
	put(root, "cpus", a);

	if (b->sideband_file) {
		o = file_obj(w, "sideband.", b->sideband_file, b->sideband_size);
		put_uint(o, "lost", b->sideband_lost);
		put(root, "sideband", o);
	}

	a = json_object_new_array();
	for (i = 0; i < b->nr_processes; i++)
		json_object_array_add(a, w_process(w, &b->processes[i], i));
	put(root, "processes", a);

	put(root, "kernel", w_kernel(w, b));
	put(root, "objects", w_objects(w, b));

	if (b->ground_truth_file)
		put(root, "ground_truth", file_obj(w, "ground_truth.", b->ground_truth_file,
						   b->ground_truth_size));
	return root;
}

int pts_bundle_write_manifest(const char *dir, const struct pts_bundle *b,
			      struct pts_err *err)
{
	struct wr w = { .dir = dir, .err = err };
	struct iovec iov[2];
	json_object *root;
	const char *text;
	size_t len;
	int rc;

	if (!dir || !b)
		return pts_err_set(err, EINVAL, "pts_bundle_write_manifest: NULL argument");
	root = build(&w, b);
	if (w.rc) {
		json_object_put(root);
		return w.rc;
	}
	text = json_object_to_json_string_length(root,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	if (!text) {
		json_object_put(root);
		return pts_err_set(err, ENOMEM, "out of memory formatting the manifest");
	}
	iov[0].iov_base = (void *)text;
	iov[0].iov_len = len;
	iov[1].iov_base = "\n";
	iov[1].iov_len = 1;
	rc = pts_bundle_write_atomic(dir, PTS_BUNDLE_MANIFEST, iov, 2, true, err);
	json_object_put(root);
	return rc;
}
