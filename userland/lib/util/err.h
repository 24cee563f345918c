/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error reporting for the userland library: every fallible function
 * returns 0 or a negative errno value and, when given a struct pts_err,
 * fills it with a one-line message that says what went wrong and what to
 * do about it. Callers print err->msg; they never rebuild messages.
 */
#ifndef PTS_UTIL_ERR_H
#define PTS_UTIL_ERR_H

#include <stddef.h>

#define PTS_ERR_MSG_LEN 512

struct pts_err {
	int code;			/* negative errno, 0 if none */
	char msg[PTS_ERR_MSG_LEN];	/* NUL-terminated */
};

/*
 * Record an error: sets err->code = -abs(code) and formats the message.
 * err may be NULL. Returns -abs(code) so callers can `return pts_err_set(...)`.
 */
int pts_err_set(struct pts_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Clear err (code 0, empty message). err may be NULL. */
void pts_err_clear(struct pts_err *err);

#endif /* PTS_UTIL_ERR_H */
