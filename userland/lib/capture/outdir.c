// SPDX-License-Identifier: GPL-2.0
/*
 * Bundle directory names checked before arming (see outdir.h).
 */
#include "outdir.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define SUFFIX ".ptscope"

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* Length of name without a trailing ".ptscope" (and without trailing slashes). */
static size_t stem_len(const char *name)
{
	size_t l = strlen(name), sl = strlen(SUFFIX);

	while (l > 1 && name[l - 1] == '/')
		l--;
	if (l > sl && !strncmp(name + l - sl, SUFFIX, sl))
		l -= sl;
	return l;
}

/* The parent directory of name into buf ("." for a bare name). */
static void parent_of(const char *name, char *buf, size_t len)
{
	size_t l = strlen(name);

	while (l > 1 && name[l - 1] == '/')
		l--;
	while (l && name[l - 1] != '/')
		l--;
	if (!l)
		snprintf(buf, len, ".");
	else if (l == 1)
		snprintf(buf, len, "/");
	else
		snprintf(buf, len, "%.*s", (int)(l - 1), name);
}

static int check_parent(const char *name, struct pts_err *err)
{
	char parent[PATH_MAX];
	struct stat st;

	parent_of(name, parent, sizeof(parent));
	if (stat(parent, &st))
		return pts_err_set(err, errno, "cannot write the bundle %s: its directory %s: %s "
				   "(create it first, or choose another -o)",
				   name, parent, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return pts_err_set(err, ENOTDIR, "cannot write the bundle %s: %s is not a directory "
				   "(choose another -o)", name, parent);
	if (access(parent, W_OK | X_OK))
		return pts_err_set(err, errno, "cannot write the bundle %s: no write access to %s: %s "
				   "(choose another -o, or fix its permissions)",
				   name, parent, strerror(errno));
	return 0;
}

/* multi: the largest N of an existing NAME.N.ptscope in the parent, 0 if none */
static unsigned int last_number(const char *name)
{
	char parent[PATH_MAX];
	const char *base = strrchr(name, '/');
	size_t bl, stem = stem_len(name);
	unsigned int max = 0;
	struct dirent *de;
	DIR *d;

	base = base && base[1] ? base + 1 : name;
	bl = stem - (size_t)(base - name);
	parent_of(name, parent, sizeof(parent));
	d = opendir(parent);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		const char *p = de->d_name;
		char *end;
		unsigned long n;

		if (strncmp(p, base, bl) || p[bl] != '.' || p[bl + 1] < '0' || p[bl + 1] > '9')
			continue;
		n = strtoul(p + bl + 1, &end, 10);
		if (strcmp(end, SUFFIX) || n >= 1000000)
			continue;
		if (n > max)
			max = (unsigned int)n;
	}
	closedir(d);
	return max;
}

int pts_outdir_prepare(struct pts_outdir *od, const char *name, bool multi,
		       struct pts_err *err)
{
	int ret;

	memset(od, 0, sizeof(*od));
	if (!name[0] || strlen(name) >= sizeof(od->name) - 32)
		return pts_err_set(err, ENAMETOOLONG, "-o: the bundle name is empty or too long");
	snprintf(od->name, sizeof(od->name), "%s", name);
	od->multi = multi;
	ret = check_parent(name, err);
	if (ret)
		return ret;
	if (multi) {
		od->next = last_number(name) + 1;
		return 0;
	}
	if (exists(name))
		return pts_err_set(err, EEXIST, "%s already exists; choose another name with -o or "
				   "remove it", name);
	return 0;
}

void pts_outdir_next(struct pts_outdir *od, char *buf, size_t len)
{
	int l = (int)stem_len(od->name);

	if (!od->multi) {
		snprintf(buf, len, "%s", od->name);
		return;
	}
	do {
		snprintf(buf, len, "%.*s.%u%s", l, od->name, od->next++, SUFFIX);
	} while (exists(buf));
}

int pts_outdir_rescue(const char *failed, char *buf, size_t len, struct pts_err *err)
{
	const char *tmp = getenv("TMPDIR"), *base = strrchr(failed, '/');
	size_t stem = stem_len(failed);
	unsigned int k;
	int bl, n;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	base = base && base[1] ? base + 1 : failed;
	bl = (int)(stem - (size_t)(base - failed));
	for (k = 0; k < 1000; k++) {
		if (k)
			n = snprintf(buf, len, "%s/%.*s-rescued-%d-%u%s", tmp, bl, base, (int)getpid(),
				     k, SUFFIX);
		else
			n = snprintf(buf, len, "%s/%.*s-rescued-%d%s", tmp, bl, base, (int)getpid(),
				     SUFFIX);
		if (n < 0 || (size_t)n >= len)
			return pts_err_set(err, ENAMETOOLONG, "no room for a rescue name in %s", tmp);
		if (!exists(buf))
			return 0;
	}
	return pts_err_set(err, EEXIST, "no free rescue name in %s", tmp);
}

int pts_outdir_room(const struct pts_outdir *od, uint64_t need, struct pts_err *err)
{
	char dir[PATH_MAX], *slash;
	struct statvfs sv;
	uint64_t avail;

	snprintf(dir, sizeof(dir), "%s", od->name);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (statvfs(dir, &sv))
		return 0;	/* unknown: the write says it if it fails */
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (avail >= need)
		return 0;
	return pts_err_set(err, ENOSPC, "%s has %llu MiB free, a full capture needs up to %llu "
			   "MiB (the rings): the bundle may be incomplete; free space, or give a "
			   "smaller -m SIZE or fewer CPUs", dir, (unsigned long long)(avail >> 20),
			   (unsigned long long)((need + (1 << 20) - 1) >> 20));
}
