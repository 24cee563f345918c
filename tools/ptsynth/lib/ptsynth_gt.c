// SPDX-License-Identifier: GPL-2.0
/* Ground-truth file I/O (format in ptsynth_gt.h). */
#include "ptsynth_gt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ptsynth_gt_write_rec(FILE *f, const struct ptsynth_gt_rec *r)
{
	return ptsynth_gt_write_rec_sp(f, r, 0);
}

int ptsynth_gt_write_rec_sp(FILE *f, const struct ptsynth_gt_rec *r, uint64_t sp)
{
	int n;

	switch (r->kind) {
	case PTSYNTH_GT_INSN:
	case PTSYNTH_GT_LOST:
		/*
		 * Calls carry their size: the return address is ip + size;
		 * a RET its size when it carries the address of the slot it
		 * read (sp), an indirect JMP when it carries the slot just
		 * below its stack pointer (sp).
		 */
		if (r->iclass == PTSYNTH_IC_CALL_DIRECT || r->iclass == PTSYNTH_IC_CALL_INDIRECT ||
		    ((r->iclass == PTSYNTH_IC_RET || r->iclass == PTSYNTH_IC_JMP_INDIRECT) && sp)) {
			if (sp)
				n = fprintf(f, "%c %" PRIx64 " %s %u %" PRIx64 "\n", r->kind, r->ip,
					    ptsynth_iclass_name(r->iclass), r->size, sp);
			else
				n = fprintf(f, "%c %" PRIx64 " %s %u\n", r->kind, r->ip,
					    ptsynth_iclass_name(r->iclass), r->size);
			break;
		}
		n = fprintf(f, "%c %" PRIx64 " %s\n", r->kind, r->ip, ptsynth_iclass_name(r->iclass));
		break;
	case PTSYNTH_GT_ASYNC:
		n = fprintf(f, "b %" PRIx64 " %" PRIx64 "\n", r->ip, r->target);
		break;
	case PTSYNTH_GT_PSB:
		n = fprintf(f, "p %" PRIx64 " %" PRIx64 "\n", r->offset, r->ip);
		break;
	default:
		n = fprintf(f, "%c %" PRIx64 "\n", r->kind, r->ip);
		break;
	}
	return n < 0 ? -errno : 0;
}

int ptsynth_iclass_parse(const char *name)
{
	int c;

	for (c = PTSYNTH_IC_OTHER; c <= PTSYNTH_IC_FAR; c++)
		if (!strcmp(name, ptsynth_iclass_name(c)))
			return c;
	return -1;
}

static int push_ev(struct ptsynth_gt *gt, size_t *cap, const struct ptsynth_gt_ev *ev)
{
	if (gt->nr_ev == *cap) {
		size_t nc = *cap ? *cap * 2 : 4096;
		struct ptsynth_gt_ev *n = realloc(gt->ev, nc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		gt->ev = n;
		*cap = nc;
	}
	gt->ev[gt->nr_ev++] = *ev;
	return 0;
}

int ptsynth_gt_read(const char *path, struct ptsynth_gt *gt, struct pts_err *err)
{
	char *line = NULL, name[32], file[4096];
	size_t lsz = 0, cap = 0, lineno = 0;
	struct ptsynth_gt_ev ev;
	FILE *f;
	int rc = 0;

	memset(gt, 0, sizeof(*gt));
	f = fopen(path, "r");
	if (!f)
		return pts_err_set(err, errno, "cannot open ground truth %s: %s", path,
				   strerror(errno));
	while (getline(&line, &lsz, f) > 0) {
		lineno++;
		memset(&ev, 0, sizeof(ev));
		ev.kind = line[0];
		switch (line[0]) {
		case '#':
		case '\n':
		case 'k':
		case 't':
			continue;
		case 'w':
			if (sscanf(line, "w %" SCNx64, &gt->wrap_offset) != 1)
				goto bad;
			continue;
		case 'm': {
			struct ptsynth_gt_map m, *nm;

			if (sscanf(line, "m %" SCNx64 " %" SCNx64 " %" SCNx64 " %4095s",
				   &m.start, &m.end, &m.pgoff, file) != 4)
				goto bad;
			nm = realloc(gt->maps, (gt->nr_maps + 1) * sizeof(*nm));
			if (!nm)
				goto nomem;
			gt->maps = nm;
			m.file = strdup(file);
			if (!m.file)
				goto nomem;
			gt->maps[gt->nr_maps++] = m;
			continue;
		}
		case 'i':
		case 'l': {
			int c;

			if (sscanf(line + 1, " %" SCNx64 " %31s", &ev.ip, name) != 2)
				goto bad;
			c = ptsynth_iclass_parse(name);
			if (c < 0)
				goto bad;
			ev.iclass = (uint8_t)c;
			break;
		}
		case 'b':
			if (sscanf(line, "b %" SCNx64 " %" SCNx64, &ev.ip, &ev.arg) != 2)
				goto bad;
			break;
		case 'p':
			if (sscanf(line, "p %" SCNx64 " %" SCNx64, &ev.arg, &ev.ip) != 2)
				goto bad;
			break;
		case 'e':
		case 'd':
		case 'a':
		case 'o':
			if (sscanf(line + 1, " %" SCNx64, &ev.ip) != 1)
				goto bad;
			break;
		default:
			goto bad;
		}
		if (push_ev(gt, &cap, &ev))
			goto nomem;
	}
	goto out;
bad:
	rc = pts_err_set(err, EINVAL, "%s:%zu: not a ground-truth record (see docs/ptsynth.md)",
			 path, lineno);
	goto out;
nomem:
	rc = pts_err_set(err, ENOMEM, "out of memory reading %s", path);
out:
	free(line);
	fclose(f);
	if (rc)
		ptsynth_gt_free(gt);
	return rc;
}

void ptsynth_gt_free(struct ptsynth_gt *gt)
{
	size_t i;

	for (i = 0; i < gt->nr_maps; i++)
		free(gt->maps[i].file);
	free(gt->maps);
	free(gt->ev);
	memset(gt, 0, sizeof(*gt));
}
