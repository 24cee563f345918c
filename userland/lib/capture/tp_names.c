// SPDX-License-Identifier: GPL-2.0
/* The tracepoints a trigger can be armed on, by name (tp_names.h). */
#include "tp_names.h"

#include <string.h>

static const char *const tp_names[] = {
#define PTSCOPE_TP(sys, ev) #sys ":" #ev,
#include <ptscope/tp_triggers.h>
#undef PTSCOPE_TP
};

#define NR_TP (sizeof(tp_names) / sizeof(tp_names[0]))

bool pts_tp_trigger_supported(const char *name)
{
	size_t i;

	for (i = 0; i < NR_TP; i++)
		if (!strcmp(name, tp_names[i]))
			return true;
	return false;
}

const char *pts_tp_trigger_names(char *buf, size_t len)
{
	size_t i, off = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < NR_TP && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "", tp_names[i]);
	return buf;
}

void pts_tp_trigger_names_print(FILE *f, const char *indent, size_t width)
{
	size_t i, col = 0;

	for (i = 0; i < NR_TP; i++) {
		size_t n = strlen(tp_names[i]);

		if (col && col + 1 + n > width) {
			fputc('\n', f);
			col = 0;
		}
		col += (size_t)fprintf(f, "%s%s", col ? " " : indent, tp_names[i]);
	}
	if (col)
		fputc('\n', f);
}
