// SPDX-License-Identifier: GPL-2.0
/*
 * mmap32 FD SIZE CPU...: a 32-bit (i386) process maps each CPU's trace
 * ring of the capture open on FD through the compact file offset
 * (PTSCOPE_MMAP_RING_OFFSET(cpu), include/uapi/ptscope.h) with mmap2,
 * whose page offset is 32 bits, and prints "cpu N fnv HASH" (FNV-1a
 * 64-bit of SIZE bytes) or "cpu N errno E"; then "cpu16-classic pgoff
 * 0x100000000": the first encoding's offset of CPU 16 needs 33 bits.
 * The 64-bit caller (permtest mmap-compact) compares with what it maps.
 *
 * Freestanding (no 32-bit C library on the build host): raw int $0x80
 * system calls, its own _start.
 */
#include "uapi/ptscope.h"

#define NR_EXIT		1
#define NR_WRITE	4
#define NR_MMAP2	192
#define PROT_READ	1
#define MAP_SHARED	1
#define PAGE_SHIFT	12

static long sys3(long n, long a, long b, long c)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "a"(n), "b"(a), "c"(b), "d"(c)
			 : "memory");
	return r;
}

/* Six arguments: the sixth goes in ebp, which the compiler may not name. */
static long sys6(long n, long a, long b, long c, long d, long e, long f)
{
	long nf[2] = { n, f };
	long r;

	__asm__ volatile("push %%ebp\n\t"
			 "movl 4(%%eax), %%ebp\n\t"
			 "movl 0(%%eax), %%eax\n\t"
			 "int $0x80\n\t"
			 "pop %%ebp"
			 : "=a"(r) : "a"(nf), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
			 : "memory");
	return r;
}

static unsigned long slen(const char *s)
{
	unsigned long n = 0;

	while (s[n])
		n++;
	return n;
}

static void out(const char *s)
{
	sys3(NR_WRITE, 1, (long)s, (long)slen(s));
}

static unsigned long num(const char *s)
{
	unsigned long v = 0;

	while (*s >= '0' && *s <= '9')
		v = v * 10 + (unsigned long)(*s++ - '0');
	return v;
}

/* @v in hexadecimal, no leading zeros, into @buf (19 bytes). */
static const char *hex(unsigned long long v, char *buf)
{
	char *p = buf + 18;

	*p = '\0';
	do {
		*--p = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	*--p = 'x';
	*--p = '0';
	return p;
}

static const char *dec(unsigned long v, char *buf)
{
	char *p = buf + 11;

	*p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return p;
}

void cmain(long *sp);

void cmain(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	char b1[20], b2[20];
	long fd, size, i;

	if (argc < 4) {
		out("usage: mmap32 FD SIZE CPU...\n");
		sys3(NR_EXIT, 2, 0, 0);
	}
	fd = (long)num(argv[1]);
	size = (long)num(argv[2]);
	for (i = 3; i < argc; i++) {
		unsigned long cpu = num(argv[i]);
		unsigned long long off = PTSCOPE_MMAP_RING_OFFSET(cpu);
		long pgoff = (long)(off >> PAGE_SHIFT);
		long p = sys6(NR_MMAP2, 0, size, PROT_READ, MAP_SHARED, fd, pgoff);

		out("cpu ");
		out(dec(cpu, b1));
		if ((unsigned long)p > -4096UL) {
			out(" errno ");
			out(dec((unsigned long)-p, b2));
		} else {
			const unsigned char *m = (const unsigned char *)p;
			unsigned long long h = 0xcbf29ce484222325ULL;
			long k;

			for (k = 0; k < size; k++) {
				h ^= m[k];
				h *= 0x100000001b3ULL;
			}
			out(" fnv ");
			out(hex(h, b2));
		}
		out("\n");
	}
	out("cpu16-classic pgoff ");
	out(hex((16ULL << PTSCOPE_MMAP_CPU_SHIFT) >> PAGE_SHIFT, b1));
	out("\n");
	sys3(NR_EXIT, 0, 0, 0);
}

__asm__(".globl _start\n"
	"_start:\n\t"
	"movl %esp, %eax\n\t"
	"andl $-16, %esp\n\t"
	"subl $12, %esp\n\t"
	"pushl %eax\n\t"
	"call cmain\n\t"
	"hlt\n");
