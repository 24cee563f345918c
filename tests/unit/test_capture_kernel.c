// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel text sources: kallsyms text range, /proc/modules, sysfs module
 * sections, and the kcore program-header walk. Inputs are written by hand
 * in the formats of proc(5) and the ELF gABI; /proc/kcore itself is read
 * only where this machine has it (otherwise an explicit SKIP line).
 */
#include "unit.h"

#include <elf.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "bundle/bundle.h"
#include "capture/kernel.h"
#include "capture/ktext_hash.h"
#include "capture/ktext_extra.h"
#include "capture/ktext_plan.h"
#include "capture/procfs.h"

static void kallsyms_text_range_finds_stext_and_etext(void)
{
	const char *ks =
		"ffffffff81000000 T startup_64\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81000040 t helper\n"
		"ffffffff81e02000 T _etext\n"
		"ffffffffc0a00000 t mod_fn\t[ptscope]\n";
	struct pts_err err;
	uint64_t s = 0, e = 0;

	CU_ASSERT_EQUAL(pts_kallsyms_text_range(ks, strlen(ks), &s, &e, &err), 0);
	CU_ASSERT_EQUAL(s, 0xffffffff81000000ULL);
	CU_ASSERT_EQUAL(e, 0xffffffff81e02000ULL);
}

static void kallsyms_with_hidden_addresses_says_kptr_restrict(void)
{
	const char *ks = "0000000000000000 T _stext\n0000000000000000 T _etext\n";
	struct pts_err err;
	uint64_t s, e;

	CU_ASSERT_EQUAL(pts_kallsyms_text_range(ks, strlen(ks), &s, &e, &err), -EACCES);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "kptr_restrict"));
}

static void kallsyms_without_etext_is_enoent(void)
{
	const char *ks = "ffffffff81000000 T _stext\nffffffff81000000 T _stext_x\n";
	struct pts_err err;
	uint64_t s, e;

	CU_ASSERT_EQUAL(pts_kallsyms_text_range(ks, strlen(ks), &s, &e, &err), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "_etext"));
}

static void this_machines_kallsyms_has_a_text_range(void)
{
	struct pts_err err;
	uint64_t s, e;
	char *text;
	size_t len;
	int ret;

	CU_ASSERT_EQUAL_FATAL(pts_read_file("/proc/kallsyms", &text, &len, &err), 0);
	ret = pts_kallsyms_text_range(text, len, &s, &e, &err);
	free(text);
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT(e > s);
	CU_ASSERT(s >= 0xffff800000000000ULL);	/* upper canonical half */
}

static void modules_parse_reads_name_size_and_address(void)
{
	const char *mt =
		"ptscope 61440 0 - Live 0xffffffffc0a00000 (OE)\n"
		"ext4 1040384 1 - Live 0xffffffffc0200000\n"
		"hidden 4096 0 - Live 0x0000000000000000\n";
	struct pts_kmodule *m = NULL;
	struct pts_err err;
	size_t n = 0;

	CU_ASSERT_EQUAL_FATAL(pts_modules_parse(mt, strlen(mt), &m, &n, &err), 0);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_STRING_EQUAL(m[0].name, "ptscope");
	CU_ASSERT_EQUAL(m[0].size, 61440);
	CU_ASSERT_EQUAL(m[0].base, 0xffffffffc0a00000ULL);
	CU_ASSERT_STRING_EQUAL(m[1].name, "ext4");
	CU_ASSERT_EQUAL(m[2].base, 0);
	free(m);
}

static void module_text_from_sysfs_sections_runs_to_the_end_of_the_module(void)
{
	const char *mt = "ptscope 61440 0 - Live 0xffffffffc0a00000\nnosec 4096 0 - Live 0x0\n";
	char dir[] = "/tmp/pts-sysmod-XXXXXX", path[256];
	struct pts_kmodule *m = NULL;
	struct pts_err err;
	size_t n = 0;
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ptscope", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/ptscope/sections", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/ptscope/sections/.text", dir);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "0xffffffffc0a01000\n");
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(pts_modules_parse(mt, strlen(mt), &m, &n, &err), 0);
	pts_kmodules_text(m, n, dir, NULL);
	CU_ASSERT_EQUAL(m[0].text, 0xffffffffc0a01000ULL);
	/* base + size - text = 0xc0a00000 + 61440 - 0xc0a01000 = 57344 */
	CU_ASSERT_EQUAL(m[0].text_size, 57344);
	CU_ASSERT_EQUAL(m[1].text, 0);
	free(m);
	unlink(path);
	snprintf(path, sizeof(path), "%s/ptscope/sections", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/ptscope", dir);
	rmdir(path);
	rmdir(dir);
}

/*
 * A kcore-shaped ELF64 core file of size bytes: a PT_NOTE, then the
 * PT_LOAD segments loads[0..n-1] (vaddr, offset, filesz), laid out by hand
 * per the ELF gABI (Ehdr at 0, Phdrs at 64). Each data byte of segment k
 * (1, 2, ...) is its low address byte XOR k, where the file holds it.
 */
static void write_kcore(const char *path, const Elf64_Phdr *loads, int n, size_t size)
{
	unsigned char *file = calloc(1, size);
	Elf64_Ehdr eh;
	Elf64_Phdr ph[4];
	FILE *f;
	uint64_t i;
	int k;

	CU_ASSERT_FATAL(file != NULL && n < 4);
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_CORE;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = (Elf64_Half)(n + 1);
	memset(ph, 0, sizeof(ph));
	ph[0].p_type = PT_NOTE;
	ph[0].p_offset = 0x200;
	for (k = 1; k <= n; k++) {
		ph[k].p_type = PT_LOAD;
		ph[k].p_vaddr = loads[k - 1].p_vaddr;
		ph[k].p_offset = loads[k - 1].p_offset;
		ph[k].p_filesz = ph[k].p_memsz = loads[k - 1].p_filesz;
		for (i = 0; i < ph[k].p_filesz && ph[k].p_offset + i < size; i++)
			file[ph[k].p_offset + i] = (unsigned char)((ph[k].p_vaddr + i) ^ (uint64_t)k);
	}
	memcpy(file, &eh, sizeof(eh));
	memcpy(file + sizeof(eh), ph, (size_t)(n + 1) * sizeof(ph[0]));
	f = fopen(path, "wb");
	fwrite(file, 1, size, f);
	fclose(f);
	free(file);
}

/* Two segments: 0x100 bytes of kernel text at 0x1000, 0x80 of module text at 0x2000. */
static void write_fake_kcore(const char *path)
{
	static const Elf64_Phdr loads[] = {
		{ .p_vaddr = 0xffffffff81000000ULL, .p_offset = 0x1000, .p_filesz = 0x100 },
		{ .p_vaddr = 0xffffffffc0000000ULL, .p_offset = 0x2000, .p_filesz = 0x80 },
	};

	write_kcore(path, loads, 2, 0x2080);
}

static void kcore_read_maps_virtual_addresses_through_pt_load_headers(void)
{
	char path[] = "/tmp/pts-kcore-XXXXXX";
	struct pts_kcore *kc = NULL;
	unsigned char buf[16];
	struct pts_err err;
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	write_fake_kcore(path);
	CU_ASSERT_EQUAL_FATAL(pts_kcore_open(path, &kc, &err), 0);
	CU_ASSERT_EQUAL(pts_kcore_read(kc, 0xffffffff81000010ULL, buf, 4, &err), 0);
	CU_ASSERT_EQUAL(buf[0], 0x10 ^ 1);
	CU_ASSERT_EQUAL(buf[3], 0x13 ^ 1);
	CU_ASSERT_EQUAL(pts_kcore_read(kc, 0xffffffffc000007cULL, buf, 4, &err), 0);
	CU_ASSERT_EQUAL(buf[0], 0x7c ^ 2);
	/* one byte past the second segment's file part */
	CU_ASSERT_EQUAL(pts_kcore_read(kc, 0xffffffffc000007dULL, buf, 4, &err), -ERANGE);
	/* an address no segment covers */
	CU_ASSERT_EQUAL(pts_kcore_read(kc, 0xffffffff80000000ULL, buf, 1, &err), -ERANGE);
	pts_kcore_close(kc);
	unlink(path);
}

static void kcore_open_of_non_elf_is_einval(void)
{
	struct pts_kcore *kc;
	struct pts_err err;

	CU_ASSERT_EQUAL(pts_kcore_open("/proc/self/status", &kc, &err), -EINVAL);
}

static void this_machines_kcore_holds_the_kernel_text(void)
{
	struct pts_kcore *kc = NULL;
	struct pts_err err;
	unsigned char buf[64];
	uint64_t s, e;
	char *text;
	size_t len;

	CU_ASSERT_EQUAL_FATAL(pts_kcore_open("/proc/kcore", &kc, &err), 0);
	CU_ASSERT_EQUAL_FATAL(pts_read_file("/proc/kallsyms", &text, &len, &err), 0);
	CU_ASSERT_EQUAL(pts_kallsyms_text_range(text, len, &s, &e, &err), 0);
	free(text);
	memset(buf, 0, sizeof(buf));
	CU_ASSERT_EQUAL(pts_kcore_read(kc, s, buf, sizeof(buf), &err), 0);
	/* kernel text is code: 64 zero bytes at _stext would mean a hole */
	for (len = 0; len < sizeof(buf) && !buf[len]; len++)
		;
	CU_ASSERT(len < sizeof(buf));
	pts_kcore_close(kc);
}

/*
 * Tests of this machine's own kernel run only where their source can be
 * read; otherwise they are not registered and a SKIP line says why, so a
 * missing /proc/kcore is never counted as a pass.
 */
static bool kallsyms_addresses_visible(void)
{
	struct pts_err err;
	uint64_t s, e;
	char *text;
	size_t len;
	int ret;

	if (pts_read_file("/proc/kallsyms", &text, &len, &err))
		return false;
	ret = pts_kallsyms_text_range(text, len, &s, &e, &err);
	free(text);
	return ret == 0;
}

/* Write text to a new temporary file; returns its path (static buffer per call site). */
static void tmp_text(char *path, size_t len, const char *text)
{
	const char *d = getenv("TMPDIR");
	FILE *f;
	int fd;

	snprintf(path, len, "%s/pts-kernel-XXXXXX", d && *d ? d : "/tmp");
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	f = fdopen(fd, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/*
 * Under confidentiality lockdown /proc/kcore is EPERM even for root: the
 * message says lockdown (read from /sys/kernel/security/lockdown's
 * bracketed mode), not CAP_SYS_RAWIO; integrity lockdown does not forbid
 * kcore, so an EPERM there is the capability.
 */
static void kcore_eperm_under_lockdown_says_lockdown(void)
{
	char why[400];

	pts_kcore_why(EPERM, "none integrity [confidentiality]\n", false, why, sizeof(why));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "locked down (confidentiality"));
	CU_ASSERT_PTR_NULL(strstr(why, "CAP_SYS_RAWIO"));
	pts_kcore_why(EPERM, "none [integrity] confidentiality\n", false, why, sizeof(why));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "CAP_SYS_RAWIO"));
	pts_kcore_why(EACCES, NULL, false, why, sizeof(why));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "CAP_SYS_RAWIO"));
	pts_kcore_why(ENOENT, NULL, false, why, sizeof(why));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "CONFIG_PROC_KCORE"));
}

/*
 * In a container /proc/kcore is /dev/null bind-mounted: it opens, reads
 * nothing. Said as such (with the lockdown file of the test, none).
 */
static void kcore_that_is_dev_null_says_container(void)
{
	struct pts_kcore *kc = NULL;
	struct pts_err err = { 0 };
	char lock[256];

	tmp_text(lock, sizeof(lock), "[none] integrity confidentiality\n");
	CU_ASSERT_EQUAL(pts_kcore_open_at("/dev/null", lock, &kc, &err), -ENODEV);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "container"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "/dev/null"));
	unlink(lock);
}

/*
 * kptr_restrict=2: every address reads 0 even for root. Such a listing
 * is recognised (no collapsed one-symbol kernel), and the setting is read
 * from its file; a listing with real addresses is not zeroed.
 */
static void zeroed_kallsyms_is_recognised_with_the_setting(void)
{
	const char *zero =
		"0000000000000000 T _stext\n"
		"0000000000000000 t helper\n"
		"0000000000000000 A per_cpu_start\n"
		"0000000000000000 T _etext\n";
	const char *real =
		"0000000000000000 A fixed_percpu_data\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81e02000 T _etext\n";
	char path[256];

	CU_ASSERT_TRUE(pts_kallsyms_zeroed(zero, strlen(zero)));
	CU_ASSERT_FALSE(pts_kallsyms_zeroed(real, strlen(real)));
	CU_ASSERT_FALSE(pts_kallsyms_zeroed("", 0));
	tmp_text(path, sizeof(path), "2\n");
	CU_ASSERT_EQUAL(pts_kptr_restrict(path), 2);
	unlink(path);
	CU_ASSERT_EQUAL(pts_kptr_restrict("/nonexistent/kptr_restrict"), -1);
}

/*
 * Why kallsyms reads as zeros, by the kernel's rule: with kptr_restrict 0
 * a reader without CAP_SYSLOG still sees zeros when perf_event_paranoid
 * is above 1 (Debian's default is 3), the case of a user given only
 * CAP_PERFMON; the message said "kptr_restrict=0" and nothing else.
 */
static void hidden_kallsyms_says_which_setting_and_capability(void)
{
	char why[160];

	pts_kallsyms_hidden_why(0, 3, why, sizeof(why));
	CU_ASSERT_STRING_EQUAL(why, "kptr_restrict=0, perf_event_paranoid=3: they need CAP_SYSLOG "
			       "(or perf_event_paranoid 1 or less)");
	pts_kallsyms_hidden_why(1, 3, why, sizeof(why));
	CU_ASSERT_STRING_EQUAL(why, "kptr_restrict=1: they need CAP_SYSLOG");
	pts_kallsyms_hidden_why(2, 0, why, sizeof(why));
	CU_ASSERT_STRING_EQUAL(why, "kptr_restrict=2: even root sees none");
	pts_kallsyms_hidden_why(0, 1, why, sizeof(why));
	CU_ASSERT_STRING_EQUAL(why, "kptr_restrict=0, perf_event_paranoid=1");
}

/*
 * Kernel code outside the text sections, found in kallsyms by module:
 * two BPF programs back to back (one range, to the module symbol after
 * them), an ftrace trampoline whose next symbol is far (64 KiB taken),
 * a kprobe slot with no symbol after it (to its page end); a module's own
 * symbol and a hidden (address 0) BPF symbol give none.
 */
static void kallsyms_names_bpf_trampolines_and_probe_slots(void)
{
	const char *ks =
		"ffffffff81000000 T _stext\n"
		"ffffffffc0001400 t bpf_prog_bb_bar\t[bpf]\n"
		"ffffffffc0001000 t bpf_prog_aa_foo\t[bpf]\n"
		"ffffffffc0001800 t mod_fn\t[mymod]\n"
		"ffffffffc0100000 t ftrace_trampoline\t[__builtin__ftrace]\n"
		"ffffffffc0200010 t kprobe_insn_page\t[__builtin__kprobes]\n"
		"0000000000000000 t bpf_hidden\t[bpf]\n"
		"ffffffff81e00000 T _etext\n";
	struct pts_krange *r = NULL;
	size_t n = 0;

	CU_ASSERT_EQUAL_FATAL(pts_kallsyms_extra_text(ks, strlen(ks), &r, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_STRING_EQUAL(r[0].name, "bpf_prog_aa_foo");
	CU_ASSERT_EQUAL(r[0].start, 0xffffffffc0001000ULL);
	CU_ASSERT_EQUAL(r[0].end, 0xffffffffc0001800ULL);
	CU_ASSERT_STRING_EQUAL(r[1].name, "ftrace_trampoline");
	CU_ASSERT_EQUAL(r[1].end, 0xffffffffc0100000ULL + PTS_KTEXT_EXTRA_MAX);
	CU_ASSERT_STRING_EQUAL(r[2].name, "kprobe_insn_page");
	CU_ASSERT_EQUAL(r[2].start, 0xffffffffc0200010ULL);
	CU_ASSERT_EQUAL(r[2].end, 0xffffffffc0201000ULL);
	free(r);
}

/*
 * A kprobe slot in the last page of the address space with no symbol
 * after it: its range runs to that page's end (2^64, one byte short as
 * it does not fit in 64 bits), not to 0 (an empty, reversed range).
 */
static void probe_slot_in_the_last_page_runs_to_the_end_of_the_space(void)
{
	const char *ks = "ffffffff81000000 T _stext\n"
			 "fffffffffffff800 t optinsn_slot\t[__builtin__kprobes]\n";
	struct pts_krange *r = NULL;
	size_t n = 0;

	CU_ASSERT_EQUAL_FATAL(pts_kallsyms_extra_text(ks, strlen(ks), &r, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(r[0].start, 0xfffffffffffff800ULL);
	CU_ASSERT_EQUAL(r[0].end, UINT64_MAX);
	free(r);
}

/*
 * An address of more than 64 bits is no kallsyms line (strtoull makes it
 * 2^64 - 1, which once gave a range [2^64 - 1, 2^64 - 1)), and a symbol
 * at the last address has no byte to take: no range from either.
 */
static void address_past_64_bits_or_at_the_last_byte_gives_no_range(void)
{
	const char *ks = "ffffffff81000000 T _stext\n"
			 "fffffffffffa0001080 t bpf_prog_x\t[bpf]\n"
			 "ffffffffffffffff t bpf_prog_y\t[bpf]\n";
	struct pts_krange *r = NULL;
	size_t n = 0;

	CU_ASSERT_EQUAL_FATAL(pts_kallsyms_extra_text(ks, strlen(ks), &r, &n), 0);
	CU_ASSERT_EQUAL(n, 0);
	free(r);
}

/*
 * A BPF program's bytes come from kcore like any text: the fake kcore's
 * second segment (0xffffffffc0000000, byte = address ^ 2) holds a program
 * named at 0x10 up to a module symbol at 0x40.
 */
static void bpf_program_bytes_read_from_a_fake_kcore(void)
{
	const char *ks = "ffffffffc0000010 t bpf_prog_cc_baz\t[bpf]\n"
			 "ffffffffc0000040 t after\t[m]\n";
	char path[] = "/tmp/pts-kcore-XXXXXX";
	struct pts_kcore *kc = NULL;
	struct pts_krange *r = NULL;
	unsigned char buf[0x30];
	struct pts_err err;
	size_t n = 0;
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	write_fake_kcore(path);
	CU_ASSERT_EQUAL_FATAL(pts_kallsyms_extra_text(ks, strlen(ks), &r, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL_FATAL(r[0].end - r[0].start, sizeof(buf));
	CU_ASSERT_EQUAL_FATAL(pts_kcore_open(path, &kc, &err), 0);
	CU_ASSERT_EQUAL(pts_kcore_read(kc, r[0].start, buf, sizeof(buf), &err), 0);
	CU_ASSERT_EQUAL(buf[0], 0x10 ^ 2);
	CU_ASSERT_EQUAL(buf[0x2f], 0x3f ^ 2);
	pts_kcore_close(kc);
	free(r);
	unlink(path);
}

/*
 * Extra code that cannot be read whole is read to the end of its 4 KiB
 * page, never past its own size. In the last page of the address space
 * the page's end, 2^64, wraps to 0: the range there (ktext_extra.c ends
 * it at 2^64 - 1) was once read again with one byte more than its size,
 * into its buffer of size bytes. Here its 0x7ff bytes lie where the file
 * is short (segment 1), and a second segment holds 0x800: the read must
 * fail, not fill 0x800 bytes.
 */
static void extra_text_read_stops_at_its_page_and_its_size(void)
{
	static const Elf64_Phdr loads[] = {
		{ .p_vaddr = 0xfffffffffffff800ULL, .p_offset = 0x1f00, .p_filesz = 0x7ff },
		{ .p_vaddr = 0xfffffffffffff800ULL, .p_offset = 0x1000, .p_filesz = 0x800 },
		{ .p_vaddr = 0xffffffffc0000f80ULL, .p_offset = 0x1800, .p_filesz = 0x80 },
	};
	struct pts_ktext_range last = { .vaddr = 0xfffffffffffff800ULL, .size = 0x7ff,
					.extra = true };
	struct pts_ktext_range cross = { .vaddr = 0xffffffffc0000f80ULL, .size = 0x100,
					 .extra = true };
	char path[] = "/tmp/pts-kcore-XXXXXX";
	struct pts_kcore *kc = NULL;
	unsigned char *buf = NULL;
	struct pts_err err;
	uint64_t len = 0;
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	write_kcore(path, loads, 3, 0x2000);
	CU_ASSERT_EQUAL_FATAL(pts_kcore_open(path, &kc, &err), 0);
	/* a range over its page's end that kcore has only to it: the page's part */
	CU_ASSERT_EQUAL(pts_ktext_read(kc, &cross, (void **)&buf, &len, &err), 0);
	CU_ASSERT_EQUAL(len, 0x80);
	if (buf)
		CU_ASSERT_EQUAL(buf[0x7f], 0xff ^ 3);
	free(buf);
	buf = NULL;
	len = 0;
	/* the last page: its own 0x7ff bytes cannot be read, nothing more is asked */
	CU_ASSERT_EQUAL(pts_ktext_read(kc, &last, (void **)&buf, &len, &err), -EIO);
	CU_ASSERT_PTR_NULL(buf);
	CU_ASSERT_EQUAL(len, 0);
	free(buf);
	pts_kcore_close(kc);
	unlink(path);
}

/* The bundle's kernel.text[] as the writer makes it from what it copied. */
static struct pts_bundle *bundle_of_sums(const struct pts_ktext_sum *v, size_t n)
{
	struct pts_bundle *b = pts_bundle_new();
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	b->ktext = calloc(n, sizeof(*b->ktext));
	for (i = 0; i < n; i++) {
		memcpy(b->ktext[i].name, v[i].name, sizeof(b->ktext[i].name));
		b->ktext[i].file = strdup("kernel/x.text");
		b->ktext[i].vaddr = v[i].vaddr;
		b->ktext[i].size = v[i].size;
		b->ktext[i].has_crc32 = true;
		b->ktext[i].crc32 = v[i].crc32;
	}
	b->nr_ktext = n;
	return b;
}

static void put_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/*
 * Kernel code hashed at arm and again at the end, from a fake kcore:
 * vmlinux is 0xffffffff81000000..+0x80 (kallsyms _stext/_etext), a BPF
 * program at 0xffffffffc0000010 runs to the next symbol (0x30 bytes).
 * A byte of vmlinux patched (text_poke) is one range changed; the BPF
 * program replaced by another at 0xffffffffc0000020 is one loaded and
 * one gone. The vmlinux hash is the CRC-32 of the bytes laid out by hand
 * (i ^ 1 at offset i).
 */
static void kernel_code_hashed_at_arm_and_at_the_end_tells_what_changed(void)
{
	char kc_path[] = "/tmp/pts-kcore-XXXXXX", ks_path[] = "/tmp/pts-ks-XXXXXX";
	struct pts_ktext_files f = { .kallsyms = ks_path, .modules = "/nonexistent/modules",
				     .kcore = kc_path,
				     .src = { .sysdir = "/nonexistent", .vmallocinfo = NULL } };
	struct pts_ktext_sum *arm = NULL, *end = NULL;
	unsigned char text[0x80], x = 0xcc;
	size_t na = 0, ne = 0, changed, loaded, gone, i;
	struct pts_bundle *b;
	struct pts_err err;
	FILE *fp;
	int fd;

	fd = mkstemp(kc_path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	fd = mkstemp(ks_path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	write_fake_kcore(kc_path);
	put_text(ks_path, "ffffffff81000000 T _stext\nffffffff81000080 T _etext\n"
			  "ffffffffc0000010 t bpf_prog_a\t[bpf]\nffffffffc0000040 t after\t[m]\n");
	CU_ASSERT_EQUAL_FATAL(pts_ktext_sums(&f, &arm, &na, &err), 0);
	CU_ASSERT_EQUAL_FATAL(na, 2);
	for (i = 0; i < sizeof(text); i++)
		text[i] = (unsigned char)(i ^ 1);
	CU_ASSERT_STRING_EQUAL(arm[0].name, "vmlinux");
	CU_ASSERT_EQUAL(arm[0].size, 0x80);
	CU_ASSERT_EQUAL(arm[0].crc32, (uint32_t)crc32(0, text, sizeof(text)));
	CU_ASSERT_STRING_EQUAL(arm[1].name, "bpf_prog_a");
	CU_ASSERT_EQUAL(arm[1].size, 0x30);

	/* text_poke: one byte of vmlinux (file offset 0x1000 + 0x10) */
	fp = fopen(kc_path, "r+b");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	fseek(fp, 0x1010, SEEK_SET);
	fwrite(&x, 1, 1, fp);
	fclose(fp);
	CU_ASSERT_EQUAL_FATAL(pts_ktext_sums(&f, &end, &ne, &err), 0);
	b = bundle_of_sums(end, ne);
	CU_ASSERT_EQUAL_FATAL(pts_ktext_compare(b, arm, na), 0);
	pts_bundle_ktext_changes(b, &changed, &loaded, &gone);
	CU_ASSERT_EQUAL(changed, 1);
	CU_ASSERT_EQUAL(loaded, 0);
	CU_ASSERT_EQUAL(gone, 0);
	pts_bundle_free(b);
	free(end);

	/* the BPF program replaced by another one at another address */
	put_text(ks_path, "ffffffff81000000 T _stext\nffffffff81000080 T _etext\n"
			  "ffffffffc0000020 t bpf_prog_b\t[bpf]\nffffffffc0000040 t after\t[m]\n");
	CU_ASSERT_EQUAL_FATAL(pts_ktext_sums(&f, &end, &ne, &err), 0);
	b = bundle_of_sums(end, ne);
	CU_ASSERT_EQUAL_FATAL(pts_ktext_compare(b, arm, na), 0);
	pts_bundle_ktext_changes(b, &changed, &loaded, &gone);
	CU_ASSERT_EQUAL(changed, 1);
	CU_ASSERT_EQUAL(loaded, 1);
	CU_ASSERT_EQUAL(gone, 1);
	CU_ASSERT_EQUAL_FATAL(b->nr_ktext_gone, 1);
	CU_ASSERT_STRING_EQUAL(b->ktext_gone[0].name, "bpf_prog_a");
	pts_bundle_free(b);
	free(end);
	free(arm);
	unlink(kc_path);
	unlink(ks_path);
}

static struct pts_unit_test live_tests[3];
static struct pts_unit_suite live_suite = { "capture_kernel_live", NULL, NULL, live_tests, NULL };

__attribute__((constructor)) static void live_register(void)
{
	struct pts_kcore *kc;
	struct pts_err err;
	int n = 0;

	if (kallsyms_addresses_visible()) {
		live_tests[n++] = (struct pts_unit_test)PTS_TEST(this_machines_kallsyms_has_a_text_range);
		if (!pts_kcore_open("/proc/kcore", &kc, &err)) {
			pts_kcore_close(kc);
			live_tests[n++] =
				(struct pts_unit_test)PTS_TEST(this_machines_kcore_holds_the_kernel_text);
		} else {
			pts_unit_skip(live_suite.name, "this_machines_kcore_holds_the_kernel_text",
				      err.msg);
		}
	} else {
		const char *why = "/proc/kallsyms unreadable or its addresses hidden (kptr_restrict)";

		pts_unit_skip(live_suite.name, "this_machines_kallsyms_has_a_text_range", why);
		pts_unit_skip(live_suite.name, "this_machines_kcore_holds_the_kernel_text", why);
	}
	if (n)
		pts_unit_register(&live_suite);
}

PTS_SUITE(capture_kernel, NULL, NULL,
	  PTS_TEST(kallsyms_text_range_finds_stext_and_etext),
	  PTS_TEST(kallsyms_with_hidden_addresses_says_kptr_restrict),
	  PTS_TEST(hidden_kallsyms_says_which_setting_and_capability),
	  PTS_TEST(kallsyms_without_etext_is_enoent),
	  PTS_TEST(modules_parse_reads_name_size_and_address),
	  PTS_TEST(module_text_from_sysfs_sections_runs_to_the_end_of_the_module),
	  PTS_TEST(kcore_read_maps_virtual_addresses_through_pt_load_headers),
	  PTS_TEST(kcore_open_of_non_elf_is_einval),
	  PTS_TEST(kcore_eperm_under_lockdown_says_lockdown),
	  PTS_TEST(kcore_that_is_dev_null_says_container),
	  PTS_TEST(zeroed_kallsyms_is_recognised_with_the_setting),
	  PTS_TEST(kallsyms_names_bpf_trampolines_and_probe_slots),
	  PTS_TEST(probe_slot_in_the_last_page_runs_to_the_end_of_the_space),
	  PTS_TEST(address_past_64_bits_or_at_the_last_byte_gives_no_range),
	  PTS_TEST(bpf_program_bytes_read_from_a_fake_kcore),
	  PTS_TEST(extra_text_read_stops_at_its_page_and_its_size),
	  PTS_TEST(kernel_code_hashed_at_arm_and_at_the_end_tells_what_changed))
