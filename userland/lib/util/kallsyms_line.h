/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One line of a /proc/kallsyms listing, "ADDRESS TYPE NAME [MODULE]", as
 * the kernel prints it (kernel/kallsyms.c, s_show): the address in hex,
 * a one-letter type, the symbol's name and, for a module's symbol, the
 * module's name in brackets. The capture (text range, code outside the
 * text) and the decoder (symbol names) read the listing with this one
 * parser, so they agree on which lines are kallsyms lines.
 */
#ifndef PTS_UTIL_KALLSYMS_LINE_H
#define PTS_UTIL_KALLSYMS_LINE_H

#include <stddef.h>
#include <stdint.h>

/* The fields of one line; name and mod point into the line, not NUL-ended. */
struct pts_kallsyms_line {
	uint64_t addr;
	char type;		/* 'T', 't', 'W', 'd', ... */
	const char *name;
	size_t name_len;	/* >= 1 */
	const char *mod;	/* "[module]" with its brackets, NULL if none */
	size_t mod_len;		/* >= 3 when mod is set */
};

/*
 * Split the line [p, e) (without its '\n') into *out. A line is: blanks
 * (space, tab, '\r') allowed around the fields; 1 to 16 hex digits; a
 * blank; one letter; a blank; a name (no blank); optionally a "[module]"
 * token and nothing after it. A line with a NUL byte is not one (binary
 * data, not text). Reads no byte at e or past it: the line need not be
 * NUL-ended.
 * 0 when it is such a line, -1 when it is not (*out undefined).
 */
int pts_kallsyms_line(const char *p, const char *e, struct pts_kallsyms_line *out);

#endif
