// SPDX-License-Identifier: GPL-2.0
/*
 * main() for a fuzz harness built without libFuzzer: runs
 * LLVMFuzzerTestOneInput on each file named, and on each file of each
 * directory named (the corpus), in name order. Exit 0 when every input
 * ran (a broken rule or a crash aborts); 1 when an input cannot be read.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	struct stat st;
	uint8_t *buf;
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f || fstat(fileno(f), &st)) {
		perror(path);
		return 1;
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	n = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
	fclose(f);
	if (!buf || n != (size_t)st.st_size) {
		fprintf(stderr, "%s: cannot read\n", path);
		free(buf);
		return 1;
	}
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
	int i, rc = 0, runs = 0;

	for (i = 1; i < argc; i++) {
		struct dirent **ents;
		struct stat st;
		int n, k;

		if (stat(argv[i], &st)) {
			perror(argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			rc |= run_file(argv[i]);
			runs++;
			continue;
		}
		n = scandir(argv[i], &ents, NULL, by_name);
		for (k = 0; k < n; k++) {
			char path[4096];

			snprintf(path, sizeof(path), "%s/%s", argv[i], ents[k]->d_name);
			if (!stat(path, &st) && S_ISREG(st.st_mode)) {
				rc |= run_file(path);
				runs++;
			}
			free(ents[k]);
		}
		free(n >= 0 ? ents : NULL);
	}
	printf("%s: %d input%s replayed\n", argv[0], runs, runs == 1 ? "" : "s");
	return rc;
}
