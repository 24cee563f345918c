// SPDX-License-Identifier: GPL-2.0
/* One /proc/kallsyms line (kallsyms_line.h). */
#include "kallsyms_line.h"

#include <stdbool.h>

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static const char *skip_blank(const char *p, const char *e)
{
	while (p < e && blank(*p))
		p++;
	return p;
}

/* End of the token at p: the first blank, NUL or e. */
static const char *token_end(const char *p, const char *e)
{
	while (p < e && *p && !blank(*p))
		p++;
	return p;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * The address: hex digits to a blank, bounded by e. strtoull is not used
 * because the line need not be NUL-ended where it stops (a buffer's last
 * line), and it would read on past e.
 */
static const char *address(const char *p, const char *e, uint64_t *addr)
{
	const char *s = p;
	int d;

	*addr = 0;
	while (p < e && (d = hex_digit(*p)) >= 0) {
		if (p - s == 16)
			return NULL;
		*addr = (*addr << 4) | (uint64_t)d;
		p++;
	}
	return p > s && p < e && blank(*p) ? p : NULL;
}

int pts_kallsyms_line(const char *p, const char *e, struct pts_kallsyms_line *out)
{
	const char *t;

	p = address(skip_blank(p, e), e, &out->addr);
	if (!p)
		return -1;
	p = skip_blank(p, e);
	if (e - p < 2 || !((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z') || !blank(p[1]))
		return -1;
	out->type = *p;
	p = skip_blank(p + 1, e);
	t = token_end(p, e);
	if (t == p)
		return -1;
	out->name = p;
	out->name_len = (size_t)(t - p);
	p = skip_blank(t, e);
	out->mod = NULL;
	out->mod_len = 0;
	if (p == e)
		return 0;
	t = token_end(p, e);
	if (t - p < 3 || p[0] != '[' || t[-1] != ']' || skip_blank(t, e) != e)
		return -1;
	out->mod = p;
	out->mod_len = (size_t)(t - p);
	return 0;
}
