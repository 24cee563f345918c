// SPDX-License-Identifier: GPL-2.0
/* Input files opened only when they are regular files (file.h). */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *pts_file_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a pipe (FIFO)";
	if (S_ISSOCK(mode))
		return "a socket";
	return "a device";
}

static int open_input(const char *path, const char *what, bool fifo_ok, struct stat *st,
		      struct pts_err *err)
{
	const char *role = what ? what : "input file";
	struct stat local;
	int fd, fl;

	if (!st)
		st = &local;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	/* a bundle copied or written with sudo may be root's alone: say what to do */
	if (fd < 0 && errno == EACCES)
		return pts_err_set(err, EACCES, "cannot open %s %s: %s: this user may not read it"
				   " (ls -l shows its owner and mode): give yourself read access"
				   " (a bundle's whole directory: sudo chown -R $USER DIR, or chmod"
				   " -R a+rX DIR), or run this as its owner", role, path,
				   strerror(EACCES));
	if (fd < 0)
		return pts_err_set(err, errno, "cannot open %s %s: %s", role, path, strerror(errno));
	if (fstat(fd, st)) {
		int e = errno;

		close(fd);
		return pts_err_set(err, e, "cannot read %s %s: %s", role, path, strerror(e));
	}
	if (!S_ISREG(st->st_mode) && !(fifo_ok && S_ISFIFO(st->st_mode))) {
		close(fd);
		/* a pipe's or a device's bytes can be copied to a file; a directory's cannot */
		return pts_err_set(err, EINVAL, "%s %s is %s, not a regular file: %s", role, path,
				   pts_file_kind(st->st_mode), S_ISDIR(st->st_mode) ?
				   "give a file (one in it?)" : "copy it to a file and give that");
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

int pts_file_open(const char *path, const char *what, struct stat *st, struct pts_err *err)
{
	return open_input(path, what, false, st, err);
}


static int fopen_input(const char *path, const char *what, bool fifo_ok, FILE **out,
		       struct pts_err *err)
{
	int fd = open_input(path, what, fifo_ok, NULL, err);

	*out = NULL;
	if (fd < 0)
		return fd;
	*out = fdopen(fd, "r");
	if (!*out) {
		int e = errno;

		close(fd);
		return pts_err_set(err, e, "cannot read %s: %s", path, strerror(e));
	}
	return 0;
}

int pts_file_fopen(const char *path, const char *what, FILE **out, struct pts_err *err)
{
	return fopen_input(path, what, false, out, err);
}

int pts_file_fopen_text(const char *path, const char *what, FILE **out, struct pts_err *err)
{
	return fopen_input(path, what, true, out, err);
}

int pts_file_read_all(const char *path, const char *what, size_t max, char **buf, size_t *len,
		      struct pts_err *err)
{
	const char *role = what ? what : "input file";
	struct stat st;
	size_t n = 0, want;
	char *p;
	int fd = pts_file_open(path, what, &st, err);

	if (fd < 0)
		return fd;
	if ((uint64_t)st.st_size > max) {
		close(fd);
		return pts_err_set(err, EFBIG, "%s %s is %jd bytes, more than the %zu a %s may have",
				   role, path, (intmax_t)st.st_size, max, role);
	}
	want = (size_t)st.st_size;
	p = malloc(want + 2);
	if (!p) {
		close(fd);
		return pts_err_set(err, ENOMEM, "out of memory reading %s", path);
	}
	/* want + 1: a file that grew since fstat is seen to be larger */
	while (n < want + 1) {
		ssize_t got = read(fd, p + n, want + 1 - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(p);
			close(fd);
			return pts_err_set(err, e, "reading %s %s: %s", role, path, strerror(e));
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	close(fd);
	if (n > want) {
		free(p);
		return pts_err_set(err, EAGAIN, "%s %s grew while it was read: read it again once "
				   "it is complete", role, path);
	}
	p[n] = '\0';
	*buf = p;
	*len = n;
	return 0;
}

struct file_id {
	dev_t dev;
	ino_t ino;
	size_t idx;
};

static int cmp_id(const void *pa, const void *pb)
{
	const struct file_id *x = pa, *y = pb;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int pts_file_find_same(const char *const *paths, size_t n, size_t *a, size_t *b)
{
	struct file_id *ids = calloc(n ? n : 1, sizeof(*ids));
	size_t i, m = 0;
	int found = 0;

	if (!ids)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct stat st;

		if (paths[i] && !stat(paths[i], &st))
			ids[m++] = (struct file_id){ st.st_dev, st.st_ino, i };
	}
	/* sorted by file then index: each file's names sit together, in order */
	qsort(ids, m, sizeof(*ids), cmp_id);
	for (i = 1; i < m; i++) {
		if (ids[i].dev != ids[i - 1].dev || ids[i].ino != ids[i - 1].ino)
			continue;
		if (!found || ids[i].idx < *b) {
			*a = ids[i - 1].idx;
			*b = ids[i].idx;
			found = 1;
		}
	}
	free(ids);
	return found;
}
