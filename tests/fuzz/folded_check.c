// SPDX-License-Identifier: GPL-2.0
/*
 * The folded writer's output rules (writer_folded.c), checked after a
 * decode the harnesses wrote as .folded: every line is "STACK COUNT\n"
 * with STACK a root and at least one frame joined by ';' (no empty
 * frame, no more frames than the deepest slice seen) and COUNT a
 * decimal number of ns above zero; lines sorted by stack in byte order,
 * no stack twice; the counts add up to the self time the records give,
 * which the record-rule checker sums on its own (fuzz.h). Any other
 * output aborts: a finding.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bad(const char *path, unsigned long line, const char *what, const char *text)
{
	fprintf(stderr, "fuzz: %s line %lu breaks the folded format: %s: %.200s\n", path, line,
		what, text ? text : "");
	abort();
}

void fuzz_folded_check(const char *path, uint64_t self_ns, uint32_t max_depth)
{
	char *line = NULL, *prev = NULL, *sp, *end;
	unsigned long no = 0;
	uint64_t sum = 0, n;
	size_t cap = 0;
	ssize_t len;
	uint32_t frames;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		abort();
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		no++;
		if (line[len - 1] != '\n')
			bad(path, no, "no newline at the end of the line", line);
		line[--len] = '\0';
		if (memchr(line, '\0', (size_t)len) || strchr(line, '\r'))
			bad(path, no, "a NUL or CR inside the line", line);
		sp = strrchr(line, ' ');
		if (!sp || sp == line || !sp[1] || sp[1] == '0')
			bad(path, no, "no count above zero after the stack", line);
		n = strtoull(sp + 1, &end, 10);
		if (*end || sp[1] < '0' || sp[1] > '9')
			bad(path, no, "a count that is not a decimal number", line);
		*sp = '\0';
		frames = 0;
		for (end = strchr(line, ';'); end; end = strchr(end + 1, ';')) {
			if (!end[1] || end[1] == ';' || end == line)
				bad(path, no, "an empty frame", line);
			frames++;
		}
		if (!frames || frames > max_depth)
			bad(path, no, "a stack without a frame or deeper than any slice", line);
		if (prev && strcmp(prev, line) >= 0)
			bad(path, no, "a stack not after the previous line's in byte order", line);
		free(prev);
		prev = strdup(line);
		if (!prev)
			abort();
		sum += n;
	}
	free(line);
	free(prev);
	fclose(f);
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "fuzz: folded: %lu lines, %llu ns\n", no, (unsigned long long)sum);
	if (sum != self_ns) {
		fprintf(stderr, "fuzz: %s: the counts add up to %llu ns, the records give %llu ns "
			"of self time\n", path, (unsigned long long)sum, (unsigned long long)self_ns);
		abort();
	}
}
