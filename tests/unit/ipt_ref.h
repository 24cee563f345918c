/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reference the decoder's instruction flow is compared with: libipt's
 * instruction decoder (pt_insn_*) run as its documentation says
 * (pt_insn_next(3)): events drained while pts_event_pending, and
 * pt_insn_next called on after pts_eos, as long as an instruction's
 * address can be determined without further trace, until it returns
 * -pte_eos (an instruction returned together with that error was
 * decoded: it is listed too). Images: the executable PT_LOADs of ELF
 * files, at their link addresses (libelf).
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
 * Decode len bytes of buf (padded by the caller: libipt may read past a
 * PSB cut at the end) with libipt's instruction decoder over the ELF
 * files, from the first PSB to the end of the trace, resynchronising at
 * the next PSB after an error. Writes up to max instruction addresses to
 * out; returns how many instructions were decoded (may exceed max), or
 * -1 when the decoder cannot be set up.
 */
static inline long ipt_ref_insns(const uint8_t *buf, size_t len, const char *const *elf,
				 size_t nr_elf, uint64_t *out, size_t max)
{
	struct pt_insn_decoder *dec;
	struct pt_image *image;
	struct pt_config cfg;
	long n = 0;
	size_t i;
	int st;

	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)buf;
	cfg.end = (uint8_t *)buf + len;
	dec = pt_insn_alloc_decoder(&cfg);
	if (!dec)
		return -1;
	image = pt_insn_get_image(dec);
	for (i = 0; i < nr_elf; i++)
		if (ipt_ref_add_elf(image, elf[i])) {
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
			if (st < 0)
				break;
			st = pt_insn_next(dec, &insn, sizeof(insn));
			if (insn.iclass != ptic_error) {
				if ((size_t)n < max)
					out[n] = insn.ip;
				n++;
			}
			if (st < 0)
				break;
		}
	}
	pt_insn_free_decoder(dec);
	return n;
}

#endif
