/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /dev/ptscope access for the ptscope command: opening with messages that
 * say what to do (module not loaded, no privilege), ioctls whose refusals
 * are turned into text with the reason table of include/ptscope/reason_text.h,
 * and mmap of the per-CPU rings.
 */
#ifndef PTS_CAPTURE_DEVICE_H
#define PTS_CAPTURE_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uapi/ptscope.h>

#include "../util/err.h"

#define PTS_DEVICE_PATH "/dev/" PTSCOPE_DEVICE_NAME

/*
 * The key `--trigger hotkey` fires on when it names none: the loaded
 * module's hotkey parameter (first character of
 * /sys/module/ptscope/parameters/hotkey; $PTSCOPE_MODULE_SYSFS names
 * another module directory, for tests). 0 when it cannot be read.
 */
int pts_dev_default_hotkey(void);

/* Text of a reason code (include/ptscope/reason_text.h). */
const char *pts_reason_text(uint32_t reason);

/*
 * Message for a failed open(2) of the device, with errno `e`: ENOENT
 * (module not loaded: with this CPU's PT support read by CPUID, hostcpu.h,
 * either the insmod line or "capture needs an Intel CPU" and simulate=1),
 * EACCES/EPERM (root-only node: which capability or group), others.
 * Fills err and returns -e.
 */
int pts_dev_open_error(int e, const char *path, struct pts_err *err);

/*
 * Open the device read-write. Path from $PTSCOPE_DEVICE if set (tests),
 * else /dev/ptscope. Returns the fd, or a negative errno with err filled
 * by pts_dev_open_error.
 */
int pts_dev_open(struct pts_err *err);

/*
 * Format a refused ioctl: "CONFIGURE refused: <reason text> (CPU 7,
 * Invalid argument)" plus what to do for the common reasons. The value
 * is said only for reasons whose reason_arg the module sets
 * (reason_value.h). `what` names the call. hdr is the header copied back
 * by the module; e the errno. Returns -e.
 */
int pts_dev_refusal(const char *what, int e, const struct ptscope_hdr *hdr,
		    struct pts_err *err);

/*
 * The same, followed by "; from <by>" when by is not NULL: the options the
 * refused value came from as the user gave them (pts_opts_refused_by()).
 */
int pts_dev_refusal_by(const char *what, int e, const struct ptscope_hdr *hdr,
		       const char *by, struct pts_err *err);

/*
 * Issue `req` on fd with arg (a struct starting with struct ptscope_hdr
 * whose size the caller set). 0, or -errno with err set by
 * pts_dev_refusal.
 */
int pts_dev_ioctl(int fd, unsigned long req, const char *what, void *arg,
		  struct pts_err *err);

/* Convenience wrappers; each fills hdr.size itself. */
int pts_dev_get_caps(int fd, struct ptscope_caps *caps, struct pts_err *err);
int pts_dev_get_state(int fd, struct ptscope_state *st, struct pts_err *err);
/* GET_TRIGGER: what the triggers are armed on (-ENOTTY: a module without it). */
int pts_dev_get_trigger(int fd, struct ptscope_trigger_info *ti, struct pts_err *err);
/*
 * One line for `ptscope status`: "tracepoint sched:sched_process_exit pid 42;
 * uprobe /usr/bin/prog+0x1139 (file offset), any process, 0 hit(s)".
 */
void pts_trigger_armed_text(const struct ptscope_trigger_info *ti, char *buf, size_t len);
int pts_dev_get_cpu_status(int fd, uint32_t cpu, struct ptscope_cpu_status *cs,
			   struct pts_err *err);
/* START, STOP, TRIGGER, UNCONFIGURE (argument-less commands). */
int pts_dev_cmd(int fd, unsigned long req, const char *what, struct pts_err *err);

/*
 * Read whole sideband records into buf (len bytes). *got = bytes copied,
 * *lost = records lost since configure. 0 or -errno.
 */
int pts_dev_read_sideband(int fd, void *buf, uint32_t len, uint32_t *got,
			  uint64_t *lost, struct pts_err *err);

/* Map CPU `cpu`'s ring read-only (len = buffer size). NULL with err set. */
const void *pts_dev_map_cpu(int fd, uint32_t cpu, uint64_t len, struct pts_err *err);

/* Text names of run states and trigger reasons. */
const char *pts_state_text(uint32_t state);
const char *pts_trigger_reason_text(uint32_t reason);

#endif /* PTS_CAPTURE_DEVICE_H */
