// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness: a kallsyms listing (ptscope decode --kallsyms, a
 * bundle's kallsyms). Loaded as a symbol table, every symbol must be
 * found at its start; then loaded into an image set, as the decoder
 * does, and every address it names (and the bytes around) symbolized.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "decode/image.h"
#include "decode/symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pts_kallsyms_stats ks;
	struct pts_symtab st = { 0 };
	struct pts_imgset *set = NULL;
	struct pts_sym_info info;
	struct pts_err err;
	const char *path = fuzz_file(0, "kallsyms", data, size);
	size_t i;

	if (pts_symtab_load_kallsyms(&st, path, &ks, &err))
		return 0;
	for (i = 0; i < st.n; i++) {
		const struct pts_sym *s = pts_symtab_find(&st, st.syms[i].start);

		if (!s || s->start != st.syms[i].start) {
			fprintf(stderr, "fuzz: symbol %zu at %#llx is not found there\n", i,
				(unsigned long long)st.syms[i].start);
			abort();
		}
	}
	if (!pts_imgset_new(&set, &err) && !pts_imgset_add_kallsyms(set, path, &ks, &err))
		for (i = 0; i < st.n; i++) {
			pts_imgset_symbolize(set, PTS_PID_ALL, st.syms[i].start, &info);
			pts_imgset_symbolize(set, 100, st.syms[i].start - 1, &info);
			pts_imgset_symbolize(set, 100, st.syms[i].start + st.syms[i].size, &info);
		}
	pts_imgset_free(set);
	pts_symtab_free(&st);
	return 0;
}
