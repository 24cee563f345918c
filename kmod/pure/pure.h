/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files in kmod/pure/ are compiled twice: into ptscope.ko by kbuild, and
 * into the host unit tests (make check) with -DPTS_HOST. They use only
 * the kernel's fixed-width types, bool and the errno values, which this
 * header provides in both worlds. No allocation, locking or MSR access
 * here: callers pass in state and memory.
 */
#ifndef PTSCOPE_PURE_H
#define PTSCOPE_PURE_H

#ifdef PTS_HOST
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/types.h>
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;
#else
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/stddef.h>
#include <linux/string.h>
/*
 * The kernel's msr-index.h spells a few RTIT bits like rtit.h (same
 * values, different expressions). Pull it in first and let rtit.h's
 * definitions win, so both can be included in any order.
 */
#include <asm/msr-index.h>
#undef RTIT_CTL_TRACEEN
#undef RTIT_CTL_OS
#undef RTIT_CTL_TOPA
#undef RTIT_CTL_DISRETC
#undef RTIT_STATUS_FILTEREN
#undef RTIT_STATUS_CONTEXTEN
#undef RTIT_STATUS_TRIGGEREN
#undef RTIT_STATUS_ERROR
#undef RTIT_STATUS_STOPPED
#endif

#include "../../include/ptscope/rtit.h"

#endif /* PTSCOPE_PURE_H */
