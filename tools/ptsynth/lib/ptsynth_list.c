// SPDX-License-Identifier: GPL-2.0
/* libipt's instruction flow as a list (ptsynth check --insn-list). */
#include "ptsynth_list.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ptsynth_check.h"

/* Events carry no instruction: drain them. Returns the new status. */
static int drain_events(struct pt_insn_decoder *dec, int status)
{
	while (status >= 0 && (status & pts_event_pending)) {
		struct pt_event ev;

		status = pt_insn_event(dec, &ev, sizeof(ev));
	}
	return status;
}

/* One synchronised run: until the end of the trace or a decode error. */
static int list_run(struct pt_insn_decoder *dec, int status, FILE *out,
		    struct ptsynth_list_result *res)
{
	for (;;) {
		struct pt_insn insn;

		status = drain_events(dec, status);
		if (status < 0)
			return status;
		status = pt_insn_next(dec, &insn, sizeof(insn));
		/* An instruction is valid with a negative status too: the
		 * decoder reports it, then the error that stops after it. */
		if (insn.iclass != ptic_error) {
			if (fprintf(out, "%" PRIx64 "\n", insn.ip) < 0)
				return -pte_internal;
			res->insns++;
		}
		if (status < 0)
			return status;
	}
}

int ptsynth_list_stream(const uint8_t *pt, size_t len, struct pt_image *image,
			const struct pt_cpu *cpu, FILE *out, struct ptsynth_list_result *res,
			struct pts_err *err)
{
	struct pt_insn_decoder *dec;
	uint8_t *copy;
	int status, rc;

	*res = (struct ptsynth_list_result){ 0 };
	rc = ptsynth_insn_decoder(pt, len, image, cpu, &dec, &copy, err);
	if (rc)
		return rc;
	for (;;) {
		status = pt_insn_sync_forward(dec);
		if (status < 0)
			break;	/* no further PSB: the end */
		res->syncs++;
		status = list_run(dec, status, out, res);
		if (status == -pte_internal && ferror(out))
			break;
		if (status == -pte_eos)
			break;
		res->errors++;
	}
	if (ferror(out) || fflush(out))
		rc = pts_err_set(err, EIO, "writing the instruction list: %s", strerror(errno));
	pt_insn_free_decoder(dec);
	free(copy);
	return rc;
}
