/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test helpers for the bundle tests: temporary directories under $TMPDIR
 * (removed again), copying the hand-written example bundle, and editing
 * its manifest text to build each kind of damaged bundle.
 */
#ifndef PTS_TEST_BUNDLE_FIXTURE_H
#define PTS_TEST_BUNDLE_FIXTURE_H

#include <stddef.h>

/* New empty directory $TMPDIR/ptscope-test-XXXXXX (or /tmp); caller frees. */
char *bt_tmpdir(void);

/* rm -rf path (only ever called on bt_tmpdir results). */
void bt_rmtree(const char *path);

/*
 * Copy tests/golden/bundle/example.ptscope into a new temporary
 * directory and return its path (caller bt_rmtree()s and frees it).
 */
char *bt_copy_example(void);

/* Path of the hand-written example bundle in the source tree; static. */
const char *bt_example_dir(void);

/* Whole file as a NUL-terminated string, NULL on error; caller frees. */
char *bt_read_file(const char *path, size_t *len);

/* Write text to dir/name (replacing it). 0 or -1. */
int bt_write_text(const char *dir, const char *name, const char *text);

/*
 * Replace the first occurrence of `from` by `to` in dir/name.
 * Returns 0, or -1 if `from` does not occur (the test's premise is wrong).
 */
int bt_edit(const char *dir, const char *name, const char *from, const char *to);

#endif
