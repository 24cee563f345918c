// SPDX-License-Identifier: GPL-2.0
/* QEMU TCG log reader (see qlog.h for the log's rules). */
#include "qlog.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptsynth_iclass.h"

/* One translated instruction. */
struct tbi {
	uint64_t ip;
	uint8_t size, iclass, flags;
};

/* One translation: instructions tbi[first .. first + n). */
struct tb {
	uint64_t pc;
	uint32_t first, n;
};

struct parser {
	struct qlog *q;
	struct tbi *ins;
	size_t nins, cins;
	struct tb *tbs;
	size_t ntbs, ctbs;
	/* pc -> latest translation, open addressing (key 0 = empty) */
	uint64_t *hkey;
	uint32_t *hval;
	size_t hcap, hused;
	/* the IN: block being read */
	bool in_block;
	uint64_t blk_start;
	uint8_t *blk;
	size_t blk_len, blk_cap;
	/* the last executed TB: items [last_start, n) of q->x */
	const struct tb *last_tb;
	size_t last_start;
	int pending;		/* 'h' hardware interrupt, 'e' exception, 0 */
	bool want_cr3;		/* the next CR0= line belongs to the last QX_ASYNC */
	unsigned long lineno;
};

static uint64_t hash64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

static int hput(struct parser *p, uint64_t pc, uint32_t v)
{
	size_t i;

	if ((p->hused + 1) * 2 > p->hcap) {
		size_t ncap = p->hcap ? p->hcap * 2 : 1 << 14, j;
		uint64_t *nk = calloc(ncap, sizeof(*nk));
		uint32_t *nv = calloc(ncap, sizeof(*nv));

		if (!nk || !nv) {
			free(nk);
			free(nv);
			return -ENOMEM;
		}
		for (j = 0; j < p->hcap; j++) {
			if (!p->hkey[j])
				continue;
			for (i = hash64(p->hkey[j]) & (ncap - 1); nk[i]; i = (i + 1) & (ncap - 1))
				;
			nk[i] = p->hkey[j];
			nv[i] = p->hval[j];
		}
		free(p->hkey);
		free(p->hval);
		p->hkey = nk;
		p->hval = nv;
		p->hcap = ncap;
	}
	for (i = hash64(pc) & (p->hcap - 1); p->hkey[i]; i = (i + 1) & (p->hcap - 1)) {
		if (p->hkey[i] == pc) {
			p->hval[i] = v;
			p->q->retranslations++;
			return 0;
		}
	}
	p->hkey[i] = pc;
	p->hval[i] = v;
	p->hused++;
	return 0;
}

static const struct tb *hget(const struct parser *p, uint64_t pc)
{
	size_t i;

	if (!p->hcap)
		return NULL;
	for (i = hash64(pc) & (p->hcap - 1); p->hkey[i]; i = (i + 1) & (p->hcap - 1))
		if (p->hkey[i] == pc)
			return &p->tbs[p->hval[i]];
	return NULL;
}

static struct qx *push(struct qlog *q)
{
	if (q->n == q->cap) {
		size_t ncap = q->cap ? q->cap * 2 : 1 << 16;
		struct qx *nx = realloc(q->x, ncap * sizeof(*nx));

		if (!nx)
			return NULL;
		q->x = nx;
		q->cap = ncap;
	}
	memset(&q->x[q->n], 0, sizeof(q->x[0]));
	return &q->x[q->n++];
}

static void note_bytes(struct qlog_bytes *k, uint64_t ip, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t a = ip + i;

		if (a < k->base || a - k->base >= k->len)
			continue;
		k->data[a - k->base] = b[i];
		if (a < k->lo)
			k->lo = a;
		if (a + 1 > k->hi)
			k->hi = a + 1;
	}
}

/* End of an IN: block: decode its bytes into instructions. */
static int end_block(struct parser *p, struct pts_err *err)
{
	struct tb *t;
	size_t off = 0;

	p->in_block = false;
	if (!p->blk_len)
		return 0;
	if (p->ntbs == p->ctbs) {
		size_t nc = p->ctbs ? p->ctbs * 2 : 4096;
		struct tb *nt = realloc(p->tbs, nc * sizeof(*nt));

		if (!nt)
			return -ENOMEM;
		p->tbs = nt;
		p->ctbs = nc;
	}
	t = &p->tbs[p->ntbs];
	t->pc = p->blk_start;
	t->first = (uint32_t)p->nins;
	t->n = 0;
	while (off < p->blk_len) {
		struct ptsynth_decoded d;
		struct tbi *in;
		size_t left = p->blk_len - off;

		if (ptsynth_classify(p->blk_start + off, p->blk + off, left < 15 ? left : 15, &d))
			return pts_err_set(err, EINVAL,
					   "log line %lu: the bytes at 0x%" PRIx64
					   " of the TB at 0x%" PRIx64 " do not decode",
					   p->lineno, p->blk_start + off, p->blk_start);
		if (p->nins == p->cins) {
			size_t nc = p->cins ? p->cins * 2 : 1 << 15;
			struct tbi *ni = realloc(p->ins, nc * sizeof(*ni));

			if (!ni)
				return -ENOMEM;
			p->ins = ni;
			p->cins = nc;
		}
		in = &p->ins[p->nins++];
		in->ip = p->blk_start + off;
		in->size = d.size;
		in->iclass = (uint8_t)d.iclass;
		in->flags = (d.rep ? QX_F_REP : 0) | (d.is_syscall ? QX_F_SYSCALL : 0);
		t->n++;
		off += d.size;
	}
	note_bytes(&p->q->kernel, p->blk_start, p->blk, p->blk_len);
	p->q->translations++;
	p->ntbs++;
	return hput(p, t->pc, (uint32_t)(p->ntbs - 1));
}

/* "0xADDR:  bb bb bb   text" inside an IN: block. */
static int block_line(struct parser *p, const char *s, struct pts_err *err)
{
	char *end;
	uint64_t a = strtoull(s + 2, &end, 16);

	if (*end != ':')
		return pts_err_set(err, EINVAL, "log line %lu: expected \"0xADDR:\"", p->lineno);
	if (!p->blk_len)
		p->blk_start = a;
	else if (a != p->blk_start + p->blk_len)
		return pts_err_set(err, EINVAL,
				   "log line %lu: instruction at 0x%" PRIx64
				   " does not follow the previous one (0x%" PRIx64 ")",
				   p->lineno, a, p->blk_start + p->blk_len);
	end++;
	while (*end == ' ')
		end++;
	/* Byte pairs separated by one space; two spaces or the end close them. */
	for (;;) {
		unsigned int v;
		char hex[3] = { end[0], end[1], 0 };

		if (!end[0] || !end[1] || sscanf(hex, "%2x", &v) != 1 ||
		    !strchr("0123456789abcdef", end[0]) || !strchr("0123456789abcdef", end[1]))
			break;
		if (end[2] && end[2] != ' ' && end[2] != '\n')
			break;
		if (p->blk_len == p->blk_cap) {
			size_t nc = p->blk_cap ? p->blk_cap * 2 : 1024;
			uint8_t *nb = realloc(p->blk, nc);

			if (!nb)
				return -ENOMEM;
			p->blk = nb;
			p->blk_cap = nc;
		}
		p->blk[p->blk_len++] = (uint8_t)v;
		end += 2;
		if (*end != ' ' || end[1] == ' ')
			break;
		end++;
	}
	return 0;
}

static int exec_line(struct parser *p, const char *s, struct pts_err *err)
{
	uint64_t cs_base, pc, flags;
	const char *b = strchr(s, '[');
	const struct tb *t;
	uint32_t i;

	if (!b || sscanf(b, "[%" SCNx64 "/%" SCNx64 "/%" SCNx64, &cs_base, &pc, &flags) != 3)
		return pts_err_set(err, EINVAL, "log line %lu: bad \"Trace\" line", p->lineno);
	p->q->tb_exec++;
	t = hget(p, pc);
	p->last_start = p->q->n;
	p->last_tb = t;
	if (!t) {
		p->q->untranslated++;
		return 0;
	}
	for (i = 0; i < t->n; i++) {
		const struct tbi *in = &p->ins[t->first + i];
		struct qx *x;

		/* One retirement for all iterations of a REP string instruction. */
		if (p->q->n && p->q->x[p->q->n - 1].kind == QX_INSN &&
		    p->q->x[p->q->n - 1].ip == in->ip && (in->flags & QX_F_REP)) {
			p->q->rep_merged++;
			continue;
		}
		x = push(p->q);
		if (!x)
			return -ENOMEM;
		x->kind = QX_INSN;
		x->ip = in->ip;
		x->size = in->size;
		x->ring = (uint8_t)(flags & 3);
		x->iclass = in->iclass;
		x->flags = in->flags;
	}
	return 0;
}

/* An instruction at `pc` that had not retired when the transfer came:
 * drop what of the last TB was logged from pc on (an exception cuts the
 * TB; an interrupted REP instruction retires only after its last
 * iteration). */
static bool cut_at(struct parser *p, uint64_t pc)
{
	struct qlog *q = p->q;
	size_t i;

	for (i = p->last_start; i < q->n; i++) {
		if (q->x[i].kind == QX_INSN && q->x[i].ip == pc) {
			q->n = i;
			return true;
		}
	}
	/* A merged REP iteration: the instruction is the item before. */
	if (q->n && q->x[q->n - 1].kind == QX_INSN && q->x[q->n - 1].ip == pc &&
	    (q->x[q->n - 1].flags & QX_F_REP)) {
		q->n--;
		return true;
	}
	return false;
}

static int int_line(struct parser *p, const char *s, struct pts_err *err)
{
	unsigned int v, e, i, cpl;
	uint64_t pc = 0, sp = 0;
	const char *pcs = strstr(s, " pc="), *sps = strstr(s, " SP=");
	struct qx *x;

	if (sscanf(strstr(s, "v="), "v=%x e=%x i=%x cpl=%u", &v, &e, &i, &cpl) != 4 || !pcs)
		return pts_err_set(err, EINVAL, "log line %lu: bad interrupt line", p->lineno);
	pc = strtoull(pcs + 4, NULL, 16);
	if (sps && strchr(sps, ':'))
		sp = strtoull(strchr(sps, ':') + 1, NULL, 16);
	if (i) {
		/* INT n / INT3 / INTO: the instruction itself transfers (a far
		 * branch in the stream); nothing asynchronous. */
		p->q->sw_interrupts++;
		p->pending = 0;
		return 0;
	}
	if (p->pending == 'e') {
		p->q->exceptions++;
		if (!cut_at(p, pc))
			p->q->unplaced++;
	} else {
		p->q->hw_interrupts++;
		/* Taken between TBs; an interrupted REP instruction has not retired. */
		if (p->q->n && p->q->x[p->q->n - 1].kind == QX_INSN &&
		    p->q->x[p->q->n - 1].ip == pc && (p->q->x[p->q->n - 1].flags & QX_F_REP))
			p->q->n--;
	}
	x = push(p->q);
	if (!x)
		return -ENOMEM;
	x->kind = QX_ASYNC;
	x->ip = pc;
	x->ring = (uint8_t)cpl;
	x->vector = (uint8_t)v;
	x->flags = p->pending == 'e' ? QX_F_EXC : QX_F_HW;
	x->sp = sp;
	p->pending = 0;
	p->want_cr3 = true;
	/* Items after this belong to no TB logged so far. */
	p->last_start = p->q->n;
	p->last_tb = NULL;
	return 0;
}

int qlog_read(const char *path, uint64_t kbase, size_t klen, struct qlog *q,
	      struct pts_err *err)
{
	struct parser p = { .q = q };
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;

	memset(q, 0, sizeof(*q));
	if (!f)
		return pts_err_set(err, ENOENT, "%s: %s", path, strerror(errno));
	q->kernel.base = kbase;
	q->kernel.len = klen;
	q->kernel.lo = UINT64_MAX;
	q->kernel.data = malloc(klen);
	if (!q->kernel.data) {
		fclose(f);
		return pts_err_set(err, ENOMEM, "out of memory");
	}
	memset(q->kernel.data, 0xcc, klen);
	while (!rc && getline(&line, &cap, f) > 0) {
		const char *s = line;

		p.lineno++;
		if (p.in_block) {
			if (!strncmp(s, "0x", 2)) {
				rc = block_line(&p, s, err);
				continue;
			}
			rc = end_block(&p, err);
			if (rc)
				break;
		}
		if (!strncmp(s, "IN:", 3)) {
			p.in_block = true;
			p.blk_len = 0;
		} else if (!strncmp(s, "Trace ", 6)) {
			rc = exec_line(&p, s, err);
		} else if (!strncmp(s, "Stopped execution of TB chain", 29)) {
			const char *b = strchr(s, '[');
			uint64_t pc = b ? strtoull(b + 1, NULL, 16) : 0;

			/* The TB just announced did not run. */
			if (p.last_tb && p.last_tb->pc == pc) {
				q->n = p.last_start;
				p.last_tb = NULL;
			} else if (!p.last_tb && pc) {
				/* an untranslated one (window start) */
			}
			q->tb_stopped++;
			q->tb_exec--;
		} else if (!strncmp(s, "Servicing hardware INT=", 23)) {
			p.pending = 'h';
		} else if (!strncmp(s, "check_exception", 15)) {
			p.pending = 'e';
		} else if (strstr(s, ": v=") && strstr(s, " cpl=")) {
			rc = int_line(&p, s, err);
		} else if (p.want_cr3 && !strncmp(s, "CR0=", 4) && strstr(s, "CR3=")) {
			q->x[q->n - 1].cr3 = strtoull(strstr(s, "CR3=") + 4, NULL, 16);
			p.want_cr3 = false;
		}
	}
	if (!rc && p.in_block)
		rc = end_block(&p, err);
	free(line);
	fclose(f);
	free(p.ins);
	free(p.tbs);
	free(p.hkey);
	free(p.hval);
	free(p.blk);
	if (rc)
		qlog_free(q);
	return rc;
}

void qlog_free(struct qlog *q)
{
	free(q->x);
	free(q->kernel.data);
	memset(q, 0, sizeof(*q));
}
