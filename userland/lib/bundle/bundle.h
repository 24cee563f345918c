/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capture bundle: a directory NAME.ptscope/ holding manifest.json and the
 * files it names. docs/bundle-format.md is the normative description;
 * this header is its in-memory model. Writers (ptscope record, ptsynth)
 * fill a struct pts_bundle and the files, then call
 * pts_bundle_write_manifest(); readers (ptscope decode) call
 * pts_bundle_read(), which checks every named file exists with the
 * recorded size.
 *
 * All sizes and offsets are bytes, TSC values are TSC ticks, times
 * suffixed _ns are nanoseconds. Paths inside the struct are relative to
 * the bundle directory unless said otherwise.
 *
 * Companions in this folder: maps.h (/proc/PID/maps lines), sideband.h
 * (iterating the sideband file's records), ring.h (oldest-first order of
 * a snapshot ring for the cpuN.pt files).
 */
#ifndef PTS_BUNDLE_H
#define PTS_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../util/err.h"

#define PTS_BUNDLE_FORMAT	"ptscope-bundle"
#define PTS_BUNDLE_VERSION	1
#define PTS_BUNDLE_MANIFEST	"manifest.json"
/*
 * Largest manifest read (bytes): a manifest holds keys, not data (a
 * system-wide capture's is some hundred KiB), and it is read whole.
 */
#define PTS_BUNDLE_MANIFEST_MAX	(64u << 20)

/* Where the trace bytes came from; the decoder's summary repeats it. */
enum pts_bundle_source {
	PTS_SOURCE_HARDWARE = 0,	/* a real PT unit */
	PTS_SOURCE_SIMULATED_UNIT,	/* ptscope.ko's simulated PT unit */
	PTS_SOURCE_REFERENCE_ENCODER,	/* tools/ptsynth */
	PTS_SOURCE_IMPORTED,		/* raw PT imported from elsewhere */
};

enum pts_scope {
	PTS_SCOPE_USER = 1,		/* RTIT_CTL.User only */
	PTS_SCOPE_KERNEL = 2,		/* RTIT_CTL.OS only */
	PTS_SCOPE_BOTH = 3,		/* both */
};

struct pts_bundle_cpu_id {
	char vendor[16];
	uint32_t family, model, stepping;	/* display values */
	uint32_t max_phys_addr;			/* bits */
	uint32_t cpuid_14_0[4];			/* EAX EBX ECX EDX */
	uint32_t cpuid_14_1[4];
	uint32_t cpuid_15[3];			/* EAX denominator, EBX numerator, ECX Hz */
	uint32_t nom_freq;			/* MSR_PLATFORM_INFO[15:8]; 0 unknown */
	uint32_t tsc_khz;			/* 0 unknown */
};

struct pts_bundle_addr_range {
	uint64_t a, b;				/* RTIT_ADDRn_A/B written */
	uint32_t cfg;				/* ADDRn_CFG: 0 off, 1 filter, 2 stop */
};

struct pts_bundle_config {
	enum pts_scope scope;
	bool snapshot;				/* true: ring; false: stop when full */
	uint64_t rtit_ctl;			/* exact value written (TraceEn set) */
	uint64_t cr3_match;			/* 0 when no CR3 filter */
	uint32_t nr_addr;
	struct pts_bundle_addr_range addr[4];
	uint64_t buffer_size;			/* per CPU */
	int32_t filter_pid;			/* 0 none */
	char trigger_spec[128];			/* as given by the user, "" none */
	uint32_t post_trigger_us;
	bool cr3_partial;			/* CR3 filter could not cover all roots */
	bool syscall_records;			/* the sideband has the syscalls and user
						 * page faults (PTSCOPE_CFG_SYSREC) */
};

/* TSC <-> wall clock correlation; `when` is "start", "stop" or free text. */
struct pts_bundle_time_pair {
	char when[16];
	uint64_t tsc;
	uint64_t realtime_ns;
	uint64_t monotonic_ns;
};

struct pts_bundle_trigger {
	char reason[32];			/* "ioctl","tracepoint","hotkey","exit","signal","full","none" */
	char detail[128];			/* e.g. "sched:sched_process_exit" */
	uint64_t tsc;
	int32_t cpu, pid, tid;
};

/* Per-CPU trace file: oldest byte first (a wrapped ring is rotated). */
#define PTS_CPUF_ERROR		(1U << 0)	/* RTIT_STATUS.Error */
#define PTS_CPUF_STOPPED	(1U << 1)	/* RTIT_STATUS.Stopped (full) */
#define PTS_CPUF_CLOBBERED	(1U << 2)	/* RTIT_CTL changed by someone else */
#define PTS_CPUF_OFFLINED	(1U << 3)	/* CPU went offline while tracing */
#define PTS_CPUF_MSR_FAULT	(1U << 4)	/* an RTIT MSR access faulted */
#define PTS_CPUF_CONFLICT	(1U << 5)	/* another PT owner changed the unit */
#define PTS_CPUF_TRACESTOP	(1U << 6)	/* Stopped by a TraceStop range, not full */
#define PTS_CPUF_VMX		(1U << 7)	/* the CPU was in VMX operation */
#define PTS_CPUF_NR		8		/* flag bits defined */
#define PTS_CPUF_ALL		0xffU

struct pts_bundle_cpu {
	uint32_t cpu;
	char file[64];				/* "cpu0.pt" */
	uint64_t size;				/* bytes in file, as the manifest says */
	uint64_t file_size;			/* bytes found on disk (reader fills; differs
						 * from size only with PTS_BUNDLE_READ_PARTIAL) */
	uint64_t buffer_size;			/* ring size */
	uint64_t head;				/* ring offset of the write head at stop */
	bool wrapped;				/* file begins mid-packet */
	uint64_t rtit_status;
	uint32_t flags;				/* PTS_CPUF_* */
	uint64_t start_tsc, stop_tsc;
};

/* One line of /proc/PID/maps. */
struct pts_bundle_map {
	uint64_t start, end;			/* [start, end) */
	uint64_t pgoff;				/* file offset of start */
	char perms[5];				/* "r-xp" */
	char *path;				/* "/usr/bin/true", "[vdso]", "" anon */
	uint32_t dev_major, dev_minor;		/* device of the mapped file, 0 anon */
	uint64_t inode;				/* 0 anon */
};

/*
 * The mappings of the program a process ran after one of its execs
 * during the capture (docs/bundle-format.md 3.9, maps_exec).
 */
struct pts_bundle_maps_exec {
	uint64_t exec_tsc;			/* hdr.tsc of the sideband EXEC record */
	struct pts_bundle_map *maps;
	size_t nr_maps;
};

struct pts_bundle_process {
	int32_t pid;
	char comm[16];
	char *exe;				/* absolute path, may be NULL */
	uint64_t cr3;				/* 0 unknown */
	size_t nr_maps_arm, nr_maps_trigger;
	struct pts_bundle_map *maps_arm;	/* maps taken at arm */
	struct pts_bundle_map *maps_trigger;	/* maps taken at trigger (may be 0) */
	struct pts_bundle_maps_exec *maps_exec;	/* after execs in the capture (may be 0) */
	size_t nr_maps_exec;
	char *vdso_file;			/* bundle file with the vdso bytes, or NULL */
	uint64_t vdso_addr;			/* where it was mapped */
	uint64_t vdso_size;			/* bytes in vdso_file (0: writer takes the file's size) */
	bool vdso_missing;			/* vdso_file not on disk (PTS_BUNDLE_READ_PARTIAL) */
	int32_t *tids;				/* threads seen */
	size_t nr_tids;
};

/* Kernel or module text read from /proc/kcore (or synthesised). */
struct pts_bundle_ktext {
	char name[64];				/* "vmlinux", module name */
	char *file;				/* bundle file with the bytes */
	uint64_t vaddr;
	uint64_t size;
	/*
	 * CRC-32 (zlib's crc32(), the ISO-HDLC polynomial) of the bytes in
	 * file, and of the same range read at arm: they differ when the code
	 * changed during the capture (docs/bundle-format.md 3.10).
	 */
	bool has_crc32;
	uint32_t crc32;
	bool has_crc32_arm;			/* false with text_hashed: loaded during it */
	uint32_t crc32_arm;
};

/* Kernel code hashed at arm that the bundle has no copy of (unloaded during the capture). */
struct pts_bundle_ktext_gone {
	char name[64];
	uint64_t vaddr;
	uint64_t size;				/* bytes hashed at arm */
	uint32_t crc32_arm;
};

/* A user binary: copied into the bundle, or only named (--no-copy). */
struct pts_bundle_object {
	char *path;				/* absolute path on the capture host */
	char *file;				/* bundle copy, NULL with --no-copy */
	char build_id[41];			/* hex NT_GNU_BUILD_ID, "" if none */
	uint64_t size;				/* bytes of the original */
	/*
	 * Bytes of the copy found on disk (reader fills; 0 without a copy):
	 * differs from size only with PTS_BUNDLE_READ_PARTIAL, in a damaged
	 * copy of the bundle, whose copy of this file is then not the file.
	 */
	uint64_t file_size;
	/* The copy is missing from the bundle (file_size 0; PTS_BUNDLE_READ_PARTIAL only). */
	bool copy_missing;
	/*
	 * Why the capture could not read the mapped file ("" when it could):
	 * a file deleted or replaced since it was mapped, or not readable.
	 * No file, size 0, no build-id; a decoder uses no host file for it
	 * unless told where the original is (--sysroot).
	 */
	char not_copied[256];
};

struct pts_bundle {
	char *dir;				/* bundle directory (reader fills) */
	uint32_t version;			/* PTS_BUNDLE_VERSION */
	bool complete;				/* false: writer failed part-way */
	char incomplete_reason[256];
	enum pts_bundle_source source;
	char producer[64];			/* "ptscope 0.1", "ptsynth 0.1" */
	char hostname[64];
	char kernel_release[128];
	struct pts_bundle_cpu_id cpu_id;
	struct pts_bundle_config config;
	uint32_t tsc_khz;
	size_t nr_time_pairs;
	struct pts_bundle_time_pair *time_pairs;
	struct pts_bundle_trigger trigger;
	size_t nr_cpus;
	struct pts_bundle_cpu *cpus;
	char *sideband_file;			/* ptscope sideband records, NULL none */
	uint64_t sideband_size;			/* bytes, as the manifest says */
	uint64_t sideband_file_size;		/* bytes found on disk (reader fills; as cpus[].file_size) */
	bool sideband_missing;			/* not on disk (file_size 0; PTS_BUNDLE_READ_PARTIAL) */
	uint64_t sideband_lost;
	size_t nr_processes;
	struct pts_bundle_process *processes;
	char *kallsyms_file;			/* /proc/kallsyms copy, NULL none */
	uint64_t kallsyms_size;			/* bytes (0: writer takes the file's size) */
	char *modules_file;			/* /proc/modules copy, NULL none */
	uint64_t modules_size;			/* bytes (0: writer takes the file's size) */
	size_t nr_ktext;
	struct pts_bundle_ktext *ktext;
	bool ktext_hashed;			/* kernel code was hashed at arm too */
	size_t nr_ktext_gone;
	struct pts_bundle_ktext_gone *ktext_gone;
	size_t nr_objects;
	struct pts_bundle_object *objects;
	char *ground_truth_file;		/* ptsynth only, NULL otherwise */
	uint64_t ground_truth_size;		/* bytes (0: writer takes the file's size) */
};

/*
 * Read NAME.ptscope/manifest.json and check it: format and version
 * known, required keys present and typed, every named file present with
 * its recorded size. On success *out is a new bundle (free with
 * pts_bundle_free). Errors (err->msg says which key or file):
 *   -ENOENT   directory or manifest or a named file missing
 *   -EINVAL   bad JSON, missing/mistyped key, unknown format/version,
 *             the manifest or a named file not a regular file
 *   -EFBIG    a file's size differs from the manifest (truncated copy),
 *             a manifest of more than PTS_BUNDLE_MANIFEST_MAX bytes
 *   -ENOMEM   out of memory
 * An incomplete bundle (complete=false) is returned, not refused: the
 * caller warns and decodes what is there.
 */
int pts_bundle_read(const char *dir, struct pts_bundle **out, struct pts_err *err);

/*
 * pts_bundle_read() for a decoder that can use part of a damaged copy.
 * With PTS_BUNDLE_READ_PARTIAL a per-CPU trace file (cpus[].file), the
 * sideband file or an object's copy (objects[].file) whose size differs
 * from the manifest is accepted instead of -EFBIG; cpus[i].file_size,
 * sideband_file_size and objects[i].file_size hold the sizes found on
 * disk, and the caller decides what to use and says what is missing
 * (docs/decode.md, "Damaged bundles"); an object's copy, the sideband and
 * a vdso may also be missing (objects[i].copy_missing, sideband_missing,
 * processes[i].vdso_missing). Every other file must still have
 * its recorded size, and every other file must exist. flags 0 is
 * pts_bundle_read(). Same errors otherwise.
 */
#define PTS_BUNDLE_READ_PARTIAL	(1U << 0)
int pts_bundle_read_flags(const char *dir, unsigned int flags, struct pts_bundle **out,
			  struct pts_err *err);

/*
 * Write b as dir/manifest.json, atomically (temporary file + rename).
 * The caller has written the data files already. Errors: -errno of the
 * failing write/rename (-ENOSPC on a full disk), -EINVAL if b is not
 * representable (e.g. a string too long).
 *
 * Every file b names must exist in dir: the manifest records each file's
 * size as found on disk. A size field of 0 in b means "take the file's
 * size"; a non-zero size field that differs from the file is -EINVAL (the
 * caller lost track of what it wrote). A named file that is missing is
 * -ENOENT: a writer that could not write a data file (-ENOSPC) drops the
 * reference, sets complete = false with a reason, and writes the manifest.
 * Scope must agree with RTIT_CTL.OS/User and every ADDRn cfg with
 * RTIT_CTL.ADDRn_CFG (-EINVAL otherwise), as pts_bundle_read() checks.
 */
int pts_bundle_write_manifest(const char *dir, const struct pts_bundle *b,
			      struct pts_err *err);

/*
 * Write `len` bytes to dir/name (creating parent directories inside the
 * bundle), via a temporary name and rename. Errors: -errno (-ENOSPC).
 */
int pts_bundle_write_file(const char *dir, const char *name, const void *data,
			  size_t len, struct pts_err *err);

/*
 * Same as pts_bundle_write_file() for data gathered in pieces (e.g. the two
 * segments of a wrapped ring, see ring.h). iovcnt >= 0; total bytes may
 * exceed SSIZE_MAX only on 64-bit. Errors: -errno (-ENOSPC), -EINVAL for a
 * bad name (absolute, "..", empty).
 */
struct iovec;
int pts_bundle_write_filev(const char *dir, const char *name,
			   const struct iovec *iov, int iovcnt, struct pts_err *err);

/*
 * Copy the file at absolute path src into the bundle as dir/name (temporary
 * name + rename). *size (may be NULL) receives the bytes copied. Errors:
 * -errno of open/read on src (-ENOENT, -EACCES), -errno of the write
 * (-ENOSPC), -EINVAL for a bad name.
 */
int pts_bundle_copy_file(const char *dir, const char *name, const char *src,
			 uint64_t *size, struct pts_err *err);

/* Allocate an empty bundle with version/format set, complete = true. */
struct pts_bundle *pts_bundle_new(void);

/* Free a bundle and everything it owns. NULL is fine. */
void pts_bundle_free(struct pts_bundle *b);

/* Absolute path of a bundle-relative file; caller frees. NULL on ENOMEM. */
char *pts_bundle_path(const struct pts_bundle *b, const char *rel);

/* Text names of enums as they appear in the manifest. */
const char *pts_scope_name(enum pts_scope s);		/* "user","kernel","both" */
const char *pts_source_name(enum pts_bundle_source s);	/* "hardware","simulated-unit",... */

/* Parse the manifest names back; -EINVAL for an unknown name. */
int pts_scope_parse(const char *name, enum pts_scope *out);
int pts_source_parse(const char *name, enum pts_bundle_source *out);

/* RTIT_CTL.MTCFreq (bits 17:14) of config.rtit_ctl: libipt's pt_config.mtc_freq. */
uint32_t pts_bundle_mtc_freq(const struct pts_bundle *b);

/*
 * Kernel code that changed during the capture (docs/bundle-format.md 3.10):
 * text[] ranges whose crc32 differs from crc32_arm, text[] ranges without
 * crc32_arm (not there at arm: loaded during the capture), text_gone[]
 * (there at arm, no copy at the end). All 0 when the writer did not hash
 * at arm.
 */
void pts_bundle_ktext_changes(const struct pts_bundle *b, size_t *changed, size_t *loaded,
			      size_t *gone);

/*
 * The same in words, into buf (len bytes, cut with " ..." when long):
 * "2 changed: vmlinux, ext4; 1 loaded: bpf_prog_x; 1 unloaded (no copy):
 * bpf_prog_y". Returns the number of ranges concerned (0: buf is "").
 */
size_t pts_bundle_ktext_change_text(const struct pts_bundle *b, char *buf, size_t len);

#endif /* PTS_BUNDLE_H */
