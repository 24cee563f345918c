/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PTS_ASSUME(cond): an invariant the code after it relies on, told to the
 * compiler so that it drops the tests of cond inlined after it (a hot
 * loop's). A release build takes it on trust: broken, it is undefined
 * behaviour. Builds with AddressSanitizer (`make fuzz` and check 68 build
 * the harnesses with ASan and UBSan) and builds with -DPTS_CHECKED check
 * it instead and abort naming it, so that an input that breaks it is
 * reported where it breaks. (UBSan alone reports the unreachable point
 * reached: -fsanitize=unreachable is part of -fsanitize=undefined.)
 */
#ifndef PTS_UTIL_ASSUME_H
#define PTS_UTIL_ASSUME_H

#include <stdio.h>
#include <stdlib.h>

#if defined(__SANITIZE_ADDRESS__) || defined(PTS_CHECKED)
#define PTS_ASSUME_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTS_ASSUME_CHECKED 1
#endif
#endif

#ifdef PTS_ASSUME_CHECKED
static inline __attribute__((noreturn, cold)) void pts_assume_broken(const char *cond,
								     const char *file, int line)
{
	fprintf(stderr, "%s:%d: assumption broken: %s\n", file, line, cond);
	abort();
}
#define PTS_ASSUME(cond) ((cond) ? (void)0 : pts_assume_broken(#cond, __FILE__, __LINE__))
#else
#define PTS_ASSUME(cond) ((cond) ? (void)0 : __builtin_unreachable())
#endif

#endif /* PTS_UTIL_ASSUME_H */
