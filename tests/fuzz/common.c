// SPDX-License-Identifier: GPL-2.0
/* Temporary files and the record-rule checker of the fuzz harnesses (fuzz.h). */
#include "fuzz.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <intel-pt.h>

#include "util/hmap.h"

#define NSLOTS 8

static char dir[256];
static char paths[NSLOTS][512];

static void remove_dir(void)
{
	char cmd[300];

	if (!dir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "fuzz: could not remove %s\n", dir);
}

const char *fuzz_at_page_end(const uint8_t *data, size_t size)
{
	static char *map;
	static size_t map_len;	/* the readable part; a PROT_NONE page follows */
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), need = (size + pg - 1) / pg * pg;

	if (!need)
		need = pg;
	if (need > map_len) {
		if (map)
			munmap(map, map_len + pg);
		map = mmap(NULL, need + pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			   -1, 0);
		if (map == MAP_FAILED || mprotect(map + need, pg, PROT_NONE)) {
			perror("fuzz: a buffer before a guard page");
			abort();
		}
		map_len = need;
	}
	return memcpy(map + map_len - size, data, size);
}

const char *fuzz_dir(void)
{
	const char *t;

	if (dir[0])
		return dir;
	t = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/pts-fuzz.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(dir)) {
		perror("fuzz: mkdtemp");
		abort();
	}
	atexit(remove_dir);
	return dir;
}

const char *fuzz_file(unsigned int slot, const char *name, const void *data, size_t len)
{
	FILE *f;

	if (slot >= NSLOTS)
		abort();
	snprintf(paths[slot], sizeof(paths[slot]), "%s/%s", fuzz_dir(), name);
	f = fopen(paths[slot], "wb");
	if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f)) {
		perror(paths[slot]);
		abort();
	}
	return paths[slot];
}

static void enc(struct pt_encoder *e, enum pt_packet_type type, uint64_t ip, int ipc,
		uint8_t bits, uint8_t nbits)
{
	struct pt_packet p;

	memset(&p, 0, sizeof(p));
	p.type = type;
	p.payload.ip.ipc = (enum pt_ip_compression)ipc;
	p.payload.ip.ip = ip;
	if (type == ppt_tnt_8) {
		p.payload.tnt.bit_size = nbits;
		p.payload.tnt.payload = bits;
	} else if (type == ppt_tsc) {
		p.payload.tsc.tsc = ip;
	} else if (type == ppt_mode) {
		p.payload.mode.leaf = pt_mol_exec;
		p.payload.mode.bits.exec = pt_set_exec_mode(ptem_64bit);
	}
	if (pt_enc_next(e, &p) < 0)
		abort();
}

const char *fuzz_user_trace(void)
{
	static char path[512];
	uint8_t buf[256];
	struct pt_config cfg;
	struct pt_encoder *e;
	uint64_t len = 0;

	if (path[0])
		return path;
	memset(buf, 0, sizeof(buf));
	pt_config_init(&cfg);
	cfg.begin = buf;
	cfg.end = buf + sizeof(buf);
	e = pt_alloc_encoder(&cfg);
	if (!e)
		abort();
	enc(e, ppt_psb, 0, 0, 0, 0);
	enc(e, ppt_tsc, 1000, 0, 0, 0);
	enc(e, ppt_psbend, 0, 0, 0, 0);
	enc(e, ppt_mode, 0, 0, 0, 0);
	enc(e, ppt_tip_pge, 0x401000, pt_ipc_sext_48, 0, 0);
	enc(e, ppt_tnt_8, 0, 0, 0x1b, 5);	/* T T N T T, oldest first */
	enc(e, ppt_tip_pgd, 0, pt_ipc_suppressed, 0, 0);
	pt_enc_get_offset(e, &len);
	pt_free_encoder(e);
	snprintf(path, sizeof(path), "%s", fuzz_file(NSLOTS - 1, "user-main.pt", buf, len));
	return path;
}

void fuzz_split(const uint8_t *data, size_t size, const char *sep, unsigned int i,
		const uint8_t **p, size_t *n)
{
	const uint8_t *at = memmem(data, size, sep, strlen(sep));

	if (!at) {
		*p = i ? data + size : data;
		*n = i ? 0 : size;
	} else if (!i) {
		*p = data;
		*n = (size_t)(at - data);
	} else {
		*p = at + strlen(sep);
		*n = size - (size_t)(*p - data);
	}
}

/* ---- the record rules of writer/writer.h ---------------------------- */

struct thread_state {
	bool named;
	uint32_t open;		/* BEGINs not yet ENDed */
	uint64_t last_ts;
	bool have_ts;
	uint64_t last_slice_ts;	/* the last BEGIN or END: self time runs from it */
};

static struct {
	struct pts_hmap threads;	/* (pid, tid) -> struct thread_state */
	struct pts_hmap procs;		/* pid -> named */
	struct pts_writer *w;
	uint64_t records;
	bool folded;		/* written to folded_path, checked at the end */
	char folded_path[512];
	uint64_t self_ns;	/* time inside slices, summed over threads (wraps as the writer's) */
	uint32_t max_depth;	/* the most slices open at once on a thread */
} sink;

static void broken(const struct pts_tl_rec *r, const char *rule)
{
	fprintf(stderr, "fuzz: record %llu (type %d, %d/%d, ts %llu, depth %u, name %s) breaks "
		"the record rules: %s\n", (unsigned long long)sink.records, r->type, r->pid, r->tid,
		(unsigned long long)r->ts_ns, r->depth, r->name ? r->name : "(null)", rule);
	abort();
}

static void free_state(struct pts_hent *e)
{
	free(e->v.p);
}

void fuzz_sink_begin(enum pts_format fmt)
{
	struct pts_err err;

	sink.records = 0;
	sink.w = NULL;
	sink.self_ns = 0;
	sink.max_depth = 0;
	/* the folded writer's output is read back (folded_check.c), the others go nowhere */
	sink.folded = fmt == PTS_FMT_FOLDED;
	snprintf(sink.folded_path, sizeof(sink.folded_path), "%s/out.folded", fuzz_dir());
	if (fmt != PTS_FMT_NONE &&
	    pts_writer_open(sink.folded ? sink.folded_path : "/dev/null", fmt, &sink.w, &err)) {
		fprintf(stderr, "fuzz: writer: %s\n", err.msg);
		abort();
	}
	if (sink.w)
		pts_writer_strings_interned(sink.w);
}

static struct thread_state *state_of(const struct pts_tl_rec *r)
{
	int32_t key[2] = { r->pid, r->tid };
	struct pts_hent *e;
	bool created;

	e = pts_hmap_get(&sink.threads, key, sizeof(key), &created);
	if (!e)
		abort();
	if (created)
		e->v.p = calloc(1, sizeof(struct thread_state));
	if (!e->v.p)
		abort();
	return e->v.p;
}

int fuzz_emit(void *ctx, const struct pts_tl_rec *r, struct pts_err *err)
{
	struct thread_state *t;
	bool created;

	(void)ctx;
	sink.records++;
	switch (r->type) {
	case PTS_TL_PROCESS:
		if (!pts_hmap_get(&sink.procs, &r->pid, sizeof(r->pid), &created))
			abort();
		break;
	case PTS_TL_THREAD:
		if (!pts_hmap_find(&sink.procs, &r->pid, sizeof(r->pid)))
			broken(r, "a thread named before its process");
		state_of(r)->named = true;
		break;
	case PTS_TL_BEGIN:
	case PTS_TL_END:
	case PTS_TL_INSTANT:
		t = state_of(r);
		if (!t->named)
			broken(r, "a slice or instant before its thread is named");
		if (t->have_ts && r->ts_ns < t->last_ts)
			broken(r, "the thread's time goes back");
		t->last_ts = r->ts_ns;
		t->have_ts = true;
		if (!r->name)
			broken(r, "no name");
		if (r->type != PTS_TL_INSTANT) {
			if (t->open)
				sink.self_ns += r->ts_ns - t->last_slice_ts;
			t->last_slice_ts = r->ts_ns;
		}
		if (r->type == PTS_TL_BEGIN) {
			if (r->depth != t->open)
				broken(r, "a BEGIN not at the depth of the open slices");
			t->open++;
			if (t->open > sink.max_depth)
				sink.max_depth = t->open;
		} else if (r->type == PTS_TL_END) {
			if (!t->open || r->depth != t->open - 1)
				broken(r, "an END that closes no open BEGIN at its depth");
			t->open--;
		}
		break;
	case PTS_TL_COUNTER:
		break;
	default:
		broken(r, "an unknown record type");
	}
	return sink.w ? pts_writer_emit(sink.w, r, err) : 0;
}

void fuzz_sink_end(int decoded)
{
	struct pts_err err;
	size_t i;

	for (i = 0; decoded && i < sink.threads.cap; i++) {
		const struct pts_hent *e = sink.threads.slots[i];
		const struct thread_state *t = e ? e->v.p : NULL;

		if (t && t->open) {
			fprintf(stderr, "fuzz: thread %d/%d: %u slices left open at the end\n",
				((const int32_t *)e->key)[0], ((const int32_t *)e->key)[1], t->open);
			abort();
		}
	}
	if (sink.w) {
		int rc = pts_writer_close(sink.w, true, &err);

		if (rc && decoded) {
			fprintf(stderr, "fuzz: writer: %s\n", err.msg);
			abort();
		}
		if (!rc && decoded && sink.folded)
			fuzz_folded_check(sink.folded_path, sink.self_ns, sink.max_depth);
	}
	sink.w = NULL;
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "fuzz: %llu records, %zu threads\n",
			(unsigned long long)sink.records, sink.threads.n);
	pts_hmap_free(&sink.threads, free_state);
	pts_hmap_free(&sink.procs, NULL);
}
