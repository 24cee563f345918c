// SPDX-License-Identifier: GPL-2.0
/*
 * qexit CODE: end the VM through QEMU's isa-debug-exit device
 * (-device isa-debug-exit,iobase=0xf4,iosize=0x04). QEMU exits with
 * status (CODE << 1) | 1, so the host can tell a guest verdict from a
 * kernel panic (-no-reboot, status 0) or the timeout (124/137).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>

int main(int argc, char **argv)
{
	unsigned int code = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 0) : 0;

	if (ioperm(0xf4, 4, 1)) {
		perror("qexit: ioperm(0xf4)");
		return 1;
	}
	outl(code, 0xf4);
	/* Only reached without the isa-debug-exit device. */
	fprintf(stderr, "qexit: no isa-debug-exit device at 0xf4\n");
	return 1;
}
