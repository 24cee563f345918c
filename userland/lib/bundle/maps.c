// SPDX-License-Identifier: GPL-2.0
/* /proc/PID/maps parser and formatter: see maps.h and proc(5). */
#include "maps.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hex number at *p: at least one digit, at most 16; advances *p. */
static int hex_field(const char **p, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int n = 0;

	for (;; s++, n++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			break;
		if (n == 16)
			return -1;
		v = v << 4 | d;
	}
	if (!n)
		return -1;
	*out = v;
	*p = s;
	return 0;
}

static int dec_field(const char **p, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int n = 0;

	for (; *s >= '0' && *s <= '9'; s++, n++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (!n)
		return -1;
	*out = v;
	*p = s;
	return 0;
}

static int expect(const char **p, char c)
{
	if (**p != c)
		return -1;
	(*p)++;
	return 0;
}

/* Parse one line [s, e) into m; returns 0 or -1 (malformed). */
static int parse_line(const char *s, const char *e, struct pts_bundle_map *m)
{
	uint64_t maj, min;
	const char *p = s;
	int i;

	if (hex_field(&p, &m->start) || expect(&p, '-') || hex_field(&p, &m->end) ||
	    expect(&p, ' '))
		return -1;
	for (i = 0; i < 4; i++, p++) {
		if (p >= e || *p == ' ')
			return -1;
		m->perms[i] = *p;
	}
	m->perms[4] = '\0';
	if (expect(&p, ' ') || hex_field(&p, &m->pgoff) || expect(&p, ' ') ||
	    hex_field(&p, &maj) || expect(&p, ':') || hex_field(&p, &min) ||
	    expect(&p, ' ') || dec_field(&p, &m->inode))
		return -1;
	if (p > e || maj > UINT32_MAX || min > UINT32_MAX || m->end < m->start)
		return -1;
	m->dev_major = (uint32_t)maj;
	m->dev_minor = (uint32_t)min;
	if (p < e && *p != ' ')
		return -1;
	while (p < e && *p == ' ')
		p++;
	m->path = strndup(p, (size_t)(e - p));
	return m->path ? 0 : -2;
}

void pts_maps_free(struct pts_bundle_map *maps, size_t nr)
{
	size_t i;

	if (!maps)
		return;
	for (i = 0; i < nr; i++)
		free(maps[i].path);
	free(maps);
}

int pts_maps_parse(const char *text, struct pts_bundle_map **out, size_t *nr,
		   struct pts_err *err)
{
	struct pts_bundle_map *v = NULL;
	size_t n = 0, cap = 0, line = 0;
	const char *s = text;

	*out = NULL;
	*nr = 0;
	while (*s) {
		const char *e = strchr(s, '\n');
		int rc;

		if (!e)
			e = s + strlen(s);
		line++;
		if (e > s) {
			if (n == cap) {
				struct pts_bundle_map *nv;

				cap = cap ? cap * 2 : 32;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv) {
					pts_maps_free(v, n);
					return pts_err_set(err, ENOMEM, "out of memory parsing maps");
				}
				v = nv;
			}
			memset(&v[n], 0, sizeof(v[n]));
			rc = parse_line(s, e, &v[n]);
			if (rc) {
				pts_maps_free(v, n);
				if (rc == -2)
					return pts_err_set(err, ENOMEM, "out of memory parsing maps");
				return pts_err_set(err, EINVAL, "maps line %zu is not "
						   "\"start-end perms offset dev inode [path]\": \"%.*s\"",
						   line, (int)(e - s > 200 ? 200 : e - s), s);
			}
			n++;
		}
		s = *e ? e + 1 : e;
	}
	*out = v;
	*nr = n;
	return 0;
}

int pts_maps_read_file(const char *path, struct pts_bundle_map **out, size_t *nr,
		       struct pts_err *err)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	char buf[4096];
	size_t got;
	int rc;

	*out = NULL;
	*nr = 0;
	if (!f)
		return pts_err_set(err, errno, "cannot read %s: %s", path, strerror(errno));
	/* /proc files report size 0: read until EOF. */
	mem = open_memstream(&text, &len);
	if (!mem) {
		fclose(f);
		return pts_err_set(err, ENOMEM, "out of memory reading %s", path);
	}
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, got, mem);
	rc = ferror(f) ? (errno ? errno : EIO) : 0;
	fclose(f);
	if (fclose(mem) || !text) {
		free(text);
		return pts_err_set(err, ENOMEM, "out of memory reading %s", path);
	}
	if (rc) {
		free(text);
		return pts_err_set(err, rc, "reading %s: %s", path, strerror(rc));
	}
	rc = pts_maps_parse(text, out, nr, err);
	free(text);
	return rc;
}

int pts_maps_format(const struct pts_bundle_map *m, char *buf, size_t size)
{
	const char *path = m->path ? m->path : "";

	return snprintf(buf, size, "%08" PRIx64 "-%08" PRIx64 " %s %08" PRIx64
			" %02x:%02x %" PRIu64 "%s%s", m->start, m->end, m->perms,
			m->pgoff, m->dev_major, m->dev_minor, m->inode,
			*path ? " " : "", path);
}
