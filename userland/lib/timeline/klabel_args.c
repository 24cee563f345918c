// SPDX-License-Identifier: GPL-2.0
/*
 * The slice arguments of a syscall or page-fault record (klabel.h): what
 * a kernel entry slice of kernel and combined scope carries, the same
 * facts as the label of an untraced stretch of user scope.
 */
#include "klabel.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../util/sysnames.h"

static void arg_str(struct pts_kl_rec *r, const char *name, const char *s)
{
	r->args[r->nargs++] = (struct pts_tl_arg){ .name = name, .type = PTS_TLA_STR, .s = s };
}

static void arg_num(struct pts_kl_rec *r, const char *name, enum pts_tl_arg_type type,
		    int64_t i, uint64_t u)
{
	r->args[r->nargs++] = (struct pts_tl_arg){ .name = name, .type = type, .i = i, .u = u };
}

static void syscall_args(struct pts_kl_rec *r)
{
	const char *name = pts_syscall_name(r->nr);
	const char *e;

	if (!name) {
		snprintf(r->text, sizeof(r->text), "%" PRId64, r->nr);
		name = r->text;
	}
	arg_str(r, "syscall", name);
	arg_num(r, "nr", PTS_TLA_INT, r->nr, 0);
	if (!r->has_exit)
		return;
	arg_num(r, "ret", PTS_TLA_INT, r->ret, 0);
	e = r->ret < 0 && r->ret >= -4095 ? strerrorname_np((int)-r->ret) : NULL;
	if (e)
		arg_str(r, "errno", e);
}

/* SDM vol. 3A 4.7 "Page-Fault Exceptions", worded as pts_kl_label() does */
static void fault_args(struct pts_kl_rec *r)
{
	uint64_t ec = r->error_code;
	const struct { bool set; const char *word; } bits[] = {
		{ ec & (1u << 0), "present" }, { !(ec & (1u << 2)), "kernel" },
		{ ec & (1u << 3), "rsvd" }, { ec & (1u << 5), "pkey" },
		{ ec & (1u << 6), "shstk" }, { ec & (1u << 15), "sgx" },
	};
	size_t i, len = 0;

	arg_num(r, "address", PTS_TLA_PTR, 0, r->addr);
	arg_str(r, "access", ec & (1u << 4) ? "fetch" : ec & (1u << 1) ? "write" : "read");
	arg_num(r, "error_code", PTS_TLA_UINT, 0, ec);
	r->text[0] = '\0';
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (bits[i].set)
			len += (size_t)snprintf(r->text + len, sizeof(r->text) - len, "%s%s",
						len ? "," : "", bits[i].word);
	if (len)
		arg_str(r, "bits", r->text);
}

void pts_kl_make_args(struct pts_kl_rec *r)
{
	r->nargs = 0;
	if (r->kind == PTS_KL_SYSCALL)
		syscall_args(r);
	else
		fault_args(r);
}

const struct pts_tl_arg *pts_kl_args(const struct pts_kl_rec *r, uint32_t *n)
{
	*n = r->nargs;
	return r->args;
}
