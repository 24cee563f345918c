// SPDX-License-Identifier: GPL-2.0
/* A file's kind from its signature (file_magic.h). */
#include "file_magic.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Enough for tar's "ustar" at 257 (the other signatures are at 0). */
#define MAGIC_HEAD	512

static enum pts_magic from_head(const unsigned char *h, size_t n)
{
	static const unsigned char fxt[8] = { 0x10, 0x00, 0x04, 0x46, 0x78, 0x54, 0x16, 0x00 };

	if (n >= 5 && !memcmp(h, "\177ELF", 4) && (h[4] == 1 || h[4] == 2))
		return PTS_MAGIC_ELF;
	if (n >= 8 && (!memcmp(h, "PERFILE2", 8) || !memcmp(h, "2ELIFREP", 8)))
		return PTS_MAGIC_PERF_DATA;
	if (n >= 8 && !memcmp(h, fxt, 8))
		return PTS_MAGIC_FXT;
	if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b)
		return PTS_MAGIC_GZIP;
	if (n >= 6 && !memcmp(h, "\3757zXZ\0", 6))
		return PTS_MAGIC_XZ;
	if (n >= 4 && !memcmp(h, "\x28\xb5\x2f\xfd", 4))
		return PTS_MAGIC_ZSTD;
	if (n >= 262 && !memcmp(h + 257, "ustar", 5))
		return PTS_MAGIC_TAR;
	return PTS_MAGIC_NONE;
}

enum pts_magic pts_file_magic(const char *path)
{
	unsigned char head[MAGIC_HEAD];
	struct stat st;
	ssize_t n;
	int fd;

	/* O_NONBLOCK: a FIFO is not waited for; it is then refused by its mode */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return PTS_MAGIC_NONE;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return PTS_MAGIC_NONE;
	}
	n = pread(fd, head, sizeof(head), 0);
	close(fd);
	return n > 0 ? from_head(head, (size_t)n) : PTS_MAGIC_NONE;
}

const char *pts_magic_name(enum pts_magic m)
{
	switch (m) {
	case PTS_MAGIC_ELF:
		return "an ELF file (a program or library)";
	case PTS_MAGIC_PERF_DATA:
		return "a perf.data file (perf record's)";
	case PTS_MAGIC_GZIP:
		return "gzip-compressed";
	case PTS_MAGIC_XZ:
		return "xz-compressed";
	case PTS_MAGIC_ZSTD:
		return "zstd-compressed";
	case PTS_MAGIC_TAR:
		return "a tar archive";
	case PTS_MAGIC_FXT:
		return "a Perfetto .fxt timeline (ptscope decode's output)";
	case PTS_MAGIC_NONE:
		break;
	}
	return "a file of no known kind";
}

const char *pts_magic_cat(enum pts_magic m)
{
	switch (m) {
	case PTS_MAGIC_GZIP:
		return "zcat";
	case PTS_MAGIC_XZ:
		return "xzcat";
	case PTS_MAGIC_ZSTD:
		return "zstdcat";
	default:
		return NULL;
	}
}
