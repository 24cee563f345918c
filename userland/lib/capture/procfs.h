/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc readers for the capture: memory maps, vdso bytes, executable path,
 * comm, threads. Maps use the bundle model's struct pts_bundle_map.
 */
#ifndef PTS_CAPTURE_PROCFS_H
#define PTS_CAPTURE_PROCFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../bundle/bundle.h"
#include "../util/err.h"

/*
 * Read and parse /proc/PID/maps (pid 0 = self) with the bundle library's
 * parser (bundle/maps.h; free with pts_maps_free). -ENOENT when the
 * process is gone, -EACCES without ptrace access.
 */
int pts_proc_read_maps(pid_t pid, struct pts_bundle_map **maps, size_t *nr,
		       struct pts_err *err);

/* The entry whose path is exactly `path` ("[vdso]"), or NULL. */
const struct pts_bundle_map *pts_proc_maps_find(const struct pts_bundle_map *maps, size_t nr,
					   const char *path);

/*
 * Read the process's [vdso] bytes from /proc/PID/mem at the [vdso] map.
 * *buf is malloc'd (*len bytes = map size), *addr the map start.
 * -ENOENT when the process has no [vdso], -errno of open/pread
 * (-EACCES/-EPERM without ptrace rights; -EIO for unreadable pages).
 */
int pts_proc_read_vdso(pid_t pid, const struct pts_bundle_map *maps, size_t nr,
		       void **buf, size_t *len, uint64_t *addr, struct pts_err *err);

/*
 * Open the file behind mapping m of process pid as it is mapped, to copy
 * it: /proc/PID/map_files/START-END (the mapped file itself, also after it
 * was deleted or replaced on disk; needs CAP_SYS_ADMIN), else
 * /proc/PID/root/PATH (the path in the process's mount namespace), whose
 * device and inode must be the maps line's. pid 0 = self. Returns an fd
 * (O_RDONLY | O_CLOEXEC); -ESTALE the file at the path is not the one
 * mapped (replaced since: err names both inodes), -EINVAL not a file
 * mapping, else -errno of the last open.
 */
int pts_proc_open_mapped(pid_t pid, const struct pts_bundle_map *m, struct pts_err *err);

/* readlink /proc/PID/exe into a malloc'd string. -errno. */
int pts_proc_exe(pid_t pid, char **path, struct pts_err *err);

/* /proc/PID/comm without the newline into comm[16]. -errno. */
int pts_proc_comm(pid_t pid, char comm[16], struct pts_err *err);

/* Thread ids from /proc/PID/task (malloc'd). -errno. */
int pts_proc_tids(pid_t pid, int32_t **tids, size_t *nr, struct pts_err *err);

/*
 * Read a whole (proc) file into a malloc'd, NUL-terminated buffer; works
 * for files whose st_size is 0. -errno.
 */
int pts_read_file(const char *path, char **buf, size_t *len, struct pts_err *err);

#endif
