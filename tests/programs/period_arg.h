/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timer period argument of the corpus's timer programs (signals.c,
 * cfeatures.c), in microseconds: 1 to 999999 (setitimer's tv_usec).
 * Anything else would arm no timer (0) or fail (EINVAL), and the program
 * would wait for its signal forever: refused instead, with exit status 2.
 */
#ifndef PTS_PROGRAMS_PERIOD_ARG_H
#define PTS_PROGRAMS_PERIOD_ARG_H

#include <stdio.h>
#include <stdlib.h>

static long period_arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < 1 || v > 999999) {
		fprintf(stderr, "usage: [PERIOD_US], 1 to 999999 microseconds (got '%s')\n", s);
		exit(2);
	}
	return v;
}

#endif /* PTS_PROGRAMS_PERIOD_ARG_H */
