// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness: a kallsyms listing (ptscope decode --kallsyms, a
 * bundle's kallsyms). Loaded as a symbol table, every symbol must be
 * found at its start; then loaded into an image set, as the decoder
 * does, and every address it names (and the bytes around) symbolized.
 * The capture's reading of the same listing (capture/ktext_extra.h): the
 * ranges of BPF, ftrace and kprobe code must be non-empty, in address
 * order and apart (ranges that touch are merged). Those readers take the
 * listing as bytes and a length, so they are given it just before a page
 * that cannot be read (fuzz_at_page_end): reading on past the length is
 * a fault (seed hex-to-the-end).
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "capture/kernel.h"
#include "capture/ktext_extra.h"
#include "decode/image.h"
#include "decode/symtab.h"

static void broken_range(const struct pts_krange *r, size_t i, const char *rule)
{
	fprintf(stderr, "fuzz: extra kernel text range %zu [%#llx, %#llx) %s: %s\n", i,
		(unsigned long long)r[i].start, (unsigned long long)r[i].end, r[i].name, rule);
	abort();
}

static void check_extra_text(const uint8_t *data, size_t size)
{
	const char *text = fuzz_at_page_end(data, size);
	struct pts_krange *r;
	struct pts_err err;
	uint64_t s, e;
	size_t i, n;

	if (!pts_kallsyms_text_range(text, size, &s, &e, &err) && s >= e) {
		fprintf(stderr, "fuzz: kernel text range [%#llx, %#llx) is empty\n",
			(unsigned long long)s, (unsigned long long)e);
		abort();
	}
	pts_kallsyms_zeroed(text, size);
	if (pts_kallsyms_extra_text(text, size, &r, &n))
		return;
	for (i = 0; i < n; i++) {
		if (r[i].start >= r[i].end)
			broken_range(r, i, "empty or wraps round");
		if (i && r[i].start <= r[i - 1].end)
			broken_range(r, i, "not after the range before, apart");
	}
	free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pts_kallsyms_stats ks;
	struct pts_symtab st = { 0 };
	struct pts_imgset *set = NULL;
	struct pts_sym_info info;
	struct pts_err err;
	const char *path = fuzz_file(0, "kallsyms", data, size);
	size_t i;

	check_extra_text(data, size);
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
