/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The address ranges of a capture's configuration that its scope cannot
 * trace, said where a user looks after the capture: the summary printed
 * at its end and the decoder's notices. The capture arms as asked (the
 * warning at arm is capture.c's); a bundle is decoded as recorded: events
 * impossible in the recorded scope are reported, never fatal.
 */
#ifndef PTS_CAPTURE_FILTER_SCOPE_H
#define PTS_CAPTURE_FILTER_SCOPE_H

#include <stddef.h>

#include "../bundle/bundle.h"

/*
 * Every filter range of c that pts_filter_outside_scope() (options.h)
 * finds wholly outside c->scope, as one text: "--filter range
 * 0xffffffff81000000-0xffffffff81001000 is kernel code, which --scope
 * user does not trace" (ranges joined by "; "; a bundle's ADDRn_B is
 * inclusive, said here exclusive as --filter takes it). Returns the
 * number of such ranges; buf is "" when 0.
 */
unsigned int pts_bundle_filters_outside_scope(const struct pts_bundle_config *c, char *buf,
					      size_t len);

#endif /* PTS_CAPTURE_FILTER_SCOPE_H */
