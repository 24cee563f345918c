// SPDX-License-Identifier: GPL-2.0
/* Writing the bundle of a ptsynth run (layout in out.h). */
#include "out.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <uapi/ptscope.h>

#include "bundle/maps.h"
#include "ptsynth_enc.h"
#include "ptsynth_gt.h"

static int mkdir_p(const char *path)
{
	char tmp[4096], *p;

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int write_file(const char *dir, const char *rel, const void *data, size_t len,
		      struct pts_err *err)
{
	return pts_bundle_write_file(dir, rel, data, len, err);
}

static void note_tid(struct out *out, int32_t tid)
{
	int32_t *n;

	for (size_t i = 0; i < out->nr_tids; i++)
		if (out->tids[i] == tid)
			return;
	n = realloc(out->tids, (out->nr_tids + 1) * sizeof(*n));
	if (!n)
		return;
	out->tids = n;
	out->tids[out->nr_tids++] = tid;
}

static int sb_add(struct out *out, const void *rec, size_t size)
{
	uint8_t *n = realloc(out->sb, out->sb_len + size);

	if (!n)
		return -ENOMEM;
	memcpy(n + out->sb_len, rec, size);
	out->sb = n;
	out->sb_len += size;
	return 0;
}

int out_begin(struct out *out, const struct run_opts *o, struct pts_err *err)
{
	struct stat sb;
	char path[4200];

	memset(out, 0, sizeof(*out));
	out->o = o;
	if (stat(o->out, &sb) == 0)
		return pts_err_set(err, EEXIST, "%s exists: remove it or choose another -o name",
				   o->out);
	if (mkdir_p(o->out) < 0)
		return pts_err_set(err, errno, "cannot create %s: %s", o->out, strerror(errno));
	out->dir = strdup(o->out);
	snprintf(path, sizeof(path), "%s/ground-truth.txt", o->out);
	out->gt = fopen(path, "w");
	if (!out->gt || !out->dir)
		return pts_err_set(err, errno, "cannot create %s: %s", path, strerror(errno));
	/* Big buffer: one line per instruction. */
	setvbuf(out->gt, NULL, _IOFBF, 1 << 20);
	fprintf(out->gt, "%s\n# produced by the ptsynth reference encoder (not PT hardware)\n",
		PTSYNTH_GT_HEADER);
	return 0;
}

static void free_maps(struct out_maps *m)
{
	pts_maps_free(m->v, m->n);
	m->v = NULL;
	m->n = 0;
}

int out_take_maps(struct out *out, pid_t pid, bool at_exit, struct pts_err *err)
{
	struct out_maps *m = at_exit ? &out->exit : &out->arm;
	char path[64];
	size_t i;
	int e;

	free_maps(m);
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	e = pts_maps_read_file(path, &m->v, &m->n, err);
	if (e)
		return e;
	for (i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].path, "[vdso]")) {
			out->vdso_addr = m->v[i].start;
			out->vdso_size = m->v[i].end - m->v[i].start;
		}
	return 0;
}

static int write_vdso(struct out *out, struct pts_err *err)
{
	char path[64], rel[64];
	uint8_t *buf;
	ssize_t n;
	int fd, e;

	if (!out->vdso_size)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/mem", out->pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pts_err_set(err, errno, "cannot read the vdso: %s", strerror(errno));
	buf = malloc(out->vdso_size);
	n = buf ? pread(fd, buf, out->vdso_size, (off_t)out->vdso_addr) : -1;
	close(fd);
	if (n != (ssize_t)out->vdso_size) {
		free(buf);
		return pts_err_set(err, EIO, "cannot read the vdso of pid %d", out->pid);
	}
	snprintf(rel, sizeof(rel), "vdso/%d.so", out->pid);
	e = write_file(out->dir, rel, buf, out->vdso_size, err);
	free(buf);
	return e;
}

int out_start_process(struct out *out, pid_t pid, const char *cmd, uint64_t tsc,
		      struct pts_err *err)
{
	struct ptscope_sb_trace tr;
	struct ptscope_sb_switch sw;
	char path[64], exe[4096], buf[sizeof(struct ptscope_sb_exec) + 4104];
	struct ptscope_sb_exec *ex = (void *)buf;
	const char *base;
	ssize_t n;
	size_t fl, size;
	int e;

	struct timespec ts;

	out->pid = pid;
	out->start_tsc = tsc;
	note_tid(out, pid);
	clock_gettime(CLOCK_REALTIME, &ts);
	out->start_realtime_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	out->start_monotonic_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = 0;
	out->exe = strdup(n > 0 ? exe : cmd);
	base = strrchr(out->exe, '/');
	snprintf(out->comm, sizeof(out->comm), "%s", base ? base + 1 : out->exe);
	e = out_take_maps(out, pid, false, err);
	if (!e)
		e = write_vdso(out, err);
	if (e)
		return e;

	/* Sideband: the exec that started the process, then TraceEn. */
	memset(buf, 0, sizeof(buf));
	fl = strlen(out->exe) + 1;
	size = (sizeof(*ex) + fl + 7) & ~(size_t)7;
	ex->hdr.type = PTSCOPE_SB_EXEC;
	ex->hdr.size = (uint16_t)size;
	ex->hdr.cpu = 0;
	ex->hdr.tsc = tsc;
	ex->pid = pid;
	ex->tid = pid;
	memcpy(ex->comm, out->comm, sizeof(ex->comm) - 1);
	memcpy(ex->filename, out->exe, fl);
	if (sb_add(out, ex, size))
		return pts_err_set(err, ENOMEM, "out of memory");
	/* The command is what runs on CPU 0 from the start: a switch from the
	 * idle task, as the module records when a traced task is scheduled in. */
	memset(&sw, 0, sizeof(sw));
	sw.hdr.type = PTSCOPE_SB_SCHED_SWITCH;
	sw.hdr.size = sizeof(sw);
	sw.hdr.tsc = tsc;
	sw.next_pid = pid;
	sw.next_tid = pid;
	memcpy(sw.next_comm, out->comm, sizeof(sw.next_comm) - 1);
	if (sb_add(out, &sw, sizeof(sw)))
		return pts_err_set(err, ENOMEM, "out of memory");
	memset(&tr, 0, sizeof(tr));
	tr.hdr.type = PTSCOPE_SB_TRACE_START;
	tr.hdr.size = sizeof(tr);
	tr.hdr.tsc = tsc;
	tr.rtit_ctl = ptsynth_config_rtit_ctl(&out->o->cfg);
	tr.pid = pid;
	tr.tid = pid;
	if (sb_add(out, &tr, sizeof(tr)))
		return pts_err_set(err, ENOMEM, "out of memory");
	return 0;
}

int out_sb_switch(struct out *out, uint64_t tsc, pid_t pid, pid_t prev_tid, pid_t next_tid,
		  const char *comm)
{
	struct ptscope_sb_switch sw;

	memset(&sw, 0, sizeof(sw));
	sw.hdr.type = PTSCOPE_SB_SCHED_SWITCH;
	sw.hdr.size = sizeof(sw);
	sw.hdr.tsc = tsc;
	sw.prev_pid = prev_tid < 0 ? 0 : pid;
	sw.prev_tid = prev_tid < 0 ? 0 : prev_tid;
	sw.next_pid = pid;
	sw.next_tid = next_tid;
	snprintf(sw.next_comm, sizeof(sw.next_comm), "%s", comm);
	note_tid(out, next_tid);
	return sb_add(out, &sw, sizeof(sw));
}

int out_sb_exit(struct out *out, uint64_t tsc, pid_t pid, pid_t tid)
{
	struct ptscope_sb_exit ex;

	memset(&ex, 0, sizeof(ex));
	ex.hdr.type = PTSCOPE_SB_EXIT;
	ex.hdr.size = sizeof(ex);
	ex.hdr.tsc = tsc;
	ex.pid = pid;
	ex.tid = tid;
	return sb_add(out, &ex, sizeof(ex));
}

int out_sb_syscall(struct out *out, uint16_t type, uint64_t tsc, pid_t pid, pid_t tid,
		   int64_t nr, int64_t ret, uint64_t ip)
{
	struct ptscope_sb_syscall r;

	memset(&r, 0, sizeof(r));
	r.hdr.type = type;
	r.hdr.size = sizeof(r);
	r.hdr.tsc = tsc;
	r.pid = pid;
	r.tid = tid;
	r.nr = nr;
	r.ret = ret;
	r.ip = ip;
	return sb_add(out, &r, sizeof(r));
}

int out_sb_fork(struct out *out, uint64_t tsc, pid_t pid, pid_t parent_tid, pid_t child_tid)
{
	struct ptscope_sb_fork f;

	memset(&f, 0, sizeof(f));
	f.hdr.type = PTSCOPE_SB_FORK;
	f.hdr.size = sizeof(f);
	f.hdr.tsc = tsc;
	f.parent_pid = pid;
	f.parent_tid = parent_tid;
	f.child_pid = pid;
	f.child_tid = child_tid;
	note_tid(out, child_tid);
	return sb_add(out, &f, sizeof(f));
}

int out_restart(struct out *out, pid_t pid, uint64_t tsc, struct pts_err *err)
{
	free(out->sb);
	out->sb = NULL;
	out->sb_len = 0;
	free(out->exe);
	out->exe = NULL;
	free(out->tids);
	out->tids = NULL;
	out->nr_tids = 0;
	free_maps(&out->arm);
	free_maps(&out->exit);
	free(out->pages);
	out->pages = NULL;
	out->pages_cap = out->pages_n = 0;
	out->vdso_addr = out->vdso_size = 0;
	if (fflush(out->gt) || ftruncate(fileno(out->gt), 0) || fseek(out->gt, 0, SEEK_SET))
		return pts_err_set(err, errno, "restarting the ground truth: %s", strerror(errno));
	fprintf(out->gt, "%s\n# produced by the ptsynth reference encoder (not PT hardware)\n",
		PTSYNTH_GT_HEADER);
	return out_start_process(out, pid, "", tsc, err);
}

void out_note_page(struct out *out, uint64_t ip)
{
	uint64_t pg = (ip >> 12) + 1, h;

	if (out->pages_n * 2 >= out->pages_cap) {
		size_t cap = out->pages_cap ? out->pages_cap * 2 : 1024, i;
		uint64_t *nv = calloc(cap, sizeof(*nv));

		if (!nv)
			return;
		for (i = 0; i < out->pages_cap; i++) {
			uint64_t v = out->pages[i];

			if (!v)
				continue;
			for (h = v * 0x9e3779b97f4a7c15ULL % cap; nv[h]; h = (h + 1) % cap)
				;
			nv[h] = v;
		}
		free(out->pages);
		out->pages = nv;
		out->pages_cap = cap;
	}
	for (h = pg * 0x9e3779b97f4a7c15ULL % out->pages_cap; out->pages[h];
	     h = (h + 1) % out->pages_cap)
		if (out->pages[h] == pg)
			return;
	out->pages[h] = pg;
	out->pages_n++;
}

static bool page_executed(const struct out *out, uint64_t vaddr)
{
	uint64_t pg = (vaddr >> 12) + 1, h;

	if (!out->pages_cap)
		return false;
	for (h = pg * 0x9e3779b97f4a7c15ULL % out->pages_cap; out->pages[h];
	     h = (h + 1) % out->pages_cap)
		if (out->pages[h] == pg)
			return true;
	return false;
}

static int read_whole(const char *path, uint8_t **data, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return -errno;
	}
	*len = (size_t)st.st_size;
	*data = malloc(*len ? *len : 1);
	if (!*data) {
		close(fd);
		return -ENOMEM;
	}
	n = pread(fd, *data, *len, 0);
	close(fd);
	if (n < 0 || (size_t)n != *len) {
		free(*data);
		return -EIO;
	}
	return 0;
}

/* The maps that describe the image: the exit snapshot, else the arm one. */
const struct out_maps *out_image_maps(const struct out *out)
{
	return out->exit.n ? &out->exit : &out->arm;
}

/* Copy each executable file once into objects/<path>; with trim_objects
 * zero the code pages no instruction executed in, which keeps the shipped
 * sample small. */
static int copy_objects(struct out *out, struct pts_err *err)
{
	const struct out_maps *m = out_image_maps(out);
	size_t i, j;

	for (i = 0; i < m->n; i++) {
		const struct pts_bundle_map *mp = &m->v[i];
		char rel[4200];
		uint8_t *data = NULL;
		size_t len = 0;
		bool dup = false;
		int e;

		if (mp->path[0] != '/' || mp->perms[2] != 'x')
			continue;
		for (j = 0; j < i; j++)
			if (m->v[j].perms[2] == 'x' && !strcmp(m->v[j].path, mp->path))
				dup = true;
		if (dup)
			continue;
		e = read_whole(mp->path, &data, &len);
		if (e)
			return pts_err_set(err, e, "cannot copy %s into the bundle: %s", mp->path,
					   strerror(-e));
		if (out->o->trim_objects) {
			uint64_t off;

			for (off = 0; off < len; off += 4096) {
				bool in_text = false, ran = false;

				/* Only code pages that never ran are zeroed: headers,
				 * symbol tables and data stay (the decoder symbolises
				 * from this copy). */
				for (j = 0; j < m->n; j++) {
					const struct pts_bundle_map *x = &m->v[j];

					if (x->perms[2] != 'x' || strcmp(x->path, mp->path) ||
					    off < x->pgoff || off >= x->pgoff + (x->end - x->start))
						continue;
					in_text = true;
					ran = ran || page_executed(out, x->start + (off - x->pgoff));
				}
				if (in_text && !ran)
					memset(data + off, 0, len - off < 4096 ? len - off : 4096);
			}
		}
		snprintf(rel, sizeof(rel), "objects%s", mp->path);
		e = write_file(out->dir, rel, data, len, err);
		free(data);
		if (e)
			return e;
	}
	return 0;
}

static int write_image_records(struct out *out)
{
	const struct out_maps *m = out_image_maps(out);
	size_t i;

	for (i = 0; i < m->n; i++) {
		const struct pts_bundle_map *mp = &m->v[i];

		if (mp->perms[2] != 'x')
			continue;
		if (mp->path[0] == '/')
			fprintf(out->gt, "m %" PRIx64 " %" PRIx64 " %" PRIx64 " objects%s\n",
				mp->start, mp->end, mp->pgoff, mp->path);
		else if (!strcmp(mp->path, "[vdso]"))
			fprintf(out->gt, "m %" PRIx64 " %" PRIx64 " 0 vdso/%d.so\n",
				mp->start, mp->end, out->pid);
	}
	return 0;
}

int out_finish(struct out *out, struct ptsynth_enc *enc, pid_t pid, uint64_t tsc,
	       const struct run_summary *sum, struct pts_err *err)
{
	struct ptscope_sb_exit ex;
	struct ptscope_sb_trace tr;
	struct ptscope_sb_switch sw;
	const uint8_t *data;
	size_t len, off = 0;
	int e;

	data = ptsynth_enc_data(enc, &len);
	if (out->o->wrap_size && len > out->o->wrap_size) {
		/* A ring of wrap_size bytes holds the last wrap_size bytes; the
		 * oldest byte is at the write head (len % size): linearised, the
		 * file is simply the tail of the stream, starting mid-packet. */
		off = len - out->o->wrap_size;
		fprintf(out->gt, "w %zx\n", off);
	}
	e = write_file(out->dir, "cpu0.pt", data + off, len - off, err);
	if (e)
		return e;

	memset(&tr, 0, sizeof(tr));
	tr.hdr.type = PTSCOPE_SB_TRACE_STOP;
	tr.hdr.size = sizeof(tr);
	tr.hdr.tsc = tsc;
	tr.rtit_ctl = ptsynth_config_rtit_ctl(&out->o->cfg);
	tr.head = out->o->wrap_size ? len % out->o->wrap_size : len;
	tr.pid = pid;
	tr.tid = pid;
	memset(&ex, 0, sizeof(ex));
	ex.hdr.type = PTSCOPE_SB_EXIT;
	ex.hdr.size = sizeof(ex);
	ex.hdr.tsc = tsc;
	ex.pid = pid;
	ex.tid = pid;
	/* The exited task leaves CPU 0 to the idle task. */
	memset(&sw, 0, sizeof(sw));
	sw.hdr.type = PTSCOPE_SB_SCHED_SWITCH;
	sw.hdr.size = sizeof(sw);
	sw.hdr.tsc = tsc;
	sw.prev_pid = pid;
	sw.prev_tid = pid;
	memcpy(sw.next_comm, "swapper/0", 10);
	if (sb_add(out, &ex, sizeof(ex)) || sb_add(out, &sw, sizeof(sw)) ||
	    sb_add(out, &tr, sizeof(tr)))
		return pts_err_set(err, ENOMEM, "out of memory");
	e = write_file(out->dir, "sideband.bin", out->sb, out->sb_len, err);
	if (!e)
		e = copy_objects(out, err);
	if (e)
		return e;
	write_image_records(out);
	if (fclose(out->gt)) {
		out->gt = NULL;
		return pts_err_set(err, errno, "writing the ground truth: %s", strerror(errno));
	}
	out->gt = NULL;
	e = out_write_manifest(out, enc, tsc, len, sum, err);
	out_abort(out);
	return e;
}

void out_abort(struct out *out)
{
	if (out->gt)
		fclose(out->gt);
	out->gt = NULL;
	free_maps(&out->arm);
	free_maps(&out->exit);
	free(out->sb);
	free(out->exe);
	free(out->dir);
	free(out->pages);
	free(out->tids);
	out->tids = NULL;
	out->nr_tids = 0;
	out->sb = NULL;
	out->exe = NULL;
	out->dir = NULL;
	out->pages = NULL;
}
