// SPDX-License-Identifier: GPL-2.0
/* Sideband records; perf pevent parsing (include/uapi/linux/perf_event.h layouts). */
#include "sideband.h"
#include "../util/file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* perf_event.h record types and sample_type bits used here */
enum {
	PERF_RECORD_MMAP_ = 1,
	PERF_RECORD_COMM_ = 3,
	PERF_RECORD_EXIT_ = 4,
	PERF_RECORD_MMAP2_ = 10,
	PERF_RECORD_ITRACE_START_ = 12,
	PERF_RECORD_SWITCH_ = 14,
	PERF_RECORD_SWITCH_CPU_WIDE_ = 15,
};
#define PERF_SAMPLE_TID_	(1ULL << 1)
#define PERF_SAMPLE_TIME_	(1ULL << 2)
#define PERF_SAMPLE_ID_		(1ULL << 6)
#define PERF_SAMPLE_CPU_	(1ULL << 7)
#define PERF_SAMPLE_STREAM_ID_	(1ULL << 9)
#define PERF_SAMPLE_IDENTIFIER_	(1ULL << 16)
#define PERF_RECORD_MISC_SWITCH_OUT_ (1U << 13)
#define PERF_RECORD_MISC_COMM_EXEC_ (1U << 13)
#define PERF_RECORD_MISC_MMAP_BUILD_ID_ (1U << 14)
#define PERF_BUILD_ID_MAX_	20	/* bytes of an MMAP2 record's build_id[] */

int pts_sideband_add(struct pts_sideband *sb, const struct pts_sb_rec *r)
{
	if (sb->n == sb->cap) {
		size_t nc = sb->cap ? sb->cap * 2 : 64;
		struct pts_sb_rec *nr = realloc(sb->recs, nc * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		sb->recs = nr;
		sb->cap = nc;
	}
	sb->recs[sb->n] = *r;
	sb->recs[sb->n].name = NULL;
	sb->recs[sb->n].build_id = NULL;
	if (r->name && !(sb->recs[sb->n].name = strdup(r->name)))
		return -ENOMEM;
	if (r->build_id && !(sb->recs[sb->n].build_id = strdup(r->build_id))) {
		free(sb->recs[sb->n].name);
		return -ENOMEM;
	}
	sb->n++;
	return 0;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct pts_sb_rec *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	/* qsort is not stable: keep file order for equal times */
	return x < y ? -1 : x > y;
}

void pts_sideband_sort(struct pts_sideband *sb)
{
	if (sb->n)
		qsort(sb->recs, sb->n, sizeof(*sb->recs), cmp_rec);
}

void pts_sideband_free(struct pts_sideband *sb)
{
	size_t i;

	for (i = 0; i < sb->n; i++) {
		free(sb->recs[i].name);
		free(sb->recs[i].build_id);
	}
	free(sb->recs);
	memset(sb, 0, sizeof(*sb));
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

struct sample_id {
	int32_t pid, tid;
	uint64_t time;
	uint32_t cpu;
};

/* sample_id trailer at the end of a non-sample record (perf_event.h "struct sample_id") */
static int parse_sample_id(const uint8_t *rec, size_t size, uint64_t st, struct sample_id *id)
{
	size_t len = 0, off;

	len += (st & PERF_SAMPLE_TID_) ? 8 : 0;
	len += (st & PERF_SAMPLE_TIME_) ? 8 : 0;
	len += (st & PERF_SAMPLE_ID_) ? 8 : 0;
	len += (st & PERF_SAMPLE_STREAM_ID_) ? 8 : 0;
	len += (st & PERF_SAMPLE_CPU_) ? 8 : 0;
	len += (st & PERF_SAMPLE_IDENTIFIER_) ? 8 : 0;
	memset(id, 0, sizeof(*id));
	id->pid = id->tid = -1;
	id->cpu = UINT32_MAX;
	if (len + 8 > size)
		return -1;
	off = size - len;
	if (st & PERF_SAMPLE_TID_) {
		id->pid = (int32_t)rd32(rec + off);
		id->tid = (int32_t)rd32(rec + off + 4);
		off += 8;
	}
	if (st & PERF_SAMPLE_TIME_) {
		id->time = rd64(rec + off);
		off += 8;
	}
	off += (st & PERF_SAMPLE_ID_) ? 8 : 0;
	off += (st & PERF_SAMPLE_STREAM_ID_) ? 8 : 0;
	if (st & PERF_SAMPLE_CPU_)
		id->cpu = rd32(rec + off);
	return 0;
}

/*
 * The build-id of an MMAP2 record's payload p with PERF_RECORD_MISC_MMAP_BUILD_ID:
 * in place of maj, min, ino and ino_generation, build_id_size (u8) at 32,
 * two reserved fields, build_id[20] at 36 (perf_event.h). As hex in hex;
 * NULL for a size of 0 or past the array (damage: no build-id to check).
 */
static char *mmap2_build_id(const uint8_t *p, char hex[2 * PERF_BUILD_ID_MAX_ + 1])
{
	unsigned int i, n = p[32];

	if (!n || n > PERF_BUILD_ID_MAX_)
		return NULL;
	for (i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", p[36 + i]);
	return hex;
}

static int parse_one(struct pts_sideband *sb, const uint8_t *rec, uint32_t type, uint16_t misc,
		     size_t size, uint64_t st)
{
	struct sample_id id;
	struct pts_sb_rec r;
	const uint8_t *p = rec + 8;
	size_t plen = size - 8;
	char name[4096], build_id[2 * PERF_BUILD_ID_MAX_ + 1];

	if (parse_sample_id(rec, size, st, &id))
		return 0;	/* no trailer: not one of ours */
	memset(&r, 0, sizeof(r));
	r.time_ns = id.time;
	r.cpu = id.cpu;
	r.pid = id.pid;
	r.tid = id.tid;
	switch (type) {
	case PERF_RECORD_ITRACE_START_:
		if (plen < 8)
			return 0;
		r.type = PTS_SB_SWITCH;
		r.pid = (int32_t)rd32(p);
		r.tid = (int32_t)rd32(p + 4);
		break;
	case PERF_RECORD_SWITCH_:
		if (misc & PERF_RECORD_MISC_SWITCH_OUT_)
			return 0;
		r.type = PTS_SB_SWITCH;
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE_:
		r.type = PTS_SB_SWITCH;
		if (misc & PERF_RECORD_MISC_SWITCH_OUT_) {
			/* switch-out names the next task */
			if (plen < 8)
				return 0;
			r.pid = (int32_t)rd32(p);
			r.tid = (int32_t)rd32(p + 4);
		}
		break;
	case PERF_RECORD_COMM_:
		if (plen < 9)
			return 0;
		r.type = PTS_SB_COMM;
		r.pid = (int32_t)rd32(p);
		r.tid = (int32_t)rd32(p + 4);
		snprintf(name, sizeof(name), "%.*s", (int)(plen - 8), (const char *)p + 8);
		r.name = name;
		/* PERF_RECORD_MISC_COMM_EXEC: the name changed because of an exec */
		if ((misc & PERF_RECORD_MISC_COMM_EXEC_) && pts_sideband_add(sb, &r))
			return -1;
		if (misc & PERF_RECORD_MISC_COMM_EXEC_)
			r.type = PTS_SB_EXEC;
		break;
	case PERF_RECORD_EXIT_:
		if (plen < 16)
			return 0;
		r.type = PTS_SB_EXIT;
		r.pid = (int32_t)rd32(p);
		r.tid = (int32_t)rd32(p + 8);
		break;
	case PERF_RECORD_MMAP_:
	case PERF_RECORD_MMAP2_: {
		size_t fo = type == PERF_RECORD_MMAP_ ? 32 : 64;

		if (plen <= fo)
			return 0;
		r.type = PTS_SB_MMAP;
		r.pid = (int32_t)rd32(p);
		r.tid = (int32_t)rd32(p + 4);
		r.start = rd64(p + 8);
		r.len = rd64(p + 16);
		r.pgoff = rd64(p + 24);
		if (type == PERF_RECORD_MMAP2_)
			r.prot = rd32(p + 56);
		if (type == PERF_RECORD_MMAP2_ && (misc & PERF_RECORD_MISC_MMAP_BUILD_ID_))
			r.build_id = mmap2_build_id(p, build_id);
		snprintf(name, sizeof(name), "%.*s", (int)(plen - fo), (const char *)p + fo);
		r.name = name;
		break;
	}
	default:
		return 0;
	}
	return pts_sideband_add(sb, &r);
}

/*
 * Records are read one at a time (a perf record's size is 16 bits), so
 * memory does not grow with the file.
 */
int pts_pevent_load(struct pts_sideband *sb, const char *path, uint64_t sample_type,
		    struct pts_err *err)
{
	uint8_t *rec;
	uint64_t off = 0;
	FILE *f;
	int rc = pts_file_fopen(path, "perf sideband file", &f, err);

	if (rc)
		return rc;
	rec = malloc(UINT16_MAX + 1);
	if (!rec) {
		fclose(f);
		return pts_err_set(err, ENOMEM, "out of memory");
	}
	for (;;) {
		size_t got = fread(rec, 1, 8, f);
		uint32_t type;
		uint16_t misc, size;

		if (!got && !ferror(f))
			break;
		if (got < 8) {
			rc = ferror(f) ? pts_err_set(err, EIO, "cannot read %s", path) :
			     pts_err_set(err, EINVAL, "%s: record header cut at offset %" PRIu64
					 " (file truncated?)", path, off);
			break;
		}
		type = rd32(rec);
		memcpy(&misc, rec + 4, 2);
		memcpy(&size, rec + 6, 2);
		if (size < 8 || fread(rec + 8, 1, size - 8u, f) != size - 8u) {
			rc = ferror(f) ? pts_err_set(err, EIO, "cannot read %s", path) :
			     pts_err_set(err, EINVAL, "%s: record at offset %" PRIu64 " has size %u "
					 "past the end: not a pevent file or truncated", path, off,
					 size);
			break;
		}
		if (parse_one(sb, rec, type, misc, size, sample_type)) {
			rc = pts_err_set(err, ENOMEM, "out of memory");
			break;
		}
		off += size;
	}
	free(rec);
	fclose(f);
	return rc;
}
