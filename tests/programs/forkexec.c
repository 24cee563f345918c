// SPDX-License-Identifier: GPL-2.0
/*
 * fork + exec for the decoder fidelity corpus (docs/fidelity.md). The
 * parent forks; the child (untraced: ptsynth follows one process) execs
 * the program named in argv[1] or exits; the parent waits for it. With
 * "exec" as argv[1] the process execs itself with "child" instead
 * (ptsynth --follow-exec traces the new image from its first
 * instruction). Linked statically.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static int work(int n)
{
	return n < 2 ? n : work(n - 1) + work(n - 2);
}

int main(int argc, char **argv)
{
	int status = 0;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "exec")) {
		char *args[] = { argv[0], "child", NULL };

		execv(argv[0], args);
		return 2;
	}
	if (argc > 1 && !strcmp(argv[1], "child")) {
		printf("exec'd work=%d\n", work(8));
		return 0;
	}
	pid = fork();
	if (pid == 0)
		_exit(work(5) == 5 ? 0 : 1);
	waitpid(pid, &status, 0);
	printf("work=%d child=%d\n", work(7), WEXITSTATUS(status));
	return 0;
}
