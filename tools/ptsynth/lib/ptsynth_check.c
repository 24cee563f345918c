// SPDX-License-Identifier: GPL-2.0
/* libipt instruction decoder vs ground truth. */
#include "ptsynth_check.h"
#include "ptsynth_list.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cmp {
	const struct ptsynth_gt *gt;
	size_t pos;			/* next ground-truth record to match */
	struct ptsynth_check_result *res;
	struct pts_err *err;
	uint64_t decoded;		/* decoder items seen (for messages) */
};

/* Skip records a decoder never reports: lost instructions and PSB marks. */
static const struct ptsynth_gt_ev *next_expected(struct cmp *c)
{
	while (c->pos < c->gt->nr_ev) {
		const struct ptsynth_gt_ev *ev = &c->gt->ev[c->pos];

		if (ev->kind != 'l' && ev->kind != 'p')
			return ev;
		c->pos++;
	}
	return NULL;
}

static int mismatch(struct cmp *c, const char *what, uint64_t ip, uint64_t arg)
{
	const struct ptsynth_gt_ev *ev = next_expected(c);

	if (!ev)
		return pts_err_set(c->err, EPROTO,
				   "decoded item %" PRIu64 " (%s %#" PRIx64 " %#" PRIx64
				   ") is past the end of the ground truth",
				   c->decoded, what, ip, arg);
	return pts_err_set(c->err, EPROTO,
			   "ground-truth record %zu: expected '%c %#" PRIx64 " %#" PRIx64
			   "', decoder gave %s %#" PRIx64 " %#" PRIx64 " (decoded item %" PRIu64 ")",
			   c->pos, ev->kind, ev->ip, ev->arg, what, ip, arg, c->decoded);
}

static int expect(struct cmp *c, char kind, uint64_t ip, uint64_t arg, bool check_arg,
		  const char *what)
{
	const struct ptsynth_gt_ev *ev = next_expected(c);

	c->decoded++;
	if (!ev || ev->kind != kind || (kind != 'd' && ev->ip != ip) ||
	    (check_arg && ev->arg != arg))
		return mismatch(c, what, ip, arg);
	c->pos++;
	if (kind == 'i')
		c->res->insns++;
	else
		c->res->events++;
	return 0;
}

static int on_event(struct cmp *c, const struct pt_event *ev)
{
	switch (ev->type) {
	case ptev_enabled:
		if (ev->status_update)
			return 0;
		return expect(c, 'e', ev->variant.enabled.ip, 0, false, "enabled");
	case ptev_disabled:
		return expect(c, 'd', 0, 0, false, "disabled");
	case ptev_async_disabled:
		return expect(c, 'a', ev->variant.async_disabled.at, 0, false, "async-disabled");
	case ptev_async_branch:
		return expect(c, 'b', ev->variant.async_branch.from,
			      ev->variant.async_branch.to, true, "async-branch");
	case ptev_overflow:
		return expect(c, 'o', ev->variant.overflow.ip, 0, false, "overflow");
	default:
		return 0;	/* timing, mode and power events are not compared */
	}
}

/* Position in gt where decoding from the first PSB at or after wrap_offset starts. */
static size_t start_pos(const struct ptsynth_gt *gt, uint64_t *skipped)
{
	size_t i;

	*skipped = 0;
	for (i = 0; i < gt->nr_ev; i++)
		if (gt->ev[i].kind == 'p' && gt->ev[i].arg >= gt->wrap_offset)
			break;
	for (size_t j = 0; j < i; j++)
		if (gt->ev[j].kind != 'p')
			(*skipped)++;
	return i;
}

int ptsynth_insn_decoder(const uint8_t *pt, size_t len, struct pt_image *image,
			 const struct pt_cpu *cpu, struct pt_insn_decoder **decp,
			 uint8_t **copyp, struct pts_err *err)
{
	struct pt_insn_decoder *dec;
	struct pt_config cfg;
	uint8_t *copy;
	int status;

	/* libipt 2.0.5 may read a byte past a PSB cut at the end: pad. */
	copy = calloc(1, len + 32);
	if (!copy)
		return pts_err_set(err, ENOMEM, "out of memory");
	memcpy(copy, pt, len);

	pt_config_init(&cfg);
	cfg.begin = copy;
	cfg.end = copy + len;
	if (cpu) {
		cfg.cpu = *cpu;
		if (pt_cpu_errata(&cfg.errata, &cfg.cpu) < 0)
			memset(&cfg.errata, 0, sizeof(cfg.errata));	/* newer than libipt */
	}
	dec = pt_insn_alloc_decoder(&cfg);
	if (!dec) {
		free(copy);
		return pts_err_set(err, ENOMEM, "pt_insn_alloc_decoder failed");
	}
	status = pt_insn_set_image(dec, image);
	if (status < 0) {
		pt_insn_free_decoder(dec);
		free(copy);
		return pts_err_set(err, EPROTO, "pt_insn_set_image: %s",
				   pt_errstr(pt_errcode(status)));
	}
	*decp = dec;
	*copyp = copy;
	return 0;
}

int ptsynth_check_stream(const uint8_t *pt, size_t len, const struct ptsynth_gt *gt,
			 struct pt_image *image, const struct pt_cpu *cpu,
			 struct ptsynth_check_result *res, struct pts_err *err)
{
	struct pt_insn_decoder *dec;
	struct cmp c = { .gt = gt, .res = res, .err = err };
	uint8_t *copy;
	size_t i;
	int status, rc = 0;

	memset(res, 0, sizeof(*res));
	c.pos = start_pos(gt, &res->skipped);
	for (i = c.pos; i < gt->nr_ev; i++)
		if (gt->ev[i].kind == 'i')
			res->expected_insns++;

	rc = ptsynth_insn_decoder(pt, len, image, cpu, &dec, &copy, err);
	if (rc)
		return rc;

	status = pt_insn_sync_forward(dec);
	if (status < 0) {
		rc = pts_err_set(err, EPROTO, "no PSB to synchronise on: %s",
				 pt_errstr(pt_errcode(status)));
		goto out;
	}
	for (;;) {
		struct pt_insn insn;

		while (status & pts_event_pending) {
			struct pt_event ev;

			status = pt_insn_event(dec, &ev, sizeof(ev));
			if (status < 0)
				break;
			rc = on_event(&c, &ev);
			if (rc)
				goto out;
		}
		if (status < 0)
			break;
		status = pt_insn_next(dec, &insn, sizeof(insn));
		if (insn.iclass != ptic_error) {
			rc = expect(&c, 'i', insn.ip, 0, false, "insn");
			/* Past the end of a trace that stops while enabled the
			 * decoder walks on to the next branch: not an error. */
			if (rc && !next_expected(&c) && c.pos == gt->nr_ev && gt->nr_ev &&
			    gt->ev[gt->nr_ev - 1].kind == 'i') {
				pts_err_clear(err);
				rc = 0;
				res->walked++;
			}
			if (rc)
				goto out;
		}
		if (status < 0)
			break;
	}
	if (status != -pte_eos) {
		const struct ptsynth_gt_ev *ev = next_expected(&c);

		rc = pts_err_set(err, EPROTO,
				 "decode error after %" PRIu64 " matched instructions: %s "
				 "(next ground-truth record %zu: '%c %#" PRIx64 "')",
				 res->insns, pt_errstr(pt_errcode(status)), c.pos,
				 ev ? ev->kind : '-', ev ? ev->ip : 0);
		goto out;
	}
	if (next_expected(&c)) {
		const struct ptsynth_gt_ev *ev = next_expected(&c);

		rc = pts_err_set(err, EPROTO,
				 "trace ended at ground-truth record %zu of %zu ('%c %#" PRIx64
				 "'): the decoder reported fewer items",
				 c.pos, gt->nr_ev, ev->kind, ev->ip);
	}
out:
	pt_insn_free_decoder(dec);
	free(copy);
	return rc;
}

int ptsynth_read_file(const char *path, uint8_t **buf, size_t *len, struct pts_err *err)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return pts_err_set(err, errno, "cannot open %s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	*buf = malloc(n > 0 ? (size_t)n : 1);
	if (!*buf) {
		fclose(f);
		return pts_err_set(err, ENOMEM, "out of memory reading %s", path);
	}
	*len = fread(*buf, 1, (size_t)n, f);
	fclose(f);
	return 0;
}

int ptsynth_image_add(struct pt_image_section_cache *isc, struct pt_image *image,
		      const char *path, uint64_t offset, uint64_t size, uint64_t vaddr,
		      struct pts_err *err)
{
	int isid = pt_iscache_add_file(isc, path, offset, size, vaddr);

	if (isid < 0)
		return pts_err_set(err, ENOENT, "image section %s at %#" PRIx64 ": %s", path,
				   vaddr, pt_errstr(pt_errcode(isid)));
	isid = pt_image_add_cached(image, isc, isid, NULL);
	if (isid < 0)
		return pts_err_set(err, EINVAL, "adding %s to the image: %s", path,
				   pt_errstr(pt_errcode(isid)));
	return 0;
}

int ptsynth_check_files(const char *pt_path, const char *gt_path, const char *base_dir,
			FILE *list, struct ptsynth_check_result *res, struct pts_err *err)
{
	struct ptsynth_list_result lres;
	struct ptsynth_gt gt;
	struct pt_image_section_cache *isc = NULL;
	struct pt_image *image = NULL;
	struct pt_cpu cpu = { .vendor = pcv_intel, .family = 6, .model = 85, .stepping = 4 };
	uint8_t *pt = NULL;
	size_t len = 0, i;
	int rc;

	rc = ptsynth_gt_read(gt_path, &gt, err);
	if (rc)
		return rc;
	rc = ptsynth_read_file(pt_path, &pt, &len, err);
	if (rc)
		goto out;
	isc = pt_iscache_alloc(NULL);
	image = pt_image_alloc(NULL);
	if (!isc || !image) {
		rc = pts_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < gt.nr_maps && !rc; i++) {
		const struct ptsynth_gt_map *m = &gt.maps[i];
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s", base_dir, m->file);
		rc = ptsynth_image_add(isc, image, path, m->pgoff, m->end - m->start, m->start,
				       err);
	}
	if (!rc && list)
		rc = ptsynth_list_stream(pt, len, image, &cpu, list, &lres, err);
	if (!rc)
		rc = ptsynth_check_stream(pt, len, &gt, image, &cpu, res, err);
out:
	pt_image_free(image);
	pt_iscache_free(isc);
	free(pt);
	ptsynth_gt_free(&gt);
	return rc;
}
