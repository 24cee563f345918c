// SPDX-License-Identifier: GPL-2.0
#include "bundle_fixture.h"
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *bt_tmpdir(void)
{
	const char *t = getenv("TMPDIR");
	char *p;

	if (asprintf(&p, "%s/ptscope-test-XXXXXX", t && *t ? t : "/tmp") < 0)
		return NULL;
	if (!mkdtemp(p)) {
		free(p);
		return NULL;
	}
	return p;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void bt_rmtree(const char *path)
{
	if (path && strstr(path, "ptscope-test-"))
		nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *bt_example_dir(void)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/tests/golden/bundle/example.ptscope",
		 pts_unit_src_dir());
	return path;
}

char *bt_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		if (len)
			*len = (size_t)n;
	}
	return buf;
}

static int write_bytes(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	int rc = 0;

	if (!f)
		return -1;
	if (fwrite(data, 1, len, f) != len)
		rc = -1;
	if (fclose(f))
		rc = -1;
	return rc;
}

int bt_write_text(const char *dir, const char *name, const char *text)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return write_bytes(path, text, strlen(text));
}

static const char *copy_src;
static const char *copy_dst;

static int copy_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	char dst[4096];
	size_t len;
	char *data;

	(void)ftw;
	snprintf(dst, sizeof(dst), "%s%s", copy_dst, path + strlen(copy_src));
	if (flag == FTW_D)
		return mkdir(dst, 0755) < 0 && errno != EEXIST ? -1 : 0;
	if (!S_ISREG(st->st_mode))
		return 0;
	data = bt_read_file(path, &len);
	if (!data)
		return -1;
	len = (size_t)st->st_size;
	if (write_bytes(dst, data, len)) {
		free(data);
		return -1;
	}
	free(data);
	return 0;
}

char *bt_copy_example(void)
{
	char *dir = bt_tmpdir();

	if (!dir)
		return NULL;
	copy_src = bt_example_dir();
	copy_dst = dir;
	if (nftw(copy_src, copy_one, 16, FTW_PHYS)) {
		bt_rmtree(dir);
		free(dir);
		return NULL;
	}
	return dir;
}

int bt_edit(const char *dir, const char *name, const char *from, const char *to)
{
	char path[4096], *text, *hit, *out;
	size_t len;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	text = bt_read_file(path, &len);
	if (!text)
		return -1;
	hit = strstr(text, from);
	if (!hit) {
		free(text);
		return -1;
	}
	if (asprintf(&out, "%.*s%s%s", (int)(hit - text), text, to, hit + strlen(from)) < 0) {
		free(text);
		return -1;
	}
	rc = write_bytes(path, out, strlen(out));
	free(out);
	free(text);
	return rc;
}
