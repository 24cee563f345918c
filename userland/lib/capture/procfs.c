// SPDX-License-Identifier: GPL-2.0
/*
 * /proc readers: maps, vdso, exe, comm, tasks. See procfs.h.
 */
#include "procfs.h"

#include "../bundle/maps.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

int pts_read_file(const char *path, char **buf, size_t *len, struct pts_err *err)
{
	size_t cap = 16384, n = 0;
	char *b = malloc(cap + 1);
	int fd;

	if (!b)
		return pts_err_set(err, ENOMEM, "out of memory reading %s", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		free(b);
		return pts_err_set(err, e, "cannot open %s: %s", path, strerror(e));
	}
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *nb = realloc(b, cap * 2 + 1);

			if (!nb) {
				free(b);
				close(fd);
				return pts_err_set(err, ENOMEM, "out of memory reading %s", path);
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			free(b);
			close(fd);
			return pts_err_set(err, e, "cannot read %s: %s", path, strerror(e));
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int pts_proc_read_maps(pid_t pid, struct pts_bundle_map **maps, size_t *nr,
		       struct pts_err *err)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/maps", pid ? (int)pid : (int)getpid());
	return pts_maps_read_file(path, maps, nr, err);
}

const struct pts_bundle_map *pts_proc_maps_find(const struct pts_bundle_map *maps, size_t nr,
					   const char *path)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (maps[i].path && !strcmp(maps[i].path, path))
			return &maps[i];
	return NULL;
}

int pts_proc_read_vdso(pid_t pid, const struct pts_bundle_map *maps, size_t nr,
		       void **buf, size_t *len, uint64_t *addr, struct pts_err *err)
{
	const struct pts_bundle_map *m = pts_proc_maps_find(maps, nr, "[vdso]");
	char path[64];
	size_t size, got = 0;
	void *b;
	int fd;

	if (!m)
		return pts_err_set(err, ENOENT, "process %d has no [vdso] mapping", (int)pid);
	size = (size_t)(m->end - m->start);
	b = malloc(size ? size : 1);
	if (!b)
		return pts_err_set(err, ENOMEM, "out of memory for the vdso");
	snprintf(path, sizeof(path), "/proc/%d/mem", pid ? (int)pid : (int)getpid());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		free(b);
		return pts_err_set(err, e, "cannot open %s for the vdso: %s%s", path, strerror(e),
				   e == EACCES || e == EPERM ?
				   " (needs ptrace access to the process)" : "");
	}
	while (got < size) {
		ssize_t r = pread(fd, (char *)b + got, size - got, (off_t)(m->start + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int e = r < 0 ? errno : EIO;

			close(fd);
			free(b);
			return pts_err_set(err, e, "cannot read the vdso of %d at 0x%" PRIx64 ": %s",
					   (int)pid, m->start + got, strerror(e));
		}
		got += (size_t)r;
	}
	close(fd);
	*buf = b;
	*len = size;
	*addr = m->start;
	return 0;
}

int pts_proc_exe(pid_t pid, char **path, struct pts_err *err)
{
	char link[64], buf[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/exe", pid ? (int)pid : (int)getpid());
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n < 0)
		return pts_err_set(err, errno, "cannot read %s: %s", link, strerror(errno));
	buf[n] = '\0';
	*path = strdup(buf);
	return *path ? 0 : pts_err_set(err, ENOMEM, "out of memory");
}

int pts_proc_comm(pid_t pid, char comm[16], struct pts_err *err)
{
	char path[64], *text;
	size_t len;
	int ret;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid ? (int)pid : (int)getpid());
	ret = pts_read_file(path, &text, &len, err);
	if (ret)
		return ret;
	if (len && text[len - 1] == '\n')
		text[--len] = '\0';
	snprintf(comm, 16, "%s", text);
	free(text);
	return 0;
}

int pts_proc_tids(pid_t pid, int32_t **tids, size_t *nr, struct pts_err *err)
{
	char path[64];
	struct dirent *de;
	int32_t *v = NULL;
	size_t n = 0, cap = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid ? (int)pid : (int)getpid());
	d = opendir(path);
	if (!d)
		return pts_err_set(err, errno, "cannot list %s: %s", path, strerror(errno));
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (n == cap) {
			int32_t *nv;

			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				closedir(d);
				return pts_err_set(err, ENOMEM, "out of memory");
			}
			v = nv;
		}
		v[n++] = (int32_t)atoi(de->d_name);
	}
	closedir(d);
	*tids = v;
	*nr = n;
	return 0;
}

int pts_proc_open_mapped(pid_t pid, const struct pts_bundle_map *m, struct pts_err *err)
{
	char proc[32], path[4200];
	const char *del;
	struct stat st;
	int fd;

	if (!m->path || m->path[0] != '/' || !m->inode)
		return pts_err_set(err, EINVAL, "not a file mapping");
	if (pid)
		snprintf(proc, sizeof(proc), "/proc/%d", (int)pid);
	else
		snprintf(proc, sizeof(proc), "/proc/self");
	/* the mapped file itself, whatever its path now holds */
	snprintf(path, sizeof(path), "%s/map_files/%" PRIx64 "-%" PRIx64, proc, m->start, m->end);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	/* a file deleted while mapped is reachable only through map_files */
	del = strstr(m->path, " (deleted)");
	if (del && !del[10])
		return pts_err_set(err, ENOENT, "%s was deleted while mapped and %s is not "
				   "readable (needs CAP_SYS_ADMIN)", m->path, path);
	snprintf(path, sizeof(path), "%s/root%s", proc, m->path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pts_err_set(err, errno, "cannot open %s: %s", path, strerror(errno));
	if (fstat(fd, &st) || st.st_ino != m->inode || major(st.st_dev) != m->dev_major ||
	    minor(st.st_dev) != m->dev_minor) {
		pts_err_set(err, ESTALE, "%s is not the file mapped (inode %llu on %u:%u, mapped "
			    "inode %" PRIu64 " on %u:%u): replaced since it was mapped",
			    m->path, (unsigned long long)st.st_ino, major(st.st_dev),
			    minor(st.st_dev), m->inode, m->dev_major, m->dev_minor);
		close(fd);
		return -ESTALE;
	}
	return fd;
}
