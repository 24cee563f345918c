// SPDX-License-Identifier: GPL-2.0
/*
 * sysprog: the known program of the VM's syscall-label scenario
 * (cli_run_user_syscalls). It writes 4096 bytes to /dev/null WRITES times,
 * each time with the `syscall` instruction of the simulated unit's user
 * code image, at 0x7f5100000024, so that the kernel's sys_enter record
 * names the IP the simulated trace resumes at (0x7f5100000026).
 *
 * Why: the simulated unit does not trace this program's instructions; it
 * writes its own rounds of the code image (docs/simulated-unit.md), each
 * ending in that image's `syscall`, in whatever task a tick interrupts.
 * The sideband records, though, are the kernel's real ones. The decoder
 * names an untraced stretch only by a record of the same thread whose IP
 * is the stretch's resume IP, so a real syscall can name a simulated
 * stretch only when it was made from the image's address. This program
 * maps an anonymous page there, copies the image's bytes into it (from
 * /sys/module/ptscope/sim_user_code) and enters at the `syscall` with
 * rax = 1 (write), rdi = /dev/null, rsi = a buffer, rdx = 4096 and rsp =
 * 0: write returns 4096 to 0x26 (`jmp 00`), and the image's first `call`
 * faults on the empty stack; the SIGSEGV handler (on its own stack)
 * jumps back. What the label then says (write, 4096) is the real call's;
 * which simulated stretch carries it is the decoder's in-order rule
 * applied to simulated rounds, not a statement about when the write ran.
 *
 * Between writes it spins without system calls (a counted loop: no
 * clock reads, which may be system calls under TCG), so the stretches of
 * those ticks have no other record of the thread before the write's.
 *
 *   sysprog [WRITES]    (default 5); exit status 0 when every write
 *                       returned 4096 as the image's code saw it
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define IMAGE_BASE	0x7f5100000000UL
#define IMAGE_SYSCALL	(IMAGE_BASE + 0x24)

static sigjmp_buf back;
static volatile long got;

static void on_segv(int sig, siginfo_t *si, void *uc_)
{
	(void)sig;
	(void)si;
	ucontext_t *uc = uc_;

	/* rax still holds what write returned: the image's code left it */
	got = (long)uc->uc_mcontext.gregs[REG_RAX];
	siglongjmp(back, 1);
}

static void spin(unsigned long n)
{
	for (volatile unsigned long i = 0; i < n; i++)
		;
}

static void __attribute__((noreturn)) enter_image(int fd, const void *buf)
{
	register long rax __asm__("rax") = 1;	/* write */
	register long rdi __asm__("rdi") = fd;
	register const void *rsi __asm__("rsi") = buf;
	register long rdx __asm__("rdx") = 4096;
	register unsigned long rcx __asm__("rcx") = IMAGE_SYSCALL;

	__asm__ volatile("xor %%esp, %%esp\n\tjmp *%%rcx"
			 : : "r"(rax), "r"(rdi), "r"(rsi), "r"(rdx), "r"(rcx) : "memory");
	__builtin_unreachable();
}

int main(int argc, char **argv)
{
	static char buf[4096], altstack[65536];
	int writes = argc > 1 ? atoi(argv[1]) : 5, fd, img;
	static volatile int ok;
	struct sigaction sa;
	stack_t ss;
	uint8_t *page;

	img = open("/sys/module/ptscope/sim_user_code", O_RDONLY);
	page = mmap((void *)IMAGE_BASE, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	fd = open("/dev/null", O_WRONLY);
	if (img < 0 || page != (void *)IMAGE_BASE || fd < 0 || read(img, page, 40) != 40) {
		perror("sysprog: setup");
		return 2;
	}
	close(img);
	ss.ss_sp = altstack;
	ss.ss_size = sizeof(altstack);
	ss.ss_flags = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;	/* no sigprocmask on the way back */
	if (sigaltstack(&ss, NULL) || sigaction(SIGSEGV, &sa, NULL)) {
		perror("sysprog: signals");
		return 2;
	}
	spin(20000000);
	for (int i = 0; i < writes; i++) {
		if (!sigsetjmp(back, 0))
			enter_image(fd, buf);
		ok += got == 4096;
		spin(5000000);
	}
	printf("sysprog: %d of %d writes returned 4096\n", ok, writes);
	return ok == writes ? 0 : 1;
}
