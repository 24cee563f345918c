// SPDX-License-Identifier: GPL-2.0
/*
 * manifest.json reader: JSON -> struct pts_bundle with every check that
 * docs/bundle-format.md asks for. Each error names the key by its path
 * (e.g. "cpus[1].head") or the file, and says what to do.
 */
#include "bundle_int.h"
#include "manifest_int.h"
#include "sideband.h"
#include "../util/file.h"
#include "../util/version.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

struct rd {
	const char *dir;
	struct pts_err *err;
	struct pts_bundle *b;
	unsigned int flags;	/* PTS_BUNDLE_READ_* */
};

#define ABSENT 1	/* optional key not present */

static int rd_fail(struct rd *r, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int rd_fail(struct rd *r, int code, const char *fmt, ...)
{
	char msg[PTS_ERR_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return pts_err_set(r->err, code, "%s/%s: %s", r->dir, PTS_BUNDLE_MANIFEST, msg);
}

static const char *type_text(json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null:	return "null";
	case json_type_boolean:	return "a boolean";
	case json_type_double:	return "a non-integer number";
	case json_type_int:	return "an integer";
	case json_type_object:	return "an object";
	case json_type_array:	return "an array";
	case json_type_string:	return "a string";
	}
	return "?";
}

/*
 * Look up at+key in o. Returns 0 with *v set, ABSENT for a missing optional
 * key, -EINVAL for a missing required key or a value of another type.
 */
static int get(struct rd *r, json_object *o, const char *at, const char *key,
	       json_type t, const char *want, bool req, json_object **v)
{
	if (!json_object_object_get_ex(o, key, v)) {
		if (!req)
			return ABSENT;
		return rd_fail(r, EINVAL, "required key %s%s is missing (docs/bundle-format.md "
			       "section 3): the manifest is damaged or not a ptscope bundle",
			       at, key);
	}
	if (json_object_get_type(*v) != t)
		return rd_fail(r, EINVAL, "key %s%s: expected %s, got %s",
			       at, key, want, type_text(*v));
	return 0;
}

static int parse_hex(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	size_t n = 0;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -EINVAL;
	for (s += 2; *s; s++, n++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			return -EINVAL;
		if (n >= 16)
			return -ERANGE;
		v = v << 4 | d;
	}
	if (!n)
		return -EINVAL;
	*out = v;
	return 0;
}

static int hex_value(struct rd *r, json_object *v, const char *at, const char *key,
		     uint64_t max, uint64_t *out)
{
	const char *s = "";

	if (json_object_get_type(v) != json_type_string)
		return rd_fail(r, EINVAL, "key %s%s: expected a \"0x...\" hex string, got %s",
			       at, key, type_text(v));
	s = json_object_get_string(v);
	if (parse_hex(s, out))
		return rd_fail(r, EINVAL, "key %s%s: \"%s\" is not a \"0x...\" hex string of "
			       "1 to 16 digits", at, key, s);
	if (*out > max)
		return rd_fail(r, EINVAL, "key %s%s: %s is out of range (at most 0x%" PRIx64 ")",
			       at, key, s, max);
	return 0;
}

static int rd_hex(struct rd *r, json_object *o, const char *at, const char *key,
		  bool req, uint64_t max, uint64_t *out)
{
	json_object *v;
	int rc;

	if (!json_object_object_get_ex(o, key, &v))
		return get(r, o, at, key, json_type_string, "", req, &v);
	rc = hex_value(r, v, at, key, max, out);
	return rc;
}

static int rd_u64(struct rd *r, json_object *o, const char *at, const char *key,
		  bool req, uint64_t max, uint64_t *out)
{
	json_object *v;
	int rc = get(r, o, at, key, json_type_int, "a non-negative integer", req, &v);

	if (rc)
		return rc;
	/* json-c keeps integers above INT64_MAX as uint64; get_int64 clamps those. */
	if (json_object_get_int64(v) < 0)
		return rd_fail(r, EINVAL, "key %s%s: %" PRId64 " is negative", at, key,
			       json_object_get_int64(v));
	*out = json_object_get_uint64(v);
	if (*out > max)
		return rd_fail(r, EINVAL, "key %s%s: %" PRIu64 " is out of range (at most %" PRIu64 ")",
			       at, key, *out, max);
	return 0;
}

static int rd_u32(struct rd *r, json_object *o, const char *at, const char *key,
		  bool req, uint32_t *out)
{
	uint64_t v;
	int rc = rd_u64(r, o, at, key, req, UINT32_MAX, &v);

	if (!rc)
		*out = (uint32_t)v;
	return rc;
}

static int rd_i32(struct rd *r, json_object *o, const char *at, const char *key,
		  bool req, int32_t *out)
{
	json_object *v;
	int64_t x;
	int rc = get(r, o, at, key, json_type_int, "an integer", req, &v);

	if (rc)
		return rc;
	x = json_object_get_int64(v);
	if (x < INT32_MIN || x > INT32_MAX)
		return rd_fail(r, EINVAL, "key %s%s: %" PRId64 " is out of the 32-bit signed range",
			       at, key, x);
	*out = (int32_t)x;
	return 0;
}

static int rd_bool(struct rd *r, json_object *o, const char *at, const char *key,
		   bool req, bool *out)
{
	json_object *v;
	int rc = get(r, o, at, key, json_type_boolean, "true or false", req, &v);

	if (!rc)
		*out = json_object_get_boolean(v);
	return rc;
}

static int rd_str(struct rd *r, json_object *o, const char *at, const char *key,
		  bool req, const char **out)
{
	json_object *v;
	int rc = get(r, o, at, key, json_type_string, "a string", req, &v);

	if (!rc)
		*out = json_object_get_string(v);
	return rc;
}

/* String into a fixed buffer of `size` bytes (NUL included). */
static int rd_buf(struct rd *r, json_object *o, const char *at, const char *key,
		  bool req, char *buf, size_t size)
{
	const char *s = "";
	int rc = rd_str(r, o, at, key, req, &s);

	if (rc)
		return rc;
	if (strlen(s) >= size)
		return rd_fail(r, EINVAL, "key %s%s: \"%s\" is longer than %zu bytes",
			       at, key, s, size - 1);
	memcpy(buf, s, strlen(s) + 1);
	return 0;
}

static int rd_dup(struct rd *r, json_object *o, const char *at, const char *key,
		  bool req, char **out)
{
	const char *s = "";
	int rc = rd_str(r, o, at, key, req, &s);

	if (rc)
		return rc;
	*out = strdup(s);
	if (!*out)
		return rd_fail(r, ENOMEM, "out of memory");
	return 0;
}

static int rd_obj(struct rd *r, json_object *o, const char *at, const char *key,
		  bool req, json_object **v)
{
	return get(r, o, at, key, json_type_object, "an object", req, v);
}

/* Array; *n receives its length. An absent optional array has length 0. */
static int rd_arr(struct rd *r, json_object *o, const char *at, const char *key,
		  bool req, json_object **v, size_t *n)
{
	int rc = get(r, o, at, key, json_type_array, "an array", req, v);

	*n = rc ? 0 : json_object_array_length(*v);
	return rc;
}

static void *alloc_array(struct rd *r, size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		rd_fail(r, ENOMEM, "out of memory");
	return p;
}

/*
 * "file" and "size" of a bundle file: the name must be valid, the file
 * must exist as a regular file with exactly that size. With `tolerant`
 * (a per-CPU trace, the sideband or an object's copy read with
 * PTS_BUNDLE_READ_PARTIAL) a file of another size is accepted: its size
 * on disk goes to *on_disk and the decoder says what is missing or
 * ignored. With missing (an object's copy, the sideband, a vdso) and
 * PTS_BUNDLE_READ_PARTIAL, a file missing from the bundle is taken as one
 * of 0 bytes and *missing set: the decoder says what is lost (an object's
 * code is looked for as a damaged copy's is, or decodes as gaps; no
 * sideband record is read; the vdso is another process's copy, or gaps).
 */
static int rd_file_sized_or_missing(struct rd *r, json_object *o, const char *at, char **name,
				    uint64_t *size, bool tolerant, bool *missing,
				    uint64_t *on_disk)
{
	const char *s = "";
	struct stat st;
	char *path;
	int rc;

	rc = rd_str(r, o, at, "file", true, &s);
	if (rc)
		return rc;
	rc = rd_u64(r, o, at, "size", true, UINT64_MAX, size);
	if (rc)
		return rc;
	if (!pts_bundle_name_ok(s))
		return rd_fail(r, EINVAL, "key %sfile: \"%s\" is not a bundle file name "
			       "(relative, no \"..\" or empty components)", at, s);
	if (asprintf(&path, "%s/%s", r->dir, s) < 0)
		return rd_fail(r, ENOMEM, "out of memory");
	if (missing)
		*missing = false;
	if (stat(path, &st) < 0 && errno == ENOENT && missing &&
	    (r->flags & PTS_BUNDLE_READ_PARTIAL)) {
		*missing = true;
		st.st_size = 0;
		st.st_mode = S_IFREG;
	} else if (stat(path, &st) < 0) {
		rc = errno;
		rc = pts_err_set(r->err, rc, "%s (named by %sfile) %s: copy the whole %s "
				 "directory again", path, at,
				 rc == ENOENT ? "is missing from the bundle" : strerror(rc),
				 r->dir);
	} else if (!S_ISREG(st.st_mode)) {
		rc = pts_err_set(r->err, EINVAL, "%s (named by %sfile) is not a regular file: "
				 "copy the whole %s directory again", path, at, r->dir);
	} else if ((uint64_t)st.st_size != *size && !tolerant) {
		rc = pts_err_set(r->err, EFBIG, "%s is %jd bytes but %ssize says %" PRIu64
				 ": truncated copy? copy the bundle again", path,
				 (intmax_t)st.st_size, at, *size);
	}
	free(path);
	if (rc)
		return rc;
	if (on_disk)
		*on_disk = (uint64_t)st.st_size;
	*name = strdup(s);
	if (!*name)
		return rd_fail(r, ENOMEM, "out of memory");
	return 0;
}

static int rd_file_sized(struct rd *r, json_object *o, const char *at, char **name,
			 uint64_t *size, bool tolerant, uint64_t *on_disk)
{
	return rd_file_sized_or_missing(r, o, at, name, size, tolerant, NULL, on_disk);
}

static int rd_file(struct rd *r, json_object *o, const char *at, char **name,
		   uint64_t *size)
{
	return rd_file_sized(r, o, at, name, size, false, NULL);
}

/* Fixed-length array of hex u32 registers. */
static int rd_regs(struct rd *r, json_object *o, const char *at, const char *key,
		   uint32_t *regs, size_t n)
{
	json_object *a;
	size_t len, i;
	int rc = rd_arr(r, o, at, key, true, &a, &len);

	if (rc)
		return rc;
	if (len != n)
		return rd_fail(r, EINVAL, "key %s%s: expected %zu registers, got %zu",
			       at, key, n, len);
	for (i = 0; i < n; i++) {
		char k[64];
		uint64_t v;

		snprintf(k, sizeof(k), "%s[%zu]", key, i);
		rc = hex_value(r, json_object_array_get_idx(a, i), at, k, UINT32_MAX, &v);
		if (rc)
			return rc;
		regs[i] = (uint32_t)v;
	}
	return 0;
}

/* An optional key returning ABSENT is not an error: fold it to 0. */
#define TRY(expr) do { int _rc = (expr); if (_rc < 0) return _rc; } while (0)

static int rd_host(struct rd *r, json_object *root)
{
	json_object *o;

	TRY(rd_obj(r, root, "", "host", true, &o));
	TRY(rd_buf(r, o, "host.", "hostname", true, r->b->hostname, sizeof(r->b->hostname)));
	TRY(rd_buf(r, o, "host.", "kernel_release", true, r->b->kernel_release,
		   sizeof(r->b->kernel_release)));
	return 0;
}

static int rd_cpu_id(struct rd *r, json_object *root)
{
	struct pts_bundle_cpu_id *id = &r->b->cpu_id;
	json_object *o;

	TRY(rd_obj(r, root, "", "cpu", true, &o));
	TRY(rd_buf(r, o, "cpu.", "vendor", true, id->vendor, sizeof(id->vendor)));
	TRY(rd_u32(r, o, "cpu.", "family", true, &id->family));
	TRY(rd_u32(r, o, "cpu.", "model", true, &id->model));
	TRY(rd_u32(r, o, "cpu.", "stepping", true, &id->stepping));
	TRY(rd_u32(r, o, "cpu.", "max_phys_addr", true, &id->max_phys_addr));
	TRY(rd_regs(r, o, "cpu.", "cpuid_14_0", id->cpuid_14_0, 4));
	TRY(rd_regs(r, o, "cpu.", "cpuid_14_1", id->cpuid_14_1, 4));
	TRY(rd_u32(r, o, "cpu.", "tsc_khz", true, &id->tsc_khz));
	return 0;
}

static int rd_config(struct rd *r, json_object *root)
{
	struct pts_bundle_config *c = &r->b->config;
	json_object *o, *a;
	const char *s = "";
	size_t n, i;
	unsigned int k;

	TRY(rd_obj(r, root, "", "config", true, &o));
	TRY(rd_str(r, o, "config.", "scope", true, &s));
	if (pts_scope_parse(s, &c->scope))
		return rd_fail(r, EINVAL, "key config.scope: \"%s\" is not \"user\", \"kernel\" "
			       "or \"both\"", s);
	TRY(rd_str(r, o, "config.", "mode", true, &s));
	if (strcmp(s, "snapshot") && strcmp(s, "full"))
		return rd_fail(r, EINVAL, "key config.mode: \"%s\" is not \"snapshot\" or \"full\"", s);
	c->snapshot = !strcmp(s, "snapshot");
	TRY(rd_hex(r, o, "config.", "rtit_ctl", true, UINT64_MAX, &c->rtit_ctl));
	TRY(rd_hex(r, o, "config.", "cr3_match", true, UINT64_MAX, &c->cr3_match));
	TRY(rd_arr(r, o, "config.", "addr_ranges", true, &a, &n));
	if (n > 4)
		return rd_fail(r, EINVAL, "key config.addr_ranges: %zu ranges, at most 4 "
			       "(ADDR0..ADDR3)", n);
	c->nr_addr = (uint32_t)n;
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		char at[48];
		uint64_t cfg;

		snprintf(at, sizeof(at), "config.addr_ranges[%zu].", i);
		if (json_object_get_type(e) != json_type_object)
			return rd_fail(r, EINVAL, "key config.addr_ranges[%zu]: expected an object, "
				       "got %s", i, type_text(e));
		TRY(rd_hex(r, e, at, "a", true, UINT64_MAX, &c->addr[i].a));
		TRY(rd_hex(r, e, at, "b", true, UINT64_MAX, &c->addr[i].b));
		TRY(rd_u64(r, e, at, "cfg", true, 2, &cfg));
		c->addr[i].cfg = (uint32_t)cfg;
	}
	TRY(rd_u64(r, o, "config.", "buffer_size", true, UINT64_MAX, &c->buffer_size));
	TRY(rd_i32(r, o, "config.", "filter_pid", false, &c->filter_pid));
	TRY(rd_bool(r, o, "config.", "cr3_partial", false, &c->cr3_partial));
	TRY(rd_bool(r, o, "config.", "syscall_records", false, &c->syscall_records));
	TRY(rd_buf(r, o, "config.", "trigger_spec", false, c->trigger_spec,
		   sizeof(c->trigger_spec)));
	TRY(rd_u32(r, o, "config.", "post_trigger_us", false, &c->post_trigger_us));

	if (!c->rtit_ctl)	/* unknown (imported): nothing to agree with */
		return 0;
	if (pts_manifest_scope_of_ctl(c->rtit_ctl) != c->scope)
		return rd_fail(r, EINVAL, "key config.scope \"%s\" disagrees with config.rtit_ctl "
			       "0x%" PRIx64 " (OS bit 2, User bit 3)",
			       pts_scope_name(c->scope), c->rtit_ctl);
	for (k = 0; k < 4; k++) {
		uint32_t cfg = k < c->nr_addr ? c->addr[k].cfg : 0;

		if (pts_manifest_addr_cfg_of_ctl(c->rtit_ctl, k) != cfg)
			return rd_fail(r, EINVAL, "key config.addr_ranges[%u].cfg (%u%s) disagrees "
				       "with RTIT_CTL.ADDR%u_CFG %u in config.rtit_ctl", k, cfg,
				       k < c->nr_addr ? "" : ": no such range", k,
				       pts_manifest_addr_cfg_of_ctl(c->rtit_ctl, k));
	}
	return 0;
}

static int rd_timing(struct rd *r, json_object *root)
{
	struct pts_bundle *b = r->b;
	json_object *o, *a;
	uint32_t mtc;
	size_t n, i;
	int rc;

	TRY(rd_obj(r, root, "", "timing", true, &o));
	TRY(rd_regs(r, o, "timing.", "cpuid_15", b->cpu_id.cpuid_15, 3));
	TRY(rd_u32(r, o, "timing.", "nom_freq", true, &b->cpu_id.nom_freq));
	TRY(rd_u32(r, o, "timing.", "tsc_khz", true, &b->tsc_khz));
	rc = rd_u32(r, o, "timing.", "mtc_freq", false, &mtc);
	if (rc < 0)
		return rc;
	if (rc == 0 && mtc != pts_bundle_mtc_freq(b))
		return rd_fail(r, EINVAL, "key timing.mtc_freq %u disagrees with "
			       "config.rtit_ctl.MTCFreq (bits 17:14) %u", mtc,
			       pts_bundle_mtc_freq(b));
	TRY(rd_arr(r, o, "timing.", "time_pairs", true, &a, &n));
	b->time_pairs = alloc_array(r, n, sizeof(*b->time_pairs));
	if (!b->time_pairs)
		return -ENOMEM;
	b->nr_time_pairs = n;
	for (i = 0; i < n; i++) {
		struct pts_bundle_time_pair *t = &b->time_pairs[i];
		json_object *e = json_object_array_get_idx(a, i);
		char at[48];

		snprintf(at, sizeof(at), "timing.time_pairs[%zu].", i);
		if (json_object_get_type(e) != json_type_object)
			return rd_fail(r, EINVAL, "key timing.time_pairs[%zu]: expected an object, "
				       "got %s", i, type_text(e));
		TRY(rd_buf(r, e, at, "when", true, t->when, sizeof(t->when)));
		TRY(rd_u64(r, e, at, "tsc", true, UINT64_MAX, &t->tsc));
		TRY(rd_u64(r, e, at, "realtime_ns", true, UINT64_MAX, &t->realtime_ns));
		TRY(rd_u64(r, e, at, "monotonic_ns", true, UINT64_MAX, &t->monotonic_ns));
	}
	return 0;
}

static int rd_trigger(struct rd *r, json_object *root)
{
	struct pts_bundle_trigger *t = &r->b->trigger;
	json_object *o;

	TRY(rd_obj(r, root, "", "trigger", true, &o));
	TRY(rd_buf(r, o, "trigger.", "reason", true, t->reason, sizeof(t->reason)));
	TRY(rd_buf(r, o, "trigger.", "detail", false, t->detail, sizeof(t->detail)));
	TRY(rd_u64(r, o, "trigger.", "tsc", true, UINT64_MAX, &t->tsc));
	TRY(rd_i32(r, o, "trigger.", "cpu", true, &t->cpu));
	TRY(rd_i32(r, o, "trigger.", "pid", true, &t->pid));
	TRY(rd_i32(r, o, "trigger.", "tid", true, &t->tid));
	return 0;
}

static int rd_cpu_flags(struct rd *r, json_object *e, const char *at, uint32_t *flags)
{
	json_object *a;
	size_t n, i;
	unsigned int bit;

	TRY(rd_arr(r, e, at, "flags", true, &a, &n));
	*flags = 0;
	for (i = 0; i < n; i++) {
		json_object *f = json_object_array_get_idx(a, i);
		const char *s;

		if (json_object_get_type(f) != json_type_string)
			return rd_fail(r, EINVAL, "key %sflags[%zu]: expected a string, got %s",
				       at, i, type_text(f));
		s = json_object_get_string(f);
		for (bit = 0; bit < PTS_CPUF_NR; bit++)
			if (!strcmp(s, pts_bundle_cpu_flag_names[bit]))
				break;
		if (bit == PTS_CPUF_NR)
			return rd_fail(r, EINVAL, "key %sflags[%zu]: unknown flag \"%s\" (known: "
				       "error, stopped, clobbered, offlined, msr_fault, conflict, "
				       "tracestop, vmx)", at, i, s);
		*flags |= 1U << bit;
	}
	return 0;
}

/*
 * A trace file is one CPU's trace: two cpus[] entries naming one file (by
 * any name, or a link) would decode it twice, as two CPUs.
 */
static int rd_cpus_distinct(struct rd *r)
{
	const struct pts_bundle *b = r->b;
	char **paths = calloc(b->nr_cpus ? b->nr_cpus : 1, sizeof(*paths));
	size_t i, x = 0, y = 0;
	int rc = 0;

	if (!paths)
		return rd_fail(r, ENOMEM, "out of memory");
	for (i = 0; i < b->nr_cpus && !rc; i++)
		if (asprintf(&paths[i], "%s/%s", r->dir, b->cpus[i].file) < 0) {
			paths[i] = NULL;
			rc = -ENOMEM;
		}
	if (!rc)
		rc = pts_file_find_same((const char *const *)paths, b->nr_cpus, &x, &y);
	for (i = 0; i < b->nr_cpus; i++)
		free(paths[i]);
	free(paths);
	if (rc < 0)
		return rd_fail(r, ENOMEM, "out of memory");
	if (rc)
		return rd_fail(r, EINVAL, "key cpus[%zu].file: %s is the file of cpus[%zu] (CPU %u) "
			       "too: a trace file holds one CPU's trace; the manifest is damaged, "
			       "copy the bundle again", y, b->cpus[y].file, x, b->cpus[x].cpu);
	return 0;
}

static int rd_cpus(struct rd *r, json_object *root)
{
	struct pts_bundle *b = r->b;
	json_object *a;
	size_t n, i;

	TRY(rd_arr(r, root, "", "cpus", true, &a, &n));
	b->cpus = alloc_array(r, n, sizeof(*b->cpus));
	if (!b->cpus)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct pts_bundle_cpu *c = &b->cpus[i];
		json_object *e = json_object_array_get_idx(a, i);
		uint64_t full;
		char at[32];
		char *file = NULL;
		size_t k;

		snprintf(at, sizeof(at), "cpus[%zu].", i);
		if (json_object_get_type(e) != json_type_object)
			return rd_fail(r, EINVAL, "key cpus[%zu]: expected an object, got %s",
				       i, type_text(e));
		TRY(rd_u32(r, e, at, "cpu", true, &c->cpu));
		/* the sideband's bound (sideband.h): a larger number is damage */
		if (c->cpu >= PTS_SB_MAX_CPUS)
			return rd_fail(r, EINVAL, "key %scpu: CPU %u: no x86-64 Linux kernel numbers "
				       "CPUs past %u (NR_CPUS); the manifest is damaged, copy the "
				       "bundle again", at, c->cpu, PTS_SB_MAX_CPUS - 1);
		for (k = 0; k < i; k++)
			if (b->cpus[k].cpu == c->cpu)
				return rd_fail(r, EINVAL, "key %scpu: CPU %u is listed twice",
					       at, c->cpu);
		TRY(rd_u64(r, e, at, "buffer_size", true, UINT64_MAX, &c->buffer_size));
		TRY(rd_u64(r, e, at, "head", true, UINT64_MAX, &c->head));
		TRY(rd_bool(r, e, at, "wrapped", true, &c->wrapped));
		TRY(rd_hex(r, e, at, "rtit_status", true, UINT64_MAX, &c->rtit_status));
		TRY(rd_cpu_flags(r, e, at, &c->flags));
		TRY(rd_u64(r, e, at, "start_tsc", true, UINT64_MAX, &c->start_tsc));
		TRY(rd_u64(r, e, at, "stop_tsc", true, UINT64_MAX, &c->stop_tsc));
		if (c->head > c->buffer_size)
			return rd_fail(r, EINVAL, "key %shead: %" PRIu64 " is beyond buffer_size %"
				       PRIu64, at, c->head, c->buffer_size);
		TRY(rd_file_sized(r, e, at, &file, &c->size,
				  r->flags & PTS_BUNDLE_READ_PARTIAL, &c->file_size));
		if (strlen(file) >= sizeof(c->file)) {
			free(file);
			return rd_fail(r, EINVAL, "key %sfile: longer than %zu bytes", at,
				       sizeof(c->file) - 1);
		}
		strcpy(c->file, file);
		free(file);
		b->nr_cpus = i + 1;
		full = pts_manifest_cpu_full_size(c);
		if (c->size > full || (b->complete && c->size != full))
			return rd_fail(r, EINVAL, "key %ssize: %" PRIu64 " bytes, but %s ring with "
				       "head %" PRIu64 " holds %" PRIu64 " (section 3.7)", at, c->size,
				       c->wrapped ? "a wrapped" : "an unwrapped", c->head, full);
	}
	b->nr_cpus = n;
	return rd_cpus_distinct(r);
}

static int rd_sideband(struct rd *r, json_object *root)
{
	struct pts_bundle *b = r->b;
	json_object *o;
	int rc = rd_obj(r, root, "", "sideband", false, &o);

	if (rc)
		return rc;
	TRY(rd_file_sized_or_missing(r, o, "sideband.", &b->sideband_file, &b->sideband_size,
				     r->flags & PTS_BUNDLE_READ_PARTIAL, &b->sideband_missing,
				     &b->sideband_file_size));
	TRY(rd_u64(r, o, "sideband.", "lost", true, UINT64_MAX, &b->sideband_lost));
	return 0;
}

static int parse_dev(const char *s, uint32_t *maj, uint32_t *min)
{
	unsigned int a, c;
	int n = 0;

	if (sscanf(s, "%x:%x%n", &a, &c, &n) != 2 || s[n])
		return -EINVAL;
	*maj = a;
	*min = c;
	return 0;
}

static int rd_maps(struct rd *r, json_object *p, const char *pat, const char *key,
		   bool req, struct pts_bundle_map **out, size_t *nr)
{
	json_object *a;
	size_t n, i;
	int rc = rd_arr(r, p, pat, key, req, &a, &n);

	if (rc < 0)
		return rc;
	*out = alloc_array(r, n, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct pts_bundle_map *m = &(*out)[i];
		json_object *e = json_object_array_get_idx(a, i);
		const char *dev = "00:00";
		char at[96];

		snprintf(at, sizeof(at), "%s%s[%zu].", pat, key, i);
		if (json_object_get_type(e) != json_type_object)
			return rd_fail(r, EINVAL, "key %s%s[%zu]: expected an object, got %s",
				       pat, key, i, type_text(e));
		TRY(rd_hex(r, e, at, "start", true, UINT64_MAX, &m->start));
		TRY(rd_hex(r, e, at, "end", true, UINT64_MAX, &m->end));
		TRY(rd_hex(r, e, at, "pgoff", true, UINT64_MAX, &m->pgoff));
		TRY(rd_buf(r, e, at, "perms", true, m->perms, sizeof(m->perms)));
		TRY(rd_str(r, e, at, "dev", false, &dev));
		if (parse_dev(dev, &m->dev_major, &m->dev_minor))
			return rd_fail(r, EINVAL, "key %sdev: \"%s\" is not \"major:minor\" in hex",
				       at, dev);
		TRY(rd_u64(r, e, at, "inode", false, UINT64_MAX, &m->inode));
		rc = rd_dup(r, e, at, "path", false, &m->path);
		if (rc < 0)
			return rc;
		if (rc == ABSENT && !(m->path = strdup("")))
			return rd_fail(r, ENOMEM, "out of memory");
		*nr = i + 1;
		if (m->end < m->start)
			return rd_fail(r, EINVAL, "key %send: 0x%" PRIx64 " is below start 0x%" PRIx64,
				       at, m->end, m->start);
	}
	*nr = n;
	return 0;
}

/* processes[].maps_exec: the maps of each program exec'd during the capture. */
static int rd_maps_exec(struct rd *r, json_object *e, const char *at,
			struct pts_bundle_process *p)
{
	json_object *a;
	size_t n, i;
	int rc = rd_arr(r, e, at, "maps_exec", false, &a, &n);

	if (rc < 0)
		return rc;
	p->maps_exec = alloc_array(r, n, sizeof(*p->maps_exec));
	if (!p->maps_exec)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct pts_bundle_maps_exec *x = &p->maps_exec[i];
		json_object *o = json_object_array_get_idx(a, i);
		char xat[112];

		snprintf(xat, sizeof(xat), "%smaps_exec[%zu].", at, i);
		if (json_object_get_type(o) != json_type_object)
			return rd_fail(r, EINVAL, "key %smaps_exec[%zu]: expected an object, got %s",
				       at, i, type_text(o));
		p->nr_maps_exec = i + 1;
		TRY(rd_u64(r, o, xat, "exec_tsc", true, UINT64_MAX, &x->exec_tsc));
		TRY(rd_maps(r, o, xat, "maps", true, &x->maps, &x->nr_maps));
	}
	p->nr_maps_exec = n;
	return 0;
}

static int rd_process(struct rd *r, json_object *e, const char *at,
		      struct pts_bundle_process *p)
{
	json_object *v, *a;
	size_t n, i;
	int rc;

	TRY(rd_i32(r, e, at, "pid", true, &p->pid));
	TRY(rd_buf(r, e, at, "comm", true, p->comm, sizeof(p->comm)));
	TRY(rd_dup(r, e, at, "exe", false, &p->exe));
	TRY(rd_hex(r, e, at, "cr3", true, UINT64_MAX, &p->cr3));
	TRY(rd_maps(r, e, at, "maps_arm", true, &p->maps_arm, &p->nr_maps_arm));
	TRY(rd_maps(r, e, at, "maps_trigger", false, &p->maps_trigger, &p->nr_maps_trigger));
	TRY(rd_maps_exec(r, e, at, p));
	rc = rd_obj(r, e, at, "vdso", false, &v);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		char vat[96];

		snprintf(vat, sizeof(vat), "%svdso.", at);
		TRY(rd_file_sized_or_missing(r, v, vat, &p->vdso_file, &p->vdso_size, false,
					     &p->vdso_missing, NULL));
		TRY(rd_hex(r, v, vat, "addr", true, UINT64_MAX, &p->vdso_addr));
	}
	rc = rd_arr(r, e, at, "tids", false, &a, &n);
	if (rc < 0)
		return rc;
	p->tids = alloc_array(r, n, sizeof(*p->tids));
	if (!p->tids)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(a, i);
		int64_t x = json_object_get_int64(t);

		if (json_object_get_type(t) != json_type_int || x < INT32_MIN || x > INT32_MAX)
			return rd_fail(r, EINVAL, "key %stids[%zu]: expected a 32-bit integer, got %s",
				       at, i, type_text(t));
		p->tids[i] = (int32_t)x;
	}
	p->nr_tids = n;
	return 0;
}

static int rd_processes(struct rd *r, json_object *root)
{
	struct pts_bundle *b = r->b;
	json_object *a;
	size_t n, i;
	int rc = rd_arr(r, root, "", "processes", false, &a, &n);

	if (rc < 0)
		return rc;
	b->processes = alloc_array(r, n, sizeof(*b->processes));
	if (!b->processes)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		char at[48];

		snprintf(at, sizeof(at), "processes[%zu].", i);
		if (json_object_get_type(e) != json_type_object)
			return rd_fail(r, EINVAL, "key processes[%zu]: expected an object, got %s",
				       i, type_text(e));
		b->nr_processes = i + 1;	/* so that pts_bundle_free frees it */
		TRY(rd_process(r, e, at, &b->processes[i]));
	}
	return 0;
}

static int rd_kernel(struct rd *r, json_object *root)
{
	struct pts_bundle *b = r->b;
	json_object *o, *v, *a;
	uint64_t crc = 0;
	size_t n, i;
	int rc = rd_obj(r, root, "", "kernel", false, &o);

	if (rc)
		return rc;
	rc = rd_obj(r, o, "kernel.", "kallsyms", false, &v);
	if (rc < 0)
		return rc;
	if (!rc)
		TRY(rd_file(r, v, "kernel.kallsyms.", &b->kallsyms_file, &b->kallsyms_size));
	rc = rd_obj(r, o, "kernel.", "modules", false, &v);
	if (rc < 0)
		return rc;
	if (!rc)
		TRY(rd_file(r, v, "kernel.modules.", &b->modules_file, &b->modules_size));
	rc = rd_arr(r, o, "kernel.", "text", false, &a, &n);
	if (rc < 0)
		return rc;
	b->ktext = alloc_array(r, n, sizeof(*b->ktext));
	if (!b->ktext)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct pts_bundle_ktext *k = &b->ktext[i];
		json_object *e = json_object_array_get_idx(a, i);
		char at[48];

		snprintf(at, sizeof(at), "kernel.text[%zu].", i);
		if (json_object_get_type(e) != json_type_object)
			return rd_fail(r, EINVAL, "key kernel.text[%zu]: expected an object, got %s",
				       i, type_text(e));
		b->nr_ktext = i + 1;
		TRY(rd_buf(r, e, at, "name", true, k->name, sizeof(k->name)));
		TRY(rd_hex(r, e, at, "vaddr", true, UINT64_MAX, &k->vaddr));
		TRY(rd_file(r, e, at, &k->file, &k->size));
		rc = rd_hex(r, e, at, "crc32", false, UINT32_MAX, &crc);
		if (rc < 0)
			return rc;
		k->has_crc32 = !rc;
		k->crc32 = (uint32_t)crc;
		rc = rd_hex(r, e, at, "crc32_arm", false, UINT32_MAX, &crc);
		if (rc < 0)
			return rc;
		k->has_crc32_arm = !rc;
		k->crc32_arm = (uint32_t)crc;
	}
	TRY(rd_bool(r, o, "kernel.", "text_hashed_at_arm", false, &b->ktext_hashed));
	rc = rd_arr(r, o, "kernel.", "text_gone", false, &a, &n);
	if (rc < 0)
		return rc;
	b->ktext_gone = alloc_array(r, n, sizeof(*b->ktext_gone));
	if (!b->ktext_gone)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct pts_bundle_ktext_gone *g = &b->ktext_gone[i];
		json_object *e = json_object_array_get_idx(a, i);
		char at[48];

		snprintf(at, sizeof(at), "kernel.text_gone[%zu].", i);
		if (json_object_get_type(e) != json_type_object)
			return rd_fail(r, EINVAL, "key kernel.text_gone[%zu]: expected an object, "
				       "got %s", i, type_text(e));
		b->nr_ktext_gone = i + 1;
		TRY(rd_buf(r, e, at, "name", true, g->name, sizeof(g->name)));
		TRY(rd_hex(r, e, at, "vaddr", true, UINT64_MAX, &g->vaddr));
		TRY(rd_u64(r, e, at, "size", true, UINT64_MAX, &g->size));
		TRY(rd_hex(r, e, at, "crc32_arm", true, UINT32_MAX, &crc));
		g->crc32_arm = (uint32_t)crc;
	}
	return 0;
}

static int rd_objects(struct rd *r, json_object *root)
{
	struct pts_bundle *b = r->b;
	json_object *a;
	size_t n, i;
	int rc = rd_arr(r, root, "", "objects", false, &a, &n);

	if (rc < 0)
		return rc;
	b->objects = alloc_array(r, n, sizeof(*b->objects));
	if (!b->objects)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct pts_bundle_object *ob = &b->objects[i];
		json_object *e = json_object_array_get_idx(a, i), *f;
		char at[48];

		snprintf(at, sizeof(at), "objects[%zu].", i);
		if (json_object_get_type(e) != json_type_object)
			return rd_fail(r, EINVAL, "key objects[%zu]: expected an object, got %s",
				       i, type_text(e));
		b->nr_objects = i + 1;
		TRY(rd_dup(r, e, at, "path", true, &ob->path));
		if (ob->path[0] != '/')
			return rd_fail(r, EINVAL, "key %spath: \"%s\" is not an absolute path",
				       at, ob->path);
		TRY(rd_buf(r, e, at, "build_id", false, ob->build_id, sizeof(ob->build_id)));
		TRY(rd_buf(r, e, at, "not_copied", false, ob->not_copied,
			   sizeof(ob->not_copied)));
		if (json_object_object_get_ex(e, "file", &f))
			TRY(rd_file_sized_or_missing(r, e, at, &ob->file, &ob->size,
						     r->flags & PTS_BUNDLE_READ_PARTIAL,
						     &ob->copy_missing, &ob->file_size));
		else
			TRY(rd_u64(r, e, at, "size", true, UINT64_MAX, &ob->size));
	}
	return 0;
}

static int rd_ground_truth(struct rd *r, json_object *root)
{
	json_object *o;
	int rc = rd_obj(r, root, "", "ground_truth", false, &o);

	if (rc)
		return rc;
	return rd_file(r, o, "ground_truth.", &r->b->ground_truth_file,
		       &r->b->ground_truth_size);
}

/*
 * A version this reader does not know: say which program wrote it (its
 * producer, when the manifest has one), so the user knows which ptscope
 * to decode it with. Versions only grow: one above this reader's is newer.
 */
static int version_refused(struct rd *r, json_object *root, uint64_t ver)
{
	json_object *v;
	const char *by = NULL;

	if (json_object_object_get_ex(root, "producer", &v) &&
	    json_object_is_type(v, json_type_string))
		by = json_object_get_string(v);
	if (ver < PTS_BUNDLE_VERSION)
		return rd_fail(r, EINVAL, "bundle version %" PRIu64 " is not supported: no "
			       "ptscope wrote it (the first version is %d); the manifest is "
			       "damaged, copy the bundle again", ver, PTS_BUNDLE_VERSION);
	if (by)
		return rd_fail(r, EINVAL, "bundle version %" PRIu64 " is not supported: this "
			       "ptscope (%s) reads version %d; it was written by \"%.63s\": use a "
			       "ptscope at least that new", ver, PTS_VERSION, PTS_BUNDLE_VERSION, by);
	return rd_fail(r, EINVAL, "bundle version %" PRIu64 " is not supported: this ptscope "
		       "(%s) reads version %d; use a ptscope at least as new as the one that "
		       "wrote it", ver, PTS_VERSION, PTS_BUNDLE_VERSION);
}

static int rd_top(struct rd *r, json_object *root)
{
	struct pts_bundle *b = r->b;
	const char *s = "";
	uint64_t ver;

	/* Format and version first: later keys mean nothing without them. */
	TRY(rd_str(r, root, "", "format", true, &s));
	if (strcmp(s, PTS_BUNDLE_FORMAT))
		return rd_fail(r, EINVAL, "format is \"%s\", expected \"%s\": not a ptscope bundle",
			       s, PTS_BUNDLE_FORMAT);
	TRY(rd_u64(r, root, "", "version", true, UINT64_MAX, &ver));
	if (ver != PTS_BUNDLE_VERSION)
		return version_refused(r, root, ver);
	b->version = (uint32_t)ver;
	TRY(rd_bool(r, root, "", "complete", true, &b->complete));
	TRY(rd_buf(r, root, "", "incomplete_reason", false, b->incomplete_reason,
		   sizeof(b->incomplete_reason)));
	TRY(rd_str(r, root, "", "source", true, &s));
	if (pts_source_parse(s, &b->source))
		return rd_fail(r, EINVAL, "key source: \"%s\" is not one of hardware, "
			       "simulated-unit, reference-encoder, imported", s);
	TRY(rd_buf(r, root, "", "producer", true, b->producer, sizeof(b->producer)));
	TRY(rd_host(r, root));
	TRY(rd_cpu_id(r, root));
	TRY(rd_config(r, root));
	TRY(rd_timing(r, root));
	TRY(rd_trigger(r, root));
	TRY(rd_cpus(r, root));
	TRY(rd_sideband(r, root));
	TRY(rd_processes(r, root));
	TRY(rd_kernel(r, root));
	TRY(rd_objects(r, root));
	TRY(rd_ground_truth(r, root));
	return 0;
}

static void line_col(const char *text, size_t off, unsigned int *line, unsigned int *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off && text[i]; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/*
 * A directory without a manifest: not a bundle, or a capture that did not
 * finish (the manifest is written last). What to give instead, and, when
 * the directory holds a CPU's trace, how to decode it without the
 * manifest's facts (a raw trace). -ENOENT.
 */
static int no_manifest(const char *dir, const char *path, struct pts_err *err)
{
	char *pt;
	struct stat st;
	bool trace;

	if (asprintf(&pt, "%s/cpu0.pt", dir) < 0)
		return pts_err_set(err, ENOMEM, "out of memory");
	trace = !stat(pt, &st) && S_ISREG(st.st_mode) && st.st_size > 0;
	pts_err_set(err, ENOENT, "%s: %s: not a bundle, or the capture did not finish (the "
		    "manifest is written last): give the NAME.ptscope directory that ptscope run, "
		    "attach or record wrote%s%s%s", path, strerror(ENOENT),
		    trace ? "; this one's traces decode as raw ones, without the manifest's CPU, "
		    "timing and maps (ptscope decode --pt " : "", trace ? pt : "",
		    trace ? " --cpu 0 --elf PROG ...)" : "");
	free(pt);
	return -ENOENT;
}

/*
 * Nothing but white space and zero bytes, or nothing at all: what a copy
 * cut short leaves (a file system that lost a file's blocks in a crash
 * reads zeros).
 */
static bool blank(const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (text[i] && !strchr(" \t\r\n", text[i]))
			return false;
	return true;
}

static int parse_json(struct rd *r, const char *path, const char *text, size_t len,
		      json_object **root)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error jerr;
	unsigned int line, col;
	size_t end;

	if (!tok)
		return rd_fail(r, ENOMEM, "out of memory");
	if (len > INT_MAX) {
		json_tokener_free(tok);
		return pts_err_set(r->err, EFBIG, "%s: %zu bytes is too large for a manifest",
				   path, len);
	}
	*root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!*root || jerr != json_tokener_success) {
		line_col(text, end, &line, &col);
		json_object_put(*root);
		*root = NULL;
		return pts_err_set(r->err, EINVAL, "%s: bad JSON at line %u column %u (byte %zu): %s%s",
				   path, line, col, end,
				   jerr == json_tokener_continue ? "unexpected end of file" :
				   json_tokener_error_desc(jerr),
				   jerr == json_tokener_continue ?
				   " (truncated copy? copy the bundle again)" : "");
	}
	while (end < len && text[end] && strchr(" \t\r\n", text[end]))
		end++;
	if (end < len) {
		line_col(text, end, &line, &col);
		json_object_put(*root);
		*root = NULL;
		return pts_err_set(r->err, EINVAL, "%s: bad JSON at line %u column %u (byte %zu): "
				   "text after the manifest object", path, line, col, end);
	}
	if (json_object_get_type(*root) != json_type_object) {
		json_object_put(*root);
		*root = NULL;
		return pts_err_set(r->err, EINVAL, "%s: the manifest must be a JSON object", path);
	}
	return 0;
}

int pts_bundle_read(const char *dir, struct pts_bundle **out, struct pts_err *err)
{
	return pts_bundle_read_flags(dir, 0, out, err);
}

int pts_bundle_read_flags(const char *dir, unsigned int flags, struct pts_bundle **out,
			  struct pts_err *err)
{
	struct rd r = { .dir = dir, .err = err, .flags = flags };
	json_object *root = NULL;
	struct stat st;
	char *path = NULL, *text = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	if (stat(dir, &st) < 0)
		return pts_err_set(err, errno, "bundle %s: %s%s", dir, strerror(errno),
				   errno == ENOENT ? " (give the NAME.ptscope directory that "
				   "ptscope run, attach or record wrote)" : "");
	if (!S_ISDIR(st.st_mode))
		return pts_err_set(err, ENOTDIR, "bundle %s is not a directory (a bundle is the "
				   "NAME.ptscope directory holding %s)", dir, PTS_BUNDLE_MANIFEST);
	if (asprintf(&path, "%s/%s", dir, PTS_BUNDLE_MANIFEST) < 0)
		return pts_err_set(err, ENOMEM, "out of memory");
	rc = pts_file_read_all(path, "manifest", PTS_BUNDLE_MANIFEST_MAX, &text, &len, err);
	if (rc == -ENOENT)
		rc = no_manifest(dir, path, err);
	if (rc)
		goto out;
	if (blank(text, len)) {
		/*
		 * The manifest is written whole, synced and renamed into place
		 * last: an empty one is not a capture's. A copy cut short (or a
		 * disk that filled while copying) leaves it so, and no other
		 * file holds the CPU, timing and configuration the trace needs.
		 */
		rc = pts_err_set(err, EINVAL, "%s is empty (%zu bytes%s): the bundle was cut short after "
				 "the capture (a copy that did not finish, or a disk that filled up; "
				 "ptscope writes the manifest whole, last): copy the whole %s directory "
				 "again from the machine that captured it, or, with no complete copy "
				 "left, capture again (ptscope run, attach or record -o %s)",
				 path, len, len ? " of white space or zeros" : "", dir, dir);
		goto out;
	}
	rc = parse_json(&r, path, text, len, &root);
	if (rc)
		goto out;
	r.b = pts_bundle_new();
	if (!r.b) {
		rc = pts_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	r.b->dir = strdup(dir);
	if (!r.b->dir) {
		rc = pts_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	rc = rd_top(&r, root);
	if (rc > 0)
		rc = 0;
out:
	if (rc)
		pts_bundle_free(r.b);
	else
		*out = r.b;
	json_object_put(root);
	free(text);
	free(path);
	return rc;
}
