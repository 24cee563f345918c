// SPDX-License-Identifier: GPL-2.0
/*
 * Filter ranges outside a bundle's scope, in words. See filter_scope.h.
 */
#include "filter_scope.h"
#include "options.h"

#include <inttypes.h>
#include <stdio.h>

/* the bundle keeps the ABI's scope values (bundle-format.md: config.scope) */
_Static_assert((int)PTS_SCOPE_USER == PTSCOPE_SCOPE_USER &&
	       (int)PTS_SCOPE_KERNEL == PTSCOPE_SCOPE_KERNEL &&
	       (int)PTS_SCOPE_BOTH == PTSCOPE_SCOPE_BOTH, "bundle and ABI scopes differ");

unsigned int pts_bundle_filters_outside_scope(const struct pts_bundle_config *c, char *buf,
					      size_t len)
{
	unsigned int i, n = 0;
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < c->nr_addr && i < 4; i++) {
		const struct pts_bundle_addr_range *r = &c->addr[i];
		/* ADDRn_B is inclusive (SDM 33.2.4.3); --filter's END is not */
		uint64_t end = r->b + 1;
		const char *why = pts_filter_outside_scope((uint32_t)c->scope, r->cfg, r->a, end);

		if (!why)
			continue;
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s--filter range 0x%" PRIx64
						"-0x%" PRIx64 " is %s", n ? "; " : "", r->a, end, why);
		n++;
	}
	return n;
}
