/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Input files that are read, not waited for: a FIFO opened for reading
 * blocks until a writer comes, and a device or /proc file has no size to
 * check, so every input of the decoder is opened here and refused unless
 * it is a regular file. The check is made on the opened descriptor
 * (fstat), so what is checked is what is read.
 */
#ifndef PTS_UTIL_FILE_H
#define PTS_UTIL_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#include "err.h"

/*
 * Open path read-only (close-on-exec) if it is a regular file; *st (may be
 * NULL) receives its fstat. Opened with O_NONBLOCK, so a FIFO does not wait
 * for a writer; the flag is cleared before returning. Returns the
 * descriptor, or -errno of open/fstat, or -EINVAL when it is not a
 * regular file (pts_file_kind names what it is). err (may be NULL) says
 * which file and why; what names the file's role ("trace file", "ELF
 * image", ...) and may be NULL.
 */
int pts_file_open(const char *path, const char *what, struct stat *st, struct pts_err *err);

/* As pts_file_open, as a stdio stream ("r") in *out. 0 or the errors of pts_file_open. */
int pts_file_fopen(const char *path, const char *what, FILE **out, struct pts_err *err);

/*
 * A text read from start to end, as pts_file_fopen, that may also be a
 * pipe (`--perf-script <(perf script ...)`): opened without waiting for
 * a writer, a FIFO nobody writes reads as empty.
 */
int pts_file_fopen_text(const char *path, const char *what, FILE **out, struct pts_err *err);

/* What a file of this mode is, for messages: "a directory", "a pipe (FIFO)", ... */
const char *pts_file_kind(mode_t mode);

/*
 * A whole regular file of at most max bytes, into a NUL-terminated
 * buffer the caller frees. The size is checked before anything is read;
 * no more than that size + 1 bytes are read. Errors: those of
 * pts_file_open, -EFBIG larger than max, -EAGAIN the file grew while it
 * was read, -errno a read failed, -ENOMEM.
 */
int pts_file_read_all(const char *path, const char *what, size_t max, char **buf, size_t *len,
		      struct pts_err *err);

/*
 * Whether two of paths[0..n) name one file (by device and inode: another
 * name, a link): 1 and *a < *b their indexes (the first such pair in
 * order of *b), 0 when all differ. A path that cannot be stat'ed is
 * skipped (opening it says why). -ENOMEM.
 */
int pts_file_find_same(const char *const *paths, size_t n, size_t *a, size_t *b);

#endif /* PTS_UTIL_FILE_H */
