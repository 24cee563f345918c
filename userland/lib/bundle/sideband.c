// SPDX-License-Identifier: GPL-2.0
/* Sideband record iteration and validation: see sideband.h. */
#include "sideband.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
	const char *name;
	size_t size;
} sb_types[] = {
	[PTSCOPE_SB_SCHED_SWITCH] = { "sched_switch", sizeof(struct ptscope_sb_switch) },
	[PTSCOPE_SB_EXEC] = { "exec", sizeof(struct ptscope_sb_exec) },
	[PTSCOPE_SB_EXIT] = { "exit", sizeof(struct ptscope_sb_exit) },
	[PTSCOPE_SB_FORK] = { "fork", sizeof(struct ptscope_sb_fork) },
	[PTSCOPE_SB_TRIGGER] = { "trigger", sizeof(struct ptscope_sb_trigger) },
	[PTSCOPE_SB_LOST] = { "lost", sizeof(struct ptscope_sb_lost) },
	[PTSCOPE_SB_TRACE_START] = { "trace_start", PTSCOPE_SB_TRACE_SIZE_VER0 },
	[PTSCOPE_SB_TRACE_STOP] = { "trace_stop", PTSCOPE_SB_TRACE_SIZE_VER0 },
};

#define NR_SB_TYPES (sizeof(sb_types) / sizeof(sb_types[0]))

size_t pts_sb_min_size(uint16_t type)
{
	return type < NR_SB_TYPES ? sb_types[type].size : 0;
}

const char *pts_sb_type_name(uint16_t type)
{
	return type < NR_SB_TYPES ? sb_types[type].name : NULL;
}

void pts_sb_reader_init(struct pts_sb_reader *r, const void *buf, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->buf = buf;
	r->len = len;
}

static int stop(struct pts_sb_reader *r, struct pts_err *err)
{
	r->corrupt = true;
	return pts_err_set(err, EINVAL, "sideband: corrupt record at offset %zu: %s; "
			   "the %zu byte%s before it %s usable", r->off, r->why, r->off,
			   r->off == 1 ? "" : "s", r->off == 1 ? "is" : "are");
}

int pts_sb_next(struct pts_sb_reader *r, const struct ptscope_sb_hdr **rec,
		struct pts_err *err)
{
	const struct ptscope_sb_hdr *h;
	size_t left, min;

	if (r->corrupt)
		return stop(r, err);
	if (r->off == r->len)
		return 0;
	if ((uintptr_t)r->buf & 7) {
		snprintf(r->why, sizeof(r->why), "the buffer is not 8-byte aligned (a caller bug)");
		return stop(r, err);
	}
	left = r->len - r->off;
	if (left < sizeof(*h)) {
		snprintf(r->why, sizeof(r->why), "only %zu byte%s left, a header needs %zu "
			 "(truncated file?)", left, left == 1 ? "" : "s", sizeof(*h));
		return stop(r, err);
	}
	h = (const struct ptscope_sb_hdr *)(r->buf + r->off);
	if (h->type == 0) {
		snprintf(r->why, sizeof(r->why), "type 0 (zeroed bytes, not a record)");
		return stop(r, err);
	}
	if (h->size < sizeof(*h) || h->size % 8) {
		snprintf(r->why, sizeof(r->why), "size %u is %s", h->size,
			 h->size < sizeof(*h) ? "smaller than the 16-byte header" :
			 "not a multiple of 8");
		return stop(r, err);
	}
	if (h->size > left) {
		snprintf(r->why, sizeof(r->why), "size %u runs past the end (%zu byte%s left; "
			 "truncated file?)", h->size, left, left == 1 ? "" : "s");
		return stop(r, err);
	}
	if (h->cpu >= PTS_SB_MAX_CPUS) {
		snprintf(r->why, sizeof(r->why), "CPU %u: no x86-64 Linux kernel numbers CPUs "
			 "past %u (NR_CPUS)", h->cpu, PTS_SB_MAX_CPUS - 1);
		return stop(r, err);
	}
	min = pts_sb_min_size(h->type);
	if (h->size < min) {
		/* "an exec record", "a fork record" */
		snprintf(r->why, sizeof(r->why), "%s %s record of %u bytes, its struct needs %zu",
			 strchr("aeiou", pts_sb_type_name(h->type)[0]) ? "an" : "a",
			 pts_sb_type_name(h->type), h->size, min);
		return stop(r, err);
	}
	if (h->type == PTSCOPE_SB_EXEC &&
	    !memchr((const char *)h + min, '\0', h->size - min)) {
		snprintf(r->why, sizeof(r->why), "exec record filename is not NUL-terminated");
		return stop(r, err);
	}
	r->off += h->size;
	*rec = h;
	return 1;
}

int pts_sb_load(const struct pts_bundle *b, void **buf, size_t *len,
		struct pts_err *err)
{
	struct stat st;
	char *path;
	void *p = NULL;
	size_t got = 0;
	uint64_t want;
	int fd, rc = 0;

	*buf = NULL;
	*len = 0;
	if (!b->sideband_file)
		return 0;
	path = pts_bundle_path(b, b->sideband_file);
	if (!path)
		return pts_err_set(err, ENOMEM, "out of memory");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = pts_err_set(err, errno, "cannot open the sideband %s: %s", path,
				 strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) < 0) {
		rc = pts_err_set(err, errno, "%s: %s", path, strerror(errno));
		goto out_close;
	}
	/*
	 * The reader recorded the size it found (sideband_file_size): a size
	 * other than the manifest's is a damaged copy the caller accepted
	 * (PTS_BUNDLE_READ_PARTIAL); read at most the manifest's bytes, the
	 * module wrote no more. Any other difference: the file changed since.
	 */
	want = b->sideband_size;
	if ((uint64_t)st.st_size != want && (uint64_t)st.st_size == b->sideband_file_size) {
		if ((uint64_t)st.st_size < want)
			want = (uint64_t)st.st_size;
	} else if ((uint64_t)st.st_size != want) {
		rc = pts_err_set(err, EFBIG, "%s is %jd bytes, the manifest says %" PRIu64
				 ": truncated copy? copy the bundle again", path,
				 (intmax_t)st.st_size, b->sideband_size);
		goto out_close;
	}
	if (want > SIZE_MAX - 1) {
		rc = pts_err_set(err, EFBIG, "%s: %" PRIu64 " bytes do not fit in memory", path, want);
		goto out_close;
	}
	p = malloc(want ? (size_t)want : 1);	/* malloc: 8-byte aligned */
	if (!p) {
		rc = pts_err_set(err, ENOMEM, "out of memory reading %s", path);
		goto out_close;
	}
	while (got < (size_t)want) {
		ssize_t n = read(fd, (char *)p + got, (size_t)want - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = pts_err_set(err, n ? errno : EFBIG, "reading %s: %s", path,
					 n ? strerror(errno) : "file shrank while reading");
			free(p);
			p = NULL;
			goto out_close;
		}
		got += (size_t)n;
	}
	*buf = p;
	*len = got;
out_close:
	close(fd);
out:
	free(path);
	return rc;
}
