// SPDX-License-Identifier: GPL-2.0
/* Sideband record iteration and validation: see sideband.h. */
#include "sideband.h"
#include "../util/file.h"

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
	[PTSCOPE_SB_SYS_ENTER] = { "sys_enter", sizeof(struct ptscope_sb_syscall) },
	[PTSCOPE_SB_SYS_EXIT] = { "sys_exit", sizeof(struct ptscope_sb_syscall) },
	[PTSCOPE_SB_PAGE_FAULT] = { "page_fault", sizeof(struct ptscope_sb_fault) },
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
	r->total = len;
	r->fd = -1;
}

/*
 * Reading a file: make at least want bytes from r->off available in the
 * window, as far as the file has them (the bytes before r->off are no
 * longer needed). 0, or -1 with r->why set on a read error.
 */
static int sb_fill(struct pts_sb_reader *r, size_t want)
{
	size_t pos = r->off - r->base, have = r->len - pos;

	if (r->fd < 0 || have >= want || !r->file_left)
		return 0;
	memmove(r->own, r->own + pos, have);
	r->base = r->off;
	r->len = have;
	while (r->len < PTS_SB_WINDOW && r->file_left) {
		size_t n = PTS_SB_WINDOW - r->len;
		ssize_t got;

		if (n > r->file_left)
			n = r->file_left;
		got = read(r->fd, r->own + r->len, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(r->why, sizeof(r->why), "cannot read the file: %s", strerror(errno));
			return -1;
		}
		if (!got) {	/* shrank since it was checked: the bytes present */
			r->total -= r->file_left;
			r->file_left = 0;
			break;
		}
		r->len += (size_t)got;
		r->file_left -= (size_t)got;
	}
	return 0;
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
	if (sb_fill(r, sizeof(*h)))
		return stop(r, err);
	if (r->off == r->base + r->len)
		return 0;
	if ((uintptr_t)r->buf & 7) {
		snprintf(r->why, sizeof(r->why), "the buffer is not 8-byte aligned (a caller bug)");
		return stop(r, err);
	}
	left = r->base + r->len - r->off;
	if (left < sizeof(*h)) {
		snprintf(r->why, sizeof(r->why), "only %zu byte%s left, a header needs %zu "
			 "(truncated file?)", left, left == 1 ? "" : "s", sizeof(*h));
		return stop(r, err);
	}
	h = (const struct ptscope_sb_hdr *)(r->buf + (r->off - r->base));
	if (h->size > left) {
		/* the window may end inside the record: read on (it moves) */
		if (sb_fill(r, h->size))
			return stop(r, err);
		left = r->base + r->len - r->off;
		h = (const struct ptscope_sb_hdr *)(r->buf + (r->off - r->base));
	}
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

int pts_sb_reader_open(struct pts_sb_reader *r, const struct pts_bundle *b, struct pts_err *err)
{
	struct stat st;
	char *path;
	uint64_t want;
	int rc = 0;

	pts_sb_reader_init(r, NULL, 0);
	/* missing from a damaged copy (PTS_BUNDLE_READ_PARTIAL): no record, as an empty one */
	if (!b->sideband_file || b->sideband_missing)
		return 0;
	path = pts_bundle_path(b, b->sideband_file);
	if (!path)
		return pts_err_set(err, ENOMEM, "out of memory");
	r->fd = pts_file_open(path, "sideband", &st, err);
	if (r->fd < 0) {
		rc = r->fd;
		goto out;
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
		goto out;
	}
	if (want > SIZE_MAX) {
		rc = pts_err_set(err, EFBIG, "%s: %" PRIu64 " bytes is too large", path, want);
		goto out;
	}
	r->own = malloc(PTS_SB_WINDOW);	/* malloc: 8-byte aligned */
	if (!r->own) {
		rc = pts_err_set(err, ENOMEM, "out of memory reading %s", path);
		goto out;
	}
	r->buf = r->own;
	r->total = r->file_left = (size_t)want;
out:
	free(path);
	return rc;
}

void pts_sb_reader_close(struct pts_sb_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	free(r->own);
	r->own = NULL;
	r->buf = NULL;
}
