/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory images for decoding: which file bytes are at which address in
 * which address space, for libipt (through one image section cache, so
 * the block decoder caches blocks per section, pt-facts §6) and for our
 * own reads (instruction classes) and symbol lookups.
 *
 * Address spaces are keyed by pid; pid PTS_PID_ALL (-1) holds sections
 * present in every address space: kernel text, and the --elf/--raw
 * images of raw mode. Kernel sections are added to every libipt image
 * with no CR3 (they match every address space).
 *
 * Load bias: a mapping of file offset `pgoff` at runtime address `start`
 * puts link address v of the PT_LOAD holding pgoff at
 * v + start - pgoff - (p_vaddr - p_offset); symbols are looked up with that
 * bias (PIE and shared objects; for a non-PIE executable it is 0).
 */
#ifndef PTS_DECODE_IMAGE_H
#define PTS_DECODE_IMAGE_H

#include <stdint.h>

#include <intel-pt.h>

#include "../util/err.h"
#include "symtab.h"

#define PTS_PID_ALL (-1)

struct pts_imgset;
struct pts_sym_info;

/* New empty set. Errors: -ENOMEM. */
int pts_imgset_new(struct pts_imgset **out, struct pts_err *err);
void pts_imgset_free(struct pts_imgset *set);

/*
 * Map [file_off, file_off + size) of path at vaddr in pid's address space.
 * object: name shown for this code (NULL: the path). Symbols come from
 * sym_path (a separate debug file; NULL: path) with the bias above.
 * Errors: -ENOENT/-errno the file cannot be read (err says which),
 * -ERANGE the range lies outside the file, -ENOMEM, -EINVAL from libipt.
 */
int pts_imgset_add_file(struct pts_imgset *set, int32_t pid, const char *path,
			uint64_t file_off, uint64_t size, uint64_t vaddr,
			const char *object, const char *sym_path, struct pts_err *err);

/*
 * Map every executable PT_LOAD of an ELF file. base = 0: at its link
 * addresses; otherwise the lowest PT_LOAD (page-aligned) is moved to base
 * (a PIE or shared object loaded there). Errors: as add_file, -ENOEXEC not
 * an ELF file (err: "PATH is not an ELF file", for the caller to say what
 * to give instead), -EINVAL an ELF of another machine or no executable
 * PT_LOAD.
 */
int pts_imgset_add_elf(struct pts_imgset *set, int32_t pid, const char *path, uint64_t base,
		       struct pts_err *err);

/*
 * Map every executable PT_LOAD of an ELF file at its link address plus
 * slide (a kernel moved by KASLR: runtime _stext - link _stext). Errors:
 * as pts_imgset_add_elf.
 */
int pts_imgset_add_elf_moved(struct pts_imgset *set, int32_t pid, const char *path,
			     int64_t slide, struct pts_err *err);

/*
 * The page-table root (CR3, as PIP packets carry it) of pid's address
 * space: pid's sections are then found by libipt from PIP in traces that
 * have them (kernel traced), and PIP names the process. Call before the
 * first pts_imgset_image (-EBUSY after). -ENOMEM.
 */
int pts_imgset_set_cr3(struct pts_imgset *set, int32_t pid, uint64_t cr3);

/*
 * The page-table root of a CR3 value: bits 11:0 hold the PCID (with KPTI,
 * bit 11 marks the user PCID), not the address space (SDM vol. 3A 4.10.1).
 */
#define PTS_CR3_ROOT_MASK (~0xfffULL)

/*
 * Also name pid by cr3 (a root the sideband recorded for it; bits 11:0 are
 * ignored), without keying its sections: a PIP carrying it then names pid.
 * Any time. 0 (also for cr3 0 or a root already named pid), -ENOMEM.
 */
int pts_imgset_note_cr3(struct pts_imgset *set, int32_t pid, uint64_t cr3);

/*
 * pid whose CR3 is cr3 (as a PIP carries it: the page-table root, and
 * PCID bits 11:0 that are ignored), or whose user root is the one just
 * above it (the kernel root of a KPTI process); -1 none.
 */
int32_t pts_imgset_pid_of_cr3(const struct pts_imgset *set, uint64_t cr3);

/*
 * Address spaces over time. A process's exec replaces its code: the
 * sections of the program it ran before and of each program it exec'd
 * are kept apart, each in its own address space, named by a space id.
 * A process's first address space (before any exec the set knows) has
 * the pid as its id, so every pid-keyed call above also takes a space id;
 * later ones get ids from PTS_SPACE_FIRST up (above every pid: Linux's
 * PID_MAX_LIMIT is 2^22).
 */
#define PTS_SPACE_FIRST 0x40000000

/*
 * pid exec'd at time_ns (ns on the decode's clock, from the sideband):
 * from then on its code is that of a new address space, whose id is
 * returned (>= PTS_SPACE_FIRST). Any order; an exec already known (same
 * pid and time) returns its space again. -ENOMEM.
 */
int32_t pts_imgset_add_exec(struct pts_imgset *set, int32_t pid, uint64_t time_ns);

/*
 * The address space pid runs in at time_ns: that of its latest exec at or
 * before time_ns, else pid itself (UINT64_MAX: the last one).
 */
int32_t pts_imgset_space_at(const struct pts_imgset *set, int32_t pid, uint64_t time_ns);

/* The process an address space belongs to (space itself for a pid). */
int32_t pts_imgset_space_pid(const struct pts_imgset *set, int32_t space);

/*
 * Where to write the time (ns, as pts_imgset_add_exec's) the events now
 * being named happen at: pts_imgset_symbolize names a pid's address in the
 * address space the pid runs in at that time. Default UINT64_MAX (the
 * last). A pointer, valid while set is: the time changes with every event
 * fed, and a store costs less than a call.
 */
uint64_t *pts_imgset_sym_time(struct pts_imgset *set);

/* Root under which separate debug files are looked up (NULL: "/"). -ENOMEM. */
int pts_imgset_set_sysroot(struct pts_imgset *set, const char *sysroot);

/*
 * perf's build-id cache (buildid_cache.h), where separate debug files are
 * also looked up (NULL: none, the default). -ENOMEM.
 */
int pts_imgset_set_buildid_dir(struct pts_imgset *set, const char *dir);

/*
 * Kernel symbols from a kallsyms listing (for kernel addresses), in place
 * of any loaded before. Lines that are not kallsyms lines are skipped and
 * counted in *stats (may be NULL). Errors: those of
 * pts_symtab_load_kallsyms (-EINVAL: no kallsyms line, -EACCES: every
 * address 0); no names are kept then.
 */
int pts_imgset_add_kallsyms(struct pts_imgset *set, const char *path,
			    struct pts_kallsyms_stats *stats, struct pts_err *err);

/* The libipt image for pid (sections of pid and of PTS_PID_ALL). NULL on ENOMEM. */
struct pt_image *pts_imgset_image(struct pts_imgset *set, int32_t pid);

/*
 * The libipt image for pid to decode code of mode with: for 16- and
 * 32-bit code, one of the same sections outside the image section cache,
 * each section its own (so its libipt block cache holds blocks of that
 * mode only: libipt 2.0.5 takes a cached block in the mode it was cached
 * in, whatever its decoder's mode, docs/decode.md "Parallel decode");
 * pts_imgset_image's for any other mode. NULL on ENOMEM.
 */
struct pt_image *pts_imgset_image_mode(struct pts_imgset *set, int32_t pid,
				       enum pt_exec_mode mode);

/*
 * A view of the set for one decoding thread: libipt images of its own
 * (a pt_image reorders its sections as it is read, so one image cannot
 * serve two threads), built from the set's mappings through an image
 * section cache of its own: the view's sections, their mappings of the
 * files and libipt's block cache of each are the thread's alone, filled
 * by its decoders only. Shared by threads decoding at once, the set's
 * sections made libipt slower in each: with both threads of -j 2 always
 * on the CPUs, -j 2 spent twice its usual CPU time (docs/performance.md,
 * "The workers' own sections (twentieth round)"; the line or lines they
 * contend for were not found). Memory: a block cache per thread, 4 bytes
 * per byte of each section it decodes, touched as it fills. The set must
 * not change while views exist; pts_imgset_read, _read_any and
 * _pid_of_cr3 only read it and may be called from any thread
 * (pts_imgset_has_pid counts its probes: use the view's). Errors: -ENOMEM.
 */
struct pts_imgview;
int pts_imgview_new(struct pts_imgset *set, struct pts_imgview **out);
/* The view's libipt image for pid (as pts_imgset_image). NULL on ENOMEM. */
struct pt_image *pts_imgview_image(struct pts_imgview *view, int32_t pid);
/* The view's libipt image for pid and mode (as pts_imgset_image_mode). NULL on ENOMEM. */
struct pt_image *pts_imgview_image_mode(struct pts_imgview *view, int32_t pid,
					enum pt_exec_mode mode);
/* As pts_imgset_has_pid, from the view (0 also on ENOMEM). */
int pts_imgview_has_pid(struct pts_imgview *view, int32_t pid);
void pts_imgview_free(struct pts_imgview *view);

/* True when pid has sections of its own. */
int pts_imgset_has_pid(const struct pts_imgset *set, int32_t pid);

/* Copy up to len bytes at addr from pid's space; returns bytes copied (0 none). */
size_t pts_imgset_read(const struct pts_imgset *set, int32_t pid, uint64_t addr, uint8_t *buf,
		       size_t len);

/*
 * Copy up to len bytes at addr from the last-added section of any address
 * space that holds addr: what the union image pts_imgset_image(set,
 * PTS_PID_ALL) decodes with. Returns bytes copied (0 none).
 */
size_t pts_imgset_read_any(const struct pts_imgset *set, uint64_t addr, uint8_t *buf, size_t len);

/*
 * The i-th object whose symbol names could be read only in part (damaged
 * section headers or symbol table, pts_symtab.damage), and *why; NULL
 * past the last. Symbols are read when code of the object is first
 * named, so this lists what the decode so far met.
 */
const char *pts_imgset_sym_damage(const struct pts_imgset *s, size_t i, const char **why);

/*
 * The i-th object (its path on the capture machine) whose code was named
 * and which has no .symtab and no debug file was found for (only its
 * exported names, or none: [unknown]); *looked says where the debug file
 * was looked for ("no debug file at PATH, ...", pts_debug_file), or that
 * the object has no build-id. NULL past the last.
 */
const char *pts_imgset_names_missing(const struct pts_imgset *s, size_t i, const char **looked);

/*
 * Symbol of addr in pid's space at the time written at
 * pts_imgset_sym_time (pts_tl_symbolize_fn). Always returns 0.
 */
int pts_imgset_symbolize(void *set, int32_t pid, uint64_t addr, struct pts_sym_info *out);

#endif
