// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the whole-system trace VM (static, PID 1, the only user
 * process): the workload whose execution QEMU logs. Protocol on the
 * serial console (line-anchored markers, the host drives the monitor):
 *
 *   guest: WSYS-READY            host: enables the log, then types "g\n"
 *   guest: polls stdin (non-blocking read) until it sees 'g', runs the
 *          workload, prints WSYS-END
 *   host:  disables the log, types "h\n"
 *   guest: polls for 'h', dumps the text symbols of /proc/kallsyms
 *          between WSYS-KALLSYMS-BEGIN/END, powers off.
 *
 * The workload: WSYS_PAGES fresh anonymous pages each touched once (one
 * page fault each), getppid() syscalls between them, and a compute loop
 * long enough for timer interrupts to arrive in user mode.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WSYS_PAGES	16
#define WSYS_SPIN	15000

static void say(const char *s)
{
	ssize_t r = write(1, s, strlen(s));
	(void)r;
}

static void wait_for(char c)
{
	char buf[64];
	int fl = fcntl(0, F_GETFL);

	fcntl(0, F_SETFL, fl | O_NONBLOCK);
	for (;;) {
		ssize_t n = read(0, buf, sizeof(buf));
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] == c)
				goto out;
	}
out:
	fcntl(0, F_SETFL, fl);
}

/* Kept out of line so that the loop is real work, not folded away. */
static __attribute__((noinline)) unsigned long spin(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)
		acc += i * 2654435761UL;
	return acc;
}

static void workload(void)
{
	volatile char *p = mmap(NULL, WSYS_PAGES * 4096, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		say("WSYS-ERROR mmap\n");
		return;
	}
	for (int i = 0; i < WSYS_PAGES; i++) {
		p[i * 4096] = (char)i;		/* first touch: a page fault */
		syscall(SYS_getppid);
		spin(WSYS_SPIN);
	}
	munmap((void *)p, WSYS_PAGES * 4096);
}

static void dump_kallsyms(void)
{
	char line[512];
	FILE *f = fopen("/proc/kallsyms", "r");

	say("WSYS-KALLSYMS-BEGIN\n");
	if (f) {
		/* Text symbols of vmlinux only: the timeline names kernel frames. */
		while (fgets(line, sizeof(line), f)) {
			char *t = strchr(line, ' ');
			if (!t || (t[1] != 't' && t[1] != 'T') || strchr(line, '['))
				continue;
			say(line);
		}
		fclose(f);
	}
	say("WSYS-KALLSYMS-END\n");
}

int main(void)
{
	char buf[64];

	mount("proc", "/proc", "proc", 0, NULL);
	snprintf(buf, sizeof(buf), "WSYS-MAIN %p\n", (void *)main);
	say(buf);
	say("WSYS-READY\n");
	wait_for('g');
	workload();
	say("WSYS-END\n");
	wait_for('h');
	dump_kallsyms();
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
