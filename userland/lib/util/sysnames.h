/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 syscall names by number: the kernel's own table as the system's
 * <asm/unistd_64.h> defines it (__NR_<name>), turned into C at build time
 * by scripts/gen-sysnames.sh (build/gen/sysnames.c, a build product).
 */
#ifndef PTS_UTIL_SYSNAMES_H
#define PTS_UTIL_SYSNAMES_H

#include <stdint.h>

/* "write" for 1; NULL for a number the table does not name (or < 0). */
const char *pts_syscall_name(int64_t nr);

/* How many numbers the table names (the headers' __NR_ defines). */
unsigned int pts_syscall_names_count(void);

#endif
