/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel text for kernel-scope captures: the running kernel's text range
 * from /proc/kallsyms (_stext.._etext), loaded modules from /proc/modules
 * and /sys/module/NAME/sections/.text, and the live bytes read from
 * /proc/kcore (an ELF core file whose PT_LOAD program headers map kernel
 * virtual addresses to file offsets). The live bytes matter: the vmlinux
 * on disk differs through alternatives, static keys and ftrace patching.
 */
#ifndef PTS_CAPTURE_KERNEL_H
#define PTS_CAPTURE_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../util/err.h"

/*
 * Find _stext and _etext in kallsyms text. *start = _stext,
 * *end = _etext (exclusive). -ENOENT if either is missing, -EACCES when
 * the addresses read as zero (kptr_restrict: run as root or set
 * /proc/sys/kernel/kptr_restrict to 0).
 */
int pts_kallsyms_text_range(const char *text, size_t len, uint64_t *start, uint64_t *end,
			    struct pts_err *err);

struct pts_kmodule {
	char name[64];
	uint64_t size;		/* bytes of the whole module (core layout) */
	uint64_t base;		/* load address from /proc/modules, 0 if hidden */
	uint64_t text;		/* lowest code section's address (sysfs), 0 if unknown */
	uint64_t text_size;	/* bytes of code from text (pts_kmodules_text) */
};

/*
 * Parse /proc/modules text ("name size refs deps state 0xaddr ...").
 * *mods malloc'd. 0, -EINVAL (line number in err), -ENOMEM.
 */
int pts_modules_parse(const char *text, size_t len, struct pts_kmodule **mods, size_t *nr,
		      struct pts_err *err);

/*
 * Fill text/text_size of each module with its code's extent
 * (kmodtext.h): the section addresses in sysdir/NAME/sections/ (sysdir
 * normally "/sys/module") and the vmalloc areas of vmallocinfo (normally
 * "/proc/vmallocinfo"; NULL or unreadable: none, then the extent ends at
 * base + size or the first non-code section). Modules without a code
 * section address keep text 0.
 */
void pts_kmodules_text(struct pts_kmodule *mods, size_t nr, const char *sysdir,
		       const char *vmallocinfo);

/*
 * /proc/kcore reader. Opened once, read many times; uses libelf only for
 * the program headers and pread for the bytes.
 */
struct pts_kcore;

/*
 * Open a kcore-format ELF file (path normally "/proc/kcore"). -errno/-EINVAL,
 * with err saying why it cannot be read (pts_kcore_why).
 */
int pts_kcore_open(const char *path, struct pts_kcore **kc, struct pts_err *err);

/*
 * As pts_kcore_open, with the kernel lockdown state read from lockdown
 * (normally "/sys/kernel/security/lockdown"; tests give their own).
 */
int pts_kcore_open_at(const char *path, const char *lockdown, struct pts_kcore **kc,
		      struct pts_err *err);

/*
 * Why kcore at path cannot be used, in words, into buf: errno_ (of open;
 * 0 when it opened but is no ELF core), the lockdown state text (the
 * contents of /sys/kernel/security/lockdown, "none [integrity]
 * confidentiality", or NULL unknown) and whether the file is a character
 * device (a container masks /proc/kcore with /dev/null). Under
 * confidentiality lockdown even root gets EPERM: that is said, not a
 * missing CAP_SYS_RAWIO.
 */
void pts_kcore_why(int errno_, const char *lockdown, bool chardev, char *buf, size_t len);

/*
 * Text symbols of kallsyms text and how many are at address 0: all of
 * them (the listing was read under kptr_restrict=2, or =1 without
 * CAP_SYSLOG) makes a listing that names nothing. Returns true then.
 */
bool pts_kallsyms_zeroed(const char *text, size_t len);

/* The value of kptr_restrict read from path (normally /proc/sys/kernel/kptr_restrict), -1 unknown. */
int pts_kptr_restrict(const char *path);

/*
 * Why a reader sees kallsyms addresses as 0, from the kernel's rule
 * (kallsyms_show_value): kptr_restrict 2 hides them from everyone, 1 from
 * readers without CAP_SYSLOG, 0 too unless perf_event_paranoid is 1 or
 * less (kptr_restrict, paranoid: the sysctls' values, -1 unknown).
 * Written to buf: "kptr_restrict=0, perf_event_paranoid=2: they need
 * CAP_SYSLOG (or perf_event_paranoid 1 or less)".
 */
void pts_kallsyms_hidden_why(int kptr_restrict, int paranoid, char *buf, size_t len);

/*
 * Copy len bytes at kernel virtual address vaddr into buf. The whole range
 * must lie in one PT_LOAD segment's file part. -ERANGE if no segment covers
 * it, -errno of pread.
 */
int pts_kcore_read(struct pts_kcore *kc, uint64_t vaddr, void *buf, size_t len,
		   struct pts_err *err);

void pts_kcore_close(struct pts_kcore *kc);

#endif
