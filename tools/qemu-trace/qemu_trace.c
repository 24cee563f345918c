// SPDX-License-Identifier: GPL-2.0
/*
 * qemu-trace: whole-system reference traces from a QEMU TCG log.
 *
 *   qemu-trace --log QEMU.LOG --kallsyms FILE --exe ELF --out DIR
 *
 * Reads the executed instruction stream of one guest CPU (qlog.h), follows
 * the one user task whose code is ELF (a static, non-PIE executable:
 * its only process) across context switches, and encodes its execution
 * with the reference encoder (tools/ptsynth/lib) in the three scopes:
 * DIR/user.ptscope, DIR/kernel.ptscope, DIR/both.ptscope, each a capture
 * bundle (docs/bundle-format.md) with the ground truth, DIR/cpu.ptscope,
 * both rings of every task on the CPU (per-CPU tracing, no PIP), plus
 * DIR/events.txt, the task's syscalls, exceptions and interrupts as the
 * log shows them (docs/whole-system-traces.md).
 *
 * Following the task (per-thread tracing): the kernel switches stacks in
 * __switch_to_asm (`mov TASK_threadsp(%rsi), %rsp`); the stream between
 * two such instructions belongs to one task. A stretch belongs to the
 * followed task when it runs the task's user code (CPL 3 inside ELF's
 * executable segment) or, without user code, when an interrupt or
 * exception in it came at CPL 0 on the task's kernel stack (the 16 KiB
 * THREAD_SIZE region most of the task's own CPL 0 transfers were on).
 * At switch-out the encoder gets ContextEn 1 -> 0 (FUP + TIP.PGD), at
 * switch-in the next instruction re-enables (TIP.PGE).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <Zydis/Zydis.h>

#include "bundle/bundle.h"
#include "ptsynth_cpu.h"
#include "ptsynth_enc.h"
#include "ptsynth_gt.h"
#include "qlog.h"
#include "uapi/ptscope.h"
#include "util/version.h"

#define THREAD_SHIFT	14		/* x86_64 THREAD_SIZE 16 KiB (no KASAN) */
#define TSC_PER_ITEM	4		/* model time: TSC ticks per executed item */
#define NSCOPES		4		/* user, kernel, both (the task); cpu (all tasks) */

struct sym {
	uint64_t addr;
	char *name;
};

struct ksyms {
	struct sym *v;
	size_t n;
};

struct exe_text {
	uint64_t start, end, pgoff;	/* executable PT_LOAD: [start, end) at file offset */
};

struct scope_out {
	const char *name;		/* "user", "kernel", "both" */
	enum pts_scope scope;
	bool all_tasks;			/* per CPU: every task, no switch-outs */
	uint64_t resume_ip;		/* where the last encoded item continues */
	struct ptsynth_config cfg;
	struct ptsynth_enc *enc;
	FILE *gt;
	char *dir;
};

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int read_ksyms(const char *path, struct ksyms *k)
{
	FILE *f = fopen(path, "r");
	char line[512], name[256], type;
	uint64_t a;
	size_t cap = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %c %255s", &a, &type, name) != 3)
			continue;
		if (k->n == cap) {
			cap = cap ? cap * 2 : 65536;
			k->v = realloc(k->v, cap * sizeof(*k->v));
			if (!k->v)
				return -ENOMEM;
		}
		k->v[k->n].addr = a;
		k->v[k->n].name = strdup(name);
		k->n++;
	}
	fclose(f);
	qsort(k->v, k->n, sizeof(*k->v), sym_cmp);
	return 0;
}

static const struct sym *ksym_at(const struct ksyms *k, uint64_t a)
{
	size_t lo = 0, hi = k->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (k->v[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &k->v[lo - 1] : NULL;
}

static uint64_t ksym_addr(const struct ksyms *k, const char *name)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (!strcmp(k->v[i].name, name))
			return k->v[i].addr;
	return 0;
}

static int read_exe_text(const char *path, struct exe_text *t)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	size_t n, i;
	int rc = -EINVAL;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && elf_getphdrnum(e, &n) == 0) {
		for (i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
				continue;
			t->start = ph.p_vaddr;
			t->end = ph.p_vaddr + ph.p_filesz;
			t->pgoff = ph.p_offset;
			rc = 0;
			break;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

/* The instruction of __switch_to_asm that loads the next task's stack
 * pointer: the first MOV into RSP from memory. */
static uint64_t find_switch_insn(const struct qlog *q, uint64_t fn)
{
	ZydisDecoder dec;
	uint64_t a = fn;
	int i;

	ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	for (i = 0; i < 32; i++) {
		ZydisDecodedInstruction in;
		ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
		size_t off = a - q->kernel.base;

		if (a < q->kernel.base || off + 15 > q->kernel.len)
			return 0;
		if (ZYAN_FAILED(ZydisDecoderDecodeFull(&dec, q->kernel.data + off, 15, &in, ops)))
			return 0;
		if (in.mnemonic == ZYDIS_MNEMONIC_MOV && ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER &&
		    ops[0].reg.value == ZYDIS_REGISTER_RSP && ops[1].type == ZYDIS_OPERAND_TYPE_MEMORY)
			return a;
		a += in.length;
	}
	return 0;
}

/* ------------------------------------------------------------------ */

static void gt_cb(void *ctx, const struct ptsynth_gt_rec *r)
{
	struct scope_out *s = ctx;

	ptsynth_gt_write_rec(s->gt, r);
}

static int mkdir_p(const char *p)
{
	char buf[4096], *s;

	snprintf(buf, sizeof(buf), "%s", p);
	for (s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -errno : 0;
}

static int sb_append(uint8_t **sb, size_t *len, const void *rec, size_t size)
{
	uint8_t *n = realloc(*sb, *len + size);

	if (!n)
		return -ENOMEM;
	memcpy(n + *len, rec, size);
	*sb = n;
	*len += size;
	return 0;
}

/* Bundle for one scope. */
static int write_bundle(struct scope_out *s, const struct qlog *q, const char *kallsyms,
			const char *exe, const struct exe_text *xt, uint64_t tsc_end,
			struct pts_err *err)
{
	struct pts_bundle *b = pts_bundle_new();
	struct pts_bundle_process *p;
	struct pts_bundle_cpu *c;
	struct ptscope_sb_exec *ex;
	struct ptscope_sb_switch sw;
	struct ptscope_sb_trace tr;
	char exbuf[sizeof(struct ptscope_sb_exec) + 64];
	const uint8_t *data;
	uint8_t *sb = NULL;
	size_t len, sb_len = 0, fl;
	uint64_t ksize = 0;
	int rc;

	if (!b)
		return pts_err_set(err, ENOMEM, "out of memory");
	data = ptsynth_enc_data(s->enc, &len);
	rc = pts_bundle_write_file(s->dir, "cpu0.pt", data, len, err);
	if (!rc)
		rc = pts_bundle_write_file(s->dir, "kernel/vmlinux.text",
					   q->kernel.data, q->kernel.len, err);
	if (!rc)
		rc = pts_bundle_copy_file(s->dir, "kernel/kallsyms", kallsyms, &ksize, err);
	if (!rc)
		rc = pts_bundle_copy_file(s->dir, "objects/init", exe, NULL, err);
	if (rc)
		goto out;

	/* Sideband: the task's exec, its switch-in on CPU 0, TraceEn. */
	memset(exbuf, 0, sizeof(exbuf));
	ex = (void *)exbuf;
	fl = strlen("/init") + 1;
	ex->hdr.type = PTSCOPE_SB_EXEC;
	ex->hdr.size = (uint16_t)((sizeof(*ex) + fl + 7) & ~(size_t)7);
	ex->pid = 1;
	ex->tid = 1;
	memcpy(ex->comm, "init", 4);
	memcpy(ex->filename, "/init", fl);
	memset(&sw, 0, sizeof(sw));
	sw.hdr.type = PTSCOPE_SB_SCHED_SWITCH;
	sw.hdr.size = sizeof(sw);
	sw.next_pid = 1;
	sw.next_tid = 1;
	memcpy(sw.next_comm, "init", 4);
	memset(&tr, 0, sizeof(tr));
	tr.hdr.type = PTSCOPE_SB_TRACE_START;
	tr.hdr.size = sizeof(tr);
	tr.rtit_ctl = ptsynth_config_rtit_ctl(&s->cfg);
	tr.pid = 1;
	tr.tid = 1;
	if (sb_append(&sb, &sb_len, ex, ex->hdr.size) || sb_append(&sb, &sb_len, &sw, sizeof(sw)) ||
	    sb_append(&sb, &sb_len, &tr, sizeof(tr))) {
		rc = pts_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	rc = pts_bundle_write_file(s->dir, "sideband.bin", sb, sb_len, err);
	if (rc)
		goto out;

	b->source = PTS_SOURCE_REFERENCE_ENCODER;
	strcpy(b->producer, "qemu-trace " PTS_VERSION);
	strcpy(b->hostname, "qemu-guest");
	ptsynth_cpu_id(&b->cpu_id);
	b->tsc_khz = b->cpu_id.tsc_khz;
	b->config.scope = s->scope;
	b->config.snapshot = false;
	b->config.rtit_ctl = ptsynth_config_rtit_ctl(&s->cfg);
	b->config.buffer_size = 4096;
	while (b->config.buffer_size < len)
		b->config.buffer_size <<= 1;
	b->config.filter_pid = s->all_tasks ? 0 : 1;
	strcpy(b->trigger.reason, "none");
	b->trigger.tsc = tsc_end;
	b->trigger.cpu = 0;
	b->trigger.pid = 1;
	b->trigger.tid = 1;
	b->cpus = calloc(1, sizeof(*b->cpus));
	b->processes = calloc(1, sizeof(*b->processes));
	b->objects = calloc(1, sizeof(*b->objects));
	b->ktext = calloc(1, sizeof(*b->ktext));
	if (!b->cpus || !b->processes || !b->objects || !b->ktext)
		goto nomem;
	b->nr_cpus = 1;
	c = &b->cpus[0];
	strcpy(c->file, "cpu0.pt");
	c->size = len;
	c->buffer_size = b->config.buffer_size;
	c->head = len;
	c->stop_tsc = tsc_end;
	b->sideband_file = strdup("sideband.bin");
	b->sideband_size = sb_len;
	b->ground_truth_file = strdup("ground-truth.txt");
	b->kallsyms_file = strdup("kernel/kallsyms");
	b->kallsyms_size = ksize;
	b->nr_ktext = 1;
	strcpy(b->ktext[0].name, "vmlinux");
	b->ktext[0].file = strdup("kernel/vmlinux.text");
	b->ktext[0].vaddr = q->kernel.base;
	b->ktext[0].size = q->kernel.len;
	b->nr_processes = 1;
	p = &b->processes[0];
	p->pid = 1;
	strcpy(p->comm, "init");
	p->exe = strdup("/init");
	p->maps_arm = calloc(1, sizeof(*p->maps_arm));
	p->tids = calloc(1, sizeof(*p->tids));
	if (!b->sideband_file || !b->ground_truth_file || !b->kallsyms_file ||
	    !b->ktext[0].file || !p->exe || !p->maps_arm || !p->tids)
		goto nomem;
	p->nr_maps_arm = 1;
	p->maps_arm[0].start = xt->start & ~0xfffULL;
	p->maps_arm[0].end = (xt->end + 0xfff) & ~0xfffULL;
	p->maps_arm[0].pgoff = xt->pgoff & ~0xfffULL;
	strcpy(p->maps_arm[0].perms, "r-xp");
	p->maps_arm[0].path = strdup("/init");
	p->nr_tids = 1;
	p->tids[0] = 1;
	b->nr_objects = 1;
	b->objects[0].path = strdup("/init");
	b->objects[0].file = strdup("objects/init");
	if (!p->maps_arm[0].path || !b->objects[0].path || !b->objects[0].file)
		goto nomem;
	rc = pts_bundle_write_manifest(s->dir, b, err);
	goto out;
nomem:
	rc = pts_err_set(err, ENOMEM, "out of memory");
out:
	free(sb);
	pts_bundle_free(b);
	return rc;
}

/* ------------------------------------------------------------------ */

struct follow {
	uint32_t *seg;		/* item -> segment number */
	uint8_t *owned;		/* segment -> belongs to the followed task */
	size_t nseg;
	uint64_t stack_region;	/* RSP >> THREAD_SHIFT of the task's kernel stack */
};

static int follow_task(const struct qlog *q, uint64_t switch_ip, const struct exe_text *xt,
		       struct follow *fo)
{
	size_t i, s, best = 0, nreg = 0;
	uint64_t *regs;
	uint8_t *has_user;

	fo->seg = malloc(q->n * sizeof(*fo->seg) + 1);
	regs = malloc(q->n * sizeof(*regs) + 1);
	if (!fo->seg || !regs)
		return -ENOMEM;
	fo->nseg = 1;
	for (i = 0; i < q->n; i++) {
		fo->seg[i] = (uint32_t)(fo->nseg - 1);
		if (q->x[i].kind == QX_INSN && q->x[i].ip == switch_ip)
			fo->nseg++;
	}
	has_user = calloc(fo->nseg, 1);
	fo->owned = calloc(fo->nseg, 1);
	if (!has_user || !fo->owned)
		return -ENOMEM;
	for (i = 0; i < q->n; i++)
		if (q->x[i].kind == QX_INSN && q->x[i].ring == 3 &&
		    q->x[i].ip >= xt->start && q->x[i].ip < xt->end)
			has_user[fo->seg[i]] = 1;
	/* The task's kernel stack: the most common 16 KiB region of its own
	 * CPL 0 interrupts and exceptions. */
	for (i = 0; i < q->n; i++)
		if (q->x[i].kind == QX_ASYNC && q->x[i].ring == 0 && has_user[fo->seg[i]])
			regs[nreg++] = q->x[i].sp >> THREAD_SHIFT;
	fo->stack_region = 0;
	for (i = 0; i < nreg; i++) {
		size_t j, cnt = 0;

		for (j = 0; j < nreg; j++)
			cnt += regs[j] == regs[i];
		if (cnt > best) {
			best = cnt;
			fo->stack_region = regs[i];
		}
	}
	for (s = 0; s < fo->nseg; s++)
		fo->owned[s] = has_user[s];
	for (i = 0; i < q->n; i++)
		if (q->x[i].kind == QX_ASYNC && q->x[i].ring == 0 && fo->stack_region &&
		    (q->x[i].sp >> THREAD_SHIFT) == fo->stack_region)
			fo->owned[fo->seg[i]] = 1;
	free(regs);
	free(has_user);
	return 0;
}

static uint64_t next_insn_ip(const struct qlog *q, size_t i)
{
	for (i++; i < q->n; i++)
		if (q->x[i].kind == QX_INSN)
			return q->x[i].ip;
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: qemu-trace --log QEMU.LOG --kallsyms FILE --exe ELF --out DIR\n"
	      "Encode the execution of the task running ELF, as QEMU logged it with\n"
	      "`log exec,nochain,int,in_asm`, into PT capture bundles for the user,\n"
	      "kernel and both scopes (DIR/{user,kernel,both}.ptscope) with ground\n"
	      "truth, and list its syscalls, exceptions and interrupts in DIR/events.txt.\n",
	      f);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "log", required_argument, NULL, 'l' },
		{ "kallsyms", required_argument, NULL, 'k' },
		{ "exe", required_argument, NULL, 'e' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *log = NULL, *kallsyms = NULL, *exe = NULL, *out = NULL;
	struct scope_out sc[NSCOPES] = {
		{ .name = "user", .scope = PTS_SCOPE_USER },
		{ .name = "kernel", .scope = PTS_SCOPE_KERNEL },
		{ .name = "both", .scope = PTS_SCOPE_BOTH },
		{ .name = "cpu", .scope = PTS_SCOPE_BOTH, .all_tasks = true },
	};
	struct ksyms ks = { 0 };
	struct exe_text xt = { 0 };
	struct qlog q;
	struct follow fo = { 0 };
	struct pts_err err = { 0 };
	uint64_t kbase, kend, switch_ip, tsc = 0;
	uint64_t n_insn = 0, n_user = 0, n_kernel = 0, n_sys = 0, n_exc = 0, n_irq = 0, breaks = 0;
	uint64_t n_ret = 0, foreign_user = 0;
	bool started = false, user_run = false;
	size_t i, s, owned_segs = 0;
	char path[4096];
	FILE *ev;
	int c, rc;

	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'l': log = optarg; break;
		case 'k': kallsyms = optarg; break;
		case 'e': exe = optarg; break;
		case 'o': out = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!log || !kallsyms || !exe || !out) {
		usage(stderr);
		return 2;
	}
	if (read_ksyms(kallsyms, &ks) || !ks.n) {
		fprintf(stderr, "qemu-trace: %s: no symbols (the guest's /proc/kallsyms text symbols)\n",
			kallsyms);
		return 1;
	}
	kbase = ksym_addr(&ks, "_stext");
	kend = ksym_addr(&ks, "_etext");
	if (!kbase || kend <= kbase) {
		fprintf(stderr, "qemu-trace: %s: no _stext/_etext\n", kallsyms);
		return 1;
	}
	kbase &= ~0xfffULL;
	kend = (kend + 0xfff) & ~0xfffULL;
	if (read_exe_text(exe, &xt)) {
		fprintf(stderr, "qemu-trace: %s: no executable PT_LOAD segment\n", exe);
		return 1;
	}
	rc = qlog_read(log, kbase, kend - kbase, &q, &err);
	if (rc) {
		fprintf(stderr, "qemu-trace: %s\n", err.msg);
		return 1;
	}
	if (!q.n) {
		fprintf(stderr, "qemu-trace: %s: no executed instructions; log the window with the "
			"monitor command `log exec,nochain,int,in_asm` (and -D FILE)\n", log);
		qlog_free(&q);
		return 1;
	}
	switch_ip = find_switch_insn(&q, ksym_addr(&ks, "__switch_to_asm"));
	if (!switch_ip)
		fprintf(stderr, "qemu-trace: note: __switch_to_asm did not run in the window\n");
	if (follow_task(&q, switch_ip, &xt, &fo)) {
		fprintf(stderr, "qemu-trace: out of memory\n");
		return 1;
	}
	for (s = 0; s < fo.nseg; s++)
		owned_segs += fo.owned[s];
	/* /init is the only user process: user code anywhere else means a
	 * stretch was not recognised as its own. */
	for (i = 0; i < q.n; i++)
		if (q.x[i].kind == QX_INSN && q.x[i].ring == 3 && !fo.owned[fo.seg[i]])
			foreign_user++;

	for (c = 0; c < NSCOPES; c++) {
		ptsynth_config_default(&sc[c].cfg);
		sc[c].cfg.trace_user = sc[c].scope != PTS_SCOPE_KERNEL;
		sc[c].cfg.trace_os = sc[c].scope != PTS_SCOPE_USER;
		snprintf(path, sizeof(path), "%s/%s.ptscope", out, sc[c].name);
		sc[c].dir = strdup(path);
		if (!sc[c].dir || mkdir_p(path)) {
			fprintf(stderr, "qemu-trace: cannot create %s\n", path);
			return 1;
		}
		snprintf(path, sizeof(path), "%s/ground-truth.txt", sc[c].dir);
		sc[c].gt = fopen(path, "w");
		if (!sc[c].gt) {
			fprintf(stderr, "qemu-trace: %s: %s\n", path, strerror(errno));
			return 1;
		}
		fprintf(sc[c].gt, "%s\n", PTSYNTH_GT_HEADER);
		fprintf(sc[c].gt, "# whole-system trace from a QEMU log, scope %s%s\n", sc[c].name,
			sc[c].all_tasks ? " (both rings, every task on the CPU)" : " (the task /init)");
		fprintf(sc[c].gt, "m %" PRIx64 " %" PRIx64 " %" PRIx64 " objects/init\n",
			xt.start, xt.end, xt.pgoff);
		fprintf(sc[c].gt, "m %" PRIx64 " %" PRIx64 " 0 kernel/vmlinux.text\n", kbase, kend);
		sc[c].enc = ptsynth_enc_new(&sc[c].cfg, gt_cb, &sc[c]);
		if (!sc[c].enc) {
			fprintf(stderr, "qemu-trace: ptsynth_enc_new: %s\n", strerror(errno));
			return 1;
		}
	}
	snprintf(path, sizeof(path), "%s/events.txt", out);
	ev = fopen(path, "w");
	if (!ev) {
		fprintf(stderr, "qemu-trace: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fprintf(ev, "# events of /init in the window, in order: KIND RING AT HANDLER-SYMBOL VECTOR "
		"USER-SCOPE-VISIBLE\n# KIND: syscall, exception, interrupt, return (to user mode)\n");

	for (i = 0; i < q.n; i++) {
		const struct qx *x = &q.x[i];
		bool own = fo.owned[fo.seg[i]];
		struct ptsynth_insn in = { 0 };
		uint64_t target = 0;

		tsc = (i + 1) * TSC_PER_ITEM;
		if (x->kind == QX_INSN) {
			const struct qx *nx = i + 1 < q.n ? &q.x[i + 1] : NULL;

			if (!nx)
				break;		/* its successor is unknown: not encoded */
			in.ip = x->ip;
			in.tsc = tsc;
			in.iclass = x->iclass;
			in.size = x->size;
			in.ring = x->ring;
			in.next_ip = nx->ip;
			/* An asynchronous item's ring is the CPL it interrupted:
			 * where this instruction went (an IRET to user mode
			 * followed at once by an interrupt pending since). */
			in.next_ring = nx->ring;
			if (x->iclass == PTSYNTH_IC_OTHER && in.next_ip != x->ip + x->size)
				breaks++;
		} else {
			target = next_insn_ip(&q, i);
			if (!target)
				break;
		}
		for (c = 0; c < NSCOPES; c++) {
			if (!own && !sc[c].all_tasks) {
				rc = ptsynth_enc_advance(sc[c].enc, tsc);
			} else if (x->kind == QX_INSN) {
				rc = ptsynth_enc_insn(sc[c].enc, &in);
				sc[c].resume_ip = in.next_ip;
				/* Switched out after this instruction. */
				if (!rc && x->ip == switch_ip && !sc[c].all_tasks &&
				    !fo.owned[fo.seg[i + 1]])
					rc = ptsynth_enc_context_off(sc[c].enc, in.next_ip, tsc);
			} else {
				rc = ptsynth_enc_async(sc[c].enc, x->ip, target, 0, tsc);
				sc[c].resume_ip = target;
			}
			if (rc) {
				fprintf(stderr, "qemu-trace: encoder: %s\n", strerror(-rc));
				return 1;
			}
		}
		if (!own)
			continue;

		/* The followed task's figures and events. */
		if (x->kind == QX_INSN) {
			n_insn++;
			if (x->ring)
				n_user++;
			else
				n_kernel++;
			started = true;
			if (x->ring == 3)
				user_run = true;
			if ((x->flags & QX_F_SYSCALL) && x->ring == 3) {
				const struct sym *h = ksym_at(&ks, in.next_ip);

				n_sys++;
				fprintf(ev, "syscall 3 %" PRIx64 " %s 0 1\n", x->ip, h ? h->name : "?");
				user_run = false;
			} else if (x->ring == 0 && in.next_ring == 3) {
				n_ret++;
				fprintf(ev, "return 0 %" PRIx64 " - 0 1\n", x->ip);
			}
		} else if (started) {
			const struct sym *h = ksym_at(&ks, target);

			if (x->flags & QX_F_EXC)
				n_exc++;
			else
				n_irq++;
			/* Last column: whether a user-only trace can show it (the
			 * reference encoder enables at the first retired user
			 * instruction, so a transfer from user mode before any
			 * retired is inside one disabled stretch). */
			fprintf(ev, "%s %u %" PRIx64 " %s %u %d\n",
				x->flags & QX_F_EXC ? "exception" : "interrupt",
				x->ring, x->ip, h ? h->name : "?", x->vector,
				x->ring != 3 || user_run);
			if (x->ring == 3)
				user_run = false;
		}
	}
	fclose(ev);
	for (c = 0; c < NSCOPES; c++) {
		const struct ptsynth_stats *st;

		/* The window closes: tracing stops before the next instruction
		 * (TraceEn cleared), so a decoder ends at a disable rather than
		 * walking on past the last packet. */
		rc = ptsynth_enc_context_off(sc[c].enc, sc[c].resume_ip, tsc);
		if (!rc)
			rc = ptsynth_enc_finish(sc[c].enc, tsc);
		fclose(sc[c].gt);
		if (!rc)
			rc = write_bundle(&sc[c], &q, kallsyms, exe, &xt, tsc, &err);
		if (rc) {
			fprintf(stderr, "qemu-trace: %s: %s\n", sc[c].dir, err.msg);
			return 1;
		}
		st = ptsynth_enc_stats(sc[c].enc);
		printf("scope %-6s %" PRIu64 " instructions traced, %" PRIu64 " bytes, %" PRIu64
		       " TIP.PGE, %" PRIu64 " TIP.PGD, %" PRIu64 " FUP\n",
		       sc[c].name, st->insns, st->bytes, st->tip_pge, st->tip_pgd, st->fup);
		ptsynth_enc_free(sc[c].enc);
	}
	printf("log: %" PRIu64 " TB executions (%" PRIu64 " stopped), %" PRIu64 " translations (%"
	       PRIu64 " retranslated), %" PRIu64 " untranslated executions, %" PRIu64
	       " REP iterations merged\n",
	       q.tb_exec, q.tb_stopped, q.translations, q.retranslations, q.untranslated,
	       q.rep_merged);
	printf("window: %zu items, %" PRIu64 " exceptions (%" PRIu64 " unplaced), %" PRIu64
	       " hardware interrupts; %zu task switches, %zu stretches of /init (kernel stack region %"
	       PRIx64 ")\n", q.n, q.exceptions, q.unplaced, q.hw_interrupts, fo.nseg - 1, owned_segs,
	       fo.stack_region << THREAD_SHIFT);
	printf("/init: %" PRIu64 " instructions (%" PRIu64 " user, %" PRIu64 " kernel), %" PRIu64
	       " syscalls, %" PRIu64 " exceptions, %" PRIu64 " interrupts, %" PRIu64
	       " flow breaks, %" PRIu64 " returns to user mode\n",
	       n_insn, n_user, n_kernel, n_sys, n_exc, n_irq, breaks, n_ret);
	if (foreign_user)
		fprintf(stderr, "qemu-trace: %" PRIu64 " user-mode instructions outside the stretches "
			"taken as /init's\n", foreign_user);
	rc = breaks || q.unplaced || foreign_user ? 1 : 0;
	qlog_free(&q);
	return rc;
}
