/* SPDX-License-Identifier: GPL-2.0 */
/*
 * String interning: one stable copy per distinct string, so records held
 * by the timeline builder can point at names after the caller's buffer is
 * gone. Strings live until pts_strpool_free.
 */
#ifndef PTS_TIMELINE_STRPOOL_H
#define PTS_TIMELINE_STRPOOL_H

#include <stddef.h>

struct pts_strpool;

struct pts_strpool *pts_strpool_new(void);
/* The interned copy of s (NULL for NULL); NULL on ENOMEM. */
const char *pts_strpool_intern(struct pts_strpool *p, const char *s);
size_t pts_strpool_count(const struct pts_strpool *p);
void pts_strpool_free(struct pts_strpool *p);

#endif
