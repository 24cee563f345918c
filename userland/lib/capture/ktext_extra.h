/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel code outside vmlinux's _stext.._etext and module .text that
 * kallsyms names: BPF programs and BPF trampolines (module "[bpf]"),
 * ftrace trampolines ("[__builtin__ftrace]"), kprobe and optprobe
 * instruction slots ("[__builtin__kprobes]"). Without their bytes a
 * kernel-scope trace that runs them decodes as "no memory mapped" until
 * the next PSB; they are read from kcore like the rest of the text.
 */
#ifndef PTS_CAPTURE_KTEXT_EXTRA_H
#define PTS_CAPTURE_KTEXT_EXTRA_H

#include <stddef.h>
#include <stdint.h>

/* At most this many bytes are taken from one symbol (to the next symbol). */
#define PTS_KTEXT_EXTRA_MAX (64u * 1024)

/* A range of such code: [start, end), named by its first symbol. */
struct pts_krange {
	char name[64];
	uint64_t start, end;
};

/*
 * The ranges of kallsyms text (len bytes) that hold such code: each
 * symbol of those modules runs to the next symbol at a higher address
 * (any symbol), at most PTS_KTEXT_EXTRA_MAX bytes, or to the end of its
 * 4 KiB page when no symbol follows; ranges that touch are merged, in
 * address order. Symbols at address 0 (kptr_restrict) give none.
 * *out malloc'd (NULL when *nr is 0). 0 or -ENOMEM.
 */
int pts_kallsyms_extra_text(const char *text, size_t len, struct pts_krange **out, size_t *nr);

#endif
