/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reference the decoder's instruction flow is compared with: libipt's
 * instruction decoder (pt_insn_*) run as its documentation says
 * (pt_insn_next(3)): events drained while pts_event_pending, and
 * pt_insn_next called on after pts_eos, as long as an instruction's
 * address can be determined without further trace, until it returns
 * -pte_eos (an instruction returned together with that error was
 * decoded: it is listed too). Images: the executable PT_LOADs of ELF
 * files, at their link addresses (libelf), or raw code bytes at an
 * address, as the caller's image callback adds them.
 */
#ifndef PTS_TEST_IPT_REF_H
#define PTS_TEST_IPT_REF_H

#include <fcntl.h>
#include <gelf.h>
#include <intel-pt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Add the executable PT_LOADs of ELF file path to image; 0 or -1. */
static inline int ipt_ref_add_elf(struct pt_image *image, const char *path)
{
	int fd = open(path, O_RDONLY), rc = -1;
	Elf *e;
	size_t i, n;

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && !elf_getphdrnum(e, &n)) {
		rc = 0;
		for (i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD ||
			    !(ph.p_flags & PF_X))
				continue;
			if (pt_image_add_file(image, path, ph.p_offset, ph.p_filesz, NULL,
					      ph.p_vaddr) < 0)
				rc = -1;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

/*
 * Fills the reference's image with the code the trace runs over; ctx is
 * the caller's. 0, or -1 when the code cannot be added.
 */
typedef int (*ipt_ref_image_fn)(struct pt_image *image, void *ctx);

/* ELF files for ipt_ref_add_elfs: their paths. */
struct ipt_ref_elfs {
	const char *const *path;
	size_t n;
};

/* An ipt_ref_image_fn: the ELF files of ctx (struct ipt_ref_elfs), ipt_ref_add_elf each. */
static inline int ipt_ref_add_elfs(struct pt_image *image, void *ctx)
{
	const struct ipt_ref_elfs *e = ctx;
	size_t i;

	for (i = 0; i < e->n; i++)
		if (ipt_ref_add_elf(image, e->path[i]))
			return -1;
	return 0;
}

/* Raw code for ipt_ref_add_raw: size bytes of file path, mapped at vaddr. */
struct ipt_ref_raw {
	const char *path;
	uint64_t size;
	uint64_t vaddr;
};

/* An ipt_ref_image_fn: the raw code of ctx (struct ipt_ref_raw). */
static inline int ipt_ref_add_raw(struct pt_image *image, void *ctx)
{
	const struct ipt_ref_raw *r = ctx;

	return pt_image_add_file(image, r->path, 0, r->size, NULL, r->vaddr) < 0 ? -1 : 0;
}

/* What the reference met (ipt_ref_run). */
struct ipt_ref_result {
	long insns;		/* instructions decoded (may exceed the addresses kept) */
	long errors;		/* errors other than -pte_eos, each one a resynchronisation */
	uint64_t err_off;	/* the first error's trace offset, UINT64_MAX when none */
};

/*
 * Decode len bytes of buf (padded by the caller: libipt may read past a
 * PSB cut at the end) with libipt's instruction decoder over the code
 * that add puts in its image (ctx passed on), from the first PSB to the
 * end of the trace, resynchronising at the next PSB after an error.
 * Writes up to max instruction addresses to out (NULL when max is 0) and
 * what it met to *r: an error met while draining events counts as one,
 * and the first one's offset is the decoder's (pt_insn_get_offset) when
 * it is returned. 0, or -1 when the decoder cannot be set up.
 */
static inline int ipt_ref_run(const uint8_t *buf, size_t len, ipt_ref_image_fn add, void *ctx,
			      uint64_t *out, size_t max, struct ipt_ref_result *r)
{
	struct pt_insn_decoder *dec;
	struct pt_config cfg;
	int st;

	r->insns = r->errors = 0;
	r->err_off = UINT64_MAX;
	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	dec = pt_insn_alloc_decoder(&cfg);
	if (!dec)
		return -1;
	if (add(pt_insn_get_image(dec), ctx)) {
		pt_insn_free_decoder(dec);
		return -1;
	}
	while ((st = pt_insn_sync_forward(dec)) >= 0) {
		for (;;) {
			struct pt_insn insn;

			while (st >= 0 && (st & pts_event_pending)) {
				struct pt_event ev;

				st = pt_insn_event(dec, &ev, sizeof(ev));
			}
			if (st >= 0) {
				st = pt_insn_next(dec, &insn, sizeof(insn));
				if (insn.iclass != ptic_error) {
					if ((size_t)r->insns < max)
						out[r->insns] = insn.ip;
					r->insns++;
				}
			}
			if (st < 0) {
				if (st != -pte_eos && !r->errors++)
					pt_insn_get_offset(dec, &r->err_off);
				break;
			}
		}
	}
	pt_insn_free_decoder(dec);
	return 0;
}

/*
 * ipt_ref_run over the nr_elf ELF files elf (ipt_ref_add_elfs): returns
 * how many instructions were decoded (may exceed max), or -1 when the
 * decoder cannot be set up.
 */
static inline long ipt_ref_insns(const uint8_t *buf, size_t len, const char *const *elf,
				 size_t nr_elf, uint64_t *out, size_t max)
{
	struct ipt_ref_elfs e = { elf, nr_elf };
	struct ipt_ref_result r;

	if (ipt_ref_run(buf, len, ipt_ref_add_elfs, &e, out, max, &r))
		return -1;
	return r.insns;
}

#endif
