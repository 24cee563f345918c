// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms, module list and /proc/kcore reading. See kernel.h.
 */
#include "kernel.h"
#include "kmodtext.h"
#include "procfs.h"
#include "../util/kallsyms_line.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

int pts_kallsyms_text_range(const char *text, size_t len, uint64_t *start, uint64_t *end,
			    struct pts_err *err)
{
	const char *p = text, *e = text + len;
	bool have_s = false, have_e = false;

	while (p < e && !(have_s && have_e)) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		struct pts_kallsyms_line k;

		if (!pts_kallsyms_line(p, le, &k) && k.name_len == 6) {
			if (!memcmp(k.name, "_stext", 6)) {
				*start = k.addr;
				have_s = true;
			} else if (!memcmp(k.name, "_etext", 6)) {
				*end = k.addr;
				have_e = true;
			}
		}
		p = le + 1;
	}
	if (!have_s || !have_e)
		return pts_err_set(err, ENOENT, "kallsyms has no %s symbol",
				   have_s ? "_etext" : "_stext");
	if (!*start || !*end)
		return pts_err_set(err, EACCES,
				   "kallsyms addresses read as 0 (kptr_restrict): run as root or "
				   "set /proc/sys/kernel/kptr_restrict to 0");
	if (*end <= *start)
		return pts_err_set(err, EINVAL, "kallsyms: _etext 0x%" PRIx64 " is not above "
				   "_stext 0x%" PRIx64, *end, *start);
	return 0;
}

bool pts_kallsyms_zeroed(const char *text, size_t len)
{
	const char *p = text, *e = text + len;
	size_t n = 0, zero = 0;

	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		struct pts_kallsyms_line k;

		if (!pts_kallsyms_line(p, le, &k) && strchr("tTwW", k.type)) {
			n++;
			zero += !k.addr;
		}
		p = le + 1;
	}
	return n && zero == n;
}

int pts_kptr_restrict(const char *path)
{
	FILE *f = fopen(path, "re");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

void pts_kallsyms_hidden_why(int kptr_restrict, int paranoid, char *buf, size_t len)
{
	if (kptr_restrict == 2)
		snprintf(buf, len, "kptr_restrict=2: even root sees none");
	else if (kptr_restrict == 1)
		snprintf(buf, len, "kptr_restrict=1: they need CAP_SYSLOG");
	else if (kptr_restrict == 0 && paranoid > 1)
		snprintf(buf, len, "kptr_restrict=0, perf_event_paranoid=%d: they need CAP_SYSLOG "
			 "(or perf_event_paranoid 1 or less)", paranoid);
	else
		snprintf(buf, len, "kptr_restrict=%d, perf_event_paranoid=%d", kptr_restrict,
			 paranoid);
}

int pts_modules_parse(const char *text, size_t len, struct pts_kmodule **mods, size_t *nr,
		      struct pts_err *err)
{
	const char *p = text, *e = text + len;
	struct pts_kmodule *v = NULL;
	size_t n = 0, cap = 0, lineno = 0;

	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		char line[512], name[64];
		unsigned long long size, addr = 0;
		int k;

		lineno++;
		if (le == p || (size_t)(le - p) >= sizeof(line)) {
			p = le + 1;
			continue;
		}
		memcpy(line, p, (size_t)(le - p));
		line[le - p] = '\0';
		p = le + 1;
		/* name size refcount deps state addr [taint] */
		k = sscanf(line, "%63s %llu %*s %*s %*s %llx", name, &size, &addr);
		if (k < 2) {
			free(v);
			return pts_err_set(err, EINVAL, "/proc/modules line %zu is not "
					   "'name size refs deps state address'", lineno);
		}
		if (n == cap) {
			struct pts_kmodule *nv;

			cap = cap ? cap * 2 : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				return pts_err_set(err, ENOMEM, "out of memory");
			}
			v = nv;
		}
		memset(&v[n], 0, sizeof(v[n]));
		snprintf(v[n].name, sizeof(v[n].name), "%s", name);
		v[n].size = size;
		v[n].base = k >= 3 ? addr : 0;
		n++;
	}
	*mods = v;
	*nr = n;
	return 0;
}

/* The sections of one module from sysdir/NAME/sections/; *out malloc'd. */
static size_t module_sections(const char *sysdir, const char *name, struct pts_ksection **out)
{
	struct pts_ksection *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	char path[512];
	DIR *d;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/%s/sections", sysdir, name);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char file[1024];
		unsigned long long a = 0;
		FILE *f;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    strlen(de->d_name) >= sizeof(v->name))
			continue;
		snprintf(file, sizeof(file), "%s/%s", path, de->d_name);
		f = fopen(file, "re");
		if (!f)
			continue;
		if (fscanf(f, "%llx", &a) != 1)
			a = 0;
		fclose(f);
		if (n == cap) {
			void *nv = realloc(v, (cap = cap ? cap * 2 : 32) * sizeof(*v));

			if (!nv)
				break;
			v = nv;
		}
		snprintf(v[n].name, sizeof(v[n].name), "%s", de->d_name);
		v[n].addr = a;
		n++;
	}
	closedir(d);
	*out = v;
	return n;
}

void pts_kmodules_text(struct pts_kmodule *mods, size_t nr, const char *sysdir,
		       const char *vmallocinfo)
{
	struct pts_vmarea *areas = NULL;
	size_t nr_areas = 0, i;
	char *vi = NULL;
	size_t vilen = 0;
	struct pts_err e;

	if (vmallocinfo && !pts_read_file(vmallocinfo, &vi, &vilen, &e))
		pts_vmallocinfo_parse(vi, vilen, &areas, &nr_areas);
	free(vi);
	for (i = 0; i < nr; i++) {
		struct pts_ksection *secs;
		size_t ns = module_sections(sysdir, mods[i].name, &secs);

		mods[i].text = 0;
		mods[i].text_size = 0;
		pts_kmodule_text_extent(secs, ns, mods[i].base, mods[i].size, areas, nr_areas,
					&mods[i].text, &mods[i].text_size);
		free(secs);
	}
	free(areas);
}

struct pts_kcore {
	int fd;
	size_t nr;
	struct {
		uint64_t vaddr, filesz, offset;
	} *seg;
};

void pts_kcore_why(int errno_, const char *lockdown, bool chardev, char *buf, size_t len)
{
	const char *mode = lockdown ? strchr(lockdown, '[') : NULL;
	bool confidential = mode && !strncmp(mode, "[confidentiality]", 17);

	if (chardev)
		snprintf(buf, len, "it is a character device, not the kernel's memory (a container "
			 "masks /proc/kcore with /dev/null): capture on the host, or decode with "
			 "--kcore/--vmlinux");
	else if ((errno_ == EPERM || errno_ == EACCES) && confidential)
		snprintf(buf, len, "the kernel is locked down (confidentiality: "
			 "/sys/kernel/security/lockdown), which forbids /proc/kcore even to root; "
			 "decode with --kcore/--vmlinux from an unlocked boot of the same kernel");
	else if (errno_ == EPERM || errno_ == EACCES)
		snprintf(buf, len, "reading kernel memory needs CAP_SYS_RAWIO: run as root");
	else if (errno_ == ENOENT)
		snprintf(buf, len, "the kernel was built without CONFIG_PROC_KCORE");
	else if (!errno_)
		snprintf(buf, len, "it is not an ELF core file");
	else
		snprintf(buf, len, "%s", strerror(errno_));
}

int pts_kcore_open(const char *path, struct pts_kcore **out, struct pts_err *err)
{
	return pts_kcore_open_at(path, "/sys/kernel/security/lockdown", out, err);
}

/* Say why path cannot be used as kcore; returns -code. */
static int kcore_fail(const char *path, const char *lockdown, int code, int errno_,
		      bool chardev, struct pts_err *err)
{
	char why[320], *text = NULL;
	size_t len = 0;
	FILE *f = fopen(lockdown, "re");

	if (f) {
		text = calloc(1, 128);
		len = text ? fread(text, 1, 127, f) : 0;
		fclose(f);
	}
	pts_kcore_why(errno_, len ? text : NULL, chardev, why, sizeof(why));
	free(text);
	return pts_err_set(err, code, "cannot read kernel text from %s: %s", path, why);
}

int pts_kcore_open_at(const char *path, const char *lockdown, struct pts_kcore **out,
		      struct pts_err *err)
{
	struct pts_kcore *kc;
	struct stat st;
	size_t phnum, i;
	Elf *elf;
	int fd;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return pts_err_set(err, EINVAL, "libelf: %s", elf_errmsg(-1));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		return kcore_fail(path, lockdown, e, e, false, err);
	}
	if (!fstat(fd, &st) && S_ISCHR(st.st_mode)) {
		close(fd);
		return kcore_fail(path, lockdown, ENODEV, 0, true, err);
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &phnum)) {
		if (elf)
			elf_end(elf);
		close(fd);
		return kcore_fail(path, lockdown, EINVAL, 0, false, err);
	}
	kc = calloc(1, sizeof(*kc));
	if (kc)
		kc->seg = calloc(phnum ? phnum : 1, sizeof(*kc->seg));
	if (!kc || !kc->seg) {
		if (kc)
			free(kc);
		elf_end(elf);
		close(fd);
		return pts_err_set(err, ENOMEM, "out of memory");
	}
	for (i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		kc->seg[kc->nr].vaddr = ph.p_vaddr;
		kc->seg[kc->nr].filesz = ph.p_filesz;
		kc->seg[kc->nr].offset = ph.p_offset;
		kc->nr++;
	}
	elf_end(elf);
	kc->fd = fd;
	*out = kc;
	return 0;
}

int pts_kcore_read(struct pts_kcore *kc, uint64_t vaddr, void *buf, size_t len,
		   struct pts_err *err)
{
	size_t i, got = 0;

	for (i = 0; i < kc->nr; i++) {
		uint64_t s = kc->seg[i].vaddr, sz = kc->seg[i].filesz;

		if (vaddr < s || vaddr - s > sz || len > sz - (vaddr - s))
			continue;
		while (got < len) {
			ssize_t r = pread(kc->fd, (char *)buf + got, len - got,
					  (off_t)(kc->seg[i].offset + (vaddr - s) + got));

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return pts_err_set(err, r < 0 ? errno : EIO,
						   "kcore read at 0x%" PRIx64 " failed: %s",
						   vaddr + got, r < 0 ? strerror(errno) : "short read");
			got += (size_t)r;
		}
		return 0;
	}
	return pts_err_set(err, ERANGE, "no kcore segment covers 0x%" PRIx64 "+0x%zx",
			   vaddr, len);
}

void pts_kcore_close(struct pts_kcore *kc)
{
	if (!kc)
		return;
	close(kc->fd);
	free(kc->seg);
	free(kc);
}
