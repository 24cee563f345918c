/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a file given as an input holds, told by its first bytes, so that a
 * file given in the wrong place (a program as a trace, perf record's
 * perf.data as perf script text, a packed bundle as a bundle) is refused
 * with what to give instead rather than decoded as damage. Only formats
 * with a fixed signature at a fixed offset are told; a raw PT trace has
 * none (a snapshot of a ring may start anywhere in a packet).
 */
#ifndef PTS_UTIL_FILE_MAGIC_H
#define PTS_UTIL_FILE_MAGIC_H

enum pts_magic {
	PTS_MAGIC_NONE,		/* none of those below, or not a readable regular file */
	PTS_MAGIC_ELF,		/* "\177ELF", class 32 or 64 (ELF gABI, e_ident) */
	PTS_MAGIC_PERF_DATA,	/* "PERFILE2" either byte order (perf's header.c) */
	PTS_MAGIC_GZIP,		/* 1f 8b (RFC 1952) */
	PTS_MAGIC_XZ,		/* fd "7zXZ" 00 */
	PTS_MAGIC_ZSTD,		/* 28 b5 2f fd (RFC 8878) */
	PTS_MAGIC_BZIP2,	/* "BZh" and a block size '1'..'9' (bzip2's format) */
	PTS_MAGIC_ZIP,		/* "PK" 03 04, or 05 06 empty (PKWARE APPNOTE 4.3.7, 4.3.16) */
	PTS_MAGIC_TAR,		/* "ustar" at 257 (POSIX.1-1988 and GNU) */
	PTS_MAGIC_FXT,		/* the magic number record 0x0016547846040010, first */
};

/*
 * The kind of the regular file at path, read from its first 512 bytes.
 * Anything else (no such file, a directory, a FIFO: never opened so as to
 * wait, a device: not read) is PTS_MAGIC_NONE.
 */
enum pts_magic pts_file_magic(const char *path);

/*
 * Whether the perf.data file at path holds an AUX area trace (Intel PT's):
 * perf record sets the AUXTRACE feature bit (18, perf's header.h) of its
 * header only then, and writes a PERF_RECORD_AUXTRACE_INFO (70) record
 * before the trace, which perf's decoder needs (a file made by other tools
 * may have the record without the bit). 1 it does (the bit, or that record
 * among the data section's first 1 MiB), 0 it does not (neither, the whole
 * data section read), -1 not told: not a perf.data of this byte order, a
 * pipe-mode header, a data section past 1 MiB without the record, a record
 * that cannot be read.
 */
int pts_perf_data_has_aux(const char *path);

/* What m is, for messages: "an ELF file (a program or library)", ... */
const char *pts_magic_name(enum pts_magic m);

/* The command that decompresses m to standard output ("zcat"), or NULL. */
const char *pts_magic_cat(enum pts_magic m);

#endif /* PTS_UTIL_FILE_MAGIC_H */
