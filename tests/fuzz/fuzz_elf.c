// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness: an ELF image (ptscope decode --elf, a bundle's copied
 * binaries, debug files). Its symbols and build-id are read, then it is
 * the code of fuzz_user_trace() (a user-scope trace at 0x401000): the
 * seeds are user.S linked there, whole and with damaged headers. The
 * writer: size % 5 (none, fxt, json, txt, folded).
 */
#include "fuzz.h"
#include "capture/elfinfo.h"
#include "session/session.h"
#include "decode/symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pts_symtab st = { 0 };
	struct pts_decode_summary sum;
	struct pts_decode_opts o;
	struct pts_err err;
	const char *path = fuzz_file(0, "image.elf", data, size);
	char id[41];
	size_t i;
	int rc;

	if (!pts_symtab_load_elf(&st, path, &err))
		for (i = 0; i < st.n; i++)
			pts_symtab_find(&st, st.syms[i].start + st.syms[i].size / 2);
	pts_symtab_free(&st);
	pts_elf_build_id(path, id, &err);
	pts_decode_opts_init(&o);
	o.pt[0].path = fuzz_user_trace();
	o.nr_pt = 1;
	o.elf[0].path = path;
	o.nr_elf = 1;
	o.tsc_khz = 1000000;
	o.pid = 100;
	o.tid = 100;
	fuzz_sink_begin((enum pts_format)(size % 5));
	rc = pts_decode_raw(&o, fuzz_emit, NULL, &sum, &err);
	fuzz_sink_end(!rc);
	pts_decode_summary_free(&sum);
	return 0;
}
