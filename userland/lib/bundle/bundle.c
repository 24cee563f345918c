// SPDX-License-Identifier: GPL-2.0
/*
 * Bundle object life cycle, enum names, and the atomic file writers used
 * for every data file and for manifest.json (docs/bundle-format.md
 * section 1: temporary name, then rename, manifest last).
 */
#include "bundle_int.h"
#include "../util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptscope/rtit.h"

const char *const pts_bundle_cpu_flag_names[PTS_CPUF_NR] = {
	"error", "stopped", "clobbered", "offlined", "msr_fault", "conflict",
	"tracestop", "vmx",
};

struct pts_bundle *pts_bundle_new(void)
{
	struct pts_bundle *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->version = PTS_BUNDLE_VERSION;
	b->complete = true;
	b->source = PTS_SOURCE_HARDWARE;
	b->config.scope = PTS_SCOPE_USER;
	b->config.snapshot = true;
	b->trigger.cpu = -1;
	b->trigger.pid = -1;
	b->trigger.tid = -1;
	snprintf(b->trigger.reason, sizeof(b->trigger.reason), "none");
	return b;
}

static void free_maps(struct pts_bundle_map *m, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(m[i].path);
	free(m);
}

void pts_bundle_free(struct pts_bundle *b)
{
	size_t i;

	if (!b)
		return;
	free(b->dir);
	free(b->time_pairs);
	free(b->cpus);
	free(b->sideband_file);
	for (i = 0; i < b->nr_processes; i++) {
		struct pts_bundle_process *p = &b->processes[i];

		free(p->exe);
		free_maps(p->maps_arm, p->nr_maps_arm);
		free_maps(p->maps_trigger, p->nr_maps_trigger);
		for (size_t k = 0; p->maps_exec && k < p->nr_maps_exec; k++)
			free_maps(p->maps_exec[k].maps, p->maps_exec[k].nr_maps);
		free(p->maps_exec);
		free(p->vdso_file);
		free(p->tids);
	}
	free(b->processes);
	free(b->kallsyms_file);
	free(b->modules_file);
	for (i = 0; i < b->nr_ktext; i++)
		free(b->ktext[i].file);
	free(b->ktext);
	free(b->ktext_gone);
	for (i = 0; i < b->nr_objects; i++) {
		free(b->objects[i].path);
		free(b->objects[i].file);
	}
	free(b->objects);
	free(b->ground_truth_file);
	free(b);
}

char *pts_bundle_path(const struct pts_bundle *b, const char *rel)
{
	char *p;

	if (asprintf(&p, "%s/%s", b->dir ? b->dir : ".", rel) < 0)
		return NULL;
	return p;
}

static const char *const scope_names[] = {
	[PTS_SCOPE_USER] = "user",
	[PTS_SCOPE_KERNEL] = "kernel",
	[PTS_SCOPE_BOTH] = "both",
};

static const char *const source_names[] = {
	[PTS_SOURCE_HARDWARE] = "hardware",
	[PTS_SOURCE_SIMULATED_UNIT] = "simulated-unit",
	[PTS_SOURCE_REFERENCE_ENCODER] = "reference-encoder",
	[PTS_SOURCE_IMPORTED] = "imported",
};

const char *pts_scope_name(enum pts_scope s)
{
	if ((unsigned int)s < sizeof(scope_names) / sizeof(scope_names[0]) &&
	    scope_names[s])
		return scope_names[s];
	return "?";
}

const char *pts_source_name(enum pts_bundle_source s)
{
	if ((unsigned int)s < sizeof(source_names) / sizeof(source_names[0]))
		return source_names[s];
	return "?";
}

int pts_scope_parse(const char *name, enum pts_scope *out)
{
	unsigned int i;

	for (i = 0; i < sizeof(scope_names) / sizeof(scope_names[0]); i++)
		if (scope_names[i] && !strcmp(name, scope_names[i])) {
			*out = (enum pts_scope)i;
			return 0;
		}
	return -EINVAL;
}

int pts_source_parse(const char *name, enum pts_bundle_source *out)
{
	unsigned int i;

	for (i = 0; i < sizeof(source_names) / sizeof(source_names[0]); i++)
		if (!strcmp(name, source_names[i])) {
			*out = (enum pts_bundle_source)i;
			return 0;
		}
	return -EINVAL;
}

uint32_t pts_bundle_mtc_freq(const struct pts_bundle *b)
{
	return (uint32_t)rtit_ctl_field_get(b->config.rtit_ctl,
					    RTIT_CTL_MTCFREQ_MASK,
					    RTIT_CTL_MTCFREQ_SHIFT);
}

bool pts_bundle_name_ok(const char *name)
{
	const char *c = name;

	if (!name || !*name || *name == '/')
		return false;
	while (*c) {
		const char *slash = strchr(c, '/');
		size_t len = slash ? (size_t)(slash - c) : strlen(c);

		if (len == 0 || (len == 1 && c[0] == '.') ||
		    (len == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		if (!slash)
			break;
		c = slash + 1;
		if (!*c)
			return false;	/* trailing '/' */
	}
	return true;
}

/* mkdir -p of the directories of `name` inside dir. */
static int make_parents(const char *dir, const char *name, struct pts_err *err)
{
	char path[PATH_MAX];
	size_t dlen = strlen(dir);
	const char *s;

	for (s = strchr(name, '/'); s; s = strchr(s + 1, '/')) {
		if (dlen + 1 + (size_t)(s - name) >= sizeof(path))
			return pts_err_set(err, ENAMETOOLONG, "%s/%s: path too long",
					   dir, name);
		snprintf(path, sizeof(path), "%s/%.*s", dir, (int)(s - name), name);
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return pts_err_set(err, errno, "cannot create directory %s: %s",
					   path, strerror(errno));
	}
	return 0;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int pts_bundle_write_atomic(const char *dir, const char *name,
			    const struct iovec *iov, int iovcnt, bool sync,
			    struct pts_err *err)
{
	char *final = NULL, *tmp = NULL;
	int fd = -1, rc, i;

	if (!pts_bundle_name_ok(name))
		return pts_err_set(err, EINVAL,
				   "bad bundle file name \"%s\": must be relative, without \"..\" or empty components",
				   name ? name : "(null)");
	rc = make_parents(dir, name, err);
	if (rc)
		return rc;
	if (asprintf(&final, "%s/%s", dir, name) < 0 ||
	    asprintf(&tmp, "%s/%s.tmpXXXXXX", dir, name) < 0) {
		free(final);
		return pts_err_set(err, ENOMEM, "out of memory writing %s", name);
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = pts_err_set(err, errno, "cannot create %s: %s", tmp, strerror(errno));
		goto out;
	}
	for (i = 0; i < iovcnt; i++) {
		rc = write_all(fd, iov[i].iov_base, iov[i].iov_len);
		if (rc) {
			pts_err_set(err, rc, "writing %s: %s", final, strerror(-rc));
			goto out_unlink;
		}
	}
	/* mkstemp creates 0600; a bundle is meant to be copied and shared. */
	if (fchmod(fd, 0644) < 0 || (sync && fsync(fd) < 0)) {
		rc = pts_err_set(err, errno, "writing %s: %s", final, strerror(errno));
		goto out_unlink;
	}
	/* Delayed allocation can report ENOSPC only at close. */
	rc = close(fd);
	fd = -1;
	if (rc < 0) {
		rc = pts_err_set(err, errno, "writing %s: %s", final, strerror(errno));
		goto out_unlink;
	}
	if (rename(tmp, final) < 0) {
		rc = pts_err_set(err, errno, "cannot rename %s to %s: %s", tmp, final,
				 strerror(errno));
		goto out_unlink;
	}
	rc = 0;
	goto out;
out_unlink:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
out:
	free(tmp);
	free(final);
	return rc;
}

int pts_bundle_write_file(const char *dir, const char *name, const void *data,
			  size_t len, struct pts_err *err)
{
	struct iovec iov = { .iov_base = (void *)data, .iov_len = len };

	return pts_bundle_write_atomic(dir, name, &iov, 1, false, err);
}

int pts_bundle_write_filev(const char *dir, const char *name,
			   const struct iovec *iov, int iovcnt, struct pts_err *err)
{
	if (iovcnt < 0)
		return pts_err_set(err, EINVAL, "writing %s: negative iovcnt", name);
	return pts_bundle_write_atomic(dir, name, iov, iovcnt, false, err);
}

int pts_bundle_copy_file(const char *dir, const char *name, const char *src,
			 uint64_t *size, struct pts_err *err)
{
	struct iovec iov;
	struct stat st;
	void *buf = NULL;
	size_t got = 0;
	int fd, rc;

	fd = pts_file_open(src, "file to copy into the bundle", &st, err);
	if (fd < 0)
		return fd;
	/* Executables and libraries are small enough to hold in memory. */
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf) {
		close(fd);
		return pts_err_set(err, ENOMEM, "out of memory copying %s", src);
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, (char *)buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = pts_err_set(err, errno, "reading %s: %s", src, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;	/* file shrank while copying: keep what was read */
		got += (size_t)n;
	}
	iov.iov_base = buf;
	iov.iov_len = got;
	rc = pts_bundle_write_atomic(dir, name, &iov, 1, false, err);
	if (!rc && size)
		*size = got;
out:
	free(buf);
	close(fd);
	return rc;
}

void pts_bundle_ktext_changes(const struct pts_bundle *b, size_t *changed, size_t *loaded,
			      size_t *gone)
{
	size_t i;

	*changed = *loaded = *gone = 0;
	if (!b->ktext_hashed)
		return;
	for (i = 0; i < b->nr_ktext; i++) {
		const struct pts_bundle_ktext *k = &b->ktext[i];

		if (!k->has_crc32_arm)
			(*loaded)++;
		else if (k->has_crc32 && k->crc32 != k->crc32_arm)
			(*changed)++;
	}
	*gone = b->nr_ktext_gone;
}

/* Append "NAME" to buf (comma separated), or " ..." once when it does not fit. */
static void name_list_add(char *buf, size_t len, const char *name, bool *full)
{
	size_t n = strlen(buf), need = strlen(name) + 2;

	if (*full)
		return;
	if (n + need + 5 >= len) {
		snprintf(buf + n, len - n, " ...");
		*full = true;
		return;
	}
	snprintf(buf + n, len - n, "%s%s", n && buf[n - 1] != ' ' ? ", " : "", name);
}

size_t pts_bundle_ktext_change_text(const struct pts_bundle *b, char *buf, size_t len)
{
	size_t changed, loaded, gone, i;
	bool full = false;

	pts_bundle_ktext_changes(b, &changed, &loaded, &gone);
	if (!len)
		return changed + loaded + gone;
	buf[0] = '\0';
	if (changed) {
		snprintf(buf, len, "%zu changed: ", changed);
		for (i = 0; i < b->nr_ktext; i++)
			if (b->ktext[i].has_crc32_arm && b->ktext[i].has_crc32 &&
			    b->ktext[i].crc32 != b->ktext[i].crc32_arm)
				name_list_add(buf, len, b->ktext[i].name, &full);
	}
	if (loaded && !full) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, "%s%zu loaded: ", n ? "; " : "", loaded);
		for (i = 0; i < b->nr_ktext; i++)
			if (!b->ktext[i].has_crc32_arm)
				name_list_add(buf, len, b->ktext[i].name, &full);
	}
	if (gone && !full) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, "%s%zu unloaded (no copy): ", n ? "; " : "", gone);
		for (i = 0; i < b->nr_ktext_gone; i++)
			name_list_add(buf, len, b->ktext_gone[i].name, &full);
	}
	return changed + loaded + gone;
}
