/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a loaded module's code is. /proc/modules gives a base and a size,
 * but the size is the module's whole memory (code, read-only data, data)
 * and, since Linux 6.4 (struct module_memory: one allocation per kind of
 * memory), base + size runs past the code's allocation into whatever the
 * kernel placed after it (another module's code, a hole). The code's own
 * extent comes from the section addresses in /sys/module/NAME/sections/
 * (which sections are code) and the vmalloc area that holds them
 * (/proc/vmallocinfo: start and mapped pages of each allocation). On 6.1
 * (one allocation per module, code first, then read-only data at a page
 * boundary) the code ends where the first non-code section starts.
 */
#ifndef PTS_CAPTURE_KMODTEXT_H
#define PTS_CAPTURE_KMODTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One file of /sys/module/NAME/sections/: a section name and its address. */
struct pts_ksection {
	char name[64];
	uint64_t addr;
};

/* One allocation of /proc/vmallocinfo: [start, end) mapped bytes. */
struct pts_vmarea {
	uint64_t start, end;
};

/*
 * Is a section of this name module code that stays after loading (".text",
 * ".text.*", "*.text" such as ".noinstr.text" and ".exit.text",
 * ".altinstr_replacement", ".altinstr_aux", ".fixup")? ".init.*" is freed
 * after the module's init and is not.
 */
bool pts_ksection_is_text(const char *name);

/*
 * Parse /proc/vmallocinfo text ("0xSTART-0xEND SIZE CALLER pages=N ...").
 * An area with pages=N maps N 4 KiB pages from its start; one without
 * (ioremap, vmap) maps its range less the guard page. Lines that are not
 * areas are skipped. *out malloc'd, sorted by start. 0 or -ENOMEM.
 */
int pts_vmallocinfo_parse(const char *text, size_t len, struct pts_vmarea **out, size_t *nr);

/*
 * The code of one module: *text is the lowest code section's address and
 * the code runs to the first of: the end of the vmalloc area holding it
 * (when areas are known), base + size (/proc/modules, when the code is
 * inside it), text + size otherwise; and the first non-code section at a
 * page boundary above the highest code section (6.1's read-only data;
 * a code section of a name pts_ksection_is_text() does not know, inside
 * the code's last page, does not end it). secs need no order. Returns
 * false (outputs 0) when no section is code or none has an address.
 */
bool pts_kmodule_text_extent(const struct pts_ksection *secs, size_t nr_secs, uint64_t base,
			     uint64_t size, const struct pts_vmarea *areas, size_t nr_areas,
			     uint64_t *text, uint64_t *text_size);

#endif
