/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Support for the libFuzzer harnesses of tests/fuzz (docs/fuzzing.md):
 * one harness per input surface, each a LLVMFuzzerTestOneInput that
 * hands the input to the library in-process. Inputs become files in a
 * private temporary directory (the library reads paths); the records a
 * decode emits are checked against the writer's record rules
 * (writer/writer.h) as they stream, then written by a real writer to
 * /dev/null. A broken rule aborts with what was broken: a finding.
 *
 * Built twice: with clang and -fsanitize=fuzzer,address,undefined (make
 * fuzz), and with the project's compiler and replay.c as main (make
 * check replays the corpus in tests/fuzz/corpus/NAME without clang).
 */
#ifndef PTS_FUZZ_H
#define PTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "timeline/timeline.h"
#include "writer/writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where the harnesses find the programs they decode (make builds them). */
#ifndef FUZZ_DATA
#define FUZZ_DATA "build/fuzz-data"
#endif

/*
 * Write len bytes as NAME in the harness's temporary directory (made on
 * first use, removed at exit); returns its path (static storage per name
 * slot: slot 0..7). Aborts when the file cannot be written.
 */
const char *fuzz_file(unsigned int slot, const char *name, const void *data, size_t len);

/* The temporary directory itself (for bundles). */
const char *fuzz_dir(void);

/*
 * Start checking one decode's records; fmt: the writer they also go to
 * (/dev/null; folded to a file whose lines are checked at the end),
 * PTS_FMT_NONE for none. fuzz_emit is the pts_tl_emit_fn,
 * its ctx unused (NULL). fuzz_sink_end checks nothing was left open and
 * closes the writer; decoded: whether the decode returned success (a
 * failed decode may stop with slices open).
 */
void fuzz_sink_begin(enum pts_format fmt);
int fuzz_emit(void *ctx, const struct pts_tl_rec *rec, struct pts_err *err);
void fuzz_sink_end(int decoded);

/*
 * Check the folded writer's output file (folded_check.c) against the
 * records it was given: self_ns, the ns spent inside slices summed over
 * threads; max_depth, the most slices open at once. Aborts when broken.
 */
void fuzz_folded_check(const char *path, uint64_t self_ns, uint32_t max_depth);

/*
 * A small trace of tests/golden/decode/user.S (user scope, libipt's
 * encoder): PSB+ TIP.PGE(_start 401000) TNT(TTNTT) TIP.PGD — _start
 * calls f1 and f2 (a loop of three passes), both return, the syscall
 * turns tracing off. Written once as FUZZ_FILE_TRACE in the directory.
 */
const char *fuzz_user_trace(void);

/* The programs: FUZZ_DATA "/user.elf" and "/kernel.elf". */
#define FUZZ_USER_ELF FUZZ_DATA "/user.elf"
#define FUZZ_KERNEL_ELF FUZZ_DATA "/kernel.elf"

/*
 * A copy of data whose last byte is followed by a page that cannot be
 * read, for a parser given a buffer and its length (not a NUL-ended
 * string): one that reads past the length faults at once, whatever the
 * sanitizers see (libc's strtoull is not checked by them). Valid until
 * the next call; aborts when the memory cannot be had.
 */
const char *fuzz_at_page_end(const uint8_t *data, size_t size);

/* Split data at the first occurrence of sep: part i (0 or 1) in *p, *n. */
void fuzz_split(const uint8_t *data, size_t size, const char *sep, unsigned int i,
		const uint8_t **p, size_t *n);

#endif /* PTS_FUZZ_H */
