// SPDX-License-Identifier: GPL-2.0
/*
 * bench-time: run a command once and report its wall time, CPU time and
 * peak resident set size, from wait4()'s rusage of that one child
 * (ru_maxrss, KiB on Linux). GNU time -v reports the same counter; this
 * keeps the benchmark free of that package.
 *
 *   bench-time [-o FILE] -- CMD [ARGS...]
 *
 * Prints (to FILE, else stderr) one line:
 *   wall=S user=S sys=S maxrss_kib=N status=N
 * and exits with the command's exit status (128 + signal when killed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *out = NULL;
	struct timespec t0, t1;
	struct rusage ru;
	int i = 1, status, code;
	FILE *f = stderr;
	pid_t pid;

	if (i + 1 < argc && !strcmp(argv[i], "-o")) {
		out = argv[i + 1];
		i += 2;
	}
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	if (i >= argc) {
		fputs("usage: bench-time [-o FILE] -- CMD [ARGS...]\n", stderr);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("bench-time: fork");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[i], argv + i);
		fprintf(stderr, "bench-time: cannot run %s\n", argv[i]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("bench-time: wait4");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (out && !(f = fopen(out, "w"))) {
		perror(out);
		return 1;
	}
	fprintf(f, "wall=%.3f user=%.3f sys=%.3f maxrss_kib=%ld status=%d\n",
		(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
		ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
		ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6, ru.ru_maxrss, code);
	if (out)
		fclose(f);
	return code;
}
