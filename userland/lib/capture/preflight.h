/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The checks of a capture's options that need this machine but not the
 * module: run before /dev/ptscope is opened, so that a bad value (a CPU
 * that is not online, a pid that names no process, a command that cannot
 * be run, a trigger's symbol that is not in its file) is said as itself,
 * with what to do, rather than hidden behind "the module is not loaded".
 * The module's own answers (pts_opts_fit_caps) are checked again after
 * the open: these checks only come first, they replace none.
 */
#ifndef PTS_CAPTURE_PREFLIGHT_H
#define PTS_CAPTURE_PREFLIGHT_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"

/*
 * Whether every CPU of mask is in online, a list of online CPUs in the
 * format of /sys/devices/system/cpu/online ("0-3,6", a newline after it
 * or not). Pure. Returns 0 when they all are, or when online is NULL or
 * cannot be read (nothing is known: the module's online mask decides
 * later); -EINVAL naming the first CPU that is not online.
 */
int pts_preflight_cpus(const __u64 mask[PTSCOPE_CPU_MASK_WORDS], const char *online,
		       struct pts_err *err);

/*
 * Where execvp() would find file given PATH path_env (NULL: unset, taken
 * as glibc's "/bin:/usr/bin"): file itself when it holds a '/', else the
 * first PATH entry holding an executable regular file of that name (an
 * empty entry is the current directory). Returns 0 with the path in out
 * (len bytes); -ENOENT no such file anywhere; -EACCES only files that
 * are not executable (or not regular files).
 */
int pts_preflight_which(const char *file, const char *path_env, char *out, size_t len);

/*
 * The checks above for o, against this machine (/sys, /proc, PATH, the
 * trigger's file): -C's CPUs online, attach -p's process alive, run's
 * CMD found and executable, uprobe:PATH:SYMBOL resolved, and a bare
 * SYMBOL resolved in CMD (as PATH finds it) or in the process's
 * executable, when that is an ELF file this process can read (a
 * script's symbols are looked up once it runs). Returns 0, or a
 * negative errno with the message in err; *bad_option is set when the
 * error is an option's value the machine cannot do (exit 2, as
 * pts_opts_fit_caps's), clear when an input names something missing
 * (exit 1).
 */
int pts_preflight(const struct pts_capture_opts *o, bool *bad_option, struct pts_err *err);

#endif /* PTS_CAPTURE_PREFLIGHT_H */
