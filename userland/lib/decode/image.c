// SPDX-License-Identifier: GPL-2.0
/* Memory images and symbol lookup per address space. */
#include "image.h"
#include "../util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../util/hmap.h"
#include "branch.h"
#include "plt.h"

struct obj {
	char *path;
	const uint8_t *data;	/* whole file, read-only mapping */
	size_t len;
	char *sym_path;
	bool syms_loaded;
	struct pts_symtab st;
	/*
	 * Without a .symtab and no debug file found: the object's name (its
	 * path on the capture machine) and where a debug file was looked for
	 * ("no debug file at PATH, ...", pts_debug_file); NULL when its names
	 * are whole.
	 */
	char *unnamed_object, *unnamed_looked;
	char *orig;		/* its path on the capture machine, if an object named it */
};

struct mapping {
	int32_t pid;
	uint64_t start, size, file_off;
	int64_t bias;		/* runtime = link address + bias */
	char *object;
	struct obj *obj;
	int isid;
};

#define BY_PID_MAPS (1ULL << 63)

struct img {
	int32_t pid;
	enum pt_exec_mode mode;	/* ptem_64bit, or that of a compat image */
	struct pt_image *image;
};

struct pts_imgset {
	struct pt_image_section_cache *iscache;
	struct obj **objs;
	size_t nobjs;
	struct mapping *maps;
	size_t nmaps, capmaps;
	struct img *imgs;
	size_t nimgs;
	/*
	 * pid -> BY_PID_MAPS if it has a mapping, | 1 + its index in imgs once
	 * it has an image: one hash lookup per process switch, not two scans
	 */
	struct pts_hmap by_pid;
	struct pts_symtab kallsyms;
	bool have_kallsyms;
	char *sysroot;		/* where debug files are looked up, NULL "/" */
	char *buildid_dir;	/* perf's build-id cache, NULL none (buildid_cache.h) */
	/*
	 * Known address spaces: keyed entries (pts_imgset_set_cr3) also key the
	 * process's sections in the union image; the others
	 * (pts_imgset_note_cr3) only name the process of a PIP.
	 */
	struct { int32_t pid; uint64_t cr3; bool keyed; } *cr3s;
	size_t ncr3;
	/*
	 * Execs, sorted by pid then time: each starts the address space
	 * `space` of its pid (image.h, "Address spaces over time").
	 */
	struct exec_ent { int32_t pid, space; uint64_t time_ns; } *execs;
	size_t nexecs;
	int32_t next_space;
	uint64_t sym_time;	/* pts_imgset_sym_time */
};

int pts_imgset_new(struct pts_imgset **out, struct pts_err *err)
{
	struct pts_imgset *s = calloc(1, sizeof(*s));

	if (!s)
		return pts_err_set(err, ENOMEM, "out of memory");
	s->iscache = pt_iscache_alloc("ptscope");
	if (!s->iscache) {
		free(s);
		return pts_err_set(err, ENOMEM, "out of memory (image section cache)");
	}
	s->next_space = PTS_SPACE_FIRST;
	s->sym_time = UINT64_MAX;
	*out = s;
	return 0;
}

void pts_imgset_free(struct pts_imgset *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nimgs; i++)
		pt_image_free(s->imgs[i].image);
	free(s->imgs);
	pts_hmap_free(&s->by_pid, NULL);
	for (i = 0; i < s->nmaps; i++)
		free(s->maps[i].object);
	free(s->maps);
	for (i = 0; i < s->nobjs; i++) {
		struct obj *o = s->objs[i];

		if (o->data && o->len)
			munmap((void *)o->data, o->len);
		pts_symtab_free(&o->st);
		free(o->path);
		free(o->sym_path);
		free(o->unnamed_object);
		free(o->unnamed_looked);
		free(o->orig);
		free(o);
	}
	free(s->objs);
	pts_symtab_free(&s->kallsyms);
	free(s->sysroot);
	free(s->buildid_dir);
	free(s->cr3s);
	free(s->execs);
	pt_iscache_free(s->iscache);
	free(s);
}

static struct obj *obj_get(struct pts_imgset *s, const char *path, struct pts_err *err)
{
	struct obj *o, **no;
	struct stat stt;
	size_t i;
	int fd;

	for (i = 0; i < s->nobjs; i++)
		if (!strcmp(s->objs[i]->path, path))
			return s->objs[i];
	fd = pts_file_open(path, "code file", &stt, err);
	if (fd < 0)
		return NULL;
	o = calloc(1, sizeof(*o));
	no = realloc(s->objs, (s->nobjs + 1) * sizeof(*no));
	if (!o || !no) {
		free(o);
		if (no)
			s->objs = no;
		close(fd);
		pts_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	s->objs = no;
	if (stt.st_size > 0) {
		void *p = mmap(NULL, (size_t)stt.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (p != MAP_FAILED) {
			o->data = p;
			o->len = (size_t)stt.st_size;
		}
	}
	close(fd);
	o->path = strdup(path);
	if (!o->path) {
		free(o);
		pts_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	s->objs[s->nobjs++] = o;
	return o;
}

/*
 * p_vaddr - p_offset of the PT_LOAD that a mapping of the file's bytes
 * [off, off + size) holds, the executable one when it holds several (0
 * when none/not ELF). A mapping starts at a page: GNU ld's segments
 * start at one in the file too (p_offset == off), but lld packs them,
 * and its executable segment begins inside the page that ends the
 * read-only one (p_offset 0x960, p_vaddr 0x1960: the r-x mapping at
 * pgoff 0), so matching by its first byte alone took the read-only
 * segment's delta and named none of the code (clang -fuse-ld=lld,
 * rustc).
 */
static int64_t elf_vaddr_delta(const struct obj *o, uint64_t off, uint64_t size)
{
	Elf *elf;
	size_t n, i;
	int64_t delta = 0;

	if (!o->data)
		return 0;
	elf_version(EV_CURRENT);
	elf = elf_memory((char *)o->data, o->len);
	if (!elf)
		return 0;
	if (elf_kind(elf) == ELF_K_ELF && !elf_getphdrnum(elf, &n)) {
		for (i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			if (ph.p_filesz && ph.p_offset < off + size && off < ph.p_offset + ph.p_filesz) {
				delta = (int64_t)(ph.p_vaddr - ph.p_offset);
				if (ph.p_flags & PF_X)
					break;	/* the executable PT_LOAD wins */
			}
		}
	}
	elf_end(elf);
	return delta;
}

struct pts_imgview;
static int view_add_cached(struct pts_imgview *v, struct pt_image *img, const struct mapping *m,
			   const struct pt_asid *key);

/* CR3 of pid's address space, 0 unknown. */
static uint64_t pid_cr3(const struct pts_imgset *s, int32_t pid)
{
	size_t i;

	for (i = 0; i < s->ncr3; i++)
		if (s->cr3s[i].pid == pid && s->cr3s[i].keyed)
			return s->cr3s[i].cr3;
	return 0;
}

/*
 * Put mapping m into the libipt image of img_pid for code of mode. The
 * image of PTS_PID_ALL holds every section: a process's sections keyed
 * by its CR3 when known (libipt then picks them from PIP packets), else
 * unkeyed; a process's own image holds its sections and the shared ones,
 * unkeyed (chosen from the sideband in traces without PIP). 64-bit code
 * takes the sections of an image section cache, the set's or, for an
 * image of view v (not NULL), the view's own (pts_imgview); 16- and
 * 32-bit code (pts_imgset_image_mode) sections of the image's own,
 * outside it, so that libipt's block cache of each holds blocks of that
 * mode only.
 */
static int add_map(struct pts_imgset *s, struct pts_imgview *v, struct pt_image *img,
		   int32_t img_pid, enum pt_exec_mode mode, const struct mapping *m)
{
	struct pt_asid asid, *key = NULL;
	uint64_t cr3;
	int rc;

	if (m->pid != PTS_PID_ALL && img_pid != PTS_PID_ALL && m->pid != img_pid)
		return 0;
	cr3 = img_pid == PTS_PID_ALL && m->pid != PTS_PID_ALL ? pid_cr3(s, m->pid) : 0;
	if (cr3) {
		pt_asid_init(&asid);
		asid.cr3 = cr3;
		key = &asid;
	}
	if (mode == ptem_64bit && v)
		rc = view_add_cached(v, img, m, key);
	else if (mode == ptem_64bit)
		rc = pt_image_add_cached(img, s->iscache, m->isid, key);
	else
		rc = pt_image_add_file(img, m->obj->path, m->file_off, m->size, key, m->start);
	return rc < 0 ? -EINVAL : 0;
}

/*
 * A new libipt image of pid's sections for code of mode (as
 * pts_imgset_image_mode), of view v's sections (NULL: the set's).
 */
static struct pt_image *new_image(struct pts_imgset *s, struct pts_imgview *v, int32_t pid,
				  enum pt_exec_mode mode)
{
	struct pt_image *image = pt_image_alloc(NULL);
	size_t i;

	if (!image)
		return NULL;
	for (i = 0; i < s->nmaps; i++) {
		if (add_map(s, v, image, pid, mode, &s->maps[i])) {
			pt_image_free(image);
			return NULL;
		}
	}
	return image;
}

static int add_to_images(struct pts_imgset *s, const struct mapping *m)
{
	size_t i;

	for (i = 0; i < s->nimgs; i++)
		if (add_map(s, NULL, s->imgs[i].image, s->imgs[i].pid, s->imgs[i].mode, m))
			return -EINVAL;
	return 0;
}

static int add_cr3(struct pts_imgset *s, int32_t pid, uint64_t cr3, bool keyed)
{
	void *n = realloc(s->cr3s, (s->ncr3 + 1) * sizeof(*s->cr3s));

	if (!n)
		return -ENOMEM;
	s->cr3s = n;
	s->cr3s[s->ncr3].pid = pid;
	s->cr3s[s->ncr3].cr3 = cr3;
	s->cr3s[s->ncr3].keyed = keyed;
	s->ncr3++;
	return 0;
}

int pts_imgset_set_cr3(struct pts_imgset *s, int32_t pid, uint64_t cr3)
{
	if (s->nimgs)
		return -EBUSY;
	return add_cr3(s, pid, cr3, true);
}

int pts_imgset_note_cr3(struct pts_imgset *s, int32_t pid, uint64_t cr3)
{
	if (!(cr3 & PTS_CR3_ROOT_MASK) ||
	    pts_imgset_pid_of_cr3(s, cr3 & PTS_CR3_ROOT_MASK) == pid)
		return 0;
	return add_cr3(s, pid, cr3 & PTS_CR3_ROOT_MASK, false);
}

/* pid whose root is exactly root (bits 11:0 clear), -1 none. */
static int32_t pid_of_root(const struct pts_imgset *s, uint64_t root)
{
	size_t i;

	for (i = 0; i < s->ncr3; i++)
		if ((s->cr3s[i].cr3 & PTS_CR3_ROOT_MASK) == root)
			return s->cr3s[i].pid;
	return -1;
}

int32_t pts_imgset_pid_of_cr3(const struct pts_imgset *s, uint64_t cr3)
{
	uint64_t root = cr3 & PTS_CR3_ROOT_MASK;
	int32_t pid;

	if (!root)
		return -1;
	pid = pid_of_root(s, root);
	/*
	 * KPTI: the kernel half of a process's page tables is the root 4 KiB
	 * below its user root (PTI_PGTABLE_SWITCH_BIT, bit 12), which the
	 * sideband names; a PIP at a kernel entry carries it.
	 */
	if (pid < 0 && !(root & (1ULL << 12)))
		pid = pid_of_root(s, root + (1ULL << 12));
	return pid;
}

/* Index of the first exec of pid or, none, where one would go (s->execs is sorted). */
static size_t exec_first(const struct pts_imgset *s, int32_t pid)
{
	size_t lo = 0, hi = s->nexecs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->execs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int32_t pts_imgset_add_exec(struct pts_imgset *s, int32_t pid, uint64_t time_ns)
{
	size_t i = exec_first(s, pid);
	struct exec_ent *n;

	for (; i < s->nexecs && s->execs[i].pid == pid && s->execs[i].time_ns <= time_ns; i++)
		if (s->execs[i].time_ns == time_ns)
			return s->execs[i].space;
	if (s->next_space == INT32_MAX)
		return -ENOMEM;
	n = realloc(s->execs, (s->nexecs + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	s->execs = n;
	memmove(&n[i + 1], &n[i], (s->nexecs - i) * sizeof(*n));
	n[i].pid = pid;
	n[i].time_ns = time_ns;
	n[i].space = s->next_space++;
	s->nexecs++;
	return n[i].space;
}

int32_t pts_imgset_space_at(const struct pts_imgset *s, int32_t pid, uint64_t time_ns)
{
	int32_t space = pid;
	size_t i;

	if (!s->nexecs)
		return pid;
	for (i = exec_first(s, pid); i < s->nexecs && s->execs[i].pid == pid &&
	     s->execs[i].time_ns <= time_ns; i++)
		space = s->execs[i].space;
	return space;
}

int32_t pts_imgset_space_pid(const struct pts_imgset *s, int32_t space)
{
	size_t i;

	if (space < PTS_SPACE_FIRST)
		return space;
	for (i = 0; i < s->nexecs; i++)
		if (s->execs[i].space == space)
			return s->execs[i].pid;
	return space;
}

uint64_t *pts_imgset_sym_time(struct pts_imgset *s)
{
	return &s->sym_time;
}

int pts_imgset_add_file(struct pts_imgset *s, int32_t pid, const char *path,
			uint64_t file_off, uint64_t size, uint64_t vaddr,
			const char *object, const char *sym_path, struct pts_err *err)
{
	struct mapping *m;
	struct obj *o = obj_get(s, path, err);
	struct pts_hent *e;
	const char *base;
	bool created;
	int isid;

	if (!o)
		return err ? err->code : -ENOENT;
	if (file_off > o->len || size > o->len - file_off)
		return pts_err_set(err, ERANGE,
				   "%s: range 0x%llx+0x%llx lies outside the file (%zu bytes): check the offset",
				   path, (unsigned long long)file_off, (unsigned long long)size, o->len);
	if (!size)
		return 0;
	if (sym_path && !o->sym_path) {
		o->sym_path = strdup(sym_path);
		if (!o->sym_path)
			return pts_err_set(err, ENOMEM, "out of memory");
	}
	if (object && object[0] == '/' && !o->orig) {
		o->orig = strdup(object);
		if (!o->orig)
			return pts_err_set(err, ENOMEM, "out of memory");
	}
	isid = pt_iscache_add_file(s->iscache, path, file_off, size, vaddr);
	if (isid < 0)
		return pts_err_set(err, EINVAL, "libipt cannot add %s at 0x%llx: %s", path,
				   (unsigned long long)vaddr, pt_errstr(pt_errcode(isid)));
	if (s->nmaps == s->capmaps) {
		size_t nc = s->capmaps ? s->capmaps * 2 : 16;
		struct mapping *nm = realloc(s->maps, nc * sizeof(*nm));

		if (!nm)
			return pts_err_set(err, ENOMEM, "out of memory");
		s->maps = nm;
		s->capmaps = nc;
	}
	m = &s->maps[s->nmaps];
	memset(m, 0, sizeof(*m));
	m->pid = pid;
	m->start = vaddr;
	m->size = size;
	m->file_off = file_off;
	m->obj = o;
	m->isid = isid;
	m->bias = (int64_t)(vaddr - file_off) - elf_vaddr_delta(o, file_off, size);
	base = strrchr(object ? object : path, '/');
	m->object = strdup(base ? base + 1 : (object ? object : path));
	if (!m->object)
		return pts_err_set(err, ENOMEM, "out of memory");
	s->nmaps++;
	e = pts_hmap_get(&s->by_pid, &pid, sizeof(pid), &created);
	if (!e)
		return pts_err_set(err, ENOMEM, "out of memory");
	e->v.u |= BY_PID_MAPS;
	if (add_to_images(s, m))
		return pts_err_set(err, EINVAL, "libipt cannot add %s to an image", path);
	return 0;
}

/*
 * Intel PT traces x86 code only: an ELF of another machine (a program
 * built for the board rather than the host, an arm64 vmlinux) would be
 * mapped and decoded as x86 bytes, into nonsense. 32-bit x86 code is
 * traced too (compat mode). 0, or -EINVAL naming the machine.
 */
static int elf_machine_ok(Elf *elf, const char *path, struct pts_err *err)
{
	static const struct { unsigned int em; const char *name; } other[] = {
		{ EM_AARCH64, "AArch64" }, { EM_ARM, "32-bit ARM" },
		{ EM_RISCV, "RISC-V" }, { EM_PPC64, "64-bit PowerPC" }, { EM_PPC, "PowerPC" },
		{ EM_S390, "s390" }, { EM_MIPS, "MIPS" }, { EM_SPARCV9, "SPARC64" },
		{ EM_LOONGARCH, "LoongArch" },
	};
	const char *name = "another architecture";
	GElf_Ehdr eh;
	size_t i;

	if (!gelf_getehdr(elf, &eh) || eh.e_machine == EM_X86_64 || eh.e_machine == EM_386)
		return 0;
	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		if (other[i].em == eh.e_machine)
			name = other[i].name;
	return pts_err_set(err, EINVAL, "%s is an ELF for %s (e_machine %u), not x86: Intel PT "
			   "traces x86 code only; give the x86-64 (or i386) build of the traced "
			   "program", path, name, eh.e_machine);
}

/* Every executable PT_LOAD of path; base != 0 moves the lowest PT_LOAD there, else by slide. */
static int add_elf(struct pts_imgset *s, int32_t pid, const char *path, uint64_t base,
		   int64_t slide, struct pts_err *err);

int pts_imgset_add_elf(struct pts_imgset *s, int32_t pid, const char *path, uint64_t base,
		       struct pts_err *err)
{
	return add_elf(s, pid, path, base, 0, err);
}

int pts_imgset_add_elf_moved(struct pts_imgset *s, int32_t pid, const char *path,
			     int64_t slide, struct pts_err *err)
{
	return add_elf(s, pid, path, 0, slide, err);
}

static int add_elf(struct pts_imgset *s, int32_t pid, const char *path, uint64_t base,
		   int64_t slide, struct pts_err *err)
{
	struct obj *o = obj_get(s, path, err);
	uint64_t lowest = UINT64_MAX;
	int64_t bias = slide;
	size_t n, i;
	int rc = 0, added = 0;
	Elf *elf;

	if (!o)
		return err ? err->code : -ENOENT;
	elf_version(EV_CURRENT);
	elf = o->data ? elf_memory((char *)o->data, o->len) : NULL;
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &n)) {
		if (elf)
			elf_end(elf);
		/* what to give instead depends on the option: the caller says it */
		return pts_err_set(err, ENOEXEC, "%s is not an ELF file", path);
	}
	if (elf_machine_ok(elf, path, err)) {
		elf_end(elf);
		return err ? err->code : -EINVAL;
	}
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && ph.p_vaddr < lowest)
			lowest = ph.p_vaddr & ~0xfffULL;
	}
	if (base && lowest != UINT64_MAX)
		bias = (int64_t)(base - lowest);
	for (i = 0; i < n && !rc; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		/* the headers of a whole file name bytes a cut copy lacks: no OFFSET was given */
		if (ph.p_offset > o->len || ph.p_filesz > o->len - ph.p_offset) {
			rc = pts_err_set(err, ERANGE, "%s: its executable PT_LOAD (file offset 0x%llx"
					 "+0x%llx) runs past the end of the file (%zu bytes): a "
					 "truncated copy? copy the ELF again", path,
					 (unsigned long long)ph.p_offset,
					 (unsigned long long)ph.p_filesz, o->len);
			break;
		}
		rc = pts_imgset_add_file(s, pid, path, ph.p_offset, ph.p_filesz,
					 ph.p_vaddr + (uint64_t)bias, NULL, NULL, err);
		added++;
	}
	elf_end(elf);
	if (!rc && !added)
		return pts_err_set(err, EINVAL, "%s has no executable PT_LOAD segment", path);
	return rc;
}

int pts_imgset_add_kallsyms(struct pts_imgset *s, const char *path,
			    struct pts_kallsyms_stats *stats, struct pts_err *err)
{
	int rc;

	/* names given later replace earlier ones (a bundle's, by --kallsyms) */
	pts_symtab_free(&s->kallsyms);
	s->have_kallsyms = false;
	rc = pts_symtab_load_kallsyms(&s->kallsyms, path, stats, err);
	if (!rc)
		s->have_kallsyms = true;
	return rc;
}

int pts_imgset_has_pid(const struct pts_imgset *s, int32_t pid)
{
	/* the map only counts its probes: the set's contents are unchanged */
	const struct pts_hent *e = pts_hmap_find((struct pts_hmap *)&s->by_pid, &pid, sizeof(pid));

	return e && (e->v.u & BY_PID_MAPS);
}

/* image, new, kept as the set's image of pid for code of mode: 0, or -ENOMEM (image freed). */
static int keep_image(struct pts_imgset *s, int32_t pid, enum pt_exec_mode mode,
		      struct pt_image *image)
{
	struct img *ni = realloc(s->imgs, (s->nimgs + 1) * sizeof(*ni));

	if (!ni) {
		pt_image_free(image);
		return -ENOMEM;
	}
	s->imgs = ni;
	s->imgs[s->nimgs].pid = pid;
	s->imgs[s->nimgs].mode = mode;
	s->imgs[s->nimgs].image = image;
	s->nimgs++;
	return 0;
}

struct pt_image *pts_imgset_image(struct pts_imgset *s, int32_t pid)
{
	struct pt_image *image;
	struct pts_hent *e;
	bool created;

	e = pts_hmap_get(&s->by_pid, &pid, sizeof(pid), &created);
	if (!e)
		return NULL;
	if (e->v.u & ~BY_PID_MAPS)
		return s->imgs[(e->v.u & ~BY_PID_MAPS) - 1].image;
	image = new_image(s, NULL, pid, ptem_64bit);
	if (!image || keep_image(s, pid, ptem_64bit, image))
		return NULL;
	e->v.u |= s->nimgs;
	return image;
}

struct pt_image *pts_imgset_image_mode(struct pts_imgset *s, int32_t pid, enum pt_exec_mode mode)
{
	struct pt_image *image;
	size_t i;

	if (mode != ptem_16bit && mode != ptem_32bit)
		return pts_imgset_image(s, pid);
	/* a few at most: only damaged traces and compat processes run such code */
	for (i = 0; i < s->nimgs; i++)
		if (s->imgs[i].pid == pid && s->imgs[i].mode == mode)
			return s->imgs[i].image;
	image = new_image(s, NULL, pid, mode);
	if (!image || keep_image(s, pid, mode, image))
		return NULL;
	return image;
}

/*
 * A decoding thread's own libipt images (pts_imgview): a short list of the
 * pids it met, each with its image (made on first use from the set's
 * sections) and whether it has sections of its own. Only reads the set.
 */
struct view_img {
	int32_t pid;
	bool has_maps;
	struct pt_image *image;		/* NULL until asked for */
	struct pt_image *compat[2];	/* 16-bit, 32-bit code (pts_imgset_image_mode): the same */
};

struct pts_imgview {
	struct pts_imgset *set;
	struct view_img *v;
	size_t n;
	/*
	 * The thread's own image section cache: the set's 64-bit mappings
	 * added as its images need them, isid[k] the section of set->maps[k]
	 * (0: not added yet). Its sections, their mappings and libipt's block
	 * cache of each are this thread's alone (image.h).
	 */
	struct pt_image_section_cache *iscache;
	int *isid;
	size_t nisid;
};

/* Add mapping m (the set's) to img of view v from the view's own image section cache. */
static int view_add_cached(struct pts_imgview *v, struct pt_image *img, const struct mapping *m,
			   const struct pt_asid *key)
{
	size_t k = (size_t)(m - v->set->maps);

	if (k >= v->nisid) {
		size_t nc = v->set->nmaps;
		int *n = realloc(v->isid, nc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		memset(n + v->nisid, 0, (nc - v->nisid) * sizeof(*n));
		v->isid = n;
		v->nisid = nc;
	}
	if (!v->isid[k]) {
		int isid = pt_iscache_add_file(v->iscache, m->obj->path, m->file_off, m->size,
					       m->start);

		if (isid <= 0)
			return -EINVAL;
		v->isid[k] = isid;
	}
	return pt_image_add_cached(img, v->iscache, v->isid[k], key);
}

int pts_imgview_new(struct pts_imgset *set, struct pts_imgview **out)
{
	struct pts_imgview *v = calloc(1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	v->iscache = pt_iscache_alloc("ptscope view");
	if (!v->iscache) {
		free(v);
		return -ENOMEM;
	}
	v->set = set;
	*out = v;
	return 0;
}

static struct view_img *view_get(struct pts_imgview *v, int32_t pid)
{
	struct view_img *n;
	size_t i;

	for (i = 0; i < v->n; i++)
		if (v->v[i].pid == pid)
			return &v->v[i];
	n = realloc(v->v, (v->n + 1) * sizeof(*n));
	if (!n)
		return NULL;
	v->v = n;
	n = &v->v[v->n++];
	n->pid = pid;
	n->image = NULL;
	n->compat[0] = NULL;
	n->compat[1] = NULL;
	n->has_maps = false;
	for (i = 0; i < v->set->nmaps && !n->has_maps; i++)
		n->has_maps = v->set->maps[i].pid == pid;
	return n;
}

int pts_imgview_has_pid(struct pts_imgview *v, int32_t pid)
{
	struct view_img *e = view_get(v, pid);

	return e && e->has_maps;
}

struct pt_image *pts_imgview_image(struct pts_imgview *v, int32_t pid)
{
	return pts_imgview_image_mode(v, pid, ptem_64bit);
}

struct pt_image *pts_imgview_image_mode(struct pts_imgview *v, int32_t pid,
					enum pt_exec_mode mode)
{
	struct view_img *e = view_get(v, pid);
	struct pt_image **slot;

	if (!e)
		return NULL;
	slot = mode == ptem_16bit ? &e->compat[0] : mode == ptem_32bit ? &e->compat[1] : &e->image;
	if (!*slot)
		*slot = new_image(v->set, v, pid, slot == &e->image ? ptem_64bit : mode);
	return *slot;
}

void pts_imgview_free(struct pts_imgview *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		pt_image_free(v->v[i].image);
		pt_image_free(v->v[i].compat[0]);
		pt_image_free(v->v[i].compat[1]);
	}
	free(v->v);
	pt_iscache_free(v->iscache);
	free(v->isid);
	free(v);
}

/* Latest mapping holding addr in pid's space (later mappings win: exec, mmap over). */
/* any: a section of any address space (pid is ignored) */
static const struct mapping *find_map_in(const struct pts_imgset *s, int32_t pid, bool any,
					 uint64_t addr)
{
	size_t i = s->nmaps;

	while (i--) {
		const struct mapping *m = &s->maps[i];

		if (!any && m->pid != PTS_PID_ALL && m->pid != pid)
			continue;
		if (addr >= m->start && addr - m->start < m->size)
			return m;
	}
	return NULL;
}

static const struct mapping *find_map(const struct pts_imgset *s, int32_t pid, uint64_t addr)
{
	return find_map_in(s, pid, false, addr);
}

static size_t read_map(const struct mapping *m, uint64_t addr, uint8_t *buf, size_t len)
{
	uint64_t off, avail;

	if (!m || !m->obj->data)
		return 0;
	off = m->file_off + (addr - m->start);
	avail = m->size - (addr - m->start);
	if (len > avail)
		len = (size_t)avail;
	memcpy(buf, m->obj->data + off, len);
	return len;
}

size_t pts_imgset_read(const struct pts_imgset *s, int32_t pid, uint64_t addr, uint8_t *buf,
		       size_t len)
{
	return read_map(find_map(s, pid, addr), addr, buf, len);
}

size_t pts_imgset_read_any(const struct pts_imgset *s, uint64_t addr, uint8_t *buf, size_t len)
{
	return read_map(find_map_in(s, 0, true, addr), addr, buf, len);
}

/*
 * Names of o, which has no .symtab, from a separate debug file (its code
 * stays o's), found as pts_debug_file() finds it for object, the path on
 * the capture machine; else o is noted as unnamed with where the file
 * was looked for (pts_imgset_names_missing). Objects named "[...]" (the
 * vdso, kernel text) have their names elsewhere, and code that is no ELF
 * (--raw bytes, a bundle's kernel text) has none to find: not noted.
 */
static void load_debug_file(struct pts_imgset *s, struct obj *o, const char *object)
{
	struct pts_symtab full = { 0 };
	char looked[1024], why[1100];
	char *dbg = pts_debug_file(o->path, object, s->sysroot, s->buildid_dir, looked,
				   sizeof(looked));

	if (dbg && !pts_symtab_load_elf(&full, dbg, NULL) && full.n) {
		pts_symtab_free(&o->st);
		o->st = full;
		/* the PLT and its relocations are in the binary, not the debug file */
		pts_plt_load(&o->st, o->path);
	} else {
		pts_symtab_free(&full);
		if (object && object[0] != '[' && o->len >= 4 && !memcmp(o->data, "\177ELF", 4)) {
			if (looked[0])
				snprintf(why, sizeof(why), "no debug file at %s", looked);
			else
				snprintf(why, sizeof(why), "no build-id, and no .gnu_debuglink file");
			/* out of memory: not noted, the decode goes on */
			o->unnamed_object = strdup(object);
			o->unnamed_looked = strdup(why);
		}
	}
	free(dbg);
}

int pts_imgset_symbolize(void *ctx, int32_t pid, uint64_t addr, struct pts_sym_info *out)
{
	struct pts_imgset *s = ctx;
	const struct mapping *m = find_map(s, pts_imgset_space_at(s, pid, s->sym_time), addr);
	const struct pts_sym *sym;

	memset(out, 0, sizeof(*out));
	if (m) {
		struct obj *o = m->obj;

		out->object = m->object;
		if (!o->syms_loaded) {
			o->syms_loaded = true;
			/* a stripped or non-ELF file just has no names */
			pts_symtab_load_elf(&o->st, o->sym_path ? o->sym_path : o->path, NULL);
			if (!o->st.full && !o->sym_path)
				load_debug_file(s, o, o->orig ? o->orig : m->object);
		}
		sym = pts_symtab_find(&o->st, addr - (uint64_t)m->bias);
		if (sym) {
			out->name = sym->unnamed ? NULL : sym->name;
			out->unnamed = sym->unnamed;
			out->part = sym->part;
			out->start = sym->start + (uint64_t)m->bias;
			out->size = sym->size;
			return 0;
		}
		if (!pts_addr_is_kernel(addr) || !s->have_kallsyms)
			return 0;
	}
	if (pts_addr_is_kernel(addr) && s->have_kallsyms) {
		sym = pts_symtab_find(&s->kallsyms, addr);
		if (!out->object)
			out->object = "[kernel.kallsyms]";
		if (sym) {
			out->name = sym->name;
			out->start = sym->start;
			out->size = sym->size;
		}
	}
	return 0;
}

int pts_imgset_set_sysroot(struct pts_imgset *s, const char *sysroot)
{
	free(s->sysroot);
	s->sysroot = sysroot ? strdup(sysroot) : NULL;
	return sysroot && !s->sysroot ? -ENOMEM : 0;
}

int pts_imgset_set_buildid_dir(struct pts_imgset *s, const char *dir)
{
	free(s->buildid_dir);
	s->buildid_dir = dir ? strdup(dir) : NULL;
	return dir && !s->buildid_dir ? -ENOMEM : 0;
}

const char *pts_imgset_names_missing(const struct pts_imgset *s, size_t i, const char **looked)
{
	size_t k;

	for (k = 0; k < s->nobjs; k++) {
		const struct obj *o = s->objs[k];

		if (!o->unnamed_object || !o->unnamed_looked || i--)
			continue;
		*looked = o->unnamed_looked;
		return o->unnamed_object;
	}
	return NULL;
}

const char *pts_imgset_sym_damage(const struct pts_imgset *s, size_t i, const char **why)
{
	size_t k;

	for (k = 0; k < s->nobjs; k++) {
		const struct obj *o = s->objs[k];

		if (!o->syms_loaded || !o->st.damage[0] || i--)
			continue;
		*why = o->st.damage;
		return o->sym_path ? o->sym_path : o->path;
	}
	return NULL;
}
