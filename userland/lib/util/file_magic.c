// SPDX-License-Identifier: GPL-2.0
/* A file's kind from its signature (file_magic.h). */
#include "file_magic.h"

#include <fcntl.h>
#include <stdint.h>
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
	if (n >= 4 && !memcmp(h, "BZh", 3) && h[3] >= '1' && h[3] <= '9')
		return PTS_MAGIC_BZIP2;
	if (n >= 4 && (!memcmp(h, "PK\3\4", 4) || !memcmp(h, "PK\5\6", 4)))
		return PTS_MAGIC_ZIP;
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

/*
 * perf_file_header (perf's header.h): magic, size, attr_size, the attrs,
 * data (offset at 40, size at 48) and event_types sections, then
 * adds_features, a bitmap of 256 bits whose first word holds bit 18,
 * HEADER_AUXTRACE. Records are perf_event_header: u32 type, u16 misc, u16
 * size.
 */
#define PERF_HDR_DATA		40
#define PERF_HDR_FEATURES	72
#define PERF_HDR_MIN_SIZE	(PERF_HDR_FEATURES + 32)
#define PERF_FEAT_AUXTRACE	18
#define PERF_REC_AUXTRACE_INFO	70
#define PERF_AUX_SCAN		(1u << 20)

static uint64_t le64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* 1: an AUXTRACE_INFO record in [off, off + size) (its first 1 MiB); 0 none; -1 not told */
static int aux_info_record(int fd, uint64_t off, uint64_t size)
{
	uint64_t end = off + (size < PERF_AUX_SCAN ? size : PERF_AUX_SCAN);
	unsigned char h[8];
	uint32_t type;
	uint16_t rsize;

	while (off + 8 <= end) {
		if (pread(fd, h, 8, (off_t)off) != 8)
			return -1;
		memcpy(&type, h, 4);
		memcpy(&rsize, h + 6, 2);
		if (type == PERF_REC_AUXTRACE_INFO)
			return 1;
		if (rsize < 8)
			return -1;	/* damage: nothing more to tell */
		off += rsize;
	}
	return size <= PERF_AUX_SCAN ? 0 : -1;
}

int pts_perf_data_has_aux(const char *path)
{
	unsigned char h[PERF_HDR_FEATURES + 8];
	int fd, rc;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	/* the other byte order ("2ELIFREP") is not worth a guess here */
	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) || memcmp(h, "PERFILE2", 8) ||
	    le64(h + 8) < PERF_HDR_MIN_SIZE)
		rc = -1;	/* pipe mode: a 16-byte header, features come as records */
	else if ((le64(h + PERF_HDR_FEATURES) >> PERF_FEAT_AUXTRACE) & 1)
		rc = 1;
	else
		rc = aux_info_record(fd, le64(h + PERF_HDR_DATA), le64(h + PERF_HDR_DATA + 8));
	close(fd);
	return rc;
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
	case PTS_MAGIC_BZIP2:
		return "bzip2-compressed";
	case PTS_MAGIC_ZIP:
		return "a zip archive";
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
	case PTS_MAGIC_BZIP2:
		return "bzcat";
	default:
		return NULL;
	}
}
